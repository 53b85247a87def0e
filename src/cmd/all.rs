//! `asr all`: the main job. Runs every experiment on built-in defaults and writes the results into one folder,
//! one section after another (each prints what it reproduces and how long it took).

use anyhow::{Context, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Output folder (created if missing).
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
    /// Seed for every random experiment.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Wormhole figures (seed 004): warm-up cycles per sweep point.
    #[arg(long, default_value_t = 1000)]
    pub worm_warmup: u64,
    /// Wormhole figures (seed 004): measurement cycles per sweep point.
    #[arg(long, default_value_t = 3000)]
    pub worm_measure: u64,
    /// Wormhole figures (seed 004): offered loads, % of λmax.
    #[arg(long, value_delimiter = ',', default_value = super::wormhole_figures::DEFAULT_LOADS)]
    pub worm_loads: Vec<f64>,
}

/// Thesis Table 2.1: the matching heuristic.
fn matching(out: &Path, seed: u64) -> Result<()> {
    let t = Instant::now();
    let margs = super::matching::Args {
        m: vec![4, 8, 16],
        passes: vec![1, 2],
        density: 0.5,
        trials: 100_000,
        seed,
        json: false,
    };
    let cells = super::matching::compute(&margs)?;
    let table = super::matching::render(&cells, t.elapsed().as_secs_f64());
    print!("{table}");
    fs::write(out.join("table2_1.txt"), &table)?;
    fs::write(
        out.join("table2_1.json"),
        serde_json::to_string_pretty(&cells)?,
    )?;
    Ok(())
}

/// Thesis Table 3.1 and Figures A.1–A.10: Beneš saturation throughput, ASR against random routing.
fn benes(out: &Path, seed: u64) -> Result<()> {
    let bargs = super::benes_table::Args {
        sizes: vec![16, 32, 64, 128, 512],
        patterns: vec!["uniform".into(), "shift-right".into()],
        loads: None,
        packets: 1500,
        seed,
        out: out.join("benes"),
        json: false,
    };
    let (rows, secs) = super::benes_table::compute(&bargs, true)?;
    let table = super::benes_table::render(&rows, secs, &bargs);
    print!("{table}");
    super::benes_table::write(&rows, &table, &bargs)?;
    Ok(())
}

/// Thesis Tables 4.1, 4.3, 4.4: route generation on the SP2 systems.
fn routes(out: &Path) -> Result<()> {
    let t = Instant::now();
    let rargs = super::routes_table::Args {
        topologies: super::routes_table::default_names(),
        workers: None,
        full: false,
        json: false,
    };
    let rows = super::routes_table::compute(&rargs)?;
    let table = super::routes_table::render(&rows, t.elapsed().as_secs_f64());
    print!("{table}");
    fs::write(out.join("routes_table.txt"), &table)?;
    fs::write(
        out.join("routes_table.json"),
        serde_json::to_string_pretty(&rows)?,
    )?;
    Ok(())
}

/// What deadlock-free route tables cost (adaptivity, non-minimal pairs, route length, generation time).
fn routes_cost(out: &Path) -> Result<()> {
    let rargs = super::routes_cost::Args {
        topologies: super::routes_cost::default_names(),
        json: false,
    };
    let rows = super::routes_cost::compute(&rargs)?;
    let table = super::routes_cost::render(&rows);
    print!("{table}");
    fs::write(out.join("routes_cost.txt"), &table)?;
    fs::write(
        out.join("routes_cost.json"),
        serde_json::to_string_pretty(&rows)?,
    )?;
    Ok(())
}

/// Seeds 000 and 003: Table 1 (6×6 torus), the torus theorems, Monte Carlo against S, XY / E-cube route
/// tables, and ASR headers against all shortest paths.
fn delivery(out: &Path, seed: u64) -> Result<()> {
    use asr_model::delivery::{delivery, tables, Grid, Policy};
    let dir = out.join("delivery");
    fs::create_dir_all(&dir)?;
    let g = Grid::parse("torus:6x6").map_err(anyhow::Error::msg)?;
    let d = delivery(&g, 0, Policy::Optimal);
    let table = super::paths::render(&g, 0, Policy::Optimal, &d, &g.path_counts(0));
    fs::write(dir.join("table1_torus6x6.txt"), &table)?;
    let all = asr_model::delivery::theorems::torus_range(4, 20);
    let findings = super::paths::render_findings(&all);
    print!("{findings}");
    fs::write(dir.join("torus_theorems.txt"), &findings)?;
    fs::write(
        dir.join("torus_theorems.json"),
        serde_json::to_string_pretty(&all)?,
    )?;
    let mc = super::paths::McArgs {
        topology: "torus:6x6".into(),
        dest: "0,0".into(),
        p: 0.8,
        trials: 20_000,
        seed,
    };
    let (report, _) = super::paths::monte_carlo(&mc)?;
    print!("{report}");
    fs::write(dir.join("monte_carlo_torus6x6.txt"), report)?;
    let sa = super::paths::SimCheckArgs {
        topology: vec!["torus:6x6".into(), "mesh:5x5".into(), "hypercube:4".into()],
        p: 0.8,
        packets: 20_000,
        seed,
        json: false,
    };
    let (rows, report) = super::paths::sim_check(&sa)?;
    print!("{report}");
    fs::write(dir.join("per_hop_simulator.txt"), report)?;
    fs::write(
        dir.join("per_hop_simulator.json"),
        serde_json::to_string_pretty(&rows)?,
    )?;
    for name in ["mesh:8x8", "torus:8x8", "hypercube:6"] {
        let (g, topo) = tables::grid_topology(name).map_err(anyhow::Error::msg)?;
        let routes = tables::dimension_order(&g);
        fs::write(
            dir.join(format!("dimension_order_{}.routes", name.replace(':', "_"))),
            tables::write_table(&topo, &routes),
        )?;
    }
    let rows = super::grid::compute(&super::grid::default_names())?;
    let table = super::grid::render(&rows);
    print!("{table}");
    fs::write(dir.join("asr_coverage.txt"), &table)?;
    fs::write(
        dir.join("asr_coverage.json"),
        serde_json::to_string_pretty(&rows)?,
    )?;
    Ok(())
}

/// HDL: every top's Verilog, and every waveform scenario (`benes8-burst`, `sp2-contention`; HDL and model)
/// with GTKWave save files.
fn hdl(out: &Path) -> Result<()> {
    let files = super::verilog::export(&out.join("verilog"), &[])?;
    for &sc in asr_testbench::wave::SCENARIOS {
        asr_testbench::wave::write(sc, &out.join(format!("waves/{sc}.vcd")), false)?;
        asr_testbench::wave::write(sc, &out.join(format!("waves/{sc}-model.vcd")), true)?;
    }
    eprintln!(
        "asr all: {} Verilog tops in {}/verilog, waves in {}/waves",
        files.len(),
        out.display(),
        out.display()
    );
    Ok(())
}

/// Seed 004: wormhole routing on 2^10 nodes, Figures 1-6 and the sustained-throughput table.
fn wormhole(a: &Args) -> Result<()> {
    let wargs = super::wormhole_figures::Args {
        out: a.out.join("wormhole"),
        n: 10,
        loads: a.worm_loads.clone(),
        warmup: a.worm_warmup,
        measure: a.worm_measure,
        buf: 2,
        watchdog: 2000,
        seed: a.seed,
        cdg: 5,
        from_json: None,
    };
    let w = super::wormhole_figures::compute(&wargs)?;
    print!("{}\n{}", w.table, w.findings);
    eprintln!(
        "asr all: wormhole: {} runs, {:.3e} flit-hops per CPU second",
        w.runs, w.flit_hops_per_cpu_second
    );
    Ok(())
}

/// The SP2-style switch model: throughput, queue occupancy and latency against load.
fn sp2(out: &Path, seed: u64) -> Result<()> {
    let a = super::sp2::Args {
        set_bits: vec![1, 2, 8],
        load: vec![0.2, 0.4, 0.6, 0.8, 0.9, 1.0],
        payload: 32,
        cycles: 50_000,
        seed,
        json: false,
    };
    let stats = super::sp2::compute(&a)?;
    let table = super::sp2::render(&stats, a.payload, super::sp2::cut_through(a.payload)?);
    print!("{table}");
    fs::write(out.join("sp2_switch.txt"), &table)?;
    fs::write(
        out.join("sp2_switch.json"),
        serde_json::to_string_pretty(&stats)?,
    )?;
    Ok(())
}

/// SP2 systems of SP2-style switches, 16 to 512 processors: ASR tables against single-path tables.
fn sp2_systems(out: &Path, seed: u64) -> Result<()> {
    let a = super::sp2_system::Args {
        network: [16, 32, 48, 64, 80, 128, 256, 512]
            .iter()
            .map(|n| format!("sp2:{n}"))
            .collect(),
        routing: vec!["asr".into(), "single".into()],
        deadlock_free: false,
        balance: false,
        load: vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0],
        payload: "32".into(),
        warmup: 2_000,
        measure: 10_000,
        source_queue: 16,
        seed,
        out: Some(out.join("sp2_systems")),
        json: false,
        fail_at: None,
        fail_links: None,
        reroute_delay: 1_000,
    };
    let curves = super::sp2_system::compute(&a)?;
    let table = format!(
        "{}\n{}",
        super::sp2_system::render(&curves, &a),
        super::sp2_system::summary(&curves, 0.3)
    );
    print!("{table}");
    super::sp2_system::write_files(&curves, &a, a.out.as_ref().expect("set above"))?;
    fs::write(out.join("sp2_systems.txt"), &table)?;
    Ok(())
}

pub fn run(a: Args) -> Result<()> {
    // Every argument is checked before the first section runs, the output folder last.
    super::check::count("--worm-warmup", a.worm_warmup, 0, super::check::MAX_CYCLES)?;
    super::check::count(
        "--worm-measure",
        a.worm_measure,
        1,
        super::check::MAX_CYCLES,
    )?;
    if let Some(l) = a.worm_loads.iter().find(|&&l| l.is_nan() || l <= 0.0) {
        anyhow::bail!("--worm-loads {l}: loads must be > 0 (% of λmax)");
    }
    super::check::out_dir("--out", &a.out)?;
    let t0 = Instant::now();
    let sections: [(&str, &dyn Fn() -> Result<()>); 10] = [
        ("Verilog export and waveforms", &|| hdl(&a.out)),
        ("co-simulation of the exported Verilog (Verilator)", &|| {
            super::cosim::suite(&a.out, a.seed)
        }),
        ("Table 2.1 (matching heuristic)", &|| {
            matching(&a.out, a.seed)
        }),
        ("Table 3.1 and Figures A.1-A.10 (Benes networks)", &|| {
            benes(&a.out, a.seed)
        }),
        ("Tables 4.1-4.4 (route generation, SP2 systems)", &|| {
            routes(&a.out)
        }),
        ("deadlock-free route tables: what they cost", &|| {
            routes_cost(&a.out)
        }),
        ("seeds 000/003 (meshes, tori, hypercubes)", &|| {
            delivery(&a.out, a.seed)
        }),
        ("seed 004 (wormhole routing on hypercubes)", &|| {
            wormhole(&a)
        }),
        ("SP2-style switch model", &|| sp2(&a.out, a.seed)),
        ("SP2 systems of SP2-style switches", &|| {
            sp2_systems(&a.out, a.seed)
        }),
    ];
    for (name, f) in sections {
        let t = Instant::now();
        eprintln!("asr all: {name} ...");
        f().with_context(|| format!("asr all: {name}"))?;
        eprintln!("asr all: {name} done in {:.1} s", t.elapsed().as_secs_f64());
    }
    eprintln!(
        "asr all: everything written to {} in {:.1} s",
        a.out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

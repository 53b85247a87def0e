//! `asr all`: the main job. Runs every experiment on built-in defaults and writes the results into one folder,
//! one section after another (each prints what it reproduces and how long it took, wall and CPU).
//!
//! `--quick` runs the same sections with smaller packet counts, cycles and sizes ([`Scale::quick`]) in about
//! a tenth of the time; every text, Markdown, CSV, JSON and SVG file it writes then says so
//! ([`mark_quick`]), and its numbers are not the README's.

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
    /// Wormhole figures (Gravano et al.): warm-up cycles per sweep point.
    #[arg(long, default_value_t = 1000)]
    pub worm_warmup: u64,
    /// Wormhole figures (Gravano et al.): measurement cycles per sweep point.
    #[arg(long, default_value_t = 3000)]
    pub worm_measure: u64,
    /// Wormhole figures (Gravano et al.): offered loads, % of λmax.
    #[arg(long, value_delimiter = ',', default_value = super::wormhole_figures::DEFAULT_LOADS)]
    pub worm_loads: Vec<f64>,
    /// Smaller runs (fewer packets, cycles and sizes; see the README) in about a tenth of the time; every
    /// result file says it is from a quick run. Not the published figures.
    #[arg(long)]
    pub quick: bool,
    /// Also co-simulate every exported top in Verilator against its model (`asr cosim all`: sp2_board_v2 for
    /// 10^7 cycles, every other top for 10^6; about 13 minutes on 2 cores, Verilator builds included).
    /// Not part of the default run, which stays within a few minutes; not with --quick.
    #[arg(long)]
    pub cosim: bool,
    /// Also run every formal proof with its cover task and mutants (`asr prove all --mutants`, SymbiYosys and
    /// Yices from `scripts/setup.sh`; about 17 minutes, one task at a time): jobs and their `results.txt` and
    /// `results.json` in `formal/`. Not part of the default run; not with --quick.
    #[arg(long)]
    pub prove: bool,
}

/// The formal proofs' section: every job with `--prove` (`asr prove`'s [`super::prove::suite`]), else a line
/// saying how to run them.
fn formal(out: &std::path::Path, prove: bool) -> Result<()> {
    if !prove {
        let dir = out.join("formal");
        println!(
            "formal proofs: not in this run (`asr all --prove`, or `asr prove all --mutants --out {}`)\n",
            dir.display()
        );
        return Ok(());
    }
    super::prove::suite(out)
}

/// The sizes of the runs: the published figures ([`Scale::full`]) or `--quick`.
#[derive(Debug, Clone)]
pub struct Scale {
    pub quick: bool,
    pub matching_trials: u64,
    pub benes_sizes: Vec<usize>,
    pub benes_packets: u64,
    pub theorems_max_n: usize,
    pub mc_trials: u64,
    pub per_hop_packets: u64,
    pub coverage: Vec<String>,
    pub worm_n: u32,
    pub worm_warmup: u64,
    pub worm_measure: u64,
    pub worm_loads: Vec<f64>,
    pub sp2_cycles: u64,
    pub systems: Vec<usize>,
    pub sys_warmup: u64,
    pub sys_measure: u64,
}

impl Scale {
    /// The README's figures.
    pub fn full(a: &Args) -> Scale {
        Scale {
            quick: false,
            matching_trials: 100_000,
            benes_sizes: vec![16, 32, 64, 128, 512],
            benes_packets: 1500,
            theorems_max_n: 20,
            mc_trials: 20_000,
            per_hop_packets: 20_000,
            coverage: super::grid::default_names(),
            worm_n: 10,
            worm_warmup: a.worm_warmup,
            worm_measure: a.worm_measure,
            worm_loads: a.worm_loads.clone(),
            sp2_cycles: 50_000,
            systems: vec![16, 32, 48, 64, 80, 128, 256, 512],
            sys_warmup: 2_000,
            sys_measure: 10_000,
        }
    }

    /// `--quick`: a tenth of the trials, packets and cycles, and the smaller sizes (Beneš up to 128 ports,
    /// the wormhole figures on 2^8 nodes, SP2 systems up to 128 processors).
    pub fn quick(a: &Args) -> Scale {
        Scale {
            quick: true,
            matching_trials: 10_000,
            benes_sizes: vec![16, 32, 64, 128],
            benes_packets: 150,
            theorems_max_n: 16,
            mc_trials: 2_000,
            per_hop_packets: 2_000,
            coverage: [
                "mesh:4x4",
                "mesh:8x8",
                "torus:4x4",
                "torus:8x8",
                "hypercube:4",
                "hypercube:6",
            ]
            .map(String::from)
            .to_vec(),
            worm_n: 8,
            worm_warmup: 300,
            worm_measure: 1_000,
            worm_loads: a.worm_loads.clone(),
            sp2_cycles: 5_000,
            systems: vec![16, 32, 48, 64, 80, 128],
            sys_warmup: 500,
            sys_measure: 2_000,
        }
    }
}

/// The line that opens every result file of a `--quick` run.
pub const QUICK_NOTE: &str =
    "QUICK RUN (asr all --quick): smaller packet counts, cycles and sizes; not the published figures (run `asr all`).";

/// Marks every result file under `dir` written since `since` (files of earlier runs in the same folder are
/// left alone) as coming from a quick run: a first line in text and Markdown files, a `#` comment line in
/// CSV and route files, a `"quick_run"` wrapper around JSON, a red note in SVG plots. Verilog, VCD and
/// GTKWave files are not results and stay as they are.
pub fn mark_quick(dir: &Path, since: std::time::SystemTime) -> Result<usize> {
    let mut n = 0;
    for e in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let p = e?.path();
        if p.is_dir() {
            n += mark_quick(&p, since)?;
            continue;
        }
        if fs::metadata(&p)?.modified()? < since {
            continue;
        }
        let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
        let text = match ext {
            "txt" | "md" | "csv" | "json" | "svg" | "routes" => fs::read_to_string(&p)?,
            _ => continue,
        };
        let marked = match ext {
            "txt" | "md" => format!("{QUICK_NOTE}\n\n{text}"),
            "csv" | "routes" => format!("# {QUICK_NOTE}\n{text}"),
            "json" => format!(
                "{{\n\"quick_run\": {},\n\"data\": {text}\n}}\n",
                serde_json::to_string(QUICK_NOTE)?
            ),
            _ => match text.rfind("</svg>") {
                Some(k) => format!(
                    "{}<text x=\"99%\" y=\"99%\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#c00000\">quick run: not the published figures</text>\n{}",
                    &text[..k],
                    &text[k..]
                ),
                None => continue,
            },
        };
        fs::write(&p, marked).with_context(|| format!("writing {}", p.display()))?;
        n += 1;
    }
    Ok(n)
}

/// CPU seconds of this process since `start`, as text (`?` where /proc is not available).
fn cpu_since(start: Option<f64>) -> String {
    match (start, super::wormhole::cpu_seconds()) {
        (Some(a), Some(b)) => format!("{:.1}", b - a),
        _ => "?".into(),
    }
}

/// Thesis Table 2.1: the matching heuristic.
fn matching(out: &Path, seed: u64, sc: &Scale) -> Result<()> {
    let t = Instant::now();
    let margs = super::matching::Args {
        m: vec![4, 8, 16],
        passes: vec![1, 2],
        density: 0.5,
        trials: sc.matching_trials,
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
fn benes(out: &Path, seed: u64, sc: &Scale) -> Result<()> {
    let mut bargs = super::benes_table::Args::thesis(seed, out.join("benes"));
    bargs.sizes = sc.benes_sizes.clone();
    bargs.packets = sc.benes_packets;
    let (rows, secs) = super::benes_table::compute(&bargs, true)?;
    let table = super::benes_table::render(&rows, Some(secs), &bargs);
    print!("{table}");
    super::benes_table::write(&rows, &table, &bargs, bargs.sweep.out_dir()?)?;
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
fn delivery(out: &Path, seed: u64, sc: &Scale) -> Result<()> {
    use asr_model::delivery::{delivery, tables, Grid, Policy};
    let dir = out.join("delivery");
    fs::create_dir_all(&dir)?;
    let g = Grid::parse("torus:6x6").map_err(anyhow::Error::msg)?;
    let d = delivery(&g, 0, Policy::Optimal);
    let table = super::paths::render(&g, 0, Policy::Optimal, &d, &g.path_counts(0));
    fs::write(dir.join("table1_torus6x6.txt"), &table)?;
    let all = asr_model::delivery::theorems::torus_range(4, sc.theorems_max_n);
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
        trials: sc.mc_trials,
        seed,
    };
    let (report, _) = super::paths::monte_carlo(&mc)?;
    print!("{report}");
    fs::write(dir.join("monte_carlo_torus6x6.txt"), report)?;
    let sa = super::paths::SimCheckArgs {
        topology: vec!["torus:6x6".into(), "mesh:5x5".into(), "hypercube:4".into()],
        p: 0.8,
        packets: sc.per_hop_packets,
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
    let rows = super::grid::compute(&sc.coverage)?;
    let table = super::grid::render(&rows);
    print!("{table}");
    fs::write(dir.join("asr_coverage.txt"), &table)?;
    fs::write(
        dir.join("asr_coverage.json"),
        serde_json::to_string_pretty(&rows)?,
    )?;
    Ok(())
}

/// HDL: every top's Verilog, and every waveform scenario (`benes8-burst`, `sp2-contention-v2`, `sp2-contention-v3`;
/// HDL and model)
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

/// Gravano et al.: wormhole routing on 2^10 nodes, Figures 1-6 and the sustained-throughput table.
fn wormhole(a: &Args, sc: &Scale) -> Result<()> {
    let wargs = super::wormhole_figures::Args {
        n: sc.worm_n,
        loads: sc.worm_loads.clone(),
        warmup: sc.worm_warmup,
        measure: sc.worm_measure,
        buf: 2,
        node: asr_model::wormhole::NodeModel::Separate,
        watchdog: 2000,
        sweep: super::sweep::SweepOpts::new(a.seed, Some(a.out.join("wormhole"))),
        cdg: 5,
        full_sweep: false,
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
fn sp2(out: &Path, seed: u64, sc: &Scale) -> Result<()> {
    let a = super::sp2::Args {
        set_bits: vec![1, 2, 8],
        load: vec![0.2, 0.4, 0.6, 0.8, 0.9, 1.0],
        payload: 32,
        cycles: sc.sp2_cycles,
        seed,
        switch: vec!["v1".into(), "v2".into(), "v3".into()],
        json: false,
    };
    let stats = super::sp2::compute(&a)?;
    let table = super::sp2::render(
        &stats,
        a.payload,
        &super::sp2::cut_through(&a.switch, a.payload)?,
    );
    print!("{table}");
    fs::write(out.join("sp2_switch.txt"), &table)?;
    fs::write(
        out.join("sp2_switch.json"),
        serde_json::to_string_pretty(&stats)?,
    )?;
    Ok(())
}

/// SP2 systems of SP2-style switches, 16 to 512 processors: ASR tables against single-path tables, built of
/// the v2 switch (the one in hardware; `sp2_systems.txt`, `sp2_systems/`) and, beside it for comparison, of the
/// v1 switch (`sp2_systems_v1.txt`, `sp2_systems_v1/`).
fn sp2_systems(out: &Path, seed: u64, sc: &Scale) -> Result<()> {
    for (switch, name) in [("v2", "sp2_systems"), ("v1", "sp2_systems_v1")] {
        let a = super::sp2_system::Args {
            network: sc.systems.iter().map(|n| format!("sp2:{n}")).collect(),
            routing: vec!["asr".into(), "single".into()],
            deadlock_free: false,
            balance: false,
            load: vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0],
            payload: "32".into(),
            warmup: sc.sys_warmup,
            measure: sc.sys_measure,
            source_queue: 16,
            sweep: super::sweep::SweepOpts::new(seed, Some(out.join(name))),
            switch: switch.into(),
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
        super::sp2_system::write_files(&curves, &a, a.sweep.out_dir()?)?;
        fs::write(out.join(format!("{name}.txt")), &table)?;
    }
    Ok(())
}

/// The allocator study (issue 17, `asr allocators`): matching quality, network saturation, FPGA figures.
fn allocator_study(out: &Path, seed: u64, sc: &Scale) -> Result<()> {
    #[derive(clap::Parser)]
    struct Defaults {
        #[command(flatten)]
        a: super::allocators::Args,
    }
    let mut a = <Defaults as clap::Parser>::parse_from(["asr-allocators"]).a;
    a.seed = seed;
    if sc.quick {
        a.trials = 10_000;
        a.packets = 200;
    }
    let t = Instant::now();
    let rows = super::allocators::compute(&a)?;
    let text = super::allocators::render(&a, &rows, t.elapsed().as_secs_f64());
    print!("{text}");
    fs::write(out.join("allocators.txt"), &text)?;
    fs::write(
        out.join("allocators.json"),
        serde_json::to_string_pretty(&rows)?,
    )?;
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
    if a.quick && a.cosim {
        anyhow::bail!(
            "--cosim with --quick: the co-simulation has no quick form (run `asr cosim all`)"
        );
    }
    if a.quick && a.prove {
        anyhow::bail!("--prove with --quick: the proofs have no quick form (run `asr prove all`)");
    }
    super::check::out_dir("--out", &a.out)?;
    let sc = if a.quick {
        Scale::quick(&a)
    } else {
        Scale::full(&a)
    };
    if sc.quick {
        println!("{QUICK_NOTE}\n");
    }
    let t0 = Instant::now();
    let started = std::time::SystemTime::now();
    let sections: [(&str, &dyn Fn() -> Result<()>); 12] = [
        ("Verilog export and waveforms", &|| hdl(&a.out)),
        ("co-simulation of the exported Verilog (Verilator)", &|| {
            if !a.cosim {
                // Verilator's builds alone take minutes on a fresh machine, the runs about 10 more.
                println!(
                    "co-simulation: not in this run (`asr all --cosim`, or `asr cosim all --out {}`)\n",
                    a.out.display()
                );
                return Ok(());
            }
            super::cosim::suite(&a.out, a.seed)
        }),
        (
            "formal proofs of the exported Verilog (SymbiYosys)",
            &|| formal(&a.out, a.prove),
        ),
        ("Table 2.1 (matching heuristic)", &|| {
            matching(&a.out, a.seed, &sc)
        }),
        ("Table 3.1 and Figures A.1-A.10 (Benes networks)", &|| {
            benes(&a.out, a.seed, &sc)
        }),
        ("Tables 4.1-4.4 (route generation, SP2 systems)", &|| {
            routes(&a.out)
        }),
        ("deadlock-free route tables: what they cost", &|| {
            routes_cost(&a.out)
        }),
        (
            "meshes, tori, hypercubes (textbook routing section, Wu)",
            &|| delivery(&a.out, a.seed, &sc),
        ),
        ("wormhole routing on hypercubes (Gravano et al.)", &|| {
            wormhole(&a, &sc)
        }),
        (
            "allocators: ASR heuristic against iSLIP, PIM, wavefront, exact",
            &|| allocator_study(&a.out, a.seed, &sc),
        ),
        ("SP2-style switch model", &|| sp2(&a.out, a.seed, &sc)),
        ("SP2 systems of SP2-style switches", &|| {
            sp2_systems(&a.out, a.seed, &sc)
        }),
    ];
    let cpu = super::wormhole::cpu_seconds;
    let cpu0 = cpu();
    for (name, f) in sections {
        let (t, c) = (Instant::now(), cpu());
        eprintln!("asr all: {name} ...");
        f().with_context(|| format!("asr all: {name}"))?;
        eprintln!(
            "asr all: {name} done in {:.1} s ({} CPU s)",
            t.elapsed().as_secs_f64(),
            cpu_since(c)
        );
    }
    if sc.quick {
        let n = mark_quick(&a.out, started)?;
        eprintln!("asr all: {n} result files marked as from a quick run");
    }
    eprintln!(
        "asr all: everything written to {} in {:.1} s ({} CPU s){}",
        a.out.display(),
        t0.elapsed().as_secs_f64(),
        cpu_since(cpu0),
        if sc.quick {
            " — QUICK RUN, not the published figures"
        } else {
            ""
        }
    );
    Ok(())
}

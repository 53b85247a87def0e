//! `asr wormhole-figures`: reproduces Figures 1–6 of Gravano et al. (Adaptive Deadlock-free Worm-hole Routing in Hypercubes) on a 2^n-node hypercube (n = 10 by default):
//! for each traffic pattern (random, complement, transpose) and worm length (10, 20 flits), one SVG plot of
//! maximum latency against accepted throughput (% of λmax = 1/(2b)) with every algorithm; a table of the highest
//! throughput each algorithm sustains; the CDG checks; and the check of the paper's qualitative findings.
//! Sweep points run in parallel (rayon), with an indicatif progress bar.
//!
//! The sweep and the analysis (configurations, curves cut at their first unsustained load, highest sustained
//! throughput, findings) are the model's `asr_model::experiment::wormhole_figures`; this command checks its
//! options, measures the time, and writes the files.
//!
//! Files written into `--out`: `fig1_random_b10.svg` … `fig6_transpose_b20.svg` (maximum latency, as in the
//! paper), `fig*_mean.svg` (mean latency), `table.md`, `findings.md`, `cdg.txt`, `results.json`.

use super::wormhole::{cdg_text, cpu_seconds};
use anyhow::{Context, Result};
use asr_model::experiment::wormhole_figures::{self as study, Figure, Findings, FIGURES};
use asr_model::wormhole::algorithms::{self, Algorithm};
use asr_model::wormhole::{NodeModel, RunResult, SimConfig};
use std::fmt::Write;
use std::fs;
use std::path::{Path, PathBuf};

use super::shard::{decode, selected, write_shard, Parameters};
use super::sweep::SweepOpts;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[command(mut_arg("out", |a| a.default_value("out/wormhole").help("Output folder (created if missing)")))]
pub struct Args {
    /// Hypercube dimension (the paper: 10). Must be even (transpose).
    #[arg(long, default_value_t = 10)]
    pub n: u32,
    /// Offered loads in % of λmax, comma-separated (the sweep of every curve).
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_LOADS)]
    pub loads: Vec<f64>,
    /// Warm-up cycles per point, 0..=100000000.
    #[arg(long, default_value_t = 1500)]
    pub warmup: u64,
    /// Measurement cycles per point, 1..=100000000.
    #[arg(long, default_value_t = 4000)]
    pub measure: u64,
    /// Flit buffer depth per virtual channel.
    #[arg(long, default_value_t = 2)]
    pub buf: u32,
    /// Processor–router interface: separate (an injection and an ejection channel) or shared (one channel
    /// for both, one flit per cycle: λmax = 1/(2b) is then a bound).
    #[arg(long, default_value = "separate")]
    pub node: NodeModel,
    /// Deadlock watchdog window (cycles).
    #[arg(long, default_value_t = 2000)]
    pub watchdog: u64,
    /// `--seed`, `--out` (the folder of the figures, tables and results.json) and `--shard` (of the runs).
    #[command(flatten)]
    #[serde(flatten)]
    pub sweep: SweepOpts,
    /// Run the CDG checks on n = 2..=CDG (0 = skip).
    #[arg(long, default_value_t = 6)]
    pub cdg: u32,
    /// Run every load of every curve, also above the first load a curve does not sustain (by default a
    /// curve stops there: the figures show sustained points only). Shards always run every load.
    #[arg(long)]
    #[serde(default)]
    pub full_sweep: bool,
    /// Do not simulate: redraw figures, table and findings from a results.json written earlier.
    #[arg(long)]
    #[serde(skip)]
    pub from_json: Option<PathBuf>,
}

/// The default sweep of the figures, % of λmax.
pub const DEFAULT_LOADS: &str = "5,10,15,20,30,40,50,60,70,80,100,120,150";

/// What the figures command measured, for the main job.
pub struct Summary {
    pub runs: usize,
    pub seconds: f64,
    pub cpu_seconds: f64,
    pub flit_hops_per_cpu_second: f64,
    pub table: String,
    pub findings: String,
}

pub fn run(a: Args) -> Result<()> {
    let out = a.sweep.out_dir()?;
    if let Some(sh) = a.sweep.shard {
        if a.from_json.is_some() {
            anyhow::bail!(
                "--shard and --from-json: a shard simulates its share, there is nothing to redraw"
            );
        }
        let cfgs = configs(&a)?;
        let which = selected(Some(sh), cfgs.len());
        let (rs, _) = run_selected(&cfgs, &which)?;
        let pairs = which.into_iter().zip(rs).collect();
        write_shard(out, "wormhole-figures", &a, sh, cfgs.len(), pairs)?;
        return Ok(());
    }
    let s = compute(&a)?;
    print!("{}\n{}", s.table, s.findings);
    if a.from_json.is_some() {
        eprintln!(
            "wormhole-figures: {} runs redrawn into {}",
            s.runs,
            out.display()
        );
        return Ok(());
    }
    eprintln!(
        "wormhole-figures: {} runs in {:.1} s wall ({:.1} CPU s), {:.3e} flit-hops per CPU second; written to {}",
        s.runs,
        s.seconds,
        s.cpu_seconds,
        s.flit_hops_per_cpu_second,
        out.display()
    );
    Ok(())
}

/// Every configuration of the figures ([`study::configs`]), after checking the options.
fn configs(a: &Args) -> Result<Vec<SimConfig>> {
    if a.n % 2 == 1 {
        anyhow::bail!("--n {}: the transpose figures need an even dimension", a.n);
    }
    if a.loads.is_empty() || a.loads.iter().any(|&l| l.is_nan() || l <= 0.0) {
        anyhow::bail!("--loads: give at least one load, each > 0 (% of λmax)");
    }
    super::check::count("--warmup", a.warmup, 0, super::check::MAX_CYCLES)?;
    super::check::count("--measure", a.measure, 1, super::check::MAX_CYCLES)?;
    super::check::count("--watchdog", a.watchdog, 1, super::check::MAX_CYCLES)?;
    super::check::out_dir("--out", a.sweep.out_dir()?)?;
    Ok(study::configs(&study::Config {
        n: a.n,
        loads: a.loads.clone(),
        warmup: a.warmup,
        measure: a.measure,
        buf: a.buf,
        node: a.node,
        watchdog: a.watchdog,
        seed: a.sweep.seed,
    })?)
}

/// CPU seconds used by `f`'s work (NaN where unknown), with its result.
fn cpu_timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, f64)> {
    let c0 = cpu_seconds();
    let r = f()?;
    let cpu = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => f64::NAN,
    };
    Ok((r, cpu))
}

/// Runs the configurations numbered `which` ([`study::run_selected`]) with a progress bar; results in the
/// order of `which`, and the CPU seconds used (NaN where unknown).
fn run_selected(cfgs: &[SimConfig], which: &[usize]) -> Result<(Vec<RunResult>, f64)> {
    cpu_timed(|| {
        let pb = super::progress::bar("wormhole figures", which.len() as u64, "runs");
        let rs = study::run_selected(cfgs, which, &|k| pb.inc(k));
        pb.finish_and_clear();
        Ok(rs?)
    })
}

/// Runs every curve up to its first unsustained load ([`study::run_curves`]) with a progress bar; the
/// results and the CPU seconds used (NaN where unknown).
fn run_curves(cfgs: &[SimConfig], per_curve: usize) -> Result<(Vec<RunResult>, f64)> {
    cpu_timed(|| {
        let pb = super::progress::bar("wormhole figures", cfgs.len() as u64, "runs");
        let rs = study::run_curves(cfgs, per_curve, &|k| pb.inc(k))?;
        pb.finish_and_clear();
        Ok(rs)
    })
}

/// The JSON of the runs: how they were made, then one result per configuration.
#[derive(serde::Serialize, serde::Deserialize)]
struct Results<A> {
    parameters: Parameters<A>,
    results: Vec<RunResult>,
}

/// How the results came about (for the speed line of the findings).
enum Origin {
    /// Simulated here: wall and CPU seconds.
    Ran(f64, f64),
    /// Read from a results.json.
    Saved,
    /// Merged from shards.
    Merged,
}

/// The runs of a results.json: one with its parameters, or the bare array of earlier versions.
fn read_results(p: &Path) -> Result<Vec<RunResult>> {
    let txt = fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    serde_json::from_str::<Results<serde_json::Value>>(&txt)
        .map(|r| r.results)
        .or_else(|_| serde_json::from_str(&txt))
        .with_context(|| format!("{}: not a results.json", p.display()))
}

/// Simulates the figures (every load with `--full-sweep`, else each curve up to its first unsustained
/// load): the results, and the wall and CPU seconds.
fn simulate(a: &Args, cfgs: &[SimConfig]) -> Result<(Vec<RunResult>, Origin)> {
    let t = Instant::now();
    let (rs, cpu_used) = if a.full_sweep {
        let all: Vec<usize> = (0..cfgs.len()).collect();
        run_selected(cfgs, &all)?
    } else {
        run_curves(cfgs, a.loads.len())?
    };
    let cpu = if cpu_used.is_finite() {
        cpu_used
    } else {
        rs.iter().map(|r| r.seconds).sum()
    };
    Ok((rs, Origin::Ran(t.elapsed().as_secs_f64(), cpu)))
}

/// The figures' results (simulated, or read with `--from-json`), then every file.
pub fn compute(a: &Args) -> Result<Summary> {
    let cfgs = configs(a)?;
    let (rs, origin) = match &a.from_json {
        Some(p) => (read_results(p)?, Origin::Saved),
        None => simulate(a, &cfgs)?,
    };
    finish(a, rs, origin, a.sweep.out_dir()?)
}

/// `asr merge` of `asr wormhole-figures` shards.
pub fn merge(params: serde_json::Value, results: Vec<serde_json::Value>, out: &Path) -> Result<()> {
    let (a, rs): (Args, Vec<RunResult>) = decode(params, results)?;
    let s = finish(&a, rs, Origin::Merged, out)?;
    print!("{}\n{}", s.table, s.findings);
    Ok(())
}

/// Simulator speed: flit-hops, wall and CPU seconds (0 unless simulated here), flit-hops per CPU second.
struct Speed {
    hops: u64,
    seconds: f64,
    cpu: f64,
    per_cpu_second: f64,
}

impl Speed {
    fn of(rs: &[RunResult], origin: &Origin) -> Speed {
        let hops: u64 = rs.iter().map(|r| r.flit_hops).sum();
        let (seconds, cpu) = match origin {
            Origin::Ran(w, c) => (*w, *c),
            _ => (0.0, 0.0),
        };
        Speed {
            hops,
            seconds,
            cpu,
            per_cpu_second: hops as f64 / cpu.max(1e-9),
        }
    }
}

/// Figures, results.json, table, findings and CDG checks from the results of every configuration.
fn finish(a: &Args, rs: Vec<RunResult>, origin: Origin, dir: &Path) -> Result<Summary> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // Without --full-sweep every curve ends at its first unsustained load, whether it ran that way or came
    // from shards or a saved full sweep, so that all three give the same files.
    let rs = if a.full_sweep {
        rs
    } else {
        study::up_to_first_unsustained(rs)
    };
    let algs: Vec<Algorithm> = algorithms::ALL.to_vec();
    let speed = Speed::of(&rs, &origin);
    write_figures(a, &algs, &rs, dir)?;
    if !matches!(origin, Origin::Saved) {
        write_results(a, &rs, dir)?;
    }
    let table = table_text(a, &algs, &rs);
    fs::write(dir.join("table.md"), &table)?;
    let findings = findings_text(&study::findings(&rs, &algs), rs.len(), &origin, &speed);
    fs::write(dir.join("findings.md"), &findings)?;
    if a.cdg >= 2 {
        fs::write(dir.join("cdg.txt"), cdg_text(&algs, a.cdg.min(8))?)?;
    }
    Ok(Summary {
        runs: rs.len(),
        seconds: speed.seconds,
        cpu_seconds: speed.cpu,
        flit_hops_per_cpu_second: speed.per_cpu_second,
        table,
        findings,
    })
}

/// Two plots per figure: maximum latency (`fig1_random_b10.svg`, as in the paper) and mean latency
/// (`…_mean.svg`).
fn write_figures(a: &Args, algs: &[Algorithm], rs: &[RunResult], dir: &Path) -> Result<()> {
    for f in &FIGURES {
        for mean in [false, true] {
            let file = format!("{}{}.svg", f.name(), if mean { "_mean" } else { "" });
            plot(&dir.join(file), f, a, algs, rs, mean)?;
        }
    }
    Ok(())
}

/// `results.json`: the parameters, then every run.
fn write_results(a: &Args, rs: &[RunResult], dir: &Path) -> Result<()> {
    fs::write(
        dir.join("results.json"),
        serde_json::to_string_pretty(&Results {
            parameters: Parameters::new("wormhole-figures", a),
            results: rs.to_vec(),
        })?,
    )?;
    Ok(())
}

/// `table.md`: every algorithm's highest sustained throughput on every figure.
fn table_text(a: &Args, algs: &[Algorithm], rs: &[RunResult]) -> String {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "Highest sustained throughput, % of λmax = 1/(2b), on 2^{} nodes (loads {:?} % of λmax; {} + {} cycles per point; buffers {} flits/VC; {} node channels)\n",
        a.n, a.loads, a.warmup, a.measure, a.buf, a.node.name()
    );
    let _ = write!(table, "| algorithm | VCs/directed link |");
    for f in &FIGURES {
        let _ = write!(
            table,
            " Fig {}: {} b={} |",
            f.number,
            f.pattern.name(),
            f.worm_len
        );
    }
    let _ = writeln!(table);
    let _ = writeln!(table, "|---|---|{}", "---|".repeat(FIGURES.len()));
    let lowest = a.loads.iter().cloned().fold(f64::MAX, f64::min);
    for alg in algs {
        let _ = write!(table, "| {} | {} |", alg.name(), alg.vcs(a.n));
        for f in &FIGURES {
            let _ = match study::best(rs, alg.name(), f) {
                Some(v) => write!(table, " {v:.1} |"),
                None => write!(table, " < {lowest:.0} |"),
            };
        }
        let _ = writeln!(table);
    }
    table
}

/// `findings.md`: the paper's qualitative findings checked on `runs` runs, and the simulator's speed.
fn findings_text(f: &Findings, runs: usize, origin: &Origin, speed: &Speed) -> String {
    let mut fnd = String::new();
    let _ = writeln!(
        fnd,
        "The paper's qualitative findings, checked on these runs\n"
    );
    let _ = writeln!(
        fnd,
        "\"Sustains\": accepted ≥ 0.95 × offered and source queues grow by ≤ 5 % of the worms generated in the window (model/src/wormhole/stats.rs). \"Performs well\" (our threshold): at least half the best algorithm's sustained throughput.\n"
    );
    for x in &f.figures {
        let one_vc: Vec<String> = x
            .one_vc
            .iter()
            .map(|(n, v)| format!("{n} {v:.0}"))
            .collect();
        let _ = writeln!(
            fnd,
            "- Fig {} ({} b={}): best {} {:.1} %; nonminimal {:.1} % ({}, {}); subcubes {:.1} % ({}); other 1-VC algorithms: {}",
            x.figure.number,
            x.figure.pattern.name(),
            x.figure.worm_len,
            x.best.0,
            x.best.1,
            x.nonminimal,
            if x.nonminimal_well { "well" } else { "NOT well" },
            if x.nonminimal_below_best { "below the best" } else { "IS the best" },
            x.subcubes,
            if x.subcubes >= study::SUBCUBES_FLOOR_PCT { "≥ 20 %" } else { "< 20 %" },
            one_vc.join(", ")
        );
    }
    let _ = writeln!(
        fnd,
        "\nRobustness: worst sustained throughput over the three patterns (% of λmax), best first:"
    );
    for (b, w) in &f.robustness {
        let line: Vec<String> = w.iter().map(|(a, m)| format!("{a} {m:.0}")).collect();
        let _ = writeln!(fnd, "- b={b}: {}", line.join(", "));
    }
    let holds = |ok: bool| if ok { "HOLDS" } else { "DOES NOT HOLD" };
    let _ = writeln!(
        fnd,
        "\nNon-Minimal performs well on every pattern but below the best for each: {}",
        holds(f.nonminimal_holds)
    );
    let _ = writeln!(
        fnd,
        "Subcubes sustains at least 20 % of λmax on every pattern and worm length with 2 VCs per bidirectional link: {}",
        holds(f.subcubes_holds)
    );
    let Speed {
        hops, seconds, cpu, ..
    } = speed;
    let _ = match origin {
        Origin::Saved => writeln!(
            fnd,
            "\nSimulator speed: not measured here (figures redrawn from a saved results.json)."
        ),
        Origin::Merged => writeln!(
            fnd,
            "\nSimulator speed: not measured here (merged from shards; {runs} runs, {hops} flit-hops)."
        ),
        Origin::Ran(..) => writeln!(
            fnd,
            "\nSimulator speed: {runs} runs, {hops} flit-hops in {seconds:.1} s wall and {cpu:.1} CPU s = {:.3e} flit-hops per CPU second.",
            speed.per_cpu_second
        ),
    };
    fnd
}

/// The plot of figure `f`: every algorithm's sustained points, maximum (or `mean`) latency against
/// accepted throughput, log latency axis.
fn plot(
    path: &Path,
    f: &Figure,
    a: &Args,
    algs: &[Algorithm],
    rs: &[RunResult],
    mean: bool,
) -> Result<()> {
    let series: Vec<(String, Vec<(f64, f64)>)> = algs
        .iter()
        .map(|alg| {
            (
                format!("{} ({} VC)", alg.name(), alg.vcs(a.n)),
                study::curve(rs, alg.name(), f, mean),
            )
        })
        .collect();
    super::plot::log_latency_svg(
        path,
        &format!(
            "Fig. {}{}: {}-node hypercube, {} traffic, {}-flit worms{}",
            f.number,
            if mean { " (mean latency)" } else { "" },
            1u64 << a.n,
            f.pattern.name(),
            f.worm_len,
            if a.node == NodeModel::Shared {
                ", shared node channel"
            } else {
                ""
            }
        ),
        "accepted throughput, % of λmax = 1/(2b) (sustained points only)",
        if mean {
            "mean latency (cycles, log scale)"
        } else {
            "maximum latency (cycles, log scale)"
        },
        &series,
    )
}

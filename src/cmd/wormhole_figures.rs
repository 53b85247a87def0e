//! `asr wormhole-figures`: reproduces Figures 1–6 of Gravano et al. (Adaptive Deadlock-free Worm-hole Routing in Hypercubes) on a 2^n-node hypercube (n = 10 by default):
//! for each traffic pattern (random, complement, transpose) and worm length (10, 20 flits), one SVG plot of
//! maximum latency against accepted throughput (% of λmax = 1/(2b)) with every algorithm; a table of the highest
//! throughput each algorithm sustains; the CDG checks; and the check of the paper's qualitative findings.
//! Sweep points run in parallel (rayon), with an indicatif progress bar.
//!
//! Files written into `--out`: `fig1_random_b10.svg` … `fig6_transpose_b20.svg` (maximum latency, as in the
//! paper), `fig*_mean.svg` (mean latency), `table.md`, `findings.md`, `cdg.txt`, `results.json`.

use super::wormhole::{cdg_text, cpu_seconds, run_configs};
use anyhow::{Context, Result};
use asr_model::wormhole::algorithms::{self, Algorithm};
use asr_model::wormhole::{NodeModel, Pattern, RunResult, SimConfig};
use plotters::prelude::*;
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

/// The six figures of the paper: (figure number, pattern, worm length).
pub const FIGURES: [(u32, Pattern, u32); 6] = [
    (1, Pattern::Random, 10),
    (2, Pattern::Complement, 10),
    (3, Pattern::Transpose, 10),
    (4, Pattern::Random, 20),
    (5, Pattern::Complement, 20),
    (6, Pattern::Transpose, 20),
];

/// What the figures command measured, for the main job.
pub struct Summary {
    pub runs: usize,
    pub seconds: f64,
    pub cpu_seconds: f64,
    pub flit_hops_per_cpu_second: f64,
    pub table: String,
    pub findings: String,
}

fn fig_name(f: u32, p: Pattern, b: u32) -> String {
    format!("fig{f}_{}_b{b}", p.name())
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

/// Highest sustained accepted throughput (% of λmax) of each algorithm on one figure.
fn best(rs: &[RunResult], alg: &str, p: Pattern, b: u32) -> Option<f64> {
    rs.iter()
        .filter(|r| r.algorithm == alg && r.pattern == p.name() && r.worm_len == b && r.sustained)
        .map(|r| r.accepted_pct)
        .fold(None, |m, x| Some(m.map_or(x, |m: f64| m.max(x))))
}

/// Every configuration of the figures, in the order every run (and every shard) numbers them.
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
    let mut cfgs = Vec::new();
    for &(_, p, b) in &FIGURES {
        for &alg in &algorithms::ALL {
            for &l in &a.loads {
                let mut c = SimConfig::new(a.n, alg, p, b, SimConfig::rate_for_pct(b, l));
                c.buf_depth = a.buf;
                c.node = a.node;
                c.warmup = a.warmup;
                c.measure = a.measure;
                c.watchdog = a.watchdog;
                c.seed = a.sweep.seed;
                c.stream = cfgs.len() as u64;
                c.validate()?;
                cfgs.push(c);
            }
        }
    }
    Ok(cfgs)
}

/// Runs the configurations numbered `which` (heaviest first so the two cores stay busy to the end);
/// results in the order of `which`, and the CPU seconds used (NaN where unknown).
fn run_selected(cfgs: &[SimConfig], which: &[usize]) -> Result<(Vec<RunResult>, f64)> {
    let mut order: Vec<usize> = (0..which.len()).collect();
    order.sort_by(|&x, &y| {
        cfgs[which[y]]
            .rate
            .partial_cmp(&cfgs[which[x]].rate)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let sorted: Vec<SimConfig> = order.iter().map(|&i| cfgs[which[i]].clone()).collect();
    let c0 = cpu_seconds();
    let rs_sorted = run_configs(&sorted, "wormhole figures")?;
    let cpu_used = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => f64::NAN,
    };
    let mut rs: Vec<Option<RunResult>> = vec![None; which.len()];
    for (k, r) in order.iter().zip(rs_sorted) {
        rs[*k] = Some(r);
    }
    Ok((rs.into_iter().flatten().collect(), cpu_used))
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

pub fn compute(a: &Args) -> Result<Summary> {
    let cfgs = configs(a)?;
    let t = Instant::now();
    let (rs, origin) = if let Some(p) = &a.from_json {
        let txt = fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
        // A results.json with its parameters, or the bare array of earlier versions.
        let rs: Vec<RunResult> = serde_json::from_str::<Results<serde_json::Value>>(&txt)
            .map(|r| r.results)
            .or_else(|_| serde_json::from_str(&txt))
            .with_context(|| format!("{}: not a results.json", p.display()))?;
        (rs, Origin::Saved)
    } else {
        let (rs, cpu_used) = if a.full_sweep {
            let all: Vec<usize> = (0..cfgs.len()).collect();
            run_selected(&cfgs, &all)?
        } else {
            let c0 = cpu_seconds();
            let rs = run_curves(&cfgs, a.loads.len())?;
            let cpu = match (c0, cpu_seconds()) {
                (Some(a), Some(b)) => b - a,
                _ => f64::NAN,
            };
            (rs, cpu)
        };
        let cpu = if cpu_used.is_finite() {
            cpu_used
        } else {
            rs.iter().map(|r| r.seconds).sum()
        };
        (rs, Origin::Ran(t.elapsed().as_secs_f64(), cpu))
    };
    finish(a, rs, origin, a.sweep.out_dir()?)
}

/// Runs the curves (`per_curve` consecutive configurations each) in parallel, each from its lowest load
/// up; a curve stops after its first load that is not sustained (the figures show sustained
/// points only, and in the full sweep of docs/results/wormhole/results.json no curve sustains a higher load again).
/// Results in the configurations' order, skipped loads left out.
fn run_curves(cfgs: &[SimConfig], per_curve: usize) -> Result<Vec<RunResult>> {
    use rayon::prelude::*;
    let pb = super::progress::bar("wormhole figures", cfgs.len() as u64, "runs");
    let curves: Vec<&[SimConfig]> = cfgs.chunks(per_curve).collect();
    let done: Vec<Vec<(usize, RunResult)>> = curves
        .par_iter()
        .enumerate()
        .map(|(ci, curve)| {
            let mut idx: Vec<usize> = (0..curve.len()).collect();
            idx.sort_by(|&x, &y| curve[x].rate.total_cmp(&curve[y].rate));
            let mut out = Vec::new();
            for (k, &i) in idx.iter().enumerate() {
                let c = &curve[i];
                let r = asr_model::wormhole::sim::Simulator::run(c).map_err(|e| {
                    anyhow::anyhow!(
                        "{} {} b={} rate={:.5} (n={}): {e}",
                        c.algorithm,
                        c.pattern,
                        c.worm_len,
                        c.rate,
                        c.n
                    )
                })?;
                pb.inc(1);
                let sustained = r.sustained;
                out.push((ci * per_curve + i, r));
                if !sustained {
                    pb.inc((idx.len() - k - 1) as u64);
                    break;
                }
            }
            Ok(out)
        })
        .collect::<Result<_>>()?;
    pb.finish_and_clear();
    let mut all: Vec<(usize, RunResult)> = done.into_iter().flatten().collect();
    all.sort_by_key(|x| x.0);
    Ok(all.into_iter().map(|x| x.1).collect())
}

/// The runs of each curve (algorithm, pattern, worm length) up to and including its first unsustained load,
/// in their order.
fn up_to_first_unsustained(rs: Vec<RunResult>) -> Vec<RunResult> {
    use std::collections::HashMap;
    let mut stop: HashMap<(String, String, u32), f64> = HashMap::new();
    for r in rs.iter().filter(|r| !r.sustained) {
        let k = (r.algorithm.clone(), r.pattern.clone(), r.worm_len);
        let e = stop.entry(k).or_insert(r.offered_pct);
        *e = e.min(r.offered_pct);
    }
    rs.into_iter()
        .filter(|r| {
            stop.get(&(r.algorithm.clone(), r.pattern.clone(), r.worm_len))
                .is_none_or(|&s| r.offered_pct <= s)
        })
        .collect()
}

/// `asr merge` of `asr wormhole-figures` shards.
pub fn merge(params: serde_json::Value, results: Vec<serde_json::Value>, out: &Path) -> Result<()> {
    let (a, rs): (Args, Vec<RunResult>) = decode(params, results)?;
    let s = finish(&a, rs, Origin::Merged, out)?;
    print!("{}\n{}", s.table, s.findings);
    Ok(())
}

/// Figures, results.json, table, findings and CDG checks from the results of every configuration.
fn finish(a: &Args, rs: Vec<RunResult>, origin: Origin, dir: &Path) -> Result<Summary> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // Without --full-sweep every curve ends at its first unsustained load, whether it ran that way or came
    // from shards or a saved full sweep, so that all three give the same files.
    let rs = if a.full_sweep {
        rs
    } else {
        up_to_first_unsustained(rs)
    };
    let algs: Vec<Algorithm> = algorithms::ALL.to_vec();
    let hops: u64 = rs.iter().map(|r| r.flit_hops).sum();
    let (seconds, cpu) = match origin {
        Origin::Ran(w, c) => (w, c),
        _ => (0.0, 0.0),
    };
    let hps = hops as f64 / cpu.max(1e-9);

    for &(f, p, b) in &FIGURES {
        let path = dir.join(format!("{}.svg", fig_name(f, p, b)));
        plot(&path, f, p, b, a, &algs, &rs, false)?;
        let path = dir.join(format!("{}_mean.svg", fig_name(f, p, b)));
        plot(&path, f, p, b, a, &algs, &rs, true)?;
    }
    if !matches!(origin, Origin::Saved) {
        fs::write(
            dir.join("results.json"),
            serde_json::to_string_pretty(&Results {
                parameters: Parameters::new("wormhole-figures", a),
                results: rs.clone(),
            })?,
        )?;
    }

    // Table.
    let mut table = String::new();
    let _ = writeln!(
        table,
        "Highest sustained throughput, % of λmax = 1/(2b), on 2^{} nodes (loads {:?} % of λmax; {} + {} cycles per point; buffers {} flits/VC; {} node channels)\n",
        a.n, a.loads, a.warmup, a.measure, a.buf, a.node.name()
    );
    let _ = write!(table, "| algorithm | VCs/directed link |");
    for &(f, p, b) in &FIGURES {
        let _ = write!(table, " Fig {f}: {} b={b} |", p.name());
    }
    let _ = writeln!(table);
    let _ = writeln!(table, "|---|---|{}", "---|".repeat(FIGURES.len()));
    for alg in &algs {
        let _ = write!(table, "| {} | {} |", alg.name(), alg.vcs(a.n));
        for &(_, p, b) in &FIGURES {
            match best(&rs, alg.name(), p, b) {
                Some(v) => {
                    let _ = write!(table, " {v:.1} |");
                }
                None => {
                    let _ = write!(
                        table,
                        " < {:.0} |",
                        a.loads.iter().cloned().fold(f64::MAX, f64::min)
                    );
                }
            }
        }
        let _ = writeln!(table);
    }
    fs::write(dir.join("table.md"), &table)?;

    // Findings.
    let mut fnd = String::new();
    let _ = writeln!(
        fnd,
        "The paper's qualitative findings, checked on these runs\n"
    );
    let _ = writeln!(
        fnd,
        "\"Sustains\": accepted ≥ 0.95 × offered and source queues grow by ≤ 5 % of the worms generated in the window (model/src/wormhole/stats.rs). \"Performs well\" (our threshold): at least half the best algorithm's sustained throughput.\n"
    );
    let mut nm_ok = true;
    let mut sc_ok = true;
    for &(f, p, b) in &FIGURES {
        let mut bests: Vec<(String, f64)> = algs
            .iter()
            .map(|x| {
                (
                    x.name().to_string(),
                    best(&rs, x.name(), p, b).unwrap_or(0.0),
                )
            })
            .collect();
        bests.sort_by(|x, y| y.1.partial_cmp(&x.1).unwrap_or(std::cmp::Ordering::Equal));
        let top = bests[0].clone();
        let nm = best(&rs, "nonminimal", p, b).unwrap_or(0.0);
        let sc = best(&rs, "subcubes", p, b).unwrap_or(0.0);
        let well = nm >= 0.5 * top.1;
        let below = nm < top.1;
        nm_ok &= well && below;
        sc_ok &= sc >= 20.0;
        let one_vc: Vec<String> = ["ecube", "hanging", "hanging-order"]
            .iter()
            .map(|x| format!("{x} {:.0}", best(&rs, x, p, b).unwrap_or(0.0)))
            .collect();
        let _ = writeln!(
            fnd,
            "- Fig {f} ({} b={b}): best {} {:.1} %; nonminimal {:.1} % ({}, {}); subcubes {:.1} % ({}); other 1-VC algorithms: {}",
            p.name(),
            top.0,
            top.1,
            nm,
            if well { "well" } else { "NOT well" },
            if below { "below the best" } else { "IS the best" },
            sc,
            if sc >= 20.0 { "≥ 20 %" } else { "< 20 %" },
            one_vc.join(", ")
        );
    }
    let _ = writeln!(
        fnd,
        "\nRobustness: worst sustained throughput over the three patterns (% of λmax), best first:"
    );
    for b in [10u32, 20] {
        let mut w: Vec<(String, f64)> = algs
            .iter()
            .map(|x| {
                let m = FIGURES
                    .iter()
                    .filter(|f| f.2 == b)
                    .map(|f| best(&rs, x.name(), f.1, b).unwrap_or(0.0))
                    .fold(f64::MAX, f64::min);
                (x.name().to_string(), m)
            })
            .collect();
        w.sort_by(|x, y| y.1.partial_cmp(&x.1).unwrap_or(std::cmp::Ordering::Equal));
        let line: Vec<String> = w.iter().map(|(a, m)| format!("{a} {m:.0}")).collect();
        let _ = writeln!(fnd, "- b={b}: {}", line.join(", "));
    }
    let _ = writeln!(
        fnd,
        "\nNon-Minimal performs well on every pattern but below the best for each: {}",
        if nm_ok { "HOLDS" } else { "DOES NOT HOLD" }
    );
    let _ = writeln!(
        fnd,
        "Subcubes sustains at least 20 % of λmax on every pattern and worm length with 2 VCs per bidirectional link: {}",
        if sc_ok { "HOLDS" } else { "DOES NOT HOLD" }
    );
    let _ = match origin {
        Origin::Saved => writeln!(
            fnd,
            "\nSimulator speed: not measured here (figures redrawn from a saved results.json)."
        ),
        Origin::Merged => writeln!(
            fnd,
            "\nSimulator speed: not measured here (merged from shards; {} runs, {hops} flit-hops).",
            rs.len()
        ),
        Origin::Ran(..) => writeln!(
            fnd,
            "\nSimulator speed: {} runs, {hops} flit-hops in {seconds:.1} s wall and {cpu:.1} CPU s = {hps:.3e} flit-hops per CPU second.",
            rs.len()
        ),
    };
    fs::write(dir.join("findings.md"), &fnd)?;

    if a.cdg >= 2 {
        let txt = cdg_text(&algs, a.cdg.min(8))?;
        fs::write(dir.join("cdg.txt"), txt)?;
    }
    Ok(Summary {
        runs: rs.len(),
        seconds,
        cpu_seconds: cpu,
        flit_hops_per_cpu_second: hps,
        table,
        findings: fnd,
    })
}

const COLOURS: [RGBColor; 7] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// Tick values of a log axis from `lo` to `hi`: 1, 2, 3, 5 × 10^k, so that even a short range has several
/// labels.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut v = Vec::new();
    let mut decade = 10f64.powf(lo.max(1e-9).log10().floor());
    while decade <= hi {
        for m in [1.0, 2.0, 3.0, 5.0] {
            let t = m * decade;
            if t >= lo && t <= hi {
                v.push(t);
            }
        }
        decade *= 10.0;
    }
    v
}

#[allow(clippy::too_many_arguments)]
fn plot(
    path: &Path,
    f: u32,
    p: Pattern,
    b: u32,
    a: &Args,
    algs: &[Algorithm],
    rs: &[RunResult],
    mean: bool,
) -> Result<()> {
    let series: Vec<(String, Vec<(f64, f64)>)> = algs
        .iter()
        .map(|alg| {
            let mut pts: Vec<(f64, f64)> = rs
                .iter()
                .filter(|r| {
                    r.algorithm == alg.name()
                        && r.pattern == p.name()
                        && r.worm_len == b
                        && r.sustained
                })
                .map(|r| {
                    let y = if mean {
                        r.mean_latency
                    } else {
                        r.max_latency as f64
                    };
                    (r.accepted_pct, y)
                })
                .collect();
            pts.sort_by(|x, y| x.0.partial_cmp(&y.0).unwrap_or(std::cmp::Ordering::Equal));
            (format!("{} ({} VC)", alg.name(), alg.vcs(a.n)), pts)
        })
        .collect();
    // Room on the right for the legend; log latency axis so that saturating curves stay readable.
    let all = || series.iter().flat_map(|s| s.1.iter().copied());
    let xmax = all().map(|q| q.0).fold(10.0f64, f64::max) * 1.45;
    let ymax = all().map(|q| q.1).fold(100.0f64, f64::max) * 1.3;
    let ymin = all().map(|q| q.1).fold(ymax, f64::min).max(1.0) * 0.8;
    let root = SVGBackend::new(path, (800, 560)).into_drawing_area();
    let err = |e: String| anyhow::anyhow!("plotting {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "Fig. {f}{}: {}-node hypercube, {} traffic, {b}-flit worms{}",
                if mean { " (mean latency)" } else { "" },
                1u64 << a.n,
                p.name(),
                if a.node == NodeModel::Shared {
                    ", shared node channel"
                } else {
                    ""
                }
            ),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(
            0.0..xmax,
            (ymin..ymax)
                .log_scale()
                .with_key_points(log_ticks(ymin, ymax)),
        )
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc("accepted throughput, % of λmax = 1/(2b) (sustained points only)")
        .y_label_formatter(&|v| format!("{v:.0}"))
        .y_desc(if mean {
            "mean latency (cycles, log scale)"
        } else {
            "maximum latency (cycles, log scale)"
        })
        .draw()
        .map_err(|e| err(e.to_string()))?;
    for (k, (name, pts)) in series.iter().enumerate() {
        let c = COLOURS[k % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
            .map_err(|e| err(e.to_string()))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
        chart
            .draw_series(pts.iter().map(|&q| Circle::new(q, 3, c.filled())))
            .map_err(|e| err(e.to_string()))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn log_ticks_label_short_ranges() {
        assert_eq!(super::log_ticks(12.0, 130.0), vec![20.0, 30.0, 50.0, 100.0]);
        assert_eq!(super::log_ticks(1.0, 1000.0).len(), 13);
    }
}

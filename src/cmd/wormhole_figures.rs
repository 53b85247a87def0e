//! `asr wormhole-figures`: reproduces Figures 1–6 of seed 004 on a 2^n-node hypercube (n = 10 by default):
//! for each traffic pattern (random, complement, transpose) and worm length (10, 20 flits), one SVG plot of
//! maximum latency against accepted throughput (% of λmax = 1/(2b)) with every algorithm; a table of the highest
//! throughput each algorithm sustains; the CDG checks; and the check of the seed's qualitative findings.
//! Sweep points run in parallel (rayon), with an indicatif progress bar.
//!
//! Files written into `--out`: `fig1_random_b10.svg` … `fig6_transpose_b20.svg` (maximum latency, as in the
//! seed), `fig*_mean.svg` (mean latency), `table.md`, `findings.md`, `cdg.txt`, `results.json`.

use super::wormhole::{cdg_text, cpu_seconds, run_configs};
use anyhow::{Context, Result};
use asr_model::wormhole::algorithms::{self, Algorithm};
use asr_model::wormhole::{Pattern, RunResult, SimConfig};
use plotters::prelude::*;
use std::fmt::Write;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Output folder (created if missing).
    #[arg(long, default_value = "out/wormhole")]
    pub out: PathBuf,
    /// Hypercube dimension (the seed: 10). Must be even (transpose).
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
    /// Deadlock watchdog window (cycles).
    #[arg(long, default_value_t = 2000)]
    pub watchdog: u64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run the CDG checks on n = 2..=CDG (0 = skip).
    #[arg(long, default_value_t = 6)]
    pub cdg: u32,
    /// Do not simulate: redraw figures, table and findings from a results.json written earlier.
    #[arg(long)]
    pub from_json: Option<PathBuf>,
}

/// The default sweep of the figures, % of λmax.
pub const DEFAULT_LOADS: &str = "5,10,15,20,30,40,50,60,70,80,100,120,150";

/// The six figures of the seed: (figure number, pattern, worm length).
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
    let s = compute(&a)?;
    print!("{}\n{}", s.table, s.findings);
    if a.from_json.is_some() {
        eprintln!(
            "wormhole-figures: {} runs redrawn into {}",
            s.runs,
            a.out.display()
        );
        return Ok(());
    }
    eprintln!(
        "wormhole-figures: {} runs in {:.1} s wall ({:.1} CPU s), {:.3e} flit-hops per CPU second; written to {}",
        s.runs,
        s.seconds,
        s.cpu_seconds,
        s.flit_hops_per_cpu_second,
        a.out.display()
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

pub fn compute(a: &Args) -> Result<Summary> {
    if a.n % 2 == 1 {
        anyhow::bail!("--n {}: the transpose figures need an even dimension", a.n);
    }
    if a.loads.is_empty() || a.loads.iter().any(|&l| l.is_nan() || l <= 0.0) {
        anyhow::bail!("--loads: give at least one load, each > 0 (% of λmax)");
    }
    super::check::count("--warmup", a.warmup, 0, super::check::MAX_CYCLES)?;
    super::check::count("--measure", a.measure, 1, super::check::MAX_CYCLES)?;
    super::check::count("--watchdog", a.watchdog, 1, super::check::MAX_CYCLES)?;
    super::check::out_dir("--out", &a.out)?;
    let algs: Vec<Algorithm> = algorithms::ALL.to_vec();
    let mut cfgs = Vec::new();
    for &(_, p, b) in &FIGURES {
        for &alg in &algs {
            for &l in &a.loads {
                let mut c = SimConfig::new(a.n, alg, p, b, SimConfig::rate_for_pct(b, l));
                c.buf_depth = a.buf;
                c.warmup = a.warmup;
                c.measure = a.measure;
                c.watchdog = a.watchdog;
                c.seed = a.seed;
                c.stream = cfgs.len() as u64;
                c.validate()?;
                cfgs.push(c);
            }
        }
    }
    // Heaviest first so the two cores stay busy to the end.
    let mut order: Vec<usize> = (0..cfgs.len()).collect();
    order.sort_by(|&x, &y| {
        cfgs[y]
            .rate
            .partial_cmp(&cfgs[x].rate)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let sorted: Vec<SimConfig> = order.iter().map(|&i| cfgs[i].clone()).collect();
    let t = Instant::now();
    let c0 = cpu_seconds();
    let (rs, cpu_used) = if let Some(p) = &a.from_json {
        let txt = fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
        let rs: Vec<RunResult> = serde_json::from_str(&txt)
            .with_context(|| format!("{}: not a results.json", p.display()))?;
        let cpu: f64 = rs.iter().map(|r| r.seconds).sum();
        (rs, cpu)
    } else {
        let rs_sorted = run_configs(&sorted, "wormhole figures")?;
        let cpu_used = match (c0, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => f64::NAN,
        };
        let mut rs: Vec<Option<RunResult>> = vec![None; cfgs.len()];
        for (k, r) in order.iter().zip(rs_sorted) {
            rs[*k] = Some(r);
        }
        (
            rs.into_iter().flatten().collect::<Vec<RunResult>>(),
            cpu_used,
        )
    };
    let seconds = t.elapsed().as_secs_f64();
    let hops: u64 = rs.iter().map(|r| r.flit_hops).sum();
    let cpu = if cpu_used.is_finite() {
        cpu_used
    } else {
        rs.iter().map(|r| r.seconds).sum()
    };
    let hps = hops as f64 / cpu.max(1e-9);

    for &(f, p, b) in &FIGURES {
        let path = a.out.join(format!("{}.svg", fig_name(f, p, b)));
        plot(&path, f, p, b, a.n, &algs, &rs, false)?;
        let path = a.out.join(format!("{}_mean.svg", fig_name(f, p, b)));
        plot(&path, f, p, b, a.n, &algs, &rs, true)?;
    }
    if a.from_json.is_none() {
        fs::write(
            a.out.join("results.json"),
            serde_json::to_string_pretty(&rs)?,
        )?;
    }

    // Table.
    let mut table = String::new();
    let _ = writeln!(
        table,
        "Highest sustained throughput, % of λmax = 1/(2b), on 2^{} nodes (loads {:?} % of λmax; {} + {} cycles per point; buffers {} flits/VC)\n",
        a.n, a.loads, a.warmup, a.measure, a.buf
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
    fs::write(a.out.join("table.md"), &table)?;

    // Findings.
    let mut fnd = String::new();
    let _ = writeln!(
        fnd,
        "Seed 004's qualitative findings, checked on these runs\n"
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
    if a.from_json.is_some() {
        let _ = writeln!(
            fnd,
            "\nSimulator speed: not measured here (figures redrawn from a saved results.json)."
        );
    } else {
        let _ = writeln!(
            fnd,
            "\nSimulator speed: {} runs, {hops} flit-hops in {seconds:.1} s wall and {cpu:.1} CPU s = {hps:.3e} flit-hops per CPU second.",
            rs.len()
        );
    }
    fs::write(a.out.join("findings.md"), &fnd)?;

    if a.cdg >= 2 {
        let txt = cdg_text(&algs, a.cdg.min(8))?;
        fs::write(a.out.join("cdg.txt"), txt)?;
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
    n: u32,
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
            (format!("{} ({} VC)", alg.name(), alg.vcs(n)), pts)
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
                "Fig. {f}{}: {}-node hypercube, {} traffic, {b}-flit worms",
                if mean { " (mean latency)" } else { "" },
                1u64 << n,
                p.name()
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

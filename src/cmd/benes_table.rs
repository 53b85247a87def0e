//! `asr benes-table`: thesis Table 3.1 and Figures A.1–A.10. For each Beneš size and traffic pattern, a load
//! sweep with ASR and with random routing (identical seeds, so identical traffic), the saturation throughput
//! of each (the maximum accepted throughput over the sweep, `network::sweep::saturation`), printed beside the
//! thesis' figure; latency–load curves as CSV and SVG into the output folder. All sweep points of all curves
//! run in one rayon pool (largest networks first), with a progress bar on stderr.

use super::plot::{ceiling, latency_svg, write_csv, Curve, LatencyPlot, Line};
use anyhow::{bail, Context, Result};
use asr_model::network::build::benes_topology;
use asr_model::network::engine::Engine;
use asr_model::network::sim::{simulate, SimConfig, SimStats};
use asr_model::network::sweep::{default_loads, knee, saturation};
use asr_model::routing::{BenesRouting, Scheme};
use asr_model::traffic::{Injection, Pattern};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Beneš sizes (powers of two from 4 to 65536), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "16,32,64,128,512")]
    pub sizes: Vec<usize>,
    /// Traffic patterns.
    #[arg(long, value_delimiter = ',', default_value = "uniform,shift-right")]
    pub patterns: Vec<String>,
    /// Offered loads of the sweep, each in (0, 1], comma-separated (default: 12 points from 0.15 to 1.0).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub loads: Option<Vec<f64>>,
    /// Measured packets generated per input per point, 1..=1000000 (thesis: at least 1500).
    #[arg(long, default_value_t = 1500)]
    pub packets: u64,
    /// Seed of the traffic (ASR and random runs of a point see identical traffic).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Folder for the table, CSVs and plots.
    #[arg(long, default_value = "out/benes")]
    pub out: PathBuf,
    /// Print only a JSON array of {size, pattern, routing, saturation} on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Thesis Table 3.1: (size, uniform ASR, uniform random, shift-right ASR, shift-right random).
pub const THESIS: [(usize, f64, f64, f64, f64); 5] = [
    (16, 0.48, 0.40, 0.58, 0.40),
    (32, 0.46, 0.38, 0.53, 0.37),
    (64, 0.44, 0.37, 0.55, 0.36),
    (128, 0.43, 0.37, 0.51, 0.34),
    (512, 0.41, 0.35, 0.50, 0.34),
];

fn thesis(size: usize, pattern: Pattern, scheme: Scheme) -> Option<f64> {
    let r = THESIS.iter().find(|r| r.0 == size)?;
    match (pattern, scheme) {
        (Pattern::Uniform, Scheme::Asr) => Some(r.1),
        (Pattern::Uniform, Scheme::Random) => Some(r.2),
        (Pattern::ShiftRight, Scheme::Asr) => Some(r.3),
        (Pattern::ShiftRight, Scheme::Random) => Some(r.4),
        _ => None,
    }
}

/// One curve of the table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    pub size: usize,
    pub pattern: Pattern,
    pub routing: Scheme,
    pub saturation: f64,
    pub knee: f64,
    pub thesis: Option<f64>,
    #[serde(skip)]
    pub points: Vec<SimStats>,
}

/// Runs every curve. Returns the rows and the wall time in seconds.
/// Checks the arguments (without building any network); returns the loads and patterns.
pub fn validate(a: &Args) -> Result<(Vec<f64>, Vec<Pattern>)> {
    let loads = a.loads.clone().unwrap_or_else(default_loads);
    super::check::loads("--loads", &loads, "packets / input / cycle")?;
    super::check::count(
        "--packets",
        a.packets,
        1,
        super::check::MAX_PACKETS_PER_INPUT,
    )?;
    let patterns: Vec<Pattern> = a
        .patterns
        .iter()
        .map(|p| p.parse())
        .collect::<Result<_, _>>()?;
    for &s in &a.sizes {
        if !(4..=65536).contains(&s) || !s.is_power_of_two() {
            bail!("--sizes {s}: each Beneš size must be a power of two from 4 to 65536");
        }
    }
    Ok((loads, patterns))
}

pub fn compute(a: &Args, progress: bool) -> Result<(Vec<Row>, f64)> {
    let (loads, patterns) = validate(a)?;
    let mut nets = Vec::new();
    for &s in &a.sizes {
        let e = Engine::new(&benes_topology(s)?.topo)?;
        super::sim::check_work(
            &format!("asr benes-table, Beneš {s}"),
            e.switches(),
            &loads.repeat(patterns.len() * 2),
            a.packets,
        )?;
        nets.push((s, e));
    }
    let schemes = [Scheme::Asr, Scheme::Random];
    // Jobs: (net index, pattern, scheme, load), largest networks first for load balance.
    let mut jobs = Vec::new();
    for (ni, _) in nets.iter().enumerate().rev() {
        for &p in &patterns {
            for &sc in &schemes {
                for &l in &loads {
                    jobs.push((ni, p, sc, l));
                }
            }
        }
    }
    let bar = if progress {
        super::progress::bar("benes-table", jobs.len() as u64, "points")
    } else {
        super::progress::hidden()
    };
    let t = Instant::now();
    let results: Vec<SimStats> = jobs
        .par_iter()
        .map(|&(ni, p, sc, l)| {
            let (size, ref e) = nets[ni];
            let n = size.trailing_zeros() as usize;
            let mut cfg = SimConfig::new(Injection::geometric(l)?, p, a.seed);
            cfg.packets_per_input = a.packets;
            let r = simulate(e, &BenesRouting { n, scheme: sc }, &cfg)
                .with_context(|| format!("Beneš {size} {p} {sc} load {l}"));
            bar.inc(1);
            r
        })
        .collect::<Result<_>>()?;
    bar.finish_and_clear();
    let secs = t.elapsed().as_secs_f64();
    let mut rows = Vec::new();
    for &(size, _) in &nets {
        for &p in &patterns {
            for &sc in &schemes {
                let points: Vec<SimStats> = jobs
                    .iter()
                    .zip(&results)
                    .filter(|((ni, pp, s, _), _)| nets[*ni].0 == size && *pp == p && *s == sc)
                    .map(|(_, r)| *r)
                    .collect();
                rows.push(Row {
                    size,
                    pattern: p,
                    routing: sc,
                    saturation: saturation(&points),
                    knee: knee(&points),
                    thesis: thesis(size, p, sc),
                    points,
                });
            }
        }
    }
    Ok((rows, secs))
}

/// The table beside the thesis' figures.
pub fn render(rows: &[Row], secs: f64, a: &Args) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Table 3.1: saturation throughput (max accepted packets/input/cycle over the load sweep); thesis in brackets"
    );
    let _ = writeln!(
        s,
        "{:>6} {:>12} | {:>14} {:>14} {:>7} | {:>12} {:>12}",
        "size", "pattern", "ASR [thesis]", "random [thes.]", "gain", "ASR knee", "random knee"
    );
    for ch in rows.chunks(2) {
        let (x, y) = (&ch[0], &ch[1]);
        let f = |r: &Row| match r.thesis {
            Some(t) => format!("{:.3} [{:.2}]", r.saturation, t),
            None => format!("{:.3}", r.saturation),
        };
        let _ = writeln!(
            s,
            "{:>6} {:>12} | {:>14} {:>14} {:>6.0}% | {:>12.2} {:>12.2}",
            x.size,
            x.pattern.name(),
            f(x),
            f(y),
            100.0 * (x.saturation / y.saturation - 1.0),
            x.knee,
            y.knee
        );
    }
    let pts: usize = rows.iter().map(|r| r.points.len()).sum();
    let rc: u64 = rows
        .iter()
        .flat_map(|r| r.points.iter())
        .map(|p| p.router_cycles)
        .sum();
    let _ = writeln!(
        s,
        "{pts} runs, {} measured packets per input each, seed {}; {:.1} s wall on {} threads; {:.1} M router-cycles/s",
        a.packets,
        a.seed,
        secs,
        rayon::current_num_threads(),
        rc as f64 / secs / 1e6
    );
    s
}

/// Writes the table, its JSON, a CSV and an SVG per (size, pattern) into `a.out`.
pub fn write(rows: &[Row], table: &str, a: &Args) -> Result<()> {
    fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    fs::write(a.out.join("table3_1.txt"), table)?;
    fs::write(
        a.out.join("table3_1.json"),
        serde_json::to_string_pretty(rows)?,
    )?;
    for ch in rows.chunks(2) {
        let stem = format!("benes{}_{}", ch[0].size, ch[0].pattern.name());
        let curves = [
            Curve {
                label: "ASR",
                points: &ch[0].points,
            },
            Curve {
                label: "random",
                points: &ch[1].points,
            },
        ];
        write_csv(&a.out.join(format!("{stem}.csv")), &curves)?;
        let lines = [
            Line::from_sim("ASR", &ch[0].points),
            Line::from_sim("random", &ch[1].points),
        ];
        latency_svg(
            &a.out.join(format!("{stem}.svg")),
            &LatencyPlot {
                title: &format!(
                    "{}×{} Beneš, {} traffic: ASR against random routing",
                    ch[0].size, ch[0].size, ch[0].pattern
                ),
                subtitle: &format!(
                    "{} measured packets per input per load, seed {}; thesis Figures A.1–A.10",
                    a.packets, a.seed
                ),
                x_desc: "offered load (packets / input / cycle)",
                y_max: ceiling(&lines),
            },
            &lines,
        )?;
    }
    Ok(())
}

pub fn run(a: Args) -> Result<()> {
    validate(&a)?;
    if !a.json {
        super::check::out_dir("--out", &a.out)?;
    }
    let (rows, secs) = compute(&a, !a.json)?;
    if a.json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "size": r.size,
                    "pattern": r.pattern.name(),
                    "routing": r.routing.name(),
                    "saturation": (r.saturation * 1000.0).round() / 1000.0,
                })
            })
            .collect();
        println!("{}", serde_json::to_string(&v)?);
        return Ok(());
    }
    let table = render(&rows, secs, &a);
    print!("{table}");
    write(&rows, &table, &a)?;
    eprintln!("benes-table: table, CSVs and plots in {}", a.out.display());
    Ok(())
}

//! `asr benes-table`: thesis Table 3.1 and Figures A.1–A.10. For each Beneš size and traffic pattern, a load
//! sweep with ASR and with random routing (identical seeds, so identical traffic), the saturation throughput
//! of each (the maximum accepted throughput over the sweep, `network::sweep::saturation`), printed beside the
//! thesis' figure; latency–load curves as CSV and SVG into the output folder. All sweep points of all curves
//! run in one rayon pool (largest networks first), with a progress bar on stderr.

use super::plot::{ceiling, latency_svg, write_csv, Curve, LatencyPlot, Line};
use anyhow::{bail, Context, Result};
use asr_model::network::build::benes_topology;
use asr_model::network::engine::{Engine, FlowControl};
use asr_model::network::sim::{simulate, SimConfig, SimStats};
use asr_model::network::sweep::{default_loads, knee, saturation};
use asr_model::routing::{BenesRouting, Scheme};
use asr_model::traffic::{Injection, Pattern};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use super::shard::{decode, selected, write_shard, Parameters, VERSION};
use super::sweep::SweepOpts;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[command(mut_arg("out", |a| a.default_value("out/benes").help("Folder for the table, CSVs and plots")))]
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
    /// `--seed` (of the traffic: ASR and random runs of a point see identical traffic), `--out` and `--shard`.
    #[command(flatten)]
    #[serde(flatten)]
    pub sweep: SweepOpts,
    /// Print only a JSON array of {size, pattern, buffer, routing, saturation} on stdout.
    #[arg(long)]
    #[serde(skip)]
    pub json: bool,
    /// Input-buffer depths in packets; several = one table row pair per depth (1 = the thesis).
    #[arg(long, value_delimiter = ',', default_values_t = vec![1u32])]
    pub buffer: Vec<u32>,
    /// Link latency in cycles (0 = the thesis).
    #[arg(long, default_value_t = 0)]
    pub link_delay: u32,
    /// Switch allocator (asr-p2 = the thesis' 2×2 switch rule; see `asr sim --help`).
    #[arg(long, default_value = asr_model::allocator::DEFAULT)]
    pub allocator: String,
}

impl Args {
    /// Table 3.1 as the thesis ran it.
    pub fn thesis(seed: u64, out: PathBuf) -> Self {
        Args {
            sizes: vec![16, 32, 64, 128, 512],
            patterns: vec!["uniform".into(), "shift-right".into()],
            loads: None,
            packets: 1500,
            sweep: SweepOpts::new(seed, Some(out)),
            json: false,
            buffer: vec![1],
            link_delay: 0,
            allocator: asr_model::allocator::DEFAULT.into(),
        }
    }
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
    pub buffer: u32,
    pub routing: Scheme,
    pub saturation: f64,
    pub knee: f64,
    pub thesis: Option<f64>,
    #[serde(skip)]
    pub points: Vec<SimStats>,
}

/// The sweep's networks and jobs, in the order every run (and every shard) numbers them.
struct Plan {
    /// (size, buffer depth, engine).
    nets: Vec<(usize, u32, Engine)>,
    patterns: Vec<Pattern>,
    /// (net index, pattern, scheme, load), largest networks first for load balance.
    jobs: Vec<(usize, Pattern, Scheme, f64)>,
}

const SCHEMES: [Scheme; 2] = [Scheme::Asr, Scheme::Random];

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
    if a.buffer.is_empty() {
        bail!("--buffer needs at least one depth");
    }
    for &b in &a.buffer {
        FlowControl::new(b, a.link_delay)
            .with_context(|| format!("--buffer {b} / --link-delay {}", a.link_delay))?;
    }
    asr_model::allocator::by_name(&a.allocator).map_err(|e| anyhow::anyhow!("--allocator: {e}"))?;
    Ok((loads, patterns))
}

fn plan(a: &Args) -> Result<Plan> {
    let (loads, patterns) = validate(a)?;
    let alloc = asr_model::allocator::by_name(&a.allocator)
        .map_err(|e| anyhow::anyhow!("--allocator: {e}"))?;
    // One engine per (size, depth).
    let mut nets = Vec::new();
    for &s in &a.sizes {
        let base = Engine::new(&benes_topology(s)?.topo)?;
        super::check::check_work(
            &format!("asr benes-table, Beneš {s}"),
            base.switches(),
            &loads.repeat(patterns.len() * 2 * a.buffer.len()),
            a.packets,
        )?;
        for &b in &a.buffer {
            let flow = FlowControl::new(b, a.link_delay)
                .with_context(|| format!("--buffer {b} / --link-delay {}", a.link_delay))?;
            let mut e = base.clone().with_flow(flow)?;
            e.set_allocator(alloc.clone());
            nets.push((s, b, e));
        }
    }
    let mut jobs = Vec::new();
    for (ni, _) in nets.iter().enumerate().rev() {
        for &p in &patterns {
            for &sc in &SCHEMES {
                for &l in &loads {
                    jobs.push((ni, p, sc, l));
                }
            }
        }
    }
    Ok(Plan {
        nets,
        patterns,
        jobs,
    })
}

/// Runs the jobs numbered `which` (all of them without a shard), in parallel.
fn run_jobs(a: &Args, plan: &Plan, which: &[usize], progress: bool) -> Result<Vec<SimStats>> {
    let bar = if progress {
        super::progress::bar("benes-table", which.len() as u64, "points")
    } else {
        super::progress::hidden()
    };
    let results = which
        .par_iter()
        .map(|&j| {
            let (ni, p, sc, l) = plan.jobs[j];
            let (size, _, ref e) = plan.nets[ni];
            let n = size.trailing_zeros() as usize;
            let mut cfg = SimConfig::new(Injection::geometric(l)?, p, a.sweep.seed);
            cfg.packets_per_input = a.packets;
            let r = simulate(e, &BenesRouting { n, scheme: sc }, &cfg).with_context(|| {
                format!(
                    "Beneš {size} {p} {sc} buffer {} load {l} (seed {})",
                    e.flow().depth,
                    a.sweep.seed
                )
            });
            bar.inc(1);
            r
        })
        .collect::<Result<_>>();
    bar.finish_and_clear();
    results
}

/// The table's rows from every job's result.
fn rows(plan: &Plan, results: &[SimStats]) -> Vec<Row> {
    let mut rows = Vec::new();
    for (nk, &(size, buffer, _)) in plan.nets.iter().enumerate() {
        for &p in &plan.patterns {
            for &sc in &SCHEMES {
                let points: Vec<SimStats> = plan
                    .jobs
                    .iter()
                    .zip(results)
                    .filter(|((ni, pp, s, _), _)| *ni == nk && *pp == p && *s == sc)
                    .map(|(_, r)| *r)
                    .collect();
                rows.push(Row {
                    size,
                    pattern: p,
                    buffer,
                    routing: sc,
                    saturation: saturation(&points),
                    knee: knee(&points),
                    thesis: thesis(size, p, sc),
                    points,
                });
            }
        }
    }
    rows
}

/// Runs every curve. Returns the rows and the wall time in seconds.
pub fn compute(a: &Args, progress: bool) -> Result<(Vec<Row>, f64)> {
    let plan = plan(a)?;
    let t = Instant::now();
    let all: Vec<usize> = (0..plan.jobs.len()).collect();
    let results = run_jobs(a, &plan, &all, progress)?;
    Ok((rows(&plan, &results), t.elapsed().as_secs_f64()))
}

/// The table beside the thesis' figures; `secs` = the wall time (None: merged from shards).
pub fn render(rows: &[Row], secs: Option<f64>, a: &Args) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Table 3.1: saturation throughput (max accepted packets/input/cycle over the load sweep); thesis in brackets"
    );
    let _ = writeln!(
        s,
        "{:>6} {:>12} {:>6} | {:>14} {:>14} {:>7} | {:>12} {:>12}",
        "size",
        "pattern",
        "buffer",
        "ASR [thesis]",
        "random [thes.]",
        "gain",
        "ASR knee",
        "random knee"
    );
    for ch in rows.chunks(2) {
        let (x, y) = (&ch[0], &ch[1]);
        // The thesis' figures are for its switch: one-packet buffers, no link delay, its allocator.
        let thesis_mode =
            x.buffer == 1 && a.link_delay == 0 && a.allocator == asr_model::allocator::DEFAULT;
        let f = |r: &Row| match r.thesis {
            Some(t) if thesis_mode => format!("{:.3} [{:.2}]", r.saturation, t),
            _ => format!("{:.3}", r.saturation),
        };
        let _ = writeln!(
            s,
            "{:>6} {:>12} {:>6} | {:>14} {:>14} {:>6.0}% | {:>12.2} {:>12.2}",
            x.size,
            x.pattern.name(),
            x.buffer,
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
    let _ = write!(
        s,
        "{pts} runs, {} measured packets per input each, seed {}, link delay {}, allocator {}; ",
        a.packets, a.sweep.seed, a.link_delay, a.allocator,
    );
    let _ = match secs {
        Some(secs) => writeln!(
            s,
            "{:.1} s wall on {} threads; {:.1} M router-cycles/s",
            secs,
            rayon::current_num_threads(),
            rc as f64 / secs / 1e6
        ),
        None => writeln!(s, "merged from shards ({rc} router-cycles)"),
    };
    s
}

/// The JSON of the table: how it was made, then its rows.
#[derive(serde::Serialize)]
struct Results<'a> {
    parameters: Parameters<&'a Args>,
    rows: &'a [Row],
}

/// A plot's subtitle: the run's parameters.
fn subtitle(a: &Args, buffer: Option<u32>) -> String {
    let thesis =
        buffer == Some(1) && a.link_delay == 0 && a.allocator == asr_model::allocator::DEFAULT;
    format!(
        "{} measured packets per input per load, seed {}; {}link delay {}, allocator {}{}",
        a.packets,
        a.sweep.seed,
        buffer.map_or(String::new(), |b| format!("{b}-packet buffers, ")),
        a.link_delay,
        a.allocator,
        if thesis {
            "; thesis Figures A.1–A.10"
        } else {
            ""
        }
    )
}

/// The parameters every CSV row carries.
fn csv_params(a: &Args, size: usize, pattern: Pattern, buffer: u32) -> Vec<(&'static str, String)> {
    vec![
        ("network", format!("benes:{size}")),
        ("pattern", pattern.name().to_string()),
        ("buffer", buffer.to_string()),
        ("link_delay", a.link_delay.to_string()),
        ("allocator", a.allocator.clone()),
        ("seed", a.sweep.seed.to_string()),
        ("packets", a.packets.to_string()),
        ("version", VERSION.to_string()),
    ]
}

/// Writes the table, its JSON, a CSV and an SVG per (size, pattern, buffer) into `dir`.
pub fn write(rows: &[Row], table: &str, a: &Args, dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    fs::write(dir.join("table3_1.txt"), table)?;
    fs::write(
        dir.join("table3_1.json"),
        serde_json::to_string_pretty(&Results {
            parameters: Parameters::new("benes-table", a),
            rows,
        })?,
    )?;
    for ch in rows.chunks(2) {
        let stem = if ch[0].buffer == 1 {
            format!("benes{}_{}", ch[0].size, ch[0].pattern.name())
        } else {
            format!(
                "benes{}_{}_b{}",
                ch[0].size,
                ch[0].pattern.name(),
                ch[0].buffer
            )
        };
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
        write_csv(
            &dir.join(format!("{stem}.csv")),
            &csv_params(a, ch[0].size, ch[0].pattern, ch[0].buffer),
            &curves,
        )?;
        let lines = [
            Line::from_sim("ASR", &ch[0].points),
            Line::from_sim("random", &ch[1].points),
        ];
        latency_svg(
            &dir.join(format!("{stem}.svg")),
            &LatencyPlot {
                title: &format!(
                    "{}×{} Beneš, {} traffic: ASR against random routing",
                    ch[0].size, ch[0].size, ch[0].pattern
                ),
                subtitle: &subtitle(a, Some(ch[0].buffer)),
                x_desc: "offered load (packets / input / cycle)",
                y_max: ceiling(&lines),
            },
            &lines,
        )?;
    }
    // With several depths: one plot per (size, pattern) with every depth's ASR and random curves.
    if a.buffer.len() > 1 {
        for &size in &a.sizes {
            let mut pats: Vec<Pattern> = Vec::new();
            for r in rows {
                if !pats.contains(&r.pattern) {
                    pats.push(r.pattern);
                }
            }
            for p in pats {
                let mine: Vec<&Row> = rows
                    .iter()
                    .filter(|r| r.size == size && r.pattern == p)
                    .collect();
                let labels: Vec<String> = mine
                    .iter()
                    .map(|r| {
                        format!(
                            "{} b={}",
                            if r.routing == Scheme::Asr {
                                "ASR"
                            } else {
                                "random"
                            },
                            r.buffer
                        )
                    })
                    .collect();
                let lines: Vec<Line> = mine
                    .iter()
                    .zip(&labels)
                    .map(|(r, l)| Line::from_sim(l, &r.points))
                    .collect();
                latency_svg(
                    &dir.join(format!("benes{size}_{}_depths.svg", p.name())),
                    &LatencyPlot {
                        title: &format!(
                            "{size}×{size} Beneš, {p} traffic: ASR against random, by input-buffer depth"
                        ),
                        subtitle: &subtitle(a, None),
                        x_desc: "offered load (packets / input / cycle)",
                        y_max: ceiling(&lines),
                    },
                    &lines,
                )?;
            }
        }
    }
    Ok(())
}

pub fn run(a: Args) -> Result<()> {
    validate(&a)?;
    let out = a.sweep.out_dir()?;
    if !a.json || a.sweep.shard.is_some() {
        super::check::out_dir("--out", out)?;
    }
    if let Some(sh) = a.sweep.shard {
        let plan = plan(&a)?;
        let which = selected(Some(sh), plan.jobs.len());
        let res = run_jobs(&a, &plan, &which, true)?;
        let pairs = which.into_iter().zip(res).collect();
        write_shard(out, "benes-table", &a, sh, plan.jobs.len(), pairs)?;
        return Ok(());
    }
    let (rows, secs) = compute(&a, !a.json)?;
    if a.json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "size": r.size,
                    "pattern": r.pattern.name(),
                    "buffer": r.buffer,
                    "routing": r.routing.name(),
                    "saturation": (r.saturation * 1000.0).round() / 1000.0,
                })
            })
            .collect();
        println!("{}", serde_json::to_string(&v)?);
        return Ok(());
    }
    let table = render(&rows, Some(secs), &a);
    print!("{table}");
    write(&rows, &table, &a, out)?;
    eprintln!("benes-table: table, CSVs and plots in {}", out.display());
    Ok(())
}

/// `asr merge` of `asr benes-table` shards.
pub fn merge(params: serde_json::Value, results: Vec<serde_json::Value>, out: &Path) -> Result<()> {
    let (a, res): (Args, Vec<SimStats>) = decode(params, results)?;
    let plan = plan(&a)?;
    let rows = rows(&plan, &res);
    let table = render(&rows, None, &a);
    print!("{table}");
    write(&rows, &table, &a, out)
}

//! `asr fault-curve`: how an SP2 system degrades with failed links. For K = 0, step, 2·step, … up to
//! `--max-links` links failed at random (nested: the K + step failures include the K ones, seed `--seed`), the
//! deadlock-free tables are regenerated on the degraded network and the system of SP2-style switches is run at
//! every load: saturation throughput (the highest accepted load), average adaptivity and non-minimal pairs of the
//! tables, against K. Every run keeps the full scoreboard; a deadlock is reported as such (none is expected).
//!
//! The curve itself is the model's `asr_model::experiment::fault_curve`; this command checks its options,
//! prints the rows and writes `fault_curve.csv` and `fault_curve.svg`.

use anyhow::{bail, Context, Result};
use asr_model::experiment::fault_curve::{self as study, NamedRouting, Row};
use asr_model::routing::registry::{Base, TableKind};
use asr_model::sp2::network::Sp2Network;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The system (a built-in name or a topology file of 8-port switches).
    #[arg(long, default_value = "sp2:128")]
    pub network: String,
    /// The largest number of failed links.
    #[arg(long, default_value_t = 32)]
    pub max_links: usize,
    /// Failed links between points.
    #[arg(long, default_value_t = 4)]
    pub step: usize,
    /// Routings: asr-df (deadlock-free ASR tables) and/or single-df (one path per pair from them).
    #[arg(long, value_delimiter = ',', default_value = "asr-df,single-df")]
    pub routing: Vec<String>,
    /// Offered loads (link bytes per processor per cycle); saturation = the highest accepted.
    #[arg(long, value_delimiter = ',', default_value = "0.3,0.4,0.5,0.6,1.0")]
    pub load: Vec<f64>,
    /// Warm-up cycles per point.
    #[arg(long, default_value_t = 2_000)]
    pub warmup: u64,
    /// Measured cycles per point.
    #[arg(long, default_value_t = 10_000)]
    pub measure: u64,
    /// Choose the restriction by balance (busiest channel) instead of adaptivity.
    #[arg(long)]
    pub balance: bool,
    /// Seed of the failures and of the traffic.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write fault_curve.csv and fault_curve.svg into this folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the rows as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Checks the arguments, loads the system and runs the curve (`asr_model::experiment::fault_curve`).
pub fn compute(a: &Args) -> Result<Vec<Row>> {
    super::check::loads("--load", &a.load, "link bytes / processor / cycle")?;
    super::check::count("--warmup", a.warmup, 0, super::check::MAX_CYCLES)?;
    super::check::count("--measure", a.measure, 100, super::check::MAX_CYCLES)?;
    if a.step == 0 {
        bail!("--step must be at least 1");
    }
    // Route-table routings by name (the model's registry), here only those of the deadlock-free tables.
    let routings = a
        .routing
        .iter()
        .map(|r| match TableKind::lookup(r, false) {
            Ok(kind) if kind.base == Base::DeadlockFree => Ok(NamedRouting {
                name: r.clone(),
                kind,
            }),
            _ => bail!("--routing `{r}`: use asr-df or single-df"),
        })
        .collect::<Result<Vec<_>>>()?;
    let t = asr_model::topology::load(&a.network)?;
    Sp2Network::<asr_model::sp2::v1::switch::Sp2Switch>::new(&t)
        .with_context(|| format!("network `{}`", a.network))?;
    let cfg = study::Config {
        network: a.network.clone(),
        max_links: a.max_links,
        step: a.step,
        routings,
        loads: a.load.clone(),
        warmup: a.warmup,
        measure: a.measure,
        objective: super::networks::objective(a.balance),
        seed: a.seed,
    };
    Ok(study::run(&cfg, &t)?)
}

/// The table of the rows (Markdown).
pub fn render(rows: &[Row], a: &Args) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: failed links against saturation throughput and adaptivity (deadlock-free tables regenerated for each; loads {:?}, {} + {} cycles per point, seed {})",
        a.network, a.load, a.warmup, a.measure, a.seed
    );
    let _ = write!(
        s,
        "| failed links | adaptivity | non-minimal pairs | mean route (channels) | mean npath |"
    );
    for r in &a.routing {
        let _ = write!(s, " saturation, {r} |");
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "|---|---|---|---|---|{}", "---|".repeat(a.routing.len()));
    for r in rows {
        let _ = write!(
            s,
            "| {} | {:.4} | {} | {:.3} | {:.1} |",
            r.failed_links, r.adaptivity, r.nonminimal, r.mean_hops, r.mean_npath
        );
        for (_, sat, dl) in &r.saturation {
            match dl {
                None => {
                    let _ = write!(s, " {sat:.3} |");
                }
                Some(l) => {
                    let _ = write!(s, " {sat:.3} (deadlock at load {l}) |");
                }
            }
        }
        let _ = writeln!(s);
    }
    s
}

/// `asr fault-curve`: runs the curve, prints it (JSON or the table with the time taken) and writes its files.
pub fn run_cmd(a: Args) -> Result<()> {
    let t0 = std::time::Instant::now();
    let rows = compute(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", render(&rows, &a));
        println!("({:.1} s)", t0.elapsed().as_secs_f64());
    }
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        write_csv(&rows, &a, dir)?;
        write_plot(&rows, &a, dir)?;
    }
    Ok(())
}

/// `fault_curve.csv`: one row per number of failed links (a routing that deadlocked: its saturation empty).
fn write_csv(rows: &[Row], a: &Args, dir: &std::path::Path) -> Result<()> {
    let mut w = csv::Writer::from_path(dir.join("fault_curve.csv"))?;
    let mut head = vec![
        "failed_links".to_string(),
        "adaptivity".into(),
        "nonminimal".into(),
        "mean_hops".into(),
        "mean_npath".into(),
    ];
    head.extend(a.routing.iter().map(|r| format!("saturation_{r}")));
    w.write_record(&head)?;
    for r in rows {
        let mut rec = vec![
            r.failed_links.to_string(),
            format!("{:.4}", r.adaptivity),
            r.nonminimal.to_string(),
            format!("{:.4}", r.mean_hops),
            format!("{:.3}", r.mean_npath),
        ];
        rec.extend(r.saturation.iter().map(|(_, x, d)| match d {
            None => format!("{x:.4}"),
            Some(_) => String::new(),
        }));
        w.write_record(&rec)?;
    }
    w.flush()?;
    Ok(())
}

/// `fault_curve.svg`: each routing's saturation throughput and the tables' adaptivity against failed links.
fn write_plot(rows: &[Row], a: &Args, dir: &std::path::Path) -> Result<()> {
    let mut lines: Vec<(&str, Vec<(f64, f64)>)> = a
        .routing
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                r.as_str(),
                rows.iter()
                    .map(|row| (row.failed_links as f64, row.saturation[i].1))
                    .collect(),
            )
        })
        .collect();
    lines.push((
        "adaptivity",
        rows.iter()
            .map(|row| (row.failed_links as f64, row.adaptivity))
            .collect(),
    ));
    super::plot::xy_svg_axes(
        &dir.join("fault_curve.svg"),
        &format!(
            "{}: saturation throughput and adaptivity against failed links",
            a.network
        ),
        "failed links",
        "saturation (bytes/processor/cycle); adaptivity",
        &lines,
        1.0,
    )
}

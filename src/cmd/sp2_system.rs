//! `asr sp2-system`: whole SP2 systems built of the SP2-style switch model (`model/src/sp2/system.rs`) —
//! the 16-node board and the 32–512-node systems, or any topology file of 8-port switches — with the route
//! generator's ASR tables against their single-path reduction: latency–load curves, saturation throughput,
//! central-queue occupancy. Every run checks the scoreboard and drains (no loss, no leak, no deadlock).
//!
//! The sweep itself (jobs, parallel runs, curves, saturation) is the model's
//! `asr_model::experiment::sp2_systems`; this command builds the systems' route tables and the fault
//! scenario from its options, and prints and writes the results (tables, JSON, CSV, plots, shard files).

use anyhow::{bail, Context, Result};
use asr_model::experiment::sp2_systems::{
    self as study, deadlock_free_tables_after_faults, failed_ports, free_tables_after_faults,
    FaultScenario, Point, SwitchKind, System, SystemCurves,
};
use asr_model::routing::registry::{self, Base, TableKind};
use asr_model::routing::TableRouting;
use asr_model::sp2::network::Sp2Network;
use asr_model::sp2::system::fmt_ids;
use asr_model::sp2::v1::switch::Sp2Switch;
use asr_model::topology::Topology;
use std::fmt::Write;
use std::path::Path;

use super::plot::{ceiling, file_part, latency_svg, LatencyPlot, Line, Pt, SATURATED_BELOW};
use super::shard::{decode, selected, write_shard, Parameters, VERSION};
use super::sweep::SweepOpts;

#[derive(clap::Args, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[command(mut_arg("out", |a| a.help(
    "Write `sp2_systems.csv`, `sp2_systems.json` and one latency–load plot per system (`sp2_32.svg`, …) into this folder (created if missing)"
)))]
pub struct Args {
    /// Systems: built-in names (sp2:16, sp2:32, …, sp2:512, sp2even:64) or topology files, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "sp2:32")]
    pub network: Vec<String>,
    /// Routings to compare: asr (the generator's tables), single (one path per pair from them), asr-df and
    /// single-df (the same from the deadlock-free tables).
    #[arg(long, value_delimiter = ',', default_value = "asr,single")]
    pub routing: Vec<String>,
    /// Use the deadlock-free tables (acyclic channel dependencies) for asr and single.
    #[arg(long)]
    #[serde(default)]
    pub deadlock_free: bool,
    /// Deadlock-free tables: choose the restriction by balance (busiest channel) instead of adaptivity.
    #[arg(long)]
    #[serde(default)]
    pub balance: bool,
    /// Offered loads in link bytes per processor per cycle, comma-separated, each in (0, 1].
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,1",
        allow_negative_numbers = true
    )]
    pub load: Vec<f64>,
    /// Payload bytes per packet: N or MIN..MAX (uniform, 0..=240), or `full`: the whole legal range (0 up to
    /// 255 minus the route bytes) with its corners often (0, 1, 2 bytes, chunk boundaries, the longest).
    #[arg(long, default_value = "32")]
    pub payload: String,
    /// Warm-up cycles per point before measuring, 0..=100000000.
    #[arg(long, default_value_t = 2_000)]
    pub warmup: u64,
    /// Measured cycles per point, 100..=100000000.
    #[arg(long, default_value_t = 10_000)]
    pub measure: u64,
    /// Packets a processor may have waiting (more are refused and counted), 1..=1000000.
    #[arg(long, default_value_t = 16)]
    pub source_queue: usize,
    /// `--seed` (of the traffic, and of the failed links' choice), `--out` and `--shard` (of the points).
    #[command(flatten)]
    #[serde(flatten)]
    pub sweep: SweepOpts,
    /// The switch model of every switch: v1 (the first design), v2 (docs/sp2-switch.md, version 2: pipelined
    /// allocator, per-packet chunk chains) or v3 (version 3: registered block boundaries, held grants,
    /// byte-sliced central queue; its HDL is `sp2_switch_v3`).
    #[arg(long, default_value = "v1", value_parser = ["v1", "v2", "v3"])]
    #[serde(default = "default_switch")]
    pub switch: String,
    /// Print JSON (per system, every point's statistics or its deadlock) instead of the tables.
    #[arg(long)]
    #[serde(skip)]
    pub json: bool,
    /// Fault scenario: links fail at the start of this cycle (inside the measured window). One network only.
    #[arg(long, requires = "fail_links")]
    #[serde(default)]
    pub fail_at: Option<u64>,
    /// With --fail-at: how many switch-to-switch links fail (chosen with --seed among those whose loss keeps
    /// every processor reachable), or which, as SWITCH.PORT,SWITCH.PORT,…
    #[arg(long, requires = "fail_at")]
    #[serde(default)]
    pub fail_links: Option<String>,
    /// With --fail-at: cycles from the failure until the sources use the regenerated tables.
    #[arg(long, default_value_t = 1_000)]
    #[serde(default)]
    pub reroute_delay: u64,
}

fn default_switch() -> String {
    "v1".into()
}

/// The fault scenario of `--fail-at AT --fail-links ...` on network `spec` (topology `t`): the failed links, and
/// per `--routing` name the tables regenerated on the degraded network (the model's routing-table registry,
/// [`registry::build`]: each base made once), with the report of what was done.
fn prepare_faults(a: &Args, spec: &str, t: &Topology, at: u64) -> Result<(FaultScenario, String)> {
    use asr_model::topology::faults::{degrade, Degraded, Pick};
    let pick = Pick::parse(a.fail_links.as_deref().unwrap_or(""));
    let d = degrade(t, &pick, &Pick::Random(0), a.sweep.seed)
        .with_context(|| format!("--fail-links on `{spec}`"))?;
    let mut report = format!(
        "{spec}: {} links fail at cycle {at}: {}\n",
        d.failed_links.len(),
        d.failed_links
            .iter()
            .map(|l| Degraded::link_name(t, l))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let links = failed_ports(t, &d)?;
    let objective = super::networks::objective(a.balance);
    let reroutes = registry::build(&a.routing, a.deadlock_free, |base| {
        let tables = match base {
            Base::Free => {
                let tables = free_tables_after_faults(&d.topology)?;
                report += "  maximum-adaptivity tables regenerated on the degraded network (no deadlock check)\n";
                tables
            }
            Base::DeadlockFree => {
                let new = deadlock_free_tables_after_faults(spec, t, &d.topology, objective)?;
                let sm = new.tables.tables.summary();
                report += &format!(
                    "  deadlock-free tables regenerated on the degraded network: restriction {}; adaptivity {:.4}, {} pairs non-minimal; old and new routes together: channel-dependency graph {} ({} dependencies)\n",
                    new.tables.restriction.describe(),
                    sm.adaptivity_minimal,
                    sm.nonminimal,
                    if new.union.cycle.is_none() { "acyclic" } else { "CYCLIC" },
                    new.union.edges
                );
                new.routing
            }
        };
        Ok::<_, anyhow::Error>(tables)
    })?;
    report += &format!(
        "  sources switch to the regenerated tables at cycle {} ({} cycles after the failure)\n",
        at + a.reroute_delay,
        a.reroute_delay
    );
    let scenario = FaultScenario {
        at,
        links,
        delay: a.reroute_delay,
        reroutes,
    };
    Ok((scenario, report))
}

/// The payload option in words: `32-byte`, `6..60-byte`, or `full-range`.
fn payload_words(p: &str) -> String {
    if p.trim() == "full" {
        "full-range".into()
    } else {
        format!("{p}-byte")
    }
}

fn parse_payload(s: &str) -> Result<(usize, usize)> {
    if s.trim() == "full" {
        return Ok((0, 252));
    }
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (a.trim().parse(), b.trim().parse()),
        None => (s.trim().parse(), s.trim().parse()),
    };
    match (a, b) {
        (Ok(a), Ok(b)) if a <= b && b <= 240 => Ok((a, b)),
        _ => bail!("--payload `{s}`: N, MIN..MAX with 0 ≤ MIN ≤ MAX ≤ 240, or full"),
    }
}

/// Checks the arguments that need no topology; returns the payload range.
pub fn validate(a: &Args) -> Result<(usize, usize)> {
    super::check::loads("--load", &a.load, "link bytes / processor / cycle")?;
    super::check::count("--warmup", a.warmup, 0, super::check::MAX_CYCLES)?;
    super::check::count("--measure", a.measure, 100, super::check::MAX_CYCLES)?;
    super::check::count("--source-queue", a.source_queue as u64, 1, 1_000_000)?;
    if let Some(r) = a
        .routing
        .iter()
        .find(|r| TableKind::lookup(r, false).is_err())
    {
        bail!("--routing `{r}`: use asr, single, asr-df or single-df");
    }
    if a.fail_at.is_some() && a.network.len() != 1 {
        bail!("--fail-at: give exactly one --network");
    }
    if let Some(at) = a.fail_at {
        if at < a.warmup || at + a.reroute_delay >= a.warmup + a.measure {
            bail!(
                "--fail-at {at} with --reroute-delay {}: the failure and the switch to new tables must fall inside the measured window [{}, {})",
                a.reroute_delay,
                a.warmup,
                a.warmup + a.measure
            );
        }
    }
    parse_payload(&a.payload)
}

/// The systems of `--network` with their route tables (and the fault scenario of `--fail-at`, reported on
/// stderr), numbered into jobs by the model's study.
fn plan(a: &Args) -> Result<study::Plan> {
    validate(a)?;
    let mut systems = Vec::new();
    let mut scenario = None;
    for spec in &a.network {
        let t = asr_model::topology::load(spec)?;
        // Fail early on a topology that is not made of SP2 switches, or too large a run.
        let switches = Sp2Network::<Sp2Switch>::new(&t)
            .with_context(|| format!("network `{spec}`"))?
            .switches
            .len();
        let work = switches as f64
            * (a.warmup + a.measure) as f64
            * (a.load.len() * a.routing.len()) as f64;
        let max = super::check::MAX_SWITCH_CYCLES;
        if work > max {
            bail!(
                "asr sp2-system on `{spec}`: about {work:.1e} switch-cycles ({switches} switches, {} + {} cycles, {} loads, {} routings), \
                 above the limit of {max:.0e} (about 2 hours): use fewer cycles or loads",
                a.warmup,
                a.measure,
                a.load.len(),
                a.routing.len()
            );
        }
        let routings: Vec<TableRouting> = super::networks::named_tables(
            &t,
            spec,
            &a.routing,
            a.deadlock_free,
            super::networks::objective(a.balance),
        )
        .with_context(|| format!("route tables of `{spec}`"))?;
        if let Some(at) = a.fail_at {
            let (sc, report) = prepare_faults(a, spec, &t, at)?;
            eprint!("{report}");
            scenario = Some(sc);
        }
        systems.push(System {
            name: spec.clone(),
            topology: t,
            routings,
        });
    }
    Ok(study::Plan::new(systems, &a.load, scenario))
}

/// What every point shares, from the arguments.
fn config(a: &Args) -> Result<study::Config> {
    Ok(study::Config {
        payload: validate(a)?,
        payload_full: a.payload.trim() == "full",
        warmup: a.warmup,
        measure: a.measure,
        source_queue: a.source_queue,
        seed: a.sweep.seed,
        switch: match a.switch.as_str() {
            "v2" => SwitchKind::V2,
            "v3" => SwitchKind::V3,
            _ => SwitchKind::V1,
        },
    })
}

/// Runs the jobs numbered `which` with a progress bar (none with `--json`).
fn run_jobs(a: &Args, plan: &study::Plan, which: &[usize]) -> Result<Vec<Point>> {
    let cfg = config(a)?;
    let pb = if a.json {
        super::progress::hidden()
    } else {
        super::progress::bar("sp2-system", which.len() as u64, "points")
    };
    let points = study::run_jobs(plan, &cfg, which, &|| pb.inc(1))?;
    pb.finish_and_clear();
    Ok(points)
}

/// Every system's curves: the plan, then every job.
pub fn compute(a: &Args) -> Result<Vec<SystemCurves>> {
    let plan = plan(a)?;
    let all: Vec<usize> = (0..plan.jobs.len()).collect();
    let res = run_jobs(a, &plan, &all)?;
    Ok(study::curves(&plan, res))
}

/// The tables of every system's points, then the units.
pub fn render(curves: &[SystemCurves], a: &Args) -> String {
    let mut s = String::new();
    for c in curves {
        let p0 = &c.points[0];
        let _ = writeln!(
            s,
            "{}: {} processors, {} SP2-style switches ({}); uniform traffic, {} payloads, {} + {} cycles per point",
            c.network, p0.processors, p0.switches, a.switch, payload_words(&a.payload), a.warmup, a.measure
        );
        let _ = writeln!(
            s,
            "{:>8} {:>7} {:>9} {:>9} {:>7} {:>9} {:>9} {:>9}",
            "routing", "offered", "accepted", "latency", "p99", "queue", "queue max", "via queue"
        );
        for pt in &c.points {
            let Some(p) = &pt.stats else {
                let _ = writeln!(
                    s,
                    "{:>8} {:>7.2}  {}",
                    pt.routing,
                    pt.load,
                    pt.deadlock.as_deref().unwrap_or("")
                );
                continue;
            };
            let _ = writeln!(
                s,
                "{:>8} {:>7.2} {:>9.3} {:>9.1} {:>7} {:>9.2} {:>9} {:>8.1}%",
                p.routing,
                p.load,
                p.accepted,
                p.mean_latency,
                p.p99_latency,
                p.mean_queue_chunks,
                p.max_queue_chunks,
                100.0 * p.queue_share
            );
            if let Some(f) = &p.faults {
                let _ = writeln!(
                    s,
                    "{:>8} {:>7}  failure at cycle {}, new tables from cycle {}: delivered {}, lost {} ({} created before the failure; {}), {} damaged arrivals; accepted {:.3} before, {:.3} after; {} of {} packets created after the switch delivered",
                    "",
                    "",
                    f.at,
                    f.switch_at,
                    p.delivered,
                    f.lost.len(),
                    f.lost_before_failure,
                    if f.lost.is_empty() { "none".to_string() } else { fmt_ids(&f.lost) },
                    f.fragments,
                    f.accepted_before,
                    f.accepted_after,
                    f.delivered_after_switch,
                    f.created_after_switch
                );
            }
        }
        s.push('\n');
    }
    let _ = writeln!(s, "(offered and accepted load in link bytes per processor per cycle; latency in cycles from a packet's creation to its last byte at the destination, including waiting at the source; queue = mean chunks in use per central queue, of 128)");
    s
}

/// The README's summary: per system, accepted load at the highest offered load and mean latency at a
/// reference load, for each routing.
pub fn summary(curves: &[SystemCurves], ref_load: f64) -> String {
    let mut s = String::new();
    let names: Vec<&str> = curves.iter().map(|c| c.network.as_str()).collect();
    let _ = writeln!(s, "| | {} |", names.join(" | "));
    let _ = writeln!(s, "|---|{}", "---|".repeat(names.len()));
    let routings = curves[0].routings();
    for r in &routings {
        let sat: Vec<String> = curves
            .iter()
            .map(|c| {
                let sat = c.saturation(r);
                match sat.deadlock_at {
                    Some(load) => format!("{:.3} (deadlock at load {load})", sat.accepted),
                    None => format!("{:.3}", sat.accepted),
                }
            })
            .collect();
        let _ = writeln!(s, "| {r}: saturation throughput | {} |", sat.join(" | "));
    }
    for r in &routings {
        let lat: Vec<String> = curves
            .iter()
            .map(|c| {
                c.point_at(r, ref_load)
                    .map_or("–".to_string(), |p| match &p.stats {
                        Some(st) => format!("{:.1}", st.mean_latency),
                        None => "deadlock".to_string(),
                    })
            })
            .collect();
        let _ = writeln!(
            s,
            "| {r}: mean latency at load {ref_load} | {} |",
            lat.join(" | ")
        );
    }
    s
}

/// The JSON of the systems: how they were run, then one entry per system.
#[derive(serde::Serialize)]
struct Results<'a> {
    parameters: Parameters<&'a Args>,
    systems: Vec<serde_json::Value>,
}

fn systems_json(curves: &[SystemCurves]) -> Vec<serde_json::Value> {
    curves
        .iter()
        .map(|c| serde_json::json!({ "network": c.network, "points": c.points }))
        .collect()
}

/// CSV and JSON of every point and one SVG latency–load plot per system.
pub fn write_files(curves: &[SystemCurves], a: &Args, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    write_json(curves, a, dir)?;
    write_csv(curves, a, dir)?;
    for c in curves {
        write_plot(c, a, dir)?;
    }
    Ok(())
}

/// `sp2_systems.json`: the parameters, then every system's points.
fn write_json(curves: &[SystemCurves], a: &Args, dir: &Path) -> Result<()> {
    std::fs::write(
        dir.join("sp2_systems.json"),
        serde_json::to_string_pretty(&Results {
            parameters: Parameters::new("sp2-system", a),
            systems: systems_json(curves),
        })?,
    )?;
    Ok(())
}

/// `sp2_systems.csv`: one row per point, the run's parameters in front (a deadlocked point: empty statistics
/// and its deadlock).
fn write_csv(curves: &[SystemCurves], a: &Args, dir: &Path) -> Result<()> {
    let params = [
        a.payload.clone(),
        a.warmup.to_string(),
        a.measure.to_string(),
        a.source_queue.to_string(),
        a.sweep.seed.to_string(),
        VERSION.to_string(),
    ];
    let mut w = csv::Writer::from_path(dir.join("sp2_systems.csv"))?;
    w.write_record([
        "payload",
        "warmup",
        "measure",
        "source_queue",
        "seed",
        "version",
        "network",
        "processors",
        "switches",
        "routing",
        "offered",
        "accepted",
        "mean_latency",
        "p99_latency",
        "tagged",
        "refused",
        "mean_queue_chunks",
        "max_queue_chunks",
        "queue_share",
        "cycles",
        "deadlock",
    ])?;
    for c in curves {
        for pt in &c.points {
            let Some(p) = &pt.stats else {
                let mut row = params.to_vec();
                row.extend([
                    c.network.clone(),
                    pt.processors.to_string(),
                    pt.switches.to_string(),
                    pt.routing.clone(),
                    format!("{:.3}", pt.load),
                ]);
                row.extend(std::iter::repeat_n(String::new(), 9));
                row.push(pt.deadlock.clone().unwrap_or_default());
                w.write_record(&row)?;
                continue;
            };
            let mut row = params.to_vec();
            row.extend([
                c.network.clone(),
                p.processors.to_string(),
                p.switches.to_string(),
                p.routing.clone(),
                format!("{:.3}", p.load),
                format!("{:.4}", p.accepted),
                format!("{:.2}", p.mean_latency),
                p.p99_latency.to_string(),
                p.tagged.to_string(),
                p.refused.to_string(),
                format!("{:.3}", p.mean_queue_chunks),
                p.max_queue_chunks.to_string(),
                format!("{:.4}", p.queue_share),
                p.cycles.to_string(),
                String::new(),
            ]);
            w.write_record(&row)?;
        }
    }
    w.flush()?;
    Ok(())
}

/// The latency–load lines of one system, one per routing (ASR, single-path, …), with their saturation.
fn plot_lines(c: &SystemCurves) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    for pt in &c.points {
        let p = Pt {
            x: pt.load,
            y: pt.stats.as_ref().map(|s| s.mean_latency),
            saturated: pt
                .stats
                .as_ref()
                .is_some_and(|s| s.accepted < SATURATED_BELOW * s.load),
        };
        let acc = pt.stats.as_ref().map(|s| s.accepted);
        let label = match pt.routing.as_str() {
            "asr" => "ASR",
            "single" => "single-path",
            other => other,
        };
        match lines.iter_mut().find(|l| l.label == label) {
            Some(l) => {
                l.points.push(p);
                l.saturation = match (l.saturation, acc) {
                    (Some(x), Some(y)) => Some(x.max(y)),
                    (x, y) => x.or(y),
                };
            }
            None => lines.push(Line {
                label: label.to_string(),
                points: vec![p],
                saturation: acc,
            }),
        }
    }
    lines
}

/// `<system>.svg`: the latency–load plot of one system.
fn write_plot(c: &SystemCurves, a: &Args, dir: &Path) -> Result<()> {
    let lines = plot_lines(c);
    let p0 = &c.points[0];
    latency_svg(
        &dir.join(format!("{}.svg", file_part(&c.network))),
        &LatencyPlot {
            title: &format!(
                "{} ({} processors, {} SP2-style switches {}), uniform traffic: {}",
                c.network,
                p0.processors,
                p0.switches,
                a.switch,
                lines
                    .iter()
                    .map(|l| format!("{} tables", l.label))
                    .collect::<Vec<_>>()
                    .join(" against ")
            ),
            subtitle: &format!(
                "{} payloads, {} warm-up + {} measured cycles per load, source queue {}, seed {}",
                payload_words(&a.payload),
                a.warmup,
                a.measure,
                a.source_queue,
                a.sweep.seed
            ),
            x_desc: "offered load (link bytes / processor / cycle)",
            y_max: ceiling(&lines),
        },
        &lines,
    )?;
    Ok(())
}

/// `asr sp2-system`: checks the arguments, runs the sweep (or a shard of it), prints and writes the results.
pub fn run(a: Args) -> Result<()> {
    validate(&a)?;
    if let Some(dir) = &a.sweep.out {
        super::check::out_dir("--out", dir)?;
    }
    if let Some(sh) = a.sweep.shard {
        let dir = a.sweep.shard_dir()?;
        let plan = plan(&a)?;
        let which = selected(Some(sh), plan.jobs.len());
        let res = run_jobs(&a, &plan, &which)?;
        let pairs = which.into_iter().zip(res).collect();
        write_shard(dir, "sp2-system", &a, sh, plan.jobs.len(), pairs)?;
        return Ok(());
    }
    let curves = compute(&a)?;
    if a.json {
        let mut all = systems_json(&curves);
        let p = serde_json::to_value(Parameters::new("sp2-system", &a))?;
        for v in all.iter_mut() {
            v["parameters"] = p.clone();
        }
        println!("{}", serde_json::to_string_pretty(&all)?);
    } else {
        print!("{}", render(&curves, &a));
        if curves.len() > 1 {
            print!("\n{}", summary(&curves, 0.3));
        }
    }
    if let Some(dir) = &a.sweep.out {
        write_files(&curves, &a, dir)?;
        eprintln!(
            "sp2-system: wrote sp2_systems.csv, sp2_systems.json and {} plot(s) into {}",
            curves.len(),
            dir.display()
        );
    }
    Ok(())
}

/// `asr merge` of `asr sp2-system` shards.
pub fn merge(params: serde_json::Value, results: Vec<serde_json::Value>, out: &Path) -> Result<()> {
    let (a, res): (Args, Vec<Point>) = decode(params, results)?;
    let plan = plan(&a)?;
    let curves = study::curves(&plan, res);
    print!("{}", render(&curves, &a));
    write_files(&curves, &a, out)
}

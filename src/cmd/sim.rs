//! `asr sim`: one simulation, or a load sweep, on a Beneš (`--network benes:64`), a k-ary n-fly
//! (`--network fly:4:3`), any built-in topology or a topology file. Prints one line per load (offered,
//! accepted, mean/max latency); `--json` prints the full statistics; `--out` writes the sweep as CSV and an
//! SVG latency–load plot.

use super::plot::{ceiling, file_part, latency_svg, write_csv, Curve, LatencyPlot, Line};
use anyhow::{bail, Context, Result};
use asr_model::network::engine::{Engine, FlowControl};
use asr_model::network::sim::{SimConfig, SimStats};
use asr_model::network::sweep::{knee, saturation, sweep};
use asr_model::routing::Routing;
use asr_model::traffic::{Injection, Pattern};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use super::check::check_work;
use super::networks::{network, objective, table_network};
use super::shard::{decode, selected, write_shard, Parameters, VERSION};
use super::sweep::SweepOpts;

#[derive(clap::Args, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[command(mut_arg("out", |a| a.help(
    "Write `<network>_<routing>_<pattern>.csv`, `.json` and `.svg` of the sweep into this folder (created if missing)"
)))]
pub struct Args {
    /// `benes:N` (N = 2^n, 2..=65536), `fly:K:N` (K-ary N-fly; `fly:K,N` also works), any built-in topology
    /// of `asr topology` (`sp2:64`, `mesh:8x8`, `torus:8x8`, `hypercube:6`, …) or a topology file.
    #[arg(long, default_value = "benes:64")]
    pub network: String,
    /// Beneš: asr, random, random-pair or fixed (the butterfly uses destination tags). Other topologies:
    /// asr (generated route tables of maximum adaptivity), single (the same paths, one port per hop),
    /// asr-df and single-df (the same from the deadlock-free tables),
    /// dor (XY / E-cube tables on meshes, tori, hypercubes), or the per-hop policies mp and z2 (Wu's paper).
    #[arg(long, default_value = "asr", conflicts_with = "routes")]
    pub routing: String,
    /// A route-table file to route by (instead of --routing; the two cannot be given together).
    #[arg(long)]
    pub routes: Option<PathBuf>,
    /// With --routing asr or single on a table-routed topology: use the deadlock-free tables (acyclic channel
    /// dependencies; `asr routes --deadlock-free`) instead of the unrestricted ones.
    #[arg(long)]
    #[serde(default)]
    pub deadlock_free: bool,
    /// Deadlock-free tables: choose the restriction by balance (busiest channel) instead of adaptivity.
    #[arg(long)]
    #[serde(default)]
    pub balance: bool,
    /// uniform, random (uniform over the others), shift-left, shift-right, reverse, complement,
    /// bit-reversal, transpose.
    #[arg(long, default_value = "uniform")]
    pub pattern: String,
    /// Offered loads (packets per input per cycle, each in (0, 1]), comma-separated; several = a sweep.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.4",
        allow_negative_numbers = true
    )]
    pub load: Vec<f64>,
    /// Measured packets generated per input, 1..=1000000 (thesis: 1500).
    #[arg(long, default_value_t = 1500)]
    pub packets: u64,
    /// Probability that a processor accepts a delivery in a cycle (1 = no back-pressure).
    #[arg(long, default_value_t = 1.0)]
    pub sink_ready: f64,
    /// `--seed` (of the traffic and of random routing), `--out` and `--shard` (of the loads).
    #[command(flatten)]
    #[serde(flatten)]
    pub sweep: SweepOpts,
    /// Print the statistics as JSON.
    #[arg(long)]
    #[serde(skip)]
    pub json: bool,
    #[command(flatten)]
    #[serde(flatten)]
    pub flow: FlowArgs,
}
/// Flow control and allocator of the packet network (docs/simulator.md).
#[derive(clap::Args, Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct FlowArgs {
    /// Input-buffer depth in packets (1 = the thesis' switch).
    #[arg(long, default_value_t = 1)]
    pub buffer: u32,
    /// Link latency in cycles of every switch-to-switch channel (0 = the thesis').
    #[arg(long, default_value_t = 0)]
    pub link_delay: u32,
    /// Switch allocator: asr-p1, asr-p2 (the thesis' ASR switch), exact, islip-1, islip-2, islip-4, pim-1,
    /// pim-2, wavefront, age (oldest head packet first).
    #[arg(long, default_value = asr_model::allocator::DEFAULT)]
    pub allocator: String,
}

impl Default for FlowArgs {
    fn default() -> Self {
        FlowArgs {
            buffer: 1,
            link_delay: 0,
            allocator: asr_model::allocator::DEFAULT.to_string(),
        }
    }
}

impl FlowArgs {
    /// The engine with this flow control and allocator; errors name the option.
    pub fn apply(&self, e: Engine) -> Result<Engine> {
        let flow = FlowControl::new(self.buffer, self.link_delay).map_err(|err| {
            anyhow::anyhow!(
                "--buffer {} / --link-delay {}: {err}",
                self.buffer,
                self.link_delay
            )
        })?;
        let a = asr_model::allocator::by_name(&self.allocator)
            .map_err(|err| anyhow::anyhow!("--allocator: {err}"))?;
        let mut e = e.with_flow(flow)?;
        e.set_allocator(a);
        Ok(e)
    }
}

/// The engine (with flow control and allocator) and routing of `a`.
fn build(a: &Args) -> Result<(Engine, Box<dyn Routing>)> {
    let kind = a.network.split(':').next().unwrap_or("");
    let (engine, routing) = if (kind == "benes" || kind == "fly") && a.routes.is_none() {
        if a.deadlock_free {
            bail!("--deadlock-free: `{}` is routed by its own scheme, not by route tables (and a Beneš or butterfly has no dependency cycle)", a.network);
        }
        network(&a.network, &a.routing)?
    } else {
        if a.deadlock_free && a.routes.is_some() {
            bail!("--deadlock-free and --routes: the route-table file decides the routes; give one of them");
        }
        table_network(
            &a.network,
            &a.routing,
            a.routes.as_deref(),
            a.deadlock_free,
            objective(a.balance),
        )?
    };
    Ok((a.flow.apply(engine)?, routing))
}

pub fn run(a: Args) -> Result<()> {
    super::check::loads("--load", &a.load, "packets / input / cycle")?;
    super::check::count(
        "--packets",
        a.packets,
        1,
        super::check::MAX_PACKETS_PER_INPUT,
    )?;
    if !(a.sink_ready > 0.0 && a.sink_ready <= 1.0) {
        bail!("--sink-ready {}: must be in (0, 1]", a.sink_ready);
    }
    let pattern: Pattern = a.pattern.parse()?;
    if let Some(dir) = &a.sweep.out {
        super::check::out_dir("--out", dir)?;
    }
    let (engine, routing) = build(&a)?;
    let jobs = selected(a.sweep.shard, a.load.len());
    let loads: Vec<f64> = jobs.iter().map(|&j| a.load[j]).collect();
    check_work(
        &format!("asr sim on `{}`", a.network),
        engine.switches(),
        &loads,
        a.packets,
    )?;
    let mut cfg = SimConfig::new(Injection::geometric(a.load[0])?, pattern, a.sweep.seed);
    cfg.packets_per_input = a.packets;
    cfg.sink_ready = a.sink_ready;
    let bar = if a.json {
        super::progress::hidden()
    } else {
        super::progress::bar("sim", loads.len() as u64, "loads")
    };
    let t = Instant::now();
    let pts: Vec<SimStats> = sweep(&engine, routing.as_ref(), &cfg, &loads, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let secs = t.elapsed().as_secs_f64();
    if let Some(sh) = a.sweep.shard {
        let dir = a.sweep.shard_dir()?;
        write_shard(
            dir,
            "sim",
            &a,
            sh,
            a.load.len(),
            jobs.into_iter().zip(pts).collect(),
        )?;
        return Ok(());
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&Results {
                parameters: Parameters::new("sim", &a),
                routing: routing.name(),
                points: &pts,
            })?
        );
    } else {
        print!("{}", render(&a, &engine, routing.as_ref(), &pts));
        let rc: u64 = pts.iter().map(|p| p.router_cycles).sum();
        println!(
            "{:.2} s wall, {:.1} M router-cycles/s",
            secs,
            rc as f64 / secs / 1e6
        );
    }
    if let Some(dir) = &a.sweep.out {
        write_files(&a, &routing.name(), &pts, dir)?;
    }
    Ok(())
}

/// The JSON of a sweep: how it was made, then its points.
#[derive(serde::Serialize)]
struct Results<'a> {
    parameters: Parameters<&'a Args>,
    routing: String,
    points: &'a [SimStats],
}

/// The table of a sweep.
fn render(a: &Args, engine: &Engine, routing: &dyn Routing, pts: &[SimStats]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} {} routing, {} traffic, {} measured packets/input, seed {}; buffers {} packets, link delay {}, credit delay {}, allocator {}",
        a.network,
        routing.name(),
        a.pattern,
        a.packets,
        a.sweep.seed,
        engine.flow().depth,
        engine.flow().link_delay,
        engine.credit_delay(),
        engine.allocator_name()
    );
    let _ = writeln!(
        s,
        "{:>8} {:>9} {:>10} {:>8} {:>10} {:>9}",
        "offered", "accepted", "mean lat", "max lat", "net lat", "cycles"
    );
    for p in pts {
        let _ = writeln!(
            s,
            "{:>8.3} {:>9.4} {:>10.2} {:>8} {:>10.2} {:>9}",
            p.offered, p.accepted, p.mean_latency, p.max_latency, p.mean_network_latency, p.cycles
        );
    }
    let _ = writeln!(
        s,
        "saturation (max accepted) {:.3}, knee {:.2}",
        saturation(pts),
        knee(pts)
    );
    s
}

/// `<stem>.csv`, `<stem>.json` and `<stem>.svg` of a sweep in `dir`.
fn write_files(a: &Args, routing: &str, pts: &[SimStats], dir: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let stem = format!(
        "{}_{}_{}",
        file_part(&a.network),
        file_part(routing),
        a.pattern
    );
    let curves = [Curve {
        label: routing,
        points: pts,
    }];
    let csv = dir.join(format!("{stem}.csv"));
    write_csv(&csv, &csv_params(a), &curves)
        .with_context(|| format!("writing {}", csv.display()))?;
    std::fs::write(
        dir.join(format!("{stem}.json")),
        serde_json::to_string_pretty(&Results {
            parameters: Parameters::new("sim", a),
            routing: routing.to_string(),
            points: pts,
        })?,
    )?;
    let lines = [Line::from_sim(routing, pts)];
    let svg = dir.join(format!("{stem}.svg"));
    latency_svg(
        &svg,
        &LatencyPlot {
            title: &format!("{}, {} traffic, {} routing", a.network, a.pattern, routing),
            subtitle: &format!(
                "{} measured packets per input per load, sink ready {}, seed {}; buffers {}, link delay {}, allocator {}",
                a.packets, a.sink_ready, a.sweep.seed, a.flow.buffer, a.flow.link_delay, a.flow.allocator
            ),
            x_desc: "offered load (packets / input / cycle)",
            y_max: ceiling(&lines),
        },
        &lines,
    )?;
    let json = dir.join(format!("{stem}.json"));
    eprintln!(
        "sim: wrote {}, {} and {}",
        csv.display(),
        json.display(),
        svg.display()
    );
    Ok(())
}

/// The parameters every CSV row of a sweep carries.
fn csv_params(a: &Args) -> Vec<(&'static str, String)> {
    vec![
        ("network", a.network.clone()),
        ("pattern", a.pattern.clone()),
        ("buffer", a.flow.buffer.to_string()),
        ("link_delay", a.flow.link_delay.to_string()),
        ("allocator", a.flow.allocator.clone()),
        ("seed", a.sweep.seed.to_string()),
        ("packets", a.packets.to_string()),
        ("sink_ready", a.sink_ready.to_string()),
        ("version", VERSION.to_string()),
    ]
}

/// `asr merge` of `asr sim` shards.
pub fn merge(
    params: serde_json::Value,
    results: Vec<serde_json::Value>,
    out: &std::path::Path,
) -> Result<()> {
    let (a, pts): (Args, Vec<SimStats>) = decode(params, results)?;
    let (engine, routing) = build(&a)?;
    print!("{}", render(&a, &engine, routing.as_ref(), &pts));
    write_files(&a, &routing.name(), &pts, out)
}

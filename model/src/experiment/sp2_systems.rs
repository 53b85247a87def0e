//! Whole SP2 systems of SP2-style switches (`crate::sp2::system`), one or more route-table routings compared
//! on each: a sweep over systems × routings × offered loads, run in parallel. Every point checks the scoreboard
//! and drains; a deadlock is a result of the point (a property of the routes on that topology), every other
//! broken invariant an error.
//!
//! The steps: build the systems ([`System`]: topology and routings) and, optionally, a fault scenario
//! ([`FaultScenario`], prepared with [`failed_ports`], [`free_tables_after_faults`] and
//! [`deadlock_free_tables_after_faults`]); number the jobs ([`Plan::new`]); run all of them ([`run`]) or a
//! share ([`run_jobs`], for shards); group the points by system ([`curves`]); read the saturation throughput
//! and the latencies off the curves ([`SystemCurves::saturation`], [`SystemCurves::point_at`]).

use crate::routes::cdg::CdgReport;
use crate::routes::deadlock_free::{
    generate_deadlock_free, regenerate_after_faults, DeadlockFree, Objective, Options,
};
use crate::routes::{generate, Method, RouteError};
use crate::routing::{Routing, TableRouting};
use crate::sp2::network::{Sp2NetError, Sp2Network};
use crate::sp2::system::{run_with_faults, FaultPlan, Sp2SysConfig, Sp2SysError, Sp2SysStats};
use crate::sp2::v1::switch::Sp2Switch;
use crate::sp2::v2::switch::Sp2SwitchV2;
use crate::sp2::v3::switch::Sp2SwitchV3;
use crate::topology::faults::Degraded;
use crate::topology::Topology;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The switch model every switch of a system is built of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SwitchKind {
    /// The first design (`crate::sp2::v1`).
    #[default]
    V1,
    /// Version 2 (`crate::sp2::v2`): pipelined allocator, per-packet chunk chains.
    V2,
    /// Version 3 (`crate::sp2::v3`): registered block boundaries, held grants, byte-sliced central queue.
    V3,
}

/// What every point of a sweep shares: the traffic, the length of a run and the switch model.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Payload bytes per packet, an inclusive range.
    pub payload: (usize, usize),
    /// Draw payloads over the whole legal range instead, its corners often; `payload` is then ignored.
    pub payload_full: bool,
    /// Warm-up cycles per point before measuring.
    pub warmup: u64,
    /// Measured cycles per point.
    pub measure: u64,
    /// Packets a processor may have waiting (more are refused and counted).
    pub source_queue: usize,
    /// Seed of the traffic; the same seed gives the same points.
    pub seed: u64,
    /// The switch model of every switch.
    pub switch: SwitchKind,
}

impl Config {
    /// The simulator's settings of one point at offered load `load` (link bytes per processor per cycle).
    pub fn point(&self, load: f64) -> Sp2SysConfig {
        Sp2SysConfig {
            load,
            payload: self.payload,
            payload_full: self.payload_full,
            warmup: self.warmup,
            measure: self.measure,
            source_queue: self.source_queue,
            seed: self.seed,
            ..Default::default()
        }
    }
}

/// One system of a sweep: its name (as given: a built-in name or a topology file), its topology and the
/// routings compared on it.
pub struct System {
    /// The system's name in the results.
    pub name: String,
    /// Its topology (8-port switches and processors).
    pub topology: Topology,
    /// The routings compared on it, in the order of the results.
    pub routings: Vec<TableRouting>,
}

/// Links that fail during the measured window of every point of a sweep's (one) system.
pub struct FaultScenario {
    /// The cycle at whose start the links fail.
    pub at: u64,
    /// The failed links, each as one of its ends: (switch index in the SP2 network, port).
    pub links: Vec<(usize, u8)>,
    /// Cycles from the failure until the sources use the regenerated tables.
    pub delay: u64,
    /// Per routing of the system (in its order), the tables regenerated on the degraded network.
    pub reroutes: Vec<TableRouting>,
}

/// One simulation point of a sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Job {
    /// Index of the system in [`Plan::systems`].
    pub system: usize,
    /// Index of the routing in the system's [`System::routings`].
    pub routing: usize,
    /// Offered load, link bytes per processor per cycle.
    pub load: f64,
}

/// The systems of a sweep and its jobs, in the order every run (and every shard) numbers them: by system,
/// then routing, then load.
pub struct Plan {
    /// The systems, in the order given.
    pub systems: Vec<System>,
    /// Every job of the sweep.
    pub jobs: Vec<Job>,
    /// The fault scenario, for a sweep of one system.
    pub scenario: Option<FaultScenario>,
}

impl Plan {
    /// The plan of `systems` at every offered load of `loads` (each routing of each system at each load).
    pub fn new(systems: Vec<System>, loads: &[f64], scenario: Option<FaultScenario>) -> Plan {
        let jobs = systems
            .iter()
            .enumerate()
            .flat_map(|(s, sys)| {
                (0..sys.routings.len()).flat_map(move |routing| {
                    loads.iter().map(move |&load| Job {
                        system: s,
                        routing,
                        load,
                    })
                })
            })
            .collect();
        Plan {
            systems,
            jobs,
            scenario,
        }
    }

    /// The relative cost of job `j`, which grows with the system's size and the load (to run the heaviest
    /// first, so that every core stays busy to the end).
    pub fn weight(&self, j: usize) -> f64 {
        let job = self.jobs[j];
        self.systems[job.system].topology.len() as f64 * (0.2 + job.load)
    }
}

/// One (routing, load) point: its statistics, or the deadlock that stopped it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Point {
    /// The routing's name (`asr`, `single`, …).
    pub routing: String,
    /// Offered load, link bytes per processor per cycle.
    pub load: f64,
    /// Processors of the system.
    pub processors: usize,
    /// Switches of the system.
    pub switches: usize,
    /// What the run measured, if it did not deadlock.
    pub stats: Option<Sp2SysStats>,
    /// The deadlock that stopped the run, as text.
    pub deadlock: Option<String>,
}

/// The points of one system: its name and one point per (routing, load), in the plan's order.
pub struct SystemCurves {
    /// The system's name.
    pub network: String,
    /// Its points, by routing, then load.
    pub points: Vec<Point>,
}

/// The saturation of one routing on one system.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Saturation {
    /// The highest accepted load of its points (link bytes per processor per cycle; 0 if none ran).
    pub accepted: f64,
    /// The offered load of its first deadlocked point, if one deadlocked.
    pub deadlock_at: Option<f64>,
}

impl SystemCurves {
    /// The routings of the points, in their order, each once.
    pub fn routings(&self) -> Vec<String> {
        let mut r: Vec<String> = self.points.iter().map(|p| p.routing.clone()).collect();
        r.dedup();
        r
    }

    /// The saturation of routing `routing`: the highest accepted load over its points, and where it first
    /// deadlocked.
    pub fn saturation(&self, routing: &str) -> Saturation {
        let mine = || self.points.iter().filter(|p| p.routing == routing);
        Saturation {
            accepted: mine()
                .filter_map(|p| p.stats.as_ref())
                .map(|p| p.accepted)
                .fold(0.0f64, f64::max),
            deadlock_at: mine().find(|p| p.deadlock.is_some()).map(|p| p.load),
        }
    }

    /// The point of routing `routing` at offered load `load` (to within 10⁻⁹), if the sweep has one.
    pub fn point_at(&self, routing: &str, load: f64) -> Option<&Point> {
        self.points
            .iter()
            .find(|p| p.routing == routing && (p.load - load).abs() < 1e-9)
    }
}

/// Why a point could not be run (a deadlock is not an error: it is the point's result).
#[derive(Debug, thiserror::Error)]
pub enum PointError {
    /// The system cannot be built of SP2 switches.
    #[error(transparent)]
    Network(#[from] Sp2NetError),
    /// A broken invariant of the run other than a deadlock.
    #[error("{network}, {routing} routing, load {load} (seed {seed})")]
    Run {
        /// The system's name.
        network: String,
        /// The routing's name.
        routing: String,
        /// Offered load, link bytes per processor per cycle.
        load: f64,
        /// The traffic's seed.
        seed: u64,
        /// What went wrong.
        #[source]
        source: Box<Sp2SysError>,
    },
}

/// Runs job `j` of `plan`.
pub fn run_point(plan: &Plan, cfg: &Config, j: usize) -> Result<Point, PointError> {
    let Job {
        system,
        routing: k,
        load,
    } = plan.jobs[j];
    let sys = &plan.systems[system];
    let routing = &sys.routings[k];
    let net = Sp2Network::<Sp2Switch>::new(&sys.topology)?;
    let mut point = Point {
        routing: routing.name(),
        load,
        processors: net.processors(),
        switches: net.switches.len(),
        stats: None,
        deadlock: None,
    };
    let faults = plan.scenario.as_ref().map(|sc| FaultPlan {
        at: sc.at,
        links: sc.links.clone(),
        delay: sc.delay,
        reroute: &sc.reroutes[k],
    });
    let point_cfg = cfg.point(load);
    let result = match cfg.switch {
        SwitchKind::V2 => {
            let net = Sp2Network::<Sp2SwitchV2>::new(&sys.topology)?;
            run_with_faults(net, routing, &point_cfg, faults.as_ref())
        }
        SwitchKind::V3 => {
            let net = Sp2Network::<Sp2SwitchV3>::new(&sys.topology)?;
            run_with_faults(net, routing, &point_cfg, faults.as_ref())
        }
        SwitchKind::V1 => run_with_faults(net, routing, &point_cfg, faults.as_ref()),
    };
    match result {
        Ok(st) => point.stats = Some(st),
        Err(e @ Sp2SysError::Deadlock { .. }) => point.deadlock = Some(e.to_string()),
        Err(source) => {
            return Err(PointError::Run {
                network: sys.name.clone(),
                routing: routing.name(),
                load,
                seed: cfg.seed,
                source: Box::new(source),
            })
        }
    }
    Ok(point)
}

/// Runs the jobs numbered `which` in parallel, the heaviest first; calls `progress` after each point that
/// ran. The points come back in the order of `which`; the error is that of the first failed job in that order.
pub fn run_jobs(
    plan: &Plan,
    cfg: &Config,
    which: &[usize],
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Point>, PointError> {
    let mut order: Vec<usize> = (0..which.len()).collect();
    order.sort_by(|&x, &y| plan.weight(which[y]).total_cmp(&plan.weight(which[x])));
    let done: Vec<(usize, Result<Point, PointError>)> = order
        .par_iter()
        .map(|&w| {
            let r = run_point(plan, cfg, which[w]);
            if r.is_ok() {
                progress();
            }
            (w, r)
        })
        .collect();
    let mut results: Vec<Option<Result<Point, PointError>>> =
        (0..which.len()).map(|_| None).collect();
    for (w, r) in done {
        results[w] = Some(r);
    }
    results
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

/// The systems' curves from the points of every job of `plan` (in the jobs' order).
pub fn curves(plan: &Plan, results: Vec<Point>) -> Vec<SystemCurves> {
    let mut out: Vec<SystemCurves> = plan
        .systems
        .iter()
        .map(|sys| SystemCurves {
            network: sys.name.clone(),
            points: Vec::new(),
        })
        .collect();
    for (job, p) in plan.jobs.iter().zip(results) {
        out[job.system].points.push(p);
    }
    out
}

/// Runs every job of `plan` ([`run_jobs`]) and groups the points by system ([`curves`]).
pub fn run(
    plan: &Plan,
    cfg: &Config,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<SystemCurves>, PointError> {
    let all: Vec<usize> = (0..plan.jobs.len()).collect();
    let points = run_jobs(plan, cfg, &all, progress)?;
    Ok(curves(plan, points))
}

/// Why a fault scenario cannot be prepared.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The system cannot be built of SP2 switches.
    #[error(transparent)]
    Network(#[from] Sp2NetError),
    /// A failed link's end is not a switch of the SP2 network.
    #[error("`{0}` is not a switch of the network")]
    NotASwitch(String),
    /// The route generator failed.
    #[error(transparent)]
    Routes(#[from] RouteError),
    /// The deadlock-free tables could not be regenerated on the degraded network.
    #[error("regenerating the tables of `{network}`")]
    Regenerate {
        /// The system's name.
        network: String,
        /// Why.
        #[source]
        source: RouteError,
    },
    /// The regenerated tables do not make a routing of the degraded network.
    #[error("{0}")]
    Table(String),
}

/// The failed links of `d` (a degraded copy of `t`) as (switch index in the SP2 network of `t`, port) of one
/// end each.
pub fn failed_ports(t: &Topology, d: &Degraded) -> Result<Vec<(usize, u8)>, ScenarioError> {
    let net = Sp2Network::<Sp2Switch>::new(t)?;
    d.failed_links
        .iter()
        .map(|l| {
            let name = &t.element(l.a.elem).name;
            let sw = net
                .switch_index(name)
                .ok_or_else(|| ScenarioError::NotASwitch(name.clone()))?;
            Ok((sw, l.a.port as u8))
        })
        .collect()
}

/// The tables of maximum adaptivity regenerated on the degraded topology (no deadlock check), named `asr`.
pub fn free_tables_after_faults(degraded: &Topology) -> Result<TableRouting, ScenarioError> {
    let new = generate(degraded, Method::Pruned, &|| {})?;
    TableRouting::from_tables(degraded, &new, "asr").map_err(ScenarioError::Table)
}

/// Deadlock-free tables regenerated after failures: the routing (named `asr-df`), the tables with their
/// restriction, and the channel-dependency graph of the old and the new routes together (packets of both are
/// in the network while the sources switch over).
pub struct RegeneratedTables {
    /// The new tables as a routing of the degraded network.
    pub routing: TableRouting,
    /// The new tables and the restriction they keep.
    pub tables: DeadlockFree,
    /// The dependency graph of the old and the new routes together.
    pub union: CdgReport,
}

/// The deadlock-free tables of `t` (generated with `objective`) regenerated on its degraded copy `degraded`:
/// the old restriction is kept if it still works (`regenerate_after_faults`). `network` names the system in
/// the error.
pub fn deadlock_free_tables_after_faults(
    network: &str,
    t: &Topology,
    degraded: &Topology,
    objective: Objective,
) -> Result<RegeneratedTables, ScenarioError> {
    let old = generate_deadlock_free(
        t,
        Method::Pruned,
        &Options {
            objective,
            ..Options::default()
        },
    )?;
    let (new, union) =
        regenerate_after_faults(degraded, &old, Method::Pruned, objective).map_err(|source| {
            ScenarioError::Regenerate {
                network: network.to_string(),
                source,
            }
        })?;
    let routing =
        TableRouting::from_tables(degraded, &new.tables, "asr-df").map_err(ScenarioError::Table)?;
    Ok(RegeneratedTables {
        routing,
        tables: new,
        union,
    })
}

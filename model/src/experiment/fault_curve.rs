//! How an SP2 system degrades with failed links. For K = 0, step, 2·step, … up to a maximum, K links fail at
//! random (nested: the K + step failures include the K ones), the deadlock-free tables are regenerated on the
//! degraded network and the system of SP2-style switches (v1) is run at every load: per K the saturation
//! throughput (the highest accepted load) of each routing, and the tables' adaptivity, non-minimal pairs and
//! mean route length. Every run keeps the full scoreboard; a deadlock is reported as such.
//!
//! The steps: the failure counts ([`failure_counts`]); the degraded networks and their tables
//! ([`degrade_all`]); every (K, routing, load) point ([`jobs`], [`run_points`]); one row per K
//! ([`rows`]). [`run`] does them in order.

use crate::routes::deadlock_free::{generate_deadlock_free, DeadlockFree, Objective, Options};
use crate::routes::{Method, RouteError};
use crate::routing::registry::TableKind;
use crate::routing::TableRouting;
use crate::sp2::network::{Sp2NetError, Sp2Network};
use crate::sp2::system::{run as run_system, Sp2SysConfig, Sp2SysError};
use crate::sp2::v1::switch::Sp2Switch;
use crate::topology::faults::{degrade, FaultError, Pick};
use crate::topology::Topology;
use rayon::prelude::*;
use serde::Serialize;

/// One routing of the curve: its name as given (in the rows and the error messages) and its kind (one of
/// the deadlock-free tables' routings, `asr-df` or `single-df`).
#[derive(Debug, Clone, PartialEq)]
pub struct NamedRouting {
    /// The name, as given.
    pub name: String,
    /// The routing made of the deadlock-free tables.
    pub kind: TableKind,
}

/// What to sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The system's name (for the error messages).
    pub network: String,
    /// The largest number of failed links.
    pub max_links: usize,
    /// Failed links between points; at least 1.
    pub step: usize,
    /// The routings run on every degraded network.
    pub routings: Vec<NamedRouting>,
    /// Offered loads, link bytes per processor per cycle; the saturation is the highest accepted.
    pub loads: Vec<f64>,
    /// Warm-up cycles per point.
    pub warmup: u64,
    /// Measured cycles per point.
    pub measure: u64,
    /// What the deadlock-free tables' restriction is chosen for.
    pub objective: Objective,
    /// Seed of the failures and of the traffic.
    pub seed: u64,
}

/// One number of failed links: the tables' figures and each routing's saturation.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Links failed.
    pub failed_links: usize,
    /// Average adaptivity of the deadlock-free tables: the mean over the pairs routed minimally of the
    /// paths a header permits / the shortest paths that exist.
    pub adaptivity: f64,
    /// Processor pairs whose route is longer than their shortest path.
    pub nonminimal: usize,
    /// Mean route length in channels, processor to processor.
    pub mean_hops: f64,
    /// Mean number of paths a header permits.
    pub mean_npath: f64,
    /// The restriction the tables keep, in words.
    pub restriction: String,
    /// Per routing: (name, saturation throughput in link bytes per processor per cycle, the lowest load at
    /// which a point deadlocked if one did).
    pub saturation: Vec<(String, f64, Option<f64>)>,
}

/// One degraded network: its failures, topology, deadlock-free tables and the routings made of them.
pub struct Degradation {
    /// Links failed.
    pub failed_links: usize,
    /// The degraded topology.
    pub topology: Topology,
    /// Its deadlock-free tables.
    pub tables: DeadlockFree,
    /// The configured routings, in order, made of those tables.
    pub routings: Vec<TableRouting>,
}

/// One simulation point: (degradation index, routing index, offered load).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Job {
    /// Index into the degradations.
    pub degradation: usize,
    /// Index into [`Config::routings`].
    pub routing: usize,
    /// Offered load, link bytes per processor per cycle.
    pub load: f64,
}

/// Why the curve could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum FaultCurveError {
    /// The failures could not be applied.
    #[error("failing {links} links of `{network}`")]
    Degrade {
        /// Links asked to fail.
        links: usize,
        /// The system's name.
        network: String,
        /// Why.
        #[source]
        source: FaultError,
    },
    /// The route generator failed.
    #[error(transparent)]
    Routes(#[from] RouteError),
    /// The tables do not make a routing of the degraded network.
    #[error("{0}")]
    Table(String),
    /// The degraded system cannot be built of SP2 switches.
    #[error(transparent)]
    Network(#[from] Sp2NetError),
    /// A broken invariant of a run other than a deadlock.
    #[error("{network} with {links} failed links, {routing} routing, load {load} (seed {seed})")]
    Run {
        /// The system's name.
        network: String,
        /// Links failed.
        links: usize,
        /// The routing's name.
        routing: String,
        /// Offered load, link bytes per processor per cycle.
        load: f64,
        /// The seed.
        seed: u64,
        /// What went wrong.
        #[source]
        source: Box<Sp2SysError>,
    },
}

/// The numbers of failed links: 0, step, 2·step, … up to `max_links`. `cfg.step` must be at least 1.
pub fn failure_counts(cfg: &Config) -> Vec<usize> {
    (0..=cfg.max_links).step_by(cfg.step).collect()
}

/// Fails `k` random links of `t` (seed `cfg.seed`) and generates the deadlock-free tables and routings of
/// the degraded network.
pub fn degradation(cfg: &Config, t: &Topology, k: usize) -> Result<Degradation, FaultCurveError> {
    let d = degrade(t, &Pick::Random(k), &Pick::Random(0), cfg.seed).map_err(|source| {
        FaultCurveError::Degrade {
            links: k,
            network: cfg.network.clone(),
            source,
        }
    })?;
    let df = generate_deadlock_free(
        &d.topology,
        Method::Pruned,
        &Options {
            objective: cfg.objective,
            ..Options::default()
        },
    )?;
    let asr = TableRouting::from_tables(&d.topology, &df.tables, "asr-df")
        .map_err(FaultCurveError::Table)?;
    let routings = cfg.routings.iter().map(|r| r.kind.make(&asr)).collect();
    Ok(Degradation {
        failed_links: k,
        topology: d.topology,
        tables: df,
        routings,
    })
}

/// Every degraded network of the curve ([`degradation`] of each of [`failure_counts`], in parallel); the
/// error is that of the smallest failing count.
pub fn degrade_all(cfg: &Config, t: &Topology) -> Result<Vec<Degradation>, FaultCurveError> {
    let prepared: Vec<Result<Degradation, FaultCurveError>> = failure_counts(cfg)
        .par_iter()
        .map(|&k| degradation(cfg, t, k))
        .collect();
    prepared.into_iter().collect()
}

/// Every point: each degraded network × each routing × each load, in that order.
pub fn jobs(cfg: &Config, degradations: usize) -> Vec<Job> {
    (0..degradations)
        .flat_map(|degradation| {
            (0..cfg.routings.len()).flat_map(move |routing| {
                cfg.loads.iter().map(move |&load| Job {
                    degradation,
                    routing,
                    load,
                })
            })
        })
        .collect()
}

/// Runs one point: its accepted load (link bytes per processor per cycle), or `None` if it deadlocked.
pub fn run_point(
    cfg: &Config,
    degradations: &[Degradation],
    job: Job,
) -> Result<Option<f64>, FaultCurveError> {
    let d = &degradations[job.degradation];
    let point = Sp2SysConfig {
        load: job.load,
        warmup: cfg.warmup,
        measure: cfg.measure,
        seed: cfg.seed,
        ..Default::default()
    };
    match run_system(
        Sp2Network::<Sp2Switch>::new(&d.topology)?,
        &d.routings[job.routing],
        &point,
    ) {
        Ok(s) => Ok(Some(s.accepted)),
        Err(Sp2SysError::Deadlock { .. }) => Ok(None),
        Err(source) => Err(FaultCurveError::Run {
            network: cfg.network.clone(),
            links: d.failed_links,
            routing: cfg.routings[job.routing].name.clone(),
            load: job.load,
            seed: cfg.seed,
            source: Box::new(source),
        }),
    }
}

/// Runs every job in parallel; results in the jobs' order.
pub fn run_points(
    cfg: &Config,
    degradations: &[Degradation],
    jobs: &[Job],
) -> Vec<Result<Option<f64>, FaultCurveError>> {
    jobs.par_iter()
        .map(|&job| run_point(cfg, degradations, job))
        .collect()
}

/// One row per degraded network: the tables' figures, and per routing the highest accepted load and the
/// lowest load that deadlocked. The error is that of the first failed job.
pub fn rows(
    cfg: &Config,
    degradations: &[Degradation],
    jobs: &[Job],
    results: Vec<Result<Option<f64>, FaultCurveError>>,
) -> Result<Vec<Row>, FaultCurveError> {
    let mut rows: Vec<Row> = degradations
        .iter()
        .map(|d| {
            let s = d.tables.tables.summary();
            Row {
                failed_links: d.failed_links,
                adaptivity: s.adaptivity_minimal,
                nonminimal: s.nonminimal,
                mean_hops: s.mean_hops,
                mean_npath: s.mean_npath,
                restriction: d.tables.restriction.describe(),
                saturation: cfg
                    .routings
                    .iter()
                    .map(|r| (r.name.clone(), 0.0, None))
                    .collect(),
            }
        })
        .collect();
    for (job, res) in jobs.iter().zip(results) {
        let cell = &mut rows[job.degradation].saturation[job.routing];
        match res? {
            Some(x) => cell.1 = cell.1.max(x),
            None => cell.2 = Some(cell.2.map_or(job.load, |l: f64| l.min(job.load))),
        }
    }
    Ok(rows)
}

/// The whole curve on topology `t`: degrade, run every point, one row per number of failed links.
pub fn run(cfg: &Config, t: &Topology) -> Result<Vec<Row>, FaultCurveError> {
    let degradations = degrade_all(cfg, t)?;
    let jobs = jobs(cfg, degradations.len());
    let results = run_points(cfg, &degradations, &jobs);
    rows(cfg, &degradations, &jobs, results)
}

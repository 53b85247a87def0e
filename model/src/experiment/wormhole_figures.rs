//! Figures 1–6 of Gravano et al. (Adaptive Deadlock-free Worm-hole Routing in Hypercubes) on a 2^n-node
//! hypercube: for each traffic pattern (random, complement, transpose) and worm length (10, 20 flits) every
//! algorithm at every offered load; the highest throughput each algorithm sustains, and the check of the
//! paper's qualitative findings.
//!
//! The steps: the configurations of every figure, algorithm and load ([`configs`], each with its own random
//! stream); running them, either every one ([`run_selected`]) or each curve from its lowest load up to its
//! first unsustained load ([`run_curves`]); the curves cut there ([`up_to_first_unsustained`]); the sustained
//! points of a curve ([`curve`]), its highest sustained throughput ([`best`]) and the findings ([`findings`]).
//! Loads and throughputs are in % of λmax = 1/(2b), latencies in cycles.

use crate::wormhole::algorithms::{self, Algorithm};
use crate::wormhole::sweep::run_all;
use crate::wormhole::{NodeModel, Pattern, RunResult, SimConfig, Simulator, WormError};
use rayon::prelude::*;
use std::collections::HashMap;

/// One figure of the paper: its number, the traffic pattern and the worm length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    /// The figure's number in the paper (1–6).
    pub number: u32,
    /// The traffic pattern.
    pub pattern: Pattern,
    /// Worm length b in flits.
    pub worm_len: u32,
}

impl Figure {
    /// The figure's name in file names: `fig1_random_b10`.
    pub fn name(&self) -> String {
        format!(
            "fig{}_{}_b{}",
            self.number,
            self.pattern.name(),
            self.worm_len
        )
    }
}

/// The six figures of the paper.
pub const FIGURES: [Figure; 6] = [
    Figure {
        number: 1,
        pattern: Pattern::Random,
        worm_len: 10,
    },
    Figure {
        number: 2,
        pattern: Pattern::Complement,
        worm_len: 10,
    },
    Figure {
        number: 3,
        pattern: Pattern::Transpose,
        worm_len: 10,
    },
    Figure {
        number: 4,
        pattern: Pattern::Random,
        worm_len: 20,
    },
    Figure {
        number: 5,
        pattern: Pattern::Complement,
        worm_len: 20,
    },
    Figure {
        number: 6,
        pattern: Pattern::Transpose,
        worm_len: 20,
    },
];

/// "Performs well" (our threshold): at least this share of the best algorithm's sustained throughput.
pub const WELL_SHARE: f64 = 0.5;

/// The paper's claim for Subcubes: it sustains at least this throughput (% of λmax) on every figure.
pub const SUBCUBES_FLOOR_PCT: f64 = 20.0;

/// What to sweep: the hypercube, the loads of every curve and the settings of every run.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Hypercube dimension (2^n nodes); even, for the transpose figures.
    pub n: u32,
    /// Offered loads of every curve, % of λmax.
    pub loads: Vec<f64>,
    /// Warm-up cycles per point.
    pub warmup: u64,
    /// Measured cycles per point.
    pub measure: u64,
    /// Flit buffer depth per virtual channel.
    pub buf: u32,
    /// The processor–router interface.
    pub node: NodeModel,
    /// Deadlock watchdog window, cycles.
    pub watchdog: u64,
    /// Seed of every run (each configuration draws from its own stream of it).
    pub seed: u64,
}

/// Every configuration of the figures, in the order every run (and every shard) numbers them: by figure,
/// then algorithm (all seven of the paper), then load; the stream of each is its number. A curve is
/// `cfg.loads.len()` consecutive configurations.
pub fn configs(cfg: &Config) -> Result<Vec<SimConfig>, WormError> {
    let mut cfgs = Vec::new();
    for f in &FIGURES {
        for &alg in &algorithms::ALL {
            for &l in &cfg.loads {
                let mut c = SimConfig::new(
                    cfg.n,
                    alg,
                    f.pattern,
                    f.worm_len,
                    SimConfig::rate_for_pct(f.worm_len, l),
                );
                c.buf_depth = cfg.buf;
                c.node = cfg.node;
                c.warmup = cfg.warmup;
                c.measure = cfg.measure;
                c.watchdog = cfg.watchdog;
                c.seed = cfg.seed;
                c.stream = cfgs.len() as u64;
                c.validate()?;
                cfgs.push(c);
            }
        }
    }
    Ok(cfgs)
}

/// A run that failed (a deadlock or a broken invariant), with its configuration.
#[derive(Debug, thiserror::Error)]
#[error("{algorithm} {pattern} b={worm_len} rate={rate:.5} (n={n}): {error}")]
pub struct RunError {
    /// The algorithm's name.
    pub algorithm: String,
    /// The traffic pattern's name.
    pub pattern: String,
    /// Worm length, flits.
    pub worm_len: u32,
    /// Offered rate, messages per node per cycle.
    pub rate: f64,
    /// Hypercube dimension.
    pub n: u32,
    /// What went wrong.
    pub error: WormError,
}

impl RunError {
    /// The error `error` of the run of `c`.
    pub fn new(c: &SimConfig, error: WormError) -> RunError {
        RunError {
            algorithm: c.algorithm.to_string(),
            pattern: c.pattern.to_string(),
            worm_len: c.worm_len,
            rate: c.rate,
            n: c.n,
            error,
        }
    }
}

/// Runs the configurations numbered `which`, highest rate first (so that every core stays busy to the
/// end), calling `progress(1)` after each; results in the order of `which`. The error is that of the first
/// failed run in the order they were started.
pub fn run_selected(
    cfgs: &[SimConfig],
    which: &[usize],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<RunResult>, RunError> {
    let mut order: Vec<usize> = (0..which.len()).collect();
    order.sort_by(|&x, &y| {
        cfgs[which[y]]
            .rate
            .partial_cmp(&cfgs[which[x]].rate)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let sorted: Vec<SimConfig> = order.iter().map(|&i| cfgs[which[i]].clone()).collect();
    let res = run_all(&sorted, |_, _| progress(1));
    let mut rs: Vec<Option<RunResult>> = vec![None; which.len()];
    for ((k, c), r) in order.iter().zip(&sorted).zip(res) {
        rs[*k] = Some(r.map_err(|e| RunError::new(c, e))?);
    }
    Ok(rs.into_iter().flatten().collect())
}

/// Runs the curves (`per_curve` consecutive configurations each) in parallel, each from its lowest load up;
/// a curve stops after its first load that is not sustained (the figures show sustained points only).
/// `progress(k)` counts k configurations done or skipped. Results in the configurations' order, skipped
/// loads left out.
pub fn run_curves(
    cfgs: &[SimConfig],
    per_curve: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<RunResult>, RunError> {
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
                let r = Simulator::run(c).map_err(|e| RunError::new(c, e))?;
                progress(1);
                let sustained = r.sustained;
                out.push((ci * per_curve + i, r));
                if !sustained {
                    progress((idx.len() - k - 1) as u64);
                    break;
                }
            }
            Ok(out)
        })
        .collect::<Result<_, RunError>>()?;
    let mut all: Vec<(usize, RunResult)> = done.into_iter().flatten().collect();
    all.sort_by_key(|x| x.0);
    Ok(all.into_iter().map(|x| x.1).collect())
}

/// The runs of each curve (algorithm, pattern, worm length) up to and including its first unsustained load,
/// in their order.
pub fn up_to_first_unsustained(rs: Vec<RunResult>) -> Vec<RunResult> {
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

/// Whether run `r` belongs to algorithm `alg`'s curve of figure `f`.
fn on_curve(r: &RunResult, alg: &str, f: &Figure) -> bool {
    r.algorithm == alg && r.pattern == f.pattern.name() && r.worm_len == f.worm_len
}

/// The highest sustained accepted throughput (% of λmax) of algorithm `alg` on figure `f`, if it sustains
/// any load.
pub fn best(rs: &[RunResult], alg: &str, f: &Figure) -> Option<f64> {
    rs.iter()
        .filter(|r| on_curve(r, alg, f) && r.sustained)
        .map(|r| r.accepted_pct)
        .fold(None, |m, x| Some(m.map_or(x, |m: f64| m.max(x))))
}

/// The sustained points of algorithm `alg` on figure `f` as (accepted throughput in % of λmax, latency in
/// cycles), by throughput: the maximum latency, or the mean if `mean`.
pub fn curve(rs: &[RunResult], alg: &str, f: &Figure, mean: bool) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = rs
        .iter()
        .filter(|r| on_curve(r, alg, f) && r.sustained)
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
    pts
}

/// The findings on one figure.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureFindings {
    /// The figure.
    pub figure: Figure,
    /// The best algorithm and its highest sustained throughput (% of λmax).
    pub best: (String, f64),
    /// Non-Minimal's highest sustained throughput (% of λmax; 0 if none).
    pub nonminimal: f64,
    /// Non-Minimal performs well: at least [`WELL_SHARE`] of the best.
    pub nonminimal_well: bool,
    /// Non-Minimal is below the best.
    pub nonminimal_below_best: bool,
    /// Subcubes' highest sustained throughput (% of λmax; 0 if none).
    pub subcubes: f64,
    /// The other algorithms with one virtual channel (ecube, hanging, hanging-order) and their highest
    /// sustained throughput (% of λmax; 0 if none).
    pub one_vc: Vec<(String, f64)>,
}

/// The paper's qualitative findings, checked on a set of runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Findings {
    /// Per figure, in the paper's order.
    pub figures: Vec<FigureFindings>,
    /// Per worm length (10, 20): every algorithm's worst highest sustained throughput over the three patterns
    /// (% of λmax), best first.
    pub robustness: Vec<(u32, Vec<(String, f64)>)>,
    /// Non-Minimal performs well on every figure but below the best on each.
    pub nonminimal_holds: bool,
    /// Subcubes sustains at least [`SUBCUBES_FLOOR_PCT`] on every figure.
    pub subcubes_holds: bool,
}

/// The findings of `rs` over the algorithms `algs`.
pub fn findings(rs: &[RunResult], algs: &[Algorithm]) -> Findings {
    let best_or_0 = |alg: &str, f: &Figure| best(rs, alg, f).unwrap_or(0.0);
    let mut nonminimal_holds = true;
    let mut subcubes_holds = true;
    let mut figures = Vec::new();
    for f in &FIGURES {
        let mut bests: Vec<(String, f64)> = algs
            .iter()
            .map(|x| (x.name().to_string(), best_or_0(x.name(), f)))
            .collect();
        bests.sort_by(|x, y| y.1.partial_cmp(&x.1).unwrap_or(std::cmp::Ordering::Equal));
        let top = bests[0].clone();
        let nm = best_or_0("nonminimal", f);
        let sc = best_or_0("subcubes", f);
        let well = nm >= WELL_SHARE * top.1;
        let below = nm < top.1;
        nonminimal_holds &= well && below;
        subcubes_holds &= sc >= SUBCUBES_FLOOR_PCT;
        figures.push(FigureFindings {
            figure: *f,
            best: top,
            nonminimal: nm,
            nonminimal_well: well,
            nonminimal_below_best: below,
            subcubes: sc,
            one_vc: ["ecube", "hanging", "hanging-order"]
                .iter()
                .map(|x| (x.to_string(), best_or_0(x, f)))
                .collect(),
        });
    }
    let robustness = [10u32, 20]
        .iter()
        .map(|&b| {
            let mut w: Vec<(String, f64)> = algs
                .iter()
                .map(|x| {
                    let m = FIGURES
                        .iter()
                        .filter(|f| f.worm_len == b)
                        .map(|f| best_or_0(x.name(), f))
                        .fold(f64::MAX, f64::min);
                    (x.name().to_string(), m)
                })
                .collect();
            w.sort_by(|x, y| y.1.partial_cmp(&x.1).unwrap_or(std::cmp::Ordering::Equal));
            (b, w)
        })
        .collect();
    Findings {
        figures,
        robustness,
        nonminimal_holds,
        subcubes_holds,
    }
}

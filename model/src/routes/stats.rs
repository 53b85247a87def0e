//! The parallel statistics of thesis §4.4 (Table 4.4): t_min, t_max, speedup S = T1 / t_max, efficiency
//! η = S / P and load imbalance L = (t_max − t_min) / t_max.
//!
//! Two versions: [`measured`] runs the generator on P real threads with source switches scattered over them;
//! [`thesis_distribution`] computes, from one sequential run's per-pair timings, what the thesis' scheme gives:
//! every processor on a source switch runs the BFS, and the destination switches (in BFS discovery order) are
//! dealt to the processors of that switch in turn (Fig. 4.13); P is the number of processors.

use super::error::RouteError;
use super::table::{generate_scattered, Method, Tables};
use crate::topology::Topology;
use serde::Serialize;

/// One row of Table 4.4.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ParallelStats {
    /// P, the number of processors (workers) the work was spread over.
    pub processors: usize,
    /// T1: seconds of the whole generation on one processor.
    pub t1: f64,
    /// Seconds of the least-loaded processor.
    pub t_min: f64,
    /// Seconds of the most-loaded processor (the parallel run time).
    pub t_max: f64,
}

impl ParallelStats {
    /// The row for sequential time `t1` and one time per processor (seconds).
    pub fn from_times(t1: f64, times: &[f64]) -> Self {
        let t_min = times.iter().copied().fold(f64::INFINITY, f64::min);
        let t_max = times.iter().copied().fold(0.0, f64::max);
        ParallelStats {
            processors: times.len(),
            t1,
            t_min,
            t_max,
        }
    }
    /// Speedup S = T1 / t_max.
    pub fn speedup(&self) -> f64 {
        self.t1 / self.t_max
    }
    /// Efficiency η = S / P.
    pub fn efficiency(&self) -> f64 {
        self.speedup() / self.processors as f64
    }
    /// Load imbalance L = (t_max − t_min) / t_max.
    pub fn imbalance(&self) -> f64 {
        (self.t_max - self.t_min) / self.t_max
    }
}

/// Real runs: T1 from one worker, then `workers` threads. Returns the stats and the tables of the parallel run.
pub fn measured(
    t: &Topology,
    workers: usize,
    method: Method,
) -> Result<(ParallelStats, Tables), RouteError> {
    let (_, one) = generate_scattered(t, 1, method)?;
    let (tables, times) = generate_scattered(t, workers, method)?;
    Ok((ParallelStats::from_times(one[0], &times), tables))
}

/// The thesis' distribution over the processors of each source switch, from the timings in `tables`.
pub fn thesis_distribution(tables: &Tables) -> ParallelStats {
    let t1: f64 = tables.sources.iter().map(|s| s.secs()).sum();
    let mut times = Vec::new();
    for s in &tables.sources {
        let procs = tables
            .ends
            .nodes
            .iter()
            .filter(|n| n.1 == s.switch)
            .count()
            .max(1);
        let mut per = vec![s.bfs_secs; procs];
        for (j, d) in s.dests.iter().filter(|d| d.0 != s.switch).enumerate() {
            per[j % procs] += d.2;
        }
        times.extend(per);
    }
    ParallelStats::from_times(t1, &times)
}

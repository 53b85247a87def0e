//! Runs many configurations in parallel with rayon. Each configuration carries its own random stream id, so the
//! results are the same whatever the number of threads. `on_done` is called once per finished configuration
//! (for progress bars).

use super::error::WormError;
use super::sim::{SimConfig, Simulator};
use super::stats::RunResult;
use rayon::prelude::*;

/// Simulates every configuration; results in input order.
pub fn run_all<F>(cfgs: &[SimConfig], on_done: F) -> Vec<Result<RunResult, WormError>>
where
    F: Fn(&SimConfig, &Result<RunResult, WormError>) + Sync,
{
    cfgs.par_iter()
        .map(|c| {
            let r = Simulator::run(c);
            on_done(c, &r);
            r
        })
        .collect()
}

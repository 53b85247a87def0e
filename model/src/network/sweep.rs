//! Load sweeps and the saturation throughput (thesis §3.5, Table 3.1).
//!
//! [`sweep`] runs one configuration at each offered load in parallel (rayon; each point has its own random
//! streams derived from the seed, so results do not depend on the thread count) and returns the points in
//! load order.
//!
//! **Saturation throughput** ([`saturation`]): the largest accepted throughput measured over the sweep. Past
//! the knee of the latency curve the source queues never empty, the network runs backlogged, and accepted
//! throughput stops following the offered load; the plateau is the network's capacity under that traffic
//! and routing — the load at which latency diverges in thesis Figs. A.1–A.10. The sweep must therefore
//! extend past the knee (our default goes to offered load 1.0). [`knee`] gives a second reading for
//! comparison: the largest offered load whose accepted throughput is still within 2% of it.

use super::engine::Engine;
use super::sim::{simulate, SimConfig, SimStats};
use super::NetError;
use crate::routing::Routing;
use crate::traffic::Injection;
use rayon::prelude::*;

/// Runs `base` at each load of `loads` (geometric injection), in parallel. `tick` is called after each point.
pub fn sweep(
    net: &Engine,
    routing: &dyn Routing,
    base: &SimConfig,
    loads: &[f64],
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<SimStats>, NetError> {
    loads
        .par_iter()
        .map(|&l| {
            let cfg = SimConfig {
                injection: Injection::geometric(l)?,
                ..*base
            };
            let r = simulate(net, routing, &cfg);
            tick();
            r
        })
        .collect()
}

/// The saturation throughput: the maximum accepted throughput over the sweep.
pub fn saturation(points: &[SimStats]) -> f64 {
    points.iter().map(|p| p.accepted).fold(0.0, f64::max)
}

/// The largest offered load at which the network still accepts at least 98% of it.
pub fn knee(points: &[SimStats]) -> f64 {
    points
        .iter()
        .filter(|p| p.accepted >= 0.98 * p.offered)
        .map(|p| p.offered)
        .fold(0.0, f64::max)
}

/// The default sweep: 12 offered loads from 0.15 to 1.0, denser around the thesis' saturation points
/// (a run's length grows as 1/load below saturation, so very low loads are the expensive ones).
pub fn default_loads() -> Vec<f64> {
    vec![
        0.15, 0.25, 0.3, 0.35, 0.4, 0.43, 0.46, 0.5, 0.55, 0.6, 0.8, 1.0,
    ]
}

//! Results of one run, the λmax normalisation and the "sustains" criterion.
//!
//! **λmax** = 1/(2b) messages per node per cycle (seed 004, section 3; b = worm length in flits). Offered and
//! accepted throughput are reported in messages per injecting node per cycle and as a percentage of λmax. In
//! our router model each node can inject one flit per cycle, so injection alone caps throughput at 1/b = 200 %
//! of λmax; the network saturates earlier.
//!
//! **Sustains.** A run sustains its offered rate iff, over the measurement window (after warm-up):
//! (1) accepted throughput (worms whose tail was delivered in the window) ≥ 0.95 × offered (worms generated in
//! the window), and (2) the source queues did not grow: total queued worms at the end of the window minus at its
//! start ≤ 0.05 × worms generated in the window. Latency is bounded then by construction of a finite run; the
//! maximum latency is reported alongside. The highest throughput an algorithm sustains (in the table) is the
//! largest accepted throughput among its sustained sweep points.

use serde::{Deserialize, Serialize};

/// λmax = 1/(2b), messages per node per cycle.
pub fn lambda_max(worm_len: u32) -> f64 {
    1.0 / (2.0 * worm_len as f64)
}

/// The outcome of one simulated configuration.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RunResult {
    /// Hypercube dimension n.
    pub n: u32,
    /// The processor–router interface (`crate::wormhole::NodeModel`).
    #[serde(default)]
    pub node: super::node_model::NodeModel,
    /// Algorithm name.
    pub algorithm: String,
    /// Traffic pattern name.
    pub pattern: String,
    /// Worm length b in flits.
    pub worm_len: u32,
    /// Virtual channels per directed link.
    pub vcs: u32,
    /// Flit buffer depth per virtual channel.
    pub buf_depth: u32,
    /// Offered rate, messages per injecting node per cycle.
    pub rate: f64,
    /// Offered rate as % of λmax.
    pub offered_pct: f64,
    /// Accepted throughput in the window, messages per injecting node per cycle.
    pub accepted: f64,
    /// Accepted throughput as % of λmax.
    pub accepted_pct: f64,
    /// Mean latency (generation → tail delivered, cycles) of worms generated in the window and delivered.
    pub mean_latency: f64,
    /// Maximum latency of those worms.
    pub max_latency: u64,
    /// Worms generated in the window.
    pub generated: u64,
    /// Worms whose tail was delivered in the window.
    pub delivered: u64,
    /// Worms generated in the window whose latency was measured.
    pub latency_samples: u64,
    /// Queued (not yet injected) worms at the start of the window.
    pub queued_start: u64,
    /// Queued (not yet injected) worms at the end of the window.
    pub queued_end: u64,
    /// Worms still in source queues when the drain started (discarded, never injected).
    pub discarded: u64,
    /// Flit-hops over physical links in the whole run.
    pub flit_hops: u64,
    /// Simulated cycles (warm-up + window + drain).
    pub cycles: u64,
    /// Wall-clock seconds of the run (not written to result files: they must not depend on the machine).
    #[serde(skip_serializing, default)]
    pub seconds: f64,
    /// See the module doc.
    pub sustained: bool,
}

impl RunResult {
    /// Evaluates the "sustains" criterion from the counters.
    pub fn compute_sustained(&self) -> bool {
        let gen = self.generated as f64;
        if self.generated == 0 {
            return true;
        }
        let ok_rate = self.delivered as f64 >= 0.95 * gen;
        let growth = self.queued_end as f64 - self.queued_start as f64;
        ok_rate && growth <= 0.05 * gen
    }
}

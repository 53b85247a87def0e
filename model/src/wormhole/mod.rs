//! Wormhole routing on n-dimensional hypercubes (seed 004: Gravano, Pifarré, Denicolay, Sanz, "Adaptive
//! Deadlock-free Worm-hole Routing in Hypercubes").
//!
//! - [`router`]: the node model shared by every algorithm (virtual channels, buffers, arbitration, latency).
//! - [`algorithms`]: the seven routing algorithms of the seed (E-cube, Non-Minimal, Subcubes, Fully, Hanging,
//!   Zenith, Hanging-Order) plus a deliberately unsafe one used to test the deadlock watchdog.
//! - [`sim`]: the cycle-accurate flit-level simulator with invariant checks and a deadlock watchdog.
//! - [`node_model`]: how a processor connects to its router (separate or shared channel).
//! - [`traffic`]: random, complement and transpose traffic.
//! - [`stats`]: run results, λmax normalisation and the "sustains" criterion.
//! - [`cdg`]: channel-dependency-graph checks (plain CDG, and Duato's extended CDG of an escape sub-network).
//! - [`sweep`]: many configurations in parallel (rayon), each on its own random stream.
//!
//! Parameters everywhere: `n` (dimensions, 2^n nodes), worm length `b` in flits, injection rate in messages per
//! node per cycle (λmax = 1/(2b) is the seed's normalisation), buffer depth per virtual channel.

pub mod algorithms;
pub mod cdg;
pub mod node_model;
pub mod router;
pub mod sim;
pub mod stats;
pub mod sweep;
pub mod traffic;

pub use algorithms::Algorithm;
pub use node_model::NodeModel;
pub use sim::{SimConfig, Simulator};
pub use stats::RunResult;
pub use traffic::Pattern;

use thiserror::Error;

/// Everything that can go wrong in a wormhole run. Invariant violations and deadlocks are errors, not statistics.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum WormError {
    /// Impossible or unsupported parameters (odd n for transpose, rate ≤ 0, unknown algorithm, ...).
    #[error("bad parameter: {0}")]
    BadParam(String),
    /// The watchdog saw no flit move for `idle` cycles while worms were in the network.
    #[error("deadlock: no flit moved for {idle} cycles (cycle {cycle}, {worms} worms in the network, {flits} flits buffered)")]
    Deadlock {
        cycle: u64,
        idle: u64,
        worms: u64,
        flits: u64,
    },
    /// A flit delivered out of order, twice, to the wrong node; a leaked virtual channel; a lost worm.
    #[error("invariant violated: {0}")]
    Invariant(String),
    /// A routing function offered no channel for a worm that has not arrived.
    #[error("routing error: {0}")]
    Routing(String),
}

/// Maximum supported dimension (node labels and dimension masks are `u32`; candidate lists are fixed-size).
pub const MAX_N: u32 = 16;

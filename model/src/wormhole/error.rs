//! Everything that can go wrong in a wormhole run ([`WormError`]), in a file of its own so that the
//! simulator, the algorithms, the traffic and the node model import it and not each other.

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
        /// The cycle at which the watchdog fired.
        cycle: u64,
        /// Cycles without any flit moving.
        idle: u64,
        /// Worms in the network (injected, not yet fully delivered).
        worms: u64,
        /// Flits sitting in virtual-channel buffers.
        flits: u64,
    },
    /// A flit delivered out of order, twice, to the wrong node; a leaked virtual channel; a lost worm.
    #[error("invariant violated: {0}")]
    Invariant(String),
    /// A routing function offered no channel for a worm that has not arrived.
    #[error("routing error: {0}")]
    Routing(String),
}

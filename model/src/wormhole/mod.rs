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
//! - [`error`]: [`WormError`], everything that can go wrong in a run.
//!
//! Parameters everywhere: `n` (dimensions, 2^n nodes), worm length `b` in flits, injection rate in messages per
//! node per cycle (λmax = 1/(2b) is the seed's normalisation), buffer depth per virtual channel.

pub mod algorithms;
pub mod cdg;
pub mod error;
pub mod node_model;
pub mod router;
pub mod sim;
pub mod stats;
pub mod sweep;
pub mod traffic;

pub use algorithms::Algorithm;
pub use error::WormError;
pub use node_model::NodeModel;
pub use sim::{SimConfig, Simulator, MAX_N};
pub use stats::RunResult;
pub use traffic::Pattern;

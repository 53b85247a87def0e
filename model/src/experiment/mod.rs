//! Experiment drivers: the loops that run the model over a sweep (systems × routings × loads, failure counts,
//! algorithms × patterns × loads), collect the results and pick the saturation points. One file per study; the
//! command line (`asr sp2-system`, `asr fault-curve`, `asr wormhole-figures`) parses its options, builds the
//! inputs, calls these and writes tables, files and plots from the typed results.
//!
//! - [`sp2_systems`]: whole SP2 systems of SP2-style switches, route-table routings against each other:
//!   latency–load curves, saturation throughput, optionally with links failing during the run.
//! - [`fault_curve`]: how an SP2 system degrades as more links fail (deadlock-free tables regenerated for
//!   each number of failed links).
//! - [`wormhole_figures`]: Gravano et al.'s Figures 1–6 on the hypercube: every algorithm, pattern, worm length
//!   and load; the highest sustained throughput and the paper's qualitative findings.
//!
//! Progress is reported through a callback (the command line draws the bar); nothing here prints or writes
//! files.

pub mod fault_curve;
pub mod sp2_systems;
pub mod wormhole_figures;

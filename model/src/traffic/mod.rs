//! Traffic generation (thesis §3.3.1), split into two pluggable pieces:
//! - [`pattern`]: *where* a packet goes (uniform and structured destination rules);
//! - [`injection`]: *when* a processor generates a packet (geometric inter-arrival times, periodic).
//!
//! The network simulator combines them with one random stream per processor (`rng::stream(seed, src)`), so
//! the same seed gives the same packets (times and destinations) whatever the routing scheme.

pub mod injection;
pub mod pattern;

pub use injection::{Injection, InjectionError};
pub use pattern::{Pattern, PatternError};

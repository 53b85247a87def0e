//! Routing schemes (thesis §3.4): each turns (source, destination) into an ASR header, one permitted-output
//! set per switch on the way, written into a hop buffer. The simulator calls the scheme when a packet
//! reaches the head of its source queue, with that processor's own random stream.
//!
//! - [`BenesRouting`] on the Beneš N×N (n = log2 N, 2n−1 stages):
//!   - [`Scheme::Asr`] (§3.4.2): all-ones sets in the first n−1 stages, then the destination tag
//!     (`crate::benes::asr_header`): N/2 paths, chosen hop by hop by the switches;
//!   - [`Scheme::Random`] (§3.4.1): a random one-hot set in each of the first n−1 stages (a random middle-stage
//!     input), then the destination tag: one path, chosen at the source;
//!   - [`Scheme::RandomPair`]: a random middle input fixed per (source, destination) pair;
//!   - [`Scheme::Fixed`]: a deterministic path for reference: in stage s < n−1 port = bit s of the source.
//! - [`FlyRouting`] on the k-ary n-fly: destination tag (stage s takes base-k digit n−1−s of the destination).
//!
//! - [`TableRouting`]: headers from route tables (the route generator of thesis ch. 4, or a file); by name
//!   (`asr`, `single`, `asr-df`, `single-df`) from the factory [`registry`].
//! - [`PerHopRouting`]: seed 003's per-hop policies; packets carry no header ([`hop`]).
//!
//! Each scheme also supplies the per-hop half the switches apply ([`Routing::hop_rule`], [`hop::HopRule`]).

pub mod hop;
pub mod registry;
pub mod scheme;
pub mod table;

pub use hop::{Head, HeaderHop, HopHeader, HopRule, PerHop};
pub use scheme::{BenesRouting, FlyRouting, PerHopRouting, Routing, RoutingError, Scheme};
pub use table::TableRouting;

//! The route-table generator of thesis ch. 4: adaptive routes of maximum adaptivity for every ordered pair of
//! processors of any topology.
//!
//! - [`bfs`]: MODIFIED_BFS (Fig. 4.3) from a source switch and the routability graph R of a switch pair.
//! - [`solution`]: the solution graph S (Fig. 4.4) and the maximum adaptive path by DP (Fig. 4.6).
//! - [`table`]: per source/destination switch pair, completed per processor (§4.3.2); parallel generation;
//!   the route-table file writer.
//! - [`file`](mod@file): the route-table file parser (file:line errors) and loading against a topology.
//! - [`validate`]: checks of emitted routes and the exhaustive maximality search.
//! - [`stats`]: the thesis' parallel statistics (Table 4.4).
//! - [`cdg`]: the channel-dependency graph of route tables (can the routes deadlock?).
//! - [`updown`]: up*/down* turn restrictions and the routability graph restricted to legal turns.
//! - [`deadlock_free`]: deadlock-free tables of maximum adaptivity under the best restriction found.
//!
//! A hop is a switch choosing an output; shortest paths are counted over directed channels, and a processor
//! never forwards. With full-duplex links a path may leave a switch on the port it entered by (turn-around).

pub mod bfs;
pub mod cdg;
pub mod deadlock_free;
pub mod file;
pub mod solution;
pub mod stats;
pub mod table;
pub mod updown;
pub mod validate;

pub use deadlock_free::generate_deadlock_free;
pub use table::{generate, route_switch_pair, Method, Route, Summary, SwitchRoute, Tables};

use thiserror::Error;

/// Why routes cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RouteError {
    #[error("no path from processor {src} to processor {dst}")]
    NoPath { src: String, dst: String },
    #[error("the topology has fewer than two processors")]
    TooFewProcessors,
    #[error("a stage of the routability graph has {width} switches; at most {max} are supported")]
    StageTooWide { width: usize, max: usize },
    #[error("{ports} output ports usable at one hop; at most {max} are supported")]
    TooManyChoices { ports: u32, max: u32 },
    #[error(
        "no candidate up*/down* order of the switches gives every processor pair a legal path"
    )]
    NoLegalOrder,
    #[error("internal error: restricted tables have a channel-dependency cycle {0}")]
    CyclicRestriction(String),
    #[error("no regenerated tables keep the old and new routes together free of dependency cycles (e.g. {0})")]
    UnsafeTransition(String),
}

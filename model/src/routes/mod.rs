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
//! - [`error`]: [`RouteError`], why routes cannot be generated.
//!
//! A hop is a switch choosing an output; shortest paths are counted over directed channels, and a processor
//! never forwards. With full-duplex links a path may leave a switch on the port it entered by (turn-around).

pub mod bfs;
pub mod cdg;
pub mod deadlock_free;
pub mod error;
pub mod file;
pub mod solution;
pub mod stats;
pub mod table;
pub mod updown;
pub mod validate;

pub use deadlock_free::generate_deadlock_free;
pub use error::RouteError;
pub use table::{generate, route_switch_pair, Method, Route, Summary, SwitchRoute, Tables};

//! Topologies (thesis ch. 4): switches with numbered ports and processor nodes with one port, joined by
//! directed channels. This is the graph that the network simulator runs on and the route generator reads.
//!
//! Every port of an element has an input side and an output side. A channel joins the output side of one port
//! to the input side of another (`wire`); a full-duplex `link` is two channels, one each way. A processor node
//! has the single port 0; it may use its output side once and its input side once (so it can inject into one
//! switch and receive from another, as in a unidirectional Beneš network).
//!
//! The graph is [`Topology`] (the `graph` submodule, with its elements and ports; its builder's error,
//! [`TopologyError`], is in `error`). The text format (docs/contracts.md) is read and written by the `parse`
//! and `write` submodules; `builtin` names the built-in families (`sp2`, `benes`, `fly`, `grid`,
//! `irregular`); `builtin_error` holds their error type; [`load()`] is the one loader of a topology named on a
//! command line (a file, else a built-in name).

pub mod benes;
pub mod builtin;
pub mod builtin_error;
pub mod error;
pub mod faults;
pub mod fly;
pub mod graph;
pub mod grid;
pub mod irregular;
pub mod load;
pub mod parse;
pub mod sp2;
pub mod write;

pub use builtin::builtin;
pub use builtin_error::BuiltinError;
pub use error::TopologyError;
pub use graph::{Element, Kind, Port, Topology};
pub use load::{load, LoadError};
pub use parse::{parse, ParseError, ParseErrorKind};
pub use write::write;

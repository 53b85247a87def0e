//! Why a topology cannot be built as asked ([`TopologyError`]): the error of the graph's builder, in a file of
//! its own so that the graph, the file parser and the built-in families import it and not each other.

use thiserror::Error;

/// Why a topology cannot be built as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TopologyError {
    /// Two elements with the same name.
    #[error("duplicate name `{0}`")]
    DuplicateName(String),
    /// A name that no element has.
    #[error("unknown element `{0}`")]
    UnknownName(String),
    /// A port number at or beyond the element's port count.
    #[error("port {port} out of range for {what} {name} ({ports} ports)")]
    PortOutOfRange {
        /// `"processor"` or `"switch"`.
        what: &'static str,
        /// The element's name.
        name: String,
        /// The port asked for.
        port: u32,
        /// The element's number of ports.
        ports: u32,
    },
    /// A name that is empty or contains whitespace, `#` or `.`.
    #[error("bad name `{0}`: a name is non-empty and has no whitespace, `#` or `.`")]
    BadName(String),
    /// An output port that already drives a channel.
    #[error("output of `{name}.{port}` is already used")]
    OutputUsed {
        /// The element's name.
        name: String,
        /// The port.
        port: u32,
    },
    /// An input port that is already fed by a channel.
    #[error("input of `{name}.{port}` is already used")]
    InputUsed {
        /// The element's name.
        name: String,
        /// The port.
        port: u32,
    },
    /// A switch with no port or more than 64 (a permitted-output set is a 64-bit mask).
    #[error("switch `{name}` must have between 1 and 64 ports (got {ports})")]
    BadPortCount {
        /// The switch's name.
        name: String,
        /// The port count asked for.
        ports: u32,
    },
    /// A processor given a second link (a processor has one port).
    #[error("processor `{0}` would have more than one link")]
    NodeOverlinked(String),
    /// A channel from an element to itself.
    #[error("`{0}` is linked to itself")]
    SelfLoop(String),
}

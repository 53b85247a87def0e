//! Why a topology cannot be built as asked ([`TopologyError`]): the error of the graph's builder, in a file of
//! its own so that the graph, the file parser and the built-in families import it and not each other.

use thiserror::Error;

/// Why a topology cannot be built as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TopologyError {
    #[error("duplicate name `{0}`")]
    DuplicateName(String),
    #[error("unknown element `{0}`")]
    UnknownName(String),
    #[error("port {port} out of range for {what} {name} ({ports} ports)")]
    PortOutOfRange {
        what: &'static str,
        name: String,
        port: u32,
        ports: u32,
    },
    #[error("bad name `{0}`: a name is non-empty and has no whitespace, `#` or `.`")]
    BadName(String),
    #[error("output of `{name}.{port}` is already used")]
    OutputUsed { name: String, port: u32 },
    #[error("input of `{name}.{port}` is already used")]
    InputUsed { name: String, port: u32 },
    #[error("switch `{name}` must have between 1 and 64 ports (got {ports})")]
    BadPortCount { name: String, ports: u32 },
    #[error("processor `{0}` would have more than one link")]
    NodeOverlinked(String),
    #[error("`{0}` is linked to itself")]
    SelfLoop(String),
}

//! Why a built-in topology cannot be made: the error type of [`super::builtin()`] and of every family module
//! (`sp2`, `benes`, `fly`, `grid`, `irregular`), in a file of its own so that the families and the name
//! dispatcher both import it and not each other.

use super::error::TopologyError;
use thiserror::Error;

/// Why a built-in topology cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuiltinError {
    /// No family has this name.
    #[error("unknown topology `{0}` (known: {HELP})")]
    UnknownName(String),
    /// The family exists but the parameters do not fit it.
    #[error("topology `{name}`: {problem}")]
    BadParameter {
        /// The topology name as given (e.g. `mesh:3x4`).
        name: String,
        /// What is wrong with the parameters.
        problem: String,
    },
    /// The family's wiring broke a topology rule (a bug).
    #[error("internal wiring error: {0}")]
    Topology(#[from] TopologyError),
}

/// The names `builtin` understands, for help texts and the unknown-name error.
pub const HELP: &str = "sp2:N (N = 16,32,48,64,80,128,256,512), sp2even:64, benes:N, fly:K:N, mesh:KxK, torus:KxK, hypercube:D, irregular:S:SEED or irregular:S:P:SEED (S random 8-port switches, P processors each, default 4)";

/// A [`BuiltinError::BadParameter`] for topology `name`.
pub(crate) fn bad(name: &str, problem: impl Into<String>) -> BuiltinError {
    BuiltinError::BadParameter {
        name: name.to_string(),
        problem: problem.into(),
    }
}

//! The one topology loader: a topology file if the name is a file, else a built-in topology
//! ([`super::builtin()`]).

use super::builtin::builtin;
use super::builtin_error::BuiltinError;
use super::graph::Topology;
use super::parse::parse_file;
use std::path::Path;
use thiserror::Error;

/// Why [`load`] found no topology.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file exists but cannot be read or parsed (the message names the file and the line).
    #[error("{0}")]
    File(String),
    /// Not a file, and not a built-in name (the source says why the name was refused).
    #[error("`{spec}` is neither a readable file nor a built-in topology")]
    NotFound {
        /// The file name or topology name given.
        spec: String,
        /// Why it is not a built-in name.
        #[source]
        source: BuiltinError,
    },
}

/// The topology in file `spec` if it is a file, else the built-in topology named `spec` (`sp2:32`,
/// `mesh:8x8`, …).
pub fn load(spec: &str) -> Result<Topology, LoadError> {
    let p = Path::new(spec);
    if p.is_file() {
        return parse_file(p).map_err(|e| LoadError::File(e.to_string()));
    }
    builtin(spec).map_err(|source| LoadError::NotFound {
        spec: spec.to_string(),
        source,
    })
}

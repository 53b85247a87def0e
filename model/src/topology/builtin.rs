//! Built-in topologies by name: `sp2:N` (N ∈ 16, 32, 48, 64, 80, 128, 256, 512), `sp2even:64` (the alternative
//! 64-node wiring of docs/sp2-systems.md), `benes:N`, `fly:K:N` (k-ary n-fly), `mesh:KxK`, `torus:KxK`,
//! `hypercube:D`, `irregular:S[:P]:SEED` (random irregular networks of 8-port switches). Each family lives in its own module; this one parses the name and dispatches.

use super::builtin_error::{bad, BuiltinError};
use super::graph::Topology;

pub use super::builtin_error::HELP;

fn num(name: &str, s: &str) -> Result<usize, BuiltinError> {
    s.parse::<usize>()
        .map_err(|_| bad(name, format!("`{s}` is not a number")))
}

fn square(name: &str, s: &str) -> Result<usize, BuiltinError> {
    let (a, b) = s.split_once('x').ok_or_else(|| bad(name, "expected KxK"))?;
    let (a, b) = (num(name, a)?, num(name, b)?);
    if a != b {
        return Err(bad(name, "only square KxK grids are built in"));
    }
    Ok(a)
}

/// Builds the built-in topology called `name`.
pub fn builtin(name: &str) -> Result<Topology, BuiltinError> {
    let parts: Vec<&str> = name.split(':').collect();
    match parts.as_slice() {
        ["sp2", n] => super::sp2::sp2(num(name, n)?),
        ["sp2even", "64"] => super::sp2::sp2_even64(),
        ["benes", n] => Ok(super::benes::benes(num(name, n)?)?.topology),
        ["fly", k, n] => Ok(super::fly::fly(num(name, k)?, num(name, n)?)?.topology),
        // `fly:K,N`, the spelling `asr sim` used first, is accepted too.
        ["fly", kn] if kn.contains(',') => {
            let (k, n) = kn.split_once(',').expect("contains a comma");
            Ok(super::fly::fly(num(name, k)?, num(name, n)?)?.topology)
        }
        ["mesh", k] => super::grid::mesh(square(name, k)?, false),
        ["torus", k] => super::grid::mesh(square(name, k)?, true),
        ["hypercube", d] => super::grid::hypercube(num(name, d)?),
        ["irregular", s, seed] => {
            super::irregular::irregular(num(name, s)?, 4, num(name, seed)? as u64)
        }
        ["irregular", s, p, seed] => {
            super::irregular::irregular(num(name, s)?, num(name, p)?, num(name, seed)? as u64)
        }
        _ => Err(BuiltinError::UnknownName(name.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(builtin("sp2:16").is_ok());
        assert!(builtin("benes:8").is_ok());
        assert!(builtin("fly:2:3").is_ok());
        assert_eq!(
            crate::topology::write(&builtin("fly:4,3").unwrap()),
            crate::topology::write(&builtin("fly:4:3").unwrap())
        );
        assert!(builtin("mesh:3x3").is_ok());
        assert!(builtin("torus:4x4").is_ok());
        assert!(builtin("hypercube:3").is_ok());
        assert!(matches!(
            builtin("sp2:17"),
            Err(BuiltinError::BadParameter { .. })
        ));
        assert!(matches!(
            builtin("benes:6"),
            Err(BuiltinError::BadParameter { .. })
        ));
        assert!(matches!(
            builtin("mesh:3x4"),
            Err(BuiltinError::BadParameter { .. })
        ));
        assert!(matches!(
            builtin("ring:3"),
            Err(BuiltinError::UnknownName(_))
        ));
        assert!(matches!(
            builtin("fly:1:3"),
            Err(BuiltinError::BadParameter { .. })
        ));
    }
}

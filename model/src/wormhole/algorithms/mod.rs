//! The routing algorithms of seed 004 on the n-cube, one module each, behind the [`Algorithm`] enum.
//!
//! Every algorithm is a routing function `route(x, d, state) -> candidates`: at node `x`, for a worm going to
//! `d != x` whose per-worm routing state is `state` (carried by the head flit, 0 at injection), it lists the
//! (dimension, virtual channel, new state) choices. The router picks one free candidate (see
//! [`super::router`]). Virtual-channel counts are per *directed* link; the seed counts per bidirectional link
//! ("two virtual channels per bidirectional link" = 1 per direction), so E-cube, Hanging, Hanging-Order and
//! Subcubes use 1, Fully and Zenith 2, Non-Minimal 4 (the seed's 8 per bidirectional link).

pub mod ecube;
pub mod fully;
pub mod hanging;
pub mod hanging_order;
pub mod nonminimal;
pub mod subcubes;
pub mod zenith;

use super::error::WormError;
use super::router::Candidates;
use std::fmt;
use std::str::FromStr;

/// A routing algorithm with its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Algorithm {
    /// Dimension order (E-cube, Dally & Seitz 1987): lowest differing dimension first. 1 VC.
    Ecube,
    /// Seed section 1 (d = 3). Up to 4 VCs.
    NonMinimal,
    /// Seed section 2: hung hierarchical network of 2^k-node subcubes. 1 VC per direction.
    Subcubes {
        /// Mask of the k subcube dimensions (0 = default: the low n − 2 dimensions).
        inner: u32,
    },
    /// Minimal fully adaptive with an E-cube escape channel (Duato; Gravano et al.). 2 VCs per direction.
    Fully,
    /// Hypercube hung from 0…0: all 0→1 corrections (any order), then all 1→0 corrections (any order). 1 VC.
    Hanging,
    /// Our reconstruction (no source found): two hung virtual networks, from 0…0 and from 1…1. 2 VCs.
    Zenith,
    /// Our reconstruction (no source found): hanging with dimension-ordered 1→0 corrections. 1 VC.
    HangingOrder,
    /// Minimal fully adaptive on a single VC, no escape: *not* deadlock-free. Only for testing the watchdog
    /// and the CDG check.
    UnsafeAdaptive,
}

/// The seven algorithms of the seed, in the order of the figures' legends.
pub const ALL: [Algorithm; 7] = [
    Algorithm::Ecube,
    Algorithm::Hanging,
    Algorithm::Zenith,
    Algorithm::HangingOrder,
    Algorithm::Fully,
    Algorithm::NonMinimal,
    Algorithm::Subcubes { inner: 0 },
];

impl Algorithm {
    /// Short name used on the command line and in figures.
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Ecube => "ecube",
            Algorithm::NonMinimal => "nonminimal",
            Algorithm::Subcubes { .. } => "subcubes",
            Algorithm::Fully => "fully",
            Algorithm::Hanging => "hanging",
            Algorithm::Zenith => "zenith",
            Algorithm::HangingOrder => "hanging-order",
            Algorithm::UnsafeAdaptive => "unsafe-adaptive",
        }
    }

    /// Virtual channels per directed link on an n-cube.
    pub fn vcs(&self, n: u32) -> u32 {
        match self {
            Algorithm::Ecube
            | Algorithm::Hanging
            | Algorithm::HangingOrder
            | Algorithm::Subcubes { .. }
            | Algorithm::UnsafeAdaptive => 1,
            Algorithm::Fully | Algorithm::Zenith => 2,
            Algorithm::NonMinimal => nonminimal::vcs(n),
        }
    }

    /// Resolves defaults that depend on n (the Subcubes subcube dimensions) and validates parameters.
    pub fn resolve(self, n: u32) -> Result<Algorithm, WormError> {
        let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        match self {
            Algorithm::Subcubes { inner: 0 } => Ok(Algorithm::Subcubes { inner: subcubes::default_inner(n) }),
            Algorithm::Subcubes { inner } if inner & !all != 0 || inner == all => Err(WormError::BadParam(format!(
                "subcubes: inner-dimension mask {inner:#x} must be a proper subset of the {n} dimensions"
            ))),
            a => Ok(a),
        }
    }

    /// The candidates at node `x` for a worm to `d != x` in routing state `state`.
    #[inline]
    pub fn route(&self, n: u32, x: u32, d: u32, state: u32, c: &mut Candidates) {
        c.clear();
        match *self {
            Algorithm::Ecube => ecube::route(x, d, c),
            Algorithm::NonMinimal => nonminimal::route(n, x, d, state, c),
            Algorithm::Subcubes { inner } => subcubes::route(inner, x, d, c),
            Algorithm::Fully => fully::route(x, d, c),
            Algorithm::Hanging => hanging::route(x, d, c),
            Algorithm::Zenith => zenith::route(x, d, state, c),
            Algorithm::HangingOrder => hanging_order::route(x, d, c),
            Algorithm::UnsafeAdaptive => c.push_mask(x ^ d, 0, 0, 0),
        }
    }

    /// Whether virtual channel `vc` belongs to the escape sub-network checked with Duato's extended CDG
    /// (`None` when the algorithm claims a plain acyclic CDG).
    pub fn escape_vc(&self) -> Option<u32> {
        match self {
            Algorithm::Fully => Some(fully::ESCAPE_VC),
            _ => None,
        }
    }

    /// Whether every route is a shortest path.
    pub fn minimal(&self) -> bool {
        !matches!(self, Algorithm::NonMinimal)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = WormError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase();
        Ok(match s.as_str() {
            "ecube" | "e-cube" | "dimension-order" => Algorithm::Ecube,
            "nonminimal" | "non-minimal" => Algorithm::NonMinimal,
            "subcubes" => Algorithm::Subcubes { inner: 0 },
            "fully" => Algorithm::Fully,
            "hanging" => Algorithm::Hanging,
            "zenith" => Algorithm::Zenith,
            "hanging-order" | "hangingorder" => Algorithm::HangingOrder,
            "unsafe-adaptive" => Algorithm::UnsafeAdaptive,
            _ => {
                if let Some(m) = s.strip_prefix("subcubes:") {
                    let m = m.trim_start_matches("0x");
                    let inner = u32::from_str_radix(m, 16).map_err(|_| {
                        WormError::BadParam(format!("subcubes:<hex mask>: cannot read mask '{m}'"))
                    })?;
                    if inner == 0 {
                        return Err(WormError::BadParam(
                            "subcubes: inner mask must not be 0".into(),
                        ));
                    }
                    return Ok(Algorithm::Subcubes { inner });
                }
                return Err(WormError::BadParam(format!(
                    "unknown algorithm '{s}' (known: ecube, hanging, zenith, hanging-order, fully, nonminimal, \
                     subcubes, subcubes:<hex mask of subcube dimensions>, unsafe-adaptive)"
                )));
            }
        })
    }
}

//! Traffic patterns of seed 004, section 3, on n-bit node labels.
//!
//! - `Random`: at every injection the source picks a destination uniformly among the other 2^n − 1 nodes.
//! - `Complement`: node s always sends to !s (all n bits inverted).
//! - `Transpose`: n must be even; node s = (hi, lo) (high and low n/2 bits) always sends to (lo, hi). The 2^(n/2)
//!   nodes with hi = lo are their own transpose and inject nothing; throughput is normalised by the number of
//!   injecting nodes ([`Pattern::active_nodes`]).
//!
//! Injection is continuous: every cycle each injecting node generates a message with probability `rate`
//! (Bernoulli, messages per node per cycle) into its unbounded source queue.

use super::WormError;
use crate::rng::Rng;
use rand::Rng as _;
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Pattern {
    Random,
    Complement,
    Transpose,
}

pub const ALL: [Pattern; 3] = [Pattern::Random, Pattern::Complement, Pattern::Transpose];

/// Transpose of an n-bit label (n even): swap the high and low halves.
#[inline]
pub fn transpose(s: u32, n: u32) -> u32 {
    let h = n / 2;
    let lo = s & ((1 << h) - 1);
    let hi = s >> h;
    (lo << h) | hi
}

impl Pattern {
    pub fn name(&self) -> &'static str {
        match self {
            Pattern::Random => "random",
            Pattern::Complement => "complement",
            Pattern::Transpose => "transpose",
        }
    }

    /// Checks that the pattern exists on an n-cube.
    pub fn validate(&self, n: u32) -> Result<(), WormError> {
        if *self == Pattern::Transpose && n % 2 == 1 {
            return Err(WormError::BadParam(format!(
                "transpose needs an even number of dimensions (swap of the high and low halves), got n = {n}"
            )));
        }
        Ok(())
    }

    /// Whether node `s` injects at all.
    #[inline]
    pub fn injects(&self, n: u32, s: u32) -> bool {
        match self {
            Pattern::Transpose => transpose(s, n) != s,
            _ => true,
        }
    }

    /// Number of injecting nodes.
    pub fn active_nodes(&self, n: u32) -> u32 {
        match self {
            Pattern::Transpose => (1 << n) - (1 << (n / 2)),
            _ => 1 << n,
        }
    }

    /// Destination of a new message from `s` (never `s` itself for an injecting node).
    #[inline]
    pub fn dest(&self, n: u32, s: u32, rng: &mut Rng) -> u32 {
        let mask = (1u32 << n) - 1;
        match self {
            Pattern::Random => {
                let r = rng.gen_range(0..mask);
                if r >= s {
                    r + 1
                } else {
                    r
                }
            }
            Pattern::Complement => !s & mask,
            Pattern::Transpose => transpose(s, n),
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Pattern {
    type Err = WormError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "random" | "uniform" => Ok(Pattern::Random),
            "complement" => Ok(Pattern::Complement),
            "transpose" => Ok(Pattern::Transpose),
            o => Err(WormError::BadParam(format!(
                "unknown traffic pattern '{o}' (known: random, complement, transpose)"
            ))),
        }
    }
}

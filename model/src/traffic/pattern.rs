//! Traffic patterns (thesis §3.3.1, seed 004 §3): *where* each packet goes, as a function of its source. The one
//! pattern type of every simulator: the packet network (`crate::network`), and the wormhole simulator
//! (`crate::wormhole`, on the 2^n nodes of the n-cube).
//!
//! Parameters: the number of processors `n` (bit patterns need `n = 2^b`). Uniform draws a destination
//! uniformly from all `n` processors (the source included, as in the thesis: "to reach every output with a
//! uniform distribution"); random draws it uniformly from the other `n − 1` (seed 004's "random routing");
//! the structured patterns are permutations of the source's `b`-bit address:
//! - cyclic-shift-left: rotate left one bit (8×8: 6 = 110 → 101 = 5);
//! - cyclic-shift-right: rotate right one bit (6 = 110 → 011 = 3);
//! - reverse: `dst = n − 1 − src` (6 → 1); for `n = 2^b` this equals bitwise complement;
//! - complement: `dst = !src` (kept as its own name for BookSim users; identical to reverse);
//! - bit-reversal: the address bits in reverse order;
//! - transpose: swap the high and low halves of the address (`b` must be even).
//!
//! A source that a permutation maps to itself (transpose: the 2^(b/2) addresses with equal halves) sends to
//! itself in the packet network; simulators that cannot (wormhole) let it stay silent ([`Pattern::injects`],
//! [`Pattern::active`]).

use crate::rng::Rng;
use rand::Rng as _;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Why a pattern cannot be used on a network.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PatternError {
    /// A bit permutation on a processor count that is not 2^b.
    #[error("pattern `{pattern}` needs a power-of-two number of processors (got {n})")]
    NotPowerOfTwo {
        /// The permutation asked for.
        pattern: Pattern,
        /// The number of processors.
        n: usize,
    },
    /// Transpose on 2^b processors with b odd: the address has no two equal halves.
    #[error("pattern `transpose` needs an even number of address bits (got {n} processors)")]
    OddBits {
        /// The number of processors.
        n: usize,
    },
    /// Zero processors: no pattern is defined.
    #[error("network has no processors")]
    Empty,
    /// Random on a single processor: there is no other processor to draw.
    #[error("pattern `random` needs at least 2 processors (got {n})")]
    TooFew {
        /// The number of processors.
        n: usize,
    },
    /// A name (given) that is none of the patterns' [`Pattern::name`]s.
    #[error("unknown traffic pattern `{0}` (uniform, random, shift-left, shift-right, reverse, complement, bit-reversal, transpose)")]
    Unknown(String),
}

/// A destination rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pattern {
    /// Uniform over all `n` processors, the source included (the thesis' traffic).
    Uniform,
    /// Uniform over the processors other than the source.
    Random,
    /// Cyclic shift left: the source's `b`-bit address rotated left by one bit (8×8: 6 → 5).
    ShiftLeft,
    /// Cyclic shift right: the address rotated right by one bit (8×8: 6 → 3).
    ShiftRight,
    /// `n − 1 − src` (8×8: 6 → 1); on 2^b processors the same map as [`Pattern::Complement`].
    Reverse,
    /// The bitwise complement of the address; identical to [`Pattern::Reverse`], kept as BookSim's name.
    Complement,
    /// The address bits in reverse order (8×8: 110 → 011).
    BitReversal,
    /// The high and low halves of the address swapped (needs an even number `b` of address bits).
    Transpose,
}

impl Pattern {
    /// Every pattern: the two random ones first, then the structured permutations.
    pub const ALL: [Pattern; 8] = [
        Pattern::Uniform,
        Pattern::Random,
        Pattern::ShiftLeft,
        Pattern::ShiftRight,
        Pattern::Reverse,
        Pattern::Complement,
        Pattern::BitReversal,
        Pattern::Transpose,
    ];

    /// The pattern's kebab-case name, as parsed by `FromStr`, printed by `Display` and used in serde.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::Random => "random",
            Pattern::ShiftLeft => "shift-left",
            Pattern::ShiftRight => "shift-right",
            Pattern::Reverse => "reverse",
            Pattern::Complement => "complement",
            Pattern::BitReversal => "bit-reversal",
            Pattern::Transpose => "transpose",
        }
    }

    /// Checks that the pattern is defined on `n` processors.
    pub fn check(self, n: usize) -> Result<(), PatternError> {
        if n == 0 {
            return Err(PatternError::Empty);
        }
        if self == Pattern::Random && n < 2 {
            return Err(PatternError::TooFew { n });
        }
        if !matches!(self, Pattern::Uniform | Pattern::Random) && !n.is_power_of_two() {
            return Err(PatternError::NotPowerOfTwo { pattern: self, n });
        }
        if self == Pattern::Transpose && n.trailing_zeros() % 2 == 1 {
            return Err(PatternError::OddBits { n });
        }
        Ok(())
    }

    /// The destination of a packet from `src` on `n` processors ([`Pattern::check`] first).
    #[inline]
    pub fn dest(self, src: usize, n: usize, rng: &mut Rng) -> usize {
        let b = n.trailing_zeros();
        let mask = n - 1;
        match self {
            Pattern::Uniform => rng.gen_range(0..n),
            Pattern::Random => {
                let r = rng.gen_range(0..n - 1);
                if r >= src {
                    r + 1
                } else {
                    r
                }
            }
            _ if b == 0 => 0,
            Pattern::ShiftLeft => ((src << 1) | (src >> (b - 1))) & mask,
            Pattern::ShiftRight => ((src >> 1) | ((src & 1) << (b - 1))) & mask,
            Pattern::Reverse => n - 1 - src,
            Pattern::Complement => !src & mask,
            Pattern::BitReversal => src.reverse_bits() >> (usize::BITS - b),
            Pattern::Transpose => {
                let h = b / 2;
                ((src >> h) | (src << h)) & mask
            }
        }
    }
}

impl Pattern {
    /// Whether `src` sends at all in a simulator that cannot send a packet to its own source: false for the
    /// fixed points of a permutation (and for every source of `uniform`, which may draw itself, true).
    pub fn injects(self, src: usize, n: usize) -> bool {
        match self {
            Pattern::Uniform | Pattern::Random => true,
            _ => {
                // Structured patterns draw nothing from the stream.
                let mut r = crate::rng::stream(0, 0);
                self.dest(src, n, &mut r) != src
            }
        }
    }

    /// The number of sources that inject ([`Pattern::injects`]) among `n`.
    pub fn active(self, n: usize) -> usize {
        (0..n).filter(|&s| self.injects(s, n)).count()
    }

    /// True when a source may draw itself (only `uniform`).
    pub fn may_draw_source(self) -> bool {
        self == Pattern::Uniform
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Pattern {
    type Err = PatternError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Pattern::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| PatternError::Unknown(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

    #[test]
    fn thesis_examples_8x8() {
        let mut r = stream(1, 1);
        assert_eq!(Pattern::ShiftLeft.dest(6, 8, &mut r), 5);
        assert_eq!(Pattern::ShiftRight.dest(6, 8, &mut r), 3);
        assert_eq!(Pattern::Reverse.dest(6, 8, &mut r), 1);
        assert_eq!(Pattern::Reverse.dest(1, 8, &mut r), 6);
        assert_eq!(Pattern::BitReversal.dest(0b110, 8, &mut r), 0b011);
        assert_eq!(Pattern::Transpose.dest(0b0111, 16, &mut r), 0b1101);
    }

    #[test]
    fn structured_patterns_are_permutations() {
        let mut r = stream(1, 2);
        for p in Pattern::ALL.into_iter().skip(2) {
            for n in [2usize, 4, 16, 64] {
                if p.check(n).is_err() {
                    continue;
                }
                let mut seen = vec![false; n];
                for s in 0..n {
                    let d = p.dest(s, n, &mut r);
                    assert!(!seen[d], "{p} n={n}");
                    seen[d] = true;
                }
            }
        }
        assert!(Pattern::ShiftLeft.check(12).is_err());
        assert!(Pattern::Transpose.check(8).is_err());
        assert!(Pattern::Uniform.check(12).is_ok());
        assert_eq!("shift-right".parse::<Pattern>(), Ok(Pattern::ShiftRight));
        assert!("sideways".parse::<Pattern>().is_err());
        // Transpose on 16 processors: the 4 addresses with equal halves send to themselves.
        assert_eq!(Pattern::Transpose.active(16), 12);
        assert!(!Pattern::Transpose.injects(0b0101, 16));
        assert_eq!(Pattern::Complement.active(16), 16);
        assert_eq!(Pattern::Random.active(16), 16);
        assert!(Pattern::Random.check(1).is_err());
    }

    #[test]
    fn random_never_draws_the_source() {
        let mut r = stream(3, 1);
        let mut c = [0usize; 8];
        for _ in 0..7000 {
            c[Pattern::Random.dest(5, 8, &mut r)] += 1;
        }
        assert_eq!(c[5], 0);
        assert!(
            c.iter()
                .enumerate()
                .all(|(k, &x)| k == 5 || (800..1200).contains(&x)),
            "{c:?}"
        );
    }

    #[test]
    fn uniform_covers_all() {
        let mut r = stream(3, 0);
        let mut c = [0usize; 8];
        for _ in 0..8000 {
            c[Pattern::Uniform.dest(0, 8, &mut r)] += 1;
        }
        assert!(c.iter().all(|&x| (800..1200).contains(&x)), "{c:?}");
    }
}

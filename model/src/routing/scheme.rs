//! The routing schemes' trait ([`Routing`]) and the schemes that are not route tables: the Beneš schemes
//! ([`BenesRouting`], [`Scheme`]), destination tag on the k-ary n-fly ([`FlyRouting`]) and the per-hop
//! policies as a scheme ([`PerHopRouting`]); see the documentation of [`crate::routing`].

use super::hop::{HeaderHop, HopRule, PerHop, PerHopRule};
use crate::rng::Rng;
use rand::Rng as _;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Why a routing scheme cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RoutingError {
    /// A Beneš scheme name that is not `asr`, `random`, `random-pair` or `fixed`.
    #[error("unknown routing scheme `{0}` (asr, random, random-pair, fixed)")]
    Unknown(String),
    /// A processor index at or beyond the network's processor count.
    #[error("processor {proc} is outside the network's {n} processors")]
    BadProcessor {
        /// The processor index given.
        proc: usize,
        /// Number of processors of the network.
        n: usize,
    },
}

/// A source-routing scheme.
pub trait Routing: Sync + Send {
    /// The longest header it produces.
    fn max_hops(&self) -> usize;
    /// Number of processors it routes between.
    fn processors(&self) -> usize;
    /// Writes the header from `src` to `dst` into `hops` (cleared first).
    fn route(&self, src: usize, dst: usize, rng: &mut Rng, hops: &mut Vec<u64>);
    /// The scheme's name (for tables and files).
    fn name(&self) -> String;
    /// What the switches do with a waiting packet ([`hop`](super::hop)): source routing by the header unless the scheme
    /// routes per hop.
    fn hop_rule(&self) -> Box<dyn HopRule> {
        Box::new(HeaderHop)
    }
}

/// Routing schemes on the Beneš network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// ASR (thesis ch. 3): the first n − 1 stages permit both outputs, so the switches choose adaptively; the
    /// last n stages follow the destination bits.
    Asr,
    /// One output drawn uniformly at random per packet at each of the first n − 1 stages, then the destination
    /// bits.
    Random,
    /// Like `Random`, but the middle-stage input is a fixed pseudo-random function of (source,
    /// destination) instead of a fresh draw per packet (an alternative reading of thesis §3.4.1).
    RandomPair,
    /// Oblivious: the first n − 1 stages follow the source's bits, then the destination bits (one path per pair).
    Fixed,
}

impl Scheme {
    /// The scheme's name on the command line and in files (`asr`, `random`, `random-pair`, `fixed`).
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Asr => "asr",
            Scheme::Random => "random",
            Scheme::RandomPair => "random-pair",
            Scheme::Fixed => "fixed",
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scheme {
    type Err = RoutingError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "asr" => Ok(Scheme::Asr),
            "random" => Ok(Scheme::Random),
            "random-pair" => Ok(Scheme::RandomPair),
            "fixed" => Ok(Scheme::Fixed),
            _ => Err(RoutingError::Unknown(s.to_string())),
        }
    }
}

/// Routing on the Beneš network of 2^n ports.
#[derive(Debug, Clone, Copy)]
pub struct BenesRouting {
    /// n = log2 of the number of ports (processors); the network has 2n − 1 stages.
    pub n: usize,
    /// How the first n − 1 hops are chosen.
    pub scheme: Scheme,
}

impl Routing for BenesRouting {
    fn max_hops(&self) -> usize {
        2 * self.n - 1
    }
    fn processors(&self) -> usize {
        1 << self.n
    }
    #[inline]
    fn route(&self, src: usize, dst: usize, rng: &mut Rng, hops: &mut Vec<u64>) {
        hops.clear();
        let n = self.n;
        let pair = crate::rng::mix(((src as u64) << 32) ^ dst as u64);
        for s in 0..n - 1 {
            hops.push(match self.scheme {
                Scheme::Asr => 0b11,
                Scheme::Random => 1 << rng.gen_range(0..2u32),
                Scheme::RandomPair => 1 << ((pair >> s) & 1),
                Scheme::Fixed => 1 << ((src >> s) & 1),
            });
        }
        for b in (0..n).rev() {
            hops.push(1 << ((dst >> b) & 1));
        }
    }
    fn name(&self) -> String {
        self.scheme.name().to_string()
    }
}

/// Destination-tag routing on the k-ary n-fly.
#[derive(Debug, Clone, Copy)]
pub struct FlyRouting {
    /// k: the switch radix (k×k switches).
    pub k: usize,
    /// n: the number of stages (k^n processors).
    pub n: usize,
}

impl Routing for FlyRouting {
    fn max_hops(&self) -> usize {
        self.n
    }
    fn processors(&self) -> usize {
        self.k.pow(self.n as u32)
    }
    #[inline]
    fn route(&self, _src: usize, dst: usize, _rng: &mut Rng, hops: &mut Vec<u64>) {
        hops.clear();
        if self.k.is_power_of_two() {
            let b = self.k.trailing_zeros() as usize;
            let m = self.k - 1;
            hops.extend((0..self.n).rev().map(|s| 1u64 << ((dst >> (b * s)) & m)));
        } else {
            let mut place = self.processors() / self.k;
            for _ in 0..self.n {
                hops.push(1 << ((dst / place) % self.k));
                place = (place / self.k).max(1);
            }
        }
    }
    fn name(&self) -> String {
        "dest-tag".to_string()
    }
}

/// A per-hop policy as a routing scheme: packets carry no header; the switches route them by the table.
#[derive(Debug, Clone)]
pub struct PerHopRouting {
    /// The per-hop table the switches route by.
    pub table: PerHop,
    /// Number of processors.
    pub n: usize,
    /// The policy's name (for tables and files).
    pub name: String,
}

impl Routing for PerHopRouting {
    fn max_hops(&self) -> usize {
        1
    }
    fn processors(&self) -> usize {
        self.n
    }
    fn route(&self, _src: usize, _dst: usize, _rng: &mut Rng, hops: &mut Vec<u64>) {
        hops.clear();
    }
    fn name(&self) -> String {
        self.name.clone()
    }
    fn hop_rule(&self) -> Box<dyn HopRule> {
        Box::new(PerHopRule::new(self.table.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benes::asr_header;
    use crate::rng::stream;

    #[test]
    fn asr_matches_benes_module_and_random_is_one_hot() {
        let mut r = stream(1, 0);
        let mut h = Vec::new();
        for n in 1..=6 {
            for d in 0..(1usize << n) {
                BenesRouting {
                    n,
                    scheme: Scheme::Asr,
                }
                .route(0, d, &mut r, &mut h);
                assert_eq!(h, asr_header(n, d).unwrap().hops());
                BenesRouting {
                    n,
                    scheme: Scheme::Random,
                }
                .route(0, d, &mut r, &mut h);
                assert_eq!(h.len(), 2 * n - 1);
                assert!(h.iter().all(|x| x.count_ones() == 1));
                assert_eq!(&h[n - 1..], &asr_header(n, d).unwrap().hops()[n - 1..]);
            }
        }
        // Random routing reaches every middle input.
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            BenesRouting {
                n: 4,
                scheme: Scheme::Random,
            }
            .route(3, 5, &mut r, &mut h);
            seen.insert(h[..3].to_vec());
        }
        assert_eq!(seen.len(), 8);
        assert_eq!("random".parse::<Scheme>(), Ok(Scheme::Random));
        assert!("magic".parse::<Scheme>().is_err());
    }

    #[test]
    fn fly_tag() {
        let mut r = stream(1, 0);
        let mut h = Vec::new();
        FlyRouting { k: 4, n: 3 }.route(0, 0b10_01_11, &mut r, &mut h);
        assert_eq!(h, vec![1 << 2, 1 << 1, 1 << 3]);
        FlyRouting { k: 3, n: 3 }.route(0, 21, &mut r, &mut h); // 21 = 210 in base 3
        assert_eq!(h, vec![1 << 2, 1 << 1, 1 << 0]);
    }
}

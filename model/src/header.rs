//! The ASR header (thesis §2.1): one permitted-output set per hop.
//!
//! This is the single definition of the header used by the model, the HDL, the testbench and the CLI.
//! A hop is a non-empty set of output ports of the switch at that hop, as a bit mask (bit `k` = output `k`),
//! for switches of up to 64 ports. Each switch takes the first hop, chooses one of its ports, and strips it
//! before forwarding (thesis Fig. 2.1), so after the last switch the header is empty.
//!
//! The number of distinct paths the header permits is `N_path = |R_1| × … × |R_n|` (thesis eq. 2.1).
//!
//! Packing: [`Header::to_word`] lays the hops out in fixed-width fields, hop 0 in the lowest bits, with a tag
//! above them. This is the packet word of the 2×2 switch networks (docs/contracts.md: `header | tag << (2*S)`), and
//! with 8-bit fields it is the route bytes of the SP2-style switch.

use bitvec::prelude::*;
use thiserror::Error;

/// The widest switch a header can address.
pub const MAX_RADIX: u32 = 64;

/// Why a header (or a hop) is not valid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HeaderError {
    /// The switch radix is 0 or above [`MAX_RADIX`].
    #[error("switch radix {radix} is not supported (1..={max})", max = MAX_RADIX)]
    BadRadix {
        /// The radix asked for.
        radix: u32,
    },
    /// A hop permits no output: a packet holding it could go nowhere at that switch.
    #[error("hop {hop}: empty set of permitted outputs")]
    EmptyHop {
        /// Index of the hop in the header (0 = the first switch).
        hop: usize,
    },
    /// A hop names a port the switch does not have.
    #[error("hop {hop}: port {port} is beyond the switch's {radix} ports (set {set:#x})")]
    PortOutOfRange {
        /// Index of the hop in the header (0 = the first switch).
        hop: usize,
        /// The lowest offending port.
        port: u32,
        /// The switch's number of ports.
        radix: u32,
        /// The hop's permitted set as given (0 when the hop was given as a single port, by
        /// [`Header::from_ports`]).
        set: u64,
    },
    /// [`Header::strip`] on an empty header: the packet has passed its last switch.
    #[error("header has no hop left to strip")]
    Exhausted,
    /// A packing field cannot hold a hop: narrower than the radix (or, when unpacking, wider than 64 bits).
    #[error("field width {width} bits cannot hold a {radix}-port set")]
    FieldTooNarrow {
        /// The field width asked for, in bits.
        width: usize,
        /// The switch radix, i.e. the bits a hop needs.
        radix: u32,
    },
    /// The tag has bits set at or above `bits`.
    #[error("tag {tag:#x} does not fit in {bits} bits")]
    TagTooWide {
        /// The tag given.
        tag: u64,
        /// The tag field's width, in bits.
        bits: usize,
    },
}

/// The mask of all ports of a `radix`-port switch.
#[inline]
pub fn all_ports(radix: u32) -> u64 {
    if radix >= 64 {
        u64::MAX
    } else {
        (1u64 << radix) - 1
    }
}

/// Checks one hop's permitted set against a switch of `radix` ports.
pub fn check_hop(hop: usize, set: u64, radix: u32) -> Result<(), HeaderError> {
    if radix == 0 || radix > MAX_RADIX {
        return Err(HeaderError::BadRadix { radix });
    }
    if set == 0 {
        return Err(HeaderError::EmptyHop { hop });
    }
    let beyond = set & !all_ports(radix);
    if beyond != 0 {
        return Err(HeaderError::PortOutOfRange {
            hop,
            port: beyond.trailing_zeros(),
            radix,
            set,
        });
    }
    Ok(())
}

/// An ASR header: a sequence of non-empty permitted-output sets for switches of `radix` ports.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Header {
    radix: u32,
    hops: Vec<u64>,
}

impl Header {
    /// Builds a header for switches of `radix` ports; every hop must be non-empty and inside the switch.
    pub fn new(radix: u32, hops: Vec<u64>) -> Result<Self, HeaderError> {
        if radix == 0 || radix > MAX_RADIX {
            return Err(HeaderError::BadRadix { radix });
        }
        for (i, &h) in hops.iter().enumerate() {
            check_hop(i, h, radix)?;
        }
        Ok(Header { radix, hops })
    }

    /// A deterministic (source-routing) header: one port per hop.
    pub fn from_ports(radix: u32, ports: &[u32]) -> Result<Self, HeaderError> {
        let mut hops = Vec::with_capacity(ports.len());
        for (i, &p) in ports.iter().enumerate() {
            if p >= radix.min(MAX_RADIX) {
                return Err(HeaderError::PortOutOfRange {
                    hop: i,
                    port: p,
                    radix,
                    set: 0,
                });
            }
            hops.push(1u64 << p);
        }
        Header::new(radix, hops)
    }

    /// The number of ports of every switch the header addresses (1..=64).
    pub fn radix(&self) -> u32 {
        self.radix
    }
    /// The permitted-output sets, first hop first (bit k = output k); each non-empty and within the radix.
    pub fn hops(&self) -> &[u64] {
        &self.hops
    }
    /// The number of hops left, i.e. of switches still to pass.
    pub fn len(&self) -> usize {
        self.hops.len()
    }
    /// No hop left: the packet has passed its last switch.
    pub fn is_empty(&self) -> bool {
        self.hops.is_empty()
    }
    /// The permitted set of the next switch, if any hop is left.
    pub fn first(&self) -> Option<u64> {
        self.hops.first().copied()
    }

    /// N_path (thesis eq. 2.1): the product of the hops' popcounts. Saturates at `u128::MAX`.
    pub fn npath(&self) -> u128 {
        npath(&self.hops)
    }

    /// Removes the first hop and returns its permitted set (what a switch does before forwarding).
    pub fn strip(&mut self) -> Result<u64, HeaderError> {
        if self.hops.is_empty() {
            return Err(HeaderError::Exhausted);
        }
        Ok(self.hops.remove(0))
    }

    /// The header without its first hop, and that hop's set.
    pub fn stripped(&self) -> Result<(u64, Header), HeaderError> {
        let mut h = self.clone();
        let first = h.strip()?;
        Ok((first, h))
    }

    /// Packs the header into fixed-width fields (hop 0 lowest) followed by a `tag_bits`-bit tag.
    pub fn to_word(
        &self,
        field_bits: usize,
        tag: u64,
        tag_bits: usize,
    ) -> Result<BitVec<u64, Lsb0>, HeaderError> {
        if field_bits < self.radix as usize {
            return Err(HeaderError::FieldTooNarrow {
                width: field_bits,
                radix: self.radix,
            });
        }
        if tag_bits < 64 && tag >> tag_bits != 0 {
            return Err(HeaderError::TagTooWide {
                tag,
                bits: tag_bits,
            });
        }
        let mut w = bitvec![u64, Lsb0; 0; field_bits * self.hops.len() + tag_bits];
        for (i, &h) in self.hops.iter().enumerate() {
            let n = field_bits.min(64);
            w[i * field_bits..i * field_bits + n].store_le(h & field_mask(n));
        }
        if tag_bits > 0 {
            let base = field_bits * self.hops.len();
            let n = tag_bits.min(64);
            w[base..base + n].store_le(tag);
        }
        Ok(w)
    }

    /// Unpacks a word made by [`Header::to_word`]: `hops` fields of `field_bits`, then the tag.
    /// Every field is validated as a hop of a `radix`-port switch.
    pub fn from_word(
        word: &BitSlice<u64, Lsb0>,
        radix: u32,
        field_bits: usize,
        hops: usize,
        tag_bits: usize,
    ) -> Result<(Header, u64), HeaderError> {
        if field_bits < radix as usize || field_bits > 64 {
            return Err(HeaderError::FieldTooNarrow {
                width: field_bits,
                radix,
            });
        }
        let mut v = Vec::with_capacity(hops);
        for i in 0..hops {
            v.push(word[i * field_bits..(i + 1) * field_bits].load_le::<u64>());
        }
        let base = hops * field_bits;
        let tag = if tag_bits == 0 {
            0
        } else {
            word[base..base + tag_bits.min(64)].load_le::<u64>()
        };
        Ok((Header::new(radix, v)?, tag))
    }

    /// The header as a packet word in a `u128` (for words up to 128 bits, e.g. the Beneš networks).
    pub fn to_u128(
        &self,
        field_bits: usize,
        tag: u64,
        tag_bits: usize,
    ) -> Result<u128, HeaderError> {
        let w = self.to_word(field_bits, tag, tag_bits)?;
        assert!(
            w.len() <= 128,
            "packet word of {} bits does not fit in u128",
            w.len()
        );
        let mut x = 0u128;
        for (i, b) in w.iter().by_vals().enumerate() {
            x |= (b as u128) << i;
        }
        Ok(x)
    }
}

#[inline]
fn field_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// N_path of a list of hop sets (product of popcounts), saturating.
pub fn npath(hops: &[u64]) -> u128 {
    hops.iter()
        .fold(1u128, |acc, &h| acc.saturating_mul(h.count_ones() as u128))
}

/// Formats a hop set as the route-table file does: lowercase hex without prefix.
pub fn hop_hex(set: u64) -> String {
    format!("{set:x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thesis_example_npath() {
        // §2.1: R1 = 00001111, R2 = 11000000, R3 = 01000000 on 8x8 switches: 4 * 2 * 1 paths.
        let h = Header::new(8, vec![0b0000_1111, 0b1100_0000, 0b0100_0000]).unwrap();
        assert_eq!(h.npath(), 8);
    }

    #[test]
    fn errors_are_values() {
        assert_eq!(
            Header::new(8, vec![1, 0]),
            Err(HeaderError::EmptyHop { hop: 1 })
        );
        assert!(matches!(
            Header::new(2, vec![0b100]),
            Err(HeaderError::PortOutOfRange {
                hop: 0,
                port: 2,
                radix: 2,
                ..
            })
        ));
        assert_eq!(
            Header::new(0, vec![]),
            Err(HeaderError::BadRadix { radix: 0 })
        );
        assert_eq!(
            Header::new(65, vec![]),
            Err(HeaderError::BadRadix { radix: 65 })
        );
        let mut h = Header::new(2, vec![]).unwrap();
        assert_eq!(h.strip(), Err(HeaderError::Exhausted));
        assert!(Header::from_ports(4, &[4]).is_err());
        // 64-port switches use every bit.
        assert!(Header::new(64, vec![u64::MAX]).is_ok());
        assert_eq!(Header::new(64, vec![u64::MAX]).unwrap().npath(), 64);
    }

    #[test]
    fn strip_takes_first() {
        let mut h = Header::new(2, vec![0b11, 0b01, 0b10]).unwrap();
        assert_eq!(h.strip(), Ok(0b11));
        assert_eq!(h.hops(), &[0b01, 0b10]);
        assert_eq!(h.npath(), 1);
    }

    #[test]
    fn word_round_trip_and_shift() {
        // docs/contracts.md: word = header | tag << (2*S); each switch shifts right by 2.
        let h = Header::new(2, vec![0b11, 0b11, 0b10, 0b10, 0b01]).unwrap();
        let w = h.to_u128(2, 0xbeef, 16).unwrap();
        assert_eq!(w, 0b01_10_10_11_11 | (0xbeef << 10));
        assert_eq!(w >> 10, 0xbeef);
        let bits = h.to_word(2, 0xbeef, 16).unwrap();
        let (h2, tag) = Header::from_word(&bits, 2, 2, 5, 16).unwrap();
        assert_eq!((h2, tag), (h.clone(), 0xbeef));
        assert!(h.to_word(2, 1 << 16, 16).is_err());
        assert!(h.to_word(1, 0, 16).is_err());
    }
}

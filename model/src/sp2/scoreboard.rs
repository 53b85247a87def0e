//! The scoreboard of SP2 runs (a whole system, [`super::system`], and one switch, [`super::experiment`]):
//! every packet sent is expected exactly once, at a permitted destination, intact and with a good CRC;
//! anything unknown or arriving twice is an error, and whatever is still expected when a run ends is
//! reported by the run as not drained.
//!
//! Payloads of at least 6 bytes carry their own identity: the source (2 bytes), a sequence number (4 bytes),
//! then bytes derived from both ([`payload_bytes`]), so the destination checks every byte without storing
//! payloads. Shorter payloads (0 to 5 bytes: the packet format allows them, and they are the cases where a
//! switch's per-packet decisions follow each other closest) are bytes of a hash of (source, sequence
//! number) and are known by their content and where they may arrive ([`crate::content_board`]: exact,
//! whatever the collisions).

use super::error::Sp2SysError;
use super::node::Arrival;
use crate::rng::mix;

/// Payloads shorter than this carry no (source, sequence number) and are known by their content.
pub const ID_BYTES: usize = 6;

/// The payload of packet `seq` of `src`, `len` bytes: from [`ID_BYTES`] on, the source, the sequence number
/// and bytes derived from both; shorter, bytes of a hash of both.
pub fn payload_bytes(src: usize, seq: u32, len: usize) -> Vec<u8> {
    if len < ID_BYTES {
        let h = mix(((src as u64) << 32) | seq as u64 ^ 0x5a17_0000_0000_0000);
        return (0..len).map(|j| (h >> (8 * j)) as u8).collect();
    }
    let mut p = Vec::with_capacity(len);
    p.extend_from_slice(&(src as u16).to_be_bytes());
    p.extend_from_slice(&seq.to_be_bytes());
    let h = mix(((src as u64) << 32) | seq as u64);
    p.extend((6..len).map(|j| (h >> (8 * (j % 8))) as u8 ^ j as u8));
    p
}

use crate::content_board::{ContentBoard, ContentError};
pub use crate::scoreboard::Dest;
use crate::scoreboard::ScoreError;

/// Packets expected, keyed by (source, sequence number), each with its destination and the caller's data:
/// the simulators' shared [`crate::scoreboard::Scoreboard`], plus the checks of the bytes themselves; short
/// payloads by their content.
#[derive(Debug, Clone)]
pub struct Scoreboard<T> {
    board: crate::scoreboard::Scoreboard<T>,
    short: ContentBoard<Vec<u8>, (usize, u32, T)>,
}

impl<T> Default for Scoreboard<T> {
    fn default() -> Self {
        Scoreboard {
            board: crate::scoreboard::Scoreboard::default(),
            short: ContentBoard::default(),
        }
    }
}

impl<T: Clone> Scoreboard<T> {
    /// An empty scoreboard.
    pub fn new() -> Self {
        Self::default()
    }

    /// Expects packet `seq` of `src` (sent with a payload of [`ID_BYTES`] or more from [`payload_bytes`]) at
    /// `dest`. A source numbers its packets in increasing order.
    pub fn expect(&mut self, src: usize, seq: u32, dest: Dest, data: T) {
        if let Err(e) = self.board.expect(src, seq as u64, dest, data) {
            panic!("packet {src}#{seq} expected out of order: {e}");
        }
    }

    /// Expects packet `seq` of `src` with a payload of `len` bytes from [`payload_bytes`], any length.
    pub fn expect_len(&mut self, src: usize, seq: u32, dest: Dest, len: usize, data: T) {
        if len >= ID_BYTES {
            self.expect(src, seq, dest, data);
        } else {
            self.short
                .expect(payload_bytes(src, seq, len), dest, (src, seq, data));
        }
    }

    /// Packets still expected.
    pub fn outstanding(&self) -> usize {
        self.board.outstanding() + self.short.outstanding()
    }

    /// The packets still expected, sorted by (source, sequence number).
    pub fn ids(&self) -> Vec<(usize, u32)> {
        let mut v: Vec<(usize, u32)> = self
            .board
            .outstanding_units()
            .into_iter()
            .map(|(s, k)| (s, k as u32))
            .collect();
        v.extend(self.short.unarrived().into_iter().map(|u| (u.0, u.1)));
        v.sort_unstable();
        v
    }

    /// The caller's data of an expected packet.
    pub fn get(&self, id: &(usize, u32)) -> Option<&T> {
        self.board.record(id.0, id.1 as u64).or_else(|| {
            self.short
                .unarrived()
                .into_iter()
                .find(|u| (u.0, u.1) == *id)
                .map(|u| &u.2)
        })
    }

    /// Whether [`Self::arrive`] would accept this arrival at `at` (known, permitted there, CRC good, payload as
    /// sent), without changing anything: used after a link failure, when a packet cut on the failed link may
    /// arrive damaged and must be told apart from a broken invariant.
    pub fn would_accept(&self, at: usize, a: &Arrival) -> bool {
        if !a.crc_ok {
            return false;
        }
        if a.payload.len() < ID_BYTES {
            let mut probe = self.short.clone();
            return probe.arrive(&a.payload, at).is_ok();
        }
        let src = u16::from_be_bytes([a.payload[0], a.payload[1]]) as usize;
        let seq = u32::from_be_bytes([a.payload[2], a.payload[3], a.payload[4], a.payload[5]]);
        self.board.destination(src, seq as u64).is_some_and(|dest| {
            dest.allows(at) && a.payload == payload_bytes(src, seq, a.payload.len())
        })
    }

    /// Checks an arrival at `at` in `cycle` and returns its (source, sequence number, data): known and not
    /// yet arrived, at a permitted destination, CRC good, payload as sent.
    pub fn arrive(
        &mut self,
        cycle: u64,
        at: usize,
        a: &Arrival,
    ) -> Result<(usize, u32, T), Sp2SysError> {
        if a.payload.len() < ID_BYTES {
            if !a.crc_ok {
                return Err(Sp2SysError::Corrupted {
                    cycle,
                    at,
                    src: usize::MAX,
                    seq: 0,
                    why: "CRC mismatch (a short packet)",
                });
            }
            return self.short.arrive(&a.payload, at).map_err(|e| {
                let why = match e {
                    ContentError::Misdelivered { .. } => "misdelivered",
                    ContentError::Duplicated { .. } => "duplicated",
                    ContentError::Unknown { .. } => "unknown",
                };
                Sp2SysError::Short {
                    cycle,
                    at,
                    len: a.payload.len(),
                    why,
                    detail: e.to_string(),
                }
            });
        }
        let src = u16::from_be_bytes([a.payload[0], a.payload[1]]) as usize;
        let seq = u32::from_be_bytes([a.payload[2], a.payload[3], a.payload[4], a.payload[5]]);
        let data = self
            .board
            .arrive(src, seq as u64, at)
            .map_err(|e| match e {
                ScoreError::Misdelivered { dst, .. } => Sp2SysError::Misdelivered {
                    cycle,
                    src,
                    seq,
                    dst,
                    at,
                },
                ScoreError::OutsideSet { set, .. } => Sp2SysError::OutsideSet {
                    cycle,
                    src,
                    seq,
                    set,
                    at,
                },
                _ => Sp2SysError::Unexpected {
                    cycle,
                    at,
                    src,
                    seq,
                },
            })?;
        if !a.crc_ok {
            return Err(Sp2SysError::Corrupted {
                cycle,
                at,
                src,
                seq,
                why: "CRC mismatch",
            });
        }
        if a.payload != payload_bytes(src, seq, a.payload.len()) {
            return Err(Sp2SysError::Corrupted {
                cycle,
                at,
                src,
                seq,
                why: "payload differs",
            });
        }
        Ok((src, seq, data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrival(payload: Vec<u8>, crc_ok: bool) -> Arrival {
        Arrival {
            payload,
            crc_ok,
            cycle: 0,
        }
    }

    #[test]
    fn every_broken_delivery_is_an_error() {
        let mut sb = Scoreboard::new();
        sb.expect(3, 7, Dest::One(5), ());
        sb.expect(3, 8, Dest::One(5), ());
        for seq in 1..=4 {
            sb.expect(4, seq, Dest::Set(0b0110), ());
        }
        let good = payload_bytes(3, 7, 20);
        // Wrong place, then the right one, then a duplicate, then an unknown packet.
        assert!(matches!(
            sb.arrive(1, 4, &arrival(good.clone(), true)),
            Err(Sp2SysError::Misdelivered { dst: 5, at: 4, .. })
        ));
        assert_eq!(sb.arrive(1, 5, &arrival(good.clone(), true)).unwrap().1, 7);
        assert!(matches!(
            sb.arrive(2, 5, &arrival(good, true)),
            Err(Sp2SysError::Unexpected { src: 3, seq: 7, .. })
        ));
        assert!(matches!(
            sb.arrive(2, 5, &arrival(payload_bytes(3, 9, 20), true)),
            Err(Sp2SysError::Unexpected { src: 3, seq: 9, .. })
        ));
        // A set: port 3 is outside {1, 2}; a bad CRC; a changed byte; then a good one.
        let p = payload_bytes(4, 1, 9);
        assert!(matches!(
            sb.arrive(3, 3, &arrival(p.clone(), true)),
            Err(Sp2SysError::OutsideSet {
                set: 0b0110,
                at: 3,
                ..
            })
        ));
        assert!(matches!(
            sb.arrive(3, 2, &arrival(p, false)),
            Err(Sp2SysError::Corrupted {
                why: "CRC mismatch",
                ..
            })
        ));
        let mut q = payload_bytes(4, 2, 9);
        q[8] ^= 1;
        assert!(matches!(
            sb.arrive(3, 2, &arrival(q, true)),
            Err(Sp2SysError::Corrupted {
                why: "payload differs",
                ..
            })
        ));
        assert!(sb
            .arrive(3, 1, &arrival(payload_bytes(4, 3, 9), true))
            .is_ok());
        assert!(sb
            .arrive(3, 2, &arrival(payload_bytes(4, 4, 30), true))
            .is_ok());
        assert!(sb
            .arrive(3, 5, &arrival(payload_bytes(3, 8, 6), true))
            .is_ok());
        assert_eq!(sb.outstanding(), 0);
        assert!(sb.arrive(4, 0, &arrival(vec![1, 2], true)).is_err());
    }
}

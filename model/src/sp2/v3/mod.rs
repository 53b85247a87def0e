//! Version 3 of the SP2-style switch (docs/sp2-switch.md, v3): every block output a register, held grants
//! from one allocator matrix at a time, a central queue in byte-sliced banks written in a rotating schedule,
//! a pipelined admission, one serializer per transmitter.
//!
//! The model comes before the HDL (docs/sp2-switch.md V3.F): it fixes the protocol between the blocks and
//! measures it. Each block keeps the values other blocks read in registers of its own
//! ([`receiver::RxRegs`], [`transmitter::TxRegs`], [`allocator::AllocRegs`], [`central_queue::CqRegs`]); the
//! switch copies them at the start of a cycle ([`switch::Snapshot`]) and every block then commits from that
//! copy, so no block sees another's decision of the same cycle, except where the specification writes a
//! receiver's registers straight into a RAM port (a bank write, a control operation in its slot).

// Port-indexed state: loops over port numbers index several per-port arrays at once, as the hardware's
// per-port blocks do.
#![allow(clippy::needless_range_loop)]

pub mod allocator;
pub mod central_queue;
pub mod ports;
pub mod receiver;
pub mod switch;
pub mod transmitter;

/// One stored or offered element of an outgoing packet.
///
/// On the crossbar a packet is offered as `LEN − 1`, its body bytes and [`Entry::End`]. In the central queue
/// only the body is stored, its last byte carrying the packet's verdict ([`Entry::Last`]), or a lone
/// [`Entry::End`] for an empty body; `LEN − 1` travels in the packet FIFO entry. A 32-byte payload is then
/// four chunks, not five: the queue's write and read ports (one chunk per cycle each) carry 8.5 link bytes
/// per chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A byte of the outgoing packet.
    Byte(u8),
    /// The body's last byte, and the packet's verdict: the transmitter sends the byte, then its CRC.
    Last {
        /// The byte.
        byte: u8,
        /// The incoming packet's CRC was wrong.
        bad: bool,
    },
    /// The packet's end: the transmitter sends its own CRC, inverted if `bad`.
    End {
        /// The incoming packet's CRC was wrong.
        bad: bool,
    },
}

/// Bits of an [`Entry`] in a bank, an offer register or a serializer ([`Entry::to_bits`]).
pub const ENTRY_BITS: usize = 10;

impl Entry {
    /// The entry as the hardware stores and passes it, [`ENTRY_BITS`] wide: bits 7..0 the byte, bits 9..8
    /// the kind — `00` a byte, `01` the last byte of a good packet, `10` the last byte of a bad one, `11`
    /// the end, its verdict in bit 0 (1: bad; the other byte bits 0).
    pub fn to_bits(self) -> u16 {
        match self {
            Entry::Byte(b) => b as u16,
            Entry::Last { byte, bad } => (if bad { 0b10 } else { 0b01 }) << 8 | byte as u16,
            Entry::End { bad } => 0b11 << 8 | bad as u16,
        }
    }

    /// The entry of [`Entry::to_bits`]'s encoding (bits above [`ENTRY_BITS`] ignored; an end's byte bits
    /// other than bit 0 ignored).
    pub fn from_bits(v: u16) -> Entry {
        let byte = v as u8;
        match v >> 8 & 0b11 {
            0b00 => Entry::Byte(byte),
            0b01 => Entry::Last { byte, bad: false },
            0b10 => Entry::Last { byte, bad: true },
            _ => Entry::End { bad: byte & 1 == 1 },
        }
    }

    /// The packet's last stored entry.
    pub fn ends(&self) -> bool {
        !matches!(self, Entry::Byte(_))
    }
}

/// Offers of a packet of `LEN` `len` on the crossbar: `LEN − 1`, `LEN − 1` body bytes, the end.
pub fn offers_of(len: u8) -> u16 {
    len as u16 + 1
}

/// Entries a packet of `LEN` `len` stores in the central queue: its body (`LEN − 1` bytes), or one end entry
/// for an empty body.
pub fn stored_of(len: u8) -> u16 {
    (len as u16 - 1).max(1)
}

/// Central-queue chunks a packet of `LEN` `len` occupies (its stored entries, eight per chunk).
pub fn chunks_of(len: u8) -> u8 {
    (stored_of(len) as usize).div_ceil(crate::sp2::CHUNK) as u8
}

/// A receiver streaming a packet counts as near its end (a candidate for its transmitter's next grant, and
/// the moment its look-ahead packet asks the crossbar) with at most this many entries left to offer or write.
pub const NEAR_END: u16 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry survives its bit encoding, in [`ENTRY_BITS`] bits, and distinct entries differ.
    #[test]
    fn entries_round_trip_through_their_bits() {
        let mut all = vec![Entry::End { bad: false }, Entry::End { bad: true }];
        for b in 0..=255u8 {
            all.push(Entry::Byte(b));
            all.push(Entry::Last {
                byte: b,
                bad: false,
            });
            all.push(Entry::Last { byte: b, bad: true });
        }
        let mut seen = std::collections::HashSet::new();
        for e in all {
            let v = e.to_bits();
            assert!(v < 1 << ENTRY_BITS, "{e:?}: {v:#x}");
            assert_eq!(Entry::from_bits(v), e);
            assert!(seen.insert(v), "{e:?} shares {v:#x}");
        }
    }
}

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
pub mod receiver;
pub mod switch;
pub mod transmitter;

/// One stored or offered element of an outgoing packet: a byte (`LEN − 1`, the remaining route bytes, the
/// payload) or the end of the packet, which the transmitter sends as its own CRC (inverted if `bad`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A byte of the outgoing packet.
    Byte(u8),
    /// The packet's end: the incoming CRC did not match when `bad`.
    End {
        /// The incoming packet's CRC was wrong.
        bad: bool,
    },
}

/// A packet of `len` (its `LEN`) has `len + 1` entries: `LEN − 1`, `LEN − 1` body bytes, the end.
pub fn entries_of(len: u8) -> u16 {
    len as u16 + 1
}

/// Central-queue chunks a packet of `LEN` `len` occupies (its entries, eight per chunk).
pub fn chunks_of(len: u8) -> u8 {
    (entries_of(len) as usize).div_ceil(crate::sp2::CHUNK) as u8
}

/// A receiver streaming a packet counts as near its end (a candidate for its transmitter's next grant, and
/// the moment its look-ahead packet asks the crossbar) with at most this many entries left to offer or write.
pub const NEAR_END: u16 = 8;

//! The values that pass between the v3 switch's blocks (docs/sp2-switch.md, v3): what a receiver offers the
//! crossbar and asks the central queue, what it writes into the queue's RAM ports, what a packet FIFO entry
//! and a chunk read carry. Defined here, apart from the blocks, so that no block imports another.

use super::Entry;
use crate::sp2::CHUNK;

/// The crossbar offer register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    /// The entry.
    pub entry: Entry,
    /// The transmitter it is for (`None`: the preload, for whichever transmitter is granted).
    pub to: Option<u8>,
}

/// A receiver's request for admission of its packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdmReq {
    /// Permitted outputs (non-empty).
    pub set: u8,
    /// Chunks of the packet.
    pub chunks: u8,
}

/// A packet FIFO entry: the packet's first chunk, the bank of its entry 0, the receiver writing it, its
/// outgoing first byte `LEN − 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PktRef {
    /// `LEN − 1`, sent before the stored entries.
    pub head: u8,
    /// The first chunk.
    pub first: u8,
    /// The start bank.
    pub start: u8,
    /// The writer.
    pub writer: u8,
}

/// A chunk read, for its transmitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RdData {
    /// Entries by bank.
    pub banks: [Option<Entry>; CHUNK],
    /// The packet's start bank.
    pub start: u8,
    /// `LEN − 1` when this is the packet's first chunk.
    pub head: Option<u8>,
}

/// What a receiver puts into the central queue's RAM ports in a cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RxActs {
    /// A bank write: chunk, bank, entry.
    pub write: Option<(u8, u8, Entry)>,
    /// In its control slot: takes the free list's head.
    pub pop: bool,
    /// In its control slot: links the first chunk to the second (the chunk it writes to its next held one).
    pub link: Option<(u8, u8)>,
    /// In its control slot: a new packet for its output's packet FIFO.
    pub push: Option<(u8, PktRef)>,
    /// The offer was taken (for the checks).
    pub taken: bool,
}

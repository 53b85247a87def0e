//! The packet store of the network simulator: a slab of packets in flight, each with its ASR header.
//!
//! A packet is a slot number (`u32`); buffers hold slot numbers. Each slot has the packet's identity
//! (source, destination, sequence number per source, generation cycle) and its header as hop sets in a flat
//! arena (`max_hops` words per slot) with a cursor: a switch reads the hop at the cursor and "strips" it by
//! advancing the cursor, the same operation as `Header::strip` and as the 2-bit shift of the packed Beneš
//! word. Slots are recycled through a free list, so memory is bounded by the packets inside the network.

use crate::header::Header;

/// "No packet" in a buffer.
pub const NONE: u32 = u32::MAX;

/// Identity of a packet: the scoreboard key (src, dst, seq) plus its generation cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Meta {
    /// Source processor.
    pub src: u32,
    /// Destination processor.
    pub dst: u32,
    /// Sequence number at the source.
    pub seq: u32,
    /// Cycle at which the source generated it.
    pub gen: u64,
    /// Cycle at which it entered the first switch's input buffer.
    pub entered: u64,
}

/// Slab of packets with their headers.
#[derive(Debug, Clone)]
pub struct Packets {
    max_hops: usize,
    hops: Vec<u64>,
    pos: Vec<u8>,
    len: Vec<u8>,
    meta: Vec<Meta>,
    free: Vec<u32>,
}

impl Packets {
    /// A store for headers of at most `max_hops` hops (≤ 255).
    pub fn new(max_hops: usize) -> Self {
        Packets {
            max_hops: max_hops.clamp(1, 255),
            hops: Vec::new(),
            pos: Vec::new(),
            len: Vec::new(),
            meta: Vec::new(),
            free: Vec::new(),
        }
    }

    /// The longest header a slot holds, in hops (1..=255).
    pub fn max_hops(&self) -> usize {
        self.max_hops
    }

    /// Stores a packet whose header is `hops` (must have at most `max_hops` entries).
    pub fn alloc(&mut self, meta: Meta, hops: &[u64]) -> u32 {
        assert!(
            hops.len() <= self.max_hops,
            "header longer than the store allows"
        );
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                let s = self.meta.len() as u32;
                self.meta.push(Meta::default());
                self.pos.push(0);
                self.len.push(0);
                self.hops.resize(self.hops.len() + self.max_hops, 0);
                s
            }
        };
        let i = slot as usize;
        self.meta[i] = meta;
        self.pos[i] = 0;
        self.len[i] = hops.len() as u8;
        self.hops[i * self.max_hops..i * self.max_hops + hops.len()].copy_from_slice(hops);
        slot
    }

    /// Frees a delivered packet's slot.
    pub fn free(&mut self, slot: u32) {
        self.free.push(slot);
    }

    /// The permitted set of the next switch, or 0 when the header is exhausted.
    #[inline]
    pub fn first(&self, slot: u32) -> u64 {
        let i = slot as usize;
        if self.pos[i] < self.len[i] {
            self.hops[i * self.max_hops + self.pos[i] as usize]
        } else {
            0
        }
    }

    /// Strips the first hop (a switch forwarding the packet).
    #[inline]
    pub fn strip(&mut self, slot: u32) {
        let i = slot as usize;
        self.pos[i] = (self.pos[i] + 1).min(self.len[i]);
    }

    /// The remaining header packed in `fw`-bit fields, hop 0 lowest (caller ensures it fits in 128 bits).
    /// `Err(set)` names a hop with a bit at or above `fw` (a port no switch of the network has).
    #[inline]
    pub fn pack(&self, slot: u32, fw: u32) -> Result<u128, u64> {
        let i = slot as usize;
        let s = i * self.max_hops;
        let mut x = 0u128;
        for (k, &h) in self.hops[s + self.pos[i] as usize..s + self.len[i] as usize]
            .iter()
            .enumerate()
        {
            if fw < 64 && h >> fw != 0 {
                return Err(h);
            }
            x |= (h as u128) << (k as u32 * fw);
        }
        Ok(x)
    }

    /// Hops not yet taken.
    #[inline]
    pub fn remaining(&self, slot: u32) -> usize {
        (self.len[slot as usize] - self.pos[slot as usize]) as usize
    }

    /// The identity of the packet in `slot`.
    #[inline]
    pub fn meta(&self, slot: u32) -> &Meta {
        &self.meta[slot as usize]
    }

    /// The identity of the packet in `slot`, to update (the simulator sets `entered`).
    #[inline]
    pub fn meta_mut(&mut self, slot: u32) -> &mut Meta {
        &mut self.meta[slot as usize]
    }

    /// The remaining header as a [`Header`] of `radix`-port switches (for messages and tests).
    pub fn header(&self, slot: u32, radix: u32) -> Option<Header> {
        let i = slot as usize;
        let s = i * self.max_hops;
        Header::new(
            radix,
            self.hops[s + self.pos[i] as usize..s + self.len[i] as usize].to_vec(),
        )
        .ok()
    }

    /// Slots ever allocated: the most packets stored at once.
    pub fn capacity(&self) -> usize {
        self.meta.len()
    }

    /// Packets currently stored.
    pub fn live(&self) -> usize {
        self.meta.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_strip_free() {
        let mut p = Packets::new(3);
        let a = p.alloc(Meta::default(), &[3, 1, 2]);
        assert_eq!(p.first(a), 3);
        p.strip(a);
        assert_eq!(p.first(a), 1);
        assert_eq!(p.remaining(a), 2);
        p.strip(a);
        p.strip(a);
        assert_eq!(p.first(a), 0);
        p.free(a);
        let b = p.alloc(Meta::default(), &[2]);
        assert_eq!(a, b);
        assert_eq!(p.first(b), 2);
        assert_eq!(p.live(), 1);
    }
}

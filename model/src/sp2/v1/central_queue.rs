//! The central queue of the SP2-style switch (docs/sp2-switch.md §6), cycle-accurate.
//!
//! Model twin of `hdl/src/sp2/central_queue.rs`. 128 chunks × 64 bits; per chunk a side
//! record (`last`, `bytes` 1..=8, `bad`); one FIFO linked list per output and a free list. The output lists
//! and the free list have separate next-pointer arrays, so each is a RAM with one write port.
//!
//! Per cycle: at most one write (a receiver appends a chunk to its output's list) and one read (a transmitter
//! takes the head of its list), each chosen least-recently-served. A write for output o is allowed only if
//! `free − (empty outputs other than o) ≥ 1`: one chunk stays reserved for every empty output, so a full
//! queue cannot deadlock. The read's data appear on [`CqOutputs::rd_data`] in the cycle after its grant
//! (registered RAM read). A chunk written in a cycle is readable from the next cycle on.
//!
//! Ports (per cycle): in — `wr[i]` (receiver i offers a chunk: output, data, bytes, last, bad), `rd[o]`
//! (transmitter o can take a chunk); out — `wr_grant`, `rd_grant`, `rd_data` (from last cycle's read),
//! `count[o]`, `free`. Latency: 1 cycle from read grant to data.

use crate::lrs::Lrs;
use crate::sp2::{CQ_CHUNKS, PORTS};
use thiserror::Error;

/// One chunk offered by a receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteReq {
    /// The output whose list the chunk joins.
    pub out: u8,
    /// The chunk's bytes, byte k in bits 8k..8k+8 (bytes past `bytes` are don't-care).
    pub data: u64,
    /// Valid bytes in the chunk (1..=8; less than 8 only in a packet's last chunk).
    pub bytes: u8,
    /// The packet's last chunk.
    pub last: bool,
    /// The packet failed its CRC (the transmitter will flag it).
    pub bad: bool,
}

/// A chunk as read by a transmitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadChunk {
    /// The output whose list it was taken from.
    pub out: u8,
    /// The chunk's bytes, byte k in bits 8k..8k+8.
    pub data: u64,
    /// Valid bytes in the chunk (1..=8).
    pub bytes: u8,
    /// The packet's last chunk.
    pub last: bool,
    /// The packet failed its CRC.
    pub bad: bool,
}

/// Inputs of one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CqInputs {
    /// Per receiver, the chunk it offers this cycle.
    pub wr: [Option<WriteReq>; PORTS],
    /// Per output, its transmitter can take a chunk this cycle.
    pub rd: [bool; PORTS],
}

/// Outputs of one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CqOutputs {
    /// The receiver whose chunk is written this cycle.
    pub wr_grant: Option<u8>,
    /// The output whose list head is read this cycle (its data appear next cycle).
    pub rd_grant: Option<u8>,
    /// The chunk read in the previous cycle.
    pub rd_data: Option<ReadChunk>,
    /// Chunks on each output's list at the start of the cycle.
    pub count: [u8; PORTS],
    /// Chunks on the free list at the start of the cycle.
    pub free: u8,
}

/// A broken invariant of the queue (an error, never a statistic).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CqError {
    /// A receiver offered a chunk with 0 or more than 8 valid bytes, or fewer than 8 in a chunk that is not
    /// its packet's last.
    #[error("receiver {rx} offers a chunk of {bytes} bytes")]
    BadBytes {
        /// The receiver (input port).
        rx: usize,
        /// The valid bytes it claimed.
        bytes: u8,
    },
    /// A receiver offered a chunk for an output that does not exist.
    #[error("receiver {rx} offers a chunk for output {out}")]
    BadOutput {
        /// The receiver (input port).
        rx: usize,
        /// The output it named.
        out: u8,
    },
    /// The lists are inconsistent: a chunk on two lists or on none, or a tail that is not its list's last.
    #[error("chunk accounting broken: {0}")]
    Leak(String),
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Meta {
    bytes: u8,
    last: bool,
    bad: bool,
}

/// The central queue's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CentralQueue {
    data: Vec<u64>,
    meta: Vec<Meta>,
    list_next: Vec<u8>,
    free_next: Vec<u8>,
    head: [u8; PORTS],
    tail: [u8; PORTS],
    count: [u8; PORTS],
    free_head: u8,
    free: u8,
    wr_arb: Lrs,
    rd_arb: Lrs,
    rd_reg: Option<ReadChunk>,
}

impl Default for CentralQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl CentralQueue {
    /// An empty queue: every chunk on the free list, in index order.
    pub fn new() -> Self {
        CentralQueue {
            data: vec![0; CQ_CHUNKS],
            meta: vec![Meta::default(); CQ_CHUNKS],
            list_next: vec![0; CQ_CHUNKS],
            free_next: (1..=CQ_CHUNKS as u16)
                .map(|i| (i % CQ_CHUNKS as u16) as u8)
                .collect(),
            head: [0; PORTS],
            tail: [0; PORTS],
            count: [0; PORTS],
            free_head: 0,
            free: CQ_CHUNKS as u8,
            wr_arb: Lrs::new(PORTS),
            rd_arb: Lrs::new(PORTS),
            rd_reg: None,
        }
    }

    /// Whether a write for output `o` is allowed now (the reservation rule).
    pub fn can_write(&self, o: usize) -> bool {
        let empty_others = (0..PORTS).filter(|&x| x != o && self.count[x] == 0).count();
        self.free as usize > empty_others
    }

    /// Chunks on output `o`'s list.
    pub fn count(&self, o: usize) -> u8 {
        self.count[o]
    }
    /// Chunks on the free list.
    pub fn free(&self) -> u8 {
        self.free
    }
    /// Chunks in use.
    pub fn occupancy(&self) -> usize {
        CQ_CHUNKS - self.free as usize
    }

    /// Phase 1: grants and outputs for this cycle. Changes nothing.
    pub fn eval(&self, i: &CqInputs) -> Result<CqOutputs, CqError> {
        let mut wmask = 0u64;
        for (rx, w) in i.wr.iter().enumerate() {
            if let Some(w) = w {
                if !(1..=8).contains(&w.bytes) || (!w.last && w.bytes != 8) {
                    return Err(CqError::BadBytes { rx, bytes: w.bytes });
                }
                if w.out as usize >= PORTS {
                    return Err(CqError::BadOutput { rx, out: w.out });
                }
                if self.can_write(w.out as usize) {
                    wmask |= 1 << rx;
                }
            }
        }
        let rmask = (0..PORTS)
            .filter(|&o| i.rd[o] && self.count[o] > 0)
            .fold(0u64, |m, o| m | 1 << o);
        Ok(CqOutputs {
            wr_grant: self.wr_arb.pick(wmask),
            rd_grant: self.rd_arb.pick(rmask),
            rd_data: self.rd_reg,
            count: self.count,
            free: self.free,
        })
    }

    /// Phase 2: the edge.
    pub fn commit(&mut self, i: &CqInputs, o: &CqOutputs) {
        // Read first (it uses the lists as they were), then write; the free list gets the read chunk pushed
        // after the written chunk is popped.
        let mut freed = None;
        self.rd_reg = None;
        if let Some(t) = o.rd_grant {
            let t = t as usize;
            let c = self.head[t] as usize;
            let m = self.meta[c];
            self.rd_reg = Some(ReadChunk {
                out: t as u8,
                data: self.data[c],
                bytes: m.bytes,
                last: m.last,
                bad: m.bad,
            });
            self.count[t] -= 1;
            self.head[t] = self.list_next[c];
            freed = Some(c as u8);
            self.rd_arb.served(t as u8);
        }
        if let Some(rx) = o.wr_grant {
            let w = i.wr[rx as usize].expect("granted receiver offered a chunk");
            let c = self.free_head as usize;
            self.free_head = self.free_next[c];
            self.free -= 1;
            self.data[c] = w.data;
            self.meta[c] = Meta {
                bytes: w.bytes,
                last: w.last,
                bad: w.bad,
            };
            let out = w.out as usize;
            if self.count[out] == 0 {
                self.head[out] = c as u8;
            } else {
                self.list_next[self.tail[out] as usize] = c as u8;
            }
            self.tail[out] = c as u8;
            self.count[out] += 1;
            self.wr_arb.served(rx);
        }
        if let Some(c) = freed {
            self.free_next[c as usize] = self.free_head;
            self.free_head = c;
            self.free += 1;
        }
    }

    /// One cycle: eval then commit.
    pub fn step(&mut self, i: &CqInputs) -> Result<CqOutputs, CqError> {
        let o = self.eval(i)?;
        self.commit(i, &o);
        Ok(o)
    }

    /// Checks that every chunk is on exactly one list and the counts agree.
    pub fn check(&self) -> Result<(), CqError> {
        let mut seen = [false; CQ_CHUNKS];
        let mut mark = |c: u8, what: &str| -> Result<(), CqError> {
            if std::mem::replace(&mut seen[c as usize], true) {
                return Err(CqError::Leak(format!("chunk {c} is on two lists ({what})")));
            }
            Ok(())
        };
        let mut c = self.free_head;
        for _ in 0..self.free {
            mark(c, "free")?;
            c = self.free_next[c as usize];
        }
        for o in 0..PORTS {
            let mut c = self.head[o];
            for k in 0..self.count[o] {
                mark(c, "output")?;
                if k + 1 == self.count[o] && c != self.tail[o] {
                    return Err(CqError::Leak(format!(
                        "output {o}: tail {} is not the last chunk {c}",
                        self.tail[o]
                    )));
                }
                c = self.list_next[c as usize];
            }
        }
        let n = seen.iter().filter(|&&s| s).count();
        if n != CQ_CHUNKS {
            return Err(CqError::Leak(format!(
                "{} of {CQ_CHUNKS} chunks on no list",
                CQ_CHUNKS - n
            )));
        }
        let empty = self.count.iter().filter(|&&c| c == 0).count();
        if (self.free as usize) < empty {
            return Err(CqError::Leak(format!(
                "free {} below the {empty} reserved chunks",
                self.free
            )));
        }
        Ok(())
    }
}

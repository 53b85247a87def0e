//! The v3 central queue (docs/sp2-switch.md, V3.C): 128 chunks in eight byte-sliced banks, the `next` links,
//! the free list, the eight packet FIFOs, the pipelined admission and the chunk reads.
//!
//! Model twin of the future `hdl/src/sp2/v3/central_queue.rs`. Ports per cycle: in — [`CqIn`] (the
//! receivers' admission requests, their writers' positions and this cycle's bank writes and control
//! operations, the transmitters' read requests, candidacies and reservations, the allocator's matrix);
//! out — [`CqRegs`] (the loads, the admission, the receivers in the admission pipeline, the free list's
//! head, the chunk read).
//!
//! - **Banks.** Entry k of a packet is in chunk k / 8, bank (start + k) mod 8, written by its receiver in
//!   that receiver's slot of the rotating schedule: no arbiter, no assembly register.
//! - **Control.** The receiver of the cycle's control slot (t mod 8) takes the free list's head, links the
//!   chunk it writes to it and pushes a new packet into its output's packet FIFO.
//! - **Reads.** One chunk per cycle, round robin among the transmitters that ask and can read: a
//!   transmitter between packets reads the head of its packet FIFO, inside a packet the next chunk; a chunk
//!   is read only once its writer has left it (its `next` link is then written). The chunk goes back to the
//!   free list; its entries, its successor and the packet's start bank reach the transmitter in the next
//!   cycle.
//! - **Admission**, one candidate per cycle in three stages: A picks, round robin, a receiver
//!   that asks (not in the allocator's matrix, not writing); B chooses the least-loaded permitted output (not
//!   in the matrix, not reserved by a crossbar packet that has not started); C commits if the receiver
//!   still asks the same, the output cannot be in a matrix captured in this cycle, and the packet is
//!   feasible: `free − promised − E(o) ≥ k` (E(o): the other outputs with no load, one chunk reserved for
//!   each) and the output's packet FIFO has room. A committed packet promises its k chunks.

use super::ports::{AdmReq, PktRef, RdData, RxActs};
use super::Entry;
use crate::rr::Rr;
use crate::sp2::{CHUNK, CQ_CHUNKS, PORTS};
use std::collections::VecDeque;
use thiserror::Error;

/// Packets each output's packet FIFO holds.
pub const PFIFO: usize = 16;

/// The queue's registers other blocks read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CqRegs {
    /// Outputs with chunks queued or promised (bit o).
    pub load_nz: u8,
    /// The admission of the last cycle: receiver, output.
    pub adm: Option<(u8, u8)>,
    /// Receivers in the admission pipeline or just admitted.
    pub adm_busy: u8,
    /// The free list's head.
    pub free_head: Option<u8>,
    /// The chunk read in the last cycle: transmitter, data.
    pub rd: Option<(u8, RdData)>,
}

/// What the queue reads in a cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CqIn {
    /// Per receiver, its admission request register.
    pub ask: [Option<AdmReq>; PORTS],
    /// Per receiver, the chunk it writes.
    pub wpos: [Option<u8>; PORTS],
    /// Per receiver, its bank write and control operation of this cycle.
    pub acts: [RxActs; PORTS],
    /// Transmitters asking for a chunk.
    pub rd_req: u8,
    /// Transmitters that are candidates for the allocator's next matrix.
    pub cand: u8,
    /// Transmitters reserved by a crossbar packet that has not started.
    pub xres: u8,
    /// Rows in the allocator's matrix.
    pub in_rows: u8,
    /// Columns in the allocator's matrix.
    pub in_cols: u8,
    /// The allocator may capture a matrix in this cycle.
    pub may_capture: bool,
}

/// A broken invariant.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CqError {
    /// The chunk accounting or the lists are inconsistent (the text says how).
    #[error("invariant: {0}")]
    Invariant(String),
}

/// Where a transmitter's next read is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadPtr {
    /// Between packets: the next read is the head of the packet FIFO.
    Between,
    /// Inside a packet: chunk `c` is next, written by `writer`, the packet's start bank `start`.
    At {
        /// The chunk.
        c: u8,
        /// Its writer.
        writer: u8,
        /// The packet's start bank.
        start: u8,
    },
    /// A chunk was read in the last cycle; where next is known at the next edge.
    Reading,
}

/// A receiver admitted to write a packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Writer {
    /// The output.
    pub out: u8,
    /// Chunks still to take from the free list.
    pub pops: u8,
    /// The packet is in its output's packet FIFO.
    pub pushed: bool,
}

/// The read register: what the block RAMs give one cycle after a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RdReg {
    /// The transmitter.
    pub to: u8,
    /// The data.
    pub data: RdData,
    /// The packet's end is in this chunk.
    pub end: bool,
    /// The chunk's `next` link.
    pub next: Option<u8>,
    /// The writer.
    pub writer: u8,
}

/// The queue state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CentralQueue {
    /// Per chunk, its entries by bank.
    pub banks: Vec<[Option<Entry>; CHUNK]>,
    /// Per chunk, its packet's next chunk.
    pub next: Vec<Option<u8>>,
    /// The free list.
    pub free: VecDeque<u8>,
    /// Chunks still to be taken from the free list by admitted packets (and, after reset, by the receivers'
    /// first held chunks).
    pub promised: u16,
    /// Per output: chunks queued or promised.
    pub load: [u16; PORTS],
    /// Per output: the packets queued for it.
    pub pfifo: Vec<VecDeque<PktRef>>,
    /// Per receiver: its admitted packets, oldest first (at most two: the one it writes and its look-ahead
    /// packet, admitted before the first one ends).
    pub writer: [VecDeque<Writer>; PORTS],
    /// Per transmitter: its read pointer.
    pub rp: [ReadPtr; PORTS],
    /// The read register.
    pub rd_reg: Option<RdReg>,
    /// Read arbitration.
    pub rd_arb: Rr,
    /// Admission stage A: the candidate.
    pub stage_a: Option<(u8, AdmReq)>,
    /// Admission stage B: the candidate and its output.
    pub stage_b: Option<(u8, u8, AdmReq)>,
    /// Admission arbitration.
    pub adm_arb: Rr,
    /// Its registers.
    pub regs: CqRegs,
    /// Cycles since reset (the control slot's owner is `cycle mod 8`).
    pub cycle: u64,
    /// Admissions since reset.
    pub admissions: u64,
}

impl Default for CentralQueue {
    fn default() -> Self {
        let free: VecDeque<u8> = (0..CQ_CHUNKS as u8).collect();
        CentralQueue {
            banks: vec![[None; CHUNK]; CQ_CHUNKS],
            next: vec![None; CQ_CHUNKS],
            regs: CqRegs {
                free_head: free.front().copied(),
                ..Default::default()
            },
            free,
            promised: (PORTS * super::receiver::HELD) as u16,
            load: [0; PORTS],
            pfifo: vec![VecDeque::with_capacity(PFIFO); PORTS],
            writer: std::array::from_fn(|_| VecDeque::with_capacity(2)),
            rp: [ReadPtr::Between; PORTS],
            rd_reg: None,
            rd_arb: Rr::new(PORTS),
            stage_a: None,
            stage_b: None,
            adm_arb: Rr::new(PORTS),
            cycle: 0,
            admissions: 0,
        }
    }
}

/// The least loaded output of `set` by `load` (ties to the lowest port).
pub fn least_loaded(set: u8, load: &[u16; PORTS]) -> Option<u8> {
    (0..PORTS as u8)
        .filter(|&o| set >> o & 1 == 1)
        .min_by_key(|&o| (load[o as usize], o))
}

/// Whether the chunk's entries, from bank `start` on, hold the packet's end.
pub fn holds_end(banks: &[Option<Entry>; CHUNK], start: u8) -> bool {
    (0..CHUNK).any(|j| banks[(start as usize + j) % CHUNK].is_some_and(|e| e.ends()))
}

impl CentralQueue {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Packets for output `o`: queued, or admitted and not yet pushed.
    pub fn packets_for(&self, o: usize) -> usize {
        self.pfifo[o].len()
            + self
                .writer
                .iter()
                .flatten()
                .filter(|w| w.out as usize == o && !w.pushed)
                .count()
    }

    /// Whether a packet of `chunks` chunks for output `o` can be admitted now.
    pub fn feasible(&self, o: usize, chunks: u8) -> bool {
        let empty = (0..PORTS).filter(|&x| x != o && self.load[x] == 0).count() as i32;
        let room = self.free.len() as i32 - self.promised as i32 - empty;
        room >= chunks as i32 && self.packets_for(o) < PFIFO
    }

    /// The chunk transmitter `o` would read now, if it can (its writer has left it).
    fn readable(&self, o: usize, wpos: &[Option<u8>; PORTS]) -> Option<(u8, u8, u8, Option<u8>)> {
        match self.rp[o] {
            ReadPtr::Between => {
                let p = self.pfifo[o].front()?;
                (wpos[p.writer as usize] != Some(p.first)).then_some((
                    p.first,
                    p.writer,
                    p.start,
                    Some(p.head),
                ))
            }
            ReadPtr::At { c, writer, start } => {
                (wpos[writer as usize] != Some(c)).then_some((c, writer, start, None))
            }
            ReadPtr::Reading => None,
        }
    }

    /// The transmitter that reads in this cycle: round robin among those asking that can read.
    pub fn read_pick(&self, i: &CqIn) -> Option<u8> {
        let asking = (0..PORTS).fold(0u64, |a, o| {
            a | (((i.rd_req >> o & 1 == 1 && self.readable(o, &i.wpos).is_some()) as u64) << o)
        });
        self.rd_arb.pick(asking)
    }

    /// Chunks in use (not on the free list).
    pub fn used(&self) -> usize {
        CQ_CHUNKS - self.free.len()
    }

    /// One clock edge.
    pub fn commit(&mut self, i: &CqIn) -> Result<(), CqError> {
        let bad = |s: String| Err(CqError::Invariant(s));
        // Decisions, from the state at the start of the cycle.
        let rd = self.read_pick(i);
        let mut adm = None;
        if let Some((r, o, a)) = self.stage_b {
            let (ru, ou) = (r as usize, o as usize);
            if i.ask[ru] == Some(a)
                && i.in_rows >> r & 1 == 0
                && self.writer[ru].len() < 2
                && (i.in_cols | i.xres) >> o & 1 == 0
                && !(i.may_capture && i.cand >> o & 1 == 1)
                && self.feasible(ou, a.chunks)
            {
                adm = Some((r, o, a.chunks));
            }
        }
        let stage_b = self.stage_a.and_then(|(r, a)| {
            least_loaded(a.set & !(i.in_cols | i.xres), &self.load).map(|o| (r, o, a))
        });
        let busy_now = self.regs.adm_busy;
        let mut pick_from = 0u64;
        for r in 0..PORTS {
            if i.ask[r].is_some()
                && i.in_rows >> r & 1 == 0
                && self.writer[r].len() < 2
                && busy_now >> r & 1 == 0
            {
                pick_from |= 1 << r;
            }
        }
        let stage_a = self.adm_arb.pick(pick_from).map(|r| {
            self.adm_arb.served(r);
            (r, i.ask[r as usize].expect("asking"))
        });
        // The chunk read in the last cycle: where its transmitter goes next.
        if let Some(g) = self.rd_reg {
            let o = g.to as usize;
            self.rp[o] = if g.end {
                ReadPtr::Between
            } else {
                match g.next {
                    Some(c) => ReadPtr::At {
                        c,
                        writer: g.writer,
                        start: g.data.start,
                    },
                    None => return bad(format!("output {o}: a chunk read without its link")),
                }
            };
        }
        // The read.
        self.rd_reg = None;
        if let Some(o) = rd {
            let ou = o as usize;
            let (c, writer, start, head) = self.readable(ou, &i.wpos).expect("readable");
            if self.rp[ou] == ReadPtr::Between {
                self.pfifo[ou].pop_front();
            }
            let data = RdData {
                banks: self.banks[c as usize],
                start,
                head,
            };
            self.rd_reg = Some(RdReg {
                to: o,
                data,
                end: holds_end(&data.banks, start),
                next: self.next[c as usize],
                writer,
            });
            self.rp[ou] = ReadPtr::Reading;
            self.free.push_back(c);
            if self.load[ou] == 0 {
                return bad(format!("output {o}: a chunk read with load 0"));
            }
            self.load[ou] -= 1;
            self.rd_arb.served(o);
        }
        // The receivers' bank writes and control operations.
        let owner = (self.cycle % PORTS as u64) as usize;
        for (r, a) in i.acts.iter().enumerate() {
            if let Some((c, b, e)) = a.write {
                self.banks[c as usize][b as usize] = Some(e);
            }
            if (a.pop || a.link.is_some() || a.push.is_some()) && r != owner {
                return bad(format!("receiver {r} used the control slot of {owner}"));
            }
            if a.pop {
                let Some(c) = self.free.pop_front() else {
                    return bad(format!("receiver {r} took a chunk from an empty free list"));
                };
                if self.promised == 0 {
                    return bad(format!("receiver {r} took chunk {c} without a promise"));
                }
                self.promised -= 1;
                self.next[c as usize] = None;
                if let Some(w) = self.writer[r].iter_mut().find(|w| w.pops > 0) {
                    w.pops -= 1;
                }
            }
            if let Some((p, n)) = a.link {
                self.next[p as usize] = Some(n);
            }
            if let Some((o, p)) = a.push {
                self.pfifo[o as usize].push_back(p);
                match self.writer[r].iter_mut().find(|w| !w.pushed) {
                    Some(w) if w.out == o => w.pushed = true,
                    w => return bad(format!("receiver {r} pushed for output {o} as {w:?}")),
                }
            }
            if self.writer[r]
                .front()
                .is_some_and(|w| w.pops == 0 && w.pushed)
            {
                self.writer[r].pop_front();
            }
        }
        // The admission pipeline.
        self.regs.adm = None;
        if let Some((r, o, k)) = adm {
            self.promised += k as u16;
            self.load[o as usize] += k as u16;
            self.writer[r as usize].push_back(Writer {
                out: o,
                pops: k,
                pushed: false,
            });
            self.regs.adm = Some((r, o));
            self.admissions += 1;
        }
        self.stage_b = stage_b;
        self.stage_a = stage_a;
        let mut busy = 0u8;
        for r in [
            self.stage_a.map(|x| x.0),
            self.stage_b.map(|x| x.0),
            self.regs.adm.map(|x| x.0),
        ]
        .into_iter()
        .flatten()
        {
            busy |= 1 << r;
        }
        self.regs.adm_busy = busy;
        self.regs.load_nz = (0..PORTS).fold(0, |a, o| a | (((self.load[o] != 0) as u8) << o));
        self.regs.free_head = self.free.front().copied();
        self.regs.rd = self.rd_reg.map(|g| (g.to, g.data));
        self.cycle += 1;
        Ok(())
    }

    /// Invariants, given the receivers' held chunks and the first chunks of packets not yet pushed: every
    /// chunk is on the free list, held by a receiver, or in exactly one packet chain; the free list covers
    /// the promise and one chunk for every output without load; no packet FIFO overflows.
    pub fn check(
        &self,
        held: &[u8],
        unpushed: &[PktRef],
        wpos: &[Option<u8>; PORTS],
    ) -> Result<(), CqError> {
        let bad = |s: String| Err(CqError::Invariant(s));
        let mut owner = [false; CQ_CHUNKS];
        let mut mark = |c: u8, what: &str| -> Result<(), CqError> {
            if std::mem::replace(&mut owner[c as usize], true) {
                return Err(CqError::Invariant(format!("chunk {c} twice ({what})")));
            }
            Ok(())
        };
        for &c in &self.free {
            mark(c, "free")?;
        }
        for &c in held {
            mark(c, "held")?;
        }
        let mut walk = |mut c: u8, writer: u8, start: u8| -> Result<(), CqError> {
            loop {
                mark(c, "chain")?;
                if wpos[writer as usize] == Some(c) || holds_end(&self.banks[c as usize], start) {
                    return Ok(());
                }
                match self.next[c as usize] {
                    Some(n) => c = n,
                    None => return Ok(()),
                }
            }
        };
        for o in 0..PORTS {
            if let ReadPtr::At { c, writer, start } = self.rp[o] {
                walk(c, writer, start)?;
            }
            for p in &self.pfifo[o] {
                walk(p.first, p.writer, p.start)?;
            }
        }
        if let Some(g) = self.rd_reg {
            if let (false, Some(n)) = (g.end, g.next) {
                walk(n, g.writer, g.data.start)?;
            }
        }
        for p in unpushed {
            walk(p.first, p.writer, p.start)?;
        }
        let missing: Vec<usize> = (0..CQ_CHUNKS).filter(|&c| !owner[c]).collect();
        // A chunk being written whose predecessor is not linked yet is not reached by a walk: it is its
        // writer's position.
        for c in missing {
            if !wpos.contains(&Some(c as u8)) {
                return bad(format!("chunk {c} is neither free, held nor queued"));
            }
        }
        // The deadlock-free reservation: the free list covers the promise and one chunk for every output
        // without load (the HDL's `room` register is this margin, so it is never negative).
        let empty = self.load.iter().filter(|&&l| l == 0).count();
        if self.promised as usize + empty > self.free.len() {
            return bad(format!(
                "promised {} and {empty} outputs without load with {} free",
                self.promised,
                self.free.len()
            ));
        }
        for o in 0..PORTS {
            if self.packets_for(o) > PFIFO {
                return bad(format!(
                    "output {o}: {} packets queued",
                    self.packets_for(o)
                ));
            }
        }
        Ok(())
    }
}

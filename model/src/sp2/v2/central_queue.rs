//! The v2 central queue (docs/sp2-switch.md, v2 §C): 128 chunks of 8 bytes, **per-packet chunk chains**, a
//! FIFO of packets per output, whole-packet admission with one chunk reserved per empty output, one write and
//! one read per cycle, each least recently served.
//!
//! Model twin of `hdl/src/sp2/v2/central_queue.rs`.
//!
//! Per cycle, inputs: per receiver an admission request ([`AdmReq`]: its permitted outputs and the packet's
//! size in chunks) and a ready chunk ([`Chunk`]); per transmitter whether it has room for a chunk. Outputs:
//! the admission (receiver and chosen output), the write grant (receiver), the read grant (transmitter), the
//! chunk read in the previous cycle (registered: block-RAM read), and per output its load (chunks queued or
//! promised). Two-phase: [`CentralQueue::eval`] decides from the state at the start of the cycle,
//! [`CentralQueue::commit`] applies the decisions at the edge.
//!
//! Rules:
//! - **Admission** (at most one per cycle), decided on the requests *registered at the last edge*: each cycle
//!   a receiver presents the request it asks with or is about to ask with (`CqIn::adm`: its permitted outputs
//!   and size, announced from the cycle its route byte is known) and whether it asks now (`CqIn::ask`). The
//!   arbiter picks, LRS, among the receivers whose request of the previous cycle is feasible now and that
//!   write no packet; the admission stands if that receiver asks in this cycle, else it is cancelled (no
//!   admission in this cycle; the LRS order advances anyway). A receiver must ask with the request it
//!   presented in the previous cycle, if it presented one (an error otherwise). So no path runs from this
//!   cycle's requests through the arbitration, and a receiver that announces its request a cycle before it
//!   asks is admitted in its first cycle of asking. A receiver's output is the least loaded of its permitted outputs by the loads of the previous cycle (ties
//!   to the lowest port); a packet of k chunks for output o is feasible iff `free − promised − E(o) ≥ k` and
//!   o's packet FIFO has room, E(o) = the outputs other than o with load 0 (one chunk stays reserved for each
//!   empty output), and o's packet FIFO has room for it besides the packets already admitted for o whose
//!   first chunk is not written yet. Admission promises k chunks: `promised += k`, `load[o] += k`, and the
//!   receiver becomes o's writer — taken into the state at the end of the *next* cycle (the decision is
//!   registered, `adm_pend`), in which no admission is decided and the admitted receiver neither asks nor
//!   writes; so no path runs from the arbitration into the loads and the room count.
//! - **Write** (one per cycle, LRS among receivers with a ready chunk of an admitted packet): the chunk takes
//!   the head of the free FIFO; a packet's first chunk joins its output's packet FIFO, a later one is linked
//!   from the packet's previous chunk, or, when a transmitter has already read that chunk and awaits this
//!   writer's next one, handed to that transmitter directly (no link is stored: the previous chunk is free
//!   again and may already belong to another packet). `promised −= 1`.
//! - **Read** (one per cycle, LRS among transmitters with room and a readable chunk): a transmitter not inside
//!   a packet starts the head of its packet FIFO; inside a packet it reads the next chunk once that chunk is
//!   written (it may follow the writer: cut-through from the queue). The chunk returns to the free FIFO,
//!   `load[o] −= 1`; its data reaches the transmitter in the next cycle.

use crate::lrs::Lrs;
use std::collections::VecDeque;
use thiserror::Error;

/// Ports.
pub const N: usize = 8;
/// Chunks.
pub const CHUNKS: usize = crate::sp2::CQ_CHUNKS;
/// Packets each output's packet FIFO holds.
pub const PFIFO: usize = 16;

/// A receiver's request for admission of its packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdmReq {
    /// Permitted outputs (non-empty).
    pub set: u8,
    /// Chunks of the packet (1..=32).
    pub chunks: u8,
}

/// A chunk: up to 8 bytes (byte k at bits `[8k +: 8]`), the packet's last chunk, and the packet's CRC
/// verdict (on its last chunk).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Chunk {
    /// The bytes, byte k at bits `[8k +: 8]`.
    pub data: u64,
    /// Valid bytes (1..=8; fewer than 8 only in a packet's last chunk).
    pub bytes: u8,
    /// The packet's last chunk.
    pub last: bool,
    /// The packet failed its CRC (meaningful on the last chunk).
    pub bad: bool,
}

/// One cycle's inputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CqIn {
    /// Per receiver: the admission request it asks with, or is about to ask with (None: none).
    pub adm: [Option<AdmReq>; N],
    /// Bit r: receiver r asks for admission now (with `adm[r]`).
    pub ask: u8,
    /// Per receiver: the ready chunk of its admitted packet, if any.
    pub wr: [Option<Chunk>; N],
    /// Per transmitter: it has room for a chunk this cycle.
    pub rd: [bool; N],
}

/// One cycle's decisions and registered outputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CqOut {
    /// The receiver admitted and its output.
    pub adm: Option<(u8, u8)>,
    /// The admission arbiter's pick (on the registered requests), standing or cancelled: its LRS order
    /// advances on it.
    pub adm_pick: Option<u8>,
    /// The receiver whose chunk is written.
    pub wr: Option<u8>,
    /// The transmitter that reads.
    pub rd: Option<u8>,
    /// The chunk read in the previous cycle, for its transmitter (registered).
    pub rd_data: Option<(u8, Chunk)>,
    /// Per output: chunks queued or promised.
    pub load: [u8; N],
}

/// A broken rule or invariant.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CqError {
    /// The receiver offers a chunk but has no admitted packet.
    #[error("receiver {0} offers a chunk without an admitted packet")]
    NotAdmitted(usize),
    /// The receiver offers a chunk after writing all the chunks its packet was admitted with.
    #[error("receiver {0} writes more chunks than its packet was admitted with")]
    TooManyChunks(usize),
    /// The receiver asks for admission while it is still an output's writer.
    #[error("receiver {0} asks for admission while writing a packet")]
    AdmWhileWriting(usize),
    /// The receiver's request has an empty set or a chunk count outside 1..=32.
    #[error("admission request of receiver {0} is malformed: {1:?}")]
    BadAdm(usize, AdmReq),
    /// The receiver asks with another request (the third field) than it presented in the previous cycle
    /// (the second).
    #[error("receiver {0} asks for admission with {2:?} after presenting {1:?}")]
    AdmChanged(usize, AdmReq, AdmReq),
    /// The receiver asks for admission without presenting a request.
    #[error("receiver {0} asks for admission without a request")]
    AskWithoutReq(usize),
    /// The chunk accounting or the lists are inconsistent (the text says how).
    #[error("invariant: {0}")]
    Invariant(String),
}

/// Where a transmitter's next read is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadPtr {
    /// Between packets: the next read starts the head of the packet FIFO.
    Between,
    /// Inside a packet: chunk c is the next to read.
    At(u8),
    /// Inside a packet: the next chunk is the next one receiver r writes (the packet's previous chunk was
    /// read before its successor was written; it is free again, so the wait is keyed by the writer).
    Await(u8),
    /// Chunk c was read in the previous cycle; its successor (or the end of the packet) is known at the next
    /// edge, from the chunk's `last` flag and `next` pointer as the block RAM gives them one cycle after the
    /// read.
    Reading(u8),
}

/// A receiver's packet being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Writer {
    /// The output the packet was admitted for.
    pub out: u8,
    /// The packet's previous chunk (None before its first write).
    pub prev: Option<u8>,
    /// Chunks still to write.
    pub left: u8,
}

/// The queue state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CentralQueue {
    /// Per chunk: its contents.
    pub data: Vec<Chunk>,
    /// Per chunk: the packet's next chunk (valid where `hasnext`).
    pub next: Vec<u8>,
    /// Per chunk: `next` is set (the successor was written and linked).
    pub hasnext: Vec<bool>,
    /// The free chunks, in the order they are taken (a FIFO).
    pub free: VecDeque<u8>,
    /// Chunks admitted packets still have to write.
    pub promised: u16,
    /// Per output: chunks queued or promised for it.
    pub load: [u16; N],
    /// Loads at the start of the previous cycle (what admission compares).
    pub load_prev: [u16; N],
    /// Per output: its packet FIFO, the first chunk of each packet written for it and not yet started.
    pub pfifo: Vec<VecDeque<u8>>,
    /// Per receiver: the packet it is admitted to write, if any.
    pub writer: [Option<Writer>; N],
    /// Per transmitter: where its next read is.
    pub rp: [ReadPtr; N],
    /// The read data register: (transmitter, chunk) read in the previous cycle.
    pub rd_reg: Option<(u8, Chunk)>,
    /// The admission requests presented in the previous cycle.
    pub adm_reg: [Option<AdmReq>; N],
    /// The admission decided in the previous cycle (receiver, output, chunks), applied to the state at the
    /// end of this cycle; no admission is decided while one is pending.
    pub adm_pend: Option<(u8, u8, u8)>,
    /// LRS order of the receivers for admission.
    pub adm_arb: Lrs,
    /// LRS order of the receivers for the write.
    pub wr_arb: Lrs,
    /// LRS order of the transmitters for the read.
    pub rd_arb: Lrs,
}

impl Default for CentralQueue {
    fn default() -> Self {
        CentralQueue {
            data: vec![Chunk::default(); CHUNKS],
            next: vec![0; CHUNKS],
            hasnext: vec![false; CHUNKS],
            free: (0..CHUNKS as u8).collect(),
            promised: 0,
            load: [0; N],
            load_prev: [0; N],
            pfifo: vec![VecDeque::new(); N],
            writer: [None; N],
            rp: [ReadPtr::Between; N],
            rd_reg: None,
            adm_reg: [None; N],
            adm_pend: None,
            adm_arb: Lrs::new(N),
            wr_arb: Lrs::new(N),
            rd_arb: Lrs::new(N),
        }
    }
}

/// The least loaded output of `set` by `load` (ties to the lowest port).
pub fn least_loaded(set: u8, load: &[u16; N]) -> Option<u8> {
    (0..N as u8)
        .filter(|&o| set >> o & 1 == 1)
        .min_by_key(|&o| (load[o as usize], o))
}

impl CentralQueue {
    /// An empty queue: every chunk free, in index order.
    pub fn new() -> Self {
        Self::default()
    }

    /// Outputs other than `o` with load 0.
    fn empty_others(&self, o: usize) -> u16 {
        (0..N).filter(|&x| x != o && self.load[x] == 0).count() as u16
    }

    /// Packets for output `o`: in its packet FIFO, or admitted with their first chunk not written yet.
    pub fn packets_for(&self, o: usize) -> usize {
        self.pfifo[o].len()
            + self
                .writer
                .iter()
                .flatten()
                .filter(|w| w.out as usize == o && w.prev.is_none())
                .count()
    }

    /// Whether a packet of `chunks` chunks for output `o` can be admitted now.
    pub fn feasible(&self, o: usize, chunks: u8) -> bool {
        let room = self.free.len() as i32 - self.promised as i32 - self.empty_others(o) as i32;
        room >= chunks as i32 && self.packets_for(o) < PFIFO
    }

    /// The receiver writing the packet whose last written chunk is `c` (none awaited by a transmitter).
    fn writer_after(&self, c: u8) -> Option<u8> {
        (0..N).find_map(|r| {
            let w = self.writer[r]?;
            (w.prev == Some(c) && !self.rp.contains(&ReadPtr::Await(r as u8))).then_some(r as u8)
        })
    }

    /// Whether transmitter `o` has a chunk to read now.
    pub fn readable(&self, o: usize) -> bool {
        match self.rp[o] {
            ReadPtr::Between => !self.pfifo[o].is_empty(),
            ReadPtr::At(_) => true,
            ReadPtr::Await(_) | ReadPtr::Reading(_) => false,
        }
    }

    /// Whether receiver `r` has an admitted packet: being written, or admitted in the previous cycle.
    pub fn admitted(&self, r: usize) -> bool {
        self.writer[r].is_some() || self.adm_pend.is_some_and(|p| p.0 as usize == r)
    }

    /// Per output (bit o): chunks queued or promised for it, or an admission for it decided and not yet
    /// taken into the state. While an output is busy the switch hands it to no new crossbar packet
    /// (docs/sp2-switch.md v2 §D, the service rule), so a queued packet is never overtaken by a newer one.
    pub fn busy(&self) -> u8 {
        let pend = self.adm_pend.map_or(0, |(_, o, _)| 1u8 << o);
        (0..N).fold(pend, |a, o| a | (((self.load[o] != 0) as u8) << o))
    }

    /// Chunks in use (written and not read).
    pub fn used(&self) -> usize {
        CHUNKS - self.free.len()
    }

    /// Phase 1.
    pub fn eval(&self, i: &CqIn) -> Result<CqOut, CqError> {
        let mut o = CqOut {
            rd_data: self.rd_reg,
            load: self.load.map(|x| x.min(255) as u8),
            ..Default::default()
        };
        let mut asking = 0u64;
        let mut choice = [0u8; N];
        for r in 0..N {
            if i.ask >> r & 1 == 0 {
                continue;
            }
            let Some(a) = i.adm[r] else {
                return Err(CqError::AskWithoutReq(r));
            };
            if a.set == 0 || a.chunks == 0 || a.chunks > 32 {
                return Err(CqError::BadAdm(r, a));
            }
            if self.admitted(r) {
                return Err(CqError::AdmWhileWriting(r));
            }
            if let Some(b) = self.adm_reg[r] {
                if b != a {
                    return Err(CqError::AdmChanged(r, b, a));
                }
            }
        }
        for r in 0..N {
            let Some(a) = self.adm_reg[r] else { continue };
            if self.adm_pend.is_some() || self.writer[r].is_some() || a.set == 0 {
                continue;
            }
            let out = least_loaded(a.set, &self.load_prev).expect("non-empty set");
            if self.feasible(out as usize, a.chunks) {
                asking |= 1 << r;
                choice[r] = out;
            }
        }
        o.adm_pick = self.adm_arb.pick(asking);
        o.adm = o
            .adm_pick
            .filter(|&r| i.ask >> r & 1 == 1)
            .map(|r| (r, choice[r as usize]));
        let mut writing = 0u64;
        for r in 0..N {
            if i.wr[r].is_some() {
                match self.writer[r] {
                    None => return Err(CqError::NotAdmitted(r)),
                    Some(w) if w.left == 0 => return Err(CqError::TooManyChunks(r)),
                    Some(_) => writing |= 1 << r,
                }
            }
        }
        // Last chunks first: a receiver whose packet's last chunk waits may take its next packet.
        let urgent = (0..N).fold(0u64, |a, r| {
            a | ((i.wr[r].is_some_and(|c| c.last) as u64) << r)
        });
        o.wr = self.wr_arb.pick(if urgent != 0 { urgent } else { writing });
        let reading = (0..N).fold(0u64, |a, t| {
            a | (((i.rd[t] && self.readable(t)) as u64) << t)
        });
        o.rd = self.rd_arb.pick(reading);
        Ok(o)
    }

    /// Phase 2: the edge.
    pub fn commit(&mut self, i: &CqIn, o: &CqOut) {
        self.load_prev = self.load;
        // The chunk read in the previous cycle (its data in `rd_reg`): the end of its packet, or its successor
        // if written by now (else the next write of the packet's writer is awaited).
        if let Some((t, ch)) = self.rd_reg {
            if let ReadPtr::Reading(c) = self.rp[t as usize] {
                self.rp[t as usize] = if ch.last {
                    ReadPtr::Between
                } else if self.hasnext[c as usize] {
                    ReadPtr::At(self.next[c as usize])
                } else {
                    ReadPtr::Await(
                        self.writer_after(c)
                            .expect("an unfinished packet has a writer"),
                    )
                };
            }
        }
        // Write.
        let mut wrote: Option<(u8, u8)> = None;
        if let Some(r) = o.wr {
            let r = r as usize;
            let ch = i.wr[r].expect("granted writer offers a chunk");
            let c = self
                .free
                .pop_front()
                .expect("admission keeps a chunk for every promise");
            let w = self.writer[r].as_mut().expect("granted writer is admitted");
            self.data[c as usize] = ch;
            self.hasnext[c as usize] = false;
            match w.prev {
                None => self.pfifo[w.out as usize].push_back(c),
                Some(p) => {
                    if self.rp.contains(&ReadPtr::Await(r as u8)) {
                        wrote = Some((c, r as u8));
                    } else {
                        self.next[p as usize] = c;
                        self.hasnext[p as usize] = true;
                    }
                }
            }
            w.prev = Some(c);
            w.left -= 1;
            self.promised -= 1;
            if ch.last {
                self.writer[r] = None;
            }
            self.wr_arb.served(r as u8);
        }
        // Read.
        self.rd_reg = None;
        if let Some(t) = o.rd {
            let t = t as usize;
            let c = match self.rp[t] {
                ReadPtr::Between => self.pfifo[t].pop_front().expect("readable"),
                ReadPtr::At(c) => c,
                ReadPtr::Await(_) | ReadPtr::Reading(_) => unreachable!("not readable"),
            };
            let ch = self.data[c as usize];
            self.rd_reg = Some((t as u8, ch));
            self.rp[t] = ReadPtr::Reading(c);
            self.free.push_back(c);
            self.load[t] -= 1;
            self.rd_arb.served(t as u8);
        }
        // A transmitter awaiting the writer's next chunk takes the new chunk.
        if let Some((c, r)) = wrote {
            for rp in self.rp.iter_mut() {
                if *rp == ReadPtr::Await(r) {
                    *rp = ReadPtr::At(c);
                }
            }
        }
        // Admission: the one decided in the previous cycle takes effect.
        if let Some((r, out, k)) = self.adm_pend.take() {
            self.promised += k as u16;
            self.load[out as usize] += k as u16;
            self.writer[r as usize] = Some(Writer {
                out,
                prev: None,
                left: k,
            });
        }
        self.adm_pend = o.adm.map(|(r, out)| {
            let k = i.adm[r as usize].expect("admitted receiver asked").chunks;
            (r, out, k)
        });
        if let Some(r) = o.adm_pick {
            self.adm_arb.served(r);
        }
        self.adm_reg = i.adm;
    }

    /// One cycle.
    pub fn step(&mut self, i: &CqIn) -> Result<CqOut, CqError> {
        let o = self.eval(i)?;
        self.commit(i, &o);
        Ok(o)
    }

    /// Invariants: every chunk is free or in exactly one packet chain; the loads and the promise add up.
    pub fn check(&self) -> Result<(), CqError> {
        let bad = |s: String| Err(CqError::Invariant(s));
        let mut owner = vec![false; CHUNKS];
        for &c in &self.free {
            if std::mem::replace(&mut owner[c as usize], true) {
                return bad(format!("chunk {c} twice on the free FIFO"));
            }
        }
        // Chains: from every transmitter's read pointer and every packet FIFO entry.
        let mut queued = [0u16; N];
        let mut walk = |start: u8, o: usize, owner: &mut Vec<bool>| -> Result<(), CqError> {
            let mut c = start;
            loop {
                if std::mem::replace(&mut owner[c as usize], true) {
                    return Err(CqError::Invariant(format!("chunk {c} in two places")));
                }
                queued[o] += 1;
                if self.data[c as usize].last || !self.hasnext[c as usize] {
                    return Ok(());
                }
                c = self.next[c as usize];
            }
        };
        for o in 0..N {
            match self.rp[o] {
                ReadPtr::At(c) => walk(c, o, &mut owner)?,
                ReadPtr::Reading(c) if !self.data[c as usize].last && self.hasnext[c as usize] => {
                    walk(self.next[c as usize], o, &mut owner)?
                }
                _ => {}
            }
            for &c in &self.pfifo[o] {
                walk(c, o, &mut owner)?;
            }
        }
        for o in 0..N {
            if self.packets_for(o) > PFIFO {
                return bad(format!(
                    "output {o}: {} packets for a FIFO of {PFIFO}",
                    self.packets_for(o)
                ));
            }
        }
        for r in 0..N {
            let awaiting = self
                .rp
                .iter()
                .filter(|&&p| p == ReadPtr::Await(r as u8))
                .count();
            if awaiting > 1 || (awaiting == 1 && self.writer[r].is_none_or(|w| w.prev.is_none())) {
                return bad(format!("receiver {r} awaited by {awaiting} transmitters"));
            }
        }
        let promised: u16 = self.writer.iter().flatten().map(|w| w.left as u16).sum();
        if promised != self.promised {
            return bad(format!(
                "promised {} but writers need {promised}",
                self.promised
            ));
        }
        for o in 0..N {
            let p: u16 = self
                .writer
                .iter()
                .flatten()
                .filter(|w| w.out as usize == o)
                .map(|w| w.left as u16)
                .sum();
            if self.load[o] != queued[o] + p {
                return bad(format!(
                    "output {o}: load {} but {} queued and {p} promised",
                    self.load[o], queued[o]
                ));
            }
        }
        if owner.iter().any(|&x| !x) {
            return bad(format!(
                "{} chunks neither free nor queued",
                owner.iter().filter(|&&x| !x).count()
            ));
        }
        if self.promised as usize > self.free.len() {
            return bad(format!(
                "promised {} with {} free",
                self.promised,
                self.free.len()
            ));
        }
        Ok(())
    }
}

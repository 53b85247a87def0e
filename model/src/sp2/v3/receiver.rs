//! The v3 receiver (docs/sp2-switch.md, V3.B): an arrival tracker at the pins that tags every byte it stores
//! and checks the CRC as the bytes arrive, a two-entry header FIFO (the packet being handled and the
//! look-ahead), the body FIFO, a consumer that offers entries to the crossbar or writes them into the
//! central queue's banks in its slots of the rotating schedule, and a counter of tokens owed upstream.
//!
//! Model twin of the future `hdl/src/sp2/v3/receiver.rs`. Ports per cycle: in — [`RxIn`] (the link pins and
//! the other blocks' registers); out — [`RxRegs`] (its own registers: the crossbar offer, the allocator
//! request, the admission request, the writer's position, the token) and, for the cycle, [`RxActs`] (the
//! bank write and the control operation of its slot, which go straight into the central queue's RAM ports).
//!
//! **Headers.** A packet's `LEN` and `R1` go into the header FIFO when it has room (decided at `LEN`; an
//! entry is free when fewer than two packets hold one and no packet without one waits), and are then
//! consumed at arrival (their tokens go back at once). Otherwise they are stored, tagged, in the body FIFO
//! and the consumer parses them (`Idle` → `Route` → `Wait`), as v2 handles a packet without look-ahead. A
//! packet with `LEN = 0` or `R1 = 0` is counted as a route error at arrival and its remaining bytes are
//! consumed there (an `R1 = 0` stored with its `LEN` is skipped by the consumer).
//!
//! **Crossbar.** The offer register holds one entry for one transmitter; the transmitter takes it in a cycle
//! in which it is connected to this receiver and has credit, which both read from registers, so the receiver
//! knows it is taken without a reply. In `Wait` the offer is the preload `LEN − 1`, addressed to no one: a
//! transmitter granted to this receiver while idle takes it in the grant's cycle.
//!
//! **Queue.** Entry k of a packet goes into chunk k / 8, bank (start + k) mod 8, written in the cycle the
//! receiver's slot (`(i + t) mod 8`) is that bank; entry 0 sets the start bank. A new chunk is the receiver's
//! held chunk; in its control slot the receiver takes the free list's head as its next held chunk, links the
//! chunk it writes to it (when the packet goes on past that chunk) and pushes a new packet into its output's
//! packet FIFO.

use super::ports::{AdmReq, Offer, PktRef, RxActs};
use super::{chunks_of, offers_of, stored_of, Entry, NEAR_END};
use crate::sp2::{crc8_step, CHUNK, RX_DEPTH};

/// Free chunks each receiver holds ahead: the chunk its next chunk start takes (taken from the free list in
/// its control slot). One is enough: with two, the model's saturation is the same or lower (0.882 / 0.968
/// against 0.887 / 0.968 with one), the queue having 8 chunks fewer.
pub const HELD: usize = 1;
use std::collections::VecDeque;
use thiserror::Error;

/// A protocol violation by the upstream sender, or a broken rule between the blocks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RxError {
    /// A byte arrived with the FIFO full.
    #[error("byte arrived with the receiver FIFO full (upstream ignored its credit)")]
    Overflow,
    /// The receiver was granted the crossbar and admitted to the queue in one cycle.
    #[error("granted the crossbar and admitted to the queue in the same cycle")]
    GrantAndAdmission,
    /// A grant for a receiver that does not wait for one.
    #[error("granted output {0} in state {1}")]
    StrayGrant(u8, String),
    /// An admission for a receiver that did not ask.
    #[error("admitted to the queue in state {0}")]
    StrayAdmission(String),
    /// Its control slot came with a chunk to take and the free list empty.
    #[error("its control slot found the free list empty")]
    NoFreeChunk,
    /// The FIFO's tags disagree with the consumer's state (a model error).
    #[error("FIFO entry {0:?} in state {1}")]
    Tag(Tag, String),
}

/// A byte in the body FIFO, tagged by the arrival tracker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// The `LEN` of a packet without a header entry.
    Len(u8),
    /// Its `R1` (0: the rest was dropped at arrival).
    R1(u8),
    /// A body byte (route bytes after `R1`, payload).
    Body(u8),
    /// The body's last byte and the CRC byte after it, with the packet's verdict (two bytes, two tokens).
    Last {
        /// The last body byte.
        byte: u8,
        /// The CRC did not match.
        bad: bool,
    },
    /// The CRC byte of a packet with an empty body, with the verdict.
    End {
        /// The CRC did not match.
        bad: bool,
    },
}

/// A header FIFO entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hdr {
    /// `LEN`.
    pub len: u8,
    /// `R1`, the route set.
    pub set: u8,
}

/// What the tracker expects next on the pins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// A `LEN`.
    Len,
    /// The `R1` of a packet of this `LEN`, its header to the header FIFO when `headed`.
    Route {
        /// The packet's `LEN`.
        len: u8,
        /// The header goes into the header FIFO (else into the body FIFO).
        headed: bool,
    },
    /// `n` more bytes (the CRC included), consumed at arrival when `drop`.
    Rest {
        /// Bytes left.
        n: u16,
        /// A malformed packet's bytes, dropped.
        drop: bool,
    },
}

/// The consumer's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxState {
    /// No packet.
    Idle,
    /// A packet without a header entry: its `LEN` consumed, `R1` next in the FIFO.
    Route,
    /// Requesting the crossbar or the queue.
    Wait,
    /// Offering to transmitter `out` (granted).
    Xbar {
        /// The transmitter.
        out: u8,
    },
    /// Writing into the central queue for output `out`.
    Queue {
        /// The output it was admitted for.
        out: u8,
    },
}

/// The packet the consumer handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cur {
    /// `LEN`.
    pub len: u8,
    /// `R1`.
    pub set: u8,
    /// Its header is the header FIFO's first entry.
    pub headed: bool,
    /// Entries offered or written so far.
    pub done: u16,
}

impl Cur {
    /// Offers still to make (crossbar) or entries still to write (queue).
    pub fn left(&self, queue: bool) -> u16 {
        if queue {
            stored_of(self.len) - self.done
        } else {
            offers_of(self.len) - self.done
        }
    }
}

/// The receiver's registers that other blocks read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RxRegs {
    /// The crossbar offer.
    pub offer: Option<Offer>,
    /// The allocator request: the route set of the packet waiting (or looking ahead), restricted to the
    /// transmitters that were candidates in the cycle before; 0 for none.
    pub req: u8,
    /// The admission request (never together with `req`).
    pub ask: Option<AdmReq>,
    /// Streaming with at most [`NEAR_END`] entries left (its transmitter may be granted to the next packet).
    pub near_end: bool,
    /// The chunk it writes (the central queue reads a chunk only once its writer has left it).
    pub wpos: Option<u8>,
    /// A token on the pins (one consumed byte).
    pub token: bool,
}

/// What the receiver reads in a cycle: the pins and other blocks' registers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RxIn {
    /// The link pins.
    pub pins: Option<u8>,
    /// The allocator's grant register: this receiver to that transmitter.
    pub grant: Option<u8>,
    /// Transmitters connected to this receiver (bit o).
    pub conn: u8,
    /// Transmitters idle (no packet, nothing of the queue): a grant to one takes the preload at once.
    pub tx_idle: u8,
    /// Transmitters with credit.
    pub credit_ok: u8,
    /// Transmitters that are candidates for the allocator's next matrix.
    pub cand_free: u8,
    /// The central queue's admission register: this receiver admitted, for that output.
    pub admitted: Option<u8>,
    /// This receiver is in the allocator's matrix.
    pub in_matrix: bool,
    /// This receiver is in the admission pipeline.
    pub adm_busy: bool,
    /// The bank of its slot this cycle, `(i + t) mod 8`.
    pub slot_bank: u8,
    /// Its control slot (`t mod 8 == i`).
    pub ctrl_slot: bool,
    /// The head of the central queue's free list.
    pub free_head: Option<u8>,
}

/// The receiver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receiver {
    /// Its port.
    pub port: u8,
    /// The body FIFO ([`RX_DEPTH`] entries).
    pub fifo: VecDeque<Tag>,
    /// The arrival tracker.
    pub arr: Arrival,
    /// The running CRC of the arriving packet.
    pub acrc: u8,
    /// The body's last byte, waiting for the CRC.
    pub lastb: Option<u8>,
    /// The header FIFO (two entries).
    pub hdr: VecDeque<Hdr>,
    /// Packets stored with their header in the body FIFO whose `LEN` is not consumed.
    pub unheaded: u8,
    /// The consumer.
    pub state: RxState,
    /// The packet it handles.
    pub cur: Option<Cur>,
    /// The grant for the look-ahead packet, held until the current packet ends.
    pub la_out: Option<u8>,
    /// The queue's admission of the look-ahead packet (its output), held until the current packet ends.
    pub la_adm: Option<u8>,
    /// The first entry of the current packet went into this bank.
    pub start: u8,
    /// The chunk being written.
    pub wchunk: Option<u8>,
    /// The chunk its next chunk start takes.
    pub held: VecDeque<u8>,
    /// The chunk being written links to the next held chunk (taken in its next control slot).
    pub link_pending: bool,
    /// A packet to push into its output's packet FIFO in its next control slot.
    pub push_pending: Option<(u8, PktRef)>,
    /// Tokens owed upstream.
    pub owed: u16,
    /// The registers other blocks read.
    pub regs: RxRegs,
    /// CRC errors since reset.
    pub crc_errors: u64,
    /// Route errors since reset.
    pub route_errors: u64,
}

impl Receiver {
    /// Receiver `port` after reset (its held chunk is taken in its first control slot).
    pub fn new(port: u8) -> Self {
        Receiver {
            port,
            fifo: VecDeque::with_capacity(RX_DEPTH),
            arr: Arrival::Len,
            acrc: 0,
            lastb: None,
            hdr: VecDeque::with_capacity(2),
            unheaded: 0,
            state: RxState::Idle,
            cur: None,
            la_out: None,
            la_adm: None,
            start: 0,
            wchunk: None,
            held: VecDeque::with_capacity(HELD),
            link_pending: false,
            push_pending: None,
            owed: 0,
            regs: RxRegs::default(),
            crc_errors: 0,
            route_errors: 0,
        }
    }

    /// The look-ahead packet: the header entry after the current packet's.
    pub fn lookahead(&self) -> Option<Hdr> {
        let k = self.cur.map_or(0, |c| c.headed as usize);
        self.hdr.get(k).copied()
    }

    /// The crossbar offer is taken in this cycle.
    pub fn taken(&self, i: &RxIn) -> bool {
        match self.regs.offer {
            None => false,
            Some(Offer { to: Some(o), .. }) => i.conn >> o & 1 == 1 && i.credit_ok >> o & 1 == 1,
            Some(Offer { to: None, .. }) => i
                .grant
                .is_some_and(|o| i.tx_idle >> o & 1 == 1 && i.credit_ok >> o & 1 == 1),
        }
    }

    /// Starts the next packet after the current one ended (or from `Idle`): the look-ahead packet on its
    /// held grant, a headed packet into `Wait`, or `Idle`.
    fn next_packet(&mut self) {
        self.cur = None;
        self.regs.offer = None;
        match self.hdr.front().copied() {
            Some(h) => {
                self.cur = Some(Cur {
                    len: h.len,
                    set: h.set,
                    headed: true,
                    done: 0,
                });
                self.regs.offer = Some(Offer {
                    entry: Entry::Byte(h.len - 1),
                    to: self.la_out,
                });
                self.state = match (self.la_out.take(), self.la_adm.take()) {
                    (Some(out), _) => RxState::Xbar { out },
                    (None, Some(out)) => {
                        self.regs.offer = None;
                        RxState::Queue { out }
                    }
                    (None, None) => RxState::Wait,
                };
            }
            None => {
                debug_assert!(self.la_out.is_none() && self.la_adm.is_none());
                self.state = RxState::Idle;
            }
        }
    }

    /// The current packet's crossbar offer `j` as the FIFO shows it (`None`: not there yet), and whether
    /// offering it consumes the FIFO's head.
    fn offer_entry(&self, j: u16) -> Result<Option<(Entry, bool)>, RxError> {
        let c = self.cur.expect("a packet");
        if j == 0 {
            return Ok(Some((Entry::Byte(c.len - 1), false)));
        }
        let end = j == c.len as u16;
        let last = j + 1 == c.len as u16;
        let e = match self.fifo.front().copied() {
            None => None,
            Some(Tag::Body(b)) if !end && !last => Some((Entry::Byte(b), true)),
            Some(Tag::Last { byte, .. }) if last => Some((Entry::Byte(byte), false)),
            Some(Tag::Last { bad, .. } | Tag::End { bad }) if end => {
                Some((Entry::End { bad }, true))
            }
            Some(t) => return Err(RxError::Tag(t, format!("offer {j} of LEN {}", c.len))),
        };
        Ok(e)
    }

    /// The current packet's stored entry `k` for the queue as the FIFO shows it (each consumes the head).
    fn stored_entry(&self, k: u16) -> Result<Option<Entry>, RxError> {
        let c = self.cur.expect("a packet");
        let last = k + 1 == stored_of(c.len);
        let e = match self.fifo.front().copied() {
            None => None,
            Some(Tag::Body(b)) if !last => Some(Entry::Byte(b)),
            Some(Tag::Last { byte, bad }) if last => Some(Entry::Last { byte, bad }),
            Some(Tag::End { bad }) if last && c.len == 1 => Some(Entry::End { bad }),
            Some(t) => return Err(RxError::Tag(t, format!("entry {k} of LEN {}", c.len))),
        };
        Ok(e)
    }

    /// Tokens owed for consuming the FIFO's head.
    fn head_bytes(&self) -> u16 {
        match self.fifo.front() {
            Some(Tag::Last { .. }) => 2,
            Some(_) => 1,
            None => 0,
        }
    }

    /// Bytes the FIFO holds (a last entry is two).
    pub fn fifo_bytes(&self) -> usize {
        self.fifo
            .iter()
            .map(|t| 1 + matches!(t, Tag::Last { .. }) as usize)
            .sum()
    }

    /// One clock edge: the consumer, the tracker, the registers. Returns what goes into the queue's RAMs.
    pub fn commit(&mut self, i: &RxIn) -> Result<RxActs, RxError> {
        let mut acts = RxActs {
            taken: self.taken(i),
            ..Default::default()
        };
        let mut popped = 0u16;
        // A push in this cycle's control slot only of a packet whose first entry was written before it (V3.F,
        // 2026-11-28: the push from registers alone).
        let push_old = self.push_pending.is_some();
        if i.grant.is_some() && i.admitted.is_some() {
            return Err(RxError::GrantAndAdmission);
        }
        // A packet in `Wait` admitted at this edge writes from the next cycle on (V3.F: no path from the
        // queue's admission register into the bank writes and the control operations of the same cycle).
        let admitted_now = self.state == RxState::Wait && i.admitted.is_some();
        // A grant: for the packet in `Wait`, or for the look-ahead packet.
        if let Some(o) = i.grant {
            match self.state {
                RxState::Wait => {
                    self.state = RxState::Xbar { out: o };
                    if let Some(off) = self.regs.offer.as_mut() {
                        off.to = Some(o);
                    }
                }
                RxState::Xbar { .. } | RxState::Queue { .. }
                    if self.la_out.is_none()
                        && self.la_adm.is_none()
                        && self.lookahead().is_some() =>
                {
                    self.la_out = Some(o)
                }
                s => return Err(RxError::StrayGrant(o, format!("{s:?}"))),
            }
        }
        if let Some(out) = i.admitted {
            match self.state {
                _ if i.in_matrix => {
                    return Err(RxError::StrayAdmission(format!(
                        "{:?} in a matrix",
                        self.state
                    )))
                }
                RxState::Wait => {
                    self.state = RxState::Queue { out };
                    self.regs.offer = None;
                }
                RxState::Xbar { .. } | RxState::Queue { .. }
                    if self.la_out.is_none()
                        && self.la_adm.is_none()
                        && self.lookahead().is_some() =>
                {
                    self.la_adm = Some(out)
                }
                s => return Err(RxError::StrayAdmission(format!("{s:?}"))),
            }
        }
        // The tracker first: a header pushed now lets an idle consumer start the packet at this edge.
        let mut stored: Option<Tag> = None;
        let mut absorbed = false;
        let hdr_room = self.hdr.len() < 2 && self.unheaded == 0;
        if let Some(b) = i.pins {
            self.arr = match self.arr {
                Arrival::Len => {
                    self.acrc = crc8_step(0, b);
                    if b == 0 {
                        self.route_errors += 1;
                        absorbed = true;
                        Arrival::Rest { n: 1, drop: true }
                    } else if hdr_room {
                        absorbed = true;
                        Arrival::Route {
                            len: b,
                            headed: true,
                        }
                    } else {
                        stored = Some(Tag::Len(b));
                        self.unheaded += 1;
                        Arrival::Route {
                            len: b,
                            headed: false,
                        }
                    }
                }
                Arrival::Route { len, headed } => {
                    self.acrc = crc8_step(self.acrc, b);
                    if b == 0 {
                        self.route_errors += 1;
                    }
                    if headed {
                        absorbed = true;
                        if b != 0 {
                            self.hdr.push_back(Hdr { len, set: b });
                        }
                    } else {
                        stored = Some(Tag::R1(b));
                    }
                    Arrival::Rest {
                        n: len as u16,
                        drop: b == 0,
                    }
                }
                Arrival::Rest { n, drop } => {
                    if drop {
                        absorbed = true;
                    } else if n > 2 {
                        self.acrc = crc8_step(self.acrc, b);
                        stored = Some(Tag::Body(b));
                    } else if n == 2 {
                        // The body's last byte waits here for the CRC, to be stored with its verdict.
                        self.acrc = crc8_step(self.acrc, b);
                        self.lastb = Some(b);
                    } else {
                        let bad = b != self.acrc;
                        self.crc_errors += bad as u64;
                        stored = Some(match self.lastb.take() {
                            Some(byte) => Tag::Last { byte, bad },
                            None => Tag::End { bad },
                        });
                    }
                    if n == 1 {
                        Arrival::Len
                    } else {
                        Arrival::Rest { n: n - 1, drop }
                    }
                }
            };
        }
        // The consumer.
        let mut ended = false;
        match self.state {
            RxState::Idle => match self.fifo.front().copied() {
                Some(Tag::Len(len)) => {
                    self.fifo.pop_front();
                    popped += 1;
                    self.unheaded -= 1;
                    self.cur = Some(Cur {
                        len,
                        set: 0,
                        headed: false,
                        done: 0,
                    });
                    self.state = RxState::Route;
                }
                Some(t) if self.hdr.is_empty() => {
                    return Err(RxError::Tag(t, "Idle without a header".into()))
                }
                _ => self.next_packet(),
            },
            RxState::Route => match self.fifo.front().copied() {
                Some(Tag::R1(set)) => {
                    self.fifo.pop_front();
                    popped += 1;
                    if set == 0 {
                        self.next_packet();
                    } else {
                        let c = self.cur.as_mut().expect("a packet");
                        c.set = set;
                        self.regs.offer = Some(Offer {
                            entry: Entry::Byte(c.len - 1),
                            to: None,
                        });
                        self.state = RxState::Wait;
                    }
                }
                Some(t) => return Err(RxError::Tag(t, "Route".into())),
                None => {}
            },
            RxState::Wait => {}
            RxState::Xbar { out } => {
                if acts.taken {
                    let c = self.cur.as_mut().expect("a packet");
                    let was = self.regs.offer.expect("taken").entry;
                    c.done += 1;
                    self.regs.offer = None;
                    if let Entry::End { .. } = was {
                        ended = true;
                    }
                }
                // The next offer, when the offer register is free after this edge.
                if !ended && self.regs.offer.is_none() {
                    let j = self.cur.expect("a packet").done;
                    if let Some((e, pop)) = self.offer_entry(j)? {
                        if pop {
                            popped += self.head_bytes();
                            self.fifo.pop_front();
                        }
                        self.regs.offer = Some(Offer {
                            entry: e,
                            to: Some(out),
                        });
                    }
                }
            }
            RxState::Queue { .. } if admitted_now => {}
            RxState::Queue { .. } => {
                let c = self.cur.expect("a packet");
                let k = c.done;
                let aligned = k == 0 || i.slot_bank == (self.start + (k % 8) as u8) % 8;
                // Entry 0 may go into any bank: the packet's start bank.
                let new_chunk = (k as usize).is_multiple_of(CHUNK);
                // A new chunk takes a held chunk; a new packet also waits for its predecessor's push (one
                // push per control slot).
                let ready =
                    !new_chunk || (!self.held.is_empty() && (k > 0 || self.push_pending.is_none()));
                if aligned && ready {
                    if let Some(e) = self.stored_entry(k)? {
                        popped += self.head_bytes();
                        self.fifo.pop_front();
                        if new_chunk {
                            self.wchunk = self.held.pop_front();
                            self.link_pending = (k as usize + CHUNK) < stored_of(c.len) as usize;
                        }
                        let chunk = self.wchunk.expect("a chunk being written");
                        if k == 0 {
                            self.start = i.slot_bank;
                            let out = self.writing_for();
                            self.push_pending = Some((
                                out,
                                PktRef {
                                    head: c.len - 1,
                                    first: chunk,
                                    start: self.start,
                                    writer: self.port,
                                },
                            ));
                        }
                        acts.write = Some((chunk, i.slot_bank, e));
                        self.cur.as_mut().expect("a packet").done += 1;
                        if e.ends() {
                            ended = true;
                            self.wchunk = None;
                        }
                    }
                }
            }
        }
        // The control slot: the state after this edge's write (the push: before it).
        if i.ctrl_slot {
            if self.held.len() < HELD {
                let c = i.free_head.ok_or(RxError::NoFreeChunk)?;
                acts.pop = true;
                self.held.push_back(c);
            }
            if self.link_pending {
                let from = self.wchunk.expect("a chunk being written");
                acts.link = Some((from, *self.held.front().expect("a held chunk")));
                self.link_pending = false;
            }
            if push_old {
                acts.push = self.push_pending.take();
            }
        }
        if ended {
            if self.cur.expect("a packet").headed {
                self.hdr.pop_front();
            }
            self.next_packet();
        }
        // The FIFO takes the stored byte.
        if let Some(t) = stored {
            if self.fifo_bytes() + 1 + matches!(t, Tag::Last { .. }) as usize > RX_DEPTH {
                return Err(RxError::Overflow);
            }
            self.fifo.push_back(t);
        }
        // Tokens: every byte consumed, at arrival or from the FIFO, one pulse per cycle.
        self.owed += popped + absorbed as u16;
        self.regs.token = self.owed > 0;
        self.owed -= self.regs.token as u16;
        self.set_requests(i, ended);
        Ok(acts)
    }

    /// The output the queue admitted the current packet for.
    fn writing_for(&self) -> u8 {
        match self.state {
            RxState::Queue { out } => out,
            _ => unreachable!("writing only in Queue"),
        }
    }

    /// The request registers for the next cycle, from the state after the edge; none in the cycle after a
    /// packet ended (`ended`: its last offer taken or its last entry written), so that no request depends
    /// on the end of a packet in the same cycle (V3.F: the receiver's path from a transmitter's
    /// `credit_ok` through the end of a packet and the next packet's start into the request registers).
    fn set_requests(&mut self, i: &RxIn, ended: bool) {
        let la = self.lookahead();
        let r = &mut self.regs;
        r.req = 0;
        r.ask = None;
        r.near_end = false;
        r.wpos = self.wchunk;
        if ended {
            return;
        }
        match self.state {
            RxState::Wait => {
                let c = self.cur.expect("a packet");
                let ask = Some(AdmReq {
                    set: c.set,
                    chunks: chunks_of(c.len),
                });
                if i.in_matrix || c.set & i.cand_free != 0 {
                    r.req = c.set;
                } else {
                    r.ask = ask;
                }
            }
            RxState::Xbar { .. } | RxState::Queue { .. } => {
                let q = matches!(self.state, RxState::Queue { .. });
                let left = self.cur.map_or(0, |c| c.left(q));
                r.near_end = matches!(self.state, RxState::Xbar { .. }) && left <= NEAR_END;
                if let Some(la) = la
                    .filter(|_| left <= NEAR_END && self.la_out.is_none() && self.la_adm.is_none())
                {
                    // The look-ahead packet asks as a packet in `Wait` does.
                    if i.in_matrix || la.set & i.cand_free != 0 {
                        r.req = la.set;
                    } else {
                        r.ask = Some(AdmReq {
                            set: la.set,
                            chunks: chunks_of(la.len),
                        });
                    }
                }
            }
            _ => {}
        }
    }

    /// Nothing inside: no packet, nothing stored, no token owed (the held chunk stays).
    pub fn is_idle(&self) -> bool {
        self.state == RxState::Idle
            && self.fifo.is_empty()
            && self.hdr.is_empty()
            && self.arr == Arrival::Len
            && self.owed == 0
            && self.push_pending.is_none()
            && self.wchunk.is_none()
    }
}

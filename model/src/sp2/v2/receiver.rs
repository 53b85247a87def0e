//! The v2 receiver (docs/sp2-switch.md, v2 §B): a 16-byte FIFO with a bypass, the parser, the crossbar
//! request, the queue path's chunk assembly.
//!
//! Model twin of `hdl/src/sp2/v2/receiver.rs`. The switch drives it in two phases: [`Receiver::view`] says
//! what it asks and offers this cycle (from its state and the link pins), [`Receiver::commit`] applies the
//! cycle's decisions at the edge.
//!
//! The byte the parser sees (`cur`) is the FIFO head, or the byte on the pins when the FIFO is empty; a pins
//! byte not consumed in its cycle enters the FIFO at the edge; every consumed byte returns a token the next
//! cycle (at most one byte is consumed per cycle).
//!
//! **Look-ahead.** An arrival tracker follows the packet boundaries of the bytes as they arrive on the pins.
//! While the receiver is busy with a packet, the `LEN` and `R1` of the next packet are captured as they
//! arrive ([`Receiver::la`]); once the receiver streams its packet, it requests the crossbar for the next one,
//! and a grant in the cycle its current packet ends connects the next packet at once ([`RxState::LaStart`]:
//! `LEN` and `R1` are consumed from the FIFO while the transmitter already sends `LEN − 1`). So at saturation
//! the allocator's latency hides behind the packet before, and the receiver consumes a byte every cycle.

use super::central_queue::Chunk;
use crate::sp2::{crc8_step, CHUNK, RX_DEPTH};
use std::collections::VecDeque;
use thiserror::Error;

/// A protocol violation by the upstream sender.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RxError {
    /// A byte arrived with the FIFO full.
    #[error("byte arrived with the receiver FIFO full (upstream ignored its credit)")]
    Overflow,
}

/// Parser state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxState {
    /// Expecting `LEN`.
    Idle,
    /// `LEN` taken, expecting `R1`.
    Route,
    /// Requesting the crossbar.
    Wait {
        /// The route set, `R1` (bit k = output k).
        set: u8,
    },
    /// Connected through the crossbar to a transmitter.
    Xbar {
        /// The transmitter (output port).
        out: u8,
        /// `LEN − 1` has gone to the transmitter.
        held_sent: bool,
    },
    /// Admitted to the central queue: assembling chunks.
    Queue,
    /// A malformed packet (zero `LEN` or zero `R1`) being discarded.
    Drop {
        /// Bytes still to discard, the CRC included.
        left: u16,
    },
    /// Connected to a transmitter for the looked-ahead packet: consuming its `LEN` and then its `R1` from
    /// the FIFO while the transmitter sends `LEN − 1`.
    LaStart {
        /// The transmitter (output port).
        out: u8,
        /// `LEN` is consumed; `R1` is next.
        r1: bool,
        /// `LEN − 1` has gone to the transmitter.
        held_sent: bool,
    },
}

/// What the arrival tracker expects next on the pins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// A packet's `LEN`.
    Len,
    /// Its `R1`.
    Route {
        /// The packet's `LEN` (bytes after it before the CRC).
        len: u8,
        /// This packet's header goes into the look-ahead.
        capture: bool,
    },
    /// `n` more bytes of the packet (the CRC included).
    Rest(u16),
}

/// The header of the receiver's next packet, captured on arrival.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookahead {
    /// The packet's `LEN`.
    pub len: u8,
    /// `R1`, 0 until it has arrived.
    pub set: u8,
}

/// What the receiver offers its transmitter this cycle (crossbar path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// A byte of the outgoing packet (`LEN − 1`, route bytes, payload).
    Byte(u8),
    /// The CRC byte is consumed now: the transmitter sends its own CRC, inverted if `bad`.
    End {
        /// The incoming CRC did not match.
        bad: bool,
    },
}

/// What the receiver shows in a cycle (phase 1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RxView {
    /// The byte the parser sees.
    pub cur: Option<u8>,
    /// The allocator request (route set), 0 for none.
    pub req: u8,
    /// Waiting for the crossbar (the allocator's `waiting` bit).
    pub waiting: bool,
    /// The set it waits with (for the queue-admission rule): with `chunks`, the admission request it asks
    /// with in `Wait`, presented from the `R1` cycle on (`Route`), 0 otherwise.
    pub set: u8,
    /// Past the queue deadline with an empty assembly: it may ask for admission.
    pub may_queue: bool,
    /// The packet's size in central-queue chunks for that request ([`chunks_of`] its `LEN`), 0 when `set`
    /// is 0.
    pub chunks: u8,
    /// Crossbar offer.
    pub offer: Option<Offer>,
    /// Ready chunk for the central queue.
    pub ready: Option<Chunk>,
    /// The token to the upstream sender on the pins this cycle (a byte was consumed last cycle).
    pub token: bool,
    /// The queue path or a dropped packet consumes its last byte in this cycle.
    pub ends_queue: bool,
    /// The look-ahead packet's route set (its request while the current packet streams), 0 for none.
    pub la_set: u8,
    /// Streaming with the end (the CRC) as the next byte to offer, whether or not the byte is here yet: from
    /// the registers alone (the switch's speculative "free now" of its transmitter).
    pub at_end: bool,
    /// `waiting` from the registers alone: in `Wait`, or a look-ahead packet whose predecessor's last byte is
    /// the next one to go (offered at the end, or consumed by the queue path or a drop), whether or not the
    /// byte is here and taken. The switch's allocator grants on it; a grant to a receiver that is not
    /// `waiting` after all is cancelled.
    pub wait_spec: bool,
    /// The route set of the packet `wait_spec` is for (the `Wait` state's set, or the look-ahead's), 0 when
    /// not `wait_spec`: the allocator grants a row only a column of this set, so a result computed from an
    /// earlier packet's request (still in the allocator's pipeline) never connects this one.
    pub spec_set: u8,
}

/// The decisions of a cycle that concern this receiver.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RxDecide {
    /// The link pins.
    pub pins: Option<u8>,
    /// Crossbar grant: the transmitter.
    pub grant: Option<u8>,
    /// Admitted to the queue (in the last cycle: the switch registers the queue's admission).
    pub admitted: bool,
    /// Its crossbar offer is taken.
    pub taken: bool,
    /// Its ready chunk is written.
    pub written: bool,
}

impl RxView {
    /// The receiver's packet ends in this cycle if its offer/consumption goes through (`takes`: its
    /// transmitter takes the offer): the CRC byte is consumed.
    pub fn ends(&self, takes: bool) -> bool {
        self.ends_queue || (takes && matches!(self.offer, Some(Offer::End { .. })))
    }
}

/// The receiver state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receiver {
    /// Bytes arrived and not yet consumed (at most [`RX_DEPTH`], the upstream credit).
    pub fifo: VecDeque<u8>,
    /// Where the parser is in the current packet.
    pub state: RxState,
    /// `LEN − 1`, the outgoing packet's first byte.
    pub held: u8,
    /// `LEN` of the packet being parsed.
    pub len: u8,
    /// Body bytes (after `R1`) not consumed yet.
    pub body_left: u8,
    /// CRC over `LEN`, `R1` and the body consumed so far.
    pub crc: u8,
    /// Queue path: the chunk being assembled (bytes so far) and the ready chunk.
    pub asm: Chunk,
    /// The assembly holds the held byte and bytes of an admitted packet.
    pub asm_on: bool,
    /// A complete chunk waiting to be written into the central queue.
    pub ready: Option<Chunk>,
    /// A byte was consumed last cycle: the token is on the pins now.
    pub token: bool,
    /// The arrival tracker: what it expects next on the pins.
    pub arr: Arrival,
    /// Packets whose `LEN` has arrived and has not been consumed.
    pub ahead: u8,
    /// The next packet's header, captured on arrival while this one is in progress.
    pub la: Option<Lookahead>,
    /// Packets whose CRC byte did not match, since reset.
    pub crc_errors: u64,
    /// Packets dropped for a zero `LEN` or a zero route byte, since reset.
    pub route_errors: u64,
}

impl Default for Receiver {
    fn default() -> Self {
        Receiver {
            fifo: VecDeque::with_capacity(RX_DEPTH),
            state: RxState::Idle,
            held: 0,
            len: 0,
            body_left: 0,
            crc: 0,
            asm: Chunk::default(),
            asm_on: false,
            ready: None,
            token: false,
            arr: Arrival::Len,
            ahead: 0,
            la: None,
            crc_errors: 0,
            route_errors: 0,
        }
    }
}

/// Chunks of an outgoing packet of `len` bytes (`LEN − 1`, then `LEN − 1` body bytes).
pub fn chunks_of(len: u8) -> u8 {
    (len as usize).div_ceil(CHUNK) as u8
}

impl Receiver {
    /// Phase 1: what the receiver asks and offers, given the pins.
    pub fn view(&self, pins: Option<u8>) -> RxView {
        let cur = self.fifo.front().copied().or(pins);
        let mut v = RxView {
            cur,
            token: self.token,
            ready: self.ready,
            ..Default::default()
        };
        let la_set = self.la.map_or(0, |l| l.set);
        match self.state {
            RxState::Route => {
                if let Some(r1) = cur {
                    v.req = r1;
                    // The queue-admission request announced a cycle early (the central queue decides on
                    // the requests of the previous cycle).
                    if r1 != 0 {
                        v.set = r1;
                        v.chunks = chunks_of(self.len);
                    }
                }
            }
            RxState::Wait { set } => {
                v.req = set;
                v.waiting = true;
                v.wait_spec = true;
                v.set = set;
                v.may_queue = !self.asm_on && self.ready.is_none();
                v.chunks = chunks_of(self.len);
            }
            RxState::Xbar { held_sent, .. } => {
                v.offer = if !held_sent {
                    Some(Offer::Byte(self.held))
                } else if self.body_left > 0 {
                    cur.map(Offer::Byte)
                } else {
                    cur.map(|c| Offer::End { bad: c != self.crc })
                };
                v.at_end = held_sent && self.body_left == 0;
                v.la_set = la_set;
                v.wait_spec = la_set != 0 && v.at_end;
            }
            RxState::LaStart { held_sent, .. } => {
                if !held_sent {
                    v.offer = Some(Offer::Byte(self.held));
                }
            }
            RxState::Queue => {
                v.ends_queue = cur.is_some() && self.body_left == 0 && self.ready.is_none();
                v.la_set = la_set;
                v.wait_spec = la_set != 0 && self.body_left == 0 && self.ready.is_none();
            }
            RxState::Drop { left } => {
                v.ends_queue = cur.is_some() && left == 1;
                v.la_set = la_set;
                v.wait_spec = la_set != 0 && left == 1;
            }
            RxState::Idle => {}
        }
        if v.la_set != 0 {
            v.req = v.la_set;
        }
        if v.wait_spec {
            v.spec_set = match self.state {
                RxState::Wait { set } => set,
                _ => v.la_set,
            };
        }
        v
    }

    /// Phase 2: the edge.
    pub fn commit(&mut self, v: &RxView, d: &RxDecide) -> Result<(), RxError> {
        let mut consumed = false;
        let state0 = self.state;
        let ahead0 = self.ahead;
        let mut popped_len = false;
        // The ready slot empties when written; a full assembly moves into it.
        if d.written {
            self.ready = None;
        }
        match self.state {
            RxState::Idle => {
                if let Some(b) = v.cur {
                    consumed = true;
                    self.la = None;
                    popped_len = true;
                    if b == 0 {
                        self.route_errors += 1;
                        self.state = RxState::Drop { left: 1 };
                    } else {
                        self.len = b;
                        self.held = b - 1;
                        self.crc = crc8_step(0, b);
                        self.state = RxState::Route;
                    }
                }
            }
            RxState::Route => {
                if let Some(r1) = v.cur {
                    consumed = true;
                    self.crc = crc8_step(self.crc, r1);
                    self.body_left = self.len - 1;
                    if r1 == 0 {
                        self.route_errors += 1;
                        self.state = RxState::Drop {
                            left: self.body_left as u16 + 1,
                        };
                    } else {
                        self.state = RxState::Wait { set: r1 };
                    }
                }
            }
            RxState::Wait { .. } => {
                if let Some(out) = d.grant {
                    self.state = RxState::Xbar {
                        out,
                        held_sent: false,
                    };
                } else if d.admitted {
                    self.asm = Chunk {
                        data: self.held as u64,
                        bytes: 1,
                        last: false,
                        bad: false,
                    };
                    self.asm_on = true;
                    self.state = RxState::Queue;
                    // The queue admitted the packet in the last cycle (the switch registers the admission):
                    // the first body byte goes in at once, so no cycle is lost to the register.
                    if let Some(b) = v.cur {
                        if self.body_left > 0 {
                            consumed = true;
                            self.crc = crc8_step(self.crc, b);
                            self.body_left -= 1;
                            self.asm.data |= (b as u64) << 8;
                            self.asm.bytes = 2;
                        }
                    }
                }
            }
            RxState::Xbar { out, held_sent } => {
                if d.taken {
                    match v.offer.expect("a taken offer exists") {
                        Offer::Byte(b) if !held_sent => {
                            debug_assert_eq!(b, self.held);
                            self.state = RxState::Xbar {
                                out,
                                held_sent: true,
                            };
                        }
                        Offer::Byte(b) => {
                            consumed = true;
                            self.crc = crc8_step(self.crc, b);
                            self.body_left -= 1;
                        }
                        Offer::End { bad } => {
                            consumed = true;
                            self.crc_errors += bad as u64;
                            self.state = RxState::Idle;
                        }
                    }
                }
            }
            RxState::Queue => {
                if let Some(b) = v.cur {
                    if self.body_left > 0 && self.asm.bytes < CHUNK as u8 {
                        consumed = true;
                        self.crc = crc8_step(self.crc, b);
                        self.body_left -= 1;
                        self.asm.data |= (b as u64) << (8 * self.asm.bytes);
                        self.asm.bytes += 1;
                    } else if self.body_left == 0 && v.ends_queue {
                        // The CRC byte: its verdict goes with the packet's last chunk.
                        consumed = true;
                        let bad = b != self.crc;
                        self.crc_errors += bad as u64;
                        self.ready = Some(Chunk {
                            last: true,
                            bad,
                            ..self.asm
                        });
                        self.asm_on = false;
                        self.asm = Chunk::default();
                        self.state = RxState::Idle;
                    }
                }
                // A full chunk that is not the packet's last moves to the ready slot.
                if self.asm_on
                    && self.asm.bytes == CHUNK as u8
                    && self.body_left > 0
                    && self.ready.is_none()
                {
                    self.ready = Some(self.asm);
                    self.asm = Chunk::default();
                }
            }
            RxState::Drop { left } => {
                if v.cur.is_some() {
                    consumed = true;
                    self.state = if left == 1 {
                        RxState::Idle
                    } else {
                        RxState::Drop { left: left - 1 }
                    };
                }
            }
            RxState::LaStart { out, r1, held_sent } => {
                let b = v.cur.expect("the looked-ahead header is in the FIFO");
                consumed = true;
                let held_sent = held_sent || d.taken;
                if !r1 {
                    debug_assert_eq!(b, self.len, "the looked-ahead LEN");
                    self.crc = crc8_step(0, b);
                    popped_len = true;
                    self.state = RxState::LaStart {
                        out,
                        r1: true,
                        held_sent,
                    };
                } else {
                    self.crc = crc8_step(self.crc, b);
                    self.body_left = self.len - 1;
                    self.state = RxState::Xbar { out, held_sent };
                }
            }
        }
        // The packet that ended in this cycle: a grant connects the looked-ahead packet at once.
        if self.state == RxState::Idle && v.la_set != 0 {
            if let Some(out) = d.grant {
                let la = self.la.take().expect("a look-ahead request");
                self.len = la.len;
                self.held = la.len - 1;
                self.state = RxState::LaStart {
                    out,
                    r1: false,
                    held_sent: false,
                };
            }
        }
        // The arrival tracker, on the pins byte. A packet's header is captured when the receiver is busy with
        // another packet and no other packet is waiting in the FIFO.
        let mut arrived_len = false;
        if let Some(b) = d.pins {
            self.arr = match self.arr {
                Arrival::Len => {
                    let capture =
                        b != 0 && state0 != RxState::Idle && ahead0 == 0 && self.la.is_none();
                    arrived_len = true;
                    if capture {
                        self.la = Some(Lookahead { len: b, set: 0 });
                    }
                    if b == 0 {
                        Arrival::Rest(1)
                    } else {
                        Arrival::Route { len: b, capture }
                    }
                }
                Arrival::Route { len, capture } => {
                    if capture {
                        if b == 0 {
                            self.la = None;
                        } else if let Some(l) = self.la.as_mut() {
                            l.set = b;
                        }
                    }
                    Arrival::Rest(len as u16)
                }
                Arrival::Rest(n) => {
                    if n == 1 {
                        Arrival::Len
                    } else {
                        Arrival::Rest(n - 1)
                    }
                }
            };
        }
        self.ahead = ahead0 + arrived_len as u8 - popped_len as u8;
        // FIFO: a consumed byte leaves it (or was the pins byte); a pins byte not consumed enters it.
        let from_fifo = consumed && !self.fifo.is_empty();
        if from_fifo {
            self.fifo.pop_front();
        }
        if let Some(b) = d.pins {
            if from_fifo || !consumed {
                if self.fifo.len() >= RX_DEPTH {
                    return Err(RxError::Overflow);
                }
                self.fifo.push_back(b);
            }
        }
        self.token = consumed;
        Ok(())
    }

    /// Bytes its crossbar packet still has to send (the held byte, the body, the CRC): 0 when not streaming.
    pub fn bytes_left(&self) -> usize {
        match self.state {
            RxState::Xbar { held_sent, .. } => (!held_sent) as usize + self.body_left as usize + 1,
            // Starting the looked-ahead packet: `LEN − 1`, the body of `LEN − 1` bytes, the CRC.
            RxState::LaStart { held_sent, .. } => (!held_sent) as usize + self.len as usize,
            _ => 0,
        }
    }

    /// Idle with nothing stored.
    pub fn is_idle(&self) -> bool {
        self.state == RxState::Idle && self.fifo.is_empty() && !self.asm_on && self.ready.is_none()
    }
}

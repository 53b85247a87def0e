//! The receiver of the SP2-style switch (docs/sp2-switch.md §4, §5, §8): FIFO, parser, route decoding,
//! crossbar register, chunk assembly for the central queue, CRC check, tokens.
//!
//! Model twin of `hdl/src/sp2/receiver.rs`. The switch ([`super::switch`]) drives it: the
//! receiver exposes what it wants this cycle (a crossbar request, a queue-output choice, a ready chunk) and
//! the switch applies the cycle's grants to a copy of the state (two-phase).

use super::central_queue::WriteReq;
use crate::sp2::{crc8_step, CHUNK, RX_DEPTH};
use std::collections::VecDeque;

/// A byte in the crossbar register: the byte, and for the packet's last data byte the CRC verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XbarByte {
    /// The byte for the connected transmitter.
    pub byte: u8,
    /// `Some(bad)` on the packet's last data byte.
    pub last: Option<bool>,
}

/// Parser state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxState {
    /// Expecting `LEN`.
    Len,
    /// Expecting `R1`.
    Route {
        /// Bytes after `R1` before the CRC: `LEN − 1`.
        body: u8,
    },
    /// Route decoded, waiting for a crossbar grant.
    Wait {
        /// The permitted outputs, `R1` (bit k = output k).
        set: u8,
        /// Body bytes (route bytes after R1, payload) still to read from the FIFO before the CRC.
        body: u8,
    },
    /// Connected through the crossbar to a transmitter.
    Xbar {
        /// The transmitter (output port).
        out: u8,
        /// The held first byte (`LEN − 1`) went out.
        held_sent: bool,
        /// Body bytes (route bytes after R1, payload) still to read from the FIFO before the CRC.
        body: u8,
    },
    /// Crossbar request dropped: waiting to choose a queue output.
    Choose {
        /// The permitted outputs, `R1` (bit k = output k).
        set: u8,
        /// Body bytes (route bytes after R1, payload) still to read from the FIFO before the CRC.
        body: u8,
    },
    /// Packing chunks into the central queue for one output.
    Queue {
        /// The output whose list the chunks join.
        out: u8,
        /// The held first byte (`LEN − 1`) is in a chunk.
        held_in: bool,
        /// Body bytes (route bytes after R1, payload) still to read from the FIFO before the CRC.
        body: u8,
    },
    /// Discarding a malformed packet (zero `LEN` or zero route byte).
    Drop {
        /// Bytes still to discard (the rest of the body and the CRC).
        left: u16,
    },
}

/// One receiver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receiver {
    /// Bytes received from the link and not yet parsed (at most [`RX_DEPTH`], the upstream credit).
    pub fifo: VecDeque<u8>,
    /// Where the parser is in the current packet.
    pub state: RxState,
    /// The outgoing first byte, `LEN − 1`.
    pub held: u8,
    /// CRC over the incoming LEN, R1 and body so far.
    pub crc: u8,
    /// The crossbar register (read by the connected transmitter in the next cycle).
    pub xbar: Option<XbarByte>,
    /// The bytes of the chunk being assembled for the central queue.
    pub asm: Vec<u8>,
    /// Set once that chunk is complete: (it is the packet's last, the packet is bad).
    pub asm_done: Option<(bool, bool)>,
    /// The chunk waiting for the central queue.
    pub ready: Option<WriteReq>,
    /// Tokens still to pulse upstream (one per cycle).
    pub tokens_owed: u16,
    /// Packets whose CRC byte did not match, since reset.
    pub crc_errors: u64,
    /// Packets dropped for a zero `LEN` or a zero route byte, since reset.
    pub route_errors: u64,
}

impl Default for Receiver {
    fn default() -> Self {
        Receiver {
            fifo: VecDeque::with_capacity(RX_DEPTH),
            state: RxState::Len,
            held: 0,
            crc: 0,
            xbar: None,
            asm: Vec::with_capacity(CHUNK),
            asm_done: None,
            ready: None,
            tokens_owed: 0,
            crc_errors: 0,
            route_errors: 0,
        }
    }
}

impl Receiver {
    /// The permitted set while waiting for the crossbar.
    pub fn xbar_request(&self) -> Option<u8> {
        match self.state {
            RxState::Wait { set, .. } => Some(set),
            _ => None,
        }
    }

    /// Whether the first chunk of the outgoing packet is in (the drop deadline, §5): the held byte plus
    /// min(7, body + CRC) bytes in the FIFO.
    pub fn first_chunk_in(&self) -> bool {
        match self.state {
            RxState::Wait { body, .. } => self.fifo.len() >= (CHUNK - 1).min(body as usize + 1),
            _ => false,
        }
    }

    /// Pops one byte, counting its token.
    fn pop(&mut self) -> u8 {
        self.tokens_owed += 1;
        self.fifo
            .pop_front()
            .expect("pop from an empty receiver FIFO")
    }

    /// The parser step for states that do not depend on grants (`Len`, `Route`, `Drop`); returns whether the
    /// route was decoded this cycle (the receiver then joins this cycle's crossbar matching).
    pub fn parse(&mut self) -> bool {
        match self.state {
            RxState::Len => {
                if !self.fifo.is_empty() {
                    let len = self.pop();
                    self.crc = crc8_step(0, len);
                    if len == 0 {
                        // No route byte at all: the packet is only its CRC.
                        self.route_errors += 1;
                        self.state = RxState::Drop { left: 1 };
                    } else {
                        self.held = len - 1;
                        self.state = RxState::Route { body: len - 1 };
                    }
                }
                false
            }
            RxState::Route { body } => {
                if self.fifo.is_empty() {
                    return false;
                }
                let r1 = self.pop();
                self.crc = crc8_step(self.crc, r1);
                if r1 == 0 {
                    self.route_errors += 1;
                    self.state = RxState::Drop {
                        left: body as u16 + 1,
                    };
                    false
                } else {
                    self.state = RxState::Wait { set: r1, body };
                    true
                }
            }
            RxState::Drop { left } => {
                if !self.fifo.is_empty() {
                    self.pop();
                    self.state = if left == 1 {
                        RxState::Len
                    } else {
                        RxState::Drop { left: left - 1 }
                    };
                }
                false
            }
            _ => false,
        }
    }

    /// Checks the CRC byte at the FIFO head against the running CRC; returns whether the packet is bad.
    fn take_crc(&mut self) -> bool {
        let c = self.pop();
        let bad = c != self.crc;
        if bad {
            self.crc_errors += 1;
        }
        bad
    }

    /// Crossbar path: moves at most one byte into the crossbar register when the transmitter has room.
    /// The last data byte goes only together with the CRC byte.
    pub fn feed_xbar(&mut self, room: bool) {
        self.xbar = None;
        let RxState::Xbar {
            out,
            held_sent,
            body,
        } = self.state
        else {
            return;
        };
        if !room {
            return;
        }
        if !held_sent {
            if body > 0 {
                self.xbar = Some(XbarByte {
                    byte: self.held,
                    last: None,
                });
                self.state = RxState::Xbar {
                    out,
                    held_sent: true,
                    body,
                };
            } else if !self.fifo.is_empty() {
                let bad = self.take_crc();
                self.xbar = Some(XbarByte {
                    byte: self.held,
                    last: Some(bad),
                });
                self.state = RxState::Len;
            }
        } else if body > 1 && !self.fifo.is_empty() {
            let b = self.pop();
            self.crc = crc8_step(self.crc, b);
            self.xbar = Some(XbarByte {
                byte: b,
                last: None,
            });
            self.state = RxState::Xbar {
                out,
                held_sent,
                body: body - 1,
            };
        } else if body == 1 && self.fifo.len() >= 2 {
            let b = self.pop();
            self.crc = crc8_step(self.crc, b);
            let bad = self.take_crc();
            self.xbar = Some(XbarByte {
                byte: b,
                last: Some(bad),
            });
            self.state = RxState::Len;
        }
    }

    /// Queue path: completes/moves chunks and packs at most one byte per cycle.
    pub fn feed_queue(&mut self) {
        // A complete chunk moves to the ready slot when it is free.
        if let Some((last, bad)) = self.asm_done {
            if self.ready.is_none() {
                let out = match self.state {
                    RxState::Queue { out, .. } => out,
                    _ => unreachable!("a chunk is assembled only in the Queue state"),
                };
                let mut data = 0u64;
                for (k, &b) in self.asm.iter().enumerate() {
                    data |= (b as u64) << (8 * k);
                }
                self.ready = Some(WriteReq {
                    out,
                    data,
                    bytes: self.asm.len() as u8,
                    last,
                    bad,
                });
                self.asm.clear();
                self.asm_done = None;
                if last {
                    self.state = RxState::Len;
                }
            }
            return;
        }
        let RxState::Queue { out, held_in, body } = self.state else {
            return;
        };
        if !held_in {
            self.asm.push(self.held);
            self.state = RxState::Queue {
                out,
                held_in: true,
                body,
            };
            if body == 0 {
                // The held byte is the last data byte: wait for the CRC in a later cycle.
            }
            if self.asm.len() == CHUNK {
                self.asm_done = Some((false, false));
            }
            return;
        }
        if body == 0 {
            if !self.fifo.is_empty() {
                let bad = self.take_crc();
                self.asm_done = Some((true, bad));
            }
        } else if body > 1 && !self.fifo.is_empty() {
            let b = self.pop();
            self.crc = crc8_step(self.crc, b);
            self.asm.push(b);
            self.state = RxState::Queue {
                out,
                held_in,
                body: body - 1,
            };
            if self.asm.len() == CHUNK {
                self.asm_done = Some((false, false));
            }
        } else if body == 1 && self.fifo.len() >= 2 {
            let b = self.pop();
            self.crc = crc8_step(self.crc, b);
            self.asm.push(b);
            let bad = self.take_crc();
            self.state = RxState::Queue {
                out,
                held_in,
                body: 0,
            };
            self.asm_done = Some((true, bad));
        }
    }

    /// Idle: nothing buffered, parser waiting for a packet.
    pub fn is_idle(&self) -> bool {
        self.fifo.is_empty()
            && self.state == RxState::Len
            && self.xbar.is_none()
            && self.asm.is_empty()
            && self.ready.is_none()
    }
}

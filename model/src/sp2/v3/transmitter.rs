//! The v3 transmitter (docs/sp2-switch.md, V3.E): the output register on the link pins, the credit counter,
//! the CRC it appends, the crossbar input (the connected receiver's offer register, taken whenever the
//! transmitter has credit) and one serializer for chunks read from the central queue. No output FIFO, no
//! second chunk register.
//!
//! Model twin of the future `hdl/src/sp2/v3/transmitter.rs`. Ports per cycle: in — [`TxIn`] (the grant
//! register of its column, the offer of the receiver it is connected to or granted, that receiver's
//! `near_end`, its output's queue load, the chunk read for it, the token); out — [`TxRegs`] (its source, its
//! credit bit, its candidacy for the next matrix, its crossbar reservation, its read request) and the link.
//!
//! **Held grants.** A grant to an idle transmitter connects it at once (and it takes the receiver's preload
//! `LEN − 1` in the grant's cycle when that receiver waits); a grant to a transmitter still streaming a
//! crossbar packet is held (`next_src`) and connects when that packet's end goes out.
//!
//! **The queue.** The serializer sends a chunk's entries from the packet's start bank on; an end entry sends
//! the CRC. A chunk the queue reads for it in cycle t reaches it in t + 2 (the switch's read pipeline
//! register), so it asks for the next chunk when its serializer will be at most [`TX_HOLD`] entries long by
//! the time the chunk comes ([`TX_HOLD`] entries left or fewer, or three more with the credit for them), or,
//! while it streams a crossbar packet with packets queued behind it, when the serializer is empty (that
//! chunk is sent right after the crossbar packet's end).

use super::ports::{Offer, RdData};
use super::Entry;
use crate::sp2::{crc8_step, CHUNK, RX_DEPTH};
use thiserror::Error;

/// A protocol violation by the downstream receiver, or a broken rule between the blocks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TxError {
    /// A token arrived that would raise the credit above [`RX_DEPTH`].
    #[error("token arrived with the credit already full")]
    CreditOverflow,
    /// A grant while a held grant waits, or while the queue path holds a chunk.
    #[error("granted receiver {0} while {1}")]
    StrayGrant(u8, String),
    /// A chunk arrived with the serializer still busy.
    #[error("a chunk arrived with the serializer busy")]
    SerializerBusy,
}

/// Where the crossbar bytes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TxSrc {
    /// Not connected.
    #[default]
    Idle,
    /// Connected to receiver i.
    Xbar(u8),
}

/// Entries of the previous chunk the serializer can still hold when the next chunk arrives (a byte
/// register beside the 64-bit serializer): the transmitter asks for its next chunk this many entries
/// earlier (and three more with credit for three bytes), so a read that loses an arbitration costs no idle
/// cycle on the link. 1 since 2026-11-28: 2 measured the same saturation within 0.002 bytes/port/cycle
/// (docs/sp2-switch.md V3.F) for a second hold register in each transmitter.
pub const TX_HOLD: usize = 1;

/// What a chunk read sends: `LEN − 1` for a packet's first chunk, then its entries from the packet's start
/// bank on up to the packet's last, a last byte followed by the end (the CRC).
pub fn chunk_entries(banks: &[Option<Entry>; CHUNK], start: u8, head: Option<u8>) -> Vec<Entry> {
    let mut v = Vec::with_capacity(CHUNK + 2);
    v.extend(head.map(Entry::Byte));
    for j in 0..CHUNK {
        match banks[(start as usize + j) % CHUNK].expect("a written entry") {
            Entry::Last { byte, bad } => {
                v.push(Entry::Byte(byte));
                v.push(Entry::End { bad });
                break;
            }
            e => {
                v.push(e);
                if e.ends() {
                    break;
                }
            }
        }
    }
    v
}

/// The transmitter's registers other blocks read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxRegs {
    /// Its crossbar source.
    pub src: TxSrc,
    /// Idle: not connected, nothing of the queue inside.
    pub idle: bool,
    /// Credit left (it takes an offer only then).
    pub credit_ok: bool,
    /// A candidate for the next matrix: its output has no queue load, its serializer is empty, no grant is
    /// held, and it is idle or streaming a crossbar packet near its end.
    pub cand: bool,
    /// Reserved for a crossbar packet that has not started (a held grant, or connected and waiting): the
    /// queue admits no packet for it.
    pub xres: bool,
    /// Asks the central queue for a chunk.
    pub rd_req: bool,
    /// A candidate, or about to be one: not connected, no grant held, no queue load (its serializer may
    /// still drain). A receiver whose set holds such an output waits for the crossbar, and the queue
    /// admits no packet for it.
    pub soon: bool,
}

impl Default for TxRegs {
    fn default() -> Self {
        TxRegs {
            src: TxSrc::Idle,
            idle: true,
            credit_ok: true,
            cand: true,
            xres: false,
            rd_req: false,
            soon: true,
        }
    }
}

/// What the transmitter reads in a cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TxIn {
    /// The allocator's grant register for this column.
    pub grant: Option<u8>,
    /// The offer of its connected receiver, or (when idle) of the granted receiver.
    pub offer: Option<Offer>,
    /// Its connected receiver is near its packet's end.
    pub near_end: bool,
    /// Its output has chunks queued or promised.
    pub load_nz: bool,
    /// The chunk read for it in the last cycle.
    pub rd: Option<RdData>,
    /// The downstream token.
    pub token: bool,
}

/// The transmitter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmitter {
    /// Its port.
    pub port: u8,
    /// Bytes it may send before a token returns.
    pub credit: u8,
    /// The output register (the link pins).
    pub out_reg: Option<u8>,
    /// The connected receiver's first entry has been taken.
    pub started: bool,
    /// A grant held while the current crossbar packet streams.
    pub next_src: Option<u8>,
    /// The CRC of the bytes sent of the current packet.
    pub crc: u8,
    /// The serializer and the entries it holds beside it: what it has still to send from the queue.
    pub ser: std::collections::VecDeque<Entry>,
    /// Its registers.
    pub regs: TxRegs,
    /// Packets sent from the crossbar.
    pub packets_xbar: u64,
    /// Packets sent from the queue.
    pub packets_queue: u64,
}

impl Transmitter {
    /// Transmitter `port` after reset.
    pub fn new(port: u8) -> Self {
        Transmitter {
            port,
            credit: RX_DEPTH as u8,
            out_reg: None,
            started: false,
            next_src: None,
            crc: 0,
            ser: std::collections::VecDeque::with_capacity(CHUNK + TX_HOLD),
            regs: TxRegs::default(),
            packets_xbar: 0,
            packets_queue: 0,
        }
    }

    /// Whether it takes the offer `i.offer` in this cycle (the receiver computes the same from registers).
    pub fn takes(&self, i: &TxIn) -> bool {
        let Some(off) = i.offer else { return false };
        if self.credit == 0 {
            return false;
        }
        match self.regs.src {
            TxSrc::Xbar(_) => off.to == Some(self.port),
            TxSrc::Idle => i.grant.is_some() && self.regs.idle && off.to.is_none(),
        }
    }

    fn send(&mut self, e: Entry) -> Option<u8> {
        match e {
            Entry::Byte(b) => {
                self.crc = crc8_step(self.crc, b);
                Some(b)
            }
            Entry::Last { .. } => unreachable!("a last entry is sent as its byte and the end"),
            Entry::End { bad } => {
                let c = self.crc ^ if bad { 0xff } else { 0 };
                self.crc = 0;
                Some(c)
            }
        }
    }

    /// One clock edge.
    pub fn commit(&mut self, i: &TxIn) -> Result<(), TxError> {
        let mut sent = None;
        let mut src = self.regs.src;
        let mut preload = false;
        if self.takes(i) {
            let e = i.offer.expect("taken").entry;
            if src == TxSrc::Idle {
                src = TxSrc::Xbar(i.grant.expect("a grant"));
                preload = true;
            }
            self.started = true;
            sent = self.send(e);
            if let Entry::End { .. } = e {
                self.packets_xbar += 1;
                self.started = false;
                src = self.next_src.take().map_or(TxSrc::Idle, TxSrc::Xbar);
            }
        } else if src == TxSrc::Idle && self.credit > 0 {
            if let Some(e) = self.ser.pop_front() {
                let end = matches!(e, Entry::End { .. });
                sent = self.send(e);
                if end {
                    self.packets_queue += 1;
                }
            }
        }
        if let Some(g) = i.grant {
            match src {
                _ if preload => {}
                _ if !self.ser.is_empty() => {
                    return Err(TxError::StrayGrant(
                        g,
                        "the serializer holds a chunk".into(),
                    ))
                }
                TxSrc::Idle => src = TxSrc::Xbar(g),
                TxSrc::Xbar(_) if self.next_src.is_none() => self.next_src = Some(g),
                TxSrc::Xbar(x) => {
                    return Err(TxError::StrayGrant(
                        g,
                        format!("connected to {x} with {:?} held", self.next_src),
                    ))
                }
            }
            // A grant that took the preload at once has connected above; one to a transmitter that is idle
            // and did not take it (the receiver streams another packet, or no credit) connects and waits.
        }
        if let Some(rd) = i.rd {
            if self.ser.len() > TX_HOLD {
                return Err(TxError::SerializerBusy);
            }
            self.ser.extend(chunk_entries(&rd.banks, rd.start, rd.head));
        }
        self.out_reg = sent;
        if sent.is_some() {
            self.credit -= 1;
        }
        if i.token {
            if self.credit as usize >= RX_DEPTH {
                return Err(TxError::CreditOverflow);
            }
            self.credit += 1;
        }
        let n = self.ser.len();
        let cand = !i.load_nz
            && self.ser.is_empty()
            && self.next_src.is_none()
            && match src {
                TxSrc::Idle => true,
                TxSrc::Xbar(_) => self.started && i.near_end,
            };
        self.regs = TxRegs {
            src,
            idle: src == TxSrc::Idle && self.ser.is_empty(),
            credit_ok: self.credit > 0,
            cand,
            soon: cand || (!i.load_nz && src == TxSrc::Idle && self.next_src.is_none()),
            xres: self.next_src.is_some() || (matches!(src, TxSrc::Xbar(_)) && !self.started),
            rd_req: match src {
                TxSrc::Idle => n <= TX_HOLD || (n <= TX_HOLD + 3 && self.credit >= 3),
                TxSrc::Xbar(_) => n == 0,
            },
        };
        Ok(())
    }

    /// Nothing inside: not connected, nothing held, the serializer empty, the link idle.
    pub fn is_idle(&self) -> bool {
        self.regs.src == TxSrc::Idle
            && self.next_src.is_none()
            && self.ser.is_empty()
            && self.out_reg.is_none()
    }
}

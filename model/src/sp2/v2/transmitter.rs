//! The v2 transmitter (docs/sp2-switch.md, v2 §D): the output register, the link credit, the crossbar source
//! and the central-queue source (a serializer and a prefetch register, so a queued packet leaves at one byte
//! per cycle), the CRC it appends. No output FIFO.
//!
//! Model twin of `hdl/src/sp2/v2/transmitter.rs`. Two phases: [`Transmitter::view`] (from the state: the
//! output register, whether it is free for the crossbar, whether it wants a chunk, whether it takes its
//! receiver's byte), [`Transmitter::commit`] (the edge).

use super::central_queue::Chunk;
use super::receiver::Offer;
use crate::sp2::{crc8_step, RX_DEPTH};
use thiserror::Error;

/// A protocol violation by the downstream receiver.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TxError {
    /// A token arrived that would raise the credit above [`RX_DEPTH`].
    #[error("token arrived with the credit already full")]
    CreditOverflow,
}

/// Where the bytes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxSrc {
    /// No packet in progress.
    Idle,
    /// The crossbar, from receiver i.
    Xbar(u8),
    /// The central queue.
    Queue,
}

/// What the transmitter shows in a cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TxView {
    /// The output register, on the link pins.
    pub link: Option<u8>,
    /// Free for the crossbar (with its output's queue load 0).
    pub free: bool,
    /// Wants a chunk from the queue: its prefetch register empty and no read in flight, and on the crossbar
    /// only with the serializer empty (the next queued packet's first chunk is read while the crossbar
    /// packet streams and sent right after its CRC).
    pub wants: bool,
    /// Something of the queue path is inside (with the crossbar as source: the output is busy).
    pub queued: bool,
    /// Takes its crossbar receiver's offer this cycle (has credit).
    pub takes: bool,
}

/// The decisions of a cycle that concern this transmitter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TxDecide {
    /// Crossbar grant: the receiver.
    pub grant: Option<u8>,
    /// Its crossbar receiver's offer (when it takes it).
    pub offer: Option<Offer>,
    /// Its chunk read was granted this cycle.
    pub read: bool,
    /// The chunk read for it last cycle, arriving now.
    pub chunk: Option<Chunk>,
    /// Downstream token.
    pub token: bool,
}

/// The transmitter state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmitter {
    /// Bytes it may still send before a token comes back (starts at the downstream FIFO's depth,
    /// [`RX_DEPTH`]).
    pub credit: u8,
    /// The output register: the byte on the link pins this cycle.
    pub out_reg: Option<u8>,
    /// Where the current packet's bytes come from.
    pub src: TxSrc,
    /// CRC of the current packet's bytes sent so far.
    pub crc: u8,
    /// The chunk being sent and how many of its bytes have gone.
    pub ser: Option<(Chunk, u8)>,
    /// The prefetch register: the next chunk from the queue, waiting for the serializer.
    pub pre: Option<Chunk>,
    /// A read is granted and its chunk not arrived yet.
    pub inflight: bool,
    /// The packet's last byte has gone: the CRC byte (inverted if the flag) is next.
    pub crc_due: Option<bool>,
    /// Packets sent that came through the crossbar, since reset.
    pub packets_xbar: u64,
    /// Packets sent that came through the central queue, since reset.
    pub packets_queue: u64,
}

impl Default for Transmitter {
    fn default() -> Self {
        Transmitter {
            credit: RX_DEPTH as u8,
            out_reg: None,
            src: TxSrc::Idle,
            crc: 0,
            ser: None,
            pre: None,
            inflight: false,
            crc_due: None,
            packets_xbar: 0,
            packets_queue: 0,
        }
    }
}

impl Transmitter {
    /// Nothing of the queue path inside.
    pub fn queue_empty(&self) -> bool {
        self.ser.is_none() && self.pre.is_none() && !self.inflight && self.crc_due.is_none()
    }

    /// Phase 1; `load` is the central queue's load of this output.
    pub fn view(&self, load: u8) -> TxView {
        TxView {
            link: self.out_reg,
            free: self.src == TxSrc::Idle && load == 0 && self.queue_empty(),
            wants: (!matches!(self.src, TxSrc::Xbar(_)) || self.ser.is_none())
                && self.pre.is_none()
                && !self.inflight,
            queued: !self.queue_empty(),
            takes: matches!(self.src, TxSrc::Xbar(_)) && self.credit > 0,
        }
    }

    /// Phase 2: the edge.
    pub fn commit(&mut self, d: &TxDecide) -> Result<(), TxError> {
        let mut sent = None;
        match self.src {
            TxSrc::Xbar(_) => {
                if self.credit > 0 {
                    match d.offer {
                        Some(Offer::Byte(b)) => {
                            self.crc = crc8_step(self.crc, b);
                            sent = Some(b);
                        }
                        Some(Offer::End { bad }) => {
                            sent = Some(self.crc ^ if bad { 0xff } else { 0 });
                            self.crc = 0;
                            self.src = TxSrc::Idle;
                            self.packets_xbar += 1;
                        }
                        None => {}
                    }
                }
                // The first chunk of the next queued packet, read while the crossbar packet streams, waits in
                // the serializer; at the crossbar packet's end the queue path takes over with no idle cycle.
                if let Some(c) = d.chunk {
                    self.inflight = false;
                    self.ser = Some((c, 0));
                }
                if d.read {
                    self.inflight = true;
                }
                if self.src == TxSrc::Idle && !self.queue_empty() {
                    self.src = TxSrc::Queue;
                }
            }
            TxSrc::Idle | TxSrc::Queue => {
                if self.credit > 0 {
                    if let Some(bad) = self.crc_due.take() {
                        sent = Some(self.crc ^ if bad { 0xff } else { 0 });
                        self.crc = 0;
                        self.packets_queue += 1;
                    } else if let Some((ch, k)) = self.ser {
                        let b = (ch.data >> (8 * k)) as u8;
                        self.crc = crc8_step(self.crc, b);
                        sent = Some(b);
                        if k + 1 == ch.bytes {
                            if ch.last {
                                self.crc_due = Some(ch.bad);
                            }
                            self.ser = None;
                        } else {
                            self.ser = Some((ch, k + 1));
                        }
                    }
                }
                if self.ser.is_none() {
                    self.ser = self.pre.take().map(|c| (c, 0));
                }
                if let Some(c) = d.chunk {
                    self.inflight = false;
                    if self.ser.is_none() {
                        self.ser = Some((c, 0));
                    } else {
                        self.pre = Some(c);
                    }
                }
                if d.read {
                    self.inflight = true;
                }
                self.src = if self.queue_empty() {
                    TxSrc::Idle
                } else {
                    TxSrc::Queue
                };
            }
        }
        if let Some(i) = d.grant {
            debug_assert_eq!(self.src, TxSrc::Idle);
            self.src = TxSrc::Xbar(i);
        }
        self.out_reg = sent;
        if sent.is_some() {
            self.credit -= 1;
        }
        if d.token {
            if self.credit as usize >= RX_DEPTH {
                return Err(TxError::CreditOverflow);
            }
            self.credit += 1;
        }
        Ok(())
    }

    /// No packet in progress and nothing of the queue path inside.
    pub fn is_idle(&self) -> bool {
        self.src == TxSrc::Idle && self.queue_empty()
    }
}

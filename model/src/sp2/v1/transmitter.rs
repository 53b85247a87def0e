//! The transmitter of the SP2-style switch (docs/sp2-switch.md §7, §8): source selection (crossbar or
//! central queue), serializer, CRC generation (inverted for a packet its receiver found bad), the 7-byte
//! output FIFO, the output register and the link credit counter.
//!
//! Model twin of `hdl/src/sp2/transmitter.rs`. The serializer holds up to two chunks, so a
//! packet from the queue leaves at one byte per cycle although the queue's read has a cycle of latency.

use super::central_queue::ReadChunk;
use super::receiver::XbarByte;
use crate::sp2::{crc8_step, RX_DEPTH, TX_DEPTH};
use std::collections::VecDeque;

/// Where the transmitter's current packet comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// No packet in progress.
    Idle,
    /// Connected to receiver i through the crossbar.
    Xbar(u8),
    /// Packets from the central queue.
    Queue,
}

/// Serializer capacity in bytes (two chunks).
pub const SER_BYTES: usize = 16;

/// One transmitter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmitter {
    /// Where the current packet comes from.
    pub source: Source,
    /// Bytes from the queue, with `Some(bad)` on a packet's last data byte.
    pub ser: VecDeque<(u8, Option<bool>)>,
    /// A queue read was granted last cycle: its data arrive this cycle.
    pub reading: bool,
    /// The output FIFO (at most [`TX_DEPTH`] bytes), drained into the output register within the credit.
    pub fifo: VecDeque<u8>,
    /// CRC of the bytes of the current packet sent into the FIFO so far.
    pub crc: u8,
    /// The CRC byte to put into the FIFO next.
    pub crc_pending: Option<u8>,
    /// The byte on the output pins this cycle.
    pub out_reg: Option<u8>,
    /// Credit for the downstream receiver's FIFO.
    pub credit: u16,
    /// Packets sent that came through the crossbar, since reset.
    pub packets_xbar: u64,
    /// Packets sent that came through the central queue, since reset.
    pub packets_queue: u64,
}

impl Default for Transmitter {
    fn default() -> Self {
        Transmitter {
            source: Source::Idle,
            ser: VecDeque::with_capacity(SER_BYTES),
            reading: false,
            fifo: VecDeque::with_capacity(TX_DEPTH),
            crc: 0,
            crc_pending: None,
            out_reg: None,
            credit: RX_DEPTH as u16,
            packets_xbar: 0,
            packets_queue: 0,
        }
    }
}

impl Transmitter {
    /// Free for a crossbar packet (given the number of chunks queued for it).
    pub fn free_for_xbar(&self, queued: u8) -> bool {
        self.source == Source::Idle
            && queued == 0
            && self.ser.is_empty()
            && !self.reading
            && self.crc_pending.is_none()
    }

    /// Room for a byte from the crossbar register (the receiver's check: FIFO + register < 7).
    pub fn xbar_room(&self, reg_full: bool) -> bool {
        self.fifo.len() + (reg_full as usize) < TX_DEPTH
    }

    /// Wants a chunk from the queue this cycle.
    pub fn wants_chunk(&self, queued: u8) -> bool {
        queued > 0
            && !matches!(self.source, Source::Xbar(_))
            && !self.reading
            && self.ser.len() <= SER_BYTES - 8
            && self.crc_pending.is_none()
    }

    fn push_data(&mut self, byte: u8, last: Option<bool>) {
        self.fifo.push_back(byte);
        self.crc = crc8_step(self.crc, byte);
        if let Some(bad) = last {
            self.crc_pending = Some(if bad { self.crc ^ 0xFF } else { self.crc });
        }
    }

    /// One cycle: `xbar` is the connected receiver's crossbar register (from the previous cycle), `chunk`
    /// the queue's read data, `token` the downstream token.
    pub fn cycle(&mut self, xbar: Option<XbarByte>, chunk: Option<ReadChunk>, token: bool) {
        let had_room = self.fifo.len() < TX_DEPTH;
        // Output register from the FIFO's head (as it was at the start of the cycle).
        let sent = if self.credit > 0 {
            self.fifo.pop_front()
        } else {
            None
        };
        if sent.is_some() {
            self.credit -= 1;
        }
        self.out_reg = sent;
        if token {
            self.credit += 1;
        }
        // Into the FIFO: at most one byte.
        if let Some(c) = self.crc_pending {
            if had_room {
                self.fifo.push_back(c);
                self.crc_pending = None;
                self.crc = 0;
                if let Source::Xbar(_) = self.source {
                    self.source = Source::Idle;
                } else if self.ser.is_empty() && !self.reading {
                    self.source = Source::Idle;
                }
            }
        } else if let Source::Xbar(_) = self.source {
            if let Some(x) = xbar {
                self.push_data(x.byte, x.last);
                if x.last.is_some() {
                    self.packets_xbar += 1;
                }
            }
        } else if had_room {
            if let Some((b, last)) = self.ser.pop_front() {
                self.push_data(b, last);
                if last.is_some() {
                    self.packets_queue += 1;
                }
            }
        }
        if let Some(c) = chunk {
            self.reading = false;
            self.source = Source::Queue;
            for k in 0..c.bytes as usize {
                let last = (c.last && k + 1 == c.bytes as usize).then_some(c.bad);
                self.ser.push_back(((c.data >> (8 * k)) as u8, last));
            }
        }
    }

    /// Nothing in progress, buffered or on the output pins.
    pub fn is_idle(&self) -> bool {
        self.source == Source::Idle
            && self.ser.is_empty()
            && !self.reading
            && self.fifo.is_empty()
            && self.crc_pending.is_none()
            && self.out_reg.is_none()
    }
}

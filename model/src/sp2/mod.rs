//! The SP2-style 8×8 ASR switch (thesis §4.2.1, `docs/sp2-switch.md`): parameters, the packet format with
//! its CRC-8, and the switch's blocks.
//!
//! - [`central_queue`]: 128 chunks × 64 bits, one linked list per output, a free list, one chunk reserved per
//!   empty output, one write and one read per cycle, both least-recently-served.
//! - [`receiver`], [`transmitter`]: the port blocks.
//! - [`switch`]: the whole switch, cycle-accurate.
//! - [`network`]: switches wired as a topology (the 16-node board and the larger systems);
//!   [`system`]: a network with processors, traffic, ASR or single-path route tables and a scoreboard.

pub mod central_queue;
pub mod experiment;
pub mod network;
pub mod node;
pub mod receiver;
pub mod scoreboard;
pub mod stimulus;
pub mod switch;
pub mod system;
pub mod transmitter;
pub mod v2;

use crate::header::{Header, HeaderError};

/// Ports of the switch.
pub const PORTS: usize = 8;
/// Bytes in a central-queue chunk.
pub const CHUNK: usize = 8;
/// Chunks in the central queue.
pub const CQ_CHUNKS: usize = 128;
/// Receiver FIFO depth in bytes (and the upstream sender's initial credit).
pub const RX_DEPTH: usize = 16;
/// Transmitter output FIFO depth in bytes.
pub const TX_DEPTH: usize = 7;
/// Passes of the matching heuristic in the crossbar allocator.
pub const PASSES: usize = 2;

/// What the experiments and networks need of a switch model, so they run v1 ([`switch::Sp2Switch`]) and v2
/// ([`v2::switch::Sp2SwitchV2`]) alike.
pub trait SwitchModel: Default + Clone + Send {
    /// One clock cycle: the pins in, what the switch drove during the cycle out.
    fn step_pins(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<switch::Sp2Outputs, String>;
    /// Central-queue chunks in use.
    fn queue_chunks(&self) -> usize;
    /// The central queue's invariants.
    fn check_queue(&self) -> Result<(), String>;
    /// Nothing inside (and the free list full).
    fn idle(&self) -> bool;
    /// Packets sent so far through the central queue and through the crossbar.
    fn packets_via(&self) -> (u64, u64);
    /// What the switch drives this cycle, from its registers (links are direct wires between switches).
    fn outputs(&self) -> switch::Sp2Outputs;
    /// Transmitter `p`'s credit (bytes it may still send downstream).
    fn tx_credit(&self, p: usize) -> u16;
    /// Whether a cycle with no byte and no token arriving would leave the state unchanged, so a network may
    /// skip it ([`Self::skip_cycle`]); `false` is always correct, only slower.
    fn quiescent(&self) -> bool;
    /// Counts a skipped cycle.
    fn skip_cycle(&mut self);
    /// Free central-queue chunks.
    fn queue_free(&self) -> usize;
    /// A readable dump of the switch's state, for diagnosing a deadlock.
    fn dump(&self) -> String;
}

impl SwitchModel for switch::Sp2Switch {
    fn step_pins(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<switch::Sp2Outputs, String> {
        self.step(link_in, token_in).map_err(|e| e.to_string())
    }
    fn queue_chunks(&self) -> usize {
        self.cq.occupancy()
    }
    fn check_queue(&self) -> Result<(), String> {
        self.check().map_err(|e| e.to_string())
    }
    fn idle(&self) -> bool {
        self.is_idle() && self.cq.free() as usize == CQ_CHUNKS
    }
    fn packets_via(&self) -> (u64, u64) {
        (
            self.tx.iter().map(|t| t.packets_queue).sum(),
            self.tx.iter().map(|t| t.packets_xbar).sum(),
        )
    }
    fn outputs(&self) -> switch::Sp2Outputs {
        switch::Sp2Switch::outputs(self)
    }
    fn tx_credit(&self, p: usize) -> u16 {
        self.tx[p].credit
    }
    fn quiescent(&self) -> bool {
        // Checked by the network tests (an idle switch with nothing arriving keeps its state).
        self.is_idle()
    }
    fn skip_cycle(&mut self) {
        self.cycle += 1;
    }
    fn queue_free(&self) -> usize {
        self.cq.free() as usize
    }
    fn dump(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let counts: Vec<u8> = (0..PORTS).map(|o| self.cq.count(o)).collect();
        let _ = writeln!(
            out,
            "free {} counts {:?} locks {:?}",
            self.cq.free(),
            counts,
            self.lock
        );
        for (i, r) in self.rx.iter().enumerate() {
            let _ = writeln!(
                out,
                "  rx{i}: {:?} fifo {} ready {:?}",
                r.state,
                r.fifo.len(),
                r.ready.map(|w| w.out)
            );
        }
        for (o, t) in self.tx.iter().enumerate() {
            let _ = writeln!(
                out,
                "  tx{o}: {:?} credit {} fifo {} ser {}",
                t.source,
                t.credit,
                t.fifo.len(),
                t.ser.len()
            );
        }
        out
    }
}

impl SwitchModel for v2::switch::Sp2SwitchV2 {
    fn step_pins(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<switch::Sp2Outputs, String> {
        self.step(link_in, token_in).map_err(|e| e.to_string())
    }
    fn queue_chunks(&self) -> usize {
        self.cq.used()
    }
    fn check_queue(&self) -> Result<(), String> {
        self.check().map_err(|e| e.to_string())
    }
    fn idle(&self) -> bool {
        self.is_idle()
    }
    fn packets_via(&self) -> (u64, u64) {
        (
            self.tx.iter().map(|t| t.packets_queue).sum(),
            self.tx.iter().map(|t| t.packets_xbar).sum(),
        )
    }
    fn outputs(&self) -> switch::Sp2Outputs {
        let mut out = switch::Sp2Outputs::default();
        for p in 0..PORTS {
            out.link_out[p] = self.tx[p].out_reg;
            out.token_out[p] = self.rx[p].token;
        }
        out
    }
    fn tx_credit(&self, p: usize) -> u16 {
        self.tx[p].credit as u16
    }
    fn quiescent(&self) -> bool {
        // The pipelined allocator's banks and least-recently-served orders are not covered by `is_idle`:
        // never skip (correct, only slower).
        false
    }
    fn skip_cycle(&mut self) {
        self.cycle += 1;
    }
    fn queue_free(&self) -> usize {
        CQ_CHUNKS - self.cq.used()
    }
    fn dump(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "chunks used {} promised {} loads {:?}",
            self.cq.used(),
            self.cq.promised,
            self.cq.load
        );
        for (i, r) in self.rx.iter().enumerate() {
            let _ = writeln!(out, "  rx{i}: {:?} fifo {}", r.state, r.fifo.len());
        }
        for (o, t) in self.tx.iter().enumerate() {
            let _ = writeln!(out, "  tx{o}: {:?} credit {}", t.src, t.credit);
        }
        out
    }
}

/// CRC-8 with polynomial x^8 + x^2 + x + 1 (0x07), initial value 0, no reflection.
pub fn crc8(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0u8, |c, &b| crc8_step(c, b))
}

/// One byte of [`crc8`] (as the HDL computes it, a byte per cycle).
#[inline]
pub fn crc8_step(mut c: u8, b: u8) -> u8 {
    c ^= b;
    for _ in 0..8 {
        c = if c & 0x80 != 0 {
            (c << 1) ^ 0x07
        } else {
            c << 1
        };
    }
    c
}

/// Builds a packet: `LEN`, route bytes, payload, CRC (docs/sp2-switch.md §2).
pub fn encode_packet(route: &Header, payload: &[u8]) -> Result<Vec<u8>, HeaderError> {
    if route.radix() > 8 {
        return Err(HeaderError::FieldTooNarrow {
            width: 8,
            radix: route.radix(),
        });
    }
    let len = route.len() + payload.len();
    assert!((1..=255).contains(&len), "packet LEN {len} outside 1..=255");
    let mut p = Vec::with_capacity(len + 2);
    p.push(len as u8);
    p.extend(route.hops().iter().map(|&h| h as u8));
    p.extend_from_slice(payload);
    p.push(crc8(&p));
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_check_value() {
        // The standard check value of CRC-8/SMBUS (poly 0x07, init 0) on "123456789".
        assert_eq!(crc8(b"123456789"), 0xF4);
        // Appending the CRC makes the CRC of the whole zero.
        let h = Header::new(8, vec![0b1111_0000, 0b0000_0010]).unwrap();
        let p = encode_packet(&h, &[1, 2, 3]).unwrap();
        assert_eq!(p[0], 5);
        assert_eq!(&p[1..3], &[0xf0, 0x02]);
        assert_eq!(crc8(&p), 0);
    }
}

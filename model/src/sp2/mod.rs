//! The SP2-style 8×8 ASR switch (thesis §4.2.1, `docs/sp2-switch.md`): parameters, the packet format with
//! its CRC-8, and the switch's blocks.
//!
//! - [`v1`], [`v2`]: the versions of the switch, each its blocks (receiver, central queue, transmitter,
//!   allocator) and the whole switch, cycle-accurate; both implement [`SwitchModel`], so networks and
//!   experiments run either.
//! - [`network`]: switches wired as a topology (the 16-node board and the larger systems);
//!   [`system`]: a network with processors, traffic, ASR or single-path route tables and a scoreboard.

pub mod asr_network;
pub mod error;
pub mod experiment;
pub mod network;
pub mod nic;
pub mod node;
pub mod scoreboard;
pub mod stimulus;
pub mod system;
pub mod v1;
pub mod v2;
pub mod v3;

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

/// What the switch drives in one cycle (every version): each output link's register and each input's token.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sp2Outputs {
    /// Per output port, the byte its transmitter drives on the link (`None`: the link is idle).
    pub link_out: [Option<u8>; PORTS],
    /// Per input port, the token its receiver returns upstream (one byte consumed from its FIFO).
    pub token_out: [bool; PORTS],
}

/// What the experiments and networks need of a switch model, so they run every version alike
/// ([`v1::switch::Sp2Switch`], [`v2::switch::Sp2SwitchV2`]; each implements it beside its switch).
pub trait SwitchModel: Default + Clone + Send {
    /// One clock cycle: the pins in, what the switch drove during the cycle out.
    fn step_pins(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<Sp2Outputs, String>;
    /// Central-queue chunks in use.
    fn queue_chunks(&self) -> usize;
    /// The central queue's invariants.
    fn check_queue(&self) -> Result<(), String>;
    /// Nothing inside (and the free list full).
    fn idle(&self) -> bool;
    /// Packets sent so far through the central queue and through the crossbar.
    fn packets_via(&self) -> (u64, u64);
    /// What the switch drives this cycle, from its registers (links are direct wires between switches).
    fn outputs(&self) -> Sp2Outputs;
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

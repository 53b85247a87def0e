//! One byte of the packet CRC-8 (x^8 + x^2 + x + 1, init 0, no reflection; docs/sp2-switch.md §2).
//! Hardware twin of `asr_model::sp2::crc8_step`.
//!
//! [`Crc8Step`]: in `crc[7:0]` (the CRC so far), `data[7:0]` (the byte; `byte` is a SystemVerilog keyword); out `crc_out[7:0]` = `crc8_step(crc, data)`.
//! Combinational (latency 0): eight shift/XOR steps of the byte XORed into the CRC.

use rust_hdl::prelude::*;

/// One byte step of the packet CRC-8; combinational, see the module documentation.
#[derive(LogicBlock)]
pub struct Crc8Step {
    /// The CRC so far (0 at the start of a packet).
    pub crc: Signal<In, Bits<8>>,
    /// The byte to add to it.
    pub data: Signal<In, Bits<8>>,
    /// The CRC after the byte, `crc8_step(crc, data)`; combinational.
    pub crc_out: Signal<Out, Bits<8>>,
    x: Vec<Signal<Local, Bits<8>>>,
}

impl Default for Crc8Step {
    fn default() -> Self {
        Self {
            crc: Default::default(),
            data: Default::default(),
            crc_out: Default::default(),
            x: (0..9).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for Crc8Step {
    #[hdl_gen]
    fn update(&mut self) {
        self.x[0].next = self.crc.val() ^ self.data.val();
        for k in 0..8 {
            if self.x[k].val().get_bit(7) {
                self.x[k + 1].next = (self.x[k].val() << 1) ^ 7;
            } else {
                self.x[k + 1].next = self.x[k].val() << 1;
            }
        }
        self.crc_out.next = self.x[8].val();
    }
}

//! The transmitter of the SP2-style switch (docs/sp2-switch.md §7, §8). Hardware twin of
//! `model/src/sp2/transmitter.rs` (`asr_model::sp2::transmitter::Transmitter`): source selection
//! (idle, crossbar from receiver i, central queue), a 16-byte serializer (two chunks), the CRC (inverted
//! for a bad packet), the 7-byte output FIFO, the output register and the link credit counter.
//!
//! [`Transmitter`] ports (what the switch gives one transmitter in a cycle, in the model's order):
//! - in `clock`;
//! - in `grant`, `grant_rx[2:0]`: the crossbar connects receiver `grant_rx` from this cycle on (the model's
//!   `source = Xbar(i)` before `cycle()`);
//! - in `xbar_valid`, `xbar_byte[7:0]`, `xbar_last`, `xbar_bad`: the connected receiver's crossbar
//!   register (`XbarByte`; `xbar_last` = `last.is_some()`, `xbar_bad` its verdict);
//! - in `rd_grant`: the central queue granted this transmitter's read (the model's `reading = true`);
//! - in `chunk_valid`, `chunk_data[63:0]`, `chunk_bytes[3:0]`, `chunk_last`, `chunk_bad`: the queue's read
//!   data when they are for this output;
//! - in `token_in`: a credit from downstream; in `queued[7:0]`: the central queue's count for this output;
//! - out `link_valid`, `link_byte[7:0]`: the output register (`out_reg`; byte 0 when not valid);
//! - out `free_xbar` (`free_for_xbar(queued)`), `wants_chunk` (`wants_chunk(queued)`), `room0`
//!   (`xbar_room(false)`), `room1` (`xbar_room(true)`), `src_xbar`, `src_rx[2:0]` (the source is
//!   `Xbar(src_rx)`; `src_rx` is 0 otherwise): combinational from the registers and `queued`.
//!
//! Registers: source (2 bits: idle/crossbar/queue) and its receiver, the serializer as a 128-bit byte
//! vector with per-byte `last` and `bad` flags and a length (0..16), `reading`, the FIFO (7 × 8 bits and a
//! length), the running CRC and the pending CRC byte, the output register, the credit (5 bits, initially
//! `RX_DEPTH` = 16). Latency: a byte entering the FIFO in a cycle is on the pins 1 cycle later at the
//! earliest (FIFO head → output register at the edge when credit > 0).

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use super::crc8::Crc8Step;

#[derive(LogicBlock)]
pub struct Transmitter {
    pub clock: Signal<In, Clock>,
    pub grant: Signal<In, Bit>,
    pub grant_rx: Signal<In, Bits<3>>,
    pub xbar_valid: Signal<In, Bit>,
    pub xbar_byte: Signal<In, Bits<8>>,
    pub xbar_last: Signal<In, Bit>,
    pub xbar_bad: Signal<In, Bit>,
    pub rd_grant: Signal<In, Bit>,
    pub chunk_valid: Signal<In, Bit>,
    pub chunk_data: Signal<In, Bits<64>>,
    pub chunk_bytes: Signal<In, Bits<4>>,
    pub chunk_last: Signal<In, Bit>,
    pub chunk_bad: Signal<In, Bit>,
    pub token_in: Signal<In, Bit>,
    pub queued: Signal<In, Bits<8>>,
    pub link_valid: Signal<Out, Bit>,
    pub link_byte: Signal<Out, Bits<8>>,
    pub free_xbar: Signal<Out, Bit>,
    pub wants_chunk: Signal<Out, Bit>,
    pub room0: Signal<Out, Bit>,
    pub room1: Signal<Out, Bit>,
    pub src_xbar: Signal<Out, Bit>,
    pub src_rx: Signal<Out, Bits<3>>,
    // Registers.
    pub src: DFF<Bits<2>>,
    pub rx: DFF<Bits<3>>,
    pub ser: DFF<Bits<128>>,
    pub ser_last: DFF<Bits<16>>,
    pub ser_bad: DFF<Bits<16>>,
    pub ser_len: DFF<Bits<5>>,
    pub reading: DFF<Bit>,
    pub fifo: Vec<DFF<Bits<8>>>,
    pub fifo_len: DFF<Bits<3>>,
    pub crc: DFF<Bits<8>>,
    pub crcp_valid: DFF<Bit>,
    pub crcp: DFF<Bits<8>>,
    pub out_valid: DFF<Bit>,
    pub out_byte: DFF<Bits<8>>,
    pub credit: DFFWithInit<Bits<5>>,
    crc_step: Crc8Step,
    ones: Constant<Bits<128>>,
    one16: Constant<Bits<16>>,
    // Locals.
    src_e: Signal<Local, Bits<2>>,
    rx_e: Signal<Local, Bits<3>>,
    reading_e: Signal<Local, Bit>,
    had_room: Signal<Local, Bit>,
    sent: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    pcrc: Signal<Local, Bit>,
    ppop: Signal<Local, Bit>,
    pbyte: Signal<Local, Bits<8>>,
    plast: Signal<Local, Bit>,
    pbad: Signal<Local, Bit>,
    pos: Signal<Local, Bits<3>>,
    ser1: Signal<Local, Bits<128>>,
    last1: Signal<Local, Bits<16>>,
    bad1: Signal<Local, Bits<16>>,
    len1: Signal<Local, Bits<5>>,
    blen: Signal<Local, Bits<5>>,
    bsh: Signal<Local, Bits<8>>,
    lsh: Signal<Local, Bits<8>>,
    lidx: Signal<Local, Bits<5>>,
    ext: Signal<Local, Bits<128>>,
}

impl Default for Transmitter {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            grant: Default::default(),
            grant_rx: Default::default(),
            xbar_valid: Default::default(),
            xbar_byte: Default::default(),
            xbar_last: Default::default(),
            xbar_bad: Default::default(),
            rd_grant: Default::default(),
            chunk_valid: Default::default(),
            chunk_data: Default::default(),
            chunk_bytes: Default::default(),
            chunk_last: Default::default(),
            chunk_bad: Default::default(),
            token_in: Default::default(),
            queued: Default::default(),
            link_valid: Default::default(),
            link_byte: Default::default(),
            free_xbar: Default::default(),
            wants_chunk: Default::default(),
            room0: Default::default(),
            room1: Default::default(),
            src_xbar: Default::default(),
            src_rx: Default::default(),
            src: Default::default(),
            rx: Default::default(),
            ser: Default::default(),
            ser_last: Default::default(),
            ser_bad: Default::default(),
            ser_len: Default::default(),
            reading: Default::default(),
            fifo: (0..7).map(|_| Default::default()).collect(),
            fifo_len: Default::default(),
            crc: Default::default(),
            crcp_valid: Default::default(),
            crcp: Default::default(),
            out_valid: Default::default(),
            out_byte: Default::default(),
            credit: DFFWithInit::new(16u64.into()),
            crc_step: Default::default(),
            ones: Constant::new(!Bits::<128>::default()),
            one16: Constant::new(1u64.into()),
            src_e: Default::default(),
            rx_e: Default::default(),
            reading_e: Default::default(),
            had_room: Default::default(),
            sent: Default::default(),
            push: Default::default(),
            pcrc: Default::default(),
            ppop: Default::default(),
            pbyte: Default::default(),
            plast: Default::default(),
            pbad: Default::default(),
            pos: Default::default(),
            ser1: Default::default(),
            last1: Default::default(),
            bad1: Default::default(),
            len1: Default::default(),
            blen: Default::default(),
            bsh: Default::default(),
            lsh: Default::default(),
            lidx: Default::default(),
            ext: Default::default(),
        }
    }
}

impl Logic for Transmitter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, src, rx, ser, ser_last, ser_bad, ser_len, reading, fifo_len, crc,
            crcp_valid, crcp, out_valid, out_byte
        );
        self.credit.clock.next = self.clock.val();
        self.credit.d.next = self.credit.q.val();
        for s in 0..7 {
            self.fifo[s].clock.next = self.clock.val();
            self.fifo[s].d.next = self.fifo[s].q.val();
        }
        // Outputs from the registers (before the cycle's grants).
        self.link_valid.next = self.out_valid.q.val();
        self.link_byte.next = self.out_byte.q.val();
        self.free_xbar.next = (self.src.q.val() == 0)
            & (self.queued.val() == 0)
            & (self.ser_len.q.val() == 0)
            & !self.reading.q.val()
            & !self.crcp_valid.q.val();
        self.wants_chunk.next = (self.queued.val() != 0)
            & (self.src.q.val() != 1)
            & !self.reading.q.val()
            & (self.ser_len.q.val() <= 8)
            & !self.crcp_valid.q.val();
        self.room0.next = self.fifo_len.q.val() != 7;
        self.room1.next = self.fifo_len.q.val() < 6;
        self.src_xbar.next = self.src.q.val() == 1;
        self.src_rx.next = 0.into();
        if self.src.q.val() == 1 {
            self.src_rx.next = self.rx.q.val();
        }
        // The switch's grants of this cycle.
        self.src_e.next = self.src.q.val();
        self.rx_e.next = self.rx.q.val();
        if self.grant.val() {
            self.src_e.next = 1.into();
            self.rx_e.next = self.grant_rx.val();
        }
        self.src.d.next = self.src_e.val();
        self.rx.d.next = self.rx_e.val();
        self.reading_e.next = self.reading.q.val() | self.rd_grant.val();
        // FIFO head to the output register when there is credit.
        self.had_room.next = self.fifo_len.q.val() != 7;
        self.sent.next = (self.credit.q.val() != 0) & (self.fifo_len.q.val() != 0);
        self.out_valid.d.next = self.sent.val();
        self.out_byte.d.next = 0.into();
        if self.sent.val() {
            self.out_byte.d.next = self.fifo[0].q.val();
        }
        if self.sent.val() & !self.token_in.val() {
            self.credit.d.next = self.credit.q.val() - 1;
        }
        if !self.sent.val() & self.token_in.val() {
            self.credit.d.next = self.credit.q.val() + 1;
        }
        // At most one byte into the FIFO: the pending CRC, the crossbar byte, or a serializer byte.
        self.push.next = false;
        self.pcrc.next = false;
        self.ppop.next = false;
        self.pbyte.next = 0.into();
        self.plast.next = false;
        self.pbad.next = false;
        if self.crcp_valid.q.val() {
            if self.had_room.val() {
                self.push.next = true;
                self.pcrc.next = true;
                self.pbyte.next = self.crcp.q.val();
            }
        } else if self.src_e.val() == 1 {
            if self.xbar_valid.val() {
                self.push.next = true;
                self.pbyte.next = self.xbar_byte.val();
                self.plast.next = self.xbar_last.val();
                self.pbad.next = self.xbar_bad.val();
            }
        } else if self.had_room.val() & (self.ser_len.q.val() != 0) {
            self.push.next = true;
            self.ppop.next = true;
            self.pbyte.next = self.ser.q.val().get_bits::<8>(0);
            self.plast.next = self.ser_last.q.val().get_bit(0);
            self.pbad.next = self.ser_bad.q.val().get_bit(0);
        }
        self.crc_step.crc.next = self.crc.q.val();
        self.crc_step.data.next = self.pbyte.val();
        if self.pcrc.val() {
            self.crcp_valid.d.next = false;
            self.crc.d.next = 0.into();
            if (self.src_e.val() == 1) | ((self.ser_len.q.val() == 0) & !self.reading_e.val()) {
                self.src.d.next = 0.into();
            }
        } else if self.push.val() {
            self.crc.d.next = self.crc_step.crc_out.val();
            if self.plast.val() {
                self.crcp_valid.d.next = true;
                if self.pbad.val() {
                    self.crcp.d.next = !self.crc_step.crc_out.val();
                } else {
                    self.crcp.d.next = self.crc_step.crc_out.val();
                }
            }
        }
        // The FIFO: pop at the head, push behind the last byte.
        self.pos.next = self.fifo_len.q.val();
        if self.sent.val() {
            self.pos.next = self.fifo_len.q.val() - 1;
            for s in 0..6 {
                self.fifo[s].d.next = self.fifo[s + 1].q.val();
            }
            self.fifo[6].d.next = 0.into();
        }
        if self.push.val() {
            for s in 0..7 {
                if self.pos.val().index() == s {
                    self.fifo[s].d.next = self.pbyte.val();
                }
            }
        }
        if self.sent.val() & !self.push.val() {
            self.fifo_len.d.next = self.fifo_len.q.val() - 1;
        }
        if !self.sent.val() & self.push.val() {
            self.fifo_len.d.next = self.fifo_len.q.val() + 1;
        }
        // The serializer: pop one byte, then append the queue's chunk.
        self.ser1.next = self.ser.q.val();
        self.last1.next = self.ser_last.q.val();
        self.bad1.next = self.ser_bad.q.val();
        self.len1.next = self.ser_len.q.val();
        if self.ppop.val() {
            self.ser1.next = self.ser.q.val() >> 8;
            self.last1.next = self.ser_last.q.val() >> 1;
            self.bad1.next = self.ser_bad.q.val() >> 1;
            self.len1.next = self.ser_len.q.val() - 1;
        }
        self.blen.next = bit_cast::<5, 4>(self.chunk_bytes.val());
        self.bsh.next = bit_cast::<8, 4>(self.chunk_bytes.val()) << 3;
        self.lsh.next = bit_cast::<8, 5>(self.len1.val()) << 3;
        self.lidx.next = self.len1.val() + self.blen.val() - 1;
        self.ext.next =
            bit_cast::<128, 64>(self.chunk_data.val()) & !(self.ones.val() << self.bsh.val());
        self.ser.d.next = self.ser1.val();
        self.ser_last.d.next = self.last1.val();
        self.ser_bad.d.next = self.bad1.val();
        self.ser_len.d.next = self.len1.val();
        self.reading.d.next = self.reading_e.val();
        if self.chunk_valid.val() {
            self.reading.d.next = false;
            self.src.d.next = 2.into();
            self.ser.d.next = self.ser1.val() | (self.ext.val() << self.lsh.val());
            self.ser_len.d.next = self.len1.val() + self.blen.val();
            if self.chunk_last.val() {
                self.ser_last.d.next = self.last1.val() | (self.one16.val() << self.lidx.val());
                if self.chunk_bad.val() {
                    self.ser_bad.d.next = self.bad1.val() | (self.one16.val() << self.lidx.val());
                }
            }
        }
    }
}

/// The port documentation of the exported top `transmitter` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The transmitter of the SP2-style switch (docs/sp2-switch.md sections 7, 8): source selection \
                  (idle, crossbar, central queue), 16-byte serializer, CRC, 7-byte output FIFO, output \
                  register and link credit. Twin of asr_model::sp2::transmitter::Transmitter \
                  (hdl/src/sp2/transmitter.rs)."
            .into(),
        ports: docs(&[
            CLOCK,
            ("grant", "the crossbar connects receiver grant_rx from this cycle on"),
            ("grant_rx", "that receiver"),
            ("xbar_valid", "the connected receiver's crossbar register holds a byte"),
            ("xbar_byte", "that byte"),
            ("xbar_last", "it is the packet's last byte"),
            ("xbar_bad", "the packet is flagged bad"),
            ("rd_grant", "the central queue granted this transmitter's read"),
            ("chunk_valid", "the queue's read data are for this output"),
            ("chunk_data", "the chunk, byte 0 in bits [7:0]"),
            ("chunk_bytes", "its byte count"),
            ("chunk_last", "it is its packet's last chunk"),
            ("chunk_bad", "its packet is flagged bad"),
            ("token_in", "a credit from downstream (one byte of buffer freed)"),
            ("queued", "the central queue's chunk count for this output"),
            ("link_valid", "the output register holds a byte for the link"),
            ("link_byte", "that byte; 0 when not valid"),
            ("free_xbar", "free for a crossbar connection (combinational)"),
            ("wants_chunk", "asks the central queue for a chunk (combinational)"),
            ("room0", "room for a crossbar byte that is not a packet's last (combinational)"),
            ("room1", "room for a packet's last crossbar byte (combinational)"),
            ("src_xbar", "the current source is the crossbar"),
            ("src_rx", "its receiver (0 otherwise)"),
        ]),
        latency: "a byte entering the FIFO in a cycle is on link_byte 1 cycle later at the earliest; \
                  the credit counter starts at 16"
            .into(),
    }
}

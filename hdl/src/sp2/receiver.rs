//! The receiver of the SP2-style switch (docs/sp2-switch.md §4, §5, §8). Hardware twin of
//! `model/src/sp2/receiver.rs` (`asr_model::sp2::receiver::Receiver`) as `Sp2Switch::step` drives it in a
//! cycle: token, `parse()`, crossbar request, grant or drop, queue-output choice, central-queue write grant,
//! `feed_xbar(room)`, `feed_queue()`, link byte into the FIFO.
//!
//! [`Receiver`] ports:
//! - in `clock`; `link_valid`, `link_byte[7:0]` (a byte from upstream, written into the FIFO at the edge);
//! - in `xbar_grant`, `xbar_gout[2:0]`: the crossbar granted this cycle's request to transmitter `xbar_gout`;
//! - in `choose_grant`, `choose_out[2:0]`: the switch chose queue output `choose_out` for this receiver
//!   (it was in the `Choose` state);
//! - in `wr_grant`: the central queue takes the ready chunk this cycle;
//! - in `room`: the connected transmitter has room for a crossbar byte (computed by the switch);
//! - out `token_out`: an upstream credit (registered: one per byte popped, one per cycle);
//! - out `xbar_req`, `xbar_set[7:0]`: the crossbar request after this cycle's parse (R1 decoded this cycle
//!   joins at once; combinational from the FIFO head); `xbar_set` is 0 without a request;
//! - out `choose_req`, `choose_set[7:0]`: waiting for a queue output (state `Choose`), its permitted set;
//! - out `ready_valid`, `ready_out[2:0]`, `ready_data[63:0]`, `ready_bytes[3:0]`, `ready_last`,
//!   `ready_bad`: the chunk offered to the central queue (the model's `ready`; fields 0 when not valid);
//! - out `xbar_valid`, `xbar_byte[7:0]`, `xbar_last`, `xbar_bad`: the crossbar register (`xbar`; fields 0
//!   when not valid); `xbar_on`, `xbar_out[2:0]`: connected to transmitter `xbar_out` (state `Xbar`);
//! - out `crc_errors[7:0]`, `route_errors[7:0]`: the model's `crc_errors` and `route_errors` modulo 256 —
//!   wrapping counters of the packets whose CRC byte did not match (counted when the CRC byte is taken) and
//!   of the malformed packets dropped (`LEN = 0` or `R1 = 0`, counted when parsed); registered, so in a cycle
//!   they count the errors of the cycles before it.
//!
//! Registers: the 16-byte FIFO as a 128-bit byte vector and a length, the parser state (3 bits: Len, Route,
//! Wait, Xbar, Choose, Queue, Drop) with `body` (also the byte count of `Drop`), `set`, `out` and a flag
//! (`held_sent` / `held_in`), the held first byte, the running CRC, the crossbar register, the chunk being
//! assembled (64 bits, a byte count, done/last/bad), the ready chunk, and the tokens owed (5 bits).
//! Up to two FIFO bytes leave per cycle (the last body byte with the CRC); two [`Crc8Step`]s in series
//! (parse, then the body byte). The two error counters are 8-bit registers (`n_crc`, `n_route`).

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use super::crc8::Crc8Step;

/// Parser states (the model's `RxState`).
pub const ST_LEN: u64 = 0;
pub const ST_ROUTE: u64 = 1;
pub const ST_WAIT: u64 = 2;
pub const ST_XBAR: u64 = 3;
pub const ST_CHOOSE: u64 = 4;
pub const ST_QUEUE: u64 = 5;
pub const ST_DROP: u64 = 6;

#[derive(LogicBlock, Default)]
pub struct Receiver {
    pub clock: Signal<In, Clock>,
    pub link_valid: Signal<In, Bit>,
    pub link_byte: Signal<In, Bits<8>>,
    pub xbar_grant: Signal<In, Bit>,
    pub xbar_gout: Signal<In, Bits<3>>,
    pub choose_grant: Signal<In, Bit>,
    pub choose_out: Signal<In, Bits<3>>,
    pub wr_grant: Signal<In, Bit>,
    pub room: Signal<In, Bit>,
    pub token_out: Signal<Out, Bit>,
    pub xbar_req: Signal<Out, Bit>,
    pub xbar_set: Signal<Out, Bits<8>>,
    pub choose_req: Signal<Out, Bit>,
    pub choose_set: Signal<Out, Bits<8>>,
    pub ready_valid: Signal<Out, Bit>,
    pub ready_out: Signal<Out, Bits<3>>,
    pub ready_data: Signal<Out, Bits<64>>,
    pub ready_bytes: Signal<Out, Bits<4>>,
    pub ready_last: Signal<Out, Bit>,
    pub ready_bad: Signal<Out, Bit>,
    pub xbar_valid: Signal<Out, Bit>,
    pub xbar_byte: Signal<Out, Bits<8>>,
    pub xbar_last: Signal<Out, Bit>,
    pub xbar_bad: Signal<Out, Bit>,
    pub xbar_on: Signal<Out, Bit>,
    pub xbar_out: Signal<Out, Bits<3>>,
    pub crc_errors: Signal<Out, Bits<8>>,
    pub route_errors: Signal<Out, Bits<8>>,
    // Registers.
    pub fifo: DFF<Bits<128>>,
    pub len: DFF<Bits<5>>,
    pub st: DFF<Bits<3>>,
    pub body: DFF<Bits<8>>,
    pub set: DFF<Bits<8>>,
    pub out: DFF<Bits<3>>,
    pub flag: DFF<Bit>,
    pub held: DFF<Bits<8>>,
    pub crc: DFF<Bits<8>>,
    pub x_v: DFF<Bit>,
    pub x_byte: DFF<Bits<8>>,
    pub x_last: DFF<Bit>,
    pub x_bad: DFF<Bit>,
    pub asm: DFF<Bits<64>>,
    pub asm_n: DFF<Bits<4>>,
    pub ad_v: DFF<Bit>,
    pub ad_last: DFF<Bit>,
    pub ad_bad: DFF<Bit>,
    pub r_v: DFF<Bit>,
    pub r_out: DFF<Bits<3>>,
    pub r_data: DFF<Bits<64>>,
    pub r_bytes: DFF<Bits<4>>,
    pub r_last: DFF<Bit>,
    pub r_bad: DFF<Bit>,
    pub owed: DFF<Bits<5>>,
    pub n_crc: DFF<Bits<8>>,
    pub n_route: DFF<Bits<8>>,
    crc_a: Crc8Step,
    crc_b: Crc8Step,
    // Locals.
    h0: Signal<Local, Bits<8>>,
    h1: Signal<Local, Bits<8>>,
    h2: Signal<Local, Bits<8>>,
    p1: Signal<Local, Bit>,
    crc1: Signal<Local, Bits<8>>,
    st_a: Signal<Local, Bits<3>>,
    body_a: Signal<Local, Bits<8>>,
    set_a: Signal<Local, Bits<8>>,
    len_a: Signal<Local, Bits<5>>,
    g0: Signal<Local, Bits<8>>,
    g1: Signal<Local, Bits<8>>,
    lim: Signal<Local, Bits<8>>,
    fci: Signal<Local, Bit>,
    st_b: Signal<Local, Bits<3>>,
    out_b: Signal<Local, Bits<3>>,
    flag_b: Signal<Local, Bit>,
    ready_b: Signal<Local, Bit>,
    p2: Signal<Local, Bits<2>>,
    pops: Signal<Local, Bits<5>>,
    ins: Signal<Local, Bits<64>>,
    ash: Signal<Local, Bits<8>>,
    fsh: Signal<Local, Bits<8>>,
    psh: Signal<Local, Bits<8>>,
    lpos: Signal<Local, Bits<5>>,
    lb: Signal<Local, Bits<128>>,
    crc_err: Signal<Local, Bit>,
    route_err: Signal<Local, Bit>,
}

impl Logic for Receiver {
    #[hdl_gen]
    fn update(&mut self) {
        // States: 0 Len, 1 Route, 2 Wait, 3 Xbar, 4 Choose, 5 Queue, 6 Drop (the `ST_*` constants).
        dff_setup!(
            self, clock, fifo, len, st, body, set, out, flag, held, crc, x_v, x_byte, x_last,
            x_bad, asm, asm_n, ad_v, ad_last, ad_bad, r_v, r_out, r_data, r_bytes, r_last, r_bad,
            owed, n_crc, n_route
        );
        // Outputs from the registers.
        self.token_out.next = self.owed.q.val() != 0;
        self.choose_req.next = self.st.q.val() == 4;
        self.choose_set.next = 0.into();
        if self.st.q.val() == 4 {
            self.choose_set.next = self.set.q.val();
        }
        self.ready_valid.next = self.r_v.q.val();
        self.ready_out.next = 0.into();
        self.ready_data.next = 0.into();
        self.ready_bytes.next = 0.into();
        self.ready_last.next = false;
        self.ready_bad.next = false;
        if self.r_v.q.val() {
            self.ready_out.next = self.r_out.q.val();
            self.ready_data.next = self.r_data.q.val();
            self.ready_bytes.next = self.r_bytes.q.val();
            self.ready_last.next = self.r_last.q.val();
            self.ready_bad.next = self.r_bad.q.val();
        }
        self.xbar_valid.next = self.x_v.q.val();
        self.xbar_byte.next = self.x_byte.q.val();
        self.xbar_last.next = self.x_last.q.val();
        self.xbar_bad.next = self.x_bad.q.val();
        self.crc_errors.next = self.n_crc.q.val();
        self.route_errors.next = self.n_route.q.val();
        self.xbar_on.next = self.st.q.val() == 3;
        self.xbar_out.next = 0.into();
        if self.st.q.val() == 3 {
            self.xbar_out.next = self.out.q.val();
        }
        // Parse: LEN, R1, dropped bytes (at most one FIFO byte).
        self.h0.next = self.fifo.q.val().get_bits::<8>(0);
        self.h1.next = self.fifo.q.val().get_bits::<8>(8);
        self.h2.next = self.fifo.q.val().get_bits::<8>(16);
        self.crc_a.crc.next = self.crc.q.val();
        if self.st.q.val() == 0 {
            self.crc_a.crc.next = 0.into();
        }
        self.crc_a.data.next = self.h0.val();
        self.p1.next = false;
        self.route_err.next = false;
        self.crc1.next = self.crc.q.val();
        self.st_a.next = self.st.q.val();
        self.body_a.next = self.body.q.val();
        self.set_a.next = self.set.q.val();
        self.held.d.next = self.held.q.val();
        if self.len.q.val() != 0 {
            if self.st.q.val() == 0 {
                self.p1.next = true;
                self.crc1.next = self.crc_a.crc_out.val();
                if self.h0.val() == 0 {
                    self.route_err.next = true;
                    self.st_a.next = 6.into();
                    self.body_a.next = 1.into();
                } else {
                    self.held.d.next = self.h0.val() - 1;
                    self.st_a.next = 1.into();
                    self.body_a.next = self.h0.val() - 1;
                }
            } else if self.st.q.val() == 1 {
                self.p1.next = true;
                self.crc1.next = self.crc_a.crc_out.val();
                if self.h0.val() == 0 {
                    self.route_err.next = true;
                    self.st_a.next = 6.into();
                    self.body_a.next = self.body.q.val() + 1;
                } else {
                    self.st_a.next = 2.into();
                    self.set_a.next = self.h0.val();
                }
            } else if self.st.q.val() == 6 {
                self.p1.next = true;
                if self.body.q.val() == 1 {
                    self.st_a.next = 0.into();
                } else {
                    self.body_a.next = self.body.q.val() - 1;
                }
            }
        }
        self.len_a.next = self.len.q.val();
        self.g0.next = self.h0.val();
        self.g1.next = self.h1.val();
        if self.p1.val() {
            self.len_a.next = self.len.q.val() - 1;
            self.g0.next = self.h1.val();
            self.g1.next = self.h2.val();
        }
        // The crossbar request (after the parse) and the drop deadline: the held byte and
        // min(7, body + 1) bytes in the FIFO.
        self.xbar_req.next = self.st_a.val() == 2;
        self.xbar_set.next = 0.into();
        if self.st_a.val() == 2 {
            self.xbar_set.next = self.set_a.val();
        }
        self.lim.next = self.body_a.val() + 1;
        if self.body_a.val() >= 6 {
            self.lim.next = 7.into();
        }
        self.fci.next = bit_cast::<8, 5>(self.len_a.val()) >= self.lim.val();
        // Grant or drop, then the queue-output choice (a receiver in Choose since the last edge).
        self.st_b.next = self.st_a.val();
        self.out_b.next = self.out.q.val();
        self.flag_b.next = self.flag.q.val();
        if self.st_a.val() == 2 {
            if self.xbar_grant.val() {
                self.st_b.next = 3.into();
                self.out_b.next = self.xbar_gout.val();
                self.flag_b.next = false;
            } else if self.fci.val() {
                self.st_b.next = 4.into();
            }
        }
        if (self.st.q.val() == 4) & self.choose_grant.val() {
            self.st_b.next = 5.into();
            self.out_b.next = self.choose_out.val();
            self.flag_b.next = false;
        }
        self.ready_b.next = self.r_v.q.val() & !self.wr_grant.val();
        self.st.d.next = self.st_b.val();
        self.out.d.next = self.out_b.val();
        self.flag.d.next = self.flag_b.val();
        self.body.d.next = self.body_a.val();
        self.set.d.next = self.set_a.val();
        self.crc.d.next = self.crc1.val();
        self.r_v.d.next = self.ready_b.val();
        // The body byte's CRC step.
        self.crc_b.crc.next = self.crc1.val();
        self.crc_b.data.next = self.g0.val();
        self.p2.next = 0.into();
        // The crossbar register is refilled every cycle.
        self.x_v.d.next = false;
        self.x_byte.d.next = 0.into();
        self.x_last.d.next = false;
        self.x_bad.d.next = false;
        // Set when this cycle takes a CRC byte that does not match.
        self.crc_err.next = false;
        // Chunk assembly: the byte to insert at `asm_n`.
        self.ins.next = 0.into();
        self.ash.next = bit_cast::<8, 4>(self.asm_n.q.val()) << 3;
        if (self.st_b.val() == 3) & self.room.val() {
            if !self.flag_b.val() {
                if self.body_a.val() != 0 {
                    self.x_v.d.next = true;
                    self.x_byte.d.next = self.held.q.val();
                    self.flag.d.next = true;
                } else if self.len_a.val() != 0 {
                    self.p2.next = 1.into();
                    self.x_v.d.next = true;
                    self.x_byte.d.next = self.held.q.val();
                    self.x_last.d.next = true;
                    self.x_bad.d.next = self.g0.val() != self.crc1.val();
                    self.crc_err.next = self.g0.val() != self.crc1.val();
                    self.st.d.next = 0.into();
                }
            } else if (self.body_a.val() > 1) & (self.len_a.val() != 0) {
                self.p2.next = 1.into();
                self.crc.d.next = self.crc_b.crc_out.val();
                self.x_v.d.next = true;
                self.x_byte.d.next = self.g0.val();
                self.body.d.next = self.body_a.val() - 1;
            } else if (self.body_a.val() == 1) & (self.len_a.val() >= 2) {
                self.p2.next = 2.into();
                self.crc.d.next = self.crc_b.crc_out.val();
                self.x_v.d.next = true;
                self.x_byte.d.next = self.g0.val();
                self.x_last.d.next = true;
                self.x_bad.d.next = self.g1.val() != self.crc_b.crc_out.val();
                self.crc_err.next = self.g1.val() != self.crc_b.crc_out.val();
                self.st.d.next = 0.into();
            }
        }
        if self.ad_v.q.val() {
            // A complete chunk moves to the ready slot when it is free.
            if !self.ready_b.val() {
                self.r_v.d.next = true;
                self.r_out.d.next = self.out.q.val();
                self.r_data.d.next = self.asm.q.val();
                self.r_bytes.d.next = self.asm_n.q.val();
                self.r_last.d.next = self.ad_last.q.val();
                self.r_bad.d.next = self.ad_bad.q.val();
                self.asm.d.next = 0.into();
                self.asm_n.d.next = 0.into();
                self.ad_v.d.next = false;
                if self.ad_last.q.val() {
                    self.st.d.next = 0.into();
                }
            }
        } else if self.st.q.val() == 5 {
            if !self.flag.q.val() {
                self.ins.next = bit_cast::<64, 8>(self.held.q.val());
                self.asm_n.d.next = self.asm_n.q.val() + 1;
                self.flag.d.next = true;
                if self.asm_n.q.val() == 7 {
                    self.ad_v.d.next = true;
                    self.ad_last.d.next = false;
                    self.ad_bad.d.next = false;
                }
            } else if self.body.q.val() == 0 {
                if self.len_a.val() != 0 {
                    self.p2.next = 1.into();
                    self.ad_v.d.next = true;
                    self.ad_last.d.next = true;
                    self.ad_bad.d.next = self.g0.val() != self.crc1.val();
                    self.crc_err.next = self.g0.val() != self.crc1.val();
                }
            } else if (self.body.q.val() > 1) & (self.len_a.val() != 0) {
                self.p2.next = 1.into();
                self.crc.d.next = self.crc_b.crc_out.val();
                self.ins.next = bit_cast::<64, 8>(self.g0.val());
                self.asm_n.d.next = self.asm_n.q.val() + 1;
                self.body.d.next = self.body.q.val() - 1;
                if self.asm_n.q.val() == 7 {
                    self.ad_v.d.next = true;
                    self.ad_last.d.next = false;
                    self.ad_bad.d.next = false;
                }
            } else if (self.body.q.val() == 1) & (self.len_a.val() >= 2) {
                self.p2.next = 2.into();
                self.crc.d.next = self.crc_b.crc_out.val();
                self.ins.next = bit_cast::<64, 8>(self.g0.val());
                self.asm_n.d.next = self.asm_n.q.val() + 1;
                self.body.d.next = 0.into();
                self.ad_v.d.next = true;
                self.ad_last.d.next = true;
                self.ad_bad.d.next = self.g1.val() != self.crc_b.crc_out.val();
                self.crc_err.next = self.g1.val() != self.crc_b.crc_out.val();
            }
            self.asm.d.next = self.asm.q.val() | (self.ins.val() << self.ash.val());
        }
        // FIFO: pop the parsed and fed bytes, append the link byte; tokens owed.
        self.pops.next = bit_cast::<5, 2>(self.p2.val());
        if self.p1.val() {
            self.pops.next = bit_cast::<5, 2>(self.p2.val()) + 1;
        }
        self.fsh.next = bit_cast::<8, 5>(self.pops.val()) << 3;
        self.lpos.next = self.len.q.val() - self.pops.val();
        self.psh.next = bit_cast::<8, 5>(self.lpos.val()) << 3;
        self.lb.next = 0.into();
        if self.link_valid.val() {
            self.lb.next = bit_cast::<128, 8>(self.link_byte.val()) << self.psh.val();
        }
        self.fifo.d.next = (self.fifo.q.val() >> self.fsh.val()) | self.lb.val();
        self.len.d.next = self.lpos.val();
        if self.link_valid.val() {
            self.len.d.next = self.lpos.val() + 1;
        }
        if self.crc_err.val() {
            self.n_crc.d.next = self.n_crc.q.val() + 1;
        }
        if self.route_err.val() {
            self.n_route.d.next = self.n_route.q.val() + 1;
        }
        self.owed.d.next = self.owed.q.val() + self.pops.val();
        if self.owed.q.val() != 0 {
            self.owed.d.next = self.owed.q.val() + self.pops.val() - 1;
        }
    }
}

/// The port documentation of the exported top `receiver` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The receiver of the SP2-style switch (docs/sp2-switch.md sections 4, 5, 8): 16-byte input \
                  FIFO, packet parser and CRC check, crossbar request, queue-output choice, chunk \
                  assembly for the central queue, error counters. Twin of \
                  asr_model::sp2::receiver::Receiver (hdl/src/sp2/receiver.rs)."
            .into(),
        ports: docs(&[
            CLOCK,
            ("link_valid", "a byte from upstream"),
            ("link_byte", "that byte (written into the FIFO at the edge)"),
            ("xbar_grant", "the crossbar granted this cycle's request"),
            ("xbar_gout", "to this transmitter"),
            ("choose_grant", "the switch chose a queue output for this receiver"),
            ("choose_out", "that output"),
            ("wr_grant", "the central queue takes the ready chunk this cycle"),
            ("room", "the connected transmitter has room for a crossbar byte"),
            ("token_out", "an upstream credit (registered: one per byte popped, one per cycle)"),
            ("xbar_req", "crossbar request (combinational from the FIFO head)"),
            ("xbar_set", "its permitted outputs (bit o = output o); 0 without a request"),
            ("choose_req", "waiting for a queue output (state Choose)"),
            ("choose_set", "its permitted outputs"),
            ("ready_valid", "a chunk is offered to the central queue"),
            ("ready_out", "its output"),
            ("ready_data", "its data, byte 0 in bits [7:0]"),
            ("ready_bytes", "its byte count"),
            ("ready_last", "it is its packet's last chunk"),
            ("ready_bad", "its packet is flagged bad"),
            ("xbar_valid", "the crossbar register holds a byte"),
            ("xbar_byte", "that byte; 0 when not valid"),
            ("xbar_last", "it is the packet's last byte"),
            ("xbar_bad", "the packet is flagged bad"),
            ("xbar_on", "connected to a transmitter through the crossbar (state Xbar)"),
            ("xbar_out", "that transmitter"),
            ("crc_errors", "wrapping count of packets whose CRC byte did not match (registered)"),
            ("route_errors", "wrapping count of malformed packets dropped, LEN = 0 or R1 = 0 (registered)"),
        ]),
        latency: "a byte written at an edge is parsed from the next cycle on; see docs/sp2-switch.md section 4"
            .into(),
    }
}

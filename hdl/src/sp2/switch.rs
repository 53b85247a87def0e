//! The SP2-style 8×8 ASR switch (docs/sp2-switch.md), exported as `sp2_switch`. Hardware twin of
//! `model/src/sp2/switch.rs` (`asr_model::sp2::switch::Sp2Switch::step`).
//!
//! [`Sp2Switch`] ports (port p's field at bits `[p*8 +: 8]`):
//! - in `clock`, `link_in_valid[7:0]`, `link_in_data[63:0]` (a byte per input), `token_in[7:0]`;
//! - out `link_out_valid[7:0]`, `link_out_data[63:0]` (the transmitters' output registers; byte 0 when not
//!   valid), `token_out[7:0]` (the receivers' upstream tokens), `crc_errors[63:0]` and `route_errors[63:0]`
//!   (receiver i's 8-bit wrapping counters at bits `[i*8 +: 8]`: the model's `rx[i].crc_errors` and
//!   `rx[i].route_errors` modulo 256, registered — the errors of the cycles before this one).
//!
//! Blocks: 8 [`Receiver`]s, 8 [`Transmitter`]s, the [`CentralQueue`], the crossbar allocator (the
//! matching heuristic `Matcher<8, 64, 2>` on `R[i] = R1(i) & free_transmitters`, then an [`Lrs8`] per
//! transmitter among the rows the matching gave it), the queue-output choice (an [`Lrs8`] among the
//! receivers waiting in `Choose` with an unlocked permitted output and an empty ready slot; least-loaded
//! unlocked permitted output,
//! ties to the lowest port) and the per-output locks (`lock_v`, `lock_rx`), released when the locking
//! receiver's last chunk is written. Each cycle wires them exactly as `Sp2Switch::step` orders the work.
//! Latency: 5 cycles from `LEN` in to `LEN − 1` out without contention.

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::parts::{blocks, locals, port_offsets as offsets};

use super::central_queue::CentralQueue;
use super::receiver::Receiver;
use super::transmitter::Transmitter;
use crate::lrs::Lrs8;
use crate::matcher::{Matcher, Widen};

#[derive(LogicBlock)]
pub struct Sp2Switch {
    pub clock: Signal<In, Clock>,
    pub link_in_valid: Signal<In, Bits<8>>,
    pub link_in_data: Signal<In, Bits<64>>,
    pub token_in: Signal<In, Bits<8>>,
    pub link_out_valid: Signal<Out, Bits<8>>,
    pub link_out_data: Signal<Out, Bits<64>>,
    pub token_out: Signal<Out, Bits<8>>,
    pub crc_errors: Signal<Out, Bits<64>>,
    pub route_errors: Signal<Out, Bits<64>>,
    pub rx: Vec<Receiver>,
    pub tx: Vec<Transmitter>,
    pub cq: CentralQueue,
    pub matcher: Matcher<8, 64, 2>,
    pub xarb: Vec<Lrs8>,
    pub carb: Lrs8,
    pub lock_v: Vec<DFF<Bit>>,
    pub lock_rx: Vec<DFF<Bits<3>>>,
    o8: Vec<Constant<Bits<16>>>,
    o3: Vec<Constant<Bits<16>>>,
    o4: Vec<Constant<Bits<16>>>,
    o64: Vec<Constant<Bits<16>>>,
    bit: Vec<Constant<Bits<8>>>,
    idx: Vec<Constant<Bits<3>>>,
    // Locals.
    free_acc: Vec<Signal<Local, Bits<8>>>,
    row: Vec<Signal<Local, Bits<8>>>,
    wrow: Vec<Widen<8, 64>>,
    racc: Vec<Signal<Local, Bits<64>>>,
    mrow: Vec<Signal<Local, Bits<8>>>,
    /// Column o of the matching, accumulated over rows: `wacc[o*9 + i]`.
    wacc: Vec<Signal<Local, Bits<8>>>,
    unlocked: Signal<Local, Bits<8>>,
    ul_acc: Vec<Signal<Local, Bits<8>>>,
    ch_acc: Vec<Signal<Local, Bits<8>>>,
    cset: Signal<Local, Bits<8>>,
    cand: Signal<Local, Bits<8>>,
    bhave: Vec<Signal<Local, Bit>>,
    bcnt: Vec<Signal<Local, Bits<8>>>,
    bout: Vec<Signal<Local, Bits<3>>>,
    cnt: Vec<Signal<Local, Bits<8>>>,
    w_out: Signal<Local, Bits<3>>,
    w_last: Signal<Local, Bit>,
    wv_acc: Vec<Signal<Local, Bits<8>>>,
    wl_acc: Vec<Signal<Local, Bits<8>>>,
    rq_acc: Vec<Signal<Local, Bits<8>>>,
    // Packed central-queue write inputs.
    wo_acc: Vec<Signal<Local, Bits<24>>>,
    wb_acc: Vec<Signal<Local, Bits<32>>>,
    wd_acc: Vec<Signal<Local, Bits<512>>>,
    wbad_acc: Vec<Signal<Local, Bits<8>>>,
    w3: Vec<Widen<3, 24>>,
    w4: Vec<Widen<4, 32>>,
    w64: Vec<Widen<64, 512>>,
    lv_acc: Vec<Signal<Local, Bits<8>>>,
    ld_acc: Vec<Signal<Local, Bits<64>>>,
    tk_acc: Vec<Signal<Local, Bits<8>>>,
    wout8: Vec<Widen<8, 64>>,
    ce_acc: Vec<Signal<Local, Bits<64>>>,
    re_acc: Vec<Signal<Local, Bits<64>>>,
    wce: Vec<Widen<8, 64>>,
    wre: Vec<Widen<8, 64>>,
    /// Final values of sub-block inputs that are chosen in a loop: each input is assigned exactly once.
    /// A default-then-override assignment to a sub-block's input glitches in an event-driven simulator;
    /// with a sub-block whose outputs also glitch (default-then-override) the two `always` blocks wake each
    /// other forever: Icarus livelocked (no cycle finished) before this.
    xg: Vec<Signal<Local, Bit>>,
    xgo: Vec<Signal<Local, Bits<3>>>,
    rm: Vec<Signal<Local, Bit>>,
    xv: Vec<Signal<Local, Bit>>,
    xb: Vec<Signal<Local, Bits<8>>>,
    xl: Vec<Signal<Local, Bit>>,
    xbd: Vec<Signal<Local, Bit>>,
}

impl Default for Sp2Switch {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            link_in_valid: Default::default(),
            link_in_data: Default::default(),
            token_in: Default::default(),
            link_out_valid: Default::default(),
            link_out_data: Default::default(),
            token_out: Default::default(),
            crc_errors: Default::default(),
            route_errors: Default::default(),
            rx: blocks(8),
            tx: blocks(8),
            cq: Default::default(),
            matcher: Default::default(),
            xarb: blocks(8),
            carb: Default::default(),
            lock_v: blocks(8),
            lock_rx: blocks(8),
            o8: offsets(8),
            o3: offsets(3),
            o4: offsets(4),
            o64: offsets(64),
            bit: (0..8).map(|i| Constant::new((1u64 << i).into())).collect(),
            idx: (0..8).map(|i| Constant::new((i as u64).into())).collect(),
            free_acc: locals(9),
            row: locals(8),
            wrow: blocks(8),
            racc: locals(9),
            mrow: locals(8),
            wacc: locals(72),
            unlocked: Default::default(),
            ul_acc: locals(9),
            ch_acc: locals(9),
            cset: Default::default(),
            cand: Default::default(),
            bhave: locals(9),
            bcnt: locals(9),
            bout: locals(9),
            cnt: locals(8),
            w_out: Default::default(),
            w_last: Default::default(),
            wv_acc: locals(9),
            wl_acc: locals(9),
            rq_acc: locals(9),
            wo_acc: locals(9),
            wb_acc: locals(9),
            wd_acc: locals(9),
            wbad_acc: locals(9),
            w3: blocks(8),
            w4: blocks(8),
            w64: blocks(8),
            lv_acc: locals(9),
            ld_acc: locals(9),
            tk_acc: locals(9),
            wout8: blocks(8),
            ce_acc: locals(9),
            re_acc: locals(9),
            wce: blocks(8),
            wre: blocks(8),
            xg: locals(8),
            xgo: locals(8),
            rm: locals(8),
            xv: locals(8),
            xb: locals(8),
            xl: locals(8),
            xbd: locals(8),
        }
    }
}

impl Logic for Sp2Switch {
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks, register holds, counts.
        self.cq.clock.next = self.clock.val();
        self.carb.clock.next = self.clock.val();
        for p in 0..8 {
            self.rx[p].clock.next = self.clock.val();
            self.tx[p].clock.next = self.clock.val();
            self.xarb[p].clock.next = self.clock.val();
            self.lock_v[p].clock.next = self.clock.val();
            self.lock_v[p].d.next = self.lock_v[p].q.val();
            self.lock_rx[p].clock.next = self.clock.val();
            self.lock_rx[p].d.next = self.lock_rx[p].q.val();
            self.cnt[p].next = self.cq.count.val().get_bits::<8>(self.o8[p].val().index());
            self.tx[p].queued.next = self.cnt[p].val();
        }
        // Links in, tokens in.
        for p in 0..8 {
            self.rx[p].link_valid.next = self.link_in_valid.val().get_bit(p);
            self.rx[p].link_byte.next = self
                .link_in_data
                .val()
                .get_bits::<8>(self.o8[p].val().index());
            self.tx[p].token_in.next = self.token_in.val().get_bit(p);
        }
        // Crossbar matching: rows R[i] = R1(i) & free transmitters.
        self.free_acc[0].next = 0.into();
        for o in 0..8 {
            if self.tx[o].free_xbar.val() {
                self.free_acc[o + 1].next = self.free_acc[o].val() | self.bit[o].val();
            } else {
                self.free_acc[o + 1].next = self.free_acc[o].val();
            }
        }
        self.racc[0].next = 0.into();
        for i in 0..8 {
            self.row[i].next = self.rx[i].xbar_set.val() & self.free_acc[8].val();
            self.wrow[i].a.next = self.row[i].val();
            self.racc[i + 1].next = self.racc[i].val() | (self.wrow[i].y.val() << self.o8[i].val());
        }
        self.matcher.requests.next = self.racc[8].val();
        for i in 0..8 {
            self.mrow[i].next = self
                .matcher
                .grants
                .val()
                .get_bits::<8>(self.o8[i].val().index());
        }
        // Per transmitter: LRS among the rows the matching gave it.
        for o in 0..8 {
            self.wacc[o * 9].next = 0.into();
            for i in 0..8 {
                if self.mrow[i].val().get_bit(o) {
                    self.wacc[o * 9 + i + 1].next = self.wacc[o * 9 + i].val() | self.bit[i].val();
                } else {
                    self.wacc[o * 9 + i + 1].next = self.wacc[o * 9 + i].val();
                }
            }
            self.xarb[o].req.next = self.wacc[o * 9 + 8].val();
            self.xarb[o].served.next = true;
            self.tx[o].grant.next = self.xarb[o].grant_valid.val();
            self.tx[o].grant_rx.next = self.xarb[o].grant.val();
        }
        // (Sub-block inputs are assigned once, from locals: see `xg` below.)
        for i in 0..8 {
            self.xg[i].next = false;
            self.xgo[i].next = 0.into();
            for o in 0..8 {
                if self.xarb[o].grant_valid.val() & (self.xarb[o].grant.val().index() == i) {
                    self.xg[i].next = true;
                    self.xgo[i].next = self.idx[o].val();
                }
            }
            self.rx[i].xbar_grant.next = self.xg[i].val();
            self.rx[i].xbar_gout.next = self.xgo[i].val();
        }
        // Queue-output choice: receivers in Choose with an empty ready slot and an unlocked permitted output;
        // LRS; least loaded.
        self.ul_acc[0].next = 0.into();
        for o in 0..8 {
            if self.lock_v[o].q.val() {
                self.ul_acc[o + 1].next = self.ul_acc[o].val();
            } else {
                self.ul_acc[o + 1].next = self.ul_acc[o].val() | self.bit[o].val();
            }
        }
        self.unlocked.next = self.ul_acc[8].val();
        self.ch_acc[0].next = 0.into();
        for i in 0..8 {
            if self.rx[i].choose_req.val()
                & !self.rx[i].ready_valid.val()
                & (self.rx[i].choose_set.val() & self.unlocked.val()).any()
            {
                self.ch_acc[i + 1].next = self.ch_acc[i].val() | self.bit[i].val();
            } else {
                self.ch_acc[i + 1].next = self.ch_acc[i].val();
            }
        }
        self.carb.req.next = self.ch_acc[8].val();
        self.carb.served.next = true;
        self.cset.next = 0.into();
        for i in 0..8 {
            if self.carb.grant.val().index() == i {
                self.cset.next = self.rx[i].choose_set.val();
            }
        }
        self.cand.next = self.cset.val() & self.unlocked.val();
        self.bhave[0].next = false;
        self.bcnt[0].next = 0.into();
        self.bout[0].next = 0.into();
        for o in 0..8 {
            self.bhave[o + 1].next = self.bhave[o].val();
            self.bcnt[o + 1].next = self.bcnt[o].val();
            self.bout[o + 1].next = self.bout[o].val();
            if self.cand.val().get_bit(o)
                & (!self.bhave[o].val() | (self.cnt[o].val() < self.bcnt[o].val()))
            {
                self.bhave[o + 1].next = true;
                self.bcnt[o + 1].next = self.cnt[o].val();
                self.bout[o + 1].next = self.idx[o].val();
            }
        }
        for i in 0..8 {
            self.rx[i].choose_grant.next =
                self.carb.grant_valid.val() & (self.carb.grant.val().index() == i);
            self.rx[i].choose_out.next = self.bout[8].val();
        }
        if self.carb.grant_valid.val() {
            for o in 0..8 {
                if self.bout[8].val().index() == o {
                    self.lock_v[o].d.next = true;
                    self.lock_rx[o].d.next = self.carb.grant.val();
                }
            }
        }
        // Central queue: the receivers' ready chunks, the transmitters' read requests.
        self.wv_acc[0].next = 0.into();
        self.wl_acc[0].next = 0.into();
        self.wbad_acc[0].next = 0.into();
        self.rq_acc[0].next = 0.into();
        self.wo_acc[0].next = 0.into();
        self.wb_acc[0].next = 0.into();
        self.wd_acc[0].next = 0.into();
        for i in 0..8 {
            self.w3[i].a.next = self.rx[i].ready_out.val();
            self.w4[i].a.next = self.rx[i].ready_bytes.val();
            self.w64[i].a.next = self.rx[i].ready_data.val();
            self.wo_acc[i + 1].next =
                self.wo_acc[i].val() | (self.w3[i].y.val() << self.o3[i].val());
            self.wb_acc[i + 1].next =
                self.wb_acc[i].val() | (self.w4[i].y.val() << self.o4[i].val());
            self.wd_acc[i + 1].next =
                self.wd_acc[i].val() | (self.w64[i].y.val() << self.o64[i].val());
            if self.rx[i].ready_valid.val() {
                self.wv_acc[i + 1].next = self.wv_acc[i].val() | self.bit[i].val();
            } else {
                self.wv_acc[i + 1].next = self.wv_acc[i].val();
            }
            if self.rx[i].ready_last.val() {
                self.wl_acc[i + 1].next = self.wl_acc[i].val() | self.bit[i].val();
            } else {
                self.wl_acc[i + 1].next = self.wl_acc[i].val();
            }
            if self.rx[i].ready_bad.val() {
                self.wbad_acc[i + 1].next = self.wbad_acc[i].val() | self.bit[i].val();
            } else {
                self.wbad_acc[i + 1].next = self.wbad_acc[i].val();
            }
            if self.tx[i].wants_chunk.val() {
                self.rq_acc[i + 1].next = self.rq_acc[i].val() | self.bit[i].val();
            } else {
                self.rq_acc[i + 1].next = self.rq_acc[i].val();
            }
        }
        self.cq.wr_valid.next = self.wv_acc[8].val();
        self.cq.wr_out.next = self.wo_acc[8].val();
        self.cq.wr_data.next = self.wd_acc[8].val();
        self.cq.wr_bytes.next = self.wb_acc[8].val();
        self.cq.wr_last.next = self.wl_acc[8].val();
        self.cq.wr_bad.next = self.wbad_acc[8].val();
        self.cq.rd_req.next = self.rq_acc[8].val();
        // Write grant: the receiver's chunk leaves its ready slot; its last chunk unlocks its output.
        self.w_out.next = 0.into();
        self.w_last.next = false;
        for i in 0..8 {
            self.rx[i].wr_grant.next =
                self.cq.wr_grant_valid.val() & (self.cq.wr_grant.val().index() == i);
            if self.cq.wr_grant.val().index() == i {
                self.w_out.next = self.rx[i].ready_out.val();
                self.w_last.next = self.rx[i].ready_last.val();
            }
        }
        if self.cq.wr_grant_valid.val() & self.w_last.val() {
            for o in 0..8 {
                if self.w_out.val().index() == o {
                    self.lock_v[o].d.next = false;
                }
            }
        }
        // Read grant and read data to the transmitters.
        for o in 0..8 {
            self.tx[o].rd_grant.next =
                self.cq.rd_grant_valid.val() & (self.cq.rd_grant.val().index() == o);
            self.tx[o].chunk_valid.next =
                self.cq.rd_valid.val() & (self.cq.rd_out.val().index() == o);
            self.tx[o].chunk_data.next = self.cq.rd_data.val();
            self.tx[o].chunk_bytes.next = self.cq.rd_bytes.val();
            self.tx[o].chunk_last.next = self.cq.rd_last.val();
            self.tx[o].chunk_bad.next = self.cq.rd_bad.val();
        }
        // Room for each receiver's crossbar byte: at its transmitter, with its register as it is; or, granted
        // this cycle, at the idle transmitter it was given.
        for i in 0..8 {
            self.rm[i].next = false;
            for o in 0..8 {
                if self.rx[i].xbar_on.val() & (self.rx[i].xbar_out.val().index() == o) {
                    if self.rx[i].xbar_valid.val() {
                        self.rm[i].next = self.tx[o].room1.val();
                    } else {
                        self.rm[i].next = self.tx[o].room0.val();
                    }
                }
                if self.xg[i].val() & (self.xgo[i].val().index() == o) {
                    self.rm[i].next = self.tx[o].room0.val();
                }
            }
            self.rx[i].room.next = self.rm[i].val();
        }
        // Each transmitter's crossbar input: the register of the receiver it is connected to.
        for o in 0..8 {
            self.xv[o].next = false;
            self.xb[o].next = 0.into();
            self.xl[o].next = false;
            self.xbd[o].next = false;
            for i in 0..8 {
                if self.tx[o].src_xbar.val() & (self.tx[o].src_rx.val().index() == i) {
                    self.xv[o].next = self.rx[i].xbar_valid.val();
                    self.xb[o].next = self.rx[i].xbar_byte.val();
                    self.xl[o].next = self.rx[i].xbar_last.val();
                    self.xbd[o].next = self.rx[i].xbar_bad.val();
                }
            }
            self.tx[o].xbar_valid.next = self.xv[o].val();
            self.tx[o].xbar_byte.next = self.xb[o].val();
            self.tx[o].xbar_last.next = self.xl[o].val();
            self.tx[o].xbar_bad.next = self.xbd[o].val();
        }
        // Outputs.
        self.lv_acc[0].next = 0.into();
        self.ld_acc[0].next = 0.into();
        self.tk_acc[0].next = 0.into();
        for p in 0..8 {
            self.wout8[p].a.next = self.tx[p].link_byte.val();
            self.ld_acc[p + 1].next =
                self.ld_acc[p].val() | (self.wout8[p].y.val() << self.o8[p].val());
            if self.tx[p].link_valid.val() {
                self.lv_acc[p + 1].next = self.lv_acc[p].val() | self.bit[p].val();
            } else {
                self.lv_acc[p + 1].next = self.lv_acc[p].val();
            }
            if self.rx[p].token_out.val() {
                self.tk_acc[p + 1].next = self.tk_acc[p].val() | self.bit[p].val();
            } else {
                self.tk_acc[p + 1].next = self.tk_acc[p].val();
            }
        }
        self.link_out_valid.next = self.lv_acc[8].val();
        self.link_out_data.next = self.ld_acc[8].val();
        self.token_out.next = self.tk_acc[8].val();
        // The receivers' error counters.
        self.ce_acc[0].next = 0.into();
        self.re_acc[0].next = 0.into();
        for p in 0..8 {
            self.wce[p].a.next = self.rx[p].crc_errors.val();
            self.wre[p].a.next = self.rx[p].route_errors.val();
            self.ce_acc[p + 1].next =
                self.ce_acc[p].val() | (self.wce[p].y.val() << self.o8[p].val());
            self.re_acc[p + 1].next =
                self.re_acc[p].val() | (self.wre[p].y.val() << self.o8[p].val());
        }
        self.crc_errors.next = self.ce_acc[8].val();
        self.route_errors.next = self.re_acc[8].val();
    }
}

/// The port documentation of the exported top `sp2_switch` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The SP2-style 8x8 ASR switch (docs/sp2-switch.md): 8 receivers, 8 transmitters, the \
                  central queue, the crossbar allocated by the 2-pass matching heuristic. Twin of \
                  asr_model::sp2::switch::Sp2Switch (hdl/src/sp2/switch.rs). Port p's byte is at bits \
                  [p*8 +: 8], its flag at bit p. Links carry bytes with credit-based flow control: a \
                  sender may have at most 16 bytes outstanding per link and gets one token per byte the \
                  receiver frees."
            .into(),
        ports: docs(&[
            CLOCK,
            ("link_in_valid", "bit p: a byte arrives on input link p"),
            ("link_in_data", "input link p's byte"),
            ("token_in", "bit p: a credit from the device downstream of output p"),
            ("link_out_valid", "bit p: output p's register holds a byte"),
            ("link_out_data", "output p's byte; 0 when not valid"),
            ("token_out", "bit p: a credit back to the device upstream of input p"),
            ("crc_errors", "receiver i's 8-bit wrapping count of CRC errors at bits [i*8 +: 8] (registered)"),
            ("route_errors", "receiver i's 8-bit wrapping count of dropped malformed packets (registered)"),
        ]),
        latency: "5 cycles from LEN in to LEN - 1 out without contention (cut-through)".into(),
    }
}

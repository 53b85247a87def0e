//! The v2 SP2-style 8×8 ASR switch (docs/sp2-switch.md, v2), exported as `sp2_switch_v2`. Hardware twin of
//! `asr_model::sp2::v2::switch::Sp2SwitchV2`: 8 v2 receivers, the pipelined crossbar allocator, the central
//! queue with per-packet chunk chains, 8 v2 transmitters, and the glue of the model's `decide`.
//!
//! Ports (the same in every version, so one board serves them all):
//! - in `clock`; `link_in_valid[7:0]`, `link_in_data[63:0]` (input port p's byte at bits `[8p +: 8]`);
//!   `token_in[7:0]` (a token from the receiver downstream of output p);
//! - out `link_out_valid[7:0]`, `link_out_data[63:0]` (the transmitters' output registers); `token_out[7:0]`
//!   (receiver p consumed a byte last cycle); `crc_errors[63:0]`, `route_errors[63:0]` (receiver p's wrapping
//!   8-bit counters at bits `[8p +: 8]`).
//!
//! Glue, per cycle (the model's `Sp2SwitchV2::decide`): transmitter o is *free now* when it is idle with an
//! empty queue path and load 0, or when its crossbar packet's end is taken in this cycle; *free spec* when it
//! is idle so, or its crossbar receiver's next byte to offer is the end (`at_end`, from registers only);
//! *free soon* also when its crossbar receiver has at most `LATENCY + 1` bytes left (`soon`). None of the
//! three while o is *busy*: chunks queued or promised for it or an admission for it pending (the queue's
//! `busy`), or queue-path state in its transmitter (`queued`) — the service rule: a newer crossbar packet
//! never overtakes a queued one (docs/sp2-switch.md v2 §D). The allocator grants among free-spec columns
//! and the rows' `spec_set`s (from registers only: a row is granted only a column of the set of the packet
//! it waits for) and registers the new matrix masked with free-soon; a grant stands where the column is
//! free now and the row `waiting` now (`g_ok`), else it is cancelled. Every receiver presents its admission
//! request (`adm_set`, `chunks`, from its `R1` cycle on; the central queue arbitrates on the previous
//! cycle's) and asks (`adm_valid`) only when none of its permitted outputs is free spec or free soon. Every
//! transmitter takes the offer of the receiver it is connected to when it has credit. So the crossbar offer
//! reaches only the ANDs after the allocator's arbiters, and the asks only the AND after the queue's
//! admission arbiter (docs/sp2-switch.md v2 §A, §C).
//!
//! Latency: 6 cycles from `LEN` in to `LEN − 1` out without contention (the model's figure; measured by
//! `model/tests/sp2_switch_v2.rs`).

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::parts::{blocks, locals, port_offsets as offsets};

use super::allocator::Sp2Allocator;
use super::central_queue::CentralQueueV2;
use super::receiver::Receiver;
use super::transmitter::Sp2Transmitter as Transmitter;
use crate::matcher::Widen;

/// The v2 SP2-style 8×8 switch; see the module documentation for ports, glue and latency.
#[derive(LogicBlock)]
pub struct Sp2SwitchV2 {
    /// Clock of every block of the switch.
    pub clock: Signal<In, Clock>,
    /// Bit p: a byte arrives on input link p in this cycle.
    pub link_in_valid: Signal<In, Bits<8>>,
    /// Input link p's byte at bits `[8p +: 8]`.
    pub link_in_data: Signal<In, Bits<64>>,
    /// Bit p: a token from the receiver downstream of output p (one byte of room freed).
    pub token_in: Signal<In, Bits<8>>,
    /// Bit p: output p's register holds a byte; registered.
    pub link_out_valid: Signal<Out, Bits<8>>,
    /// Output p's byte at bits `[8p +: 8]`; 0 when not valid; registered.
    pub link_out_data: Signal<Out, Bits<64>>,
    /// Bit p: a token to the sender upstream of input p: receiver p consumed a byte in the last cycle;
    /// registered.
    pub token_out: Signal<Out, Bits<8>>,
    /// Receiver p's wrapping 8-bit count of packets with a CRC error at bits `[8p +: 8]`; registered.
    pub crc_errors: Signal<Out, Bits<64>>,
    /// Receiver p's wrapping 8-bit count of dropped malformed packets at bits `[8p +: 8]`; registered.
    pub route_errors: Signal<Out, Bits<64>>,
    /// The receivers, one per input port.
    pub rx: Vec<Receiver>,
    /// The transmitters, one per output port.
    pub tx: Vec<Transmitter>,
    /// The central queue.
    pub cq: CentralQueueV2,
    /// The crossbar allocator (row = receiver, column = transmitter).
    pub alloc: Sp2Allocator,
    /// The receiver the central queue admitted in the last cycle (one-hot): it learns it now, and is held
    /// out of the allocator's and the queue's requests in this cycle.
    pub adm_late: DFF<Bits<8>>,
    o8: Vec<Constant<Bits<16>>>,
    o3: Vec<Constant<Bits<16>>>,
    o4: Vec<Constant<Bits<16>>>,
    o6: Vec<Constant<Bits<16>>>,
    o64: Vec<Constant<Bits<16>>>,
    bit: Vec<Constant<Bits<8>>>,
    idx: Vec<Constant<Bits<3>>>,
    // Per transmitter: the connected receiver's offer and flags.
    x_v: Vec<Signal<Local, Bit>>,
    x_b: Vec<Signal<Local, Bits<8>>>,
    x_e: Vec<Signal<Local, Bit>>,
    x_bad: Vec<Signal<Local, Bit>>,
    x_soon: Vec<Signal<Local, Bit>>,
    // Per receiver: its transmitter takes; its offer is taken; granted (and which output).
    r_takes: Vec<Signal<Local, Bit>>,
    r_taken: Vec<Signal<Local, Bit>>,
    r_g: Vec<Signal<Local, Bit>>,
    r_go: Vec<Signal<Local, Bits<3>>>,
    // Accumulators (9 per chain: 0 and one per port).
    now_acc: Vec<Signal<Local, Bits<8>>>,
    soon_acc: Vec<Signal<Local, Bits<8>>>,
    wait_acc: Vec<Signal<Local, Bits<8>>>,
    req_acc: Vec<Signal<Local, Bits<64>>>,
    av_acc: Vec<Signal<Local, Bits<8>>>,
    as_acc: Vec<Signal<Local, Bits<64>>>,
    ac_acc: Vec<Signal<Local, Bits<48>>>,
    wv_acc: Vec<Signal<Local, Bits<8>>>,
    wd_acc: Vec<Signal<Local, Bits<512>>>,
    wb_acc: Vec<Signal<Local, Bits<32>>>,
    wl_acc: Vec<Signal<Local, Bits<8>>>,
    wbad_acc: Vec<Signal<Local, Bits<8>>>,
    rq_acc: Vec<Signal<Local, Bits<8>>>,
    lv_acc: Vec<Signal<Local, Bits<8>>>,
    ld_acc: Vec<Signal<Local, Bits<64>>>,
    tk_acc: Vec<Signal<Local, Bits<8>>>,
    ce_acc: Vec<Signal<Local, Bits<64>>>,
    re_acc: Vec<Signal<Local, Bits<64>>>,
    free_now: Signal<Local, Bits<8>>,
    x_end: Vec<Signal<Local, Bit>>,
    spec_acc: Vec<Signal<Local, Bits<8>>>,
    /// Per receiver at `[8i +: 8]`: the set it waits with (its `spec_set`, 0 for the one admitted last cycle).
    wset_acc: Vec<Signal<Local, Bits<64>>>,
    free_spec: Signal<Local, Bits<8>>,
    /// Outputs busy for new crossbar packets: chunks queued or promised, an admission pending, or the
    /// transmitter already holding queue-path state.
    busy: Signal<Local, Bits<8>>,
    bz_acc: Vec<Signal<Local, Bits<8>>>,
    free_soon: Signal<Local, Bits<8>>,
    g_ok: Vec<Signal<Local, Bit>>,
    g_row: Vec<Signal<Local, Bits<3>>>,
    /// Per receiver: the columns whose speculative grant names it (from registers only).
    gs: Vec<Signal<Local, Bits<8>>>,
    /// Per transmitter: its speculative grant's row waits now.
    g_w: Vec<Signal<Local, Bit>>,
    gmask: Vec<Signal<Local, Bits<3>>>,
    w_req: Vec<Widen<8, 64>>,
    w_ss: Vec<Widen<8, 64>>,
    w_set: Vec<Widen<8, 64>>,
    w_ch: Vec<Widen<6, 48>>,
    w_dat: Vec<Widen<64, 512>>,
    w_byt: Vec<Widen<4, 32>>,
    w_link: Vec<Widen<8, 64>>,
    w_ce: Vec<Widen<8, 64>>,
    w_re: Vec<Widen<8, 64>>,
}

impl Default for Sp2SwitchV2 {
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
            alloc: Default::default(),
            adm_late: Default::default(),
            o8: offsets(8),
            o3: offsets(3),
            o4: offsets(4),
            o6: offsets(6),
            o64: offsets(64),
            bit: (0..8).map(|i| Constant::new((1u64 << i).into())).collect(),
            idx: (0..8).map(|i| Constant::new((i as u64).into())).collect(),
            x_v: locals(8),
            x_b: locals(8),
            x_e: locals(8),
            x_bad: locals(8),
            x_soon: locals(8),
            r_takes: locals(8),
            r_taken: locals(8),
            r_g: locals(8),
            r_go: locals(8),
            now_acc: locals(9),
            soon_acc: locals(9),
            wait_acc: locals(9),
            req_acc: locals(9),
            av_acc: locals(9),
            as_acc: locals(9),
            ac_acc: locals(9),
            wv_acc: locals(9),
            wd_acc: locals(9),
            wb_acc: locals(9),
            wl_acc: locals(9),
            wbad_acc: locals(9),
            rq_acc: locals(9),
            lv_acc: locals(9),
            ld_acc: locals(9),
            tk_acc: locals(9),
            ce_acc: locals(9),
            re_acc: locals(9),
            free_now: Default::default(),
            x_end: locals(8),
            spec_acc: locals(9),
            wset_acc: locals(9),
            free_spec: Default::default(),
            busy: Default::default(),
            bz_acc: locals(9),
            free_soon: Default::default(),
            g_ok: locals(8),
            g_row: locals(8),
            gs: locals(8),
            g_w: locals(8),
            gmask: locals(8),
            w_req: blocks(8),
            w_ss: blocks(8),
            w_set: blocks(8),
            w_ch: blocks(8),
            w_dat: blocks(8),
            w_byt: blocks(8),
            w_link: blocks(8),
            w_ce: blocks(8),
            w_re: blocks(8),
        }
    }
}

impl Logic for Sp2SwitchV2 {
    #[hdl_gen]
    fn update(&mut self) {
        self.cq.clock.next = self.clock.val();
        self.alloc.clock.next = self.clock.val();
        self.adm_late.clock.next = self.clock.val();
        // The queue's admission, one-hot (no decoder of its binary grant on this path).
        self.adm_late.d.next = self.cq.adm_oh.val();
        for p in 0..8 {
            self.rx[p].clock.next = self.clock.val();
            self.tx[p].clock.next = self.clock.val();
            self.rx[p].link_valid.next = self.link_in_valid.val().get_bit(p);
            self.rx[p].link_byte.next = self
                .link_in_data
                .val()
                .get_bits::<8>(self.o8[p].val().index());
            self.tx[p].token_in.next = self.token_in.val().get_bit(p);
            self.tx[p].load.next = self.cq.load.val().get_bits::<8>(self.o8[p].val().index());
            // Zero-extended fields for the packed buses (a block each: rust-hdl cannot `bit_cast` an
            // indexed signal).
            self.w_req[p].a.next = self.rx[p].req.val();
            self.w_ss[p].a.next = self.rx[p].spec_set.val();
            self.w_set[p].a.next = self.rx[p].adm_set.val();
            self.w_ch[p].a.next = self.rx[p].chunks.val();
            self.w_dat[p].a.next = self.rx[p].ready_data.val();
            self.w_byt[p].a.next = self.rx[p].ready_bytes.val();
            self.w_link[p].a.next = self.tx[p].link_byte.val();
            self.w_ce[p].a.next = self.rx[p].crc_errors.val();
            self.w_re[p].a.next = self.rx[p].route_errors.val();
        }
        // Each transmitter's crossbar receiver: its offer, whether it ends, whether it has few bytes left.
        for o in 0..8 {
            self.x_v[o].next = false;
            self.x_b[o].next = 0.into();
            self.x_e[o].next = false;
            self.x_bad[o].next = false;
            self.x_soon[o].next = false;
            self.x_end[o].next = false;
            for i in 0..8 {
                if self.tx[o].src_rx.val().index() == i {
                    self.x_v[o].next = self.rx[i].offer_valid.val();
                    self.x_b[o].next = self.rx[i].offer_byte.val();
                    self.x_e[o].next = self.rx[i].offer_end.val();
                    self.x_bad[o].next = self.rx[i].offer_bad.val();
                    self.x_soon[o].next = self.rx[i].soon.val();
                    self.x_end[o].next = self.rx[i].at_end.val();
                }
            }
            self.tx[o].offer_valid.next = self.x_v[o].val();
            self.tx[o].offer_byte.next = self.x_b[o].val();
            self.tx[o].offer_end.next = self.x_e[o].val();
            self.tx[o].offer_bad.next = self.x_bad[o].val();
        }
        // Per receiver: its transmitter takes offers this cycle, and takes the one it shows.
        for i in 0..8 {
            self.r_takes[i].next = false;
            for o in 0..8 {
                if self.tx[o].src_xbar.val()
                    & (self.tx[o].src_rx.val().index() == i)
                    & self.tx[o].takes.val()
                {
                    self.r_takes[i].next = true;
                }
            }
            self.rx[i].takes.next = self.r_takes[i].val();
            self.r_taken[i].next = self.r_takes[i].val() & self.rx[i].offer_valid.val();
            self.rx[i].taken.next = self.r_taken[i].val();
        }
        // Busy outputs: the queue's (load, pending admission) and the transmitters holding queue-path state.
        self.bz_acc[0].next = self.cq.busy.val();
        for o in 0..8 {
            self.bz_acc[o + 1].next = self.bz_acc[o].val();
            if self.tx[o].queued.val() {
                self.bz_acc[o + 1].next = self.bz_acc[o].val() | self.bit[o].val();
            }
        }
        self.busy.next = self.bz_acc[8].val();
        // Free now / free soon.
        self.now_acc[0].next = 0.into();
        self.soon_acc[0].next = 0.into();
        for o in 0..8 {
            self.now_acc[o + 1].next = self.now_acc[o].val();
            self.soon_acc[o + 1].next = self.soon_acc[o].val();
            if self.tx[o].src_xbar.val() {
                if self.tx[o].takes.val() & self.x_v[o].val() & self.x_e[o].val() {
                    self.now_acc[o + 1].next = self.now_acc[o].val() | self.bit[o].val();
                }
                if self.x_soon[o].val() {
                    self.soon_acc[o + 1].next = self.soon_acc[o].val() | self.bit[o].val();
                }
            } else if self.tx[o].free.val() {
                self.now_acc[o + 1].next = self.now_acc[o].val() | self.bit[o].val();
                self.soon_acc[o + 1].next = self.soon_acc[o].val() | self.bit[o].val();
            }
        }
        self.free_now.next = self.now_acc[8].val() & !self.busy.val();
        self.free_soon.next = self.soon_acc[8].val() & !self.busy.val();
        self.spec_acc[0].next = 0.into();
        for o in 0..8 {
            self.spec_acc[o + 1].next = self.spec_acc[o].val();
            if (self.tx[o].src_xbar.val() & self.x_end[o].val())
                | (!self.tx[o].src_xbar.val() & self.tx[o].free.val())
            {
                self.spec_acc[o + 1].next = self.spec_acc[o].val() | self.bit[o].val();
            }
        }
        self.free_spec.next = self.spec_acc[8].val() & !self.busy.val();
        // The allocator: requests, waiting rows, free columns (now for the grants, soon for the matrix).
        self.req_acc[0].next = 0.into();
        self.wait_acc[0].next = 0.into();
        self.wset_acc[0].next = 0.into();
        for i in 0..8 {
            if self.adm_late.q.val().get_bit(i) {
                self.wset_acc[i + 1].next = self.wset_acc[i].val();
            } else {
                self.wset_acc[i + 1].next =
                    self.wset_acc[i].val() | (self.w_ss[i].y.val() << self.o8[i].val());
            }
            self.req_acc[i + 1].next =
                self.req_acc[i].val() | (self.w_req[i].y.val() << self.o8[i].val());
            if self.rx[i].waiting.val() & !self.adm_late.q.val().get_bit(i) {
                self.wait_acc[i + 1].next = self.wait_acc[i].val() | self.bit[i].val();
            } else {
                self.wait_acc[i + 1].next = self.wait_acc[i].val();
            }
        }
        self.alloc.req.next = self.req_acc[8].val();
        self.alloc.wait_set.next = self.wset_acc[8].val();
        self.alloc.free.next = self.free_spec.val();
        self.alloc.mat_free.next = self.free_soon.val();
        // Grants made on the speculative free/waiting bits, kept only where the column is free now and the
        // row waits now.
        for o in 0..8 {
            self.g_row[o].next = self
                .alloc
                .grant_row
                .val()
                .get_bits::<3>(self.o3[o].val().index());
            self.tx[o].grant_rx.next = self.g_row[o].val();
        }
        // The late bits (free now, waiting now) enter only AND-OR terms whose selects come from the
        // allocator's registers (a row has at most one grant), not a multiplexer indexed by the grant's row.
        for i in 0..8 {
            self.gs[i].next = 0.into();
            self.r_go[i].next = 0.into();
            for o in 0..8 {
                if self.alloc.grant_valid.val().get_bit(o) & (self.g_row[o].val().index() == i) {
                    self.gs[i].next = self.gs[i].val() | self.bit[o].val();
                    self.r_go[i].next = self.idx[o].val();
                }
            }
            self.r_g[i].next =
                self.wait_acc[8].val().get_bit(i) & (self.gs[i].val() & self.free_now.val()).any();
            self.gmask[i].next = 0.into();
            if self.r_g[i].val() {
                self.gmask[i].next = 7.into();
            }
            self.rx[i].grant.next = self.r_g[i].val();
            // (A sub-block's input is assigned once: Icarus livelocks otherwise, docs/hdl.md.)
            self.rx[i].grant_out.next = self.r_go[i].val() & self.gmask[i].val();
        }
        for o in 0..8 {
            self.g_w[o].next = false;
            for i in 0..8 {
                if self.gs[i].val().get_bit(o) & self.wait_acc[8].val().get_bit(i) {
                    self.g_w[o].next = true;
                }
            }
            self.g_ok[o].next = self.free_now.val().get_bit(o) & self.g_w[o].val();
            self.tx[o].grant.next = self.g_ok[o].val();
        }
        // The central queue: admissions (only when no permitted output is free now), writes, reads.
        self.av_acc[0].next = 0.into();
        self.as_acc[0].next = 0.into();
        self.ac_acc[0].next = 0.into();
        self.wv_acc[0].next = 0.into();
        self.wd_acc[0].next = 0.into();
        self.wb_acc[0].next = 0.into();
        self.wl_acc[0].next = 0.into();
        self.wbad_acc[0].next = 0.into();
        for i in 0..8 {
            self.av_acc[i + 1].next = self.av_acc[i].val();
            // The request (presented from the `R1` cycle on; the queue decides on the previous cycle's) and
            // the ask.
            self.as_acc[i + 1].next =
                self.as_acc[i].val() | (self.w_set[i].y.val() << self.o8[i].val());
            self.ac_acc[i + 1].next =
                self.ac_acc[i].val() | (self.w_ch[i].y.val() << self.o6[i].val());
            if self.rx[i].may_queue.val()
                & !self.adm_late.q.val().get_bit(i)
                & !(self.rx[i].adm_set.val() & (self.free_spec.val() | self.free_soon.val())).any()
            {
                self.av_acc[i + 1].next = self.av_acc[i].val() | self.bit[i].val();
            }
            self.wd_acc[i + 1].next =
                self.wd_acc[i].val() | (self.w_dat[i].y.val() << self.o64[i].val());
            self.wb_acc[i + 1].next =
                self.wb_acc[i].val() | (self.w_byt[i].y.val() << self.o4[i].val());
            self.wv_acc[i + 1].next = self.wv_acc[i].val();
            self.wl_acc[i + 1].next = self.wl_acc[i].val();
            self.wbad_acc[i + 1].next = self.wbad_acc[i].val();
            if self.rx[i].ready_valid.val() {
                self.wv_acc[i + 1].next = self.wv_acc[i].val() | self.bit[i].val();
            }
            if self.rx[i].ready_last.val() {
                self.wl_acc[i + 1].next = self.wl_acc[i].val() | self.bit[i].val();
            }
            if self.rx[i].ready_bad.val() {
                self.wbad_acc[i + 1].next = self.wbad_acc[i].val() | self.bit[i].val();
            }
            self.rx[i].admitted.next = self.adm_late.q.val().get_bit(i);
            self.rx[i].written.next = self.cq.wr_oh.val().get_bit(i);
        }
        self.cq.adm_valid.next = self.av_acc[8].val();
        self.cq.adm_set.next = self.as_acc[8].val();
        self.cq.adm_chunks.next = self.ac_acc[8].val();
        self.cq.wr_valid.next = self.wv_acc[8].val();
        self.cq.wr_data.next = self.wd_acc[8].val();
        self.cq.wr_bytes.next = self.wb_acc[8].val();
        self.cq.wr_last.next = self.wl_acc[8].val();
        self.cq.wr_bad.next = self.wbad_acc[8].val();
        self.rq_acc[0].next = 0.into();
        for o in 0..8 {
            if self.tx[o].wants.val() {
                self.rq_acc[o + 1].next = self.rq_acc[o].val() | self.bit[o].val();
            } else {
                self.rq_acc[o + 1].next = self.rq_acc[o].val();
            }
            self.tx[o].read.next =
                self.cq.rd_grant_valid.val() & (self.cq.rd_grant.val().index() == o);
            self.tx[o].chunk_valid.next =
                self.cq.rd_valid.val() & (self.cq.rd_out.val().index() == o);
            self.tx[o].chunk_data.next = self.cq.rd_data.val();
            self.tx[o].chunk_bytes.next = self.cq.rd_bytes.val();
            self.tx[o].chunk_last.next = self.cq.rd_last.val();
            self.tx[o].chunk_bad.next = self.cq.rd_bad.val();
        }
        self.cq.rd_req.next = self.rq_acc[8].val();
        // Outputs.
        self.lv_acc[0].next = 0.into();
        self.ld_acc[0].next = 0.into();
        self.tk_acc[0].next = 0.into();
        self.ce_acc[0].next = 0.into();
        self.re_acc[0].next = 0.into();
        for p in 0..8 {
            self.ld_acc[p + 1].next =
                self.ld_acc[p].val() | (self.w_link[p].y.val() << self.o8[p].val());
            self.ce_acc[p + 1].next =
                self.ce_acc[p].val() | (self.w_ce[p].y.val() << self.o8[p].val());
            self.re_acc[p + 1].next =
                self.re_acc[p].val() | (self.w_re[p].y.val() << self.o8[p].val());
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
        self.crc_errors.next = self.ce_acc[8].val();
        self.route_errors.next = self.re_acc[8].val();
    }
}

/// The port documentation of the exported top `sp2_switch_v2` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The v2 SP2-style 8x8 ASR switch (docs/sp2-switch.md, v2): 8 receivers with block-RAM FIFOs, \
                  the pipelined crossbar allocator, the central queue with per-packet chunk chains, 8 \
                  transmitters. Twin of \
                  asr_model::sp2::v2::switch::Sp2SwitchV2 (hdl/src/sp2/v2/switch.rs). Port p's byte is at bits \
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
        latency: "6 cycles from LEN in to LEN - 1 out without contention (cut-through)".into(),
    }
}

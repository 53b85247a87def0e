//! The central queue of the SP2-style switch (docs/sp2-switch.md §6). Hardware twin of
//! `model/src/sp2/central_queue.rs` (`asr_model::sp2::central_queue::CentralQueue`), exported as
//! `central_queue`; equal to the model at its ports in every cycle.
//!
//! [`CentralQueue`] ports (receiver/transmitter/output k's field at bits `[k*W +: W]`):
//! - in `clock`;
//! - in `wr_valid[7:0]` (receiver i offers a chunk), `wr_out[23:0]` (3 bits per receiver: the output whose
//!   list the chunk joins), `wr_data[511:0]` (64 bits per receiver, byte 0 of the chunk in bits 7:0 as in the
//!   model's `u64`), `wr_bytes[31:0]` (4 bits per receiver: 1..8), `wr_last[7:0]`, `wr_bad[7:0]`;
//! - in `rd_req[7:0]` (transmitter o can take a chunk);
//! - out `wr_grant_valid`, `wr_grant[2:0]` (the receiver that writes in this cycle; 0 when none);
//! - out `rd_grant_valid`, `rd_grant[2:0]` (the transmitter that reads in this cycle; 0 when none);
//! - out `rd_valid`, `rd_out[2:0]`, `rd_data[63:0]`, `rd_bytes[3:0]`, `rd_last`, `rd_bad`: the chunk read
//!   at the previous edge (the model's `rd_data`); all 0 when `rd_valid` is 0;
//! - out `count[63:0]` (8 bits per output: chunks queued), `free[7:0]` (chunks on the free list).
//!
//! Inputs are assumed valid (the model's `CqError` cases: bytes outside 1..8, or less than 8 in a chunk that
//! is not the last, are never offered by a receiver).
//!
//! Storage:
//! - chunk data: `RAM<Bits<64>, 7>` (`data`), registered read; maps to 4 iCE40 `SB_RAM40_4K`. Its read
//!   address is the head of the granted transmitter's list, computed combinationally in the grant cycle, so
//!   the data leave the RAM's output register in the next cycle, exactly the model's `rd_data` timing.
//!   A chunk is never written and read in one cycle (the written chunk comes from the free list, the read
//!   one from an output list), so the export marks the memory `(* no_rw_check *)`.
//! - per-chunk meta `{bad, last, bytes[3:0]}`: `RAM<Bits<6>, 7>` (`meta`), same addresses (1 `SB_RAM40_4K`).
//! - next pointers: two arrays of 128 × 7-bit registers (`list_next`, `free_next`), as in the model. They
//!   are registers, not RAM, because the next head of a list (`list_next[head[t]]`, `free_next[free_head]`)
//!   is needed in the same cycle as the grant that pops it, and a RAM only gives its data a cycle later.
//! - per output `head`, `tail` (7 bits), `count` (8 bits); `free_head` (7), `free` (8, initially 128); the
//!   free list initially 0, 1, …, 127; `slack` = free − (number of empty outputs) (9 bits two's
//!   complement, initially 120, updated at each edge from the grants, so the reservation rule is a sign
//!   and a zero test of a register, with no population count or comparator); two [`Lrs8`] arbiters.
//!
//! Per cycle, from the registered state (the model's `eval` then `commit`): a write for output o is
//! allowed iff `free ≥ (empty outputs other than o) + 1`; the write LRS picks among receivers offering an
//! allowed chunk, the read LRS among transmitters asking with `count > 0`. At the edge: the read pops the
//! head `c` of its list (data and meta into the RAM output registers), then the write pops the free head
//! and appends it to its output's list (as the new head if that list is empty after the read), then `c`
//! is pushed on the free list. Latency: 1 cycle from read grant to `rd_*`; a written chunk is readable
//! (counted) from the next cycle on.

use rust_hdl::prelude::*;

use crate::lrs::Lrs8;
use crate::matcher::Widen;

/// Ports (receivers = transmitters = outputs).
pub const CQ_PORTS: usize = 8;
/// Chunks.
pub const CQ_CHUNKS: usize = 128;

#[derive(LogicBlock)]
pub struct CentralQueue {
    pub clock: Signal<In, Clock>,
    pub wr_valid: Signal<In, Bits<8>>,
    pub wr_out: Signal<In, Bits<24>>,
    pub wr_data: Signal<In, Bits<512>>,
    pub wr_bytes: Signal<In, Bits<32>>,
    pub wr_last: Signal<In, Bits<8>>,
    pub wr_bad: Signal<In, Bits<8>>,
    pub rd_req: Signal<In, Bits<8>>,
    pub wr_grant_valid: Signal<Out, Bit>,
    pub wr_grant: Signal<Out, Bits<3>>,
    pub rd_grant_valid: Signal<Out, Bit>,
    pub rd_grant: Signal<Out, Bits<3>>,
    pub rd_valid: Signal<Out, Bit>,
    pub rd_out: Signal<Out, Bits<3>>,
    pub rd_data: Signal<Out, Bits<64>>,
    pub rd_bytes: Signal<Out, Bits<4>>,
    pub rd_last: Signal<Out, Bit>,
    pub rd_bad: Signal<Out, Bit>,
    pub count: Signal<Out, Bits<64>>,
    pub free: Signal<Out, Bits<8>>,
    // Storage.
    pub data: RAM<Bits<64>, 7>,
    pub meta: RAM<Bits<6>, 7>,
    pub list_next: Vec<DFF<Bits<7>>>,
    pub free_next: Vec<DFFWithInit<Bits<7>>>,
    pub head: Vec<DFF<Bits<7>>>,
    pub tail: Vec<DFF<Bits<7>>>,
    pub cnt: Vec<DFF<Bits<8>>>,
    pub free_head: DFF<Bits<7>>,
    pub nfree: DFFWithInit<Bits<8>>,
    pub slack: DFFWithInit<Bits<9>>,
    pub wr_arb: Lrs8,
    pub rd_arb: Lrs8,
    pub rd_valid_r: DFF<Bit>,
    pub rd_out_r: DFF<Bits<3>>,
    // Constants: field offsets and bit masks.
    o3: Vec<Constant<Bits<16>>>,
    o4: Vec<Constant<Bits<16>>>,
    o8: Vec<Constant<Bits<16>>>,
    o64: Vec<Constant<Bits<16>>>,
    bit: Vec<Constant<Bits<8>>>,
    // Locals.
    wo: Vec<Signal<Local, Bits<3>>>,
    ge: Signal<Local, Bit>,
    gt: Signal<Local, Bit>,
    cnt_r: Signal<Local, Bits<8>>,
    cnt_w: Signal<Local, Bits<8>>,
    ne_dec: Signal<Local, Bit>,
    ne_inc: Signal<Local, Bit>,
    sl1: Signal<Local, Bits<9>>,
    sl2: Signal<Local, Bits<9>>,
    sl3: Signal<Local, Bits<9>>,
    okacc: Vec<Signal<Local, Bits<8>>>,
    wmacc: Vec<Signal<Local, Bits<8>>>,
    nzacc: Vec<Signal<Local, Bits<8>>>,
    cnt_after: Vec<Signal<Local, Bits<8>>>,
    c_rd: Signal<Local, Bits<7>>,
    ln: Signal<Local, Bits<7>>,
    w_out: Signal<Local, Bits<3>>,
    w_data: Signal<Local, Bits<64>>,
    w_bytes: Signal<Local, Bits<4>>,
    w_last: Signal<Local, Bit>,
    w_bad: Signal<Local, Bit>,
    c_wr: Signal<Local, Bits<7>>,
    fnext: Signal<Local, Bits<7>>,
    tail_w: Signal<Local, Bits<7>>,
    cnt_after_w: Signal<Local, Bits<8>>,
    fh1: Signal<Local, Bits<7>>,
    mflags: Signal<Local, Bits<6>>,
    meta_w: Signal<Local, Bits<6>>,
    meta_r: Signal<Local, Bits<6>>,
    wide: Vec<Widen<8, 64>>,
    cacc: Vec<Signal<Local, Bits<64>>>,
}

fn locals<T: Synth>(n: usize) -> Vec<Signal<Local, T>> {
    (0..n).map(|_| Signal::default()).collect()
}

fn offsets(w: usize) -> Vec<Constant<Bits<16>>> {
    (0..CQ_PORTS)
        .map(|i| Constant::new(((i * w) as u64).into()))
        .collect()
}

impl Default for CentralQueue {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            wr_valid: Default::default(),
            wr_out: Default::default(),
            wr_data: Default::default(),
            wr_bytes: Default::default(),
            wr_last: Default::default(),
            wr_bad: Default::default(),
            rd_req: Default::default(),
            wr_grant_valid: Default::default(),
            wr_grant: Default::default(),
            rd_grant_valid: Default::default(),
            rd_grant: Default::default(),
            rd_valid: Default::default(),
            rd_out: Default::default(),
            rd_data: Default::default(),
            rd_bytes: Default::default(),
            rd_last: Default::default(),
            rd_bad: Default::default(),
            count: Default::default(),
            free: Default::default(),
            data: Default::default(),
            meta: Default::default(),
            list_next: (0..CQ_CHUNKS).map(|_| Default::default()).collect(),
            free_next: (0..CQ_CHUNKS)
                .map(|k| DFFWithInit::new((((k + 1) % CQ_CHUNKS) as u64).into()))
                .collect(),
            head: (0..CQ_PORTS).map(|_| Default::default()).collect(),
            tail: (0..CQ_PORTS).map(|_| Default::default()).collect(),
            cnt: (0..CQ_PORTS).map(|_| Default::default()).collect(),
            free_head: Default::default(),
            nfree: DFFWithInit::new((CQ_CHUNKS as u64).into()),
            slack: DFFWithInit::new(((CQ_CHUNKS - CQ_PORTS) as u64).into()),
            wr_arb: Default::default(),
            rd_arb: Default::default(),
            rd_valid_r: Default::default(),
            rd_out_r: Default::default(),
            o3: offsets(3),
            o4: offsets(4),
            o8: offsets(8),
            o64: offsets(64),
            bit: (0..CQ_PORTS)
                .map(|i| Constant::new((1u64 << i).into()))
                .collect(),
            wo: locals(CQ_PORTS),
            ge: Default::default(),
            gt: Default::default(),
            cnt_r: Default::default(),
            cnt_w: Default::default(),
            ne_dec: Default::default(),
            ne_inc: Default::default(),
            sl1: Default::default(),
            sl2: Default::default(),
            sl3: Default::default(),
            okacc: locals(CQ_PORTS + 1),
            wmacc: locals(CQ_PORTS + 1),
            nzacc: locals(CQ_PORTS + 1),
            cnt_after: locals(CQ_PORTS),
            c_rd: Default::default(),
            ln: Default::default(),
            w_out: Default::default(),
            w_data: Default::default(),
            w_bytes: Default::default(),
            w_last: Default::default(),
            w_bad: Default::default(),
            c_wr: Default::default(),
            fnext: Default::default(),
            tail_w: Default::default(),
            cnt_after_w: Default::default(),
            fh1: Default::default(),
            mflags: Default::default(),
            meta_w: Default::default(),
            meta_r: Default::default(),
            wide: (0..CQ_PORTS).map(|_| Default::default()).collect(),
            cacc: locals(CQ_PORTS + 1),
        }
    }
}

impl Logic for CentralQueue {
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks and hold values. Statements are in dependency order: rust-hdl emits one `always @(*)` block
        // of blocking assignments (docs/hdl.md).
        dff_setup!(self, clock, free_head, rd_valid_r, rd_out_r);
        self.nfree.clock.next = self.clock.val();
        self.nfree.d.next = self.nfree.q.val();
        self.wr_arb.clock.next = self.clock.val();
        self.rd_arb.clock.next = self.clock.val();
        self.data.read_clock.next = self.clock.val();
        self.data.write_clock.next = self.clock.val();
        self.meta.read_clock.next = self.clock.val();
        self.meta.write_clock.next = self.clock.val();
        for k in 0..128 {
            self.list_next[k].clock.next = self.clock.val();
            self.list_next[k].d.next = self.list_next[k].q.val();
            self.free_next[k].clock.next = self.clock.val();
            self.free_next[k].d.next = self.free_next[k].q.val();
        }
        for o in 0..8 {
            self.head[o].clock.next = self.clock.val();
            self.head[o].d.next = self.head[o].q.val();
            self.tail[o].clock.next = self.clock.val();
            self.tail[o].d.next = self.tail[o].q.val();
            self.cnt[o].clock.next = self.clock.val();
            self.cnt[o].d.next = self.cnt[o].q.val();
        }
        // Empty outputs, and the reservation rule: output o may take a chunk iff
        // free >= (empty outputs other than o) + 1.
        // `slack` = free − (number of empty outputs), 9-bit two's complement, kept up to date at every edge,
        // so the rule needs no arithmetic: an empty o needs slack >= 0, a non-empty o slack > 0.
        self.slack.clock.next = self.clock.val();
        self.slack.d.next = self.slack.q.val();
        self.ge.next = !self.slack.q.val().get_bit(8);
        self.gt.next = !self.slack.q.val().get_bit(8) & self.slack.q.val().any();
        self.nzacc[0].next = 0.into();
        self.okacc[0].next = 0.into();
        for o in 0..8 {
            if self.cnt[o].q.val() == 0 {
                self.nzacc[o + 1].next = self.nzacc[o].val();
                if self.ge.val() {
                    self.okacc[o + 1].next = self.okacc[o].val() | self.bit[o].val();
                } else {
                    self.okacc[o + 1].next = self.okacc[o].val();
                }
            } else {
                self.nzacc[o + 1].next = self.nzacc[o].val() | self.bit[o].val();
                if self.gt.val() {
                    self.okacc[o + 1].next = self.okacc[o].val() | self.bit[o].val();
                } else {
                    self.okacc[o + 1].next = self.okacc[o].val();
                }
            }
        }
        // Write requests: receiver i offers a chunk for an output that may take one.
        self.wmacc[0].next = 0.into();
        for i in 0..8 {
            self.wo[i].next = self.wr_out.val().get_bits::<3>(self.o3[i].val().index());
            if self.wr_valid.val().get_bit(i)
                & self.okacc[8].val().get_bit(self.wo[i].val().index())
            {
                self.wmacc[i + 1].next = self.wmacc[i].val() | self.bit[i].val();
            } else {
                self.wmacc[i + 1].next = self.wmacc[i].val();
            }
        }
        self.wr_arb.req.next = self.wmacc[8].val();
        self.wr_arb.served.next = true;
        self.rd_arb.req.next = self.rd_req.val() & self.nzacc[8].val();
        self.rd_arb.served.next = true;
        self.wr_grant_valid.next = self.wr_arb.grant_valid.val();
        self.wr_grant.next = self.wr_arb.grant.val();
        self.rd_grant_valid.next = self.rd_arb.grant_valid.val();
        self.rd_grant.next = self.rd_arb.grant.val();
        // Read: the head of the granted transmitter's list, and its successor.
        self.c_rd.next = 0.into();
        self.cnt_r.next = 0.into();
        for o in 0..8 {
            if self.rd_arb.grant.val().index() == o {
                self.c_rd.next = self.head[o].q.val();
                self.cnt_r.next = self.cnt[o].q.val();
            }
        }
        self.ln.next = 0.into();
        for k in 0..128 {
            if self.c_rd.val().index() == k {
                self.ln.next = self.list_next[k].q.val();
            }
        }
        self.data.read_address.next = self.c_rd.val();
        self.meta.read_address.next = self.c_rd.val();
        self.rd_valid_r.d.next = self.rd_arb.grant_valid.val();
        self.rd_out_r.d.next = self.rd_arb.grant.val();
        for o in 0..8 {
            self.cnt_after[o].next = self.cnt[o].q.val();
            if self.rd_arb.grant_valid.val() & (self.rd_arb.grant.val().index() == o) {
                self.cnt_after[o].next = self.cnt[o].q.val() - 1;
                self.head[o].d.next = self.ln.val();
            }
        }
        // Write: the granted receiver's chunk into the free head.
        self.w_out.next = 0.into();
        self.w_data.next = 0.into();
        self.w_bytes.next = 0.into();
        self.w_last.next = false;
        self.w_bad.next = false;
        for i in 0..8 {
            if self.wr_arb.grant.val().index() == i {
                self.w_out.next = self.wo[i].val();
                self.w_data.next = self.wr_data.val().get_bits::<64>(self.o64[i].val().index());
                self.w_bytes.next = self.wr_bytes.val().get_bits::<4>(self.o4[i].val().index());
                self.w_last.next = self.wr_last.val().get_bit(i);
                self.w_bad.next = self.wr_bad.val().get_bit(i);
            }
        }
        self.c_wr.next = self.free_head.q.val();
        self.fnext.next = 0.into();
        for k in 0..128 {
            if self.c_wr.val().index() == k {
                self.fnext.next = self.free_next[k].q.val();
            }
        }
        self.tail_w.next = 0.into();
        self.cnt_after_w.next = 0.into();
        self.cnt_w.next = 0.into();
        for o in 0..8 {
            if self.w_out.val().index() == o {
                self.tail_w.next = self.tail[o].q.val();
                self.cnt_after_w.next = self.cnt_after[o].val();
                self.cnt_w.next = self.cnt[o].q.val();
            }
        }
        // Empty outputs after the edge: a write fills an empty list; a read empties a one-chunk list unless
        // the write goes to the same output.
        self.ne_dec.next = self.wr_arb.grant_valid.val() & (self.cnt_w.val() == 0);
        self.ne_inc.next = self.rd_arb.grant_valid.val()
            & (self.cnt_r.val() == 1)
            & !(self.wr_arb.grant_valid.val() & (self.w_out.val() == self.rd_arb.grant.val()));
        // slack' = slack + (read) - (write) - (inc) + (dec), one term at a time.
        self.sl1.next = self.slack.q.val();
        if self.rd_arb.grant_valid.val() {
            self.sl1.next = self.slack.q.val() + 1;
        }
        self.sl2.next = self.sl1.val();
        if self.wr_arb.grant_valid.val() {
            self.sl2.next = self.sl1.val() - 1;
        }
        self.sl3.next = self.sl2.val();
        if self.ne_inc.val() {
            self.sl3.next = self.sl2.val() - 1;
        }
        self.slack.d.next = self.sl3.val();
        if self.ne_dec.val() {
            self.slack.d.next = self.sl3.val() + 1;
        }
        // (A local is never read after being written in the same block: rust-hdl's simulation would read
        // its previous value.)
        self.mflags.next = 0.into();
        if self.w_last.val() & self.w_bad.val() {
            self.mflags.next = 48.into();
        } else if self.w_last.val() {
            self.mflags.next = 16.into();
        } else if self.w_bad.val() {
            self.mflags.next = 32.into();
        }
        self.meta_w.next = bit_cast::<6, 4>(self.w_bytes.val()) | self.mflags.val();
        self.data.write_address.next = self.c_wr.val();
        self.data.write_data.next = self.w_data.val();
        self.data.write_enable.next = self.wr_arb.grant_valid.val();
        self.meta.write_address.next = self.c_wr.val();
        self.meta.write_data.next = self.meta_w.val();
        self.meta.write_enable.next = self.wr_arb.grant_valid.val();
        self.fh1.next = self.free_head.q.val();
        if self.wr_arb.grant_valid.val() {
            self.fh1.next = self.fnext.val();
            for o in 0..8 {
                if self.w_out.val().index() == o {
                    self.tail[o].d.next = self.c_wr.val();
                    self.cnt[o].d.next = self.cnt_after[o].val() + 1;
                    if self.cnt_after[o].val() == 0 {
                        self.head[o].d.next = self.c_wr.val();
                    }
                } else {
                    self.cnt[o].d.next = self.cnt_after[o].val();
                }
            }
            if self.cnt_after_w.val() != 0 {
                for k in 0..128 {
                    if self.tail_w.val().index() == k {
                        self.list_next[k].d.next = self.c_wr.val();
                    }
                }
            }
        } else {
            for o in 0..8 {
                self.cnt[o].d.next = self.cnt_after[o].val();
            }
        }
        // The read chunk returns to the free list (pushed after the write's pop).
        self.free_head.d.next = self.fh1.val();
        if self.rd_arb.grant_valid.val() {
            self.free_head.d.next = self.c_rd.val();
            for k in 0..128 {
                if self.c_rd.val().index() == k {
                    self.free_next[k].d.next = self.fh1.val();
                }
            }
        }
        if self.wr_arb.grant_valid.val() & !self.rd_arb.grant_valid.val() {
            self.nfree.d.next = self.nfree.q.val() - 1;
        }
        if self.rd_arb.grant_valid.val() & !self.wr_arb.grant_valid.val() {
            self.nfree.d.next = self.nfree.q.val() + 1;
        }
        // Outputs: last cycle's read (0 when none), counts, free.
        self.rd_valid.next = self.rd_valid_r.q.val();
        self.rd_out.next = 0.into();
        self.rd_data.next = 0.into();
        self.rd_bytes.next = 0.into();
        self.rd_last.next = false;
        self.rd_bad.next = false;
        self.meta_r.next = self.meta.read_data.val();
        if self.rd_valid_r.q.val() {
            self.rd_out.next = self.rd_out_r.q.val();
            self.rd_data.next = self.data.read_data.val();
            self.rd_bytes.next = self.meta_r.val().get_bits::<4>(0);
            self.rd_last.next = self.meta_r.val().get_bit(4);
            self.rd_bad.next = self.meta_r.val().get_bit(5);
        }
        self.cacc[0].next = 0.into();
        for o in 0..8 {
            self.wide[o].a.next = self.cnt[o].q.val();
            self.cacc[o + 1].next = self.cacc[o].val() | (self.wide[o].y.val() << self.o8[o].val());
        }
        self.count.next = self.cacc[8].val();
        self.free.next = self.nfree.q.val();
    }
}

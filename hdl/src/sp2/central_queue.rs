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
//! Storage (internal structure differs from the model where the ports cannot tell):
//! - chunk data: `RAM<Bits<64>, 7>` (`data`), registered read; maps to 4 iCE40 `SB_RAM40_4K`. Its read
//!   address is the head of the granted transmitter's list, selected in the grant cycle, so the data leave
//!   the RAM's output register in the next cycle, exactly the model's `rd_data` timing.
//! - per-chunk meta `{bad, last, bytes[3:0]}`: `RAM<Bits<6>, 7>` (`meta`), same addresses (1 `SB_RAM40_4K`).
//! - output lists' next pointers: `RAM<Bits<7>, 7>` (`nx`, 1 `SB_RAM40_4K`), with a prefetched second
//!   pointer per output: `hn[o]` = next of `head[o]` (meaningful when `count[o] ≥ 2`). A read of o makes
//!   `hn[o]` the new head at once and reads `nx[hn[o]]` from the RAM at the same edge; in the next cycle
//!   `pend[o]` says that o's second pointer is the RAM's output (`hne[o]`, the effective second pointer), and
//!   the following edge copies it into `hn[o]`. A write that leaves o with 2 chunks (`head = tail`, count 1
//!   after this edge's read) sets `hn[o]` to the new chunk directly. An append writes `nx[tail]`; it is
//!   issued whenever o's list is non-empty before the edge (if the read empties it, the old tail was just
//!   freed and its `nx` entry is junk that the next append over it rewrites).
//! - free list: a LIFO linked list as in the model (pop at a write, push at a read), its next pointers in
//!   `RAM<Bits<7>, 7>` (`fnx`, initialised 0 → 1 → … → 127, 1 `SB_RAM40_4K`), with `free_head`, `nfree`,
//!   and the free head's successor prefetched the same way: `fsec` (register), or the RAM's output in the
//!   cycle after a pop without a push (`fpend`; the pop read `fnx[new head]` at its edge). A push makes the
//!   pushed chunk the head and the old head (or, with a pop, its successor) the second, both known.
//! - per output `head`, `tail`, `hn` (7 bits), `count` (8 bits); registered flags per output (8-bit vectors):
//!   `ne` (count ≥ 1), `ge2` (count ≥ 2), `pend`, `ok` (a write for o is allowed: the reservation rule
//!   `free − (empty outputs other than o) ≥ 1`); `sb` = free − (empty outputs) + 16 (8 bits, initially 136).
//!   `ok'` is computed at each edge from the next flags and `sb + d` (d ∈ −2..2, the change of `sb`) as a
//!   choice among six comparisons of the registered `sb` (`sb ≥ 14 … 19`), so no adder or comparator of
//!   counts lies between a register and the arbiters, nor between the arbiters and a register.
//!
//! Per cycle, from the registered state (the model's `eval` then `commit`): the write LRS picks among
//! receivers offering a chunk for an `ok` output, the read LRS among transmitters asking with `ne`. At the
//! edge: the read pops the head `c` of its list (data and meta into the RAM output registers), then the write
//! pops the free head and appends it to its output's list (as the new head if that list is empty after the
//! read), then `c` is pushed on the free list. Latency: 1 cycle from read grant to `rd_*`; a written chunk is
//! readable (counted) from the next cycle on. No RAM is read and written at one address in a cycle where the
//! read value is used (`data`/`meta`: the written chunk is free, the read one on a list; `nx`: the read
//! address is the new head's successor-to-be, the written one the tail of a list, distinct whenever the new
//! head has a successor; `fnx`: its read value is used only after a pop without a push, when it is not
//! written), so the export marks the memories `(* no_rw_check *)`.

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::parts::{locals, port_offsets as offsets};

use crate::lrs::Lrs8;
use crate::matcher::Widen;

/// Ports (receivers = transmitters = outputs): the model's `PORTS` (the widths below are written for 8).
pub const CQ_PORTS: usize = asr_model::sp2::PORTS;
/// Chunks: the model's `CQ_CHUNKS` (7-bit chunk numbers below).
pub const CQ_CHUNKS: usize = asr_model::sp2::CQ_CHUNKS;
const _: () = assert!(CQ_PORTS == 8 && CQ_CHUNKS == 128);
/// Bias of `sb` (free − empty outputs + `SB_BIAS`), which keeps it non-negative.
const SB_BIAS: usize = 16;

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
    pub nx: RAM<Bits<7>, 7>,
    pub fnx: RAM<Bits<7>, 7>,
    pub head: Vec<DFF<Bits<7>>>,
    pub tail: Vec<DFF<Bits<7>>>,
    pub hn: Vec<DFF<Bits<7>>>,
    pub cnt: Vec<DFF<Bits<8>>>,
    pub ne: DFF<Bits<8>>,
    pub ge2: DFF<Bits<8>>,
    pub pend: DFF<Bits<8>>,
    pub ok: DFFWithInit<Bits<8>>,
    pub free_head: DFF<Bits<7>>,
    pub fsec: DFFWithInit<Bits<7>>,
    pub fpend: DFF<Bit>,
    pub nfree: DFFWithInit<Bits<8>>,
    pub sb: DFFWithInit<Bits<8>>,
    pub wr_arb: Lrs8,
    pub rd_arb: Lrs8,
    pub rd_valid_r: DFF<Bit>,
    pub rd_out_r: DFF<Bits<3>>,
    // Constants: field offsets, bit masks, `sb` thresholds.
    o3: Vec<Constant<Bits<16>>>,
    o4: Vec<Constant<Bits<16>>>,
    o8: Vec<Constant<Bits<16>>>,
    o64: Vec<Constant<Bits<16>>>,
    bit: Vec<Constant<Bits<8>>>,
    one8: Constant<Bits<8>>,
    thc: Vec<Constant<Bits<8>>>,
    // Locals: per receiver.
    wo: Vec<Signal<Local, Bits<3>>>,
    tl: Vec<Signal<Local, Bits<7>>>,
    wmacc: Vec<Signal<Local, Bits<8>>>,
    // Write side (accumulated over the write grant's one-hot).
    wmk: Vec<Signal<Local, Bits<8>>>,
    wta: Vec<Signal<Local, Bits<7>>>,
    wna: Vec<Signal<Local, Bit>>,
    // Read side.
    hne: Vec<Signal<Local, Bits<7>>>,
    cra: Vec<Signal<Local, Bits<7>>>,
    hna: Vec<Signal<Local, Bits<7>>>,
    ge3a: Vec<Signal<Local, Bits<8>>>,
    // Per-output flag vectors.
    ro: Signal<Local, Bits<8>>,
    wm: Signal<Local, Bits<8>>,
    one_v: Signal<Local, Bits<8>>,
    ge3_v: Signal<Local, Bits<8>>,
    ea_v: Signal<Local, Bits<8>>,
    a1_v: Signal<Local, Bits<8>>,
    ne_n: Signal<Local, Bits<8>>,
    inc: Signal<Local, Bit>,
    dec: Signal<Local, Bit>,
    pos: Signal<Local, Bits<3>>,
    neg: Signal<Local, Bits<3>>,
    dsel: Signal<Local, Bits<3>>,
    th: Vec<Signal<Local, Bit>>,
    gek: Vec<Signal<Local, Bit>>,
    gtk: Vec<Signal<Local, Bit>>,
    sge_n: Signal<Local, Bit>,
    sgt_n: Signal<Local, Bit>,
    c_rd: Signal<Local, Bits<7>>,
    w_data: Signal<Local, Bits<64>>,
    w_bytes: Signal<Local, Bits<4>>,
    w_last: Signal<Local, Bit>,
    w_bad: Signal<Local, Bit>,
    c_wr: Signal<Local, Bits<7>>,
    fse: Signal<Local, Bits<7>>,
    fh1: Signal<Local, Bits<7>>,
    mflags: Signal<Local, Bits<6>>,
    meta_w: Signal<Local, Bits<6>>,
    meta_r: Signal<Local, Bits<6>>,
    wide: Vec<Widen<8, 64>>,
    cacc: Vec<Signal<Local, Bits<64>>>,
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
            // Initialised (to 0), so that no X ever leaves it in a Verilog simulation.
            nx: (0..CQ_CHUNKS).map(|_| Bits::<7>::from(0u64)).into(),
            // The free list initially 0 → 1 → … → 127.
            fnx: (0..CQ_CHUNKS)
                .map(|k| Bits::<7>::from(((k + 1) % CQ_CHUNKS) as u64))
                .into(),
            head: (0..CQ_PORTS).map(|_| Default::default()).collect(),
            tail: (0..CQ_PORTS).map(|_| Default::default()).collect(),
            hn: (0..CQ_PORTS).map(|_| Default::default()).collect(),
            cnt: (0..CQ_PORTS).map(|_| Default::default()).collect(),
            ne: Default::default(),
            ge2: Default::default(),
            pend: Default::default(),
            // All outputs empty, free 128 ≥ 8 empty outputs: every output may take a chunk.
            ok: DFFWithInit::new(0xffu64.into()),
            free_head: Default::default(),
            // Chunk 1, the successor of the free head 0.
            fsec: DFFWithInit::new(1u64.into()),
            fpend: Default::default(),
            nfree: DFFWithInit::new((CQ_CHUNKS as u64).into()),
            sb: DFFWithInit::new(((CQ_CHUNKS - CQ_PORTS + SB_BIAS) as u64).into()),
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
            one8: Constant::new(1u64.into()),
            // thc[j] = SB_BIAS - 2 + j: th[j] = (sb ≥ thc[j]) = (free − empty ≥ j − 2).
            thc: (0..6)
                .map(|j| Constant::new(((SB_BIAS - 2 + j) as u64).into()))
                .collect(),
            wo: locals(CQ_PORTS),
            tl: locals(CQ_PORTS),
            wmacc: locals(CQ_PORTS + 1),
            wmk: locals(CQ_PORTS + 1),
            wta: locals(CQ_PORTS + 1),
            wna: locals(CQ_PORTS + 1),
            hne: locals(CQ_PORTS),
            cra: locals(CQ_PORTS + 1),
            hna: locals(CQ_PORTS + 1),
            ge3a: locals(CQ_PORTS + 1),
            ro: Default::default(),
            wm: Default::default(),
            one_v: Default::default(),
            ge3_v: Default::default(),
            ea_v: Default::default(),
            a1_v: Default::default(),
            ne_n: Default::default(),
            inc: Default::default(),
            dec: Default::default(),
            pos: Default::default(),
            neg: Default::default(),
            dsel: Default::default(),
            th: locals(6),
            gek: locals(3),
            gtk: locals(3),
            sge_n: Default::default(),
            sgt_n: Default::default(),
            c_rd: Default::default(),
            w_data: Default::default(),
            w_bytes: Default::default(),
            w_last: Default::default(),
            w_bad: Default::default(),
            c_wr: Default::default(),
            fse: Default::default(),
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
        dff_setup!(self, clock, free_head, fsec, fpend, rd_valid_r, rd_out_r, ne, ge2, pend);
        self.ok.clock.next = self.clock.val();
        self.nfree.clock.next = self.clock.val();
        self.nfree.d.next = self.nfree.q.val();
        self.sb.clock.next = self.clock.val();
        self.wr_arb.clock.next = self.clock.val();
        self.rd_arb.clock.next = self.clock.val();
        self.data.read_clock.next = self.clock.val();
        self.data.write_clock.next = self.clock.val();
        self.meta.read_clock.next = self.clock.val();
        self.meta.write_clock.next = self.clock.val();
        self.nx.read_clock.next = self.clock.val();
        self.nx.write_clock.next = self.clock.val();
        self.fnx.read_clock.next = self.clock.val();
        self.fnx.write_clock.next = self.clock.val();
        for o in 0..8 {
            self.head[o].clock.next = self.clock.val();
            self.tail[o].clock.next = self.clock.val();
            self.hn[o].clock.next = self.clock.val();
            self.cnt[o].clock.next = self.clock.val();
        }
        // Requests, from registers and inputs only: receiver i offers a chunk for an output that may take
        // one (`ok`, registered); transmitter o asks and its list is not empty (`ne`, registered). In
        // parallel, each receiver's output's tail (the `nx` address if it writes).
        self.wmacc[0].next = 0.into();
        for i in 0..8 {
            self.wo[i].next = self.wr_out.val().get_bits::<3>(self.o3[i].val().index());
            self.tl[i].next = 0.into();
            for o in 0..8 {
                if self.wo[i].val().index() == o {
                    self.tl[i].next = self.tail[o].q.val();
                }
            }
            if self.wr_valid.val().get_bit(i) & self.ok.q.val().get_bit(self.wo[i].val().index()) {
                self.wmacc[i + 1].next = self.wmacc[i].val() | self.bit[i].val();
            } else {
                self.wmacc[i + 1].next = self.wmacc[i].val();
            }
        }
        self.wr_arb.req.next = self.wmacc[8].val();
        self.wr_arb.served.next = true;
        self.rd_arb.req.next = self.rd_req.val() & self.ne.q.val();
        self.rd_arb.served.next = true;
        self.wr_grant_valid.next = self.wr_arb.grant_valid.val();
        self.wr_grant.next = self.wr_arb.grant.val();
        self.rd_grant_valid.next = self.rd_arb.grant_valid.val();
        self.rd_grant.next = self.rd_arb.grant.val();
        self.ro.next = self.rd_arb.onehot.val();
        // Write side, over the write grant's one-hot: the outputs written (`wm`, at most one bit), the
        // written output's tail and whether its list is non-empty before the edge.
        self.wmk[0].next = 0.into();
        self.wta[0].next = 0.into();
        self.wna[0].next = false;
        for i in 0..8 {
            if self.wr_arb.onehot.val().get_bit(i) {
                self.wmk[i + 1].next = self.wmk[i].val() | (self.one8.val() << self.wo[i].val());
                self.wta[i + 1].next = self.wta[i].val() | self.tl[i].val();
                self.wna[i + 1].next =
                    self.wna[i].val() | self.ne.q.val().get_bit(self.wo[i].val().index());
            } else {
                self.wmk[i + 1].next = self.wmk[i].val();
                self.wta[i + 1].next = self.wta[i].val();
                self.wna[i + 1].next = self.wna[i].val();
            }
        }
        self.wm.next = self.wmk[8].val();
        self.c_wr.next = self.free_head.q.val();
        // Read side: the granted output's head (the chunk read) and effective second pointer (its new
        // head, whose successor the `nx` RAM reads at this edge).
        self.cra[0].next = 0.into();
        self.hna[0].next = 0.into();
        self.ge3a[0].next = 0.into();
        for o in 0..8 {
            self.hne[o].next = self.hn[o].q.val();
            if self.pend.q.val().get_bit(o) {
                self.hne[o].next = self.nx.read_data.val();
            }
            if self.rd_arb.onehot.val().get_bit(o) {
                self.cra[o + 1].next = self.cra[o].val() | self.head[o].q.val();
                self.hna[o + 1].next = self.hna[o].val() | self.hne[o].val();
            } else {
                self.cra[o + 1].next = self.cra[o].val();
                self.hna[o + 1].next = self.hna[o].val();
            }
            if self.cnt[o].q.val() > 2 {
                self.ge3a[o + 1].next = self.ge3a[o].val() | self.bit[o].val();
            } else {
                self.ge3a[o + 1].next = self.ge3a[o].val();
            }
        }
        self.c_rd.next = self.cra[8].val();
        self.data.read_address.next = self.c_rd.val();
        self.meta.read_address.next = self.c_rd.val();
        self.nx.read_address.next = self.hna[8].val();
        self.rd_valid_r.d.next = self.rd_arb.grant_valid.val();
        self.rd_out_r.d.next = self.rd_arb.grant.val();
        // Append: nx[tail] := the written chunk, when the written output's list is not empty before the edge.
        self.nx.write_address.next = self.wta[8].val();
        self.nx.write_data.next = self.c_wr.val();
        self.nx.write_enable.next = self.wna[8].val();
        // Per-output flags after the edge (vectors, bit o = output o): `one_v` count = 1, `ea_v` empty
        // after the read, `a1_v` exactly one chunk after the read.
        self.ge3_v.next = self.ge3a[8].val();
        self.one_v.next = self.ne.q.val() & !self.ge2.q.val();
        self.ea_v.next = !self.ne.q.val() | (self.ro.val() & self.one_v.val());
        self.a1_v.next = (self.ro.val() & self.ge2.q.val() & !self.ge3_v.val())
            | (!self.ro.val() & self.one_v.val());
        self.ne_n.next = self.wm.val() | !self.ea_v.val();
        self.ne.d.next = self.ne_n.val();
        self.ge2.d.next = (self.wm.val() & !self.ro.val() & self.ne.q.val())
            | (self.ro.val() & !self.wm.val() & self.ge3_v.val())
            | (!(self.wm.val() ^ self.ro.val()) & self.ge2.q.val());
        self.pend.d.next = self.ro.val() & !(self.wm.val() & self.a1_v.val());
        for o in 0..8 {
            self.head[o].d.next = self.head[o].q.val();
            if self.ro.val().get_bit(o) {
                self.head[o].d.next = self.hne[o].val();
            }
            if self.wm.val().get_bit(o) & self.ea_v.val().get_bit(o) {
                self.head[o].d.next = self.c_wr.val();
            }
            self.tail[o].d.next = self.tail[o].q.val();
            if self.wm.val().get_bit(o) {
                self.tail[o].d.next = self.c_wr.val();
            }
            self.hn[o].d.next = self.hne[o].val();
            if self.wm.val().get_bit(o) & self.a1_v.val().get_bit(o) {
                self.hn[o].d.next = self.c_wr.val();
            }
            self.cnt[o].d.next = self.cnt[o].q.val();
            if self.wm.val().get_bit(o) & !self.ro.val().get_bit(o) {
                self.cnt[o].d.next = self.cnt[o].q.val() + 1;
            }
            if self.ro.val().get_bit(o) & !self.wm.val().get_bit(o) {
                self.cnt[o].d.next = self.cnt[o].q.val() - 1;
            }
        }
        // sb' = sb + d, d = (read) + (an output becomes non-empty) − (write) − (an output becomes empty);
        // dsel = d + 2. The reservation flags after the edge: sge = (sb' ≥ bias) = th[4 − dsel],
        // sgt = (sb' > bias) = th[5 − dsel], with th[j] = (sb ≥ bias − 2 + j).
        self.inc.next = (self.ro.val() & self.one_v.val() & !self.wm.val()).any();
        self.dec.next = (self.wm.val() & !self.ne.q.val()).any();
        self.pos.next = 0.into();
        if self.rd_arb.grant_valid.val() & self.dec.val() {
            self.pos.next = 2.into();
        } else if self.rd_arb.grant_valid.val() | self.dec.val() {
            self.pos.next = 1.into();
        }
        self.neg.next = 0.into();
        if self.wr_arb.grant_valid.val() & self.inc.val() {
            self.neg.next = 2.into();
        } else if self.wr_arb.grant_valid.val() | self.inc.val() {
            self.neg.next = 1.into();
        }
        self.dsel.next = self.pos.val() + 2 - self.neg.val();
        self.sb.d.next = self.sb.q.val() + bit_cast::<8, 3>(self.dsel.val()) - 2;
        for j in 0..6 {
            self.th[j].next = self.sb.q.val() >= self.thc[j].val();
        }
        // The choice is made in two steps, early by e = (read) − (write) (the arbiters' `grant_valid`, which
        // need no arbitration), then late by f = (dec) − (inc) = k − 1: gek[k] = th[3 − e − k],
        // gtk[k] = th[4 − e − k].
        for k in 0..3 {
            self.gek[k].next = self.th[3 - k].val();
            self.gtk[k].next = self.th[4 - k].val();
            if self.wr_arb.grant_valid.val() & !self.rd_arb.grant_valid.val() {
                self.gek[k].next = self.th[4 - k].val();
                self.gtk[k].next = self.th[5 - k].val();
            }
            if self.rd_arb.grant_valid.val() & !self.wr_arb.grant_valid.val() {
                self.gek[k].next = self.th[2 - k].val();
                self.gtk[k].next = self.th[3 - k].val();
            }
        }
        self.sge_n.next = self.gek[1].val();
        self.sgt_n.next = self.gtk[1].val();
        if self.dec.val() & !self.inc.val() {
            self.sge_n.next = self.gek[2].val();
            self.sgt_n.next = self.gtk[2].val();
        }
        if self.inc.val() & !self.dec.val() {
            self.sge_n.next = self.gek[0].val();
            self.sgt_n.next = self.gtk[0].val();
        }
        // Output o may take a chunk after the edge iff (non-empty: sb' > bias; empty: sb' ≥ bias).
        self.ok.d.next = 0.into();
        if self.sgt_n.val() {
            self.ok.d.next = 0xff.into();
        } else if self.sge_n.val() {
            self.ok.d.next = !self.ne_n.val();
        }
        // Write: the granted receiver's chunk into the free head.
        self.w_data.next = 0.into();
        self.w_bytes.next = 0.into();
        self.w_last.next = false;
        self.w_bad.next = false;
        for i in 0..8 {
            if self.wr_arb.grant.val().index() == i {
                self.w_data.next = self.wr_data.val().get_bits::<64>(self.o64[i].val().index());
                self.w_bytes.next = self.wr_bytes.val().get_bits::<4>(self.o4[i].val().index());
                self.w_last.next = self.wr_last.val().get_bit(i);
                self.w_bad.next = self.wr_bad.val().get_bit(i);
            }
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
        // Free list (a LIFO): the write pops its head, then the read chunk is pushed. `fse` = the free
        // head's successor: `fsec`, or the `fnx` RAM's output in the cycle after a pop without a push.
        self.fse.next = self.fsec.q.val();
        if self.fpend.q.val() {
            self.fse.next = self.fnx.read_data.val();
        }
        self.fh1.next = self.free_head.q.val();
        if self.wr_arb.grant_valid.val() {
            self.fh1.next = self.fse.val();
        }
        self.fnx.read_address.next = self.fse.val();
        self.fnx.write_address.next = self.c_rd.val();
        self.fnx.write_data.next = self.fh1.val();
        self.fnx.write_enable.next = self.rd_arb.grant_valid.val();
        if self.rd_arb.grant_valid.val() {
            self.free_head.d.next = self.c_rd.val();
            self.fsec.d.next = self.fh1.val();
            self.fpend.d.next = false;
        } else {
            self.free_head.d.next = self.fh1.val();
            self.fsec.d.next = self.fse.val();
            self.fpend.d.next = self.wr_arb.grant_valid.val();
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

/// The port documentation of the exported top `central_queue` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The central queue of the SP2-style switch (docs/sp2-switch.md section 6): 128 chunks of 8 \
                  bytes in block RAM, a linked list per output and a free list, least-recently-served \
                  write and read arbiters, the reservation rule. Twin of \
                  asr_model::sp2::central_queue::CentralQueue (hdl/src/sp2/central_queue.rs). Field k of a \
                  packed port (receiver, transmitter or output k) is at bits [k*W +: W]."
            .into(),
        ports: docs(&[
            CLOCK,
            ("wr_valid", "bit i: receiver i offers a chunk"),
            ("wr_out", "3 bits per receiver: the output whose list the chunk joins"),
            ("wr_data", "64 bits per receiver: the chunk, byte 0 in bits [7:0]"),
            ("wr_bytes", "4 bits per receiver: bytes in the chunk, 1..8"),
            ("wr_last", "bit i: the chunk is its packet's last"),
            ("wr_bad", "bit i: the packet is flagged bad (CRC error)"),
            ("rd_req", "bit o: transmitter o can take a chunk"),
            ("wr_grant_valid", "a receiver writes in this cycle"),
            ("wr_grant", "the receiver that writes (0 when none)"),
            ("rd_grant_valid", "a transmitter reads in this cycle"),
            ("rd_grant", "the transmitter that reads (0 when none)"),
            ("rd_valid", "the chunk read at the previous edge is on rd_*"),
            ("rd_out", "its output"),
            ("rd_data", "its data, byte 0 in bits [7:0]; 0 when not valid"),
            ("rd_bytes", "its byte count; 0 when not valid"),
            ("rd_last", "it is its packet's last chunk"),
            ("rd_bad", "its packet is flagged bad"),
            ("count", "8 bits per output: chunks queued"),
            ("free", "chunks on the free list (128 at start)"),
        ]),
        latency: "1 cycle from read grant to rd_*; a written chunk is counted and readable from the next \
                  cycle on"
            .into(),
    }
}

//! The v3 crossbar allocator (docs/sp2-switch.md, V3.D), exported as `sp2_allocator_v3`. Hardware twin of
//! `model/src/sp2/v3/allocator.rs` (`asr_model::sp2::v3::allocator::Allocator`): its outputs are its
//! registers, equal to the model's `regs` in every cycle.
//!
//! [`Sp2AllocatorV3`] ports (row = receiver, column = transmitter), the model's `AllocIn` and `AllocRegs`:
//! - in `clock`;
//! - in `req[63:0]`: receiver i's request register (its route set, 0 for none) at bits `[8i +: 8]`;
//! - in `cand[7:0]`: the transmitters that are candidates; `load_nz[7:0]`: the outputs with queue load
//!   (never a column of the matrix); `adm_busy[7:0]`: the receivers in the admission pipeline (never a row);
//! - out `grant_valid[7:0]`: bit o, transmitter o has a grant register set in this cycle; `grant[23:0]`: the
//!   receiver granted to transmitter o at bits `[3o +: 3]` (0 when `grant_valid[o]` is 0);
//! - out `rows[7:0]`, `cols[7:0]`: the rows and columns of the matrix in flight (shown from the cycle after
//!   its capture to its grants' cycle, included);
//! - out `may_capture`: a matrix may be captured in this cycle (none in flight, or this is its grants' cycle).
//!
//! Every output is a flip-flop; no input reaches an output in the same cycle.
//!
//! One matrix at a time, in one ring of registers: while `may_capture` is high the edge captures
//! `R[i] = req[i] & cand & !load_nz & !grant_valid` (0 for the rows in `adm_busy` and the rows granted in
//! this cycle) and the initial assignment `M[i]` = the lowest bit of `R[i]` at ring position i; when some
//! `R[i]` is not 0 the one-hot phase register starts. In phase k (k = 0..3, the cycles t+1..t+4 after the
//! capture in t) ring position p holds row (p + 3k) mod 8: three [`RowStep`]s step the rows at positions
//! 0, 1 and 2 (rows 3k, 3k+1, 3k+2; the ColumnOR / Rotate_Until_Zero heuristic, one pass, rows in order:
//! each row sees the new assignments of the rows stepped before it, the others are the OR of positions
//! 3..7) and the ring turns by three, the stepped rows entering at positions 5, 6 and 7 (so the step has no
//! multiplexer in front, and every register takes either the capture or its ring neighbour:
//! `may_capture` is high exactly when no phase is). Phase 2 steps rows 6 and 7; its third step holds row 0,
//! stepped in phase 0, with its assignment as its request, so it steps to itself. In phase 3 the final
//! assignment, all in registers (row r at position (r + 7) mod 8), feeds the 8 round-robin arbiters
//! ([`Rr8`], one per transmitter, its candidates the rows assigned to its column), whose grants the grant
//! registers take at that edge, so they show in t+5 (the model's `LATENCY` = 5 cycles from the capture
//! edge's cycle). Why three steps in three phases, not two in four (2026-11-28): the last phase stepped two
//! rows and then arbitrated, the allocator's longest path and one of the switch's on the ECP5; now it
//! arbitrates from registers. The arbiters see requests
//! only in phase 3, so their pointers move only with a grant, as the model's `served` at the capture (no
//! other matrix is picked in between, so the pointers agree whenever they are used).
//!
//! Registers: `R` and `M` (64 + 64), the phase (4, one-hot), `may_capture`, the grants (8 + 24) and the
//! rows they name (8, one-hot per grant: the rows left out of a capture in the grants' cycle), `rows` and
//! `cols` (16), the arbiters' pointers (8 × 8, thermometer-coded).

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::parts::{blocks, locals, port_offsets};
use crate::rr::Rr8;
use crate::sp2::v2::row_step::RowStep;
use asr_model::sp2::v3::allocator::LATENCY;
use asr_model::sp2::PORTS;

/// The v3 crossbar allocator: one matrix in flight, its row steps shared over four phases, grants in
/// registers. See the module documentation for the ports and the schedule.
#[derive(LogicBlock)]
pub struct Sp2AllocatorV3 {
    /// Clock; every register updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Receiver i's request register (route set, 0 for none) at bits `[8i +: 8]`.
    pub req: Signal<In, Bits<64>>,
    /// Bit o: transmitter o is a candidate.
    pub cand: Signal<In, Bits<8>>,
    /// Bit o: output o has queue load (never a column of the matrix).
    pub load_nz: Signal<In, Bits<8>>,
    /// Bit i: receiver i is in the admission pipeline (never a row of the matrix).
    pub adm_busy: Signal<In, Bits<8>>,
    /// Bit o: transmitter o's grant register holds a receiver in this cycle; a register.
    pub grant_valid: Signal<Out, Bits<8>>,
    /// The receiver granted to transmitter o at bits `[3o +: 3]` (0 when not valid); a register.
    pub grant: Signal<Out, Bits<24>>,
    /// The rows of the matrix in flight; a register.
    pub rows: Signal<Out, Bits<8>>,
    /// The columns of the matrix in flight; a register.
    pub cols: Signal<Out, Bits<8>>,
    /// A matrix may be captured in this cycle; a register (1 after reset).
    pub may_capture: Signal<Out, Bit>,
    /// The request rows `R` and the assignment `M` of the matrix in flight, by ring position.
    rr: Vec<DFF<Bits<8>>>,
    mm: Vec<DFF<Bits<8>>>,
    /// One-hot phase: bit k < 3, rows 3k, 3k+1 (and 3k+2 but in phase 2) step in this cycle; bit 3, the
    /// arbiters grant.
    ph: DFF<Bits<4>>,
    mc: DFFWithInit<Bit>,
    gv: DFF<Bits<8>>,
    gr: DFF<Bits<24>>,
    /// The rows granted in this cycle (the OR of the arbiters' one-hot winners at the grant edge).
    rg: DFF<Bits<8>>,
    rows_r: DFF<Bits<8>>,
    cols_r: DFF<Bits<8>>,
    /// The shared row steps: in phase k `sa`, `sb`, `sc` step rows 3k, 3k+1, 3k+2 (in phase 2 `sc` holds
    /// row 0, stepped in phase 0, and its request is its assignment, so it steps to itself).
    sa: RowStep,
    sb: RowStep,
    sc: RowStep,
    /// Column o's arbiter.
    arb: Vec<Rr8>,
    offs: Vec<Constant<Bits<16>>>,
    bit: Vec<Constant<Bits<8>>>,
    gbit: Vec<Constant<Bits<24>>>,
    /// The columns a capture may take now; the captured rows.
    colav: Signal<Local, Bits<8>>,
    rowok: Signal<Local, Bits<8>>,
    rn: Vec<Signal<Local, Bits<8>>>,
    /// Chains: the rows and the columns of `rn`.
    racc: Vec<Signal<Local, Bits<8>>>,
    cacc: Vec<Signal<Local, Bits<8>>>,
    cap: Signal<Local, Bit>,
    /// The OR of the rows at positions 3..7.
    oo: Signal<Local, Bits<8>>,
    /// Phase 3: the final assignment; column o's candidates at `o*9+8`.
    fm: Vec<Signal<Local, Bits<8>>>,
    cc: Vec<Signal<Local, Bits<8>>>,
    gva: Vec<Signal<Local, Bits<8>>>,
    gra: Vec<Signal<Local, Bits<24>>>,
    rga: Vec<Signal<Local, Bits<8>>>,
}

impl Default for Sp2AllocatorV3 {
    fn default() -> Self {
        assert_eq!(PORTS, 8, "Sp2AllocatorV3 is 8×8");
        assert_eq!(LATENCY, 5, "four step phases, then the grant registers");
        Self {
            clock: Default::default(),
            req: Default::default(),
            cand: Default::default(),
            load_nz: Default::default(),
            adm_busy: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            rows: Default::default(),
            cols: Default::default(),
            may_capture: Default::default(),
            rr: blocks(PORTS),
            mm: blocks(PORTS),
            ph: Default::default(),
            mc: DFFWithInit::new(true),
            gv: Default::default(),
            gr: Default::default(),
            rg: Default::default(),
            rows_r: Default::default(),
            cols_r: Default::default(),
            sa: Default::default(),
            sb: Default::default(),
            sc: Default::default(),
            arb: blocks(PORTS),
            offs: port_offsets(8),
            bit: (0..PORTS)
                .map(|i| Constant::new((1u64 << i).into()))
                .collect(),
            gbit: (0..3 * PORTS)
                .map(|k| Constant::new((1u64 << k).into()))
                .collect(),
            colav: Default::default(),
            rowok: Default::default(),
            rn: locals(PORTS),
            racc: locals(PORTS + 1),
            cacc: locals(PORTS + 1),
            cap: Default::default(),
            oo: Default::default(),
            fm: locals(PORTS),
            cc: locals(PORTS * (PORTS + 1)),
            gva: locals(PORTS + 1),
            gra: locals(3 * PORTS + 1),
            rga: locals(PORTS + 1),
        }
    }
}

impl Logic for Sp2AllocatorV3 {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..8 {
            self.rr[i].clock.next = self.clock.val();
            self.mm[i].clock.next = self.clock.val();
            self.arb[i].clock.next = self.clock.val();
        }
        self.ph.clock.next = self.clock.val();
        self.mc.clock.next = self.clock.val();
        self.gv.clock.next = self.clock.val();
        self.gr.clock.next = self.clock.val();
        self.rg.clock.next = self.clock.val();
        self.rows_r.clock.next = self.clock.val();
        self.cols_r.clock.next = self.clock.val();
        // The matrix a capture takes now: this cycle's granted rows and columns left out.
        self.colav.next = self.cand.val() & (!self.load_nz.val()) & (!self.gv.q.val());
        self.rowok.next = !(self.adm_busy.val() | self.rg.q.val());
        self.racc[0].next = 0.into();
        self.cacc[0].next = 0.into();
        for i in 0..8 {
            self.rn[i].next = 0.into();
            if self.rowok.val().get_bit(i) {
                self.rn[i].next =
                    self.req.val().get_bits::<8>(self.offs[i].val().index()) & self.colav.val();
            }
            if self.rn[i].val().any() {
                self.racc[i + 1].next = self.racc[i].val() | self.bit[i].val();
            } else {
                self.racc[i + 1].next = self.racc[i].val();
            }
            self.cacc[i + 1].next = self.cacc[i].val() | self.rn[i].val();
        }
        self.cap.next = self.mc.q.val() & self.racc[8].val().any();
        // The ring: in phase k position p holds row (p + 3k) mod 8; the stepped rows are at positions 0, 1,
        // 2 (rows 3k, 3k+1, 3k+2; in phase 2 rows 6, 7 and row 0 again, which steps to itself), the other
        // rows at 3..7.
        self.oo.next = self.mm[3].q.val()
            | self.mm[4].q.val()
            | self.mm[5].q.val()
            | self.mm[6].q.val()
            | self.mm[7].q.val();
        self.sa.r.next = self.rr[0].q.val();
        self.sa.m.next = self.mm[0].q.val();
        self.sa.o.next = self.oo.val() | self.mm[1].q.val() | self.mm[2].q.val();
        self.sb.r.next = self.rr[1].q.val();
        self.sb.m.next = self.mm[1].q.val();
        self.sb.o.next = self.oo.val() | self.mm[2].q.val() | self.sa.n.val();
        self.sc.r.next = self.rr[2].q.val();
        if self.ph.q.val().get_bit(2) {
            self.sc.r.next = self.mm[2].q.val();
        }
        self.sc.m.next = self.mm[2].q.val();
        self.sc.o.next = self.oo.val() | self.sa.n.val() | self.sb.n.val();
        // Capture (while may_capture), else (a phase) step and turn the ring by three rows.
        for p in 0..5 {
            self.rr[p].d.next = self.rr[p + 3].q.val();
            self.mm[p].d.next = self.mm[p + 3].q.val();
        }
        self.rr[5].d.next = self.rr[0].q.val();
        self.rr[6].d.next = self.rr[1].q.val();
        self.rr[7].d.next = self.rr[2].q.val();
        self.mm[5].d.next = self.sa.n.val();
        self.mm[6].d.next = self.sb.n.val();
        self.mm[7].d.next = self.sc.n.val();
        if self.mc.q.val() {
            for i in 0..8 {
                self.rr[i].d.next = self.rn[i].val();
                self.mm[i].d.next = self.rn[i].val() & ((!self.rn[i].val()) + 1);
            }
        }
        // Phase 3: the final assignment, registered (row r at position (r + 7) mod 8), feeds the arbiters
        // (no requests in other cycles).
        for i in 0..8 {
            self.fm[i].next = 0.into();
            if self.ph.q.val().get_bit(3) {
                self.fm[i].next = self.mm[(i + 7) % 8].q.val();
            }
        }
        self.gva[0].next = 0.into();
        self.gra[0].next = 0.into();
        self.rga[0].next = 0.into();
        for o in 0..8 {
            self.cc[o * 9].next = 0.into();
            for i in 0..8 {
                if self.fm[i].val().get_bit(o) {
                    self.cc[o * 9 + i + 1].next = self.cc[o * 9 + i].val() | self.bit[i].val();
                } else {
                    self.cc[o * 9 + i + 1].next = self.cc[o * 9 + i].val();
                }
            }
            self.arb[o].req.next = self.cc[o * 9 + 8].val();
            if self.arb[o].grant_valid.val() {
                self.gva[o + 1].next = self.gva[o].val() | self.bit[o].val();
            } else {
                self.gva[o + 1].next = self.gva[o].val();
            }
            self.rga[o + 1].next = self.rga[o].val() | self.arb[o].onehot.val();
            for k in 0..3 {
                if self.arb[o].grant.val().get_bit(k) {
                    self.gra[o * 3 + k + 1].next =
                        self.gra[o * 3 + k].val() | self.gbit[o * 3 + k].val();
                } else {
                    self.gra[o * 3 + k + 1].next = self.gra[o * 3 + k].val();
                }
            }
        }
        self.gv.d.next = self.gva[8].val();
        self.gr.d.next = self.gra[24].val();
        self.rg.d.next = self.rga[8].val();
        // The phase and may_capture; rows and cols are taken at every capture edge (0 for an empty
        // matrix) and held while the matrix is in flight.
        self.ph.d.next = 0.into();
        if self.cap.val() {
            self.ph.d.next = 1.into();
        }
        if self.ph.q.val().get_bit(0) {
            self.ph.d.next = 2.into();
        }
        if self.ph.q.val().get_bit(1) {
            self.ph.d.next = 4.into();
        }
        if self.ph.q.val().get_bit(2) {
            self.ph.d.next = 8.into();
        }
        self.mc.d.next = !(self.cap.val()
            | self.ph.q.val().get_bit(0)
            | self.ph.q.val().get_bit(1)
            | self.ph.q.val().get_bit(2));
        self.rows_r.d.next = self.rows_r.q.val();
        self.cols_r.d.next = self.cols_r.q.val();
        if self.mc.q.val() {
            self.rows_r.d.next = self.racc[8].val();
            self.cols_r.d.next = self.cacc[8].val();
        }
        self.grant_valid.next = self.gv.q.val();
        self.grant.next = self.gr.q.val();
        self.rows.next = self.rows_r.q.val();
        self.cols.next = self.cols_r.q.val();
        self.may_capture.next = self.mc.q.val();
    }
}

/// The port documentation of the exported top `sp2_allocator_v3` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The crossbar allocator of the v3 SP2-style switch (docs/sp2-switch.md V3.D): one request \
                  matrix in flight, captured from registered requests and candidates, one pass of the \
                  ColumnOR / Rotate_Until_Zero heuristic with two rows stepped per cycle, every transmitter \
                  granting its round-robin choice among its candidates into a grant register. Twin of \
                  asr_model::sp2::v3::allocator::Allocator (hdl/src/sp2/v3/allocator.rs). Row = receiver, \
                  column = transmitter."
            .into(),
        ports: docs(&[
            CLOCK,
            ("req", "receiver i's request register (route set, 0 = none) at bits [i*8 +: 8]"),
            ("cand", "bit o: transmitter o is a candidate"),
            ("load_nz", "bit o: output o has queue load (never a column of a matrix)"),
            ("adm_busy", "bit i: receiver i is in the admission pipeline (never a row of a matrix)"),
            ("grant_valid", "bit o: transmitter o's grant register holds a receiver in this cycle"),
            ("grant", "that receiver at bits [o*3 +: 3] (0 when grant_valid[o] is 0)"),
            ("rows", "the rows of the matrix in flight (capture cycle + 1 to its grants' cycle)"),
            ("cols", "the columns of the matrix in flight"),
            ("may_capture", "a matrix may be captured in this cycle (1 after reset)"),
        ]),
        latency: "every output is a register; a matrix captured at the edge ending cycle t (when \
                  may_capture) shows its grants in t+5 (asr_model::sp2::v3::allocator::LATENCY)"
            .into(),
    }
}

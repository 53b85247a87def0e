//! The v2 crossbar allocator (docs/sp2-switch.md, v2 §A), exported as `sp2_allocator_v2`. Hardware twin of
//! `model/src/sp2/v2/allocator.rs` (`asr_model::sp2::v2::allocator::Allocator`): equal to the model's
//! `eval` at its outputs in every cycle, its registers advancing as the model's `commit`.
//!
//! [`Sp2Allocator`] ports (row = receiver, column = transmitter):
//! - in `clock`;
//! - in `req[63:0]`: receiver i's requested transmitters at bits `[8i +: 8]` (0 = no request);
//! - in `free[7:0]`: transmitter j is free for the crossbar now (the grants); `mat_free[7:0]`: free for the
//!   matrix registered at this edge (free now or about to be: the switch's free-soon); `wait_set[63:0]`:
//!   at bits `[8i +: 8]` the set receiver i waits with now (0 when it does not wait): row i may be granted
//!   only a column of it, so a result computed from the row's earlier request (a short packet that
//!   streamed out while its request was in the pipeline) never connects the row's next packet;
//! - out `grant_valid[7:0]`: transmitter j grants a receiver in this cycle; `grant_row[23:0]`: that receiver
//!   at bits `[3j +: 3]` (0 when `grant_valid[j]` is 0).
//!
//! Pipeline, with the model's `STAGE_ROWS` (`S` = its length, the latency in cycles): bank 0 registers the
//! matrix `R[i] = req[i] & mat_free` and `M[i]` = the lowest bit of `R[i]`; in each cycle bank b's rows
//! `STAGE_ROWS[b]` take their row step ([`RowStep`], one per row) from bank b, and bank b + 1 registers the
//! result; the rows of the last stage step combinationally from the last bank, then a row's assignment
//! `{j}` is a candidate of column j if `wait_set[8i + j]` and `free[j]`, and every column grants its least recently
//! served candidate ([`LrsTri8`], one per column, updated at the edge with this cycle's grant). Outputs are
//! combinational from the last bank, `free`, `waiting` and the LRS orders; latency `S` cycles from `req` to
//! the grant it leads to.
//!
//! A row step's blocked columns are `o | !R[i]`, `o` the OR of the other rows' assignments in its bank with
//! the rows stepped before it in this stage at their new value. Every bank registers, per row, the part
//! known a cycle early: `eo[i] = !R[i] |` the OR of the bank's rows (other than i) that its stage does not
//! step before i; in the stage, the row step takes `eo[i] | pn[i]`, `pn[i]` the OR of the rows the stage
//! stepped before i (new values), and `r` all ones. The heuristic's ColumnOR of row i is `o[i] | M[i]`
//! (docs: [`RowStep`]).
//!
//! Registers: bank 0 holds 64 + 64 bits, every further bank the assignment (64) and the request rows still
//! to be stepped, and `eo` for the rows its stage steps (Yosys removes the others); 8 LRS orders of 28 bits.

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::parts::locals;

use super::row_step::RowStep;
use crate::lrs_tri::LrsTri8;
use asr_model::sp2::v2::allocator::{LATENCY, N, STAGE_ROWS};

/// Pipeline banks (one per stage: the model's `LATENCY`).
const LAT: usize = LATENCY;

/// The pipelined v2 crossbar allocator (row = receiver, column = transmitter): a request leads to its grant
/// `LATENCY` cycles later. See the module documentation for the pipeline.
#[derive(LogicBlock)]
pub struct Sp2Allocator {
    /// Clock; the pipeline banks and the least-recently-served orders update at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Receiver i's requested transmitters at bits `[8i +: 8]` (0 = no request); registered into bank 0,
    /// masked with `mat_free`, at the edge.
    pub req: Signal<In, Bits<64>>,
    /// Bit j: transmitter j is free for the crossbar now; column j grants only while it is set. Combinational
    /// into the grants.
    pub free: Signal<In, Bits<8>>,
    /// Bit j: transmitter j is free for the matrix registered at this edge (free now or about to be); masks
    /// `req` into bank 0.
    pub mat_free: Signal<In, Bits<8>>,
    /// Receiver i's route set at bits `[8i +: 8]` while it waits now, 0 otherwise: row i is granted only a
    /// column of it. Combinational into the grants.
    pub wait_set: Signal<In, Bits<64>>,
    /// Bit j: transmitter j grants a receiver in this cycle; combinational from the last bank, `free`,
    /// `wait_set` and the least-recently-served orders.
    pub grant_valid: Signal<Out, Bits<8>>,
    /// The receiver transmitter j grants, at bits `[3j +: 3]`; 0 when `grant_valid[j]` is 0; combinational.
    pub grant_row: Signal<Out, Bits<24>>,
    /// Bank b, row i at `b*8+i`: requests and assignment.
    rr: Vec<DFF<Bits<8>>>,
    mr: Vec<DFF<Bits<8>>>,
    /// Bank b, row i stepped in stage b: `!R[i]` | the OR of the bank's rows that stage b does not step
    /// before row i, excluding row i (the early part of the row step's blocked columns).
    eo: Vec<DFF<Bits<8>>>,
    /// Row i's step (in the stage that steps row i).
    steps: Vec<RowStep>,
    /// Column j's arbiter.
    lrs: Vec<LrsTri8>,
    /// Row offsets in `req` (8i), the rows stepped by stage b, bit i, bit `3j+k` of `grant_row`.
    offs: Vec<Constant<Bits<16>>>,
    st: Vec<Constant<Bits<8>>>,
    /// `inc[b*8+i]`: the rows whose OR is `eo[b*8+i]`.
    inc: Vec<Constant<Bits<8>>>,
    bit: Vec<Constant<Bits<8>>>,
    /// All ones: a row step's `r` (the requests are in `eo`).
    ones: Constant<Bits<8>>,
    gbit: Vec<Constant<Bits<24>>>,
    rin: Vec<Signal<Local, Bits<8>>>,
    /// Bank b, row i (`b*8+i`): the next value of `mr`; the chain of ORs that gives the next `eo`.
    md: Vec<Signal<Local, Bits<8>>>,
    /// Bank b, row i: the next value of `rr`.
    rd: Vec<Signal<Local, Bits<8>>>,
    ec: Vec<Signal<Local, Bits<8>>>,
    /// Stage b: `pn[b*8+i]` = OR of the rows the stage steps before row i, at their new value.
    pn: Vec<Signal<Local, Bits<8>>>,
    /// Row i's step inputs.
    sm: Vec<Signal<Local, Bits<8>>>,
    so: Vec<Signal<Local, Bits<8>>>,
    fin: Vec<Signal<Local, Bits<8>>>,
    cand: Vec<Signal<Local, Bits<8>>>,
    gv: Vec<Signal<Local, Bits<8>>>,
    gr: Vec<Signal<Local, Bits<24>>>,
}

impl Default for Sp2Allocator {
    fn default() -> Self {
        assert_eq!(N, 8, "Sp2Allocator is 8×8");
        Self {
            clock: Default::default(),
            req: Default::default(),
            free: Default::default(),
            mat_free: Default::default(),
            wait_set: Default::default(),
            grant_valid: Default::default(),
            grant_row: Default::default(),
            rr: (0..LAT * N).map(|_| Default::default()).collect(),
            mr: (0..LAT * N).map(|_| Default::default()).collect(),
            eo: (0..LAT * N).map(|_| Default::default()).collect(),
            steps: (0..N).map(|_| Default::default()).collect(),
            lrs: (0..N).map(|_| Default::default()).collect(),
            offs: (0..N)
                .map(|i| Constant::new(((8 * i) as u64).into()))
                .collect(),
            st: STAGE_ROWS
                .iter()
                .map(|s| Constant::new(s.clone().fold(0u64, |a, i| a | 1 << i).into()))
                .collect(),
            inc: (0..LAT * N)
                .map(|k| {
                    let (b, i) = (k / N, k % N);
                    let before = STAGE_ROWS[b].clone().filter(|&r| r <= i);
                    Constant::new(
                        (0xffu64 & !before.fold(0u64, |a, r| a | 1 << r) & !(1 << i)).into(),
                    )
                })
                .collect(),
            bit: (0..N).map(|i| Constant::new((1u64 << i).into())).collect(),
            ones: Constant::new(0xffu64.into()),
            gbit: (0..3 * N)
                .map(|k| Constant::new((1u64 << k).into()))
                .collect(),
            rin: locals(N),
            md: locals(LAT * N),
            rd: locals(LAT * N),
            ec: locals(LAT * N * (N + 1)),
            pn: locals(LAT * N),
            sm: locals(N),
            so: locals(N),
            fin: locals(N),
            cand: locals(N * (N + 1)),
            gv: locals(N + 1),
            gr: locals(3 * N + 1),
        }
    }
}

impl Logic for Sp2Allocator {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..(LAT * 8) {
            self.rr[k].clock.next = self.clock.val();
            self.mr[k].clock.next = self.clock.val();
            self.eo[k].clock.next = self.clock.val();
        }
        for j in 0..8 {
            self.lrs[j].clock.next = self.clock.val();
        }
        // Bank 0: the matrix `req & mat_free` and its lowest bits.
        for i in 0..8 {
            self.rin[i].next =
                self.req.val().get_bits::<8>(self.offs[i].val().index()) & self.mat_free.val();
            self.rd[i].next = self.rin[i].val();
            self.md[i].next = self.rin[i].val() & ((!self.rin[i].val()) + 1);
        }
        // Per stage b: the OR of the rows stepped before row i in this stage, at their new value.
        for b in 0..LAT {
            self.pn[b * 8].next = 0.into();
            for i in 0..7 {
                if self.st[b].val().get_bit(i) {
                    self.pn[b * 8 + i + 1].next = self.pn[b * 8 + i].val() | self.steps[i].n.val();
                } else {
                    self.pn[b * 8 + i + 1].next = self.pn[b * 8 + i].val();
                }
            }
        }
        // Row i steps from the bank of its stage (chosen in locals: a sub-block input is assigned once, or
        // Icarus livelocks on the transients, docs/hdl.md).
        for i in 0..8 {
            self.sm[i].next = self.mr[i].q.val();
            self.so[i].next = self.eo[i].q.val() | self.pn[i].val();
            for b in 1..LAT {
                if self.st[b].val().get_bit(i) {
                    self.sm[i].next = self.mr[b * 8 + i].q.val();
                    self.so[i].next = self.eo[b * 8 + i].q.val() | self.pn[b * 8 + i].val();
                }
            }
            self.steps[i].r.next = self.ones.val();
            self.steps[i].m.next = self.sm[i].val();
            self.steps[i].o.next = self.so[i].val();
        }
        // Banks 1..: the previous bank after its stage.
        for b in 0..(LAT - 1) {
            for i in 0..8 {
                self.rd[(b + 1) * 8 + i].next = self.rr[b * 8 + i].q.val();
                if self.st[b].val().get_bit(i) {
                    self.md[(b + 1) * 8 + i].next = self.steps[i].n.val();
                } else {
                    self.md[(b + 1) * 8 + i].next = self.mr[b * 8 + i].q.val();
                }
            }
        }
        // Every bank's assignment, and for each row its stage will step, the OR of the rows that stage
        // does not step before it (nor the row itself).
        for k in 0..(LAT * 8) {
            self.mr[k].d.next = self.md[k].val();
            self.rr[k].d.next = self.rd[k].val();
            self.ec[k * 9].next = 0.into();
            for c in 0..8 {
                if self.inc[k].val().get_bit(c) {
                    self.ec[k * 9 + c + 1].next =
                        self.ec[k * 9 + c].val() | self.md[(k - k % 8) + c].val();
                } else {
                    self.ec[k * 9 + c + 1].next = self.ec[k * 9 + c].val();
                }
            }
            self.eo[k].d.next = self.ec[k * 9 + 8].val() | !self.rd[k].val();
        }
        // The final assignment: the last bank after the last stage.
        for b in (LAT - 1)..LAT {
            for i in 0..8 {
                if self.st[b].val().get_bit(i) {
                    self.fin[i].next = self.steps[i].n.val();
                } else {
                    self.fin[i].next = self.mr[b * 8 + i].q.val();
                }
            }
        }
        // Column j's candidates: rows assigned to j and waiting with a set that has j, j free; its LRS grants
        // one.
        self.gv[0].next = 0.into();
        self.gr[0].next = 0.into();
        for j in 0..8 {
            self.cand[j * 9].next = 0.into();
            for i in 0..8 {
                if self.fin[i].val().get_bit(j)
                    & self.wait_set.val().get_bit(i * 8 + j)
                    & self.free.val().get_bit(j)
                {
                    self.cand[j * 9 + i + 1].next = self.cand[j * 9 + i].val() | self.bit[i].val();
                } else {
                    self.cand[j * 9 + i + 1].next = self.cand[j * 9 + i].val();
                }
            }
            self.lrs[j].req.next = self.cand[j * 9 + 8].val();
            if self.lrs[j].grant_valid.val() {
                self.gv[j + 1].next = self.gv[j].val() | self.bit[j].val();
            } else {
                self.gv[j + 1].next = self.gv[j].val();
            }
            for k in 0..3 {
                if self.lrs[j].grant.val().get_bit(k) {
                    self.gr[j * 3 + k + 1].next =
                        self.gr[j * 3 + k].val() | self.gbit[j * 3 + k].val();
                } else {
                    self.gr[j * 3 + k + 1].next = self.gr[j * 3 + k].val();
                }
            }
        }
        self.grant_valid.next = self.gv[8].val();
        self.grant_row.next = self.gr[24].val();
    }
}

/// The port documentation of the exported top `sp2_allocator_v2` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The pipelined crossbar allocator of the v2 SP2-style switch (docs/sp2-switch.md v2 \
                  section A): the ColumnOR / Rotate_Until_Zero heuristic on a registered request matrix, \
                  its row steps spread over 3 pipeline stages, every column granting its least recently \
                  served candidate. Twin of asr_model::sp2::v2::allocator::Allocator \
                  (hdl/src/sp2/v2/allocator.rs). Row = receiver, column = transmitter."
            .into(),
        ports: docs(&[
            CLOCK,
            ("req", "receiver i's requested transmitters at bits [i*8 +: 8] (0 = no request)"),
            ("free", "bit j: transmitter j is free for the crossbar now (the grants)"),
            ("mat_free", "bit j: free for the matrix registered at this edge (free now or soon)"),
            ("wait_set", "receiver i's set at bits [i*8 +: 8]: it waits now with this route set (0 = \
                          not waiting); row i is granted only a column of it"),
            ("grant_valid", "bit j: transmitter j grants a receiver in this cycle"),
            ("grant_row", "that receiver at bits [j*3 +: 3] (0 when grant_valid[j] is 0)"),
        ]),
        latency: "3 cycles from req to the grant it leads to; the grants are combinational from the last \
                  pipeline bank, free, wait_set and the least-recently-served orders"
            .into(),
    }
}

//! `alloc_islip1_m8`: iSLIP with one iteration on an 8×8 switch. Hardware twin of
//! `asr_model::allocator::islip::Islip { iterations: 1 }` (N. McKeown, IEEE/ACM ToN 1999).
//!
//! [`Islip8`] (ports as in [`crate::alloc`]: `clock`, `requests[63:0]`, `grants[63:0]`):
//! 1. grant: output q grants the first requesting input at or after its grant pointer (a [`Ppe8`] per
//!    output, on the transposed request matrix);
//! 2. accept: input i accepts the first granting output at or after its accept pointer (a [`Ppe8`] per
//!    input);
//! 3. at the edge, an output whose grant was accepted moves its pointer one past that input, and an input
//!    that accepted moves its pointer one past that output; the others keep theirs.
//!
//! State: 16 one-hot pointers of 8 flip-flops (128 FF), all at position 0 after reset as in the model.
//! Combinational grant (latency 0).

use super::{locals, onehots, row_offsets, Ppe8};
use rust_hdl::prelude::*;

/// iSLIP with one iteration on an 8×8 switch; see the module documentation for the rule, state and timing.
#[derive(LogicBlock)]
pub struct Islip8 {
    /// Clock; the grant and accept pointers update at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Request matrix: input i's row at bits `[8i +: 8]`, bit q = output q requested.
    pub requests: Signal<In, Bits<64>>,
    /// The matching, same layout: one-hot rows (or 0), each grant inside the requests; combinational from
    /// `requests` and the pointers.
    pub grants: Signal<Out, Bits<64>>,
    /// Grant pointers (per output) and accept pointers (per input), one-hot.
    gp: Vec<DFFWithInit<Bits<8>>>,
    ap: Vec<DFFWithInit<Bits<8>>>,
    gsel: Vec<Ppe8>,
    asel: Vec<Ppe8>,
    one: Vec<Constant<Bits<64>>>,
    offs: Vec<Constant<Bits<16>>>,
    /// Chains that pack and transpose: `cols` = requests by output, `gin` = grants by input, `acc` =
    /// accepts by input (the output), `tacc` = accepts by output.
    cols: Vec<Signal<Local, Bits<64>>>,
    gin: Vec<Signal<Local, Bits<64>>>,
    acc: Vec<Signal<Local, Bits<64>>>,
    tacc: Vec<Signal<Local, Bits<64>>>,
    acol: Vec<Signal<Local, Bits<8>>>,
}

impl Default for Islip8 {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            requests: Default::default(),
            grants: Default::default(),
            gp: (0..8).map(|_| DFFWithInit::new(1u64.into())).collect(),
            ap: (0..8).map(|_| DFFWithInit::new(1u64.into())).collect(),
            gsel: (0..8).map(|_| Ppe8::default()).collect(),
            asel: (0..8).map(|_| Ppe8::default()).collect(),
            one: onehots(),
            offs: row_offsets(),
            cols: locals(65),
            gin: locals(65),
            acc: locals(65),
            tacc: locals(65),
            acol: locals(8),
        }
    }
}

impl Logic for Islip8 {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..8 {
            self.gp[i].clock.next = self.clock.val();
            self.ap[i].clock.next = self.clock.val();
        }
        // Requests by output: column q at bits [8q +: 8], bit i = input i.
        self.cols[0].next = 0.into();
        for i in 0..8 {
            for q in 0..8 {
                if self.requests.val().get_bit(i * 8 + q) {
                    self.cols[i * 8 + q + 1].next =
                        self.cols[i * 8 + q].val() | self.one[q * 8 + i].val();
                } else {
                    self.cols[i * 8 + q + 1].next = self.cols[i * 8 + q].val();
                }
            }
        }
        // Grant.
        for q in 0..8 {
            self.gsel[q].req.next = self.cols[64]
                .val()
                .get_bits::<8>(self.offs[q].val().index());
            self.gsel[q].ptr.next = self.gp[q].q.val();
        }
        // Grants by input: row i, bit q = output q granted input i.
        self.gin[0].next = 0.into();
        for q in 0..8 {
            for i in 0..8 {
                if self.gsel[q].gnt.val().get_bit(i) {
                    self.gin[q * 8 + i + 1].next =
                        self.gin[q * 8 + i].val() | self.one[i * 8 + q].val();
                } else {
                    self.gin[q * 8 + i + 1].next = self.gin[q * 8 + i].val();
                }
            }
        }
        // Accept.
        for i in 0..8 {
            self.asel[i].req.next = self.gin[64].val().get_bits::<8>(self.offs[i].val().index());
            self.asel[i].ptr.next = self.ap[i].q.val();
        }
        // The matching, by input (the output port) and by output (for the grant pointers).
        self.acc[0].next = 0.into();
        self.tacc[0].next = 0.into();
        for i in 0..8 {
            for q in 0..8 {
                if self.asel[i].gnt.val().get_bit(q) {
                    self.acc[i * 8 + q + 1].next =
                        self.acc[i * 8 + q].val() | self.one[i * 8 + q].val();
                    self.tacc[i * 8 + q + 1].next =
                        self.tacc[i * 8 + q].val() | self.one[q * 8 + i].val();
                } else {
                    self.acc[i * 8 + q + 1].next = self.acc[i * 8 + q].val();
                    self.tacc[i * 8 + q + 1].next = self.tacc[i * 8 + q].val();
                }
            }
        }
        self.grants.next = self.acc[64].val();
        // Pointers move one past the partner of an accepted grant.
        for i in 0..8 {
            if self.asel[i].gnt.val().any() {
                self.ap[i].d.next = (self.asel[i].gnt.val() << 1) | (self.asel[i].gnt.val() >> 7);
            } else {
                self.ap[i].d.next = self.ap[i].q.val();
            }
        }
        for q in 0..8 {
            self.acol[q].next = self.tacc[64]
                .val()
                .get_bits::<8>(self.offs[q].val().index());
            if self.acol[q].val().any() {
                self.gp[q].d.next = (self.acol[q].val() << 1) | (self.acol[q].val() >> 7);
            } else {
                self.gp[q].d.next = self.gp[q].q.val();
            }
        }
    }
}

//! `alloc_pim1_m8`: parallel iterative matching with one iteration on an 8×8 switch, random priorities from a
//! 64-bit xorshift register. Hardware twin of `asr_model::allocator::pim_lfsr::PimLfsr8` (which states the
//! rule and why it is a random rotation of round robin).
//!
//! [`PimLfsr8`] (ports as in [`crate::alloc`]): 16 random 3-bit priorities are read from the register `x`
//! (output q's at `x[3q +: 3]`, input i's at `x[24 + 3i +: 3]`), decoded to one-hot pointers of [`Ppe8`]s:
//! output q grants the first requesting input at or after its priority, input i accepts the first granting
//! output at or after its own. At the edge the register steps: `x ^= x << 13; x ^= x >> 7; x ^= x << 17`.
//!
//! State: the 64-bit register (64 FF), `asr_model::allocator::pim_lfsr::SEED` after reset. Combinational
//! grant (latency 0).

use super::{locals, onehots, row_offsets, Ppe8};
use rust_hdl::prelude::*;

/// Parallel iterative matching with one iteration on an 8×8 switch, priorities from a xorshift register; see
/// the module documentation for the rule, state and timing.
#[derive(LogicBlock)]
pub struct PimLfsr8 {
    /// Clock; the random register steps at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Request matrix: input i's row at bits `[8i +: 8]`, bit q = output q requested.
    pub requests: Signal<In, Bits<64>>,
    /// The matching, same layout: one-hot rows (or 0), each grant inside the requests; combinational from
    /// `requests` and the random register.
    pub grants: Signal<Out, Bits<64>>,
    x: DFFWithInit<Bits<64>>,
    x1: Signal<Local, Bits<64>>,
    x2: Signal<Local, Bits<64>>,
    /// Bit offsets of the 16 priorities in `x`.
    poff: Vec<Constant<Bits<16>>>,
    prio: Vec<Signal<Local, Bits<3>>>,
    one8: Constant<Bits<8>>,
    gsel: Vec<Ppe8>,
    asel: Vec<Ppe8>,
    one: Vec<Constant<Bits<64>>>,
    offs: Vec<Constant<Bits<16>>>,
    cols: Vec<Signal<Local, Bits<64>>>,
    gin: Vec<Signal<Local, Bits<64>>>,
    acc: Vec<Signal<Local, Bits<64>>>,
}

impl Default for PimLfsr8 {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            requests: Default::default(),
            grants: Default::default(),
            x: DFFWithInit::new(asr_model::allocator::pim_lfsr::SEED.into()),
            x1: Default::default(),
            x2: Default::default(),
            poff: (0..16)
                .map(|k| Constant::new(((3 * k) as u64).into()))
                .collect(),
            prio: locals(16),
            one8: Constant::new(1u64.into()),
            gsel: (0..8).map(|_| Ppe8::default()).collect(),
            asel: (0..8).map(|_| Ppe8::default()).collect(),
            one: onehots(),
            offs: row_offsets(),
            cols: locals(65),
            gin: locals(65),
            acc: locals(65),
        }
    }
}

impl Logic for PimLfsr8 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, x);
        self.x1.next = self.x.q.val() ^ (self.x.q.val() << 13);
        self.x2.next = self.x1.val() ^ (self.x1.val() >> 7);
        self.x.d.next = self.x2.val() ^ (self.x2.val() << 17);
        for k in 0..16 {
            self.prio[k].next = self.x.q.val().get_bits::<3>(self.poff[k].val().index());
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
        // Grant at random priorities.
        for q in 0..8 {
            self.gsel[q].req.next = self.cols[64]
                .val()
                .get_bits::<8>(self.offs[q].val().index());
            self.gsel[q].ptr.next = self.one8.val() << self.prio[q].val();
        }
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
        // Accept at random priorities.
        for i in 0..8 {
            self.asel[i].req.next = self.gin[64].val().get_bits::<8>(self.offs[i].val().index());
            self.asel[i].ptr.next = self.one8.val() << self.prio[i + 8].val();
        }
        self.acc[0].next = 0.into();
        for i in 0..8 {
            for q in 0..8 {
                if self.asel[i].gnt.val().get_bit(q) {
                    self.acc[i * 8 + q + 1].next =
                        self.acc[i * 8 + q].val() | self.one[i * 8 + q].val();
                } else {
                    self.acc[i * 8 + q + 1].next = self.acc[i * 8 + q].val();
                }
            }
        }
        self.grants.next = self.acc[64].val();
    }
}

//! Least-recently-served (LRS) arbiter over 8 requesters. Hardware twin of `model/src/lrs.rs`
//! (`asr_model::lrs::Lrs` with `n = 8`).
//!
//! [`Lrs8`]:
//! - inputs `clock`, `req[7:0]` (bit i = requester i asks), `served` (the grant of this cycle is used: the
//!   winner moves to the back of the order at the edge);
//! - outputs `grant_valid` (some requester asks), `grant[2:0]` (the winner, 0 when none), `onehot[7:0]`.
//!
//! State: the order as a precedence matrix, row i = `prio[i][*]` with `prio[i][j] = 1` iff requester i is
//! before requester j in the order (8 registers of 8 bits, `DFFWithInit`, initially `i < j`, i.e. the order
//! 0, 1, …, 7 as in the model). Requester i wins iff it asks and every other asking requester j has
//! `prio[i][j] = 1`. Moving the winner g to the back: row g := 0, bit g of every other row := 1; all other
//! relations keep their value, so the matrix stays the model's total order.
//!
//! Grant: combinational from `req` (latency 0); the order updates at the rising edge.

use rust_hdl::prelude::*;

/// Requesters of [`Lrs8`].
pub const LRS_N: usize = 8;

/// The least-recently-served arbiter over 8 requesters with a `served` enable; see the module
/// documentation for the order matrix and timing.
#[derive(LogicBlock)]
pub struct Lrs8 {
    /// Clock; the order updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Requests: bit i high when requester i asks in this cycle.
    pub req: Signal<In, Bits<8>>,
    /// High when this cycle's grant is used: at the rising edge the winner moves to the back of the
    /// order. No effect while `req` is 0.
    pub served: Signal<In, Bit>,
    /// High when some requester asks (`req` not 0); combinational.
    pub grant_valid: Signal<Out, Bit>,
    /// Index of the winner, 0 when nobody asks; combinational from `req` and the order.
    pub grant: Signal<Out, Bits<3>>,
    /// The winner one-hot (bit i = requester i wins), 0 when nobody asks; combinational.
    pub onehot: Signal<Out, Bits<8>>,
    rows: Vec<DFFWithInit<Bits<8>>>,
    /// `!(1 << i)` and `1 << i`, and `i` as a 3-bit value.
    notself: Vec<Constant<Bits<8>>>,
    bit: Vec<Constant<Bits<8>>>,
    idx: Vec<Constant<Bits<3>>>,
    win: Vec<Signal<Local, Bit>>,
    gacc: Vec<Signal<Local, Bits<3>>>,
    hacc: Vec<Signal<Local, Bits<8>>>,
}

impl Default for Lrs8 {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            req: Default::default(),
            served: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            onehot: Default::default(),
            rows: (0..LRS_N)
                .map(|i| DFFWithInit::new(((0xffu64 << (i + 1)) & 0xff).into()))
                .collect(),
            notself: (0..LRS_N)
                .map(|i| Constant::new((!(1u64 << i) & 0xff).into()))
                .collect(),
            bit: (0..LRS_N)
                .map(|i| Constant::new((1u64 << i).into()))
                .collect(),
            idx: (0..LRS_N)
                .map(|i| Constant::new((i as u64).into()))
                .collect(),
            win: (0..LRS_N).map(|_| Default::default()).collect(),
            gacc: (0..=LRS_N).map(|_| Default::default()).collect(),
            hacc: (0..=LRS_N).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for Lrs8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.gacc[0].next = 0.into();
        self.hacc[0].next = 0.into();
        for i in 0..8 {
            self.rows[i].clock.next = self.clock.val();
            // i wins iff it asks and no other asking j is before it.
            self.win[i].next = self.req.val().get_bit(i)
                & !((self.req.val() & (!self.rows[i].q.val())) & self.notself[i].val()).any();
            if self.win[i].val() {
                self.gacc[i + 1].next = self.gacc[i].val() | self.idx[i].val();
                self.hacc[i + 1].next = self.hacc[i].val() | self.bit[i].val();
            } else {
                self.gacc[i + 1].next = self.gacc[i].val();
                self.hacc[i + 1].next = self.hacc[i].val();
            }
        }
        self.grant.next = self.gacc[8].val();
        self.onehot.next = self.hacc[8].val();
        self.grant_valid.next = self.req.val().any();
        // The winner moves to the back.
        for i in 0..8 {
            self.rows[i].d.next = self.rows[i].q.val();
            if self.served.val() & self.req.val().any() {
                if self.win[i].val() {
                    self.rows[i].d.next = 0.into();
                } else {
                    self.rows[i].d.next = self.rows[i].q.val() | self.hacc[8].val();
                }
            }
        }
    }
}

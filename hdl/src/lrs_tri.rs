//! Least-recently-served (LRS) arbiter over 8 requesters whose winner always moves to the back, with the
//! order kept as a triangular precedence matrix (28 flip-flops instead of [`crate::lrs::Lrs8`]'s 64, and no
//! clock enable). Hardware twin of `model/src/lrs.rs` (`asr_model::lrs::Lrs` with `n = 8`, `served`
//! called with every grant); used by the v2 allocator (one per transmitter).
//!
//! [`LrsTri8`]:
//! - inputs `clock`, `req[7:0]` (bit i = requester i asks);
//! - outputs `grant_valid` (some requester asks), `grant[2:0]` (the winner, 0 when none), `onehot[7:0]`.
//!
//! State: `p[8i+k]` for `i < k` is 1 iff requester i is before requester k in the order (initially all 1:
//! the order 0, 1, …, 7 as in the model); for `i > k` the relation is `!p[8k+i]`; the other bits are
//! constant 0. Requester i wins iff it asks and every other asking requester is after it. At the edge the
//! winner w moves to the back: `p[8i+k] := (p[8i+k] & !win[i]) | win[k]` (i < k), which keeps every other
//! relation, and changes nothing when nobody asks (so no enable is needed).
//!
//! Grant: combinational from `req` (latency 0); the order updates at the rising edge.

use rust_hdl::prelude::*;

/// Requesters of [`LrsTri8`].
pub const LRS_TRI_N: usize = 8;

/// Bits `8i+k` with `i < k`.
pub fn upper_mask() -> u64 {
    (0..8)
        .flat_map(|i| (i + 1..8).map(move |k| 8 * i + k))
        .fold(0, |a, b| a | 1 << b)
}

/// The least-recently-served arbiter over 8 requesters whose winner is always served; see the module
/// documentation for the triangular order matrix and timing.
#[derive(LogicBlock)]
pub struct LrsTri8 {
    /// Clock; at its rising edge the winner moves to the back of the order (no change while `req` is 0).
    pub clock: Signal<In, Clock>,
    /// Requests: bit i high when requester i asks in this cycle.
    pub req: Signal<In, Bits<8>>,
    /// High when some requester asks (`req` not 0); combinational.
    pub grant_valid: Signal<Out, Bit>,
    /// Index of the winner, 0 when nobody asks; combinational from `req` and the order.
    pub grant: Signal<Out, Bits<3>>,
    /// The winner one-hot (bit i = requester i wins), 0 when nobody asks; combinational.
    pub onehot: Signal<Out, Bits<8>>,
    p: DFFWithInit<Bits<64>>,
    /// Whether `8i+k` is an upper bit; bit i; `i` as 3 bits; row i's 8 bits; the upper bits.
    upper: Vec<Constant<Bit>>,
    bit: Vec<Constant<Bits<8>>>,
    idx: Vec<Constant<Bits<3>>>,
    rowm: Vec<Constant<Bits<64>>>,
    um: Constant<Bits<64>>,
    /// `ok[9i+k+1]`: no requester among 0..=k blocks i.
    ok: Vec<Signal<Local, Bit>>,
    win: Vec<Signal<Local, Bit>>,
    gacc: Vec<Signal<Local, Bits<3>>>,
    hacc: Vec<Signal<Local, Bits<8>>>,
    racc: Vec<Signal<Local, Bits<64>>>,
    rep: Signal<Local, Bits<64>>,
}

impl Default for LrsTri8 {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            req: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            onehot: Default::default(),
            p: DFFWithInit::new(upper_mask().into()),
            upper: (0..64)
                .map(|b| Constant::new(upper_mask() >> b & 1 == 1))
                .collect(),
            bit: (0..8).map(|i| Constant::new((1u64 << i).into())).collect(),
            idx: (0..8).map(|i| Constant::new((i as u64).into())).collect(),
            rowm: (0..8)
                .map(|i| Constant::new((0xffu64 << (8 * i)).into()))
                .collect(),
            um: Constant::new(upper_mask().into()),
            ok: (0..72).map(|_| Default::default()).collect(),
            win: (0..8).map(|_| Default::default()).collect(),
            gacc: (0..9).map(|_| Default::default()).collect(),
            hacc: (0..9).map(|_| Default::default()).collect(),
            racc: (0..9).map(|_| Default::default()).collect(),
            rep: Default::default(),
        }
    }
}

impl Logic for LrsTri8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.p.clock.next = self.clock.val();
        self.gacc[0].next = 0.into();
        self.hacc[0].next = 0.into();
        self.racc[0].next = 0.into();
        for i in 0..8 {
            self.ok[i * 9].next = self.req.val().get_bit(i);
            for k in 0..8 {
                // k blocks i if it asks and is before i.
                if self.upper[i * 8 + k].val() {
                    self.ok[i * 9 + k + 1].next = self.ok[i * 9 + k].val()
                        & (!self.req.val().get_bit(k) | self.p.q.val().get_bit(i * 8 + k));
                } else if self.upper[k * 8 + i].val() {
                    self.ok[i * 9 + k + 1].next = self.ok[i * 9 + k].val()
                        & (!self.req.val().get_bit(k) | !self.p.q.val().get_bit(k * 8 + i));
                } else {
                    self.ok[i * 9 + k + 1].next = self.ok[i * 9 + k].val();
                }
            }
            self.win[i].next = self.ok[i * 9 + 8].val();
            if self.win[i].val() {
                self.gacc[i + 1].next = self.gacc[i].val() | self.idx[i].val();
                self.hacc[i + 1].next = self.hacc[i].val() | self.bit[i].val();
                self.racc[i + 1].next = self.racc[i].val() | self.rowm[i].val();
            } else {
                self.gacc[i + 1].next = self.gacc[i].val();
                self.hacc[i + 1].next = self.hacc[i].val();
                self.racc[i + 1].next = self.racc[i].val();
            }
        }
        self.grant.next = self.gacc[8].val();
        self.onehot.next = self.hacc[8].val();
        self.grant_valid.next = self.req.val().any();
        // The winner's row cleared, its column set, in every row (upper bits only).
        self.rep.next = bit_cast::<64, 8>(self.hacc[8].val());
        self.p.d.next = ((self.p.q.val() & !self.racc[8].val())
            | self.rep.val()
            | (self.rep.val() << 8)
            | (self.rep.val() << 16)
            | (self.rep.val() << 24)
            | (self.rep.val() << 32)
            | (self.rep.val() << 40)
            | (self.rep.val() << 48)
            | (self.rep.val() << 56))
            & self.um.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use asr_model::lrs::Lrs;

    /// Random requests for 20 000 cycles: the grant equals the model's pick and the order follows its
    /// `served`, every cycle.
    #[test]
    fn agrees_with_the_model() {
        let mut uut = LrsTri8::default();
        uut.connect_all();
        let mut model = Lrs::new(8);
        let wins = crate::arbiter_check::agrees_with_model(
            &mut uut,
            20_000,
            |u, req, clk| {
                u.req.next = req.into();
                u.clock.next = clk.into();
            },
            |u| {
                (
                    u.grant_valid.val(),
                    u.grant.val().to_u64(),
                    u.onehot.val().to_u64(),
                )
            },
            |req| {
                let w = model.pick(req);
                if let Some(w) = w {
                    model.served(w);
                }
                w
            },
        );
        assert!(wins.iter().sum::<u64>() > 15_000, "{wins:?}");
    }
}

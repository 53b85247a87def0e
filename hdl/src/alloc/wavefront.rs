//! `alloc_wavefront_m8`: the wavefront allocator on an 8×8 switch (Y. Tamir, H.-C. Chi, IEEE TPDS 1993).
//! Hardware twin of `asr_model::allocator::wavefront::Wavefront` at r = 8.
//!
//! [`Wavefront8`] (ports as in [`crate::alloc`]): cell (i, q) lies on diagonal (i + q) mod 8; the diagonals
//! are served in 8 steps, starting at the priority diagonal `prio`. At each step every requesting cell of the
//! diagonal whose row and column are still free is granted (the cells of a diagonal share no row or column,
//! so the step is parallel); its row and column are then taken. The result is a maximal matching. `prio`
//! (3 flip-flops, 0 after reset) advances by one at every edge, as the model's pointer.
//!
//! Bit-parallel form: the request matrix as one 64-bit word (cell (i, q) = bit 8i + q); the rows and
//! columns taken so far as 64-bit masks covering their cells; the diagonal served at step d is chosen from
//! 8 constant masks by comparing `prio` with constants. Combinational grant (latency 0).

use super::locals;
use rust_hdl::prelude::*;

/// The wavefront allocator on an 8×8 switch; see the module documentation for the rule, state and timing.
#[derive(LogicBlock)]
pub struct Wavefront8 {
    /// Clock; the priority diagonal advances by one at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Request matrix: input i's row at bits `[8i +: 8]`, bit q = output q requested.
    pub requests: Signal<In, Bits<64>>,
    /// The matching, same layout: one-hot rows (or 0), each grant inside the requests, maximal; combinational
    /// from `requests` and the priority diagonal.
    pub grants: Signal<Out, Bits<64>>,
    prio: DFF<Bits<3>>,
    /// Cells of diagonal k; rows and columns as cell masks.
    diag: Vec<Constant<Bits<64>>>,
    rowm: Vec<Constant<Bits<64>>>,
    colm: Vec<Constant<Bits<64>>>,
    /// `sel[d*8 + k]` = the `prio` for which diagonal k is served at step d: (k − d) mod 8.
    sel: Vec<Constant<Bits<3>>>,
    dm: Vec<Signal<Local, Bits<64>>>,
    cand: Vec<Signal<Local, Bits<64>>>,
    rt: Vec<Signal<Local, Bits<64>>>,
    ct: Vec<Signal<Local, Bits<64>>>,
    re: Vec<Signal<Local, Bits<64>>>,
    ce: Vec<Signal<Local, Bits<64>>>,
    g: Vec<Signal<Local, Bits<64>>>,
}

impl Default for Wavefront8 {
    fn default() -> Self {
        let diag = (0..8)
            .map(|k| {
                let m = (0..8).fold(0u64, |a, i| a | 1 << (8 * i + (k + 8 - i) % 8));
                Constant::new(m.into())
            })
            .collect();
        Self {
            clock: Default::default(),
            requests: Default::default(),
            grants: Default::default(),
            prio: Default::default(),
            diag,
            rowm: (0..8)
                .map(|i| Constant::new((0xffu64 << (8 * i)).into()))
                .collect(),
            colm: (0..8)
                .map(|q| Constant::new((0x0101_0101_0101_0101u64 << q).into()))
                .collect(),
            sel: (0..64)
                .map(|x: usize| Constant::new(((((x % 8) + 8 - x / 8) % 8) as u64).into()))
                .collect(),
            dm: locals(72),
            cand: locals(8),
            rt: locals(9),
            ct: locals(9),
            re: locals(72),
            ce: locals(72),
            g: locals(9),
        }
    }
}

impl Logic for Wavefront8 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, prio);
        self.prio.d.next = self.prio.q.val() + 1;
        self.rt[0].next = 0.into();
        self.ct[0].next = 0.into();
        self.g[0].next = 0.into();
        for d in 0..8 {
            // The diagonal of step d: (prio + d) mod 8.
            self.dm[d * 9].next = 0.into();
            for k in 0..8 {
                if self.prio.q.val() == self.sel[d * 8 + k].val() {
                    self.dm[d * 9 + k + 1].next = self.dm[d * 9 + k].val() | self.diag[k].val();
                } else {
                    self.dm[d * 9 + k + 1].next = self.dm[d * 9 + k].val();
                }
            }
            self.cand[d].next = self.requests.val()
                & self.dm[d * 9 + 8].val()
                & (!self.rt[d].val())
                & (!self.ct[d].val());
            // The rows and columns of the granted cells, as cell masks.
            self.re[d * 9].next = self.rt[d].val();
            self.ce[d * 9].next = self.ct[d].val();
            for k in 0..8 {
                if (self.cand[d].val() & self.rowm[k].val()).any() {
                    self.re[d * 9 + k + 1].next = self.re[d * 9 + k].val() | self.rowm[k].val();
                } else {
                    self.re[d * 9 + k + 1].next = self.re[d * 9 + k].val();
                }
                if (self.cand[d].val() & self.colm[k].val()).any() {
                    self.ce[d * 9 + k + 1].next = self.ce[d * 9 + k].val() | self.colm[k].val();
                } else {
                    self.ce[d * 9 + k + 1].next = self.ce[d * 9 + k].val();
                }
            }
            self.rt[d + 1].next = self.re[d * 9 + 8].val();
            self.ct[d + 1].next = self.ce[d * 9 + 8].val();
            self.g[d + 1].next = self.g[d].val() | self.cand[d].val();
        }
        self.grants.next = self.g[8].val();
    }
}

//! One row step of the ColumnOR / Rotate_Until_Zero heuristic as a sum of products (combinational, latency
//! 0). Hardware twin of `asr_model::matcher::row_step` for 8 columns; a piece of the v2 allocator
//! ([`super::allocator`]).
//!
//! Ports: in `r[7:0]` the row's requests `R`, `m[7:0]` its assignment (one-hot, or 0 when `r` is 0),
//! `o[7:0]` the OR of the assignments of the *other* rows (rows before this one at their new value in this
//! pass); out `n[7:0]` the new assignment.
//!
//! The heuristic's `C = ColumnOR | !R` equals `B | m` with `B = o | !r` (the blocked columns other than the
//! row's own), so with the current column p (the bit of `m`) the new column is the first q cyclically after
//! p with `B[q] = 0`, or p itself when every other column is blocked:
//! `n[q] = OR_p m[p] & K(p, q)` with `K(p, q) = !B[q] & AND_{c strictly between p and q} B[c]` for `q ≠ p`
//! and `K(p, p) = AND_{c ≠ p} B[c]`. Each `K(p, q)` is one constant mask test, `!((W & !B) | (F & B))` with
//! `W` the columns that must be blocked and `F` the column that must be free, so every output bit is a
//! two-level function of the 16 bits `m`, `B` (a measured hint: about twice the clock rate of the
//! priority-encoder form of `hdl/src/matcher.rs` on the iCE40).

use rust_hdl::prelude::*;

/// Columns.
const C: usize = 8;

/// One row step of the matching heuristic over 8 columns; combinational, see the module documentation.
#[derive(LogicBlock)]
pub struct RowStep {
    /// The row's requests `R`: bit q = column q requested.
    pub r: Signal<In, Bits<8>>,
    /// The row's current assignment: one-hot, or 0 when `r` is 0.
    pub m: Signal<In, Bits<8>>,
    /// The OR of the other rows' assignments (the rows stepped before this one in the pass at their new
    /// value).
    pub o: Signal<In, Bits<8>>,
    /// The row's new assignment, one-hot (0 when `m` is 0); combinational.
    pub n: Signal<Out, Bits<8>>,
    /// Per (p, q) at `p*8+q`: the columns that must be blocked, the column that must be free.
    wm: Vec<Constant<Bits<8>>>,
    fm: Vec<Constant<Bits<8>>>,
    bit: Vec<Constant<Bits<8>>>,
    blk: Signal<Local, Bits<8>>,
    hit: Vec<Signal<Local, Bit>>,
    acc: Vec<Signal<Local, Bits<8>>>,
}

/// `(W, F)` of the term (p, q).
pub fn masks(p: usize, q: usize) -> (u64, u64) {
    if p == q {
        ((0xff & !(1u64 << p)), 0)
    } else {
        let w = (1..C)
            .map(|k| (p + k) % C)
            .take_while(|&c| c != q)
            .fold(0u64, |a, c| a | 1 << c);
        (w, 1 << q)
    }
}

impl Default for RowStep {
    fn default() -> Self {
        Self {
            r: Default::default(),
            m: Default::default(),
            o: Default::default(),
            n: Default::default(),
            wm: (0..C * C)
                .map(|k| Constant::new(masks(k / C, k % C).0.into()))
                .collect(),
            fm: (0..C * C)
                .map(|k| Constant::new(masks(k / C, k % C).1.into()))
                .collect(),
            bit: (0..C).map(|q| Constant::new((1u64 << q).into())).collect(),
            blk: Default::default(),
            hit: (0..C * C).map(|_| Default::default()).collect(),
            acc: (0..=C * C).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for RowStep {
    #[hdl_gen]
    fn update(&mut self) {
        self.blk.next = self.o.val() | !self.r.val();
        self.acc[0].next = 0.into();
        for p in 0..8 {
            for q in 0..8 {
                self.hit[p * 8 + q].next = self.m.val().get_bit(p)
                    & !(((!self.blk.val()) & self.wm[p * 8 + q].val())
                        | (self.blk.val() & self.fm[p * 8 + q].val()))
                    .any();
                if self.hit[p * 8 + q].val() {
                    self.acc[p * 8 + q + 1].next = self.acc[p * 8 + q].val() | self.bit[q].val();
                } else {
                    self.acc[p * 8 + q + 1].next = self.acc[p * 8 + q].val();
                }
            }
        }
        self.n.next = self.acc[64].val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use asr_model::matcher::row_step;

    /// Every (r, m, o) with m one of r's bits and o a random-ish set agrees with the model's row step.
    #[test]
    fn agrees_with_the_model_row_step() {
        let mut uut = RowStep::default();
        uut.connect_all();
        let mut checked = 0;
        for r in 0u64..256 {
            for p in 0..8 {
                if r >> p & 1 == 0 {
                    continue;
                }
                for o in (0u64..256).step_by(7) {
                    let m = 1u64 << p;
                    // The model's row step over two rows: this one and one holding the other rows' OR.
                    let want = row_step(&[m, o], &[r, 0], 0, 8);
                    uut.r.next = r.into();
                    uut.m.next = m.into();
                    uut.o.next = o.into();
                    assert!(simulate(&mut uut, 50));
                    assert_eq!(uut.n.val().to_u64(), want, "r {r:08b} p {p} o {o:08b}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 30_000);
    }
}

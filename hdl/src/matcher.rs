//! The combinational matcher: the ColumnOR / Rotate_Until_Zero heuristic of thesis Fig. 2.3, exactly as
//! docs/contracts.md reads it. Hardware twin of `model/src/matcher.rs` (`asr_model::matcher::heuristic`).
//!
//! [`Matcher`]`<M, MM, P>` (MM = M·M, a separate parameter because stable Rust has no const-generic
//! arithmetic):
//! - input `requests[MM-1:0]`: row i (input/packet i) at bits `[i*M +: M]`, bit j of a row = output j;
//! - output `grants[MM-1:0]`: the assignment `M` after initialisation and `P` passes, same layout, before
//!   conflict arbitration (one column may be given to several rows).
//!
//! Combinational: latency 0 cycles. The rotation "one position at a time toward higher column index until
//! `M[i] & C == 0`" is computed in one step: the lowest free permitted column strictly above the current
//! one, else the lowest free permitted column (cyclic wrap). The current column is always in `C` (row i is in
//! the ColumnOR), so the rotation never stops on it.
//!
//! Structure: an initialiser (lowest set bit of each row) feeding `P` chained [`MatcherPass`] blocks.

use crate::export::doc::TopDoc;
use rust_hdl::prelude::*;

use crate::parts::locals;

/// One pass of the heuristic over all `M` rows, in row order (combinational, latency 0).
///
/// Ports: `req[MM-1:0]` the request rows `R`, `m_in[MM-1:0]` the assignment before the pass, `m_out[MM-1:0]`
/// the assignment after it; row i at bits `[i*M +: M]`.
///
/// Row i sees the rows before it already updated in this pass and the rows from i on as they entered:
/// `ColumnOR_i = pre[i] | suf[i]` with `pre[i] = new[0] | .. | new[i-1]` and `suf[i] = old[i] | .. | old[M-1]`.
#[derive(LogicBlock)]
pub struct MatcherPass<const M: usize, const MM: usize> {
    /// The request rows `R`: row i at bits `[i*M +: M]`, bit j = output j requested.
    pub req: Signal<In, Bits<MM>>,
    /// The assignment before the pass, same layout: at most one bit per row.
    pub m_in: Signal<In, Bits<MM>>,
    /// The assignment after the pass, same layout; combinational from `req` and `m_in`.
    pub m_out: Signal<Out, Bits<MM>>,
    /// Bit offset of row i (i·M), a Verilog localparam.
    offs: Vec<Constant<Bits<16>>>,
    r: Vec<Signal<Local, Bits<M>>>,
    old: Vec<Signal<Local, Bits<M>>>,
    new: Vec<Signal<Local, Bits<M>>>,
    pre: Vec<Signal<Local, Bits<M>>>,
    suf: Vec<Signal<Local, Bits<M>>>,
    free: Vec<Signal<Local, Bits<M>>>,
    above: Vec<Signal<Local, Bits<M>>>,
    cand: Vec<Signal<Local, Bits<M>>>,
    lo_cand: Vec<Signal<Local, Bits<M>>>,
    lo_free: Vec<Signal<Local, Bits<M>>>,
    wide: Vec<Widen<M, MM>>,
    acc: Vec<Signal<Local, Bits<MM>>>,
}

/// Zero-extends an `M`-bit row to `MM` bits (combinational). A block of its own because rust-hdl evaluates
/// `bit_cast`'s width at Verilog-generation time and so cannot `bit_cast` a loop-indexed signal.
#[derive(LogicBlock, Default)]
pub struct Widen<const M: usize, const MM: usize> {
    /// The `M`-bit value.
    pub a: Signal<In, Bits<M>>,
    /// `a` zero-extended to `MM` bits; combinational.
    pub y: Signal<Out, Bits<MM>>,
}

impl<const M: usize, const MM: usize> Logic for Widen<M, MM> {
    #[hdl_gen]
    fn update(&mut self) {
        self.y.next = bit_cast::<MM, M>(self.a.val());
    }
}

fn widens<const M: usize, const MM: usize>() -> Vec<Widen<M, MM>> {
    (0..M).map(|_| Widen::default()).collect()
}

impl<const M: usize, const MM: usize> Default for MatcherPass<M, MM> {
    fn default() -> Self {
        assert!(
            M >= 1 && MM == M * M,
            "MatcherPass<{M}, {MM}>: MM must be M*M"
        );
        Self {
            req: Default::default(),
            m_in: Default::default(),
            m_out: Default::default(),
            offs: (0..M)
                .map(|i| Constant::new(((i * M) as u64).into()))
                .collect(),
            r: locals(M),
            old: locals(M),
            new: locals(M),
            pre: locals(M + 1),
            suf: locals(M + 1),
            free: locals(M),
            above: locals(M),
            cand: locals(M),
            lo_cand: locals(M),
            lo_free: locals(M),
            wide: widens(),
            acc: locals(M + 1),
        }
    }
}

impl<const M: usize, const MM: usize> Logic for MatcherPass<M, MM> {
    #[hdl_gen]
    fn update(&mut self) {
        // Unpack the rows.
        for i in 0..M {
            self.r[i].next = self.req.val().get_bits::<M>(self.offs[i].val().index());
            self.old[i].next = self.m_in.val().get_bits::<M>(self.offs[i].val().index());
        }
        // Suffix OR of the incoming rows: suf[i] = old[i] | .. | old[M-1]; suf[M] = 0.
        for i in M..(M + 1) {
            self.suf[i].next = 0.into();
        }
        // Highest row first: the Verilog is one `always @(*)` block of blocking assignments, so a value must
        // be written before it is read (the Rust simulation iterates to a fixed point and hides a wrong order;
        // Icarus caught it). `mm` is a one-iteration loop binding M so that `mm - 1 - j` is an index
        // expression rust-hdl can evaluate (it cannot evaluate a const-generic name in an index).
        for mm in M..(M + 1) {
            for j in 0..M {
                self.suf[mm - 1 - j].next = self.suf[mm - j].val() | self.old[mm - 1 - j].val();
            }
        }
        self.pre[0].next = 0.into();
        for i in 0..M {
            // Free permitted columns: !C = !(ColumnOR | !R[i]) = !ColumnOR & R[i].
            self.free[i].next = (!(self.pre[i].val() | self.suf[i].val())) & self.r[i].val();
            // Columns strictly above the current (one-hot) one: !((cur << 1) - 1).
            self.above[i].next = !((self.old[i].val() << 1) - 1);
            self.cand[i].next = self.free[i].val() & self.above[i].val();
            // Lowest set bit: x & (!x + 1).
            self.lo_cand[i].next = self.cand[i].val() & ((!self.cand[i].val()) + 1);
            self.lo_free[i].next = self.free[i].val() & ((!self.free[i].val()) + 1);
            if !self.free[i].val().any() {
                self.new[i].next = self.old[i].val();
            } else if self.cand[i].val().any() {
                self.new[i].next = self.lo_cand[i].val();
            } else {
                self.new[i].next = self.lo_free[i].val();
            }
            self.pre[i + 1].next = self.pre[i].val() | self.new[i].val();
        }
        // Pack the rows.
        self.acc[0].next = 0.into();
        for i in 0..M {
            self.wide[i].a.next = self.new[i].val();
            self.acc[i + 1].next = self.acc[i].val() | (self.wide[i].y.val() << self.offs[i].val());
        }
        for i in M..(M + 1) {
            self.m_out.next = self.acc[i].val();
        }
    }
}

/// The matcher `matcher_m{M}_p{P}`: initialisation (lowest set bit of each row) then `P ≥ 1` passes.
/// Combinational, latency 0. Ports `requests[MM-1:0]` in, `grants[MM-1:0]` out (see the module docs).
#[derive(LogicBlock)]
pub struct Matcher<const M: usize, const MM: usize, const P: usize> {
    /// The request matrix: row i (input i) at bits `[i*M +: M]`, bit j = output j requested.
    pub requests: Signal<In, Bits<MM>>,
    /// The assignment after initialisation and `P` passes, same layout: at most one bit per row, and a
    /// column may be in several rows (before conflict arbitration); combinational from `requests`.
    pub grants: Signal<Out, Bits<MM>>,
    /// The initial assignment: lowest set bit of each row (computed on the whole word row by row).
    init: Signal<Local, Bits<MM>>,
    offs: Vec<Constant<Bits<16>>>,
    r: Vec<Signal<Local, Bits<M>>>,
    lo: Vec<Signal<Local, Bits<M>>>,
    wide: Vec<Widen<M, MM>>,
    acc: Vec<Signal<Local, Bits<MM>>>,
    passes: Vec<MatcherPass<M, MM>>,
}

impl<const M: usize, const MM: usize, const P: usize> Default for Matcher<M, MM, P> {
    fn default() -> Self {
        assert!(P >= 1, "Matcher needs at least one pass");
        assert!(MM == M * M, "Matcher<{M}, {MM}, {P}>: MM must be M*M");
        Self {
            requests: Default::default(),
            grants: Default::default(),
            init: Default::default(),
            offs: (0..M)
                .map(|i| Constant::new(((i * M) as u64).into()))
                .collect(),
            r: locals(M),
            lo: locals(M),
            wide: widens(),
            acc: locals(M + 1),
            passes: (0..P).map(|_| MatcherPass::default()).collect(),
        }
    }
}

impl<const M: usize, const MM: usize, const P: usize> Logic for Matcher<M, MM, P> {
    #[hdl_gen]
    fn update(&mut self) {
        self.acc[0].next = 0.into();
        for i in 0..M {
            self.r[i].next = self
                .requests
                .val()
                .get_bits::<M>(self.offs[i].val().index());
            self.lo[i].next = self.r[i].val() & ((!self.r[i].val()) + 1);
            self.wide[i].a.next = self.lo[i].val();
            self.acc[i + 1].next = self.acc[i].val() | (self.wide[i].y.val() << self.offs[i].val());
        }
        for i in M..(M + 1) {
            self.init.next = self.acc[i].val();
        }
        self.passes[0].m_in.next = self.init.val();
        for p in 0..P {
            self.passes[p].req.next = self.requests.val();
        }
        for p in 1..P {
            self.passes[p].m_in.next = self.passes[p - 1].m_out.val();
        }
        for p in (P - 1)..P {
            self.grants.next = self.passes[p].m_out.val();
        }
    }
}

// The six exported matchers of docs/contracts.md.
/// `matcher_m4_p1`: 4 inputs and outputs, 1 pass.
pub type MatcherM4P1 = Matcher<4, 16, 1>;
/// `matcher_m4_p2`: 4 inputs and outputs, 2 passes.
pub type MatcherM4P2 = Matcher<4, 16, 2>;
/// `matcher_m8_p1`: 8 inputs and outputs, 1 pass.
pub type MatcherM8P1 = Matcher<8, 64, 1>;
/// `matcher_m8_p2`: 8 inputs and outputs, 2 passes.
pub type MatcherM8P2 = Matcher<8, 64, 2>;
/// `matcher_m16_p1`: 16 inputs and outputs, 1 pass.
pub type MatcherM16P1 = Matcher<16, 256, 1>;
/// `matcher_m16_p2`: 16 inputs and outputs, 2 passes.
pub type MatcherM16P2 = Matcher<16, 256, 2>;

/// The port documentation of the exported matcher top for `m` inputs and outputs and `p` passes
/// (`matcher_m<m>_p<p>`).
pub fn top_doc(m: usize, p: usize) -> TopDoc {
    TopDoc {
        summary: format!(
            "The combinational matcher of thesis Fig. 2.3 (ColumnOR / Rotate_Until_Zero heuristic) for \
             {m} inputs and {m} outputs, {p} pass(es), as docs/contracts.md reads it. Twin of \
             asr_model::matcher::heuristic (hdl/src/matcher.rs)."
        ),
        ports: vec![
            (
                "requests".into(),
                format!(
                    "request matrix: row i (input i) at bits [i*{m} +: {m}], bit j of a row = output j requested"
                ),
            ),
            (
                "grants".into(),
                format!(
                    "assignment after initialisation and {p} pass(es), same layout as requests (before \
                     conflict arbitration: a column may be given to several rows)"
                ),
            ),
        ],
        latency: "0 cycles (combinational, no clock)".into(),
    }
}

//! The registered-ready 2×2 ASR switch (docs/switch2.md, "Registered-ready variant"). Hardware twin of
//! `model/src/switch2r.rs` (`asr_model::switch2r::Switch2R`), exported as `switch2r` (W = 26, the Beneš-8
//! word); networks of it are `benes8r` and `benes16r` (`crate::benes`).
//!
//! [`Switch2R`]`<W, W2>` (W2 = 2·W) has the ports of the thesis switch (`crate::switch2::Switch2`):
//! - inputs `clock`, `in_valid[1:0]`, `in_data[W2-1:0]`, `out_ready[1:0]`;
//! - outputs `in_ready[1:0]`, `out_valid[1:0]`, `out_data[W2-1:0]`; port p at bits `[p*W +: W]`.
//!
//! The difference: `in_ready[i] = !sk_full[i]` is a register output, not a function of `out_ready`. Each
//! input has a head (`ib_full`, `ib_data`: the word that requests an output, as the thesis' input buffer) and
//! a skid buffer (`sk_full`, `sk_data`) for the word that arrives while the head waits. At the edge, a head
//! that is empty or moves takes the skid word if there is one, else the accepted word; a head that stays
//! puts the accepted word into the skid buffer. The data registers load without waiting for the
//! arbitration (the skid register on every accepted word, a free head from the skid register or the input
//! whether or not a word arrives; only the flags say whether they hold one), which keeps the arbitration
//! off their enables. Arbitration (the thesis' rule on the heads), output buffers,
//! the hop strip and the pointers are those of the thesis switch; `out_data` is 0 while `out_valid` is 0.
//! All registers start at 0. Latency: 1 edge from head to output buffer (2 edges per switch in a network),
//! as the thesis switch.

use crate::export::doc::TopDoc;
use rust_hdl::prelude::*;

/// The registered-ready switch with one data signal per port (`in_data0/1`, `out_data0/1`, each W bits),
/// for networks; otherwise as [`Switch2R`]. Its ports are those of `crate::switch2::Switch2Core`.
#[derive(LogicBlock)]
pub struct Switch2RCore<const W: usize> {
    /// Clock; every register updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Bit i: input i offers its word (`in_data0`, `in_data1`) in this cycle.
    pub in_valid: Signal<In, Bits<2>>,
    /// Input 0's word: the 2-bit port set of this hop in bits `[1:0]` (bit q = output q permitted), the rest
    /// of the header and the tag above. Taken at the edge when `in_valid[0]` and `in_ready[0]` are high.
    pub in_data0: Signal<In, Bits<W>>,
    /// Input 1's word, laid out as `in_data0`.
    pub in_data1: Signal<In, Bits<W>>,
    /// Bit q: the consumer of output q takes its word in this cycle (if `out_valid[q]`).
    pub out_ready: Signal<In, Bits<2>>,
    /// Bit i: input i takes its offered word at this edge; registered: high while skid buffer i is empty,
    /// independent of `out_ready`.
    pub in_ready: Signal<Out, Bits<2>>,
    /// Bit q: output q's buffer holds a word, offered on `out_data0`/`out_data1`; registered.
    pub out_valid: Signal<Out, Bits<2>>,
    /// Output 0's word, shifted right by 2 (this hop's port set stripped); 0 while `out_valid[0]` is 0;
    /// registered.
    pub out_data0: Signal<Out, Bits<W>>,
    /// Output 1's word, as `out_data0`.
    pub out_data1: Signal<Out, Bits<W>>,
    /// Head 0 holds a word (the word of input 0 that requests an output).
    pub ib_full0: DFF<Bit>,
    /// Head 1 holds a word (the word of input 1 that requests an output).
    pub ib_full1: DFF<Bit>,
    /// Head 0's word; its bits `[1:0]` are the request. Loaded whenever the head is free, so meaningful only
    /// while `ib_full0` is set.
    pub ib_data0: DFF<Bits<W>>,
    /// Head 1's word; its bits `[1:0]` are the request. Loaded whenever the head is free, so meaningful only
    /// while `ib_full1` is set.
    pub ib_data1: DFF<Bits<W>>,
    /// Skid buffer 0 holds a word that arrived while head 0 stayed; `in_ready[0]` is its inverse.
    pub sk_full0: DFF<Bit>,
    /// Skid buffer 1 holds a word that arrived while head 1 stayed; `in_ready[1]` is its inverse.
    pub sk_full1: DFF<Bit>,
    /// Skid buffer 0's word; loaded with every accepted word, so meaningful only while `sk_full0` is set.
    pub sk_data0: DFF<Bits<W>>,
    /// Skid buffer 1's word; loaded with every accepted word, so meaningful only while `sk_full1` is set.
    pub sk_data1: DFF<Bits<W>>,
    /// Output buffer 0 holds a word (drives `out_valid[0]`).
    pub ob_full0: DFF<Bit>,
    /// Output buffer 1 holds a word (drives `out_valid[1]`).
    pub ob_full1: DFF<Bit>,
    /// Output buffer 0's word, already shifted right by 2; cleared to 0 when the buffer empties.
    pub ob_data0: DFF<Bits<W>>,
    /// Output buffer 1's word, already shifted right by 2; cleared to 0 when the buffer empties.
    pub ob_data1: DFF<Bits<W>>,
    /// Round-robin pointer between the heads: when both want the same single output, head `in_ptr` wins, and
    /// the pointer turns.
    pub in_ptr: DFF<Bit>,
    /// Round-robin pointer between the outputs: a lone head that may take either output gets output
    /// `out_ptr`, and when both heads may take either, head 0 gets output `out_ptr`; the pointer turns after
    /// each such choice.
    pub out_ptr: DFF<Bit>,
    /// Output q is available: its buffer is empty or its word leaves this cycle.
    av0: Signal<Local, Bit>,
    av1: Signal<Local, Bit>,
    /// Usable requests of the heads: `x` = `A[0]`, `y` = `A[1]` of docs/switch2.md, one bit per output.
    x0: Signal<Local, Bit>,
    x1: Signal<Local, Bit>,
    y0: Signal<Local, Bit>,
    y1: Signal<Local, Bit>,
    /// Head i moves to output q this cycle (`f_iq`); head i moves (`mv_i`).
    f00: Signal<Local, Bit>,
    f01: Signal<Local, Bit>,
    f10: Signal<Local, Bit>,
    f11: Signal<Local, Bit>,
    mv0: Signal<Local, Bit>,
    mv1: Signal<Local, Bit>,
    /// A word is accepted at input i (`in_valid & in_ready`).
    acc0: Signal<Local, Bit>,
    acc1: Signal<Local, Bit>,
    /// Head i is free at this edge (empty or moving).
    hf0: Signal<Local, Bit>,
    hf1: Signal<Local, Bit>,
    in0: Signal<Local, Bits<W>>,
    in1: Signal<Local, Bits<W>>,
}

impl<const W: usize> Default for Switch2RCore<W> {
    fn default() -> Self {
        assert!(W >= 3, "Switch2RCore<{W}>: a word holds at least a hop");
        Self {
            clock: Default::default(),
            in_valid: Default::default(),
            in_data0: Default::default(),
            in_data1: Default::default(),
            out_ready: Default::default(),
            in_ready: Default::default(),
            out_valid: Default::default(),
            out_data0: Default::default(),
            out_data1: Default::default(),
            ib_full0: Default::default(),
            ib_full1: Default::default(),
            ib_data0: Default::default(),
            ib_data1: Default::default(),
            sk_full0: Default::default(),
            sk_full1: Default::default(),
            sk_data0: Default::default(),
            sk_data1: Default::default(),
            ob_full0: Default::default(),
            ob_full1: Default::default(),
            ob_data0: Default::default(),
            ob_data1: Default::default(),
            in_ptr: Default::default(),
            out_ptr: Default::default(),
            av0: Default::default(),
            av1: Default::default(),
            x0: Default::default(),
            x1: Default::default(),
            y0: Default::default(),
            y1: Default::default(),
            f00: Default::default(),
            f01: Default::default(),
            f10: Default::default(),
            f11: Default::default(),
            mv0: Default::default(),
            mv1: Default::default(),
            acc0: Default::default(),
            acc1: Default::default(),
            hf0: Default::default(),
            hf1: Default::default(),
            in0: Default::default(),
            in1: Default::default(),
        }
    }
}

impl<const W: usize> Logic for Switch2RCore<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ib_full0, ib_full1, ib_data0, ib_data1, sk_full0, sk_full1, sk_data0,
            sk_data1, ob_full0, ob_full1, ob_data0, ob_data1, in_ptr, out_ptr
        );
        self.in0.next = self.in_data0.val();
        self.in1.next = self.in_data1.val();
        // Usable requests of the heads: x = A[0], y = A[1], bit q = output q.
        self.av0.next = !self.ob_full0.q.val() | self.out_ready.val().get_bit(0);
        self.av1.next = !self.ob_full1.q.val() | self.out_ready.val().get_bit(1);
        self.x0.next = self.ib_full0.q.val() & self.ib_data0.q.val().get_bit(0) & self.av0.val();
        self.x1.next = self.ib_full0.q.val() & self.ib_data0.q.val().get_bit(1) & self.av1.val();
        self.y0.next = self.ib_full1.q.val() & self.ib_data1.q.val().get_bit(0) & self.av0.val();
        self.y1.next = self.ib_full1.q.val() & self.ib_data1.q.val().get_bit(1) & self.av1.val();
        // Arbitration: the thesis' rule (docs/switch2.md, `asr_model::switch2::arbitrate`) written as one
        // sum of products per move (f_iq: head i moves to output q), so that the synthesis sees two
        // levels of logic rather than a chain of cases.
        self.f00.next = self.x0.val()
            & ((!self.x1.val() & !(self.y0.val() & !self.y1.val() & self.in_ptr.q.val()))
                | (self.x1.val()
                    & ((!self.y0.val() & self.y1.val())
                        | (!self.out_ptr.q.val() & !(self.y0.val() ^ self.y1.val())))));
        self.f01.next = self.x1.val()
            & ((!self.x0.val() & !(self.y1.val() & !self.y0.val() & self.in_ptr.q.val()))
                | (self.x0.val()
                    & ((self.y0.val() & !self.y1.val())
                        | (self.out_ptr.q.val() & !(self.y0.val() ^ self.y1.val())))));
        self.f10.next = self.y0.val()
            & ((!self.y1.val() & !(self.x0.val() & !self.x1.val() & !self.in_ptr.q.val()))
                | (self.y1.val()
                    & ((!self.x0.val() & self.x1.val())
                        | (!self.x0.val() & !self.x1.val() & !self.out_ptr.q.val())
                        | (self.x0.val() & self.x1.val() & self.out_ptr.q.val()))));
        self.f11.next = self.y1.val()
            & ((!self.y0.val() & !(self.x1.val() & !self.x0.val() & !self.in_ptr.q.val()))
                | (self.y0.val()
                    & ((self.x0.val() & !self.x1.val())
                        | (!self.x0.val() & !self.x1.val() & self.out_ptr.q.val())
                        | (self.x0.val() & self.x1.val() & !self.out_ptr.q.val()))));
        self.mv0.next = self.f00.val() | self.f01.val();
        self.mv1.next = self.f10.val() | self.f11.val();
        // out_ptr turns when it chose an output (a lone 11 row, or 11 against 11); in_ptr when both heads
        // wanted the same single output.
        if (self.x0.val() & self.x1.val() & !self.y0.val() & !self.y1.val())
            | (!self.x0.val() & !self.x1.val() & self.y0.val() & self.y1.val())
            | (self.x0.val() & self.x1.val() & self.y0.val() & self.y1.val())
        {
            self.out_ptr.d.next = !self.out_ptr.q.val();
        }
        if (self.x0.val() & !self.x1.val() & self.y0.val() & !self.y1.val())
            | (!self.x0.val() & self.x1.val() & !self.y0.val() & self.y1.val())
        {
            self.in_ptr.d.next = !self.in_ptr.q.val();
        }
        // Output buffers change only when available (empty, or their word leaves this cycle): they take
        // the word that moves in, else empty (data cleared).
        if self.av0.val() {
            self.ob_full0.d.next = self.f00.val() | self.f10.val();
            self.ob_data0.d.next = 0.into();
            if self.f00.val() {
                self.ob_data0.d.next = self.ib_data0.q.val() >> 2;
            }
            if self.f10.val() {
                self.ob_data0.d.next = self.ib_data1.q.val() >> 2;
            }
        }
        if self.av1.val() {
            self.ob_full1.d.next = self.f01.val() | self.f11.val();
            self.ob_data1.d.next = 0.into();
            if self.f01.val() {
                self.ob_data1.d.next = self.ib_data0.q.val() >> 2;
            }
            if self.f11.val() {
                self.ob_data1.d.next = self.ib_data1.q.val() >> 2;
            }
        }
        // Inputs: in_ready is the registered "skid buffer empty".
        self.acc0.next = self.in_valid.val().get_bit(0) & !self.sk_full0.q.val();
        self.acc1.next = self.in_valid.val().get_bit(1) & !self.sk_full1.q.val();
        self.hf0.next = !self.ib_full0.q.val() | self.mv0.val();
        self.hf1.next = !self.ib_full1.q.val() | self.mv1.val();
        // Data registers load without waiting for the arbitration (their flags say whether they hold a
        // word): the skid register takes every accepted word, a free head the skid word or the input.
        if self.acc0.val() {
            self.sk_data0.d.next = self.in0.val();
        }
        if self.hf0.val() {
            if self.sk_full0.q.val() {
                self.ib_data0.d.next = self.sk_data0.q.val();
            } else {
                self.ib_data0.d.next = self.in0.val();
            }
        }
        // Flags: a free head takes the skid word or the accepted one; a head that stays puts the accepted
        // word in the skid buffer.
        if self.hf0.val() {
            self.ib_full0.d.next = self.sk_full0.q.val() | self.acc0.val();
            self.sk_full0.d.next = false;
        } else if self.acc0.val() {
            self.sk_full0.d.next = true;
        }
        if self.acc1.val() {
            self.sk_data1.d.next = self.in1.val();
        }
        if self.hf1.val() {
            if self.sk_full1.q.val() {
                self.ib_data1.d.next = self.sk_data1.q.val();
            } else {
                self.ib_data1.d.next = self.in1.val();
            }
        }
        if self.hf1.val() {
            self.ib_full1.d.next = self.sk_full1.q.val() | self.acc1.val();
            self.sk_full1.d.next = false;
        } else if self.acc1.val() {
            self.sk_full1.d.next = true;
        }
        // Outputs.
        self.in_ready.next = 0.into();
        if !self.sk_full0.q.val() {
            self.in_ready.next = 1.into();
        }
        if !self.sk_full1.q.val() {
            self.in_ready.next = self.in_ready.val() | 2;
        }
        self.out_valid.next = 0.into();
        if self.ob_full0.q.val() {
            self.out_valid.next = 1.into();
        }
        if self.ob_full1.q.val() {
            self.out_valid.next = self.out_valid.val() | 2;
        }
        self.out_data0.next = self.ob_data0.q.val();
        self.out_data1.next = self.ob_data1.q.val();
    }
}

/// The registered-ready 2×2 switch; see the module documentation for ports and timing. A [`Switch2RCore`]
/// with the two ports' data packed into `in_data[2W-1:0]` / `out_data[2W-1:0]` (port p at `[p*W +: W]`).
#[derive(LogicBlock)]
pub struct Switch2R<const W: usize, const W2: usize> {
    /// Clock; every register updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Bit i: input i offers its word in `in_data` in this cycle.
    pub in_valid: Signal<In, Bits<2>>,
    /// Input i's word at bits `[i*W +: W]`: the 2-bit port set of this hop in its bits `[1:0]` (bit q =
    /// output q permitted), the rest above.
    pub in_data: Signal<In, Bits<W2>>,
    /// Bit q: the consumer of output q takes its word in this cycle (if `out_valid[q]`).
    pub out_ready: Signal<In, Bits<2>>,
    /// Bit i: input i takes its offered word at this edge; registered (its skid buffer is empty).
    pub in_ready: Signal<Out, Bits<2>>,
    /// Bit q: output q offers its word in `out_data`; registered.
    pub out_valid: Signal<Out, Bits<2>>,
    /// Output q's word, shifted right by 2, at bits `[q*W +: W]`; 0 while not valid; registered.
    pub out_data: Signal<Out, Bits<W2>>,
    /// Bit offset of port 1 (= W), a Verilog localparam.
    w_off: Constant<Bits<16>>,
    /// The switch itself; this block only unpacks `in_data` and packs `out_data`.
    pub core: Switch2RCore<W>,
}

impl<const W: usize, const W2: usize> Default for Switch2R<W, W2> {
    fn default() -> Self {
        assert!(W2 == 2 * W, "Switch2R<{W}, {W2}>: W2 must be 2*W");
        Self {
            clock: Default::default(),
            in_valid: Default::default(),
            in_data: Default::default(),
            out_ready: Default::default(),
            in_ready: Default::default(),
            out_valid: Default::default(),
            out_data: Default::default(),
            w_off: Constant::new((W as u64).into()),
            core: Default::default(),
        }
    }
}

impl<const W: usize, const W2: usize> Logic for Switch2R<W, W2> {
    #[hdl_gen]
    fn update(&mut self) {
        self.core.clock.next = self.clock.val();
        self.core.in_valid.next = self.in_valid.val();
        self.core.in_data0.next = self.in_data.val().get_bits::<W>(0);
        self.core.in_data1.next = self.in_data.val().get_bits::<W>(self.w_off.val().index());
        self.core.out_ready.next = self.out_ready.val();
        self.in_ready.next = self.core.in_ready.val();
        self.out_valid.next = self.core.out_valid.val();
        self.out_data.next = bit_cast::<W2, W>(self.core.out_data0.val())
            | (bit_cast::<W2, W>(self.core.out_data1.val()) << self.w_off.val());
    }
}

/// The exported `switch2r` top (W = 26, as `switch2`).
pub type Switch2RTop = Switch2R<{ crate::switch2::SWITCH2_W }, { 2 * crate::switch2::SWITCH2_W }>;

/// The port documentation of the exported top `switch2r` (the header `asr verilog` writes): `switch2`'s ports
/// and latency, its own summary and a registered `in_ready`.
pub fn top_doc() -> TopDoc {
    let mut d = crate::switch2::top_doc();
    d.summary = "The registered-ready 2x2 ASR switch (docs/switch2.md, registered-ready variant): the thesis \
                 switch with a one-word skid buffer per input, so in_ready is a register. Twin of \
                 asr_model::switch2r::Switch2R (hdl/src/switch2r.rs). A word is 26 bits: the 2-bit port set of this hop in bits [1:0] \
                 (bit q = output q permitted), the rest of the header and the tag above; a move shifts \
                 it right by 2."
        .into();
    for (port, meaning) in &mut d.ports {
        if port == "in_ready" {
            *meaning = "bit i: input i takes its offered word at this edge (a register: its skid buffer is empty)"
                .into();
        }
    }
    d
}

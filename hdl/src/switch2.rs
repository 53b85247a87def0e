//! The 2×2 ASR switch of thesis chapter 3, implementing `docs/switch2.md` exactly. Hardware twin of
//! `model/src/switch2.rs` (`asr_model::switch2::Switch2`), exported as `switch2` (W = 26, the Beneš-8 word).
//!
//! [`Switch2`]`<W, W2>` (W2 = 2·W):
//! - inputs `clock`, `in_valid[1:0]`, `in_data[W2-1:0]`, `out_ready[1:0]`;
//! - outputs `in_ready[1:0]`, `out_valid[1:0]`, `out_data[W2-1:0]`; port p at bits `[p*W +: W]`.
//!
//! State: a one-word buffer at each input (`ib_full0/1`, `ib_data0/1`) and output (`ob_full0/1`, `ob_data0/1`),
//! round-robin pointers `in_ptr`, `out_ptr`; all registers start at 0. An output buffer's data register is
//! cleared when it empties, so `out_data` is 0 whenever `out_valid` is 0 (as in the model).
//!
//! Each cycle a maximum matching between waiting packets (request = the two lowest bits of the word) and the
//! available outputs (`!ob_full | out_ready`) is chosen by the rule of docs/switch2.md; a move stores the
//! word shifted right by 2 into the output buffer. `in_ready[i] = !ib_full[i] | moves(i)` is combinational
//! from `out_ready`. Latency: 1 edge from input buffer to output buffer (2 edges per switch in a network).

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

/// The 2×2 switch with one data signal per port (`in_data0/1`, `out_data0/1`, each W bits); otherwise as
/// [`Switch2`]. Networks use this form: it keeps every signal at W bits (rust-hdl simulates ≤ 32-bit values
/// natively and wider ones as bool arrays, so this is several times faster than the packed form).
#[derive(LogicBlock)]
pub struct Switch2Core<const W: usize> {
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
    /// Bit i: input i takes its offered word at this edge (its buffer is empty or its word moves in this
    /// cycle); combinational from `out_ready` and the registers.
    pub in_ready: Signal<Out, Bits<2>>,
    /// Bit q: output q's buffer holds a word, offered on `out_data0`/`out_data1`; registered.
    pub out_valid: Signal<Out, Bits<2>>,
    /// Output 0's word, shifted right by 2 (this hop's port set stripped); 0 while `out_valid[0]` is 0;
    /// registered.
    pub out_data0: Signal<Out, Bits<W>>,
    /// Output 1's word, as `out_data0`.
    pub out_data1: Signal<Out, Bits<W>>,
    /// Input buffer 0 holds a word.
    pub ib_full0: DFF<Bit>,
    /// Input buffer 1 holds a word.
    pub ib_full1: DFF<Bit>,
    /// Input buffer 0's word; its bits `[1:0]` are the request.
    pub ib_data0: DFF<Bits<W>>,
    /// Input buffer 1's word; its bits `[1:0]` are the request.
    pub ib_data1: DFF<Bits<W>>,
    /// Output buffer 0 holds a word (drives `out_valid[0]`).
    pub ob_full0: DFF<Bit>,
    /// Output buffer 1 holds a word (drives `out_valid[1]`).
    pub ob_full1: DFF<Bit>,
    /// Output buffer 0's word, already shifted right by 2; cleared to 0 when the buffer empties.
    pub ob_data0: DFF<Bits<W>>,
    /// Output buffer 1's word, already shifted right by 2; cleared to 0 when the buffer empties.
    pub ob_data1: DFF<Bits<W>>,
    /// Round-robin pointer between the inputs: when both want the same single output, input `in_ptr` wins,
    /// and the pointer turns.
    pub in_ptr: DFF<Bit>,
    /// Round-robin pointer between the outputs: a lone input that may take either output gets output
    /// `out_ptr`, and when both inputs may take either, input 0 gets output `out_ptr`; the pointer turns
    /// after each such choice.
    pub out_ptr: DFF<Bit>,
    /// Usable requests `A[i] = R[i] & avail`.
    a0: Signal<Local, Bits<2>>,
    a1: Signal<Local, Bits<2>>,
    /// Input i moves this cycle (`mv`), to output `q` (0/1).
    mv0: Signal<Local, Bit>,
    mv1: Signal<Local, Bit>,
    q0: Signal<Local, Bit>,
    q1: Signal<Local, Bit>,
    /// Input words, one per port.
    in0: Signal<Local, Bits<W>>,
    in1: Signal<Local, Bits<W>>,
    rdy0: Signal<Local, Bit>,
    rdy1: Signal<Local, Bit>,
}

impl<const W: usize> Default for Switch2Core<W> {
    fn default() -> Self {
        assert!(W >= 3, "Switch2Core<{W}>: a word holds at least a hop");
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
            ob_full0: Default::default(),
            ob_full1: Default::default(),
            ob_data0: Default::default(),
            ob_data1: Default::default(),
            in_ptr: Default::default(),
            out_ptr: Default::default(),
            a0: Default::default(),
            a1: Default::default(),
            mv0: Default::default(),
            mv1: Default::default(),
            q0: Default::default(),
            q1: Default::default(),
            in0: Default::default(),
            in1: Default::default(),
            rdy0: Default::default(),
            rdy1: Default::default(),
        }
    }
}

impl<const W: usize> Logic for Switch2Core<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ib_full0, ib_full1, ib_data0, ib_data1, ob_full0, ob_full1, ob_data0,
            ob_data1, in_ptr, out_ptr
        );
        self.in0.next = self.in_data0.val();
        self.in1.next = self.in_data1.val();
        // Usable requests: R[i] = ib_data[i][1:0] when full, masked by the available outputs.
        self.a0.next = 0.into();
        self.a1.next = 0.into();
        if self.ib_full0.q.val() {
            self.a0.next = self.ib_data0.q.val().get_bits::<2>(0);
            if self.ob_full0.q.val() & !self.out_ready.val().get_bit(0) {
                self.a0.next = self.ib_data0.q.val().get_bits::<2>(0) & 2;
            }
            if self.ob_full1.q.val() & !self.out_ready.val().get_bit(1) {
                self.a0.next = self.ib_data0.q.val().get_bits::<2>(0) & 1;
            }
            if (self.ob_full0.q.val() & !self.out_ready.val().get_bit(0))
                & (self.ob_full1.q.val() & !self.out_ready.val().get_bit(1))
            {
                self.a0.next = 0.into();
            }
        }
        if self.ib_full1.q.val() {
            self.a1.next = self.ib_data1.q.val().get_bits::<2>(0);
            if self.ob_full0.q.val() & !self.out_ready.val().get_bit(0) {
                self.a1.next = self.ib_data1.q.val().get_bits::<2>(0) & 2;
            }
            if self.ob_full1.q.val() & !self.out_ready.val().get_bit(1) {
                self.a1.next = self.ib_data1.q.val().get_bits::<2>(0) & 1;
            }
            if (self.ob_full0.q.val() & !self.out_ready.val().get_bit(0))
                & (self.ob_full1.q.val() & !self.out_ready.val().get_bit(1))
            {
                self.a1.next = 0.into();
            }
        }
        // Arbitration (docs/switch2.md).
        self.mv0.next = false;
        self.mv1.next = false;
        self.q0.next = false;
        self.q1.next = false;
        if (self.a0.val() == 0) & (self.a1.val() == 0) {
            // Case 1: no move.
        } else if self.a1.val() == 0 {
            // Case 2: only input 0.
            self.mv0.next = true;
            if self.a0.val() == 3 {
                self.q0.next = self.out_ptr.q.val();
                self.out_ptr.d.next = !self.out_ptr.q.val();
            } else {
                self.q0.next = self.a0.val().get_bit(1);
            }
        } else if self.a0.val() == 0 {
            // Case 2: only input 1.
            self.mv1.next = true;
            if self.a1.val() == 3 {
                self.q1.next = self.out_ptr.q.val();
                self.out_ptr.d.next = !self.out_ptr.q.val();
            } else {
                self.q1.next = self.a1.val().get_bit(1);
            }
        } else if (self.a0.val() == 3) & (self.a1.val() == 3) {
            // Case 3, all ones: input 0 to out_ptr, input 1 to the other.
            self.mv0.next = true;
            self.mv1.next = true;
            self.q0.next = self.out_ptr.q.val();
            self.q1.next = !self.out_ptr.q.val();
            self.out_ptr.d.next = !self.out_ptr.q.val();
        } else if self.a0.val() == self.a1.val() {
            // Case 3, both want the one output: in_ptr wins.
            self.q0.next = self.a0.val().get_bit(1);
            self.q1.next = self.a1.val().get_bit(1);
            if self.in_ptr.q.val() {
                self.mv1.next = true;
            } else {
                self.mv0.next = true;
            }
            self.in_ptr.d.next = !self.in_ptr.q.val();
        } else if self.a0.val() == 3 {
            // Case 3, unique perfect matching: row 1 has one bit.
            self.mv0.next = true;
            self.mv1.next = true;
            self.q1.next = self.a1.val().get_bit(1);
            self.q0.next = !self.a1.val().get_bit(1);
        } else {
            // Case 3, unique perfect matching: row 0 has one bit.
            self.mv0.next = true;
            self.mv1.next = true;
            self.q0.next = self.a0.val().get_bit(1);
            self.q1.next = !self.a0.val().get_bit(1);
        }
        // Ready: an input buffer takes a word when empty or when its packet leaves this cycle.
        self.rdy0.next = !self.ib_full0.q.val() | self.mv0.val();
        self.rdy1.next = !self.ib_full1.q.val() | self.mv1.val();
        self.in_ready.next = 0.into();
        if self.rdy0.val() {
            self.in_ready.next = 1.into();
        }
        if self.rdy1.val() {
            self.in_ready.next = self.in_ready.val() | 2;
        }
        // Output buffers: a delivery empties (and clears) them; a move fills them.
        if self.ob_full0.q.val() & self.out_ready.val().get_bit(0) {
            self.ob_full0.d.next = false;
            self.ob_data0.d.next = 0.into();
        }
        if self.ob_full1.q.val() & self.out_ready.val().get_bit(1) {
            self.ob_full1.d.next = false;
            self.ob_data1.d.next = 0.into();
        }
        if self.mv0.val() & !self.q0.val() {
            self.ob_full0.d.next = true;
            self.ob_data0.d.next = self.ib_data0.q.val() >> 2;
        }
        if self.mv1.val() & !self.q1.val() {
            self.ob_full0.d.next = true;
            self.ob_data0.d.next = self.ib_data1.q.val() >> 2;
        }
        if self.mv0.val() & self.q0.val() {
            self.ob_full1.d.next = true;
            self.ob_data1.d.next = self.ib_data0.q.val() >> 2;
        }
        if self.mv1.val() & self.q1.val() {
            self.ob_full1.d.next = true;
            self.ob_data1.d.next = self.ib_data1.q.val() >> 2;
        }
        // Input buffers: a move empties them; an accepted word fills them.
        if self.mv0.val() {
            self.ib_full0.d.next = false;
        }
        if self.mv1.val() {
            self.ib_full1.d.next = false;
        }
        if self.in_valid.val().get_bit(0) & self.rdy0.val() {
            self.ib_full0.d.next = true;
            self.ib_data0.d.next = self.in0.val();
        }
        if self.in_valid.val().get_bit(1) & self.rdy1.val() {
            self.ib_full1.d.next = true;
            self.ib_data1.d.next = self.in1.val();
        }
        // Outputs.
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

/// The 2×2 switch; see the module documentation for ports and timing. A [`Switch2Core`] with the two
/// ports' data packed into `in_data[2W-1:0]` / `out_data[2W-1:0]` (port p at `[p*W +: W]`); latency as the
/// core's.
#[derive(LogicBlock)]
pub struct Switch2<const W: usize, const W2: usize> {
    /// Clock; every register updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Bit i: input i offers its word in `in_data` in this cycle.
    pub in_valid: Signal<In, Bits<2>>,
    /// Input i's word at bits `[i*W +: W]`: the 2-bit port set of this hop in its bits `[1:0]` (bit q =
    /// output q permitted), the rest above.
    pub in_data: Signal<In, Bits<W2>>,
    /// Bit q: the consumer of output q takes its word in this cycle (if `out_valid[q]`).
    pub out_ready: Signal<In, Bits<2>>,
    /// Bit i: input i takes its offered word at this edge; combinational from `out_ready` and the registers.
    pub in_ready: Signal<Out, Bits<2>>,
    /// Bit q: output q offers its word in `out_data`; registered.
    pub out_valid: Signal<Out, Bits<2>>,
    /// Output q's word, shifted right by 2, at bits `[q*W +: W]`; 0 while not valid; registered.
    pub out_data: Signal<Out, Bits<W2>>,
    /// Bit offset of port 1 (= W), a Verilog localparam.
    w_off: Constant<Bits<16>>,
    /// The switch itself; this block only unpacks `in_data` and packs `out_data`.
    pub core: Switch2Core<W>,
}

impl<const W: usize, const W2: usize> Default for Switch2<W, W2> {
    fn default() -> Self {
        assert!(W2 == 2 * W, "Switch2<{W}, {W2}>: W2 must be 2*W");
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

impl<const W: usize, const W2: usize> Logic for Switch2<W, W2> {
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

/// Word width of the exported `switch2` top: the Beneš-8 word, 2·5 + 16.
pub const SWITCH2_W: usize = 26;
/// The exported `switch2` top.
pub type Switch2Top = Switch2<SWITCH2_W, { 2 * SWITCH2_W }>;

/// The port documentation of the exported top `switch2` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The 2x2 ASR switch of thesis chapter 3 with one-word input and output buffers and the \
                  arbitration rule of docs/switch2.md. Twin of asr_model::switch2::Switch2 \
                  (hdl/src/switch2.rs). A word is 26 bits: the 2-bit port set of this hop in bits [1:0] \
                  (bit q = output q permitted), the rest of the header and the tag above; a move shifts \
                  it right by 2."
            .into(),
        ports: docs(&[
            CLOCK,
            ("in_valid", "bit i: input i offers in_data[i]"),
            ("in_data", "input i's word at bits [i*26 +: 26]"),
            ("out_ready", "bit q: the consumer of output q takes its word this cycle"),
            (
                "in_ready",
                "bit i: input i takes its offered word at this edge (combinational from out_ready)",
            ),
            ("out_valid", "bit q: output q offers out_data[q]"),
            ("out_data", "output q's word at bits [q*26 +: 26]; 0 when not valid"),
        ]),
        latency: "a word accepted at edge t is in an output buffer at edge t+1 and offered during the \
                  following cycle (2 edges per switch in a network)"
            .into(),
    }
}

//! The central queue's free list ([`FreeList`]): the chunks never handed out since the start (or the
//! last reset) counted by `fresh`, the freed chunks in a FIFO of chunk numbers in a block RAM (`RAM<7
//! bits, 128>`, no initial contents, so that a reset restores the list: `asr verilog --reset`).
//!
//! Ports: in `clock`, `pop` (the head is taken at the edge; never when empty), `push`, `push_c[6:0]` (a
//! chunk appended at the edge; a pop and a push in one cycle: the pop takes the old head);
//! out `valid` (not empty), `head[6:0]` (0 when empty), `count[7:0]` (chunks on the list, 0..128), all
//! from registers (the head through a 3:1 multiplexer).
//!
//! The list is the model's FIFO, initially 0..127: chunks `fresh`..127 first (while `fresh` < 128 the head
//! is chunk `fresh`, a pop counts it), then the freed chunks in the order they were pushed (the RAM FIFO,
//! `frp`, `fwp`; a pop takes its head once `fresh` is 128). The RAM's read address is the FIFO's head index
//! after the edge's pop, so its output register is the next FIFO head; when the chunk pushed at an edge
//! becomes the FIFO's head (the FIFO was empty after the pop) the RAM reads it in the same edge it is
//! written, and `byp` holds it instead. A push into an empty FIFO happens only with fewer than 128 chunks
//! in it, so "empty after the pop" is `frp_n == fwp`.
//!
//! Latency: a pop or push at an edge shows on the outputs after it.

use rust_hdl::prelude::*;

/// The free list; see the module documentation.
#[derive(LogicBlock)]
pub struct FreeList {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The head is taken at the edge.
    pub pop: Signal<In, Bit>,
    /// `push_c` is appended at the edge.
    pub push: Signal<In, Bit>,
    /// The chunk appended.
    pub push_c: Signal<In, Bits<7>>,
    /// The list is not empty.
    pub valid: Signal<Out, Bit>,
    /// Its head (0 when empty).
    pub head: Signal<Out, Bits<7>>,
    /// Chunks on the list.
    pub count: Signal<Out, Bits<8>>,
    /// The FIFO's storage.
    pub fram: RAM<Bits<7>, 7>,
    /// Chunks on the list.
    pub fcnt: DFFWithInit<Bits<8>>,
    /// Chunks never handed out: `fresh`..127 (none when 128).
    pub fresh: DFF<Bits<8>>,
    /// The FIFO's read index (its head).
    pub frp: DFF<Bits<7>>,
    /// Write index.
    pub fwp: DFF<Bits<7>>,
    /// The FIFO's head is `byp`.
    pub byp_use: DFF<Bit>,
    /// The chunk pushed at the last edge.
    pub byp: DFF<Bits<7>>,
    fleft: Signal<Local, Bits<8>>,
    frp_n: Signal<Local, Bits<7>>,
    fhead: Signal<Local, Bits<7>>,
}

impl Default for FreeList {
    fn default() -> Self {
        FreeList {
            clock: Default::default(),
            pop: Default::default(),
            push: Default::default(),
            push_c: Default::default(),
            valid: Default::default(),
            head: Default::default(),
            count: Default::default(),
            fram: Default::default(),
            fcnt: DFFWithInit::new(128.into()),
            fresh: Default::default(),
            frp: Default::default(),
            fwp: Default::default(),
            byp_use: Default::default(),
            byp: Default::default(),
            fleft: Default::default(),
            frp_n: Default::default(),
            fhead: Default::default(),
        }
    }
}

impl Logic for FreeList {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fcnt, fresh, frp, fwp, byp_use, byp);
        self.fram.read_clock.next = self.clock.val();
        self.fram.write_clock.next = self.clock.val();
        self.fleft.next = self.fcnt.q.val();
        self.frp_n.next = self.frp.q.val();
        if self.pop.val() {
            self.fleft.next = self.fcnt.q.val() - 1;
            if self.fresh.q.val().get_bit(7) {
                self.frp_n.next = self.frp.q.val() + 1;
            } else {
                self.fresh.d.next = self.fresh.q.val() + 1;
            }
        }
        self.frp.d.next = self.frp_n.val();
        self.fram.read_address.next = self.frp_n.val();
        self.fram.write_enable.next = self.push.val();
        self.fram.write_address.next = self.fwp.q.val();
        self.fram.write_data.next = self.push_c.val();
        self.fcnt.d.next = self.fleft.val();
        if self.push.val() {
            self.fcnt.d.next = self.fleft.val() + 1;
            self.fwp.d.next = self.fwp.q.val() + 1;
        }
        self.byp_use.d.next = self.push.val() & (self.frp_n.val() == self.fwp.q.val());
        self.byp.d.next = self.push_c.val();
        self.fhead.next = self.fram.read_data.val();
        if self.byp_use.q.val() {
            self.fhead.next = self.byp.q.val();
        }
        self.valid.next = self.fcnt.q.val().any();
        self.count.next = self.fcnt.q.val();
        self.head.next = 0.into();
        if !self.fresh.q.val().get_bit(7) {
            self.head.next = self.fresh.q.val().get_bits::<7>(0);
        } else if self.fcnt.q.val().any() {
            self.head.next = self.fhead.val();
        }
    }
}

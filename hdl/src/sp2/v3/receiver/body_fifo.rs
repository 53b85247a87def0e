//! The v3 receiver's body FIFO: [`RX_DEPTH`] tagged entries (`asr_model::sp2::v3::receiver::Tag`, encoded
//! as [`TAG_BITS`] bits by [`super::tag_bits`]) in one block RAM with a registered read, and a small
//! fall-through output.
//!
//! Ports: in `clock`; `push`, `din[10:0]` (the entry written at the edge); `pop` (the head leaves at the
//! edge; only when `nonempty`). Out `nonempty` and `head[10:0]` (the head entry, valid with `nonempty`),
//! both from registers and the RAM's registered read data.
//!
//! The read address is the head index after this cycle's pop, so the RAM reads the next head at the edge.
//! When the entry written at the edge is that next head (the FIFO empty, or holding only the entry popped),
//! the RAM would still give its old contents: the head is then the bypass register `byp`, loaded with the
//! written entry (the design never relies on the RAM's read-during-write value, so the exported memory is
//! marked `no_rw_check`). Latency: an entry pushed at an edge is the head in the next cycle at the earliest.
//!
//! Why block RAM and not registers: on iCE40 there is no LUT RAM, so 16 × 11 bits in flip-flops would cost
//! 176 logic cells and a 16:1 multiplexer of 11 bits (about 55 LUT4) against one `SB_RAM40_4K` and ~20 LUT4
//! here (the block RAMs are in the budget: 8 for the receivers' FIFOs).

use asr_model::sp2::RX_DEPTH;
use rust_hdl::prelude::*;

/// Bits of a body FIFO entry: the entry's 10 bits (`Entry::to_bits`) and a header flag.
pub const TAG_BITS: usize = 11;
/// Address bits of the FIFO RAM.
pub const FIFO_ADDR: usize = 4;
const _: () = assert!(
    1 << FIFO_ADDR == RX_DEPTH,
    "the FIFO RAM holds RX_DEPTH entries"
);

/// The body FIFO; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct BodyFifo {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Write `din` at the edge.
    pub push: Signal<In, Bit>,
    /// The entry to write.
    pub din: Signal<In, Bits<TAG_BITS>>,
    /// The head leaves at the edge.
    pub pop: Signal<In, Bit>,
    /// The FIFO holds an entry; from a register.
    pub nonempty: Signal<Out, Bit>,
    /// The head entry (with `nonempty`); the RAM's read data or the bypass register.
    pub head: Signal<Out, Bits<TAG_BITS>>,
    /// The entries, in block RAM with a registered read.
    pub ram: RAM<Bits<TAG_BITS>, FIFO_ADDR>,
    /// Write index, one bit wider than the RAM address (a full FIFO differs from an empty one).
    pub wp: DFF<Bits<5>>,
    /// Read index (the head), as wide.
    pub rp: DFF<Bits<5>>,
    /// `rp != wp`, kept beside them.
    pub nz: DFF<Bit>,
    /// The entry written at the last edge, the head when `use_byp`.
    pub byp: DFF<Bits<TAG_BITS>>,
    /// The head is `byp` (written at the last edge at the address read).
    pub use_byp: DFF<Bit>,
    rp_n: Signal<Local, Bits<5>>,
    wp_n: Signal<Local, Bits<5>>,
}

impl Logic for BodyFifo {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wp, rp, nz, byp, use_byp);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.nonempty.next = self.nz.q.val();
        self.head.next = self.ram.read_data.val();
        if self.use_byp.q.val() {
            self.head.next = self.byp.q.val();
        }
        self.rp_n.next = self.rp.q.val();
        if self.pop.val() {
            self.rp_n.next = self.rp.q.val() + 1;
        }
        self.rp.d.next = self.rp_n.val();
        self.ram.read_address.next = self.rp_n.val().get_bits::<FIFO_ADDR>(0);
        self.ram.write_address.next = self.wp.q.val().get_bits::<FIFO_ADDR>(0);
        self.ram.write_data.next = self.din.val();
        self.ram.write_enable.next = self.push.val();
        self.wp_n.next = self.wp.q.val();
        if self.push.val() {
            self.wp_n.next = self.wp.q.val() + 1;
        }
        self.wp.d.next = self.wp_n.val();
        self.nz.d.next = self.rp_n.val() != self.wp_n.val();
        self.byp.d.next = self.din.val();
        self.use_byp.d.next = self.push.val()
            & (self.rp_n.val().get_bits::<FIFO_ADDR>(0)
                == self.wp.q.val().get_bits::<FIFO_ADDR>(0));
    }
}

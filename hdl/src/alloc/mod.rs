//! 8×8 switch allocators in hardware, beside the ASR matcher (`crate::matcher`), for the comparison of
//! docs/allocators.md (issue 17). Each is the hardware twin of a model allocator:
//!
//! | top | block | model twin |
//! |---|---|---|
//! | `alloc_islip1_m8` | [`islip::Islip8`]: iSLIP, 1 iteration | `asr_model::allocator::islip::Islip { iterations: 1 }` |
//! | `alloc_pim1_m8` | [`pim::PimLfsr8`]: PIM, 1 iteration, random priorities from a 64-bit xorshift register | `asr_model::allocator::pim_lfsr::PimLfsr8` |
//! | `alloc_wavefront_m8` | [`wavefront::Wavefront8`]: wavefront, rotating priority diagonal | `asr_model::allocator::wavefront::Wavefront` |
//!
//! Common ports: `clock`; `requests[63:0]` in (row i = input i at bits `[8i +: 8]`, bit q = output q);
//! `grants[63:0]` out, the same layout, one-hot rows (or 0), a matching inside the requests. The grant is
//! combinational from `requests` and the registered state (latency 0: decided in the cycle it is used);
//! the state (pointers, priority, random register) updates at the rising edge.
//!
//! Shared pieces: [`Ppe8`], a programmable priority encoder with a one-hot pointer, and [`onehots`], the
//! 64 one-hot constants with which rows and columns are packed and transposed (chains that Yosys folds
//! into wiring).

pub mod islip;
pub mod pim;
pub mod wavefront;

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

/// Programmable priority encoder over 8 requesters (combinational, latency 0).
///
/// Ports: `req[7:0]`, `ptr[7:0]` (one-hot: the requester with the highest priority), `gnt[7:0]` out: the
/// first requester at or after `ptr`, cyclically, one-hot (0 when `req` is 0). Twin of
/// `asr_model::allocator::grant::first_from`.
#[derive(LogicBlock, Default)]
pub struct Ppe8 {
    /// Requests: bit i high when requester i asks.
    pub req: Signal<In, Bits<8>>,
    /// One-hot pointer: the requester with the highest priority.
    pub ptr: Signal<In, Bits<8>>,
    /// The first requester at or after `ptr`, cyclically, one-hot; 0 when `req` is 0; combinational.
    pub gnt: Signal<Out, Bits<8>>,
    hi: Signal<Local, Bits<8>>,
    lo_hi: Signal<Local, Bits<8>>,
    lo_req: Signal<Local, Bits<8>>,
}

impl Logic for Ppe8 {
    #[hdl_gen]
    fn update(&mut self) {
        // Requesters at or after the pointer: req & !(ptr - 1).
        self.hi.next = self.req.val() & (!(self.ptr.val() - 1));
        // Lowest set bit: x & (!x + 1).
        self.lo_hi.next = self.hi.val() & ((!self.hi.val()) + 1);
        self.lo_req.next = self.req.val() & ((!self.req.val()) + 1);
        if self.hi.val().any() {
            self.gnt.next = self.lo_hi.val();
        } else {
            self.gnt.next = self.lo_req.val();
        }
    }
}

/// The 64 one-hot 64-bit constants (`1 << k`).
pub fn onehots() -> Vec<Constant<Bits<64>>> {
    (0..64).map(|k| Constant::new((1u64 << k).into())).collect()
}

/// Bit offsets `8·i` of the 8 rows, as 16-bit constants for `get_bits`.
pub fn row_offsets() -> Vec<Constant<Bits<16>>> {
    (0..8)
        .map(|i| Constant::new(((8 * i) as u64).into()))
        .collect()
}

pub use crate::parts::locals;

/// The port documentation of the exported 8×8 allocator top `name` (`alloc_islip1_m8`, `alloc_pim1_m8`,
/// `alloc_wavefront_m8`).
pub fn top_doc(name: &str) -> TopDoc {
    let (what, state) = match name {
            "alloc_islip1_m8" => (
                "iSLIP with one iteration (McKeown 1999): output q grants the first requesting input at or \
                 after its grant pointer, input i accepts the first granting output at or after its accept \
                 pointer; accepted pairs move both pointers one past each other. Twin of \
                 asr_model::allocator::islip::Islip { iterations: 1 } (hdl/src/alloc/islip.rs).",
                "16 one-hot pointers (128 flip-flops), all at port 0 at start",
            ),
            "alloc_pim1_m8" => (
                "parallel iterative matching with one iteration, its random priorities read from a 64-bit \
                 xorshift register that steps at every edge. Twin of \
                 asr_model::allocator::pim_lfsr::PimLfsr8 (hdl/src/alloc/pim.rs).",
                "the 64-bit random register, at asr_model::allocator::pim_lfsr::SEED at start",
            ),
            _ => (
                "the wavefront allocator (Tamir and Chi 1993): the 8 diagonals of the request matrix \
                 served in turn from a priority diagonal that advances by one at every edge. Twin of \
                 asr_model::allocator::wavefront::Wavefront (hdl/src/alloc/wavefront.rs).",
                "the 3-bit priority diagonal, 0 at start",
            ),
        };
    TopDoc {
        summary: format!(
            "8x8 switch allocator for the comparison of docs/allocators.md: {what} State: {state}."
        ),
        ports: docs(&[
            CLOCK,
            (
                "requests",
                "request matrix: input i's row at bits [i*8 +: 8], bit q = output q requested",
            ),
            (
                "grants",
                "the matching, same layout: one-hot rows (or 0), each grant inside the requests",
            ),
        ]),
        latency:
            "0 cycles: the grant is combinational from requests and the registered state, which \
                      updates at the rising edge"
                .into(),
    }
}

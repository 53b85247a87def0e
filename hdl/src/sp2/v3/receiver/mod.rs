//! The v3 receiver (docs/sp2-switch.md, V3.B), twin of `asr_model::sp2::v3::receiver::Receiver`, cycle for
//! cycle: the arrival tracker at the pins ([`tracker`]), the body FIFO in block RAM ([`body_fifo`]), and here
//! the two-entry header FIFO, the consumer (`Idle`, `Route`, `Wait`, `Xbar`, `Queue`), the look-ahead grant
//! and admission, the held free chunk, the queue writer and the owed-token counter.
//!
//! Ports (the model's names; `Option<T>` is `<name>_valid` + `<name>`, fields 0 when not valid):
//! - in `clock`; `pins_valid`, `pins[7:0]` (the link pins); `grant_valid`, `grant[2:0]` (the allocator's
//!   grant register: this receiver to that transmitter); `conn[7:0]`, `tx_idle[7:0]`, `credit_ok[7:0]`,
//!   `cand_free[7:0]` (the transmitters' registers, bit o for transmitter o, and the queue's load); `admitted_valid`,
//!   `admitted[2:0]` (the queue's admission register: this receiver, for that output); `in_matrix`,
//!   `adm_busy` (not read, as in the model); `slot_bank[2:0]` (the bank of its slot, `(i + t) mod 8`);
//!   `ctrl_slot` (`t mod 8 == i`); `free_head_valid` (not read: the model only checks it), `free_head[6:0]`;
//! - out, registered (`RxRegs`): `offer_valid`, `offer_entry[9:0]` (`Entry::to_bits`), `offer_to_valid`,
//!   `offer_to[2:0]`; `req[7:0]`; `ask_valid`, `ask_set[7:0]`, `ask_chunks[5:0]`; `near_end`; `wpos_valid`,
//!   `wpos[6:0]`; `token`; and `crc_errors[7:0]`, `route_errors[7:0]` (modulo 256);
//! - out, for the cycle (`RxActs`, into the central queue's RAM ports in this cycle): `write_valid`,
//!   `write_chunk[6:0]`, `write_bank[2:0]`, `write_entry[9:0]`; `pop`; `link_valid`, `link_from[6:0]`,
//!   `link_to[6:0]`; `push_valid`, `push_out[2:0]`, `push_head[7:0]`, `push_first[6:0]`, `push_start[2:0]`,
//!   `push_writer[2:0]`.
//!
//! Parameter: the port index `P` (its `writer` in a pushed packet reference; its slots come in as
//! `slot_bank` and `ctrl_slot`).
//!
//! Latency and combinational paths: every `RxRegs` output is a flip-flop. The `RxActs` go straight into the
//! queue's RAM ports in the cycle, as the model has them (the one place a value crosses the block boundary
//! within a cycle). A write depends on the registers, the FIFO head (block-RAM read data) and `slot_bank`
//! (not on `admitted`: a packet admitted at an edge writes from the next cycle on); `pop` and `link` on
//! `ctrl_slot` and the same, `link_to` on `free_head` (a chunk taken from the free list in the slot it is
//! linked to); `push` on `ctrl_slot` and registers alone (a packet whose first entry is written in the
//! control slot's own cycle is pushed in the next slot: V3.F). A byte on the pins reaches the FIFO's RAM port and the header FIFO at the edge; a header
//! pushed at an edge lets an idle consumer start its packet at that edge (as the model).
//!
//! Encodings: the consumer one-hot with `Idle` implied (`s_route`, `s_wait`, `s_xbar`, `s_queue`); instead of
//! the model's `done` and the packet's `LEN`, `rem` = `LEN − 1 − done` (8 bits, −1 is 255: the crossbar has
//! `rem + 2` offers left, the queue `rem` entries, 1 for `LEN = 1`; loaded with `LEN − 1` from the header
//! FIFO, which holds `LEN − 1`, or with a stored `LEN` that its `R1` decrements), so the preload and a
//! pushed packet's head are `rem` itself and the near-end, link and end tests are bit tests of `rem`; `first`
//! (`done = 0`), `nbank` (the bank of the next entry, `(start + done) mod 8`: `done mod 8 = 0` is `nbank =
//! start`); the look-ahead grant and admission share one output register `la_o`; `offer.to` is always the
//! consumer's `out` and is driven from it. The consumer's decisions read the FIFO head's tag only where the
//! model's do not follow from `rem`: a stored `LEN` (bit 10) and a dropped `R1` (bit 8, [`tag_bits`]); which
//! entry comes next (body byte, last byte, end) follows from `rem`, the tags agreeing as the model checks.

pub mod body_fifo;
mod doc;
mod new;
pub mod tracker;
mod update;

pub use doc::top_doc;

use asr_model::sp2::v3::receiver::Tag;
use asr_model::sp2::v3::{Entry, ENTRY_BITS, NEAR_END};
use asr_model::sp2::{CHUNK, CQ_CHUNKS, PORTS};
use body_fifo::{BodyFifo, TAG_BITS};
use rust_hdl::prelude::*;
use tracker::Tracker;

const _: () = assert!(ENTRY_BITS == 10 && TAG_BITS == ENTRY_BITS + 1);
const _: () = assert!(CQ_CHUNKS == 128, "chunk numbers are 7 bits");
const _: () = assert!(
    NEAR_END == 8,
    "the near-end tests are written out as bit tests for NEAR_END = 8"
);
const _: () = assert!(
    CHUNK == 8 && PORTS == 8,
    "banks, ports and outputs are 3 bits"
);

/// A body FIFO entry as the hardware stores it: bits 9..0 the entry the tag becomes
/// ([`Entry::to_bits`]: a `LEN`, an `R1` or a body byte as a byte, `Last` and `End` as themselves), bit 10
/// set for a header byte (`LEN` or `R1`: the consumer's state tells which), and in an `R1` bit 8 set when
/// it is 0 (the packet was dropped at arrival).
pub fn tag_bits(t: Tag) -> u16 {
    match t {
        Tag::Len(b) => 1 << ENTRY_BITS | b as u16,
        Tag::R1(b) => 1 << ENTRY_BITS | ((b == 0) as u16) << 8 | b as u16,
        Tag::Body(b) => b as u16,
        Tag::Last { byte, bad } => Entry::Last { byte, bad }.to_bits(),
        Tag::End { bad } => Entry::End { bad }.to_bits(),
    }
}

/// The v3 receiver for port `P`; see the module documentation.
#[derive(LogicBlock)]
pub struct Receiver {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// A byte on the link pins.
    pub pins_valid: Signal<In, Bit>,
    /// The byte.
    pub pins: Signal<In, Bits<8>>,
    /// The allocator's grant register names this receiver.
    pub grant_valid: Signal<In, Bit>,
    /// For that transmitter.
    pub grant: Signal<In, Bits<3>>,
    /// Transmitters connected to this receiver.
    pub conn: Signal<In, Bits<8>>,
    /// Transmitters idle.
    pub tx_idle: Signal<In, Bits<8>>,
    /// Transmitters with credit.
    pub credit_ok: Signal<In, Bits<8>>,
    /// Transmitters that are candidates for the allocator's next matrix.
    pub cand_free: Signal<In, Bits<8>>,
    /// The queue's admission register names this receiver.
    pub admitted_valid: Signal<In, Bit>,
    /// For that output.
    pub admitted: Signal<In, Bits<3>>,
    /// This receiver is in the allocator's matrix.
    pub in_matrix: Signal<In, Bit>,
    /// This receiver is in the admission pipeline (not read, as in the model).
    pub adm_busy: Signal<In, Bit>,
    /// The bank of its slot, `(i + t) mod 8`.
    pub slot_bank: Signal<In, Bits<3>>,
    /// Its control slot.
    pub ctrl_slot: Signal<In, Bit>,
    /// The free list is not empty (not read: the model only checks it).
    pub free_head_valid: Signal<In, Bit>,
    /// The free list's head.
    pub free_head: Signal<In, Bits<7>>,
    /// The crossbar offer register holds an entry.
    pub offer_valid: Signal<Out, Bit>,
    /// The offered entry.
    pub offer_entry: Signal<Out, Bits<ENTRY_BITS>>,
    /// The offer is addressed.
    pub offer_to_valid: Signal<Out, Bit>,
    /// To that transmitter.
    pub offer_to: Signal<Out, Bits<3>>,
    /// The allocator request.
    pub req: Signal<Out, Bits<8>>,
    /// The admission request.
    pub ask_valid: Signal<Out, Bit>,
    /// Its route set.
    pub ask_set: Signal<Out, Bits<8>>,
    /// Its chunk count (1..32).
    pub ask_chunks: Signal<Out, Bits<6>>,
    /// Streaming with at most `NEAR_END` offers left.
    pub near_end: Signal<Out, Bit>,
    /// A chunk being written.
    pub wpos_valid: Signal<Out, Bit>,
    /// That chunk.
    pub wpos: Signal<Out, Bits<7>>,
    /// A token upstream.
    pub token: Signal<Out, Bit>,
    /// A bank write this cycle.
    pub write_valid: Signal<Out, Bit>,
    /// Its chunk.
    pub write_chunk: Signal<Out, Bits<7>>,
    /// Its bank (the slot's).
    pub write_bank: Signal<Out, Bits<3>>,
    /// Its entry.
    pub write_entry: Signal<Out, Bits<ENTRY_BITS>>,
    /// Takes the free list's head this cycle.
    pub pop: Signal<Out, Bit>,
    /// A link this cycle.
    pub link_valid: Signal<Out, Bit>,
    /// From the chunk it writes.
    pub link_from: Signal<Out, Bits<7>>,
    /// To its held chunk.
    pub link_to: Signal<Out, Bits<7>>,
    /// A packet pushed this cycle.
    pub push_valid: Signal<Out, Bit>,
    /// Into this output's packet FIFO.
    pub push_out: Signal<Out, Bits<3>>,
    /// Its `LEN − 1`.
    pub push_head: Signal<Out, Bits<8>>,
    /// Its first chunk.
    pub push_first: Signal<Out, Bits<7>>,
    /// Its start bank.
    pub push_start: Signal<Out, Bits<3>>,
    /// Its writer (`P`).
    pub push_writer: Signal<Out, Bits<3>>,
    /// CRC errors modulo 256; registered.
    pub crc_errors: Signal<Out, Bits<8>>,
    /// Route errors modulo 256; registered.
    pub route_errors: Signal<Out, Bits<8>>,
    /// The arrival tracker.
    pub trk: Tracker,
    /// The body FIFO.
    pub fifo: BodyFifo,
    // The header FIFO: entry 0 the oldest.
    /// Entry 0 is valid.
    pub hv0: DFF<Bit>,
    /// Entry 1 is valid (only with entry 0).
    pub hv1: DFF<Bit>,
    /// Entry 0's `LEN − 1`.
    pub h0_len: DFF<Bits<8>>,
    /// Entry 0's `R1`.
    pub h0_set: DFF<Bits<8>>,
    /// Entry 1's `LEN − 1`.
    pub h1_len: DFF<Bits<8>>,
    /// Entry 1's `R1`.
    pub h1_set: DFF<Bits<8>>,
    /// `LEN`s stored in the body FIFO and not consumed (at most 8).
    pub unheaded: DFF<Bits<4>>,
    // The consumer.
    /// `Route`.
    pub s_route: DFF<Bit>,
    /// `Wait`.
    pub s_wait: DFF<Bit>,
    /// `Xbar`.
    pub s_xbar: DFF<Bit>,
    /// `Queue`.
    pub s_queue: DFF<Bit>,
    /// The transmitter (`Xbar`) or output (`Queue`).
    pub out: DFF<Bits<3>>,
    /// The packet's `R1`.
    pub cur_set: DFF<Bits<8>>,
    /// The packet's header is the header FIFO's entry 0.
    pub cur_headed: DFF<Bit>,
    /// `LEN − 1 − done` (loaded with `LEN` from a stored `LEN`, decremented with the `R1`).
    pub rem: DFF<Bits<8>>,
    /// `done = 0`.
    pub first: DFF<Bit>,
    /// The bank of the next entry to write.
    pub nbank: DFF<Bits<3>>,
    /// The packet's start bank.
    pub start: DFF<Bits<3>>,
    /// The look-ahead packet is granted (`la_out`).
    pub la_g: DFF<Bit>,
    /// The look-ahead packet is admitted (`la_adm`).
    pub la_a: DFF<Bit>,
    /// Its transmitter or output.
    pub la_o: DFF<Bits<3>>,
    // The queue writer.
    /// A chunk being written.
    pub wchunk_v: DFF<Bit>,
    /// That chunk (0 when none).
    pub wchunk: DFF<Bits<7>>,
    /// A held free chunk.
    pub held_v: DFF<Bit>,
    /// That chunk.
    pub held: DFF<Bits<7>>,
    /// The chunk being written links to the next held chunk in the next control slot.
    pub link_pending: DFF<Bit>,
    /// A packet to push in the next control slot.
    pub push_v: DFF<Bit>,
    /// Its output.
    pub push_o: DFF<Bits<3>>,
    /// Its `LEN − 1`.
    pub push_h: DFF<Bits<8>>,
    /// Its first chunk.
    pub push_f: DFF<Bits<7>>,
    /// Tokens owed.
    pub owed: DFF<Bits<5>>,
    // The registers other blocks read.
    /// `offer_valid`.
    pub off_v: DFF<Bit>,
    /// `offer_entry`.
    pub off_e: DFF<Bits<ENTRY_BITS>>,
    /// `offer_to_valid`.
    pub off_to: DFF<Bit>,
    /// `req`.
    pub req_r: DFF<Bits<8>>,
    /// `ask_valid`.
    pub ask_v: DFF<Bit>,
    /// `ask_set`.
    pub ask_s: DFF<Bits<8>>,
    /// `ask_chunks`.
    pub ask_c: DFF<Bits<6>>,
    /// `near_end`.
    pub near_r: DFF<Bit>,
    /// `token`.
    pub tok: DFF<Bit>,
    // Constants.
    /// The port index `P`.
    writer: Constant<Bits<3>>,
    // Locals.
    f_hdr: Signal<Local, Bit>,
    f_kind: Signal<Local, Bits<2>>,
    f_byte: Signal<Local, Bits<8>>,
    f_two: Signal<Local, Bit>,
    f_bad: Signal<Local, Bit>,
    taken: Signal<Local, Bit>,
    streaming: Signal<Local, Bit>,
    la_free: Signal<Local, Bit>,
    g_wait: Signal<Local, Bit>,
    g_la: Signal<Local, Bit>,
    a_wait: Signal<Local, Bit>,
    a_la: Signal<Local, Bit>,
    x1: Signal<Local, Bit>,
    q1: Signal<Local, Bit>,
    out1: Signal<Local, Bits<3>>,
    lg1: Signal<Local, Bit>,
    lad1: Signal<Local, Bit>,
    lo1: Signal<Local, Bits<3>>,
    off_v1: Signal<Local, Bit>,
    hp_v0: Signal<Local, Bit>,
    hp_v1: Signal<Local, Bit>,
    hp0_len: Signal<Local, Bits<8>>,
    hp0_set: Signal<Local, Bits<8>>,
    hp1_len: Signal<Local, Bits<8>>,
    hp1_set: Signal<Local, Bits<8>>,
    idle: Signal<Local, Bit>,
    i_len: Signal<Local, Bit>,
    r_pop: Signal<Local, Bit>,
    r_go: Signal<Local, Bit>,
    x_tk: Signal<Local, Bit>,
    x_end: Signal<Local, Bit>,
    rem_d: Signal<Local, Bits<8>>,
    first2: Signal<Local, Bit>,
    rem2_is1: Signal<Local, Bit>,
    rem2_end: Signal<Local, Bit>,
    x_off: Signal<Local, Bit>,
    x_need: Signal<Local, Bit>,
    x_pre: Signal<Local, Bit>,
    x_body: Signal<Local, Bit>,
    x_lastb: Signal<Local, Bit>,
    x_endo: Signal<Local, Bit>,
    x_pop: Signal<Local, Bit>,
    newc: Signal<Local, Bit>,
    q_wr: Signal<Local, Bit>,
    q_nc: Signal<Local, Bit>,
    q_first: Signal<Local, Bit>,
    q_end: Signal<Local, Bit>,
    w_chunk: Signal<Local, Bits<7>>,
    held_v2: Signal<Local, Bit>,
    wchunk_v2: Signal<Local, Bit>,
    wchunk2: Signal<Local, Bits<7>>,
    lp2: Signal<Local, Bit>,
    push_o2: Signal<Local, Bits<3>>,
    push_h2: Signal<Local, Bits<8>>,
    push_f2: Signal<Local, Bits<7>>,
    start2: Signal<Local, Bits<3>>,
    c_pop: Signal<Local, Bit>,
    held3: Signal<Local, Bits<7>>,
    c_link: Signal<Local, Bit>,
    c_push: Signal<Local, Bit>,
    ended: Signal<Local, Bit>,
    pop_hdr: Signal<Local, Bit>,
    hq_v0: Signal<Local, Bit>,
    hq_v1: Signal<Local, Bit>,
    hq0_len: Signal<Local, Bits<8>>,
    hq0_set: Signal<Local, Bits<8>>,
    np: Signal<Local, Bit>,
    np_go: Signal<Local, Bit>,
    np_x: Signal<Local, Bit>,
    np_q: Signal<Local, Bit>,
    np_w: Signal<Local, Bit>,
    s_wait_n: Signal<Local, Bit>,
    s_xbar_n: Signal<Local, Bit>,
    s_queue_n: Signal<Local, Bit>,
    cur_set_n: Signal<Local, Bits<8>>,
    cur_headed_n: Signal<Local, Bit>,
    rem_n: Signal<Local, Bits<8>>,
    la_g_n: Signal<Local, Bit>,
    la_a_n: Signal<Local, Bit>,
    off_v_n: Signal<Local, Bit>,
    off_to_n: Signal<Local, Bit>,
    off_e_n: Signal<Local, Bits<ENTRY_BITS>>,
    pop_any: Signal<Local, Bit>,
    pop_two: Signal<Local, Bit>,
    inc0: Signal<Local, Bit>,
    inc1: Signal<Local, Bit>,
    la_v_n: Signal<Local, Bit>,
    la_len_n: Signal<Local, Bits<8>>,
    la_set_n: Signal<Local, Bits<8>>,
    near_xn: Signal<Local, Bit>,
    near_qn: Signal<Local, Bit>,
    la_ask: Signal<Local, Bit>,
    asking: Signal<Local, Bit>,
    src_set: Signal<Local, Bits<8>>,
    src_len: Signal<Local, Bits<8>>,
    xreq: Signal<Local, Bit>,
    c_inc: Signal<Local, Bits<6>>,
    tok_n: Signal<Local, Bit>,
    dlt: Signal<Local, Bits<5>>,
    chunks: Signal<Local, Bits<6>>,
    np0: Signal<Local, Bit>,
    np_go0: Signal<Local, Bit>,
    s_wait_r: Signal<Local, Bit>,
    s_xbar_r: Signal<Local, Bit>,
    s_queue_r: Signal<Local, Bit>,
    cur_set_r: Signal<Local, Bits<8>>,
    cur_headed_r: Signal<Local, Bit>,
    rem_r: Signal<Local, Bits<8>>,
    rc: Vec<Signal<Local, Bits<8>>>,
    nx: Vec<Signal<Local, Bit>>,
    nq: Vec<Signal<Local, Bit>>,
    nx_r: Signal<Local, Bit>,
    nq_r: Signal<Local, Bit>,
}

/// The exported top `sp2_receiver_v3`: the receiver of port 3 (in the shadow switch's traffic every
/// port is busy; 3 is the one the co-simulation drives).
pub type Sp2ReceiverV3 = Receiver;

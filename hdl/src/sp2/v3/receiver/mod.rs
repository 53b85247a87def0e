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
//! Latency and combinational paths: every `RxRegs` output is a flip-flop. The `RxActs` are combinational, as
//! the model has them: they go straight into the queue's RAM ports in the cycle (the one place a value
//! crosses the block boundary within a cycle). A write depends on the registers, the FIFO head (block-RAM
//! read data), `slot_bank` and, in the cycle of an admission, `admitted`; `pop`, `link` and `push` on
//! `ctrl_slot` and the same, `link_to` on `free_head` (a chunk taken from the free list in the slot it is
//! linked to). A byte on the pins reaches the FIFO's RAM port and the header FIFO at the edge; a header
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
pub mod tracker;

use crate::export::doc::{docs, TopDoc, CLOCK};
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
    push_v2: Signal<Local, Bit>,
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
}

impl Default for Receiver {
    /// The receiver of the exported block `sp2_receiver_v3` (port 3).
    fn default() -> Self {
        Self::new(3)
    }
}

impl Receiver {
    /// The receiver of input port `p` (its number is the writer in its queue operations).
    pub fn new(p: usize) -> Self {
        assert!(p < PORTS, "port index {p}");
        Self {
            clock: Default::default(),
            pins_valid: Default::default(),
            pins: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            conn: Default::default(),
            tx_idle: Default::default(),
            credit_ok: Default::default(),
            cand_free: Default::default(),
            admitted_valid: Default::default(),
            admitted: Default::default(),
            in_matrix: Default::default(),
            adm_busy: Default::default(),
            slot_bank: Default::default(),
            ctrl_slot: Default::default(),
            free_head_valid: Default::default(),
            free_head: Default::default(),
            offer_valid: Default::default(),
            offer_entry: Default::default(),
            offer_to_valid: Default::default(),
            offer_to: Default::default(),
            req: Default::default(),
            ask_valid: Default::default(),
            ask_set: Default::default(),
            ask_chunks: Default::default(),
            near_end: Default::default(),
            wpos_valid: Default::default(),
            wpos: Default::default(),
            token: Default::default(),
            write_valid: Default::default(),
            write_chunk: Default::default(),
            write_bank: Default::default(),
            write_entry: Default::default(),
            pop: Default::default(),
            link_valid: Default::default(),
            link_from: Default::default(),
            link_to: Default::default(),
            push_valid: Default::default(),
            push_out: Default::default(),
            push_head: Default::default(),
            push_first: Default::default(),
            push_start: Default::default(),
            push_writer: Default::default(),
            crc_errors: Default::default(),
            route_errors: Default::default(),
            trk: Default::default(),
            fifo: Default::default(),
            hv0: Default::default(),
            hv1: Default::default(),
            h0_len: Default::default(),
            h0_set: Default::default(),
            h1_len: Default::default(),
            h1_set: Default::default(),
            unheaded: Default::default(),
            s_route: Default::default(),
            s_wait: Default::default(),
            s_xbar: Default::default(),
            s_queue: Default::default(),
            out: Default::default(),
            cur_set: Default::default(),
            cur_headed: Default::default(),
            rem: Default::default(),
            first: Default::default(),
            nbank: Default::default(),
            start: Default::default(),
            la_g: Default::default(),
            la_a: Default::default(),
            la_o: Default::default(),
            wchunk_v: Default::default(),
            wchunk: Default::default(),
            held_v: Default::default(),
            held: Default::default(),
            link_pending: Default::default(),
            push_v: Default::default(),
            push_o: Default::default(),
            push_h: Default::default(),
            push_f: Default::default(),
            owed: Default::default(),
            off_v: Default::default(),
            off_e: Default::default(),
            off_to: Default::default(),
            req_r: Default::default(),
            ask_v: Default::default(),
            ask_s: Default::default(),
            ask_c: Default::default(),
            near_r: Default::default(),
            tok: Default::default(),
            writer: Constant::new((p as u64).into()),
            f_hdr: Default::default(),
            f_kind: Default::default(),
            f_byte: Default::default(),
            f_two: Default::default(),
            f_bad: Default::default(),
            taken: Default::default(),
            streaming: Default::default(),
            la_free: Default::default(),
            g_wait: Default::default(),
            g_la: Default::default(),
            a_wait: Default::default(),
            a_la: Default::default(),
            x1: Default::default(),
            q1: Default::default(),
            out1: Default::default(),
            lg1: Default::default(),
            lad1: Default::default(),
            lo1: Default::default(),
            off_v1: Default::default(),
            hp_v0: Default::default(),
            hp_v1: Default::default(),
            hp0_len: Default::default(),
            hp0_set: Default::default(),
            hp1_len: Default::default(),
            hp1_set: Default::default(),
            idle: Default::default(),
            i_len: Default::default(),
            r_pop: Default::default(),
            r_go: Default::default(),
            x_tk: Default::default(),
            x_end: Default::default(),
            rem_d: Default::default(),
            first2: Default::default(),
            rem2_is1: Default::default(),
            rem2_end: Default::default(),
            x_off: Default::default(),
            x_need: Default::default(),
            x_pre: Default::default(),
            x_body: Default::default(),
            x_lastb: Default::default(),
            x_endo: Default::default(),
            x_pop: Default::default(),
            newc: Default::default(),
            q_wr: Default::default(),
            q_nc: Default::default(),
            q_first: Default::default(),
            q_end: Default::default(),
            w_chunk: Default::default(),
            held_v2: Default::default(),
            wchunk_v2: Default::default(),
            wchunk2: Default::default(),
            lp2: Default::default(),
            push_v2: Default::default(),
            push_o2: Default::default(),
            push_h2: Default::default(),
            push_f2: Default::default(),
            start2: Default::default(),
            c_pop: Default::default(),
            held3: Default::default(),
            c_link: Default::default(),
            c_push: Default::default(),
            ended: Default::default(),
            pop_hdr: Default::default(),
            hq_v0: Default::default(),
            hq_v1: Default::default(),
            hq0_len: Default::default(),
            hq0_set: Default::default(),
            np: Default::default(),
            np_go: Default::default(),
            np_x: Default::default(),
            np_q: Default::default(),
            np_w: Default::default(),
            s_wait_n: Default::default(),
            s_xbar_n: Default::default(),
            s_queue_n: Default::default(),
            cur_set_n: Default::default(),
            cur_headed_n: Default::default(),
            rem_n: Default::default(),
            la_g_n: Default::default(),
            la_a_n: Default::default(),
            off_v_n: Default::default(),
            off_to_n: Default::default(),
            off_e_n: Default::default(),
            pop_any: Default::default(),
            pop_two: Default::default(),
            inc0: Default::default(),
            inc1: Default::default(),
            la_v_n: Default::default(),
            la_len_n: Default::default(),
            la_set_n: Default::default(),
            near_xn: Default::default(),
            near_qn: Default::default(),
            la_ask: Default::default(),
            asking: Default::default(),
            src_set: Default::default(),
            src_len: Default::default(),
            xreq: Default::default(),
            c_inc: Default::default(),
            tok_n: Default::default(),
            dlt: Default::default(),
            chunks: Default::default(),
        }
    }
}

impl Logic for Receiver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            hv0,
            hv1,
            h0_len,
            h0_set,
            h1_len,
            h1_set,
            unheaded,
            s_route,
            s_wait,
            s_xbar,
            s_queue,
            out,
            cur_set,
            cur_headed,
            rem,
            first,
            nbank,
            start,
            la_g,
            la_a,
            la_o,
            wchunk_v,
            wchunk,
            held_v,
            held,
            link_pending,
            push_v,
            push_o,
            push_h,
            push_f,
            owed,
            off_v,
            off_e,
            off_to,
            req_r,
            ask_v,
            ask_s,
            ask_c,
            near_r,
            tok
        );
        self.trk.clock.next = self.clock.val();
        self.fifo.clock.next = self.clock.val();
        // The registers other blocks read.
        self.offer_valid.next = self.off_v.q.val();
        self.offer_entry.next = self.off_e.q.val();
        self.offer_to_valid.next = self.off_to.q.val();
        self.offer_to.next = 0.into();
        if self.off_to.q.val() {
            self.offer_to.next = self.out.q.val();
        }
        self.req.next = self.req_r.q.val();
        self.ask_valid.next = self.ask_v.q.val();
        self.ask_set.next = self.ask_s.q.val();
        self.ask_chunks.next = self.ask_c.q.val();
        self.near_end.next = self.near_r.q.val();
        self.wpos_valid.next = self.wchunk_v.q.val();
        self.wpos.next = self.wchunk.q.val();
        self.token.next = self.tok.q.val();
        self.crc_errors.next = self.trk.crc_errors.val();
        self.route_errors.next = self.trk.route_errors.val();
        // The tracker.
        self.trk.pins_valid.next = self.pins_valid.val();
        self.trk.pins.next = self.pins.val();
        self.trk.hdr_room.next = !self.hv1.q.val() & (self.unheaded.q.val() == 0);
        // The body FIFO's head.
        self.f_hdr.next = self.fifo.head.val().get_bit(10);
        self.f_kind.next = self.fifo.head.val().get_bits::<2>(8);
        self.f_byte.next = self.fifo.head.val().get_bits::<8>(0);
        self.f_two.next = (self.f_kind.val() == 1) | (self.f_kind.val() == 2);
        self.f_bad.next = self.f_kind.val() == 2;
        if self.f_kind.val() == 3 {
            self.f_bad.next = self.fifo.head.val().get_bit(0);
        }
        // The offer is taken: by the transmitter it is addressed to (the consumer's `out`), or the preload
        // by an idle transmitter granted now.
        self.taken.next = self.off_v.q.val()
            & self.grant_valid.val()
            & self.tx_idle.val().get_bit(self.grant.val().index())
            & self.credit_ok.val().get_bit(self.grant.val().index());
        if self.off_to.q.val() {
            self.taken.next = self.off_v.q.val()
                & self.conn.val().get_bit(self.out.q.val().index())
                & self.credit_ok.val().get_bit(self.out.q.val().index());
        }
        // A grant or an admission: for the packet in `Wait`, or for the look-ahead packet.
        self.streaming.next = self.s_xbar.q.val() | self.s_queue.q.val();
        self.la_free.next = self.streaming.val()
            & !self.la_g.q.val()
            & !self.la_a.q.val()
            & ((self.cur_headed.q.val() & self.hv1.q.val())
                | (!self.cur_headed.q.val() & self.hv0.q.val()));
        self.g_wait.next = self.grant_valid.val() & self.s_wait.q.val();
        self.g_la.next = self.grant_valid.val() & self.la_free.val();
        self.a_wait.next = self.admitted_valid.val() & self.s_wait.q.val();
        self.a_la.next = self.admitted_valid.val() & self.la_free.val();
        self.x1.next = self.s_xbar.q.val() | self.g_wait.val();
        self.q1.next = self.s_queue.q.val() | self.a_wait.val();
        self.out1.next = self.out.q.val();
        if self.g_wait.val() {
            self.out1.next = self.grant.val();
        }
        if self.a_wait.val() {
            self.out1.next = self.admitted.val();
        }
        self.lg1.next = self.la_g.q.val() | self.g_la.val();
        self.lad1.next = self.la_a.q.val() | self.a_la.val();
        self.lo1.next = self.la_o.q.val();
        if self.g_la.val() {
            self.lo1.next = self.grant.val();
        }
        if self.a_la.val() {
            self.lo1.next = self.admitted.val();
        }
        self.off_v1.next = self.off_v.q.val() & !self.a_wait.val();
        // The header FIFO after the tracker's push.
        self.hp_v0.next = self.hv0.q.val() | self.trk.hdr_push.val();
        self.hp_v1.next = self.hv1.q.val() | (self.hv0.q.val() & self.trk.hdr_push.val());
        self.hp0_len.next = self.h0_len.q.val();
        self.hp0_set.next = self.h0_set.q.val();
        self.hp1_len.next = self.h1_len.q.val();
        self.hp1_set.next = self.h1_set.q.val();
        if self.trk.hdr_push.val() {
            if self.hv0.q.val() {
                self.hp1_len.next = self.trk.hdr_len.val();
                self.hp1_set.next = self.trk.hdr_set.val();
            } else {
                self.hp0_len.next = self.trk.hdr_len.val();
                self.hp0_set.next = self.trk.hdr_set.val();
            }
        }
        // The consumer: `Idle` takes a stored `LEN`, `Route` its `R1`.
        self.idle.next = !self.s_route.q.val()
            & !self.s_wait.q.val()
            & !self.s_xbar.q.val()
            & !self.s_queue.q.val();
        self.i_len.next = self.idle.val() & self.fifo.nonempty.val() & self.f_hdr.val();
        self.r_pop.next = self.s_route.q.val() & self.fifo.nonempty.val();
        self.r_go.next = self.r_pop.val() & !self.fifo.head.val().get_bit(8);
        // `Xbar`: the offer taken, and the next one when the register is free after the edge.
        self.x_tk.next = self.x1.val() & self.taken.val();
        self.x_end.next = self.x_tk.val() & (self.off_e.q.val().get_bits::<2>(8) == 3);
        self.rem_d.next = self.rem.q.val() - 1;
        self.first2.next = self.first.q.val() & !self.x_tk.val();
        // After this edge's take, offer `j` = `LEN − 1 − rem`: the last body byte when `rem` is 0 (a `Last`
        // entry, not popped), the end when it is −1 (255; the `Last` or `End` entry, popped), else a body byte
        // (the FIFO's tags agree, as the model checks).
        self.rem2_is1.next = self.rem.q.val() == 0;
        self.rem2_end.next = self.rem.q.val() == 255;
        if self.x_tk.val() {
            self.rem2_is1.next = self.rem.q.val() == 1;
            self.rem2_end.next = self.rem.q.val() == 0;
        }
        self.x_need.next =
            self.x1.val() & !self.x_end.val() & (!self.off_v1.val() | self.x_tk.val());
        self.x_pre.next = self.x_need.val() & self.first2.val();
        self.x_off.next = self.x_need.val() & !self.first2.val() & self.fifo.nonempty.val();
        self.x_body.next = self.x_off.val() & !self.rem2_is1.val() & !self.rem2_end.val();
        self.x_lastb.next = self.x_off.val() & self.rem2_is1.val();
        self.x_endo.next = self.x_off.val() & self.rem2_end.val();
        self.x_pop.next = self.x_body.val() | self.x_endo.val();
        // `Queue`: the head into the bank of the slot when it is the next entry's bank (any bank for
        // entry 0); a new chunk needs the held chunk, and a new packet its predecessor's push.
        self.newc.next = self.first.q.val() | (self.nbank.q.val() == self.start.q.val());
        self.q_wr.next = self.q1.val()
            & self.fifo.nonempty.val()
            & (self.first.q.val() | (self.slot_bank.val() == self.nbank.q.val()))
            & (!self.newc.val()
                | (self.held_v.q.val() & (!self.first.q.val() | !self.push_v.q.val())));
        self.q_nc.next = self.q_wr.val() & self.newc.val();
        self.q_first.next = self.q_wr.val() & self.first.q.val();
        // The last stored entry: `rem` 1 (`LEN` ≥ 2) or 0 (`LEN` = 1).
        self.q_end.next = self.q_wr.val() & (self.rem.q.val().get_bits::<7>(1) == 0);
        self.w_chunk.next = self.wchunk.q.val();
        if self.newc.val() {
            self.w_chunk.next = self.held.q.val();
        }
        self.held_v2.next = self.held_v.q.val() & !self.q_nc.val();
        self.wchunk_v2.next = (self.wchunk_v.q.val() | self.q_nc.val()) & !self.q_end.val();
        self.wchunk2.next = self.wchunk.q.val();
        if self.q_nc.val() {
            self.wchunk2.next = self.held.q.val();
        }
        if self.q_end.val() {
            self.wchunk2.next = 0.into();
        }
        self.lp2.next = self.link_pending.q.val();
        if self.q_nc.val() {
            // More than a chunk left after this one: `rem > CHUNK` (9 or more).
            self.lp2.next = (self.rem.q.val().get_bits::<4>(4) != 0)
                | (self.rem.q.val().get_bit(3) & (self.rem.q.val().get_bits::<3>(0) != 0));
        }
        self.push_v2.next = self.push_v.q.val() | self.q_first.val();
        self.push_o2.next = self.push_o.q.val();
        self.push_h2.next = self.push_h.q.val();
        self.push_f2.next = self.push_f.q.val();
        self.start2.next = self.start.q.val();
        if self.q_first.val() {
            self.push_o2.next = self.out1.val();
            self.push_h2.next = self.rem.q.val();
            // Entry 0 starts a chunk: the held one.
            self.push_f2.next = self.held.q.val();
            self.start2.next = self.slot_bank.val();
        }
        // The control slot, after this edge's write: take the free list's head, link, push.
        self.c_pop.next = self.ctrl_slot.val() & !self.held_v2.val();
        self.held3.next = self.held.q.val();
        if self.c_pop.val() {
            self.held3.next = self.free_head.val();
        }
        self.c_link.next = self.ctrl_slot.val() & self.lp2.val();
        self.c_push.next = self.ctrl_slot.val() & self.push_v2.val();
        // The packet ends: its header leaves the header FIFO; the next packet starts (`next_packet`).
        self.ended.next = self.x_end.val() | self.q_end.val();
        self.pop_hdr.next = self.ended.val() & self.cur_headed.q.val();
        self.hq_v0.next = self.hp_v0.val();
        self.hq_v1.next = self.hp_v1.val();
        self.hq0_len.next = self.hp0_len.val();
        self.hq0_set.next = self.hp0_set.val();
        if self.pop_hdr.val() {
            self.hq_v0.next = self.hp_v1.val();
            self.hq_v1.next = false;
            self.hq0_len.next = self.hp1_len.val();
            self.hq0_set.next = self.hp1_set.val();
        }
        // (An idle consumer never sees a stored `LEN` and a header entry together: a `LEN` stored without a
        // header entry blocks the header FIFO until it is consumed, and the packets before it are done.)
        self.np.next = (self.idle.val() & self.hp_v0.val())
            | (self.r_pop.val() & !self.r_go.val())
            | self.ended.val();
        self.np_go.next = self.np.val() & self.hq_v0.val();
        self.np_x.next = self.np_go.val() & self.lg1.val();
        self.np_q.next = self.np_go.val() & !self.lg1.val() & self.lad1.val();
        self.np_w.next = self.np_go.val() & !self.lg1.val() & !self.lad1.val();
        // The consumer's next state.
        self.s_route.d.next = self.i_len.val() | (self.s_route.q.val() & !self.r_pop.val());
        self.s_wait_n.next = self.r_go.val()
            | self.np_w.val()
            | (self.s_wait.q.val() & !self.g_wait.val() & !self.a_wait.val());
        self.s_xbar_n.next = self.np_x.val() | (self.x1.val() & !self.ended.val());
        self.s_queue_n.next = self.np_q.val() | (self.q1.val() & !self.ended.val());
        self.s_wait.d.next = self.s_wait_n.val();
        self.s_xbar.d.next = self.s_xbar_n.val();
        self.s_queue.d.next = self.s_queue_n.val();
        self.out.d.next = self.out1.val();
        if self.np_x.val() | self.np_q.val() {
            self.out.d.next = self.lo1.val();
        }
        self.la_g_n.next = self.lg1.val() & !self.np.val();
        self.la_a_n.next = self.lad1.val() & !self.np.val();
        self.la_g.d.next = self.la_g_n.val();
        self.la_a.d.next = self.la_a_n.val();
        self.la_o.d.next = self.lo1.val();
        self.cur_set_n.next = self.cur_set.q.val();
        self.cur_headed_n.next = self.cur_headed.q.val();
        self.rem_n.next = self.rem.q.val();
        if self.x_tk.val() | self.q_wr.val() | self.r_pop.val() {
            self.rem_n.next = self.rem_d.val();
        }
        if self.i_len.val() {
            self.cur_headed_n.next = false;
            self.rem_n.next = self.f_byte.val();
        }
        if self.r_go.val() {
            self.cur_set_n.next = self.f_byte.val();
        }
        if self.np.val() {
            self.cur_headed_n.next = self.hq_v0.val();
        }
        if self.np_go.val() {
            self.cur_set_n.next = self.hq0_set.val();
            self.rem_n.next = self.hq0_len.val();
        }
        self.cur_set.d.next = self.cur_set_n.val();
        self.cur_headed.d.next = self.cur_headed_n.val();
        self.rem.d.next = self.rem_n.val();
        self.first.d.next = (self.first.q.val() & !self.x_tk.val() & !self.q_wr.val())
            | self.i_len.val()
            | self.np.val();
        if self.q_wr.val() {
            self.nbank.d.next = self.slot_bank.val() + 1;
        }
        self.start.d.next = self.start2.val();
        // The queue writer's registers.
        self.held_v.d.next = self.held_v2.val() | self.c_pop.val();
        self.held.d.next = self.held3.val();
        self.wchunk_v.d.next = self.wchunk_v2.val();
        self.wchunk.d.next = self.wchunk2.val();
        self.link_pending.d.next = self.lp2.val() & !self.ctrl_slot.val();
        self.push_v.d.next = self.push_v2.val() & !self.ctrl_slot.val();
        self.push_o.d.next = self.push_o2.val();
        self.push_h.d.next = self.push_h2.val();
        self.push_f.d.next = self.push_f2.val();
        // The offer register.
        self.off_v_n.next = self.off_v1.val() & !self.x_tk.val();
        self.off_to_n.next = self.off_to.q.val() | self.g_wait.val();
        self.off_e_n.next = self.off_e.q.val();
        if self.x_pre.val() | self.r_go.val() | self.np.val() {
            self.off_e_n.next = bit_cast::<ENTRY_BITS, 8>(self.rem_n.val());
        }
        if self.x_body.val() | self.x_lastb.val() {
            self.off_e_n.next = bit_cast::<ENTRY_BITS, 8>(self.f_byte.val());
        }
        if self.x_endo.val() {
            self.off_e_n.next = 0x300.into();
            if self.f_bad.val() {
                self.off_e_n.next = 0x301.into();
            }
        }
        if self.x_pre.val() | self.x_body.val() | self.x_lastb.val() | self.x_endo.val() {
            self.off_v_n.next = true;
            self.off_to_n.next = true;
        }
        if self.r_go.val() {
            self.off_v_n.next = true;
            self.off_to_n.next = false;
        }
        if self.np.val() {
            self.off_v_n.next = self.np_x.val() | self.np_w.val();
            self.off_to_n.next = self.np_x.val();
        }
        self.off_v.d.next = self.off_v_n.val();
        self.off_to.d.next = self.off_v_n.val() & self.off_to_n.val();
        self.off_e.d.next = 0.into();
        if self.off_v_n.val() {
            self.off_e.d.next = self.off_e_n.val();
        }
        // The body FIFO, the header FIFO, the `LEN`s without a header entry.
        self.pop_any.next =
            self.i_len.val() | self.r_pop.val() | self.x_pop.val() | self.q_wr.val();
        self.pop_two.next = (self.x_pop.val() | self.q_wr.val()) & self.f_two.val();
        self.fifo.pop.next = self.pop_any.val();
        self.fifo.push.next = self.trk.store.val();
        self.fifo.din.next = self.trk.tag.val();
        self.hv0.d.next = self.hq_v0.val();
        self.hv1.d.next = self.hq_v1.val();
        self.h0_len.d.next = self.hq0_len.val();
        self.h0_set.d.next = self.hq0_set.val();
        self.h1_len.d.next = self.hp1_len.val();
        self.h1_set.d.next = self.hp1_set.val();
        if self.trk.len_stored.val() & !self.i_len.val() {
            self.unheaded.d.next = self.unheaded.q.val() + 1;
        }
        if !self.trk.len_stored.val() & self.i_len.val() {
            self.unheaded.d.next = self.unheaded.q.val() - 1;
        }
        // Tokens: every byte consumed (popped, two for a last entry, or absorbed at arrival), one pulse
        // per cycle.
        // The bytes consumed this cycle, 0..3: the sum of three bits (`pop_two` only with `pop_any`).
        self.inc0.next = self.pop_any.val() ^ self.pop_two.val() ^ self.trk.absorbed.val();
        self.inc1.next = (self.pop_any.val() & self.pop_two.val())
            | (self.pop_any.val() & self.trk.absorbed.val())
            | (self.pop_two.val() & self.trk.absorbed.val());
        // A token leaves when one is owed after this cycle's: `owed' = owed + inc − 1` then.
        self.tok_n.next = (self.owed.q.val() != 0) | self.inc0.val() | self.inc1.val();
        self.dlt.next = 31.into();
        if self.inc0.val() {
            self.dlt.next = 0.into();
        }
        if self.inc1.val() {
            self.dlt.next = 1.into();
            if self.inc0.val() {
                self.dlt.next = 2.into();
            }
        }
        self.tok.d.next = self.tok_n.val();
        if self.tok_n.val() {
            self.owed.d.next = self.owed.q.val() + self.dlt.val();
        }
        // The requests, from the state after the edge: the packet in `Wait`, or the look-ahead packet when
        // the current one is near its end; the crossbar when one of its outputs is a candidate (or it is
        // in the matrix), else the queue.
        self.la_v_n.next = self.hq_v0.val();
        self.la_len_n.next = self.hq0_len.val();
        self.la_set_n.next = self.hq0_set.val();
        if self.cur_headed_n.val() {
            self.la_v_n.next = self.hq_v1.val();
            self.la_len_n.next = self.hp1_len.val();
            self.la_set_n.next = self.hp1_set.val();
        }
        // Crossbar: `rem + 2 <= NEAR_END` offers left, `rem` in −1..=6; queue: `rem <= NEAR_END` entries.
        self.near_xn.next = self.s_xbar_n.val()
            & (((self.rem_n.val().get_bits::<5>(3) == 0)
                & (self.rem_n.val().get_bits::<3>(0) != 7))
                | (self.rem_n.val() == 255));
        self.near_qn.next = self.s_queue_n.val()
            & (self.rem_n.val().get_bits::<4>(4) == 0)
            & (!self.rem_n.val().get_bit(3) | (self.rem_n.val().get_bits::<3>(0) == 0));
        self.la_ask.next = (self.near_xn.val() | self.near_qn.val())
            & self.la_v_n.val()
            & !self.la_g_n.val()
            & !self.la_a_n.val();
        self.asking.next = self.s_wait_n.val() | self.la_ask.val();
        self.src_set.next = self.la_set_n.val();
        self.src_len.next = self.la_len_n.val();
        if self.s_wait_n.val() {
            self.src_set.next = self.cur_set_n.val();
            self.src_len.next = self.rem_n.val();
        }
        self.xreq.next = self.in_matrix.val() | ((self.src_set.val() & self.cand_free.val()) != 0);
        // `chunks_of(LEN)` from `LEN − 1` = m: `ceil(m / 8)`, at least 1.
        self.c_inc.next = 0.into();
        if (self.src_len.val().get_bits::<3>(0) != 0) | (self.src_len.val().get_bits::<5>(3) == 0) {
            self.c_inc.next = 1.into();
        }
        self.chunks.next = bit_cast::<6, 5>(self.src_len.val().get_bits::<5>(3)) + self.c_inc.val();
        self.req_r.d.next = 0.into();
        if self.asking.val() & self.xreq.val() {
            self.req_r.d.next = self.src_set.val();
        }
        self.ask_v.d.next = self.asking.val() & !self.xreq.val();
        self.ask_s.d.next = 0.into();
        self.ask_c.d.next = 0.into();
        if self.asking.val() & !self.xreq.val() {
            self.ask_s.d.next = self.src_set.val();
            self.ask_c.d.next = self.chunks.val();
        }
        self.near_r.d.next = self.near_xn.val();
        // The cycle's RAM-port actions.
        self.write_valid.next = self.q_wr.val();
        self.write_chunk.next = 0.into();
        self.write_bank.next = 0.into();
        self.write_entry.next = 0.into();
        if self.q_wr.val() {
            self.write_chunk.next = self.w_chunk.val();
            self.write_bank.next = self.slot_bank.val();
            self.write_entry.next = self.fifo.head.val().get_bits::<ENTRY_BITS>(0);
        }
        self.pop.next = self.c_pop.val();
        self.link_valid.next = self.c_link.val();
        self.link_from.next = 0.into();
        self.link_to.next = 0.into();
        if self.c_link.val() {
            self.link_from.next = self.wchunk2.val();
            self.link_to.next = self.held3.val();
        }
        self.push_valid.next = self.c_push.val();
        self.push_out.next = 0.into();
        self.push_head.next = 0.into();
        self.push_first.next = 0.into();
        self.push_start.next = 0.into();
        self.push_writer.next = 0.into();
        if self.c_push.val() {
            self.push_out.next = self.push_o2.val();
            self.push_head.next = self.push_h2.val();
            self.push_first.next = self.push_f2.val();
            self.push_start.next = self.start2.val();
            self.push_writer.next = self.writer.val();
        }
    }
}

/// The exported top `sp2_receiver_v3`: the receiver of port 3 (in the shadow switch's traffic every
/// port is busy; 3 is the one the co-simulation drives).
pub type Sp2ReceiverV3 = Receiver;

/// The port documentation of the exported top `sp2_receiver_v3`.
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The v3 receiver of the SP2-style switch (docs/sp2-switch.md V3.B), for port 3: the arrival \
                  tracker tagging every stored byte and checking the CRC at the pins, the body FIFO of \
                  RX_DEPTH tagged entries in block RAM, the two-entry header FIFO with the look-ahead, the \
                  consumer offering entries to the crossbar or writing them into the central queue's banks \
                  in its slots, the held free chunk, the owed-token counter. Twin of \
                  asr_model::sp2::v3::receiver::Receiver (hdl/src/sp2/v3/receiver/)."
            .into(),
        ports: docs(&[
            CLOCK,
            ("pins_valid", "a byte on the link pins"),
            ("pins", "that byte"),
            ("grant_valid", "the allocator's grant register names this receiver"),
            ("grant", "for that transmitter"),
            ("conn", "transmitters connected to this receiver (bit o)"),
            ("tx_idle", "transmitters idle (a grant to one takes the preload at once)"),
            ("credit_ok", "transmitters with credit"),
            ("cand_free", "transmitters that are candidates for the allocator's next matrix"),
            ("admitted_valid", "the queue's admission register names this receiver"),
            ("admitted", "for that output"),
            ("in_matrix", "this receiver is in the allocator's matrix"),
            ("adm_busy", "this receiver is in the admission pipeline (not read, as in the model)"),
            ("slot_bank", "the bank of its slot this cycle, (i + t) mod 8"),
            ("ctrl_slot", "its control slot (t mod 8 = i)"),
            ("free_head_valid", "the free list is not empty (not read)"),
            ("free_head", "the free list's head"),
            ("offer_valid", "the crossbar offer register holds an entry (registered)"),
            ("offer_entry", "the entry, Entry::to_bits (registered)"),
            ("offer_to_valid", "the offer is addressed (else the preload for any granted idle transmitter)"),
            ("offer_to", "to that transmitter"),
            ("req", "the allocator request: the route set of the packet waiting or looking ahead; 0 for none"),
            ("ask_valid", "the admission request (never with req)"),
            ("ask_set", "its route set"),
            ("ask_chunks", "its chunk count, 1..32"),
            ("near_end", "streaming to a transmitter with at most NEAR_END offers left"),
            ("wpos_valid", "a chunk being written"),
            ("wpos", "that chunk"),
            ("token", "a token upstream (one consumed byte)"),
            ("write_valid", "a bank write this cycle (combinational)"),
            ("write_chunk", "its chunk"),
            ("write_bank", "its bank, the slot's"),
            ("write_entry", "its entry, Entry::to_bits"),
            ("pop", "takes the free list's head this cycle (combinational)"),
            ("link_valid", "links two chunks this cycle (combinational)"),
            ("link_from", "the chunk it writes"),
            ("link_to", "its held chunk (free_head when taken in this cycle)"),
            ("push_valid", "pushes a packet into an output's packet FIFO this cycle (combinational)"),
            ("push_out", "that output"),
            ("push_head", "the packet's LEN - 1"),
            ("push_first", "its first chunk"),
            ("push_start", "its start bank"),
            ("push_writer", "its writer, this receiver's port"),
            ("crc_errors", "packets whose CRC did not match, modulo 256 (registered)"),
            ("route_errors", "malformed packets, LEN = 0 or R1 = 0, modulo 256 (registered)"),
        ]),
        latency: "RxRegs outputs and the counters are registers. The RAM-port actions (write, pop, link, \
                  push) are combinational from the registers, the FIFO head, slot_bank, ctrl_slot, \
                  free_head and, in an admission's cycle, admitted: they go into the central queue's RAM \
                  ports in the same cycle, as the model has them. A byte on the pins is stored at the edge."
            .into(),
    }
}

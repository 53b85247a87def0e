//! The v2 receiver (docs/sp2-switch.md v2 §B). Hardware twin of `asr_model::sp2::v2::receiver::Receiver`.
//!
//! Ports:
//! - in `clock`; `link_valid`, `link_byte[7:0]` (the link pins);
//! - in `grant`, `grant_out[2:0]`: the allocator grants this receiver transmitter `grant_out` this cycle;
//!   `admitted`: the central queue admitted its packet in the last cycle (the receiver is still in `Wait`:
//!   it loads `LEN − 1` and the first body byte into its assembly at once); `taken`: its transmitter takes its offer; `written`:
//!   the central queue writes its ready chunk; `takes`: the transmitter it streams to takes offers this cycle
//!   (has credit);
//! - out `token_out` (registered: a byte was consumed last cycle); `req[7:0]` (allocator request, 0 for none);
//!   `waiting` (the allocator's candidate bit); `may_queue`, `adm_set[7:0]`, `chunks[5:0]` (queue admission:
//!   `may_queue` in `Wait` with an empty assembly and ready slot; the set and packet size in `Wait`, and
//!   already in the `R1` cycle of `Route` when `R1` is here and not 0; 0 otherwise);
//!   `offer_valid`, `offer_byte[7:0]`, `offer_end`, `offer_bad` (the crossbar offer: a byte, or the end of the
//!   packet with the CRC verdict); `ready_valid`, `ready_data[63:0]`, `ready_bytes[3:0]`, `ready_last`,
//!   `ready_bad` (the ready chunk; fields 0 when not valid); `soon` (streaming with at most 4 bytes left to
//!   send: the transmitter counts as free for the allocator's new matrix); `at_end` (streaming with the CRC
//!   as the next byte to offer, whether or not it is here: the switch's speculative "free now"); `wait_spec`
//!   (`waiting` from the registers alone: in `Wait`, or a look-ahead packet whose predecessor's last byte is
//!   the next to go, whether or not it is here and taken); `spec_set[7:0]` (with `wait_spec`, the route set of
//!   the packet it waits for: the `Wait` set or the look-ahead's; 0 otherwise); `crc_errors[7:0]`,
//!   `route_errors[7:0]` (wrapping counters, registered).
//!
//! The FIFO: 16 bytes in a block RAM (`RAM<Bits<8>, 4>`) with a registered read. Its head is the RAM's read
//! data, or a bypass register when the head byte is the one written at the last edge (the RAM would still give
//! the old contents); the read address is the head index after this cycle's pop, so the next head is read
//! while this cycle runs. `cur` is the head, or the pins byte when the FIFO is empty.
//!
//! Latency: combinational from the registers and the pins to every output but `token_out`, the counters.

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::parts::blocks;
use crate::sp2::crc8::Crc8Step;

// Parser states (`st`, the model's `RxState`).
/// Parser state: expecting a packet's `LEN`.
pub const ST_IDLE: u64 = 0;
/// Parser state: `LEN` taken, expecting `R1`.
pub const ST_ROUTE: u64 = 1;
/// Parser state: requesting the crossbar with the route set `wset`; the central queue may admit the packet
/// instead.
pub const ST_WAIT: u64 = 2;
/// Parser state: connected to a transmitter through the crossbar, streaming the packet.
pub const ST_XBAR: u64 = 3;
/// Parser state: admitted to the central queue, assembling chunks.
pub const ST_QUEUE: u64 = 4;
/// Parser state: a malformed packet (`LEN` = 0 or `R1` = 0), discarding its remaining bytes.
pub const ST_DROP: u64 = 5;
/// Parser state: connected for the looked-ahead packet, consuming its `LEN` and then its `R1` from the FIFO
/// while the transmitter sends `LEN − 1`.
pub const ST_LASTART: u64 = 6;

// Arrival tracker states (`ar_st`, the model's `Arrival`).
/// Arrival tracker state: the next pins byte is a packet's `LEN`.
pub const AR_LEN: u64 = 0;
/// Arrival tracker state: the next pins byte is the packet's `R1`.
pub const AR_ROUTE: u64 = 1;
/// Arrival tracker state: the next pins bytes are the rest of the packet, `ar_cnt` of them (the CRC
/// included).
pub const AR_REST: u64 = 2;

/// The v2 receiver; see the module documentation for ports, FIFO and timing.
#[derive(LogicBlock)]
pub struct Receiver {
    /// Clock; every register and the FIFO RAM update at its rising edge.
    pub clock: Signal<In, Clock>,
    /// A byte arrives from upstream in this cycle.
    pub link_valid: Signal<In, Bit>,
    /// That byte: consumed in this cycle when the FIFO is empty and the parser takes it, else written into
    /// the FIFO at the edge.
    pub link_byte: Signal<In, Bits<8>>,
    /// The allocator grants this receiver transmitter `grant_out` in this cycle.
    pub grant: Signal<In, Bit>,
    /// The granted transmitter.
    pub grant_out: Signal<In, Bits<3>>,
    /// The central queue admitted this receiver's packet in the last cycle (the receiver is still in
    /// `ST_WAIT`): it loads `LEN − 1` and the first body byte into its assembly at once.
    pub admitted: Signal<In, Bit>,
    /// Its transmitter takes the crossbar offer in this cycle.
    pub taken: Signal<In, Bit>,
    /// The central queue writes the ready chunk in this cycle; the ready slot empties at the edge.
    pub written: Signal<In, Bit>,
    /// The transmitter it streams to takes offers in this cycle (has credit).
    pub takes: Signal<In, Bit>,
    /// A token upstream: a byte was consumed in the last cycle; registered.
    pub token_out: Signal<Out, Bit>,
    /// Allocator request: the permitted outputs (bit o = output o), 0 for none. `R1` in `ST_ROUTE`, the route
    /// set in `ST_WAIT`, the look-ahead packet's set while the current packet goes on (`ST_XBAR`,
    /// `ST_QUEUE`, `ST_DROP`); combinational.
    pub req: Signal<Out, Bits<8>>,
    /// The allocator's candidate bit: waiting for a grant now (in `ST_WAIT`, or a look-ahead packet whose
    /// predecessor's last byte goes in this cycle); combinational.
    pub waiting: Signal<Out, Bit>,
    /// May be admitted to the central queue: in `ST_WAIT` with the assembly and the ready slot empty; from
    /// the registers.
    pub may_queue: Signal<Out, Bit>,
    /// The admission request's permitted outputs: the route set in `ST_WAIT`, and already in the `R1` cycle
    /// of `ST_ROUTE` when `R1` is not 0; 0 otherwise.
    pub adm_set: Signal<Out, Bits<8>>,
    /// The packet's size in 8-byte chunks (1..32) with `adm_set`; 0 otherwise.
    pub chunks: Signal<Out, Bits<6>>,
    /// A crossbar offer in this cycle: a byte, or the packet's end.
    pub offer_valid: Signal<Out, Bit>,
    /// The offered byte; 0 when there is none and at the end.
    pub offer_byte: Signal<Out, Bits<8>>,
    /// The offer is the packet's end (the CRC byte position): the transmitter sends its own CRC byte.
    pub offer_end: Signal<Out, Bit>,
    /// With `offer_end`: the CRC did not match.
    pub offer_bad: Signal<Out, Bit>,
    /// A chunk waits in the ready slot for the central queue; registered.
    pub ready_valid: Signal<Out, Bit>,
    /// Its data, byte 0 in bits `[7:0]`; 0 when not valid; registered.
    pub ready_data: Signal<Out, Bits<64>>,
    /// Its byte count, 1..8; 0 when not valid; registered.
    pub ready_bytes: Signal<Out, Bits<4>>,
    /// It is its packet's last chunk; 0 when not valid; registered.
    pub ready_last: Signal<Out, Bit>,
    /// Its packet failed the CRC check; 0 when not valid; registered.
    pub ready_bad: Signal<Out, Bit>,
    /// Streaming through the crossbar with at most 4 bytes left to send: its transmitter counts as free soon
    /// for the allocator's new matrix; from the registers.
    pub soon: Signal<Out, Bit>,
    /// Streaming with the CRC as the next byte to offer, whether or not it is here: the switch's speculative
    /// "free now"; from the registers.
    pub at_end: Signal<Out, Bit>,
    /// `waiting` from the registers alone: in `ST_WAIT`, or a look-ahead packet whose predecessor's last byte
    /// is the next to go, whether or not it is here and taken.
    pub wait_spec: Signal<Out, Bit>,
    /// With `wait_spec`: the route set of the packet it waits for (the `ST_WAIT` set or the look-ahead's); 0
    /// otherwise; from the registers.
    pub spec_set: Signal<Out, Bits<8>>,
    /// Wrapping count of packets whose CRC byte did not match; registered.
    pub crc_errors: Signal<Out, Bits<8>>,
    /// Wrapping count of malformed packets dropped (`LEN` = 0 or `R1` = 0); registered.
    pub route_errors: Signal<Out, Bits<8>>,
    // The FIFO.
    /// The FIFO's 16 bytes, in block RAM with a registered read.
    pub ram: RAM<Bits<8>, 4>,
    /// FIFO write index: the next pushed byte goes to `ram[wp]`.
    pub wp: DFF<Bits<4>>,
    /// FIFO read index: the head.
    pub rp: DFF<Bits<4>>,
    /// Bytes in the FIFO, 0..16.
    pub cnt: DFF<Bits<5>>,
    /// The pins byte of the last cycle: the head when `use_byp` is set.
    pub byp: DFF<Bits<8>>,
    /// The head is `byp`: it was written at the last edge at the address being read, where the RAM still
    /// gives the old contents.
    pub use_byp: DFF<Bit>,
    // The parser.
    /// Parser state, one of the `ST_*` constants.
    pub st: DFF<Bits<3>>,
    /// `LEN − 1`, the packet's first output byte, held until the transmitter takes it (or the assembly does).
    pub held: DFF<Bits<8>>,
    /// The packet's `LEN`.
    pub len: DFF<Bits<8>>,
    /// Body bytes still to consume before the CRC byte; in `ST_DROP`, bytes still to discard, the CRC
    /// included.
    pub body: DFF<Bits<8>>,
    /// `body != 0`, kept beside `body` (set where it is set) so that `at_end` and `wait_spec`, which start
    /// the switch's longest path, test a flip-flop instead of an 8-bit compare.
    pub bnz: DFF<Bit>,
    /// `body == 1`, kept beside `body` as `bnz` is.
    pub b1: DFF<Bit>,
    /// The packet's route set `R1` (its crossbar request in `ST_WAIT` and its admission set).
    pub wset: DFF<Bits<8>>,
    /// The granted transmitter (the model's `Xbar { out }`). Not read here: the switch knows the connection
    /// from the transmitter's `src_rx`.
    pub out: DFF<Bits<3>>,
    /// In `ST_XBAR` and `ST_LASTART`: the transmitter has taken `LEN − 1` (`held`).
    pub flag: DFF<Bit>,
    /// In `ST_LASTART`: the look-ahead packet's `LEN` has been consumed, its `R1` is next.
    pub r1: DFF<Bit>,
    /// The running CRC of the packet's bytes consumed so far, `LEN` included.
    pub crc: DFF<Bits<8>>,
    // The queue path.
    /// The assembly register, a byte lane each (lane b holds the chunk's byte b; 0 beyond `asm_n`).
    pub asm_d: Vec<DFF<Bits<8>>>,
    /// Bytes in the assembly, 0..8.
    pub asm_n: DFF<Bits<4>>,
    /// The assembly belongs to a packet being queued: set at admission, cleared when the packet's last chunk
    /// moves to the ready slot.
    pub asm_on: DFF<Bit>,
    /// The ready slot holds a chunk (drives `ready_valid`).
    pub rdy_v: DFF<Bit>,
    /// The ready slot, a byte lane each; every field is 0 while the slot is empty.
    pub rdy_d: Vec<DFF<Bits<8>>>,
    /// The ready chunk's byte count, 1..8; 0 while the slot is empty.
    pub rdy_n: DFF<Bits<4>>,
    /// The ready chunk is its packet's last; 0 while the slot is empty.
    pub rdy_last: DFF<Bit>,
    /// The ready chunk's packet failed its CRC check (set with the last chunk); 0 while the slot is empty.
    pub rdy_bad: DFF<Bit>,
    /// A byte was consumed in the last cycle (drives `token_out`).
    pub tok: DFF<Bit>,
    // The arrival tracker and the look-ahead.
    /// Arrival tracker state, one of the `AR_*` constants: what the next pins byte is.
    pub ar_st: DFF<Bits<2>>,
    /// The arriving packet's `LEN`, taken when it arrives; `ar_cnt` starts from it after `R1`.
    pub ar_len: DFF<Bits<8>>,
    /// In `AR_REST`: bytes of the arriving packet still to come, the CRC included.
    pub ar_cnt: DFF<Bits<8>>,
    /// The arriving packet's header goes into the look-ahead: its `R1` is captured when it arrives.
    pub ar_cap: DFF<Bit>,
    /// Packet starts (`LEN`s) arrived and not consumed, modulo 8: it reaches 8 only with 8 packets of
    /// `LEN = 0` in the FIFO (at least 15 bytes), and the one byte that may still arrive then is the eighth
    /// packet's CRC, never a `LEN`, so the capture test `ahead == 0` is never made at 8 (the co-simulation
    /// reaches 8 with bursts of `LEN = 0`).
    pub ahead: DFF<Bits<3>>,
    /// The look-ahead holds the next packet's header.
    pub la_v: DFF<Bit>,
    /// The look-ahead packet's `LEN`.
    pub la_len: DFF<Bits<8>>,
    /// The look-ahead packet's route set `R1`, 0 until it has arrived.
    pub la_set: DFF<Bits<8>>,
    /// `la_set != 0`, kept beside `la_set`.
    pub lsz: DFF<Bit>,
    /// Wrapping count of packets whose CRC did not match (drives `crc_errors`).
    pub n_crc: DFF<Bits<8>>,
    /// Wrapping count of malformed packets dropped (drives `route_errors`).
    pub n_route: DFF<Bits<8>>,
    crc_step: Crc8Step,
    // Locals.
    head: Signal<Local, Bits<8>>,
    cur_v: Signal<Local, Bit>,
    cur: Signal<Local, Bits<8>>,
    la_eff: Signal<Local, Bits<8>>,
    /// `la_eff != 0`: a look-ahead request while streaming.
    la_on: Signal<Local, Bit>,
    is_end: Signal<Local, Bit>,
    bad_now: Signal<Local, Bit>,
    ends_q: Signal<Local, Bit>,
    consumed: Signal<Local, Bit>,
    popped_len: Signal<Local, Bit>,
    st_n: Signal<Local, Bits<3>>,
    rdy_after: Signal<Local, Bit>,
    asm_full: Signal<Local, Bit>,
    /// This cycle's byte goes into assembly lane `asm_n`.
    asm_wr: Signal<Local, Bit>,
    /// The assembly moves to the ready slot (and is cleared).
    mv: Signal<Local, Bit>,
    /// The move takes this cycle's byte into lane 7 (the chunk fills in this cycle).
    mv_cur: Signal<Local, Bit>,
    /// The lane indices 0..7.
    lane: Vec<Constant<Bits<4>>>,
    arrived_len: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    rp_n: Signal<Local, Bits<4>>,
}

impl Default for Receiver {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            link_valid: Default::default(),
            link_byte: Default::default(),
            grant: Default::default(),
            grant_out: Default::default(),
            admitted: Default::default(),
            taken: Default::default(),
            written: Default::default(),
            takes: Default::default(),
            token_out: Default::default(),
            req: Default::default(),
            waiting: Default::default(),
            may_queue: Default::default(),
            adm_set: Default::default(),
            chunks: Default::default(),
            offer_valid: Default::default(),
            offer_byte: Default::default(),
            offer_end: Default::default(),
            offer_bad: Default::default(),
            ready_valid: Default::default(),
            ready_data: Default::default(),
            ready_bytes: Default::default(),
            ready_last: Default::default(),
            ready_bad: Default::default(),
            soon: Default::default(),
            at_end: Default::default(),
            wait_spec: Default::default(),
            spec_set: Default::default(),
            crc_errors: Default::default(),
            route_errors: Default::default(),
            ram: Default::default(),
            wp: Default::default(),
            rp: Default::default(),
            cnt: Default::default(),
            byp: Default::default(),
            use_byp: Default::default(),
            st: Default::default(),
            held: Default::default(),
            len: Default::default(),
            body: Default::default(),
            bnz: Default::default(),
            b1: Default::default(),
            wset: Default::default(),
            out: Default::default(),
            flag: Default::default(),
            r1: Default::default(),
            crc: Default::default(),
            asm_d: blocks(8),
            asm_n: Default::default(),
            asm_on: Default::default(),
            rdy_v: Default::default(),
            rdy_d: blocks(8),
            rdy_n: Default::default(),
            rdy_last: Default::default(),
            rdy_bad: Default::default(),
            tok: Default::default(),
            ar_st: Default::default(),
            ar_len: Default::default(),
            ar_cnt: Default::default(),
            ar_cap: Default::default(),
            ahead: Default::default(),
            la_v: Default::default(),
            la_len: Default::default(),
            la_set: Default::default(),
            lsz: Default::default(),
            n_crc: Default::default(),
            n_route: Default::default(),
            crc_step: Default::default(),
            head: Default::default(),
            cur_v: Default::default(),
            cur: Default::default(),
            la_eff: Default::default(),
            la_on: Default::default(),
            is_end: Default::default(),
            bad_now: Default::default(),
            ends_q: Default::default(),
            consumed: Default::default(),
            popped_len: Default::default(),
            st_n: Default::default(),
            rdy_after: Default::default(),
            asm_full: Default::default(),
            asm_wr: Default::default(),
            mv: Default::default(),
            mv_cur: Default::default(),
            lane: (0..8u64).map(|b| Constant::new(b.into())).collect(),
            arrived_len: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            rp_n: Default::default(),
        }
    }
}

impl Logic for Receiver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, wp, rp, cnt, byp, use_byp, st, held, len, body, bnz, b1, wset, out, flag,
            r1, crc, asm_n, asm_on, rdy_v, rdy_n, rdy_last, rdy_bad, tok, ar_st, ar_len, ar_cnt,
            ar_cap, ahead, la_v, la_len, la_set, lsz, n_crc, n_route
        );
        for b in 0..8 {
            self.asm_d[b].clock.next = self.clock.val();
            self.asm_d[b].d.next = self.asm_d[b].q.val();
            self.rdy_d[b].clock.next = self.clock.val();
            self.rdy_d[b].d.next = self.rdy_d[b].q.val();
        }
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        // The byte the receiver works on.
        self.head.next = self.ram.read_data.val();
        if self.use_byp.q.val() {
            self.head.next = self.byp.q.val();
        }
        self.cur_v.next = (self.cnt.q.val() != 0) | self.link_valid.val();
        self.cur.next = self.link_byte.val();
        if self.cnt.q.val() != 0 {
            self.cur.next = self.head.val();
        }
        // The CRC step over `cur` (from 0 for a LEN).
        self.crc_step.crc.next = self.crc.q.val();
        if (self.st.q.val() == 0) | ((self.st.q.val() == 6) & !self.r1.q.val()) {
            self.crc_step.crc.next = 0.into();
        }
        self.crc_step.data.next = self.cur.val();
        // The look-ahead request (while streaming a packet).
        self.la_eff.next = 0.into();
        self.la_on.next = false;
        if self.la_v.q.val()
            & ((self.st.q.val() == 3) | (self.st.q.val() == 4) | (self.st.q.val() == 5))
        {
            self.la_eff.next = self.la_set.q.val();
            self.la_on.next = self.lsz.q.val();
        }
        // The crossbar offer.
        self.bad_now.next = self.cur.val() != self.crc.q.val();
        self.is_end.next = false;
        self.offer_valid.next = false;
        self.offer_byte.next = 0.into();
        self.offer_end.next = false;
        self.offer_bad.next = false;
        if self.st.q.val() == 3 {
            if !self.flag.q.val() {
                self.offer_valid.next = true;
                self.offer_byte.next = self.held.q.val();
            } else if self.bnz.q.val() {
                self.offer_valid.next = self.cur_v.val();
                if self.cur_v.val() {
                    self.offer_byte.next = self.cur.val();
                }
            } else {
                self.offer_valid.next = self.cur_v.val();
                self.offer_end.next = self.cur_v.val();
                self.is_end.next = self.cur_v.val();
                self.offer_bad.next = self.cur_v.val() & self.bad_now.val();
            }
        }
        if (self.st.q.val() == 6) & !self.flag.q.val() {
            self.offer_valid.next = true;
            self.offer_byte.next = self.held.q.val();
        }
        self.ends_q.next = false;
        if self.st.q.val() == 4 {
            self.ends_q.next = self.cur_v.val() & !self.bnz.q.val() & !self.rdy_v.q.val();
        }
        if self.st.q.val() == 5 {
            self.ends_q.next = self.cur_v.val() & self.b1.q.val();
        }
        // Requests.
        self.req.next = 0.into();
        if (self.st.q.val() == 1) & self.cur_v.val() {
            self.req.next = self.cur.val();
        }
        if self.st.q.val() == 2 {
            self.req.next = self.wset.q.val();
        }
        if self.la_on.val() {
            self.req.next = self.la_eff.val();
        }
        self.waiting.next = (self.st.q.val() == 2)
            | (self.la_on.val() & (self.ends_q.val() | (self.takes.val() & self.is_end.val())));
        self.at_end.next = (self.st.q.val() == 3) & self.flag.q.val() & !self.bnz.q.val();
        self.wait_spec.next = (self.st.q.val() == 2)
            | (self.la_on.val()
                & (((self.st.q.val() == 4) & !self.bnz.q.val() & !self.rdy_v.q.val())
                    | ((self.st.q.val() == 5) & self.b1.q.val())
                    | ((self.st.q.val() == 3) & self.flag.q.val() & !self.bnz.q.val())));
        self.spec_set.next = 0.into();
        if self.wait_spec.val() {
            self.spec_set.next = self.la_set.q.val();
            if self.st.q.val() == 2 {
                self.spec_set.next = self.wset.q.val();
            }
        }
        self.may_queue.next = (self.st.q.val() == 2) & !self.asm_on.q.val() & !self.rdy_v.q.val();
        self.adm_set.next = 0.into();
        self.chunks.next = 0.into();
        if self.st.q.val() == 2 {
            self.adm_set.next = self.wset.q.val();
            self.chunks.next = bit_cast::<6, 9>((bit_cast::<9, 8>(self.len.q.val()) + 7) >> 3);
        }
        // Announced from the `R1` cycle on (the central queue decides on the previous cycle's requests).
        if (self.st.q.val() == 1) & self.cur_v.val() & (self.cur.val() != 0) {
            self.adm_set.next = self.cur.val();
            self.chunks.next = bit_cast::<6, 9>((bit_cast::<9, 8>(self.len.q.val()) + 7) >> 3);
        }
        // The ready slot's registers are 0 while it is empty.
        self.ready_valid.next = self.rdy_v.q.val();
        self.ready_data.next = bit_cast::<64, 8>(self.rdy_d[0].q.val())
            | (bit_cast::<64, 8>(self.rdy_d[1].q.val()) << 8)
            | (bit_cast::<64, 8>(self.rdy_d[2].q.val()) << 16)
            | (bit_cast::<64, 8>(self.rdy_d[3].q.val()) << 24)
            | (bit_cast::<64, 8>(self.rdy_d[4].q.val()) << 32)
            | (bit_cast::<64, 8>(self.rdy_d[5].q.val()) << 40)
            | (bit_cast::<64, 8>(self.rdy_d[6].q.val()) << 48)
            | (bit_cast::<64, 8>(self.rdy_d[7].q.val()) << 56);
        self.ready_bytes.next = self.rdy_n.q.val();
        self.ready_last.next = self.rdy_last.q.val();
        self.ready_bad.next = self.rdy_bad.q.val();
        // Bytes left to send: `LEN − 1` if not sent, the body, the CRC.
        self.soon.next = false;
        if (self.st.q.val() == 3) & (self.body.q.val() <= 3) {
            self.soon.next = (self.body.q.val() <= 2) | self.flag.q.val();
        }
        if (self.st.q.val() == 6) & (self.len.q.val() <= 4) {
            self.soon.next = (self.len.q.val() <= 3) | self.flag.q.val();
        }
        self.token_out.next = self.tok.q.val();
        self.crc_errors.next = self.n_crc.q.val();
        self.route_errors.next = self.n_route.q.val();

        // ---- The edge. States: 0 Idle, 1 Route, 2 Wait, 3 Xbar, 4 Queue, 5 Drop, 6 LaStart. ----
        self.consumed.next = false;
        self.popped_len.next = false;
        self.rdy_after.next = self.rdy_v.q.val() & !self.written.val();
        self.rdy_v.d.next = self.rdy_after.val();
        if self.written.val() {
            self.rdy_n.d.next = 0.into();
            self.rdy_last.d.next = false;
            self.rdy_bad.d.next = false;
        }
        self.st_n.next = self.st.q.val();
        self.asm_full.next = false;
        self.asm_wr.next = false;
        self.mv.next = false;
        self.mv_cur.next = false;
        if (self.st.q.val() == 0) & self.cur_v.val() {
            self.consumed.next = true;
            self.la_v.d.next = false;
            self.popped_len.next = true;
            if self.cur.val() == 0 {
                self.n_route.d.next = self.n_route.q.val() + 1;
                self.st_n.next = 5.into();
                self.body.d.next = 1.into();
                self.bnz.d.next = true;
                self.b1.d.next = true;
            } else {
                self.len.d.next = self.cur.val();
                self.held.d.next = self.cur.val() - 1;
                self.crc.d.next = self.crc_step.crc_out.val();
                self.st_n.next = 1.into();
            }
        }
        if (self.st.q.val() == 1) & self.cur_v.val() {
            self.consumed.next = true;
            self.crc.d.next = self.crc_step.crc_out.val();
            self.body.d.next = self.len.q.val() - 1;
            self.bnz.d.next = self.len.q.val() != 1;
            self.b1.d.next = self.len.q.val() == 2;
            if self.cur.val() == 0 {
                self.n_route.d.next = self.n_route.q.val() + 1;
                self.st_n.next = 5.into();
                self.body.d.next = self.len.q.val();
                self.bnz.d.next = self.len.q.val() != 0;
                self.b1.d.next = self.len.q.val() == 1;
            } else {
                self.st_n.next = 2.into();
                self.wset.d.next = self.cur.val();
            }
        }
        if self.st.q.val() == 2 {
            if self.grant.val() {
                self.st_n.next = 3.into();
                self.out.d.next = self.grant_out.val();
                self.flag.d.next = false;
            } else if self.admitted.val() {
                // The assembly is empty (cleared by its last move): `LEN − 1` into lane 0.
                self.asm_d[0].d.next = self.held.q.val();
                self.asm_n.d.next = 1.into();
                self.asm_on.d.next = true;
                self.st_n.next = 4.into();
                // The admission of the last cycle: the first body byte goes in at once.
                if self.cur_v.val() & (self.bnz.q.val()) {
                    self.consumed.next = true;
                    self.crc.d.next = self.crc_step.crc_out.val();
                    self.body.d.next = self.body.q.val() - 1;
                    self.bnz.d.next = !self.b1.q.val();
                    self.b1.d.next = self.body.q.val() == 2;
                    self.asm_d[1].d.next = self.cur.val();
                    self.asm_n.d.next = 2.into();
                }
            }
        }
        if (self.st.q.val() == 3) & self.taken.val() {
            if !self.flag.q.val() {
                self.flag.d.next = true;
            } else if self.bnz.q.val() {
                self.consumed.next = true;
                self.crc.d.next = self.crc_step.crc_out.val();
                self.body.d.next = self.body.q.val() - 1;
                self.bnz.d.next = !self.b1.q.val();
                self.b1.d.next = self.body.q.val() == 2;
            } else {
                self.consumed.next = true;
                if self.bad_now.val() {
                    self.n_crc.d.next = self.n_crc.q.val() + 1;
                }
                self.st_n.next = 0.into();
            }
        }
        if self.st.q.val() == 4 {
            if self.cur_v.val() {
                if (self.bnz.q.val()) & (self.asm_n.q.val() < 8) {
                    self.consumed.next = true;
                    self.crc.d.next = self.crc_step.crc_out.val();
                    self.body.d.next = self.body.q.val() - 1;
                    self.bnz.d.next = !self.b1.q.val();
                    self.b1.d.next = self.body.q.val() == 2;
                    self.asm_wr.next = true;
                    self.asm_n.d.next = self.asm_n.q.val() + 1;
                    // Full now, and not the packet's last chunk: it moves to the ready slot if free.
                    self.asm_full.next = (self.asm_n.q.val() == 7) & !self.b1.q.val();
                } else if self.ends_q.val() {
                    self.consumed.next = true;
                    if self.bad_now.val() {
                        self.n_crc.d.next = self.n_crc.q.val() + 1;
                    }
                    self.rdy_v.d.next = true;
                    self.mv.next = true;
                    self.rdy_n.d.next = self.asm_n.q.val();
                    self.rdy_last.d.next = true;
                    self.rdy_bad.d.next = self.bad_now.val();
                    self.asm_on.d.next = false;
                    self.asm_n.d.next = 0.into();
                    self.st_n.next = 0.into();
                }
            }
            // A full chunk (from an earlier cycle) that is not the last.
            if (self.asm_n.q.val() == 8) & (self.bnz.q.val()) {
                self.asm_full.next = true;
            }
            if self.asm_full.val() & !self.rdy_after.val() {
                self.rdy_v.d.next = true;
                self.mv.next = true;
                // Filled by this cycle's byte (lane 7), or full since an earlier cycle.
                self.mv_cur.next = self.asm_n.q.val() != 8;
                self.rdy_n.d.next = 8.into();
                self.rdy_last.d.next = false;
                self.rdy_bad.d.next = false;
                self.asm_n.d.next = 0.into();
            }
        }
        if (self.st.q.val() == 5) & self.cur_v.val() {
            self.consumed.next = true;
            if self.b1.q.val() {
                self.st_n.next = 0.into();
            } else {
                self.body.d.next = self.body.q.val() - 1;
                self.bnz.d.next = !self.b1.q.val();
                self.b1.d.next = self.body.q.val() == 2;
            }
        }
        if self.st.q.val() == 6 {
            self.consumed.next = true;
            self.flag.d.next = self.flag.q.val() | self.taken.val();
            if !self.r1.q.val() {
                self.crc.d.next = self.crc_step.crc_out.val();
                self.popped_len.next = true;
                self.r1.d.next = true;
            } else {
                self.crc.d.next = self.crc_step.crc_out.val();
                self.body.d.next = self.len.q.val() - 1;
                self.bnz.d.next = self.len.q.val() != 1;
                self.b1.d.next = self.len.q.val() == 2;
                self.st_n.next = 3.into();
            }
        }
        // The packet that ended in this cycle: a grant connects the looked-ahead packet at once.
        if (self.st_n.val() == 0) & self.la_on.val() & self.grant.val() {
            self.la_v.d.next = false;
            self.len.d.next = self.la_len.q.val();
            self.held.d.next = self.la_len.q.val() - 1;
            self.out.d.next = self.grant_out.val();
            self.r1.d.next = false;
            self.flag.d.next = false;
            self.st_n.next = 6.into();
        }
        self.st.d.next = self.st_n.val();
        // The chunk lanes: a byte into its lane; a move copies the assembly into the ready slot and clears
        // it; a written slot is cleared.
        for b in 0..8 {
            if self.asm_wr.val() & (self.asm_n.q.val() == self.lane[b].val()) {
                self.asm_d[b].d.next = self.cur.val();
            }
            if self.written.val() {
                self.rdy_d[b].d.next = 0.into();
            }
            if self.mv.val() {
                self.asm_d[b].d.next = 0.into();
                self.rdy_d[b].d.next = self.asm_d[b].q.val();
            }
        }
        if self.mv_cur.val() {
            self.rdy_d[7].d.next = self.cur.val();
        }
        // The arrival tracker on the pins byte; a header is captured when the receiver is busy with another
        // packet and no other packet waits in the FIFO.
        self.arrived_len.next = false;
        if self.link_valid.val() {
            if self.ar_st.q.val() == 0 {
                self.arrived_len.next = true;
                if self.link_byte.val() == 0 {
                    self.ar_st.d.next = 2.into();
                    self.ar_cnt.d.next = 1.into();
                } else {
                    self.ar_st.d.next = 1.into();
                    self.ar_len.d.next = self.link_byte.val();
                    self.ar_cap.d.next = (self.st.q.val() != 0) & (self.ahead.q.val() == 0);
                    if (self.st.q.val() != 0) & (self.ahead.q.val() == 0) {
                        self.la_v.d.next = true;
                        self.la_len.d.next = self.link_byte.val();
                        self.la_set.d.next = 0.into();
                        self.lsz.d.next = false;
                    }
                }
            }
            if self.ar_st.q.val() == 1 {
                if self.ar_cap.q.val() {
                    if self.link_byte.val() == 0 {
                        self.la_v.d.next = false;
                    } else {
                        self.la_set.d.next = self.link_byte.val();
                        self.lsz.d.next = true;
                    }
                }
                self.ar_st.d.next = 2.into();
                self.ar_cnt.d.next = self.ar_len.q.val();
            }
            if self.ar_st.q.val() == 2 {
                if self.ar_cnt.q.val() == 1 {
                    self.ar_st.d.next = 0.into();
                } else {
                    self.ar_cnt.d.next = self.ar_cnt.q.val() - 1;
                }
            }
        }
        self.ahead.d.next = self.ahead.q.val();
        if self.arrived_len.val() & !self.popped_len.val() {
            self.ahead.d.next = self.ahead.q.val() + 1;
        }
        if !self.arrived_len.val() & self.popped_len.val() {
            self.ahead.d.next = self.ahead.q.val() - 1;
        }
        // The FIFO: a consumed byte leaves it (or was the pins byte); a pins byte not consumed enters it.
        self.pop.next = self.consumed.val() & (self.cnt.q.val() != 0);
        self.push.next = self.link_valid.val() & (self.pop.val() | !self.consumed.val());
        self.rp_n.next = self.rp.q.val();
        if self.pop.val() {
            self.rp_n.next = self.rp.q.val() + 1;
        }
        self.rp.d.next = self.rp_n.val();
        self.ram.read_address.next = self.rp_n.val();
        self.ram.write_address.next = self.wp.q.val();
        self.ram.write_data.next = self.link_byte.val();
        self.ram.write_enable.next = self.push.val();
        if self.push.val() {
            self.wp.d.next = self.wp.q.val() + 1;
        }
        self.cnt.d.next = self.cnt.q.val();
        if self.push.val() & !self.pop.val() {
            self.cnt.d.next = self.cnt.q.val() + 1;
        }
        if !self.push.val() & self.pop.val() {
            self.cnt.d.next = self.cnt.q.val() - 1;
        }
        self.byp.d.next = self.link_byte.val();
        self.use_byp.d.next = self.push.val() & (self.rp_n.val() == self.wp.q.val());
        self.tok.d.next = self.consumed.val();
    }
}

/// The port documentation of the exported top `sp2_receiver_v2` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The v2 receiver of the SP2-style switch (docs/sp2-switch.md v2 section B): a 16-byte input \
                  FIFO in block RAM, packet parser and CRC check, crossbar request with look-ahead, queue \
                  admission request, chunk assembly and ready slot for the central queue, error counters. \
                  Twin of asr_model::sp2::v2::receiver::Receiver (hdl/src/sp2/v2/receiver.rs)."
            .into(),
        ports: docs(&[
            CLOCK,
            ("link_valid", "a byte from upstream"),
            ("link_byte", "that byte (consumed at once or written into the FIFO at the edge)"),
            ("grant", "the allocator grants this receiver a transmitter this cycle"),
            ("grant_out", "that transmitter"),
            ("admitted", "the central queue admits this receiver's packet this cycle"),
            ("taken", "its transmitter takes the crossbar offer this cycle"),
            ("written", "the central queue writes the ready chunk this cycle"),
            ("takes", "the transmitter it streams to takes offers this cycle (has credit)"),
            ("token_out", "an upstream credit: a byte was consumed last cycle (registered)"),
            ("req", "allocator request: the permitted outputs (bit o = output o); 0 for none"),
            ("waiting", "the allocator's candidate bit: waiting for a grant now"),
            ("may_queue", "may be admitted to the central queue (waiting, assembly and ready slot empty)"),
            ("adm_set", "the admission request's permitted outputs: in Wait, and from the R1 cycle of \
                         Route when R1 is not 0; 0 otherwise"),
            ("chunks", "the packet's size in 8-byte chunks (1..32) with adm_set; 0 otherwise"),
            ("offer_valid", "a crossbar offer this cycle"),
            ("offer_byte", "its byte; 0 when none"),
            ("offer_end", "the offer is the packet's end (the CRC byte position)"),
            ("offer_bad", "with the end: the CRC did not match"),
            ("ready_valid", "a chunk waits in the ready slot for the central queue"),
            ("ready_data", "its data, byte 0 in bits [7:0]; 0 when not valid"),
            ("ready_bytes", "its byte count, 1..8; 0 when not valid"),
            ("ready_last", "it is its packet's last chunk; 0 when not valid"),
            ("ready_bad", "its packet failed the CRC check; 0 when not valid"),
            ("soon", "streaming with at most 4 bytes left: its transmitter counts as free soon"),
            ("at_end", "streaming with the CRC as the next byte to offer, from the registers alone"),
            ("wait_spec", "waiting from the registers alone: in Wait, or a look-ahead packet whose \
                           predecessor's last byte is next (the switch's speculative candidate bit)"),
            ("spec_set", "with wait_spec: the route set of the packet it waits for (the Wait set or the \
                          look-ahead's); 0 otherwise. The allocator grants the row only a column of it"),
            ("crc_errors", "wrapping count of packets whose CRC byte did not match (registered)"),
            ("route_errors", "wrapping count of malformed packets dropped, LEN = 0 or R1 = 0 (registered)"),
        ]),
        latency: "every output but token_out and the counters is combinational from the registers and \
                  the link pins; a byte arriving in a cycle can be offered in that cycle (FIFO bypass)"
            .into(),
    }
}

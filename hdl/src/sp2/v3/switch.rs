//! The v3 SP2-style 8×8 switch (docs/sp2-switch.md, v3), exported as `sp2_switch_v3`: 8 receivers
//! ([`Receiver`]), the allocator ([`Sp2AllocatorV3`]), the central queue in byte-sliced banks
//! ([`CentralQueueV3`]), 8 transmitters ([`Sp2TransmitterV3`]), and the glue between them. Hardware twin of
//! `asr_model::sp2::v3::switch::Sp2SwitchV3`, whose `rx_in`, `tx_in` and `step` say what each block reads:
//! this glue is those functions in hardware.
//!
//! Ports, as `sp2_switch_v2` (port p's byte at bits `[8p +: 8]`, its flag at bit p):
//! - in `clock`, `link_in_valid[7:0]`, `link_in_data[63:0]`, `token_in[7:0]`;
//! - out `link_out_valid[7:0]`, `link_out_data[63:0]` (the transmitters' output registers; 0 when not
//!   valid), `token_out[7:0]` (the receivers' token registers), `crc_errors[63:0]`, `route_errors[63:0]`
//!   (receiver i's wrapping counts at bits `[8i +: 8]`).
//!
//! Every block output is a register; the glue is combinational between them: multiplexers (a transmitter's
//! crossbar receiver, its grant), decoders (each receiver's grant, connection and admission) and the
//! packing of the per-port fields into the queue's and the allocator's buses. The one path that crosses a
//! block within a cycle is the specification's: a receiver's bank write and control operation (computed
//! from its registers, the slot and the queue's free head) go straight into the queue's RAM ports.
//!
//! The slot schedule: a 3-bit counter `t mod 8` (the queue keeps its own, in step from reset); receiver i
//! writes bank `(i + t) mod 8` and has the control slot when `t mod 8 = i`.
//!
//! The read pipeline (V3.F): the queue's chunk read register goes through one more register here (`rp_*`,
//! 96 flip-flops) before the transmitters read it, so a chunk picked in cycle t arrives in t + 2 and no logic
//! follows a RAM output in its cycle; a transmitter whose chunk is in that register has its read request
//! masked, and a chunk read for it in the last cycle is ORed into its `load_nz`.
//!
//! Latency: 8 cycles from a packet's `LEN` on `link_in` to its `LEN − 1` on `link_out` through an idle
//! switch (the model's `cut_through_is_eight_cycles`).

use crate::export::doc::{docs, TopDoc, CLOCK};
use crate::matcher::Widen;
use crate::parts::{blocks, locals, port_offsets};
use rust_hdl::prelude::*;

use super::allocator::Sp2AllocatorV3;
use super::central_queue::CentralQueueV3;
use super::receiver::Receiver;
use super::transmitter::Sp2TransmitterV3;
use asr_model::sp2::v3::ENTRY_BITS;
use asr_model::sp2::PORTS;

/// The v3 switch; see the module documentation.
#[derive(LogicBlock)]
pub struct Sp2SwitchV3 {
    /// Clock of every block.
    pub clock: Signal<In, Clock>,
    /// Bit i: a byte arrives on input i.
    pub link_in_valid: Signal<In, Bits<8>>,
    /// Input i's byte at bits `[8i +: 8]`.
    pub link_in_data: Signal<In, Bits<64>>,
    /// Bit o: a token from output o's downstream receiver.
    pub token_in: Signal<In, Bits<8>>,
    /// Bit o: output o drives a byte (its output register).
    pub link_out_valid: Signal<Out, Bits<8>>,
    /// Output o's byte at bits `[8o +: 8]`; 0 when not valid.
    pub link_out_data: Signal<Out, Bits<64>>,
    /// Bit i: a token upstream from receiver i.
    pub token_out: Signal<Out, Bits<8>>,
    /// Receiver i's wrapping CRC error count at bits `[8i +: 8]`.
    pub crc_errors: Signal<Out, Bits<64>>,
    /// Receiver i's wrapping route error count at bits `[8i +: 8]`.
    pub route_errors: Signal<Out, Bits<64>>,
    /// The receivers (instance `rx$i`).
    pub rx: Vec<Receiver>,
    /// The transmitters (instance `tx$o`).
    pub tx: Vec<Sp2TransmitterV3>,
    /// The central queue.
    pub cq: CentralQueueV3,
    /// The allocator.
    pub alloc: Sp2AllocatorV3,
    /// `t mod 8`.
    slot: DFF<Bits<3>>,
    /// The read pipeline register (V3.F): the queue's chunk read register (`rd_*`) a cycle later, what the
    /// transmitters read, so that the queue's RAM outputs go into a register before any logic.
    rp_v: DFF<Bit>,
    rp_to: DFF<Bits<3>>,
    rp_banks: DFF<Bits<80>>,
    rp_start: DFF<Bits<3>>,
    rp_hv: DFF<Bit>,
    rp_head: DFF<Bits<8>>,
    // Constants.
    pn: Vec<Constant<Bits<3>>>,
    bit: Vec<Constant<Bits<8>>>,
    o3: Vec<Constant<Bits<16>>>,
    o6: Vec<Constant<Bits<16>>>,
    o7: Vec<Constant<Bits<16>>>,
    o8: Vec<Constant<Bits<16>>>,
    o10: Vec<Constant<Bits<16>>>,
    // Widening of per-port fields for the packed buses.
    w_req: Vec<Widen<8, 64>>,
    w_set: Vec<Widen<8, 64>>,
    w_chunks: Vec<Widen<6, 48>>,
    w_wpos: Vec<Widen<7, 56>>,
    w_wchunk: Vec<Widen<7, 56>>,
    w_wentry: Vec<Widen<ENTRY_BITS, 80>>,
    w_lfrom: Vec<Widen<7, 56>>,
    w_lto: Vec<Widen<7, 56>>,
    w_pout: Vec<Widen<3, 24>>,
    w_phead: Vec<Widen<8, 64>>,
    w_pfirst: Vec<Widen<7, 56>>,
    w_pstart: Vec<Widen<3, 24>>,
    w_link: Vec<Widen<8, 64>>,
    w_ce: Vec<Widen<8, 64>>,
    w_re: Vec<Widen<8, 64>>,
    // Packed buses, built as chains (acc[k + 1] from acc[k]: one assignment per local).
    a_req: Vec<Signal<Local, Bits<64>>>,
    a_set: Vec<Signal<Local, Bits<64>>>,
    a_chunks: Vec<Signal<Local, Bits<48>>>,
    a_wpos: Vec<Signal<Local, Bits<56>>>,
    a_wchunk: Vec<Signal<Local, Bits<56>>>,
    a_wentry: Vec<Signal<Local, Bits<80>>>,
    a_lfrom: Vec<Signal<Local, Bits<56>>>,
    a_lto: Vec<Signal<Local, Bits<56>>>,
    a_pout: Vec<Signal<Local, Bits<24>>>,
    a_phead: Vec<Signal<Local, Bits<64>>>,
    a_pfirst: Vec<Signal<Local, Bits<56>>>,
    a_pstart: Vec<Signal<Local, Bits<24>>>,
    a_link: Vec<Signal<Local, Bits<64>>>,
    a_ce: Vec<Signal<Local, Bits<64>>>,
    a_re: Vec<Signal<Local, Bits<64>>>,
    /// 8-bit flag buses: one chain of 9 per bus, bus k's chain at `[9k, 9k + 9)`.
    f: Vec<Signal<Local, Bits<8>>>,
    /// Per receiver i: its connection bits (`tx[o].src == i`), a chain at `[9i, 9i + 9)`.
    conn: Vec<Signal<Local, Bits<8>>>,
    /// Per transmitter: the receiver it reads (its source, else its grant) and whether there is one.
    from: Vec<Signal<Local, Bits<3>>>,
    from_v: Vec<Signal<Local, Bit>>,
    /// Per receiver i: its grant (valid, transmitter), chains at `[9i, 9i + 9)`.
    g_v: Vec<Signal<Local, Bit>>,
    g_o: Vec<Signal<Local, Bits<3>>>,
    /// Per transmitter o: the offer of its crossbar receiver, chains at `[9o, 9o + 9)`.
    x_v: Vec<Signal<Local, Bit>>,
    x_entry: Vec<Signal<Local, Bits<ENTRY_BITS>>>,
    x_tv: Vec<Signal<Local, Bit>>,
    x_to: Vec<Signal<Local, Bits<3>>>,
    x_ne: Vec<Signal<Local, Bit>>,
    cand_free: Signal<Local, Bits<8>>,
}

/// Flag buses of `f`: bus k's chain at `[9k, 9k + 9)` (rust-hdl's Verilog generator takes only literals and
/// loop variables in an index): 0 transmitters idle, 1 credit ok, 2 candidates, 3 soon, 4 xres | soon, 5 read
/// requests, 6 receivers asking admission, 7 writer positions, 8 bank writes, 9 pops, 10 links, 11 pushes, 12 link
/// outputs, 13 tokens.
const F_BUSES: usize = 14;

impl Default for Sp2SwitchV3 {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            link_in_valid: Default::default(),
            link_in_data: Default::default(),
            token_in: Default::default(),
            link_out_valid: Default::default(),
            link_out_data: Default::default(),
            token_out: Default::default(),
            crc_errors: Default::default(),
            route_errors: Default::default(),
            rx: (0..PORTS).map(Receiver::new).collect(),
            tx: (0..PORTS).map(Sp2TransmitterV3::new).collect(),
            cq: Default::default(),
            alloc: Default::default(),
            slot: Default::default(),
            rp_v: Default::default(),
            rp_to: Default::default(),
            rp_banks: Default::default(),
            rp_start: Default::default(),
            rp_hv: Default::default(),
            rp_head: Default::default(),
            pn: (0..PORTS)
                .map(|p| Constant::new((p as u64).into()))
                .collect(),
            bit: (0..PORTS)
                .map(|p| Constant::new((1u64 << p).into()))
                .collect(),
            o3: port_offsets(3),
            o6: port_offsets(6),
            o7: port_offsets(7),
            o8: port_offsets(8),
            o10: port_offsets(ENTRY_BITS),
            w_req: blocks(PORTS),
            w_set: blocks(PORTS),
            w_chunks: blocks(PORTS),
            w_wpos: blocks(PORTS),
            w_wchunk: blocks(PORTS),
            w_wentry: blocks(PORTS),
            w_lfrom: blocks(PORTS),
            w_lto: blocks(PORTS),
            w_pout: blocks(PORTS),
            w_phead: blocks(PORTS),
            w_pfirst: blocks(PORTS),
            w_pstart: blocks(PORTS),
            w_link: blocks(PORTS),
            w_ce: blocks(PORTS),
            w_re: blocks(PORTS),
            a_req: locals(PORTS + 1),
            a_set: locals(PORTS + 1),
            a_chunks: locals(PORTS + 1),
            a_wpos: locals(PORTS + 1),
            a_wchunk: locals(PORTS + 1),
            a_wentry: locals(PORTS + 1),
            a_lfrom: locals(PORTS + 1),
            a_lto: locals(PORTS + 1),
            a_pout: locals(PORTS + 1),
            a_phead: locals(PORTS + 1),
            a_pfirst: locals(PORTS + 1),
            a_pstart: locals(PORTS + 1),
            a_link: locals(PORTS + 1),
            a_ce: locals(PORTS + 1),
            a_re: locals(PORTS + 1),
            f: locals(F_BUSES * (PORTS + 1)),
            conn: locals(PORTS * (PORTS + 1)),
            from: locals(PORTS),
            from_v: locals(PORTS),
            g_v: locals(PORTS * (PORTS + 1)),
            g_o: locals(PORTS * (PORTS + 1)),
            x_v: locals(PORTS * (PORTS + 1)),
            x_entry: locals(PORTS * (PORTS + 1)),
            x_tv: locals(PORTS * (PORTS + 1)),
            x_to: locals(PORTS * (PORTS + 1)),
            x_ne: locals(PORTS * (PORTS + 1)),
            cand_free: Default::default(),
        }
    }
}

impl Logic for Sp2SwitchV3 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, slot, rp_v, rp_to, rp_banks, rp_start, rp_hv, rp_head);
        self.slot.d.next = self.slot.q.val() + 1;
        self.rp_v.d.next = self.cq.rd_valid.val();
        self.rp_to.d.next = self.cq.rd_to.val();
        self.rp_banks.d.next = self.cq.rd_banks.val();
        self.rp_start.d.next = self.cq.rd_start.val();
        self.rp_hv.d.next = self.cq.rd_head_valid.val();
        self.rp_head.d.next = self.cq.rd_head.val();
        self.cq.clock.next = self.clock.val();
        self.alloc.clock.next = self.clock.val();
        // Chain starts.
        for k in 0..14 {
            self.f[k * 9].next = 0.into();
        }
        self.a_req[0].next = 0.into();
        self.a_set[0].next = 0.into();
        self.a_chunks[0].next = 0.into();
        self.a_wpos[0].next = 0.into();
        self.a_wchunk[0].next = 0.into();
        self.a_wentry[0].next = 0.into();
        self.a_lfrom[0].next = 0.into();
        self.a_lto[0].next = 0.into();
        self.a_pout[0].next = 0.into();
        self.a_phead[0].next = 0.into();
        self.a_pfirst[0].next = 0.into();
        self.a_pstart[0].next = 0.into();
        self.a_link[0].next = 0.into();
        self.a_ce[0].next = 0.into();
        self.a_re[0].next = 0.into();
        for p in 0..8 {
            self.rx[p].clock.next = self.clock.val();
            self.tx[p].clock.next = self.clock.val();
            // The transmitters' flag buses.
            self.f[p + 1].next = self.f[p].val();
            if self.tx[p].idle.val() {
                self.f[p + 1].next = self.f[p].val() | self.bit[p].val();
            }
            self.f[9 + p + 1].next = self.f[9 + p].val();
            if self.tx[p].credit_ok.val() {
                self.f[9 + p + 1].next = self.f[9 + p].val() | self.bit[p].val();
            }
            self.f[18 + p + 1].next = self.f[18 + p].val();
            if self.tx[p].cand.val() {
                self.f[18 + p + 1].next = self.f[18 + p].val() | self.bit[p].val();
            }
            self.f[27 + p + 1].next = self.f[27 + p].val();
            if self.tx[p].soon.val() {
                self.f[27 + p + 1].next = self.f[27 + p].val() | self.bit[p].val();
            }
            self.f[36 + p + 1].next = self.f[36 + p].val();
            if self.tx[p].xres.val() | self.tx[p].soon.val() {
                self.f[36 + p + 1].next = self.f[36 + p].val() | self.bit[p].val();
            }
            self.f[45 + p + 1].next = self.f[45 + p].val();
            // A transmitter receiving its chunk now asked before it knew: its request is not read.
            if self.tx[p].rd_req.val() & !(self.rp_v.q.val() & (self.rp_to.q.val().index() == p)) {
                self.f[45 + p + 1].next = self.f[45 + p].val() | self.bit[p].val();
            }
            self.f[108 + p + 1].next = self.f[108 + p].val();
            if self.tx[p].link_valid.val() {
                self.f[108 + p + 1].next = self.f[108 + p].val() | self.bit[p].val();
            }
            // The receivers' flag buses.
            self.f[54 + p + 1].next = self.f[54 + p].val();
            if self.rx[p].ask_valid.val() {
                self.f[54 + p + 1].next = self.f[54 + p].val() | self.bit[p].val();
            }
            self.f[63 + p + 1].next = self.f[63 + p].val();
            if self.rx[p].wpos_valid.val() {
                self.f[63 + p + 1].next = self.f[63 + p].val() | self.bit[p].val();
            }
            self.f[72 + p + 1].next = self.f[72 + p].val();
            if self.rx[p].write_valid.val() {
                self.f[72 + p + 1].next = self.f[72 + p].val() | self.bit[p].val();
            }
            self.f[81 + p + 1].next = self.f[81 + p].val();
            if self.rx[p].pop.val() {
                self.f[81 + p + 1].next = self.f[81 + p].val() | self.bit[p].val();
            }
            self.f[90 + p + 1].next = self.f[90 + p].val();
            if self.rx[p].link_valid.val() {
                self.f[90 + p + 1].next = self.f[90 + p].val() | self.bit[p].val();
            }
            self.f[99 + p + 1].next = self.f[99 + p].val();
            if self.rx[p].push_valid.val() {
                self.f[99 + p + 1].next = self.f[99 + p].val() | self.bit[p].val();
            }
            self.f[117 + p + 1].next = self.f[117 + p].val();
            if self.rx[p].token.val() {
                self.f[117 + p + 1].next = self.f[117 + p].val() | self.bit[p].val();
            }
            // The packed buses.
            self.w_req[p].a.next = self.rx[p].req.val();
            self.a_req[p + 1].next =
                self.a_req[p].val() | (self.w_req[p].y.val() << self.o8[p].val());
            self.w_set[p].a.next = self.rx[p].ask_set.val();
            self.a_set[p + 1].next =
                self.a_set[p].val() | (self.w_set[p].y.val() << self.o8[p].val());
            self.w_chunks[p].a.next = self.rx[p].ask_chunks.val();
            self.a_chunks[p + 1].next =
                self.a_chunks[p].val() | (self.w_chunks[p].y.val() << self.o6[p].val());
            self.w_wpos[p].a.next = self.rx[p].wpos.val();
            self.a_wpos[p + 1].next =
                self.a_wpos[p].val() | (self.w_wpos[p].y.val() << self.o7[p].val());
            self.w_wchunk[p].a.next = self.rx[p].write_chunk.val();
            self.a_wchunk[p + 1].next =
                self.a_wchunk[p].val() | (self.w_wchunk[p].y.val() << self.o7[p].val());
            self.w_wentry[p].a.next = self.rx[p].write_entry.val();
            self.a_wentry[p + 1].next =
                self.a_wentry[p].val() | (self.w_wentry[p].y.val() << self.o10[p].val());
            self.w_lfrom[p].a.next = self.rx[p].link_from.val();
            self.a_lfrom[p + 1].next =
                self.a_lfrom[p].val() | (self.w_lfrom[p].y.val() << self.o7[p].val());
            self.w_lto[p].a.next = self.rx[p].link_to.val();
            self.a_lto[p + 1].next =
                self.a_lto[p].val() | (self.w_lto[p].y.val() << self.o7[p].val());
            self.w_pout[p].a.next = self.rx[p].push_out.val();
            self.a_pout[p + 1].next =
                self.a_pout[p].val() | (self.w_pout[p].y.val() << self.o3[p].val());
            self.w_phead[p].a.next = self.rx[p].push_head.val();
            self.a_phead[p + 1].next =
                self.a_phead[p].val() | (self.w_phead[p].y.val() << self.o8[p].val());
            self.w_pfirst[p].a.next = self.rx[p].push_first.val();
            self.a_pfirst[p + 1].next =
                self.a_pfirst[p].val() | (self.w_pfirst[p].y.val() << self.o7[p].val());
            self.w_pstart[p].a.next = self.rx[p].push_start.val();
            self.a_pstart[p + 1].next =
                self.a_pstart[p].val() | (self.w_pstart[p].y.val() << self.o3[p].val());
            self.w_link[p].a.next = self.tx[p].link_byte.val();
            self.a_link[p + 1].next =
                self.a_link[p].val() | (self.w_link[p].y.val() << self.o8[p].val());
            self.w_ce[p].a.next = self.rx[p].crc_errors.val();
            self.a_ce[p + 1].next = self.a_ce[p].val() | (self.w_ce[p].y.val() << self.o8[p].val());
            self.w_re[p].a.next = self.rx[p].route_errors.val();
            self.a_re[p + 1].next = self.a_re[p].val() | (self.w_re[p].y.val() << self.o8[p].val());
        }
        self.cand_free.next =
            (self.f[18 + 8].val() | self.f[27 + 8].val()) & !self.cq.load_nz.val();
        // Each receiver's inputs (the model's `rx_in`).
        for i in 0..8 {
            self.rx[i].pins_valid.next = self.link_in_valid.val().get_bit(i);
            self.rx[i].pins.next = self
                .link_in_data
                .val()
                .get_bits::<8>(self.o8[i].val().index());
            self.g_v[i * 9].next = false;
            self.g_o[i * 9].next = 0.into();
            self.conn[i * 9].next = 0.into();
            for o in 0..8 {
                self.g_v[i * 9 + o + 1].next = self.g_v[i * 9 + o].val();
                self.g_o[i * 9 + o + 1].next = self.g_o[i * 9 + o].val();
                if self.alloc.grant_valid.val().get_bit(o)
                    & (self
                        .alloc
                        .grant
                        .val()
                        .get_bits::<3>(self.o3[o].val().index())
                        .index()
                        == i)
                {
                    self.g_v[i * 9 + o + 1].next = true;
                    self.g_o[i * 9 + o + 1].next = self.pn[o].val();
                }
                self.conn[i * 9 + o + 1].next = self.conn[i * 9 + o].val();
                if self.tx[o].src_valid.val() & (self.tx[o].src.val().index() == i) {
                    self.conn[i * 9 + o + 1].next = self.conn[i * 9 + o].val() | self.bit[o].val();
                }
            }
            self.rx[i].grant_valid.next = self.g_v[i * 9 + 8].val();
            self.rx[i].grant.next = self.g_o[i * 9 + 8].val();
            self.rx[i].conn.next = self.conn[i * 9 + 8].val();
            self.rx[i].tx_idle.next = self.f[8].val();
            self.rx[i].credit_ok.next = self.f[9 + 8].val();
            self.rx[i].cand_free.next = self.cand_free.val();
            self.rx[i].admitted_valid.next =
                self.cq.adm_valid.val() & (self.cq.adm_rx.val().index() == i);
            self.rx[i].admitted.next = self.cq.adm_out.val();
            self.rx[i].in_matrix.next = self.alloc.rows.val().get_bit(i);
            self.rx[i].adm_busy.next = self.cq.adm_busy.val().get_bit(i);
            self.rx[i].slot_bank.next = self.slot.q.val() + self.pn[i].val();
            self.rx[i].ctrl_slot.next = self.slot.q.val() == self.pn[i].val();
            self.rx[i].free_head_valid.next = self.cq.free_head_valid.val();
            self.rx[i].free_head.next = self.cq.free_head.val();
        }
        // Each transmitter's inputs (the model's `tx_in`): its crossbar receiver is its source, else the
        // receiver of its grant.
        for o in 0..8 {
            self.tx[o].grant_valid.next = self.alloc.grant_valid.val().get_bit(o);
            self.tx[o].grant.next = self
                .alloc
                .grant
                .val()
                .get_bits::<3>(self.o3[o].val().index());
            if self.tx[o].src_valid.val() {
                self.from[o].next = self.tx[o].src.val();
            } else {
                self.from[o].next = self
                    .alloc
                    .grant
                    .val()
                    .get_bits::<3>(self.o3[o].val().index());
            }
            self.from_v[o].next =
                self.tx[o].src_valid.val() | self.alloc.grant_valid.val().get_bit(o);
            self.x_v[o * 9].next = false;
            self.x_entry[o * 9].next = 0.into();
            self.x_tv[o * 9].next = false;
            self.x_to[o * 9].next = 0.into();
            self.x_ne[o * 9].next = false;
            for i in 0..8 {
                self.x_v[o * 9 + i + 1].next = self.x_v[o * 9 + i].val();
                self.x_entry[o * 9 + i + 1].next = self.x_entry[o * 9 + i].val();
                self.x_tv[o * 9 + i + 1].next = self.x_tv[o * 9 + i].val();
                self.x_to[o * 9 + i + 1].next = self.x_to[o * 9 + i].val();
                self.x_ne[o * 9 + i + 1].next = self.x_ne[o * 9 + i].val();
                if self.from_v[o].val() & (self.from[o].val().index() == i) {
                    self.x_v[o * 9 + i + 1].next = self.rx[i].offer_valid.val();
                    self.x_entry[o * 9 + i + 1].next = self.rx[i].offer_entry.val();
                    self.x_tv[o * 9 + i + 1].next = self.rx[i].offer_to_valid.val();
                    self.x_to[o * 9 + i + 1].next = self.rx[i].offer_to.val();
                    self.x_ne[o * 9 + i + 1].next = self.rx[i].near_end.val();
                }
            }
            self.tx[o].offer_valid.next = self.x_v[o * 9 + 8].val();
            self.tx[o].offer_entry.next = self.x_entry[o * 9 + 8].val();
            self.tx[o].offer_to_valid.next = self.x_tv[o * 9 + 8].val();
            self.tx[o].offer_to.next = self.x_to[o * 9 + 8].val();
            self.tx[o].near_end.next = self.x_ne[o * 9 + 8].val();
            // A chunk read for it in the last cycle counts as load until it arrives.
            self.tx[o].load_nz.next = self.cq.load_nz.val().get_bit(o)
                | (self.cq.rd_valid.val() & (self.cq.rd_to.val().index() == o));
            self.tx[o].rd_valid.next = self.rp_v.q.val() & (self.rp_to.q.val().index() == o);
            self.tx[o].rd_banks.next = self.rp_banks.q.val();
            self.tx[o].rd_start.next = self.rp_start.q.val();
            self.tx[o].rd_head_valid.next = self.rp_hv.q.val();
            self.tx[o].rd_head.next = self.rp_head.q.val();
            self.tx[o].token.next = self.token_in.val().get_bit(o);
        }
        // The queue's inputs (the model's `CqIn`).
        self.cq.ask_valid.next = self.f[54 + 8].val();
        self.cq.ask_set.next = self.a_set[8].val();
        self.cq.ask_chunks.next = self.a_chunks[8].val();
        self.cq.wpos_valid.next = self.f[63 + 8].val();
        self.cq.wpos.next = self.a_wpos[8].val();
        self.cq.wr_valid.next = self.f[72 + 8].val();
        self.cq.wr_chunk.next = self.a_wchunk[8].val();
        self.cq.wr_entry.next = self.a_wentry[8].val();
        self.cq.pop.next = self.f[81 + 8].val();
        self.cq.link_valid.next = self.f[90 + 8].val();
        self.cq.link_from.next = self.a_lfrom[8].val();
        self.cq.link_to.next = self.a_lto[8].val();
        self.cq.push_valid.next = self.f[99 + 8].val();
        self.cq.push_out.next = self.a_pout[8].val();
        self.cq.push_head.next = self.a_phead[8].val();
        self.cq.push_first.next = self.a_pfirst[8].val();
        self.cq.push_start.next = self.a_pstart[8].val();
        self.cq.rd_req.next = self.f[45 + 8].val();
        self.cq.cand.next = self.f[18 + 8].val();
        self.cq.xres.next = self.f[36 + 8].val();
        self.cq.in_rows.next = self.alloc.rows.val();
        self.cq.in_cols.next = self.alloc.cols.val();
        self.cq.may_capture.next = self.alloc.may_capture.val();
        // The allocator's inputs (the model's `AllocIn`).
        self.alloc.req.next = self.a_req[8].val();
        self.alloc.cand.next = self.f[18 + 8].val();
        self.alloc.load_nz.next = self.cq.load_nz.val();
        self.alloc.adm_busy.next = self.cq.adm_busy.val();
        // The pins.
        self.link_out_valid.next = self.f[108 + 8].val();
        self.link_out_data.next = self.a_link[8].val();
        self.token_out.next = self.f[117 + 8].val();
        self.crc_errors.next = self.a_ce[8].val();
        self.route_errors.next = self.a_re[8].val();
    }
}

/// The exported file's port documentation.
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The v3 SP2-style 8x8 ASR switch (docs/sp2-switch.md v3): 8 receivers with look-ahead \
                  headers, the allocator (ColumnOR / Rotate_Until_Zero, one matrix in flight, held \
                  grants), the central queue in 8 byte-sliced banks written in a rotating schedule, 8 \
                  transmitters; every block output a register. Twin of \
                  asr_model::sp2::v3::switch::Sp2SwitchV3 (hdl/src/sp2/v3/switch.rs)."
            .into(),
        ports: docs(&[
            CLOCK,
            ("link_in_valid", "bit i: a byte arrives on input i"),
            ("link_in_data", "input i's byte at bits [8i +: 8]"),
            ("token_in", "bit o: a token from output o's downstream receiver (one byte of credit)"),
            ("link_out_valid", "bit o: output o drives a byte (its output register)"),
            ("link_out_data", "output o's byte at bits [8o +: 8]; 0 when not valid"),
            ("token_out", "bit i: a token upstream from receiver i (registered)"),
            ("crc_errors", "receiver i's wrapping count of packets with a bad CRC at bits [8i +: 8]"),
            ("route_errors", "receiver i's wrapping count of malformed packets dropped at bits [8i +: 8]"),
        ]),
        latency: "every output is a register; a packet's LEN - 1 leaves 8 cycles after its LEN arrived \
                  at an idle switch, then a byte per cycle; 16 credits per output at reset"
            .into(),
    }
}

//! `asr_nic`, the network endpoint (docs/network.md): AXI4-Stream toward the user's design, one SP2 link
//! toward the network. Hardware twin of `asr_model::sp2::nic::Nic`; see its documentation for the protocol
//! (framing, the route table, drops).
//!
//! Ports (`TB`: bits of a table address, `procs · stride = 2^TB`):
//! - in `clock`; send side `s_tvalid`, `s_tdata[7:0]`, `s_tlast`, `s_tdest[7:0]`, out `s_tready`;
//! - receive side out `m_tvalid`, `m_tdata[7:0]`, `m_tlast`, `m_tid[7:0]`, `m_tuser`, in `m_tready`;
//! - the link: in `link_in_valid`, `link_in_data[7:0]`, `token_in`; out `link_out_valid`,
//!   `link_out_data[7:0]`, `token_out`;
//! - configuration: in `cfg_we`, `cfg_addr[TB-1:0]`, `cfg_data[7:0]` (a table byte written at the edge), in
//!   `node_id[7:0]` (this processor's number);
//! - status: out `tx_busy`, `tx_dropped[7:0]`, `rx_dropped[7:0]` (wrapping counts), `rx_overflow`,
//!   `credit_overflow` (sticky protocol violations by the network: a byte beyond the credit, ignored; a
//!   token with the credit full, ignored).
//!
//! Every output is a register; outputs' data fields are 0 when not valid. Storage in block RAM with a
//! registered read: the two 256-byte message slots (`mbuf`, 512 × 8), the route table (`tab`, initialised
//! from the parameters), the 16-byte receive FIFO (`rram`). The read addresses are computed from the state
//! after this cycle's edge, so each RAM's read data is the byte the next cycle needs.
//!
//! Latency: a message's `LEN` is on `link_out` 4 cycles after its `tlast` beat (then a byte per cycle with
//! credit); a link byte can be taken by the parser 2 cycles after it is on `link_in`, and a message byte
//! reaches `m_tdata` once the byte after it has been taken.

use crate::export::doc::{docs, TopDoc, CLOCK};
use crate::sp2::crc8::Crc8Step;
use asr_model::sp2::nic::{NicParams, SLOT};
use asr_model::sp2::RX_DEPTH;
use rust_hdl::prelude::*;

/// The endpoint; `TB` = table address bits.
#[derive(LogicBlock)]
pub struct AsrNic<const TB: usize> {
    /// Clock: every register and RAM updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Send side: a beat is offered.
    pub s_tvalid: Signal<In, Bit>,
    /// Its byte.
    pub s_tdata: Signal<In, Bits<8>>,
    /// It is the message's last byte.
    pub s_tlast: Signal<In, Bit>,
    /// The message's destination processor (sampled with `s_tlast`).
    pub s_tdest: Signal<In, Bits<8>>,
    /// The endpoint takes the beat (registered: the slot being filled is free).
    pub s_tready: Signal<Out, Bit>,
    /// Receive side: a beat is offered.
    pub m_tvalid: Signal<Out, Bit>,
    /// Its byte.
    pub m_tdata: Signal<Out, Bits<8>>,
    /// It is the message's last byte.
    pub m_tlast: Signal<Out, Bit>,
    /// The message's source processor.
    pub m_tid: Signal<Out, Bits<8>>,
    /// With `m_tlast`: the packet's CRC did not match.
    pub m_tuser: Signal<Out, Bit>,
    /// The user takes the beat.
    pub m_tready: Signal<In, Bit>,
    /// A byte from the network in this cycle.
    pub link_in_valid: Signal<In, Bit>,
    /// That byte.
    pub link_in_data: Signal<In, Bits<8>>,
    /// A token from the network (one byte of credit back).
    pub token_in: Signal<In, Bit>,
    /// A byte to the network in this cycle.
    pub link_out_valid: Signal<Out, Bit>,
    /// That byte; 0 when not valid.
    pub link_out_data: Signal<Out, Bits<8>>,
    /// A token to the network: a byte was taken from the receive FIFO in the last cycle.
    pub token_out: Signal<Out, Bit>,
    /// Write `cfg_data` into the route table at `cfg_addr` at the edge.
    pub cfg_we: Signal<In, Bit>,
    /// The table byte's address (`dest · stride + k`).
    pub cfg_addr: Signal<In, Bits<TB>>,
    /// The table byte.
    pub cfg_data: Signal<In, Bits<8>>,
    /// This processor's number.
    pub node_id: Signal<In, Bits<8>>,
    /// A message is buffered or being sent (write the table only while low).
    pub tx_busy: Signal<Out, Bit>,
    /// Messages dropped (too long, no route), wrapping.
    pub tx_dropped: Signal<Out, Bits<8>>,
    /// Packets without a message dropped, wrapping.
    pub rx_dropped: Signal<Out, Bits<8>>,
    /// Sticky: a link byte arrived with the receive FIFO full (it was dropped).
    pub rx_overflow: Signal<Out, Bit>,
    /// Sticky: a token arrived with the credit full (it was ignored).
    pub credit_overflow: Signal<Out, Bit>,
    // Storage.
    mbuf: RAM<Bits<8>, 9>,
    tab: RAM<Bits<8>, TB>,
    rram: RAM<Bits<8>, 4>,
    tcrc: Crc8Step,
    rcrc_step: Crc8Step,
    // Send side registers.
    fill: DFF<Bit>,
    count: DFF<Bits<9>>,
    too_long: DFF<Bit>,
    full: DFF<Bits<2>>,
    len0: DFF<Bits<9>>,
    len1: DFF<Bits<9>>,
    dest0: DFF<Bits<8>>,
    dest1: DFF<Bits<8>>,
    send: DFF<Bit>,
    st_idle: DFFWithInit<Bit>,
    st_look: DFF<Bit>,
    ph_len: DFF<Bit>,
    ph_route: DFF<Bit>,
    ph_src: DFF<Bit>,
    ph_body: DFF<Bit>,
    ph_crc: DFF<Bit>,
    tk: DFF<Bits<8>>,
    bi: DFF<Bits<8>>,
    h: DFF<Bits<8>>,
    lenr: DFF<Bits<8>>,
    blast: DFF<Bits<8>>,
    has_credit: DFFWithInit<Bit>,
    crc: DFF<Bits<8>>,
    credit: DFFWithInit<Bits<5>>,
    lov: DFF<Bit>,
    lcrc: DFF<Bit>,
    lod: DFF<Bits<8>>,
    cov: DFF<Bit>,
    tready: DFFWithInit<Bit>,
    busy: DFF<Bit>,
    txdrop: DFF<Bits<8>>,
    // Receive side registers.
    wp: DFF<Bits<4>>,
    rp: DFF<Bits<4>>,
    occ: DFF<Bits<5>>,
    arr: DFF<Bit>,
    rd_ok: DFF<Bit>,
    r_len: DFFWithInit<Bit>,
    r_src: DFF<Bit>,
    r_body: DFF<Bit>,
    r_crc: DFF<Bit>,
    r_drop: DFF<Bit>,
    left: DFF<Bits<8>>,
    rcrc: DFF<Bits<8>>,
    tid: DFF<Bits<8>>,
    hv: DFF<Bit>,
    hb: DFF<Bits<8>>,
    mv: DFF<Bit>,
    md: DFF<Bits<8>>,
    ml: DFF<Bit>,
    mi: DFF<Bits<8>>,
    mu: DFF<Bit>,
    tok: DFF<Bit>,
    rxdrop: DFF<Bits<8>>,
    rovf: DFF<Bit>,
    // Parameters.
    max_msg: Constant<Bits<9>>,
    procs: Constant<Bits<9>>,
    max_route: Constant<Bits<9>>,
    stride_log2: Constant<Bits<4>>,
    stride_mask: Constant<Bits<16>>,
    depth: Constant<Bits<5>>,
    // Locals.
    accept: Signal<Local, Bit>,
    store: Signal<Local, Bit>,
    count1: Signal<Local, Bits<9>>,
    set_mask: Signal<Local, Bits<2>>,
    clr_mask: Signal<Local, Bits<2>>,
    full_n: Signal<Local, Bits<2>>,
    fill_n: Signal<Local, Bit>,
    drop_fill: Signal<Local, Bit>,
    drop_look: Signal<Local, Bit>,
    cur_len: Signal<Local, Bits<9>>,
    slot_n: Signal<Local, Bit>,
    tk_n: Signal<Local, Bits<8>>,
    bi_n: Signal<Local, Bits<8>>,
    idle_n: Signal<Local, Bit>,
    look_n: Signal<Local, Bit>,
    busy_send: Signal<Local, Bit>,
    sending: Signal<Local, Bit>,
    tbyte: Signal<Local, Bits<8>>,
    crc_now: Signal<Local, Bits<8>>,
    len_byte: Signal<Local, Bits<9>>,
    dest_n: Signal<Local, Bits<16>>,
    taddr: Signal<Local, Bits<16>>,
    credit_a: Signal<Local, Bits<5>>,
    // Receive locals.
    head: Signal<Local, Bits<8>>,
    out_free: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    occ_a: Signal<Local, Bits<5>>,
    wr: Signal<Local, Bit>,
    rp_n: Signal<Local, Bits<4>>,
}

impl<const TB: usize> AsrNic<TB> {
    /// The endpoint with its route table at reset; `TB` must give exactly `procs · stride` bytes.
    pub fn new(p: &NicParams) -> Self {
        assert_eq!(p.table.len(), 1 << TB, "TB must address the whole table");
        assert!(p.stride.is_power_of_two() && p.stride <= 256);
        const { assert!(RX_DEPTH == 16, "the receive FIFO is a 16-byte RAM") };
        let table: Vec<Bits<8>> = p.table.iter().map(|&b| (b as u64).into()).collect();
        Self {
            clock: Default::default(),
            s_tvalid: Default::default(),
            s_tdata: Default::default(),
            s_tlast: Default::default(),
            s_tdest: Default::default(),
            s_tready: Default::default(),
            m_tvalid: Default::default(),
            m_tdata: Default::default(),
            m_tlast: Default::default(),
            m_tid: Default::default(),
            m_tuser: Default::default(),
            m_tready: Default::default(),
            link_in_valid: Default::default(),
            link_in_data: Default::default(),
            token_in: Default::default(),
            link_out_valid: Default::default(),
            link_out_data: Default::default(),
            token_out: Default::default(),
            cfg_we: Default::default(),
            cfg_addr: Default::default(),
            cfg_data: Default::default(),
            node_id: Default::default(),
            tx_busy: Default::default(),
            tx_dropped: Default::default(),
            rx_dropped: Default::default(),
            rx_overflow: Default::default(),
            credit_overflow: Default::default(),
            mbuf: Default::default(),
            tab: RAM::from(table.into_iter()),
            rram: Default::default(),
            tcrc: Default::default(),
            rcrc_step: Default::default(),
            fill: Default::default(),
            count: Default::default(),
            too_long: Default::default(),
            full: Default::default(),
            len0: Default::default(),
            len1: Default::default(),
            dest0: Default::default(),
            dest1: Default::default(),
            send: Default::default(),
            st_idle: DFFWithInit::new(true),
            st_look: Default::default(),
            ph_len: Default::default(),
            ph_route: Default::default(),
            ph_src: Default::default(),
            ph_body: Default::default(),
            ph_crc: Default::default(),
            tk: Default::default(),
            bi: Default::default(),
            h: Default::default(),
            lenr: Default::default(),
            blast: Default::default(),
            has_credit: DFFWithInit::new(true),
            crc: Default::default(),
            credit: DFFWithInit::new((RX_DEPTH as u64).into()),
            lov: Default::default(),
            lcrc: Default::default(),
            lod: Default::default(),
            cov: Default::default(),
            tready: DFFWithInit::new(true),
            busy: Default::default(),
            txdrop: Default::default(),
            wp: Default::default(),
            rp: Default::default(),
            occ: Default::default(),
            arr: Default::default(),
            rd_ok: Default::default(),
            r_len: DFFWithInit::new(true),
            r_src: Default::default(),
            r_body: Default::default(),
            r_crc: Default::default(),
            r_drop: Default::default(),
            left: Default::default(),
            rcrc: Default::default(),
            tid: Default::default(),
            hv: Default::default(),
            hb: Default::default(),
            mv: Default::default(),
            md: Default::default(),
            ml: Default::default(),
            mi: Default::default(),
            mu: Default::default(),
            tok: Default::default(),
            rxdrop: Default::default(),
            rovf: Default::default(),
            max_msg: Constant::new((p.max_msg() as u64).into()),
            procs: Constant::new((p.procs as u64).into()),
            max_route: Constant::new((p.max_route() as u64).into()),
            stride_log2: Constant::new((p.stride.trailing_zeros() as u64).into()),
            stride_mask: Constant::new(((p.stride - 1) as u64).into()),
            depth: Constant::new((RX_DEPTH as u64).into()),
            accept: Default::default(),
            store: Default::default(),
            count1: Default::default(),
            set_mask: Default::default(),
            clr_mask: Default::default(),
            full_n: Default::default(),
            fill_n: Default::default(),
            drop_fill: Default::default(),
            drop_look: Default::default(),
            cur_len: Default::default(),
            slot_n: Default::default(),
            tk_n: Default::default(),
            bi_n: Default::default(),
            idle_n: Default::default(),
            look_n: Default::default(),
            busy_send: Default::default(),
            sending: Default::default(),
            tbyte: Default::default(),
            crc_now: Default::default(),
            len_byte: Default::default(),
            dest_n: Default::default(),
            taddr: Default::default(),
            credit_a: Default::default(),
            head: Default::default(),
            out_free: Default::default(),
            pop: Default::default(),
            occ_a: Default::default(),
            wr: Default::default(),
            rp_n: Default::default(),
        }
    }
}

/// The exported block top `asr_nic`: the table of one 8×8 switch (`NicParams::one_switch`: 8 destinations,
/// 2-byte entries, 16 bytes).
impl Default for AsrNic<4> {
    fn default() -> Self {
        AsrNic::new(&NicParams::one_switch())
    }
}

const _: () = assert!(SLOT == 256, "a slot is addressed by 8 bits");

impl<const TB: usize> Logic for AsrNic<TB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, fill, count, too_long, full, len0, len1, dest0, dest1, send, st_idle,
            st_look, ph_len, ph_route, ph_src, ph_body, ph_crc, tk, bi, h, lenr, blast, has_credit,
            crc, credit, lov, lcrc, lod, cov, tready, busy, txdrop, wp, rp, occ, arr, rd_ok, r_len,
            r_src, r_body, r_crc, r_drop, left, rcrc, tid, hv, hb, mv, md, ml, mi, mu, tok, rxdrop,
            rovf
        );
        self.mbuf.read_clock.next = self.clock.val();
        self.mbuf.write_clock.next = self.clock.val();
        self.tab.read_clock.next = self.clock.val();
        self.tab.write_clock.next = self.clock.val();
        self.rram.read_clock.next = self.clock.val();
        self.rram.write_clock.next = self.clock.val();
        // ---- Filling a slot.
        self.accept.next = self.s_tvalid.val() & self.tready.q.val();
        self.store.next = self.accept.val() & (self.count.q.val() < self.max_msg.val());
        self.count1.next = self.count.q.val() + 1;
        self.mbuf.write_enable.next = self.store.val();
        self.mbuf.write_data.next = self.s_tdata.val();
        self.mbuf.write_address.next =
            bit_cast::<9, 1>(self.fill.q.val().into()) << 8 | (self.count.q.val() & 0xFF);
        self.set_mask.next = 0.into();
        self.drop_fill.next = false;
        self.fill_n.next = self.fill.q.val();
        if self.store.val() {
            self.count.d.next = self.count1.val();
        }
        if self.accept.val() & !self.store.val() {
            self.too_long.d.next = true;
        }
        if self.accept.val() & self.s_tlast.val() {
            self.count.d.next = 0.into();
            self.too_long.d.next = false;
            if self.too_long.q.val()
                | !self.store.val()
                | (bit_cast::<9, 8>(self.s_tdest.val()) >= self.procs.val())
            {
                self.drop_fill.next = true;
            } else {
                self.fill_n.next = !self.fill.q.val();
                if self.fill.q.val() {
                    self.set_mask.next = 2.into();
                    self.len1.d.next = self.count1.val();
                    self.dest1.d.next = self.s_tdest.val();
                } else {
                    self.set_mask.next = 1.into();
                    self.len0.d.next = self.count1.val();
                    self.dest0.d.next = self.s_tdest.val();
                }
            }
        }
        self.fill.d.next = self.fill_n.val();
        // ---- Sending: `Look` reads the route length, then one-hot phases LEN, route bytes, source, body,
        // CRC, a byte per cycle with credit. `tk` indexes the table entry, `bi` the slot; both RAMs are read
        // at the indices after this cycle's edge.
        if self.send.q.val() {
            self.cur_len.next = self.len1.q.val();
        } else {
            self.cur_len.next = self.len0.q.val();
        }
        self.len_byte.next = bit_cast::<9, 8>(self.tab.read_data.val()) + self.cur_len.val() + 1;
        self.clr_mask.next = 0.into();
        self.drop_look.next = false;
        self.slot_n.next = self.send.q.val();
        self.idle_n.next = self.st_idle.q.val();
        self.look_n.next = false;
        self.busy_send.next = self.ph_len.q.val()
            | self.ph_route.q.val()
            | self.ph_src.q.val()
            | self.ph_body.q.val()
            | self.ph_crc.q.val();
        self.sending.next = self.busy_send.val() & self.has_credit.q.val();
        self.tbyte.next = 0.into();
        self.tk_n.next = self.tk.q.val();
        self.bi_n.next = self.bi.q.val();
        // The CRC runs a cycle behind, over the link register (`lcrc`: it holds a byte of the packet
        // before its CRC), so no block RAM output feeds it; `crc_now` includes that byte.
        self.tcrc.crc.next = self.crc.q.val();
        self.tcrc.data.next = self.lod.q.val();
        if self.lcrc.q.val() {
            self.crc_now.next = self.tcrc.crc_out.val();
        } else {
            self.crc_now.next = self.crc.q.val();
        }
        self.crc.d.next = self.crc_now.val();
        if self.st_idle.q.val() & self.full.q.val().get_bit(0) & !self.send.q.val() {
            self.idle_n.next = false;
            self.look_n.next = true;
        }
        if self.st_idle.q.val() & self.full.q.val().get_bit(1) & self.send.q.val() {
            self.idle_n.next = false;
            self.look_n.next = true;
        }
        if self.st_look.q.val() {
            if (self.tab.read_data.val() == 0)
                | (bit_cast::<9, 8>(self.tab.read_data.val()) > self.max_route.val())
            {
                self.drop_look.next = true;
                if self.send.q.val() {
                    self.clr_mask.next = 2.into();
                } else {
                    self.clr_mask.next = 1.into();
                }
                self.slot_n.next = !self.send.q.val();
                self.idle_n.next = true;
                self.tk_n.next = 0.into();
            } else {
                self.h.d.next = self.tab.read_data.val();
                self.lenr.d.next = self.len_byte.val().get_bits::<8>(0);
                self.blast.d.next = self.cur_len.val().get_bits::<8>(0) - 1;
                self.crc.d.next = 0.into();
                self.ph_len.d.next = true;
                self.tk_n.next = 1.into();
                self.bi_n.next = 0.into();
            }
        }
        if self.sending.val() {
            if self.ph_len.q.val() {
                self.tbyte.next = self.lenr.q.val();
                self.ph_len.d.next = false;
                self.ph_route.d.next = true;
            }
            if self.ph_route.q.val() {
                self.tbyte.next = self.tab.read_data.val();
                self.tk_n.next = self.tk.q.val() + 1;
                if self.tk.q.val() == self.h.q.val() {
                    self.ph_route.d.next = false;
                    self.ph_src.d.next = true;
                }
            }
            if self.ph_src.q.val() {
                self.tbyte.next = self.node_id.val();
                self.ph_src.d.next = false;
                self.ph_body.d.next = true;
            }
            if self.ph_body.q.val() {
                self.tbyte.next = self.mbuf.read_data.val();
                self.bi_n.next = self.bi.q.val() + 1;
                if self.bi.q.val() == self.blast.q.val() {
                    self.ph_body.d.next = false;
                    self.ph_crc.d.next = true;
                }
            }
            if self.ph_crc.q.val() {
                self.tbyte.next = self.crc_now.val();
                self.ph_crc.d.next = false;
                self.slot_n.next = !self.send.q.val();
                if self.send.q.val() {
                    self.clr_mask.next = 2.into();
                } else {
                    self.clr_mask.next = 1.into();
                }
                if self.full.q.val().get_bit(0) & self.send.q.val() {
                    self.look_n.next = true;
                }
                if self.full.q.val().get_bit(1) & !self.send.q.val() {
                    self.look_n.next = true;
                }
                self.idle_n.next = !self.look_n.val();
                self.tk_n.next = 0.into();
            }
        }
        self.send.d.next = self.slot_n.val();
        self.st_idle.d.next = self.idle_n.val();
        self.st_look.d.next = self.look_n.val();
        self.tk.d.next = self.tk_n.val();
        self.bi.d.next = self.bi_n.val();
        self.full_n.next = (self.full.q.val() | self.set_mask.val()) & !self.clr_mask.val();
        self.full.d.next = self.full_n.val();
        self.lov.d.next = self.sending.val();
        self.lcrc.d.next = self.sending.val() & !self.ph_crc.q.val();
        self.lod.d.next = self.tbyte.val();
        self.txdrop.d.next = self.txdrop.q.val()
            + bit_cast::<8, 1>(self.drop_fill.val().into())
            + bit_cast::<8, 1>(self.drop_look.val().into());
        // The RAM addresses for the next cycle: table byte `tk_n` of the entry of slot `slot_n`'s
        // destination, byte `bi_n` of that slot (garbage where unused).
        if self.slot_n.val() {
            self.dest_n.next = bit_cast::<16, 8>(self.dest1.q.val());
        } else {
            self.dest_n.next = bit_cast::<16, 8>(self.dest0.q.val());
        }
        self.taddr.next = (self.dest_n.val() << self.stride_log2.val())
            | (bit_cast::<16, 8>(self.tk_n.val()) & self.stride_mask.val());
        self.tab.read_address.next = bit_cast::<TB, 16>(self.taddr.val());
        self.mbuf.read_address.next =
            bit_cast::<9, 1>(self.slot_n.val().into()) << 8 | bit_cast::<9, 8>(self.bi_n.val());
        self.tab.write_enable.next = self.cfg_we.val();
        self.tab.write_address.next = self.cfg_addr.val();
        self.tab.write_data.next = self.cfg_data.val();
        // Credit: a byte sent spends one, a token adds one (ignored and flagged with the credit full).
        self.credit_a.next = self.credit.q.val() - bit_cast::<5, 1>(self.sending.val().into());
        if self.token_in.val() {
            if self.credit.q.val() == self.depth.val() {
                self.cov.d.next = true;
            } else {
                self.credit_a.next =
                    self.credit.q.val() - bit_cast::<5, 1>(self.sending.val().into()) + 1;
            }
        }
        self.credit.d.next = self.credit_a.val();
        self.has_credit.d.next = self.credit_a.val() != 0;
        self.tready.d.next = !(self.full_n.val().get_bit(0) & !self.fill_n.val())
            & !(self.full_n.val().get_bit(1) & self.fill_n.val());
        self.busy.d.next = !self.idle_n.val() | (self.full_n.val() != 0);
        // ---- Receiving: the parser takes at most one readable byte; the output register advances.
        self.head.next = self.rram.read_data.val();
        self.out_free.next = !self.mv.q.val() | self.m_tready.val();
        if self.mv.q.val() & self.m_tready.val() {
            self.mv.d.next = false;
            self.md.d.next = 0.into();
            self.ml.d.next = false;
            self.mi.d.next = 0.into();
            self.mu.d.next = false;
        }
        self.pop.next = false;
        self.rcrc_step.crc.next = self.rcrc.q.val();
        self.rcrc_step.data.next = self.head.val();
        if self.rd_ok.q.val() {
            if self.r_len.q.val() {
                self.pop.next = true;
                self.rcrc_step.crc.next = 0.into();
                self.rcrc.d.next = self.rcrc_step.crc_out.val();
                self.r_len.d.next = false;
                if self.head.val() <= 1 {
                    self.left.d.next = self.head.val() + 1;
                    self.r_drop.d.next = true;
                    self.rxdrop.d.next = self.rxdrop.q.val() + 1;
                } else {
                    self.left.d.next = self.head.val() - 1;
                    self.r_src.d.next = true;
                }
            }
            if self.r_src.q.val() {
                self.pop.next = true;
                self.rcrc.d.next = self.rcrc_step.crc_out.val();
                self.tid.d.next = self.head.val();
                self.r_src.d.next = false;
                self.r_body.d.next = true;
            }
            if self.r_body.q.val() & (!self.hv.q.val() | self.out_free.val()) {
                if self.hv.q.val() {
                    self.mv.d.next = true;
                    self.md.d.next = self.hb.q.val();
                    self.ml.d.next = false;
                    self.mi.d.next = self.tid.q.val();
                    self.mu.d.next = false;
                }
                self.pop.next = true;
                self.rcrc.d.next = self.rcrc_step.crc_out.val();
                self.hv.d.next = true;
                self.hb.d.next = self.head.val();
                self.left.d.next = self.left.q.val() - 1;
                if self.left.q.val() == 1 {
                    self.r_body.d.next = false;
                    self.r_crc.d.next = true;
                }
            }
            if self.r_crc.q.val() & self.out_free.val() {
                self.pop.next = true;
                self.mv.d.next = true;
                self.md.d.next = self.hb.q.val();
                self.ml.d.next = true;
                self.mi.d.next = self.tid.q.val();
                self.mu.d.next = self.head.val() != self.rcrc.q.val();
                self.hv.d.next = false;
                self.r_crc.d.next = false;
                self.r_len.d.next = true;
            }
            if self.r_drop.q.val() {
                self.pop.next = true;
                self.left.d.next = self.left.q.val() - 1;
                if self.left.q.val() == 1 {
                    self.r_drop.d.next = false;
                    self.r_len.d.next = true;
                }
            }
        }
        self.tok.d.next = self.pop.val();
        self.rp_n.next = self.rp.q.val() + bit_cast::<4, 1>(self.pop.val().into());
        self.rp.d.next = self.rp_n.val();
        self.rram.read_address.next = self.rp_n.val();
        // The FIFO's write: a byte beyond its 16 (counting the one popped now as gone) is dropped and flagged.
        self.occ_a.next = self.occ.q.val() - bit_cast::<5, 1>(self.pop.val().into());
        self.wr.next = self.link_in_valid.val() & (self.occ_a.val() < self.depth.val());
        if self.link_in_valid.val() & (self.occ_a.val() >= self.depth.val()) {
            self.rovf.d.next = true;
        }
        self.rram.write_enable.next = self.wr.val();
        self.rram.write_address.next = self.wp.q.val();
        self.rram.write_data.next = self.link_in_data.val();
        self.wp.d.next = self.wp.q.val() + bit_cast::<4, 1>(self.wr.val().into());
        self.occ.d.next = self.occ_a.val() + bit_cast::<5, 1>(self.wr.val().into());
        self.arr.d.next = self.wr.val();
        // Readable bytes after the edge: those now but the one popped (the one written now is not yet).
        self.rd_ok.d.next = self.occ_a.val() != 0;
        // ---- Outputs.
        self.s_tready.next = self.tready.q.val();
        self.m_tvalid.next = self.mv.q.val();
        self.m_tdata.next = self.md.q.val();
        self.m_tlast.next = self.ml.q.val();
        self.m_tid.next = self.mi.q.val();
        self.m_tuser.next = self.mu.q.val();
        self.link_out_valid.next = self.lov.q.val();
        self.link_out_data.next = self.lod.q.val();
        self.token_out.next = self.tok.q.val();
        self.tx_busy.next = self.busy.q.val();
        self.tx_dropped.next = self.txdrop.q.val();
        self.rx_dropped.next = self.rxdrop.q.val();
        self.rx_overflow.next = self.rovf.q.val();
        self.credit_overflow.next = self.cov.q.val();
    }
}

/// The exported file's port documentation.
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "asr_nic: the network endpoint (docs/network.md). AXI4-Stream toward the user (send: \
                  s_tdest = destination processor; receive: m_tid = source processor, m_tuser = bad CRC), \
                  one SP2 link toward the network; the route table in block RAM, initialised at export \
                  and writable through cfg_*. The largest message and the table's layout are in the \
                  header's parameters. Twin of asr_model::sp2::nic::Nic (hdl/src/sp2/nic.rs)."
            .into(),
        ports: docs(&[
            CLOCK,
            ("s_tvalid", "send side: a beat is offered"),
            ("s_tdata", "its byte"),
            ("s_tlast", "the message's last byte (a message is 1 to the largest message bytes)"),
            ("s_tdest", "the message's destination processor, sampled with s_tlast"),
            ("s_tready", "the endpoint takes the beat (registered: the slot being filled is free)"),
            ("m_tvalid", "receive side: a beat is offered"),
            ("m_tdata", "its byte (0 when not valid)"),
            ("m_tlast", "the message's last byte"),
            ("m_tid", "the message's source processor"),
            ("m_tuser", "with m_tlast: the packet arrived with a bad CRC"),
            ("m_tready", "the user takes the beat"),
            ("link_in_valid", "a byte from the network"),
            ("link_in_data", "that byte"),
            ("token_in", "a token from the network: one byte of credit back (16 at reset)"),
            ("link_out_valid", "a byte to the network"),
            ("link_out_data", "that byte; 0 when not valid"),
            ("token_out", "a token to the network: a byte left the receive FIFO"),
            ("cfg_we", "write cfg_data into the route table at cfg_addr (only while tx_busy is low)"),
            ("cfg_addr", "table byte address: destination * stride + k (k = 0: route length h; 1..h: \
                          route bytes R1..Rh)"),
            ("cfg_data", "the table byte"),
            ("node_id", "this processor's number (sent as the first payload byte)"),
            ("tx_busy", "a message is buffered or being sent"),
            ("tx_dropped", "messages dropped (too long, destination outside the table, no route), \
                            wrapping"),
            ("rx_dropped", "packets without a message dropped, wrapping"),
            ("rx_overflow", "sticky: a link byte arrived beyond the credit (dropped)"),
            ("credit_overflow", "sticky: a token arrived with the credit full (ignored)"),
        ]),
        latency: "every output is a register; LEN on link_out 4 cycles after the tlast beat, then one \
                  byte per cycle while credit lasts; a link byte is parsed from 2 cycles after it \
                  arrives; a message byte reaches m_tdata when the byte after it is parsed"
            .into(),
    }
}

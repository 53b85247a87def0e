//! The v3 transmitter (docs/sp2-switch.md, V3.E), exported for one output port as `sp2_transmitter_v3`.
//! Hardware twin of `model/src/sp2/v3/transmitter.rs` (`asr_model::sp2::v3::transmitter::Transmitter`):
//! its outputs are its registers, equal to the model's `regs` and `out_reg` in every cycle.
//!
//! [`Sp2TransmitterV3`]`<PORT>` ports, the model's `TxIn` and `TxRegs` (plus the link register):
//! - in `clock`;
//! - in `grant_valid`, `grant[2:0]`: the allocator's grant register of this column;
//! - in `offer_valid`, `offer_entry[9:0]` (`Entry::to_bits`), `offer_to_valid`, `offer_to[2:0]`: the offer
//!   register of the receiver it is connected to (or, while idle, of the granted receiver); `offer_to`
//!   invalid is the preload (for whichever transmitter is granted);
//! - in `near_end`: that receiver is near its packet's end; `load_nz`: its output has queue load;
//! - in `rd_valid`, `rd_banks[79:0]` (bank b's entry at bits `[10b +: 10]`, `Entry::to_bits`; the banks the
//!   packet does not use are ignored, so the model's `None` has no pin), `rd_start[2:0]`, `rd_head_valid`,
//!   `rd_head[7:0]`: the chunk read for it (in the switch, the queue's read register a cycle later: a chunk
//!   the queue picks in cycle t arrives in t + 2);
//! - in `token`: a downstream token;
//! - out `src_valid`, `src[2:0]`: connected to receiver `src` (0 when not); `idle`, `credit_ok`, `cand`,
//!   `xres`, `rd_req`, `soon`: the model's `TxRegs`;
//! - out `link_valid`, `link_byte[7:0]`: the output register (the link pins; the model's `out_reg`).
//!
//! Every output is a flip-flop; no input reaches an output in the same cycle.
//!
//! State: the credit (5 bits, from `RX_DEPTH`), the link register, the source and the held grant
//! (`next_src`), `started`, the running CRC, and the serializer. The model's serializer is a queue of up
//! to `CHUNK + TX_HOLD + 2` entries; here it is the model's queue length `n` (a 4-bit counter, a last entry
//! counting two), the hold register `f0` of one raw entry in front (`TX_HOLD` = 1), the flag `ep`
//! (the front entry is a last entry whose byte has gone: its end, the CRC, follows), and the source behind
//! them: the head byte `chead` with its pending flag `hp`, the chunk register `cb` (the 8 lanes as read, 80
//! flip-flops loaded only from `rd_banks`: an enable, no multiplexer in front), the read lane `rp` (from
//! `rd_start`), the lanes left in the chunk `ll`, and whether its last lane is a last entry `lc`. The
//! source's first two items are the head and lane `rp`, or lanes `rp` and `rp + 1`: one of these is even
//! and one odd, so two 4:1 lane multiplexers (even lanes, odd lanes) read them. Every cycle the hold
//! register takes, after this cycle's send, the next item (the source's second when the front came from
//! the source and was sent); the front entry is `f0`, or the source's first item while `f0` is empty
//! (only in the cycle after a chunk arrived behind an empty serializer). Chunks arrive at least two cycles
//! apart and only with at most `TX_HOLD` = 1 entry left after this cycle's send, so the entries of the old
//! chunk are all in the hold register when the new chunk replaces the source.
//!
//! A chunk's lanes are counted from the packet's length, not from its entries' kinds: a packet of `LEN`
//! stores `LEN − 1` entries (one end entry for an empty body), eight per chunk, the last one a last entry;
//! the first chunk brings `LEN − 1` (`rd_head`) and `pr` keeps the lanes left for the later chunks. An end
//! is always sent from `f0`, so the link's end and verdict come from registers; the CRC register holds the
//! CRC of the packet's bytes before the one in the link register, and the CRC step adds that byte in the
//! next cycle, from registers only (an end sends the CRC with it, and clears the register).
//!
//! Latency: an offer taken or an entry serialized in cycle t is on the link pins in cycle t + 1.

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::sp2::crc8::Crc8Step;
use asr_model::sp2::v3::transmitter::TX_HOLD;
use asr_model::sp2::v3::ENTRY_BITS;
use asr_model::sp2::{CHUNK, RX_DEPTH};

/// The v3 transmitter of output `PORT`; see the module documentation for ports, state and timing.
#[derive(LogicBlock)]
pub struct Sp2TransmitterV3 {
    /// Clock; every register updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// The allocator's grant register of this column holds a receiver.
    pub grant_valid: Signal<In, Bit>,
    /// That receiver.
    pub grant: Signal<In, Bits<3>>,
    /// The offer register of the connected (or granted) receiver holds an entry.
    pub offer_valid: Signal<In, Bit>,
    /// That entry (`Entry::to_bits`).
    pub offer_entry: Signal<In, Bits<10>>,
    /// The offer is for a transmitter (`offer_to`); not valid: the preload.
    pub offer_to_valid: Signal<In, Bit>,
    /// The transmitter the offer is for.
    pub offer_to: Signal<In, Bits<3>>,
    /// The connected (or granted) receiver is near its packet's end.
    pub near_end: Signal<In, Bit>,
    /// This output has chunks queued or promised.
    pub load_nz: Signal<In, Bit>,
    /// A chunk read for this transmitter in the last cycle arrives.
    pub rd_valid: Signal<In, Bit>,
    /// Its entries, bank b at bits `[10b +: 10]`.
    pub rd_banks: Signal<In, Bits<80>>,
    /// The packet's start bank.
    pub rd_start: Signal<In, Bits<3>>,
    /// The chunk is its packet's first: `rd_head` (`LEN − 1`) goes first.
    pub rd_head_valid: Signal<In, Bit>,
    /// `LEN − 1`.
    pub rd_head: Signal<In, Bits<8>>,
    /// A downstream token.
    pub token: Signal<In, Bit>,
    /// Connected to receiver `src`; a register.
    pub src_valid: Signal<Out, Bit>,
    /// That receiver (0 when not connected); a register.
    pub src: Signal<Out, Bits<3>>,
    /// Not connected, the serializer empty; a register.
    pub idle: Signal<Out, Bit>,
    /// Credit left; a register.
    pub credit_ok: Signal<Out, Bit>,
    /// A candidate for the next matrix; a register.
    pub cand: Signal<Out, Bit>,
    /// Reserved for a crossbar packet that has not started; a register.
    pub xres: Signal<Out, Bit>,
    /// Asks the central queue for a chunk; a register.
    pub rd_req: Signal<Out, Bit>,
    /// A candidate or about to be one; a register.
    pub soon: Signal<Out, Bit>,
    /// The output register holds a byte (the link pins).
    pub link_valid: Signal<Out, Bit>,
    /// That byte (0 when not valid).
    pub link_byte: Signal<Out, Bits<8>>,
    // Registers.
    credit: DFFWithInit<Bits<5>>,
    out_v: DFF<Bit>,
    out_b: DFF<Bits<8>>,
    oend: DFF<Bit>,
    srcv: DFF<Bit>,
    srcr: DFF<Bits<3>>,
    nsv: DFF<Bit>,
    ns: DFF<Bits<3>>,
    started: DFF<Bit>,
    crc: DFF<Bits<8>>,
    cb: DFF<Bits<80>>,
    chead: DFF<Bits<8>>,
    hp: DFF<Bit>,
    rp: DFF<Bits<3>>,
    ll: DFF<Bits<4>>,
    pr: DFF<Bits<8>>,
    lc: DFF<Bit>,
    f0: DFF<Bits<10>>,
    f0v: DFF<Bit>,
    ep: DFF<Bit>,
    n: DFF<Bits<4>>,
    r_idle: DFFWithInit<Bit>,
    r_cok: DFFWithInit<Bit>,
    r_cand: DFFWithInit<Bit>,
    r_xres: DFF<Bit>,
    r_rdreq: DFF<Bit>,
    r_soon: DFFWithInit<Bit>,
    crc_step: Crc8Step,
    // Constants.
    port: Constant<Bits<3>>,
    /// Bit offsets of the even lanes (0, 2, 4, 6) and of the odd lanes (1, 3, 5, 7) in a chunk.
    offe: Vec<Constant<Bits<16>>>,
    offo: Vec<Constant<Bits<16>>>,
    hidx: Vec<Constant<Bits<2>>>,
    /// `TX_HOLD + 1`, `TX_HOLD + 4`: the serializer lengths below which it asks for a chunk (the second with
    /// credit for three bytes: a chunk read for it arrives two cycles after the queue picks it).
    hold_lt: Constant<Bits<4>>,
    hold2_lt: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    // Locals.
    has_credit: Signal<Local, Bit>,
    takes: Signal<Local, Bit>,
    p1: Signal<Local, Bits<3>>,
    p2: Signal<Local, Bits<3>>,
    esel: Signal<Local, Bits<2>>,
    osel: Signal<Local, Bits<2>>,
    le: Signal<Local, Bits<10>>,
    lo: Signal<Local, Bits<10>>,
    head10: Signal<Local, Bits<10>>,
    s0: Signal<Local, Bits<10>>,
    s1: Signal<Local, Bits<10>>,
    s0v: Signal<Local, Bit>,
    s1v: Signal<Local, Bit>,
    fr: Signal<Local, Bits<10>>,
    fr_last: Signal<Local, Bit>,
    f0_last: Signal<Local, Bit>,
    ll_one: Signal<Local, Bit>,
    crc_now: Signal<Local, Bits<8>>,
    ser_send: Signal<Local, Bit>,
    s_end: Signal<Local, Bit>,
    s_bad: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    t1: Signal<Local, Bit>,
    t2: Signal<Local, Bit>,
    lane1: Signal<Local, Bit>,
    snd: Signal<Local, Bit>,
    d_end: Signal<Local, Bit>,
    d_bad: Signal<Local, Bit>,
    d_byte: Signal<Local, Bits<8>>,
    src1v: Signal<Local, Bit>,
    src1: Signal<Local, Bits<3>>,
    ns1v: Signal<Local, Bit>,
    ns1: Signal<Local, Bits<3>>,
    started1: Signal<Local, Bit>,
    src2v: Signal<Local, Bit>,
    src2: Signal<Local, Bits<3>>,
    ns2v: Signal<Local, Bit>,
    ns2: Signal<Local, Bits<3>>,
    preload: Signal<Local, Bit>,
    n1: Signal<Local, Bits<4>>,
    n2: Signal<Local, Bits<4>>,
    // The arriving chunk's entry count.
    pm: Signal<Local, Bits<8>>,
    z: Signal<Local, Bit>,
    big: Signal<Local, Bit>,
    ll_new: Signal<Local, Bits<4>>,
    lx: Signal<Local, Bit>,
    inc: Signal<Local, Bits<4>>,
    cnt_h: Signal<Local, Bits<4>>,
    credit1: Signal<Local, Bits<5>>,
    credit2: Signal<Local, Bits<5>>,
    cand1: Signal<Local, Bit>,
    c2ge3: Signal<Local, Bit>,
    n2_zero: Signal<Local, Bit>,
}

impl Default for Sp2TransmitterV3 {
    /// The transmitter of the exported block `sp2_transmitter_v3` (output 5).
    fn default() -> Self {
        Self::new(5)
    }
}

impl Sp2TransmitterV3 {
    /// The transmitter of output `port`.
    pub fn new(port: usize) -> Self {
        assert!(port < 8, "a port of the 8×8 switch");
        assert_eq!(CHUNK, 8, "8 banks of 10 bits");
        assert_eq!(ENTRY_BITS, 10, "10-bit entries");
        assert_eq!(TX_HOLD, 1, "one hold register");
        const { assert!(RX_DEPTH < 32, "the credit register is 5 bits wide") };
        const {
            assert!(
                CHUNK + TX_HOLD + 2 < 16,
                "the serializer's length fits 4 bits"
            )
        };
        Self {
            clock: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            offer_valid: Default::default(),
            offer_entry: Default::default(),
            offer_to_valid: Default::default(),
            offer_to: Default::default(),
            near_end: Default::default(),
            load_nz: Default::default(),
            rd_valid: Default::default(),
            rd_banks: Default::default(),
            rd_start: Default::default(),
            rd_head_valid: Default::default(),
            rd_head: Default::default(),
            token: Default::default(),
            src_valid: Default::default(),
            src: Default::default(),
            idle: Default::default(),
            credit_ok: Default::default(),
            cand: Default::default(),
            xres: Default::default(),
            rd_req: Default::default(),
            soon: Default::default(),
            link_valid: Default::default(),
            link_byte: Default::default(),
            credit: DFFWithInit::new((RX_DEPTH as u64).into()),
            out_v: Default::default(),
            out_b: Default::default(),
            oend: Default::default(),
            srcv: Default::default(),
            srcr: Default::default(),
            nsv: Default::default(),
            ns: Default::default(),
            started: Default::default(),
            crc: Default::default(),
            cb: Default::default(),
            chead: Default::default(),
            hp: Default::default(),
            rp: Default::default(),
            ll: Default::default(),
            pr: Default::default(),
            lc: Default::default(),
            f0: Default::default(),
            f0v: Default::default(),
            ep: Default::default(),
            n: Default::default(),
            r_idle: DFFWithInit::new(true),
            r_cok: DFFWithInit::new(true),
            r_cand: DFFWithInit::new(true),
            r_xres: Default::default(),
            r_rdreq: Default::default(),
            r_soon: DFFWithInit::new(true),
            crc_step: Default::default(),
            port: Constant::new((port as u64).into()),
            offe: (0..CHUNK / 2)
                .map(|j| Constant::new(((ENTRY_BITS * 2 * j) as u64).into()))
                .collect(),
            offo: (0..CHUNK / 2)
                .map(|j| Constant::new(((ENTRY_BITS * (2 * j + 1)) as u64).into()))
                .collect(),
            hidx: (0..CHUNK / 2)
                .map(|j| Constant::new((j as u64).into()))
                .collect(),
            hold_lt: Constant::new(((TX_HOLD + 1) as u64).into()),
            hold2_lt: Constant::new(((TX_HOLD + 4) as u64).into()),
            one4: Constant::new(1u64.into()),
            has_credit: Default::default(),
            takes: Default::default(),
            p1: Default::default(),
            p2: Default::default(),
            esel: Default::default(),
            osel: Default::default(),
            le: Default::default(),
            lo: Default::default(),
            head10: Default::default(),
            s0: Default::default(),
            s1: Default::default(),
            s0v: Default::default(),
            s1v: Default::default(),
            fr: Default::default(),
            fr_last: Default::default(),
            f0_last: Default::default(),
            ll_one: Default::default(),
            crc_now: Default::default(),
            ser_send: Default::default(),
            s_end: Default::default(),
            s_bad: Default::default(),
            pop: Default::default(),
            t1: Default::default(),
            t2: Default::default(),
            lane1: Default::default(),
            snd: Default::default(),
            d_end: Default::default(),
            d_bad: Default::default(),
            d_byte: Default::default(),
            src1v: Default::default(),
            src1: Default::default(),
            ns1v: Default::default(),
            ns1: Default::default(),
            started1: Default::default(),
            src2v: Default::default(),
            src2: Default::default(),
            ns2v: Default::default(),
            ns2: Default::default(),
            preload: Default::default(),
            n1: Default::default(),
            n2: Default::default(),
            pm: Default::default(),
            z: Default::default(),
            big: Default::default(),
            ll_new: Default::default(),
            lx: Default::default(),
            inc: Default::default(),
            cnt_h: Default::default(),
            credit1: Default::default(),
            credit2: Default::default(),
            cand1: Default::default(),
            c2ge3: Default::default(),
            n2_zero: Default::default(),
        }
    }
}

impl Logic for Sp2TransmitterV3 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, credit, out_v, out_b, oend, srcv, srcr, nsv, ns, started, crc, cb, chead,
            hp, rp, ll, pr, lc, f0, f0v, ep, n, r_idle, r_cok, r_cand, r_xres, r_rdreq, r_soon
        );
        // `credit_ok` is the credit register being non-zero.
        self.has_credit.next = self.r_cok.q.val();
        // Takes the offer: its own offer while connected, the preload of the granted receiver while idle.
        self.takes.next = false;
        if self.offer_valid.val() & self.has_credit.val() {
            if self.srcv.q.val() {
                self.takes.next =
                    self.offer_to_valid.val() & (self.offer_to.val() == self.port.val());
            } else {
                self.takes.next =
                    self.grant_valid.val() & self.r_idle.q.val() & !self.offer_to_valid.val();
            }
        }
        // The chunk's lanes rp and rp + 1: one is even, one odd (two 4:1 multiplexers).
        self.p1.next = self.rp.q.val() + 1;
        self.p2.next = self.rp.q.val() + 2;
        self.esel.next = self.p1.val().get_bits::<2>(1);
        self.osel.next = self.rp.q.val().get_bits::<2>(1);
        self.le.next = 0.into();
        self.lo.next = 0.into();
        for j in 0..4 {
            if self.esel.val() == self.hidx[j].val() {
                self.le.next = self.cb.q.val().get_bits::<10>(self.offe[j].val().index());
            }
            if self.osel.val() == self.hidx[j].val() {
                self.lo.next = self.cb.q.val().get_bits::<10>(self.offo[j].val().index());
            }
        }
        // The source's first two items: the head (when pending), then lanes rp, rp + 1.
        self.head10.next = bit_cast::<10, 8>(self.chead.q.val());
        if self.hp.q.val() {
            self.s0.next = self.head10.val();
        } else if self.rp.q.val().get_bit(0) {
            self.s0.next = self.lo.val();
        } else {
            self.s0.next = self.le.val();
        }
        if self.rp.q.val().get_bit(0) ^ self.hp.q.val() {
            self.s1.next = self.le.val();
        } else {
            self.s1.next = self.lo.val();
        }
        self.s0v.next = self.hp.q.val() | self.ll.q.val().any();
        if self.hp.q.val() {
            self.s1v.next = self.ll.q.val().any();
        } else {
            self.s1v.next = self.ll.q.val().get_bits::<3>(1).any();
        }
        // The front entry: the first hold register, else the source's first item.
        if self.f0v.q.val() {
            self.fr.next = self.f0.q.val();
        } else {
            self.fr.next = self.s0.val();
        }
        // The front entry as sent: a last entry's byte, then (ep) its end. From registers only: the front
        // comes from the source only while the hold register is empty (the cycle after a chunk arrived
        // behind an empty serializer), and then it is a last entry only as the final chunk's last lane; an
        // end (an end entry, or a last entry's end) is always sent from the hold register.
        self.f0_last.next = self.f0.q.val().get_bit(9) ^ self.f0.q.val().get_bit(8);
        self.ll_one.next = self.ll.q.val() == self.one4.val();
        if self.f0v.q.val() {
            self.fr_last.next = self.f0_last.val();
        } else {
            self.fr_last.next = !self.hp.q.val() & self.ll_one.val() & self.lc.q.val();
        }
        self.ser_send.next =
            !self.takes.val() & !self.srcv.q.val() & self.has_credit.val() & self.n.q.val().any();
        self.s_end.next = self.f0v.q.val()
            & ((self.f0.q.val().get_bit(9) & self.f0.q.val().get_bit(8))
                | (self.f0_last.val() & self.ep.q.val()));
        self.s_bad.next = self.f0.q.val().get_bit(0);
        if self.f0_last.val() {
            self.s_bad.next = self.f0.q.val().get_bit(9);
        }
        self.pop.next = self.ser_send.val() & !(self.fr_last.val() & !self.ep.q.val());
        // What goes on the link: the taken offer, or the serializer's front.
        self.snd.next = self.takes.val() | self.ser_send.val();
        if self.takes.val() {
            self.d_end.next = self.offer_entry.val().get_bit(9) & self.offer_entry.val().get_bit(8);
            self.d_bad.next = self.offer_entry.val().get_bit(0);
            self.d_byte.next = self.offer_entry.val().get_bits::<8>(0);
        } else {
            self.d_end.next = self.s_end.val();
            self.d_bad.next = self.s_bad.val();
            self.d_byte.next = self.fr.val().get_bits::<8>(0);
        }
        // The CRC: `crc` holds it over the packet's bytes before the one in the link register, which is
        // added here (the step runs on registers only).
        self.crc_step.crc.next = self.crc.q.val();
        self.crc_step.data.next = self.out_b.q.val();
        self.crc_now.next = self.crc.q.val();
        if self.out_v.q.val() & !self.oend.q.val() {
            self.crc_now.next = self.crc_step.crc_out.val();
        }
        self.crc.d.next = self.crc_now.val();
        self.out_v.d.next = self.snd.val();
        self.out_b.d.next = 0.into();
        self.oend.d.next = false;
        if self.snd.val() {
            if self.d_end.val() {
                self.crc.d.next = 0.into();
                self.oend.d.next = true;
                if self.d_bad.val() {
                    self.out_b.d.next = !self.crc_now.val();
                } else {
                    self.out_b.d.next = self.crc_now.val();
                }
            } else {
                self.out_b.d.next = self.d_byte.val();
            }
        }
        // The source, the held grant, `started`.
        self.src1v.next = self.srcv.q.val();
        self.src1.next = self.srcr.q.val();
        self.ns1v.next = self.nsv.q.val();
        self.ns1.next = self.ns.q.val();
        self.started1.next = self.started.q.val();
        self.preload.next = false;
        if self.takes.val() {
            self.started1.next = true;
            if !self.srcv.q.val() {
                self.preload.next = true;
                self.src1v.next = true;
                self.src1.next = self.grant.val();
            }
            if self.offer_entry.val().get_bit(9) & self.offer_entry.val().get_bit(8) {
                self.started1.next = false;
                self.src1v.next = self.nsv.q.val();
                self.src1.next = self.ns.q.val();
                self.ns1v.next = false;
            }
        }
        self.src2v.next = self.src1v.val();
        self.src2.next = self.src1.val();
        self.ns2v.next = self.ns1v.val();
        self.ns2.next = self.ns1.val();
        if self.grant_valid.val() & !self.preload.val() {
            if !self.src1v.val() {
                self.src2v.next = true;
                self.src2.next = self.grant.val();
            } else if !self.ns1v.val() {
                self.ns2v.next = true;
                self.ns2.next = self.grant.val();
            }
        }
        self.srcv.d.next = self.src2v.val();
        self.srcr.d.next = 0.into();
        if self.src2v.val() {
            self.srcr.d.next = self.src2.val();
        }
        self.nsv.d.next = self.ns2v.val();
        self.ns.d.next = self.ns2.val();
        self.started.d.next = self.started1.val();
        // The hold register: after this cycle's pop it holds the next item. `t1`/`t2`: the source's
        // first/second item moves (or is sent).
        if self.ser_send.val() {
            self.ep.d.next = self.fr_last.val() & !self.ep.q.val();
        }
        self.t1.next = self.s0v.val() & (!self.f0v.q.val() | self.pop.val());
        self.t2.next = self.s1v.val() & !self.f0v.q.val() & self.pop.val();
        if self.pop.val() | !self.f0v.q.val() {
            if !self.f0v.q.val() & self.pop.val() {
                self.f0.d.next = self.s1.val();
            } else {
                self.f0.d.next = self.s0.val();
            }
        }
        if self.f0v.q.val() {
            self.f0v.d.next = !self.pop.val() | self.s0v.val();
        } else if self.pop.val() {
            self.f0v.d.next = self.s1v.val();
        } else {
            self.f0v.d.next = self.s0v.val();
        }
        // The arriving chunk's lanes, from the packet's length: a first chunk's packet stores `LEN − 1`
        // entries (`rd_head`; one end entry for an empty body), a later chunk's the lanes left after the
        // previous chunk (`pr`); a chunk holds 8 of them or the rest, whose last entry is a last byte
        // (counting two: its byte and the end) unless the body is empty.
        if self.rd_head_valid.val() {
            self.pm.next = self.rd_head.val();
        } else {
            self.pm.next = self.pr.q.val();
        }
        self.z.next = self.rd_head_valid.val() & !self.rd_head.val().any();
        self.big.next = self.pm.val().get_bits::<4>(4).any()
            | (self.pm.val().get_bit(3) & self.pm.val().get_bits::<3>(0).any());
        if self.big.val() {
            self.ll_new.next = 8.into();
            self.lx.next = false;
        } else if self.z.val() {
            self.ll_new.next = 1.into();
            self.lx.next = false;
        } else {
            self.ll_new.next = self.pm.val().get_bits::<4>(0);
            self.lx.next = true;
        }
        if self.rd_valid.val() {
            self.pr.d.next = self.pm.val() - 8;
        }
        self.inc.next = 0.into();
        if self.lx.val() & self.rd_head_valid.val() {
            self.inc.next = 2.into();
        } else if self.lx.val() | self.rd_head_valid.val() {
            self.inc.next = 1.into();
        }
        self.cnt_h.next = self.ll_new.val() + self.inc.val();
        // The source after the items taken: the head, then lanes (rp advances by the lanes taken).
        self.lane1.next = self.t1.val() & !self.hp.q.val();
        if self.rd_valid.val() {
            self.cb.d.next = self.rd_banks.val();
            self.rp.d.next = self.rd_start.val();
            self.hp.d.next = self.rd_head_valid.val();
            self.chead.d.next = self.rd_head.val();
            self.ll.d.next = self.ll_new.val();
            self.lc.d.next = self.lx.val();
        } else {
            if self.t1.val() {
                self.hp.d.next = false;
            }
            if self.lane1.val() & self.t2.val() {
                self.rp.d.next = self.p2.val();
                self.ll.d.next = self.ll.q.val() - 2;
            } else if self.lane1.val() | self.t2.val() {
                self.rp.d.next = self.p1.val();
                self.ll.d.next = self.ll.q.val() - 1;
            }
        }
        // The serializer's length (the model's queue: a last entry counts two).
        self.n1.next = self.n.q.val();
        if self.ser_send.val() {
            self.n1.next = self.n.q.val() - 1;
        }
        self.n2.next = self.n1.val();
        if self.rd_valid.val() {
            self.n2.next = self.n1.val() + self.cnt_h.val();
        }
        self.n.d.next = self.n2.val();
        // The credit.
        self.credit1.next = self.credit.q.val();
        if self.snd.val() {
            self.credit1.next = self.credit.q.val() - 1;
        }
        self.credit2.next = self.credit1.val();
        if self.token.val() {
            self.credit2.next = self.credit1.val() + 1;
        }
        self.credit.d.next = self.credit2.val();
        // The credit after this cycle is at least 3, from the register, the send and the token (no adder):
        // 4 or more now; 3 now and no send or a token; 2 now, a token and no send.
        self.c2ge3.next = self.credit.q.val().get_bits::<3>(2).any()
            | (self.credit.q.val().get_bit(1)
                & self.credit.q.val().get_bit(0)
                & (!self.snd.val() | self.token.val()))
            | (self.credit.q.val().get_bit(1)
                & !self.credit.q.val().get_bit(0)
                & self.token.val()
                & !self.snd.val());
        // The registers other blocks read.
        self.n2_zero.next = !self.n2.val().any();
        self.cand1.next = !self.load_nz.val()
            & self.n2_zero.val()
            & !self.ns2v.val()
            & (!self.src2v.val() | (self.started1.val() & self.near_end.val()));
        self.r_cand.d.next = self.cand1.val();
        self.r_idle.d.next = !self.src2v.val() & self.n2_zero.val();
        self.r_cok.d.next = self.credit2.val().any();
        self.r_soon.d.next =
            self.cand1.val() | (!self.load_nz.val() & !self.src2v.val() & !self.ns2v.val());
        self.r_xres.d.next = self.ns2v.val() | (self.src2v.val() & !self.started1.val());
        if self.src2v.val() {
            self.r_rdreq.d.next = self.n2_zero.val();
        } else {
            self.r_rdreq.d.next = (self.n2.val() < self.hold_lt.val())
                | ((self.n2.val() < self.hold2_lt.val()) & self.c2ge3.val());
        }
        // Outputs: the registers.
        self.src_valid.next = self.srcv.q.val();
        self.src.next = self.srcr.q.val();
        self.idle.next = self.r_idle.q.val();
        self.credit_ok.next = self.r_cok.q.val();
        self.cand.next = self.r_cand.q.val();
        self.xres.next = self.r_xres.q.val();
        self.rd_req.next = self.r_rdreq.q.val();
        self.soon.next = self.r_soon.q.val();
        self.link_valid.next = self.out_v.q.val();
        self.link_byte.next = self.out_b.q.val();
    }
}

/// The port documentation of the exported top `sp2_transmitter_v3` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The transmitter of one output of the v3 SP2-style switch (docs/sp2-switch.md V3.E): the \
                  crossbar input (the connected receiver's offer register, taken with credit; a grant held \
                  while a crossbar packet streams), one serializer for central-queue chunks (a chunk \
                  register, a read pointer and a hold register), the CRC, the link output register and \
                  the credit. Twin of asr_model::sp2::v3::transmitter::Transmitter \
                  (hdl/src/sp2/v3/transmitter.rs), for the port the top names."
            .into(),
        ports: docs(&[
            CLOCK,
            ("grant_valid", "the allocator's grant register of this column holds a receiver"),
            ("grant", "that receiver"),
            ("offer_valid", "the connected (or, while idle, the granted) receiver's offer register holds an entry"),
            ("offer_entry", "that entry (10 bits: bits 7..0 the byte, bits 9..8 the kind, 11 = the end, bad in bit 0)"),
            ("offer_to_valid", "the offer is for the transmitter offer_to (not valid: the preload)"),
            ("offer_to", "that transmitter"),
            ("near_end", "the connected (or granted) receiver is near its packet's end"),
            ("load_nz", "this output has chunks queued or promised"),
            ("rd_valid", "a chunk read for this transmitter in the last cycle arrives"),
            ("rd_banks", "its entries, bank b at bits [b*10 +: 10] (unused banks ignored)"),
            ("rd_start", "the packet's start bank"),
            ("rd_head_valid", "the chunk is the packet's first: rd_head goes first"),
            ("rd_head", "LEN - 1"),
            ("token", "a downstream token (one byte of room freed)"),
            ("src_valid", "connected to receiver src (register)"),
            ("src", "that receiver, 0 when not connected (register)"),
            ("idle", "not connected and the serializer empty (register)"),
            ("credit_ok", "credit left (register)"),
            ("cand", "a candidate for the next matrix (register)"),
            ("xres", "reserved for a crossbar packet that has not started (register)"),
            ("rd_req", "asks the central queue for a chunk (register)"),
            ("soon", "a candidate or about to be one (register)"),
            ("link_valid", "the output register holds a byte (the link pins)"),
            ("link_byte", "that byte; 0 when not valid"),
        ]),
        latency: "every output is a register; an offer taken or an entry serialized in cycle t is on the \
                  link pins in cycle t+1"
            .into(),
    }
}

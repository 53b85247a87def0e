//! The v2 transmitter (docs/sp2-switch.md v2 §D), exported as `sp2_transmitter_v2`. Hardware twin of
//! `asr_model::sp2::v2::transmitter::Transmitter`: its outputs equal the model's `view` in every cycle, its
//! registers advance as the model's `commit`. No output FIFO: the output register drives the link pins.
//!
//! Ports:
//! - in `clock`; `load[7:0]`: the central queue's load of this output (chunks queued or promised);
//! - in `grant`, `grant_rx[2:0]`: the allocator grants this transmitter to receiver `grant_rx` this cycle
//!   (only when `free`);
//! - in `offer_valid`, `offer_byte[7:0]`, `offer_end`, `offer_bad`: its crossbar receiver's offer (a byte,
//!   or the end of the packet with the CRC verdict); used only while the source is the crossbar and `takes`;
//! - in `read`: its central-queue read is granted this cycle; `chunk_valid`, `chunk_data[63:0]`,
//!   `chunk_bytes[3:0]` (1–8), `chunk_last`, `chunk_bad`: the chunk read for it last cycle, arriving now;
//! - in `token_in`: a downstream token (one byte of room freed);
//! - out `link_valid`, `link_byte[7:0]`: the output register (the link pins);
//! - out `free`: free for the crossbar (idle, nothing of the queue path inside, `load` 0);
//! - out `wants`: wants a chunk (prefetch register empty, no read in flight, and on the crossbar only while
//!   the serializer is empty: the next queued packet's first chunk is read while the crossbar packet streams,
//!   and sent right after its CRC);
//! - out `queued`: something of the queue path inside (serializer, prefetch, read in flight, CRC due): with
//!   the source on the crossbar, the output is busy for new crossbar packets;
//! - out `takes`: takes its crossbar receiver's offer this cycle (source crossbar, credit left);
//! - out `src_xbar`, `src_rx[2:0]`: the source is the crossbar, from receiver `src_rx` (0 otherwise);
//! - out `credit_overflow`: sticky, a token arrived with the credit already full (the model's
//!   `TxError::CreditOverflow`; the token is then ignored).
//!
//! State: credit (5 bits, starts at `RX_DEPTH`), the output register, the source (Idle / Xbar(i) / Queue),
//! the running CRC, the serializer and the prefetch register, the read in flight, the CRC byte due (with its
//! bad flag). The serializer and the prefetch register are two chunk slots loaded only from `chunk_data`
//! (enables, no multiplexer in front of 64 flip-flops): `cs` names the serializer's slot, the other is the
//! prefetch register, and the serializer sends byte `k` of its slot (a byte multiplexer); when the
//! serializer takes the prefetched chunk, `cs` flips. An arriving chunk goes into slot `cs` if the
//! serializer is free after this edge (it becomes the serializer's), else into the other slot, the prefetch
//! register (a chunk never arrives with the prefetch register full: the transmitter asks for a read only
//! when it is empty).
//!
//! Latency: every output but `credit_overflow` is combinational from the registers (and `load`); a byte
//! offered or serialized in cycle t is on the link pins in cycle t + 1.

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use crate::parts::blocks;
use crate::sp2::crc8::Crc8Step;
use asr_model::sp2::RX_DEPTH;

// Source encoding (`src`): the model's `TxSrc`.
/// Source `src`: idle, no packet.
pub const SRC_IDLE: u64 = 0;
/// Source `src`: the crossbar, from receiver `rx`.
pub const SRC_XBAR: u64 = 1;
/// Source `src`: the central queue.
pub const SRC_QUEUE: u64 = 2;

/// The v2 transmitter; see the module documentation for ports, state and timing.
#[derive(LogicBlock)]
pub struct Sp2Transmitter {
    /// Clock; every register updates at its rising edge.
    pub clock: Signal<In, Clock>,
    /// The central queue's load of this output (chunks queued or promised); `free` needs it 0.
    pub load: Signal<In, Bits<8>>,
    /// The allocator grants this transmitter to receiver `grant_rx` in this cycle (only while `free`): the
    /// source becomes the crossbar at the edge.
    pub grant: Signal<In, Bit>,
    /// The granted receiver.
    pub grant_rx: Signal<In, Bits<3>>,
    /// Its crossbar receiver offers a byte or the packet's end in this cycle; used only while the source is
    /// the crossbar and `takes` is high.
    pub offer_valid: Signal<In, Bit>,
    /// The offered byte.
    pub offer_byte: Signal<In, Bits<8>>,
    /// The offer is the packet's end (its CRC byte position): this transmitter sends its own CRC byte
    /// instead.
    pub offer_end: Signal<In, Bit>,
    /// With `offer_end`: the packet failed its CRC check, so the CRC byte is sent inverted.
    pub offer_bad: Signal<In, Bit>,
    /// This transmitter's central-queue read is granted in this cycle; the chunk arrives on `chunk_*` in the
    /// next.
    pub read: Signal<In, Bit>,
    /// The chunk read for this transmitter at the last edge arrives now.
    pub chunk_valid: Signal<In, Bit>,
    /// Its data, byte 0 in bits `[7:0]`.
    pub chunk_data: Signal<In, Bits<64>>,
    /// Its byte count, 1..8.
    pub chunk_bytes: Signal<In, Bits<4>>,
    /// It is its packet's last chunk: the CRC byte follows it.
    pub chunk_last: Signal<In, Bit>,
    /// Its packet failed the CRC check: the CRC byte is sent inverted.
    pub chunk_bad: Signal<In, Bit>,
    /// A token from the receiver downstream: one byte of room freed; the credit counts it at the edge.
    pub token_in: Signal<In, Bit>,
    /// The output register holds a byte (the link pins); registered.
    pub link_valid: Signal<Out, Bit>,
    /// That byte; 0 when not valid; registered.
    pub link_byte: Signal<Out, Bits<8>>,
    /// Free for the crossbar: idle, nothing of the queue path inside, and `load` 0; combinational from the
    /// registers and `load`.
    pub free: Signal<Out, Bit>,
    /// Asks the central queue for a chunk: prefetch register empty, no read in flight, and, while the source
    /// is the crossbar, the serializer empty; from the registers.
    pub wants: Signal<Out, Bit>,
    /// Something of the queue path is inside (serializer, prefetch register, read in flight, CRC byte due);
    /// from the registers.
    pub queued: Signal<Out, Bit>,
    /// Takes its crossbar receiver's offer in this cycle: the source is the crossbar and credit is left; from
    /// the registers.
    pub takes: Signal<Out, Bit>,
    /// The source is the crossbar; from the registers.
    pub src_xbar: Signal<Out, Bit>,
    /// The crossbar source's receiver, 0 otherwise; from the registers.
    pub src_rx: Signal<Out, Bits<3>>,
    /// Sticky: a token arrived with the credit already full, and was ignored; registered.
    pub credit_overflow: Signal<Out, Bit>,
    // Registers.
    /// Bytes the downstream receiver can still take: starts at `RX_DEPTH`, one less per byte sent, one more
    /// per token.
    pub credit: DFFWithInit<Bits<5>>,
    /// The output register holds a byte (drives `link_valid`).
    pub out_v: DFF<Bit>,
    /// The output register's byte (drives `link_byte`); 0 when empty.
    pub out_b: DFF<Bits<8>>,
    /// The source: `SRC_IDLE`, `SRC_XBAR` or `SRC_QUEUE`.
    pub src: DFF<Bits<2>>,
    /// The crossbar source's receiver, meaningful while the source is the crossbar.
    pub rx: DFF<Bits<3>>,
    /// The running CRC of the bytes of the packet sent so far.
    pub crc: DFF<Bits<8>>,
    /// The serializer (slot `cs`) holds a chunk.
    pub ser_v: DFF<Bit>,
    /// The prefetch register (the slot other than `cs`) holds a chunk.
    pub pre_v: DFF<Bit>,
    /// The serializer's slot (the other is the prefetch register).
    pub cs: DFF<Bit>,
    /// The index of the serializer's next byte in its chunk.
    pub k: DFF<Bits<3>>,
    /// The two chunk slots' data, byte 0 in bits `[7:0]`.
    pub sd: Vec<DFF<Bits<64>>>,
    /// The two slots' byte counts, 1..8.
    pub sn: Vec<DFF<Bits<4>>>,
    /// The two slots' last-chunk flags.
    pub sl: Vec<DFF<Bit>>,
    /// The two slots' bad-packet flags.
    pub sb: Vec<DFF<Bit>>,
    /// A central-queue read is in flight: granted in the last cycle, its chunk arriving in this one.
    pub inflight: DFF<Bit>,
    /// The queued packet's CRC byte is due: its last chunk has been sent.
    pub due_v: DFF<Bit>,
    /// The due CRC byte's packet failed its CRC check: the byte is sent inverted.
    pub due_bad: DFF<Bit>,
    /// The sticky credit-overflow flag (drives `credit_overflow`).
    pub ovf: DFF<Bit>,
    crc_step: Crc8Step,
    // Locals.
    empty: Signal<Local, Bit>,
    has_credit: Signal<Local, Bit>,
    sent_v: Signal<Local, Bit>,
    sent_b: Signal<Local, Bits<8>>,
    crc_x: Signal<Local, Bits<8>>,
    cdata: Signal<Local, Bits<8>>,
    ser_free: Signal<Local, Bit>,
    /// The serializer's next byte (byte `k` of slot `cs`), bytes, last and bad flags.
    sbyte: Signal<Local, Bits<8>>,
    b0: Signal<Local, Bits<8>>,
    b1: Signal<Local, Bits<8>>,
    s_n: Signal<Local, Bits<4>>,
    s_last: Signal<Local, Bit>,
    s_bad: Signal<Local, Bit>,
    kx: Signal<Local, Bits<8>>,
    /// The slot an arriving chunk goes into.
    tgt: Signal<Local, Bit>,
    slot: Vec<Constant<Bit>>,
    credit_n: Signal<Local, Bits<5>>,
    /// After the edge: serializer, prefetch, read in flight, CRC byte due.
    sv: Signal<Local, Bit>,
    pv: Signal<Local, Bit>,
    fv: Signal<Local, Bit>,
    dv: Signal<Local, Bit>,
    /// `RX_DEPTH`: the credit when the downstream FIFO is empty.
    depth: Constant<Bits<5>>,
}

impl Default for Sp2Transmitter {
    fn default() -> Self {
        const { assert!(RX_DEPTH < 32, "the credit register is 5 bits wide") };
        Self {
            clock: Default::default(),
            load: Default::default(),
            grant: Default::default(),
            grant_rx: Default::default(),
            offer_valid: Default::default(),
            offer_byte: Default::default(),
            offer_end: Default::default(),
            offer_bad: Default::default(),
            read: Default::default(),
            chunk_valid: Default::default(),
            chunk_data: Default::default(),
            chunk_bytes: Default::default(),
            chunk_last: Default::default(),
            chunk_bad: Default::default(),
            token_in: Default::default(),
            link_valid: Default::default(),
            link_byte: Default::default(),
            free: Default::default(),
            wants: Default::default(),
            queued: Default::default(),
            takes: Default::default(),
            src_xbar: Default::default(),
            src_rx: Default::default(),
            credit_overflow: Default::default(),
            credit: DFFWithInit::new((RX_DEPTH as u64).into()),
            out_v: Default::default(),
            out_b: Default::default(),
            src: Default::default(),
            rx: Default::default(),
            crc: Default::default(),
            ser_v: Default::default(),
            pre_v: Default::default(),
            cs: Default::default(),
            k: Default::default(),
            sd: blocks(2),
            sn: blocks(2),
            sl: blocks(2),
            sb: blocks(2),
            inflight: Default::default(),
            due_v: Default::default(),
            due_bad: Default::default(),
            ovf: Default::default(),
            crc_step: Default::default(),
            empty: Default::default(),
            has_credit: Default::default(),
            sent_v: Default::default(),
            sent_b: Default::default(),
            crc_x: Default::default(),
            cdata: Default::default(),
            ser_free: Default::default(),
            sbyte: Default::default(),
            b0: Default::default(),
            b1: Default::default(),
            s_n: Default::default(),
            s_last: Default::default(),
            s_bad: Default::default(),
            kx: Default::default(),
            tgt: Default::default(),
            slot: vec![Constant::new(false), Constant::new(true)],
            credit_n: Default::default(),
            sv: Default::default(),
            pv: Default::default(),
            fv: Default::default(),
            dv: Default::default(),
            depth: Constant::new((RX_DEPTH as u64).into()),
        }
    }
}

impl Logic for Sp2Transmitter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, credit, out_v, out_b, src, rx, crc, ser_v, pre_v, cs, k, inflight, due_v,
            due_bad, ovf
        );
        for s in 0..2 {
            self.sd[s].clock.next = self.clock.val();
            self.sd[s].d.next = self.sd[s].q.val();
            self.sn[s].clock.next = self.clock.val();
            self.sn[s].d.next = self.sn[s].q.val();
            self.sl[s].clock.next = self.clock.val();
            self.sl[s].d.next = self.sl[s].q.val();
            self.sb[s].clock.next = self.clock.val();
            self.sb[s].d.next = self.sb[s].q.val();
        }
        // The serializer: byte `k` of slot `cs` (the byte picked in each slot, then the slot).
        self.kx.next = bit_cast::<8, 3>(self.k.q.val()) << 3;
        self.b0.next = self.sd[0].q.val().get_bits::<8>(self.kx.val().index());
        self.b1.next = self.sd[1].q.val().get_bits::<8>(self.kx.val().index());
        self.sbyte.next = self.b0.val();
        self.s_n.next = self.sn[0].q.val();
        self.s_last.next = self.sl[0].q.val();
        self.s_bad.next = self.sb[0].q.val();
        if self.cs.q.val() {
            self.sbyte.next = self.b1.val();
            self.s_n.next = self.sn[1].q.val();
            self.s_last.next = self.sl[1].q.val();
            self.s_bad.next = self.sb[1].q.val();
        }
        // ---- The view. ----
        self.empty.next = !self.ser_v.q.val()
            & !self.pre_v.q.val()
            & !self.inflight.q.val()
            & !self.due_v.q.val();
        self.has_credit.next = self.credit.q.val() != 0;
        self.link_valid.next = self.out_v.q.val();
        self.link_byte.next = self.out_b.q.val();
        self.free.next = (self.src.q.val() == 0) & (self.load.val() == 0) & self.empty.val();
        self.wants.next = ((self.src.q.val() != 1) | !self.ser_v.q.val())
            & !self.pre_v.q.val()
            & !self.inflight.q.val();
        self.queued.next = !self.empty.val();
        self.takes.next = (self.src.q.val() == 1) & self.has_credit.val();
        self.src_xbar.next = self.src.q.val() == 1;
        self.src_rx.next = 0.into();
        if self.src.q.val() == 1 {
            self.src_rx.next = self.rx.q.val();
        }
        self.credit_overflow.next = self.ovf.q.val();
        // The CRC byte (inverted if the packet is bad) and the CRC step over the byte sent.
        self.crc_x.next = self.crc.q.val();
        self.crc_step.crc.next = self.crc.q.val();
        // (The sub-block's input assigned once: docs/hdl.md, Icarus livelock.)
        self.cdata.next = self.sbyte.val();
        if self.src.q.val() == 1 {
            self.cdata.next = self.offer_byte.val();
            if self.offer_bad.val() {
                self.crc_x.next = !self.crc.q.val();
            }
        } else if self.due_bad.q.val() {
            self.crc_x.next = !self.crc.q.val();
        }
        self.crc_step.data.next = self.cdata.val();
        // ---- The edge. ----
        self.sent_v.next = false;
        self.sent_b.next = 0.into();
        self.sv.next = self.ser_v.q.val();
        self.pv.next = self.pre_v.q.val();
        self.fv.next = self.inflight.q.val();
        self.dv.next = self.due_v.q.val();
        self.ser_free.next = false;
        self.tgt.next = self.cs.q.val();
        if self.src.q.val() == 1 {
            // The crossbar: the receiver's byte, or at its end this transmitter's CRC.
            if self.has_credit.val() & self.offer_valid.val() {
                self.sent_v.next = true;
                if self.offer_end.val() {
                    self.sent_b.next = self.crc_x.val();
                    self.crc.d.next = 0.into();
                    self.src.d.next = 0.into();
                    if self.ser_v.q.val()
                        | self.inflight.q.val()
                        | self.chunk_valid.val()
                        | self.read.val()
                    {
                        self.src.d.next = 2.into();
                    }
                } else {
                    self.sent_b.next = self.offer_byte.val();
                    self.crc.d.next = self.crc_step.crc_out.val();
                }
            }
            // The next queued packet's first chunk, read while the crossbar packet streams: into the
            // serializer (empty on the crossbar), sent after the crossbar packet's CRC.
            if self.chunk_valid.val() {
                self.fv.next = false;
                self.sv.next = true;
            }
            if self.read.val() {
                self.fv.next = true;
            }
        } else {
            // Idle or Queue: the CRC byte due, else the serializer's next byte.
            if self.has_credit.val() {
                if self.due_v.q.val() {
                    self.sent_v.next = true;
                    self.sent_b.next = self.crc_x.val();
                    self.crc.d.next = 0.into();
                    self.dv.next = false;
                } else if self.ser_v.q.val() {
                    self.sent_v.next = true;
                    self.sent_b.next = self.sbyte.val();
                    self.crc.d.next = self.crc_step.crc_out.val();
                    if (bit_cast::<4, 3>(self.k.q.val()) + 1) == self.s_n.val() {
                        if self.s_last.val() {
                            self.dv.next = true;
                            self.due_bad.d.next = self.s_bad.val();
                        }
                        self.sv.next = false;
                        self.ser_free.next = true;
                        self.k.d.next = 0.into();
                    } else {
                        self.k.d.next = self.k.q.val() + 1;
                    }
                }
            }
            if !self.ser_v.q.val() {
                self.ser_free.next = true;
            }
            // The serializer, free after this byte, takes the prefetched chunk, else the arriving one.
            if self.ser_free.val() & self.pre_v.q.val() {
                self.sv.next = true;
                self.cs.d.next = !self.cs.q.val();
                self.pv.next = false;
            }
            // An arriving chunk: slot `cs` if the serializer is free after this edge, else the other (the
            // prefetch register, empty whenever a chunk arrives).
            if !self.ser_free.val() {
                self.tgt.next = !self.cs.q.val();
            }
            if self.chunk_valid.val() {
                self.fv.next = false;
                if self.ser_free.val() & !self.pre_v.q.val() {
                    self.sv.next = true;
                } else {
                    self.pv.next = true;
                }
            }
            if self.read.val() {
                self.fv.next = true;
            }
            // Queue while anything of the queue path is inside after the edge.
            self.src.d.next = 0.into();
            if self.sv.val() | self.pv.val() | self.fv.val() | self.dv.val() {
                self.src.d.next = 2.into();
            }
        }
        for s in 0..2 {
            if self.chunk_valid.val() & (self.tgt.val() == self.slot[s].val()) {
                self.sd[s].d.next = self.chunk_data.val();
                self.sn[s].d.next = self.chunk_bytes.val();
                self.sl[s].d.next = self.chunk_last.val();
                self.sb[s].d.next = self.chunk_bad.val();
            }
        }
        self.ser_v.d.next = self.sv.val();
        self.pre_v.d.next = self.pv.val();
        self.inflight.d.next = self.fv.val();
        self.due_v.d.next = self.dv.val();
        if self.grant.val() {
            self.src.d.next = 1.into();
            self.rx.d.next = self.grant_rx.val();
        }
        self.out_v.d.next = self.sent_v.val();
        self.out_b.d.next = self.sent_b.val();
        self.credit_n.next = self.credit.q.val();
        if self.sent_v.val() {
            self.credit_n.next = self.credit.q.val() - 1;
        }
        self.credit.d.next = self.credit_n.val();
        if self.token_in.val() {
            if self.credit_n.val() >= self.depth.val() {
                self.ovf.d.next = true;
            } else {
                self.credit.d.next = self.credit_n.val() + 1;
            }
        }
    }
}

/// The port documentation of the exported top `sp2_transmitter_v2` (the header `asr verilog` writes).
pub fn top_doc() -> TopDoc {
    TopDoc {
        summary: "The v2 transmitter of the SP2-style switch (docs/sp2-switch.md v2 section D): source \
                  selection (idle, crossbar, central queue), serializer and one-chunk prefetch register, \
                  CRC, output register on the link pins, link credit. Twin of \
                  asr_model::sp2::v2::transmitter::Transmitter (hdl/src/sp2/v2/transmitter.rs)."
            .into(),
        ports: docs(&[
            CLOCK,
            ("load", "the central queue's load of this output (chunks queued or promised)"),
            ("grant", "the allocator grants this transmitter to receiver grant_rx this cycle (only when free)"),
            ("grant_rx", "that receiver"),
            ("offer_valid", "the crossbar receiver offers a byte or the packet's end"),
            ("offer_byte", "the offered byte"),
            ("offer_end", "the offer is the packet's end"),
            ("offer_bad", "with the end: the packet failed its CRC check"),
            ("read", "this transmitter's central-queue read is granted this cycle"),
            ("chunk_valid", "the chunk read for it last cycle arrives now"),
            ("chunk_data", "its data, byte 0 in bits [7:0]"),
            ("chunk_bytes", "its byte count, 1..8"),
            ("chunk_last", "it is its packet's last chunk"),
            ("chunk_bad", "its packet failed the CRC check"),
            ("token_in", "a downstream credit (one byte of room freed)"),
            ("link_valid", "the output register holds a byte (the link pins)"),
            ("link_byte", "that byte; 0 when not valid"),
            ("free", "free for the crossbar: idle, no queue packet inside, load 0"),
            ("wants", "asks the central queue for a chunk (prefetch empty, no read in flight; on the \
                       crossbar only with the serializer empty: the next queued packet's first chunk \
                       is read while the crossbar packet streams)"),
            ("queued", "something of the queue path is inside (serializer, prefetch, read in flight, CRC \
                        due): with the source on the crossbar, the output takes no new crossbar packet"),
            ("takes", "takes its crossbar receiver's offer this cycle (source crossbar, credit left)"),
            ("src_xbar", "the source is the crossbar"),
            ("src_rx", "its receiver (0 otherwise)"),
            ("credit_overflow", "sticky: a token arrived with the credit already full (it was ignored)"),
        ]),
        latency: "outputs but credit_overflow are combinational from the registers and load; a byte \
                  offered or serialized in cycle t is on the link pins in cycle t + 1; the credit starts \
                  at 16"
            .into(),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// A token with the credit full raises the sticky `credit_overflow` and leaves the credit at its limit
    /// (the model's `TxError::CreditOverflow`).
    #[test]
    fn a_token_at_full_credit_is_flagged() {
        let mut uut = Sp2Transmitter::default();
        uut.connect_all();
        let edge = |uut: &mut Sp2Transmitter, token: bool| {
            uut.token_in.next = token;
            uut.clock.next = false.into();
            assert!(simulate(uut, 100));
            uut.clock.next = true.into();
            assert!(simulate(uut, 100));
        };
        edge(&mut uut, false);
        assert!(!uut.credit_overflow.val());
        assert_eq!(uut.credit.q.val().to_u64(), RX_DEPTH as u64);
        edge(&mut uut, true);
        edge(&mut uut, false);
        assert!(
            uut.credit_overflow.val(),
            "token at full credit not flagged"
        );
        assert_eq!(uut.credit.q.val().to_u64(), RX_DEPTH as u64);
        edge(&mut uut, false);
        assert!(uut.credit_overflow.val(), "the flag is sticky");
    }
}

//! The v3 receiver's arrival tracker (`asr_model::sp2::v3::receiver::Arrival`): follows the packet
//! boundaries on the link pins (`LEN`, `R1`, then `LEN` more bytes), runs the CRC over the arriving bytes,
//! tags every byte it stores, absorbs the bytes consumed at arrival (a header that goes into the header
//! FIFO, a malformed packet's bytes) and counts CRC and route errors.
//!
//! Ports: in `clock`; `pins_valid`, `pins[7:0]` (the link pins); `hdr_room` (the header FIFO takes this
//! `LEN`'s header: fewer than two entries and no packet without one waiting; read at a `LEN`). Out, for the
//! cycle (combinational from the pins and the tracker's registers): `store`, `tag[10:0]` (a body FIFO entry,
//! [`super::tag_bits`]); `absorbed` (a byte consumed at arrival: one token owed); `len_stored` (a `LEN`
//! stored without a header entry); `hdr_push`, `hdr_len[7:0]`, `hdr_set[7:0]` (a header for the header
//! FIFO: its `LEN − 1`, from the decrementer of `ar_n`, and `R1`). Registered: `crc_errors[7:0]`, `route_errors[7:0]` (modulo 256).
//!
//! Registers: the state one-hot with `Len` implied (`a_route`, `a_rest`); `ar_n`, the `LEN` in `Route` and
//! the bytes left in `Rest` (one register for both); `ar_headed`, `ar_drop`; the running CRC `acrc` (loaded
//! on every byte: its value only matters on the way through a packet); the body's last byte `lastb`, kept
//! until the CRC arrives to be stored with the verdict.

use super::body_fifo::TAG_BITS;
use crate::sp2::crc8::Crc8Step;
use rust_hdl::prelude::*;

/// The arrival tracker; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct Tracker {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// A byte on the link pins.
    pub pins_valid: Signal<In, Bit>,
    /// The byte.
    pub pins: Signal<In, Bits<8>>,
    /// The header FIFO has room for a header decided at this `LEN`.
    pub hdr_room: Signal<In, Bit>,
    /// A body FIFO entry this cycle.
    pub store: Signal<Out, Bit>,
    /// The entry (with `store`).
    pub tag: Signal<Out, Bits<TAG_BITS>>,
    /// A byte consumed at arrival.
    pub absorbed: Signal<Out, Bit>,
    /// A `LEN` stored in the body FIFO (its packet has no header entry).
    pub len_stored: Signal<Out, Bit>,
    /// A header for the header FIFO.
    pub hdr_push: Signal<Out, Bit>,
    /// Its `LEN − 1`.
    pub hdr_len: Signal<Out, Bits<8>>,
    /// Its `R1`.
    pub hdr_set: Signal<Out, Bits<8>>,
    /// CRC errors modulo 256; registered.
    pub crc_errors: Signal<Out, Bits<8>>,
    /// Route errors (`LEN = 0` or `R1 = 0`) modulo 256; registered.
    pub route_errors: Signal<Out, Bits<8>>,
    /// Expecting `R1`.
    pub a_route: DFF<Bit>,
    /// Expecting the rest of the packet.
    pub a_rest: DFF<Bit>,
    /// `LEN` (in `Route`), bytes left with the CRC (in `Rest`).
    pub ar_n: DFF<Bits<8>>,
    /// The header goes into the header FIFO.
    pub ar_headed: DFF<Bit>,
    /// The rest is dropped.
    pub ar_drop: DFF<Bit>,
    /// The running CRC.
    pub acrc: DFF<Bits<8>>,
    /// The body's last byte is here.
    pub lastb_v: DFF<Bit>,
    /// The body's last byte.
    pub lastb: DFF<Bits<8>>,
    /// CRC error count.
    pub n_crc: DFF<Bits<8>>,
    /// Route error count.
    pub n_route: DFF<Bits<8>>,
    crc_step: Crc8Step,
    a_len: Signal<Local, Bit>,
    zero: Signal<Local, Bit>,
    bad: Signal<Local, Bit>,
    end_tag: Signal<Local, Bits<TAG_BITS>>,
    n_dec: Signal<Local, Bits<8>>,
}

impl Logic for Tracker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_route, a_rest, ar_n, ar_headed, ar_drop, acrc, lastb_v, lastb, n_crc,
            n_route
        );
        self.crc_errors.next = self.n_crc.q.val();
        self.route_errors.next = self.n_route.q.val();
        self.a_len.next = !self.a_route.q.val() & !self.a_rest.q.val();
        self.zero.next = self.pins.val() == 0;
        self.crc_step.crc.next = self.acrc.q.val();
        if self.a_len.val() {
            self.crc_step.crc.next = 0.into();
        }
        self.crc_step.data.next = self.pins.val();
        self.bad.next = self.pins.val() != self.acrc.q.val();
        // The CRC byte's entry: the last body byte with the verdict, or the end of an empty body.
        self.end_tag.next = bit_cast::<TAG_BITS, 8>(self.lastb.q.val()) | 0x100;
        if self.bad.val() {
            self.end_tag.next = bit_cast::<TAG_BITS, 8>(self.lastb.q.val()) | 0x200;
        }
        if !self.lastb_v.q.val() {
            self.end_tag.next = 0x300.into();
            if self.bad.val() {
                self.end_tag.next = 0x301.into();
            }
        }
        self.store.next = false;
        self.tag.next = bit_cast::<TAG_BITS, 8>(self.pins.val());
        self.absorbed.next = false;
        self.len_stored.next = false;
        self.hdr_push.next = false;
        self.n_dec.next = self.ar_n.q.val() - 1;
        self.hdr_len.next = self.n_dec.val();
        self.hdr_set.next = self.pins.val();
        if self.pins_valid.val() {
            self.acrc.d.next = self.crc_step.crc_out.val();
            if self.a_len.val() {
                self.ar_n.d.next = self.pins.val();
                self.a_route.d.next = true;
                self.ar_headed.d.next = self.hdr_room.val();
                if self.zero.val() {
                    self.n_route.d.next = self.n_route.q.val() + 1;
                    self.absorbed.next = true;
                    self.a_route.d.next = false;
                    self.a_rest.d.next = true;
                    self.ar_n.d.next = 1.into();
                    self.ar_drop.d.next = true;
                } else if self.hdr_room.val() {
                    self.absorbed.next = true;
                } else {
                    self.store.next = true;
                    self.tag.next = bit_cast::<TAG_BITS, 8>(self.pins.val()) | 0x400;
                    self.len_stored.next = true;
                }
            }
            if self.a_route.q.val() {
                if self.zero.val() {
                    self.n_route.d.next = self.n_route.q.val() + 1;
                }
                if self.ar_headed.q.val() {
                    self.absorbed.next = true;
                    self.hdr_push.next = !self.zero.val();
                } else {
                    self.store.next = true;
                    self.tag.next = bit_cast::<TAG_BITS, 8>(self.pins.val()) | 0x400;
                    if self.zero.val() {
                        self.tag.next = 0x500.into();
                    }
                }
                self.a_route.d.next = false;
                self.a_rest.d.next = true;
                self.ar_drop.d.next = self.zero.val();
            }
            if self.a_rest.q.val() {
                if self.ar_drop.q.val() {
                    self.absorbed.next = true;
                } else if (self.ar_n.q.val().get_bits::<6>(2) != 0)
                    | (self.ar_n.q.val().get_bits::<2>(0) == 3)
                {
                    self.store.next = true;
                    self.tag.next = bit_cast::<TAG_BITS, 8>(self.pins.val());
                } else if self.ar_n.q.val() == 2 {
                    self.lastb_v.d.next = true;
                    self.lastb.d.next = self.pins.val();
                } else {
                    self.store.next = true;
                    self.tag.next = self.end_tag.val();
                    self.lastb_v.d.next = false;
                    if self.bad.val() {
                        self.n_crc.d.next = self.n_crc.q.val() + 1;
                    }
                }
                self.ar_n.d.next = self.n_dec.val();
                if self.ar_n.q.val() == 1 {
                    self.a_rest.d.next = false;
                }
            }
        }
    }
}

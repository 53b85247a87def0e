//! The central queue's 8 byte-sliced banks ([`Banks`]): entry j of chunk c at address c of bank j, each
//! bank a block RAM (`RAM<10 bits, 128>`, no initial contents) with one write and one read port.
//!
//! Ports: in `clock`, `t[2:0]` (the slot counter: receiver r writes bank `(r + t) mod 8`), `wr_valid[7:0]`,
//! `wr_chunk[55:0]` (7 bits per receiver), `wr_entry[79:0]` (10 bits per receiver), `read_address[6:0]`;
//! out `data[79:0]` (the chunk read at the last edge, bank j at bits `[10j +: 10]`: the RAMs' output
//! registers) and `ends` (one of its entries is a last or end entry, from `data`).
//!
//! Write ports: bank b takes receiver `(b − t) mod 8`'s write, the eight receivers' writes (valid, chunk,
//! entry: 18-bit lanes) rotated by `t` in a three-stage barrel. Latency: a read address of cycle t is on
//! `data` in t + 1; a write of cycle t is read from t + 1 on.

use crate::parts::{locals, port_offsets};
use rust_hdl::prelude::*;

/// The 8 banks and their write rotation; see the module documentation.
#[derive(LogicBlock)]
pub struct Banks {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The slot counter `t mod 8`.
    pub t: Signal<In, Bits<3>>,
    /// Bit r: receiver r writes.
    pub wr_valid: Signal<In, Bits<8>>,
    /// 7 bits per receiver: the chunk of its write.
    pub wr_chunk: Signal<In, Bits<56>>,
    /// 10 bits per receiver: its entry.
    pub wr_entry: Signal<In, Bits<80>>,
    /// The chunk to read.
    pub read_address: Signal<In, Bits<7>>,
    /// The chunk read at the last edge, bank j at bits `[10j +: 10]`.
    pub data: Signal<Out, Bits<80>>,
    /// One of its entries is a last or end entry.
    pub ends: Signal<Out, Bit>,
    /// The banks.
    pub bank: Vec<RAM<Bits<10>, 7>>,
    o7: Vec<Constant<Bits<16>>>,
    o10: Vec<Constant<Bits<16>>>,
    rv: Vec<Signal<Local, Bits<8>>>,
    rcw: Vec<Signal<Local, Bits<56>>>,
    rew: Vec<Signal<Local, Bits<80>>>,
    eacc: Vec<Signal<Local, Bit>>,
}

impl Default for Banks {
    fn default() -> Self {
        Banks {
            clock: Default::default(),
            t: Default::default(),
            wr_valid: Default::default(),
            wr_chunk: Default::default(),
            wr_entry: Default::default(),
            read_address: Default::default(),
            data: Default::default(),
            ends: Default::default(),
            bank: (0..8).map(|_| Default::default()).collect(),
            o7: port_offsets(7),
            o10: port_offsets(10),
            rv: locals(4),
            rcw: locals(4),
            rew: locals(4),
            eacc: locals(9),
        }
    }
}

impl Logic for Banks {
    #[hdl_gen]
    fn update(&mut self) {
        // Lane r (receiver r) rotated to bank (r + t) mod 8.
        self.rv[0].next = self.wr_valid.val();
        self.rcw[0].next = self.wr_chunk.val();
        self.rew[0].next = self.wr_entry.val();
        if self.t.val().get_bit(0) {
            self.rv[1].next = (self.rv[0].val() << 1) | (self.rv[0].val() >> 7);
            self.rcw[1].next = (self.rcw[0].val() << 7) | (self.rcw[0].val() >> 49);
            self.rew[1].next = (self.rew[0].val() << 10) | (self.rew[0].val() >> 70);
        } else {
            self.rv[1].next = self.rv[0].val();
            self.rcw[1].next = self.rcw[0].val();
            self.rew[1].next = self.rew[0].val();
        }
        if self.t.val().get_bit(1) {
            self.rv[2].next = (self.rv[1].val() << 2) | (self.rv[1].val() >> 6);
            self.rcw[2].next = (self.rcw[1].val() << 14) | (self.rcw[1].val() >> 42);
            self.rew[2].next = (self.rew[1].val() << 20) | (self.rew[1].val() >> 60);
        } else {
            self.rv[2].next = self.rv[1].val();
            self.rcw[2].next = self.rcw[1].val();
            self.rew[2].next = self.rew[1].val();
        }
        if self.t.val().get_bit(2) {
            self.rv[3].next = (self.rv[2].val() << 4) | (self.rv[2].val() >> 4);
            self.rcw[3].next = (self.rcw[2].val() << 28) | (self.rcw[2].val() >> 28);
            self.rew[3].next = (self.rew[2].val() << 40) | (self.rew[2].val() >> 40);
        } else {
            self.rv[3].next = self.rv[2].val();
            self.rcw[3].next = self.rcw[2].val();
            self.rew[3].next = self.rew[2].val();
        }
        self.eacc[0].next = false;
        for b in 0..8 {
            self.bank[b].read_clock.next = self.clock.val();
            self.bank[b].write_clock.next = self.clock.val();
            self.bank[b].write_enable.next = self.rv[3].val().get_bit(b);
            self.bank[b].write_address.next =
                self.rcw[3].val().get_bits::<7>(self.o7[b].val().index());
            self.bank[b].write_data.next =
                self.rew[3].val().get_bits::<10>(self.o10[b].val().index());
            self.bank[b].read_address.next = self.read_address.val();
            self.eacc[b + 1].next = self.eacc[b].val()
                | self.bank[b].read_data.val().get_bit(8)
                | self.bank[b].read_data.val().get_bit(9);
        }
        self.ends.next = self.eacc[8].val();
        // (`bit_cast` of an indexed signal inside a loop loses the index in `hdl_gen`: unrolled.)
        self.data.next = bit_cast::<80, 10>(self.bank[0].read_data.val())
            | (bit_cast::<80, 10>(self.bank[1].read_data.val()) << 10)
            | (bit_cast::<80, 10>(self.bank[2].read_data.val()) << 20)
            | (bit_cast::<80, 10>(self.bank[3].read_data.val()) << 30)
            | (bit_cast::<80, 10>(self.bank[4].read_data.val()) << 40)
            | (bit_cast::<80, 10>(self.bank[5].read_data.val()) << 50)
            | (bit_cast::<80, 10>(self.bank[6].read_data.val()) << 60)
            | (bit_cast::<80, 10>(self.bank[7].read_data.val()) << 70);
    }
}

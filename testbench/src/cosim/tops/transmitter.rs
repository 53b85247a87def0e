//! `transmitter`: the SP2 transmitter against `asr_model::sp2::transmitter::Transmitter`. The stimulus
//! plays the rest of the switch as `Sp2Switch::step` does for one output: crossbar grants only when the
//! transmitter is free, a connected receiver filling its crossbar register only when the transmitter has
//! room (the held byte at once in the grant cycle), central-queue packets (chunks of 8 bytes, a shorter
//! last one, junk above the valid bytes, bad flags) read when the transmitter wants a chunk and delivered
//! the next cycle, and downstream tokens returned with random delay.

use crate::cosim::{Frame, Top};
use crate::harness::rng;
use asr_model::sp2::central_queue::ReadChunk;
use asr_model::sp2::receiver::XbarByte;
use asr_model::sp2::transmitter::{Source, Transmitter};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

crate::rusthdl_io!(
    TransmitterIo,
    asr_hdl::sp2::transmitter::Transmitter,
    clocked,
    [
        grant,
        grant_rx,
        xbar_valid,
        xbar_byte,
        xbar_last,
        xbar_bad,
        rd_grant,
        chunk_valid,
        chunk_data,
        chunk_bytes,
        chunk_last,
        chunk_bad,
        token_in,
        queued
    ],
    [
        link_valid,
        link_byte,
        free_xbar,
        wants_chunk,
        room0,
        room1,
        src_xbar,
        src_rx
    ]
);

pub struct TransmitterTop {
    rng: Xoshiro256PlusPlus,
    t: Transmitter,
    /// The central queue's chunks for this output.
    queue: VecDeque<ReadChunk>,
    in_flight: Option<ReadChunk>,
    /// The connected receiver's crossbar register, bytes it still has to send, and whether its packet is bad.
    rx_reg: Option<XbarByte>,
    rx_left: usize,
    rx_bad: bool,
    sent: u64,
    no_credit: u64,
}

impl TransmitterTop {
    pub fn new(seed: u64) -> Self {
        TransmitterTop {
            rng: rng(seed ^ 0x7a),
            t: Transmitter::default(),
            queue: VecDeque::new(),
            in_flight: None,
            rx_reg: None,
            rx_left: 0,
            rx_bad: false,
            sent: 0,
            no_credit: 0,
        }
    }
}

impl Top for TransmitterTop {
    fn name(&self) -> &str {
        "transmitter"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        // 0: mixed, 1: queue-heavy with little credit, 2: crossbar-heavy.
        let (p_pkt, p_grant, p_tok) =
            [(0.03, 0.3, 0.6), (0.1, 0.05, 0.3), (0.0, 0.8, 0.9)][((n / 3000) % 3) as usize];
        let (rng, t) = (&mut self.rng, &mut self.t);
        let queued = self.queue.len().min(255) as u8;
        let free_xbar = t.free_for_xbar(queued);
        let wants = t.wants_chunk(queued);
        let src = match t.source {
            Source::Xbar(i) => Some(i),
            _ => None,
        };
        expect.put("link_valid", t.out_reg.is_some() as u64, 1);
        expect.put("link_byte", t.out_reg.unwrap_or(0) as u64, 8);
        expect.put("free_xbar", free_xbar as u64, 1);
        expect.put("wants_chunk", wants as u64, 1);
        expect.put("room0", t.xbar_room(false) as u64, 1);
        expect.put("room1", t.xbar_room(true) as u64, 1);
        expect.put("src_xbar", src.is_some() as u64, 1);
        expect.put("src_rx", src.unwrap_or(0) as u64, 3);
        self.sent += t.out_reg.is_some() as u64;
        let chunk = self.in_flight.take();
        // Crossbar: the connected receiver's register (seen only once the source is Xbar).
        let xbar = if src.is_some() { self.rx_reg } else { None };
        let room = t.xbar_room(self.rx_reg.is_some());
        let mut grant = None;
        if free_xbar && self.rx_left == 0 && rng.gen_bool(p_grant) {
            grant = Some(rng.gen_range(0..8u8));
            self.rx_left = rng.gen_range(1..=24);
            self.rx_bad = rng.gen_bool(0.2);
        }
        let connected = grant.is_some() || src.is_some();
        let can = if grant.is_some() {
            t.xbar_room(false)
        } else {
            room
        };
        self.rx_reg = None;
        if connected && self.rx_left > 0 && can && (grant.is_some() || rng.gen_bool(0.8)) {
            self.rx_left -= 1;
            self.rx_reg = Some(XbarByte {
                byte: rng.gen(),
                last: (self.rx_left == 0).then_some(self.rx_bad),
            });
        }
        // Central queue: new packets, and a read when the transmitter wants a chunk.
        if self.queue.len() < 24 && rng.gen_bool(p_pkt) {
            let len = rng.gen_range(1..=40usize);
            let bad = rng.gen_bool(0.2);
            let chunks = len.div_ceil(8);
            for k in 0..chunks {
                let last = k + 1 == chunks;
                self.queue.push_back(ReadChunk {
                    out: 0,
                    data: rng.gen(),
                    bytes: if last { (len - 8 * k) as u8 } else { 8 },
                    last,
                    bad,
                });
            }
        }
        let mut rd_grant = false;
        if wants && rng.gen_bool(0.7) {
            rd_grant = true;
            self.in_flight = self.queue.pop_front();
        }
        let token = t.credit < 16 && rng.gen_bool(p_tok);
        pins.put("grant", grant.is_some() as u64, 1);
        pins.put("grant_rx", grant.unwrap_or(0) as u64, 3);
        pins.put("xbar_valid", xbar.is_some() as u64, 1);
        pins.put("xbar_byte", xbar.map_or(0, |x| x.byte) as u64, 8);
        pins.put(
            "xbar_last",
            xbar.is_some_and(|x| x.last.is_some()) as u64,
            1,
        );
        pins.put(
            "xbar_bad",
            xbar.is_some_and(|x| x.last == Some(true)) as u64,
            1,
        );
        pins.put("rd_grant", rd_grant as u64, 1);
        pins.put("chunk_valid", chunk.is_some() as u64, 1);
        pins.put("chunk_data", chunk.map_or(0, |c| c.data), 64);
        pins.put("chunk_bytes", chunk.map_or(0, |c| c.bytes) as u64, 4);
        pins.put("chunk_last", chunk.is_some_and(|c| c.last) as u64, 1);
        pins.put("chunk_bad", chunk.is_some_and(|c| c.bad) as u64, 1);
        pins.put("token_in", token as u64, 1);
        pins.put("queued", queued as u64, 8);
        // The model, as Sp2Switch::step drives it.
        if let Some(i) = grant {
            t.source = Source::Xbar(i);
        }
        if rd_grant {
            t.reading = true;
        }
        t.cycle(xbar, chunk, token);
        self.no_credit += (t.credit == 0) as u64;
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.t.packets_xbar + self.t.packets_queue
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("bytes_sent", self.sent),
            ("xbar_packets", self.t.packets_xbar),
            ("queue_packets", self.t.packets_queue),
            ("cycles_without_credit", self.no_credit),
        ]
    }
}

//! `sp2_transmitter_v2`: the v2 transmitter against `asr_model::sp2::v2::transmitter::Transmitter`, every
//! output every cycle.
//!
//! Stimulus: the rest of the switch for one output, as `Sp2V2Switch` drives it. The central queue holds
//! packets of 1–255 bytes (`asr_model::sp2::stimulus`: the whole legal range, its corners often) for this output as chunks of 8 bytes (a shorter last one, random junk above the
//! valid bytes, a bad flag on some packets); `load` is its chunks plus a random number promised; a read is
//! granted only when the transmitter `wants` and the queue has a chunk, and the chunk arrives the next
//! cycle. A crossbar grant comes only when the transmitter is `free`; the granted receiver then offers the
//! packet's bytes (with gaps: an empty FIFO) and its end with a CRC verdict, advancing only when the
//! transmitter `takes`. Offers are driven on the pins even when the transmitter does not take them, and
//! junk offers while it is not on the crossbar: the block must ignore them, as the model (which only sees
//! taken offers) does. Downstream tokens come back at random rates, never above the credit's limit.
//! Phases of 3 000 cycles: mixed, queue-heavy with little credit, crossbar-heavy, queue-only with full
//! credit (back-to-back chunks at one byte per cycle).
//!
//! Scoreboard (model side): the link bytes are exactly the packets' bytes in order, each packet followed by
//! the CRC-8 of its bytes (inverted when bad), nothing lost, duplicated or reordered.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use asr_model::sp2::crc8_step;
use asr_model::sp2::v2::central_queue::Chunk;
use asr_model::sp2::v2::receiver::Offer;
use asr_model::sp2::v2::transmitter::{Transmitter, TxDecide, TxSrc};
use asr_model::sp2::RX_DEPTH;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

crate::rusthdl_io!(
    Sp2TransmitterIo,
    asr_hdl::sp2::v2::transmitter::Sp2Transmitter,
    clocked,
    [
        load,
        grant,
        grant_rx,
        offer_valid,
        offer_byte,
        offer_end,
        offer_bad,
        read,
        chunk_valid,
        chunk_data,
        chunk_bytes,
        chunk_last,
        chunk_bad,
        token_in
    ],
    [
        link_valid,
        link_byte,
        free,
        wants,
        queued,
        takes,
        src_xbar,
        src_rx,
        credit_overflow
    ]
);

/// Cycles per stimulus phase.
const PHASE: u64 = 3_000;

/// The `sp2_transmitter_v2` definition: the queue, crossbar and downstream stimulus, the model transmitter
/// and the link-byte scoreboard of the module documentation.
pub struct Sp2TransmitterTop {
    rng: Xoshiro256PlusPlus,
    t: Transmitter,
    /// The central queue's chunks for this output, and the chunk read last cycle.
    queue: VecDeque<Chunk>,
    arriving: Option<Chunk>,
    /// The granted receiver's packet: bytes still to offer, its verdict.
    rx_bytes: VecDeque<u8>,
    rx_bad: bool,
    rx_on: bool,
    /// Link bytes the model must send, in order.
    expect_link: VecDeque<u8>,
    draining: bool,
    sent: u64,
    no_credit: u64,
    back_to_back: u64,
    prev_link: bool,
    junk_offers: u64,
}

impl Sp2TransmitterTop {
    /// An idle transmitter, an empty queue and stimulus drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        Sp2TransmitterTop {
            rng: rng(seed ^ 0x7a2),
            t: Transmitter::default(),
            queue: VecDeque::new(),
            arriving: None,
            rx_bytes: VecDeque::new(),
            rx_bad: false,
            rx_on: false,
            expect_link: VecDeque::new(),
            draining: false,
            sent: 0,
            no_credit: 0,
            back_to_back: 0,
            prev_link: false,
            junk_offers: 0,
        }
    }

    /// The packet's bytes and its CRC byte, queued for the scoreboard.
    fn expect_packet(&mut self, bytes: &[u8], bad: bool) {
        let crc = bytes.iter().fold(0u8, |c, &b| crc8_step(c, b));
        self.expect_link.extend(bytes.iter().copied());
        self.expect_link.push_back(crc ^ if bad { 0xff } else { 0 });
    }
}

impl Top for Sp2TransmitterTop {
    fn name(&self) -> &str {
        "sp2_transmitter_v2"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        // (new queue packet, crossbar grant, token, read, receiver has a byte)
        let (p_pkt, p_grant, p_tok, p_read, p_byte) = [
            (0.03, 0.3, 0.6, 0.7, 0.8),
            (0.1, 0.05, 0.25, 0.9, 0.9),
            (0.0, 0.8, 0.9, 0.5, 0.7),
            (0.2, 0.0, 1.0, 1.0, 1.0),
        ][((n / PHASE) % 4) as usize];
        let (p_pkt, p_grant) = if self.draining {
            (0.0, 0.0)
        } else {
            (p_pkt, p_grant)
        };
        let promised: u8 = if self.rng.gen_bool(0.1) {
            self.rng.gen_range(1..4)
        } else {
            0
        };
        let load = (self.queue.len() + promised as usize).min(255) as u8;
        let v = self.t.view(load);
        let src = match self.t.src {
            TxSrc::Xbar(i) => Some(i),
            _ => None,
        };
        expect.put("link_valid", v.link.is_some() as u64, 1);
        expect.put("link_byte", v.link.unwrap_or(0) as u64, 8);
        expect.put("free", v.free as u64, 1);
        expect.put("wants", v.wants as u64, 1);
        expect.put("queued", v.queued as u64, 1);
        expect.put("takes", v.takes as u64, 1);
        expect.put("src_xbar", src.is_some() as u64, 1);
        expect.put("src_rx", src.unwrap_or(0) as u64, 3);
        expect.put("credit_overflow", 0, 1);
        // The scoreboard: the byte on the link.
        if let Some(b) = v.link {
            match self.expect_link.pop_front() {
                Some(e) if e == b => {}
                Some(e) => {
                    return Err(format!(
                        "cycle {n}: link byte {b:#04x}, expected {e:#04x} (byte {})",
                        self.sent
                    ))
                }
                None => return Err(format!("cycle {n}: link byte {b:#04x} not expected")),
            }
            self.sent += 1;
            self.back_to_back += self.prev_link as u64;
        }
        self.prev_link = v.link.is_some();
        let rng = &mut self.rng;
        // Crossbar: a grant only when free; the connected receiver's offer.
        let mut grant = None;
        if v.free && rng.gen_bool(p_grant) {
            let i = rng.gen_range(0..8u8);
            grant = Some(i);
            // The outgoing packet: `LEN − 1` and the body, 1..=255 bytes (the whole legal range).
            let len = 1 + asr_model::sp2::stimulus::payload_len(rng, 1);
            let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            self.rx_bad = rng.gen_bool(0.2);
            self.rx_bytes = bytes.iter().copied().collect();
            self.rx_on = true;
            let bad = self.rx_bad;
            self.expect_packet(&bytes, bad);
        }
        let rng = &mut self.rng;
        let mut offer = None;
        if src.is_some() && self.rx_on && rng.gen_bool(p_byte) {
            offer = Some(match self.rx_bytes.front() {
                Some(&b) => Offer::Byte(b),
                None => Offer::End { bad: self.rx_bad },
            });
        }
        let taken = offer.filter(|_| v.takes);
        if let Some(o) = taken {
            match o {
                Offer::Byte(_) => {
                    self.rx_bytes.pop_front();
                }
                Offer::End { .. } => self.rx_on = false,
            }
        }
        // Junk on the offer pins while not on the crossbar (the switch's multiplexer may show anything).
        let pin_offer = if src.is_none() && rng.gen_bool(0.2) {
            self.junk_offers += 1;
            Some(if rng.gen_bool(0.3) {
                Offer::End {
                    bad: rng.gen_bool(0.5),
                }
            } else {
                Offer::Byte(rng.gen())
            })
        } else {
            offer
        };
        // Central queue: a read when the transmitter wants a chunk, the chunk read last cycle arriving.
        let rng = &mut self.rng;
        let chunk = self.arriving.take();
        let read = v.wants && !self.queue.is_empty() && rng.gen_bool(p_read);
        if read {
            self.arriving = self.queue.pop_front();
        }
        // New queue packets (after the read: a chunk admitted now is not readable yet, and `load` was 0
        // for a grant).
        let rng = &mut self.rng;
        if self.queue.len() < 24 && rng.gen_bool(p_pkt) {
            let len = 1 + asr_model::sp2::stimulus::payload_len(rng, 1);
            let bad = rng.gen_bool(0.2);
            let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            for (k, c) in bytes.chunks(8).enumerate() {
                let valid = c
                    .iter()
                    .enumerate()
                    .fold(0u64, |a, (j, &b)| a | (b as u64) << (8 * j));
                let junk = if c.len() < 8 {
                    rng.gen::<u64>() << (8 * c.len())
                } else {
                    0
                };
                self.queue.push_back(Chunk {
                    data: valid | junk,
                    bytes: c.len() as u8,
                    last: 8 * (k + 1) >= len,
                    bad,
                });
            }
            self.expect_packet(&bytes, bad);
        }
        let rng = &mut self.rng;
        let token = (self.t.credit as usize) < RX_DEPTH && rng.gen_bool(p_tok);
        pins.put("load", load as u64, 8);
        pins.put("grant", grant.is_some() as u64, 1);
        pins.put("grant_rx", grant.unwrap_or(0) as u64, 3);
        pins.put("offer_valid", pin_offer.is_some() as u64, 1);
        pins.put(
            "offer_byte",
            match pin_offer {
                Some(Offer::Byte(b)) => b as u64,
                _ => 0,
            },
            8,
        );
        pins.put(
            "offer_end",
            matches!(pin_offer, Some(Offer::End { .. })) as u64,
            1,
        );
        pins.put(
            "offer_bad",
            matches!(pin_offer, Some(Offer::End { bad: true })) as u64,
            1,
        );
        pins.put("read", read as u64, 1);
        pins.put("chunk_valid", chunk.is_some() as u64, 1);
        pins.put("chunk_data", chunk.map_or(0, |c| c.data), 64);
        pins.put("chunk_bytes", chunk.map_or(0, |c| c.bytes) as u64, 4);
        pins.put("chunk_last", chunk.is_some_and(|c| c.last) as u64, 1);
        pins.put("chunk_bad", chunk.is_some_and(|c| c.bad) as u64, 1);
        pins.put("token_in", token as u64, 1);
        // The model, as the switch commits it.
        let d = TxDecide {
            grant,
            offer: taken,
            read,
            chunk,
            token,
        };
        self.t
            .commit(&d)
            .map_err(|e| format!("cycle {n}: transmitter: {e}"))?;
        self.no_credit += (self.t.credit == 0) as u64;
        Ok(())
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.expect_link.is_empty()
            && self.queue.is_empty()
            && self.arriving.is_none()
            && !self.rx_on
            && self.t.is_idle()
            && self.t.out_reg.is_none()
    }

    fn drain_limit(&self) -> u64 {
        // 24 queued chunks of 8 bytes with a slow downstream.
        20_000
    }

    fn packets(&self) -> u64 {
        self.t.packets_xbar + self.t.packets_queue
    }

    fn finish(&mut self) -> Result<(), String> {
        if !self.expect_link.is_empty() {
            return Err(format!("{} link bytes never sent", self.expect_link.len()));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("bytes_sent", self.sent),
            ("xbar_packets", self.t.packets_xbar),
            ("queue_packets", self.t.packets_queue),
            ("cycles_without_credit", self.no_credit),
            ("back_to_back_bytes", self.back_to_back),
            ("junk_offers", self.junk_offers),
        ]
    }
}

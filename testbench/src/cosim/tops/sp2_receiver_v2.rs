//! `sp2_receiver_v2`: the SP2 v2 receiver (`asr_hdl::sp2::v2::receiver::Receiver`) against its model twin
//! `asr_model::sp2::v2::receiver::Receiver`, driven as `Sp2SwitchV2` drives one receiver: each cycle the
//! model's [`Receiver::view`] gives every output, then the cycle's decisions are drawn at random among those a
//! switch could make from that view, and [`Receiver::commit`] applies them.
//!
//! Stimulus (seeded): an upstream sender that respects its credit (`RX_DEPTH`, one back per token) and sends
//! random packets — good ones (route sets, lengths 1..=40 with many short ones, so that the look-ahead and its
//! `LaStart` are frequent), bad CRCs, one flipped bit anywhere in the packet (in `LEN` it moves the packet
//! boundaries, in `R1` it may make a route error), `R1 = 0` and `LEN = 0` (sometimes a burst of 8–12 of them,
//! so that the FIFO holds 8 packet starts); a crossbar grant only when the receiver counts as waiting (in
//! `Wait`, or streaming with a look-ahead request in the cycle its packet ends),
//! to a member of its request; queue admission only when it may ask for it and is not granted; `takes` (its
//! transmitter has credit) at random, `taken` = `takes` and an offer; `written` only with a ready chunk. The
//! probabilities change every 2 000 cycles among a busy, a sparse, a saturated phase and one where the
//! crossbar is contended and the queue's write port is mostly given to other receivers. The error counters are
//! compared modulo 256 (8-bit ports).

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use asr_model::sp2::v2::allocator::LATENCY;
use asr_model::sp2::v2::receiver::{Arrival, Offer, Receiver, RxDecide, RxState};
use asr_model::sp2::{crc8, CHUNK, RX_DEPTH};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

crate::rusthdl_io!(
    ReceiverV2Io,
    asr_hdl::sp2::v2::receiver::Receiver,
    clocked,
    [link_valid, link_byte, grant, grant_out, admitted, taken, written, takes],
    [
        token_out,
        req,
        waiting,
        may_queue,
        adm_set,
        chunks,
        offer_valid,
        offer_byte,
        offer_end,
        offer_bad,
        ready_valid,
        ready_data,
        ready_bytes,
        ready_last,
        ready_bad,
        soon,
        at_end,
        wait_spec,
        spec_set,
        crc_errors,
        route_errors
    ]
);

/// One packet as an upstream switch or node could send it, sometimes malformed.
fn random_packet(rng: &mut Xoshiro256PlusPlus) -> Vec<u8> {
    let mut p = match rng.gen_range(0..22) {
        // `LEN = 0`, sometimes a burst of them from a broken sender: 8 fill the FIFO with packet starts.
        0 => {
            let n = if rng.gen_bool(0.25) {
                rng.gen_range(8..=12)
            } else {
                1
            };
            [0, crc8(&[0])].repeat(n)
        }
        1 => {
            let len = rng.gen_range(1..=12u8);
            let mut p = vec![len, 0];
            p.extend((1..len).map(|_| rng.gen::<u8>()));
            p.push(crc8(&p));
            p
        }
        k => {
            let len = match k {
                2..=9 => rng.gen_range(1..=4u8),
                10..=17 => rng.gen_range(5..=12u8),
                // The whole legal range (`LEN` 1..=255), its corners often.
                _ => 1 + asr_model::sp2::stimulus::payload_len(rng, 1) as u8,
            };
            let set = rng.gen_range(1..=255u8);
            let mut p = vec![len, set];
            p.extend((1..len).map(|_| rng.gen::<u8>()));
            let c = crc8(&p);
            p.push(if rng.gen_bool(0.05) { c ^ 0x5a } else { c });
            p
        }
    };
    if rng.gen_bool(0.04) {
        // One flipped bit anywhere: in `LEN` it moves the boundaries of what follows.
        let k = rng.gen_range(0..p.len());
        p[k] ^= 1 << rng.gen_range(0..8);
    }
    p
}

fn random_member(rng: &mut Xoshiro256PlusPlus, set: u8) -> u8 {
    let members: Vec<u8> = (0..8).filter(|&o| set >> o & 1 == 1).collect();
    members[rng.gen_range(0..members.len())]
}

/// The `sp2_receiver_v2` definition: the upstream sender, the switch's random decisions and the model
/// receiver of the module documentation.
pub struct ReceiverV2Top {
    rng: Xoshiro256PlusPlus,
    r: Receiver,
    stream: VecDeque<u8>,
    credit: usize,
    draining: bool,
    xbar_packets: u64,
    la_starts: u64,
    /// Look-ahead starts after a packet on the queue path or a dropped one (the rest follow a crossbar packet).
    la_after_queue: u64,
    la_after_drop: u64,
    /// Cycles with a full assembly waiting for the ready slot.
    ready_stalls: u64,
    queue_packets: u64,
    chunks: u64,
    bad_flagged: u64,
    fifo_full: u64,
    /// Cycles with 8 packet starts in the FIFO (the most it can hold: 8 packets of `LEN = 0`).
    ahead_8: u64,
}

impl ReceiverV2Top {
    /// An idle receiver with full upstream credit (`RX_DEPTH`) and stimulus drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        ReceiverV2Top {
            rng: rng(seed ^ 0x7ec2),
            r: Receiver::default(),
            stream: VecDeque::new(),
            credit: RX_DEPTH,
            draining: false,
            xbar_packets: 0,
            la_starts: 0,
            la_after_queue: 0,
            la_after_drop: 0,
            ready_stalls: 0,
            queue_packets: 0,
            chunks: 0,
            bad_flagged: 0,
            fifo_full: 0,
            ahead_8: 0,
        }
    }
}

impl Top for ReceiverV2Top {
    fn name(&self) -> &str {
        "sp2_receiver_v2"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        // (send, grant, admit, takes, write) probabilities of the phase.
        let (p_send, p_grant, p_adm, p_takes, p_write) = [
            (0.9, 0.3, 0.3, 0.8, 0.6),
            (0.3, 0.1, 0.1, 0.5, 0.3),
            (1.0, 0.9, 0.5, 1.0, 0.9),
            // Crossbar contended, the central queue's write port busy with other receivers.
            (1.0, 0.05, 0.8, 0.5, 0.1),
        ][((n / 2000) % 4) as usize];
        let rng = &mut self.rng;
        // The upstream sender: a byte when it has credit (and a packet to send).
        if self.stream.is_empty() {
            if !self.draining {
                self.stream.extend(random_packet(rng));
            } else if self.r.arr != Arrival::Len {
                // A flipped `LEN` bit made the receiver expect more bytes than were sent: fill them in.
                self.stream.push_back(0);
            }
        }
        let mut link = None;
        if self.credit > 0 && !self.stream.is_empty() && rng.gen_bool(p_send) {
            link = self.stream.pop_front();
            self.credit -= 1;
        }
        let r = &mut self.r;
        let v = r.view(link);
        let takes = rng.gen_bool(p_takes);
        let waiting = v.waiting || (v.la_set != 0 && v.ends(takes));
        let streaming = matches!(r.state, RxState::Xbar { .. } | RxState::LaStart { .. });
        let soon = streaming && r.bytes_left() <= LATENCY + 1;
        expect.put("token_out", v.token as u64, 1);
        expect.put("req", v.req as u64, 8);
        expect.put("waiting", waiting as u64, 1);
        expect.put("may_queue", v.may_queue as u64, 1);
        expect.put("adm_set", v.set as u64, 8);
        expect.put("chunks", v.chunks as u64, 6);
        expect.put("offer_valid", v.offer.is_some() as u64, 1);
        expect.put(
            "offer_byte",
            match v.offer {
                Some(Offer::Byte(b)) => b as u64,
                _ => 0,
            },
            8,
        );
        expect.put(
            "offer_end",
            matches!(v.offer, Some(Offer::End { .. })) as u64,
            1,
        );
        expect.put(
            "offer_bad",
            matches!(v.offer, Some(Offer::End { bad: true })) as u64,
            1,
        );
        let w = v.ready;
        expect.put("ready_valid", w.is_some() as u64, 1);
        expect.put("ready_data", w.map_or(0, |w| w.data), 64);
        expect.put("ready_bytes", w.map_or(0, |w| w.bytes) as u64, 4);
        expect.put("ready_last", w.is_some_and(|w| w.last) as u64, 1);
        expect.put("ready_bad", w.is_some_and(|w| w.bad) as u64, 1);
        expect.put("soon", soon as u64, 1);
        expect.put("at_end", v.at_end as u64, 1);
        expect.put("wait_spec", v.wait_spec as u64, 1);
        expect.put("spec_set", v.spec_set as u64, 8);
        expect.put("crc_errors", r.crc_errors & 0xff, 8);
        expect.put("route_errors", r.route_errors & 0xff, 8);
        // The switch's decisions, consistent with the view.
        let mut grant = None;
        if waiting && v.req != 0 && rng.gen_bool(p_grant) {
            grant = Some(random_member(rng, v.req));
        }
        let admitted = grant.is_none() && v.may_queue && rng.gen_bool(p_adm);
        let taken = takes && v.offer.is_some();
        let written = v.ready.is_some() && rng.gen_bool(p_write);
        let d = RxDecide {
            pins: link,
            grant,
            admitted,
            taken,
            written,
        };
        let state0 = r.state;
        self.ready_stalls += (matches!(state0, RxState::Queue)
            && r.asm.bytes as usize == CHUNK
            && v.ready.is_some()
            && !written) as u64;
        r.commit(&v, &d).map_err(|e| format!("cycle {n}: {e}"))?;
        // What the cycle exercised.
        if taken {
            if let Some(Offer::End { bad }) = v.offer {
                self.xbar_packets += 1;
                self.bad_flagged += bad as u64;
            }
        }
        if matches!(r.state, RxState::LaStart { .. }) && !matches!(state0, RxState::LaStart { .. })
        {
            self.la_starts += 1;
            self.la_after_queue += matches!(state0, RxState::Queue) as u64;
            self.la_after_drop += matches!(state0, RxState::Drop { .. }) as u64;
        }
        if let Some(c) = w {
            if written {
                self.chunks += 1;
                self.queue_packets += c.last as u64;
            }
        }
        self.fifo_full += (r.fifo.len() == RX_DEPTH) as u64;
        self.ahead_8 += (r.ahead >= 8) as u64;
        if v.token {
            self.credit += 1;
        }
        pins.put("link_valid", link.is_some() as u64, 1);
        pins.put("link_byte", link.unwrap_or(0) as u64, 8);
        pins.put("grant", grant.is_some() as u64, 1);
        pins.put("grant_out", grant.unwrap_or(0) as u64, 3);
        pins.put("admitted", admitted as u64, 1);
        pins.put("taken", taken as u64, 1);
        pins.put("written", written as u64, 1);
        pins.put("takes", takes as u64, 1);
        Ok(())
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.stream.is_empty() && self.r.is_idle() && self.credit == RX_DEPTH
    }

    fn packets(&self) -> u64 {
        self.xbar_packets + self.queue_packets
    }

    fn finish(&mut self) -> Result<(), String> {
        if !self.r.is_idle() {
            return Err(format!(
                "the receiver is not idle after the drain: {:?}",
                self.r
            ));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("xbar_packets", self.xbar_packets),
            ("la_starts", self.la_starts),
            ("la_after_queue", self.la_after_queue),
            ("la_after_drop", self.la_after_drop),
            ("ready_stalls", self.ready_stalls),
            ("queue_packets", self.queue_packets),
            ("queue_chunks", self.chunks),
            ("bad_flagged", self.bad_flagged),
            ("fifo_full_cycles", self.fifo_full),
            ("ahead_8_cycles", self.ahead_8),
            ("crc_errors", self.r.crc_errors),
            ("route_errors", self.r.route_errors),
        ]
    }
}

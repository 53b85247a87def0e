//! `receiver`: the SP2 receiver against `asr_model::sp2::receiver::Receiver`, driven as
//! `Sp2Switch::step` drives one receiver (token, parse, crossbar request, grant or drop, queue-output
//! choice, central-queue write grant, `feed_xbar(room)`, `feed_queue()`, link byte). The upstream sender
//! respects its credit and sends random packets: good ones (random route sets and lengths), bad CRCs, a
//! flipped bit in the payload, `R1 = 0` and `LEN = 0`; grants, choices, queue write grants and transmitter
//! room are random. The error counters are compared modulo 256 (8-bit ports).

use crate::cosim::{Frame, Top};
use crate::harness::rng;
use asr_model::sp2::receiver::{Receiver, RxState};
use asr_model::sp2::{crc8, RX_DEPTH};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

crate::rusthdl_io!(
    ReceiverIo,
    asr_hdl::sp2::receiver::Receiver,
    clocked,
    [
        link_valid,
        link_byte,
        xbar_grant,
        xbar_gout,
        choose_grant,
        choose_out,
        wr_grant,
        room
    ],
    [
        token_out,
        xbar_req,
        xbar_set,
        choose_req,
        choose_set,
        ready_valid,
        ready_out,
        ready_data,
        ready_bytes,
        ready_last,
        ready_bad,
        xbar_valid,
        xbar_byte,
        xbar_last,
        xbar_bad,
        xbar_on,
        xbar_out,
        crc_errors,
        route_errors
    ]
);

fn random_packet(rng: &mut Xoshiro256PlusPlus) -> Vec<u8> {
    match rng.gen_range(0..20) {
        0 => vec![0, crc8(&[0])],
        1 => {
            let len = rng.gen_range(1..=12u8);
            let mut p = vec![len, 0];
            p.extend((1..len).map(|_| rng.gen::<u8>()));
            p.push(crc8(&p));
            p
        }
        k => {
            let len = if k < 8 {
                rng.gen_range(1..=10u8)
            } else {
                rng.gen_range(1..=40u8)
            };
            let set = rng.gen_range(1..=255u8);
            let mut p = vec![len, set];
            p.extend((1..len).map(|_| rng.gen::<u8>()));
            let c = crc8(&p);
            p.push(if rng.gen_bool(0.1) { c ^ 0x5a } else { c });
            if len > 1 && rng.gen_bool(0.05) {
                // One flipped bit in the payload.
                let k = rng.gen_range(2..=len as usize);
                p[k] ^= 1 << rng.gen_range(0..8);
            }
            p
        }
    }
}

fn random_member(rng: &mut Xoshiro256PlusPlus, set: u8) -> u8 {
    let members: Vec<u8> = (0..8).filter(|&o| set >> o & 1 == 1).collect();
    members[rng.gen_range(0..members.len())]
}

pub struct ReceiverTop {
    rng: Xoshiro256PlusPlus,
    r: Receiver,
    stream: VecDeque<u8>,
    credit: usize,
    xbar_last: u64,
    chunks: u64,
    bad: u64,
}

impl ReceiverTop {
    pub fn new(seed: u64) -> Self {
        ReceiverTop {
            rng: rng(seed ^ 0x7ec),
            r: Receiver::default(),
            stream: VecDeque::new(),
            credit: RX_DEPTH,
            xbar_last: 0,
            chunks: 0,
            bad: 0,
        }
    }
}

impl Top for ReceiverTop {
    fn name(&self) -> &str {
        "receiver"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let (p_send, p_grant, p_room) =
            [(0.9, 0.5, 0.8), (0.3, 0.1, 0.5), (1.0, 0.9, 1.0)][((n / 2000) % 3) as usize];
        let rng = &mut self.rng;
        let r = &mut self.r;
        let old = r.clone();
        let token = r.tokens_owed > 0;
        if token {
            r.tokens_owed -= 1;
        }
        r.parse();
        let xbar_req = r.xbar_request();
        let choose_req = match old.state {
            RxState::Choose { set, .. } => Some(set),
            _ => None,
        };
        expect.put("token_out", token as u64, 1);
        expect.put("xbar_req", xbar_req.is_some() as u64, 1);
        expect.put("xbar_set", xbar_req.unwrap_or(0) as u64, 8);
        expect.put("choose_req", choose_req.is_some() as u64, 1);
        expect.put("choose_set", choose_req.unwrap_or(0) as u64, 8);
        let w = old.ready;
        expect.put("ready_valid", w.is_some() as u64, 1);
        expect.put("ready_out", w.map_or(0, |w| w.out) as u64, 3);
        expect.put("ready_data", w.map_or(0, |w| w.data), 64);
        expect.put("ready_bytes", w.map_or(0, |w| w.bytes) as u64, 4);
        expect.put("ready_last", w.is_some_and(|w| w.last) as u64, 1);
        expect.put("ready_bad", w.is_some_and(|w| w.bad) as u64, 1);
        let x = old.xbar;
        expect.put("xbar_valid", x.is_some() as u64, 1);
        expect.put("xbar_byte", x.map_or(0, |x| x.byte) as u64, 8);
        expect.put("xbar_last", x.is_some_and(|x| x.last.is_some()) as u64, 1);
        expect.put(
            "xbar_bad",
            x.is_some_and(|x| x.last == Some(true)) as u64,
            1,
        );
        let on = match old.state {
            RxState::Xbar { out, .. } => Some(out),
            _ => None,
        };
        expect.put("xbar_on", on.is_some() as u64, 1);
        expect.put("xbar_out", on.unwrap_or(0) as u64, 3);
        expect.put("crc_errors", old.crc_errors & 0xff, 8);
        expect.put("route_errors", old.route_errors & 0xff, 8);
        // Crossbar grant or drop.
        let mut grant = None;
        if let (Some(set), RxState::Wait { body, .. }) = (xbar_req, r.state) {
            if rng.gen_bool(p_grant) {
                let o = random_member(rng, set);
                grant = Some(o);
                r.state = RxState::Xbar {
                    out: o,
                    held_sent: false,
                    body,
                };
            } else if r.first_chunk_in() {
                r.state = RxState::Choose { set, body };
            }
        }
        // Queue-output choice.
        let mut choose = None;
        if let Some(set) = choose_req {
            if rng.gen_bool(0.5) {
                let o = random_member(rng, set);
                choose = Some(o);
                let RxState::Choose { body, .. } = r.state else {
                    return Err("the receiver left Choose without a choice".into());
                };
                r.state = RxState::Queue {
                    out: o,
                    held_in: false,
                    body,
                };
            }
        }
        let mut wr_grant = false;
        if old.ready.is_some() && rng.gen_bool(0.6) {
            wr_grant = true;
            r.ready = None;
            self.chunks += 1;
        }
        let room = rng.gen_bool(p_room);
        r.feed_xbar(room);
        if matches!(old.state, RxState::Queue { .. }) || r.asm_done.is_some() {
            r.feed_queue();
        }
        // The upstream sender: a byte when it has credit; a token is a credit from the next cycle on.
        if self.stream.is_empty() {
            self.stream.extend(random_packet(rng));
        }
        let mut link = None;
        if self.credit > 0 && rng.gen_bool(p_send) {
            let b = self.stream.pop_front().expect("refilled");
            self.credit -= 1;
            link = Some(b);
            if r.fifo.len() >= RX_DEPTH {
                return Err("the sender overflowed the receiver's FIFO".into());
            }
            r.fifo.push_back(b);
        }
        if token {
            self.credit += 1;
        }
        if let Some(x) = r.xbar {
            self.xbar_last += x.last.is_some() as u64;
            self.bad += (x.last == Some(true)) as u64;
        }
        pins.put("link_valid", link.is_some() as u64, 1);
        pins.put("link_byte", link.unwrap_or(0) as u64, 8);
        pins.put("xbar_grant", grant.is_some() as u64, 1);
        pins.put("xbar_gout", grant.unwrap_or(0) as u64, 3);
        pins.put("choose_grant", choose.is_some() as u64, 1);
        pins.put("choose_out", choose.unwrap_or(0) as u64, 3);
        pins.put("wr_grant", wr_grant as u64, 1);
        pins.put("room", room as u64, 1);
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.xbar_last
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("xbar_packets", self.xbar_last),
            ("queue_chunks", self.chunks),
            ("bad_flagged", self.bad),
            ("crc_errors", self.r.crc_errors),
            ("route_errors", self.r.route_errors),
        ]
    }
}

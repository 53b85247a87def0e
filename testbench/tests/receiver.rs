//! Lock-step: the SP2 `Receiver` HDL block against `asr_model::sp2::receiver::Receiver`, driven as
//! `Sp2Switch::step` drives one receiver (token, parse, crossbar request, grant or drop, queue-output
//! choice, central-queue write grant, `feed_xbar(room)`, `feed_queue()`, link byte), for 100 000 cycles.
//! The upstream sender respects its credit and sends random packets: good ones (random route sets and
//! lengths), bad CRCs, a flipped bit in the payload, `R1 = 0` and `LEN = 0`; grants, choices, queue write grants and transmitter room
//! are random. Every output compared every cycle (the error counters modulo 256); then the exported Verilog in Icarus on 12 000 recorded
//! cycles. Replay a failure with `ASR_SEED=<seed>`.

use asr_hdl::sp2::receiver::Receiver as RxHw;
use asr_model::sp2::receiver::{Receiver, RxState};
use asr_model::sp2::{crc8, RX_DEPTH};
use asr_testbench::harness::{rng, seed};
use asr_testbench::lockstep::{cycle, SETTLE};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use std::time::Instant;

const CYCLES: usize = 100_000;

#[derive(Debug, Clone, Copy, Default)]
struct RxPins {
    link: Option<u8>,
    xbar_grant: Option<u8>,
    choose: Option<u8>,
    wr_grant: bool,
    room: bool,
}

/// The receiver's outputs in one cycle (fields of absent values are 0, as the HDL drives them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RxPorts {
    token: bool,
    xbar_req: Option<u8>,
    choose_req: Option<u8>,
    ready: Option<(u8, u64, u8, bool, bool)>,
    xbar: Option<(u8, bool, bool)>,
    xbar_out: Option<u8>,
    /// The model's `crc_errors` and `route_errors` modulo 256 (before the cycle, as the registers hold them).
    crc_errors: u8,
    route_errors: u8,
}

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

/// Counts of what a run exercised.
#[derive(Debug, Default)]
struct Stats {
    xbar_last: usize,
    chunks: usize,
    bad: usize,
    crc_errors: u64,
    route_errors: u64,
}

/// The model receiver under the switch-like stimulus; every cycle's pins and the model's outputs.
fn record(seed: u64, cycles: usize) -> (Vec<(RxPins, RxPorts)>, Stats) {
    let mut rng = rng(seed);
    let mut r = Receiver::default();
    let mut stream: VecDeque<u8> = VecDeque::new();
    let mut credit = RX_DEPTH;
    let mut st = Stats::default();
    let mut out = Vec::with_capacity(cycles);
    for n in 0..cycles {
        let (p_send, p_grant, p_room) =
            [(0.9, 0.5, 0.8), (0.3, 0.1, 0.5), (1.0, 0.9, 1.0)][(n / 2000) % 3];
        let old = r.clone();
        let mut p = RxPins::default();
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
        let ports = RxPorts {
            token,
            xbar_req,
            choose_req,
            ready: old.ready.map(|w| (w.out, w.data, w.bytes, w.last, w.bad)),
            xbar: old
                .xbar
                .map(|x| (x.byte, x.last.is_some(), x.last == Some(true))),
            xbar_out: match old.state {
                RxState::Xbar { out, .. } => Some(out),
                _ => None,
            },
            crc_errors: old.crc_errors as u8,
            route_errors: old.route_errors as u8,
        };
        // Crossbar grant or drop.
        if let (Some(set), RxState::Wait { body, .. }) = (xbar_req, r.state) {
            if rng.gen_bool(p_grant) {
                let o = random_member(&mut rng, set);
                p.xbar_grant = Some(o);
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
        if let Some(set) = choose_req {
            if rng.gen_bool(0.5) {
                let o = random_member(&mut rng, set);
                p.choose = Some(o);
                let RxState::Choose { body, .. } = r.state else {
                    unreachable!("Choose is left only by a choice")
                };
                r.state = RxState::Queue {
                    out: o,
                    held_in: false,
                    body,
                };
            }
        }
        if old.ready.is_some() && rng.gen_bool(0.6) {
            p.wr_grant = true;
            r.ready = None;
            st.chunks += 1;
        }
        p.room = rng.gen_bool(p_room);
        r.feed_xbar(p.room);
        if matches!(old.state, RxState::Queue { .. }) || r.asm_done.is_some() {
            r.feed_queue();
        }
        // The upstream sender: a byte when it has credit; a token is a credit from the next cycle on.
        if stream.is_empty() {
            stream.extend(random_packet(&mut rng));
        }
        if credit > 0 && rng.gen_bool(p_send) {
            let b = stream.pop_front().expect("refilled");
            credit -= 1;
            p.link = Some(b);
            assert!(r.fifo.len() < RX_DEPTH, "stimulus overflowed the FIFO");
            r.fifo.push_back(b);
        }
        if token {
            credit += 1;
        }
        if let Some(x) = r.xbar {
            st.xbar_last += x.last.is_some() as usize;
            st.bad += (x.last == Some(true)) as usize;
        }
        out.push((p, ports));
    }
    st.crc_errors = r.crc_errors;
    st.route_errors = r.route_errors;
    (out, st)
}

fn hw_step(u: &mut RxHw, p: &RxPins) -> RxPorts {
    u.link_valid.next = p.link.is_some();
    u.link_byte.next = (p.link.unwrap_or(0) as u64).into();
    u.xbar_grant.next = p.xbar_grant.is_some();
    u.xbar_gout.next = (p.xbar_grant.unwrap_or(0) as u64).into();
    u.choose_grant.next = p.choose.is_some();
    u.choose_out.next = (p.choose.unwrap_or(0) as u64).into();
    u.wr_grant.next = p.wr_grant;
    u.room.next = p.room;
    cycle(
        u,
        |u, c| u.clock.next = Clock::from(c),
        |u| {
            let v = |x: bool, w: u64| x.then_some(w as u8);
            assert!(u.xbar_req.val() || u.xbar_set.val().to_u64() == 0);
            assert!(u.choose_req.val() || u.choose_set.val().to_u64() == 0);
            assert!(u.xbar_on.val() || u.xbar_out.val().to_u64() == 0);
            RxPorts {
                token: u.token_out.val(),
                xbar_req: v(u.xbar_req.val(), u.xbar_set.val().to_u64()),
                choose_req: v(u.choose_req.val(), u.choose_set.val().to_u64()),
                ready: u.ready_valid.val().then_some((
                    u.ready_out.val().to_u64() as u8,
                    u.ready_data.val().to_u64(),
                    u.ready_bytes.val().to_u64() as u8,
                    u.ready_last.val(),
                    u.ready_bad.val(),
                )),
                xbar: u.xbar_valid.val().then_some((
                    u.xbar_byte.val().to_u64() as u8,
                    u.xbar_last.val(),
                    u.xbar_bad.val(),
                )),
                xbar_out: v(u.xbar_on.val(), u.xbar_out.val().to_u64()),
                crc_errors: u.crc_errors.val().to_u64() as u8,
                route_errors: u.route_errors.val().to_u64() as u8,
            }
        },
    )
}

#[test]
fn receiver_agrees_with_the_model() {
    let seed = seed();
    let start = Instant::now();
    let (run, st) = record(seed, CYCLES);
    let mut hw = RxHw::default();
    hw.connect_all();
    assert!(simulate(&mut hw, SETTLE));
    asr_testbench::lockstep::replay(&mut hw, &run, seed, hw_step);
    eprintln!(
        "receiver: {CYCLES} cycles agree in {:.2} s ({st:?}; seed {seed:#x})",
        start.elapsed().as_secs_f64()
    );
    assert!(
        st.xbar_last > 300
            && st.chunks > 1000
            && st.bad > 20
            && st.crc_errors > 300
            && st.route_errors > 300,
        "too little traffic (ASR_SEED={seed:#x}): {st:?}"
    );
}

/// The exported `receiver` Verilog in Icarus on 12 000 cycles recorded from the model.
#[test]
fn receiver_verilog_in_icarus() {
    use asr_testbench::icarus::{run, value, Port, Vector};
    let seed = seed();
    let (rec, _) = record(seed ^ 0x4c, 12_000);
    let b = |x: bool| value(x as u128, 1);
    let vectors: Vec<Vector> = rec
        .iter()
        .map(|(p, o)| {
            let r = o.ready.unwrap_or_default();
            let x = o.xbar.unwrap_or_default();
            Vector {
                inputs: vec![
                    b(p.link.is_some()),
                    value(p.link.unwrap_or(0) as u128, 8),
                    b(p.xbar_grant.is_some()),
                    value(p.xbar_grant.unwrap_or(0) as u128, 3),
                    b(p.choose.is_some()),
                    value(p.choose.unwrap_or(0) as u128, 3),
                    b(p.wr_grant),
                    b(p.room),
                ],
                outputs: vec![
                    b(o.token),
                    b(o.xbar_req.is_some()),
                    value(o.xbar_req.unwrap_or(0) as u128, 8),
                    b(o.choose_req.is_some()),
                    value(o.choose_req.unwrap_or(0) as u128, 8),
                    b(o.ready.is_some()),
                    value(r.0 as u128, 3),
                    value(r.1 as u128, 64),
                    value(r.2 as u128, 4),
                    b(r.3),
                    b(r.4),
                    b(o.xbar.is_some()),
                    value(x.0 as u128, 8),
                    b(x.1),
                    b(x.2),
                    b(o.xbar_out.is_some()),
                    value(o.xbar_out.unwrap_or(0) as u128, 3),
                    value(o.crc_errors as u128, 8),
                    value(o.route_errors as u128, 8),
                ],
            }
        })
        .collect();
    let p = Port::new;
    let r = run(
        "receiver",
        &asr_hdl::export::verilog_of("receiver").unwrap(),
        &[
            p("link_valid", 1),
            p("link_byte", 8),
            p("xbar_grant", 1),
            p("xbar_gout", 3),
            p("choose_grant", 1),
            p("choose_out", 3),
            p("wr_grant", 1),
            p("room", 1),
        ],
        &[
            p("token_out", 1),
            p("xbar_req", 1),
            p("xbar_set", 8),
            p("choose_req", 1),
            p("choose_set", 8),
            p("ready_valid", 1),
            p("ready_out", 3),
            p("ready_data", 64),
            p("ready_bytes", 4),
            p("ready_last", 1),
            p("ready_bad", 1),
            p("xbar_valid", 1),
            p("xbar_byte", 8),
            p("xbar_last", 1),
            p("xbar_bad", 1),
            p("xbar_on", 1),
            p("xbar_out", 3),
            p("crc_errors", 8),
            p("route_errors", 8),
        ],
        &vectors,
        true,
    )
    .expect("Icarus run (iverilog must be installed)");
    r.assert_clean("receiver", seed, 12_000);
}

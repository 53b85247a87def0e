//! Lock-step: the `sp2_switch` HDL top against `asr_model::sp2::switch::Sp2Switch::step`, a model node
//! (`asr_model::sp2::node::Node`) on each port: random packets (route sets of 1, 2 or any number of ports,
//! extra route bytes, 0..40-byte payloads, a few empty route sets, a few packets with one flipped bit — in
//! the payload or CRC, or anywhere), random consumer backpressure at the nodes (a slow consumer in one
//! load phase, and stalls of 20..300 cycles switched on and off at random at every node), load phases;
//! `link_out`, `token_out` and the receivers' error counters (`crc_errors`, `route_errors`, modulo 256)
//! compared every cycle for 100 000 consecutive cycles, the model's queue
//! invariants checked as it runs. Then the exported Verilog in Icarus on recorded cycles.
//! Replay a failure with `ASR_SEED=<seed>`.

use asr_hdl::sp2::switch::Sp2Switch as SwHw;
use asr_model::header::Header;
use asr_model::sp2::node::Node;
use asr_model::sp2::switch::Sp2Switch;
use asr_model::sp2::{crc8, encode_packet, PORTS};
use asr_testbench::harness::{from_bools, pack, rng, seed, unpack};
use asr_testbench::lockstep::{cycle, SETTLE};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rust_hdl::prelude::*;
use std::time::Instant;

const CYCLES: usize = 100_000;
const ICARUS_CYCLES: usize = 10_000;

/// The switch's pins in one cycle.
#[derive(Debug, Clone, Copy)]
struct Pins {
    link_in: [Option<u8>; PORTS],
    token_in: [bool; PORTS],
}

/// The switch's outputs in one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ports {
    link_out: [Option<u8>; PORTS],
    token_out: [bool; PORTS],
    /// Per receiver, the model's `crc_errors` and `route_errors` modulo 256 before the cycle (the HDL's
    /// counters are registers).
    crc_errors: [u8; PORTS],
    route_errors: [u8; PORTS],
}

fn random_packet(rng: &mut Xoshiro256PlusPlus, phase: usize) -> Vec<u8> {
    let set: u8 = match rng.gen_range(0..40) {
        0 => 0, // malformed: dropped and counted
        k if k < 16 || phase == 1 => 1 << rng.gen_range(0..8),
        k if k < 30 => {
            let a = rng.gen_range(0..8);
            let b = (a + rng.gen_range(1..8)) % 8;
            (1 << a) | (1 << b)
        }
        _ => rng.gen_range(1..=255),
    };
    let hops: Vec<u64> = std::iter::once(set as u64)
        .chain((0..rng.gen_range(0..3)).map(|_| rng.gen_range(1..=255u64)))
        .collect();
    let payload: Vec<u8> = (0..rng.gen_range(0..=40)).map(|_| rng.gen()).collect();
    let route_bytes = hops.len();
    let mut p = if set == 0 {
        // `Header` refuses an empty set: the same format by hand (docs/sp2-switch.md §2).
        let mut p = vec![(hops.len() + payload.len()) as u8];
        p.extend(hops.iter().map(|&h| h as u8));
        p.extend_from_slice(&payload);
        p.push(crc8(&p));
        p
    } else {
        encode_packet(&Header::new(8, hops).unwrap(), &payload).unwrap()
    };
    // One flipped bit: in the payload or the CRC (the packet is routed and flagged bad: a CRC error), or
    // anywhere (LEN and route bytes too: misframed and malformed packets).
    if rng.gen_bool(0.02) {
        let k = if rng.gen_bool(0.7) {
            rng.gen_range(1 + route_bytes..p.len())
        } else {
            rng.gen_range(0..p.len())
        };
        p[k] ^= 1 << rng.gen_range(0..8);
    }
    p
}

/// The model switch with 8 nodes; every cycle's pins and the model's outputs.
fn record(seed: u64, cycles: usize) -> (Vec<(Pins, Ports)>, Sp2Switch, usize) {
    let mut rng = rng(seed);
    let mut sw = Sp2Switch::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let mut wires = ([None; PORTS], [false; PORTS]);
    let mut out = Vec::with_capacity(cycles);
    let mut bytes_out = 0usize;
    // Per node: the cycle its current stall (consumer backpressure) ends.
    let mut stall_until = [0usize; PORTS];
    for n in 0..cycles {
        // 0: heavy mixed sets, 1: heavy single-port routes, 2: light load, 3: backpressured outputs.
        let phase = (n / 2500) % 4;
        let (p_new, p_consume) = [(0.05, 1.0), (0.05, 1.0), (0.01, 1.0), (0.05, 0.3)][phase];
        let mut pins = Pins {
            link_in: [None; PORTS],
            token_in: [false; PORTS],
        };
        for p in 0..PORTS {
            if nodes[p].send_queue.len() < 4 && rng.gen_bool(p_new) {
                let pkt = random_packet(&mut rng, phase);
                nodes[p].send_queue.push_back(pkt);
            }
            if n >= stall_until[p] && rng.gen_bool(0.001) {
                stall_until[p] = n + rng.gen_range(20..300);
            }
            let consume = (n >= stall_until[p] && rng.gen_bool(p_consume)) as usize;
            let (b, t) = nodes[p].cycle(sw.cycle, wires.0[p], wires.1[p], consume);
            pins.link_in[p] = b;
            pins.token_in[p] = t;
        }
        let crc_errors = std::array::from_fn(|i| sw.rx[i].crc_errors as u8);
        let route_errors = std::array::from_fn(|i| sw.rx[i].route_errors as u8);
        let o = sw
            .step(&pins.link_in, &pins.token_in)
            .unwrap_or_else(|e| panic!("model, cycle {n} (ASR_SEED={seed:#x}): {e}"));
        if n % 500 == 0 {
            sw.check()
                .unwrap_or_else(|e| panic!("model, cycle {n} (ASR_SEED={seed:#x}): {e}"));
        }
        bytes_out += o.link_out.iter().filter(|b| b.is_some()).count();
        wires = (o.link_out, o.token_out);
        out.push((
            pins,
            Ports {
                link_out: o.link_out,
                token_out: o.token_out,
                crc_errors,
                route_errors,
            },
        ));
    }
    (out, sw, bytes_out)
}

fn hw_step(u: &mut SwHw, p: &Pins) -> Ports {
    u.link_in_valid.next = from_bools(&p.link_in.map(|b| b.is_some()));
    u.link_in_data.next = pack(&p.link_in.map(|b| b.unwrap_or(0) as u128), 8);
    u.token_in.next = from_bools(&p.token_in);
    cycle(
        u,
        |u, c| u.clock.next = Clock::from(c),
        |u| {
            let d = unpack(u.link_out_data.val(), 8, 8);
            let v = u.link_out_valid.val();
            let t = u.token_out.val();
            let ce = unpack(u.crc_errors.val(), 8, 8);
            let re = unpack(u.route_errors.val(), 8, 8);
            Ports {
                link_out: std::array::from_fn(|k| {
                    if v.get_bit(k) {
                        Some(d[k] as u8)
                    } else {
                        assert_eq!(d[k], 0, "link_out_data of an idle port must be 0");
                        None
                    }
                }),
                token_out: std::array::from_fn(|k| t.get_bit(k)),
                crc_errors: std::array::from_fn(|k| ce[k] as u8),
                route_errors: std::array::from_fn(|k| re[k] as u8),
            }
        },
    )
}

#[test]
fn sp2_switch_agrees_with_the_model() {
    let seed = seed();
    let start = Instant::now();
    let (run, sw, bytes_out) = record(seed, CYCLES);
    let mut hw = SwHw::default();
    hw.connect_all();
    assert!(simulate(&mut hw, SETTLE));
    let t_hw = Instant::now();
    asr_testbench::lockstep::replay(&mut hw, &run, seed, hw_step);
    let via_queue: u64 = sw.tx.iter().map(|t| t.packets_queue).sum();
    let via_xbar: u64 = sw.tx.iter().map(|t| t.packets_xbar).sum();
    let crc: u64 = sw.rx.iter().map(|r| r.crc_errors).sum();
    let route: u64 = sw.rx.iter().map(|r| r.route_errors).sum();
    eprintln!(
        "sp2_switch: {CYCLES} cycles agree ({:.1} s, HDL {:.0} cycles/s): {bytes_out} bytes out, {via_xbar} packets \
         via the crossbar, {via_queue} via the queue, {crc} CRC and {route} route errors (seed {seed:#x})",
        start.elapsed().as_secs_f64(),
        CYCLES as f64 / t_hw.elapsed().as_secs_f64()
    );
    assert!(
        bytes_out > 250_000 && via_xbar > 2_000 && via_queue > 4_000 && crc > 100 && route > 100,
        "too little traffic (ASR_SEED={seed:#x})"
    );
}

/// The exported `sp2_switch` Verilog in Icarus on cycles recorded from the model.
#[test]
fn sp2_switch_verilog_in_icarus() {
    use asr_testbench::icarus::{
        run, sp2_link_ports, sp2_link_values, value_of_fields, Port, Vector,
    };
    let seed = seed();
    let (rec, sw, _) = record(seed ^ 0x5b, ICARUS_CYCLES);
    // The counters the Verilog must reproduce do count.
    assert!(
        sw.rx.iter().map(|r| r.crc_errors).sum::<u64>() > 10
            && sw.rx.iter().map(|r| r.route_errors).sum::<u64>() > 10,
        "no CRC or route errors in the Icarus vectors (ASR_SEED={seed:#x})"
    );
    let vectors: Vec<Vector> = rec
        .iter()
        .map(|(p, o)| {
            let mut outputs = sp2_link_values(&o.link_out, &o.token_out);
            outputs.push(value_of_fields(&o.crc_errors.map(|c| c as u128), 8));
            outputs.push(value_of_fields(&o.route_errors.map(|c| c as u128), 8));
            Vector {
                inputs: sp2_link_values(&p.link_in, &p.token_in),
                outputs,
            }
        })
        .collect();
    let t = Instant::now();
    let r = run(
        "sp2_switch",
        &asr_hdl::export::verilog_of("sp2_switch").unwrap(),
        &sp2_link_ports("link_in_", "token_in", 8),
        &[
            sp2_link_ports("link_out_", "token_out", 8),
            vec![Port::new("crc_errors", 64), Port::new("route_errors", 64)],
        ]
        .concat(),
        &vectors,
        true,
    )
    .expect("Icarus run (iverilog must be installed)");
    r.assert_clean("sp2_switch", seed, ICARUS_CYCLES);
    eprintln!(
        "sp2_switch: Icarus run took {:.1} s",
        t.elapsed().as_secs_f64()
    );
}

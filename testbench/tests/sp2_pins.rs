//! The v2 switch's pin-level guarantees (docs/sp2-switch.md §G, "The pins: what a test bench may rely on"),
//! one test per guarantee, each with exact cycle numbers. Every test drives `sp2_switch_v2` through a script
//! (`cosim/tops/sp2_directed.rs`: raw bytes on `link_in` and raw `token_in` per cycle), checks the pins the
//! model drove ([`Log`]), and then runs the same script against the exported design in rust-hdl, Icarus and
//! Verilator (Icarus in the long tier only, `scripts/test.sh`), which must equal the model on `link_out_*`, `token_out`, `crc_errors` and `route_errors` in
//! every cycle — so every number asserted here is what the Verilog shows on its pins.
//!
//! Cycle numbers are the script's: cycle 0 is the first clock cycle, and a pin "in cycle n" is its value
//! during cycle n (an input is sampled at the rising edge that ends cycle n; every output of the switch is
//! a register, set at the edge that starts it).
//!
//! That a test can fail: in `g1_a_token_is_spent_from_the_next_cycle`, with the token-paid bytes expected
//! at `t + 1` instead of `t + 2` (the guarantee broken), the model run fails with "G1: output 3 sent in
//! cycles [6, …, 21, 62, 72, 82, 83, 92, …, 101], want [6, …, 21, 61, 71, 81, 82, 91, …]" (checked
//! 2026-11-26); likewise every test compares whole cycle lists, so one cycle off anywhere fails it.

use asr_model::header::Header;
use asr_model::sp2::v2::switch::Sp2SwitchV2;
use asr_model::sp2::{crc8, encode_packet, PORTS};
use asr_testbench::cosim::tops::sp2_directed::{
    packets_of, raw_from, Log, Pins, Script, Sp2Directed,
};
use asr_testbench::cosim::{run, BackendKind, Options};
use std::fmt::Debug;
use std::sync::Arc;

const BACKENDS: [BackendKind; 3] = [
    BackendKind::RustHdl,
    BackendKind::Icarus,
    BackendKind::Verilator,
];

/// Runs `script` on the model alone, then on every backend against the model; panics on a failed check or
/// a mismatch.
fn directed(name: &str, script: Script) {
    Sp2Directed::<Sp2SwitchV2>::model_only(script.clone())
        .unwrap_or_else(|e| panic!("{name}, model: {e}"));
    let long = asr_testbench::harness::long_tier();
    for b in BACKENDS
        .into_iter()
        .filter(|&b| long || b != BackendKind::Icarus)
    {
        let mut o = Options::new("sp2_switch_v2", b, script.cycles, 0);
        o.stimulus = Some(Sp2Directed::<Sp2SwitchV2>::stimulus(script.clone()));
        let r = run(&o).unwrap_or_else(|e| panic!("{name} on {}: {e:#}", b.name()));
        r.assert_clean(script.cycles);
        eprintln!("{name}: {r}");
    }
}

/// A script with raw inputs and raw tokens only.
fn script(
    raw: Vec<(usize, Vec<Option<u8>>)>,
    tokens: Vec<(usize, Vec<bool>)>,
    cycles: u64,
    check: impl Fn(&Log) -> Result<(), String> + Send + Sync + 'static,
) -> Script {
    Script {
        raw,
        packets: vec![],
        stall: vec![],
        tokens,
        cycles,
        check: Arc::new(check),
    }
}

/// A packet with one route byte `set`: `LEN`, `R1`, the payload, the CRC.
fn packet(set: u8, payload: &[u8]) -> Vec<u8> {
    encode_packet(&Header::new(8, vec![set as u64]).unwrap(), payload).unwrap()
}

/// `n` payload bytes starting at `from`.
fn payload(from: u8, n: usize) -> Vec<u8> {
    (0..n).map(|k| from.wrapping_add(k as u8)).collect()
}

/// The packet a switch sends for `p` (one route byte consumed): `LEN − 1`, the rest, a fresh CRC.
fn outgoing(p: &[u8]) -> Vec<u8> {
    let mut o = vec![p[0] - 1];
    o.extend_from_slice(&p[2..p.len() - 1]);
    o.push(crc8(&o));
    o
}

/// The raw bytes of `parts` concatenated, from cycle 0.
fn back_to_back(parts: &[&[u8]]) -> Vec<Option<u8>> {
    raw_from(0, &parts.concat())
}

/// A token in each of `cycles`.
fn tokens_at(cycles: impl IntoIterator<Item = u64>) -> Vec<bool> {
    let mut v = Vec::new();
    for c in cycles {
        if v.len() <= c as usize {
            v.resize(c as usize + 1, false);
        }
        v[c as usize] = true;
    }
    v
}

fn out_cycles(l: &Log, o: usize) -> Vec<u64> {
    l.sent[o].iter().map(|x| x.0).collect()
}

fn out_bytes(l: &Log, o: usize) -> Vec<u8> {
    l.sent[o].iter().map(|x| x.1).collect()
}

/// Cycles in which `f` of the pins holds.
fn cycles_where(l: &Log, f: impl Fn(&Pins) -> bool) -> Vec<u64> {
    (0..l.pins.len() as u64)
        .filter(|&n| f(&l.pins[n as usize]))
        .collect()
}

fn token_out_cycles(l: &Log, i: usize) -> Vec<u64> {
    cycles_where(l, |p| p.token_out[i])
}

fn link_in_cycles(l: &Log, i: usize) -> Vec<u64> {
    cycles_where(l, |p| p.link_in[i].is_some())
}

fn same<T: Debug + PartialEq>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: {got:?}, want {want:?}"))
    }
}

/// Checks a counter on the pins (`f`) over the whole run: `steps` lists the cycles in which it takes a new
/// value and that value, from cycle 0 (its value at the start) on.
fn counter_steps(
    l: &Log,
    what: &str,
    f: impl Fn(&Pins) -> u8,
    steps: &[(u64, u8)],
) -> Result<(), String> {
    let got: Vec<(u64, u8)> = (0..l.pins.len())
        .filter(|&n| n == 0 || f(&l.pins[n]) != f(&l.pins[n - 1]))
        .map(|n| (n as u64, f(&l.pins[n])))
        .collect();
    same(
        &format!("{what} (cycle, value from it on)"),
        got,
        steps.to_vec(),
    )
}

// ---- G1. A token counts from the next cycle.

/// Output 3 receives a packet of 30 bytes (input 0, `LEN` 29, back to back from cycle 0) while its node
/// returns no token until cycle 60: the first 16 bytes leave in cycles 6–21, then the credit is 0. Tokens
/// then come one at cycle 60, one at 70, two at 80–81, and one in every cycle 90–115: each byte they pay
/// for is on `link_out[3]` exactly two cycles after its token (62, 72, 82–83, 92–101). Over the whole run
/// no byte is on `link_out[3]` in cycle t unless at most 16 bytes have been sent up to t for the tokens
/// of the cycles up to t − 2.
#[test]
fn g1_a_token_is_spent_from_the_next_cycle() {
    let p = packet(1 << 3, &payload(0x40, 28));
    let want_bytes = outgoing(&p);
    let tokens: Vec<u64> = [60, 70, 80, 81].into_iter().chain(90..=115).collect();
    let want: Vec<u64> = (6..=21).chain([62, 72, 82, 83]).chain(92..=101).collect();
    let tok = tokens.clone();
    let s = script(
        vec![(0, back_to_back(&[&p]))],
        vec![(3, tokens_at(tokens.clone()))],
        130,
        move |l| {
            same("G1: output 3 sent", out_bytes(l, 3), want_bytes.clone())?;
            same(
                "G1: output 3 sent in cycles",
                out_cycles(l, 3),
                want.clone(),
            )?;
            for &t in &out_cycles(l, 3) {
                let sent = out_cycles(l, 3).iter().filter(|&&c| c <= t).count();
                let paid = tok.iter().filter(|&&c| c + 2 <= t).count();
                if sent > 16 + paid {
                    return Err(format!(
                        "G1: cycle {t}: {sent} bytes sent for {paid} tokens of the cycles up to {}",
                        t - 2
                    ));
                }
            }
            Ok(())
        },
    );
    directed("G1 token spent from the next cycle", s);
}

// ---- G2. A byte is on the link for one cycle; its token may come back in that cycle.

/// Output 6 (input 2, a 30-byte packet): the node returns each byte's token in the very cycle the byte is
/// on `link_out[6]`: the packet leaves at one byte per cycle, 6–35, and the credit never overflows.
/// Output 5 (input 1, the same size): no token until cycle 40, so the first 16 bytes leave in 6–21 and the
/// credit is 0; a token at 40 restarts it, and from then on the node returns each byte's token in the cycle
/// the byte is on the link: a byte every other cycle, 42, 44, …, 68 (the credit loop is two cycles: a byte
/// in cycle t, its token in t at the earliest, the byte it pays for in t + 2). Every byte of both packets
/// is on the link in exactly one cycle (no byte is repeated). A token with no byte outstanding (all 16
/// credits home) is a protocol violation: the model stops with "token arrived with the credit already
/// full" (model only: the HDL ignores such a token).
#[test]
fn g2_a_byte_is_on_the_link_one_cycle_and_its_token_may_return_in_that_cycle() {
    let p5 = packet(1 << 5, &payload(0x10, 28));
    let p6 = packet(1 << 6, &payload(0x80, 28));
    let (w5, w6) = (outgoing(&p5), outgoing(&p6));
    let tok5: Vec<u64> = std::iter::once(40)
        .chain((42..=68).step_by(2))
        .chain(70..=84)
        .collect();
    let tok6: Vec<u64> = (6..=35).collect();
    let s = script(
        vec![(1, back_to_back(&[&p5])), (2, back_to_back(&[&p6]))],
        vec![(5, tokens_at(tok5)), (6, tokens_at(tok6))],
        110,
        move |l| {
            same("G2: output 6 sent", out_bytes(l, 6), w6.clone())?;
            same(
                "G2: output 6 sent in cycles",
                out_cycles(l, 6),
                (6..=35).collect(),
            )?;
            same("G2: output 5 sent", out_bytes(l, 5), w5.clone())?;
            same(
                "G2: output 5 sent in cycles",
                out_cycles(l, 5),
                (6..=21).chain((42..=68).step_by(2)).collect(),
            )
        },
    );
    directed("G2 token in the byte's cycle", s.clone());

    let mut early = s;
    early.tokens[1].1[2] = true;
    let Err(e) = Sp2Directed::<Sp2SwitchV2>::model_only(early) else {
        panic!("a token with every credit home is accepted");
    };
    assert!(e.contains("credit already full"), "{e}");
}

/// Input 1 (a packet `LEN` 5 for output 5) drives `LEN` and `R1` in cycles 0 and 1 and its body and CRC
/// only once the packet is connected, with gaps: cycles 10, 11, 14, 20, 25. The switch consumes each of
/// them in its own cycle (through the FIFO's bypass): `token_out[1]` pulses in cycles 1, 2, 11, 12, 15,
/// 21, 26, and each body byte and the CRC are on `link_out[5]` in the same cycle as their token
/// (`LEN − 1` in cycle 6). Input 2 sends the same packet (for output 6) back to back from cycle 0:
/// `LEN` and `R1` are consumed in their cycles (tokens 1, 2), the rest waits in the FIFO for the crossbar
/// grant and is consumed a byte per cycle from cycle 6 (tokens 7–11, with the bytes on `link_out[6]`).
/// On every input, one token per byte, the k-th token after the k-th byte.
#[test]
fn g2_the_switch_consumes_a_byte_in_its_cycle_and_returns_its_token_the_next() {
    let p5 = packet(1 << 5, &[0xa1, 0xa2, 0xa3, 0xa4]);
    let p6 = packet(1 << 6, &[0xa1, 0xa2, 0xa3, 0xa4]);
    let (w5, w6) = (outgoing(&p5), outgoing(&p6));
    let at = [0u64, 1, 10, 11, 14, 20, 25];
    let mut raw1 = vec![None; 26];
    for (k, &c) in at.iter().enumerate() {
        raw1[c as usize] = Some(p5[k]);
    }
    let s = script(
        vec![(1, raw1), (2, back_to_back(&[&p6]))],
        vec![],
        60,
        move |l| {
            same(
                "G2: token_out[1] in cycles",
                token_out_cycles(l, 1),
                vec![1, 2, 11, 12, 15, 21, 26],
            )?;
            same("G2: output 5 sent", out_bytes(l, 5), w5.clone())?;
            same(
                "G2: output 5 sent in cycles",
                out_cycles(l, 5),
                vec![6, 11, 12, 15, 21, 26],
            )?;
            same(
                "G2: token_out[2] in cycles",
                token_out_cycles(l, 2),
                vec![1, 2, 7, 8, 9, 10, 11],
            )?;
            same("G2: output 6 sent", out_bytes(l, 6), w6.clone())?;
            same(
                "G2: output 6 sent in cycles",
                out_cycles(l, 6),
                (6..=11).collect(),
            )?;
            for i in 0..PORTS {
                let (b, t) = (link_in_cycles(l, i), token_out_cycles(l, i));
                if b.len() != t.len() || b.iter().zip(&t).any(|(b, t)| t <= b) {
                    return Err(format!("G2: input {i}: bytes in {b:?}, tokens {t:?}"));
                }
            }
            Ok(())
        },
    );
    directed("G2 bypass and registered token", s);
}

// ---- G3. The CRC.

/// CRC-8 by its definition, bit by bit: polynomial x^8 + x^2 + x + 1, register 0 at the start, bytes in
/// most significant bit first, no reflection, no final XOR.
fn crc8_by_definition(bytes: &[u8]) -> u8 {
    let mut r: u8 = 0;
    for &b in bytes {
        for k in (0..8).rev() {
            let top = (r >> 7) ^ (b >> k & 1);
            r <<= 1;
            if top == 1 {
                r ^= 0x07;
            }
        }
    }
    r
}

/// `asr_model::sp2::crc8` is CRC-8/SMBUS (the catalogue's check value 0xF4 over "123456789"). Seven packets
/// through one switch — three for output 2 at once, two for output 3 (one with a second route byte, one
/// with a corrupted payload: input 5), three of the seven through the central queue — and on every output
/// every packet
/// ends with `crc8` of the bytes the switch sent before it, inverted (XOR 0xFF) for the corrupted one; the
/// CRC over a whole packet as sent is 0 (good) or 0xF3 = `crc8(&[0xff])` (flagged bad).
#[test]
fn g3_the_crc_is_crc8_poly_07_init_0_no_final_xor() {
    assert_eq!(crc8(b"123456789"), 0xf4);
    assert_eq!(crc8(&[]), 0);
    for data in [&b"123456789"[..], &[0xff], &[0, 0, 0], &payload(0x37, 200)] {
        assert_eq!(crc8(data), crc8_by_definition(data), "{data:02x?}");
    }
    assert_eq!(crc8(&[0xff]), 0xf3);

    let two_hops = encode_packet(
        &Header::new(8, vec![1 << 3, 0x55]).unwrap(),
        &payload(0x60, 7),
    )
    .unwrap();
    let mut corrupt = packet(1 << 3, &payload(0x70, 12));
    corrupt[5] ^= 0x10;
    let ins: Vec<(usize, Vec<u8>)> = vec![
        (0, packet(1 << 2, &payload(0x00, 20))),
        (1, packet(1 << 2, &payload(0x20, 12))),
        (4, packet(1 << 2, &payload(0x40, 9))),
        (5, corrupt.clone()),
        (6, two_hops.clone()),
        (7, packet(1 << 7, &payload(0x90, 3))),
        (3, packet(1 << 1, &[])),
    ];
    let s = Script {
        raw: vec![],
        packets: ins.iter().map(|(i, p)| (0, *i, p.clone())).collect(),
        stall: vec![],
        tokens: vec![],
        cycles: 150,
        check: Arc::new(move |l: &Log| {
            let mut seen = 0;
            for o in 0..PORTS {
                for q in packets_of(&l.sent[o]) {
                    let (body, c) = q.split_at(q.len() - 1);
                    let (i, p) = ins
                        .iter()
                        .find(|(_, p)| p[2..p.len() - 1] == body[1..])
                        .ok_or(format!("G3: output {o} sent an unknown packet {q:02x?}"))?;
                    let bad = *i == 5;
                    let want = crc8(body) ^ if bad { 0xff } else { 0 };
                    same(&format!("G3: output {o}, input {i}'s CRC"), c[0], want)?;
                    same(
                        &format!("G3: output {o}, input {i}'s LEN − 1"),
                        body[0],
                        p[0] - 1,
                    )?;
                    same(
                        &format!("G3: CRC over input {i}'s whole packet"),
                        crc8(&q),
                        if bad { 0xf3 } else { 0 },
                    )?;
                    seen += 1;
                }
            }
            same("G3: packets delivered", seen, ins.len())?;
            same(
                "G3: crc_errors at the end",
                l.pins.last().unwrap().crc_errors,
                [0, 0, 0, 0, 0, 1, 0, 0],
            )
        }),
    };
    directed("G3 CRC", s);
}

// ---- G4. Dropped packets.

/// Input 3, back to back from cycle 0: a packet with `R1 = 0` and a wrong CRC (`LEN` 4: 6 bytes, cycles
/// 0–5), a `LEN = 0` packet whose second byte is 0x00 (cycles 6–7), then a good packet for output 4
/// (cycles 8–13). Nothing leaves for the two malformed packets; every byte of them is consumed in its cycle
/// (`token_out[3]` in cycles 1–8); `route_errors[3]` reads 1 from cycle 2 and 2 from cycle 7, and
/// `crc_errors[3]` stays 0 (a dropped packet's CRC is not checked); the good packet after them is framed
/// right and leaves intact on output 4 (`LEN − 1` in cycle 14: six cycles, as on an idle switch).
#[test]
fn g4_a_dropped_packet_counts_a_route_error_and_no_crc_error() {
    let mut r0 = vec![4u8, 0x00, 0xa1, 0xa2, 0xa3];
    r0.push(crc8(&r0) ^ 0x5a);
    let len0 = [0x00u8, 0x00];
    let good = packet(1 << 4, &[0xb1, 0xb2, 0xb3]);
    let w = outgoing(&good);
    let s = script(
        vec![(3, back_to_back(&[&r0, &len0, &good]))],
        vec![],
        60,
        move |l| {
            for o in (0..PORTS).filter(|&o| o != 4) {
                same(&format!("G4: output {o} sent"), out_bytes(l, o), vec![])?;
            }
            same("G4: output 4 sent", out_bytes(l, 4), w.clone())?;
            same("G4: output 4's LEN − 1 in cycle", out_cycles(l, 4)[0], 14)?;
            same(
                "G4: token_out[3] for the dropped bytes",
                token_out_cycles(l, 3)[..8].to_vec(),
                (1..=8).collect(),
            )?;
            counter_steps(
                l,
                "G4: route_errors[3]",
                |p| p.route_errors[3],
                &[(0, 0), (2, 1), (7, 2)],
            )?;
            counter_steps(l, "G4: crc_errors[3]", |p| p.crc_errors[3], &[(0, 0)])
        },
    );
    directed("G4 dropped packets", s);
}

// ---- G6. When the error counters change.

/// On an idle switch, from the cycle the offending byte is on `link_in`:
/// - input 0, a packet for output 1 (`LEN` 5) with a wrong CRC, back to back from cycle 0: the CRC byte in
///   cycle 6, `crc_errors[0]` reads 1 from cycle 11 (+5: the byte waits 4 cycles in the FIFO, +1 for the
///   registered counter);
/// - input 3, the same for output 5 but the CRC byte late, in cycle 20 (consumed in its cycle): from 21 (+1);
/// - input 1, `R1 = 0` in cycle 1: `route_errors[1]` reads 1 from cycle 2 (+1; +2 from `LEN`);
/// - input 2, `LEN = 0` in cycle 0: `route_errors[2]` reads 1 from cycle 1 (+1);
/// - inputs 4 and 6 both send a packet for output 7 at cycle 0 (input 4's long, input 6's with a wrong CRC):
///   input 6's goes through the central queue; its CRC byte (cycle 7) waits in the FIFO as well and is
///   consumed in cycle 11, and `crc_errors[6]` reads 1 from cycle 12 (+5).
///
/// In every case the counter changes in the cycle `token_out[i]` pulses for the offending byte.
#[test]
fn g6_error_counters_show_a_new_value_in_the_cycle_of_the_offending_bytes_token() {
    let bad = |mut p: Vec<u8>| {
        *p.last_mut().unwrap() ^= 0x5a;
        p
    };
    let p0 = bad(packet(1 << 1, &[1, 2, 3, 4]));
    let r1 = {
        let mut p = vec![3u8, 0x00, 0xc1, 0xc2];
        p.push(crc8(&p));
        p
    };
    let l0 = [0x00u8, 0x77];
    let p3 = bad(packet(1 << 5, &[0xd1]));
    let mut raw3 = raw_from(0, &p3[..3]);
    raw3.resize(20, None);
    raw3.push(Some(p3[3]));
    let p4 = packet(1 << 7, &payload(0x30, 20));
    let p6 = bad(packet(1 << 7, &payload(0x50, 5)));
    // Per input: the offending byte's index among its bytes, its cycle on link_in, the counter's change.
    let cases: Vec<(usize, usize, u64, bool, u64)> = vec![
        (0, 6, 6, true, 11),
        (3, 3, 20, true, 21),
        (1, 1, 1, false, 2),
        (2, 0, 0, false, 1),
        (6, 7, 7, true, 12),
    ];
    let s = script(
        vec![
            (0, back_to_back(&[&p0])),
            (1, back_to_back(&[&r1])),
            (2, back_to_back(&[&l0])),
            (3, raw3),
            (4, back_to_back(&[&p4])),
            (6, back_to_back(&[&p6])),
        ],
        vec![],
        80,
        move |l| {
            for &(i, k, at, crc, from) in &cases {
                same(
                    &format!("G6: input {i}'s offending byte on link_in in cycle"),
                    link_in_cycles(l, i)[k],
                    at,
                )?;
                let f = move |p: &Pins| {
                    if crc {
                        p.crc_errors[i]
                    } else {
                        p.route_errors[i]
                    }
                };
                let name = if crc { "crc_errors" } else { "route_errors" };
                counter_steps(l, &format!("G6: {name}[{i}]"), f, &[(0, 0), (from, 1)])?;
                same(
                    &format!("G6: input {i}: token_out for the offending byte in cycle"),
                    token_out_cycles(l, i)[k],
                    from,
                )?;
            }
            for i in 0..PORTS {
                let other = |p: &Pins| {
                    if cases.iter().any(|c| c.0 == i && c.3) {
                        p.route_errors[i]
                    } else if cases.iter().any(|c| c.0 == i) {
                        p.crc_errors[i]
                    } else {
                        p.crc_errors[i] | p.route_errors[i]
                    }
                };
                counter_steps(
                    l,
                    &format!("G6: input {i}'s other counter"),
                    other,
                    &[(0, 0)],
                )?;
            }
            Ok(())
        },
    );
    directed("G6 counter timing", s);
}

// ---- G7. Cut-through latency.

/// On an idle switch, with every byte back to back:
/// - input 0, a packet `LEN` 10 for output 1 from cycle 0: `LEN − 1` on `link_out[1]` in cycle 6, every
///   later byte 5 cycles after it was on `link_in` (cycles 7–16);
/// - then, back to back on input 0 (its `LEN` in cycle 12), a packet for output 1: its `LEN − 1` in cycle 20
///   (8 cycles): its `R1` arrives too late for the look-ahead grant, and it waits for its turn in the FIFO;
/// - input 6, the same pair (for output 7) with 4 idle cycles between (the second `LEN` in cycle 16): its
///   `LEN − 1` in cycle 22 (6 cycles, as alone);
/// - input 2, a packet `LEN` 1 for output 3 (cycles 0–2), then one for output 3 back to back (`LEN` in
///   cycle 3): granted by look-ahead, its `LEN − 1` in cycle 8 (5 cycles), the cycle after the first
///   packet's CRC (cycle 7), then one idle cycle, then its body from cycle 10;
/// - input 4, a packet `LEN` 20 for output 5, whose node returns no token until cycle 50 (so it stalls
///   after 16 bytes; its CRC leaves in cycle 56), then a packet for output 6 back to back (`LEN` in cycle
///   22): granted by look-ahead, its `LEN − 1` on `link_out[6]` in cycle 57, the cycle after the first
///   packet's CRC on `link_out[5]`, then one idle cycle, then its body (59–64) and CRC (65);
/// - the look-ahead's threshold, with the first packet (`LEN` 20) stalled so that its CRC byte is consumed
///   d cycles after the second packet's `R1` is on `link_in` (cycle 23): input 1 (outputs 0 then 2, tokens
///   on output 0 from cycle 22), d = 4: the second packet's `LEN − 1` in cycle 29, the cycle after the
///   first's CRC (28); input 3 (output 4 for both, tokens from cycle 21), d = 3: the first's CRC in cycle 27,
///   the second's `LEN − 1` only in cycle 31 (the ordinary path), its body and CRC following in 32–38.
#[test]
fn g7_cut_through_is_six_cycles_and_a_look_ahead_packet_follows_its_predecessors_crc() {
    let a0 = packet(1 << 1, &payload(0x00, 9));
    let b0 = packet(1 << 1, &payload(0x20, 6));
    let a6 = packet(1 << 7, &payload(0x00, 9));
    let b6 = packet(1 << 7, &payload(0x20, 6));
    let mut raw6 = back_to_back(&[&a6]);
    raw6.extend([None; 4]);
    raw6.extend(b6.iter().map(|&x| Some(x)));
    let a2 = packet(1 << 3, &[]);
    let b2 = packet(1 << 3, &payload(0x40, 6));
    let a4 = packet(1 << 5, &payload(0x60, 19));
    let b4 = packet(1 << 6, &payload(0x80, 6));
    let a1 = packet(1 << 0, &payload(0x60, 19));
    let b1 = packet(1 << 2, &payload(0x80, 6));
    let a3 = packet(1 << 4, &payload(0x60, 19));
    let b3 = packet(1 << 4, &payload(0x80, 6));
    let want: Vec<(usize, Vec<u8>, Vec<u64>)> = vec![
        (
            1,
            [outgoing(&a0), outgoing(&b0)].concat(),
            (6..=16).chain(20..=27).collect(),
        ),
        (
            7,
            [outgoing(&a6), outgoing(&b6)].concat(),
            (6..=16).chain(22..=29).collect(),
        ),
        (
            3,
            [outgoing(&a2), outgoing(&b2)].concat(),
            vec![6, 7, 8, 10, 11, 12, 13, 14, 15, 16],
        ),
        (5, outgoing(&a4), (6..=21).chain(52..=56).collect()),
        (
            6,
            outgoing(&b4),
            std::iter::once(57).chain(59..=65).collect(),
        ),
        (0, outgoing(&a1), (6..=21).chain(24..=28).collect()),
        (
            2,
            outgoing(&b1),
            std::iter::once(29).chain(31..=37).collect(),
        ),
        (
            4,
            [outgoing(&a3), outgoing(&b3)].concat(),
            (6..=21).chain(23..=27).chain(31..=38).collect(),
        ),
    ];
    let s = script(
        vec![
            (0, back_to_back(&[&a0, &b0])),
            (6, raw6),
            (2, back_to_back(&[&a2, &b2])),
            (4, back_to_back(&[&a4, &b4])),
            (1, back_to_back(&[&a1, &b1])),
            (3, back_to_back(&[&a3, &b3])),
        ],
        vec![
            (5, tokens_at(50..=70)),
            (0, tokens_at(22..=42)),
            (4, tokens_at(21..=41)),
        ],
        100,
        move |l| {
            for (o, bytes, cycles) in &want {
                same(&format!("G7: output {o} sent"), &out_bytes(l, *o), bytes)?;
                same(
                    &format!("G7: output {o} sent in cycles"),
                    &out_cycles(l, *o),
                    cycles,
                )?;
            }
            Ok(())
        },
    );
    directed("G7 cut-through latency", s);
}

//! The 16-node `sp2_board_v2` (8 `Sp2SwitchV2` chips) against the model network
//! `asr_model::sp2::network::Sp2Network` on `builtin("sp2:16")` (`cosim/tops/sp2_board.rs`: 16 model
//! processors with ASR and single-path headers from the route generator, random destinations and lengths,
//! load phases, backpressure on and off; the board's outputs and every chip's link and token outputs
//! compared every cycle; a scoreboard keyed by (source, destination, sequence); the board drains and every
//! chip ends idle with its free list full): in rust-hdl's simulation, in Icarus and in Verilator. Also the
//! wiring, the route tables and the cut-through latency. Replay a failure with `ASR_SEED=<seed>`.

use asr_hdl::sp2::board::{BoardChip, BoardWires, End, Sp2Board};
use asr_model::header::Header;
use asr_model::routing::Routing;
use asr_model::sp2::network::Sp2Network;
use asr_model::sp2::node::Node;
use asr_model::sp2::v2::switch::Sp2SwitchV2;
use asr_model::sp2::Sp2Outputs;
use asr_model::sp2::{encode_packet, SwitchModel, PORTS};
use asr_model::topology::builtin;
use asr_testbench::cosim::tops::sp2_board::asr_tables as tables;
use asr_testbench::cosim::{check, BackendKind, Report};
use asr_testbench::harness::cycles;
use asr_testbench::harness::{pack, rng};
use asr_testbench::lockstep::SETTLE;
use rust_hdl::prelude::*;

const N: usize = 16;
const CHIPS: usize = 8;

/// The board's input pins in one cycle.
#[derive(Debug, Clone, Copy)]
struct Pins {
    link_in: [Option<u8>; N],
    token_in: [bool; N],
}

/// The board's outputs in one cycle, and every chip's link and token outputs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ports {
    link_out: [Option<u8>; N],
    token_out: [bool; N],
    chips: [Sp2Outputs; CHIPS],
}

/// The model network's ports this cycle (before its step).
fn model_ports<S: SwitchModel>(net: &Sp2Network<S>) -> Ports {
    let mut p = Ports {
        link_out: [None; N],
        token_out: [false; N],
        chips: [Sp2Outputs::default(); CHIPS],
    };
    for k in 0..N {
        (p.link_out[k], p.token_out[k]) = net.to_node(k);
    }
    p.chips.copy_from_slice(net.switch_outputs());
    p
}

/// One HDL cycle: lower the clock and drive the pins, settle, read every output, raise the clock, settle.
/// (Lowering the clock together with the new inputs saves one settle per cycle: no register acts on a
/// falling edge.)
fn hw_cycle<C: BoardChip>(u: &mut Sp2Board<C>, p: &Pins) -> Ports {
    u.clock.next = Clock::from(false);
    let bools =
        |b: &[bool; N]| Bits::<16>::from(b.iter().rev().fold(0u64, |a, &x| (a << 1) | x as u64));
    u.node_in_valid.next = bools(&p.link_in.map(|b| b.is_some()));
    u.node_in_data.next = pack(&p.link_in.map(|b| b.unwrap_or(0) as u128), 8);
    u.node_token_in.next = bools(&p.token_in);
    assert!(simulate(u, SETTLE), "board does not settle before the edge");
    let ports = hw_ports(u);
    u.clock.next = Clock::from(true);
    assert!(simulate(u, SETTLE), "board does not settle after the edge");
    ports
}

/// The HDL's outputs as they are now; a byte of an idle port must be 0.
fn hw_ports<C: BoardChip>(u: &Sp2Board<C>) -> Ports {
    let v = u.node_out_valid.val().to_u64();
    let d = u.node_out_data.val();
    let words = [d.get_bits::<64>(0).to_u64(), d.get_bits::<64>(64).to_u64()];
    let t = u.node_token_out.val().to_u64();
    let byte = |valid: bool, b: u64, what: &str| {
        if valid {
            Some(b as u8)
        } else {
            assert_eq!(b, 0, "{what}: the data of an idle port must be 0");
            None
        }
    };
    Ports {
        link_out: std::array::from_fn(|k| {
            byte(
                (v >> k) & 1 == 1,
                (words[k / 8] >> (8 * (k % 8))) & 0xff,
                "node_out_data",
            )
        }),
        token_out: std::array::from_fn(|k| (t >> k) & 1 == 1),
        chips: std::array::from_fn(|c| {
            let (v, d, t) = u.sw[c].outputs();
            let (v, d, t) = (v.val().to_u64(), d.val().to_u64(), t.val().to_u64());
            Sp2Outputs {
                link_out: std::array::from_fn(|p| {
                    byte(
                        (v >> p) & 1 == 1,
                        (d >> (8 * p)) & 0xff,
                        "chip link_out_data",
                    )
                }),
                token_out: std::array::from_fn(|p| (t >> p) & 1 == 1),
            }
        }),
    }
}

/// The HDL board's wiring table is the topology `builtin("sp2:16")` builds, and the topology's processor
/// order is P0..P15, so processor k of the model network is port k of the board.
#[test]
fn board_wiring_is_the_sp2_16_topology() {
    let t = builtin("sp2:16").unwrap();
    let w = BoardWires::sp2_16();
    let names: Vec<String> = t
        .nodes()
        .iter()
        .map(|&e| t.element(e).name.clone())
        .collect();
    assert_eq!(names, (0..N).map(|k| format!("P{k}")).collect::<Vec<_>>());
    let sw = t.switches();
    assert_eq!(sw.len(), CHIPS);
    let node_of = |e: usize| names.iter().position(|n| *n == t.element(e).name);
    let end = |p: Option<asr_model::topology::Port>| match p {
        None => End::Open,
        Some(p) => match node_of(p.elem) {
            Some(k) => End::Node(k),
            None => End::Chip {
                chip: sw.iter().position(|&s| s == p.elem).unwrap(),
                port: p.port as usize,
            },
        },
    };
    for (c, &e) in sw.iter().enumerate() {
        assert_eq!(t.element(e).name, format!("N0C{c}"));
        for p in 0..PORTS {
            assert_eq!(
                w.feed[c][p],
                end(t.input(e, p as u32)),
                "chip {c} input {p}"
            );
            assert_eq!(
                w.sink[c][p],
                end(t.output(e, p as u32)),
                "chip {c} output {p}"
            );
        }
    }
    for (k, &e) in t.nodes().iter().enumerate() {
        let o = t.output(e, 0).unwrap();
        let i = t.input(e, 0).unwrap();
        let chip = |x: usize| sw.iter().position(|&s| s == x).unwrap();
        assert_eq!(w.node_in[k], (chip(o.elem), o.port as usize));
        assert_eq!(w.node_out[k], (chip(i.elem), i.port as usize));
    }
}

/// The route generator's ASR headers on the board: one switch within a chip; across chips any of the four
/// stage chips (`0xf0` at the first switch), then the destination's chip, then its port. The single-path
/// reduction keeps one stage chip.
#[test]
fn board_routes_turn_around_at_any_stage_chip() {
    let t = builtin("sp2:16").unwrap();
    let asr = tables(&t);
    let single = asr.single_path("single");
    let mut r = rng(1);
    let (mut h, mut g) = (Vec::new(), Vec::new());
    for s in 0..N {
        for d in (0..N).filter(|&d| d != s) {
            asr.route(s, d, &mut r, &mut h);
            single.route(s, d, &mut r, &mut g);
            let port = 1u64 << (d % 4);
            if s / 4 == d / 4 {
                assert_eq!((&h[..], &g[..]), (&[port][..], &[port][..]), "P{s} → P{d}");
            } else {
                assert_eq!(h, [0xf0, 1 << (4 + d / 4), port], "P{s} → P{d}");
                assert!(
                    g[0].count_ones() == 1 && g[0] & 0xf0 == g[0],
                    "P{s} → P{d}: {g:?}"
                );
                assert_eq!(g[1..], h[1..]);
            }
        }
    }
}

/// Cut-through latency of the HDL board of `C` chips (model twin `S`) without contention (the model agrees
/// every cycle): `per_switch` cycles from `LEN` in to `LEN − 1` out within a chip, 3 × `per_switch` across
/// chips (three switches, direct wires between them).
fn cut_through_latency<C: BoardChip, S: SwitchModel>(per_switch: u64) {
    let t = builtin("sp2:16").unwrap();
    let asr = tables(&t);
    let mut hw = Sp2Board::<C>::default();
    hw.connect_all();
    assert!(simulate(&mut hw, SETTLE));
    let mut net = Sp2Network::<S>::new(&t).unwrap();
    let mut nodes: Vec<Node> = (0..N).map(|_| Node::new()).collect();
    let mut h = Vec::new();
    // P0 → P1 (one chip), then P0 → P6 (chip 4 → a stage chip → chip 5).
    for (dst, switches) in [(1, 1), (6, 3)] {
        asr.route(0, dst, &mut rng(1), &mut h);
        assert_eq!(h.len(), switches);
        let pkt = encode_packet(&Header::new(8, h.clone()).unwrap(), &[7; 10]).unwrap();
        nodes[0].send_queue.push_back(pkt);
        let (mut sent, mut out) = (None, None);
        for n in 0..200 {
            let want = model_ports(&net);
            let mut pins = Pins {
                link_in: [None; N],
                token_in: [false; N],
            };
            for (k, node) in nodes.iter_mut().enumerate() {
                (pins.link_in[k], pins.token_in[k]) =
                    node.cycle(n, want.link_out[k], want.token_out[k], 1);
            }
            net.step(&pins.link_in, &pins.token_in).unwrap();
            assert_eq!(hw_cycle(&mut hw, &pins), want, "cycle {n}");
            if sent.is_none() && pins.link_in[0].is_some() {
                sent = Some(n);
            }
            if out.is_none() && want.link_out[dst].is_some() {
                out = Some(n);
            }
        }
        assert_eq!(nodes[dst].arrivals.len(), 1);
        nodes[dst].arrivals.clear();
        assert_eq!(
            out.unwrap() - sent.unwrap(),
            per_switch * switches as u64,
            "P0 → P{dst}"
        );
    }
    assert!(net.is_idle());
}

/// v2: 6 cycles per switch (the registered request matrix of the pipelined allocator), 18 across chips.
#[test]
fn board_v2_cut_through_latency_is_six_cycles_per_switch() {
    cut_through_latency::<asr_hdl::sp2::v2::switch::Sp2SwitchV2, Sp2SwitchV2>(6);
}

fn exercised(r: &Report) {
    assert_eq!(r.counter("delivered"), r.counter("injected"));
    assert!(
        r.counter("hops_via_xbar") > 100
            && r.counter("hops_via_queue") > 100
            && r.counter("three_switch") > 100
            && r.counter("one_switch") > 100
            && r.counter("single_path") > 100,
        "too little traffic: {r}"
    );
}

/// The board of v2 chips in rust-hdl's simulation: 4 000 cycles of traffic (load phases of 500 cycles) and
/// the drain.
#[test]
fn sp2_board_v2_agrees_with_the_model() {
    let r = check("sp2_board_v2", BackendKind::RustHdl, 4_000);
    exercised(&r);
}

/// The exported Verilog of the v2 board in Icarus: 1 000 cycles of traffic and the drain.
#[test]
#[ignore = "long tier: the board in Icarus (scripts/test.sh runs it)"]
fn sp2_board_v2_verilog_in_icarus() {
    let r = check("sp2_board_v2", BackendKind::Icarus, 1_000);
    assert!(
        r.counter("three_switch") > 0 && r.counter("one_switch") > 0,
        "{r}"
    );
}

/// 10^6 cycles of the exported Verilog of the v2 board in Verilator.
#[test]
#[ignore = "long tier: the board's Verilator build and 10^6 cycles (scripts/test.sh runs it)"]
fn sp2_board_v2_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_board_v2", BackendKind::Verilator, n);
    exercised(&r);
    // Full-range packet lengths (since 2026-11-26): about 96 000 packets in 10^6 cycles.
    assert!(r.counter("delivered") > n / 20, "{r}");
}

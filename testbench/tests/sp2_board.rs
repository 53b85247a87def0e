//! Lock-step: the 16-node `sp2_board` HDL top (8 `Sp2Switch` chips) against the model network
//! `asr_model::sp2::network::Sp2Network` on `builtin("sp2:16")`, both driven by the same 16 model
//! processors (`asr_model::sp2::node::Node`): packets with ASR headers from the route generator's tables
//! (`TableRouting::from_tables`) and some with their single-path reduction (`single_path`), random
//! destinations (on the same chip: one switch; on another chip: three switches, turning around at a stage
//! chip), random lengths, load phases, random consumer backpressure on and off. Every board output and every
//! chip's link and token outputs are compared every cycle; a scoreboard keyed by (source, destination,
//! sequence) checks that every packet arrives exactly once, intact, at its destination; after injection stops
//! the board drains and every model switch must be idle (free lists full). Then the exported Verilog in
//! Icarus on cycles recorded from the model. Replay a failure with `ASR_SEED=<seed>`.

use asr_hdl::sp2::board::{BoardWires, End, Sp2Board};
use asr_model::header::Header;
use asr_model::routing::{Routing, TableRouting};
use asr_model::sp2::network::Sp2Network;
use asr_model::sp2::node::Node;
use asr_model::sp2::switch::Sp2Outputs;
use asr_model::sp2::{encode_packet, PORTS};
use asr_model::topology::{builtin, Topology};
use asr_testbench::harness::{pack, rng, seed};
use asr_testbench::lockstep::SETTLE;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rust_hdl::prelude::*;
use std::collections::HashMap;
use std::time::Instant;

const N: usize = 16;
const CHIPS: usize = 8;
/// Injection cycles of the HDL lock-step (then the board drains).
const CYCLES: usize = 8_000;
/// Injection cycles recorded for Icarus (then the board drains).
const ICARUS_CYCLES: usize = 500;
/// Drain limit: every packet must be out by then.
const DRAIN_LIMIT: usize = 5_000;

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

/// A packet the scoreboard waits for.
struct Expect {
    payload: Vec<u8>,
    hops: usize,
    single: bool,
}

/// What the traffic did.
#[derive(Debug, Default)]
struct Counts {
    injected: u64,
    delivered: u64,
    one_hop: u64,
    three_hop: u64,
    single_path: u64,
    bytes_out: u64,
}

fn tables(t: &Topology) -> TableRouting {
    let tables = asr_model::routes::generate(t, asr_model::routes::Method::Pruned, &|| {})
        .expect("route tables of sp2:16");
    TableRouting::from_tables(t, &tables, "asr").expect("a route for every pair")
}

/// The 16 processors, their traffic and the scoreboard.
struct Traffic {
    rng: Xoshiro256PlusPlus,
    seed: u64,
    asr: TableRouting,
    single: TableRouting,
    nodes: Vec<Node>,
    seq: Vec<u16>,
    pending: HashMap<(usize, usize, u16), Expect>,
    /// Cycles per load phase.
    phase_len: usize,
    /// Per processor: probability of consuming a received byte in this phase.
    consume: [f64; N],
    counts: Counts,
    hops: Vec<u64>,
}

impl Traffic {
    /// `seed` is the test's seed (printed on failure); the random stream is `seed ^ salt`.
    fn new(seed: u64, salt: u64, t: &Topology, phase_len: usize) -> Self {
        let asr = tables(t);
        let single = asr.single_path("single");
        Traffic {
            rng: rng(seed ^ salt),
            seed,
            asr,
            single,
            nodes: (0..N).map(|_| Node::new()).collect(),
            seq: vec![0; N],
            pending: HashMap::new(),
            phase_len,
            consume: [1.0; N],
            counts: Counts::default(),
            hops: Vec::new(),
        }
    }

    /// A new packet from `src`: destination, route (ASR or single-path), payload
    /// `[src, dst, seq_hi, seq_lo, …]`.
    fn new_packet(&mut self, src: usize, single_share: f64) -> Vec<u8> {
        let rng = &mut self.rng;
        let dst = if rng.gen_bool(0.3) {
            // Same chip: one switch.
            4 * (src / 4) + (src % 4 + rng.gen_range(1..4)) % 4
        } else {
            (src + rng.gen_range(1..N)) % N
        };
        let single = rng.gen_bool(single_share);
        let routing: &dyn Routing = if single { &self.single } else { &self.asr };
        routing.route(src, dst, rng, &mut self.hops);
        let len = if rng.gen_bool(0.1) {
            rng.gen_range(61..=200)
        } else {
            rng.gen_range(4..=60)
        };
        let seq = self.seq[src];
        self.seq[src] = seq
            .checked_add(1)
            .expect("fewer than 65 536 packets per source");
        let mut payload = vec![src as u8, dst as u8, (seq >> 8) as u8, seq as u8];
        payload.extend((4..len).map(|_| rng.gen::<u8>()));
        let header = Header::new(8, self.hops.clone()).expect("generated routes are valid headers");
        let bytes = encode_packet(&header, &payload).expect("LEN ≤ 255");
        self.pending.insert(
            (src, dst, seq),
            Expect {
                payload,
                hops: self.hops.len(),
                single,
            },
        );
        self.counts.injected += 1;
        bytes
    }

    /// The processors' pins in cycle `n`, given what the board drives to them (`to`); injects new packets
    /// while `inject`.
    fn pins(&mut self, n: usize, inject: bool, to: &Ports) -> Pins {
        // Phases: 0 heavy mixed, 1 heavy with backpressure, 2 heavy single-path, 3 light with backpressure.
        let phase = (n / self.phase_len) % 4;
        if n.is_multiple_of(self.phase_len) {
            for c in self.consume.iter_mut() {
                *c = if phase % 2 == 1 {
                    self.rng.gen_range(0.15..0.9)
                } else {
                    1.0
                };
            }
        }
        let (p_new, single_share) = [(0.04, 0.25), (0.04, 0.25), (0.04, 1.0), (0.008, 0.25)][phase];
        let mut pins = Pins {
            link_in: [None; N],
            token_in: [false; N],
        };
        for k in 0..N {
            if inject && self.nodes[k].send_queue.len() < 3 && self.rng.gen_bool(p_new) {
                let p = self.new_packet(k, single_share);
                self.nodes[k].send_queue.push_back(p);
            }
            let consume = if !inject || self.rng.gen_bool(self.consume[k]) {
                1
            } else {
                0
            };
            let (b, t) = self.nodes[k].cycle(n as u64, to.link_out[k], to.token_out[k], consume);
            pins.link_in[k] = b;
            pins.token_in[k] = t;
        }
        self.counts.bytes_out += to.link_out.iter().filter(|b| b.is_some()).count() as u64;
        pins
    }

    /// Takes the packets that arrived in cycle `n` off the scoreboard.
    fn collect(&mut self, n: usize) {
        let seed = self.seed;
        for at in 0..N {
            for a in self.nodes[at].arrivals.drain(..) {
                let p = &a.payload;
                assert!(
                    p.len() >= 4,
                    "cycle {n}: processor {at} got a {}-byte packet (ASR_SEED={seed:#x})",
                    p.len()
                );
                let (src, dst, seq) = (
                    p[0] as usize,
                    p[1] as usize,
                    u16::from_be_bytes([p[2], p[3]]),
                );
                let Some(e) = self.pending.remove(&(src, at, seq)) else {
                    panic!(
                        "cycle {n}: processor {at} got packet {src}#{seq} for {dst}: unknown, duplicate or \
                         misdelivered (ASR_SEED={seed:#x})"
                    );
                };
                assert!(
                    a.crc_ok && *p == e.payload,
                    "cycle {n}: packet {src}#{seq} arrived at {at} corrupted (CRC ok: {}) (ASR_SEED={seed:#x})",
                    a.crc_ok
                );
                self.counts.delivered += 1;
                match e.hops {
                    1 => self.counts.one_hop += 1,
                    3 => self.counts.three_hop += 1,
                    h => panic!("a {h}-switch route on one board (ASR_SEED={seed:#x})"),
                }
                self.counts.single_path += e.single as u64;
            }
        }
    }

    fn idle(&self) -> bool {
        self.pending.is_empty() && self.nodes.iter().all(|x| x.is_idle())
    }
}

/// The model network's ports this cycle (before its step).
fn model_ports(net: &Sp2Network) -> Ports {
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
fn hw_cycle(u: &mut Sp2Board, p: &Pins) -> Ports {
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
fn hw_ports(u: &Sp2Board) -> Ports {
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
            let s = &u.sw[c];
            let (v, d, t) = (
                s.link_out_valid.val().to_u64(),
                s.link_out_data.val().to_u64(),
                s.token_out.val().to_u64(),
            );
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

/// Runs the traffic (random stream `seed ^ salt`) on the model network (and the HDL board in lock-step, if
/// given) for `cycles` injection cycles, then drains. Returns every cycle's pins and model ports (if
/// `record`), the traffic and the network.
fn run(
    seed: u64,
    salt: u64,
    cycles: usize,
    phase_len: usize,
    mut hw: Option<&mut Sp2Board>,
    record: bool,
) -> (Vec<(Pins, Ports)>, Traffic, Sp2Network) {
    let t = builtin("sp2:16").unwrap();
    let mut net = Sp2Network::new(&t).unwrap();
    let mut tr = Traffic::new(seed, salt, &t, phase_len);
    let mut rec = Vec::new();
    let mut n = 0;
    loop {
        let inject = n < cycles;
        if !inject && tr.idle() && net.is_idle() {
            break;
        }
        assert!(
            n < cycles + DRAIN_LIMIT,
            "{} packets not delivered {DRAIN_LIMIT} cycles after injection stopped (ASR_SEED={seed:#x})",
            tr.pending.len()
        );
        let want = model_ports(&net);
        let pins = tr.pins(n, inject, &want);
        let (lo, to) = net
            .step(&pins.link_in, &pins.token_in)
            .unwrap_or_else(|e| panic!("model, cycle {n}: {e} (ASR_SEED={seed:#x})"));
        assert!(lo[..] == want.link_out[..] && to[..] == want.token_out[..]);
        if let Some(u) = hw.as_deref_mut() {
            let got = hw_cycle(u, &pins);
            assert_eq!(
                got, want,
                "cycle {n}: HDL board and model differ (ASR_SEED={seed:#x}); pins {pins:?}"
            );
        }
        if n % 97 == 0 {
            net.check()
                .unwrap_or_else(|e| panic!("model, cycle {n}: {e} (ASR_SEED={seed:#x})"));
        }
        tr.collect(n);
        if record {
            rec.push((pins, want));
        }
        n += 1;
    }
    net.check()
        .unwrap_or_else(|e| panic!("model after draining: {e} (ASR_SEED={seed:#x})"));
    for (s, sw) in net.switches.iter().enumerate() {
        assert!(
            sw.is_idle() && sw.cq.free() as usize == asr_model::sp2::CQ_CHUNKS,
            "chip {s} not idle after draining (ASR_SEED={seed:#x})"
        );
    }
    (rec, tr, net)
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

/// Cut-through latency of the HDL board without contention (the model agrees every cycle): 5 cycles from
/// `LEN` in to `LEN − 1` out within a chip, 15 across chips (three switches, direct wires between them).
#[test]
fn board_cut_through_latency_is_five_cycles_per_switch() {
    let t = builtin("sp2:16").unwrap();
    let asr = tables(&t);
    let mut hw = Sp2Board::default();
    hw.connect_all();
    assert!(simulate(&mut hw, SETTLE));
    let mut net = Sp2Network::new(&t).unwrap();
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
            5 * switches as u64,
            "P0 → P{dst}"
        );
    }
    assert!(net.is_idle());
}

#[test]
fn sp2_board_agrees_with_the_model() {
    let seed = seed();
    let mut hw = Sp2Board::default();
    hw.connect_all();
    assert!(simulate(&mut hw, SETTLE));
    let start = Instant::now();
    let (_, tr, net) = run(seed, 0, CYCLES, 1_000, Some(&mut hw), false);
    let secs = start.elapsed().as_secs_f64();
    let via_queue: u64 = net
        .switches
        .iter()
        .flat_map(|s| &s.tx)
        .map(|t| t.packets_queue)
        .sum();
    let via_xbar: u64 = net
        .switches
        .iter()
        .flat_map(|s| &s.tx)
        .map(|t| t.packets_xbar)
        .sum();
    let c = &tr.counts;
    let passes: Vec<String> = hw
        .sw
        .iter()
        .map(|s| format!("{:.1}", s.passes as f64 / net.cycle as f64))
        .collect();
    eprintln!(
        "sp2_board: simulation passes per cycle, chips 0..8: {}",
        passes.join(" ")
    );
    eprintln!(
        "sp2_board: {} cycles ({CYCLES} injecting) agree ({secs:.1} s, {:.0} cycles/s): {} packets injected and \
         delivered ({} one-switch, {} three-switch, {} single-path), {} bytes to the processors, packet-hops \
         {via_xbar} via a crossbar and {via_queue} via a central queue (seed {seed:#x})",
        net.cycle,
        net.cycle as f64 / secs,
        c.delivered,
        c.one_hop,
        c.three_hop,
        c.single_path,
        c.bytes_out
    );
    assert_eq!(c.delivered, c.injected);
    assert!(
        via_xbar > 100
            && via_queue > 100
            && c.three_hop > 100
            && c.one_hop > 100
            && c.single_path > 100,
        "too little traffic: {c:?}, {via_xbar} via crossbars, {via_queue} via queues (ASR_SEED={seed:#x})"
    );
}

/// The exported `sp2_board` Verilog in Icarus on cycles recorded from the model network.
#[test]
fn sp2_board_verilog_in_icarus() {
    use asr_testbench::icarus::{run as icarus, sp2_link_ports, sp2_link_values, Vector};
    let seed = seed();
    let (rec, tr, _) = run(seed, 0xb0a2d, ICARUS_CYCLES, 125, None, true);
    assert!(tr.counts.three_hop > 0 && tr.counts.one_hop > 0);
    let vectors: Vec<Vector> = rec
        .iter()
        .map(|(p, o)| Vector {
            inputs: sp2_link_values(&p.link_in, &p.token_in),
            outputs: sp2_link_values(&o.link_out, &o.token_out),
        })
        .collect();
    let t = Instant::now();
    let r = icarus(
        "sp2_board",
        &asr_hdl::export::verilog_of("sp2_board").unwrap(),
        &sp2_link_ports("node_in_", "node_token_in", N),
        &sp2_link_ports("node_out_", "node_token_out", N),
        &vectors,
        true,
    )
    .expect("Icarus run (iverilog must be installed)");
    r.assert_clean("sp2_board", seed, vectors.len());
    eprintln!(
        "sp2_board: Icarus run of {} cycles ({} packets) took {:.1} s",
        vectors.len(),
        tr.counts.delivered,
        t.elapsed().as_secs_f64()
    );
}

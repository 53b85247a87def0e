//! Credit-based flow control (docs/simulator.md "Flow control"): the same rule on every channel, with
//! configurable input-buffer depth and link delay; and every registered allocator inside the engine.
//!
//! Exact channel rates: one source streaming through a line of switches (feed-forward) or around a ring
//! (cyclic) delivers min(1, depth / round trip) packets per cycle, the round trip being 2L + 1 cycles
//! (L = link delay), or 2 on a cyclic network with L = 0 (one register in every credit path). Zero-load
//! latency is 2S + (S − 1)L edges through S switches. Whole runs with the scoreboard (every packet once, at
//! its destination, drained, buffers never over-full) on Beneš, butterflies, meshes and rings, for every
//! depth, delay and allocator, with and without back-pressure.

use asr_model::allocator::NAMES;
use asr_model::network::build::{benes_topology, fly_topology};
use asr_model::network::engine::{Engine, FlowControl, StepIo};
use asr_model::network::packet::{Meta, Packets, NONE};
use asr_model::network::sim::{simulate, SimConfig};
use asr_model::network::NetError;
use asr_model::routing::{BenesRouting, FlyRouting, Routing, Scheme, TableRouting};
use asr_model::topology::{builtin, Port, Topology};
use asr_model::traffic::{Injection, Pattern};

/// `k` two-port switches; processor i on port 0 of switch i; switch i port 1 → switch i+1 port 1, and, when
/// `ring`, switch k−1 → switch 0.
fn chain(k: usize, ring: bool) -> Topology {
    let mut t = Topology::new();
    let s: Vec<usize> = (0..k)
        .map(|i| t.add_switch(&format!("S{i}"), 2).unwrap())
        .collect();
    let p: Vec<usize> = (0..k)
        .map(|i| t.add_node(&format!("P{i}")).unwrap())
        .collect();
    for i in 0..k {
        t.link(
            Port {
                elem: p[i],
                port: 0,
            },
            Port {
                elem: s[i],
                port: 0,
            },
        )
        .unwrap();
        if i + 1 < k || ring {
            t.wire(
                Port {
                    elem: s[i],
                    port: 1,
                },
                Port {
                    elem: s[(i + 1) % k],
                    port: 1,
                },
            )
            .unwrap();
        }
    }
    t
}

/// Processor 0 offers a packet to processor `dst` every cycle for `cycles` cycles: packets delivered in
/// the second half of the run per cycle, and the smallest latency seen (acceptance edge to delivery edge).
fn stream(e: &mut Engine, dst: usize, cycles: u64) -> (f64, u64) {
    let n = e.processors();
    e.prepare(n);
    let mut pk = Packets::new(n);
    let mut io = StepIo::default();
    let mut offer = vec![NONE; n];
    let sink = vec![true; n];
    let hops: Vec<u64> = (0..dst).map(|_| 0b10).chain([0b01]).collect();
    let mut accepted_at = std::collections::HashMap::new();
    let (mut late, mut min_lat) = (0u64, u64::MAX);
    for t in 0..cycles {
        if offer[0] == NONE {
            offer[0] = pk.alloc(
                Meta {
                    dst: dst as u32,
                    seq: t as u32,
                    ..Default::default()
                },
                &hops,
            );
        }
        e.step(&mut pk, &offer, &sink, &mut io).unwrap();
        if !io.accepted.is_empty() {
            accepted_at.insert(offer[0], t);
            offer[0] = NONE;
        }
        for &(at, w) in &io.delivered {
            assert_eq!(at as usize, dst);
            min_lat = min_lat.min(t - accepted_at[&w]);
            if t >= cycles / 2 {
                late += 1;
            }
            pk.free(w);
        }
    }
    (late as f64 / (cycles - cycles / 2) as f64, min_lat)
}

#[test]
fn channel_rate_is_depth_over_round_trip_on_every_channel() {
    for ring in [false, true] {
        for (depth, delay) in [
            (1, 0),
            (2, 0),
            (1, 1),
            (2, 1),
            (3, 1),
            (1, 2),
            (3, 2),
            (5, 2),
            (4, 3),
        ] {
            let topo = chain(5, ring);
            let mut e = Engine::new(&topo)
                .unwrap()
                .with_flow(FlowControl::new(depth, delay).unwrap())
                .unwrap();
            assert_eq!(e.is_cyclic(), ring);
            let round_trip = if delay == 0 && ring { 2 } else { 2 * delay + 1 };
            assert_eq!(
                e.credit_delay(),
                if delay == 0 { ring as u32 } else { delay }
            );
            let (rate, lat) = stream(&mut e, 3, 4000);
            let want = (depth as f64 / round_trip as f64).min(1.0);
            assert!(
                (rate - want).abs() < 0.002,
                "ring {ring} depth {depth} delay {delay}: {rate} packets/cycle, expected {want}"
            );
            // 4 switches: 2 edges each plus the delay of the 3 links between them.
            assert_eq!(
                lat as u32,
                2 * 4 + 3 * delay,
                "ring {ring} depth {depth} delay {delay}"
            );
        }
    }
}

fn cfg(load: f64, seed: u64, ppi: u64, sink: f64) -> SimConfig {
    let mut c = SimConfig::new(Injection::geometric(load).unwrap(), Pattern::Uniform, seed);
    c.packets_per_input = ppi;
    c.sink_ready = sink;
    c.max_cycles = 2_000_000;
    c
}

fn check(e: &Engine, r: &dyn Routing, c: &SimConfig, what: &str) -> f64 {
    let s = simulate(e, r, c).unwrap_or_else(|err| panic!("{what}: {err} (seed {})", c.seed));
    assert_eq!(s.generated, s.delivered, "{what}");
    assert!(s.measured > 0, "{what}");
    s.accepted
}

#[test]
fn scoreboard_holds_for_every_depth_delay_and_allocator() {
    let benes = Engine::new(&benes_topology(16).unwrap().topo).unwrap();
    let fly = Engine::new(&fly_topology(4, 3).unwrap().topo).unwrap();
    let mesh_t = builtin("mesh:4x4").unwrap();
    let mesh = Engine::new(&mesh_t).unwrap();
    let (g, t) = asr_model::delivery::tables::grid_topology("mesh:4x4").unwrap();
    let el = |v: usize| t.find(&format!("P{v}")).unwrap();
    let xy = asr_model::delivery::tables::dimension_order(&g)
        .into_iter()
        .map(|r| (el(r.src), el(r.dst), r.hops));
    let xy = TableRouting::from_routes(&t, xy, "xy").unwrap();
    let asr16 = BenesRouting {
        n: 4,
        scheme: Scheme::Asr,
    };
    let tag = FlyRouting { k: 4, n: 3 };
    let mut seed = 1;
    for (depth, delay) in [(1, 0), (2, 0), (4, 1), (8, 3)] {
        let flow = FlowControl::new(depth, delay).unwrap();
        for name in NAMES {
            for sink in [1.0, 0.6] {
                seed += 1;
                let what = format!("depth {depth} delay {delay} {name} sink {sink}");
                let c = cfg(0.8, seed, 60, sink);
                let e = benes
                    .clone()
                    .with_flow(flow)
                    .unwrap()
                    .with_allocator(name)
                    .unwrap();
                check(&e, &asr16, &c, &format!("benes:16 {what}"));
                let e = fly
                    .clone()
                    .with_flow(flow)
                    .unwrap()
                    .with_allocator(name)
                    .unwrap();
                check(&e, &tag, &c, &format!("fly:4,3 {what}"));
                let e = mesh
                    .clone()
                    .with_flow(flow)
                    .unwrap()
                    .with_allocator(name)
                    .unwrap();
                check(
                    &e,
                    &xy,
                    &cfg(0.3, seed, 60, sink),
                    &format!("mesh:4x4 {what}"),
                );
            }
        }
    }
}

#[test]
fn deeper_buffers_raise_saturation_and_thesis_mode_is_the_default() {
    let e = Engine::new(&fly_topology(2, 6).unwrap().topo).unwrap();
    assert_eq!(e.flow(), FlowControl::default());
    assert!(e.flow().is_thesis());
    assert_eq!(e.allocator_name(), "asr-p2");
    let r = FlyRouting { k: 2, n: 6 };
    let c = cfg(1.0, 3, 300, 1.0);
    let one = check(&e, &r, &c, "fly:2,6 depth 1");
    let eight = check(
        &e.clone()
            .with_flow(FlowControl::new(8, 0).unwrap())
            .unwrap(),
        &r,
        &c,
        "fly:2,6 depth 8",
    );
    assert!(one > 0.40 && one < 0.47, "depth 1: {one}");
    assert!(eight > 0.60, "depth 8: {eight}");
}

#[test]
fn bad_flow_parameters_are_errors() {
    assert!(matches!(FlowControl::new(0, 0), Err(NetError::BadFlow(_))));
    assert!(matches!(FlowControl::new(65, 0), Err(NetError::BadFlow(_))));
    assert!(matches!(FlowControl::new(2, 65), Err(NetError::BadFlow(_))));
    let e = Engine::new(&chain(3, false)).unwrap();
    assert!(matches!(
        e.with_allocator("fifo"),
        Err(NetError::BadFlow(_))
    ));
}

#[test]
fn memory_does_not_grow_with_the_run() {
    // Load 1.0 on fly:2,6 (saturation ≈ 0.44): the sources fall behind by 0.56 packets per cycle each, yet
    // what the run stores is bounded by the network, not by its length: ten times the packets, the same
    // high-water marks.
    let e = Engine::new(&fly_topology(2, 6).unwrap().topo).unwrap();
    let r = FlyRouting { k: 2, n: 6 };
    let short = simulate(&e, &r, &cfg(1.0, 4, 300, 1.0)).unwrap();
    let long = simulate(&e, &r, &cfg(1.0, 4, 3000, 1.0)).unwrap();
    assert!(long.generated > 5 * short.generated);
    // 192 switches × 4 buffers + 64 offered packets.
    let bound = 192 * 4 + 64;
    for s in [&short, &long] {
        assert!(s.peak_packets as usize <= bound, "{}", s.peak_packets);
        assert!(s.peak_scoreboard as usize <= bound, "{}", s.peak_scoreboard);
    }
    assert!(long.peak_packets <= short.peak_packets + 64);
}

/// One N×N switch with a processor on every port: an input-queued switch with FIFO input buffers. Under
/// uniform traffic (destinations uniform over all N, the source included) its saturation throughput is set
/// by head-of-line blocking; Karol, Hluchyj and Morgan (1987, Table I) give 0.6553 for N = 4 and 0.6184 for
/// N = 8 (0.586 as N grows). The engine reproduces both within 0.01, whatever the allocator (with FIFOs
/// each head asks for one output, so any allocator that grants a contended output to one of its requesters
/// is the same up to the choice) and the depth (the head is what blocks). This validates the model behind
/// the mesh figures of docs/simulator.md: an input-queued switch with FIFOs, no virtual channels.
#[test]
fn a_single_fifo_switch_saturates_at_the_head_of_line_blocking_limit() {
    for (n, karol) in [(4usize, 0.6553), (8, 0.6184)] {
        let mut t = Topology::new();
        let s = t.add_switch("S0", n as u32).unwrap();
        for i in 0..n {
            let p = t.add_node(&format!("P{i}")).unwrap();
            t.link(
                Port { elem: p, port: 0 },
                Port {
                    elem: s,
                    port: i as u32,
                },
            )
            .unwrap();
        }
        let tables =
            asr_model::routes::generate(&t, asr_model::routes::Method::Pruned, &|| {}).unwrap();
        let r = TableRouting::from_tables(&t, &tables, "single").unwrap();
        for (depth, alloc) in [(8, "islip-1"), (64, "asr-p2"), (16, "wavefront")] {
            let e = Engine::new(&t)
                .unwrap()
                .with_flow(FlowControl::new(depth, 0).unwrap())
                .unwrap()
                .with_allocator(alloc)
                .unwrap();
            let got = check(&e, &r, &cfg(1.0, 7, 6000, 1.0), &format!("{n}x{n} {alloc}"));
            assert!(
                (got - karol).abs() < 0.01,
                "{n}×{n} FIFO switch, depth {depth}, {alloc}: saturation {got:.4}, HOL limit {karol}"
            );
        }
    }
}

/// Issue 15's mesh goal: `mesh:8x8`, XY routing, 8-packet FIFO input buffers, uniform traffic. With the
/// oldest-first allocator (`age`) the mesh saturates above 0.40 packets/node/cycle and keeps that throughput
/// at full offered load; with round-robin allocators head-of-line blocking holds it near 0.39
/// (docs/simulator.md).
#[test]
fn an_8x8_mesh_with_xy_and_age_arbitration_saturates_above_0_40() {
    let t = builtin("mesh:8x8").unwrap();
    let (g, gt) = asr_model::delivery::tables::grid_topology("mesh:8x8").unwrap();
    let el = |v: usize| gt.find(&format!("P{v}")).unwrap();
    let xy = asr_model::delivery::tables::dimension_order(&g)
        .into_iter()
        .map(|r| (el(r.src), el(r.dst), r.hops));
    let xy = TableRouting::from_routes(&t, xy, "xy").unwrap();
    let flow = FlowControl::new(8, 0).unwrap();
    let sat = |alloc: &str| {
        [0.42, 0.46, 1.0]
            .iter()
            .map(|&load| {
                let e = Engine::new(&t)
                    .unwrap()
                    .with_flow(flow)
                    .unwrap()
                    .with_allocator(alloc)
                    .unwrap();
                check(
                    &e,
                    &xy,
                    &cfg(load, 11, 1500, 1.0),
                    &format!("mesh {alloc} {load}"),
                )
            })
            .fold(0.0f64, f64::max)
    };
    let (age, rr) = (sat("age"), sat("islip-1"));
    assert!(age >= 0.40, "age: {age:.4}");
    assert!(rr < age, "islip-1 {rr:.4} against age {age:.4}");
}

//! The general network simulator, built for a Beneš from a `Topology`, against the port-level
//! `asr_model::benes::Benes` (docs/contracts.md wiring, `Switch2` per switch): under the same random injections and
//! random back-pressure, every cycle must show the same `in_ready`, `out_valid` and output tag on every port.

use asr_model::benes::{Benes, TAG_BITS};
use asr_model::header::Header;
use asr_model::network::build::benes_topology;
use asr_model::network::engine::{Engine, StepIo};
use asr_model::network::packet::{Meta, Packets, NONE};
use asr_model::rng::stream;
use asr_model::routing::{BenesRouting, Routing, Scheme};
use rand::Rng;

fn lockstep(
    ports: usize,
    scheme: Scheme,
    load: f64,
    ready_p: f64,
    cycles: usize,
    seed: u64,
    packed: bool,
) {
    let n = ports.trailing_zeros() as usize;
    let stages = 2 * n - 1;
    let g = benes_topology(ports).unwrap();
    let mut e = Engine::new(&g.topo).unwrap();
    if packed {
        e.prepare(stages);
    }
    assert_eq!(e.is_packed(), packed);
    let mut b = Benes::new(ports).unwrap();
    let mut pk = Packets::new(stages);
    let routing = BenesRouting { n, scheme };
    let mut rng = stream(seed, 0);
    // Pending offer per input: (word, slot).
    let mut pending: Vec<Option<(u128, u32)>> = vec![None; ports];
    let mut hops = Vec::new();
    let mut io = StepIo::default();
    let mut tag = 0u64;
    let mut delivered = 0usize;
    for cyc in 0..cycles {
        for (p, pend) in pending.iter_mut().enumerate() {
            if pend.is_none() && rng.gen::<f64>() < load {
                let d = rng.gen_range(0..ports);
                routing.route(p, d, &mut rng, &mut hops);
                tag = (tag + 1) % (1 << TAG_BITS);
                let word = Header::new(2, hops.clone())
                    .unwrap()
                    .to_u128(2, tag, TAG_BITS)
                    .unwrap();
                let meta = Meta {
                    src: p as u32,
                    dst: d as u32,
                    seq: tag as u32,
                    ..Default::default()
                };
                *pend = Some((word, pk.alloc(meta, &hops)));
            }
        }
        let in_valid: Vec<bool> = pending.iter().map(|x| x.is_some()).collect();
        let in_data: Vec<u128> = pending.iter().map(|x| x.map_or(0, |v| v.0)).collect();
        let offer: Vec<u32> = pending.iter().map(|x| x.map_or(NONE, |v| v.1)).collect();
        let out_ready: Vec<bool> = (0..ports).map(|_| rng.gen::<f64>() < ready_p).collect();

        // What the general engine drives this cycle.
        let shown: Vec<Option<u64>> = (0..ports)
            .map(|p| {
                let w = e.offered_to(p).unwrap();
                (w != NONE).then(|| pk.meta(w).seq as u64)
            })
            .collect();
        e.eval(&out_ready);
        let ready: Vec<bool> = (0..ports).map(|p| e.inject_ready(p)).collect();
        e.commit(&mut pk, &offer, &mut io).unwrap();

        let o = b.step(&in_valid, &in_data, &out_ready).unwrap();
        for p in 0..ports {
            assert_eq!(
                o.in_ready[p], ready[p],
                "cycle {cyc} in_ready[{p}] seed {seed}"
            );
            assert_eq!(
                o.out_valid[p],
                shown[p].is_some(),
                "cycle {cyc} out_valid[{p}] seed {seed}"
            );
            if let Some(t) = shown[p] {
                assert_eq!(
                    o.out_data[p], t as u128,
                    "cycle {cyc} out_data[{p}] seed {seed}"
                );
            }
        }
        let acc: Vec<u32> = io.accepted.clone();
        for &p in &acc {
            pending[p as usize] = None;
        }
        for &(at, w) in &io.delivered {
            assert_eq!(pk.meta(w).dst, at);
            pk.free(w);
            delivered += 1;
        }
        assert_eq!(e.population(), b.occupancy(), "cycle {cyc}");
    }
    assert!(delivered > cycles / 4, "too little traffic to be a test");
}

#[test]
fn general_engine_equals_benes_step() {
    for (ports, seed) in [(4usize, 1u64), (8, 2), (16, 3), (32, 4)] {
        for scheme in [Scheme::Asr, Scheme::Random] {
            // Back-pressure off and on, light and heavy load, headers packed in the buffers or not.
            for packed in [false, true] {
                lockstep(ports, scheme, 0.9, 1.0, 600, seed, packed);
                lockstep(ports, scheme, 0.9, 0.6, 600, seed + 10, packed);
                lockstep(ports, scheme, 0.3, 0.8, 600, seed + 20, packed);
            }
        }
    }
}

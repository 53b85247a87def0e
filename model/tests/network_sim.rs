//! Whole runs of the network simulator: scoreboard invariants (every packet delivered once, at its
//! destination, tag intact, buffers never doubly occupied, drain), with back-pressure on and off, on the
//! Beneš (radix 2, switch2 rule), the k-ary n-fly (radix k > 2, matching heuristic) and a cyclic ring; and
//! the errors bad input must produce.

use asr_model::network::build::{benes_topology, fly_topology};
use asr_model::network::engine::Engine;
use asr_model::network::sim::{simulate, SimConfig};
use asr_model::network::sweep::{saturation, sweep};
use asr_model::network::NetError;
use asr_model::rng::Rng;
use asr_model::routing::{BenesRouting, FlyRouting, Routing, Scheme};
use asr_model::topology::{Port, Topology};
use asr_model::traffic::{Injection, Pattern};

fn cfg(load: f64, pattern: Pattern, seed: u64, ppi: u64, sink: f64) -> SimConfig {
    let mut c = SimConfig::new(Injection::geometric(load).unwrap(), pattern, seed);
    c.packets_per_input = ppi;
    c.sink_ready = sink;
    c.max_cycles = 1_000_000;
    c
}

fn benes(ports: usize) -> Engine {
    Engine::new(&benes_topology(ports).unwrap().topo).unwrap()
}

#[test]
fn benes_scoreboard_all_patterns_and_schemes() {
    for ports in [8usize, 16] {
        let e = benes(ports);
        let n = ports.trailing_zeros() as usize;
        for scheme in [
            Scheme::Asr,
            Scheme::Random,
            Scheme::RandomPair,
            Scheme::Fixed,
        ] {
            let r = BenesRouting { n, scheme };
            for pat in Pattern::ALL {
                if pat.check(ports).is_err() {
                    continue;
                }
                for sink in [1.0, 0.5] {
                    let s = simulate(&e, &r, &cfg(0.6, pat, 5, 150, sink))
                        .unwrap_or_else(|err| panic!("{ports} {scheme} {pat} {sink}: {err}"));
                    assert_eq!(s.generated, s.delivered);
                    assert!(s.measured >= 150 * ports as u64);
                    assert!(s.accepted > 0.0 && s.accepted <= 1.0);
                    assert!(s.mean_latency >= 2.0 * (2 * n - 1) as f64);
                }
            }
        }
    }
}

#[test]
fn butterfly_radix_2_and_4() {
    for (k, n) in [(2usize, 4usize), (4, 2), (4, 3), (3, 2)] {
        let e = Engine::new(&fly_topology(k, n).unwrap().topo).unwrap();
        let r = FlyRouting { k, n };
        for sink in [1.0, 0.7] {
            let s = simulate(&e, &r, &cfg(0.5, Pattern::Uniform, 9, 200, sink)).unwrap();
            assert_eq!(s.generated, s.delivered);
            assert!(s.mean_network_latency >= 2.0 * n as f64);
        }
    }
    // 9 processors: structured patterns need a power of two.
    let e = Engine::new(&fly_topology(3, 2).unwrap().topo).unwrap();
    assert!(matches!(
        simulate(
            &e,
            &FlyRouting { k: 3, n: 2 },
            &cfg(0.5, Pattern::ShiftRight, 1, 10, 1.0)
        ),
        Err(NetError::Pattern(_))
    ));
}

#[test]
fn zero_load_latency_is_two_edges_per_switch() {
    // Beneš 8: 5 stages, 10 edges from acceptance to delivery; almost no contention at load 0.002.
    let e = benes(8);
    let s = simulate(
        &e,
        &BenesRouting {
            n: 3,
            scheme: Scheme::Asr,
        },
        &cfg(0.002, Pattern::Uniform, 3, 15, 1.0),
    )
    .unwrap();
    assert!(
        s.mean_latency >= 10.0 && s.mean_latency < 10.5,
        "{}",
        s.mean_latency
    );
    assert!(s.mean_network_latency >= 10.0);
}

/// A routing that produces a deliberately wrong header.
struct Broken(u8);
impl Routing for Broken {
    fn max_hops(&self) -> usize {
        5
    }
    fn processors(&self) -> usize {
        8
    }
    fn route(&self, _s: usize, d: usize, _r: &mut Rng, h: &mut Vec<u64>) {
        h.clear();
        h.extend([3, 3, 1 << ((d >> 2) & 1), 1 << ((d >> 1) & 1), 1 << (d & 1)]);
        match self.0 {
            0 => h[4] ^= 3, // wrong last port: misdelivery
            1 => {
                h.pop(); // one hop short
            }
            _ => h[0] = 0b100, // port 2 of a 2-port switch
        }
    }
    fn name(&self) -> String {
        "broken".into()
    }
}

#[test]
fn bad_headers_are_errors() {
    let e = benes(8);
    let c = cfg(0.3, Pattern::Uniform, 1, 20, 1.0);
    assert!(matches!(
        simulate(&e, &Broken(0), &c),
        Err(NetError::Misdelivered { .. })
    ));
    assert!(matches!(
        simulate(&e, &Broken(1), &c),
        Err(NetError::HeaderExhausted { .. })
    ));
    assert!(matches!(
        simulate(&e, &Broken(2), &c),
        Err(NetError::LeadsNowhere { .. })
    ));
    assert!(matches!(
        simulate(
            &e,
            &BenesRouting {
                n: 4,
                scheme: Scheme::Asr
            },
            &c
        ),
        Err(NetError::SizeMismatch { .. })
    ));
    assert!(benes_topology(24).is_err());
    assert!(Injection::geometric(1.2).is_err());
}

/// Four 2-port switches in a unidirectional ring, one processor on port 0 of each: a cyclic topology, so
/// one ring channel gets registered ready.
struct RingRoute;
impl Routing for RingRoute {
    fn max_hops(&self) -> usize {
        4
    }
    fn processors(&self) -> usize {
        4
    }
    fn route(&self, s: usize, d: usize, _r: &mut Rng, h: &mut Vec<u64>) {
        h.clear();
        for _ in 0..(d + 4 - s) % 4 {
            h.push(0b10);
        }
        h.push(0b01);
    }
    fn name(&self) -> String {
        "ring".into()
    }
}

#[test]
fn cyclic_ring_runs_and_drains() {
    let mut t = Topology::new();
    let s: Vec<usize> = (0..4)
        .map(|i| t.add_switch(&format!("S{i}"), 2).unwrap())
        .collect();
    let p: Vec<usize> = (0..4)
        .map(|i| t.add_node(&format!("P{i}")).unwrap())
        .collect();
    for i in 0..4 {
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
        t.wire(
            Port {
                elem: s[i],
                port: 1,
            },
            Port {
                elem: s[(i + 1) % 4],
                port: 1,
            },
        )
        .unwrap();
    }
    let e = Engine::new(&t).unwrap();
    let st = simulate(&e, &RingRoute, &cfg(0.05, Pattern::Uniform, 2, 100, 1.0)).unwrap();
    assert_eq!(st.generated, st.delivered);
}

#[test]
fn sweep_is_deterministic_and_asr_beats_random_on_shift_right() {
    let e = benes(16);
    let loads = [0.3, 0.7, 1.0];
    let base = cfg(0.5, Pattern::ShiftRight, 11, 300, 1.0);
    let asr = BenesRouting {
        n: 4,
        scheme: Scheme::Asr,
    };
    let rnd = BenesRouting {
        n: 4,
        scheme: Scheme::Random,
    };
    let a = sweep(&e, &asr, &base, &loads, &|| {}).unwrap();
    let r = sweep(&e, &rnd, &base, &loads, &|| {}).unwrap();
    // Same as one run at a time (thread count does not matter).
    let one = simulate(
        &e,
        &asr,
        &SimConfig {
            injection: Injection::geometric(0.7).unwrap(),
            ..base
        },
    )
    .unwrap();
    assert_eq!(one, a[1]);
    assert!(
        saturation(&a) > saturation(&r) + 0.05,
        "{} vs {}",
        saturation(&a),
        saturation(&r)
    );
}

//! Wormhole routing on hypercubes (seed 004): E-cube path of Example 2.16, delivery and invariants for every
//! algorithm on n = 4..6, channel-dependency checks, the deadlock watchdog, and bad input.

use asr_model::wormhole::algorithms::{self, ecube, nonminimal, Algorithm};
use asr_model::wormhole::cdg;
use asr_model::wormhole::router::Candidates;
use asr_model::wormhole::traffic::{transpose, Pattern};
use asr_model::wormhole::{NodeModel, SimConfig, Simulator, WormError};

#[test]
fn ecube_example_2_16() {
    // Ps = 010, Pd = 111: 010 -> 011 -> 111.
    assert_eq!(ecube::path(0b010, 0b111), vec![0b010, 0b011, 0b111]);
    let mut c = Candidates::default();
    Algorithm::Ecube.route(3, 0b010, 0b111, 0, &mut c);
    assert_eq!(c.len(), 1);
    assert_eq!(c.as_slice()[0].dim, 0);
    Algorithm::Ecube.route(3, 0b011, 0b111, 0, &mut c);
    assert_eq!(c.as_slice()[0].dim, 2);
}

#[test]
fn transpose_and_nonminimal_sets() {
    assert_eq!(transpose(0b1101_0010, 8), 0b0010_1101);
    assert_eq!(transpose(0b01_10, 4), 0b10_01);
    assert_eq!(nonminimal::dims(9), (1 << 7) | (1 << 5) | (1 << 3));
    assert_eq!(nonminimal::dims(5), 0b1010);
    assert_eq!(nonminimal::dims(4), 0b0101);
    assert_eq!(nonminimal::dims(3), 0);
    assert_eq!(
        nonminimal::vcs(10),
        4,
        "seed: at most 4 virtual channels per directed link"
    );
    assert_eq!(Algorithm::NonMinimal.vcs(10), 4);
}

fn small(alg: Algorithm, n: u32, pattern: Pattern, b: u32, pct: f64, seed: u64) -> SimConfig {
    let mut c = SimConfig::new(n, alg, pattern, b, SimConfig::rate_for_pct(b, pct));
    c.warmup = 300;
    c.measure = 1500;
    c.seed = seed;
    c
}

#[test]
fn every_algorithm_delivers_everything() {
    for n in 4..=6u32 {
        for alg in algorithms::ALL {
            for (b, pct) in [(10u32, 40.0), (20, 90.0)] {
                let cfg = small(alg, n, Pattern::Random, b, pct, 7 + n as u64);
                let r = Simulator::run(&cfg).unwrap_or_else(|e| panic!("{alg} n={n} b={b}: {e}"));
                assert!(r.delivered > 0, "{alg} n={n}: nothing delivered");
                assert!(r.flit_hops > 0);
                if pct < 50.0 {
                    assert!(
                        r.sustained,
                        "{alg} n={n} b={b} at {pct}% of lambda_max not sustained: {r:?}"
                    );
                }
            }
        }
    }
    // Structured patterns, too (n even for transpose).
    for alg in algorithms::ALL {
        for p in [Pattern::Complement, Pattern::Transpose] {
            let r = Simulator::run(&small(alg, 6, p, 10, 60.0, 3))
                .unwrap_or_else(|e| panic!("{alg} {p}: {e}"));
            assert!(r.delivered > 0);
        }
    }
}

#[test]
fn shared_node_channel_bounds_throughput_at_lambda_max() {
    // One processor-router channel for injection and ejection: a node that sends and receives λ worms of b
    // flits per cycle needs 2λb ≤ 1, so no algorithm exceeds 100 % of λmax, however high the offered load
    // (separate channels let E-cube carry complement traffic at 150 %). Every run still delivers everything.
    for alg in algorithms::ALL {
        for p in [Pattern::Random, Pattern::Complement, Pattern::Transpose] {
            let mut c = small(alg, 6, p, 10, 150.0, 5);
            c.node = NodeModel::Shared;
            let r = Simulator::run(&c).unwrap_or_else(|e| panic!("{alg} {p}: {e}"));
            assert!(r.delivered > 0, "{alg} {p}");
            assert!(
                r.accepted_pct <= 101.0,
                "{alg} {p}: {} % of λmax",
                r.accepted_pct
            );
            assert_eq!(r.node, NodeModel::Shared);
        }
    }
    let mut c = small(Algorithm::Ecube, 6, Pattern::Complement, 10, 150.0, 5);
    let separate = Simulator::run(&c).unwrap();
    c.node = NodeModel::Shared;
    let shared = Simulator::run(&c).unwrap();
    assert!(separate.accepted_pct > 140.0, "{}", separate.accepted_pct);
    assert!(
        shared.accepted_pct > 95.0 && shared.accepted_pct <= 101.0,
        "{}",
        shared.accepted_pct
    );
    // At zero load the shared channel costs nothing: a lone worm still takes h + b cycles.
    let mut c = small(Algorithm::Ecube, 4, Pattern::Random, 10, 10.0, 1);
    c.rate = 1e-9;
    c.node = NodeModel::Shared;
    let mut s = Simulator::new(&c).unwrap();
    s.enqueue(0, 0b1011).unwrap();
    let t0 = s.cycle;
    while s.live_worms() > 0 || s.cycle == t0 {
        s.step(false).unwrap();
    }
    assert_eq!(s.cycle - t0, 13);
    assert!("both".parse::<NodeModel>().is_err());
}

#[test]
fn zero_load_latency_is_hops_plus_length() {
    // One worm 0 -> 0b1011 on a 4-cube, E-cube: 3 hops, 10 flits -> 13 cycles from enqueue to tail delivery.
    let mut cfg = small(Algorithm::Ecube, 4, Pattern::Random, 10, 10.0, 1);
    cfg.rate = 1e-9;
    let mut s = Simulator::new(&cfg).unwrap();
    s.enqueue(0, 0b1011).unwrap();
    let t0 = s.cycle;
    while s.live_worms() > 0 || s.cycle == t0 {
        s.step(false).unwrap();
    }
    assert_eq!(s.cycle - t0, 13);
    assert_eq!(s.flit_hops, 30);
    s.check_drained().unwrap();
}

#[test]
fn cdg_checks() {
    for n in 2..=6u32 {
        for alg in algorithms::ALL {
            let (rep, which) = cdg::check(alg, n).unwrap_or_else(|e| panic!("{alg} n={n}: {e}"));
            assert!(
                rep.acyclic(),
                "{alg} n={n}: {which} has a cycle {:?}",
                rep.cycle
            );
            assert!(rep.edges > 0 || n < 2);
        }
    }
    // Non-Minimal's derouting sets only appear from n = 5 (phase 4) and n = 7 (phases >= 6).
    for n in 7..=8u32 {
        let rep = cdg::check_acyclic(Algorithm::NonMinimal, n).unwrap();
        assert!(rep.acyclic(), "nonminimal n={n}: {:?}", rep.cycle);
    }
    // Fully's plain CDG is cyclic (adaptive class); only the escape extended CDG is acyclic.
    assert!(!cdg::check_acyclic(Algorithm::Fully, 3).unwrap().acyclic());
    // The checker can fail: unrestricted adaptive routing on one VC has a dependency cycle.
    let rep = cdg::check_acyclic(Algorithm::UnsafeAdaptive, 3).unwrap();
    assert!(!rep.acyclic());
    assert!(rep.cycle.unwrap().len() >= 4);
}

#[test]
fn watchdog_detects_deadlock() {
    // Unrestricted minimal adaptive routing on one VC, complement traffic, long worms, one-flit buffers: every
    // node sends across the whole cube and the worms block each other in a cycle.
    let mut seen = false;
    for seed in 1..=5u64 {
        let mut cfg = small(
            Algorithm::UnsafeAdaptive,
            4,
            Pattern::Complement,
            40,
            190.0,
            seed,
        );
        cfg.buf_depth = 1;
        cfg.watchdog = 500;
        match Simulator::run(&cfg) {
            Err(WormError::Deadlock { worms, .. }) => {
                assert!(worms > 0);
                seen = true;
                break;
            }
            Err(e) => panic!("unexpected error {e}"),
            Ok(_) => {}
        }
    }
    assert!(
        seen,
        "the watchdog never fired on a deadlock-prone configuration"
    );
    // The same load with a deadlock-free algorithm completes.
    let mut cfg = small(Algorithm::Hanging, 4, Pattern::Complement, 40, 190.0, 1);
    cfg.buf_depth = 1;
    cfg.watchdog = 500;
    Simulator::run(&cfg).unwrap();
}

#[test]
fn results_do_not_depend_on_threads() {
    let cfgs: Vec<SimConfig> = (0..4)
        .map(|i| {
            let mut c = small(Algorithm::Fully, 5, Pattern::Random, 10, 50.0, 9);
            c.stream = i;
            c
        })
        .collect();
    let a = asr_model::wormhole::sweep::run_all(&cfgs, |_, _| {});
    let b: Vec<_> = cfgs.iter().map(Simulator::run).collect();
    for (x, y) in a.iter().zip(b.iter()) {
        let (x, y) = (x.as_ref().unwrap(), y.as_ref().unwrap());
        assert_eq!(
            (x.delivered, x.max_latency, x.flit_hops),
            (y.delivered, y.max_latency, y.flit_hops)
        );
    }
}

#[test]
fn bad_input_is_an_error() {
    let ok = small(Algorithm::Ecube, 4, Pattern::Random, 10, 50.0, 1);
    let mut c = ok.clone();
    c.pattern = Pattern::Transpose;
    c.n = 5;
    assert!(matches!(Simulator::run(&c), Err(WormError::BadParam(_))));
    // `uniform` may send a worm to its own source: refused, naming `random`.
    let mut c = ok.clone();
    c.pattern = Pattern::Uniform;
    match Simulator::run(&c) {
        Err(WormError::BadParam(m)) => assert!(m.contains("random"), "{m}"),
        other => panic!("{other:?}"),
    }
    // Any permutation of the shared pattern type works; its fixed points stay silent.
    let mut c = ok.clone();
    c.pattern = Pattern::BitReversal;
    assert!(Simulator::run(&c).unwrap().delivered > 0);
    let mut c = ok.clone();
    c.rate = 0.0;
    assert!(matches!(Simulator::run(&c), Err(WormError::BadParam(_))));
    let mut c = ok.clone();
    c.rate = -1.0;
    assert!(matches!(Simulator::run(&c), Err(WormError::BadParam(_))));
    let mut c = ok.clone();
    c.worm_len = 0;
    assert!(matches!(Simulator::run(&c), Err(WormError::BadParam(_))));
    assert!("nosuch".parse::<Algorithm>().is_err());
    assert!("subcubes:zz".parse::<Algorithm>().is_err());
    assert!("diagonal".parse::<Pattern>().is_err());
    let mut c = ok;
    c.algorithm = Algorithm::Subcubes { inner: 0xff };
    assert!(matches!(Simulator::run(&c), Err(WormError::BadParam(_))));
}

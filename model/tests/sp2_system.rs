//! SP2 systems of SP2-style switches (model/src/sp2/system.rs): scoreboards on the 16-node board and a
//! 32-node system with ASR and single-path tables, backpressure on and off; every packet arrives once,
//! intact, at its destination; every central queue is empty again after draining.

use asr_model::routing::{Routing, TableRouting};
use asr_model::sp2::network::{Sp2NetError, Sp2Network};
use asr_model::sp2::system::{run, Sp2SysConfig, Sp2SysError};
use asr_model::sp2::v1::switch::Sp2Switch;
use asr_model::sp2::v2::switch::Sp2SwitchV2;
use asr_model::sp2::SwitchModel;
use asr_model::topology::{builtin, Topology};

fn tables(t: &Topology) -> TableRouting {
    let tables = asr_model::routes::generate(t, asr_model::routes::Method::Pruned, &|| {}).unwrap();
    TableRouting::from_tables(t, &tables, "asr").unwrap()
}

#[test]
fn board_scoreboard_asr_and_single_with_and_without_backpressure() {
    board_scoreboard::<Sp2Switch>();
}

/// The same board of v2 switches (docs/sp2-switch.md, version 2): the same scoreboard and drain checks.
#[test]
fn v2_board_scoreboard_asr_and_single_with_and_without_backpressure() {
    board_scoreboard::<Sp2SwitchV2>();
}

fn board_scoreboard<S: SwitchModel>() {
    let t = builtin("sp2:16").unwrap();
    let asr = tables(&t);
    let single = asr.single_path("single");
    for (routing, consume, seed) in [
        (&asr as &dyn Routing, 1.0, 1),
        (&asr, 0.5, 2),
        (&single, 1.0, 3),
        (&single, 0.5, 4),
    ] {
        let cfg = Sp2SysConfig {
            load: 0.4,
            payload: (6, 60),
            warmup: 500,
            measure: 4_000,
            check_every: 1,
            consume,
            seed,
            ..Default::default()
        };
        let s = run(Sp2Network::<S>::new(&t).unwrap(), routing, &cfg)
            .unwrap_or_else(|e| panic!("seed {seed} ({}): {e}", routing.name()));
        assert!(
            s.tagged > 500,
            "seed {seed}: only {} tagged packets",
            s.tagged
        );
        assert!(s.delivered >= s.tagged);
        assert!(s.accepted > 0.1, "seed {seed}: accepted {}", s.accepted);
        assert!(
            s.queue_share > 0.0 && s.queue_share < 1.0,
            "seed {seed}: {s:?}"
        );
        assert!(s.mean_latency > 10.0, "seed {seed}: {s:?}");
    }
}

/// Cut-through latency of the model board without contention: exactly 5 cycles per switch from `LEN` leaving
/// the source processor to `LEN − 1` reaching the destination processor (5 within a chip, 15 across chips,
/// where the route turns around at a stage chip), and the packet arrives intact.
#[test]
fn board_cut_through_latency_is_five_cycles_per_switch() {
    use asr_model::header::Header;
    use asr_model::sp2::encode_packet;
    use asr_model::sp2::node::Node;
    let t = builtin("sp2:16").unwrap();
    let asr = tables(&t);
    let mut net = Sp2Network::<Sp2Switch>::new(&t).unwrap();
    let mut nodes: Vec<Node> = (0..16).map(|_| Node::new()).collect();
    let mut h = Vec::new();
    let mut cycle = 0u64;
    // P0 → P1 (one chip), P0 → P4 (chip 4 → a stage chip → chip 5), P7 → P13 (chip 5 → stage → chip 7).
    for (src, dst, switches) in [(0usize, 1usize, 1u64), (0, 4, 3), (7, 13, 3)] {
        asr.route(src, dst, &mut asr_model::rng::stream(1, 1), &mut h);
        assert_eq!(h.len() as u64, switches, "P{src} → P{dst}: {h:?}");
        let payload = [src as u8, dst as u8, 0xa5, 0x5a, 1, 2, 3];
        let pkt = encode_packet(&Header::new(8, h.clone()).unwrap(), &payload).unwrap();
        nodes[src].send_queue.push_back(pkt);
        let (mut sent, mut out) = (None, None);
        for _ in 0..200 {
            let mut link = vec![None; 16];
            let mut tok = vec![false; 16];
            for (k, node) in nodes.iter_mut().enumerate() {
                let (b, t) = net.to_node(k);
                if k == dst && out.is_none() && b.is_some() {
                    out = Some(cycle);
                }
                (link[k], tok[k]) = node.cycle(cycle, b, t, 1);
            }
            if sent.is_none() && link[src].is_some() {
                sent = Some(cycle);
            }
            net.step(&link, &tok).unwrap();
            cycle += 1;
        }
        assert_eq!(
            out.expect("delivered") - sent.expect("sent"),
            5 * switches,
            "P{src} → P{dst}"
        );
        let a = std::mem::take(&mut nodes[dst].arrivals);
        assert_eq!(a.len(), 1, "P{src} → P{dst}");
        assert!(
            a[0].crc_ok && a[0].payload == payload,
            "P{src} → P{dst}: {:?}",
            a[0]
        );
        assert!(net.is_idle());
    }
}

#[test]
fn system_32_nodes_delivers_everything_near_saturation() {
    system_32::<Sp2Switch>();
}

#[test]
fn v2_system_32_nodes_delivers_everything_near_saturation() {
    system_32::<Sp2SwitchV2>();
}

fn system_32<S: SwitchModel>() {
    let t = builtin("sp2:32").unwrap();
    let asr = tables(&t);
    for (routing, seed) in [(&asr as &dyn Routing, 11), (&asr.single_path("single"), 12)] {
        let cfg = Sp2SysConfig {
            load: 0.9,
            payload: (6, 120),
            warmup: 500,
            measure: 3_000,
            check_every: 7,
            seed,
            ..Default::default()
        };
        let s = run(Sp2Network::<S>::new(&t).unwrap(), routing, &cfg)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(
            s.refused > 0,
            "load 0.9 should saturate some sources: {s:?}"
        );
        assert!(s.accepted > 0.2, "{s:?}");
    }
}

/// Payloads over the whole legal range (`payload_full`: 0 up to 255 minus the route bytes, the corners
/// often), with backpressure on and off, on the board and on 32 nodes near saturation, both switches: the
/// scoreboard (short payloads by their content) and the drain hold.
#[test]
fn full_range_payloads_are_delivered_on_both_switches() {
    full_range::<Sp2Switch>();
    full_range::<Sp2SwitchV2>();
}

fn full_range<S: SwitchModel>() {
    for (net, load, consume, seed) in [
        ("sp2:16", 0.5, 1.0, 21),
        ("sp2:16", 0.9, 0.6, 22),
        ("sp2:32", 0.9, 1.0, 23),
    ] {
        let t = builtin(net).unwrap();
        let asr = tables(&t);
        for routing in [&asr as &dyn Routing, &asr.single_path("single")] {
            let cfg = Sp2SysConfig {
                load,
                payload_full: true,
                warmup: 500,
                measure: 4_000,
                check_every: 13,
                consume,
                seed,
                ..Default::default()
            };
            let s = run(Sp2Network::<S>::new(&t).unwrap(), routing, &cfg)
                .unwrap_or_else(|e| panic!("{net}, seed {seed} ({}): {e}", routing.name()));
            assert!(s.delivered > 200, "{net}, seed {seed}: {s:?}");
        }
    }
}

#[test]
fn bad_parameters_and_bad_routes_are_errors() {
    let t = builtin("sp2:16").unwrap();
    let asr = tables(&t);
    let net = || Sp2Network::<Sp2Switch>::new(&t).unwrap();
    for cfg in [
        Sp2SysConfig {
            load: 0.0,
            ..Default::default()
        },
        Sp2SysConfig {
            payload: (10, 5),
            ..Default::default()
        },
        Sp2SysConfig {
            payload: (6, 255),
            ..Default::default()
        },
        Sp2SysConfig {
            consume: 0.0,
            ..Default::default()
        },
    ] {
        assert!(matches!(
            run(net(), &asr, &cfg),
            Err(Sp2SysError::Params(_))
        ));
    }
    // Routes for another system.
    let t32 = builtin("sp2:32").unwrap();
    assert!(matches!(
        run(net(), &tables(&t32), &Sp2SysConfig::default()),
        Err(Sp2SysError::Params(_))
    ));
    // A route through a port that leads nowhere (external ports of the 16-node board are open).
    struct Out;
    impl Routing for Out {
        fn max_hops(&self) -> usize {
            1
        }
        fn processors(&self) -> usize {
            16
        }
        fn route(&self, _: usize, _: usize, _: &mut asr_model::rng::Rng, h: &mut Vec<u64>) {
            h.clear();
            h.extend([1 << 4, 1 << 0]); // up to a stage chip, then out of external port 0
        }
        fn name(&self) -> String {
            "out".into()
        }
    }
    let e = run(net(), &Out, &Sp2SysConfig::default()).unwrap_err();
    assert!(
        matches!(e, Sp2SysError::Net(Sp2NetError::Unconnected { .. })),
        "{e}"
    );
}

/// Reliability soak: the 16-node board at saturation (every processor always has packets waiting, random
/// lengths, processors consuming a byte in 90 % of cycles) for 1 000 000 cycles with ASR tables; queue lists checked
/// every 1 000 cycles; then it drains: no deadlock, every packet delivered once and intact, every central
/// queue's free list full again (`run` returns an error otherwise).
#[test]
#[ignore = "long tier: scripts/test.sh runs it (cargo test -- --include-ignored)"]
fn soak_one_million_cycles_at_saturation() {
    let t = builtin("sp2:16").unwrap();
    let asr = tables(&t);
    let cfg = Sp2SysConfig {
        load: 1.0,
        payload: (6, 200),
        payload_full: true,
        warmup: 0,
        measure: 1_000_000,
        source_queue: 4,
        check_every: 1_000,
        consume: 0.9,
        seed: 2026,
    };
    let t0 = std::time::Instant::now();
    let s = run(Sp2Network::<Sp2Switch>::new(&t).unwrap(), &asr, &cfg)
        .unwrap_or_else(|e| panic!("seed 2026: {e}"));
    eprintln!(
        "soak: {} cycles, {} packets delivered, accepted {:.3} bytes/processor/cycle, queue mean {:.1} max {} \
         chunks, {:.1} s",
        s.cycles,
        s.delivered,
        s.accepted,
        s.mean_queue_chunks,
        s.max_queue_chunks,
        t0.elapsed().as_secs_f64()
    );
    assert!(
        s.cycles >= 1_000_000 && s.refused > 0,
        "not saturated: {s:?}"
    );
    assert!(s.max_queue_chunks >= 100, "queues never filled: {s:?}");
    assert!(s.delivered > 100_000, "{s:?}");
}

fn deadlock_free(t: &Topology) -> asr_model::routes::deadlock_free::DeadlockFree {
    use asr_model::routes::deadlock_free::{generate_deadlock_free, Options};
    generate_deadlock_free(t, asr_model::routes::Method::Pruned, &Options::default()).unwrap()
}

/// The 512-node system deadlocked at loads 0.7-0.9 with acyclic tables until receivers were kept from locking a
/// queue output while their previous packet's last chunk waited (docs/sp2-switch.md §5). Load 0.7, seed 1 was
/// the reproducer.
#[test]
fn deadlock_free_tables_do_not_deadlock_the_512_node_system() {
    let t = builtin("sp2:512").unwrap();
    let df = deadlock_free(&t);
    assert!(df.cdg.cycle.is_none());
    let asr = TableRouting::from_tables(&t, &df.tables, "asr-df").unwrap();
    let cfg = Sp2SysConfig {
        load: 0.7,
        warmup: 2_000,
        measure: 10_000,
        seed: 1,
        ..Default::default()
    };
    let s = run(Sp2Network::<Sp2Switch>::new(&t).unwrap(), &asr, &cfg)
        .unwrap_or_else(|e| panic!("seed 1: {e}"));
    assert_eq!(s.delivered, s.created);
    assert!(
        s.refused > 0 && s.max_queue_chunks >= 120,
        "not saturated: {s:?}"
    );
}

/// Links fail in the middle of a run: packets on them or routed onto them by the old tables are lost and named,
/// damaged remains are counted, every byte the dead links owed is settled, and every packet created after the
/// sources switched to the regenerated tables arrives.
#[test]
fn failed_links_lose_only_named_packets_and_everything_after_the_switch_arrives() {
    use asr_model::routes::deadlock_free::regenerate_after_faults;
    use asr_model::sp2::system::{run_with_faults, FaultPlan};
    use asr_model::topology::faults::{degrade, Pick};
    for (name, links, load, seed) in [
        ("sp2:32", 2, 0.6, 3),
        ("sp2:128", 4, 1.0, 4),
        ("sp2:128", 16, 0.3, 5),
    ] {
        let t = builtin(name).unwrap();
        let old = deadlock_free(&t);
        let d = degrade(&t, &Pick::Random(links), &Pick::Random(0), seed).unwrap();
        let (new, union) = regenerate_after_faults(
            &d.topology,
            &old,
            asr_model::routes::Method::Pruned,
            Default::default(),
        )
        .unwrap();
        assert!(union.cycle.is_none() && new.cdg.cycle.is_none());
        let before = TableRouting::from_tables(&t, &old.tables, "asr-df").unwrap();
        let after = TableRouting::from_tables(&d.topology, &new.tables, "asr-df").unwrap();
        let net = Sp2Network::<Sp2Switch>::new(&t).unwrap();
        let plan = FaultPlan {
            at: 3_000,
            links: d
                .failed_links
                .iter()
                .map(|l| {
                    (
                        net.switch_index(&t.element(l.a.elem).name).unwrap(),
                        l.a.port as u8,
                    )
                })
                .collect(),
            delay: 500,
            reroute: &after,
        };
        let cfg = Sp2SysConfig {
            load,
            payload: (6, 60),
            warmup: 1_000,
            measure: 6_000,
            check_every: 97,
            seed,
            ..Default::default()
        };
        let s = run_with_faults(net, &before, &cfg, Some(&plan))
            .unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));
        let f = s.faults.as_ref().unwrap();
        assert_eq!(f.links.len(), links);
        // Nothing vanishes: every packet is delivered intact or named as lost.
        assert_eq!(
            s.delivered + f.lost.len() as u64,
            s.created,
            "{name}: {f:?}"
        );
        assert!(f.created_after_switch > 100);
        assert_eq!(f.delivered_after_switch, f.created_after_switch);
        assert!(f.fragments <= 2 * links as u64);
        // The dead links swallowed traffic, so some packets were lost (named), and fewer than were delivered.
        assert!(f.discarded_bytes > 0 && !f.lost.is_empty(), "{name}: {f:?}");
        assert!(f.lost.len() < s.delivered as usize / 10, "{name}: {f:?}");
        assert!(f.accepted_before > 0.0 && f.accepted_after > 0.0);
        if load < 0.5 {
            // Below saturation the degraded system still carries what is offered.
            assert!((f.accepted_after - load).abs() < 0.05, "{name}: {f:?}");
        }
    }
}

/// Soak of the 512-node system with deadlock-free ASR tables at saturation: 1 000 000 cycles, random 6-200-byte
/// payloads, every processor always with packets waiting; then it drains: no deadlock, every packet delivered
/// once and intact, every central queue's free list full again (`run` returns an error otherwise). About 5 CPU
/// minutes.
#[test]
#[ignore = "long tier: scripts/test.sh runs it (cargo test -- --include-ignored)"]
fn soak_512_nodes_one_million_cycles_deadlock_free() {
    let t = builtin("sp2:512").unwrap();
    let df = deadlock_free(&t);
    let asr = TableRouting::from_tables(&t, &df.tables, "asr-df").unwrap();
    let cfg = Sp2SysConfig {
        load: 1.0,
        payload: (6, 200),
        payload_full: true,
        warmup: 0,
        measure: 1_000_000,
        source_queue: 4,
        check_every: 10_000,
        seed: 2026,
        ..Default::default()
    };
    let t0 = std::time::Instant::now();
    let s = run(Sp2Network::<Sp2Switch>::new(&t).unwrap(), &asr, &cfg)
        .unwrap_or_else(|e| panic!("seed 2026: {e}"));
    eprintln!(
        "soak 512: {} cycles, {} packets delivered of {} created, accepted {:.3} bytes/processor/cycle, queue mean {:.1} max {} chunks, {:.1} s",
        s.cycles,
        s.delivered,
        s.created,
        s.accepted,
        s.mean_queue_chunks,
        s.max_queue_chunks,
        t0.elapsed().as_secs_f64()
    );
    assert_eq!(s.delivered, s.created);
    assert!(
        s.cycles >= 1_000_000 && s.refused > 0,
        "not saturated: {s:?}"
    );
    assert!(
        s.max_queue_chunks >= 120 && s.delivered > 1_000_000,
        "{s:?}"
    );
}

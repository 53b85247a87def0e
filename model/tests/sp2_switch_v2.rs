//! The v2 SP2-style switch model (docs/sp2-switch.md v2) with a node on every port: cut-through latency,
//! scoreboard runs (every packet once, at a permitted port, intact; the switch drains, every chunk free) at
//! saturation and at half load with single-port, 2-port and 8-port route sets, and the queue's invariants.

use asr_model::sp2::experiment::{cut_through_latency_on, run_on};
use asr_model::sp2::v2::switch::Sp2SwitchV2;

#[test]
fn cut_through_latency_is_six_cycles() {
    for payload in [6, 32, 200] {
        assert_eq!(
            cut_through_latency_on::<Sp2SwitchV2>(payload).unwrap(),
            6,
            "payload {payload}"
        );
    }
}

#[test]
fn scoreboard_at_saturation_and_half_load() {
    for (bits, offered, seed) in [
        (1, 1.0, 1),
        (2, 1.0, 2),
        (8, 1.0, 3),
        (1, 0.5, 4),
        (2, 0.5, 5),
    ] {
        let s = run_on::<Sp2SwitchV2>(bits, offered, 32, 20_000, seed)
            .unwrap_or_else(|e| panic!("{bits}-port sets, load {offered}, seed {seed}: {e}"));
        eprintln!("{s:?}");
        assert!(s.packets > 1000, "{s:?}");
    }
}

/// The throughput goals of v2 (issue 13, `asr sp2` conditions: 32-byte payloads, saturation): single-port
/// route sets ≥ 0.85 bytes per port per cycle, 2-port ≥ 0.90, 8-port ≥ 0.95.
#[test]
fn throughput_at_saturation_meets_the_goals() {
    for (bits, goal) in [(1, 0.85), (2, 0.90), (8, 0.95)] {
        let s = run_on::<Sp2SwitchV2>(bits, 1.0, 32, 50_000, 1).unwrap();
        eprintln!(
            "{bits}-port sets: {:.4} bytes/port/cycle ({:.0} % via the queue)",
            s.throughput,
            100.0 * s.queue_share
        );
        assert!(s.throughput >= goal, "{bits}-port sets: {s:?}");
    }
}

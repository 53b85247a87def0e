//! Helpers shared by the integration tests (`mod common;`).

use asr_model::topology::{Port, Topology};
use proptest::prelude::*;

/// Random small topologies: up to 5 switches of 4 ports, each with a processor, random links and wires.
pub fn small_topology() -> impl Strategy<Value = Topology> {
    (
        2usize..6,
        prop::collection::vec(
            (any::<bool>(), 0usize..5, 1u32..4, 0usize..5, 1u32..4),
            0..14,
        ),
    )
        .prop_map(|(n, ops)| {
            let mut t = Topology::new();
            let s: Vec<usize> = (0..n)
                .map(|i| t.add_switch(&format!("S{i}"), 4).unwrap())
                .collect();
            for (i, &si) in s.iter().enumerate() {
                let p = t.add_node(&format!("P{i}")).unwrap();
                t.link(Port { elem: p, port: 0 }, Port { elem: si, port: 0 })
                    .unwrap();
            }
            for (link, a, pa, b, pb) in ops {
                let (a, b) = (
                    Port {
                        elem: s[a % n],
                        port: pa,
                    },
                    Port {
                        elem: s[b % n],
                        port: pb,
                    },
                );
                let _ = if link { t.link(a, b) } else { t.wire(a, b) };
            }
            t
        })
}

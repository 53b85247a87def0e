//! Seed 003's per-hop policies (MP, Z², XY / E-cube) in the cycle-accurate network simulator, and the
//! check that the simulator's delivery without delay matches S(v, u).
//!
//! [`per_hop_table`] turns a policy's priority orders into the engine's per-hop table for the built-in
//! mesh, torus or hypercube (`crate::routing::PerHop`, a routing scheme of its own: `crate::routing::PerHopRouting`). [`check_against_s`] sends packets one at a
//! time (no competing traffic) with every switch-to-switch link unavailable with probability 1 − p in each
//! cycle, and compares the share delivered without waiting anywhere with Σ S(src, dst)(p).

use super::grid::Grid;
use super::policy::{delivery, Policy};
use super::tables::grid_topology;
use crate::network::engine::{Engine, StepIo};
use crate::network::packet::{Meta, Packets, NONE};
use crate::rng::stream;
use crate::routing::hop::{PerHop, PerHopRule};
use crate::topology::Topology;
use rand::Rng;
use serde::Serialize;

/// The engine's per-hop table for `policy` on the built-in grid topology `t` of grid `g`.
pub fn per_hop_table(
    e: &Engine,
    t: &Topology,
    g: &Grid,
    policy: Policy,
    fail: f64,
    seed: u64,
) -> PerHop {
    // Grid node of every processor element ("P{v}") and of every router (the one its processor is on).
    let node_of_proc = |pe: usize| -> usize {
        t.element(pe).name[1..]
            .parse()
            .expect("built-in processor names are P{v}")
    };
    let mut node_of_router = vec![usize::MAX; t.len()];
    for pe in t.nodes() {
        node_of_router[t.output(pe, 0).expect("processor linked").elem] = node_of_proc(pe);
    }
    let per_dest: Vec<_> = (0..g.nodes()).map(|u| delivery(g, u, policy)).collect();
    let port = |s: &super::grid::Step| -> u8 {
        match g.kind {
            super::grid::GridKind::Hypercube => 1 + s.dim as u8,
            _ => 1 + 2 * s.dim as u8 + (s.dir < 0) as u8,
        }
    };
    let order = (0..e.switches())
        .map(|s| {
            let v = node_of_router[e.switch_elem(s)];
            (0..e.processors())
                .map(|d| {
                    let u = node_of_proc(e.proc_elem(d));
                    if v == u {
                        vec![0u8]
                    } else {
                        per_dest[u].order[v].iter().map(port).collect()
                    }
                })
                .collect()
        })
        .collect();
    PerHop {
        order,
        links: e.switch_links(),
        fail,
        seed,
    }
}

/// The outcome of [`check_against_s`].
#[derive(Debug, Clone, Serialize)]
pub struct PerHopCheck {
    /// The topology's name (`mesh:KxK`, `torus:KxK`, `hypercube:D`).
    pub topology: String,
    /// The policy's name ([`Policy::name`]).
    pub policy: String,
    /// Probability that an eligible link is available.
    pub p: f64,
    /// Packets sent.
    pub packets: u64,
    /// Packets delivered without waiting in any buffer.
    pub undelayed: u64,
    /// Σ S(src, dst)(p) over the packets sent: the expected number.
    pub expected: f64,
    /// (undelayed − expected) / standard deviation.
    pub z: f64,
}

/// Sends `packets` packets one at a time between uniformly random distinct processors.
pub fn check_against_s(
    name: &str,
    policy: Policy,
    p: f64,
    packets: u64,
    seed: u64,
) -> Result<PerHopCheck, String> {
    if !(p > 0.0 && p <= 1.0) {
        return Err(format!("p = {p} outside (0, 1]"));
    }
    let (g, t) = grid_topology(name)?;
    let mut e = Engine::new(&t).map_err(|e| e.to_string())?;
    let table = per_hop_table(&e, &t, &g, policy, 1.0 - p, seed);
    if !(0.0..1.0).contains(&table.fail) {
        return Err(format!(
            "link failure probability {} outside [0, 1)",
            table.fail
        ));
    }
    e.set_rule(Box::new(PerHopRule::new(table)));
    e.prepare(1);
    let n = e.processors();
    let nodes: Vec<usize> = (0..n)
        .map(|d| t.element(e.proc_elem(d)).name[1..].parse().expect("P{v}"))
        .collect();
    let node = |d: usize| nodes[d];
    let s_of: Vec<_> = (0..g.nodes()).map(|u| delivery(&g, u, policy)).collect();
    let mut pk = Packets::new(1);
    let mut rng = stream(seed, 0x5);
    let mut io = StepIo::default();
    let (mut undelayed, mut expected, mut var) = (0u64, 0.0f64, 0.0f64);
    let sink = vec![true; n];
    for k in 0..packets {
        let src = rng.gen_range(0..n);
        let dst = (src + rng.gen_range(1..n)) % n;
        let w = pk.alloc(
            Meta {
                src: src as u32,
                dst: dst as u32,
                seq: k as u32,
                ..Default::default()
            },
            &[],
        );
        let mut offer = vec![NONE; n];
        offer[src] = w;
        let mut done = false;
        // Undelayed: no wait in any buffer, i.e. two edges per switch on the way (the policies route on
        // shortest paths only, through dist + 1 switches).
        let fastest = 2 * (g.dist(node(src), node(dst)) as u64 + 1);
        let mut accepted_at = 0u64;
        for cyc in 0..100_000u64 {
            e.step(&mut pk, &offer, &sink, &mut io)
                .map_err(|e| e.to_string())?;
            if !io.accepted.is_empty() {
                offer[src] = NONE;
                accepted_at = cyc;
            }
            if let Some(&(at, slot)) = io.delivered.first() {
                if at as usize != dst {
                    return Err(format!("packet for {dst} delivered to {at}"));
                }
                undelayed += (cyc - accepted_at == fastest) as u64;
                pk.free(slot);
                done = true;
                break;
            }
        }
        if !done {
            return Err(format!("packet {k} ({src} → {dst}) not delivered"));
        }
        let s = s_of[node(dst)].s[node(src)].eval(p);
        expected += s;
        var += s * (1.0 - s);
    }
    let z = (undelayed as f64 - expected) / var.sqrt().max(1e-9);
    Ok(PerHopCheck {
        topology: name.to_string(),
        policy: policy.name().to_string(),
        p,
        packets,
        undelayed,
        expected,
        z,
    })
}

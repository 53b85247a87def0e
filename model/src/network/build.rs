//! Builders of the networks the simulator runs: the Beneš N×N of 2×2 switches (DESIGN.md wiring, taken from
//! [`crate::benes::BenesWiring`] so there is one wiring definition) and the k-ary n-fly (butterfly).
//!
//! Both return a [`Topology`] (processors `P{i}`, switches `S{stage}_{index}`) and the maps from
//! (stage, index) to element and from processor number to element. Processor i injects into the first stage
//! and receives from the last stage (unidirectional networks: each processor uses its output side once and
//! its input side once).
//!
//! These live under `network/` on purpose; the topology crate-module may later gain its own builders and the
//! two will be reconciled.

use crate::benes::BenesWiring;
use crate::topology::{Port, Topology, TopologyError};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuildError {
    #[error("Beneš size {0} is not a power of two ≥ 2")]
    BenesSize(usize),
    #[error("k-ary n-fly needs k in 2..=64 and n ≥ 1 with k^n ≤ 2^24 (got k = {k}, n = {n})")]
    FlySize { k: usize, n: usize },
    #[error(transparent)]
    Topology(#[from] TopologyError),
}

/// A multistage network: its graph and where each stage's switches and each processor are.
#[derive(Debug, Clone)]
pub struct Staged {
    pub topo: Topology,
    /// `switch[s][i]`: element index of switch i of stage s.
    pub switch: Vec<Vec<usize>>,
    /// `proc[p]`: element index of processor p.
    pub proc: Vec<usize>,
}

fn port(elem: usize, port: u32) -> Port {
    Port { elem, port }
}

/// The Beneš network with `ports` = 2^n processors: 2n−1 stages of N/2 2×2 switches.
pub fn benes_topology(ports: usize) -> Result<Staged, BuildError> {
    let w = BenesWiring::new(ports).map_err(|_| BuildError::BenesSize(ports))?;
    let st = w.stages();
    let mut t = Topology::new();
    let proc: Vec<usize> = (0..ports)
        .map(|p| t.add_node(&format!("P{p}")))
        .collect::<Result<_, _>>()?;
    let mut sw = vec![Vec::with_capacity(ports / 2); st];
    for (s, row) in sw.iter_mut().enumerate() {
        for i in 0..ports / 2 {
            row.push(t.add_switch(&format!("S{s}_{i}"), 2)?);
        }
    }
    for p in 0..ports {
        t.wire(port(proc[p], 0), port(sw[0][p / 2], (p % 2) as u32))?;
    }
    for s in 0..st - 1 {
        for i in 0..ports / 2 {
            for q in 0..2 {
                let (s2, j, r) = w.next[s][i][q];
                t.wire(port(sw[s][i], q as u32), port(sw[s2][j], r as u32))?;
            }
        }
    }
    for p in 0..ports {
        t.wire(port(sw[st - 1][p / 2], (p % 2) as u32), port(proc[p], 0))?;
    }
    Ok(Staged {
        topo: t,
        switch: sw,
        proc,
    })
}

/// The k-ary n-fly: k^n processors, n stages of k^(n−1) switches of radix k.
///
/// Processor t enters stage-0 switch t / k at port t % k. Output port p of stage-s switch w (s < n−1) goes to
/// the stage-(s+1) switch whose index is w with base-k digit (n−2−s) replaced by p, at the input port equal to
/// the replaced digit. Stage n−1 switch w drives processor w·k + p from port p. Destination-tag routing:
/// at stage s take port = digit (n−1−s) of the destination.
pub fn fly_topology(k: usize, n: usize) -> Result<Staged, BuildError> {
    if !(2..=64).contains(&k) || n == 0 || (k as f64).powi(n as i32) > (1u64 << 24) as f64 {
        return Err(BuildError::FlySize { k, n });
    }
    let procs = k.pow(n as u32);
    let per = procs / k;
    let mut t = Topology::new();
    let proc: Vec<usize> = (0..procs)
        .map(|p| t.add_node(&format!("P{p}")))
        .collect::<Result<_, _>>()?;
    let mut sw = vec![Vec::with_capacity(per); n];
    for (s, row) in sw.iter_mut().enumerate() {
        for i in 0..per {
            row.push(t.add_switch(&format!("S{s}_{i}"), k as u32)?);
        }
    }
    for p in 0..procs {
        t.wire(port(proc[p], 0), port(sw[0][p / k], (p % k) as u32))?;
    }
    for s in 0..n - 1 {
        let place = k.pow((n - 2 - s) as u32);
        for w in 0..per {
            let old = (w / place) % k;
            for p in 0..k {
                let w2 = w - old * place + p * place;
                t.wire(port(sw[s][w], p as u32), port(sw[s + 1][w2], old as u32))?;
            }
        }
    }
    for w in 0..per {
        for p in 0..k {
            t.wire(port(sw[n - 1][w], p as u32), port(proc[w * k + p], 0))?;
        }
    }
    Ok(Staged {
        topo: t,
        switch: sw,
        proc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows one port per stage from processor `src`; returns the processor reached.
    fn follow(g: &Staged, src: usize, ports: &[u32]) -> usize {
        let mut at = g.topo.output(g.proc[src], 0).unwrap();
        for &p in ports {
            at = g.topo.output(at.elem, p).unwrap();
        }
        g.proc.iter().position(|&e| e == at.elem).unwrap()
    }

    #[test]
    fn benes_matches_wiring() {
        let g = benes_topology(16).unwrap();
        assert_eq!(g.switch.len(), 7);
        assert_eq!(g.topo.channels().len(), 16 + 6 * 16 + 16);
        // ASR: any choice in the first n−1 stages, then destination tag, reaches the destination.
        for src in [0usize, 5, 15] {
            for d in 0..16 {
                for up in 0..8u32 {
                    let mut ports: Vec<u32> = (0..3).map(|b| (up >> b) & 1).collect();
                    ports.extend((0..4).rev().map(|b| ((d >> b) & 1) as u32));
                    assert_eq!(follow(&g, src, &ports), d);
                }
            }
        }
        assert!(benes_topology(12).is_err());
    }

    #[test]
    fn fly_destination_tag() {
        for (k, n) in [(2usize, 3usize), (4, 3), (3, 2), (8, 2)] {
            let g = fly_topology(k, n).unwrap();
            let procs = k.pow(n as u32);
            for src in 0..procs {
                for d in 0..procs {
                    let ports: Vec<u32> = (0..n)
                        .map(|s| ((d / k.pow((n - 1 - s) as u32)) % k) as u32)
                        .collect();
                    assert_eq!(follow(&g, src, &ports), d, "k={k} n={n}");
                }
            }
        }
        assert!(fly_topology(1, 3).is_err());
        assert!(fly_topology(4, 0).is_err());
    }
}

//! Builders of the networks the simulator runs: the Beneš N×N of 2×2 switches (docs/contracts.md wiring, taken from
//! [`crate::benes::BenesWiring`] so there is one wiring definition) and the k-ary n-fly (butterfly).
//!
//! Both return a [`Topology`] (processors `P{i}`, switches `S{stage}_{index}`) and the maps from
//! (stage, index) to element and from processor number to element. Processor i injects into the first stage
//! and receives from the last stage (unidirectional networks: each processor uses its output side once and
//! its input side once).
//!
//! Thin adapters over the topology builders (`crate::topology::{benes, fly}`), so there is one definition
//! of each network.

use crate::topology::{Topology, TopologyError};
use thiserror::Error;

/// Why a network cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuildError {
    /// The Beneš size (processors) is not a power of two from 2 to 65536.
    #[error("Beneš size {0}: N must be a power of two from 2 to 65536")]
    BenesSize(usize),
    /// The k-ary n-fly's parameters are out of range.
    #[error("k-ary n-fly needs k in 2..=64 and n ≥ 1 with k^n ≤ 65536 (got k = {k}, n = {n})")]
    FlySize {
        /// Switch radix k.
        k: usize,
        /// Stages n.
        n: usize,
    },
    /// The topology builder rejected the network.
    #[error(transparent)]
    Topology(#[from] TopologyError),
}

/// A multistage network: its graph and where each stage's switches and each processor are.
#[derive(Debug, Clone)]
pub struct Staged {
    /// The network's graph.
    pub topo: Topology,
    /// `switch[s][i]`: element index of switch i of stage s.
    pub switch: Vec<Vec<usize>>,
    /// `proc[p]`: element index of processor p.
    pub proc: Vec<usize>,
}

/// The Beneš network with `ports` = 2^n processors: 2n−1 stages of N/2 2×2 switches
/// ([`crate::topology::benes::benes`], wired from [`crate::benes::BenesWiring`]).
pub fn benes_topology(ports: usize) -> Result<Staged, BuildError> {
    let b = crate::topology::benes::benes(ports).map_err(|_| BuildError::BenesSize(ports))?;
    Ok(Staged {
        topo: b.topology,
        switch: b.switch,
        proc: b.nodes,
    })
}

/// The k-ary n-fly: k^n processors, n stages of k^(n−1) switches of radix k ([`crate::topology::fly::fly`]).
/// Destination-tag routing: at stage s take port = digit (n−1−s) of the destination.
pub fn fly_topology(k: usize, n: usize) -> Result<Staged, BuildError> {
    let f = crate::topology::fly::fly(k, n).map_err(|_| BuildError::FlySize { k, n })?;
    Ok(Staged {
        topo: f.topology,
        switch: f.switch,
        proc: f.nodes,
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

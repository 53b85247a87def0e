//! MODIFIED_BFS (thesis Fig. 4.3) and the routability graph (thesis §4.1.1).
//!
//! The BFS runs over the directed channels from a source switch; processors are reached but never forwarded
//! through. Every element keeps its depth and the set of all parents at depth − 1 together with the parent's
//! output port (the label), so the result holds every shortest path from the source. The routability graph of a
//! (source switch, destination switch) pair is then read off by a backward BFS from the destination over those
//! parent sets: a multistage graph whose stage i holds the switches at distance i on some shortest path.

use crate::topology::Topology;
use std::collections::VecDeque;

/// Unreached depth.
pub const UNREACHED: u32 = u32::MAX;

/// The breadth-first "tree" of all shortest paths from one source switch.
#[derive(Debug, Clone)]
pub struct Bfs {
    /// The source switch (element index) the BFS is rooted at.
    pub src: usize,
    /// Depth of each element (number of channels from `src`), [`UNREACHED`] if none.
    pub depth: Vec<u32>,
    /// Parent set of each element: (parent element, parent's output port).
    pub parents: Vec<Vec<(usize, u32)>>,
    /// Elements in discovery order (the global ordering of thesis §4.4).
    pub order: Vec<usize>,
}

/// Fig. 4.3 over directed channels, rooted at switch `src`.
pub fn modified_bfs(t: &Topology, src: usize) -> Bfs {
    let n = t.len();
    let mut depth = vec![UNREACHED; n];
    let mut parents = vec![Vec::new(); n];
    let mut order = vec![src];
    let mut q = VecDeque::new();
    depth[src] = 0;
    q.push_back(src);
    while let Some(u) = q.pop_front() {
        for i in 0..t.ports(u) {
            let Some(v) = t.output(u, i) else { continue };
            let v = v.elem;
            if depth[v] == UNREACHED {
                depth[v] = depth[u] + 1;
                parents[v].push((u, i));
                order.push(v);
                if !t.element(v).is_node() {
                    q.push_back(v);
                }
            } else if depth[v] == depth[u] + 1 {
                parents[v].push((u, i));
            }
        }
    }
    Bfs {
        src,
        depth,
        parents,
        order,
    }
}

/// The routability graph R of a (source switch, destination switch) pair.
#[derive(Debug, Clone, Default)]
pub struct Routability {
    /// `stages[i]`: the switches (element indices) at stage i; stage 0 is the source, the last the destination.
    pub stages: Vec<Vec<usize>>,
    /// `edges[i][j]`: the edges out of vertex j of stage i: (output port, vertex index in stage i+1).
    pub edges: Vec<Vec<Vec<(u32, u32)>>>,
}

impl Routability {
    /// Number of hops (switches choosing an output) before the destination switch: stages − 1.
    pub fn hops(&self) -> usize {
        self.stages.len() - 1
    }
    /// The widest stage.
    pub fn width(&self) -> usize {
        self.stages.iter().map(Vec::len).max().unwrap_or(0)
    }
    /// The number of physically existing shortest paths from source to destination (saturating).
    pub fn physical_paths(&self) -> u128 {
        let k = self.stages.len();
        let mut count = vec![1u128];
        for i in (0..k - 1).rev() {
            count = self.edges[i]
                .iter()
                .map(|es| {
                    es.iter()
                        .fold(0u128, |a, &(_, y)| a.saturating_add(count[y as usize]))
                })
                .collect();
        }
        count[0]
    }
}

/// Builds R for destination switch `dst` from a BFS; `None` if `dst` is unreached. `scratch` must have one entry
/// per element, all `u32::MAX`; it is left that way.
pub fn routability(bfs: &Bfs, dst: usize, scratch: &mut [u32]) -> Option<Routability> {
    let d = bfs.depth[dst];
    if d == UNREACHED {
        return None;
    }
    let k = d as usize + 1;
    let mut stages = vec![Vec::new(); k];
    let mut edges: Vec<Vec<Vec<(u32, u32)>>> = vec![Vec::new(); k];
    stages[k - 1].push(dst);
    edges[k - 1].push(Vec::new());
    for i in (0..k - 1).rev() {
        let (lo, hi) = stages.split_at_mut(i + 1);
        let (cur, next) = (&mut lo[i], &hi[0]);
        for (jy, &y) in next.iter().enumerate() {
            for &(x, port) in &bfs.parents[y] {
                if scratch[x] == u32::MAX {
                    scratch[x] = cur.len() as u32;
                    cur.push(x);
                    edges[i].push(Vec::new());
                }
                edges[i][scratch[x] as usize].push((port, jy as u32));
            }
        }
        for &x in cur.iter() {
            scratch[x] = u32::MAX;
        }
    }
    for es in edges.iter_mut() {
        for e in es.iter_mut() {
            e.sort_unstable();
        }
    }
    Some(Routability { stages, edges })
}

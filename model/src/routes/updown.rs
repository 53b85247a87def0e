//! Up*/down* turn restrictions (Schroeder et al., Autonet, 1991) for any topology, and the routability graph of
//! a switch pair restricted to the allowed turns.
//!
//! A [`Ranking`] is a total order of the switches. A channel from switch s to switch v goes *up* when v comes
//! before s in the order and *down* otherwise. A path is legal when it never goes up after it has gone down (no
//! down→up turn); channels from a processor and into a processor are always allowed. Up channels alone form a
//! DAG (the order), down channels alone form a DAG, and the only turns between the two kinds go from up to down,
//! so the channel-dependency graph of any set of legal paths is acyclic: routes that only use legal paths cannot
//! deadlock, whatever order is chosen. The order decides how many shortest paths stay legal; the candidate orders
//! and the choice among them are in [`super::deadlock_free`].
//!
//! The restricted search works on *states* (switch, phase): phase [`UP`] while the path has only gone up, [`DOWN`]
//! once it has gone down. [`updown_bfs`] is MODIFIED_BFS (thesis Fig. 4.3) over legal moves between states, and
//! [`updown_routability`] the routability graph R over states: stage i holds the states at distance i on a
//! shortest *legal* path, its edges are labelled with output ports. The solution graph and the maximum adaptive
//! path (`solution::solve`) then run unchanged on this R: a port set is usable from a solution vertex only if it
//! is legal from every state the packet may be in, so every combination of a header's ports is a legal path.

use super::bfs::{Routability, UNREACHED};
use crate::topology::Topology;
use std::collections::VecDeque;

/// Phase of a state: the path has only gone up so far.
pub const UP: usize = 0;
/// Phase of a state: the path has gone down at least once.
pub const DOWN: usize = 1;

/// A total order of the switches for up*/down* routing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranking {
    /// Position of each element in the order (0 = the root end); `u32::MAX` for processors.
    pub rank: Vec<u32>,
    /// How the order was made, for reports (e.g. `levels from the top, ties by DFS`).
    pub method: String,
}

impl Ranking {
    /// A ranking from an order that lists every switch of `t` once (first = the root end).
    pub fn from_order(t: &Topology, order: &[usize], method: impl Into<String>) -> Self {
        let mut rank = vec![u32::MAX; t.len()];
        for (i, &s) in order.iter().enumerate() {
            debug_assert!(!t.element(s).is_node() && rank[s] == u32::MAX);
            rank[s] = i as u32;
        }
        debug_assert_eq!(order.len(), t.switches().len());
        Ranking {
            rank,
            method: method.into(),
        }
    }

    /// The switches in rank order.
    pub fn order(&self) -> Vec<usize> {
        let mut o: Vec<usize> = (0..self.rank.len())
            .filter(|&e| self.rank[e] != u32::MAX)
            .collect();
        o.sort_unstable_by_key(|&e| self.rank[e]);
        o
    }

    /// Whether the channel from switch `from` to switch `to` goes up.
    #[inline]
    pub fn is_up(&self, from: usize, to: usize) -> bool {
        self.rank[to] < self.rank[from]
    }

    /// The state reached from state (`s`, `phase`) over a channel to `v`, if the move is legal. Moves into a
    /// processor are legal and keep the phase.
    #[inline]
    pub fn step(&self, s: usize, phase: usize, v: usize) -> Option<usize> {
        if self.rank[v] == u32::MAX {
            return Some(phase);
        }
        if self.is_up(s, v) {
            (phase == UP).then_some(UP)
        } else {
            Some(DOWN)
        }
    }

    /// Whether a path given as its sequence of elements (processors at the ends allowed) is legal.
    pub fn path_is_legal(&self, path: &[usize]) -> bool {
        let mut phase = UP;
        for w in path.windows(2) {
            if self.rank[w[0]] == u32::MAX {
                continue;
            }
            match self.step(w[0], phase, w[1]) {
                Some(p) => phase = p,
                None => return false,
            }
        }
        true
    }
}

/// MODIFIED_BFS over (switch, phase) states from switch `src` (in phase [`UP`]): every state keeps its depth and
/// all parents at depth − 1 with the parent's output port. State id = 2 · element + phase.
#[derive(Debug, Clone)]
pub struct StateBfs {
    /// The source switch (element index); the BFS starts in state (`src`, [`UP`]).
    pub src: usize,
    /// Legal distance (channels) of each state from the source, [`UNREACHED`] if none.
    pub depth: Vec<u32>,
    /// Parent set of each state: (parent state, parent switch's output port).
    pub parents: Vec<Vec<(u32, u32)>>,
    /// States in the order the BFS reached them (non-decreasing depth).
    pub order: Vec<u32>,
}

impl StateBfs {
    /// The legal distance (switch-to-switch channels) to switch `b`, in either phase.
    pub fn distance(&self, b: usize) -> u32 {
        self.depth[2 * b].min(self.depth[2 * b + 1])
    }
}

/// Up*/down* MODIFIED_BFS from switch `src` over legal moves; processors are not forwarded through.
pub fn updown_bfs(t: &Topology, rk: &Ranking, src: usize) -> StateBfs {
    let n = 2 * t.len();
    let mut depth = vec![UNREACHED; n];
    let mut parents: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    let mut q = VecDeque::new();
    let mut order = Vec::new();
    let s0 = 2 * src + UP;
    depth[s0] = 0;
    q.push_back(s0);
    while let Some(u) = q.pop_front() {
        order.push(u as u32);
        let (s, ph) = (u / 2, u % 2);
        for port in 0..t.ports(s) {
            let Some(v) = t.output(s, port) else { continue };
            let v = v.elem;
            if t.element(v).is_node() {
                continue;
            }
            let Some(nph) = rk.step(s, ph, v) else {
                continue;
            };
            let w = 2 * v + nph;
            if depth[w] == UNREACHED {
                depth[w] = depth[u] + 1;
                parents[w].push((u as u32, port));
                q.push_back(w);
            } else if depth[w] == depth[u] + 1 {
                parents[w].push((u as u32, port));
            }
        }
    }
    StateBfs {
        src,
        depth,
        parents,
        order,
    }
}

/// The routability graph over states for destination switch `dst`: stage i lists state ids at distance i on a
/// shortest legal path; the last stage is the single vertex `dst` (both of its phases merged, since the last
/// hop into a processor is always legal). `None` if `dst` has no legal path. `scratch` must have one entry per
/// state (2 × elements), all `u32::MAX`; it is left that way.
pub fn updown_routability(bfs: &StateBfs, dst: usize, scratch: &mut [u32]) -> Option<Routability> {
    let d = bfs.distance(dst);
    if d == UNREACHED {
        return None;
    }
    let k = d as usize + 1;
    let finals: Vec<usize> = [2 * dst, 2 * dst + 1]
        .into_iter()
        .filter(|&s| bfs.depth[s] == d)
        .collect();
    let mut stages: Vec<Vec<usize>> = vec![Vec::new(); k];
    let mut edges: Vec<Vec<Vec<(u32, u32)>>> = vec![Vec::new(); k];
    stages[k - 1].push(finals[0]);
    edges[k - 1].push(Vec::new());
    for i in (0..k - 1).rev() {
        let (lo, hi) = stages.split_at_mut(i + 1);
        let (cur, next) = (&mut lo[i], &hi[0]);
        for (jy, &y) in next.iter().enumerate() {
            let members: &[usize] = if i + 2 == k { &finals } else { &[y] };
            for &ys in members {
                for &(x, port) in &bfs.parents[ys] {
                    let x = x as usize;
                    if scratch[x] == u32::MAX {
                        scratch[x] = cur.len() as u32;
                        cur.push(x);
                        edges[i].push(Vec::new());
                    }
                    edges[i][scratch[x] as usize].push((port, jy as u32));
                }
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

/// Switch-to-switch neighbours of every switch, over channels in either direction, in port order, without
/// repeats (processors left out).
pub fn switch_neighbours(t: &Topology) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); t.len()];
    for s in t.switches() {
        for p in 0..t.ports(s) {
            for q in [t.output(s, p), t.input(s, p)].into_iter().flatten() {
                if !t.element(q.elem).is_node() && !adj[s].contains(&q.elem) {
                    adj[s].push(q.elem);
                }
            }
        }
    }
    adj
}

/// Breadth-first distance over `adj` from a set of switches (`u32::MAX` where unreached).
pub fn distances_from(t: &Topology, adj: &[Vec<usize>], roots: &[usize]) -> Vec<u32> {
    let mut d = vec![u32::MAX; t.len()];
    let mut q = VecDeque::new();
    for &r in roots {
        if d[r] == u32::MAX {
            d[r] = 0;
            q.push_back(r);
        }
    }
    while let Some(u) = q.pop_front() {
        for &v in &adj[u] {
            if d[v] == u32::MAX {
                d[v] = d[u] + 1;
                q.push_back(v);
            }
        }
    }
    d
}

/// Depth-first preorder index of every switch over `adj` (neighbours in port order), starting from `roots` in
/// turn (`u32::MAX` where unreached).
pub fn dfs_preorder(t: &Topology, adj: &[Vec<usize>], roots: &[usize]) -> Vec<u32> {
    let mut idx = vec![u32::MAX; t.len()];
    let mut next = 0u32;
    for &r in roots {
        if idx[r] != u32::MAX {
            continue;
        }
        idx[r] = next;
        next += 1;
        let mut stack = vec![(r, 0usize)];
        while let Some(&mut (u, ref mut i)) = stack.last_mut() {
            if *i < adj[u].len() {
                let v = adj[u][*i];
                *i += 1;
                if idx[v] == u32::MAX {
                    idx[v] = next;
                    next += 1;
                    stack.push((v, 0));
                }
            } else {
                stack.pop();
            }
        }
    }
    idx
}

/// A topological order of the switches over the directed switch-to-switch channels, if they form no cycle
/// (unidirectional multistage networks such as the Beneš and the butterfly).
pub fn topological_order(t: &Topology) -> Option<Vec<usize>> {
    let sw = t.switches();
    let mut indeg = vec![0usize; t.len()];
    for &s in &sw {
        for p in 0..t.ports(s) {
            if let Some(v) = t.output(s, p) {
                if !t.element(v.elem).is_node() {
                    indeg[v.elem] += 1;
                }
            }
        }
    }
    let mut q: VecDeque<usize> = sw.iter().copied().filter(|&s| indeg[s] == 0).collect();
    let mut order = Vec::with_capacity(sw.len());
    while let Some(u) = q.pop_front() {
        order.push(u);
        for p in 0..t.ports(u) {
            if let Some(v) = t.output(u, p) {
                if !t.element(v.elem).is_node() {
                    indeg[v.elem] -= 1;
                    if indeg[v.elem] == 0 {
                        q.push_back(v.elem);
                    }
                }
            }
        }
    }
    (order.len() == sw.len()).then_some(order)
}

/// Switches sorted by (`primary`, `tie`, index).
pub fn order_by(t: &Topology, primary: &[u32], tie: &[u32]) -> Vec<usize> {
    let mut o = t.switches();
    o.sort_by_key(|&s| (primary[s], tie[s], s));
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::builtin;

    #[test]
    fn legal_paths_have_no_down_up_turn() {
        let t = builtin("mesh:3x3").unwrap();
        let order = t.switches();
        let rk = Ranking::from_order(&t, &order, "ids");
        let r = |x: usize, y: usize| t.find(&format!("R{x}_{y}")).unwrap();
        // ids increase along x then y: (0,0) → (1,0) → (1,1) is down, down: legal.
        assert!(rk.path_is_legal(&[r(0, 0), r(1, 0), r(1, 1)]));
        // (1,0) → (1,1) → (0,1): down then up: illegal.
        assert!(!rk.path_is_legal(&[r(1, 0), r(1, 1), r(0, 1)]));
        // (1,0) → (0,0) → (0,1): up then down: legal.
        assert!(rk.path_is_legal(&[r(1, 0), r(0, 0), r(0, 1)]));
        let bfs = updown_bfs(&t, &rk, r(1, 0));
        // (0,1) is 2 channels away, legally only through (0,0).
        assert_eq!(bfs.distance(r(0, 1)), 2);
        let mut scratch = vec![u32::MAX; 2 * t.len()];
        let rr = updown_routability(&bfs, r(0, 1), &mut scratch).unwrap();
        assert_eq!(rr.physical_paths(), 1);
        assert!(scratch.iter().all(|&x| x == u32::MAX));
    }

    #[test]
    fn dag_topologies_have_a_topological_order_and_cyclic_ones_do_not() {
        assert!(topological_order(&builtin("benes:8").unwrap()).is_some());
        assert!(topological_order(&builtin("sp2:16").unwrap()).is_none());
    }
}

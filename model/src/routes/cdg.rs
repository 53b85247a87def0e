//! The channel-dependency graph (CDG) of route tables on any topology (Dally & Seitz): a channel is a
//! switch output port (with the link it drives); a route that may enter switch s on channel a and leave it on
//! channel b at the next hop makes b depend on a. With finite buffers and no escape resources, routes whose CDG
//! has a cycle can deadlock; an acyclic CDG cannot (for the packet-switched and cut-through networks here).
//!
//! An ASR header permits a set of ports at each hop, so a route contributes the dependencies of every path
//! its header allows. Cost: O(distinct (first switch, header) pairs × hops × switches per hop × ports).

use super::solution::FxHasher;
use crate::topology::{Port, Topology};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// One distinct (first switch, header) and the injection channels of the processors that use it.
type HeaderWork = ((usize, Vec<u64>), Vec<usize>);

/// The CDG's size and a cycle if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CdgReport {
    /// Channels (element output ports) of the whole topology: the CDG's vertices.
    pub channels: usize,
    /// Distinct dependencies (channel a → channel b) the routes create.
    pub edges: usize,
    /// A dependency cycle as channel names `switch.port`, if one exists.
    pub cycle: Option<Vec<String>>,
}

/// Builds the CDG of `routes` (source processor, destination processor, header) on `t`. Routes with the same
/// first switch and header are followed once; the headers are followed in parallel (rayon) and the dependencies
/// merged by sorting.
pub fn channel_dependencies(
    t: &Topology,
    routes: impl IntoIterator<Item = (usize, usize, Vec<u64>)>,
) -> CdgReport {
    use rayon::prelude::*;
    let mut offset = Vec::with_capacity(t.len() + 1);
    let mut total = 0usize;
    for e in 0..t.len() {
        offset.push(total);
        total += t.ports(e) as usize;
    }
    let id = |p: Port| offset[p.elem] + p.port as usize;
    // Each distinct (first switch, header) once, with the channels of every processor that injects it.
    let mut seen: HashMap<(usize, Vec<u64>), Vec<usize>, BuildHasherDefault<FxHasher>> =
        HashMap::default();
    for (src, _dst, hops) in routes {
        let Some(first) = t.output(src, 0) else {
            continue;
        };
        let cin = id(Port { elem: src, port: 0 });
        let v = seen.entry((first.elem, hops)).or_default();
        if !v.contains(&cin) {
            v.push(cin);
        }
    }
    let work: Vec<HeaderWork> = seen.into_iter().collect();
    let mut edges: Vec<u64> = work
        .par_iter()
        .fold(Vec::new, |mut acc: Vec<u64>, ((first, hops), cins)| {
            // (switch, channel it was entered by) at the current hop.
            let mut here: Vec<(usize, usize)> = cins.iter().map(|&c| (*first, c)).collect();
            let mut next: Vec<(usize, usize)> = Vec::new();
            for (k, &set) in hops.iter().enumerate() {
                next.clear();
                for &(s, cin) in &here {
                    for q in 0..t.ports(s) {
                        if set >> q & 1 == 0 {
                            continue;
                        }
                        let cout = id(Port { elem: s, port: q });
                        acc.push((cin as u64) << 32 | cout as u64);
                        if let Some(to) = t.output(s, q) {
                            if k + 1 < hops.len() && !t.element(to.elem).is_node() {
                                next.push((to.elem, cout));
                            }
                        }
                    }
                }
                next.sort_unstable();
                next.dedup();
                std::mem::swap(&mut here, &mut next);
            }
            if acc.len() > 1 << 20 {
                acc.sort_unstable();
                acc.dedup();
            }
            acc
        })
        .reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            a
        });
    edges.par_sort_unstable();
    edges.dedup();
    let mut adj = vec![Vec::new(); total];
    for &e in &edges {
        adj[(e >> 32) as usize].push((e & 0xffff_ffff) as usize);
    }
    let name = |c: usize| {
        let e = offset.partition_point(|&o| o <= c) - 1;
        format!("{}.{}", t.element(e).name, c - offset[e])
    };
    CdgReport {
        channels: total,
        edges: edges.len(),
        cycle: find_cycle(&adj).map(|c| c.into_iter().map(name).collect()),
    }
}

/// A cycle of a directed graph (iterative DFS), if any.
fn find_cycle(adj: &[Vec<usize>]) -> Option<Vec<usize>> {
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut color = vec![0u8; adj.len()];
    let mut parent = vec![usize::MAX; adj.len()];
    for root in 0..adj.len() {
        if color[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        color[root] = 1;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if *i < adj[v].len() {
                let w = adj[v][*i];
                *i += 1;
                match color[w] {
                    0 => {
                        color[w] = 1;
                        parent[w] = v;
                        stack.push((w, 0));
                    }
                    1 => {
                        let mut cyc = vec![w];
                        let mut x = v;
                        while x != w {
                            cyc.push(x);
                            x = parent[x];
                        }
                        cyc.reverse();
                        return Some(cyc);
                    }
                    _ => {}
                }
            } else {
                color[v] = 2;
                stack.pop();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(name: &str) -> (Topology, crate::routes::Tables) {
        let t = crate::topology::builtin(name).unwrap();
        let tab = crate::routes::generate(&t, crate::routes::Method::Pruned, &|| {}).unwrap();
        (t, tab)
    }

    #[test]
    fn one_board_is_acyclic_and_intermediate_boards_are_not() {
        let (t, tab) = tables("sp2:16");
        let r = channel_dependencies(&t, tab.routes().map(|r| (r.src, r.dst, r.hops)));
        assert!(r.cycle.is_none(), "{r:?}");
        assert!(r.edges > 100);
        // Turn-around routes in both directions through an intermediate board's two chip rows form cycles.
        let (t, tab) = tables("sp2:128");
        let r = channel_dependencies(&t, tab.routes().map(|r| (r.src, r.dst, r.hops)));
        let c = r.cycle.expect("a cycle");
        assert!(c.len() >= 2 && c.iter().all(|n| n.contains('.')), "{c:?}");
    }

    #[test]
    fn ring_of_switches_has_a_cycle_and_a_line_has_none() {
        let mut t = Topology::new();
        let s: Vec<usize> = (0..3)
            .map(|i| t.add_switch(&format!("S{i}"), 2).unwrap())
            .collect();
        let p = |elem, port| Port { elem, port };
        for i in 0..3 {
            t.wire(p(s[i], 1), p(s[(i + 1) % 3], 1)).unwrap();
        }
        for (i, &si) in s.iter().enumerate().take(3) {
            let n = t.add_node(&format!("P{i}")).unwrap();
            t.link(p(n, 0), p(si, 0)).unwrap();
        }
        let n = |i: usize| t.find(&format!("P{i}")).unwrap();
        // Every processor sends two hops clockwise: S_i → S_i+1 → S_i+2 → deliver.
        let routes: Vec<_> = (0..3)
            .map(|i| (n(i), n((i + 2) % 3), vec![0b10, 0b10, 0b01]))
            .collect();
        let r = channel_dependencies(&t, routes.clone());
        assert_eq!(r.cycle.map(|c| c.len()), Some(3));
        let r = channel_dependencies(&t, routes.into_iter().take(1));
        assert!(r.cycle.is_none());
    }
}

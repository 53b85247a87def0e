//! Channel-dependency-graph (CDG) checks on small hypercubes (Dally & Seitz: a routing function is deadlock-free
//! for wormhole switching if its CDG is acyclic; Duato 1993: an adaptive routing function is deadlock-free if it
//! has a connected escape sub-function whose *extended* CDG — direct and indirect dependencies between escape
//! channels — is acyclic).
//!
//! Channels are virtual channels (node, dimension, VC). Because some algorithms keep a per-worm routing state,
//! the dependencies are collected by exploring every reachable (channel, destination, state) triple from every
//! source, following every candidate the routing function offers (the router may choose any of them).
//!
//! - [`check_acyclic`]: builds the full CDG and reports a cycle if there is one.
//! - [`check_escape`]: for Duato-style algorithms: (1) every routing step offers an escape channel (the escape
//!   sub-function is connected: following only escape channels reaches the destination), (2) the extended CDG
//!   of the escape channels — c1 → c2 whenever a worm that used escape channel c1 can use c2 next, directly or
//!   after any number of non-escape (adaptive) channels — is acyclic.
//!
//! Cost: O(2^n · channels · states); fine for n ≤ 8.

use super::algorithms::Algorithm;
use super::error::WormError;
use super::router::{vc_id, vc_parts, Candidates};
use std::collections::{HashMap, HashSet};

/// Summary of a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CdgReport {
    /// Virtual channels (node, dimension, VC) that some route uses: the CDG's vertices.
    pub channels: usize,
    /// Dependencies between those channels.
    pub edges: usize,
    /// A dependency cycle, as (node, dimension, VC) triples, if one exists.
    pub cycle: Option<Vec<(u32, u32, u32)>>,
}

impl CdgReport {
    /// Whether the dependency graph has no cycle (the algorithm cannot deadlock).
    pub fn acyclic(&self) -> bool {
        self.cycle.is_none()
    }
}

type State = (u32, u32, u32); // (channel id, destination, routing state)

/// Explores every route of `alg` on the n-cube and calls `edge(prev_channel, next_channel, dest, state_after)`
/// for every possible hop; `prev_channel` is `None` at injection. Fails on a routing dead end or a route longer
/// than `4n` hops (livelock).
fn explore<F: FnMut(Option<u32>, u32, u32)>(
    alg: Algorithm,
    n: u32,
    mut edge: F,
) -> Result<(), WormError> {
    let alg = alg.resolve(n)?;
    let v = alg.vcs(n);
    let nodes = 1u32 << n;
    let mut seen: HashSet<State> = HashSet::new();
    let mut stack: Vec<(State, u32)> = Vec::new();
    let mut c = Candidates::default();
    for d in 0..nodes {
        for s in 0..nodes {
            if s == d {
                continue;
            }
            alg.route(n, s, d, 0, &mut c);
            if c.is_empty() {
                return Err(WormError::Routing(format!(
                    "{alg}: no channel at source {s} for {d}"
                )));
            }
            for k in c.as_slice() {
                let ch = vc_id(n, v, s, k.dim as u32, k.vc as u32);
                edge(None, ch, d);
                if seen.insert((ch, d, k.state)) {
                    stack.push(((ch, d, k.state), 1));
                }
            }
        }
        while let Some(((ch, d, st), hops)) = stack.pop() {
            let (x, dim, _) = vc_parts(n, v, ch);
            let y = x ^ (1 << dim);
            if y == d {
                continue;
            }
            if hops > 4 * n {
                return Err(WormError::Routing(format!(
                    "{alg}: route to {d} longer than {} hops",
                    4 * n
                )));
            }
            alg.route(n, y, d, st, &mut c);
            if c.is_empty() {
                return Err(WormError::Routing(format!(
                    "{alg}: no channel at node {y} for {d} (state {st})"
                )));
            }
            let cands: Vec<_> = c.as_slice().to_vec();
            for k in cands {
                let nch = vc_id(n, v, y, k.dim as u32, k.vc as u32);
                edge(Some(ch), nch, d);
                if seen.insert((nch, d, k.state)) {
                    stack.push(((nch, d, k.state), hops + 1));
                }
            }
        }
    }
    Ok(())
}

fn find_cycle(n: u32, v: u32, adj: &HashMap<u32, HashSet<u32>>) -> Option<Vec<(u32, u32, u32)>> {
    // iterative DFS with colours
    let mut colour: HashMap<u32, u8> = HashMap::new();
    let mut keys: Vec<u32> = adj.keys().copied().collect();
    keys.sort_unstable();
    for &root in &keys {
        if colour.get(&root).copied().unwrap_or(0) != 0 {
            continue;
        }
        let mut stack: Vec<(u32, Vec<u32>)> = vec![(root, adj[&root].iter().copied().collect())];
        colour.insert(root, 1);
        while let Some((node, succ)) = stack.last_mut() {
            if let Some(s) = succ.pop() {
                match colour.get(&s).copied().unwrap_or(0) {
                    0 => {
                        colour.insert(s, 1);
                        let next = adj
                            .get(&s)
                            .map(|a| a.iter().copied().collect())
                            .unwrap_or_default();
                        stack.push((s, next));
                    }
                    1 => {
                        let pos = stack.iter().position(|(c, _)| *c == s).unwrap_or(0);
                        return Some(
                            stack[pos..]
                                .iter()
                                .map(|(c, _)| vc_parts(n, v, *c))
                                .collect(),
                        );
                    }
                    _ => {}
                }
            } else {
                colour.insert(*node, 2);
                stack.pop();
            }
        }
    }
    None
}

/// Builds the full channel dependency graph of `alg` on the n-cube and looks for a cycle.
pub fn check_acyclic(alg: Algorithm, n: u32) -> Result<CdgReport, WormError> {
    let v = alg.resolve(n)?.vcs(n);
    let mut adj: HashMap<u32, HashSet<u32>> = HashMap::new();
    explore(alg, n, |p, c, _| {
        adj.entry(c).or_default();
        if let Some(p) = p {
            adj.entry(p).or_default().insert(c);
        }
    })?;
    let edges = adj.values().map(|s| s.len()).sum();
    Ok(CdgReport {
        channels: adj.len(),
        edges,
        cycle: find_cycle(n, v, &adj),
    })
}

/// Duato's check: the escape channels (VC `escape_vc`) are offered at every step, and their extended CDG is
/// acyclic.
pub fn check_escape(alg: Algorithm, n: u32, escape_vc: u32) -> Result<CdgReport, WormError> {
    let alg = alg.resolve(n)?;
    let v = alg.vcs(n);
    let nodes = 1u32 << n;
    let mut c = Candidates::default();
    // (1) connectivity of the escape sub-function: following escape channels only reaches every destination.
    // The escape sub-function of our algorithms is memoryless, so state 0 is representative.
    for d in 0..nodes {
        for s in 0..nodes {
            let mut x = s;
            let mut hops = 0;
            while x != d {
                alg.route(n, x, d, 0, &mut c);
                let e = c.as_slice().iter().find(|k| k.vc as u32 == escape_vc);
                match e {
                    Some(k) => x ^= 1 << k.dim,
                    None => {
                        return Err(WormError::Routing(format!(
                            "{alg}: no escape channel at node {x} for destination {d}"
                        )))
                    }
                }
                hops += 1;
                if hops > n {
                    return Err(WormError::Routing(format!(
                        "{alg}: escape path {s}->{d} is not minimal"
                    )));
                }
            }
        }
    }
    // (2) extended CDG. For every destination, the reachable (channel, state) graph; from every escape channel,
    // follow non-escape channels and record the escape channels reached.
    let mut adj: HashMap<u32, HashSet<u32>> = HashMap::new();
    let mut succ: HashMap<(u32, u32, u32), Vec<(u32, u32)>> = HashMap::new();
    explore(alg, n, |_, _, _| {})?;
    // Build per-(channel, dest, state) successor lists by re-running the routing function.
    for d in 0..nodes {
        let mut seen: HashSet<(u32, u32)> = HashSet::new();
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for s in 0..nodes {
            if s == d {
                continue;
            }
            alg.route(n, s, d, 0, &mut c);
            for k in c.as_slice() {
                let ch = vc_id(n, v, s, k.dim as u32, k.vc as u32);
                if seen.insert((ch, k.state)) {
                    stack.push((ch, k.state));
                }
            }
        }
        while let Some((ch, st)) = stack.pop() {
            let (x, dim, _) = vc_parts(n, v, ch);
            let y = x ^ (1 << dim);
            let mut list = Vec::new();
            if y != d {
                alg.route(n, y, d, st, &mut c);
                for k in c.as_slice() {
                    let nch = vc_id(n, v, y, k.dim as u32, k.vc as u32);
                    list.push((nch, k.state));
                    if seen.insert((nch, k.state)) {
                        stack.push((nch, k.state));
                    }
                }
            }
            succ.insert((ch, d, st), list);
        }
    }
    let is_escape = |ch: u32| ch % v == escape_vc;
    for (&(ch, d, st), _) in succ.iter().filter(|(k, _)| is_escape(k.0)) {
        adj.entry(ch).or_default();
        // BFS over non-escape channels
        let mut seen: HashSet<(u32, u32)> = HashSet::new();
        let mut q: Vec<(u32, u32)> = succ[&(ch, d, st)].clone();
        while let Some((c2, s2)) = q.pop() {
            if !seen.insert((c2, s2)) {
                continue;
            }
            if is_escape(c2) {
                adj.entry(ch).or_default().insert(c2);
            } else if let Some(next) = succ.get(&(c2, d, s2)) {
                q.extend(next.iter().copied());
            }
        }
    }
    let edges = adj.values().map(|s| s.len()).sum();
    Ok(CdgReport {
        channels: adj.len(),
        edges,
        cycle: find_cycle(n, v, &adj),
    })
}

/// The check each algorithm claims: Duato's extended CDG of the escape sub-network for Fully, the plain CDG for
/// all others. Returns the report and the name of the check applied.
pub fn check(alg: Algorithm, n: u32) -> Result<(CdgReport, &'static str), WormError> {
    match alg.escape_vc() {
        Some(e) => Ok((
            check_escape(alg, n, e)?,
            "extended CDG of the escape sub-network (Duato)",
        )),
        None => Ok((
            check_acyclic(alg, n)?,
            "channel dependency graph (Dally-Seitz)",
        )),
    }
}

//! Deadlock-free route tables of maximum adaptivity under a turn restriction, on any topology.
//!
//! Method (docs/routes.md, "Deadlock-free tables"):
//! 1. Generate the unrestricted tables of maximum adaptivity and build their channel-dependency graph over every
//!    path any header permits, the channel from the source processor included ([`super::cdg`]). If it is
//!    acyclic, those tables are already deadlock-free and nothing is restricted.
//! 2. Otherwise restrict the turns with up*/down* ([`super::updown`]). The order of the switches decides which
//!    shortest paths stay legal, so several candidate orders are built (levels from the switches farthest from
//!    the processors, from a centre switch, depth-first orders, a topological order when the switch graph is a
//!    DAG) and scored cheaply by counting, for every (injection switch, delivering switch) pair, whether a
//!    shortest path is still legal and what share of the shortest paths is. The best few by that score are
//!    generated in full and the tables with the fewest non-minimal pairs, then the highest adaptivity, then the
//!    shortest mean route, are kept.
//! 3. Routes are the thesis' maximum adaptive paths over the solution graph of the routability graph restricted
//!    to legal turns: minimal wherever a shortest path is legal, otherwise over the shortest legal paths (such
//!    pairs are counted as non-minimal).
//! 4. The channel-dependency graph of the returned tables is built again and must be acyclic (an error
//!    otherwise, which would be a bug).

use super::bfs::modified_bfs;
use super::cdg::{channel_dependencies, CdgReport};
use super::error::RouteError;
use super::table::{endpoints, generate, generate_restricted, Endpoints, Method, Summary, Tables};
use super::updown::{
    dfs_preorder, distances_from, order_by, switch_neighbours, topological_order, updown_bfs,
    Ranking,
};
use crate::topology::Topology;
use rayon::prelude::*;
use serde::Serialize;
use std::cmp::Ordering;
use std::time::Instant;

/// Candidate orders evaluated in full after the cheap score.
pub const FULL_EVALUATIONS: usize = 3;
/// The local search ([`improve`]) may compute this many scores at most …
pub const MAX_SEARCH_EVALS: usize = 20_000;
/// … and at most this much work in all, in (source switches × switch ports) units per score (about 2 s on the
/// development machine).
pub const SEARCH_WORK: usize = 50_000_000;
/// Topologies with at most this many switches also get levels and DFS orders from every switch as candidates.
pub const SMALL_TOPOLOGY: usize = 64;

/// How the returned tables were restricted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Restriction {
    /// None: the maximum-adaptivity tables' dependency graph was already acyclic.
    None,
    /// Up*/down* with this order of the switches.
    UpDown(Ranking),
}

impl Restriction {
    /// A one-line description for reports: that none was needed, or up*/down* and how its order was built.
    pub fn describe(&self) -> String {
        match self {
            Restriction::None => {
                "none needed (the maximum-adaptivity tables are already acyclic)".to_string()
            }
            Restriction::UpDown(r) => format!("up*/down*, {}", r.method),
        }
    }
    /// The up*/down* order, if one was imposed.
    pub fn ranking(&self) -> Option<&Ranking> {
        match self {
            Restriction::None => None,
            Restriction::UpDown(r) => Some(r),
        }
    }
}

/// The cheap score of an order: over ordered (injection switch, delivering switch) pairs weighted by the
/// processor pairs they serve, how many have no legal path, how many have no legal shortest path, and the mean
/// share of shortest paths that stay legal over the rest.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Proxy {
    /// Processor pairs whose switch pair has no legal path at all.
    pub unroutable: u64,
    /// Processor pairs whose switch pair has a legal path but no legal shortest path.
    pub nonminimal: u64,
    /// Mean share (0 to 1) of the shortest paths that stay legal, over the remaining processor pairs.
    pub kept: f64,
}

impl Proxy {
    fn cmp(&self, o: &Proxy) -> Ordering {
        (self.unroutable, self.nonminimal)
            .cmp(&(o.unroutable, o.nonminimal))
            .then(o.kept.partial_cmp(&self.kept).unwrap_or(Ordering::Equal))
    }
}

/// One candidate order and how it scored.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    /// How the order was built (e.g. levels from a switch, DFS, topological).
    pub method: String,
    /// Its cheap score.
    pub proxy: Proxy,
    /// Filled for the candidates generated in full (`max_load` only when choosing by balance).
    pub summary: Option<Summary>,
    /// The busiest channel's estimated load ([`max_channel_load`]) of its full tables, when choosing by
    /// [`Objective::Balance`].
    pub max_load: Option<f64>,
}

/// Deadlock-free tables and how they were made.
#[derive(Debug, Clone)]
pub struct DeadlockFree {
    /// The route tables returned.
    pub tables: Tables,
    /// The turn restriction they obey.
    pub restriction: Restriction,
    /// The channel-dependency graph of the returned tables (acyclic), self routes included.
    pub cdg: CdgReport,
    /// The unrestricted tables' dependency graph (a cycle in it is why a restriction was needed).
    pub unrestricted_cdg: CdgReport,
    /// Every candidate order scored, best first (empty when no restriction was needed).
    pub candidates: Vec<Candidate>,
    /// Seconds spent in all.
    pub secs: f64,
    /// Seconds spent in each step: the unrestricted tables, their dependency graph, scoring and searching the
    /// candidate orders, generating the best ones in full, the final dependency check.
    pub step_secs: [f64; 5],
}

/// What decides between candidate orders (after the fewest non-minimal pairs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Objective {
    /// The highest average adaptivity (then the shortest mean route). The default.
    #[default]
    Adaptivity,
    /// The lowest estimated load on the busiest channel under uniform traffic ([`max_channel_load`]), then the
    /// highest adaptivity: a restriction that funnels many pairs through a few turns saturates early.
    Balance,
}

/// Options of [`generate_deadlock_free`].
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Always restrict, even when the unrestricted tables are acyclic.
    pub always_restrict: bool,
    /// Use this order instead of searching for one.
    pub ranking: Option<Ranking>,
    /// What decides between the candidate orders generated in full.
    pub objective: Objective,
}

/// The channel-dependency graph of `tables`, self routes included.
pub fn tables_cdg(t: &Topology, tables: &Tables) -> CdgReport {
    channel_dependencies(
        t,
        tables
            .routes()
            .chain(tables.self_routes())
            .map(|r| (r.src, r.dst, r.hops)),
    )
}

fn weights(t: &Topology, ends: &Endpoints) -> (Vec<u64>, Vec<u64>) {
    let (mut ws, mut wd) = (vec![0u64; t.len()], vec![0u64; t.len()]);
    for &(_, a, b, _) in &ends.nodes {
        ws[a] += 1;
        wd[b] += 1;
    }
    (ws, wd)
}

/// The expected traffic on the busiest switch-to-switch channel when every processor sends one packet per unit
/// time to uniformly chosen other processors and, at every hop, a header's traffic splits evenly over its
/// permitted ports (an estimate of where a restriction concentrates traffic: saturation throughput is at most
/// about 1 / this, in packets per processor per unit time).
pub fn max_channel_load(t: &Topology, tables: &Tables) -> f64 {
    let mut offset = Vec::with_capacity(t.len() + 1);
    let mut total = 0usize;
    for e in 0..t.len() {
        offset.push(total);
        total += t.ports(e) as usize;
    }
    let n = tables.ends.nodes.len();
    let (ws, wd) = weights(t, &tables.ends);
    let mut load = vec![0f64; total];
    let mut here: Vec<(usize, f64)> = Vec::new();
    let mut next: Vec<(usize, f64)> = Vec::new();
    for &a in &tables.ends.sources {
        for &b in &tables.ends.dests {
            let Some(r) = tables.switch_route(a, b) else {
                continue;
            };
            let w = (ws[a] * wd[b]) as f64 / (n - 1) as f64;
            here.clear();
            here.push((a, 1.0));
            for &set in &r.hops {
                let k = set.count_ones() as f64;
                next.clear();
                for &(x, p) in &here {
                    for q in (0..64).filter(|&q| set >> q & 1 == 1) {
                        load[offset[x] + q as usize] += w * p / k;
                        if let Some(y) = t.output(x, q as u32) {
                            match next.iter_mut().find(|e| e.0 == y.elem) {
                                Some(e) => e.1 += p / k,
                                None => next.push((y.elem, p / k)),
                            }
                        }
                    }
                }
                std::mem::swap(&mut here, &mut next);
            }
        }
    }
    load.into_iter().fold(0.0, f64::max)
}

/// The cheap score of `rk` (see [`Proxy`]).
pub fn proxy(t: &Topology, ends: &Endpoints, rk: &Ranking) -> Proxy {
    let (ws, wd) = weights(t, ends);
    let mut p = Proxy {
        unroutable: 0,
        nonminimal: 0,
        kept: 0.0,
    };
    let mut kept_w = 0u64;
    let mut cnt = vec![0f64; t.len()];
    let mut scnt = vec![0f64; 2 * t.len()];
    for &a in &ends.sources {
        let bfs = modified_bfs(t, a);
        let sb = updown_bfs(t, rk, a);
        cnt.iter_mut().for_each(|c| *c = 0.0);
        scnt.iter_mut().for_each(|c| *c = 0.0);
        cnt[a] = 1.0;
        for &v in &bfs.order[1..] {
            if !t.element(v).is_node() {
                cnt[v] = bfs.parents[v].iter().map(|&(u, _)| cnt[u]).sum();
            }
        }
        scnt[sb.order[0] as usize] = 1.0;
        for &v in &sb.order[1..] {
            let v = v as usize;
            scnt[v] = sb.parents[v].iter().map(|&(u, _)| scnt[u as usize]).sum();
        }
        for &b in &ends.dests {
            let w = ws[a] * wd[b];
            let d = bfs.depth[b];
            let sd = sb.distance(b);
            if sd == super::bfs::UNREACHED {
                p.unroutable += w;
            } else if sd > d {
                p.nonminimal += w;
            } else {
                let legal: f64 = [2 * b, 2 * b + 1]
                    .iter()
                    .filter(|&&s| sb.depth[s] == sd)
                    .map(|&s| scnt[s])
                    .sum();
                p.kept += w as f64 * legal / cnt[b].max(1.0);
                kept_w += w;
            }
        }
    }
    p.kept /= kept_w.max(1) as f64;
    p
}

/// The candidate orders of the switches (see the module documentation), without duplicates.
pub fn candidates(t: &Topology) -> Vec<Ranking> {
    let sw = t.switches();
    let adj = switch_neighbours(t);
    let zeros = vec![0u32; t.len()];
    let ids: Vec<u32> = (0..t.len() as u32).collect();
    let mut out: Vec<Ranking> = Vec::new();
    let mut push = |order: Vec<usize>, method: String| {
        let r = Ranking::from_order(t, &order, method);
        if !out.iter().any(|o| o.rank == r.rank) {
            out.push(r);
        }
    };
    if let Some(o) = topological_order(t) {
        push(
            o,
            "topological order of the switch graph (no cycle to break)".into(),
        );
    }
    // Levels down from the switches farthest from any processor (the top of a multistage network).
    let attached: Vec<usize> = sw
        .iter()
        .copied()
        .filter(|&s| {
            (0..t.ports(s)).any(|p| {
                [t.output(s, p), t.input(s, p)]
                    .into_iter()
                    .flatten()
                    .any(|q| t.element(q.elem).is_node())
            })
        })
        .collect();
    let pd = distances_from(t, &adj, &attached);
    let far = sw
        .iter()
        .map(|&s| pd[s])
        .filter(|&d| d != u32::MAX)
        .max()
        .unwrap_or(0);
    let top: Vec<usize> = sw.iter().copied().filter(|&s| pd[s] == far).collect();
    if !top.is_empty() {
        let lv = distances_from(t, &adj, &top);
        push(
            order_by(t, &lv, &ids),
            format!(
                "levels from the {} switches farthest from the processors, ties by index",
                top.len()
            ),
        );
        push(
            order_by(t, &lv, &dfs_preorder(t, &adj, &top)),
            format!(
                "levels from the {} switches farthest from the processors, ties by DFS order",
                top.len()
            ),
        );
        push(
            order_by(t, &lv, &alternating_sides(t, &adj, &lv)),
            format!(
                "levels from the {} switches farthest from the processors, ties by sides alternating between groups",
                top.len()
            ),
        );
    }
    // Single roots: the centre (smallest eccentricity), or every switch of a small topology.
    let roots: Vec<usize> = if sw.len() <= SMALL_TOPOLOGY {
        sw.clone()
    } else {
        let ecc = |s: usize| {
            distances_from(t, &adj, &[s])
                .iter()
                .enumerate()
                .filter(|&(e, _)| !t.element(e).is_node())
                .map(|(_, &d)| d)
                .max()
                .unwrap_or(0)
        };
        let c = sw.par_iter().copied().min_by_key(|&s| (ecc(s), s));
        c.into_iter().collect()
    };
    for &r in &roots {
        let name = &t.element(r).name;
        let lv = distances_from(t, &adj, &[r]);
        let dfs = dfs_preorder(t, &adj, &[r]);
        push(
            order_by(t, &lv, &ids),
            format!("BFS levels from {name}, ties by index"),
        );
        push(
            order_by(t, &lv, &dfs),
            format!("BFS levels from {name}, ties by DFS order"),
        );
        push(order_by(t, &dfs, &zeros), format!("DFS order from {name}"));
    }
    out
}

/// Hill climbing on an order: swap the ranks of two linked switches (which turns their link around and moves
/// both relative to every switch between them), keep the swap when the [`Proxy`] improves, and repeat over all
/// links until a whole pass gains nothing or `max_evals` scores have been computed. Deterministic.
pub fn improve(
    t: &Topology,
    ends: &Endpoints,
    rk: &Ranking,
    start: Proxy,
    max_evals: usize,
) -> (Ranking, Proxy, usize) {
    let adj = switch_neighbours(t);
    let links: Vec<(usize, usize)> = t
        .switches()
        .into_iter()
        .flat_map(|s| adj[s].iter().filter(move |&&v| v > s).map(move |&v| (s, v)))
        .collect();
    let mut cur = rk.clone();
    let mut best = start;
    let mut evals = 0;
    let mut improved = true;
    while improved && evals < max_evals {
        improved = false;
        for &(a, b) in &links {
            if evals >= max_evals {
                break;
            }
            cur.rank.swap(a, b);
            let p = proxy(t, ends, &cur);
            evals += 1;
            if p.cmp(&best) == Ordering::Less {
                best = p;
                improved = true;
            } else {
                cur.rank.swap(a, b);
            }
        }
    }
    if cur.rank != rk.rank {
        cur.method = format!("{}, improved by {evals} link swaps tried", rk.method);
    }
    (cur, best, evals)
}

/// Tie keys within levels: the switches of one level joined by links between them form groups (connected
/// components); in each group the switches at even BFS distance from its first switch come before those at odd
/// distance, and which of the two sides comes first alternates from group to group. In a bipartite group (an
/// SP2 intermediate board: chips 0-3 against chips 4-7) every turn-around through the later side is legal, so
/// alternating the sides between boards gives half of the boards to the pairs on each side, evenly, instead
/// of funnelling turn-arounds through the first few switches of every board.
pub fn alternating_sides(t: &Topology, adj: &[Vec<usize>], level: &[u32]) -> Vec<u32> {
    let mut key = vec![u32::MAX; t.len()];
    let mut group = 0u32;
    let mut next_key = 0u32;
    for s in t.switches() {
        if key[s] != u32::MAX {
            continue;
        }
        // BFS over same-level links from s.
        let mut dist = vec![(s, 0u32)];
        let mut seen = std::collections::HashSet::from([s]);
        let mut i = 0;
        while i < dist.len() {
            let (u, d) = dist[i];
            i += 1;
            for &v in &adj[u] {
                if level[v] == level[u] && seen.insert(v) {
                    dist.push((v, d + 1));
                }
            }
        }
        let first = group % 2;
        for side in [first, 1 - first] {
            let mut members: Vec<usize> = dist
                .iter()
                .filter(|&&(_, d)| d % 2 == side)
                .map(|&(u, _)| u)
                .collect();
            members.sort_unstable();
            for u in members {
                key[u] = next_key;
                next_key += 1;
            }
        }
        group += 1;
    }
    key
}

fn better(a: &Summary, b: &Summary) -> bool {
    (a.nonminimal, -a.adaptivity_minimal, a.mean_hops).partial_cmp(&(
        b.nonminimal,
        -b.adaptivity_minimal,
        b.mean_hops,
    )) == Some(Ordering::Less)
}

/// Deadlock-free tables of maximum adaptivity under the restriction chosen as in the module documentation.
pub fn generate_deadlock_free(
    t: &Topology,
    method: Method,
    opts: &Options,
) -> Result<DeadlockFree, RouteError> {
    let t0 = Instant::now();
    let ends = endpoints(t)?;
    let mut step_secs = [0.0; 5];
    let mut lap = Instant::now();
    let mut mark = |k: usize| {
        step_secs[k] = lap.elapsed().as_secs_f64();
        lap = Instant::now();
    };
    let free = generate(t, method, &|| {})?;
    mark(0);
    let unrestricted_cdg = tables_cdg(t, &free);
    mark(1);
    if unrestricted_cdg.cycle.is_none() && !opts.always_restrict && opts.ranking.is_none() {
        return Ok(DeadlockFree {
            tables: free,
            restriction: Restriction::None,
            cdg: unrestricted_cdg.clone(),
            unrestricted_cdg,
            candidates: Vec::new(),
            secs: t0.elapsed().as_secs_f64(),
            step_secs,
        });
    }
    let cands = match &opts.ranking {
        Some(r) => vec![r.clone()],
        None => candidates(t),
    };
    let mut scored: Vec<(Ranking, Proxy)> = cands
        .into_par_iter()
        .map(|r| {
            let p = proxy(t, &ends, &r);
            (r, p)
        })
        .collect();
    scored.sort_by(|a, b| a.1.cmp(&b.1));
    if opts.ranking.is_none() && scored[0].1.nonminimal > 0 {
        // Local search from the best order, as a further candidate, when some pairs lost every shortest path.
        let channels: usize = t.switches().iter().map(|&s| t.ports(s) as usize).sum();
        let work = (ends.sources.len() * channels).max(1);
        let budget = (SEARCH_WORK / work).min(MAX_SEARCH_EVALS);
        if budget > 0 {
            let (r, p, _) = improve(t, &ends, &scored[0].0, scored[0].1, budget);
            if r.rank != scored[0].0.rank {
                scored.insert(0, (r, p));
            }
        }
    }
    mark(2);
    let full: Vec<Result<(usize, Tables), RouteError>> = scored
        .iter()
        .take(FULL_EVALUATIONS)
        .enumerate()
        .filter(|(_, (_, p))| p.unroutable == 0)
        .map(|(i, (r, _))| generate_restricted(t, method, r, &|| {}).map(|tb| (i, tb)))
        .collect();
    let mut candidates: Vec<Candidate> = scored
        .iter()
        .map(|(r, p)| Candidate {
            method: r.method.clone(),
            proxy: *p,
            summary: None,
            max_load: None,
        })
        .collect();
    let mut best: Option<(usize, Tables, Summary, f64)> = None;
    for f in full {
        let (i, tb) = f?;
        let s = tb.summary();
        let load = match opts.objective {
            Objective::Balance => max_channel_load(t, &tb),
            Objective::Adaptivity => f64::NAN,
        };
        candidates[i].summary = Some(s);
        candidates[i].max_load = (!load.is_nan()).then_some(load);
        let wins = best
            .as_ref()
            .is_none_or(|(_, _, bs, bl)| match opts.objective {
                Objective::Adaptivity => better(&s, bs),
                Objective::Balance => {
                    (s.nonminimal, load, -s.adaptivity_minimal).partial_cmp(&(
                        bs.nonminimal,
                        *bl,
                        -bs.adaptivity_minimal,
                    )) == Some(Ordering::Less)
                }
            });
        if wins {
            best = Some((i, tb, s, load));
        }
    }
    let Some((i, tables, _, _)) = best else {
        return Err(RouteError::NoLegalOrder);
    };
    mark(3);
    let cdg = tables_cdg(t, &tables);
    mark(4);
    if let Some(c) = &cdg.cycle {
        return Err(RouteError::CyclicRestriction(c.join(" → ")));
    }
    Ok(DeadlockFree {
        tables,
        restriction: Restriction::UpDown(scored.swap_remove(i).0),
        cdg,
        unrestricted_cdg,
        candidates,
        secs: t0.elapsed().as_secs_f64(),
        step_secs,
    })
}

/// Tables for a degraded copy of a topology (same elements, some links gone) that are safe to switch to while
/// packets routed by the `old` tables are still in the network: the union of the old routes (cut where a link
/// failed: a failed link swallows what reaches it, so nothing waits behind it) and the new ones must have an
/// acyclic channel-dependency graph. Tried in order: the old up*/down* order kept (the union then obeys one
/// order, so it is acyclic by construction), then a fresh choice, then a fresh restricted choice. Returns the
/// new tables and the union's dependency graph.
pub fn regenerate_after_faults(
    degraded: &Topology,
    old: &DeadlockFree,
    method: Method,
    objective: Objective,
) -> Result<(DeadlockFree, CdgReport), RouteError> {
    let mut tries: Vec<Options> = Vec::new();
    if let Some(r) = old.restriction.ranking() {
        tries.push(Options {
            always_restrict: true,
            ranking: Some(r.clone()),
            objective,
        });
    }
    tries.push(Options {
        objective,
        ..Options::default()
    });
    tries.push(Options {
        always_restrict: true,
        ranking: None,
        objective,
    });
    let mut last_err = None;
    for o in &tries {
        let new = match generate_deadlock_free(degraded, method, o) {
            Ok(n) => n,
            Err(e) => {
                last_err = Some(e);
                continue;
            }
        };
        let union = channel_dependencies(
            degraded,
            old.tables
                .routes()
                .chain(old.tables.self_routes())
                .chain(new.tables.routes())
                .chain(new.tables.self_routes())
                .map(|r| (r.src, r.dst, r.hops)),
        );
        if union.cycle.is_none() {
            return Ok((new, union));
        }
        last_err = Some(RouteError::UnsafeTransition(
            union.cycle.unwrap_or_default().join(" → "),
        ));
    }
    Err(last_err.expect("at least one attempt"))
}

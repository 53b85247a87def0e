//! Route tables for all processor pairs (thesis Figs. 4.1, 4.2 and §4.3.2).
//!
//! Routes are computed once per (source switch, destination switch) pair, where the source switch is the one a
//! processor injects into and the destination switch the one that delivers to a processor: one MODIFIED_BFS
//! per source switch, then R, S and the DP per destination switch. A processor pair's route is the switch
//! pair's route followed by the one-port hop into the destination processor. Source switches are processed in
//! parallel (rayon, all cores) or by explicit scattered workers for the Table 4.4 measurements.

use super::bfs::{modified_bfs, routability, Bfs, Routability};
use super::error::RouteError;
use super::solution::{max_adaptive_path, solution_graph, solve};
use super::updown::{updown_bfs, updown_routability, Ranking};
use crate::header::{hop_hex, npath};
use crate::topology::Topology;
use rayon::prelude::*;
use std::io::{self, Write};
use std::time::Instant;

/// The route of a (source switch, destination switch) pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchRoute {
    /// One permitted-output set per switch before the destination switch.
    pub hops: Vec<u64>,
    /// Product of the hops' popcounts.
    pub npath: u128,
    /// Number of physically existing shortest paths between the two switches.
    pub physical: u128,
    /// Hops of a shortest physical path between the two switches (`hops.len()` unless the route had to be
    /// longer to obey a turn restriction).
    pub shortest: usize,
    /// Vertices of the solution graph (for statistics).
    pub s_vertices: usize,
    /// Edges of the solution graph (for statistics).
    pub s_edges: usize,
}

/// How the solution graph is built and searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Only the vertices the DP needs, largest routing sets first, with a bound ([`solve`]). The default.
    #[default]
    Pruned,
    /// The whole active solution graph (Fig. 4.4), then the DP of Fig. 4.6.
    Full,
}

/// S and the DP on a routability graph R (the unrestricted one or one restricted to legal turns).
fn solve_routability(
    r: &Routability,
    physical: u128,
    shortest: usize,
    method: Method,
) -> Result<SwitchRoute, RouteError> {
    let route = match method {
        Method::Full => {
            let s = solution_graph(r)?;
            let (np, hops) = max_adaptive_path(&s);
            SwitchRoute {
                hops,
                npath: np,
                physical,
                shortest,
                s_vertices: s.vertex_count(),
                s_edges: s.edge_count(),
            }
        }
        Method::Pruned => {
            let s = solve(r)?;
            SwitchRoute {
                hops: s.hops,
                npath: s.npath,
                physical,
                shortest,
                s_vertices: s.vertices,
                s_edges: s.edges,
            }
        }
    };
    debug_assert_eq!(route.npath, npath(&route.hops));
    Ok(route)
}

/// R, S and the DP for one destination switch of a BFS.
pub fn route_switch_pair(
    bfs: &Bfs,
    dst: usize,
    scratch: &mut [u32],
    method: Method,
) -> Result<Option<SwitchRoute>, RouteError> {
    let Some(r) = routability(bfs, dst, scratch) else {
        return Ok(None);
    };
    let physical = r.physical_paths();
    solve_routability(&r, physical, r.hops(), method).map(Some)
}

/// The routes from one source switch, with timings.
#[derive(Debug, Clone)]
pub struct SourceResult {
    /// The source switch (element index).
    pub switch: usize,
    /// Seconds spent in the BFS.
    pub bfs_secs: f64,
    /// Per destination switch (in BFS discovery order): the switch, its route, seconds spent on it.
    pub dests: Vec<(usize, SwitchRoute, f64)>,
}

impl SourceResult {
    /// Seconds spent on this source switch in all: the BFS plus every destination.
    pub fn secs(&self) -> f64 {
        self.bfs_secs + self.dests.iter().map(|d| d.2).sum::<f64>()
    }
}

/// Where processors attach.
#[derive(Debug, Clone)]
pub struct Endpoints {
    /// (processor, switch it injects into, switch that delivers to it, that switch's output port).
    pub nodes: Vec<(usize, usize, usize, u32)>,
    /// Distinct injection switches, in processor order.
    pub sources: Vec<usize>,
    /// Distinct delivering switches, in processor order.
    pub dests: Vec<usize>,
}

/// Finds where every processor injects and receives; a processor without either has no path.
pub fn endpoints(t: &Topology) -> Result<Endpoints, RouteError> {
    let nodes = t.nodes();
    if nodes.len() < 2 {
        return Err(RouteError::TooFewProcessors);
    }
    let mut out = Vec::with_capacity(nodes.len());
    let (mut sources, mut dests) = (Vec::new(), Vec::new());
    let (mut seen_s, mut seen_d) = (vec![false; t.len()], vec![false; t.len()]);
    for (k, &n) in nodes.iter().enumerate() {
        let other = t.element(nodes[if k == 0 { 1 } else { 0 }]).name.clone();
        let name = t.element(n).name.clone();
        let inj = t.inject_switch(n).filter(|p| !t.element(p.elem).is_node());
        let del = t.deliver_port(n).filter(|p| !t.element(p.elem).is_node());
        let (Some(inj), Some(del)) = (inj, del) else {
            return Err(if inj.is_none() {
                RouteError::NoPath {
                    src: name,
                    dst: other,
                }
            } else {
                RouteError::NoPath {
                    src: other,
                    dst: name,
                }
            });
        };
        if !seen_s[inj.elem] {
            seen_s[inj.elem] = true;
            sources.push(inj.elem);
        }
        if !seen_d[del.elem] {
            seen_d[del.elem] = true;
            dests.push(del.elem);
        }
        out.push((n, inj.elem, del.elem, del.port));
    }
    Ok(Endpoints {
        nodes: out,
        sources,
        dests,
    })
}

/// All routes from source switch `a` to the delivering switches (unreachable ones are left out).
pub fn routes_from_switch(
    t: &Topology,
    a: usize,
    is_dest: &[bool],
    method: Method,
) -> Result<SourceResult, RouteError> {
    let t0 = Instant::now();
    let bfs = modified_bfs(t, a);
    let bfs_secs = t0.elapsed().as_secs_f64();
    let mut scratch = vec![u32::MAX; t.len()];
    let mut dests = Vec::new();
    for &b in bfs.order.iter().filter(|&&b| is_dest[b]) {
        let t1 = Instant::now();
        if let Some(r) = route_switch_pair(&bfs, b, &mut scratch, method)? {
            dests.push((b, r, t1.elapsed().as_secs_f64()));
        }
    }
    Ok(SourceResult {
        switch: a,
        bfs_secs,
        dests,
    })
}

/// All routes from source switch `a` restricted to the legal paths of an up*/down* ranking: for every
/// delivering switch, the maximum adaptive route over the shortest *legal* paths (longer than a shortest
/// physical path only when no shortest path is legal). Unreachable switches are left out.
pub fn routes_from_switch_restricted(
    t: &Topology,
    a: usize,
    is_dest: &[bool],
    method: Method,
    rk: &Ranking,
) -> Result<SourceResult, RouteError> {
    let t0 = Instant::now();
    let bfs = modified_bfs(t, a);
    let sbfs = updown_bfs(t, rk, a);
    let bfs_secs = t0.elapsed().as_secs_f64();
    let mut scratch = vec![u32::MAX; t.len()];
    let mut sscratch = vec![u32::MAX; 2 * t.len()];
    let mut dests = Vec::new();
    for &b in bfs.order.iter().filter(|&&b| is_dest[b]) {
        let t1 = Instant::now();
        let Some(phys) = routability(&bfs, b, &mut scratch) else {
            continue;
        };
        let Some(r) = updown_routability(&sbfs, b, &mut sscratch) else {
            continue;
        };
        let route = solve_routability(&r, phys.physical_paths(), phys.hops(), method)?;
        dests.push((b, route, t1.elapsed().as_secs_f64()));
    }
    Ok(SourceResult {
        switch: a,
        bfs_secs,
        dests,
    })
}

/// One processor pair's route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// Source processor (element index).
    pub src: usize,
    /// Destination processor (element index).
    pub dst: usize,
    /// One permitted-output set per hop, the last one the single port into the destination processor.
    pub hops: Vec<u64>,
    /// Number of paths the header permits (the product of the hops' popcounts).
    pub npath: u128,
    /// Number of physically existing shortest paths between the two processors' switches.
    pub physical: u128,
}

/// What route tables give over all ordered pairs of distinct processors ([`Tables::summary`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Ordered pairs of distinct processors.
    pub pairs: usize,
    /// Pairs whose route is longer than their shortest physical path.
    pub nonminimal: usize,
    /// Mean of npath / physically existing shortest paths over the pairs routed minimally (thesis Table 4.1's
    /// average adaptivity when every pair is minimal).
    pub adaptivity_minimal: f64,
    /// Mean route length in channels, processor to processor (the shortest possible: `mean_shortest_hops`).
    pub mean_hops: f64,
    /// Mean shortest-path length in channels, processor to processor.
    pub mean_shortest_hops: f64,
    /// Mean number of paths a header permits.
    pub mean_npath: f64,
}

/// The route tables of a whole topology.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Where the processors attach.
    pub ends: Endpoints,
    /// The routes from each injection switch, with timings.
    pub sources: Vec<SourceResult>,
    /// Element → index into `sources`.
    src_index: Vec<u32>,
    /// Per source: element → index into its `dests`.
    dest_index: Vec<Vec<u32>>,
}

impl Tables {
    fn new(t: &Topology, ends: Endpoints, sources: Vec<SourceResult>) -> Result<Self, RouteError> {
        let mut src_index = vec![u32::MAX; t.len()];
        let mut dest_index = Vec::with_capacity(sources.len());
        for (i, s) in sources.iter().enumerate() {
            src_index[s.switch] = i as u32;
            let mut di = vec![u32::MAX; t.len()];
            for (j, d) in s.dests.iter().enumerate() {
                di[d.0] = j as u32;
            }
            dest_index.push(di);
        }
        let tables = Tables {
            ends,
            sources,
            src_index,
            dest_index,
        };
        // Every ordered pair must have a path.
        for &(s, a, _, _) in &tables.ends.nodes {
            for &(d, _, b, _) in &tables.ends.nodes {
                if s != d && tables.dest_index[tables.src_index[a] as usize][b] == u32::MAX {
                    let name = |e: usize| t.element(e).name.clone();
                    return Err(RouteError::NoPath {
                        src: name(s),
                        dst: name(d),
                    });
                }
            }
        }
        Ok(tables)
    }

    /// The switch route from injection switch `a` to delivering switch `b`.
    pub fn switch_route(&self, a: usize, b: usize) -> Option<&SwitchRoute> {
        let si = *self.src_index.get(a)?;
        let di = *self.dest_index.get(si as usize)?.get(b)?;
        (di != u32::MAX).then(|| &self.sources[si as usize].dests[di as usize].1)
    }

    /// Routes for every ordered pair of distinct processors, source-major in processor order.
    pub fn routes(&self) -> impl Iterator<Item = Route> + '_ {
        let n = &self.ends.nodes;
        n.iter().flat_map(move |&(s, a, _, _)| {
            n.iter()
                .filter(move |x| x.0 != s)
                .map(move |&(d, _, b, q)| {
                    let r = self.switch_route(a, b).expect("checked in Tables::new");
                    let mut hops = r.hops.clone();
                    hops.push(1u64 << q);
                    Route {
                        src: s,
                        dst: d,
                        hops,
                        npath: r.npath,
                        physical: r.physical,
                    }
                })
        })
    }

    /// The route of every processor to itself (its injecting switch to its delivering switch, then the port
    /// into it): needed by traffic that may send to its own source, on topologies where a processor injects and
    /// receives at different switches. `None` for a processor whose delivering switch is not reachable.
    pub fn self_routes(&self) -> impl Iterator<Item = Route> + '_ {
        self.ends.nodes.iter().filter_map(move |&(p, a, b, q)| {
            let r = self.switch_route(a, b)?;
            let mut hops = r.hops.clone();
            hops.push(1u64 << q);
            Some(Route {
                src: p,
                dst: p,
                hops,
                npath: r.npath,
                physical: r.physical,
            })
        })
    }

    /// Adaptivity, path length and minimality over every ordered pair of distinct processors.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        let (mut ad, mut hops, mut short, mut np) = (0.0, 0.0, 0.0, 0.0);
        for &(src, a, _, _) in &self.ends.nodes {
            for &(d, _, b, _) in &self.ends.nodes {
                if src == d {
                    continue;
                }
                let r = self.switch_route(a, b).expect("checked in Tables::new");
                s.pairs += 1;
                hops += (r.hops.len() + 1) as f64;
                short += (r.shortest + 1) as f64;
                np += r.npath as f64;
                if r.hops.len() > r.shortest {
                    s.nonminimal += 1;
                } else {
                    ad += r.npath as f64 / r.physical as f64;
                }
            }
        }
        let p = s.pairs.max(1) as f64;
        s.adaptivity_minimal = ad / (s.pairs - s.nonminimal).max(1) as f64;
        s.mean_hops = hops / p;
        s.mean_shortest_hops = short / p;
        s.mean_npath = np / p;
        s
    }

    /// Average over ordered processor pairs of npath / physically existing shortest paths (Table 4.1).
    pub fn average_adaptivity(&self) -> f64 {
        let (mut sum, mut cnt) = (0.0, 0usize);
        for &(s, a, _, _) in &self.ends.nodes {
            for &(d, _, b, _) in &self.ends.nodes {
                if s != d {
                    let r = self.switch_route(a, b).expect("checked in Tables::new");
                    sum += r.npath as f64 / r.physical as f64;
                    cnt += 1;
                }
            }
        }
        sum / cnt as f64
    }

    /// Writes the route-table file: `src dst npath hop1 hop2 …`, hops in hex, one line per ordered pair.
    pub fn write(&self, t: &Topology, w: &mut impl Write) -> io::Result<()> {
        writeln!(
            w,
            "# src dst npath hops (permitted-output sets in hex, bit k = output k)"
        )?;
        let mut line = String::new();
        for r in self.routes() {
            line.clear();
            line.push_str(&t.element(r.src).name);
            line.push(' ');
            line.push_str(&t.element(r.dst).name);
            line.push(' ');
            line.push_str(&r.npath.to_string());
            for &h in &r.hops {
                line.push(' ');
                line.push_str(&hop_hex(h));
            }
            line.push('\n');
            w.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

fn dest_mask(t: &Topology, ends: &Endpoints) -> Vec<bool> {
    let mut m = vec![false; t.len()];
    for &b in &ends.dests {
        m[b] = true;
    }
    m
}

/// Generates all route tables using rayon's pool; `progress` is called once per finished source switch.
pub fn generate(
    t: &Topology,
    method: Method,
    progress: &(dyn Fn() + Sync),
) -> Result<Tables, RouteError> {
    let ends = endpoints(t)?;
    let is_dest = dest_mask(t, &ends);
    let sources: Vec<SourceResult> = ends
        .sources
        .par_iter()
        .map(|&a| {
            let r = routes_from_switch(t, a, &is_dest, method);
            progress();
            r
        })
        .collect::<Result<_, _>>()?;
    Tables::new(t, ends, sources)
}

/// Generates all route tables restricted to the legal paths of an up*/down* ranking (rayon's pool).
pub fn generate_restricted(
    t: &Topology,
    method: Method,
    rk: &Ranking,
    progress: &(dyn Fn() + Sync),
) -> Result<Tables, RouteError> {
    let ends = endpoints(t)?;
    let is_dest = dest_mask(t, &ends);
    let sources: Vec<SourceResult> = ends
        .sources
        .par_iter()
        .map(|&a| {
            let r = routes_from_switch_restricted(t, a, &is_dest, method, rk);
            progress();
            r
        })
        .collect::<Result<_, _>>()?;
    Tables::new(t, ends, sources)
}

/// Generates all route tables with `workers` threads, source switch j going to worker j mod `workers`
/// (scattered). Returns the tables and each worker's busy seconds.
pub fn generate_scattered(
    t: &Topology,
    workers: usize,
    method: Method,
) -> Result<(Tables, Vec<f64>), RouteError> {
    let ends = endpoints(t)?;
    let is_dest = dest_mask(t, &ends);
    let workers = workers.max(1);
    type WorkerResult = (Vec<(usize, Result<SourceResult, RouteError>)>, f64);
    let results: Vec<WorkerResult> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (ends, is_dest) = (&ends, &is_dest);
                sc.spawn(move || {
                    let t0 = Instant::now();
                    let mine: Vec<_> = (w..ends.sources.len())
                        .step_by(workers)
                        .map(|j| (j, routes_from_switch(t, ends.sources[j], is_dest, method)))
                        .collect();
                    (mine, t0.elapsed().as_secs_f64())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("route worker panicked"))
            .collect()
    });
    let mut slots: Vec<Option<SourceResult>> = vec![None; ends.sources.len()];
    let mut times = Vec::with_capacity(workers);
    for (mine, secs) in results {
        times.push(secs);
        for (j, r) in mine {
            slots[j] = Some(r?);
        }
    }
    let sources = slots
        .into_iter()
        .map(|s| s.expect("every source assigned"))
        .collect();
    Ok((Tables::new(t, ends, sources)?, times))
}

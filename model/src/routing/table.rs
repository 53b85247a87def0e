//! Routing from route tables: the header of every (source, destination) pair comes from a route-table file
//! (`crate::routes::file`) or from the route generator (`crate::routes::generate`), so the simulator runs on
//! any topology — SP2 systems, meshes, tori, hypercubes, or a topology file.
//!
//! Processors are numbered as the simulator numbers them: the topology's nodes in order (`Topology::nodes`).
//! [`TableRouting::single_path`] keeps only the lowest port of every hop: the deterministic source routing of
//! the SP2 (one path per pair) built from the same shortest paths, for comparisons with ASR.

use super::scheme::Routing;
use crate::rng::Rng;
use crate::routes::file::LoadedRoute;
use crate::routes::Tables;
use crate::topology::Topology;

/// Headers for every ordered processor pair.
#[derive(Debug, Clone)]
pub struct TableRouting {
    n: usize,
    max_hops: usize,
    /// `hops[src * n + dst]`.
    hops: Vec<Vec<u64>>,
    name: String,
}

impl TableRouting {
    /// From routes given by element indices; every ordered pair of distinct processors must have a route.
    pub fn from_routes(
        t: &Topology,
        routes: impl IntoIterator<Item = (usize, usize, Vec<u64>)>,
        name: &str,
    ) -> Result<Self, String> {
        let nodes = t.nodes();
        let n = nodes.len();
        let mut index = vec![usize::MAX; t.len()];
        for (k, &e) in nodes.iter().enumerate() {
            index[e] = k;
        }
        let mut hops = vec![Vec::new(); n * n];
        for (s, d, h) in routes {
            let (si, di) = (index[s], index[d]);
            if si == usize::MAX || di == usize::MAX {
                return Err(format!(
                    "route between `{}` and `{}`: not processors",
                    t.element(s).name,
                    t.element(d).name
                ));
            }
            if h.is_empty() {
                return Err(format!(
                    "route {} → {} has no hop",
                    t.element(s).name,
                    t.element(d).name
                ));
            }
            hops[si * n + di] = h;
        }
        // A processor may send to itself (uniform traffic): route tables list distinct pairs only, so its
        // route is the generator's route from its injecting switch to its delivering switch (just the
        // delivery port when they are the same switch).
        if let Ok(ends) = crate::routes::table::endpoints(t) {
            let mut scratch = vec![u32::MAX; t.len()];
            for &(p, a, b, q) in &ends.nodes {
                let k = index[p];
                if !hops[k * n + k].is_empty() {
                    continue;
                }
                let mut h = if a == b {
                    Vec::new()
                } else {
                    let bfs = crate::routes::bfs::modified_bfs(t, a);
                    match crate::routes::route_switch_pair(
                        &bfs,
                        b,
                        &mut scratch,
                        crate::routes::Method::Pruned,
                    ) {
                        Ok(Some(r)) => r.hops,
                        _ => {
                            return Err(format!("no route from `{}` to itself", t.element(p).name))
                        }
                    }
                };
                h.push(1u64 << q);
                hops[k * n + k] = h;
            }
        }
        for si in 0..n {
            for di in 0..n {
                if hops[si * n + di].is_empty() {
                    return Err(format!(
                        "no route from `{}` to `{}` in the table",
                        t.element(nodes[si]).name,
                        t.element(nodes[di]).name
                    ));
                }
            }
        }
        let max_hops = hops.iter().map(|h| h.len()).max().unwrap_or(0);
        Ok(TableRouting {
            n,
            max_hops,
            hops,
            name: name.to_string(),
        })
    }

    /// From a loaded route-table file.
    pub fn from_loaded(t: &Topology, routes: &[LoadedRoute], name: &str) -> Result<Self, String> {
        Self::from_routes(
            t,
            routes.iter().map(|r| (r.src, r.dst, r.hops.clone())),
            name,
        )
    }

    /// From generated tables (with their own routes of every processor to itself, so that restricted tables
    /// stay restricted for traffic that may send to its source).
    pub fn from_tables(t: &Topology, tables: &Tables, name: &str) -> Result<Self, String> {
        Self::from_routes(
            t,
            tables
                .routes()
                .chain(tables.self_routes())
                .map(|r| (r.src, r.dst, r.hops)),
            name,
        )
    }

    /// The header (one port set per hop) of the pair (`src`, `dst`), processors numbered as
    /// `Topology::nodes` orders them.
    pub fn header(&self, src: usize, dst: usize) -> &[u64] {
        &self.hops[src * self.n + dst]
    }

    /// The channel-dependency graph of every pair's header on `t` (the topology the routing was made for).
    pub fn channel_dependencies(&self, t: &Topology) -> crate::routes::cdg::CdgReport {
        let nodes = t.nodes();
        let n = self.n;
        crate::routes::cdg::channel_dependencies(
            t,
            (0..n * n).map(|i| (nodes[i / n], nodes[i % n], self.hops[i].clone())),
        )
    }

    /// One path per pair drawn from the same headers: at every hop one of the permitted ports, chosen by a
    /// hash of (source, destination, hop), so deterministic routes spread over the links as the SP2's route
    /// tables spread theirs (taking always the lowest port would pile traffic onto a few links). Every
    /// combination of a header's ports is a valid shortest path, so each choice is one. npath = 1.
    pub fn single_path(&self, name: &str) -> Self {
        let pick = |pair: usize, k: usize, x: u64| {
            let skip = crate::rng::mix(((pair as u64) << 8) ^ k as u64) % x.count_ones() as u64;
            let mut y = x;
            for _ in 0..skip {
                y &= y - 1;
            }
            y & y.wrapping_neg()
        };
        let hops = self
            .hops
            .iter()
            .enumerate()
            .map(|(pair, h)| {
                h.iter()
                    .enumerate()
                    .map(|(k, &x)| pick(pair, k, x))
                    .collect()
            })
            .collect();
        TableRouting {
            n: self.n,
            max_hops: self.max_hops,
            hops,
            name: name.to_string(),
        }
    }

    /// Mean N_path over the pairs.
    pub fn mean_npath(&self) -> f64 {
        let (mut s, mut c) = (0.0, 0usize);
        for (k, h) in self.hops.iter().enumerate() {
            if k / self.n != k % self.n {
                s += crate::header::npath(h) as f64;
                c += 1;
            }
        }
        s / c.max(1) as f64
    }
}

impl Routing for TableRouting {
    fn max_hops(&self) -> usize {
        self.max_hops
    }
    fn processors(&self) -> usize {
        self.n
    }
    #[inline]
    fn route(&self, src: usize, dst: usize, _rng: &mut Rng, hops: &mut Vec<u64>) {
        hops.clear();
        hops.extend_from_slice(&self.hops[src * self.n + dst]);
    }
    fn name(&self) -> String {
        self.name.clone()
    }
}

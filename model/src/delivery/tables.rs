//! Route tables on meshes, tori and hypercubes (seeds 000 and 003) in the route-table format of docs/contracts.md:
//! - [`dimension_order`]: deterministic minimal routes — XY on meshes and tori (x first, then y; on a torus
//!   the shorter way round, + when both are equally short), E-cube on hypercubes (lowest differing dimension
//!   first) — as one-hot headers for the built-in topologies of `crate::topology::grid`;
//! - [`asr_coverage`]: the share of the shortest paths P(v, u) that the route generator's ASR header (one
//!   permitted-port set per hop) can express, per topology.
//!
//! Port convention of the built-ins (`topology/grid.rs`): mesh/torus router ports 0 = processor, 1 = +x,
//! 2 = −x, 3 = +y, 4 = −y; hypercube router ports 0 = processor, 1 + b = dimension b. Processor v is node v
//! of [`Grid`] (v = x + K·y, or the hypercube label).

use super::grid::{Grid, GridKind, Step};
use super::policy::{delivery, Policy};
use crate::routes::{generate, Method, RouteError};
use crate::topology::builtin::builtin;
use crate::topology::Topology;
use serde::Serialize;

/// One route: processors as node numbers, hops as permitted-port sets (one-hot here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridRoute {
    /// Source node.
    pub src: usize,
    /// Destination node.
    pub dst: usize,
    /// Per switch on the way, the permitted output ports (bit k = port k); the last is port 0, the
    /// destination's processor.
    pub hops: Vec<u64>,
}

/// The router port a step leaves by.
fn port_of(kind: GridKind, s: &Step) -> u32 {
    match kind {
        GridKind::Hypercube => 1 + s.dim as u32,
        _ => 1 + 2 * s.dim as u32 + (s.dir < 0) as u32,
    }
}

/// The built-in topology and the grid of a name (`mesh:KxK`, `torus:KxK`, `hypercube:D`).
pub fn grid_topology(name: &str) -> Result<(Grid, Topology), String> {
    let g = Grid::parse(name)?;
    if g.kind != GridKind::Hypercube && g.dims[0] != g.dims[1] {
        return Err(format!(
            "`{name}`: the built-in meshes and tori are square (KxK)"
        ));
    }
    let t = builtin(name).map_err(|e| e.to_string())?;
    Ok((g, t))
}

/// Dimension-order routes for every ordered pair of processors, source-major.
pub fn dimension_order(g: &Grid) -> Vec<GridRoute> {
    let n = g.nodes();
    let mut out = Vec::with_capacity(n * (n - 1));
    let per_dest: Vec<_> = (0..n)
        .map(|d| delivery(g, d, Policy::DimensionOrder))
        .collect();
    for src in 0..n {
        for (dst, d) in per_dest.iter().enumerate() {
            if src == dst {
                continue;
            }
            let mut hops = Vec::new();
            let mut v = src;
            while v != dst {
                let s = d.order[v][0];
                hops.push(1u64 << port_of(g.kind, &s));
                v = s.to;
            }
            hops.push(1); // port 0: deliver to the processor
            out.push(GridRoute { src, dst, hops });
        }
    }
    out
}

/// The route-table file text of `routes` on topology `t` (processor v is element `P{v}`).
pub fn write_table(t: &Topology, routes: &[GridRoute]) -> String {
    let mut s =
        String::from("# src dst npath hops (permitted-output sets in hex, bit k = output k)\n");
    for r in routes {
        let _ = t
            .find(&format!("P{}", r.src))
            .expect("built-in processor name");
        s.push_str(&format!("P{} P{} 1", r.src, r.dst));
        for h in &r.hops {
            s.push_str(&format!(" {h:x}"));
        }
        s.push('\n');
    }
    s
}

/// How much of P(v, u) an ASR header can express on one topology.
#[derive(Debug, Clone, Serialize)]
pub struct Coverage {
    /// The topology's name.
    pub topology: String,
    /// Ordered (source, destination) pairs counted.
    pub pairs: usize,
    /// Mean over ordered pairs of npath / P(v, u).
    pub mean_share: f64,
    /// The smallest npath / P over all pairs.
    pub min_share: f64,
    /// Share of pairs whose header expresses every shortest path.
    pub full_pairs: f64,
    /// Whether the route generator's count of physical shortest paths equals P(v, u) for every pair.
    pub p_agrees: bool,
}

/// Runs the route generator on the topology and compares its npath with P(v, u).
pub fn asr_coverage(name: &str) -> Result<Coverage, String> {
    asr_coverage_with(name, &|| {})
}

/// [`asr_coverage`], calling `progress` after each source switch's route tables.
pub fn asr_coverage_with(name: &str, progress: &(dyn Fn() + Sync)) -> Result<Coverage, String> {
    let (g, t) = grid_topology(name)?;
    let tables = generate(&t, Method::Pruned, progress).map_err(|e: RouteError| e.to_string())?;
    let node_of = |e: usize| -> usize {
        t.element(e).name[1..]
            .parse()
            .expect("processor names are P{v}")
    };
    let counts: Vec<Vec<u128>> = (0..g.nodes()).map(|u| g.path_counts(u)).collect();
    let (mut sum, mut min, mut full, mut pairs, mut agrees) = (0.0, f64::MAX, 0usize, 0usize, true);
    for r in tables.routes() {
        let (v, u) = (node_of(r.src), node_of(r.dst));
        let p = counts[u][v];
        agrees &= r.physical == p;
        let share = r.npath as f64 / p as f64;
        sum += share;
        min = min.min(share);
        full += (r.npath == p) as usize;
        pairs += 1;
    }
    Ok(Coverage {
        topology: name.to_string(),
        pairs,
        mean_share: sum / pairs as f64,
        min_share: min,
        full_pairs: full as f64 / pairs as f64,
        p_agrees: agrees,
    })
}

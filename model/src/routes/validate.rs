//! Checks of emitted routes, independent of the generator: every combination of permitted ports leads from
//! source to destination ([`check_walk`]), on a shortest path ([`check_route`]), and npath is the product of the
//! popcounts; and the exhaustive search that proves npath maximal on small topologies by enumerating every subset
//! of ports at every hop (over all paths, or over the paths an up*/down* ranking allows).

use crate::header::npath;
use crate::topology::Topology;
use std::collections::VecDeque;
use thiserror::Error;

/// What is wrong with a route.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RouteCheckError {
    /// The processor (the route's source, or one a path enters before its last hop) has no output channel to
    /// follow.
    #[error("processor {0} is not connected")]
    Unconnected(String),
    /// A hop permits no port.
    #[error("hop {hop} is empty")]
    EmptyHop {
        /// 0-based index of the hop.
        hop: usize,
    },
    /// A permitted port does not exist or is not connected.
    #[error("hop {hop}: {switch} has no output {port}")]
    NoOutput {
        /// 0-based index of the hop.
        hop: usize,
        /// Name of the switch reached at that hop.
        switch: String,
        /// The missing output port.
        port: u32,
    },
    /// A path enters a processor before the last hop (processors never forward).
    #[error("hop {hop}: output {port} of {switch} leads to {to}, which does not forward")]
    IntoProcessor {
        /// 0-based index of the hop.
        hop: usize,
        /// Name of the switch reached at that hop.
        switch: String,
        /// The output port taken.
        port: u32,
        /// Name of the processor it leads to.
        to: String,
    },
    /// At the last hop a permitted port leads somewhere other than the destination.
    #[error("hop {hop}: output {port} of {switch} leads to {to}, not to the destination {dst}")]
    WrongEnd {
        /// 0-based index of the hop.
        hop: usize,
        /// Name of the switch reached at that hop.
        switch: String,
        /// The output port taken.
        port: u32,
        /// Name of the element it leads to.
        to: String,
        /// Name of the destination processor.
        dst: String,
    },
    /// The route is longer than a shortest path (reported where minimal routes are required).
    #[error("the route takes {channels} channels but the shortest path takes {shortest}")]
    NotShortest {
        /// Channels the route takes, processor to processor.
        channels: usize,
        /// Channels of a shortest path.
        shortest: u32,
    },
    /// The given npath disagrees with the hops.
    #[error("npath {given} is not the product of the hops' popcounts ({product})")]
    BadNpath {
        /// npath as given.
        given: u128,
        /// Product of the hops' popcounts.
        product: u128,
    },
    /// The header has no hop at all.
    #[error("the route has no hop")]
    EmptyRoute,
}

/// Channel distances from processor `src` (a processor never forwards).
pub fn distances(t: &Topology, src: usize) -> Vec<u32> {
    let mut d = vec![u32::MAX; t.len()];
    d[src] = 0;
    let mut q = VecDeque::from([src]);
    while let Some(u) = q.pop_front() {
        if u != src && t.element(u).is_node() {
            continue;
        }
        for p in 0..t.ports(u) {
            if let Some(v) = t.output(u, p) {
                if d[v.elem] == u32::MAX {
                    d[v.elem] = d[u] + 1;
                    q.push_back(v.elem);
                }
            }
        }
    }
    d
}

/// Checks a route of processor `src` to processor `dst`; `dist` = [`distances`] from `src`.
pub fn check_route(
    t: &Topology,
    src: usize,
    dst: usize,
    hops: &[u64],
    given: u128,
    dist: &[u32],
) -> Result<(), RouteCheckError> {
    let channels = check_walk(t, src, dst, hops, given)?;
    if dist[dst] as usize != channels {
        return Err(RouteCheckError::NotShortest {
            channels,
            shortest: dist[dst],
        });
    }
    Ok(())
}

/// Checks a route of processor `src` to processor `dst` without asking for a shortest path: every combination of
/// permitted ports must lead, hop by hop, through switches to `dst` at the last hop, and `given` must be the
/// product of the popcounts. Returns the route's length in channels (hops + 1).
pub fn check_walk(
    t: &Topology,
    src: usize,
    dst: usize,
    hops: &[u64],
    given: u128,
) -> Result<usize, RouteCheckError> {
    let name = |e: usize| t.element(e).name.clone();
    let product = npath(hops);
    if product != given {
        return Err(RouteCheckError::BadNpath { given, product });
    }
    let start = t
        .output(src, 0)
        .ok_or_else(|| RouteCheckError::Unconnected(name(src)))?;
    let mut cur = vec![start.elem];
    for (h, &set) in hops.iter().enumerate() {
        if set == 0 {
            return Err(RouteCheckError::EmptyHop { hop: h });
        }
        let last = h + 1 == hops.len();
        let mut next = Vec::new();
        for &x in &cur {
            if t.element(x).is_node() {
                // Only reachable for a path that enters a processor before its last hop; reported below.
                unreachable_node(t, x)?;
            }
            for port in (0..64).filter(|&b| set >> b & 1 == 1) {
                let y = t
                    .output(x, port)
                    .ok_or(RouteCheckError::NoOutput {
                        hop: h,
                        switch: name(x),
                        port,
                    })?
                    .elem;
                if last && y != dst {
                    return Err(RouteCheckError::WrongEnd {
                        hop: h,
                        switch: name(x),
                        port,
                        to: name(y),
                        dst: name(dst),
                    });
                }
                if !last && t.element(y).is_node() {
                    return Err(RouteCheckError::IntoProcessor {
                        hop: h,
                        switch: name(x),
                        port,
                        to: name(y),
                    });
                }
                next.push(y);
            }
        }
        next.sort_unstable();
        next.dedup();
        cur = next;
    }
    if hops.is_empty() {
        return Err(RouteCheckError::EmptyRoute);
    }
    Ok(hops.len() + 1)
}

fn unreachable_node(t: &Topology, x: usize) -> Result<(), RouteCheckError> {
    Err(RouteCheckError::Unconnected(t.element(x).name.clone()))
}

fn search(t: &Topology, cur: &[usize], remaining: u32, dst: usize) -> u128 {
    if remaining == 0 {
        return u128::from(cur == [dst]);
    }
    let radix = cur.iter().map(|&x| t.ports(x)).max().unwrap_or(0);
    let mut best = 0;
    let mut next = Vec::new();
    'mask: for mask in 1u64..(1u64 << radix) {
        next.clear();
        for &x in cur {
            for port in (0..radix).filter(|&b| mask >> b & 1 == 1) {
                let Some(y) = t.output(x, port) else {
                    continue 'mask;
                };
                let ok = if remaining == 1 {
                    y.elem == dst
                } else {
                    !t.element(y.elem).is_node()
                };
                if !ok {
                    continue 'mask;
                }
                next.push(y.elem);
            }
        }
        next.sort_unstable();
        next.dedup();
        let v = mask.count_ones() as u128 * search(t, &next.clone(), remaining - 1, dst);
        best = best.max(v);
    }
    best
}

/// The largest npath of any valid shortest-path route from processor `src` to `dst`, by enumerating every
/// non-empty subset of ports at every hop (exponential: for small topologies only). 0 if there is no path.
pub fn max_npath_exhaustive(t: &Topology, src: usize, dst: usize) -> u128 {
    let d = distances(t, src)[dst];
    let Some(start) = t.output(src, 0) else {
        return 0;
    };
    if d == u32::MAX || d < 2 {
        return 0;
    }
    search(t, &[start.elem], d - 1, dst)
}

fn search_legal(
    t: &Topology,
    rk: &super::updown::Ranking,
    cur: &[(usize, usize)],
    remaining: u32,
    dst: usize,
) -> u128 {
    if remaining == 0 {
        return u128::from(cur.iter().all(|&(s, _)| s == dst));
    }
    let radix = cur.iter().map(|&(x, _)| t.ports(x)).max().unwrap_or(0);
    let mut best = 0;
    let mut next = Vec::new();
    'mask: for mask in 1u64..(1u64 << radix) {
        next.clear();
        for &(x, ph) in cur {
            for port in (0..radix).filter(|&b| mask >> b & 1 == 1) {
                let Some(y) = t.output(x, port) else {
                    continue 'mask;
                };
                let ok = if remaining == 1 {
                    y.elem == dst
                } else {
                    !t.element(y.elem).is_node()
                };
                if !ok {
                    continue 'mask;
                }
                let Some(nph) = rk.step(x, ph, y.elem) else {
                    continue 'mask;
                };
                next.push((y.elem, nph));
            }
        }
        next.sort_unstable();
        next.dedup();
        let v = mask.count_ones() as u128 * search_legal(t, rk, &next.clone(), remaining - 1, dst);
        best = best.max(v);
    }
    best
}

/// The largest npath of any route of exactly `channels` channels from processor `src` to `dst` whose every path
/// is legal under the up*/down* ranking `rk`, by enumerating every non-empty subset of ports at every hop (small
/// topologies only). 0 if there is none.
pub fn max_npath_exhaustive_legal(
    t: &Topology,
    rk: &super::updown::Ranking,
    src: usize,
    dst: usize,
    channels: u32,
) -> u128 {
    let Some(start) = t.output(src, 0) else {
        return 0;
    };
    if channels < 2 {
        return 0;
    }
    search_legal(t, rk, &[(start.elem, super::updown::UP)], channels - 1, dst)
}

//! Shortest-path routing policies and their delivery probability S(v, u) (seed 003), as exact polynomials.
//!
//! Model: every eligible outgoing link is available independently with probability p. A policy gives, at each
//! node, a priority order of the eligible neighbours; the message goes to the first available one, and is
//! lost (not delivered without delay) when none is. So with the order (v_1, …, v_m),
//! `S(v) = Σ_i p (1−p)^(i−1) S(v_i)`, `S(u) = 1`.
//!
//! Policies:
//! - [`Policy::Optimal`]: the order that maximises S(v) — by the rearrangement inequality, the neighbours
//!   sorted by decreasing S. Decided exactly on (0, 1); where two neighbours' S cross inside (0, 1) the optimal
//!   S is not one polynomial, and the node is reported (never silently guessed).
//! - [`Policy::Mp`]: maximum shortest paths — neighbours by decreasing P(w, u); ties as Z² orders them (as
//!   the seed's torus algorithm does at the turning point), then in the fixed link order.
//! - [`Policy::Z2`]: zig-zag (Badr and Podar) — toward the diagonal: links of the dimension with the larger
//!   remaining offset first; ties in dimension order.
//! - [`Policy::DimensionOrder`]: XY on meshes and tori, E-cube on hypercubes — deterministic: only the
//!   lowest dimension that still has an offset (direction + when two directions are equally short), so
//!   m = 1 and `S = p^dist`.

use super::grid::{Grid, Step};
use super::poly::{Poly, Sign};
use std::cmp::Ordering;

/// A per-hop routing policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Neighbours by decreasing S: the order that maximises S(v).
    Optimal,
    /// Maximum shortest paths: neighbours by decreasing P(w, u).
    Mp,
    /// Zig-zag: links of the dimension with the larger remaining offset first.
    Z2,
    /// XY on meshes and tori, E-cube on hypercubes: only the lowest dimension with an offset.
    DimensionOrder,
}

impl Policy {
    /// The policy named `s`: `optimal`, `mp`, `z2`, or `xy` / `ecube` / `e-cube` / `dimension-order`.
    pub fn parse(s: &str) -> Result<Policy, String> {
        match s {
            "optimal" => Ok(Policy::Optimal),
            "mp" => Ok(Policy::Mp),
            "z2" => Ok(Policy::Z2),
            "xy" | "ecube" | "e-cube" | "dimension-order" => Ok(Policy::DimensionOrder),
            _ => Err(format!("unknown policy `{s}` (optimal, mp, z2, xy, ecube)")),
        }
    }
    /// The policy's canonical name (as [`Self::parse`] accepts it).
    pub fn name(self) -> &'static str {
        match self {
            Policy::Optimal => "optimal",
            Policy::Mp => "mp",
            Policy::Z2 => "z2",
            Policy::DimensionOrder => "dimension-order",
        }
    }
}

/// S and the priority order at every node, for one destination and one policy.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// The destination node u.
    pub dest: usize,
    /// The policy the orders follow.
    pub policy: Policy,
    /// S(v, dest) for every node v.
    pub s: Vec<Poly>,
    /// The order in which v tries its neighbours (the eligible ones, or just one for dimension order).
    pub order: Vec<Vec<Step>>,
    /// Nodes where the optimal order is not the same on all of (0, 1) (two neighbours' S cross), with the pair.
    pub undecided: Vec<(usize, usize, usize)>,
}

/// The weights p (1−p)^(i−1), i = 1..=m.
fn weights(m: usize) -> Vec<Poly> {
    (0..m).map(|i| Poly::p().mul(&Poly::q().pow(i))).collect()
}

/// Computes S(v, dest) for every v under `policy`.
pub fn delivery(g: &Grid, dest: usize, policy: Policy) -> Delivery {
    let n = g.nodes();
    let p_counts = g.path_counts(dest);
    let mut nodes: Vec<usize> = (0..n).collect();
    nodes.sort_by_key(|&v| g.dist(v, dest));
    let mut s = vec![Poly::zero(); n];
    let mut order = vec![Vec::new(); n];
    let mut undecided = Vec::new();
    let w = weights(2 * g.dims.len());
    s[dest] = Poly::one();
    for &v in &nodes {
        if v == dest {
            continue;
        }
        let mut el = g.eligible(v, dest);
        match policy {
            Policy::DimensionOrder => {
                let d = el
                    .iter()
                    .map(|st| st.dim)
                    .min()
                    .expect("a node other than the destination has an eligible link");
                el.retain(|st| st.dim == d);
                el.truncate(1);
            }
            Policy::Mp => el.sort_by(|a, b| {
                p_counts[b.to]
                    .cmp(&p_counts[a.to])
                    .then_with(|| g.offset(v, dest, b.dim).cmp(&g.offset(v, dest, a.dim)))
            }),
            Policy::Z2 => el.sort_by_key(|st| std::cmp::Reverse(g.offset(v, dest, st.dim))),
            Policy::Optimal => {
                // Insertion sort by decreasing S with exact comparisons; stable for equal S.
                let mut sorted: Vec<Step> = Vec::with_capacity(el.len());
                for st in el {
                    let mut pos = sorted.len();
                    for (k, other) in sorted.iter().enumerate() {
                        match compare(&s[st.to], &s[other.to]) {
                            Some(Ordering::Greater) => {
                                pos = k;
                                break;
                            }
                            Some(_) => {}
                            None => undecided.push((v, st.to, other.to)),
                        }
                    }
                    sorted.insert(pos, st);
                }
                el = sorted;
            }
        }
        s[v] = el
            .iter()
            .enumerate()
            .fold(Poly::zero(), |acc, (i, st)| acc.add(&w[i].mul(&s[st.to])));
        order[v] = el;
    }
    Delivery {
        dest,
        policy,
        s,
        order,
        undecided,
    }
}

/// The optimal delivery probability at one value of p, by the same recursion with the neighbours sorted by
/// their value at that p (the rearrangement inequality makes this the maximum over orders). Exact up to
/// floating-point rounding; defined even where the optimal order changes with p.
pub fn optimal_at(g: &Grid, dest: usize, p: f64) -> Vec<f64> {
    let mut nodes: Vec<usize> = (0..g.nodes()).collect();
    nodes.sort_by_key(|&v| g.dist(v, dest));
    let mut s = vec![0.0; g.nodes()];
    s[dest] = 1.0;
    for &v in &nodes {
        if v == dest {
            continue;
        }
        let mut vals: Vec<f64> = g.eligible(v, dest).iter().map(|st| s[st.to]).collect();
        vals.sort_by(|a, b| b.total_cmp(a));
        s[v] = vals
            .iter()
            .enumerate()
            .map(|(i, x)| p * (1.0 - p).powi(i as i32) * x)
            .sum();
    }
    s
}

/// Exact comparison of two polynomials on all of (0, 1): `None` when they cross or touch inside.
pub fn compare(a: &Poly, b: &Poly) -> Option<Ordering> {
    match a.sub(b).sign_on_unit() {
        Sign::Zero => Some(Ordering::Equal),
        Sign::Positive => Some(Ordering::Greater),
        Sign::Negative => Some(Ordering::Less),
        Sign::Changes | Sign::Touches(_) | Sign::Unresolved => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_order_is_p_to_the_distance() {
        let g = Grid::parse("torus:5x5").unwrap();
        let d = delivery(&g, 0, Policy::DimensionOrder);
        for v in 0..g.nodes() {
            assert_eq!(d.s[v], Poly::p().pow(g.dist(v, 0)));
        }
    }

    #[test]
    fn optimal_dominates_every_policy() {
        for name in ["mesh:5x5", "torus:6x6", "torus:8x8", "hypercube:4"] {
            let g = Grid::parse(name).unwrap();
            let opt = delivery(&g, 0, Policy::Optimal);
            assert!(opt.undecided.is_empty(), "{name}: {:?}", opt.undecided);
            for pol in [Policy::Mp, Policy::Z2, Policy::DimensionOrder] {
                let d = delivery(&g, 0, pol);
                for v in 0..g.nodes() {
                    let c = compare(&opt.s[v], &d.s[v]);
                    assert!(
                        matches!(c, Some(Ordering::Greater | Ordering::Equal)),
                        "{name} {pol:?} node {v}: {c:?}"
                    );
                }
            }
        }
    }
}

//! Seed 003's claims on N×N tori, checked exactly for every even N in a range:
//! - Theorem 1: Z² is not optimal for even N > 4 — at node (k, k−1), k = N/2, the diagonal neighbour
//!   (k−1, k−1) has a strictly smaller S than (k, k−2), and S_Z²(k, k−1) < S_opt(k, k−1) on all of (0, 1).
//! - Theorem 2: the turning point on the N/2-th column is (N/2, k) with N/2 = 2k or 2k + 1; computed from MP's
//!   own decisions (the highest row at which MP leaves the column) and from the binomial formula.
//! - The open question of §4: whether MP equals the optimal policy — S_MP = S_opt at every node, exactly.
//!
//! Coordinates are relative to the destination (0, 0): node (i, j) is x = i, y = j.

use super::grid::{binomial, Grid, GridKind};
use super::policy::{compare, delivery, optimal_at, Policy};
use rayon::prelude::*;
use serde::Serialize;
use std::cmp::Ordering;

/// A node whose optimal choice changes with p: the best first neighbour differs between p values.
#[derive(Debug, Clone, Serialize)]
pub struct Crossing {
    /// The node's coordinates (x, y) relative to the destination (0, 0).
    pub node: [usize; 2],
    /// The p values (grid of step 0.001) at which the best first neighbour changes.
    pub at_p: Vec<f64>,
    /// Whether the competing neighbours have equal numbers of shortest paths P.
    pub equal_p: bool,
}

/// The findings for one N×N torus.
#[derive(Debug, Clone, Serialize)]
pub struct TorusFindings {
    /// The torus's side N.
    pub n: usize,
    /// Theorem 1: S_opt(k, k−2) > S_opt(k−1, k−1) exactly (the diagonal is not the best neighbour).
    pub diagonal_not_best: bool,
    /// Theorem 1: S_Z² < S_opt at (k, k−1) on all of (0, 1).
    pub z2_not_optimal: bool,
    /// Nodes where the Z² polynomial differs from the optimal one.
    pub z2_suboptimal_nodes: usize,
    /// Theorem 2's k by the formula max{l | 2 C(l+i−1, l−1) ≤ C(l+i−1, l)}, i = N/2.
    pub turning_k_formula: usize,
    /// The turning point read off MP's decisions: the largest row j on the N/2-th column at which MP moves off
    /// the column.
    pub turning_k_mp: usize,
    /// Theorem 2's statement: N/2 = 2k or 2k + 1.
    pub turning_k_theorem: usize,
    /// Whether the optimal policy is one fixed order on all of (0, 1) (then S_opt is a single polynomial).
    pub optimal_is_polynomial: bool,
    /// Nodes whose optimal choice depends on p (from the optimal values on the p grid).
    pub crossings: Vec<Crossing>,
    /// For p = 0.1, 0.2, …, 0.9: the largest S_opt(p) − S_MP(p) over all nodes (0 below 1e-9).
    pub mp_gap: Vec<(f64, f64)>,
    /// MP is optimal at every node for every p on the grid (0.001 … 0.999).
    pub mp_optimal: bool,
    /// The smallest p on the grid at which some node's S_MP falls below the optimum by ≥ 1e-9.
    pub mp_optimal_below: Option<f64>,
}

/// Checks the N×N torus (N even, ≥ 4).
pub fn torus_findings(n: usize) -> TorusFindings {
    assert!(
        n >= 4 && n.is_multiple_of(2),
        "N must be even and at least 4"
    );
    let g = Grid {
        kind: GridKind::Torus,
        dims: vec![n, n],
    };
    let at = |i: usize, j: usize| g.index(&[i, j]);
    let xy = |v: usize| {
        let c = g.coords(v);
        [c[0], c[1]]
    };
    let opt = delivery(&g, 0, Policy::Optimal);
    let mp = delivery(&g, 0, Policy::Mp);
    let z2 = delivery(&g, 0, Policy::Z2);
    let pc = g.path_counts(0);
    let k = n / 2;
    let diagonal_not_best =
        compare(&opt.s[at(k, k - 2)], &opt.s[at(k - 1, k - 1)]) == Some(Ordering::Greater);
    let z2_not_optimal =
        compare(&opt.s[at(k, k - 1)], &z2.s[at(k, k - 1)]) == Some(Ordering::Greater);
    let i = k;
    let turning_k_formula = (1..=i)
        .filter(|&l| 2 * binomial(l + i - 1, l - 1) <= binomial(l + i - 1, l))
        .max()
        .unwrap_or(0);
    // MP at (i, j), 1 ≤ j < i: its first choice moves in y (stays on the column) or in x (leaves it).
    let turning_k_mp = (1..i)
        .filter(|&j| mp.order[at(i, j)].first().is_some_and(|s| s.dim == 0))
        .max()
        .unwrap_or(0);
    // The optimal order on a fine grid of p: where does a node's best first neighbour change?
    let grid: Vec<f64> = (1..1000).map(|t| t as f64 / 1000.0).collect();
    let values: Vec<Vec<f64>> = grid.iter().map(|&p| optimal_at(&g, 0, p)).collect();
    let best = |v: usize, t: usize| -> Vec<usize> {
        let el = g.eligible(v, 0);
        let top = el
            .iter()
            .map(|st| values[t][st.to])
            .fold(f64::MIN, f64::max);
        // Neighbours within rounding of the best are equally good (symmetric neighbours).
        el.iter()
            .filter(|st| values[t][st.to] >= top * (1.0 - 1e-9))
            .map(|st| st.to)
            .collect()
    };
    let mut crossings = Vec::new();
    for v in 1..g.nodes() {
        let mut at_p = Vec::new();
        let mut equal_p = false;
        let mut prev = best(v, 0);
        for (t, &p) in grid.iter().enumerate().skip(1) {
            let cur = best(v, t);
            if !cur.iter().any(|x| prev.contains(x)) {
                at_p.push(p);
                equal_p |= cur.iter().any(|&a| prev.iter().any(|&b| pc[a] == pc[b]));
            }
            prev = cur;
        }
        if !at_p.is_empty() {
            crossings.push(Crossing {
                node: xy(v),
                at_p,
                equal_p,
            });
        }
    }
    let gap_at = |t: usize| {
        (0..g.nodes())
            .map(|v| values[t][v] - mp.s[v].eval(grid[t]))
            .fold(0.0f64, f64::max)
    };
    let mp_gap: Vec<(f64, f64)> = (1..=9)
        .map(|d| {
            let t = d * 100 - 1;
            let gap = gap_at(t);
            (grid[t], if gap < 1e-9 { 0.0 } else { gap })
        })
        .collect();
    let mp_optimal_below = (0..grid.len())
        .find(|&t| gap_at(t) >= 1e-9)
        .map(|t| grid[t]);
    TorusFindings {
        n,
        diagonal_not_best,
        z2_not_optimal,
        z2_suboptimal_nodes: (0..g.nodes()).filter(|&v| z2.s[v] != opt.s[v]).count(),
        turning_k_formula,
        turning_k_mp,
        turning_k_theorem: n / 4,
        optimal_is_polynomial: opt.undecided.is_empty(),
        mp_optimal: mp_optimal_below.is_none(),
        mp_optimal_below,
        crossings,
        mp_gap,
    }
}

/// [`torus_findings`] for every even N in `from..=to`, in parallel.
pub fn torus_range(from: usize, to: usize) -> Vec<TorusFindings> {
    let ns: Vec<usize> = (from.max(4)..=to).filter(|n| n % 2 == 0).collect();
    ns.into_par_iter().map(torus_findings).collect()
}

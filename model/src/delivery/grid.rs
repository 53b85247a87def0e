//! Mesh-connected topologies with coordinates (seed 003): 2-D meshes and tori of K1×K2 nodes and n-cubes,
//! with the dimension and direction of every link, distances, eligible neighbours and the number of shortest
//! paths P(v, u).
//!
//! Node numbering: in a mesh or torus, node (x, y) is `x + K1·y`; in an n-cube, node v is its label.
//! A neighbour w of v is *eligible* for destination u when dist(w, u) = dist(v, u) − 1 (seed 003 §2).

use std::fmt;

/// Which mesh-connected topology.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridKind {
    /// A 2-D mesh: no wrap-around links.
    Mesh,
    /// A 2-D torus: every dimension wraps around.
    Torus,
    /// An n-cube: every dimension has extent 2.
    Hypercube,
}

/// A mesh, torus or hypercube.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Mesh, torus or hypercube.
    pub kind: GridKind,
    /// Extent of each dimension (2 for every dimension of an n-cube).
    pub dims: Vec<usize>,
}

/// A link out of a node: the neighbour, the dimension it moves in, and the direction (+1 or −1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The neighbour's node number.
    pub to: usize,
    /// The dimension the link moves in.
    pub dim: usize,
    /// +1 or −1 along that dimension.
    pub dir: i8,
}

impl Grid {
    /// `mesh:KxK`, `torus:KxK` (also `K1xK2`), `hypercube:D`.
    pub fn parse(name: &str) -> Result<Grid, String> {
        let (kind, rest) = name
            .split_once(':')
            .ok_or_else(|| format!("`{name}`: expected mesh:KxK, torus:KxK or hypercube:D"))?;
        let num = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| format!("`{name}`: `{s}` is not a number"))
        };
        let g = match kind {
            "mesh" | "torus" => {
                let (a, b) = rest
                    .split_once('x')
                    .ok_or_else(|| format!("`{name}`: expected {kind}:K1xK2"))?;
                let (a, b) = (num(a)?, num(b)?);
                if a < 1 || b < 1 || a * b < 2 || a * b > 1 << 20 {
                    return Err(format!("`{name}`: sizes must give 2 to 2^20 nodes"));
                }
                Grid {
                    kind: if kind == "mesh" {
                        GridKind::Mesh
                    } else {
                        GridKind::Torus
                    },
                    dims: vec![a, b],
                }
            }
            "hypercube" => {
                let d = num(rest)?;
                if !(1..=20).contains(&d) {
                    return Err(format!("`{name}`: dimension must be 1..=20"));
                }
                Grid {
                    kind: GridKind::Hypercube,
                    dims: vec![2; d],
                }
            }
            _ => {
                return Err(format!(
                    "`{name}`: unknown topology kind `{kind}` (mesh, torus, hypercube)"
                ))
            }
        };
        Ok(g)
    }

    /// Number of nodes (the product of the extents).
    pub fn nodes(&self) -> usize {
        self.dims.iter().product()
    }

    /// Coordinates of node v (for an n-cube, its bits, dimension 0 first).
    pub fn coords(&self, mut v: usize) -> Vec<usize> {
        self.dims
            .iter()
            .map(|&k| {
                let c = v % k;
                v /= k;
                c
            })
            .collect()
    }

    /// The node at coordinates `c` (the inverse of [`Self::coords`]).
    pub fn index(&self, c: &[usize]) -> usize {
        c.iter()
            .zip(&self.dims)
            .rev()
            .fold(0, |a, (&x, &k)| a * k + x)
    }

    /// The links out of v, in a fixed order: dimension 0 first, + before −.
    pub fn steps(&self, v: usize) -> Vec<Step> {
        let c = self.coords(v);
        let mut out = Vec::new();
        for (d, &k) in self.dims.iter().enumerate() {
            let mut push = |nc: usize, dir: i8| {
                let mut c2 = c.clone();
                c2[d] = nc;
                let to = self.index(&c2);
                if to != v && !out.iter().any(|s: &Step| s.to == to) {
                    out.push(Step { to, dim: d, dir });
                }
            };
            match self.kind {
                GridKind::Hypercube => push(c[d] ^ 1, if c[d] == 0 { 1 } else { -1 }),
                GridKind::Mesh => {
                    if c[d] + 1 < k {
                        push(c[d] + 1, 1);
                    }
                    if c[d] > 0 {
                        push(c[d] - 1, -1);
                    }
                }
                GridKind::Torus => {
                    if k > 1 {
                        push((c[d] + 1) % k, 1);
                        push((c[d] + k - 1) % k, -1);
                    }
                }
            }
        }
        out
    }

    /// Offset from v to u in dimension d: the shortest signed move(s); in a torus two opposite moves of equal
    /// length when the distance is exactly K/2.
    pub fn offset(&self, v: usize, u: usize, d: usize) -> usize {
        let (a, b) = (self.coords(v)[d], self.coords(u)[d]);
        let k = self.dims[d];
        let diff = a.abs_diff(b);
        match self.kind {
            GridKind::Torus => diff.min(k - diff),
            _ => diff,
        }
    }

    /// Distance (number of links on a shortest path).
    pub fn dist(&self, v: usize, u: usize) -> usize {
        (0..self.dims.len()).map(|d| self.offset(v, u, d)).sum()
    }

    /// Eligible neighbours of v for destination u (closer to u by one), in [`Grid::steps`] order.
    pub fn eligible(&self, v: usize, u: usize) -> Vec<Step> {
        let dv = self.dist(v, u);
        self.steps(v)
            .into_iter()
            .filter(|s| self.dist(s.to, u) + 1 == dv)
            .collect()
    }

    /// P(v, u) for every v: the number of shortest paths to u (seed 003 §2), by dynamic programming over
    /// distance. Saturates at u128::MAX.
    pub fn path_counts(&self, u: usize) -> Vec<u128> {
        let mut order: Vec<usize> = (0..self.nodes()).collect();
        order.sort_by_key(|&v| self.dist(v, u));
        let mut p = vec![0u128; self.nodes()];
        p[u] = 1;
        for &v in &order {
            if v != u {
                p[v] = self
                    .eligible(v, u)
                    .iter()
                    .fold(0u128, |a, s| a.saturating_add(p[s.to]));
            }
        }
        p
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            GridKind::Mesh => write!(f, "mesh:{}x{}", self.dims[0], self.dims[1]),
            GridKind::Torus => write!(f, "torus:{}x{}", self.dims[0], self.dims[1]),
            GridKind::Hypercube => write!(f, "hypercube:{}", self.dims.len()),
        }
    }
}

/// Binomial coefficient C(n, k) as u128.
pub fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |a, i| a * (n - i) as u128 / (i + 1) as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_errors() {
        assert_eq!(Grid::parse("torus:6x6").unwrap().nodes(), 36);
        assert_eq!(Grid::parse("hypercube:3").unwrap().nodes(), 8);
        for bad in [
            "torus",
            "torus:6",
            "cube:3",
            "mesh:0x5",
            "hypercube:0",
            "torus:ax3",
        ] {
            assert!(Grid::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn mesh_paths_are_binomials() {
        let g = Grid::parse("mesh:5x4").unwrap();
        let p = g.path_counts(0);
        for (v, &pv) in p.iter().enumerate().take(g.nodes()) {
            let c = g.coords(v);
            assert_eq!(pv, binomial(c[0] + c[1], c[1]));
        }
    }
}

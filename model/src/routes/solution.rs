//! The solution graph (thesis §4.1.2, Fig. 4.4) and the maximum adaptive path (thesis §4.1.3, Fig. 4.6).
//!
//! A vertex of stage i of the solution graph S is a non-empty set X of stage-i vertices of the routability
//! graph R, kept as a bitset ([`VSet`]). Starting from the source, for every active vertex X and every routing
//! byte RB that is valid from *all* of X (RB ⊆ P(X), the intersection of the members' usable output ports) S gets
//! an edge X → Y(RB), Y(RB) = every R-vertex reached from X through RB. Y(RB) is built incrementally over the
//! subsets of P(X) (Y(RB) = Y(RB − lowest port) ∪ U(lowest port)). Edges into the same Y are merged into one
//! whose label is the union of their labels: the union reaches the same Y and has the most ports, so no maximum
//! is lost; in stages where P(X) is a single port this leaves one edge per vertex, which is the saving of the
//! thesis' improvement (§4.3.4) without assuming where the unique tail starts. Stages of up to
//! [`DENSE_WIDTH`] R-vertices index their S-vertices by the bitset directly (the thesis' 2^|V_R^i| − 1 array);
//! wider stages use a hash map (the thesis used digital search trees).
//!
//! The DP of Fig. 4.6 then computes ADP(v) = max over edges (|label| × ADP(target)) from the last stage back
//! and follows the decisions from the source.

use super::bfs::Routability;
use super::error::RouteError;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The widest routability stage supported (bits of a [`VSet`]).
pub const MAX_STAGE_WIDTH: usize = 256;
/// The most output ports that may be usable from one solution vertex (2^16 routing bytes enumerated).
pub const MAX_CHOICE_PORTS: u32 = 16;
/// Stages up to this many R-vertices use a dense index.
pub const DENSE_WIDTH: usize = 12;

/// A set of vertices of one routability stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct VSet(pub [u64; 4]);

impl VSet {
    /// The set holding only vertex `i` (`i` < [`MAX_STAGE_WIDTH`]).
    pub fn single(i: u32) -> Self {
        let mut s = VSet::default();
        s.0[(i / 64) as usize] = 1 << (i % 64);
        s
    }
    /// The union of the two sets.
    #[inline]
    pub fn or(self, o: VSet) -> VSet {
        VSet([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
    /// Number of members.
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// Whether the set has no member.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..4u32).flat_map(move |w| {
            let mut x = self.0[w as usize];
            std::iter::from_fn(move || {
                (x != 0).then(|| {
                    let b = x.trailing_zeros();
                    x &= x - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// FxHash-style hasher for [`VSet`] keys.
#[derive(Default)]
pub struct FxHasher(u64);
impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

#[derive(Debug, Clone)]
enum StageIndex {
    Dense(Vec<u32>),
    Sparse(HashMap<VSet, u32, BuildHasherDefault<FxHasher>>),
}

/// One vertex of S: its set of R-vertices and its edges (label, target vertex in the next stage).
#[derive(Debug, Clone)]
pub struct Vertex {
    /// The R-vertices of its stage that this S-vertex stands for.
    pub set: VSet,
    /// Edges to the next stage: (routing set of output ports, index of the target vertex).
    pub edges: Vec<(u64, u32)>,
}

/// One stage of S: the active vertices only.
#[derive(Debug, Clone)]
pub struct Stage {
    /// The stage's active vertices; an edge's target indexes this list of the next stage.
    pub vertices: Vec<Vertex>,
    index: StageIndex,
}

impl Stage {
    fn new(width: usize) -> Self {
        let index = if width <= DENSE_WIDTH {
            StageIndex::Dense(vec![u32::MAX; 1 << width])
        } else {
            StageIndex::Sparse(HashMap::default())
        };
        Stage {
            vertices: Vec::new(),
            index,
        }
    }
    fn get_or_insert(&mut self, set: VSet) -> u32 {
        let next = self.vertices.len() as u32;
        let id = match &mut self.index {
            StageIndex::Dense(v) => {
                let slot = &mut v[set.0[0] as usize];
                if *slot == u32::MAX {
                    *slot = next;
                }
                *slot
            }
            StageIndex::Sparse(m) => *m.entry(set).or_insert(next),
        };
        if id == next {
            self.vertices.push(Vertex {
                set,
                edges: Vec::new(),
            });
        }
        id
    }
}

/// The solution graph S of one routability graph.
#[derive(Debug, Clone)]
pub struct SolutionGraph {
    /// One stage per stage of R (switches at distance i from the source); stage 0 holds the source alone.
    pub stages: Vec<Stage>,
}

impl SolutionGraph {
    /// Active vertices over all stages.
    pub fn vertex_count(&self) -> usize {
        self.stages.iter().map(|s| s.vertices.len()).sum()
    }
    /// Edges over all stages.
    pub fn edge_count(&self) -> usize {
        self.stages
            .iter()
            .flat_map(|s| &s.vertices)
            .map(|v| v.edges.len())
            .sum()
    }
}

/// Checks R's stage widths and returns the usable ports of every R-vertex (`masks[stage][vertex]`).
fn port_masks(r: &Routability) -> Result<Vec<Vec<u64>>, RouteError> {
    if let Some(w) = r.stages.iter().map(Vec::len).find(|&w| w > MAX_STAGE_WIDTH) {
        return Err(RouteError::StageTooWide {
            width: w,
            max: MAX_STAGE_WIDTH,
        });
    }
    Ok(r.edges
        .iter()
        .map(|st| {
            st.iter()
                .map(|es| es.iter().fold(0u64, |m, &(p, _)| m | 1 << p))
                .collect()
        })
        .collect())
}

/// Builds S from R (Fig. 4.4, active vertices only).
pub fn solution_graph(r: &Routability) -> Result<SolutionGraph, RouteError> {
    let k = r.stages.len();
    let masks = port_masks(r)?;
    let mut stages: Vec<Stage> = r.stages.iter().map(|s| Stage::new(s.len())).collect();
    stages[0].get_or_insert(VSet::single(0));
    let mut ys: Vec<VSet> = Vec::new();
    let mut labels: Vec<u64> = Vec::new();
    let mut pairs: Vec<(u32, u64)> = Vec::new();
    for i in 0..k.saturating_sub(1) {
        let (lo, hi) = stages.split_at_mut(i + 1);
        let (cur, next) = (&mut lo[i], &mut hi[0]);
        for v in cur.vertices.iter_mut() {
            let p = v.set.iter().fold(u64::MAX, |m, x| m & masks[i][x as usize]);
            let m = p.count_ones();
            if m == 0 {
                continue;
            }
            if m > MAX_CHOICE_PORTS {
                return Err(RouteError::TooManyChoices {
                    ports: m,
                    max: MAX_CHOICE_PORTS,
                });
            }
            let ports: Vec<u32> = (0..64).filter(|&b| p >> b & 1 == 1).collect();
            let mut u = vec![VSet::default(); m as usize];
            for x in v.set.iter() {
                for &(port, y) in &r.edges[i][x as usize] {
                    if p >> port & 1 == 1 {
                        let q = (p & ((1u64 << port) - 1)).count_ones() as usize;
                        u[q] = u[q].or(VSet::single(y));
                    }
                }
            }
            let n = 1usize << m;
            ys.clear();
            ys.resize(n, VSet::default());
            labels.clear();
            labels.resize(n, 0);
            pairs.clear();
            for rb in 1..n {
                let low = rb.trailing_zeros() as usize;
                let rest = rb & (rb - 1);
                ys[rb] = ys[rest].or(u[low]);
                labels[rb] = labels[rest] | 1u64 << ports[low];
                pairs.push((next.get_or_insert(ys[rb]), labels[rb]));
            }
            pairs.sort_unstable_by_key(|&(t, _)| t);
            for &(t, l) in pairs.iter() {
                match v.edges.last_mut() {
                    Some((ll, tt)) if *tt == t => *ll |= l,
                    _ => v.edges.push((l, t)),
                }
            }
        }
    }
    Ok(SolutionGraph { stages })
}

/// Fig. 4.6: the maximum adaptivity from the source vertex to the destination and the labels of one maximum
/// adaptive path (one routing set per hop). Returns (0, []) if S has no source-to-destination path.
pub fn max_adaptive_path(s: &SolutionGraph) -> (u128, Vec<u64>) {
    let k = s.stages.len();
    let mut adp: Vec<u128> = vec![1; s.stages[k - 1].vertices.len()];
    let mut decisions: Vec<Vec<u32>> = vec![Vec::new(); k];
    for i in (0..k - 1).rev() {
        let mut a = Vec::with_capacity(s.stages[i].vertices.len());
        let mut d = Vec::with_capacity(s.stages[i].vertices.len());
        for v in &s.stages[i].vertices {
            let mut best = (0u128, u32::MAX);
            for (e, &(l, t)) in v.edges.iter().enumerate() {
                let val = (l.count_ones() as u128).saturating_mul(adp[t as usize]);
                if val > best.0 {
                    best = (val, e as u32);
                }
            }
            a.push(best.0);
            d.push(best.1);
        }
        adp = a;
        decisions[i] = d;
    }
    if adp[0] == 0 {
        return (0, Vec::new());
    }
    let mut path = Vec::with_capacity(k - 1);
    let mut v = 0usize;
    for (i, dec) in decisions.iter().enumerate().take(k - 1) {
        let (l, t) = s.stages[i].vertices[v].edges[dec[v] as usize];
        path.push(l);
        v = t as usize;
    }
    (adp[0], path)
}

/// Non-empty subsets of m bits, largest first (m ≤ [`MAX_CHOICE_PORTS`]).
fn subsets_by_size(m: u32) -> &'static [u32] {
    use std::sync::OnceLock;
    static LISTS: [OnceLock<Vec<u32>>; MAX_CHOICE_PORTS as usize + 1] =
        [const { OnceLock::new() }; MAX_CHOICE_PORTS as usize + 1];
    LISTS[m as usize].get_or_init(|| {
        let mut v: Vec<u32> = (1..(1u32 << m)).collect();
        v.sort_by_key(|x| (std::cmp::Reverse(x.count_ones()), *x));
        v
    })
}

/// The result of [`solve`]: the maximum adaptivity, one route achieving it, and how much of the solution graph
/// was built (vertices memoised, edges evaluated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The maximum adaptivity: the number of paths the route permits.
    pub npath: u128,
    /// One routing set (permitted output ports) per hop of a route achieving it.
    pub hops: Vec<u64>,
    /// Solution-graph vertices memoised by the search.
    pub vertices: usize,
    /// Solution-graph edges (routing sets) evaluated.
    pub edges: usize,
}

/// ADP(i, X) memo of one stage: X → (value, best routing set, next X).
type Memo = HashMap<VSet, (u128, u64, VSet), BuildHasherDefault<FxHasher>>;

struct Solver<'a> {
    r: &'a Routability,
    masks: Vec<Vec<u64>>,
    /// bound[i]: product over stages j ≥ i of the most usable ports of one vertex: ADP(i, X) ≤ bound[i].
    bound: Vec<u128>,
    memo: Vec<Memo>,
    edges: usize,
}

impl Solver<'_> {
    /// ADP(i, X) of eq. 4.2, top-down: routing sets tried largest first, cut off when |RB| × bound[i+1] cannot
    /// beat the best so far. Memoised per stage on the bitset X.
    fn adp(&mut self, i: usize, x: VSet) -> Result<u128, RouteError> {
        if i + 1 == self.r.stages.len() {
            return Ok(1);
        }
        if let Some(&(v, _, _)) = self.memo[i].get(&x) {
            return Ok(v);
        }
        let p = x
            .iter()
            .fold(u64::MAX, |m, v| m & self.masks[i][v as usize]);
        let m = p.count_ones();
        if m > MAX_CHOICE_PORTS {
            return Err(RouteError::TooManyChoices {
                ports: m,
                max: MAX_CHOICE_PORTS,
            });
        }
        let mut ports = [0u32; MAX_CHOICE_PORTS as usize];
        let mut u = [VSet::default(); MAX_CHOICE_PORTS as usize];
        let mut rest = p;
        for slot in ports.iter_mut().take(m as usize) {
            *slot = rest.trailing_zeros();
            rest &= rest - 1;
        }
        for v in x.iter() {
            for &(port, y) in &self.r.edges[i][v as usize] {
                if p >> port & 1 == 1 {
                    let q = (p & ((1u64 << port) - 1)).count_ones() as usize;
                    u[q] = u[q].or(VSet::single(y));
                }
            }
        }
        let mut best = (0u128, 0u64, VSet::default());
        if m > 0 {
            for &rb in subsets_by_size(m) {
                let c = rb.count_ones() as u128;
                if c.saturating_mul(self.bound[i + 1]) <= best.0 {
                    break;
                }
                let (mut y, mut label, mut bits) = (VSet::default(), 0u64, rb);
                while bits != 0 {
                    let q = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    y = y.or(u[q]);
                    label |= 1 << ports[q];
                }
                self.edges += 1;
                let val = c.saturating_mul(self.adp(i + 1, y)?);
                if val > best.0 {
                    best = (val, label, y);
                }
            }
        }
        self.memo[i].insert(x, best);
        Ok(best.0)
    }
}

/// The maximum adaptive route of R, building only the part of the solution graph that the DP needs
/// (branch and bound over the same vertices, edges and recurrence as [`solution_graph`] + [`max_adaptive_path`]).
pub fn solve(r: &Routability) -> Result<Solved, RouteError> {
    let k = r.stages.len();
    let masks = port_masks(r)?;
    let mut bound = vec![1u128; k];
    for i in (0..k.saturating_sub(1)).rev() {
        let most = masks[i].iter().map(|m| m.count_ones()).max().unwrap_or(0) as u128;
        bound[i] = bound[i + 1].saturating_mul(most);
    }
    let mut s = Solver {
        r,
        masks,
        bound,
        memo: (0..k).map(|_| HashMap::default()).collect(),
        edges: 0,
    };
    let npath = s.adp(0, VSet::single(0))?;
    let mut hops = Vec::with_capacity(k.saturating_sub(1));
    if npath > 0 {
        let mut x = VSet::single(0);
        for i in 0..k - 1 {
            let &(_, label, y) = s.memo[i].get(&x).expect("on the optimal path");
            hops.push(label);
            x = y;
        }
    }
    let vertices = s.memo.iter().map(HashMap::len).sum::<usize>() + 1;
    Ok(Solved {
        npath,
        hops,
        vertices,
        edges: s.edges,
    })
}

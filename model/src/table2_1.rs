//! Thesis Table 2.1: how often the matching heuristic finds the maximum matching, maximum−1, maximum−2, …
//! on seeded random request matrices, against the exact maximum (Hopcroft–Karp).
//!
//! Trials are split into fixed chunks, each with its own random stream derived from (seed, m, chunk), so the
//! result is the same on any number of threads. The same matrices are used for every pass count.

use crate::exact::max_matching_size;
use crate::header::all_ports;
use crate::matcher::{cardinality, heuristic_into};
use crate::rng::stream;
use rand::Rng;
use rayon::prelude::*;
use serde::Serialize;

const CHUNK: u64 = 4096;

/// One cell of the table: matrix size `m`, `passes`, and the share of trials that fell k below the maximum.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// Matrix size: m packets (rows) × m outputs (columns).
    pub m: usize,
    /// Passes of the ColumnOR / Rotate_Until_Zero loop after the initial assignment.
    pub passes: usize,
    /// Random request matrices drawn (the same matrices for every pass count of a run).
    pub trials: u64,
    /// Probability that each request bit is 1.
    pub density: f64,
    /// `fractions[k]` = share of trials where the heuristic found maximum − k.
    pub fractions: Vec<f64>,
    /// Mean of (heuristic size / maximum size) over trials with a non-empty maximum.
    pub mean_ratio: f64,
}

/// The thesis' printed values: (m, passes, [maximum, maximum−1, maximum−2]).
pub const THESIS: [(usize, usize, [f64; 3]); 6] = [
    (4, 1, [0.88, 0.12, 0.0]),
    (4, 2, [0.98, 0.02, 0.0]),
    (8, 1, [0.59, 0.39, 0.02]),
    (8, 2, [0.86, 0.14, 0.0]),
    (16, 1, [0.59, 0.39, 0.02]),
    (16, 2, [0.87, 0.13, 0.0]),
];

/// The thesis' value for a cell, if it printed one.
pub fn thesis_value(m: usize, passes: usize) -> Option<[f64; 3]> {
    THESIS
        .iter()
        .find(|t| t.0 == m && t.1 == passes)
        .map(|t| t.2)
}

/// A random `m×m` request matrix with each bit 1 with probability `density`.
pub fn random_matrix<R: Rng>(rng: &mut R, m: usize, density: f64, out: &mut [u64]) {
    let full = all_ports(m as u32);
    for r in out.iter_mut() {
        *r = if density == 0.5 {
            rng.gen::<u64>() & full
        } else {
            (0..m).fold(0u64, |a, j| a | ((rng.gen_bool(density) as u64) << j))
        };
    }
}

/// Runs one cell per entry of `passes` for matrix size `m`.
pub fn run(m: usize, passes: &[usize], density: f64, trials: u64, seed: u64) -> Vec<Cell> {
    assert!((1..=64).contains(&m));
    assert!((0.0..=1.0).contains(&density));
    let maxp = passes.len();
    let chunks = trials.div_ceil(CHUNK);
    // Per pass count: histogram of (maximum − heuristic), and the sum of ratios with its count.
    let (hist, ratio_sum, ratio_n) = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = stream(seed, ((m as u64) << 40) ^ c);
            let n = CHUNK.min(trials - c * CHUNK);
            let mut hist = vec![vec![0u64; m + 1]; maxp];
            let mut rs = vec![0f64; maxp];
            let mut rn = 0u64;
            let mut r = vec![0u64; m];
            let mut mm = vec![0u64; m];
            for _ in 0..n {
                random_matrix(&mut rng, m, density, &mut r);
                let best = max_matching_size(&r);
                if best > 0 {
                    rn += 1;
                }
                for (k, &p) in passes.iter().enumerate() {
                    heuristic_into(&r, m, p, &mut mm);
                    let got = cardinality(&mm) as usize;
                    assert!(got <= best, "heuristic beat the exact maximum: {r:x?}");
                    hist[k][best - got] += 1;
                    if best > 0 {
                        rs[k] += got as f64 / best as f64;
                    }
                }
            }
            (hist, rs, rn)
        })
        .reduce(
            || (vec![vec![0u64; m + 1]; maxp], vec![0f64; maxp], 0u64),
            |(mut h, mut s, n), (h2, s2, n2)| {
                for k in 0..maxp {
                    for d in 0..=m {
                        h[k][d] += h2[k][d];
                    }
                    s[k] += s2[k];
                }
                (h, s, n + n2)
            },
        );
    passes
        .iter()
        .enumerate()
        .map(|(k, &p)| {
            let mut last = hist[k].iter().rposition(|&x| x > 0).unwrap_or(0);
            last = last.max(2);
            Cell {
                m,
                passes: p,
                trials,
                density,
                fractions: hist[k][..=last.min(m)]
                    .iter()
                    .map(|&x| x as f64 / trials as f64)
                    .collect(),
                mean_ratio: if ratio_n == 0 {
                    1.0
                } else {
                    ratio_sum[k] / ratio_n as f64
                },
            }
        })
        .collect()
}

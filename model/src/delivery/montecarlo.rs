//! Monte-Carlo check of S(v, u): each eligible link is unavailable with probability 1 − p, independently at
//! every hop; the message goes to the first available neighbour in the policy's order and counts as delivered
//! without delay when it reaches the destination without meeting a hop where none is available.

use super::grid::Grid;
use super::policy::Delivery;
use crate::rng::stream;
use rand::Rng;
use rayon::prelude::*;

/// The share of `trials` messages from `src` delivered without delay under the orders of `d`.
pub fn delivered_share(g: &Grid, d: &Delivery, src: usize, p: f64, trials: u64, seed: u64) -> f64 {
    const CHUNK: u64 = 8192;
    let chunks = trials.div_ceil(CHUNK);
    let ok: u64 = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = stream(seed, ((src as u64) << 32) ^ c);
            let n = CHUNK.min(trials - c * CHUNK);
            let mut ok = 0u64;
            'trial: for _ in 0..n {
                let mut v = src;
                while v != d.dest {
                    match d.order[v].iter().find(|_| rng.gen_bool(p)) {
                        Some(st) => v = st.to,
                        None => continue 'trial,
                    }
                }
                ok += 1;
            }
            ok
        })
        .sum();
    debug_assert!(g.nodes() > src);
    ok as f64 / trials as f64
}

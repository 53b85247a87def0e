//! Matching quality of every allocator on random request matrices: thesis Table 2.1's measures (the share of
//! trials at the maximum matching size, at maximum − 1, at maximum − 2, and the mean of size / maximum) for
//! any allocator of the registry, not only the ASR heuristic.
//!
//! Conventions (docs/allocators.md):
//! - A trial is one `m×m` request matrix, each bit 1 with probability `density`
//!   ([`crate::table2_1::random_matrix`]); the maximum is Hopcroft–Karp's ([`crate::exact`]).
//! - Every allocator of a point sees the same sequence of matrices (the stream depends on the seed, `m` and
//!   the density, not on the allocator), one matrix per decision, and keeps its state from one matrix to the
//!   next exactly as in a switch: iSLIP's grant and accept pointers, wavefront's priority diagonal (advancing
//!   by one per matrix), the ASR switch's per-output round-robin pointers, PIM's random stream (seeded from
//!   the seed by [`Allocator::init`](super::Allocator::init) for switch 0), `exact`'s rotating start. All state starts as in
//!   [`Allocator::init`](super::Allocator::init).
//! - The size of a decision is its number of grants. For the ASR heuristic (`asr-p1`, `asr-p2`, m > 2) that is
//!   the number of distinct outputs the heuristic's assignment uses (an output given to several rows is
//!   granted to one of them), i.e. [`crate::matcher::cardinality`], as in Table 2.1.
//! - `fractions[k]` for k = 0, 1, 2 is the share of trials whose size is maximum − k; `fractions[3]` the share
//!   at maximum − 3 or less. Trials whose maximum is 0 (empty matrix) count as "at maximum" and are left out
//!   of the mean of size / maximum.
//!
//! Points (allocator, m, density) run in parallel (rayon); each is sequential because the state is carried,
//! so the result does not depend on the number of threads.

use super::grant::{check_matching, NO_GRANT};
use super::registry::{by_name, UnknownAllocator};
use crate::exact::max_matching_size;
use crate::rng::{mix, stream};
use crate::table2_1::random_matrix;
use rayon::prelude::*;
use serde::Serialize;

/// One point of the quality table.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QualityCell {
    /// The allocator's registry name.
    pub allocator: String,
    /// Size of the square request matrix (the switch radix), 2 to 64.
    pub m: usize,
    /// Probability of each request bit being 1.
    pub density: f64,
    /// Number of matrices (decisions).
    pub trials: u64,
    /// Shares of trials at maximum, maximum − 1, maximum − 2, and maximum − 3 or less (they sum to 1).
    pub fractions: [f64; 4],
    /// Mean of size / maximum over the trials with a non-empty maximum (1.0 when there is none).
    pub mean_size_over_max: f64,
}

/// Why a quality run failed.
#[derive(Debug, thiserror::Error)]
pub enum QualityError {
    /// No allocator has the name asked for.
    #[error(transparent)]
    Unknown(#[from] UnknownAllocator),
    /// The matrix size m is outside 2 to 64.
    #[error("matrix size {0} outside 2..=64")]
    Size(usize),
    /// The density is not a probability (from 0 to 1).
    #[error("density {0} is not a probability in [0, 1]")]
    Density(f64),
    /// The allocator returned grants that are not a matching within the requests, or more grants than a
    /// maximum matching has (a bug in the allocator).
    #[error("{allocator} (m = {m}, density {density}, trial {trial}): {what}")]
    Violation {
        /// The allocator's registry name.
        allocator: String,
        /// Size of the request matrix.
        m: usize,
        /// Request density of the point.
        density: f64,
        /// 0-based index of the failing trial.
        trial: u64,
        /// What was wrong, with the requests and the grants.
        what: String,
    },
}

/// The random stream of the matrices of (m, density): the same for every allocator.
fn matrix_stream(seed: u64, m: usize, density: f64) -> crate::rng::Rng {
    stream(seed, mix(m as u64 ^ 0x616c_6c6f_6300) ^ density.to_bits())
}

/// Runs one point: `trials` matrices through allocator `name` with its state carried.
pub fn point(
    name: &str,
    m: usize,
    density: f64,
    trials: u64,
    seed: u64,
) -> Result<QualityCell, QualityError> {
    if !(2..=64).contains(&m) {
        return Err(QualityError::Size(m));
    }
    if !(0.0..=1.0).contains(&density) {
        return Err(QualityError::Density(density));
    }
    let a = by_name(name)?;
    let mut rng = matrix_stream(seed, m, density);
    let mut st = vec![0u8; a.state_len(m)];
    a.init(0, seed, &mut st);
    let mut req = vec![0u64; m];
    let mut grant = vec![NO_GRANT; m];
    let mut hist = [0u64; 4];
    let (mut ratio_sum, mut ratio_n) = (0f64, 0u64);
    for trial in 0..trials {
        random_matrix(&mut rng, m, density, &mut req);
        let best = max_matching_size(&req);
        a.allocate(&req, &mut st, &mut grant);
        let violation = |what: String| QualityError::Violation {
            allocator: name.to_string(),
            m,
            density,
            trial,
            what,
        };
        if let Err(i) = check_matching(&req, &grant) {
            return Err(violation(format!(
                "grant of input {i} is not a matching inside the requests {req:x?} -> {grant:?}"
            )));
        }
        let got = grant.iter().filter(|&&g| g != NO_GRANT).count();
        if got > best {
            return Err(violation(format!(
                "{got} grants beat the maximum {best} on {req:x?}"
            )));
        }
        hist[(best - got).min(3)] += 1;
        if best > 0 {
            ratio_sum += got as f64 / best as f64;
            ratio_n += 1;
        }
    }
    let t = trials.max(1) as f64;
    Ok(QualityCell {
        allocator: name.to_string(),
        m,
        density,
        trials,
        fractions: hist.map(|h| h as f64 / t),
        mean_size_over_max: if ratio_n == 0 {
            1.0
        } else {
            ratio_sum / ratio_n as f64
        },
    })
}

/// Every (allocator, m, density) point, in the order allocator → m → density, computed in parallel.
pub fn table(
    names: &[&str],
    ms: &[usize],
    densities: &[f64],
    trials: u64,
    seed: u64,
) -> Result<Vec<QualityCell>, QualityError> {
    for n in names {
        by_name(n)?;
    }
    let points: Vec<(&str, usize, f64)> = names
        .iter()
        .flat_map(|&n| {
            ms.iter()
                .flat_map(move |&m| densities.iter().map(move |&d| (n, m, d)))
        })
        .collect();
    points
        .par_iter()
        .map(|&(n, m, d)| point(n, m, d, trials, seed))
        .collect()
}

/// Issue 17, item 5: a cheap change to the heuristic. Row i's initial column is its first permitted column
/// at or after column `i mod m` (a constant rotation start per row, a priority encoder with a fixed pointer in
/// hardware) instead of its lowest permitted column, which piles every row's first choice onto the low
/// columns. Returns, over `trials` matrices of [`crate::table2_1::random_matrix`], the share at maximum and
/// the mean size / maximum of (the heuristic as built, the variant), both with `passes` passes on the same
/// matrices. Not a registered allocator and not built in hardware.
pub fn diagonal_start_gain(
    m: usize,
    density: f64,
    passes: usize,
    trials: u64,
    seed: u64,
) -> [(f64, f64); 2] {
    use crate::matcher::{cardinality, heuristic_into};
    let full = crate::header::all_ports(m as u32);
    let first_from = |set: u64, from: usize| -> u64 {
        let above = set >> from << from;
        let x = if above != 0 { above } else { set };
        x & x.wrapping_neg()
    };
    let variant = |r: &[u64], out: &mut [u64]| {
        for (i, (o, &ri)) in out.iter_mut().zip(r).enumerate() {
            *o = first_from(ri & full, i % m);
        }
        for _ in 0..passes {
            for i in 0..r.len() {
                let or = out.iter().fold(0, |a, &x| a | x);
                let c = (or | !r[i]) & full;
                if c != full {
                    let p = out[i].trailing_zeros() as usize;
                    out[i] = first_from(!c & full, (p + 1) % m);
                }
            }
        }
    };
    let mut rng = matrix_stream(seed, m, density);
    let (mut r, mut mm) = (vec![0u64; m], vec![0u64; m]);
    let mut acc = [(0u64, 0f64); 2];
    let mut nonempty = 0u64;
    for _ in 0..trials {
        random_matrix(&mut rng, m, density, &mut r);
        let best = max_matching_size(&r);
        nonempty += (best > 0) as u64;
        for (k, a) in acc.iter_mut().enumerate() {
            if k == 0 {
                heuristic_into(&r, m, passes, &mut mm);
            } else {
                variant(&r, &mut mm);
            }
            let got = cardinality(&mm) as usize;
            a.0 += (got == best) as u64;
            if best > 0 {
                a.1 += got as f64 / best as f64;
            }
        }
    }
    acc.map(|(at, sum)| (at as f64 / trials as f64, sum / nonempty.max(1) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::{cardinality, heuristic};

    #[test]
    fn exact_is_always_at_maximum_and_fractions_sum_to_one() {
        let cells = table(
            &["exact", "islip-1", "asr-p1"],
            &[4, 8],
            &[0.1, 0.5],
            3000,
            5,
        )
        .unwrap();
        assert_eq!(cells.len(), 12);
        for c in &cells {
            let s: f64 = c.fractions.iter().sum();
            assert!((s - 1.0).abs() < 1e-12, "{c:?}");
            if c.allocator == "exact" {
                assert_eq!(c.fractions, [1.0, 0.0, 0.0, 0.0]);
                assert_eq!(c.mean_size_over_max, 1.0);
            }
        }
        // The heuristic is not exact at m = 8, density 0.5 (thesis Table 2.1: 0.59 at maximum).
        let p1 = cells
            .iter()
            .find(|c| c.allocator == "asr-p1" && c.m == 8 && c.density == 0.5)
            .unwrap();
        assert!(p1.fractions[0] < 0.8 && p1.fractions[0] > 0.4, "{p1:?}");
    }

    #[test]
    fn asr_size_is_the_number_of_distinct_outputs_of_the_heuristic() {
        // Replays point()'s matrices: the allocator's grant count equals the heuristic's cardinality.
        for passes in [1usize, 2] {
            let name = if passes == 1 { "asr-p1" } else { "asr-p2" };
            let a = by_name(name).unwrap();
            let (m, d, seed) = (8, 0.5, 3);
            let mut rng = matrix_stream(seed, m, d);
            let mut st = vec![0u8; a.state_len(m)];
            a.init(0, seed, &mut st);
            let (mut req, mut g) = (vec![0u64; m], vec![0u8; m]);
            let mut hist = [0u64; 4];
            for _ in 0..2000 {
                random_matrix(&mut rng, m, d, &mut req);
                a.allocate(&req, &mut st, &mut g);
                let got = g.iter().filter(|&&x| x != NO_GRANT).count();
                assert_eq!(got as u32, cardinality(&heuristic(&req, m, passes)));
                hist[(max_matching_size(&req) - got).min(3)] += 1;
            }
            let c = point(name, m, d, 2000, seed).unwrap();
            assert_eq!(c.fractions, hist.map(|h| h as f64 / 2000.0));
        }
    }

    /// The diagonal start helps one pass at density 0.5 by more than 2 points of "at maximum" (the measured
    /// numbers are printed: `cargo test --release -p asr-model --lib diagonal_start -- --nocapture`); the
    /// baseline column equals the `asr-p1`/`asr-p2` rows of [`table`] (same matrices).
    #[test]
    fn diagonal_start_gain_is_measured() {
        for (m, d) in [(8usize, 0.5), (16, 0.5), (16, 0.3), (8, 0.3)] {
            for passes in [1usize, 2] {
                let [(b0, b1), (v0, v1)] = diagonal_start_gain(m, d, passes, 100_000, 1);
                println!(
                    "m={m} density={d} passes={passes}: at maximum {b0:.4} -> {v0:.4}, size/max {b1:.4} -> {v1:.4}"
                );
                assert!(b0 <= 1.0 && v0 <= 1.0 && b1 <= 1.0 && v1 <= 1.0);
                if (m, d) == (8, 0.5) {
                    let name = if passes == 1 { "asr-p1" } else { "asr-p2" };
                    let c = point(name, m, d, 100_000, 1).unwrap();
                    assert_eq!((b0, b1), (c.fractions[0], c.mean_size_over_max));
                }
                if passes == 1 && d == 0.5 {
                    assert!(v0 > b0 + 0.02, "m={m}: {b0} -> {v0}");
                }
            }
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(matches!(
            point("nope", 8, 0.5, 10, 1),
            Err(QualityError::Unknown(_))
        ));
        assert!(matches!(
            point("exact", 65, 0.5, 10, 1),
            Err(QualityError::Size(65))
        ));
        assert!(matches!(
            point("exact", 8, 1.5, 10, 1),
            Err(QualityError::Density(_))
        ));
    }
}

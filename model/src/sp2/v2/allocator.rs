//! The v2 crossbar allocator (docs/sp2-switch.md, v2 §A): the ColumnOR / Rotate_Until_Zero heuristic on a
//! registered request matrix, its row steps split over pipeline stages, then least-recently-served
//! arbitration per transmitter among the rows whose assignment is still valid.
//!
//! Model twin of `hdl/src/sp2/v2/allocator.rs`.
//!
//! Per cycle, inputs: `req[i]` (receiver i's requested set, 0 = none), `free` (bit j: transmitter j is free
//! for the crossbar now), `wait[i]` (the set receiver i waits with now, 0 when it does not wait). Outputs: per
//! transmitter j at most one granted receiver, per receiver at most one transmitter.
//!
//! Pipeline (`STAGE_ROWS`, one pass): at the edge ending cycle t the matrix `R[i] = req[i] & free` and the
//! initial assignment `M[i]` = lowest bit of `R[i]` are registered (stage 0); in cycle t+1 rows 0–2 take their
//! row step (`crate::matcher::row_step`: the ColumnOR of every row, rows already stepped at their new value)
//! and the result is registered (stage 1); in t+2 rows 3–5 (stage 2); in t+3 rows 6–7, then a row's
//! assignment {j} is a candidate if j is in the row's `wait` set and `free` in cycle t+3, and every transmitter
//! grants its least recently served candidate ([`crate::lrs::Lrs`]). Latency: request in t, grant in t+3. A
//! new matrix enters every cycle; a result for a row granted by an earlier matrix, no longer waiting, or
//! computed from the request of an earlier packet of the row (a short packet streams out while its request
//! is still in the pipeline, and the row waits again for the next packet, with another set) is discarded by
//! the `wait` check: the grant is always inside the set of the packet it connects.

use crate::lrs::Lrs;
use crate::matcher::row_step;

/// Rows (receivers) and columns (transmitters).
pub const N: usize = 8;
/// Rows stepped in each pipeline stage (one pass of the heuristic over rows 0..8 in order).
pub const STAGE_ROWS: [std::ops::Range<usize>; 3] = [0..3, 3..6, 6..8];
/// Cycles from a request to its grant.
pub const LATENCY: usize = STAGE_ROWS.len();

/// One stage register: the request matrix and the assignment so far (all zero while the pipeline is still
/// empty after reset: no row requests anything).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stage {
    /// Per row, the requested set restricted to the transmitters free when it was captured (bit j = column j).
    pub r: [u8; N],
    /// Per row, its assigned column as a one-bit mask (0: none), after the row steps taken so far.
    pub m: [u8; N],
}

/// A grant: receiver `row` to transmitter `col`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// The receiver.
    pub row: u8,
    /// The transmitter.
    pub col: u8,
}

/// What the allocator decides in a cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllocOut {
    /// Per transmitter: the granted receiver.
    pub grant: [Option<u8>; N],
}

impl AllocOut {
    /// The grants as (row, column) pairs, by column.
    pub fn grants(&self) -> impl Iterator<Item = Grant> + '_ {
        self.grant
            .iter()
            .enumerate()
            .filter_map(|(c, r)| r.map(|row| Grant { row, col: c as u8 }))
    }
}

/// The allocator state: the stage registers and the per-transmitter LRS orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocator {
    /// `stage[k]` is the register after stage k (stage 0: the captured matrix).
    pub stage: [Stage; LATENCY],
    /// Per transmitter, the least-recently-served order of the receivers.
    pub lrs: Vec<Lrs>,
}

impl Default for Allocator {
    fn default() -> Self {
        Allocator {
            stage: [Stage::default(); LATENCY],
            lrs: (0..N).map(|_| Lrs::new(N)).collect(),
        }
    }
}

/// Applies the row steps of `rows` to `m` (one pass of the heuristic restricted to those rows).
pub fn step_rows(r: &[u8; N], m: &mut [u8; N], rows: std::ops::Range<usize>) {
    let rr: [u64; N] = r.map(|x| x as u64);
    let mut mm: [u64; N] = m.map(|x| x as u64);
    for i in rows {
        mm[i] = row_step(&mm, &rr, i, N);
    }
    *m = mm.map(|x| x as u8);
}

impl Allocator {
    /// The final stage's assignment (rows 6–7 stepped on the last register).
    pub fn assignment(&self) -> [u8; N] {
        let last = &self.stage[LATENCY - 1];
        let mut m = last.m;
        step_rows(&last.r, &mut m, STAGE_ROWS[LATENCY - 1].clone());
        m
    }

    /// Phase 1: this cycle's grants, from the registers, the current `free` and the set each row waits
    /// with now (`wait[i]`, 0 for a row not waiting). Changes nothing.
    pub fn eval(&self, free: u8, wait: &[u8; N]) -> AllocOut {
        let m = self.assignment();
        let mut out = AllocOut::default();
        for (j, g) in out.grant.iter_mut().enumerate() {
            if free >> j & 1 == 0 {
                continue;
            }
            let cand = (0..N).fold(0u64, |a, i| {
                a | (((m[i] >> j & 1 == 1 && wait[i] >> j & 1 == 1) as u64) << i)
            });
            *g = self.lrs[j].pick(cand);
        }
        out
    }

    /// Phase 2, the edge: the LRS orders of the granting transmitters, and the pipeline advances with the
    /// new matrix `req & free`.
    pub fn commit(&mut self, out: &AllocOut, req: &[u8; N], free: u8) {
        for g in out.grants() {
            self.lrs[g.col as usize].served(g.row);
        }
        for k in (1..LATENCY).rev() {
            let mut s = self.stage[k - 1];
            step_rows(&s.r, &mut s.m, STAGE_ROWS[k - 1].clone());
            self.stage[k] = s;
        }
        let r = req.map(|x| x & free);
        self.stage[0] = Stage {
            r,
            m: r.map(|x| x & x.wrapping_neg()),
        };
    }

    /// One cycle: eval, then commit; returns the grants.
    pub fn cycle(&mut self, req: &[u8; N], free: u8, wait: &[u8; N]) -> AllocOut {
        let out = self.eval(free, wait);
        self.commit(&out, req, free);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::heuristic;
    use rand::{Rng, SeedableRng};

    /// Held constant for the pipeline's length, a request matrix comes out as the one-pass heuristic's
    /// matching (then LRS per column), three cycles later.
    #[test]
    fn a_held_matrix_comes_out_as_the_one_pass_heuristic() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..2000 {
            let req: [u8; N] =
                std::array::from_fn(|_| if rng.gen_bool(0.3) { 0 } else { rng.gen() });
            let mut a = Allocator::default();
            for _ in 0..LATENCY {
                let o = a.cycle(&req, 0xff, &[0; N]);
                assert!(o.grants().next().is_none(), "nothing is waiting");
            }
            let h = heuristic(&req.map(|x| x as u64), N, 1);
            assert_eq!(a.assignment().map(|x| x as u64).to_vec(), h);
            let o = a.eval(0xff, &req);
            for (j, g) in o.grant.iter().enumerate() {
                let rows: Vec<u8> = (0..N as u8)
                    .filter(|&i| h[i as usize] >> j & 1 == 1)
                    .collect();
                // LRS orders start in index order: the lowest row of the column wins.
                assert_eq!(*g, rows.first().copied(), "column {j}: {req:?}");
            }
        }
    }

    /// Grants form a matching inside the requests, only for waiting rows and free columns, `LATENCY` cycles
    /// after the request.
    #[test]
    fn grants_are_a_matching_of_waiting_rows_and_free_columns() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut a = Allocator::default();
        let mut hist: Vec<[u8; N]> = Vec::new();
        for _ in 0..20_000 {
            let req: [u8; N] =
                std::array::from_fn(|_| if rng.gen_bool(0.5) { 0 } else { rng.gen() });
            let free: u8 = rng.gen();
            let wait: [u8; N] =
                std::array::from_fn(|_| if rng.gen_bool(0.3) { 0 } else { rng.gen() });
            let o = a.cycle(&req, free, &wait);
            let mut rows = 0u8;
            for g in o.grants() {
                assert!(free >> g.col & 1 == 1 && wait[g.row as usize] >> g.col & 1 == 1);
                assert!(rows >> g.row & 1 == 0, "a row granted twice");
                rows |= 1 << g.row;
                if hist.len() >= LATENCY {
                    let old = hist[hist.len() - LATENCY];
                    assert!(
                        old[g.row as usize] >> g.col & 1 == 1,
                        "granted outside the request"
                    );
                }
            }
            hist.push(req);
        }
    }
}

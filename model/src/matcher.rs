//! The ColumnOR / Rotate_Until_Zero matching heuristic (thesis Fig. 2.3), exactly as docs/contracts.md reads it.
//!
//! Model twin of `hdl/src/matcher.rs` (exported as `matcher_m{M}_p{P}`).
//!
//! Rows are packets (input ports), columns are outputs; `R[i]` is row i's permitted-output mask
//! (bit j = output j), `M[i]` row i's current assignment (at most one bit).
//! 1. Initialise: `M[i]` = lowest set bit of `R[i]` (0 when `R[i]` is 0).
//! 2. For each pass, for `i = 0 .. m-1` in order: `C = (OR of all rows of M, row i included) | !R[i]`;
//!    if `C` is all ones, `M[i]` is unchanged; otherwise rotate `M[i]` one position at a time toward higher
//!    column index (bit j → j+1, bit m−1 → bit 0) until `M[i] & C == 0`.
//! 3. `M` may give one column to several rows; its cardinality is the number of distinct columns used.
//!
//! Bit-parallel: a row is one `u64`, so `m ≤ 64`; the rotation is computed in one step (the first free
//! permitted column cyclically after the current one) instead of a loop, with the same result.
//! Combinational in hardware: latency 0 cycles.

use crate::header::all_ports;

/// The largest matrix the heuristic handles.
pub const MAX_M: usize = 64;

/// Rotates an `m`-bit row one position toward higher column index (bit m−1 wraps to bit 0).
#[inline]
pub fn rotate_up(x: u64, m: usize) -> u64 {
    debug_assert!((1..=64).contains(&m));
    if m == 64 {
        x.rotate_left(1)
    } else {
        ((x << 1) | (x >> (m - 1))) & all_ports(m as u32)
    }
}

/// The initial assignment: the lowest set bit of each row.
#[inline]
pub fn init_row(r: u64) -> u64 {
    r & r.wrapping_neg()
}

/// The ColumnOR of the assignment.
#[inline]
pub fn column_or(mm: &[u64]) -> u64 {
    mm.iter().fold(0, |a, &x| a | x)
}

/// Rotate_Until_Zero in one step: the first column after `p` (cyclically, toward higher index) whose bit in
/// `free` is set. `free` must have a bit set.
#[inline]
fn next_free(p: usize, free: u64) -> usize {
    let above = if p + 1 >= 64 {
        0
    } else {
        free >> (p + 1) << (p + 1)
    };
    (if above != 0 {
        above.trailing_zeros()
    } else {
        free.trailing_zeros()
    }) as usize
}

/// One row step of the heuristic on row `i`: returns the new `M[i]`.
#[inline]
pub fn row_step(mm: &[u64], r: &[u64], i: usize, m: usize) -> u64 {
    let full = all_ports(m as u32);
    let c = (column_or(mm) | !r[i]) & full;
    if c == full {
        return mm[i];
    }
    // mm[i] is non-zero here: if r[i] were 0, c would be all ones. Its bit p is in c (row i is in the ColumnOR),
    // so the rotation moves to the first column q after p (cyclically) with c[q] == 0.
    1u64 << next_free(mm[i].trailing_zeros() as usize, !c & full)
}

/// Runs the heuristic on the `m×m` request rows `r` for `passes` passes and writes `M` into `out`.
/// `r.len()` rows (at most `m`) are matched; missing rows are empty.
pub fn heuristic_into(r: &[u64], m: usize, passes: usize, out: &mut [u64]) {
    assert!((1..=MAX_M).contains(&m), "matrix size {m} outside 1..=64");
    assert!(r.len() <= m && out.len() == r.len());
    let full = all_ports(m as u32);
    // The ColumnOR is kept incrementally: `count[j]` rows hold column j, `or` has bit j when count[j] > 0.
    let mut count = [0u8; MAX_M];
    let mut or = 0u64;
    for (o, &ri) in out.iter_mut().zip(r) {
        *o = init_row(ri & full);
        if *o != 0 {
            count[o.trailing_zeros() as usize] += 1;
            or |= *o;
        }
    }
    for _ in 0..passes {
        for i in 0..r.len() {
            let c = (or | !r[i]) & full;
            if c == full {
                continue;
            }
            let p = out[i].trailing_zeros() as usize;
            let q = next_free(p, !c & full);
            count[p] -= 1;
            if count[p] == 0 {
                or &= !(1u64 << p);
            }
            count[q] += 1;
            or |= 1u64 << q;
            out[i] = 1u64 << q;
        }
    }
}

/// Runs the heuristic and returns `M`.
pub fn heuristic(r: &[u64], m: usize, passes: usize) -> Vec<u64> {
    let mut out = vec![0; r.len()];
    heuristic_into(r, m, passes, &mut out);
    out
}

/// The number of distinct columns `M` uses (the size of the matching it yields after conflict arbitration).
#[inline]
pub fn cardinality(mm: &[u64]) -> u32 {
    column_or(mm).count_ones()
}

/// `M` after initialisation and after every row step, in order: `1 + passes * rows` snapshots.
/// For tests and for the worked example of thesis Fig. 2.4.
pub fn trace(r: &[u64], m: usize, passes: usize) -> Vec<Vec<u64>> {
    assert!((1..=MAX_M).contains(&m) && r.len() <= m);
    let full = all_ports(m as u32);
    let mut cur: Vec<u64> = r.iter().map(|&ri| init_row(ri & full)).collect();
    let mut steps = vec![cur.clone()];
    for _ in 0..passes {
        for i in 0..r.len() {
            cur[i] = row_step(&cur, r, i, m);
            steps.push(cur.clone());
        }
    }
    steps
}

/// The heuristic written literally (rotate one position at a time), for cross-checking the one-step form.
pub fn heuristic_literal(r: &[u64], m: usize, passes: usize) -> Vec<u64> {
    let full = all_ports(m as u32);
    let mut mm: Vec<u64> = r.iter().map(|&ri| init_row(ri & full)).collect();
    for _ in 0..passes {
        for i in 0..r.len() {
            let c = (column_or(&mm) | !r[i]) & full;
            if c == full {
                continue;
            }
            let mut x = mm[i];
            loop {
                x = rotate_up(x, m);
                if x & c == 0 {
                    break;
                }
            }
            mm[i] = x;
        }
    }
    mm
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Thesis Fig. 2.4, rows as printed with column 0 leftmost.
    fn row(s: &str) -> u64 {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .enumerate()
            .fold(0, |a, (j, c)| a | (((c == '1') as u64) << j))
    }

    #[test]
    fn figure_2_4_step_by_step() {
        let r = [row("1100"), row("1010"), row("1101"), row("0101")];
        let t = trace(&r, 4, 1);
        // Initial: lowest bit of each row: columns 0, 0, 0, 1. ColumnOR 1100 (as in Fig. 2.4(a)).
        assert_eq!(
            t[0],
            vec![row("1000"), row("1000"), row("1000"), row("0100")]
        );
        assert_eq!(column_or(&t[0]), row("1100"));
        // (a) row 0: no permitted free output (R0 = 1100, both used): unchanged.
        assert_eq!(t[1], t[0]);
        // (b) row 1 rotated to output 2: ColumnOR 1110.
        assert_eq!(t[2][1], row("0010"));
        assert_eq!(column_or(&t[2]), row("1110"));
        // (c) row 2 rotated to output 3: a maximum matching, ColumnOR 1111.
        assert_eq!(t[3][2], row("0001"));
        assert_eq!(column_or(&t[3]), row("1111"));
        // (d) row 3: no change.
        assert_eq!(t[4], t[3]);
        assert_eq!(cardinality(&t[4]), 4);
    }

    #[test]
    fn one_step_rotation_equals_literal() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for m in [1usize, 2, 3, 4, 5, 8, 16, 31, 63, 64] {
            for _ in 0..2000 {
                let r: Vec<u64> = (0..m)
                    .map(|_| rng.gen::<u64>() & rng.gen::<u64>() & all_ports(m as u32))
                    .collect();
                for passes in 0..4 {
                    assert_eq!(
                        heuristic(&r, m, passes),
                        heuristic_literal(&r, m, passes),
                        "m={m} r={r:x?}"
                    );
                }
            }
        }
    }
}

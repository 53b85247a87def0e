//! The ASR switch's allocator (thesis ch. 2–3): `asr-p1` and `asr-p2`.
//!
//! - 2×2 switches: the rule of docs/switch2.md ([`crate::switch2::arbitrate`], shared with the `Switch2`
//!   model and the HDL): a maximum matching, ties broken by `in_ptr` / `out_ptr`. State: those 2 bytes. (On a
//!   2×2 matrix one pass of the heuristic already finds a maximum matching, so `asr-p1` and `asr-p2` agree.)
//! - Larger switches: the ColumnOR / Rotate_Until_Zero heuristic ([`crate::matcher::heuristic_into`]) with
//!   `passes` passes; an output the heuristic gave to several inputs goes to the first of them at or after
//!   that output's round-robin pointer, which then moves past the winner; the others wait. State: one
//!   pointer per output.

use super::grant::NO_GRANT;
use super::traits::{Allocator, Phase1};
use crate::matcher::heuristic_into;
use crate::switch2::{arbitrate, Pointers};

/// The ASR switch's allocator, `asr-p1` or `asr-p2` (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct Asr {
    /// Passes of the ColumnOR / Rotate_Until_Zero heuristic on switches larger than 2×2 (1 or 2).
    pub passes: usize,
    /// The 2×2 rule as a table: index `a0 | a1 << 2 | in_ptr << 4 | out_ptr << 5`, entry
    /// `grant0 | grant1 << 2 | in_ptr' << 4 | out_ptr' << 5` (grant 2 = none).
    table: [u8; 64],
}

impl Asr {
    /// The allocator with `passes` heuristic passes, its 2×2 rule tabulated.
    pub fn new(passes: usize) -> Self {
        let mut table = [0u8; 64];
        for (x, e) in table.iter_mut().enumerate() {
            let p = Pointers {
                in_ptr: (x >> 4 & 1) as u8,
                out_ptr: (x >> 5 & 1) as u8,
            };
            let d = arbitrate([(x & 3) as u8, (x >> 2 & 3) as u8], p);
            *e = d.moves[0].unwrap_or(2)
                | d.moves[1].unwrap_or(2) << 2
                | d.next.in_ptr << 4
                | d.next.out_ptr << 5;
        }
        Asr { passes, table }
    }
}

impl Allocator for Asr {
    fn name(&self) -> &'static str {
        if self.passes == 1 {
            "asr-p1"
        } else {
            "asr-p2"
        }
    }

    fn state_len(&self, radix: usize) -> usize {
        radix.max(2)
    }

    #[inline]
    fn phase1(&self, p: &mut Phase1<'_>) {
        p.run(self)
    }

    #[inline]
    fn allocate(&self, req: &[u64], state: &mut [u8], grant: &mut [u8]) {
        let r = req.len();
        if r == 2 {
            // docs/switch2.md's rule (crate::switch2::arbitrate), tabulated.
            let (req, state, grant) = (&req[..2], &mut state[..2], &mut grant[..2]);
            let x = (req[0] | req[1] << 2) as usize
                | (state[0] as usize) << 4
                | (state[1] as usize) << 5;
            let e = self.table[x & 63];
            state[0] = e >> 4 & 1;
            state[1] = e >> 5 & 1;
            let g = |v: u8| if v == 2 { NO_GRANT } else { v };
            grant[0] = g(e & 3);
            grant[1] = g(e >> 2 & 3);
            return;
        }
        self.heuristic(req, state, grant);
    }
}

impl Asr {
    /// Switches of more than 2 ports: the heuristic, then round-robin among rows given the same output.
    #[inline(never)]
    fn heuristic(&self, req: &[u64], state: &mut [u8], grant: &mut [u8]) {
        let r = req.len();
        grant.fill(NO_GRANT);
        let mut m = [0u64; 64];
        heuristic_into(req, r, self.passes, &mut m[..r]);
        let mut claimed = 0u64;
        for &x in &m[..r] {
            claimed |= x;
        }
        while claimed != 0 {
            let q = claimed.trailing_zeros() as usize;
            claimed &= claimed - 1;
            let start = state[q] as usize;
            if let Some(i) = (0..r)
                .map(|k| (start + k) % r)
                .find(|&i| m[i] >> q & 1 == 1)
            {
                grant[i] = q as u8;
                state[q] = ((i + 1) % r) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allocator::by_name;

    #[test]
    fn two_by_two_is_the_switch2_rule() {
        let a = by_name("asr-p1").unwrap();
        let mut st = [0u8; 2];
        let mut p = Pointers::default();
        let mut g = [0u8; 2];
        for k in 0..200u32 {
            let req = [(k % 4) as u64, ((k / 4 + k) % 4) as u64];
            a.allocate(&req, &mut st, &mut g);
            let d = arbitrate([req[0] as u8, req[1] as u8], p);
            p = d.next;
            assert_eq!(g[0], d.moves[0].unwrap_or(NO_GRANT));
            assert_eq!(g[1], d.moves[1].unwrap_or(NO_GRANT));
            assert_eq!((st[0], st[1]), (p.in_ptr, p.out_ptr));
        }
    }

    #[test]
    fn conflicts_go_round_robin() {
        // Four inputs that can only use output 1: each wins once in four cycles.
        let a = by_name("asr-p2").unwrap();
        let mut st = vec![0u8; 4];
        let mut g = [0u8; 4];
        let mut wins = [0; 4];
        for _ in 0..8 {
            a.allocate(&[2, 2, 2, 2], &mut st, &mut g);
            let w: Vec<usize> = (0..4).filter(|&i| g[i] != NO_GRANT).collect();
            assert_eq!(w.len(), 1);
            assert_eq!(g[w[0]], 1);
            wins[w[0]] += 1;
        }
        assert_eq!(wins, [2, 2, 2, 2]);
    }
}

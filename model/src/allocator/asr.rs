//! The ASR switch's allocator (thesis ch. 2–3): `asr-p1` and `asr-p2`.
//!
//! - 2×2 switches: the rule of docs/switch2.md ([`crate::switch2::arbitrate`], shared with the `Switch2`
//!   model and the HDL): a maximum matching, ties broken by `in_ptr` / `out_ptr`. State: those 2 bytes. (On a
//!   2×2 matrix one pass of the heuristic already finds a maximum matching, so `asr-p1` and `asr-p2` agree.)
//! - Larger switches: the ColumnOR / Rotate_Until_Zero heuristic ([`crate::matcher::heuristic_into`]) with
//!   `passes` passes; an output the heuristic gave to several inputs goes to the first of them at or after
//!   that output's round-robin pointer, which then moves past the winner; the others wait. State: one
//!   pointer per output.

use super::{Allocator, NO_GRANT};
use crate::matcher::heuristic_into;
use crate::switch2::{arbitrate, Pointers};

#[derive(Debug, Clone, Copy)]
pub struct Asr {
    pub passes: usize,
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
    fn allocate(&self, req: &[u64], state: &mut [u8], grant: &mut [u8]) {
        let r = req.len();
        if r == 2 {
            let p = Pointers {
                in_ptr: state[0],
                out_ptr: state[1],
            };
            let d = arbitrate([req[0] as u8, req[1] as u8], p);
            state[0] = d.next.in_ptr;
            state[1] = d.next.out_ptr;
            grant[0] = d.moves[0].unwrap_or(NO_GRANT);
            grant[1] = d.moves[1].unwrap_or(NO_GRANT);
            return;
        }
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

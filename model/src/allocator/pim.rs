//! `pim-1`, `pim-2`: parallel iterative matching (T. Anderson, S. Owicki, J. Saxe, C. Thacker, "High-speed
//! switch scheduling for local-area networks", ACM TOCS 1993) with the given number of iterations. Each
//! iteration: every unmatched output grants one of the unmatched inputs requesting it, uniformly at random;
//! every input that received grants accepts one of them uniformly at random. State: a 64-bit random state per
//! switch (SplitMix64), seeded from the run's seed and the switch number, so results do not depend on the
//! order in which switches are evaluated.

use super::grant::{columns, NO_GRANT};
use super::traits::{Allocator, Phase1};
use crate::rng::mix;

/// The PIM allocator (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct Pim {
    /// Iterations per decision (1 or 2 in the registry).
    pub iterations: usize,
}

/// A uniformly random set bit of `set` (≠ 0).
#[inline]
fn pick(set: u64, s: &mut u64) -> usize {
    *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let k = ((mix(*s) as u128 * set.count_ones() as u128) >> 64) as u32;
    let mut x = set;
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros() as usize
}

impl Allocator for Pim {
    fn name(&self) -> &'static str {
        if self.iterations == 1 {
            "pim-1"
        } else {
            "pim-2"
        }
    }

    fn state_len(&self, _radix: usize) -> usize {
        8
    }

    fn init(&self, switch: usize, seed: u64, state: &mut [u8]) {
        state.copy_from_slice(&mix(seed ^ mix(0x5049_4d00 ^ switch as u64)).to_le_bytes());
    }

    fn phase1(&self, p: &mut Phase1<'_>) {
        p.run(self)
    }

    #[inline]
    fn allocate(&self, req: &[u64], state: &mut [u8], grant: &mut [u8]) {
        let r = req.len();
        grant.fill(NO_GRANT);
        let mut s = u64::from_le_bytes(state[..8].try_into().expect("8 bytes"));
        let mut col = [0u64; 64];
        columns(req, &mut col);
        let (mut in_free, mut out_free) = (u64::MAX, u64::MAX);
        for _ in 0..self.iterations {
            let mut granted = [0u64; 64];
            let mut any = false;
            for (q, &cq) in col[..r].iter().enumerate() {
                let c = cq & in_free;
                if out_free >> q & 1 == 1 && c != 0 {
                    granted[pick(c, &mut s)] |= 1 << q;
                    any = true;
                }
            }
            if !any {
                break;
            }
            for i in 0..r {
                if granted[i] != 0 {
                    let q = pick(granted[i], &mut s);
                    grant[i] = q as u8;
                    in_free &= !(1 << i);
                    out_free &= !(1 << q);
                }
            }
        }
        state[..8].copy_from_slice(&s.to_le_bytes());
    }
}

//! PIM with one iteration as an 8×8 hardware block builds it (`hdl/src/alloc/pim.rs`, top `alloc_pim1_m8`):
//! the random choices come from a 64-bit xorshift register (G. Marsaglia, "Xorshift RNGs", 2003: a
//! linear-feedback generator over GF(2), `x ^= x << 13; x ^= x >> 7; x ^= x << 17`, period 2^64 − 1) that
//! steps once per decision. Each decision reads 16 random 3-bit priorities from the register before the
//! step: output q's at bits `[3q +: 3]`, input i's at bits `[24 + 3i +: 3]`; output q grants the first
//! requesting input at or after its random priority, input i accepts the first granting output at or after
//! its own (a random rotation of round robin instead of PIM's uniform choice, which would need a
//! variable-modulus random draw per output). State: the 64-bit register, [`SEED`] after reset.
//!
//! Not in the allocator registry: it is the twin of the hardware block, and its matching quality is
//! reported beside `pim-1`'s by its tests and docs/allocators.md.

use super::grant::{columns, first_from, NO_GRANT};

/// The register after reset (any non-zero value works).
pub const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// One step of the xorshift register.
#[inline]
pub fn step(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// PIM-1 with xorshift priorities on an `r×r` switch, r ≤ 8.
#[derive(Debug, Clone, Copy)]
pub struct PimLfsr8 {
    /// The xorshift register; [`SEED`] after reset, never 0.
    pub state: u64,
}

impl Default for PimLfsr8 {
    fn default() -> Self {
        PimLfsr8 { state: SEED }
    }
}

impl PimLfsr8 {
    /// One decision: `req[i]` the outputs input i requests; writes `grant[i]` (an output or [`NO_GRANT`]);
    /// then steps the register.
    pub fn allocate(&mut self, req: &[u64], grant: &mut [u8]) {
        let r = req.len();
        assert!((1..=8).contains(&r) && grant.len() == r);
        let x = self.state;
        let prio = |k: usize| ((x >> (3 * k)) & 7) as usize % r;
        grant.fill(NO_GRANT);
        let mut col = [0u64; 64];
        columns(req, &mut col);
        let mut granted = [0u64; 8];
        for (q, &c) in col[..r].iter().enumerate() {
            if c != 0 {
                granted[first_from(c, prio(q), r)] |= 1 << q;
            }
        }
        for i in 0..r {
            if granted[i] != 0 {
                grant[i] = first_from(granted[i], prio(8 + i), r) as u8;
            }
        }
        self.state = step(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allocator::check_matching;
    use crate::exact::max_matching_size;
    use crate::rng::stream;
    use crate::table2_1::random_matrix;

    /// A matching inside the requests every decision; on random 8×8 matrices of density 0.5 it matches about
    /// as many as pim-1 does (0.66 of the maximum, docs/allocators.md), far from iSLIP-4's 0.89.
    #[test]
    fn a_matching_of_pim_1_quality() {
        let mut a = PimLfsr8::default();
        let mut rng = stream(11, 0);
        let (mut req, mut g) = ([0u64; 8], [0u8; 8]);
        let (mut sum, mut n) = (0.0, 0);
        for _ in 0..20_000 {
            random_matrix(&mut rng, 8, 0.5, &mut req);
            a.allocate(&req, &mut g);
            assert_eq!(check_matching(&req, &g), Ok(()), "{req:x?} {g:?}");
            let best = max_matching_size(&req);
            let got = g.iter().filter(|&&x| x != NO_GRANT).count();
            if best > 0 {
                sum += got as f64 / best as f64;
                n += 1;
            }
        }
        let mean = sum / n as f64;
        assert!((0.62..0.72).contains(&mean), "mean size / maximum {mean}");
    }

    #[test]
    fn the_register_never_sticks() {
        let mut x = SEED;
        let mut seen = std::collections::HashSet::new();
        for _ in 0..10_000 {
            x = step(x);
            assert_ne!(x, 0);
            assert!(seen.insert(x));
        }
    }
}

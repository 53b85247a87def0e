//! `exact`: a maximum matching every cycle (Hopcroft–Karp, [`crate::exact::hopcroft_karp`]). The inputs are
//! presented starting at a pointer that advances by one each cycle, so among the maximum matchings none is
//! permanently preferred. State: the pointer. An upper bound on what any allocator can move in one cycle, at
//! a cost no single-cycle hardware pays.

use super::grant::NO_GRANT;
use super::traits::{Allocator, Phase1};
use crate::exact::hopcroft_karp;

/// The `exact` allocator: a maximum matching every cycle (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct Exact;

impl Allocator for Exact {
    fn name(&self) -> &'static str {
        "exact"
    }

    fn state_len(&self, _radix: usize) -> usize {
        1
    }

    fn phase1(&self, p: &mut Phase1<'_>) {
        p.run(self)
    }

    #[inline]
    fn allocate(&self, req: &[u64], state: &mut [u8], grant: &mut [u8]) {
        let r = req.len();
        let start = state[0] as usize % r.max(1);
        state[0] = ((start + 1) % r.max(1)) as u8;
        let mut rows = [0u64; 64];
        for k in 0..r {
            rows[k] = req[(start + k) % r];
        }
        let m = hopcroft_karp(&rows[..r]);
        grant.fill(NO_GRANT);
        for (k, c) in m.row_to_col.iter().enumerate() {
            if let Some(c) = c {
                grant[(start + k) % r] = *c as u8;
            }
        }
    }
}

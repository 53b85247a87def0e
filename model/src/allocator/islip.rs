//! `islip-1`, `islip-2`, `islip-4`: iSLIP (N. McKeown, "The iSLIP scheduling algorithm for input-queued
//! switches", IEEE/ACM ToN 1999) with the given number of iterations. Each iteration: every unmatched output
//! grants the requesting unmatched input at or after its grant pointer; every unmatched input accepts the
//! granting output at or after its accept pointer. Pointers move one past the accepted partner, and only for
//! accepts made in the first iteration (which is what desynchronises them). State: r grant pointers, then r
//! accept pointers.

use super::grant::{columns, first_from, NO_GRANT};
use super::traits::{Allocator, Phase1};

/// The iSLIP allocator (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct Islip {
    /// Iterations per decision (1, 2 or 4 in the registry).
    pub iterations: usize,
}

impl Allocator for Islip {
    fn name(&self) -> &'static str {
        match self.iterations {
            1 => "islip-1",
            2 => "islip-2",
            _ => "islip-4",
        }
    }

    fn state_len(&self, radix: usize) -> usize {
        2 * radix
    }

    fn phase1(&self, p: &mut Phase1<'_>) {
        p.run(self)
    }

    #[inline]
    fn allocate(&self, req: &[u64], state: &mut [u8], grant: &mut [u8]) {
        let r = req.len();
        grant.fill(NO_GRANT);
        let mut col = [0u64; 64];
        columns(req, &mut col);
        let (gp, ap) = state.split_at_mut(r);
        let (mut in_free, mut out_free) = (u64::MAX, u64::MAX);
        for it in 0..self.iterations {
            // Grant: output q picks among the free inputs requesting it.
            let mut granted = [0u64; 64]; // granted[i]: outputs granting input i
            let mut any = false;
            for q in 0..r {
                let c = col[q] & in_free;
                if out_free >> q & 1 == 1 && c != 0 {
                    let i = first_from(c, gp[q] as usize, r);
                    granted[i] |= 1 << q;
                    any = true;
                }
            }
            if !any {
                break;
            }
            // Accept: input i picks among its grants.
            for i in 0..r {
                if granted[i] != 0 {
                    let q = first_from(granted[i], ap[i] as usize, r);
                    grant[i] = q as u8;
                    in_free &= !(1 << i);
                    out_free &= !(1 << q);
                    if it == 0 {
                        gp[q] = ((i + 1) % r) as u8;
                        ap[i] = ((q + 1) % r) as u8;
                    }
                }
            }
        }
    }
}

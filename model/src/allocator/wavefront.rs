//! `wavefront`: the wavefront allocator (Y. Tamir, H.-C. Chi, "Symmetric crossbar arbiters for VLSI
//! communication switches", IEEE TPDS 1993). Cell (i, q) of the request matrix lies on diagonal
//! (i + q) mod r; the diagonals are served one after another starting at a priority diagonal, and a cell is
//! granted when it requests and neither its row nor its column is taken yet. The cells of one diagonal share
//! no row or column, so each diagonal is one step of the hardware's wave. The priority diagonal advances by
//! one every cycle. The result is a maximal matching. State: the priority diagonal.

use super::grant::NO_GRANT;
use super::traits::{Allocator, Phase1};

/// The `wavefront` allocator (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct Wavefront;

impl Allocator for Wavefront {
    fn name(&self) -> &'static str {
        "wavefront"
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
        grant.fill(NO_GRANT);
        let p = state[0] as usize % r.max(1);
        state[0] = ((p + 1) % r.max(1)) as u8;
        let (mut rows, mut cols) = (0u64, 0u64);
        for d in 0..r {
            let diag = (p + d) % r;
            for i in 0..r {
                let q = (diag + r - i) % r;
                if req[i] >> q & 1 == 1 && rows >> i & 1 == 0 && cols >> q & 1 == 0 {
                    grant[i] = q as u8;
                    rows |= 1 << i;
                    cols |= 1 << q;
                }
            }
        }
    }
}

//! Requests and grants as bit sets: "no grant" ([`NO_GRANT`]), the check that the grants form a matching
//! inside the requests ([`check_matching`]), and the bit helpers the allocators share.

/// "This input does not move" in a grant vector.
pub const NO_GRANT: u8 = u8::MAX;

/// The first set bit of `set` at or after position `from`, cyclically over `r` positions (`set` ≠ 0).
#[inline]
pub(crate) fn first_from(set: u64, from: usize, r: usize) -> usize {
    debug_assert!(set != 0 && from < r);
    let above = set >> from << from;
    if above != 0 {
        above.trailing_zeros() as usize
    } else {
        set.trailing_zeros() as usize
    }
}

/// The inputs requesting each output: `col[q]` has bit i when `req[i]` has bit q.
#[inline]
pub(crate) fn columns(req: &[u64], col: &mut [u64; 64]) {
    let r = req.len();
    col[..r].fill(0);
    for (i, &x) in req.iter().enumerate() {
        let mut m = x;
        while m != 0 {
            let q = m.trailing_zeros() as usize;
            m &= m - 1;
            col[q] |= 1 << i;
        }
    }
}

/// Checks that `grant` is a matching inside `req`: the first offending input, if any.
pub fn check_matching(req: &[u64], grant: &[u8]) -> Result<(), usize> {
    let mut used = 0u64;
    for (i, (&x, &g)) in req.iter().zip(grant).enumerate() {
        if g == NO_GRANT {
            continue;
        }
        if g >= 64 || x >> g & 1 == 0 || used >> g & 1 == 1 {
            return Err(i);
        }
        used |= 1 << g;
    }
    Ok(())
}

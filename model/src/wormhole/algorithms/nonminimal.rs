//! Non-Minimal (seed 004, section 1, with d = 3). The route has n phases, i = n−1 down to 0. At the start of
//! phase i, dimensions n−1 … i+1 are corrected and never touched again. In phase i the worm is first sent
//! through one dimension j ∈ dims(p, i) (chosen adaptively among those with a free channel), whether or not that
//! corrects j, and then through dimension i if i still differs. With d = 3 the seed fixes, for every node p:
//! dims(p, i) = {i−2, i−4, i−6} for i ≥ 6, dims(p, 5) = {3, 1}, dims(p, 4) = {2, 0}, dims(p, i) = ∅ for i ≤ 3.
//! Routes have between n and 2n hops (fewer if the destination is met early: the worm is then delivered).
//!
//! Virtual channels (our assignment; the seed's formal definition is in its TR \[7\], which we did not have):
//! a channel of dimension c is used by a worm in phase c (the i-hop) or in the phases q with c ∈ dims(q)
//! (j-hops): at most 4 distinct phases, hence at most 4 VCs per directed link as the seed states. VC 0 carries
//! the i-hop, VC 1 + r the j-hop of the r-th such phase (in increasing q). Rank every channel use by
//! (phase descending, j-hop before i-hop): a worm's successive channels have strictly increasing rank and each
//! (dimension, VC) pair has a single rank, so the channel dependency graph is acyclic.
//!
//! Routing state (carried by the head): `((n − 1 − i) << 1) | jdone`; 0 at injection.

use crate::wormhole::router::Candidates;

/// dims(p, i) for d = 3 (the same for every node p), as a bit mask.
#[inline]
pub fn dims(i: u32) -> u32 {
    match i {
        0..=3 => 0,
        4 => 0b101,
        5 => 0b1010,
        _ => (1 << (i - 2)) | (1 << (i - 4)) | (1 << (i - 6)),
    }
}

/// The virtual channel used on dimension `c` when it is taken in phase `p` (`p == c`: the i-hop).
#[inline]
pub fn vc_of(c: u32, p: u32) -> u32 {
    if p == c {
        return 0;
    }
    let mut r = 1;
    for q in c + 1..p {
        if dims(q) >> c & 1 == 1 {
            r += 1;
        }
    }
    r
}

/// Virtual channels per directed link needed on an n-cube.
pub fn vcs(n: u32) -> u32 {
    (0..n)
        .map(|c| 1 + (c + 1..n).filter(|&q| dims(q) >> c & 1 == 1).count() as u32)
        .max()
        .unwrap_or(1)
}

#[inline]
fn enc(n: u32, i: u32, jdone: u32) -> u32 {
    ((n - 1 - i) << 1) | jdone
}

/// Pushes the choices at node `x` for destination `d` on the n-cube, given the worm's routing `state` (see
/// the module documentation): the j-hops of the current phase, or its i-hop, each with the state after it.
/// Pushes nothing once every phase is done.
#[inline]
pub fn route(n: u32, x: u32, d: u32, state: u32, c: &mut Candidates) {
    let k = state >> 1;
    if k >= n {
        return; // all phases done: only reached if x == d
    }
    let mut i = n - 1 - k;
    let mut jdone = state & 1;
    loop {
        let ds = dims(i);
        if ds != 0 && jdone == 0 {
            let mut m = ds;
            while m != 0 {
                let j = m.trailing_zeros();
                c.push(j, vc_of(j, i), 0, enc(n, i, 1));
                m &= m - 1;
            }
            return;
        }
        if (x ^ d) >> i & 1 == 1 {
            let next = if i == 0 { n << 1 } else { enc(n, i - 1, 0) };
            c.push(i, 0, 0, next);
            return;
        }
        if i == 0 {
            return;
        }
        i -= 1;
        jdone = 0;
    }
}

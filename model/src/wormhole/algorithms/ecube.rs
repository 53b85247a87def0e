//! Dimension-order (E-cube) routing (Dally & Seitz 1987; seed 000, Example 2.16): at node `x` for destination
//! `d`, leave through the least significant dimension in which `x ^ d` is 1. Oblivious, minimal, one virtual
//! channel per directed link; the channel dependency graph only goes from lower to higher dimensions, hence it is
//! acyclic. Example: 010 → 111 goes 010 → 011 → 111.

use crate::wormhole::router::Candidates;

/// Pushes the one E-cube choice at node `x` for destination `d` (`x != d`): the lowest differing
/// dimension, VC 0.
#[inline]
pub fn route(x: u32, d: u32, c: &mut Candidates) {
    let diff = x ^ d;
    c.push(diff.trailing_zeros(), 0, 0, 0);
}

/// The E-cube path from `s` to `d` as the list of visited nodes, `s` first.
pub fn path(s: u32, d: u32) -> Vec<u32> {
    let mut v = vec![s];
    let mut x = s;
    while x != d {
        x ^= 1 << (x ^ d).trailing_zeros();
        v.push(x);
    }
    v
}

//! Subcubes (seed 004, section 2). The n-cube is seen as a hierarchical network whose nodes are 2^k-node
//! subcubes: k chosen dimensions (`inner`) give the position inside a subcube, the other n − k (`outer`) name
//! the subcube. The hierarchical network is hung from subcube 0 (outer bits all 0), as Hanging hangs the cube
//! from node 0…0.
//!
//! First hierarchical phase ("downwards"): the worm may correct any outer dimension where it has 0 and the
//! destination 1, and may move inside the current subcube; inside a subcube it routes as the subcube hung from
//! its node with inner bits 0 (the seed's second choice: inner 0→1 corrections first, any order, then inner
//! 1→0, any order). Every inner dimension must be corrected before the second phase. Second hierarchical phase
//! ("upwards"): correct the outer dimensions where it has 1 and the destination 0, any order. Minimal and
//! memoryless (the phase follows from the current node and the destination).
//!
//! One virtual channel per directed link (the seed's "2 virtual channels per bidirectional link"). Acyclic
//! CDG: first-phase outer channels strictly increase the outer weight; inner channels stay within a subcube
//! where the hung order is acyclic (inner 1→0 is never followed by inner 0→1); second-phase channels strictly
//! decrease the outer weight and are never followed by first-phase channels. Checked in the tests.
//!
//! **Choice of k and subcube dimensions** (the seed leaves it open): by default k = ⌊n/2⌋ and the subcube
//! dimensions are the low ones, 0 … k−1 (k = 5, subcubes of 32 nodes on 2^10). With k = 0 Subcubes is Hanging.
//! Any other choice can be given on the command line as `subcubes:<hex mask>`.

use crate::wormhole::router::Candidates;

/// Default subcube dimensions: the low ⌊n/2⌋ ones.
pub fn default_inner(n: u32) -> u32 {
    let k = (n / 2).max(1);
    (1u32 << k) - 1
}

#[inline]
pub fn route(inner: u32, x: u32, d: u32, c: &mut Candidates) {
    let up = !x & d;
    let down = x & !d;
    let out_up = up & !inner;
    let in_up = up & inner;
    let in_down = down & inner;
    if out_up != 0 || in_up != 0 || in_down != 0 {
        c.push_mask(out_up, 0, 0, 0);
        if in_up != 0 {
            c.push_mask(in_up, 0, 0, 0);
        } else {
            c.push_mask(in_down, 0, 0, 0);
        }
    } else {
        c.push_mask(down & !inner, 0, 0, 0);
    }
}

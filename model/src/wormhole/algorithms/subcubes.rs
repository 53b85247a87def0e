//! Subcubes (seed 004, section 2). The n-cube is seen as a hierarchical network whose nodes are 2^k-node
//! subcubes: k chosen dimensions (`inner`) give the position inside a subcube, the other n − k (`outer`) name
//! the subcube. The hierarchical network is hung from subcube 0 (outer bits all 0), as Hanging hangs the cube
//! from node 0…0.
//!
//! First hierarchical phase ("downwards"): the worm may correct any outer dimension where it has 0 and the
//! destination 1 (any order, adaptively), and may move inside the current subcube; inside a subcube it routes
//! by dimension order (the seed's first choice, "correcting dimensions in order \[1\]": the lowest differing
//! subcube dimension). Every inner dimension must be corrected before the second phase. Second hierarchical
//! phase ("upwards"): correct the outer dimensions where it has 1 and the destination 0, any order. Minimal
//! and memoryless (the phase follows from the current node and the destination).
//! (We first used the seed's second choice, each subcube hung from its inner-0 node; on complement traffic that
//! adds a second hot spot — every worm crosses the inner 1…1 node of some subcube — and Subcubes sustained
//! < 10 % of λmax on 2^10 nodes, so dimension order is the default.)
//!
//! One virtual channel per directed link (the seed's "2 virtual channels per bidirectional link"). Acyclic
//! CDG: along a dependency the outer weight of the channel's source never decreases in the first phase and
//! strictly increases after an outer channel; with equal weight, only inner channels of one subcube remain, in
//! strictly increasing dimension order; second-phase channels strictly decrease the outer weight and are never
//! followed by first-phase channels. Checked in the tests.
//!
//! **Choice of k and subcube dimensions** (the seed leaves it open): by default k = n − 2 and the subcube
//! dimensions are the low ones, 0 … n−3 (on 2^10 nodes: 4 subcubes of 256 nodes, outer dimensions 8 and 9).
//! Rationale (measured on 2^10 nodes, worms of 10 flits, see docs/wormhole.md): every complement worm crosses
//! the bottom subcube, so small k starves complement (k = 5, dims 0–4: saturates at ≈ 9 % of λmax; k = 6:
//! ≈ 17 %), while k = 7…8 sustains ≥ 25 % on complement and ≥ 30 % on random; transpose then saturates at
//! ≈ 15–22 % of λmax for every k = 7, 8 mask we tried. With k = 0 Subcubes is Hanging. Any other choice can be
//! given on the command line as `subcubes:<hex mask of subcube dimensions>`.

use crate::wormhole::router::Candidates;

/// Default subcube dimensions: the low n − 2 ones (at least one).
pub fn default_inner(n: u32) -> u32 {
    let k = n.saturating_sub(2).max(1);
    (1u32 << k) - 1
}

/// Pushes the choices at node `x` for destination `d` (`x != d`) with subcube dimensions `inner` (a mask):
/// while an outer 0→1 correction or an inner difference remains, every outer 0→1 correction and the lowest
/// differing inner dimension; then every outer 1→0 correction. VC 0.
#[inline]
pub fn route(inner: u32, x: u32, d: u32, c: &mut Candidates) {
    let up = !x & d;
    let down = x & !d;
    let out_up = up & !inner;
    let in_up = up & inner;
    let in_down = down & inner;
    let in_diff = in_up | in_down;
    if out_up != 0 || in_diff != 0 {
        c.push_mask(out_up, 0, 0, 0);
        if in_diff != 0 {
            // inside the subcube: dimension order (lowest differing subcube dimension)
            c.push(in_diff.trailing_zeros(), 0, 0, 0);
        }
    } else {
        c.push_mask(down & !inner, 0, 0, 0);
    }
}

//! Hanging (Birk, Gibbons, Soroker, Sanz 1989; Konstantinidou 1990 — cited by the seed as [2, 3]; neither
//! text was available to us). Definition used here, taken from the seed's own description in section 2 (the
//! k = 0 case of Subcubes: "the two phase algorithm ... known to generate severe congestion at node 1...1 (if
//! the network is hung from node 0...0)"): the cube is hung from node 0…0; a worm first corrects, in any order
//! (adaptively), every dimension where its current node has 0 and the destination 1 (moving "down", away from
//! 0…0), then, in any order, every dimension where it has 1 and the destination 0 (moving back "up").
//! Minimal, partially adaptive, one virtual channel per directed link: 0→1 channels only depend on 0→1 channels
//! of strictly larger weight or on 1→0 channels, and 1→0 channels only on 1→0 channels of smaller weight, so the
//! channel dependency graph is acyclic. (This is also the p-cube routing of Glass & Ni's turn model, mirrored.)

use crate::wormhole::router::Candidates;

/// Pushes the choices at node `x` for destination `d` (`x != d`): every 0→1 correction while any remains,
/// else every 1→0 correction; VC 0.
#[inline]
pub fn route(x: u32, d: u32, c: &mut Candidates) {
    let up = !x & d;
    if up != 0 {
        c.push_mask(up, 0, 0, 0);
    } else {
        c.push_mask(x & !d, 0, 0, 0);
    }
}

//! Zenith. The seed attributes it to Konstantinidou, "Adaptive, minimal routing in hypercubes" (6th MIT
//! Conference on Advanced Research in VLSI, 1990) but does not define it, and we could not find that paper's
//! text nor a secondary description (searches listed in docs/wormhole.md). **The rule below is our own
//! reconstruction, not taken from a source**: it removes Hanging's single zenith of congestion (node 1…1 when
//! hung from 0…0) by offering two hung virtual networks.
//!
//! Two virtual channels per directed link. VC 0 is the cube hung from 0…0 (Hanging: 0→1 corrections first, any
//! order, then 1→0, any order); VC 1 is the cube hung from 1…1 (1→0 corrections first, then 0→1). At injection
//! (state 0) the head may take any first hop of either network (the router picks a free one); the chosen
//! network is recorded in the worm's state (1 = VC 0, 2 = VC 1) and kept to the destination. Each virtual
//! network has an acyclic channel dependency graph and there is no dependency between them, so the whole CDG is
//! acyclic.

use crate::wormhole::router::Candidates;

#[inline]
fn hung(x: u32, d: u32, first: u32, second: u32, vc: u32, st: u32, c: &mut Candidates) {
    let _ = (x, d);
    if first != 0 {
        c.push_mask(first, vc, 0, st);
    } else {
        c.push_mask(second, vc, 0, st);
    }
}

/// Pushes the choices at node `x` for destination `d` (`x != d`) given the worm's `state` (0 at injection,
/// 1 = hung from 0…0 on VC 0, 2 = hung from 1…1 on VC 1): the hops of the chosen network, or of both at
/// injection, each with the state recording its network.
#[inline]
pub fn route(x: u32, d: u32, state: u32, c: &mut Candidates) {
    let up = !x & d;
    let down = x & !d;
    if state != 2 {
        hung(x, d, up, down, 0, 1, c);
    }
    if state != 1 {
        hung(x, d, down, up, 1, 2, c);
    }
}

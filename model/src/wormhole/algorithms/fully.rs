//! Fully: minimal fully adaptive routing with an escape channel. The seed cites Gravano, Pifarré, Felperin &
//! Sanz, "Adaptive deadlock-free worm-hole routing with all minimal paths" (IBM Argentina TR 91-21, 1991, not
//! available to us) and Duato (IEEE SPDP 1991); we follow Duato's construction as published in J. Duato, "A New
//! Theory of Deadlock-Free Adaptive Routing in Wormhole Networks", IEEE TPDS 4(12):1320–1331, 1993 (abstract
//! found; the construction — an adaptive channel class plus a deadlock-free escape class whose extended
//! dependency graph is acyclic — is that paper's standard example for hypercubes).
//!
//! Two virtual channels per directed link (the seed's "four virtual channels per physical link", counted per
//! bidirectional link). VC 1 is adaptive: any dimension where `x ^ d` is 1 (tier 0, preferred). VC 0 is the
//! escape channel: E-cube, the lowest such dimension (tier 1, used only when no adaptive VC is free). A worm may
//! return from the escape to the adaptive class at the next hop. Every shortest path is allowed. The plain CDG
//! has cycles (in the adaptive class); deadlock freedom is checked with Duato's extended CDG of the escape
//! sub-network ([`crate::wormhole::cdg::check_escape`]).

use crate::wormhole::router::Candidates;

/// The escape virtual channel.
pub const ESCAPE_VC: u32 = 0;
/// The adaptive virtual channel.
pub const ADAPTIVE_VC: u32 = 1;

/// Pushes the choices at node `x` for destination `d` (`x != d`): every differing dimension on the adaptive
/// VC (tier 0), then the lowest differing dimension on the escape VC (tier 1).
#[inline]
pub fn route(x: u32, d: u32, c: &mut Candidates) {
    let diff = x ^ d;
    c.push_mask(diff, ADAPTIVE_VC, 0, 0);
    c.push(diff.trailing_zeros(), ESCAPE_VC, 1, 0);
}

//! The router (node) model, identical for every algorithm so that the comparison is fair (seed 004, section 3:
//! "A simple node model was designed and adapted for all the algorithms").
//!
//! **Topology.** Node `x` of the n-cube has one outgoing physical link per dimension `d` to `x ^ (1 << d)`.
//! Directed link id = `x * n + d`. Each directed link carries `V` virtual channels (VCs); `V` is the number the
//! algorithm needs (1, 2 or 4, see [`crate::wormhole::Algorithm::vcs`]). VC id = `link * V + v`. The flit buffer
//! of a VC sits at the receiving end of the link (an input buffer of the downstream router).
//!
//! **Per-node resources.** One injection channel (the source queue feeds one worm at a time into the router,
//! at most one flit per cycle) and one ejection channel (at most one flit per cycle delivered to the processor,
//! shared round-robin among the input VCs whose worm ends here).
//!
//! **Wormhole switching.** A worm is `b` flits; flit 0 is the head, flit `b-1` the tail. When a head reaches the
//! front of an input VC buffer it is routed: the algorithm lists candidate output VCs; the router reserves one
//! that is free (not owned by any worm), chosen uniformly at random among the free candidates of the best
//! priority tier (Fully prefers its adaptive VC and uses the escape VC only when no adaptive one is free).
//! The reservation holds until the worm's tail leaves that VC's buffer downstream; then the VC is free again.
//! A VC buffer therefore only ever holds flits of one worm.
//!
//! **Arbitration.** Heads waiting for a VC are served in a random order each cycle (a fresh shuffle), so no
//! port has a fixed priority. Each physical link moves at most one flit per cycle; among its VCs that have a flit
//! ready upstream and a free slot downstream, the link serves them in rotating (round-robin) order starting after
//! the VC it served last. Ejection is round-robin in the same way.
//!
//! **Timing (two-phase).** Each cycle: (1) start new worms from source queues, (2) route heads (VC allocation),
//! (3) compute every flit move (link traversals and ejections) from the state at the start of the move phase,
//! using start-of-phase buffer occupancy as credits, (4) commit all moves. So the visiting order never decides
//! who moves. A flit advances at most one hop per cycle. Zero-load latency of a worm over `h` hops is
//! `h + b` cycles (one cycle per hop for the head, plus one per flit to drain through the ejection port), plus
//! waiting in the source queue. Buffer depth `B` flits per VC (default 2; with `B = 1` a single worm can only
//! move every other cycle because credits are those of the start of the cycle).

/// Sentinel: no worm / no VC.
pub const NONE: u32 = u32::MAX;
/// Sentinel output of an input VC whose worm has reached its destination.
pub const EJECT: u32 = u32::MAX - 1;

/// One routing choice: leave through dimension `dim` on virtual channel `vc`; the worm's routing state becomes
/// `state`. Lower `tier` is preferred when free.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cand {
    /// Dimension of the output link.
    pub dim: u8,
    /// Virtual channel on that link (0-based).
    pub vc: u8,
    /// Preference tier: a free candidate of the lowest tier is taken.
    pub tier: u8,
    /// The worm's routing state after taking this hop.
    pub state: u32,
}

/// A fixed-capacity list of candidates (no allocation in the hot loop).
#[derive(Debug, Clone)]
pub struct Candidates {
    items: [Cand; 64],
    len: usize,
}

impl Default for Candidates {
    fn default() -> Self {
        Candidates {
            items: [Cand::default(); 64],
            len: 0,
        }
    }
}

impl Candidates {
    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Appends one candidate; beyond 64 candidates it is dropped (a debug build asserts).
    #[inline]
    pub fn push(&mut self, dim: u32, vc: u32, tier: u8, state: u32) {
        debug_assert!(self.len < 64);
        if self.len < 64 {
            self.items[self.len] = Cand {
                dim: dim as u8,
                vc: vc as u8,
                tier,
                state,
            };
            self.len += 1;
        }
    }
    /// Every dimension set in `mask`, on `vc`.
    #[inline]
    pub fn push_mask(&mut self, mut mask: u32, vc: u32, tier: u8, state: u32) {
        while mask != 0 {
            let d = mask.trailing_zeros();
            self.push(d, vc, tier, state);
            mask &= mask - 1;
        }
    }
    /// The candidates pushed so far.
    pub fn as_slice(&self) -> &[Cand] {
        &self.items[..self.len]
    }
    /// Number of candidates.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether no candidate was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Directed link id of dimension `d` leaving node `x`.
#[inline]
pub fn link_id(n: u32, x: u32, d: u32) -> u32 {
    x * n + d
}

/// VC id of virtual channel `v` of dimension `d` leaving `x`.
#[inline]
pub fn vc_id(n: u32, vcs: u32, x: u32, d: u32, v: u32) -> u32 {
    (x * n + d) * vcs + v
}

/// (source node, dimension, virtual channel) of a VC id.
#[inline]
pub fn vc_parts(n: u32, vcs: u32, id: u32) -> (u32, u32, u32) {
    let link = id / vcs;
    (link / n, link % n, id % vcs)
}

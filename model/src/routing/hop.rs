//! What a switch does with the packet at the head of an input buffer: the per-hop half of a routing scheme.
//!
//! Every [`super::Routing`] scheme supplies a [`HopRule`] ([`super::Routing::hop_rule`]). The engine asks it
//! twice: when a packet enters an input buffer ([`HopRule::enter`], given the packet's [`HopHeader`], not the
//! simulator's packet store: the packet's request row, checked by the engine against the switch's connected
//! outputs), and in each cycle for a switch with waiting packets
//! ([`HopRule::requests`]: the rows the allocator sees, given the outputs that can take a packet).
//!
//! - [`HeaderHop`] — source routing (the thesis): the request is the header's next hop set, and every
//!   available permitted output is offered to the allocator.
//! - [`PerHopRouting`](super::scheme::PerHopRouting) / [`PerHopRule`] — seed 003's per-hop policies (MP, Z², XY / E-cube): the switch
//!   holds, for every destination, the eligible outputs in priority order; a waiting packet requests the
//!   first of them that is available this cycle (the allocator settles conflicts between inputs; a loser
//!   waits for the next cycle). Switch-to-switch outputs can fail independently in each cycle with
//!   probability `fail` (seed 003's 1 − p).

use crate::rng::Rng;
use rand::Rng as _;
use std::fmt;

/// The packet at the head of an input buffer, as a switch sees it: its request row (0: no packet) and the
/// rule's key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Head {
    /// Request row: the outputs the packet may take (bit q = output q); 0 when no packet waits.
    pub req: u64,
    /// The key [`HopRule::enter`] returned for the packet (for [`PerHopRule`], its destination).
    pub key: u32,
    /// The packet's generation cycle (low 32 bits), kept only for an allocator that uses ages
    /// ([`crate::allocator::Allocator::uses_age`]); 0 otherwise.
    pub born: u32,
}

/// What a switch reads of a packet entering one of its input buffers: the header's next hop set and, for a
/// rule that routes by destination ([`HopRule::uses_destination`]), the destination processor.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HopHeader {
    /// The next hop set of the header (0 when the header is exhausted).
    pub first: u64,
    /// The destination processor; 0 unless the rule [`HopRule::uses_destination`].
    pub dst: u32,
}

/// The per-hop half of a routing scheme (see the module documentation).
pub trait HopRule: Send + Sync + fmt::Debug {
    /// A boxed copy of the rule with its state (each simulator run owns one).
    fn box_clone(&self) -> Box<dyn HopRule>;
    /// Called once at the start of every cycle, before any switch is evaluated.
    fn begin_cycle(&mut self) {}
    /// Whether [`HopRule::enter`] reads [`HopHeader::dst`] (the engine then looks it up for every entering
    /// packet; otherwise it is left 0).
    #[inline]
    fn uses_destination(&self) -> bool {
        false
    }
    /// A packet with header `h` enters an input buffer of engine switch `s`. Returns its request row (0: no
    /// hop left) and a key the engine keeps with it and hands back to [`HopRule::requests`].
    fn enter(&self, s: usize, h: HopHeader) -> (u64, u32);
    /// Switch `s` (global ports `base..base + r`): `heads[i]` = the packet at the head of input i (`req` = 0:
    /// none); `avail`: outputs that can take a packet this cycle. Writes the allocator's rows into `out`.
    fn requests(&self, s: usize, base: usize, heads: &[Head], avail: u64, out: &mut [u64]);
}

impl Clone for Box<dyn HopRule> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

/// Source routing: the header's next hop set is the request.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeaderHop;

impl HopRule for HeaderHop {
    fn box_clone(&self) -> Box<dyn HopRule> {
        Box::new(*self)
    }
    #[inline]
    fn enter(&self, _s: usize, h: HopHeader) -> (u64, u32) {
        (h.first, 0)
    }
    #[inline]
    fn requests(&self, _s: usize, _b: usize, heads: &[Head], avail: u64, out: &mut [u64]) {
        for (o, h) in out.iter_mut().zip(heads) {
            *o = h.req & avail;
        }
    }
}

/// A per-hop table: for every engine switch and destination processor, the eligible output ports, best
/// first; `links[q]` marks the global output ports that lead to another switch (those can fail).
#[derive(Debug, Clone)]
pub struct PerHop {
    /// `order[s][d]`: ports of engine switch `s` toward processor `d`, best first (empty: no route).
    pub order: Vec<Vec<Vec<u8>>>,
    /// Per global output port of the engine: leads to a switch.
    pub links: Vec<bool>,
    /// Probability that a switch-to-switch output is unavailable in a cycle (seed 003's 1 − p).
    pub fail: f64,
    /// Seed of the random stream that draws the output failures.
    pub seed: u64,
}

/// The per-hop rule of a [`PerHop`] table.
#[derive(Debug, Clone)]
pub struct PerHopRule {
    table: std::sync::Arc<PerHop>,
    rng: Rng,
    /// Global output ports unavailable this cycle.
    down: Vec<bool>,
}

impl PerHopRule {
    /// The rule for `table`, its failure stream seeded from `table.seed`, every output up.
    pub fn new(table: PerHop) -> Self {
        let down = vec![false; table.links.len()];
        PerHopRule {
            rng: crate::rng::stream(table.seed, 0x9e7),
            table: std::sync::Arc::new(table),
            down,
        }
    }
}

impl HopRule for PerHopRule {
    fn box_clone(&self) -> Box<dyn HopRule> {
        Box::new(self.clone())
    }

    fn begin_cycle(&mut self) {
        let fail = self.table.fail;
        if fail > 0.0 {
            for (d, &l) in self.down.iter_mut().zip(&self.table.links) {
                *d = l && self.rng.gen_bool(fail);
            }
        }
    }

    fn uses_destination(&self) -> bool {
        true
    }

    fn enter(&self, s: usize, h: HopHeader) -> (u64, u32) {
        let d = h.dst;
        let set = self.table.order[s][d as usize]
            .iter()
            .fold(0u64, |m, &q| m | 1 << q);
        (set, d)
    }

    fn requests(&self, s: usize, b: usize, heads: &[Head], avail: u64, out: &mut [u64]) {
        let mut up = avail;
        for (k, &d) in self.down[b..b + heads.len()].iter().enumerate() {
            if d {
                up &= !(1 << k);
            }
        }
        for (o, h) in out.iter_mut().zip(heads) {
            *o = if h.req == 0 {
                0
            } else {
                self.table.order[s][h.key as usize]
                    .iter()
                    .find(|&&q| up >> q & 1 == 1)
                    .map_or(0, |&q| 1 << q)
            };
        }
    }
}

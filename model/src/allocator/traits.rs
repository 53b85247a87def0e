//! The allocator trait ([`Allocator`]) and the engine's phase 1 as a loop generic over it ([`Phase1`]), in
//! one file because each names the other: the network engine ([`crate::network::engine`]) fills a
//! [`Phase1`] with its state each cycle and hands it to its allocator, whose [`Allocator::phase1`] runs
//! [`Phase1::run`] with itself, so the loop over the switches is compiled once per allocator with the
//! decision inlined. This file knows the routing's hop rule; the engine imports it, and no allocator imports
//! the engine.

use super::grant::NO_GRANT;
use crate::network::packet::NONE;
use crate::routing::hop::{Head, HopRule};
use std::fmt;

/// A switch allocator (see the documentation of [`crate::allocator`]).
pub trait Allocator: Send + Sync + fmt::Debug {
    /// The registry name.
    fn name(&self) -> &'static str;
    /// Bytes of state per switch of `radix` ports.
    fn state_len(&self, radix: usize) -> usize;
    /// Initial state of switch number `switch` (pointers at 0; random streams seeded from `seed` and the
    /// switch number).
    fn init(&self, switch: usize, seed: u64, state: &mut [u8]) {
        let _ = (switch, seed);
        state.fill(0);
    }
    /// One decision: `req.len()` = radix = `grant.len()`.
    fn allocate(&self, req: &[u64], state: &mut [u8], grant: &mut [u8]);
    /// Whether the decision depends on the age of each input's head packet: the engine then keeps every
    /// packet's generation cycle in its buffers and calls [`Allocator::allocate_aged`].
    #[inline]
    fn uses_age(&self) -> bool {
        false
    }
    /// One decision knowing each input's head packet (`heads[i].born`: its generation cycle, low 32 bits).
    #[inline]
    fn allocate_aged(
        &self,
        req: &[u64],
        heads: &[crate::routing::hop::Head],
        state: &mut [u8],
        grant: &mut [u8],
    ) {
        let _ = heads;
        self.allocate(req, state, grant);
    }
    /// Runs the engine's phase 1 with this allocator. Every implementation is the one line
    /// `p.run(self)`: the engine's loop over the switches is then compiled once per allocator, with
    /// [`Allocator::allocate`] inlined (one dynamic call per cycle instead of one per switch).
    fn phase1(&self, p: &mut Phase1<'_>);
}

/// An output port: its one-packet buffer, the channel's credits and where it leads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Out {
    /// Packed header of the buffered packet.
    pub(crate) hw: u128,
    /// Buffered packet, or NONE.
    pub(crate) slot: u32,
    /// Free slots downstream as known upstream (for an output feeding a processor: the sink's ready this
    /// cycle). May be −1 inside a commit when the credit delay is 0.
    pub(crate) credit: i32,
    /// The input port it feeds (< ports), a processor (`ports + p`), or nowhere (`ports + processors`):
    /// indexes `mv`.
    pub(crate) tgt: u32,
    /// Switch it belongs to.
    pub(crate) sw: u32,
}

/// The engine's phase 1, handed to the allocator ([`Allocator::phase1`]) so that the loop over the switches
/// is compiled with the allocator's decision inlined.
pub struct Phase1<'a> {
    pub(crate) order: &'a [u32],
    pub(crate) base: &'a [u32],
    pub(crate) radix: &'a [u8],
    pub(crate) occ: &'a [u32],
    pub(crate) aoff: &'a [u32],
    pub(crate) outs: &'a [Out],
    pub(crate) heads: &'a [Head],
    pub(crate) comb: bool,
    pub(crate) rule: &'a dyn HopRule,
    pub(crate) mv: &'a mut [u8],
    pub(crate) sends: &'a mut Vec<u32>,
    pub(crate) moves: &'a mut Vec<(u32, u32)>,
    pub(crate) rows: &'a mut [u64; 64],
    pub(crate) grants: &'a mut [u8; 64],
    pub(crate) astate: &'a mut [u8],
}

impl Phase1<'_> {
    /// Evaluates every switch holding a packet, downstream first, with allocator `a`.
    pub fn run<A: Allocator + ?Sized>(&mut self, a: &A) {
        for &s in self.order {
            let s = s as usize;
            if self.occ[s] != 0 {
                self.switch(a, s);
            }
        }
    }

    /// Phase 1 for switch `s`: which outputs send, what the rule requests, what the allocator grants.
    #[inline(always)]
    fn switch<A: Allocator + ?Sized>(&mut self, a: &A, s: usize) {
        let b = self.base[s] as usize;
        let r = self.radix[s] as usize;
        let mut avail = 0u64;
        for (k, o) in self.outs[b..b + r].iter().enumerate() {
            let full = o.slot != NONE;
            let rd = o.credit > 0 || (self.comb && self.mv[o.tgt as usize] != NO_GRANT);
            if full && rd {
                self.sends.push((b + k) as u32);
            }
            avail |= ((!full || rd) as u64) << k;
        }
        let heads = &self.heads[b..b + r];
        if heads.iter().all(|h| h.req == 0) {
            return;
        }
        let rows = &mut self.rows[..r];
        self.rule.requests(s, b, heads, avail, rows);
        if rows.iter().all(|&x| x == 0) {
            return;
        }
        let g = &mut self.grants[..r];
        let st = &mut self.astate[self.aoff[s] as usize..self.aoff[s + 1] as usize];
        if a.uses_age() {
            a.allocate_aged(rows, heads, st, g);
        } else {
            a.allocate(rows, st, g);
        }
        for (k, &x) in g.iter().enumerate() {
            if x != NO_GRANT {
                self.mv[b + k] = x;
                self.moves.push(((b + k) as u32, (b + x as usize) as u32));
            }
        }
    }
}

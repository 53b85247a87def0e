//! `age`: oldest-first allocation. The inputs are served in order of their head packet's generation cycle
//! (older first; equal ages from a rotating input pointer on), each taking the first output of its request
//! that no older input took, from a rotating output pointer on. The result is a maximal matching in which no
//! input loses an output to a younger one. Without ages ([`Allocator::allocate`], e.g. outside the engine)
//! every head counts as equally old. Per-switch state: the rotating pointer (1 byte), advanced by one
//! every decision that grants anything.
//!
//! Age-based arbitration is the usual remedy for the unfairness of round-robin arbiters on meshes
//! (through traffic against injection); it is a switch-allocation policy, not a change of the buffers.

use super::grant::{first_from, NO_GRANT};
use super::traits::{Allocator, Phase1};
use crate::routing::hop::Head;

/// The `age` allocator: oldest head packet first (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub struct Age;

impl Age {
    fn decide(req: &[u64], born: impl Fn(usize) -> u32, state: &mut [u8], grant: &mut [u8]) {
        let r = req.len();
        grant.fill(NO_GRANT);
        let p = state[0] as usize % r;
        // Requesting inputs, oldest first, ties in rotating order from p.
        let mut order: [u8; 64] = [0; 64];
        let mut k = 0;
        for j in 0..r {
            let i = (p + j) % r;
            if req[i] != 0 {
                order[k] = i as u8;
                k += 1;
            }
        }
        // Older first (a stable sort keeps the rotating order among equals). Generation cycles are kept
        // modulo 2^32: a is older than b when b − a, as a signed 32-bit difference, is positive (the
        // packets in one switch were born within 2^31 cycles of each other).
        order[..k]
            .sort_by(|&a, &b| 0.cmp(&(born(b as usize).wrapping_sub(born(a as usize)) as i32)));
        let mut used = 0u64;
        for &i in &order[..k] {
            let free = req[i as usize] & !used;
            if free != 0 {
                let q = first_from(free, p, r);
                grant[i as usize] = q as u8;
                used |= 1 << q;
            }
        }
        if used != 0 {
            state[0] = ((p + 1) % r) as u8;
        }
    }
}

impl Allocator for Age {
    fn name(&self) -> &'static str {
        "age"
    }
    fn state_len(&self, _radix: usize) -> usize {
        1
    }
    fn allocate(&self, req: &[u64], state: &mut [u8], grant: &mut [u8]) {
        Self::decide(req, |_| 0, state, grant);
    }
    fn uses_age(&self) -> bool {
        true
    }
    fn allocate_aged(&self, req: &[u64], heads: &[Head], state: &mut [u8], grant: &mut [u8]) {
        Self::decide(req, |i| heads[i].born, state, grant);
    }
    fn phase1(&self, p: &mut Phase1<'_>) {
        p.run(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(born: u32) -> Head {
        Head {
            req: 1,
            key: 0,
            born,
        }
    }

    #[test]
    fn the_oldest_head_wins_and_ties_rotate() {
        let a = Age;
        let mut st = [0u8; 1];
        let mut g = [NO_GRANT; 4];
        // Inputs 1, 2, 3 all want output 0; input 2's packet is the oldest.
        let req = [0, 1, 1, 1];
        a.allocate_aged(&req, &[head(9), head(7), head(3), head(5)], &mut st, &mut g);
        assert_eq!(g, [NO_GRANT, NO_GRANT, 0, NO_GRANT]);
        // Generation cycles wrap modulo 2^32: born 2^32 − 2 is older than born 1.
        let mut g2 = [NO_GRANT; 2];
        a.allocate_aged(&[1, 1], &[head(1), head(u32::MAX - 1)], &mut st, &mut g2);
        assert_eq!(g2, [NO_GRANT, 0]);
        // Equal ages: the rotating pointer decides, and it moves on after every grant.
        let mut st = [0u8; 1];
        let mut winners = Vec::new();
        for _ in 0..4 {
            a.allocate_aged(&[1, 1, 1, 1], &[head(4); 4], &mut st, &mut g);
            winners.push(g.iter().position(|&x| x == 0).unwrap());
        }
        assert_eq!(winners, [0, 1, 2, 3]);
        // An older input with two choices takes the first; a younger one gets the other.
        let mut st = [0u8; 1];
        let mut g = [NO_GRANT; 2];
        a.allocate_aged(&[0b11, 0b01], &[head(8), head(2)], &mut st, &mut g);
        assert_eq!(g, [1, 0]);
    }
}

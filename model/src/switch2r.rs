//! The registered-ready 2×2 ASR switch (`switch2r`), cycle-accurate, implementing `docs/switch2.md`
//! ("Registered-ready variant") exactly.
//!
//! Model twin of `hdl/src/switch2r.rs`. The thesis switch ([`crate::switch2::Switch2`]) with one change:
//! `in_ready` is a register, so `ready` no longer runs combinationally from a network's outputs back through
//! every stage. Each input holds two words, a head (the word that requests an output, as the thesis' input
//! buffer) and a skid buffer behind it; `in_ready[i]` = "the skid buffer of input i is empty", a register
//! value. A word offered while `in_ready` is set is always taken: into the head when the head is empty or
//! moves this cycle, else into the skid buffer, which then drops `in_ready` for the next cycle. When the head
//! moves, a waiting skid word becomes the head at the same edge. Arbitration, output buffers, the hop strip
//! and the round-robin pointers are the thesis switch's ([`arbitrate`]); an output is available when its
//! buffer is empty or `out_ready` (in a network: the downstream switch's registered `in_ready`).
//!
//! Ports (per cycle): inputs `in_valid[2]`, `in_data[2]`, `out_ready[2]`; outputs `in_ready[2]` (from
//! state only), `out_valid[2]`, `out_data[2]`. Latency: as the thesis switch, 1 edge from head to output
//! buffer, 2 edges per switch in a network (a word that finds the head empty goes straight into it).
//!
//! Two-phase use as [`crate::switch2::Switch2`]: [`Switch2R::eval`] computes the cycle's outputs and
//! decision without changing anything; [`Switch2R::commit`] applies them at the edge.

use crate::switch2::{arbitrate, Outputs, Pointers, Switch2Error};

/// The registered-ready 2×2 switch state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Switch2R {
    /// Head of input i: the word whose first hop requests an output.
    pub ib: [Option<u128>; 2],
    /// Skid buffer of input i: a word accepted while the head was full and did not move. Never full while
    /// the head is empty.
    pub sk: [Option<u128>; 2],
    /// Output buffer q: a packet word with its hop stripped (shifted right by 2), offered downstream.
    pub ob: [Option<u128>; 2],
    /// The round-robin tie-breaking state, as the thesis switch's.
    pub ptr: Pointers,
}

impl Switch2R {
    /// An empty switch: heads, skid and output buffers empty, both pointers 0 (the reset state).
    pub fn new() -> Self {
        Self::default()
    }

    /// The usable requests `A[i]` of the heads given `out_ready` (as the thesis switch).
    pub fn usable(&self, out_ready: [bool; 2]) -> Result<[u8; 2], Switch2Error> {
        let avail = (self.ob[0].is_none() || out_ready[0]) as u8
            | (((self.ob[1].is_none() || out_ready[1]) as u8) << 1);
        let mut a = [0u8; 2];
        for (i, (ai, ib)) in a.iter_mut().zip(self.ib).enumerate() {
            if let Some(w) = ib {
                let r = (w & 3) as u8;
                if r == 0 {
                    return Err(Switch2Error::EmptyRequest { input: i, word: w });
                }
                *ai = r & avail;
            }
        }
        Ok(a)
    }

    /// Phase 1: the outputs and the decision for this cycle. Changes nothing. `in_ready` does not depend on
    /// `out_ready`.
    pub fn eval(&self, out_ready: [bool; 2]) -> Result<Outputs, Switch2Error> {
        let decision = arbitrate(self.usable(out_ready)?, self.ptr);
        Ok(Outputs {
            in_ready: [self.sk[0].is_none(), self.sk[1].is_none()],
            out_valid: [self.ob[0].is_some(), self.ob[1].is_some()],
            out_data: [self.ob[0].unwrap_or(0), self.ob[1].unwrap_or(0)],
            decision,
        })
    }

    /// Phase 2: the rising edge. `o` must come from [`Switch2R::eval`] on this state with these `out_ready`.
    pub fn commit(
        &mut self,
        o: &Outputs,
        in_valid: [bool; 2],
        in_data: [u128; 2],
        out_ready: [bool; 2],
    ) {
        let mut ob = self.ob;
        for q in 0..2 {
            if ob[q].is_some() && out_ready[q] {
                ob[q] = None;
            }
        }
        for (i, mv) in o.decision.moves.iter().enumerate() {
            if let Some(q) = *mv {
                let w = self.ib[i].expect("decision moves an empty head");
                debug_assert!(
                    ob[q as usize].is_none(),
                    "move into an occupied output buffer"
                );
                ob[q as usize] = Some(w >> 2);
            }
        }
        for i in 0..2 {
            let accepted = (in_valid[i] && o.in_ready[i]).then_some(in_data[i]);
            if self.ib[i].is_none() || o.decision.moves[i].is_some() {
                // The head is free at this edge: the skid word (if any) moves up, else the accepted word
                // enters (a full skid buffer means in_ready was low, so nothing was accepted).
                debug_assert!(self.sk[i].is_none() || accepted.is_none());
                self.ib[i] = self.sk[i].take().or(accepted);
            } else if accepted.is_some() {
                debug_assert!(self.sk[i].is_none());
                self.sk[i] = accepted;
            }
        }
        self.ob = ob;
        self.ptr = o.decision.next;
    }

    /// One whole cycle: eval then commit. Returns what was driven during the cycle.
    pub fn step(
        &mut self,
        in_valid: [bool; 2],
        in_data: [u128; 2],
        out_ready: [bool; 2],
    ) -> Result<Outputs, Switch2Error> {
        let o = self.eval(out_ready)?;
        self.commit(&o, in_valid, in_data, out_ready);
        Ok(o)
    }

    /// Packets held (0..=6).
    pub fn occupancy(&self) -> usize {
        self.ib
            .iter()
            .chain(self.sk.iter())
            .chain(self.ob.iter())
            .filter(|b| b.is_some())
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switch2::Switch2;

    /// One input streaming words to output 1 with `out_ready` held high moves one word per cycle, exactly as
    /// the thesis switch, with `in_ready` high throughout.
    #[test]
    fn a_stream_flows_at_one_word_per_cycle() {
        let mut r = Switch2R::new();
        let mut t = Switch2::new();
        for n in 0..50u128 {
            let w = 0b10 | (n << 2);
            let a = r.step([true, false], [w, 0], [true; 2]).unwrap();
            let b = t.step([true, false], [w, 0], [true; 2]).unwrap();
            assert!(a.in_ready[0] && b.in_ready[0]);
            assert_eq!(a.out_valid, b.out_valid, "cycle {n}");
            assert_eq!(a.out_data, b.out_data, "cycle {n}");
            if n >= 2 {
                assert_eq!(a.out_data[1], n - 2);
            }
        }
    }

    /// A blocked output: the head waits, the next word goes into the skid buffer, `in_ready` drops one
    /// cycle later; when the output frees, head and skid leave on consecutive cycles and `in_ready` returns.
    #[test]
    fn skid_buffer_absorbs_the_word_in_flight() {
        let mut s = Switch2R::new();
        let w = |tag: u128| 0b01 | (tag << 2);
        // Fill output buffer 0 and the head; output 0 blocked.
        s.step([true, false], [w(1), 0], [false; 2]).unwrap(); // head ← 1
        s.step([true, false], [w(2), 0], [false; 2]).unwrap(); // 1 → ob0, head ← 2
        assert_eq!((s.ob[0], s.ib[0], s.sk[0]), (Some(1), Some(w(2)), None));
        let o = s.step([true, false], [w(3), 0], [false; 2]).unwrap(); // skid ← 3
        assert!(o.in_ready[0], "in_ready was still high this cycle");
        assert_eq!(s.sk[0], Some(w(3)));
        let o = s.eval([false; 2]).unwrap();
        assert!(!o.in_ready[0], "a full skid buffer drops in_ready");
        assert_eq!(s.occupancy(), 3);
        // Output 0 ready: 1 leaves, 2 moves, 3 becomes the head.
        s.step([true, false], [w(4), 0], [true, false]).unwrap();
        assert_eq!((s.ob[0], s.ib[0], s.sk[0]), (Some(2), Some(w(3)), None));
        let o = s.step([true, false], [w(4), 0], [true, false]).unwrap();
        assert!(o.in_ready[0]);
        assert_eq!((s.ob[0], s.ib[0], s.sk[0]), (Some(3), Some(w(4)), None));
    }

    #[test]
    fn malformed_head_is_an_error() {
        let s = Switch2R {
            ib: [None, Some(8)],
            ..Default::default()
        };
        assert!(matches!(
            s.eval([true; 2]),
            Err(Switch2Error::EmptyRequest { input: 1, .. })
        ));
    }
}

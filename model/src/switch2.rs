//! The 2×2 ASR switch (thesis ch. 3), cycle-accurate, implementing `docs/switch2.md` exactly.
//!
//! Model twin of `hdl/src/switch2.rs`. One-packet buffer at each input and output, a 2×2 crossbar, a
//! maximum matching each cycle with round-robin tie-breaking (`in_ptr`, `out_ptr`).
//!
//! Ports (per cycle): inputs `in_valid[2]`, `in_data[2]`, `out_ready[2]`; outputs `in_ready[2]`,
//! `out_valid[2]`, `out_data[2]`. `in_ready` depends combinationally on `out_ready`.
//! Latency: 1 edge from input buffer to output buffer; 2 edges per switch in a network.
//!
//! Two-phase use: [`Switch2::eval`] computes the cycle's decision from the state and `out_ready` without
//! changing anything; [`Switch2::commit`] applies it with the words offered at the inputs. The decision
//! function [`arbitrate`] is pure and is shared with the network simulator.

use thiserror::Error;

/// Malformed traffic detected by the switch model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Switch2Error {
    /// A word in an input buffer whose current hop (the word's two low bits) permits neither output.
    #[error("input {input}: packet word {word:#x} has an empty permitted-output set (header leads nowhere)")]
    EmptyRequest {
        /// The input port (0 or 1) holding the word.
        input: usize,
        /// The whole packet word, as held.
        word: u128,
    },
}

/// Round-robin state of a switch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pointers {
    /// The input (0 or 1) that wins when both inputs can only use the same single output; flips after each
    /// such conflict, so the loser wins next time.
    pub in_ptr: u8,
    /// The output (0 or 1) taken when the choice is free: the only input with usable requests may use both
    /// outputs, or both inputs may use both (input 0 takes it, input 1 the other); flips after each such choice.
    pub out_ptr: u8,
}

/// The arbitration result: `moves[i] = Some(q)` when input i moves to output q this cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Decision {
    /// Per input: the output its packet moves to at this edge, or `None` when it stays (or the buffer is empty).
    pub moves: [Option<u8>; 2],
    /// The round-robin pointers after this cycle's edge.
    pub next: Pointers,
}

/// The rule of `docs/switch2.md`: `req[i]` = usable requests `A[i]` (requests of full input buffers masked
/// with the available outputs), each in `0..=3`.
#[inline]
pub fn arbitrate(a: [u8; 2], p: Pointers) -> Decision {
    debug_assert!(a[0] <= 3 && a[1] <= 3);
    let mut d = Decision {
        moves: [None, None],
        next: p,
    };
    match (a[0], a[1]) {
        (0, 0) => {}
        (x, 0) | (0, x) => {
            let i = if a[0] != 0 { 0 } else { 1 };
            let q = if x == 3 {
                d.next.out_ptr = p.out_ptr ^ 1;
                p.out_ptr
            } else {
                x >> 1 // 1 → output 0, 2 → output 1
            };
            d.moves[i] = Some(q);
        }
        (3, 3) => {
            d.moves[0] = Some(p.out_ptr);
            d.moves[1] = Some(p.out_ptr ^ 1);
            d.next.out_ptr = p.out_ptr ^ 1;
        }
        (x, y) if x == y => {
            // Both can only use the one output x.
            let q = x >> 1;
            d.moves[p.in_ptr as usize] = Some(q);
            d.next.in_ptr = p.in_ptr ^ 1;
        }
        (x, y) => {
            // Exactly one perfect matching: the single-bit row takes its bit, the other row takes the other.
            if x == 3 {
                let q1 = y >> 1;
                d.moves[1] = Some(q1);
                d.moves[0] = Some(q1 ^ 1);
            } else {
                let q0 = x >> 1;
                d.moves[0] = Some(q0);
                d.moves[1] = Some(q0 ^ 1);
            }
        }
    }
    d
}

/// What the switch drives this cycle, and what it will do at the edge.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    /// Per input: a word offered there is taken at this edge.
    pub in_ready: [bool; 2],
    /// Per output: the output buffer holds a packet word, offered this cycle.
    pub out_valid: [bool; 2],
    /// Per output: the word offered (0 when the buffer is empty).
    pub out_data: [u128; 2],
    /// The arbitration of this cycle, applied at the edge.
    pub decision: Decision,
}

/// The 2×2 switch state: buffers and round-robin pointers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Switch2 {
    /// Input buffer i: the packet word whose two low bits (the current hop's permitted-output set) request
    /// outputs.
    pub ib: [Option<u128>; 2],
    /// Output buffer q: a packet word already shifted right by 2 (its hop stripped), offered downstream.
    pub ob: [Option<u128>; 2],
    /// The round-robin tie-breaking state.
    pub ptr: Pointers,
}

impl Switch2 {
    /// An empty switch: all buffers empty, both pointers 0 (the reset state).
    pub fn new() -> Self {
        Self::default()
    }

    /// The usable requests `A[i]` given `out_ready`.
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

    /// Phase 1: the combinational outputs and the decision for this cycle. Changes nothing.
    pub fn eval(&self, out_ready: [bool; 2]) -> Result<Outputs, Switch2Error> {
        let decision = arbitrate(self.usable(out_ready)?, self.ptr);
        Ok(Outputs {
            in_ready: [
                self.ib[0].is_none() || decision.moves[0].is_some(),
                self.ib[1].is_none() || decision.moves[1].is_some(),
            ],
            out_valid: [self.ob[0].is_some(), self.ob[1].is_some()],
            out_data: [self.ob[0].unwrap_or(0), self.ob[1].unwrap_or(0)],
            decision,
        })
    }

    /// Phase 2: the rising edge. `o` must come from [`Switch2::eval`] on this state with these `out_ready`.
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
        let mut ib = self.ib;
        for (ibi, mv) in ib.iter_mut().zip(o.decision.moves) {
            if let Some(q) = mv {
                let w = ibi.take().expect("decision moves an empty input buffer");
                debug_assert!(
                    ob[q as usize].is_none(),
                    "move into an occupied output buffer"
                );
                ob[q as usize] = Some(w >> 2);
            }
        }
        for i in 0..2 {
            if in_valid[i] && o.in_ready[i] {
                debug_assert!(ib[i].is_none());
                ib[i] = Some(in_data[i]);
            }
        }
        self.ib = ib;
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

    /// Packets held (0..=4).
    pub fn occupancy(&self) -> usize {
        self.ib
            .iter()
            .chain(self.ob.iter())
            .filter(|b| b.is_some())
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::max_matching_size;

    #[test]
    fn arbitration_is_a_maximum_matching() {
        for a0 in 0..4u8 {
            for a1 in 0..4u8 {
                for ip in 0..2 {
                    for op in 0..2 {
                        let d = arbitrate(
                            [a0, a1],
                            Pointers {
                                in_ptr: ip,
                                out_ptr: op,
                            },
                        );
                        let mut used = 0u8;
                        for (i, m) in d.moves.iter().enumerate() {
                            if let Some(q) = *m {
                                assert!([a0, a1][i] >> q & 1 == 1, "move not permitted");
                                assert!(used >> q & 1 == 0, "output used twice");
                                used |= 1 << q;
                            }
                        }
                        let size = d.moves.iter().filter(|m| m.is_some()).count();
                        assert_eq!(
                            size,
                            max_matching_size(&[a0 as u64, a1 as u64]),
                            "a={a0:02b},{a1:02b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn figure_3_2_round_robin() {
        let p = Pointers::default();
        // (d)/(e): both want output 1: winners alternate.
        let d1 = arbitrate([2, 2], p);
        assert_eq!(d1.moves, [Some(1), None]);
        let d2 = arbitrate([2, 2], d1.next);
        assert_eq!(d2.moves, [None, Some(1)]);
        // (a)/(b): a lone packet with both outputs free alternates outputs.
        let d3 = arbitrate([3, 0], p);
        let d4 = arbitrate([3, 0], d3.next);
        assert_eq!((d3.moves[0], d4.moves[0]), (Some(0), Some(1)));
        // (c): all ones: both move, assignment alternates.
        let d5 = arbitrate([3, 3], p);
        assert_eq!(d5.moves, [Some(0), Some(1)]);
        assert_eq!(arbitrate([3, 3], d5.next).moves, [Some(1), Some(0)]);
    }

    #[test]
    fn buffer_refilled_in_the_cycle_it_empties() {
        let mut s = Switch2::new();
        // Word: hop 0 = output 1, tag 5 above.
        let w = 0b10 | (5 << 2);
        s.step([true, false], [w, 0], [true, true]).unwrap();
        assert_eq!(s.ib[0], Some(w));
        // Next cycle the packet moves and a new one is accepted in the same cycle.
        let o = s.step([true, false], [w, 0], [true, true]).unwrap();
        assert!(o.in_ready[0]);
        assert_eq!(s.ob[1], Some(5));
        assert_eq!(s.ib[0], Some(w));
        // Output blocked: the next packet cannot move, input not ready.
        let o = s.eval([true, false]).unwrap();
        assert!(!o.in_ready[0]);
        assert!(o.out_valid[1]);
        assert_eq!(o.out_data[1], 5);
        assert!(matches!(
            Switch2 {
                ib: [Some(4), None],
                ..Default::default()
            }
            .eval([true; 2]),
            Err(Switch2Error::EmptyRequest { input: 0, .. })
        ));
    }
}

//! The Beneš N×N network of 2×2 ASR switches (thesis §3.2), port-level and cycle-accurate.
//!
//! Model twin of `hdl/src/benes.rs` (exported as `benes{N}`). N = 2^n, 2n−1 stages of N/2 [`Switch2`]s,
//! wired recursively as docs/contracts.md fixes: first-stage switch i sends output 0 to input i of the upper
//! half-size Beneš and output 1 to input i of the lower one; last-stage switch i takes input 0 from output i
//! of the upper half and input 1 from output i of the lower half and drives network outputs 2i, 2i+1; network
//! inputs 2i, 2i+1 enter first-stage switch i. Input i of a half-size network is its first-stage switch i/2,
//! port i%2; its output i is its last-stage switch i/2, port i%2.
//!
//! Ports: `in_valid[N]`, `in_data[N]`, `out_ready[N]` in; `in_ready[N]`, `out_valid[N]`, `out_data[N]` out;
//! packet words of W = 2(2n−1) + 16 bits (`header | tag << 2(2n−1)`). Minimum latency: 2(2n−1) edges from
//! acceptance at an input to delivery at an output (see docs/switch2.md).
//!
//! Each cycle is two-phase: every switch is evaluated (from the last stage back, since `ready` flows
//! upstream), then every switch commits; visiting order within a phase does not matter.
//!
//! The network is generic in its switch ([`BenesSwitch`]): [`Benes`] (the default) is built of the thesis'
//! [`Switch2`], [`BenesR`] of the registered-ready [`Switch2R`] (model twin of `hdl/src/benes.rs`'s
//! `BenesR`, exported as `benes8r`, `benes16r`; same wiring, ports, word and minimum latency; docs/switch2.md).

use crate::header::{Header, HeaderError};
use crate::switch2::{Outputs, Switch2, Switch2Error};
use crate::switch2r::Switch2R;

/// Tag bits of the Beneš packet word (docs/contracts.md).
pub const TAG_BITS: usize = 16;

/// Where an output of a switch goes: (stage, switch, input port) of the next stage.
pub type Hop = (usize, usize, u8);

/// The wiring of a Beneš N×N: `next[s][i][q]` = the input that output q of switch (s, i) feeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenesWiring {
    /// log2 of the port count: the network is 2^n × 2^n with 2n−1 stages.
    pub n: usize,
    /// `next[s][i][q]`: the (stage, switch, input port) that output q of switch i in stage s feeds. One entry
    /// per stage but the last (whose outputs are the network's outputs 2i, 2i+1).
    pub next: Vec<Vec<[Hop; 2]>>,
}

impl BenesWiring {
    /// The wiring of a Beneš with `ports` = 2^n inputs, n ≥ 1.
    pub fn new(ports: usize) -> Result<Self, String> {
        if ports < 2 || !ports.is_power_of_two() {
            return Err(format!("Beneš size {ports} is not a power of two ≥ 2"));
        }
        let n = ports.trailing_zeros() as usize;
        let stages = 2 * n - 1;
        let mut next = vec![vec![[(0, 0, 0); 2]; ports / 2]; stages - 1];
        fn build(next: &mut [Vec<[Hop; 2]>], size: usize, s0: usize, base: usize) {
            if size == 2 {
                return;
            }
            let last = s0 + 2 * size.trailing_zeros() as usize - 2;
            let quarter = size / 4;
            for i in 0..size / 2 {
                next[s0][base + i][0] = (s0 + 1, base + i / 2, (i % 2) as u8);
                next[s0][base + i][1] = (s0 + 1, base + quarter + i / 2, (i % 2) as u8);
                next[last - 1][base + i / 2][i % 2] = (last, base + i, 0);
                next[last - 1][base + quarter + i / 2][i % 2] = (last, base + i, 1);
            }
            build(next, size / 2, s0 + 1, base);
            build(next, size / 2, s0 + 1, base + quarter);
        }
        build(&mut next, ports, 0, 0);
        Ok(BenesWiring { n, next })
    }
    /// The number of network inputs, equal to the number of outputs: N = 2^n.
    pub fn ports(&self) -> usize {
        1 << self.n
    }
    /// Switch stages: 2n−1, each of N/2 switches.
    pub fn stages(&self) -> usize {
        2 * self.n - 1
    }
    /// Packet word width W = 2(2n−1) + 16.
    pub fn word_bits(&self) -> usize {
        2 * self.stages() + TAG_BITS
    }
    /// Follows a header of one port per stage from network input `input`; returns the network output reached.
    pub fn follow(&self, input: usize, ports: &[u8]) -> usize {
        assert_eq!(ports.len(), self.stages());
        let mut sw = input / 2;
        for (s, &q) in ports.iter().enumerate() {
            if s + 1 == self.stages() {
                return 2 * sw + q as usize;
            }
            sw = self.next[s][sw][q as usize].1;
        }
        unreachable!()
    }
}

/// The ASR header for a Beneš (thesis §3.4.2): all-ones in the first n−1 stages, then destination tag.
pub fn asr_header(n: usize, dest: usize) -> Result<Header, HeaderError> {
    let mut hops = vec![0b11u64; n - 1];
    hops.extend((0..n).rev().map(|b| 1u64 << ((dest >> b) & 1)));
    Header::new(2, hops)
}

/// A 2×2 switch of a Beneš network: the two-phase cycle of [`Switch2`] and [`Switch2R`].
pub trait BenesSwitch: Clone + Default + std::fmt::Debug + Send {
    /// Phase 1: outputs and decision for this cycle given `out_ready`; changes nothing.
    fn eval(&self, out_ready: [bool; 2]) -> Result<Outputs, Switch2Error>;
    /// Phase 2: the edge, with the words offered at the inputs.
    fn commit(
        &mut self,
        o: &Outputs,
        in_valid: [bool; 2],
        in_data: [u128; 2],
        out_ready: [bool; 2],
    );
    /// Packets held.
    fn occupancy(&self) -> usize;
    /// Words waiting in skid buffers (0 for the thesis switch, which has none).
    fn skid(&self) -> usize {
        0
    }
}

impl BenesSwitch for Switch2 {
    fn eval(&self, out_ready: [bool; 2]) -> Result<Outputs, Switch2Error> {
        Switch2::eval(self, out_ready)
    }
    fn commit(
        &mut self,
        o: &Outputs,
        in_valid: [bool; 2],
        in_data: [u128; 2],
        out_ready: [bool; 2],
    ) {
        Switch2::commit(self, o, in_valid, in_data, out_ready)
    }
    fn occupancy(&self) -> usize {
        Switch2::occupancy(self)
    }
}

impl BenesSwitch for Switch2R {
    fn eval(&self, out_ready: [bool; 2]) -> Result<Outputs, Switch2Error> {
        Switch2R::eval(self, out_ready)
    }
    fn commit(
        &mut self,
        o: &Outputs,
        in_valid: [bool; 2],
        in_data: [u128; 2],
        out_ready: [bool; 2],
    ) {
        Switch2R::commit(self, o, in_valid, in_data, out_ready)
    }
    fn occupancy(&self) -> usize {
        Switch2R::occupancy(self)
    }
    fn skid(&self) -> usize {
        self.sk.iter().filter(|w| w.is_some()).count()
    }
}

/// Beneš network state: one switch per (stage, index); by default the thesis' [`Switch2`].
#[derive(Debug, Clone)]
pub struct Benes<S = Switch2> {
    /// The inter-stage wiring, fixed at construction.
    pub wiring: BenesWiring,
    /// The switches: `sw[s][i]` is switch i of stage s (N/2 per stage, 2n−1 stages).
    pub sw: Vec<Vec<S>>,
    /// Switch (s, i) is entry `s * N/2 + i` of these tables. `down[k][q]`: the switch and input port that
    /// output q of switch k feeds (not for the last stage); `up[k][r]`: the switch and output port that feed
    /// input r of switch k (not for the first stage). From `wiring`.
    down: Vec<[(u32, u8); 2]>,
    up: Vec<[(u32, u8); 2]>,
    /// Scratch: every switch's outputs and downstream `ready` of the current cycle.
    outs: Vec<Outputs>,
    ready: Vec<[bool; 2]>,
}

/// What the network drives in one cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenesOutputs {
    /// Per network input: the first-stage switch accepts a word there at this edge.
    pub in_ready: Vec<bool>,
    /// Per network output: a packet word is offered there this cycle.
    pub out_valid: Vec<bool>,
    /// Per network output: the word offered (meaningful only where `out_valid`).
    pub out_data: Vec<u128>,
}

/// A Beneš network of registered-ready switches ([`Switch2R`]): build with [`Benes::with_switches`].
pub type BenesR = Benes<Switch2R>;

impl Benes {
    /// A Beneš of thesis switches with `ports` = 2^n inputs.
    pub fn new(ports: usize) -> Result<Self, String> {
        Self::with_switches(ports)
    }
}

impl<S: BenesSwitch> Benes<S> {
    /// A Beneš of switches `S` with `ports` = 2^n inputs (`BenesR::with_switches(8)`).
    pub fn with_switches(ports: usize) -> Result<Self, String> {
        let wiring = BenesWiring::new(ports)?;
        if wiring.word_bits() > 128 {
            return Err(format!(
                "Beneš {ports}: packet word of {} bits exceeds 128",
                wiring.word_bits()
            ));
        }
        let sw = vec![vec![S::default(); ports / 2]; wiring.stages()];
        let half = ports / 2;
        let count = wiring.stages() * half;
        let mut down = vec![[(0u32, 0u8); 2]; count];
        let mut up = vec![[(0u32, 0u8); 2]; count];
        for (s, next) in wiring.next.iter().enumerate() {
            for (i, hops) in next.iter().enumerate() {
                for (q, &(s2, j, r)) in hops.iter().enumerate() {
                    let (from, to) = (s * half + i, s2 * half + j);
                    down[from][q] = (to as u32, r);
                    up[to][r as usize] = (from as u32, q as u8);
                }
            }
        }
        Ok(Benes {
            wiring,
            sw,
            down,
            up,
            outs: Vec::new(),
            ready: Vec::new(),
        })
    }

    /// Evaluates every switch into `outs`, last stage first so each sees its downstream `ready` (the
    /// network's `out_ready` for the last stage, else the `in_ready` of the inputs its outputs feed), which
    /// it records in `ready`. Switch (s, i) is entry `s * N/2 + i`.
    fn eval_all(
        &self,
        out_ready: &[bool],
        outs: &mut [Outputs],
        ready: &mut [[bool; 2]],
    ) -> Result<(), Switch2Error> {
        let half = self.wiring.ports() / 2;
        let last = (self.wiring.stages() - 1) * half;
        for k in (0..outs.len()).rev() {
            let r = if k >= last {
                let i = k - last;
                [out_ready[2 * i], out_ready[2 * i + 1]]
            } else {
                let [(a, p), (b, q)] = self.down[k];
                [
                    outs[a as usize].in_ready[p as usize],
                    outs[b as usize].in_ready[q as usize],
                ]
            };
            ready[k] = r;
            outs[k] = self.sw[k / half][k % half].eval(r)?;
        }
        Ok(())
    }

    /// One clock cycle. Returns what the network drove during the cycle (before the edge).
    pub fn step(
        &mut self,
        in_valid: &[bool],
        in_data: &[u128],
        out_ready: &[bool],
    ) -> Result<BenesOutputs, Switch2Error> {
        let mut o = BenesOutputs {
            in_ready: Vec::new(),
            out_valid: Vec::new(),
            out_data: Vec::new(),
        };
        self.step_into(in_valid, in_data, out_ready, &mut o)?;
        Ok(o)
    }

    /// [`Benes::step`] writing into `result` (its vectors are reused): no allocation per cycle.
    pub fn step_into(
        &mut self,
        in_valid: &[bool],
        in_data: &[u128],
        out_ready: &[bool],
        result: &mut BenesOutputs,
    ) -> Result<(), Switch2Error> {
        let n = self.wiring.ports();
        assert!(in_valid.len() == n && in_data.len() == n && out_ready.len() == n);
        let half = n / 2;
        let count = self.wiring.stages() * half;
        let mut outs = std::mem::take(&mut self.outs);
        let mut ready = std::mem::take(&mut self.ready);
        outs.resize(count, Outputs::default());
        ready.resize(count, [false; 2]);
        self.eval_all(out_ready, &mut outs, &mut ready)?;
        result.in_ready.clear();
        result
            .in_ready
            .extend((0..n).map(|p| outs[p / 2].in_ready[p % 2]));
        let last = &outs[count - half..];
        result.out_valid.clear();
        result
            .out_valid
            .extend((0..n).map(|p| last[p / 2].out_valid[p % 2]));
        result.out_data.clear();
        result
            .out_data
            .extend((0..n).map(|p| last[p / 2].out_data[p % 2]));
        // Each switch's inputs are its upstream switches' output buffers (pre-edge values, in `outs`), or the
        // network's inputs for the first stage.
        for k in 0..count {
            let (v, d) = if k < half {
                (
                    [in_valid[2 * k], in_valid[2 * k + 1]],
                    [in_data[2 * k], in_data[2 * k + 1]],
                )
            } else {
                let [(a, p), (b, q)] = self.up[k];
                let (x, y) = (&outs[a as usize], &outs[b as usize]);
                (
                    [x.out_valid[p as usize], y.out_valid[q as usize]],
                    [x.out_data[p as usize], y.out_data[q as usize]],
                )
            };
            self.sw[k / half][k % half].commit(&outs[k], v, d, ready[k]);
        }
        self.outs = outs;
        self.ready = ready;
        Ok(())
    }

    /// Packets held in all buffers.
    pub fn occupancy(&self) -> usize {
        self.sw.iter().flatten().map(|s| s.occupancy()).sum()
    }

    /// Packets held in skid buffers (registered-ready switches only).
    pub fn skid(&self) -> usize {
        self.sw.iter().flatten().map(|s| s.skid()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destination_tag_from_every_middle_input() {
        // docs/contracts.md / thesis: from any middle-stage input, destination d is reached by ports b(n-1)..b(0).
        for n in 1..=6usize {
            let w = BenesWiring::new(1 << n).unwrap();
            for input in 0..(1 << n) {
                for up in 0..(1usize << (n - 1)) {
                    for d in 0..(1usize << n) {
                        let mut ports: Vec<u8> =
                            (0..n - 1).map(|b| ((up >> b) & 1) as u8).collect();
                        ports.extend((0..n).rev().map(|b| ((d >> b) & 1) as u8));
                        assert_eq!(w.follow(input, &ports), d, "n={n} in={input} up={up}");
                    }
                }
            }
        }
    }

    #[test]
    fn thesis_output_6_example() {
        let h = asr_header(3, 6).unwrap();
        assert_eq!(h.hops(), &[0b11, 0b11, 0b10, 0b10, 0b01]); // ports 1, 1, 0 after the middle stage
        assert_eq!(h.npath(), 4); // N/2 paths
    }

    #[test]
    fn every_permutation_of_wiring_is_a_bijection() {
        for n in 2..=7usize {
            let w = BenesWiring::new(1 << n).unwrap();
            for s in 0..w.stages() - 1 {
                let mut seen = std::collections::HashSet::new();
                for i in 0..w.ports() / 2 {
                    for q in 0..2 {
                        assert!(seen.insert(w.next[s][i][q]));
                    }
                }
            }
        }
    }

    #[test]
    fn one_packet_crosses_in_2s_edges() {
        let mut b = Benes::new(8).unwrap();
        let word = asr_header(3, 6)
            .unwrap()
            .to_u128(2, 0xabcd, TAG_BITS)
            .unwrap();
        let mut valid = vec![false; 8];
        valid[1] = true;
        let mut data = vec![0u128; 8];
        data[1] = word;
        let ready = vec![true; 8];
        let o = b.step(&valid, &data, &ready).unwrap();
        assert!(o.in_ready[1]);
        let none = vec![false; 8];
        let mut edges = 1;
        loop {
            let o = b.step(&none, &data, &ready).unwrap();
            edges += 1;
            if o.out_valid.iter().any(|&v| v) {
                assert!(o.out_valid[6]);
                assert_eq!(o.out_data[6], 0xabcd);
                break;
            }
            assert!(edges < 20);
        }
        // Accepted at edge 1, delivered at the edge of the step that shows out_valid: 2S edges later.
        assert_eq!(edges - 1, 2 * 5);
        assert_eq!(b.occupancy(), 0);
    }
}

//! Traffic for Beneš networks: random valid headers, held-until-accepted injection, random backpressure, and
//! a scoreboard checking every packet is delivered exactly once, with its tag, at an output its header
//! permits.
//!
//! Built for the co-simulation's speed (several packets per cycle at a million cycles per second): packet
//! words are assembled directly in the header format of `asr_model::header` (hop s in bits `[2s +: 2]`, the
//! tag above; a test checks this equals `Header::to_u128`), the permitted outputs are found stage by stage,
//! and packets in flight are a table indexed by tag.

use asr_model::benes::{BenesWiring, TAG_BITS};
use rand::Rng;

/// A packet offered at an input.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    /// The packet word as driven on `in_data`: the header's hops, the tag above them.
    pub word: u128,
    /// The tag (`TAG_BITS` bits), the only part left of the word at the output.
    pub tag: u64,
    /// Bit p set when network output p is reachable under the header from this input.
    pub allowed: u64,
}

/// Random traffic source and scoreboard for a Beneš of `ports` inputs.
pub struct BenesTraffic {
    /// The network's stage-to-stage wiring.
    pub wiring: BenesWiring,
    /// Per input: the packet offered and not yet accepted (held until `in_ready`).
    pub pending: Vec<Option<Packet>>,
    next_tag: u64,
    /// In flight, indexed by tag: (input, allowed outputs).
    in_flight: Vec<Option<(usize, u64)>>,
    flying: usize,
    /// Packets accepted at the inputs so far.
    pub injected: u64,
    /// Packets taken at the outputs (valid and ready) so far.
    pub delivered: u64,
    /// The pins of the last [`BenesTraffic::offer`].
    pub in_valid: Vec<bool>,
    /// Per input: the offered packet's word, 0 where none is offered.
    pub in_data: Vec<u128>,
}

impl BenesTraffic {
    /// Empty traffic for a Beneš of `ports` inputs; panics unless `ports` is a power of two of at most 64.
    pub fn new(ports: usize) -> Self {
        let wiring = BenesWiring::new(ports).expect("power of two");
        assert!(
            ports <= 64,
            "the scoreboard keeps permitted outputs in a u64"
        );
        BenesTraffic {
            wiring,
            pending: vec![None; ports],
            next_tag: 0,
            in_flight: vec![None; 1 << TAG_BITS],
            flying: 0,
            injected: 0,
            delivered: 0,
            in_valid: vec![false; ports],
            in_data: vec![0; ports],
        }
    }

    /// The outputs reachable from `input` under `hops` (every combination of permitted ports), stage by
    /// stage: the set of switches reachable at each stage, as a bit mask.
    pub fn allowed(&self, input: usize, hops: &[u64]) -> u64 {
        let st = self.wiring.stages();
        let mut reach = 1u64 << (input / 2);
        for (s, &h) in hops.iter().enumerate().take(st - 1) {
            let mut next = 0u64;
            let mut r = reach;
            while r != 0 {
                let i = r.trailing_zeros() as usize;
                r &= r - 1;
                for q in 0..2 {
                    if (h >> q) & 1 == 1 {
                        next |= 1 << self.wiring.next[s][i][q].1;
                    }
                }
            }
            reach = next;
        }
        let last = hops[st - 1] & 3;
        let mut acc = 0u64;
        let mut r = reach;
        while r != 0 {
            let i = r.trailing_zeros() as usize;
            r &= r - 1;
            acc |= last << (2 * i);
        }
        acc
    }

    /// A random valid packet for `input`: half the time an ASR header to a random destination (random one-hot
    /// or all-ones sets in the first n−1 stages), otherwise each hop a random non-empty set. The tag is a
    /// running 16-bit counter (unique among packets in flight).
    pub fn random_packet(&mut self, rng: &mut impl Rng, input: usize) -> Packet {
        let n = self.wiring.n;
        let st = self.wiring.stages();
        let mut hops = [0u64; 64];
        let hops = &mut hops[..st];
        if rng.gen_bool(0.5) {
            let dest = rng.gen_range(0..self.wiring.ports());
            // asr_model::benes::asr_header: all-ones in the first n−1 stages, then the destination tag.
            for (s, h) in hops.iter_mut().enumerate() {
                *h = if s < n - 1 {
                    if rng.gen_bool(0.5) {
                        1 << rng.gen_range(0..2)
                    } else {
                        0b11
                    }
                } else {
                    1 << ((dest >> (st - 1 - s)) & 1)
                };
            }
        } else {
            for h in hops.iter_mut() {
                *h = rng.gen_range(1..4u64);
            }
        }
        let tag = self.next_tag;
        self.next_tag = (self.next_tag + 1) & ((1 << TAG_BITS) - 1);
        Packet {
            word: word(hops, tag),
            tag,
            allowed: self.allowed(input, hops),
        }
    }

    /// Fills empty input slots with probability `p`; sets and returns (in_valid, in_data).
    pub fn offer(&mut self, rng: &mut impl Rng, p: f64) -> (&[bool], &[u128]) {
        for i in 0..self.pending.len() {
            if self.pending[i].is_none() && rng.gen_bool(p) {
                self.pending[i] = Some(self.random_packet(rng, i));
            }
            self.in_valid[i] = self.pending[i].is_some();
            self.in_data[i] = self.pending[i].map_or(0, |p| p.word);
        }
        (&self.in_valid, &self.in_data)
    }

    /// Records what crossed the ports this cycle (`in_ready`, `out_valid`, `out_data` as driven, and the
    /// `out_ready` applied). Returns an error message on a lost, duplicated or misdelivered packet.
    pub fn record(
        &mut self,
        in_ready: &[bool],
        out_valid: &[bool],
        out_data: &[u128],
        out_ready: &[bool],
    ) -> Result<(), String> {
        for p in 0..out_valid.len() {
            if out_valid[p] && out_ready[p] {
                let tag = out_data[p] as u64;
                if out_data[p] >> TAG_BITS != 0 {
                    return Err(format!(
                        "output {p}: word {:#x} still has header bits",
                        out_data[p]
                    ));
                }
                match self.in_flight[tag as usize].take() {
                    None => {
                        return Err(format!(
                            "output {p}: tag {tag:#x} not in flight (duplicate or invented)"
                        ))
                    }
                    Some((input, allowed)) => {
                        if (allowed >> p) & 1 == 0 {
                            return Err(format!(
                                "tag {tag:#x} from input {input} delivered at output {p}, allowed {allowed:#b}"
                            ));
                        }
                    }
                }
                self.flying -= 1;
                self.delivered += 1;
            }
        }
        for (i, &ready) in in_ready.iter().enumerate() {
            if let Some(pk) = self.pending[i] {
                if ready {
                    let slot = &mut self.in_flight[pk.tag as usize];
                    if slot.is_some() {
                        return Err(format!("tag {:#x} reused while in flight", pk.tag));
                    }
                    *slot = Some((i, pk.allowed));
                    self.flying += 1;
                    self.pending[i] = None;
                    self.injected += 1;
                }
            }
        }
        Ok(())
    }

    /// Packets accepted but not yet delivered.
    pub fn in_flight(&self) -> usize {
        self.flying
    }
}

/// The packet word of `hops` (2-bit sets, hop s at bits `[2s +: 2]`) with `tag` above them: the layout of
/// `Header::to_u128(2, tag, TAG_BITS)`.
pub fn word(hops: &[u64], tag: u64) -> u128 {
    hops.iter()
        .enumerate()
        .fold((tag as u128) << (2 * hops.len()), |w, (s, &h)| {
            w | ((h as u128 & 3) << (2 * s))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use asr_model::header::Header;
    use rand::SeedableRng;

    /// The fast word and permitted-output set equal the header format and the set found by following every
    /// combination of ports.
    #[test]
    fn words_and_permitted_outputs_match_the_definitions() {
        for ports in [2usize, 4, 8, 16, 32] {
            let mut tr = BenesTraffic::new(ports);
            let st = tr.wiring.stages();
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(ports as u64);
            for _ in 0..300 {
                let input = rng.gen_range(0..ports);
                let pk = tr.random_packet(&mut rng, input);
                let hops: Vec<u64> = (0..st).map(|s| ((pk.word >> (2 * s)) & 3) as u64).collect();
                assert_eq!(pk.word >> (2 * st), pk.tag as u128);
                let h = Header::new(2, hops.clone()).expect("non-empty sets");
                assert_eq!(pk.word, h.to_u128(2, pk.tag, TAG_BITS).unwrap());
                let mut all = 0u64;
                for combo in 0..(1usize << st) {
                    let p: Vec<u8> = (0..st).map(|s| ((combo >> s) & 1) as u8).collect();
                    if p.iter().zip(&hops).all(|(&q, &h)| (h >> q) & 1 == 1) {
                        all |= 1 << tr.wiring.follow(input, &p);
                    }
                }
                assert_eq!(
                    pk.allowed, all,
                    "ports {ports}, input {input}, hops {hops:?}"
                );
            }
        }
    }
}

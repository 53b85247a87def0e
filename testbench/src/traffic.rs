//! Traffic for Beneš networks: random valid headers, held-until-accepted injection, random backpressure, and
//! a scoreboard checking every packet is delivered exactly once at an output its header permits.

use asr_model::benes::{asr_header, BenesWiring, TAG_BITS};
use asr_model::header::Header;
use rand::Rng;
use std::collections::HashMap;

/// A packet offered at an input.
#[derive(Clone, Copy, Debug)]
pub struct Packet {
    pub word: u128,
    pub tag: u64,
    /// Bit p set when network output p is reachable under the header from this input.
    pub allowed: u64,
}

/// Random traffic source and scoreboard for a Beneš of `ports` inputs.
pub struct BenesTraffic {
    pub wiring: BenesWiring,
    pub pending: Vec<Option<Packet>>,
    next_tag: u64,
    /// In flight: tag → (input, allowed outputs).
    in_flight: HashMap<u64, (usize, u64)>,
    pub injected: u64,
    pub delivered: u64,
}

impl BenesTraffic {
    pub fn new(ports: usize) -> Self {
        BenesTraffic {
            wiring: BenesWiring::new(ports).expect("power of two"),
            pending: vec![None; ports],
            next_tag: 0,
            in_flight: HashMap::new(),
            injected: 0,
            delivered: 0,
        }
    }

    /// The outputs reachable from `input` under `hops` (every combination of permitted ports).
    pub fn allowed(&self, input: usize, hops: &[u64]) -> u64 {
        let st = self.wiring.stages();
        let mut acc = 0u64;
        for combo in 0..(1usize << st) {
            let ports: Vec<u8> = (0..st).map(|s| ((combo >> s) & 1) as u8).collect();
            if ports.iter().zip(hops).all(|(&q, &h)| (h >> q) & 1 == 1) {
                acc |= 1 << self.wiring.follow(input, &ports);
            }
        }
        acc
    }

    /// A random valid packet for `input`: half the time an ASR header to a random destination (random one-hot
    /// or all-ones sets in the first n−1 stages), otherwise each hop a random non-empty set. The tag is a
    /// running 16-bit counter (unique among packets in flight).
    pub fn random_packet(&mut self, rng: &mut impl Rng, input: usize) -> Packet {
        let n = self.wiring.n;
        let st = self.wiring.stages();
        let hops: Vec<u64> = if rng.gen_bool(0.5) {
            let dest = rng.gen_range(0..self.wiring.ports());
            let mut h = asr_header(n, dest).expect("valid").hops().to_vec();
            for x in h.iter_mut().take(n - 1) {
                if rng.gen_bool(0.5) {
                    *x = 1 << rng.gen_range(0..2);
                }
            }
            h
        } else {
            (0..st).map(|_| rng.gen_range(1..4u64)).collect()
        };
        let tag = self.next_tag;
        self.next_tag = (self.next_tag + 1) & ((1 << TAG_BITS) - 1);
        let word = Header::new(2, hops.clone())
            .expect("non-empty sets")
            .to_u128(2, tag, TAG_BITS)
            .expect("fits");
        Packet {
            word,
            tag,
            allowed: self.allowed(input, &hops),
        }
    }

    /// Fills empty input slots with probability `p`; returns (in_valid, in_data).
    pub fn offer(&mut self, rng: &mut impl Rng, p: f64) -> (Vec<bool>, Vec<u128>) {
        for i in 0..self.pending.len() {
            if self.pending[i].is_none() && rng.gen_bool(p) {
                self.pending[i] = Some(self.random_packet(rng, i));
            }
        }
        (
            self.pending.iter().map(|x| x.is_some()).collect(),
            self.pending
                .iter()
                .map(|x| x.map_or(0, |p| p.word))
                .collect(),
        )
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
                match self.in_flight.remove(&tag) {
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
                self.delivered += 1;
            }
        }
        for (i, &ready) in in_ready.iter().enumerate() {
            if let Some(pk) = self.pending[i] {
                if ready {
                    if self.in_flight.insert(pk.tag, (i, pk.allowed)).is_some() {
                        return Err(format!("tag {:#x} reused while in flight", pk.tag));
                    }
                    self.pending[i] = None;
                    self.injected += 1;
                }
            }
        }
        Ok(())
    }

    /// Packets accepted but not yet delivered.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }
}

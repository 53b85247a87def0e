//! `switch2`: the 2×2 ASR switch against `asr_model::switch2::Switch2`, and `switch2r`: its registered-ready
//! variant against `asr_model::switch2r::Switch2R`: random words (random first hops including `11`, held
//! until accepted) and random output backpressure, in four phases of load and backpressure so every
//! arbitration case, both round-robin pointers and (for `switch2r`) the skid buffers are exercised.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::{mask, rng};
use asr_hdl::switch2::SWITCH2_W;
use asr_model::benes::BenesSwitch;
use asr_model::switch2::Switch2;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

crate::rusthdl_io!(
    Switch2Io,
    asr_hdl::switch2::Switch2Top,
    clocked,
    [in_valid, in_data, out_ready],
    [in_ready, out_valid, out_data]
);
crate::rusthdl_io!(
    Switch2RIo,
    asr_hdl::switch2r::Switch2RTop,
    clocked,
    [in_valid, in_data, out_ready],
    [in_ready, out_valid, out_data]
);

/// A 2×2 switch top against its model `S` (`Switch2` for `switch2`, `Switch2R` for `switch2r`).
pub struct Switch2Top<S = Switch2> {
    name: &'static str,
    rng: Xoshiro256PlusPlus,
    model: S,
    pending: [Option<u128>; 2],
    draining: bool,
    words_in: u64,
    words_out: u64,
    /// Cycles with a word in a skid buffer (registered-ready switch).
    skid_cycles: u64,
}

impl Switch2Top {
    /// `switch2`.
    pub fn new(seed: u64) -> Self {
        Self::of("switch2", seed)
    }
}

impl<S: BenesSwitch> Switch2Top<S> {
    /// The top `name` (`switch2` or `switch2r`) against the model `S`.
    pub fn of(name: &'static str, seed: u64) -> Self {
        Switch2Top {
            name,
            rng: rng(seed ^ 0x5712),
            model: S::default(),
            pending: [None; 2],
            draining: false,
            words_in: 0,
            words_out: 0,
            skid_cycles: 0,
        }
    }
}

impl<S: BenesSwitch> Top for Switch2Top<S> {
    fn name(&self) -> &str {
        self.name
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let phase = (n / 5000) % 4;
        let (p_inject, p_ready) = [(0.9, 0.5), (0.3, 0.9), (1.0, 1.0), (0.6, 0.2)][phase as usize];
        let p_ready = if self.draining { 1.0 } else { p_ready };
        for p in self.pending.iter_mut() {
            if !self.draining && p.is_none() && self.rng.gen_bool(p_inject) {
                let hop = self.rng.gen_range(1..4u128);
                *p = Some(((self.rng.gen::<u128>() << 2) | hop) & mask(SWITCH2_W));
            }
        }
        let in_valid = [self.pending[0].is_some(), self.pending[1].is_some()];
        let in_data = [self.pending[0].unwrap_or(0), self.pending[1].unwrap_or(0)];
        let out_ready = [self.rng.gen_bool(p_ready), self.rng.gen_bool(p_ready)];
        let o = self
            .model
            .eval(out_ready)
            .map_err(|e| format!("model: {e:?}"))?;
        self.model.commit(&o, in_valid, in_data, out_ready);
        if self.model.skid() > 0 {
            self.skid_cycles += 1;
        }
        pins.put_bools("in_valid", &in_valid);
        pins.put_fields("in_data", &in_data, SWITCH2_W);
        pins.put_bools("out_ready", &out_ready);
        expect.put_bools("in_ready", &o.in_ready);
        expect.put_bools("out_valid", &o.out_valid);
        expect.put_fields("out_data", &o.out_data, SWITCH2_W);
        for i in 0..2 {
            if in_valid[i] && o.in_ready[i] {
                self.pending[i] = None;
                self.words_in += 1;
            }
            if o.out_valid[i] && out_ready[i] {
                self.words_out += 1;
            }
        }
        Ok(())
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.pending.iter().all(Option::is_none) && self.model.occupancy() == 0
    }

    fn packets(&self) -> u64 {
        self.words_out
    }

    fn finish(&mut self) -> Result<(), String> {
        if self.words_in != self.words_out {
            return Err(format!(
                "{} words in but {} out",
                self.words_in, self.words_out
            ));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("words_in", self.words_in),
            ("words_out", self.words_out),
            ("skid_cycles", self.skid_cycles),
        ]
    }
}

//! `benes8`, `benes16`, `benes32`: Beneš networks of 2×2 switches against `asr_model::benes::Benes`, and
//! `benes8r`, `benes16r`: of registered-ready switches against `asr_model::benes::BenesR`: random valid
//! headers and ASR headers to random destinations, held until accepted, random 16-bit tags, random output
//! backpressure in four load phases ([`crate::traffic::BenesTraffic`]); the scoreboard checks that every
//! packet is delivered exactly once, with its tag, at an output its header permits, and the drain that the
//! network empties.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use crate::traffic::BenesTraffic;
use asr_model::benes::{Benes, BenesOutputs, BenesSwitch};
use asr_model::switch2::Switch2;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

crate::rusthdl_io!(
    Benes8Io,
    asr_hdl::benes::Benes8,
    clocked,
    [in_valid, in_data, out_ready],
    [in_ready, out_valid, out_data]
);
crate::rusthdl_io!(
    Benes16Io,
    asr_hdl::benes::Benes16,
    clocked,
    [in_valid, in_data, out_ready],
    [in_ready, out_valid, out_data]
);
crate::rusthdl_io!(
    Benes32Io,
    asr_hdl::benes::Benes32,
    clocked,
    [in_valid, in_data, out_ready],
    [in_ready, out_valid, out_data]
);

crate::rusthdl_io!(
    Benes8RIo,
    asr_hdl::benes::Benes8R,
    clocked,
    [in_valid, in_data, out_ready],
    [in_ready, out_valid, out_data]
);
crate::rusthdl_io!(
    Benes16RIo,
    asr_hdl::benes::Benes16R,
    clocked,
    [in_valid, in_data, out_ready],
    [in_ready, out_valid, out_data]
);

/// A Beneš top against its model, a Beneš of switches `S` (`Switch2` for `benes{N}`, `Switch2R` for
/// `benes{N}r`).
pub struct BenesTop<S = Switch2> {
    name: String,
    /// Packet word width: 2 bits per stage and the tag.
    w: usize,
    rng: Xoshiro256PlusPlus,
    model: Benes<S>,
    /// Switch-cycles with a word in a skid buffer (registered-ready switches).
    skid: u64,
    traffic: BenesTraffic,
    draining: bool,
    out_ready: Vec<bool>,
    o: BenesOutputs,
}

impl BenesTop {
    /// `benes{ports}`.
    pub fn new(ports: usize, seed: u64) -> Self {
        Self::of(&format!("benes{ports}"), ports, seed)
    }
}

impl<S: BenesSwitch> BenesTop<S> {
    /// The top `name` with `ports` ports against a Beneš of switches `S`.
    pub fn of(name: &str, ports: usize, seed: u64) -> Self {
        let model = Benes::<S>::with_switches(ports).expect("a power of two");
        let traffic = BenesTraffic::new(ports);
        let w = 2 * traffic.wiring.stages() + asr_model::benes::TAG_BITS;
        BenesTop {
            name: name.to_string(),
            w,
            rng: rng(seed ^ ports as u64),
            model,
            skid: 0,
            traffic,
            draining: false,
            out_ready: vec![false; ports],
            o: BenesOutputs {
                in_ready: Vec::new(),
                out_valid: Vec::new(),
                out_data: Vec::new(),
            },
        }
    }
}

impl<S: BenesSwitch> Top for BenesTop<S> {
    fn name(&self) -> &str {
        &self.name
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let phase = (n / 2000) % 4;
        let (p_inj, p_rdy) = [(0.8, 0.7), (0.3, 1.0), (1.0, 0.3), (0.6, 0.9)][phase as usize];
        if self.draining {
            // Anything still offered at an input is withdrawn; the network empties.
            self.traffic.pending.iter_mut().for_each(|p| *p = None);
        }
        let p_inj = if self.draining { 0.0 } else { p_inj };
        let (in_valid, in_data) = self.traffic.offer(&mut self.rng, p_inj);
        for r in self.out_ready.iter_mut() {
            *r = self.draining || self.rng.gen_bool(p_rdy);
        }
        let o = &mut self.o;
        self.model
            .step_into(in_valid, in_data, &self.out_ready, o)
            .map_err(|e| format!("model: {e:?}"))?;
        self.skid += self.model.skid() as u64;
        pins.put_bools("in_valid", in_valid);
        pins.put_fields("in_data", in_data, self.w);
        pins.put_bools("out_ready", &self.out_ready);
        expect.put_bools("in_ready", &o.in_ready);
        expect.put_bools("out_valid", &o.out_valid);
        expect.put_fields("out_data", &o.out_data, self.w);
        self.traffic
            .record(&o.in_ready, &o.out_valid, &o.out_data, &self.out_ready)
            .map_err(|e| format!("scoreboard: {e}"))
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.traffic.in_flight() == 0 && self.model.occupancy() == 0
    }

    fn packets(&self) -> u64 {
        self.traffic.delivered
    }

    fn finish(&mut self) -> Result<(), String> {
        if self.traffic.injected != self.traffic.delivered {
            return Err(format!(
                "{} packets injected but {} delivered",
                self.traffic.injected, self.traffic.delivered
            ));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("injected", self.traffic.injected),
            ("delivered", self.traffic.delivered),
            ("skid", self.skid),
        ]
    }
}

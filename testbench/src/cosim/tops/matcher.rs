//! `matcher_m{M}_p{P}`: the combinational matching heuristic against `asr_model::matcher::heuristic` on
//! random request matrices (mostly density ½, sometimes very sparse or dense rows:
//! [`crate::lockstep::random_rows`]). One matrix per cycle.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use rand_xoshiro::Xoshiro256PlusPlus;

crate::rusthdl_io!(
    M4P1,
    asr_hdl::matcher::MatcherM4P1,
    comb,
    [requests],
    [grants]
);
crate::rusthdl_io!(
    M4P2,
    asr_hdl::matcher::MatcherM4P2,
    comb,
    [requests],
    [grants]
);
crate::rusthdl_io!(
    M8P1,
    asr_hdl::matcher::MatcherM8P1,
    comb,
    [requests],
    [grants]
);
crate::rusthdl_io!(
    M8P2,
    asr_hdl::matcher::MatcherM8P2,
    comb,
    [requests],
    [grants]
);
crate::rusthdl_io!(
    M16P1,
    asr_hdl::matcher::MatcherM16P1,
    comb,
    [requests],
    [grants]
);
crate::rusthdl_io!(
    M16P2,
    asr_hdl::matcher::MatcherM16P2,
    comb,
    [requests],
    [grants]
);

/// A matcher top with `m` ports and `passes` passes.
pub struct MatcherTop {
    name: String,
    m: usize,
    passes: usize,
    rng: Xoshiro256PlusPlus,
    matrices: u64,
    grants: u64,
}

impl MatcherTop {
    /// `matcher_m{m}_p{passes}`: each cycle a random `m`×`m` request matrix drawn from `seed`, the model's
    /// grants expected.
    pub fn new(m: usize, passes: usize, seed: u64) -> Self {
        MatcherTop {
            name: format!("matcher_m{m}_p{passes}"),
            m,
            passes,
            rng: rng(seed ^ (m * 10 + passes) as u64),
            matrices: 0,
            grants: 0,
        }
    }
}

impl Top for MatcherTop {
    fn name(&self) -> &str {
        &self.name
    }

    fn cycle(&mut self, _n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let rows = crate::lockstep::random_rows(&mut self.rng, self.m);
        let g = asr_model::matcher::heuristic(&rows, self.m, self.passes);
        let wide = |r: &[u64]| r.iter().map(|&x| x as u128).collect::<Vec<_>>();
        pins.put_fields("requests", &wide(&rows), self.m);
        expect.put_fields("grants", &wide(&g), self.m);
        self.matrices += 1;
        self.grants += g.iter().map(|r| r.count_ones() as u64).sum::<u64>();
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.matrices
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![("matrices", self.matrices), ("grants", self.grants)]
    }
}

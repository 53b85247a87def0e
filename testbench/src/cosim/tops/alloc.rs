//! `alloc_islip1_m8`, `alloc_pim1_m8`, `alloc_wavefront_m8`: the 8×8 allocators of `hdl/src/alloc/` against
//! their model twins (`asr_model::allocator::islip::Islip { iterations: 1 }`,
//! `asr_model::allocator::pim_lfsr::PimLfsr8`, `asr_model::allocator::wavefront::Wavefront`) on random request
//! matrices ([`crate::lockstep::random_rows`]: density ½, sparse, dense, or one request per row), one matrix
//! per cycle. The model's state (pointers, priority diagonal, random register) is carried from cycle to
//! cycle exactly as the hardware's registers, so every grant of every cycle is compared.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use asr_model::allocator::pim_lfsr::PimLfsr8;
use asr_model::allocator::{by_name, check_matching, Allocator, NO_GRANT};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

crate::rusthdl_io!(
    Islip1M8,
    asr_hdl::alloc::islip::Islip8,
    clocked,
    [requests],
    [grants]
);
crate::rusthdl_io!(
    Pim1M8,
    asr_hdl::alloc::pim::PimLfsr8,
    clocked,
    [requests],
    [grants]
);
crate::rusthdl_io!(
    WavefrontM8,
    asr_hdl::alloc::wavefront::Wavefront8,
    clocked,
    [requests],
    [grants]
);

enum Model {
    Registry(Arc<dyn Allocator>, Vec<u8>),
    PimLfsr(PimLfsr8),
}

/// One of the three allocator tops.
pub struct AllocTop {
    name: &'static str,
    model: Model,
    rng: Xoshiro256PlusPlus,
    matrices: u64,
    grants: u64,
    /// Decisions with 8 grants (perfect matchings).
    full_rows: u64,
}

impl AllocTop {
    /// `name` is one of the three tops; anything else is a bug of the caller.
    pub fn new(name: &'static str, seed: u64) -> Self {
        let reg = |n: &str| {
            let a = by_name(n).expect("registered allocator");
            let st = vec![0u8; a.state_len(8)];
            Model::Registry(a, st)
        };
        let model = match name {
            "alloc_islip1_m8" => reg("islip-1"),
            "alloc_wavefront_m8" => reg("wavefront"),
            "alloc_pim1_m8" => Model::PimLfsr(PimLfsr8::default()),
            _ => panic!("AllocTop: unknown top {name}"),
        };
        AllocTop {
            name,
            model,
            rng: rng(seed ^ 0xa110c8),
            matrices: 0,
            grants: 0,
            full_rows: 0,
        }
    }
}

impl Top for AllocTop {
    fn name(&self) -> &str {
        self.name
    }

    fn cycle(&mut self, _n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let rows = crate::lockstep::random_rows(&mut self.rng, 8);
        let mut g = [NO_GRANT; 8];
        match &mut self.model {
            Model::Registry(a, st) => a.allocate(&rows, st, &mut g),
            Model::PimLfsr(p) => p.allocate(&rows, &mut g),
        }
        check_matching(&rows, &g).map_err(|i| {
            format!("model: input {i}'s grant is not a matching: {rows:x?} -> {g:?}")
        })?;
        let onehot: Vec<u128> = g
            .iter()
            .map(|&q| if q == NO_GRANT { 0 } else { 1u128 << q })
            .collect();
        let wide: Vec<u128> = rows.iter().map(|&x| x as u128).collect();
        pins.put_fields("requests", &wide, 8);
        expect.put_fields("grants", &onehot, 8);
        self.matrices += 1;
        let n = g.iter().filter(|&&q| q != NO_GRANT).count() as u64;
        self.grants += n;
        if n == 8 {
            self.full_rows += 1;
        }
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.matrices
    }

    fn finish(&mut self) -> Result<(), String> {
        if self.matrices >= 1000 && (self.grants == 0 || self.full_rows == 0) {
            return Err(format!(
                "{}: the stimulus never exercised a full or any matching ({} grants, {} perfect)",
                self.name, self.grants, self.full_rows
            ));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("matrices", self.matrices),
            ("grants", self.grants),
            ("perfect", self.full_rows),
        ]
    }
}

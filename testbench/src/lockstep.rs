//! Lock-step drivers: each steps an HDL block (rust-hdl's thread-free `simulate()`) and its model twin on
//! the same inputs and returns both sides' outputs, so tests, the Icarus vector recorder and the benchmark
//! share one definition of "a cycle".

use asr_model::matcher::heuristic;
use rust_hdl::prelude::*;

use crate::harness::{pack, unpack};

/// Settle limit for `simulate()`.
pub const SETTLE: usize = 200;

/// A matcher under test: any `Matcher<M, MM, P>` with a uniform interface.
pub struct MatcherDut<const M: usize, const MM: usize, const P: usize> {
    pub uut: asr_hdl::matcher::Matcher<M, MM, P>,
}

impl<const M: usize, const MM: usize, const P: usize> Default for MatcherDut<M, MM, P> {
    fn default() -> Self {
        let mut uut = asr_hdl::matcher::Matcher::<M, MM, P>::default();
        uut.connect_all();
        assert!(simulate(&mut uut, SETTLE), "matcher does not settle");
        Self { uut }
    }
}

/// Object-safe view of a matcher for loops over the six tops.
pub trait MatcherLike {
    fn m(&self) -> usize;
    fn passes(&self) -> usize;
    /// Applies `rows` (M rows of M bits) and returns the HDL's grants rows.
    fn eval(&mut self, rows: &[u64]) -> Vec<u64>;
}

impl<const M: usize, const MM: usize, const P: usize> MatcherLike for MatcherDut<M, MM, P> {
    fn m(&self) -> usize {
        M
    }
    fn passes(&self) -> usize {
        P
    }
    fn eval(&mut self, rows: &[u64]) -> Vec<u64> {
        let f: Vec<u128> = rows.iter().map(|&r| r as u128).collect();
        self.uut.requests.next = pack::<MM>(&f, M);
        assert!(simulate(&mut self.uut, SETTLE), "matcher does not settle");
        unpack::<MM>(self.uut.grants.val(), M, M)
            .into_iter()
            .map(|x| x as u64)
            .collect()
    }
}

/// The six exported matchers, in `asr_hdl::export::TOPS` order, with their names.
pub fn all_matchers() -> Vec<(&'static str, Box<dyn MatcherLike>)> {
    vec![
        ("matcher_m4_p1", Box::new(MatcherDut::<4, 16, 1>::default())),
        ("matcher_m4_p2", Box::new(MatcherDut::<4, 16, 2>::default())),
        ("matcher_m8_p1", Box::new(MatcherDut::<8, 64, 1>::default())),
        ("matcher_m8_p2", Box::new(MatcherDut::<8, 64, 2>::default())),
        (
            "matcher_m16_p1",
            Box::new(MatcherDut::<16, 256, 1>::default()),
        ),
        (
            "matcher_m16_p2",
            Box::new(MatcherDut::<16, 256, 2>::default()),
        ),
    ]
}

/// The model's answer for the same rows.
pub fn matcher_model(rows: &[u64], m: usize, passes: usize) -> Vec<u64> {
    heuristic(rows, m, passes)
}

/// A random request matrix: mostly density ½ (Table 2.1), sometimes a random density per matrix so sparse
/// and dense rows are both exercised.
pub fn random_rows(rng: &mut impl rand::Rng, m: usize) -> Vec<u64> {
    let full = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
    let mode = rng.gen_range(0..4);
    (0..m)
        .map(|_| match mode {
            0 => rng.gen::<u64>() & rng.gen::<u64>() & full,
            1 => (rng.gen::<u64>() | rng.gen::<u64>()) & full,
            2 => {
                if rng.gen_bool(0.3) {
                    0
                } else {
                    1u64 << rng.gen_range(0..m)
                }
            }
            _ => rng.gen::<u64>() & full,
        })
        .collect()
}

//! Lock-step: every exported matcher (`matcher_m{4,8,16}_p{1,2}`) against `asr_model::matcher::heuristic`
//! on random request matrices. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::harness::{rng, seed};
use asr_testbench::lockstep::{all_matchers, matcher_model, random_rows};
use std::time::Instant;

const MATRICES: usize = 100_000;

#[test]
fn every_matcher_agrees_with_the_model() {
    let seed = seed();
    for (k, (name, mut dut)) in all_matchers().into_iter().enumerate() {
        let t = Instant::now();
        let mut rng = rng(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let (m, p) = (dut.m(), dut.passes());
        for n in 0..MATRICES {
            let rows = random_rows(&mut rng, m);
            let hw = dut.eval(&rows);
            let sw = matcher_model(&rows, m, p);
            assert_eq!(
                hw, sw,
                "{name}: matrix {n} differs (ASR_SEED={seed:#x}); requests {rows:x?}"
            );
        }
        eprintln!(
            "{name}: {MATRICES} matrices agree in {:.2} s (seed {seed:#x})",
            t.elapsed().as_secs_f64()
        );
    }
}

/// Thesis Fig. 2.4 through the HDL: the worked example ends in a perfect matching.
#[test]
fn figure_2_4_in_hardware() {
    let row = |s: &str| {
        s.chars()
            .enumerate()
            .fold(0u64, |a, (j, c)| a | (((c == '1') as u64) << j))
    };
    let r = [row("1100"), row("1010"), row("1101"), row("0101")];
    let (_, mut dut) = all_matchers().into_iter().next().unwrap();
    let g = dut.eval(&r);
    assert_eq!(g, vec![row("1000"), row("0010"), row("0001"), row("0100")]);
}

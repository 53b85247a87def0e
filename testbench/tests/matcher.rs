//! Lock-step: every exported matcher (`matcher_m{4,8,16}_p{1,2}`) against `asr_model::matcher::heuristic`
//! on random request matrices. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::harness::{rng, seed};
use asr_testbench::lockstep::{all_matchers, matcher_model, random_rows};
use std::time::Instant;

const MATRICES: usize = 100_000;

/// Runs top number `k` of `all_matchers()` on `MATRICES` random matrices against the model.
fn lockstep(k: usize) {
    let seed = seed();
    let (name, mut dut) = all_matchers().into_iter().nth(k).unwrap();
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

#[test]
fn matcher_m4_p1_agrees_with_the_model() {
    lockstep(0);
}
#[test]
fn matcher_m4_p2_agrees_with_the_model() {
    lockstep(1);
}
#[test]
fn matcher_m8_p1_agrees_with_the_model() {
    lockstep(2);
}
#[test]
fn matcher_m8_p2_agrees_with_the_model() {
    lockstep(3);
}
#[test]
fn matcher_m16_p1_agrees_with_the_model() {
    lockstep(4);
}
#[test]
fn matcher_m16_p2_agrees_with_the_model() {
    lockstep(5);
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

/// The exported Verilog of every matcher in Icarus on 10 000 vectors recorded from the model.
#[test]
fn every_matcher_verilog_in_icarus() {
    use asr_testbench::icarus::{run, value_of_fields, Port, Vector};
    let seed = seed();
    for (k, (m, p)) in [(4, 1), (4, 2), (8, 1), (8, 2), (16, 1), (16, 2)]
        .into_iter()
        .enumerate()
    {
        let name = format!("matcher_m{m}_p{p}");
        let mut rng = rng(seed ^ 0x1ca ^ k as u64);
        let vectors: Vec<Vector> = (0..10_000)
            .map(|_| {
                let rows = random_rows(&mut rng, m);
                let g = matcher_model(&rows, m, p);
                let f = |x: &[u64]| x.iter().map(|&r| r as u128).collect::<Vec<_>>();
                Vector {
                    inputs: vec![value_of_fields(&f(&rows), m)],
                    outputs: vec![value_of_fields(&f(&g), m)],
                }
            })
            .collect();
        let verilog = asr_hdl::export::verilog_of(&name).unwrap();
        let r = run(
            &name,
            &verilog,
            &[Port::new("requests", m * m)],
            &[Port::new("grants", m * m)],
            &vectors,
            false,
        )
        .expect("Icarus run (iverilog must be installed)");
        assert_eq!(r.vectors, 10_000);
        assert_eq!(
            r.mismatches, 0,
            "{name}: Icarus disagrees with the model (ASR_SEED={seed:#x})"
        );
        eprintln!("{name}: {} Icarus vectors, 0 mismatches", r.vectors);
    }
}

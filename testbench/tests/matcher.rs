//! Every exported matcher (`matcher_m{4,8,16}_p{1,2}`) against `asr_model::matcher::heuristic` on random
//! request matrices (`cosim/tops/matcher.rs`): in rust-hdl's simulation, and the exported Verilog in
//! Icarus and in Verilator. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind};
use asr_testbench::harness::cycles;

/// Random matrices per matcher in rust-hdl's simulation (a tenth in the short tier, whose Verilator runs
/// cover every matcher's Verilog on 100 000).
const MATRICES: u64 = 100_000;
const TOPS: [&str; 6] = [
    "matcher_m4_p1",
    "matcher_m4_p2",
    "matcher_m8_p1",
    "matcher_m8_p2",
    "matcher_m16_p1",
    "matcher_m16_p2",
];

#[test]
fn matcher_m4_p1_agrees_with_the_model() {
    check("matcher_m4_p1", BackendKind::RustHdl, cycles(MATRICES));
}
#[test]
fn matcher_m4_p2_agrees_with_the_model() {
    check("matcher_m4_p2", BackendKind::RustHdl, cycles(MATRICES));
}
#[test]
fn matcher_m8_p1_agrees_with_the_model() {
    check("matcher_m8_p1", BackendKind::RustHdl, cycles(MATRICES));
}
#[test]
fn matcher_m8_p2_agrees_with_the_model() {
    check("matcher_m8_p2", BackendKind::RustHdl, cycles(MATRICES));
}
#[test]
fn matcher_m16_p1_agrees_with_the_model() {
    check("matcher_m16_p1", BackendKind::RustHdl, cycles(MATRICES));
}
#[test]
fn matcher_m16_p2_agrees_with_the_model() {
    check("matcher_m16_p2", BackendKind::RustHdl, cycles(MATRICES));
}

/// Thesis Fig. 2.4 through the HDL: the worked example ends in a perfect matching.
#[test]
fn figure_2_4_in_hardware() {
    use asr_testbench::cosim::{rusthdl::RustHdl, Backend, Frame};
    let row = |s: &str| {
        s.chars()
            .enumerate()
            .fold(0u128, |a, (j, c)| a | (((c == '1') as u128) << j))
    };
    let (layout, _) = asr_testbench::cosim::layout("matcher_m4_p1").unwrap();
    let mut hw =
        RustHdl::<asr_testbench::cosim::tops::matcher::M4P1>::new(&layout).expect("binding");
    let mut pins = Frame::new(&layout.inputs);
    pins.put_fields(
        "requests",
        &[row("1100"), row("1010"), row("1101"), row("0101")],
        4,
    );
    let mut out = vec![0u32; layout.output_words()];
    hw.cycle(&pins.words, &mut out);
    let mut want = Frame::new(&layout.outputs);
    want.put_fields(
        "grants",
        &[row("1000"), row("0010"), row("0001"), row("0100")],
        4,
    );
    assert_eq!(out, want.words);
}

/// The exported Verilog of every matcher in Icarus on 10 000 matrices (a tenth in the short tier).
#[test]
fn every_matcher_verilog_in_icarus() {
    for t in TOPS {
        check(t, BackendKind::Icarus, cycles(10_000));
    }
}

/// The exported Verilog of every matcher in Verilator on 1 000 000 matrices (a tenth in the short tier).
#[test]
fn every_matcher_verilog_in_verilator() {
    for t in TOPS {
        check(t, BackendKind::Verilator, cycles(1_000_000));
    }
}

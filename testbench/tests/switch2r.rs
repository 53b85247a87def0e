//! The `switch2r` top (the registered-ready 2×2 switch) against `asr_model::switch2r::Switch2R`
//! (`cosim/tops/switch2.rs`: random words held until accepted, random first hops including `11`, random
//! output backpressure in four phases; every port compared every cycle; the switch drains and every word that
//! went in comes out): in rust-hdl's simulation, and the exported Verilog in Icarus and Verilator. Each run
//! also asserts that the skid buffers were used. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind};
use asr_testbench::harness::cycles;

#[test]
fn switch2r_agrees_with_the_model() {
    let r = check("switch2r", BackendKind::RustHdl, 120_000);
    assert!(r.counter("words_in") > 30_000, "too little traffic: {r}");
    assert!(
        r.counter("skid_cycles") > 10_000,
        "skid buffers barely used: {r}"
    );
}

#[test]
fn switch2r_verilog_in_icarus() {
    let r = check("switch2r", BackendKind::Icarus, 20_000);
    assert!(
        r.counter("skid_cycles") > 2_000,
        "skid buffers barely used: {r}"
    );
}

#[test]
fn switch2r_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("switch2r", BackendKind::Verilator, n);
    assert!(r.counter("words_in") > n / 4, "too little traffic: {r}");
    assert!(
        r.counter("skid_cycles") > n / 10,
        "skid buffers barely used: {r}"
    );
}

//! The `switch2` top against `asr_model::switch2::Switch2` (`cosim/tops/switch2.rs`: random words held until
//! accepted, random first hops including `11`, random output backpressure in four phases; every port compared
//! every cycle; the switch drains and every word that went in comes out): in rust-hdl's simulation, and the
//! exported Verilog in Icarus and Verilator. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind};
use asr_testbench::harness::cycles;

#[test]
fn switch2_agrees_with_the_model() {
    let r = check("switch2", BackendKind::RustHdl, 120_000);
    assert!(r.counter("words_in") > 30_000, "too little traffic: {r}");
}

#[test]
fn switch2_verilog_in_icarus() {
    check("switch2", BackendKind::Icarus, 20_000);
}

#[test]
fn switch2_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("switch2", BackendKind::Verilator, n);
    assert!(r.counter("words_in") > n / 4, "too little traffic: {r}");
}

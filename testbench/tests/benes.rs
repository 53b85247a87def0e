//! The Beneš tops against `asr_model::benes::Benes::step` (`cosim/tops/benes.rs`: random valid headers and
//! ASR headers with 16-bit tags, random output backpressure in four phases; every port compared every cycle;
//! a scoreboard: every packet delivered exactly once, with its tag, at an output its header permits, and the
//! network drains): `benes8` and `benes16` in rust-hdl's simulation, `benes8` in Icarus, and `benes8`,
//! `benes16`, `benes32` in Verilator; the same for the registered-ready networks `benes8r` and `benes16r`
//! against `asr_model::benes::BenesR`, asserting that their skid buffers were used. Replay a failure with
//! `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind};
use asr_testbench::harness::cycles;

#[test]
fn benes8_agrees_with_the_model() {
    let r = check("benes8", BackendKind::RustHdl, 60_000);
    assert!(r.packets > 60_000, "too little traffic: {r}");
}

#[test]
fn benes16_agrees_with_the_model() {
    let r = check("benes16", BackendKind::RustHdl, 5_000);
    assert!(r.packets > 5_000, "too little traffic: {r}");
}

/// 20 000 cycles of `benes8` in Icarus (a tenth in the short tier).
#[test]
fn benes8_verilog_in_icarus() {
    check("benes8", BackendKind::Icarus, cycles(20_000));
}

/// A million cycles of `benes8` through Verilator (a tenth in the short tier).
#[test]
fn benes8_verilog_in_verilator() {
    let r = check("benes8", BackendKind::Verilator, cycles(1_000_000));
    assert!(r.packets > cycles(1_000_000), "too little traffic: {r}");
}

#[test]
fn benes16_and_benes32_verilog_in_verilator() {
    check("benes16", BackendKind::Verilator, cycles(200_000));
    check("benes32", BackendKind::Verilator, cycles(100_000));
}

#[test]
fn benes8r_agrees_with_the_model() {
    let r = check("benes8r", BackendKind::RustHdl, 60_000);
    assert!(r.packets > 60_000, "too little traffic: {r}");
    assert!(r.counter("skid") > 60_000, "skid buffers barely used: {r}");
}

#[test]
fn benes16r_agrees_with_the_model() {
    let r = check("benes16r", BackendKind::RustHdl, 5_000);
    assert!(r.packets > 5_000, "too little traffic: {r}");
}

/// 20 000 cycles of `benes8r` in Icarus (a tenth in the short tier).
#[test]
fn benes8r_verilog_in_icarus() {
    check("benes8r", BackendKind::Icarus, cycles(20_000));
}

/// A million cycles of `benes8r` through Verilator (a tenth in the short tier).
#[test]
fn benes8r_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("benes8r", BackendKind::Verilator, n);
    assert!(r.packets > n, "too little traffic: {r}");
    assert!(r.counter("skid") > n, "skid buffers barely used: {r}");
}

#[test]
fn benes16r_verilog_in_verilator() {
    let r = check("benes16r", BackendKind::Verilator, cycles(200_000));
    assert!(
        r.counter("skid") > cycles(200_000),
        "skid buffers barely used: {r}"
    );
}

//! The `central_queue` top against `asr_model::sp2::central_queue::CentralQueue`
//! (`cosim/tops/central_queue.rs`: random writes with junk in idle receivers' fields, withdrawn offers,
//! random reads, in phases that fill the queue to the reservation limit, drain it and skew the outputs;
//! every output port compared every cycle; the model's invariants checked as it runs; the queue drains to a
//! full free list): in rust-hdl's simulation, and the exported Verilog in Icarus and Verilator. Replay a
//! failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};

/// The run must reach the reservation limit (free down to the reserved chunks) and move many chunks.
fn exercised(r: &Report, cycles: u64) {
    assert!(r.counter("min_free") <= 8, "queue never filled: {r}");
    assert!(
        r.counter("refused") > cycles / 100,
        "reservation rule hardly exercised: {r}"
    );
    assert!(r.counter("writes") > cycles / 3, "too few writes: {r}");
}

#[test]
fn central_queue_agrees_with_the_model() {
    let r = check("central_queue", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn central_queue_verilog_in_icarus() {
    let r = check("central_queue", BackendKind::Icarus, 12_000);
    exercised(&r, 12_000);
}

#[test]
fn central_queue_verilog_in_verilator() {
    let r = check("central_queue", BackendKind::Verilator, 1_000_000);
    exercised(&r, 1_000_000);
}

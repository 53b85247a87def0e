//! The `sp2_central_queue_v2` top against `asr_model::sp2::v2::central_queue::CentralQueue`
//! (`cosim/tops/sp2_central_queue_v2.rs`: admission requests, chunk writes of admitted packets and reads at
//! random, requests presented and asked with or not, junk in the chunk fields of receivers without a
//! request, in phases that fill the queue to the reservation
//! limit, drain it, skew the outputs, fill a packet FIFO and make transmitters await slow writers; every
//! output port compared every cycle; the model's invariants and a packet scoreboard checked as it runs; the
//! queue drains to a full free list): in rust-hdl's simulation, and the exported Verilog in Icarus and
//! Verilator. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};
use asr_testbench::harness::cycles;

/// The run must fill the queue to the reservation limit, refuse admissions, cancel admission picks of
/// receivers that stopped asking, fill a packet FIFO, make transmitters await writers, and move many chunks.
fn exercised(r: &Report, cycles: u64) {
    assert!(r.counter("min_free") <= 8, "queue never filled: {r}");
    assert!(
        r.counter("refused") > cycles / 100,
        "admission rule hardly exercised: {r}"
    );
    assert!(r.counter("pfifo_full") > 0, "no packet FIFO ever full: {r}");
    assert!(
        r.counter("cancelled") > cycles / 100,
        "admission picks hardly cancelled (a receiver that stops asking): {r}"
    );
    assert!(
        r.counter("awaits") > cycles / 100,
        "reads hardly await writers: {r}"
    );
    assert!(r.counter("writes") > cycles / 4, "too few writes: {r}");
    assert!(
        r.counter("reads") + 200 > r.counter("writes"),
        "chunks left behind: {r}"
    );
}

#[test]
fn central_queue_v2_agrees_with_the_model() {
    let r = check("sp2_central_queue_v2", BackendKind::RustHdl, 60_000);
    exercised(&r, 60_000);
}

#[test]
fn central_queue_v2_verilog_in_icarus() {
    let r = check("sp2_central_queue_v2", BackendKind::Icarus, 12_000);
    exercised(&r, 12_000);
}

#[test]
fn central_queue_v2_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_central_queue_v2", BackendKind::Verilator, n);
    exercised(&r, n);
    assert!(
        r.counter("reused_awaited") > 0,
        "an awaited writer's chunk never reused: {r}"
    );
}

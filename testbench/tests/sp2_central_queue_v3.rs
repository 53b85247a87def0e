//! The `sp2_central_queue_v3` top (the v3 central queue) against `asr_model::sp2::v3::central_queue` inside
//! the running v3 model switch (`cosim/tops/sp2_central_queue_v3.rs`: the queue's inputs of every cycle from
//! the shadow switch under random traffic, its registers compared every cycle): in rust-hdl's simulation,
//! and the exported Verilog in Icarus and Verilator (its Verilator lint: `tests/export.rs`, every top).
//! Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, input_flips_caught, output_flip_reported, BackendKind, Report};
use asr_testbench::harness::{cycles, seed};

/// The run must admit and read packets (starts and chunks inside packets), reject candidates in stage C,
/// find reads waiting for their writer, use every control operation and the two writer records, and no
/// used read may meet a write of its chunk.
fn exercised(r: &Report, cycles: u64) {
    assert!(
        r.counter("admissions") > cycles / 200,
        "few admissions: {r}"
    );
    assert!(
        r.counter("chunk_reads") > cycles / 20,
        "few chunk reads: {r}"
    );
    assert!(r.counter("packet_starts") > cycles / 200, "few starts: {r}");
    assert!(
        r.counter("chunk_reads") > r.counter("packet_starts") * 2,
        "few chunks inside packets: {r}"
    );
    assert!(
        r.counter("stage_c_rejects") > 0,
        "stage C never rejected: {r}"
    );
    assert!(
        r.counter("reads_awaiting_writer") > cycles / 1000,
        "no read awaited its writer: {r}"
    );
    assert!(r.counter("links") > cycles / 100, "few links: {r}");
    assert!(r.counter("pushes") > cycles / 200, "few pushes: {r}");
    assert!(r.counter("pops") > cycles / 20, "few pops: {r}");
    assert!(
        r.counter("receiver_cycles_two_records") > 0,
        "no receiver had two writer records: {r}"
    );
    assert_eq!(r.counter("read_write_conflicts"), 0, "{r}");
}

#[test]
fn sp2_central_queue_v3_agrees_with_the_model() {
    let r = check("sp2_central_queue_v3", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn sp2_central_queue_v3_verilog_in_icarus() {
    let r = check("sp2_central_queue_v3", BackendKind::Icarus, 20_000);
    exercised(&r, 20_000);
}

#[test]
fn sp2_central_queue_v3_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_central_queue_v3", BackendKind::Verilator, n);
    exercised(&r, n);
}

/// The harness catches a fault: one bit of a transmitter's read request, a receiver's admission request or
/// a pop flipped for one cycle (the HDL acts where the model does not) is reported as a mismatch, never
/// before the flip, for at least two of the three; one output bit flipped is reported at its cycle and
/// signal, once.
#[test]
fn sp2_central_queue_v3_injected_fault_is_caught() {
    let flips = [
        (3_001u64, "rd_req", 2usize),
        (5_003, "ask_valid", 5),
        (7_007, "pop", 0),
    ];
    let caught = input_flips_caught("sp2_central_queue_v3", 12_000, &flips);
    assert!(
        caught >= 2,
        "injected faults were not caught ({caught} of 3, ASR_SEED={:#x})",
        seed()
    );
    output_flip_reported("sp2_central_queue_v3", 5_000, 3_210, "load_nz", 1);
}

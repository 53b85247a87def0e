//! The `sp2_allocator_v2` top (the v2 crossbar allocator) against `asr_model::sp2::v2::allocator::Allocator`
//! (`cosim/tops/sp2_allocator_v2.rs`: receivers that wait with single-port, 2–3-port, dense and all-port sets and drop
//! to the queue, transmitters busy for a packet after a grant, flickering `free`, and a phase of independent random
//! inputs; both grant outputs compared every cycle): in rust-hdl's simulation, and the exported Verilog in Icarus
//! and Verilator (its Verilator lint: `tests/export.rs`, every top). Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};
use asr_testbench::harness::cycles;

/// The run must grant a lot, often to many receivers at once, to receivers that waited over several
/// matrices, and see drops.
fn exercised(r: &Report, cycles: u64) {
    assert!(r.counter("grants") > cycles, "too few grants: {r}");
    assert!(
        r.counter("cycles_4_grants") > cycles / 40,
        "few cycles with 4 or more grants: {r}"
    );
    assert!(
        r.counter("late_grants") > cycles / 50,
        "few late grants: {r}"
    );
    assert!(r.counter("drops") > cycles / 100, "few drops: {r}");
}

#[test]
fn sp2_allocator_agrees_with_the_model() {
    let r = check("sp2_allocator_v2", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn sp2_allocator_verilog_in_icarus() {
    let r = check("sp2_allocator_v2", BackendKind::Icarus, 12_000);
    exercised(&r, 12_000);
}

#[test]
fn sp2_allocator_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_allocator_v2", BackendKind::Verilator, n);
    exercised(&r, n);
}

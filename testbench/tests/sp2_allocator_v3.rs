//! The `sp2_allocator_v3` top (the v3 crossbar allocator) against `asr_model::sp2::v3::allocator::Allocator`
//! inside the running v3 model switch (`cosim/tops/sp2_allocator_v3.rs`: the shadow switch's traffic, the
//! model allocator's inputs on the pins, its registers compared every cycle): in rust-hdl's simulation, and
//! the exported Verilog in Icarus and Verilator (its Verilator lint: `tests/export.rs`, every top); and a
//! fault injected into the design's side is reported. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, input_flips_caught, output_flip_reported, BackendKind, Report};
use asr_testbench::harness::{cycles, seed};

/// The run must capture many matrices, back to back too, grant several transmitters at once, leave rows
/// out of a capture for both reasons, and resolve contention.
fn exercised(r: &Report, cycles: u64) {
    assert!(r.counter("matrices") > cycles / 100, "few matrices: {r}");
    assert!(r.counter("grants") > cycles / 100, "few grants: {r}");
    assert!(
        // The shadow's traffic rarely has two grants in one cycle (about 1 in 4 000 cycles).
        r.counter("cycles_2_grants") > cycles / 20_000,
        "few cycles with 2 or more grants: {r}"
    );
    assert!(
        r.counter("back_to_back_matrices") > cycles / 2000,
        "few back-to-back matrices: {r}"
    );
    assert!(
        r.counter("captures_row_in_admission") > 0,
        "no row left out for the admission pipeline: {r}"
    );
    assert!(
        r.counter("captures_row_granted_now") > 0,
        "no row left out for a grant of the cycle: {r}"
    );
    assert!(
        r.counter("contended_grant_cycles") > 0,
        "no contention: {r}"
    );
}

#[test]
fn sp2_allocator_v3_agrees_with_the_model() {
    let r = check("sp2_allocator_v3", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn sp2_allocator_v3_verilog_in_icarus() {
    let r = check("sp2_allocator_v3", BackendKind::Icarus, 20_000);
    exercised(&r, 20_000);
}

#[test]
fn sp2_allocator_v3_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_allocator_v3", BackendKind::Verilator, n);
    exercised(&r, n);
}

/// One input bit flipped as the design sees it (not the model), `cand` or `req` bit 0 in one of a few
/// cycles: when it changes a capture, a later output differs; a mismatch is never reported before the
/// flip, and at least one of the flips is reported. One output bit flipped is reported at its cycle and
/// signal, once.
#[test]
fn sp2_allocator_v3_reports_an_injected_fault() {
    let mut flips = Vec::new();
    for cycle in [1_000u64, 2_345, 5_000, 7_777, 9_999, 12_345, 15_432] {
        flips.push((cycle, "cand", 0));
        flips.push((cycle, "req", 0));
    }
    let caught = input_flips_caught("sp2_allocator_v3", 20_000, &flips);
    assert!(
        caught > 0,
        "no flipped input bit was reported (ASR_SEED={:#x})",
        seed()
    );
    output_flip_reported("sp2_allocator_v3", 5_000, 3_210, "may_capture", 0);
}

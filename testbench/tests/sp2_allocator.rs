//! The `sp2_allocator` top (the v2 crossbar allocator) against `asr_model::sp2::v2::allocator::Allocator`
//! (`cosim/tops/sp2_allocator.rs`: receivers that wait with single-port, 2–3-port, dense and all-port sets
//! and drop to the queue, transmitters busy for a packet after a grant, flickering `free`, and a phase of
//! independent random inputs; both grant outputs compared every cycle): in rust-hdl's simulation, and the
//! exported Verilog in Icarus and Verilator, whose lint it passes. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};

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
    let r = check("sp2_allocator", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn sp2_allocator_verilog_in_icarus() {
    let r = check("sp2_allocator", BackendKind::Icarus, 12_000);
    exercised(&r, 12_000);
}

#[test]
fn sp2_allocator_verilog_in_verilator() {
    let r = check("sp2_allocator", BackendKind::Verilator, 1_000_000);
    exercised(&r, 1_000_000);
}

/// The exported Verilog passes `verilator --lint-only -Wall` with the project's waivers (docs/hdl.md:
/// WIDTH, DECLFILENAME, UNUSEDSIGNAL); in particular no `UNOPTFLAT` (the export isolates the
/// combinational regs) and no latch.
#[test]
fn sp2_allocator_verilog_lints_clean() {
    let v = asr_hdl::export::verilog_of("sp2_allocator").unwrap();
    let dir = std::env::temp_dir().join(format!("asr-lint-alloc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sp2_allocator.v");
    std::fs::write(&file, &v).unwrap();
    let out = std::process::Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", "sp2_allocator"])
        .args(["-Wno-WIDTH", "-Wno-DECLFILENAME", "-Wno-UNUSEDSIGNAL"])
        .arg(&file)
        .output()
        .expect("verilator must be installed");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "sp2_allocator: verilator lint failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

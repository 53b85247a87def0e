//! The 8×8 allocators of `hdl/src/alloc/` (iSLIP-1, PIM-1 with xorshift priorities, wavefront) against their
//! model twins on random request matrices (`cosim/tops/alloc.rs`): in rust-hdl's simulation, and the exported
//! Verilog in Icarus and in Verilator, every grant of every cycle. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Options, Perturb};
use asr_testbench::harness::cycles;

const TOPS: [&str; 3] = ["alloc_islip1_m8", "alloc_pim1_m8", "alloc_wavefront_m8"];

#[test]
fn islip1_m8_agrees_with_the_model() {
    check("alloc_islip1_m8", BackendKind::RustHdl, 50_000);
}

#[test]
fn pim1_m8_agrees_with_the_model() {
    check("alloc_pim1_m8", BackendKind::RustHdl, 50_000);
}

#[test]
fn wavefront_m8_agrees_with_the_model() {
    check("alloc_wavefront_m8", BackendKind::RustHdl, 50_000);
}

/// The exported Verilog of every allocator in Icarus on 10 000 matrices (a tenth in the short tier).
#[test]
fn every_allocator_verilog_in_icarus() {
    for t in TOPS {
        check(t, BackendKind::Icarus, cycles(10_000));
    }
}

/// The exported Verilog of every allocator in Verilator on 1 000 000 matrices (a tenth in the short tier).
#[test]
fn every_allocator_verilog_in_verilator() {
    for t in TOPS {
        check(t, BackendKind::Verilator, cycles(1_000_000));
    }
}

/// The comparison can fail: one flipped grant bit is reported at its cycle, on each allocator.
#[test]
fn a_flipped_grant_is_caught() {
    for t in TOPS {
        let mut o = Options::new(
            t,
            BackendKind::Verilator,
            3_000,
            asr_testbench::harness::seed(),
        );
        o.perturb = Some(Perturb::Output {
            cycle: 2_000,
            port: "grants".into(),
            bit: 19,
        });
        let r = asr_testbench::cosim::run(&o).expect("runs");
        let m = r
            .first
            .clone()
            .unwrap_or_else(|| panic!("{t}: not caught: {r}"));
        assert_eq!((m.cycle, m.signal.as_str()), (2_000, "grants"), "{t}");
    }
}

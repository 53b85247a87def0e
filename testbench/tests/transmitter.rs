//! The SP2 `transmitter` top against `asr_model::sp2::transmitter::Transmitter`, with the stimulus playing
//! the rest of the switch as `Sp2Switch::step` does for one output (`cosim/tops/transmitter.rs`: crossbar
//! grants when free, the connected receiver's bytes when there is room, central-queue chunks read when
//! wanted, downstream tokens with random delay); every output compared every cycle: in rust-hdl's
//! simulation, and the exported Verilog in Icarus and Verilator. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};

fn exercised(r: &Report, cycles: u64) {
    let k = cycles / 100_000;
    assert!(
        r.counter("xbar_packets") > 300 * k
            && r.counter("queue_packets") > 300 * k
            && r.counter("cycles_without_credit") > 100 * k,
        "too little traffic: {r}"
    );
}

#[test]
fn transmitter_agrees_with_the_model() {
    let r = check("transmitter", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn transmitter_verilog_in_icarus() {
    check("transmitter", BackendKind::Icarus, 12_000);
}

#[test]
fn transmitter_verilog_in_verilator() {
    let r = check("transmitter", BackendKind::Verilator, 1_000_000);
    exercised(&r, 1_000_000);
}

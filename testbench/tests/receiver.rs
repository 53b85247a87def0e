//! The SP2 `receiver` top against `asr_model::sp2::receiver::Receiver`, driven as `Sp2Switch::step` drives
//! one receiver (`cosim/tops/receiver.rs`: good packets, bad CRCs, flipped payload bits, `R1 = 0`,
//! `LEN = 0`; random grants, choices, queue write grants and transmitter room); every output compared every
//! cycle, the error counters modulo 256: in rust-hdl's simulation, and the exported Verilog in Icarus and
//! Verilator. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};

fn exercised(r: &Report, cycles: u64) {
    let k = cycles / 100_000;
    assert!(
        r.counter("xbar_packets") > 300 * k
            && r.counter("queue_chunks") > 1_000 * k
            && r.counter("bad_flagged") > 20 * k
            && r.counter("crc_errors") > 300 * k
            && r.counter("route_errors") > 300 * k,
        "too little traffic: {r}"
    );
}

#[test]
fn receiver_agrees_with_the_model() {
    let r = check("receiver", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn receiver_verilog_in_icarus() {
    let r = check("receiver", BackendKind::Icarus, 12_000);
    assert!(
        r.counter("crc_errors") > 30 && r.counter("route_errors") > 30,
        "{r}"
    );
}

#[test]
fn receiver_verilog_in_verilator() {
    let r = check("receiver", BackendKind::Verilator, 1_000_000);
    exercised(&r, 1_000_000);
}

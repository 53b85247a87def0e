//! The `sp2_transmitter_v2` top (the v2 transmitter) against `asr_model::sp2::v2::transmitter::Transmitter`
//! (`cosim/tops/sp2_transmitter_v2.rs`: central-queue packets as chunks read on `wants` and arriving the next cycle,
//! crossbar packets offered with gaps by the granted receiver, junk offers while not on the crossbar, tokens at
//! random rates; every output compared every cycle; a scoreboard of the link bytes and CRCs): in rust-hdl's
//! simulation, and the exported Verilog in Icarus and Verilator (its Verilator lint: `tests/export.rs`, every top).
//! Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};
use asr_testbench::harness::cycles;

/// The run must send both kinds of packets, back to back from the queue, run out of credit and see junk
/// offers.
fn exercised(r: &Report, cycles: u64) {
    assert!(r.counter("bytes_sent") > cycles / 3, "few bytes sent: {r}");
    assert!(
        // Packet lengths over the whole legal range (since 2026-11-26): fewer, longer packets.
        r.counter("xbar_packets") > cycles / 1000,
        "few crossbar packets: {r}"
    );
    assert!(
        r.counter("queue_packets") > cycles / 1000,
        "few queue packets: {r}"
    );
    assert!(
        r.counter("back_to_back_bytes") > cycles / 10,
        "few back-to-back bytes: {r}"
    );
    assert!(
        r.counter("cycles_without_credit") > cycles / 100,
        "the credit never ran out: {r}"
    );
    assert!(
        r.counter("junk_offers") > cycles / 100,
        "few junk offers: {r}"
    );
}

#[test]
fn sp2_transmitter_agrees_with_the_model() {
    let r = check("sp2_transmitter_v2", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn sp2_transmitter_verilog_in_icarus() {
    let r = check("sp2_transmitter_v2", BackendKind::Icarus, 20_000);
    exercised(&r, 20_000);
}

#[test]
fn sp2_transmitter_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_transmitter_v2", BackendKind::Verilator, n);
    exercised(&r, n);
}

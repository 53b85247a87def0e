//! The whole v2 switch `sp2_switch_v2` (hdl/src/sp2/v2/switch.rs) against
//! `asr_model::sp2::v2::switch::Sp2SwitchV2`, with the stimulus of `cosim/tops/sp2_switch.rs` (
//! a model node on each port, random packets with route sets of 1, 2 or many ports, payloads over the whole
//! legal range with its corners, back-to-back packets, empty route sets, flipped bits after `R1`, a
//! scoreboard, consumer stalls and slow consumers, load phases); `link_out`, `token_out` and the receivers'
//! error counters compared every cycle, the model's queue invariants checked as it runs. Replay a failure
//! with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};
use asr_testbench::harness::cycles;

fn exercised(r: &Report, cycles: u64) {
    asr_testbench::cosim::tops::sp2_switch::assert_exercised(r, cycles);
}

#[test]
fn sp2_switch_v2_agrees_with_the_model() {
    let r = check("sp2_switch_v2", BackendKind::RustHdl, 20_000);
    assert!(r.counter("bytes_out") > 40_000, "too little traffic: {r}");
}

/// 10 000 cycles in Icarus (its four load phases once; a tenth in the short tier, the first phase: the
/// short tier's Verilator run covers every phase of the same Verilog).
#[test]
fn sp2_switch_v2_verilog_in_icarus() {
    let n = cycles(10_000);
    let r = check("sp2_switch_v2", BackendKind::Icarus, n);
    assert!(
        r.counter("crc_errors") > 3 * n / 10_000
            && r.counter("route_errors") > 6 * n / 10_000
            && r.counter("payload_0") > 20 * n / 10_000,
        "{r}"
    );
}

#[test]
fn sp2_switch_v2_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_switch_v2", BackendKind::Verilator, n);
    exercised(&r, n);
}

// ---- Directed regressions (issue 30): the same byte sequences in lock-step with the model (rust-hdl) and
// through the exported Verilog (Icarus, Verilator); scripts in `cosim/tops/sp2_directed.rs`.

use asr_model::sp2::v2::switch::Sp2SwitchV2;
use asr_testbench::cosim::tops::sp2_directed::{
    queued_packet_and_newer_crossbar_packets, run_everywhere, short_packet_then_another,
};

/// Fault 1: a packet with `LEN` 1 to {2}, then at once one with `LEN` 5 to {0, 1}: the second leaves on
/// output 0 or 1, intact (it used to leave on output 2).
#[test]
fn short_packet_then_another_directed_in_every_simulator() {
    run_everywhere::<Sp2SwitchV2>("short packet then another", short_packet_then_another());
}

/// Fault 2: port 7's queued packet leaves second, not after all of port 3's newer crossbar packets (it used
/// to leave last, at cycle 371 with 10 packets).
#[test]
fn queued_packet_not_overtaken_directed_in_every_simulator() {
    run_everywhere::<Sp2SwitchV2>(
        "queued packet not overtaken",
        queued_packet_and_newer_crossbar_packets(10),
    );
}

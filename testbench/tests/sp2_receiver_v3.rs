//! The `sp2_receiver_v3` top (the v3 receiver of port 3) in lock-step with its model twin inside the running
//! v3 model switch (`cosim/tops/sp2_receiver_v3.rs`, driven by `Shadow`: realistic traffic with every payload
//! length, malformed packets and stalls): its registers, its RAM-port actions and its error counters compared
//! every cycle, in rust-hdl's simulation, and the exported Verilog in Icarus and Verilator. Replay a failure
//! with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, input_flips_caught, output_flip_reported, BackendKind, Report};
use asr_testbench::harness::{cycles, seed};

/// The run went through every path: crossbar and queue packets (with links and last entries), look-ahead
/// grants and admissions, packets without a header entry, waits, a nearly full FIFO, and (in runs of 10^5
/// cycles or more: about one packet in 40 is malformed, and packets are long) both error kinds. Seed
/// 0x5eeda5a5 in 10^5 cycles: 188 crossbar and 366 queue packets, 4 019 links, 59 look-ahead grants, 106
/// look-ahead admissions, 74 packets without a header entry, 12 CRC and 21 route errors.
fn exercised(r: &Report, cycles: u64) {
    for (name, per_100k) in [
        ("xbar_packets", 100),
        ("queue_packets", 200),
        ("queue_writes", 15_000),
        ("links", 2_000),
        ("last_entries_written", 200),
        ("lookahead_grants", 25),
        ("lookahead_admissions", 50),
        ("unheaded_packets", 30),
        ("wait_cycles", 10_000),
        ("fifo_nearly_full_cycles", 10_000),
        ("crc_errors", 4),
        ("route_errors", 8),
    ] {
        if name.ends_with("errors") && cycles < 100_000 {
            continue;
        }
        let min = (per_100k * cycles / 100_000).max(1);
        assert!(
            r.counter(name) >= min,
            "few {name} ({} in {cycles} cycles, at least {min}): {r}",
            r.counter(name)
        );
    }
}

#[test]
fn receiver_v3_agrees_with_the_model() {
    let r = check("sp2_receiver_v3", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn receiver_v3_verilog_in_icarus() {
    let r = check("sp2_receiver_v3", BackendKind::Icarus, 20_000);
    exercised(&r, 20_000);
}

#[test]
fn receiver_v3_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_receiver_v3", BackendKind::Verilator, n);
    exercised(&r, n);
}

/// A byte lost on the design's pins (its `pins_valid` flipped for one cycle, the model unchanged) is
/// reported as a mismatch, not before that cycle: the design's tokens, at least, differ from then on. One
/// output bit flipped is reported at its cycle and signal, once.
#[test]
fn receiver_v3_reports_a_lost_byte() {
    let caught = input_flips_caught("sp2_receiver_v3", 6_000, &[(3_000, "pins_valid", 0)]);
    assert_eq!(
        caught,
        1,
        "the lost byte was not reported (ASR_SEED={:#x})",
        seed()
    );
    output_flip_reported("sp2_receiver_v3", 5_000, 3_210, "token", 0);
}

//! The SP2 v2 `sp2_receiver_v2` top against `asr_model::sp2::v2::receiver::Receiver`, driven as `Sp2SwitchV2`
//! drives one receiver (`cosim/tops/sp2_receiver_v2.rs`: good packets, bad CRCs, flipped bits anywhere, `R1 = 0`,
//! `LEN = 0`, the link credit; grants only while it waits, admissions only when it may ask, random
//! transmitter credit and queue writes); every output compared every cycle, the error counters modulo 256:
//! in rust-hdl's simulation, and the exported Verilog in Icarus and Verilator. Replay a failure with
//! `ASR_SEED=<seed>` (every report prints its seed).

use asr_testbench::cosim::{check, run, BackendKind, Options, Perturb, Report};
use asr_testbench::harness::cycles;
use asr_testbench::harness::seed;

/// The run exercised every path: the crossbar, the look-ahead start (after a crossbar, a queued and a dropped
/// packet), the queue (with a full assembly waiting for the ready slot), bad packets, both error kinds and a
/// full FIFO.
fn exercised(r: &Report, cycles: u64) {
    let k = cycles / 100_000;
    assert!(
        r.counter("xbar_packets") > 1_000 * k
            && r.counter("la_starts") > 100 * k
            && r.counter("la_after_queue") > 10 * k
            && r.counter("la_after_drop") > 2 * k
            && r.counter("ready_stalls") > 1_000 * k
            && r.counter("queue_packets") > 300 * k
            && r.counter("queue_chunks") > 1_000 * k
            && r.counter("bad_flagged") > 20 * k
            && r.counter("fifo_full_cycles") > 1_000 * k
            && r.counter("ahead_8_cycles") > 5 * k
            && r.counter("crc_errors") > 100 * k
            && r.counter("route_errors") > 100 * k,
        "too little traffic: {r}"
    );
}

#[test]
fn receiver_v2_agrees_with_the_model() {
    let r = check("sp2_receiver_v2", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn receiver_v2_verilog_in_icarus() {
    let r = check("sp2_receiver_v2", BackendKind::Icarus, 20_000);
    assert!(
        r.counter("la_starts") > 10
            && r.counter("crc_errors") > 20
            && r.counter("route_errors") > 20,
        "{r}"
    );
}

#[test]
fn receiver_v2_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("sp2_receiver_v2", BackendKind::Verilator, n);
    exercised(&r, n);
}

/// A fault injected into the design's side (one input bit flipped as the design sees it, not the model) is
/// reported at its cycle, on the output it reaches first; one output bit flipped is reported at its cycle
/// and signal, the two values differing in that bit.
#[test]
fn receiver_v2_reports_an_injected_fault_at_its_cycle_and_signal() {
    let s = seed();
    let cycle = 4_321;
    let mut o = Options::new("sp2_receiver_v2", BackendKind::Verilator, cycle + 1_000, s);
    o.perturb = Some(Perturb::Output {
        cycle,
        port: "ready_data".into(),
        bit: 37,
    });
    let r = run(&o).unwrap_or_else(|e| panic!("{e:#} (ASR_SEED={s:#x})"));
    let m = r
        .first
        .clone()
        .unwrap_or_else(|| panic!("fault not reported: {r} (ASR_SEED={s:#x})"));
    assert_eq!(
        (m.cycle, m.signal.as_str(), r.mismatches, r.cycles),
        (cycle, "ready_data", 1, cycle + 1),
        "{r} (ASR_SEED={s:#x})"
    );
    let val = |h: &str| u64::from_str_radix(h.split("'h").nth(1).unwrap(), 16).unwrap();
    assert_eq!(
        val(&m.expected) ^ val(&m.actual),
        1 << 37,
        "{m} (ASR_SEED={s:#x})"
    );
}

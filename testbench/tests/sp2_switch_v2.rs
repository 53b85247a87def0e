//! The whole v2 switch `sp2_switch_v2` (hdl/src/sp2/v2/switch.rs) against
//! `asr_model::sp2::v2::switch::Sp2SwitchV2`, with the stimulus of `sp2_switch` (`cosim/tops/sp2_switch.rs`:
//! a model node on each port, random packets with route sets of 1, 2 or many ports, empty route sets, flipped
//! bits anywhere, consumer stalls and slow consumers, load phases); `link_out`, `token_out` and the receivers'
//! error counters compared every cycle, the model's queue invariants checked as it runs. Replay a failure
//! with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, BackendKind, Report};

fn exercised(r: &Report, cycles: u64) {
    let k = cycles / 100_000;
    assert!(
        r.counter("bytes_out") > 250_000 * k
            && r.counter("via_xbar") > 2_000 * k
            && r.counter("via_queue") > 2_000 * k
            && r.counter("crc_errors") > 100 * k
            && r.counter("route_errors") > 100 * k,
        "too little traffic: {r}"
    );
}

#[test]
fn sp2_switch_v2_agrees_with_the_model() {
    let r = check("sp2_switch_v2", BackendKind::RustHdl, 20_000);
    assert!(r.counter("bytes_out") > 40_000, "too little traffic: {r}");
}

#[test]
fn sp2_switch_v2_verilog_in_icarus() {
    let r = check("sp2_switch_v2", BackendKind::Icarus, 10_000);
    assert!(
        r.counter("crc_errors") > 10 && r.counter("route_errors") > 10,
        "{r}"
    );
}

#[test]
fn sp2_switch_v2_verilog_in_verilator() {
    let r = check("sp2_switch_v2", BackendKind::Verilator, 1_000_000);
    exercised(&r, 1_000_000);
}

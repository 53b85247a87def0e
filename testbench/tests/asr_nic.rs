//! The `asr_nic` top (the network endpoint) against `asr_model::sp2::nic::Nic` (`cosim/tops/asr_nic.rs`:
//! messages of every length on the AXI4-Stream send side, too long ones and bad destinations, random
//! back-pressure on the receive side, the network's packets within the credit with bad CRCs and empty
//! packets, tokens at random rates, table rewrites; every output compared every cycle; a scoreboard of the
//! framed packets and the delivered messages): in rust-hdl's simulation, and the exported Verilog in Icarus
//! and Verilator (its Verilator lint: `tests/export.rs`, every top). Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::cosim::{check, input_fault_caught, BackendKind, Report};
use asr_testbench::harness::cycles;

/// The run must send and deliver messages of both extreme lengths, drop messages on both sides, stall both
/// AXI sides, run out of credit and rewrite the table.
fn exercised(r: &Report, cycles: u64) {
    for (name, per) in [
        ("messages_sent", 1_000),
        ("messages_delivered", 200),
        ("bad_crc_delivered", 4_000),
        ("tx_drops", 4_000),
        ("rx_drops", 8_000),
        ("m_stall_cycles", 100),
        ("cycles_without_credit", 100),
        ("cfg_writes", 1_000),
        ("longest_messages", 20_000),
        ("one_byte_messages", 20_000),
    ] {
        assert!(r.counter(name) >= cycles / per, "few {name}: {r}");
    }
}

#[test]
fn asr_nic_agrees_with_the_model() {
    let r = check("asr_nic", BackendKind::RustHdl, 100_000);
    exercised(&r, 100_000);
}

#[test]
fn asr_nic_verilog_in_icarus() {
    let r = check("asr_nic", BackendKind::Icarus, 40_000);
    exercised(&r, 40_000);
}

#[test]
fn asr_nic_verilog_in_verilator() {
    let n = cycles(1_000_000);
    let r = check("asr_nic", BackendKind::Verilator, n);
    exercised(&r, n);
}

/// One token flipped as the design sees it (not the model) is caught: the design's credit is one off (or,
/// with the credit full, its sticky `credit_overflow` rises), which shows at the pins when the credit runs
/// out; the first mismatch is at or after the flipped cycle.
#[test]
fn asr_nic_reports_an_injected_fault() {
    let (m, r) = input_fault_caught("asr_nic", 60_000, 5_000, "token_in", 0);
    assert!(
        ["link_out_valid", "link_out_data", "credit_overflow"].contains(&m.signal.as_str()),
        "{m}: {r}"
    );
}

//! `asr network`: generated networks (switches wired as a topology, an `asr_nic` endpoint per processor)
//! against their model, every output every cycle, in Verilator and Icarus; the scoreboard of
//! `asr_testbench::cosim::tops::asr_network` (every message once, intact, to its destination with its
//! source, a good CRC, no drop) and a drain with every switch and endpoint idle. Deadlock-free tables
//! (`asr-df`) throughout. The short tier runs the 16-node board of v3 switches; the long tier also a network
//! of v2 switches in Icarus, a random irregular network and `sp2:32` with two failed links (each a Verilator
//! build of its own, so kept to 10^5 cycles; the runs of 10^6 cycles, a 4×4 mesh among them, measured with
//! `asr network --cosim`, are in docs/network.md).

use asr_testbench::cosim::tops::asr_network::{check, check_with, deadlock_free_tables, verilog};
use asr_testbench::cosim::{BackendKind, Perturb};
use asr_testbench::harness::{cycles, seed};

fn clean(spec: &str, version: &str, backend: BackendKind, n: u64) {
    let s = seed();
    let r = check(spec, version, backend, n, s, None)
        .unwrap_or_else(|e| panic!("{spec} {version}: {e:#} (ASR_SEED={s:#x})"));
    eprintln!("{spec} {version}: {r}");
    r.assert_clean(n);
    let c = |k: &str| r.counters.iter().find(|(n, _)| n == k).map_or(0, |x| x.1);
    assert!(
        c("delivered") > n / 400 && c("longest") > 0 && c("shortest") > 0 && c("m_stalls") > 0,
        "{spec} {version}: too little traffic: {r} (ASR_SEED={s:#x})"
    );
}

#[test]
fn sp2_16_v3_in_verilator() {
    clean("sp2:16", "v3", BackendKind::Verilator, cycles(1_000_000));
}

/// A beat the design takes and the model does not (`s_axis_tvalid` flipped while processor 2 is idle) is
/// reported as a mismatch at or after its cycle.
#[test]
fn an_injected_fault_is_caught() {
    let s = seed();
    let f = Perturb::Input {
        cycle: 20,
        port: "p2_s_axis_tvalid".into(),
        bit: 0,
    };
    let r = check("sp2:16", "v3", BackendKind::Verilator, 20_000, s, Some(f))
        .unwrap_or_else(|e| panic!("{e:#} (ASR_SEED={s:#x})"));
    let m = r
        .first
        .unwrap_or_else(|| panic!("fault not caught (ASR_SEED={s:#x})"));
    assert!(m.cycle >= 20, "{m} before the fault (ASR_SEED={s:#x})");
    assert!(
        m.signal.starts_with("p2_") || m.signal.starts_with("switch_"),
        "{m}"
    );
}

/// The generated file lints clean in Verilator with the exported tops' waivers.
#[test]
fn the_generated_network_lints() {
    let t = asr_model::topology::load("sp2:16").unwrap();
    let tables = deadlock_free_tables(&t).unwrap();
    let v = verilog(&t, &tables, "v3", "net16").unwrap();
    let dir = std::env::temp_dir().join(format!("asr-network-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("net16.v");
    std::fs::write(&file, &v).unwrap();
    let out = std::process::Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", "net16"])
        .args(["-Wno-WIDTH", "-Wno-DECLFILENAME", "-Wno-UNUSEDSIGNAL"])
        .arg(&file)
        .output()
        .expect("verilator must be installed");
    assert!(
        out.status.success(),
        "lint: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "long tier: a network in Icarus (scripts/test.sh runs it)"]
fn sp2_16_v2_in_icarus() {
    // Icarus runs this network at 10–20 cycles per second.
    clean("sp2:16", "v2", BackendKind::Icarus, 2_000);
}

#[test]
#[ignore = "long tier: a random irregular network (scripts/test.sh runs it)"]
fn irregular_v3_in_verilator() {
    clean(
        "irregular:8:2:1",
        "v3",
        BackendKind::Verilator,
        cycles(100_000),
    );
}

/// `sp2:32` with two failed switch-to-switch links (a degraded topology, as `asr topology --fail-links 2`
/// writes it) and the tables the generator makes for it.
#[test]
#[ignore = "long tier: a degraded network (scripts/test.sh runs it)"]
fn sp2_32_with_two_failed_links_in_verilator() {
    let t = asr_model::topology::load("sp2:32").unwrap();
    use asr_model::topology::faults::{degrade, Pick};
    let f = degrade(&t, &Pick::Random(2), &Pick::Random(0), 1).unwrap();
    assert_eq!(f.failed_links.len(), 2);
    let tables = deadlock_free_tables(&f.topology).unwrap();
    let v = verilog(&f.topology, &tables, "v3", "asr_network").unwrap();
    let s = seed();
    let n = cycles(100_000);
    let r = check_with(
        &f.topology,
        tables,
        "v3",
        "asr_network",
        &v,
        BackendKind::Verilator,
        n,
        s,
        None,
    )
    .unwrap_or_else(|e| panic!("{e:#} (ASR_SEED={s:#x})"));
    eprintln!("sp2:32, two links failed: {r}");
    r.assert_clean(n);
}

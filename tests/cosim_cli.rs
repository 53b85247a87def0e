//! `asr cosim`: the JSON contract, a mismatch's exit status and message, and clear errors on bad input.

mod common;
use common::asr;

#[test]
fn json_of_a_clean_run() {
    let out = asr(&[
        "cosim", "switch2", "--cycles", "3000", "--seed", "7", "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    for k in [
        "top",
        "backend",
        "cycles",
        "seconds",
        "cycles_per_s",
        "packets",
        "mismatches",
    ] {
        assert!(v.get(k).is_some(), "key {k} missing: {v}");
    }
    assert_eq!(v["top"], "switch2");
    assert_eq!(v["backend"], "verilator");
    assert_eq!(v["mismatches"], 0);
    assert_eq!(v["seed"], 7);
    assert!(v["cycles"].as_u64().unwrap() >= 3000);
    assert!(v["packets"].as_u64().unwrap() > 1000);
}

/// An injected fault: exit status 1, the cycle, the signal and both values named, the VCD written.
#[test]
fn a_mismatch_exits_1_and_names_cycle_and_signal() {
    let dir = std::env::temp_dir().join(format!("asr-cosim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vcd = dir.join("f.vcd");
    let out = asr(&[
        "cosim",
        "benes8",
        "--cycles",
        "5000",
        "--inject-fault",
        "1234:out_valid:2",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("cycle 1234: `out_valid` is"), "{text}");
    assert!(
        text.contains("1 mismatches") && text.contains("replay: asr cosim benes8"),
        "{text}"
    );
    assert!(vcd.is_file() && dir.join("f.design.vcd").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_named() {
    for (args, want) in [
        (vec!["cosim", "benes9"], "unknown top `benes9`"),
        (
            vec!["cosim", "switch2", "--cycles", "0"],
            "--cycles 0: must be between 1 and 100000000",
        ),
        (
            vec!["cosim", "switch2", "--backend", "modelsim"],
            "unknown backend `modelsim`",
        ),
        (
            vec!["cosim", "switch2", "--seed", "x1"],
            "`x1` is not a seed",
        ),
        (
            vec!["cosim", "switch2", "--inject-fault", "5:out_valid"],
            "is not CYCLE:PORT:BIT",
        ),
        (
            vec!["cosim", "switch2", "--inject-fault", "5:nope:0"],
            "switch2 has no such port `nope`",
        ),
        (
            vec!["cosim", "switch2", "--inject-fault", "5:out_valid:2"],
            "`out_valid` has 2 bits",
        ),
        (
            vec!["cosim", "switch2", "--vcd", "/nonexistent/dir/f.vcd"],
            "the folder /nonexistent/dir does not exist",
        ),
    ] {
        let out = asr(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Without Verilator on the PATH, the error says how to install it.
#[test]
fn missing_verilator_says_how_to_install_it() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_asr"))
        .args(["cosim", "switch2", "--cycles", "10"])
        .env("PATH", "/nonexistent")
        .output()
        .expect("running asr");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("apt-get install verilator") && err.contains("scripts/setup.sh"),
        "{err}"
    );
}

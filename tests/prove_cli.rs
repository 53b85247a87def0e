//! `asr prove` as a user meets it (docs/formal.md): `--list` names every proof and its mutants, an unknown
//! top gets a plain error naming the tops with proofs, `--write-only` writes each job (exported Verilog,
//! property wrapper, `.sby`) and its mutants without running a tool, and a real run of the 2×2 switch's
//! proof passes (SymbiYosys and Yices: scripts/setup.sh installs them into `.venv/`).

mod common;
use common::asr_in;
use std::time::Duration;

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("asr-prove-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn list_unknown_top_and_write_only() {
    let dir = temp("cli");
    let out = asr_in(&dir, &["prove", "--list"], Duration::from_secs(60));
    assert!(out.status.success());
    let list = String::from_utf8_lossy(&out.stdout);
    for t in asr_testbench::formal::tops() {
        assert!(
            list.contains(&format!("(top {t};")),
            "{t} not listed:\n{list}"
        );
    }
    assert!(list.contains("mutant lose:"), "{list}");

    let out = asr_in(&dir, &["prove", "benes64"], Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: benes64: no proof of this top; tops with proofs: matcher_m4_p1,"),
        "{err}"
    );

    let out = asr_in(
        &dir,
        &[
            "prove",
            "switch2",
            "--write-only",
            "--mutants",
            "--out",
            "f",
        ],
        Duration::from_secs(60),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let job = dir.join("f/switch2");
    let sby = std::fs::read_to_string(job.join("switch2.sby")).unwrap();
    assert!(
        sby.contains("prove: mode prove") && sby.contains("cover: mode cover"),
        "{sby}"
    );
    assert!(
        sby.contains("prove: connect -set in_ptr dut.core.in_ptr$q"),
        "{sby}"
    );
    assert!(std::fs::read_to_string(job.join("formal.sv"))
        .unwrap()
        .contains("switch2 dut ("));
    let v = std::fs::read_to_string(job.join("switch2.v")).unwrap();
    let lose = std::fs::read_to_string(dir.join("f/switch2.lose/switch2.v")).unwrap();
    assert_ne!(v, lose);
    assert!(lose.contains("ob_full1$d = 1'b0;"));
}

#[test]
fn switch2_proof_passes() {
    let dir = temp("run");
    let out = asr_in(
        &dir,
        &["prove", "switch2", "--out", "f"],
        Duration::from_secs(600),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("  prove: PASS in "), "{text}");
    assert!(text.contains("  cover: PASS in "), "{text}");
}

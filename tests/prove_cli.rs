//! `asr prove` as a user meets it (docs/formal.md): `--list` names every proof and its mutants, an unknown
//! top gets a plain error naming the tops with proofs, `--write-only` writes each job (exported Verilog,
//! property wrapper, `.sby`) and its mutants without running a tool, and a real run of the 2×2 switch's
//! proof passes, and `--json --mutants` gives one record per task with a counterexample view per caught
//! mutant (SymbiYosys and Yices: scripts/setup.sh installs them into `.venv/`).

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

    // `--depth` sets the proof task's depth (the cover task keeps its own); `all` is every proof, alone.
    let out = asr_in(
        &dir,
        &[
            "prove",
            "switch2",
            "--depth",
            "5",
            "--write-only",
            "--out",
            "g",
        ],
        Duration::from_secs(60),
    );
    assert!(out.status.success());
    let sby = std::fs::read_to_string(dir.join("g/switch2/switch2.sby")).unwrap();
    assert!(
        sby.contains("prove: depth 5\n") && sby.contains("cover: depth 10\n"),
        "{sby}"
    );
    // Refused: a depth of 0 (clap's usage error, status 2) and `all` beside a top (status 1).
    for (args, code, message) in [
        (
            &["prove", "switch2", "--depth", "0"][..],
            2,
            "'--depth <DEPTH>'",
        ),
        (
            &["prove", "all", "switch2", "--write-only"][..],
            1,
            "all: name it alone",
        ),
    ] {
        let out = asr_in(&dir, args, Duration::from_secs(60));
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let out = asr_in(
        &dir,
        &["prove", "all", "--write-only", "--out", "h"],
        Duration::from_secs(120),
    );
    assert!(out.status.success());
    for p in asr_testbench::formal::PROOFS {
        assert!(
            dir.join("h")
                .join(p.name)
                .join(format!("{}.sby", p.name))
                .is_file(),
            "{}",
            p.name
        );
    }
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
    // The results table and records beside the jobs (what `asr all --prove` writes for every job).
    let table = std::fs::read_to_string(dir.join("f/results.txt")).unwrap();
    assert!(
        table.contains("| `switch2` | prove | k-induction | 2 | yes | PASS | PASS |"),
        "{table}"
    );
    assert!(
        table.contains("| `switch2` | cover | cover | 10 | no | PASS | PASS |"),
        "{table}"
    );
    assert!(table.contains("2 tasks of 1 jobs in "), "{table}");
    assert!(table.contains("; 0 not as they must be."), "{table}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("f/results.json")).unwrap())
            .unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
}

/// `--json` with `--mutants`: one record per task, the proof unbounded and passing, every mutant a bounded
/// check that fails as expected, with its counterexample's GTKWave save file beside the VCD; the save file
/// opens in GTKWave (under Xvfb) with the wrapper's signals.
#[test]
fn json_records_and_counterexample_views() {
    let dir = temp("json");
    let out = asr_in(
        &dir,
        &[
            "prove",
            "switch2",
            "--mutants",
            "--no-cover",
            "--json",
            "--out",
            "f",
        ],
        Duration::from_secs(900),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    let recs = v.as_array().unwrap();
    assert_eq!(recs.len(), 6, "the proof and 5 mutants: {text}");
    assert_eq!(recs[0]["task"], "prove");
    assert_eq!(recs[0]["engine"], "k-induction");
    assert_eq!(recs[0]["unbounded"], true);
    assert_eq!(recs[0]["status"], "PASS");
    assert!(recs[0]["traces"].as_array().unwrap().is_empty());
    for r in &recs[1..] {
        assert!(r["task"].as_str().unwrap().starts_with("mutant:"), "{r}");
        assert_eq!(r["status"], "FAIL", "{r}");
        assert_eq!(r["expected"], "FAIL", "{r}");
        let traces = r["traces"].as_array().unwrap();
        assert!(
            !traces.is_empty(),
            "a caught mutant has its counterexample: {r}"
        );
        for t in traces {
            let g = dir.join(t.as_str().unwrap());
            let save = std::fs::read_to_string(&g).unwrap();
            assert!(save.contains("trace.vcd"), "{save}");
            assert!(save.contains("formal.in_valid"), "{save}");
        }
    }
    let g = dir.join(recs[1]["traces"][0].as_str().unwrap());
    let o = asr_testbench::wave::gtkw::open_in_gtkwave(&g, &std::env::temp_dir())
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert!(o.traces.iter().any(|t| t == "in_valid"), "{:?}", o.traces);
    let _ = std::fs::remove_dir_all(&dir);
}

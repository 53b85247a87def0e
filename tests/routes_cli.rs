//! `asr routes --deadlock-free`, `asr routes-cost` and `asr sim --deadlock-free`: the acyclicity check is printed,
//! the tables written (non-minimal routes included) load back into the simulator and run where the unrestricted
//! tables deadlock; bad combinations of options are clear errors.

mod common;
use common::asr;

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("asr-routes-cli-{}-{name}", std::process::id()))
}

#[test]
fn deadlock_free_tables_print_the_check_and_load_back() {
    let f = tmp("sp2_128.routes");
    let out = asr(&[
        "routes",
        "--topology",
        "sp2:128",
        "--deadlock-free",
        "--out",
        f.to_str().unwrap(),
    ]);
    let so = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        so.contains("unrestricted tables: channel-dependency graph has a cycle"),
        "{so}"
    );
    assert!(so.contains("restriction: up*/down*"), "{so}");
    assert!(
        so.lines()
            .any(|l| l.starts_with("check: ") && l.ends_with(" dependencies, ACYCLIC")),
        "{so}"
    );
    assert!(so.contains("0 pairs routed non-minimally"), "{so}");
    assert_eq!(
        std::fs::read_to_string(&f).unwrap().lines().count(),
        1 + 128 * 127
    );
    // A torus needs some non-minimal routes: the file still loads and runs where unrestricted tables deadlock.
    let g = tmp("torus_5x5.routes");
    let out = asr(&[
        "routes",
        "--topology",
        "torus:5x5",
        "--deadlock-free",
        "--out",
        g.to_str().unwrap(),
    ]);
    let so = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && so.contains("ACYCLIC"), "{so}");
    assert!(!so.contains(" 0 pairs routed non-minimally"), "{so}");
    let run = |extra: &[&str]| {
        let mut a = vec![
            "sim",
            "--network",
            "torus:5x5",
            "--load",
            "0.2,1.0",
            "--packets",
            "100",
        ];
        a.extend_from_slice(extra);
        asr(&a)
    };
    let ok = run(&["--routes", g.to_str().unwrap()]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let ok = run(&["--routing", "asr", "--deadlock-free"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let dead = run(&["--routing", "asr"]);
    assert!(!dead.status.success());
    assert!(String::from_utf8_lossy(&dead.stderr).contains("deadlock"));
    let _ = std::fs::remove_file(f);
    let _ = std::fs::remove_file(g);
}

#[test]
fn cost_table_has_a_row_per_topology() {
    let out = asr(&[
        "routes-cost",
        "--topologies",
        "sp2:16,sp2:128,torus:4x4,irregular:8:1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        assert_eq!(r["df_acyclic"], true, "{r}");
    }
    assert_eq!(rows[0]["free_acyclic"], true);
    assert_eq!(rows[1]["free_acyclic"], false);
    assert!(rows[1]["df_adaptivity"].as_f64().unwrap() < 1.0);
}

#[test]
fn bad_options_are_errors_naming_the_problem() {
    for (args, needle) in [
        (
            vec![
                "routes",
                "--topology",
                "sp2:16",
                "--out",
                "/dev/null",
                "--always-restrict",
            ],
            "--deadlock-free",
        ),
        (
            vec!["sim", "--network", "benes:8", "--deadlock-free"],
            "--deadlock-free",
        ),
        (
            vec![
                "sim",
                "--network",
                "sp2:16",
                "--routes",
                "x.routes",
                "--deadlock-free",
            ],
            "--routes",
        ),
        (
            vec!["sim", "--network", "sp2:16", "--routing", "nope"],
            "--routing `nope` on `sp2:16`: use asr, single, asr-df, single-df",
        ),
        (
            vec![
                "routes",
                "--topology",
                "irregular:1:1",
                "--out",
                "/dev/null",
                "--deadlock-free",
            ],
            "number of switches",
        ),
    ] {
        let out = asr(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

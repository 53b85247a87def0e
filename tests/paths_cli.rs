//! `asr paths --json` contract and seed 003 Table 1 through the CLI; bad input gives errors, not panics.

mod common;
use common::asr;

#[test]
fn paths_json_torus_6x6() {
    let out = asr(&[
        "paths",
        "--topology",
        "torus:6x6",
        "--dest",
        "0,0",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = v.as_array().unwrap();
    assert_eq!(nodes.len(), 36);
    let find = |i: u64, j: u64| {
        nodes
            .iter()
            .find(|n| n["node"] == serde_json::json!([i, j]))
            .unwrap()
    };
    assert_eq!(find(3, 1)["paths"], 8);
    assert_eq!(
        find(3, 1)["s"],
        serde_json::json!([0, 0, 0, 0, 8, -12, 6, -1])
    );
    assert_eq!(find(2, 2)["s"], serde_json::json!([0, 0, 0, 0, 6, -7, 2]));
    assert_eq!(find(0, 0)["s"], serde_json::json!([1]));
}

#[test]
fn bad_input_is_an_error() {
    for args in [
        &["paths", "--topology", "torus:6"][..],
        &["paths", "--topology", "torus:6x6", "--dest", "7,0"],
        &["paths", "--topology", "torus:6x6", "--dest", "0,0,0"],
        &["paths", "--policy", "fastest"],
        &["delivery-mc", "--p", "0"],
        &["torus-theorems", "--max-n", "2"],
    ] {
        let out = asr(args);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("panicked"),
            "{args:?}"
        );
    }
}

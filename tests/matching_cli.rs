//! `asr matching`: the JSON contract and thesis Table 2.1 within ±0.02 for the 4×4 and 8×8 cells.

mod common;
use common::asr;

#[test]
fn json_reproduces_table_2_1() {
    let out = asr(&["matching", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let cells = v.as_array().expect("a JSON array");
    assert_eq!(cells.len(), 6);
    let thesis = [
        (4, 1, [0.88, 0.12, 0.0]),
        (4, 2, [0.98, 0.02, 0.0]),
        (8, 1, [0.59, 0.39, 0.02]),
        (8, 2, [0.86, 0.14, 0.0]),
    ];
    for c in cells {
        assert_eq!(c["trials"], 100_000);
        assert_eq!(c["density"], 0.5);
        let f: Vec<f64> = c["fractions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let sum: f64 = f.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "fractions sum to {sum}");
        let r = c["mean_ratio"].as_f64().unwrap();
        assert!(r > 0.9 && r <= 1.0);
        let (m, p) = (c["m"].as_u64().unwrap(), c["passes"].as_u64().unwrap());
        if let Some((_, _, t)) = thesis.iter().find(|t| t.0 == m && t.1 == p) {
            for k in 0..3 {
                assert!(
                    (f[k] - t[k]).abs() <= 0.02,
                    "m={m} passes={p} k={k}: {} vs thesis {}",
                    f[k],
                    t[k]
                );
            }
        }
    }
}

#[test]
fn bad_arguments_are_errors() {
    for args in [
        &["matching", "--m", "65"][..],
        &["matching", "--density", "1.5"],
        &["matching", "--trials", "0"],
        &["matching", "--m", "x"],
    ] {
        let out = asr(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

#[test]
fn table_prints_thesis_side_by_side() {
    let out = asr(&["matching", "--trials", "2000", "--m", "4", "--passes", "1"]);
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("| 0.88"), "{s}");
}

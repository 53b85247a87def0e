//! `asr allocators`: the JSON contract of issue 17 (one object per allocator, m and density; the m = 8 keys),
//! properties of the measured numbers that a wrong implementation breaks, the network study, the
//! synthesis-cache reader, and clear errors on bad options.

mod common;
use common::asr;
use serde_json::Value;

fn json(args: &[&str]) -> Vec<Value> {
    let out = asr(args);
    assert!(
        out.status.success(),
        "asr {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    v.as_array().expect("a JSON array").clone()
}

fn find<'a>(rows: &'a [Value], a: &str, m: u64, d: f64) -> &'a Value {
    rows.iter()
        .find(|r| r["allocator"] == a && r["m"] == m && r["density"].as_f64() == Some(d))
        .unwrap_or_else(|| panic!("no row {a} m={m} density={d}"))
}

#[test]
fn json_has_every_point_and_the_measures_behave() {
    let rows = json(&[
        "allocators",
        "--json",
        "--no-networks",
        "--trials",
        "4000",
        "--seed",
        "3",
    ]);
    let names = [
        "asr-p1",
        "asr-p2",
        "islip-1",
        "islip-2",
        "islip-4",
        "pim-1",
        "pim-2",
        "wavefront",
        "exact",
    ];
    assert_eq!(rows.len(), names.len() * 3 * 4);
    for r in &rows {
        let f: Vec<f64> = r["fractions"]
            .as_array()
            .expect("fractions")
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(f.len(), 4, "{r}");
        assert!((f.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{r}");
        let mean = r["mean_size_over_max"].as_f64().unwrap();
        assert!(mean > 0.5 && mean <= 1.0, "{r}");
        let m8 = r["m"] == 8;
        for k in [
            "lut_ice40",
            "fmax_ice40_mhz",
            "lut_ecp5",
            "fmax_ecp5_mhz",
            "saturation",
        ] {
            assert_eq!(r.get(k).is_some(), m8, "{k} in {r}");
        }
        if m8 {
            // The study was skipped: null per network, never a number.
            let s = r["saturation"].as_object().expect("per network");
            assert_eq!(s.len(), 3);
            assert!(s.values().all(Value::is_null), "{r}");
        }
        if r["allocator"] == "exact" {
            assert_eq!(f, [1.0, 0.0, 0.0, 0.0], "{r}");
            assert_eq!(mean, 1.0);
        }
    }
    for m in [4u64, 8, 16] {
        for d in [0.1, 0.3, 0.5, 0.9] {
            let mean = |a| find(&rows, a, m, d)["mean_size_over_max"].as_f64().unwrap();
            // Same matrices for every allocator: a second pass or more iterations never lose on average.
            assert!(mean("asr-p2") >= mean("asr-p1"), "m={m} d={d}");
            assert!(mean("islip-4") >= mean("islip-1"), "m={m} d={d}");
            assert!(mean("pim-2") >= mean("pim-1"), "m={m} d={d}");
        }
    }
    // Thesis Table 2.1 (density 0.5): 8×8, one pass: 0.59 at maximum; two passes: 0.86.
    let at_max = |a, m| find(&rows, a, m, 0.5)["fractions"][0].as_f64().unwrap();
    assert!((at_max("asr-p1", 8) - 0.59).abs() < 0.04);
    assert!((at_max("asr-p2", 8) - 0.86).abs() < 0.04);
    assert!((at_max("asr-p1", 4) - 0.88).abs() < 0.03);
}

#[test]
fn network_study_and_synthesis_cache() {
    let dir = std::env::temp_dir().join(format!("asr-alloc-cli-{}", std::process::id()));
    let ice = dir.join("ice40-hx8k");
    std::fs::create_dir_all(&ice).unwrap();
    std::fs::write(
        ice.join("alloc_islip1_m8-0123456789abcdef.row"),
        "<!-- measured 2026-01-01 -->\n| alloc_islip1_m8 | 500 | 321 | 48 | 0 | 10 | 17 | 55.5 | 3 |\n",
    )
    .unwrap();
    // The ECP5 column is the LFE5U-25F's; an 85F row (which sorts after it) must not be taken.
    for (t, lut, f) in [("ecp5-25f", 654, "77.7"), ("ecp5-85f", 999, "11.1")] {
        let d = dir.join(t);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("alloc_islip1_m8-0123456789abcdef.row"),
            format!("<!-- measured 2026-01-01 -->\n| alloc_islip1_m8 | - | {lut} | 128 | 0 | 10 | 17 | {f} | 3 | 0 |\n"),
        )
        .unwrap();
    }
    let rows = json(&[
        "allocators",
        "--json",
        "--m",
        "8",
        "--density",
        "0.5",
        "--allocator",
        "islip-1,asr-p2",
        "--trials",
        "500",
        "--packets",
        "300",
        "--synth-cache",
        dir.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(rows.len(), 2);
    let islip = find(&rows, "islip-1", 8, 0.5);
    assert_eq!(islip["lut_ice40"], 321);
    assert_eq!(islip["fmax_ice40_mhz"], 55.5);
    assert_eq!(islip["lut_ecp5"], 654);
    assert_eq!(islip["fmax_ecp5_mhz"], 77.7);
    // No row for the matcher in this cache: null, not a number from elsewhere.
    let asr = find(&rows, "asr-p2", 8, 0.5);
    assert!(asr["lut_ice40"].is_null(), "{asr}");
    for r in &rows {
        let s = &r["saturation"];
        let v = |n: &str| s[n].as_f64().unwrap_or_else(|| panic!("{n}: {r}"));
        for n in ["sp2:128", "fly:4,3", "benes:64"] {
            assert!(v(n) > 0.1 && v(n) <= 1.0, "{n}: {r}");
            let lat = r["latency_at_half_saturation"][n].as_f64().unwrap();
            assert!(lat > 1.0 && lat < 200.0, "{n}: {r}");
        }
        // SP2 with one-packet buffers saturates far below the butterfly (docs/sp2-systems.md).
        assert!(v("sp2:128") < v("fly:4,3"), "{r}");
    }
}

#[test]
fn bad_options_are_refused_by_name() {
    for (args, want) in [
        (vec!["--density", "1.5"], "--density 1.5"),
        (vec!["--m", "1"], "--m 1"),
        (vec!["--m", "65"], "--m 65"),
        (vec!["--allocator", "fifo"], "unknown allocator `fifo`"),
        (vec!["--trials", "0"], "--trials 0"),
        (vec!["--packets", "5"], "--packets 5"),
        (vec!["--synth-cache", "/nonexistent/x"], "--synth-cache"),
    ] {
        let mut a = vec!["allocators", "--no-networks"];
        a.extend(args.iter());
        let out = asr(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{a:?} accepted");
        assert!(err.contains(want), "{a:?}: {err}");
        assert!(!err.contains("panicked"), "{a:?}: {err}");
    }
}

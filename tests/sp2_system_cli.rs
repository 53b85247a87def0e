//! `asr sp2-system`: the JSON contract (ASR tables against single-path tables on an SP2 system), the CSV and
//! SVG files, and clear errors on bad input.

mod common;
use common::asr;

#[test]
fn json_and_files_for_the_32_node_system() {
    let dir = std::env::temp_dir().join(format!("asr-sp2-system-{}", std::process::id()));
    let out = asr(&[
        "sp2-system",
        "--network",
        "sp2:32",
        "--load",
        "0.2,1.0",
        "--measure",
        "4000",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let pts = v[0]["points"].as_array().expect("points");
    assert_eq!(v[0]["network"], "sp2:32");
    assert_eq!(pts.len(), 4, "2 routings × 2 loads");
    let get = |r: &str, l: f64, k: &str| {
        pts.iter()
            .find(|p| p["routing"] == r && p["load"].as_f64() == Some(l))
            .unwrap()["stats"][k]
            .as_f64()
            .unwrap()
    };
    for r in ["asr", "single"] {
        // Below saturation everything offered is accepted; at saturation sources refuse packets.
        assert!((get(r, 0.2, "accepted") - 0.2).abs() < 0.03, "{r}: {pts:?}");
        assert!(get(r, 1.0, "refused") > 0.0);
        assert_eq!(get(r, 0.2, "processors"), 32.0);
        assert!(pts.iter().all(|p| p["deadlock"].is_null()), "{pts:?}");
    }
    // ASR's adaptivity raises saturation throughput over one path per pair.
    assert!(
        get("asr", 1.0, "accepted") > get("single", 1.0, "accepted"),
        "{pts:?}"
    );
    let csv = std::fs::read_to_string(dir.join("sp2_systems.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    let svg = std::fs::read_to_string(dir.join("sp2_32.svg")).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("sp2:32 (32 processors"),
        "the plot's title names the system"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_input_is_an_error_naming_the_problem() {
    for (args, needle) in [
        (vec!["--network", "sp2:33"], "sp2:33"),
        (vec!["--network", "hypercube:8"], "9 ports"),
        (vec!["--routing", "xy"], "--routing `xy`"),
        (vec!["--load", "1.5"], "--load"),
        (vec!["--payload", "241"], "--payload `241`"),
        (vec!["--payload", "9..4"], "--payload `9..4`"),
        (vec!["--payload", "fullest"], "--payload `fullest`"),
        (vec!["--switch", "v4"], "--switch"),
    ] {
        let mut a = vec!["sp2-system"];
        a.extend(args.iter());
        let out = asr(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// The same system of v2 and of v3 switches: it runs with the same scoreboard and drain checks, the JSON
/// records the switch version, and the table says which switch it is.
#[test]
fn the_16_node_system_of_v2_switches() {
    let out = asr(&[
        "sp2-system",
        "--network",
        "sp2:16",
        "--switch",
        "v3",
        "--load",
        "0.2,1.0",
        "--measure",
        "3000",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("16 processors, 8 SP2-style switches (v3)"),
        "{text}"
    );
    let out = asr(&[
        "sp2-system",
        "--network",
        "sp2:16",
        "--switch",
        "v2",
        "--load",
        "0.2,1.0",
        "--measure",
        "3000",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("16 processors, 8 SP2-style switches (v2)"),
        "{text}"
    );
    let out = asr(&[
        "sp2-system",
        "--network",
        "sp2:16",
        "--switch",
        "v2",
        "--load",
        "0.2",
        "--measure",
        "10000",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let pts = v[0]["points"].as_array().expect("points");
    for p in pts {
        let a = p["stats"]["accepted"].as_f64().unwrap();
        assert!((a - 0.2).abs() < 0.03, "{p}");
        assert_eq!(p["stats"]["switches"], 8, "{p}");
    }
}

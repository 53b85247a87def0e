//! `asr topology SPEC --fail-links/--fail-switches`, `asr sp2-system --fail-at` and `asr fault-curve`: degraded
//! topologies list what failed and which processors became unreachable, and route deadlock-free; the dynamic
//! scenario names its lost packets; every bad fault request is a clear error.

mod common;
use common::asr;

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("asr-faults-cli-{}-{name}", std::process::id()))
}

#[test]
fn degraded_topology_lists_removals_and_routes_deadlock_free() {
    let f = tmp("d.top");
    let out = asr(&[
        "topology",
        "sp2:128",
        "--fail-links",
        "6",
        "--fail-switches",
        "N3C5",
        "--seed",
        "9",
        "--out",
        f.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.starts_with("# degraded sp2:128: 6 failed links, 1 failed switches, 4 unreachable processors (seed 9)"), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("# failed link "))
            .count(),
        6
    );
    assert!(text.contains("# failed switch N3C5"));
    for p in ["P52", "P53", "P54", "P55"] {
        assert!(
            text.contains(&format!("# unreachable processor {p} ")),
            "{p}"
        );
        assert!(
            !text.contains(&format!("node {p}\n")),
            "{p} still in the file"
        );
    }
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("4 processors are unreachable and were removed: P52, P53, P54, P55"),
        "{err}"
    );
    let out = asr(&[
        "routes",
        "--topology",
        f.to_str().unwrap(),
        "--deadlock-free",
        "--out",
        tmp("d.routes").to_str().unwrap(),
    ]);
    let so = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        so.contains("ACYCLIC") && so.contains("124 processors"),
        "{so}"
    );
    let _ = std::fs::remove_file(f);
    let _ = std::fs::remove_file(tmp("d.routes"));
}

#[test]
fn bad_fault_requests_are_clear_errors() {
    for (args, needle) in [
        (
            vec!["--fail-links", "49"],
            "cannot fail 49 links: the topology has only 48 switch-to-switch links",
        ),
        (vec!["--fail-links", "N9C0.0"], "unknown link `N9C0.0`"),
        (
            vec!["--fail-links", "N0C0.8"],
            "`N0C0.8`: switch N0C0 has ports 0 to 7",
        ),
        (
            vec!["--fail-links", "N0C4.0"],
            "`N0C4.0` is not a switch-to-switch link",
        ),
        (
            vec!["--fail-links", "N0C0.0,N1C0.0"],
            "`N1C0.0` is named twice",
        ),
        (
            vec!["--fail-links", "N0C4.4,N0C4.5,N0C4.6,N0C4.7"],
            "disconnects the network: P0 can no longer reach",
        ),
        (
            vec!["--fail-links", "40"],
            "cannot fail 40 links without disconnecting the network",
        ),
        (
            vec!["--fail-switches", "49"],
            "cannot fail 49 switches: the topology has only 16",
        ),
        (vec!["--fail-switches", "P3"], "unknown switch `P3`"),
        (
            vec!["--fail-switches", "N0C4,N0C5,N0C6,N0C7,N1C4,N1C5,N1C6,N1C7"],
            "the failures leave 0 processor(s) (32 unreachable and removed with their switches): a network needs at least 2",
        ),
    ] {
        let mut a = vec!["topology", "sp2:32", "--out", "/dev/null"];
        a.extend(args.iter());
        let out = asr(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    for (args, needle) in [
        (
            vec!["--fail-at", "500", "--fail-links", "2"],
            "inside the measured window",
        ),
        (
            vec![
                "--fail-at",
                "9000",
                "--fail-links",
                "2",
                "--measure",
                "8000",
            ],
            "inside the measured window",
        ),
        (
            vec!["--fail-at", "3000", "--fail-links", "N0C0.9"],
            "switch N0C0 has ports 0 to 7",
        ),
        (vec!["--fail-at", "3000"], "--fail-links"),
        (
            vec![
                "--fail-at",
                "3000",
                "--fail-links",
                "1",
                "--network",
                "sp2:32,sp2:48",
            ],
            "exactly one --network",
        ),
    ] {
        let mut a = vec!["sp2-system", "--network", "sp2:32"];
        a.extend(args.iter());
        let out = asr(&a);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn dynamic_scenario_names_lost_packets() {
    let out = asr(&[
        "sp2-system",
        "--network",
        "sp2:32",
        "--routing",
        "asr-df",
        "--load",
        "0.8",
        "--measure",
        "6000",
        "--fail-at",
        "4000",
        "--fail-links",
        "3",
        "--reroute-delay",
        "500",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let st = &v[0]["points"][0]["stats"];
    let f = &st["faults"];
    assert_eq!(f["links"].as_array().unwrap().len(), 3);
    assert_eq!(f["switch_at"], 4500);
    let lost = f["lost"].as_array().unwrap();
    assert!(!lost.is_empty(), "{f}");
    assert_eq!(
        st["delivered"].as_u64().unwrap() + lost.len() as u64,
        st["created"].as_u64().unwrap()
    );
    assert_eq!(f["delivered_after_switch"], f["created_after_switch"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("3 links fail at cycle 4000") && err.contains("acyclic"),
        "{err}"
    );
}

#[test]
fn fault_curve_writes_its_table() {
    let dir = tmp("fc");
    let out = asr(&[
        "fault-curve",
        "--network",
        "sp2:32",
        "--max-links",
        "4",
        "--step",
        "2",
        "--routing",
        "asr-df",
        "--load",
        "0.5,1.0",
        "--measure",
        "2000",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let so = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        so.lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| failed"))
            .count(),
        3,
        "{so}"
    );
    assert!(!so.contains("deadlock at"), "{so}");
    let csv = std::fs::read_to_string(dir.join("fault_curve.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4);
    assert!(std::fs::read_to_string(dir.join("fault_curve.svg"))
        .unwrap()
        .contains("<svg"));
    let _ = std::fs::remove_dir_all(dir);
}

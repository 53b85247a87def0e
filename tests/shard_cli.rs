//! `--shard i/n` and `asr merge`: for every sweep command, the shards merged give exactly the files of the
//! unsharded run (every CSV, JSON and SVG byte for byte); every result records its parameters; and a
//! missing, doubled or foreign shard is an error that says so.

mod common;
use common::asr;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("asr-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn ok(args: &[&str]) {
    let out = asr(args);
    assert!(
        out.status.success(),
        "asr {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `cmd` unsharded into one folder and in `n` shards merged into another; compares the files.
fn same_files(name: &str, cmd: &[&str], n: usize) -> PathBuf {
    let whole = tmp(&format!("{name}-whole"));
    let merged = tmp(&format!("{name}-merged"));
    let mut a = cmd.to_vec();
    a.extend(["--out", whole.to_str().unwrap()]);
    ok(&a);
    let shards: Vec<PathBuf> = (0..n).map(|i| tmp(&format!("{name}-s{i}"))).collect();
    for (i, d) in shards.iter().enumerate() {
        let spec = format!("{i}/{n}");
        let mut a = cmd.to_vec();
        a.extend(["--out", d.to_str().unwrap(), "--shard", &spec]);
        ok(&a);
        assert!(d.join(format!("shard-{i}-of-{n}.json")).exists());
    }
    let mut m = vec!["merge"];
    m.extend(shards.iter().map(|d| d.to_str().unwrap()));
    m.extend(["--out", merged.to_str().unwrap()]);
    ok(&m);
    let mut compared = 0;
    for e in std::fs::read_dir(&whole).unwrap() {
        let p = e.unwrap().path();
        let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
        if ["csv", "json", "svg"].contains(&ext) {
            let f = p.file_name().unwrap();
            let a = std::fs::read(&p).unwrap();
            let b = std::fs::read(merged.join(f))
                .unwrap_or_else(|_| panic!("{name}: merged output lacks {f:?}"));
            assert!(
                a == b,
                "{name}: {f:?} differs between the unsharded and the merged run"
            );
            compared += 1;
        }
    }
    assert!(compared >= 3, "{name}: only {compared} files compared");
    for d in shards {
        let _ = std::fs::remove_dir_all(d);
    }
    let _ = std::fs::remove_dir_all(&merged);
    whole
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let d = same_files(
        "sim",
        &[
            "sim",
            "--network",
            "benes:16",
            "--load",
            "0.2,0.5,1.0",
            "--packets",
            "100",
            "--buffer",
            "2",
        ],
        2,
    );
    let v = json(&d.join("benes_16_asr_uniform.json"));
    let p = &v["parameters"];
    assert_eq!(p["command"], "sim");
    assert_eq!(p["network"], "benes:16");
    assert_eq!(p["buffer"], 2);
    assert_eq!(p["allocator"], "asr-p2");
    assert_eq!(p["seed"], 1);
    assert_eq!(p["packets"], 100);
    assert_eq!(p["load"].as_array().unwrap().len(), 3);
    assert!(p["version"].is_string());
    let csv = std::fs::read_to_string(d.join("benes_16_asr_uniform.csv")).unwrap();
    assert!(csv.starts_with("network,pattern,buffer,link_delay,allocator,seed,packets"));
    let _ = std::fs::remove_dir_all(d);

    let d = same_files(
        "benes",
        &[
            "benes-table",
            "--sizes",
            "8,16",
            "--packets",
            "100",
            "--loads",
            "0.3,1.0",
            "--buffer",
            "1,2",
        ],
        3,
    );
    assert_eq!(
        json(&d.join("table3_1.json"))["parameters"]["command"],
        "benes-table"
    );
    let _ = std::fs::remove_dir_all(d);

    let d = same_files(
        "sp2",
        &[
            "sp2-system",
            "--network",
            "sp2:16",
            "--load",
            "0.3,1.0",
            "--measure",
            "1000",
            "--warmup",
            "200",
        ],
        2,
    );
    assert_eq!(
        json(&d.join("sp2_systems.json"))["parameters"]["measure"],
        1000
    );
    let _ = std::fs::remove_dir_all(d);

    let d = same_files(
        "worm",
        &[
            "wormhole-figures",
            "--n",
            "4",
            "--loads",
            "20,60",
            "--warmup",
            "100",
            "--measure",
            "300",
            "--cdg",
            "3",
        ],
        3,
    );
    assert_eq!(json(&d.join("results.json"))["parameters"]["n"], 4);
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn incomplete_doubled_or_foreign_shards_are_errors() {
    let cmd = [
        "sim",
        "--network",
        "benes:8",
        "--load",
        "0.2,0.4,0.6",
        "--packets",
        "50",
    ];
    let dirs: Vec<PathBuf> = (0..3).map(|i| tmp(&format!("bad-s{i}"))).collect();
    for (i, d) in dirs.iter().enumerate() {
        let spec = format!("{i}/3");
        let mut a = cmd.to_vec();
        a.extend(["--out", d.to_str().unwrap(), "--shard", &spec]);
        ok(&a);
    }
    let other = tmp("bad-other");
    ok(&[
        "sim",
        "--network",
        "benes:8",
        "--load",
        "0.2,0.4,0.6",
        "--packets",
        "60",
        "--out",
        other.to_str().unwrap(),
        "--shard",
        "2/3",
    ]);
    let out = tmp("bad-out");
    let s = |d: &PathBuf| d.to_str().unwrap().to_string();
    for (given, needle) in [
        (vec![s(&dirs[0]), s(&dirs[1])], "missing"),
        (
            vec![s(&dirs[0]), s(&dirs[1]), s(&dirs[2]), s(&dirs[2])],
            "twice",
        ),
        (
            vec![s(&dirs[0]), s(&dirs[1]), s(&other)],
            "different sweeps",
        ),
        (vec![s(&out)], "reading folder"),
    ] {
        let mut a = vec!["merge".to_string()];
        a.extend(given.iter().cloned());
        a.extend(["--out".to_string(), s(&out)]);
        let a: Vec<&str> = a.iter().map(|x| x.as_str()).collect();
        let r = asr(&a);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{given:?} merged");
        assert!(err.contains(needle), "{given:?}: {err}");
    }
    for (args, needle) in [
        (vec!["sim", "--shard", "3/3", "--out", "/tmp/x"], "--shard"),
        (vec!["sim", "--shard", "0/2"], "--out"),
        (vec!["benes-table", "--shard", "1"], "--shard"),
    ] {
        let r = asr(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    for d in dirs.iter().chain([&other, &out]) {
        let _ = std::fs::remove_dir_all(d);
    }
}

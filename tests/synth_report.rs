//! `scripts/synth_report.py`, the report step of `scripts/synth.sh`: it writes one JSON per top with the fields
//! the README promises, flags a LUT growth or an Fmax loss of more than 5 % against the committed report (a
//! warning on stderr, exit status 1 only with `--check`), and leaves changes within 5 % alone. Runs on hand-made
//! rows, so no FPGA tool is needed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("asr-synth-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("rows")).unwrap();
    d
}

/// A row as scripts/synth.sh writes it for ice40-hx8k (seed 7 in its comment).
fn row(d: &Path, top: &str, lut: u32, fmax: &str) {
    std::fs::write(
        d.join("rows").join(format!("{top}.row")),
        format!(
            "<!-- measured 2026-11-23 with yosys X; nextpnr Y, key 0123456789abcdef, seed 7 -->\n\
             | {top} | 500 | {lut} | 160 | 0 | 0 | 4 | {fmax} | 3 |\n"
        ),
    )
    .unwrap();
    std::fs::write(
        d.join("rows").join(format!("{top}.src")),
        "synthesised now\n",
    )
    .unwrap();
}

/// A committed base report with `switch2r` at 100 LUT4 and 100 MHz and `benes8r` at 1000 LUT4, 80 MHz.
fn base(d: &Path) -> PathBuf {
    let p = d.join("base.md");
    std::fs::write(
        &p,
        "Target ice40-hx8k.\n\n\
         | top | generic cells | LUT4 | FF | BRAM (SB_RAM40_4K) | carry | LUT depth | Fmax (MHz) | fits | seed |\n\
         |---|---|---|---|---|---|---|---|---|---|\n\
         | switch2r | 500 | 100 | 160 | 0 | 0 | 4 | 100.00 | yes | 7 |\n\
         | benes8r | 5000 | 1000 | 2720 | 0 | 0 | 4 | 80.00 | yes | 7 |\n",
    )
    .unwrap();
    p
}

fn report(d: &Path, base: &Path, check: bool) -> Output {
    report_with(d, base, if check { &["--check"] } else { &[] })
}

/// The report of `switch2r` and `benes8r` with extra options.
fn report_with(d: &Path, base: &Path, extra: &[&str]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/synth_report.py");
    let mut c = Command::new("python3");
    c.arg(script)
        .args(["--target", "ice40-hx8k", "--rows"])
        .arg(d.join("rows"))
        .arg("--out")
        .arg(d)
        .arg("--base")
        .arg(base)
        .args(["--tools", "test", "--seconds", "1", "--jobs", "1"])
        .args(extra);
    c.args(["switch2r", "benes8r"]).output().expect("python3")
}

fn json(d: &Path, top: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(d.join(format!("{top}.json"))).unwrap()).unwrap()
}

#[test]
fn json_per_top_and_no_flag_within_five_percent() {
    let d = dir("ok");
    let b = base(&d);
    row(&d, "switch2r", 104, "96.00"); // +4 % LUT, −4 % Fmax
    row(&d, "benes8r", 900, "90.00");
    let out = report(&d, &b, true);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("FLAG"), "{err}");
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("switch2r.json")).unwrap()).unwrap();
    for k in [
        "top", "target", "lut", "ff", "bram", "fmax_mhz", "fits", "seed",
    ] {
        assert!(j.get(k).is_some(), "no `{k}` in {j}");
    }
    assert_eq!(j["top"], "switch2r");
    assert_eq!(j["target"], "ice40-hx8k");
    assert_eq!(j["lut"], 104);
    assert_eq!(j["ff"], 160);
    assert_eq!(j["bram"], 0);
    assert_eq!(j["fmax_mhz"], 96.0);
    assert_eq!(j["fits"], true);
    assert_eq!(j["seed"], 7);
    let md = std::fs::read_to_string(d.join("report.md")).unwrap();
    assert!(
        md.contains("| switch2r |") && md.contains("| benes8r |"),
        "{md}"
    );
    assert!(!md.contains("FLAG"), "{md}");
}

#[test]
fn lut_growth_and_fmax_loss_over_five_percent_are_flagged() {
    let d = dir("flag");
    let b = base(&d);
    row(&d, "switch2r", 106, "100.00"); // +6 % LUT
    row(&d, "benes8r", 1000, "75.00"); // −6.25 % Fmax
                                       // Without --check: a warning, exit status 0.
    let out = report(&d, &b, false);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("FLAG switch2r: LUT4 100 → 106"), "{err}");
    assert!(err.contains("FLAG benes8r: Fmax 80 → 75 MHz"), "{err}");
    let md = std::fs::read_to_string(d.join("report.md")).unwrap();
    assert!(md.contains("**FLAG**"), "{md}");
    // With --check: exit status 1.
    let out = report(&d, &b, true);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A top nextpnr could not place, with its logic-cell count (as `scripts/synth.sh` writes it), does not fit;
/// `--area` names the mapping in the report and in every JSON.
#[test]
fn a_top_that_does_not_fit_with_its_cell_count_and_the_area_mapping() {
    let d = dir("nofit");
    let b = base(&d);
    row(
        &d,
        "switch2r",
        100,
        "does not fit (85799 of 83640 logic cells)",
    );
    row(&d, "benes8r", 1000, "80.00");
    let out = report_with(&d, &b, &["--area"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // The base had an Fmax: losing it is flagged.
    assert!(
        err.contains("FLAG switch2r: Fmax 100 MHz → does not fit"),
        "{err}"
    );
    let j = json(&d, "switch2r");
    assert_eq!(j["fits"], false, "{j}");
    assert_eq!(j["fmax_mhz"], serde_json::Value::Null, "{j}");
    assert_eq!(j["pnr"], "does not fit (85799 of 83640 logic cells)", "{j}");
    assert_eq!(j["mapping"], "area", "{j}");
    let j = json(&d, "benes8r");
    assert_eq!(j["fits"], true, "{j}");
    let md = std::fs::read_to_string(d.join("report.md")).unwrap();
    assert!(md.contains("Mapped for area"), "{md}");
    // Without --area the mapping is the default one.
    let out = report(&d, &b, false);
    assert!(out.status.success());
    let j = json(&d, "benes8r");
    assert_eq!(j["mapping"], "default", "{j}");
    let md = std::fs::read_to_string(d.join("report.md")).unwrap();
    assert!(!md.contains("Mapped for area"), "{md}");
}

#[test]
fn a_base_without_the_needed_columns_is_a_clear_error() {
    let d = dir("bad");
    let b = d.join("base.md");
    std::fs::write(&b, "| top | LUTs |\n|---|---|\n| switch2r | 100 |\n").unwrap();
    row(&d, "switch2r", 100, "100.00");
    row(&d, "benes8r", 1000, "80.00");
    let out = report(&d, &b, false);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("base.md:1: the table has no `LUT4` column"),
        "{err}"
    );
}

/// `scripts/synth.sh` itself: every documented `--target` is accepted (a cached top, so nothing is placed; this
/// needs the tools `scripts/setup.sh` installs, as the main job does), and an unknown one is refused by name.
/// (A misplaced `case` arm once made the script refuse both ECP5 targets.)
#[test]
#[ignore = "long tier: scripts/test.sh runs it (cargo test -- --include-ignored)"]
fn synth_sh_accepts_every_target_and_refuses_an_unknown_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let verilog = dir("verilog");
    // Its own build folder (relative to the repository: the YoWASP tools cannot open absolute paths under
    // /tmp), so a user's synth.sh running beside the test suite keeps its report rows, and the test its own.
    let build = format!("target/tmp/synth-build-{}", std::process::id());
    let _ = std::fs::remove_dir_all(root.join(&build));
    let out = Command::new(env!("CARGO_BIN_EXE_asr"))
        .args(["verilog", "--out"])
        .arg(&verilog)
        .output()
        .expect("asr verilog");
    assert!(out.status.success(), "asr verilog: {out:?}");
    for target in ["ice40-hx8k", "ecp5-25f", "ecp5-85f", "gowin-gw2a18"] {
        let out = Command::new("bash")
            .arg(root.join("scripts/synth.sh"))
            .env("ASR", env!("CARGO_BIN_EXE_asr"))
            .args(["--target", target, "--cached-only", "--verilog"])
            .arg(&verilog)
            .arg("switch2r")
            .env("SYNTH_BUILD", &build)
            .current_dir(root)
            .output()
            .expect("bash");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "synth.sh --target {target}: {err}");
        let report = root.join(format!("{build}/{target}/report.md"));
        let text = std::fs::read_to_string(&report).unwrap();
        assert!(
            text.contains(&format!("Target {target}")),
            "{report:?}: {text}"
        );
    }
    // A small top placed on each family (into a scratch cache, so the committed one is left alone): it has an
    // Fmax. (`PNR` was once unset for ECP5, so nothing was placed; a duplicated port list once made the iCE40
    // pin wrapper an empty design, "no clock".)
    // --area (ECP5) writes its own build folder and cache folder and names the mapping in the JSON.
    for (target, area) in [
        ("ice40-hx8k", false),
        ("ecp5-25f", false),
        ("ecp5-25f", true),
        ("gowin-gw2a18", false),
    ] {
        let flow = if area {
            format!("{target}-area")
        } else {
            target.to_string()
        };
        let scratch = dir(&format!("cache-{flow}"));
        let out = Command::new("bash")
            .arg(root.join("scripts/synth.sh"))
            .env("ASR", env!("CARGO_BIN_EXE_asr"))
            .args(if area { &["--area"][..] } else { &[][..] })
            .args(["--target", target, "-j", "1", "--verilog"])
            .arg(&verilog)
            .arg("switch2")
            .env("SYNTH_CACHE", &scratch)
            .env("SYNTH_BUILD", &build)
            .current_dir(root)
            .output()
            .expect("bash");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !err.contains("unbound"),
            "synth.sh {target} switch2: {err}"
        );
        let path = root.join(format!("{build}/{flow}/switch2.json"));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            json["fits"],
            serde_json::Value::Bool(true),
            "{path:?}: {json}"
        );
        assert!(
            json["fmax_mhz"].as_f64().unwrap_or(0.0) > 50.0,
            "{path:?}: {json}"
        );
        assert_eq!(json["lut"].as_u64().map(|l| l > 50), Some(true), "{json}");
        let mapping = if area { "area" } else { "default" };
        assert_eq!(json["mapping"], mapping, "{path:?}: {json}");
        assert_eq!(scratch.join(&flow).read_dir().unwrap().count(), 1);
        assert_eq!(scratch.join(target).exists(), !area, "{scratch:?}");
    }
    let out = Command::new("bash")
        .arg(root.join("scripts/synth.sh"))
        .env("ASR", env!("CARGO_BIN_EXE_asr"))
        .args(["--area", "switch2r"])
        .current_dir(root)
        .output()
        .expect("bash");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--area is for the ECP5 targets"), "{err}");
    let out = Command::new("bash")
        .arg(root.join("scripts/synth.sh"))
        .env("ASR", env!("CARGO_BIN_EXE_asr"))
        .args(["--target", "ecp5-12f", "switch2r"])
        .current_dir(root)
        .output()
        .expect("bash");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unknown --target 'ecp5-12f'"), "{err}");
    // (The reports and JSON above were read from `build`: synth.sh wrote them there.)
    let _ = std::fs::remove_dir_all(root.join(&build));
}

/// `scripts/seeds.sh` (several nextpnr seeds of one top) refuses what it cannot run, naming the option,
/// before any synthesis: no top, two tops, a bad seed list, an unknown option, a missing Verilog folder.
#[test]
fn seeds_sh_refuses_bad_arguments_with_a_clear_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (args, msg) in [
        (&[][..], "name a top"),
        (
            &["sp2_receiver_v2", "sp2_transmitter_v2"][..],
            "one top at a time",
        ),
        (
            &["--seeds", "1,x", "sp2_receiver_v2"][..],
            "--seeds needs comma-separated",
        ),
        (
            &["--seeds", "", "sp2_receiver_v2"][..],
            "--seeds needs comma-separated",
        ),
        (
            &["sp2_receiver_v2", "--seeds"][..],
            "--seeds needs comma-separated",
        ),
        (
            &["--bogus", "sp2_receiver_v2"][..],
            "unknown option '--bogus'",
        ),
        (
            &["--verilog", "/no/such/folder", "sp2_receiver_v2"][..],
            "--verilog needs a folder",
        ),
    ] {
        let out = Command::new("bash")
            .arg(root.join("scripts/seeds.sh"))
            .args(args)
            .current_dir(std::env::temp_dir())
            .output()
            .expect("bash");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

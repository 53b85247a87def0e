//! The examples as a user runs them (docs/network.md). The Verilog test bench (`examples/verilog/`): two
//! processors on one switch, "hello" from one to the other in Icarus; with the sender's number changed the
//! printed source is wrong. The cocotb example (`examples/cocotb/`, "From cocotb"): `asr network`
//! writes the `sp2:16` network of v3 switches, `run.py` builds it in Icarus Verilog through cocotb's runner
//! and `test_asr_network.py` drives every processor through cocotbext-axi's AXI4-Stream sources and sinks and
//! checks delivery. A network with one endpoint's processor number changed (its messages then carry the
//! wrong `tid`) must fail it. cocotb and cocotbext-axi come from `scripts/setup.sh` (the repository's
//! `.venv/`); the test fails, it does not skip, when they are missing. Long tier: Icarus runs the 16-switch
//! network at a few dozen cycles per second (about a minute each on an idle machine).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("asr-cocotb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's Python (scripts/setup.sh).
fn python() -> PathBuf {
    let p = root().join(".venv/bin/python");
    assert!(
        p.exists(),
        "{} is missing: run scripts/setup.sh (it installs cocotb and cocotbext-axi)",
        p.display()
    );
    p
}

/// `asr network --topology TOPOLOGY --out DIR` in `dir` (v3 switches, the default); the generated file.
fn network(dir: &Path, topology: &str) -> PathBuf {
    let o = Command::new(env!("CARGO_BIN_EXE_asr"))
        .args(["network", "--topology", topology, "--out", "net"])
        .current_dir(dir)
        .output()
        .expect("running asr");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir.join("net/asr_network.v")
}

/// `file` with endpoint 0 believing it is processor 1 (its messages then carry source 1).
fn wrong_source(dir: &Path, file: &Path) -> PathBuf {
    let good = std::fs::read_to_string(file).unwrap();
    let nic0 = good
        .lines()
        .find(|l| l.contains(" nic0(") && l.contains(".node_id(8'd0)"))
        .expect("the endpoint of processor 0 with its number");
    let bad = good.replace(nic0, &nic0.replace(".node_id(8'd0)", ".node_id(8'd1)"));
    let m = dir.join("mutant.v");
    std::fs::write(&m, bad).unwrap();
    m
}

/// Icarus on `network` and examples/verilog/network_tb.v: what `vvp` prints.
fn verilog_tb(dir: &Path, network: &Path) -> String {
    let tb = dir.join("tb.vvp");
    let o = Command::new("iverilog")
        .arg("-o")
        .arg(&tb)
        .arg(network)
        .arg(root().join("examples/verilog/network_tb.v"))
        .output()
        .expect("running iverilog (scripts/setup.sh installs it)");
    assert!(o.status.success(), "iverilog: {}", text(&o));
    let o = Command::new("vvp")
        .arg(&tb)
        .current_dir(dir)
        .output()
        .expect("running vvp");
    assert!(o.status.success(), "vvp: {}", text(&o));
    text(&o)
}

#[test]
fn the_verilog_test_bench_prints_hello_from_processor_0() {
    let d = temp("verilog");
    let v = network(
        &d,
        &root()
            .join("examples/verilog/pair.topo")
            .display()
            .to_string(),
    );
    let out = verilog_tb(&d, &v);
    assert!(
        out.contains("hello (from processor 0, CRC good, at "),
        "{out}"
    );
    let out = verilog_tb(&d, &wrong_source(&d, &v));
    assert!(out.contains("hello (from processor 1, "), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `run.py FILE` with `messages` messages, from `dir`.
fn run_py(dir: &Path, file: &Path, messages: u32) -> Output {
    Command::new(python())
        .arg(root().join("examples/cocotb/run.py"))
        .arg(file)
        .env("ASR_MESSAGES", messages.to_string())
        .env("ASR_SEED", "7")
        .current_dir(dir)
        .output()
        .expect("running examples/cocotb/run.py")
}

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
#[ignore = "long tier: Icarus runs of the 16-switch network, about two minutes (scripts/test.sh runs it)"]
fn cocotb_drives_the_generated_network_and_catches_a_wrong_source() {
    let d = temp("ok");
    let v = network(&d, "sp2:16");
    let o = run_py(&d, &v, 16);
    let t = text(&o);
    assert!(o.status.success(), "the cocotb example failed:\n{t}");
    assert!(
        t.contains("16 messages delivered among 16 processors"),
        "{t}"
    );
    assert!(t.contains("1 test(s), 0 failed"), "{t}");

    // Processor 0's endpoint believes it is processor 1: its messages arrive with tid 1.
    let o = run_py(&d, &wrong_source(&d, &v), 4);
    let t = text(&o);
    assert!(!o.status.success(), "the wrong source was not caught:\n{t}");
    assert!(t.contains("from p1 that nobody sent there"), "{t}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn run_py_names_a_missing_file_and_a_wrong_top() {
    let d = temp("bad");
    let o = run_py(&d, &d.join("nothing.v"), 4);
    assert!(!o.status.success());
    assert!(text(&o).contains("nothing.v: no such file"), "{}", text(&o));
    std::fs::write(d.join("other.v"), "module other(input clock);\nendmodule\n").unwrap();
    let o = run_py(&d, &d.join("other.v"), 4);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("has no module `asr_network` (--top)"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&d);
}

//! `asr verilog` as a user meets it (docs/verilog.md): every exported top starts with a header that lists its
//! ports, latency and reset behaviour, module names have no `$`, and the page's instantiation examples and
//! example wrapper compile with the exported files in Icarus, the wrapper's test bench passes and the wrapper
//! lints clean in Verilator. Missing `iverilog` or `verilator` is a failure (scripts/setup.sh installs them).

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("asr-verilog-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `asr verilog --out v [--top T]...` in `dir` (not the repository) and returns the folder written.
fn export(dir: &Path, tops: &[&str]) -> PathBuf {
    let mut args = vec!["verilog", "--out", "v"];
    for t in tops {
        args.extend(["--top", t]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_asr"))
        .args(&args)
        .current_dir(dir)
        .output()
        .expect("running asr");
    assert!(
        out.status.success(),
        "asr verilog failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("v")
}

/// `(direction, name)` of the ports of module `top`, from its declaration lines.
fn ports(v: &str, top: &str) -> Vec<(String, String)> {
    let head = format!("module {top}(");
    let start = v.find(&head).unwrap_or_else(|| panic!("no module {top}"));
    let body = &v[start..];
    let body = &body[..body.find("endmodule").expect("endmodule")];
    body.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("input ") || l.starts_with("output "))
        .map(|l| {
            let dir = l.split_whitespace().next().unwrap().to_string();
            let name = l.trim_end_matches(';').split_whitespace().last().unwrap();
            (dir, name.to_string())
        })
        .collect()
}

#[test]
fn every_exported_top_has_a_header_and_typable_module_names() {
    let dir = temp("all");
    let v = export(&dir, &[]);
    let mut n = 0;
    for e in std::fs::read_dir(&v).unwrap() {
        let path = e.unwrap().path();
        let top = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        n += 1;
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(
            header.starts_with(&format!("// {top}: ")),
            "{top}: no header"
        );
        assert!(header.is_ascii(), "{top}: header not ASCII");
        for want in ["// Ports:", "// Latency: ", "// Reset: ", "docs/verilog.md"] {
            assert!(header.contains(want), "{top}: header lacks {want:?}");
        }
        let ps = ports(&text, &top);
        assert!(!ps.is_empty(), "{top}: no ports");
        for (dir, name) in &ps {
            let line = header
                .lines()
                .find(|l| {
                    l.split_whitespace().nth(1) == Some(dir) && l.contains(&format!(" {name} "))
                })
                .unwrap_or_else(|| panic!("{top}: port {dir} {name} not in the header"));
            // Every top gives every port's meaning (none points to the RustHDL source instead).
            assert!(!line.contains("(see hdl/src/)"), "{top}: {line}");
        }
        for l in text.lines().filter_map(|l| l.strip_prefix("module ")) {
            let name = l.split('(').next().unwrap();
            assert!(
                name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{top}: module name {name:?} is not a plain identifier"
            );
        }
    }
    assert_eq!(n, asr_testbench::tops::TOPS.len(), "one file per top");
    let _ = std::fs::remove_dir_all(&dir);
}

fn tool(dir: &Path, prog: &str, args: &[&str]) -> std::process::Output {
    Command::new(prog)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{prog} not runnable ({e}); install it with scripts/setup.sh"))
}

#[test]
fn docs_verilog_examples_compile_and_the_wrapper_test_bench_passes() {
    let dir = temp("docs");
    export(
        &dir,
        &["benes8", "matcher_m4_p2", "sp2_switch_v2", "sp2_board_v2"],
    );
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/verilog.md"))
            .expect("docs/verilog.md");
    let blocks: Vec<&str> = doc
        .split("```verilog\n")
        .skip(1)
        .map(|b| &b[..b.find("```").expect("closed block")])
        .collect();
    assert_eq!(blocks.len(), 3, "instantiations, wrapper, test bench");
    std::fs::write(dir.join("examples.v"), blocks.join("\n")).unwrap();
    std::fs::write(dir.join("wrapper.v"), blocks[1]).unwrap();
    let files = [
        "v/benes8.v",
        "v/matcher_m4_p2.v",
        "v/sp2_switch_v2.v",
        "v/sp2_board_v2.v",
        "examples.v",
    ];
    let mut args = vec!["-g2012", "-o", "tb.vvp"];
    args.extend(files);
    let c = tool(&dir, "iverilog", &args);
    assert!(
        c.status.success(),
        "iverilog: {}",
        String::from_utf8_lossy(&c.stderr)
    );
    let r = tool(&dir, "vvp", &["-n", "tb.vvp"]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        r.status.success() && out.contains("PASS benes8_user") && !out.contains("FAIL"),
        "test bench: {out}"
    );
    // The wrapper lints clean; the waivers are those of the exported Verilog (docs/hdl.md).
    let l = tool(
        &dir,
        "verilator",
        &[
            "--lint-only",
            "-Wall",
            "-Wno-WIDTH",
            "-Wno-DECLFILENAME",
            "-Wno-UNUSEDSIGNAL",
            "--top-module",
            "benes8_user",
            "v/benes8.v",
            "wrapper.v",
        ],
    );
    assert!(
        l.status.success(),
        "verilator lint: {}",
        String::from_utf8_lossy(&l.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

//! Every exported top passes rust-hdl's `yosys_validate` and `verilator --lint-only -Wall` (with the waivers
//! listed in docs/hdl.md), and its module is named as the top.

use asr_testbench::tops::TOPS;
use std::process::Command;

/// Warnings waived in the Verilator lint; docs/hdl.md gives the reasons.
pub const WAIVED: &[&str] = &["WIDTH", "DECLFILENAME", "UNUSEDSIGNAL"];

/// The tops the lint and latch checks read: every one but `benes32` (1.6 MB of Verilog, for time); in the short
/// tier (plain `cargo test`) also not the largest, whose Verilog the small ones' blocks make up
/// (`sp2_board_v2`: 8 switches; `benes16`, `benes16r`: 2×2 switches), and one matcher of the six (the same
/// block at other sizes).
fn checked(name: &str) -> bool {
    const LONG_ONLY: &[&str] = &[
        "sp2_board_v2",
        "benes16",
        "benes16r",
        "matcher_m4_p1",
        "matcher_m4_p2",
        "matcher_m8_p1",
        "matcher_m16_p1",
        "matcher_m16_p2",
    ];
    name != "benes32" && (asr_testbench::harness::long_tier() || !LONG_ONLY.contains(&name))
}

#[test]
fn every_top_validates_and_lints() {
    for top in TOPS.iter().filter(|t| checked(t.name)) {
        let name = top.name;
        let raw = top.raw_verilog();
        rust_hdl::core::yosys::yosys_validate(&format!("asr_{name}"), &raw)
            .unwrap_or_else(|e| panic!("{name}: yosys_validate: {e:?}"));
        let v = top.verilog();
        assert!(
            v.contains(&format!("module {name}(")),
            "{name}: module not renamed"
        );
        assert!(!v.contains("module top"), "{name}: a `top` module is left");
        let dir = std::env::temp_dir().join(format!("asr-lint-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{name}.v"));
        std::fs::write(&file, &v).unwrap();
        let mut cmd = Command::new("verilator");
        cmd.args(["--lint-only", "-Wall", "--top-module", name]);
        for w in WAIVED {
            cmd.arg(format!("-Wno-{w}"));
        }
        for w in top.lint_waivers {
            cmd.arg(format!("-Wno-{w}"));
        }
        let out = cmd
            .arg(&file)
            .output()
            .expect("verilator must be installed");
        assert!(
            out.status.success(),
            "{name}: verilator lint failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// No exported top infers a latch: Yosys' `proc` on the exported Verilog reports none. (A local assigned only
/// in some branches of a block's `update` becomes a latch in the Verilog while rust-hdl, Icarus and
/// Verilator still agree with the model when its value is not used on the other branches; nextpnr flows
/// then stop on it.)
#[test]
fn no_top_infers_a_latch() {
    for top in TOPS.iter().filter(|t| checked(t.name)) {
        let name = top.name;
        let v = top.verilog();
        let dir = std::env::temp_dir().join(format!("asr-latch-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{name}.v"));
        std::fs::write(&file, &v).unwrap();
        let out = Command::new("yosys")
            .arg("-p")
            .arg(format!("read_verilog {}; proc", file.display()))
            .output()
            .expect("yosys must be installed");
        let log = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{name}: yosys failed:\n{log}");
        let latches: Vec<&str> = log
            .lines()
            .filter(|l| l.starts_with("Latch inferred"))
            .collect();
        assert!(
            latches.is_empty(),
            "{name}: {} latch(es) inferred, first: {}",
            latches.len(),
            latches[0]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Every exported top: every port of the module has a meaning in its header (its block's `top_doc`) and
/// every documented port exists; the user export has a plain-ASCII header, no `$` in a module name, and
/// maps back to exactly the co-simulated Verilog (which has no `__` of its own). Names are unique.
#[test]
fn user_export_documents_every_port_and_is_the_same_design() {
    use asr_hdl::export::{canonical_of_user, ports_of};
    let mut seen = std::collections::HashSet::new();
    for top in TOPS {
        let name = top.name;
        assert!(seen.insert(name), "{name}: two rows");
        let v = top.verilog();
        assert!(!v.contains("__"), "{name}: the export already has `__`");
        let ports = ports_of(&v, name);
        assert!(ports.len() >= 2, "{name}: ports not found");
        let user = top.user_verilog();
        let header = &user[..user.find("\nmodule ").expect("a module")];
        assert!(header.is_ascii(), "{name}: the header is not plain ASCII");
        assert!(user.starts_with(&format!("// {name}: ")), "{name}");
        let doc = (top.doc)();
        for p in &ports {
            assert!(
                doc.ports.iter().any(|(n, _)| n == &p.name),
                "{name}: port {} has no meaning in its top_doc",
                p.name
            );
            assert!(
                header.contains(&format!(" {} ", p.name)),
                "{name}: {} not in the header",
                p.name
            );
        }
        for (n, _) in &doc.ports {
            assert!(
                ports.iter().any(|p| &p.name == n),
                "{name}: its top_doc describes {n}, which is not a port"
            );
        }
        for l in user.lines().filter_map(|l| l.strip_prefix("module ")) {
            let m = l.split('(').next().unwrap();
            assert!(
                m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{name}: module name {m:?}"
            );
        }
        assert!(
            canonical_of_user(&user) == v,
            "{name}: user export is not the same design"
        );
    }
}

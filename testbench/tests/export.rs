//! Every exported top passes rust-hdl's `yosys_validate` and `verilator --lint-only -Wall` (with the waivers
//! listed in docs/hdl.md), and its module is named as the top.

use asr_hdl::export::{raw_verilog_of, verilog_of, TOPS};
use std::process::Command;

/// Warnings waived in the Verilator lint; docs/hdl.md gives the reasons.
pub const WAIVED: &[&str] = &["WIDTH", "DECLFILENAME", "UNUSEDSIGNAL"];

#[test]
fn every_top_validates_and_lints() {
    for &name in TOPS.iter().filter(|&&n| n != "benes32") {
        let raw = raw_verilog_of(name).unwrap();
        rust_hdl::core::yosys::yosys_validate(&format!("asr_{name}"), &raw)
            .unwrap_or_else(|e| panic!("{name}: yosys_validate: {e:?}"));
        let v = verilog_of(name).unwrap();
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

//! Every exported top passes rust-hdl's `yosys_validate` and `verilator --lint-only -Wall` (with the waivers
//! listed in docs/hdl.md), and its module is named as the top.

use asr_hdl::export::{raw_verilog_of, verilog_of, TOPS};
use std::process::Command;

/// Warnings waived in the Verilator lint; docs/hdl.md gives the reasons.
pub const WAIVED: &[&str] = &["WIDTH", "DECLFILENAME", "UNUSEDSIGNAL"];

/// Tops that also waive `UNOPTFLAT`: `sp2_switch_v2` wires its blocks so that block-level (not bit-level)
/// loops cross their boundaries (a receiver's offer → the switch's free-now → the allocator's grant → the
/// receiver's grant input); there is no combinational cycle, Verilator iterates the loop to the same
/// values (10^6 cycles against the model, 0 mismatches, `tests/sp2_switch_v2.rs`), and isolating every
/// assignment made Verilator disagree with the model (docs/hdl.md). `sp2_board_v2` is 8 of them (10^6
/// cycles, 0 mismatches, `tests/sp2_board.rs`).
pub const WAIVED_UNOPTFLAT: &[&str] = &["sp2_switch_v2", "sp2_board_v2"];

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
        if WAIVED_UNOPTFLAT.contains(&name) {
            cmd.arg("-Wno-UNOPTFLAT");
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
    for &name in TOPS.iter().filter(|&&n| n != "benes32") {
        let v = verilog_of(name).unwrap();
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

//! `scripts/timing.py`, the paths report of `scripts/synth.sh`: every register's longest path in nextpnr's
//! SDF of a routed design, against a clock goal, with levels, logic and routing time and where the path
//! starts; an error naming the file for bad input. Runs on a hand-made SDF, so no FPGA tool is needed.

mod common;
use common::{fresh_dir, md_row, python_script};
use std::path::{Path, PathBuf};
use std::process::Output;

fn ff(inst: &str) -> String {
    format!(
        "  (CELL (CELLTYPE \"TRELLIS_FF\") (INSTANCE {inst})\n    (DELAY (ABSOLUTE (IOPATH CLK Q \
         (400:450:500) (400:450:500))))\n    (TIMINGCHECK (SETUPHOLD (posedge M) (posedge CLK) \
         (100:100:100) (0:0:0))))\n"
    )
}

fn lut(inst: &str) -> String {
    format!(
        "  (CELL (CELLTYPE \"TRELLIS_COMB\") (INSTANCE {inst})\n    (DELAY (ABSOLUTE (IOPATH A F \
         (200:200:200) (200:200:200)) (IOPATH B F (150:150:150) (150:150:150)))))\n"
    )
}

/// Register `dut.rx$0.a` (two bits) → LUT `l1` → LUT `l2` → register `dut.rx$1.b`; `a`'s bit 1 → `l2`'s
/// other input; `a` → register `dut.cq.c` straight. Times (ps, the largest of each triple): `b` 500 + 1000
/// + 200 + 1000 + 200 + 1000 + 100 = 4000 (two levels, logic 1000, routing 3000); `c` 500 + 700 + 100 =
/// 1300.
fn sdf(d: &Path) -> PathBuf {
    let mut s = String::from(
        "(DELAYFILE\n  (SDFVERSION \"3.0\")\n  (DESIGN \"top\")\n  (DIVIDER /)\n  (TIMESCALE 1ps)\n",
    );
    s += "  (CELL (CELLTYPE \"top\") (INSTANCE )\n    (DELAY (ABSOLUTE\n";
    for (a, b, t) in [
        ("dut.rx\\$0.a_TRELLIS_FF_Q/Q", "l1/A", 1000),
        ("l1/F", "l2/A", 1000),
        ("dut.rx\\$0.a_TRELLIS_FF_Q_1/Q", "l2/B", 800),
        ("l2/F", "dut.rx\\$1.b.q_TRELLIS_FF_Q/M", 1000),
        (
            "dut.rx\\$0.a_TRELLIS_FF_Q/Q",
            "dut.cq.c_TRELLIS_FF_Q_3/M",
            700,
        ),
    ] {
        s += &format!("      (INTERCONNECT {a} {b} ({t}:{t}:{t}) ({t}:{t}:{t}))\n");
    }
    s += "    ))\n  )\n";
    for f in [
        "dut.rx\\$0.a_TRELLIS_FF_Q",
        "dut.rx\\$0.a_TRELLIS_FF_Q_1",
        "dut.rx\\$1.b.q_TRELLIS_FF_Q",
        "dut.cq.c_TRELLIS_FF_Q_3",
    ] {
        s += &ff(f);
    }
    s += &lut("l1");
    s += &lut("l2");
    s += ")\n";
    let p = d.join("routed.sdf");
    std::fs::write(&p, s).unwrap();
    p
}

fn timing(args: &[&str]) -> Output {
    python_script("timing.py", args)
}

#[test]
fn every_register_longest_path_levels_logic_routing_and_start() {
    let d = fresh_dir("timing", "paths");
    let p = sdf(&d);
    let log = d.join("nextpnr.log");
    std::fs::write(
        &log,
        "Info: Max frequency for clock 'clock': 250.00 MHz (PASS at 12.00 MHz)\n",
    )
    .unwrap();
    let o = timing(&[
        p.to_str().unwrap(),
        "--period",
        "3",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("Worst path 4.00 ns (250.00 MHz) from the SDF; nextpnr's log: 250.00 MHz"),
        "{out}"
    );
    assert!(
        out.contains("Registers over 3 ns (333 MHz): 1 of 2 (1 of 2 register cells)"),
        "{out}"
    );
    // register, cells over / all, worst ns, levels, logic ns, routing ns, start.
    assert_eq!(
        md_row(&out, "`dut.rx$1.b`")[1..],
        ["1 / 1", "4.00", "2", "1.00", "3.00", "`dut.rx$0.a`"]
    );
    assert_eq!(
        md_row(&out, "`dut.cq.c`")[1..],
        ["0 / 1", "1.30", "0", "0.60", "0.70", "`dut.rx$0.a`"]
    );
    // The blocks' families.
    assert_eq!(md_row(&out, "`rx$*`")[1..], ["1", "1", "4.00"]);
    assert_eq!(md_row(&out, "`cq`")[1..], ["0", "1", "1.30"]);
    // The register cells by their worst path (steps of a fifth of the goal) and the levels on it.
    assert_eq!(md_row(&out, "≤ 3 ns")[1..], ["1", "0–0"]);
    assert_eq!(md_row(&out, "3.6–4.2 ns")[1..], ["1", "2–2"]);
    assert_eq!(md_row(&out, "> 5.4 ns")[1..], ["0", "–"]);
    // The paths over the goal by the blocks they join.
    assert_eq!(
        md_row(&out, "`rx$*` ← `rx$*`")[1..],
        ["1", "4.00", "`dut.rx$1.b` ← `dut.rx$0.a` (2)"]
    );
    // A longer goal: nothing over it.
    let o = timing(&[p.to_str().unwrap(), "--period", "5"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("Registers over 5 ns (200 MHz): 0 of 2"),
        "{out}"
    );
}

#[test]
fn bad_input_is_an_error_naming_the_file() {
    let d = fresh_dir("timing", "bad");
    let missing = d.join("missing.sdf");
    let o = timing(&[missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("missing.sdf"), "{err}");
    let bad = d.join("bad.sdf");
    std::fs::write(&bad, "(DELAYFILE (CELL (INSTANCE x)").unwrap();
    let o = timing(&[bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.sdf") && err.contains("not an SDF"),
        "{err}"
    );
    let empty = d.join("empty.sdf");
    std::fs::write(&empty, "(DELAYFILE (SDFVERSION \"3.0\"))").unwrap();
    let o = timing(&[empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no clock-to-output arc"), "{err}");
    let o = timing(&[empty.to_str().unwrap(), "--period", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--period"));
}

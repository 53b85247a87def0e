//! `scripts/cells.py`, the counting step of `scripts/cells.sh`: the logic cells of a netlist packed by
//! nextpnr-ice40, per block and kind (LUT only, LUT + FF, FF only, carry only), the instances of a block
//! summed as a family, and an error naming the file for bad input. Runs on a hand-made packed netlist, so no
//! FPGA tool is needed.

mod common;
use common::{fresh_dir, md_row, python_script};
use std::path::{Path, PathBuf};
use std::process::Output;

/// An ICESTORM_LC as nextpnr writes it: LUT_INIT most significant bit first, inputs on I0..I3, output net
/// `o` (and `cout` for a carry).
fn lc(init: u16, dff: bool, inputs: &[(usize, u32)], o: Option<u32>, cout: Option<u32>) -> String {
    let mut conn: Vec<String> = (0..4)
        .map(|k| match inputs.iter().find(|(i, _)| *i == k) {
            Some((_, n)) => format!("\"I{k}\": [{n}]"),
            None => format!("\"I{k}\": []"),
        })
        .collect();
    conn.push(format!(
        "\"O\": [{}]",
        o.map_or(String::new(), |n| n.to_string())
    ));
    conn.push(format!(
        "\"COUT\": [{}]",
        cout.map_or(String::new(), |n| n.to_string())
    ));
    format!(
        "{{\"type\": \"ICESTORM_LC\", \"parameters\": {{\"LUT_INIT\": \"{init:016b}\", \"DFF_ENABLE\": \"{}\", \
         \"CARRY_ENABLE\": \"0\"}}, \"connections\": {{{}}}}}",
        dff as u8,
        conn.join(", ")
    )
}

/// A wrapper with two receivers and a queue: `rx$0` has a LUT + FF and an FF fed straight from a net (a
/// pass-through LUT on I3), `rx$1` a LUT only, the queue a carry-only cell, the wrapper one FF of its shift
/// register, one LUT drives a net with a generated name only, and one LUT a net whose generated name is
/// glued to instance `rx$12`.
fn netlist(d: &Path) -> PathBuf {
    let cells = [
        lc(
            0x8000,
            true,
            &[(0, 10), (1, 11), (2, 12), (3, 13)],
            Some(20),
            None,
        ),
        lc(0xff00, true, &[(3, 14)], Some(21), None),
        lc(0x6666, false, &[(0, 10), (1, 11)], Some(22), None),
        lc(0x0000, false, &[], None, Some(23)),
        lc(0x0002, true, &[(0, 15)], Some(24), None),
        lc(0x1234, false, &[(0, 10), (1, 11), (2, 12)], Some(25), None),
        lc(0x1234, false, &[(0, 10), (1, 11), (2, 12)], Some(26), None),
    ];
    let cells: Vec<String> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| format!("\"c{i}\": {c}"))
        .collect();
    let nets = [
        ("dut.rx$0.state.q", 20),
        ("dut.rx$0.held.q", 21),
        ("dut.rx$1.rem_n", 22),
        ("dut.cq.room", 23),
        ("sr[3]", 24),
        ("$abc$123$n45", 25),
        ("dut.rx$12$adm_busy_SB_LUT4_I0_O", 26),
    ];
    let nets: Vec<String> = nets
        .iter()
        .map(|(n, b)| format!("\"{n}\": {{\"bits\": [{b}]}}"))
        .collect();
    let p = d.join("packed.json");
    std::fs::write(
        &p,
        format!(
            "{{\"modules\": {{\"top\": {{\"cells\": {{{}}}, \"netnames\": {{{}}}}}}}}}",
            cells.join(", "),
            nets.join(", ")
        ),
    )
    .unwrap();
    p
}

fn cells(args: &[&str]) -> Output {
    python_script("cells.py", args)
}

#[test]
fn counts_each_kind_per_block_and_family() {
    let d = fresh_dir("cells", "counts");
    let p = netlist(&d);
    let o = cells(&[p.to_str().unwrap(), "--min", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    // Columns: label, cells, LUT only, LUT + FF, FF only, carry only, share.
    assert_eq!(
        md_row(&out, "**all**")[1..6],
        ["7", "3", "1", "2", "1"],
        "{out}"
    );
    assert_eq!(md_row(&out, "`dut.rx$0`")[1..6], ["2", "0", "1", "1", "0"]);
    assert_eq!(md_row(&out, "`dut.rx$1`")[1..6], ["1", "1", "0", "0", "0"]);
    assert_eq!(md_row(&out, "`dut.rx$12`")[1..6], ["1", "1", "0", "0", "0"]);
    assert_eq!(
        md_row(&out, "`dut.rx$*` (3 instances)")[1..6],
        ["4", "2", "1", "1", "0"]
    );
    assert_eq!(md_row(&out, "`dut.cq`")[1..6], ["1", "0", "0", "0", "1"]);
    assert_eq!(md_row(&out, "(wrapper)")[1..6], ["1", "0", "0", "1", "0"]);
    assert_eq!(md_row(&out, "(unnamed)")[1..6], ["1", "1", "0", "0", "0"]);
    // Deeper names split the receiver's registers.
    let o = cells(&[p.to_str().unwrap(), "--depth", "3", "--min", "0"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        md_row(&out, "`dut.rx$0.held`")[1..6],
        ["1", "0", "0", "1", "0"]
    );
    // Small blocks are summed in one row.
    let o = cells(&[p.to_str().unwrap(), "--min", "20"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("blocks of less than 20 % each"), "{out}");
}

#[test]
fn bad_input_is_an_error_naming_the_file() {
    let d = fresh_dir("cells", "bad");
    let missing = d.join("missing.json");
    let o = cells(&[missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.json"));
    let junk = d.join("junk.json");
    std::fs::write(&junk, "{ not json").unwrap();
    let o = cells(&[junk.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(e.contains("junk.json") && e.contains("not JSON"), "{e}");
    let empty = d.join("empty.json");
    std::fs::write(
        &empty,
        "{\"modules\": {\"top\": {\"cells\": {}, \"netnames\": {}}}}",
    )
    .unwrap();
    let o = cells(&[empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no ICESTORM_LC cells"));
    let p = netlist(&d);
    let o = cells(&[p.to_str().unwrap(), "--depth", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--depth"));
}

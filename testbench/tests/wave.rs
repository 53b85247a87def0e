//! The `benes8-burst` scenario writes an HDL VCD and a model VCD with the same port and register names, and
//! the two agree on the delivered traffic (the set of `out_data` values seen with `out_valid`).

use std::path::PathBuf;

fn deliveries(vcd: &str) -> Vec<String> {
    // The sequence of distinct successive values of the top-level out_valid wire (format-level check).
    let id = vcd
        .lines()
        .take_while(|l| !l.contains("$scope module sw$0"))
        .find(|l| l.contains(" out_valid $end"))
        .and_then(|l| l.split_whitespace().nth(3))
        .expect("out_valid declared at the top")
        .to_string();
    let mut v: Vec<String> = vcd
        .lines()
        .filter(|l| l.starts_with('b') && l.ends_with(&format!(" {id}")))
        .map(|l| {
            let b = l[1..]
                .split_whitespace()
                .next()
                .unwrap()
                .trim_start_matches('0');
            b.to_string()
        })
        .collect();
    v.dedup();
    v
}

#[test]
fn benes8_burst_hdl_and_model_vcds() {
    let dir: PathBuf = std::env::temp_dir().join(format!("asr-wave-{}", std::process::id()));
    let hdl = dir.join("hdl.vcd");
    let model = dir.join("model.vcd");
    let g1 = asr_testbench::wave::write("benes8-burst", &hdl, false).unwrap();
    let g2 = asr_testbench::wave::write("benes8-burst", &model, true).unwrap();
    let (h, m) = (
        std::fs::read_to_string(&hdl).unwrap(),
        std::fs::read_to_string(&model).unwrap(),
    );
    for name in [
        "in_valid", "out_data", "ib_full0", "ob_data1", "in_ptr", "out_ptr",
    ] {
        assert!(
            h.contains(&format!(" {name} $end")) || h.contains(&format!("module {name} $end")),
            "HDL VCD lacks {name}"
        );
        assert!(
            m.contains(&format!(" {name} $end")) || m.contains(&format!("module {name} $end")),
            "model VCD lacks {name}"
        );
    }
    let (dh, dm) = (deliveries(&h), deliveries(&m));
    assert!(dh.len() > 5, "too few out_valid changes: {dh:?}");
    assert_eq!(dh, dm, "HDL and model VCDs differ in out_valid");
    let g = std::fs::read_to_string(g1).unwrap();
    assert!(g.contains("[dumpfile] \"hdl.vcd\"") && g.contains("uut.sw$0.ib_full0.q"));
    assert!(std::fs::read_to_string(g2).unwrap().contains("model.vcd"));
    assert!(asr_testbench::wave::write("nope", &hdl, false).is_err());
    let _ = std::fs::remove_dir_all(dir);
}

//! The `benes8-burst` scenario writes an HDL VCD and a model VCD with the same port and register names, and
//! the two agree on the delivered traffic (the set of `out_data` values seen with `out_valid`); likewise
//! `sp2-contention`, signal by signal.

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

/// `sp2-contention`: both VCDs and `.gtkw`s are written; every listed signal is in the HDL VCD with its width
/// and in its `.gtkw`, the model's signals in the model VCD too; packets went both through the crossbar and
/// through the central queue; HDL and model agree on every shared signal before every edge (so on the output
/// traffic too).
#[test]
fn sp2_contention_hdl_and_model_vcds() {
    use asr_testbench::wave::{read_vcd, sp2};
    let dir: PathBuf = std::env::temp_dir().join(format!("asr-wave-sp2-{}", std::process::id()));
    let hdl = dir.join("sp2-contention.vcd");
    let model = dir.join("sp2-contention-model.vcd");
    let g1 = asr_testbench::wave::write("sp2-contention", &hdl, false).unwrap();
    let g2 = asr_testbench::wave::write("sp2-contention", &model, true).unwrap();
    let (h, m) = (read_vcd(&hdl).unwrap(), read_vcd(&model).unwrap());
    let (gh, gm) = (
        std::fs::read_to_string(&g1).unwrap(),
        std::fs::read_to_string(&g2).unwrap(),
    );
    assert!(gh.contains("[dumpfile] \"sp2-contention.vcd\""));
    assert!(gm.contains("[dumpfile] \"sp2-contention-model.vcd\""));
    let sum = sp2::summary().unwrap();
    eprintln!("sp2-contention: {sum:?}");
    assert!(sum.via_xbar >= 5 && sum.via_queue >= 5, "{sum:?}");
    let sigs = sp2::signals();
    assert!(sigs.len() > 150);
    for s in &sigs {
        let full = format!("uut.{}", s.name);
        assert_eq!(h.width(&full), Some(s.width), "HDL VCD: {full}");
        let in_gtkw = if s.width == 1 {
            format!("\nuut.{}\n", s.name)
        } else {
            format!("\nuut.{}[{}:0]\n", s.name, s.width - 1)
        };
        assert!(gh.contains(&in_gtkw), "HDL .gtkw lacks {full}");
        if s.model {
            assert_eq!(m.width(&full), Some(s.width), "model VCD: {full}");
            assert!(gm.contains(&in_gtkw), "model .gtkw lacks {full}");
        } else {
            assert_eq!(m.width(&full), None, "model VCD: {full}");
            assert!(!gm.contains(&in_gtkw), "model .gtkw lists {full}");
        }
    }
    for group in ["receivers", "crossbar", "central queue", "transmitters"] {
        assert!(gh.contains(&format!("\n-{group}")), "no {group} group");
    }
    // Both paths: some transmitter took a packet from the crossbar (source 1) and some from the queue (2);
    // the queue accepted writes; several receivers waited in Choose; the error counters moved.
    let times: Vec<u64> = (0..sp2::CYCLES as u64).map(|n| 10 * n).collect();
    let seen = |t: &asr_testbench::wave::Trace, name: &str, v: &str| {
        times.iter().any(|&x| t.at(name, x).as_deref() == Some(v))
    };
    let src = |v: &str| {
        (0..8)
            .filter(|o| seen(&h, &format!("uut.tx${o}.src.q"), v))
            .count()
    };
    assert!(src("1") >= 3, "crossbar packets at too few outputs");
    assert!(src("10") >= 2, "queue packets at too few outputs");
    assert!(seen(&h, "uut.cq.wr_grant_valid", "1") && seen(&h, "uut.cq.rd_grant_valid", "1"));
    let choosers = (0..8)
        .filter(|i| seen(&h, &format!("uut.rx${i}.choose_req"), "1"))
        .count();
    assert!(
        choosers >= 3,
        "only {choosers} receivers went through the queue"
    );
    let last = 10 * (sp2::CYCLES as u64 - 1);
    assert_ne!(h.at("uut.crc_errors", last).as_deref(), Some("0"));
    assert_ne!(h.at("uut.route_errors", last).as_deref(), Some("0"));
    // HDL and model agree before every edge on every shared signal; the output traffic is not trivial.
    for s in sigs.iter().filter(|s| s.model) {
        let full = format!("uut.{}", s.name);
        for &t in &times {
            assert_eq!(h.at(&full, t), m.at(&full, t), "{full} at time {t}");
        }
    }
    let bytes: usize = times
        .iter()
        .map(|&t| {
            h.at("uut.link_out_valid", t)
                .unwrap()
                .chars()
                .filter(|&c| c == '1')
                .count()
        })
        .sum();
    assert!(bytes > 300, "only {bytes} bytes out");
    let _ = std::fs::remove_dir_all(dir);
}

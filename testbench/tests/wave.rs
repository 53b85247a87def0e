//! The waveform scenarios: each writes an HDL VCD and a model VCD with the same names for what they share,
//! and HDL and model agree on every shared signal at every time step; each `.gtkw` names every row
//! distinctly, opens in GTKWave (under Xvfb) from another folder after the files were moved, shows every row
//! and the whole run.

use asr_testbench::wave::gtkw::{open_in_gtkwave, trace_names, Group};
use asr_testbench::wave::{end_time, read_vcd, view, Trace};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("asr-wave-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every row of a view names a variable of `vcd` with the row's declared width, and row names are unique
/// and free of `.` (GTKWave would shorten them).
fn rows_exist(groups: &[Group], vcd: &Trace, what: &str) {
    rows_exist_in("uut", groups, vcd, what)
}

/// [`rows_exist`] with the signals under `scope`.
fn rows_exist_in(scope: &str, groups: &[Group], vcd: &Trace, what: &str) {
    let mut seen = HashSet::new();
    for r in groups.iter().flat_map(|g| &g.rows) {
        let full = format!("{scope}.{}", r.signal);
        assert_eq!(
            vcd.width(&full),
            Some(r.width),
            "{what}: row {} ({full})",
            r.name
        );
        assert!(
            seen.insert(r.name.clone()),
            "{what}: row name {} twice",
            r.name
        );
        assert!(!r.name.contains('.'), "{what}: row name {}", r.name);
    }
}

/// Every listed signal is in the HDL VCD with its width and in the HDL view; one marked `model` is in the
/// model VCD and view too, any other in neither.
fn signals_in_vcds_and_views(
    sigs: &[asr_testbench::wave::sp2::Sig],
    (h, m): (&Trace, &Trace),
    (vh, vm): (&[Group], &[Group]),
) {
    let shown = |v: &[Group], name: &str| v.iter().flat_map(|g| &g.rows).any(|r| r.signal == name);
    for s in sigs {
        let full = format!("uut.{}", s.name);
        assert_eq!(h.width(&full), Some(s.width), "HDL VCD: {full}");
        assert!(shown(vh, &s.name), "HDL .gtkw lacks {full}");
        if s.model {
            assert_eq!(m.width(&full), Some(s.width), "model VCD: {full}");
            assert!(shown(vm, &s.name), "model .gtkw lacks {full}");
        } else {
            assert_eq!(m.width(&full), None, "model VCD: {full}");
            assert!(!shown(vm, &s.name), "model .gtkw lists {full}");
        }
    }
}

/// Moves the folder holding `files` to a new place, opens each `.gtkw` there in GTKWave from a third
/// folder, and checks that it loaded the moved VCD, shows exactly the view's rows and groups, and has the
/// whole run (and not more than a third more) in view.
fn open_moved(dir: &Path, scenario: &str, files: &[(&Path, bool)]) {
    let moved = dir.with_extension("moved");
    let _ = std::fs::remove_dir_all(&moved);
    std::fs::rename(dir, &moved).unwrap();
    let elsewhere = std::env::temp_dir();
    let end = end_time(scenario).unwrap();
    for &(gtkw, model) in files {
        let g = moved.join(gtkw.file_name().unwrap());
        let o = open_in_gtkwave(&g, &elsewhere).unwrap_or_else(|e| panic!("{e:#}"));
        let vcd = g.with_extension("vcd");
        assert_eq!(Path::new(&o.dumpfile), vcd, "{}: {}", g.display(), o.log);
        assert_eq!(
            o.traces,
            trace_names(&view(scenario, model).unwrap()),
            "{}: rows shown",
            g.display()
        );
        assert!(
            o.window.0 == 0 && o.window.1 >= end && o.window.1 <= end * 4 / 3,
            "{}: window {:?} for a run of {end}",
            g.display(),
            o.window
        );
    }
    let _ = std::fs::remove_dir_all(moved);
}

/// `benes8-burst`: both VCDs have the ports and every switch's registers under the same names, in ns; the
/// HDL and the model agree on every shared signal at every time step (before and after every edge); the
/// traffic is not trivial; the `.gtkw`s open in GTKWave.
#[test]
fn benes8_burst_hdl_and_model_vcds() {
    use asr_testbench::wave::benes8::{CYCLES, N, REGS};
    let dir = temp("benes8");
    let hdl = dir.join("benes8-burst.vcd");
    let model = dir.join("benes8-burst-model.vcd");
    let g1 = asr_testbench::wave::write("benes8-burst", &hdl, false).unwrap();
    let g2 = asr_testbench::wave::write("benes8-burst", &model, true).unwrap();
    let (h, m) = (read_vcd(&hdl).unwrap(), read_vcd(&model).unwrap());
    assert_eq!(h.timescale.as_deref(), Some("1 ns"));
    assert_eq!(m.timescale.as_deref(), Some("1 ns"));
    let shared: Vec<&str> = m.names().collect();
    assert_eq!(shared.len(), 7 + 20 * REGS.len(), "model signals");
    for name in &shared {
        assert_eq!(h.width(name), m.width(name), "{name}: width");
    }
    let times: Vec<u64> = (0..CYCLES as u64)
        .flat_map(|n| [10 * n, 10 * n + 5])
        .collect();
    for name in &shared {
        for &t in &times {
            assert_eq!(h.at(name, t), m.at(name, t), "{name} at time {t}");
        }
    }
    // The traffic: every output delivers, and output 0 is blocked for a while.
    for p in 0..N {
        let delivered = times.iter().any(|&t| {
            let v = h.at("uut.out_valid", t).unwrap();
            v.len() > p && v.as_bytes()[v.len() - 1 - p] == b'1'
        });
        assert!(delivered, "output {p} never valid");
    }
    rows_exist(&view("benes8-burst", false).unwrap(), &h, "HDL");
    rows_exist(&view("benes8-burst", true).unwrap(), &m, "model");
    assert!(asr_testbench::wave::write("nope", &hdl, false).is_err());
    open_moved(&dir, "benes8-burst", &[(&g1, false), (&g2, true)]);
}

/// The GTKWave check fails when GTKWave cannot load the VCD a save file names, and when a row names a
/// signal the VCD lacks (GTKWave drops such rows silently, so the check compares the rows shown).
#[test]
fn gtkwave_check_catches_a_missing_vcd_and_a_missing_signal() {
    use asr_testbench::wave::gtkw::{save_file, Fmt, Row};
    let dir = temp("gtkw-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let vcd = dir.join("w.vcd");
    std::fs::write(
        &vcd,
        "$timescale 1 ns $end\n$scope module uut $end\n$var wire 1 ! a $end\n$upscope $end\n\
         $enddefinitions $end\n#0\n0!\n#10\n1!\n#20\n",
    )
    .unwrap();
    let good = [Group::new("g", vec![Row::whole("a", "a", 1, Fmt::Bin)])];
    let bad = [Group::new(
        "g",
        vec![
            Row::whole("a", "a", 1, Fmt::Bin),
            Row::whole("b", "b", 1, Fmt::Bin),
        ],
    )];
    let g = dir.join("w.gtkw");
    std::fs::write(&g, save_file(&vcd, &g, 20, &good)).unwrap();
    let o = open_in_gtkwave(&g, &dir).unwrap();
    assert_eq!(o.traces, trace_names(&good));
    std::fs::write(&g, save_file(&vcd, &g, 20, &bad)).unwrap();
    let o = open_in_gtkwave(&g, &dir).unwrap();
    assert_ne!(
        o.traces,
        trace_names(&bad),
        "GTKWave showed a row without a signal"
    );
    std::fs::write(&g, save_file(&dir.join("missing.vcd"), &g, 20, &good)).unwrap();
    let e = open_in_gtkwave(&g, &dir).unwrap_err().to_string();
    assert!(e.contains("missing.vcd"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

/// An SP2 contention scenario (`sp2-contention-v2`, `-v3`): both VCDs and `.gtkw`s are written; every listed
/// signal is in the HDL VCD with its width and in its `.gtkw`, the model's signals (all taken from the model's
/// typed cycle function) in the model VCD too; HDL and model agree on every shared signal before every edge;
/// packets went through the crossbar and the queue, the error counters moved; `busy` (a signal per port, the
/// least number of ports on which it was ever 1) shows that several ports did each thing; the `.gtkw`s open
/// in GTKWave.
struct Contention {
    scenario: &'static str,
    signals: Vec<asr_testbench::wave::sp2::Sig>,
    views: (Vec<Group>, Vec<Group>),
    summary: asr_testbench::wave::sp2::Summary,
    cycles: usize,
    busy: &'static [(&'static str, usize, &'static str)],
    also: &'static [&'static str],
}

fn contention(c: Contention) {
    let dir = temp(c.scenario);
    let hdl = dir.join(format!("{}.vcd", c.scenario));
    let model = dir.join(format!("{}-model.vcd", c.scenario));
    let g1 = asr_testbench::wave::write(c.scenario, &hdl, false).unwrap();
    let g2 = asr_testbench::wave::write(c.scenario, &model, true).unwrap();
    let (h, m) = (read_vcd(&hdl).unwrap(), read_vcd(&model).unwrap());
    assert_eq!(h.timescale.as_deref(), Some("1 ns"));
    assert_eq!(m.timescale.as_deref(), Some("1 ns"));
    let sum = c.summary;
    eprintln!("{}: {sum:?}", c.scenario);
    assert!(sum.via_xbar >= 5 && sum.via_queue >= 5, "{sum:?}");
    let sigs = &c.signals;
    assert!(sigs.iter().filter(|s| s.model).count() > 100);
    let (vh, vm) = (&c.views.0, &c.views.1);
    rows_exist(vh, &h, "HDL");
    rows_exist(vm, &m, "model");
    signals_in_vcds_and_views(sigs, (&h, &m), (vh, vm));
    for group in ["receivers", "allocator", "central queue", "transmitters"] {
        assert!(vh.iter().any(|g| g.title == group), "no {group} group");
    }
    let times: Vec<u64> = (0..c.cycles as u64).map(|n| 10 * n).collect();
    let seen =
        |t: &Trace, name: &str, v: &str| times.iter().any(|&x| t.at(name, x).as_deref() == Some(v));
    for &(pattern, least, what) in c.busy {
        let ports = (0..8)
            .filter(|&k| seen(&h, &pattern.replace("{k}", &k.to_string()), "1"))
            .count();
        assert!(ports >= least, "{}: {what} at {ports} ports", c.scenario);
    }
    for name in c.also {
        assert!(seen(&h, name, "1"), "{}: {name} never 1", c.scenario);
    }
    let last = 10 * (c.cycles as u64 - 1);
    assert_ne!(h.at("uut.crc_errors", last).as_deref(), Some("0"));
    assert_ne!(h.at("uut.route_errors", last).as_deref(), Some("0"));
    // HDL and model agree before every edge on every shared signal.
    for s in sigs.iter().filter(|s| s.model) {
        let full = format!("uut.{}", s.name);
        for &t in &times {
            assert_eq!(h.at(&full, t), m.at(&full, t), "{full} at time {t}");
        }
    }
    open_moved(&dir, c.scenario, &[(&g1, false), (&g2, true)]);
}

/// `sp2-contention-v2`: the SP2 contention script on `sp2_switch_v2` (the model's values from
/// `Sp2SwitchV2::decide`).
#[test]
fn sp2_contention_v2_hdl_and_model_vcds() {
    use asr_testbench::wave::sp2_v2;
    contention(Contention {
        scenario: "sp2-contention-v2",
        signals: sp2_v2::signals(),
        views: (sp2_v2::view(false), sp2_v2::view(true)),
        summary: sp2_v2::summary().unwrap(),
        cycles: sp2_v2::CYCLES,
        busy: &[
            ("uut.tx${k}.src_xbar", 3, "crossbar packets"),
            ("uut.rx${k}.admitted", 3, "admissions to the queue"),
            ("uut.rx${k}.written", 3, "chunk writes"),
            ("uut.rx${k}.grant", 4, "crossbar grants"),
        ],
        also: &["uut.cq.rd_grant_valid"],
    });
}

/// `sp2-contention-v3`: the same script on `sp2_switch_v3` (the model's values from
/// `Sp2SwitchV3::step_traced`: every block port, registers before the edge and what each block reads).
#[test]
fn sp2_contention_v3_hdl_and_model_vcds() {
    use asr_testbench::wave::sp2_v3;
    contention(Contention {
        scenario: "sp2-contention-v3",
        signals: sp2_v3::signals(),
        views: (sp2_v3::view(false), sp2_v3::view(true)),
        summary: sp2_v3::summary().unwrap(),
        cycles: sp2_v3::CYCLES,
        busy: &[
            ("uut.tx${k}.src_valid", 3, "crossbar packets"),
            ("uut.rx${k}.admitted_valid", 3, "admissions to the queue"),
            ("uut.rx${k}.write_valid", 3, "bank writes"),
            ("uut.rx${k}.grant_valid", 4, "crossbar grants"),
            ("uut.rx${k}.push_valid", 3, "packet pushes"),
            ("uut.tx${k}.rd_valid", 2, "chunk reads"),
        ],
        also: &["uut.cq.rd_valid", "uut.cq.adm_valid"],
    });
}

/// `asr network --wave` (`wave::asr_network`): the VCD of a generated network (mesh:2x2 of v3 switches, a
/// traced Verilator build) has every row of its view, under `TOP.<name>`, with its width; one group per
/// endpoint and per switch; messages move (every processor's `m_axis_tvalid` rises); the `.gtkw` opens in
/// GTKWave from another folder after the files were moved, with every row and the whole run in view.
#[test]
fn asr_network_wave_has_every_row_and_opens_in_gtkwave() {
    use asr_testbench::cosim::tops::asr_network as net;
    let dir = temp("network");
    std::fs::create_dir_all(&dir).unwrap();
    let t = asr_model::topology::load("mesh:2x2").unwrap();
    let tables = net::deadlock_free_tables(&t).unwrap();
    let v = net::verilog(&t, &tables, "v3", "net4").unwrap();
    let vcd = dir.join("net4.vcd");
    let groups = asr_testbench::wave::asr_network::view(&t, &tables).unwrap();
    let (gtkw, cycles) =
        asr_testbench::wave::asr_network::write(&t, tables, "v3", "net4", &v, 400, 3, &vcd)
            .unwrap();
    assert!(cycles > 400, "{cycles} cycles: the drain is in the VCD");
    assert_eq!(groups.len(), 8, "4 endpoints and 4 switches");
    let trace = read_vcd(&vcd).unwrap();
    rows_exist_in("TOP.net4", &groups, &trace, "asr_network");
    for k in 0..4 {
        let sig = format!("TOP.net4.p{k}_m_axis_tvalid");
        let high = (0..cycles).any(|c| trace.at(&sig, 10 * c + 9).as_deref() == Some("1"));
        assert!(high, "{sig} never rises in {cycles} cycles");
    }
    let moved = dir.with_extension("moved");
    let _ = std::fs::remove_dir_all(&moved);
    std::fs::rename(&dir, &moved).unwrap();
    let g = moved.join(gtkw.file_name().unwrap());
    let o = open_in_gtkwave(&g, &std::env::temp_dir()).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(Path::new(&o.dumpfile), g.with_extension("vcd"), "{}", o.log);
    assert_eq!(o.traces, trace_names(&groups), "rows shown");
    let end = 10 * cycles;
    assert!(
        o.window.0 == 0 && o.window.1 >= end && o.window.1 <= end * 4 / 3,
        "window {:?} for a run of {end}",
        o.window
    );
    let _ = std::fs::remove_dir_all(moved);
}

//! The co-simulation harness itself: every top's definition writes exactly the ports its Verilog declares;
//! a fault injected for one cycle is reported at that cycle and signal by every backend; a mismatch writes
//! its VCDs; the Verilator cache rebuilds exactly when the Verilog changes.

use asr_testbench::cosim::verilator::{build_keeping, Opt, Verilated, KEEP};
use asr_testbench::cosim::{layout, record, run, tops, BackendKind, Options, Perturb};
use asr_testbench::harness::seed;

/// Every top's definition writes every port of its exported Verilog, in order and at its width, for a few
/// cycles (a frame written otherwise panics), and the rust-hdl binding names the same ports.
#[test]
fn every_definition_writes_the_ports_of_its_verilog() {
    for t in asr_testbench::tops::names() {
        let (l, _) = layout(t).unwrap();
        assert!(!l.outputs.is_empty(), "{t}");
        let o = Options::new(t, BackendKind::Verilator, 10, 1);
        let r = record(&o, &l, 5).unwrap();
        assert_eq!(r.pins.len(), 5 * l.input_words(), "{t}");
        assert_eq!(r.expect.len(), 5 * l.output_words(), "{t}");
        tops::rusthdl(t, &l).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

fn perturbed(
    top: &str,
    backend: BackendKind,
    cycles: u64,
    p: Perturb,
) -> asr_testbench::cosim::Report {
    let mut o = Options::new(top, backend, cycles, seed());
    o.perturb = Some(p);
    run(&o).unwrap_or_else(|e| panic!("{top}: {e:#}"))
}

/// One output bit of the design flipped for one cycle: every backend stops at exactly that cycle, names
/// that port, and shows the flipped bit as the only difference.
#[test]
fn a_flipped_output_bit_is_reported_at_its_cycle_and_signal() {
    // benes8's model runs up to the flipped cycle: a tenth as far in the short tier.
    let benes_cycle = if asr_testbench::harness::long_tier() {
        654_321
    } else {
        65_432
    };
    for (top, backend, cycle, port, bit) in [
        (
            "benes8",
            BackendKind::Verilator,
            benes_cycle,
            "out_data",
            3 * 26 + 20,
        ),
        (
            "sp2_switch_v2",
            BackendKind::Verilator,
            77_777,
            "token_out",
            5,
        ),
        (
            "sp2_board_v2",
            BackendKind::Verilator,
            3_333,
            "chips_link_out_data",
            8 * 37 + 2,
        ),
        (
            "sp2_board_v2",
            BackendKind::Verilator,
            4_444,
            "node_out_data",
            8 * 13 + 6,
        ),
        ("switch2", BackendKind::RustHdl, 4_321, "in_ready", 1),
        (
            "sp2_central_queue_v2",
            BackendKind::Icarus,
            2_345,
            "load",
            6,
        ),
    ] {
        // The board's Verilator build is long-tier work (`sp2_board.rs`); the short tier skips its rows.
        if top == "sp2_board_v2" && !asr_testbench::harness::long_tier() {
            continue;
        }
        let r = perturbed(
            top,
            backend,
            cycle + 1_000,
            Perturb::Output {
                cycle,
                port: port.into(),
                bit,
            },
        );
        let m = r
            .first
            .clone()
            .unwrap_or_else(|| panic!("{top} on {backend:?}: fault not reported: {r}"));
        assert_eq!(
            (m.cycle, m.signal.as_str()),
            (cycle, port),
            "{top} on {backend:?}: {r}"
        );
        assert_eq!(r.mismatches, 1);
        assert_eq!(
            r.cycles,
            cycle + 1,
            "{top}: the run goes on after the mismatch"
        );
        // The two values differ in exactly the flipped bit.
        let val = |s: &str| {
            let h = s.split("'h").nth(1).unwrap();
            let b: Vec<u8> = h
                .chars()
                .rev()
                .map(|c| c.to_digit(16).unwrap() as u8)
                .collect();
            b
        };
        let (e, a) = (val(&m.expected), val(&m.actual));
        let diff: Vec<usize> = (0..e.len() * 4)
            .filter(|&i| ((e[i / 4] ^ a[i / 4]) >> (i % 4)) & 1 == 1)
            .collect();
        assert_eq!(diff, [bit], "{top}: {m:?}");
    }
}

/// One input bit flipped for one cycle on the design's side only: the design leaves the model's path and
/// the harness reports it, at that cycle or later, never before.
#[test]
fn a_flipped_input_bit_is_caught() {
    // benes8: in cycle 1 000, out_ready of every output is flipped in turn until one changes what the
    // network does (a packet waiting at that output is then delivered, or held, against the model).
    let mut caught = 0;
    for port in 0..8 {
        let r = perturbed(
            "benes8",
            BackendKind::Verilator,
            5_000,
            Perturb::Input {
                cycle: 1_000,
                port: "out_ready".into(),
                bit: port,
            },
        );
        if let Some(m) = &r.first {
            assert!(m.cycle >= 1_000, "reported before the fault: {m:?}");
            caught += 1;
        }
    }
    assert!(caught > 0, "no flipped out_ready changed the network");
    // sp2_switch_v2: a byte's valid bit dropped on link 3 in a busy cycle always derails that receiver.
    let (l, _) = layout("sp2_switch_v2").unwrap();
    let o = Options::new("sp2_switch_v2", BackendKind::Verilator, 3_000, seed());
    let pins = record(&o, &l, 3_000).unwrap().pins;
    let iw = l.input_words();
    let c = (1_000..3_000)
        .find(|&c| pins[c * iw] & (1 << 3) != 0)
        .expect("link 3 carries a byte") as u64;
    let r = perturbed(
        "sp2_switch_v2",
        BackendKind::Verilator,
        20_000,
        Perturb::Input {
            cycle: c,
            port: "link_in_valid".into(),
            bit: 3,
        },
    );
    let m = r.first.expect("a lost byte is caught");
    assert!(m.cycle >= c, "{m:?}");
}

/// A mismatch with `vcd` set writes the 200 cycles before it: the ports of design and model (mismatch flag
/// up only in the last cycle), and for Verilator the whole design beside it.
#[test]
fn a_mismatch_writes_its_vcds() {
    let dir = std::env::temp_dir().join(format!("asr-cosim-vcd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m.vcd");
    let mut o = Options::new("switch2", BackendKind::Verilator, 2_000, seed());
    o.vcd = Some(path.clone());
    o.perturb = Some(Perturb::Output {
        cycle: 700,
        port: "out_valid".into(),
        bit: 0,
    });
    let r = run(&o).unwrap();
    assert_eq!(r.first.as_ref().map(|m| m.cycle), Some(700));
    let design = dir.join("m.design.vcd");
    assert_eq!(r.vcd, [path.clone(), design.clone()]);
    let text = std::fs::read_to_string(&path).unwrap();
    for scope in [
        "$scope module pins",
        "$scope module design",
        "$scope module model",
    ] {
        assert!(text.contains(scope), "{scope} missing");
    }
    let stamps: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(stamps.first(), Some(&(10 * 500)));
    assert_eq!(stamps.last(), Some(&(10 * 701)));
    // The mismatch flag (declared second, after the clock) rises once, at cycle 700.
    let mut p = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let h = p.parse_header().unwrap();
    let flag = h
        .find_var(&["switch2", "mismatch"])
        .expect("mismatch flag")
        .code;
    let (mut t, mut ups) = (0u64, Vec::new());
    for c in p {
        match c.unwrap() {
            vcd::Command::Timestamp(x) => t = x,
            vcd::Command::ChangeScalar(id, vcd::Value::V1) if id == flag => ups.push(t),
            _ => {}
        }
    }
    assert_eq!(ups, [7_000]);
    let d = std::fs::read_to_string(&design).unwrap();
    assert!(
        d.contains("$var") && d.contains("ib_") || d.contains("$scope"),
        "design VCD empty"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Verilator library is built once per Verilog text: the same text is found in the cache, a changed
/// one is built beside it, and a build beyond the `keep` most recently used ones of the top is removed — the
/// least recently used, not the first built. (The cache keeps `KEEP`; three here, for time.)
#[test]
fn the_verilator_cache_follows_the_verilog() {
    let root = std::env::temp_dir().join(format!("asr-vcache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (l, v) = layout("matcher_m4_p1").unwrap();
    const K: usize = 3;
    const _: () = assert!(KEEP >= K);
    let build = |v: &str, opt| build_keeping(&root, &l, v, false, opt, K).unwrap();
    let (p1, built1) = build(&v, Opt::Build);
    let (p2, built2) = build(&v, Opt::Build);
    assert!(built1 && !built2 && p1 == p2);
    let variant = |k: usize| format!("{v}\n// variant {k}\n");
    // K builds in all: every one stays.
    let mut paths = vec![p1.clone()];
    for k in 1..K {
        let (p, built) = build(&variant(k), Opt::Build);
        assert!(built && !paths.contains(&p));
        paths.push(p);
    }
    assert!(paths.iter().all(|p| p.exists()), "{paths:?}");
    // The first build used again, then one more build: variant 1 (least recently used) goes.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (p1b, built) = build(&v, Opt::Build);
    assert!(!built && p1b == p1);
    let (p3, built3) = build(&variant(K), Opt::Build);
    assert!(built3 && !paths.contains(&p3));
    assert!(
        !paths[1].exists(),
        "the least recently used build is removed"
    );
    assert!(p1.exists(), "a build used again is kept");
    assert!(paths[2..].iter().all(|p| p.exists()));
    // The same Verilog compiled for speed is another build.
    let (pr, builtr) = build(&v, Opt::Run);
    assert!(builtr && pr != p1);
    // The library runs.
    let mut m = Verilated::load(&l, &p3).unwrap();
    let mut out = vec![0u32; l.output_words()];
    m.cycle(&[0xffff], &mut out);
    let g = asr_model::matcher::heuristic(&[0xf; 4], 4, 1);
    assert_eq!(
        out,
        [g.iter()
            .enumerate()
            .fold(0u32, |a, (k, &r)| a | (r as u32) << (4 * k))]
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// A design whose `always` blocks wake each other forever within one time step (here from cycle 300 on)
/// stops Icarus's clock without ending `vvp`: the run is stopped and reported with the last cycle it
/// reached, not waited for forever (the v3 switch's glue did this until its block inputs were each assigned
/// once per evaluation).
#[test]
fn an_icarus_zero_delay_loop_is_reported_not_waited_for() {
    use asr_testbench::cosim::icarus::{run_frames_stall, PROGRESS_EVERY};
    use asr_testbench::cosim::ports::Layout;
    let v = "module osc(go, y);\n  input wire [0:0] go;\n  output wire [0:0] y;\n  reg a, b;\n  \
             always @(*) a = go & ~b;\n  always @(*) b = a;\n  assign y = 1'b0;\nendmodule\n";
    let layout = Layout::from_verilog("osc", v).unwrap();
    let n = 600;
    let pins: Vec<u32> = (0..n).map(|c| u32::from(c >= 300)).collect();
    let expect = vec![0u32; n];
    // Without the loop, the run ends and every vector is applied.
    let calm = run_frames_stall(
        &layout,
        v,
        &pins[..300],
        &expect[..300],
        &[],
        None,
        std::time::Duration::from_secs(60),
    )
    .unwrap();
    assert_eq!(calm.applied, 300);
    assert!(calm.first.is_none());
    let t = std::time::Instant::now();
    let e = run_frames_stall(
        &layout,
        v,
        &pins,
        &expect,
        &[],
        None,
        std::time::Duration::from_secs(3),
    )
    .expect_err("a stalled Icarus run must be an error");
    let msg = format!("{e:#}");
    let last = 300 / PROGRESS_EVERY * PROGRESS_EVERY;
    assert!(
        msg.contains("no progress") && msg.contains(&format!("after cycle {last} ")),
        "{msg}"
    );
    assert!(
        t.elapsed() < std::time::Duration::from_secs(60),
        "{:?}",
        t.elapsed()
    );
}

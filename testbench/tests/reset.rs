//! The synchronous reset of `asr verilog --reset` (`asr_hdl::reset`), in Verilator: a top runs seeded random
//! traffic against its model (outputs compared every cycle, the reset input held at 0), then `reset` is held
//! at 1 for two cycles while the traffic goes on, then a *fresh* model with another seed starts from cycle 0
//! and every output of the design is compared with it, cycle for cycle, through its traffic, drain and
//! final checks. A design whose registers did not all return to their initial values would differ from the
//! fresh model; the fault test leaves one register module without the reset and requires a mismatch.
//! `ASR_SEED=<n>` replays.

use asr_testbench::cosim::verilator::{Opt, Verilated};
use asr_testbench::cosim::{tops, Frame, Layout};

/// What a run found: the cycle after the reset where the design first differed from the fresh model, or
/// the cycles compared after the reset when it never did.
enum Outcome {
    Clean { after: u64, packets: u64 },
    Mismatch { cycle: u64, port: String },
}

/// `quiet`: the other pins are 0 during the reset (else the traffic goes on).
fn reset_then_fresh(
    top: &str,
    keep: &[&str],
    seed: u64,
    before: u64,
    after: u64,
    quiet: bool,
) -> Outcome {
    let v = asr_testbench::tops::find(top).expect("known top").verilog();
    let vr = asr_hdl::reset::add_sync_reset_except(&v, keep).expect("reset export");
    let l = Layout::from_verilog(top, &v).unwrap();
    let lr = Layout::from_verilog(top, &vr).unwrap();
    assert_eq!(
        lr.outputs, l.outputs,
        "{top}: the reset changed the outputs"
    );
    let rp = lr.inputs.last().expect("inputs");
    assert_eq!((rp.name.as_str(), rp.width), ("reset", 1), "{top}");
    assert_eq!(lr.inputs[..lr.inputs.len() - 1], l.inputs[..], "{top}");
    let iw = l.input_words();
    let mut dut = Verilated::new(&lr, &vr, false, Opt::Build).unwrap();
    let mut pins = Frame::new(&l.inputs);
    let mut expect = Frame::new(&l.outputs);
    let mut pr = vec![0u32; lr.input_words()];
    let mut out = vec![0u32; lr.output_words()];
    let first_diff = |expect: &Frame, out: &[u32]| {
        l.outputs
            .iter()
            .find(|p| {
                let r = p.offset..p.offset + p.words();
                !asr_testbench::cosim::ports::same(
                    &expect.words[r.clone()],
                    &expect.care[r.clone()],
                    &out[r],
                )
            })
            .map(|p| p.name.clone())
    };
    // Traffic, then two cycles of reset with the traffic still on the pins.
    let mut a = tops::make(top, seed, before).unwrap();
    for n in 0..before + 2 {
        pins.clear();
        expect.clear();
        a.cycle(n, &mut pins, &mut expect)
            .unwrap_or_else(|e| panic!("{top}: model side before the reset, cycle {n}: {e}"));
        pr[..iw].copy_from_slice(&pins.words);
        if quiet && n >= before {
            pr[..iw].iter_mut().for_each(|w| *w = 0);
        }
        pr[iw] = (n >= before) as u32;
        dut.cycle(&pr, &mut out);
        if n < before {
            if let Some(p) = first_diff(&expect, &out) {
                panic!("{top}: before the reset, cycle {n}: port {p} differs from the model (seed {seed:#x})");
            }
        }
    }
    // A fresh model from cycle 0: traffic, drain, final checks.
    let mut b = tops::make(top, seed ^ 0x5a5a, after).unwrap();
    let mut n = 0u64;
    let mut draining = false;
    loop {
        if n == after && !draining {
            b.drain();
            draining = true;
        }
        if draining && b.drained() {
            b.finish()
                .unwrap_or_else(|e| panic!("{top}: fresh model's final check: {e}"));
            return Outcome::Clean {
                after: n,
                packets: b.packets(),
            };
        }
        assert!(
            n < after + b.drain_limit(),
            "{top}: not drained after the reset"
        );
        pins.clear();
        expect.clear();
        b.cycle(n, &mut pins, &mut expect)
            .unwrap_or_else(|e| panic!("{top}: fresh model, cycle {n}: {e}"));
        pr[..iw].copy_from_slice(&pins.words);
        pr[iw] = 0;
        dut.cycle(&pr, &mut out);
        if let Some(port) = first_diff(&expect, &out) {
            return Outcome::Mismatch { cycle: n, port };
        }
        n += 1;
    }
}

fn clean(top: &str, before: u64, after: u64) {
    let seed = asr_testbench::harness::seed();
    match reset_then_fresh(top, &[], seed, before, after, false) {
        Outcome::Clean { after: n, packets } => {
            eprintln!("{top}: {before} cycles, reset, then {n} cycles equal to a fresh model ({packets} units)");
            assert!(packets > 0, "{top}: no traffic after the reset");
        }
        Outcome::Mismatch { cycle, port } => panic!(
            "{top}: cycle {cycle} after the reset: port {port} differs from a fresh model (ASR_SEED={seed:#x})"
        ),
    }
}

#[test]
fn benes8_after_a_reset_equals_a_fresh_model() {
    clean("benes8", 3_000, 20_000);
}

#[test]
fn switch2_and_switch2r_after_a_reset_equal_a_fresh_model() {
    clean("switch2", 3_000, 20_000);
    clean("switch2r", 3_000, 20_000);
}

#[test]
fn sp2_blocks_and_the_allocators_after_a_reset_equal_a_fresh_model() {
    // The short tier (plain `cargo test`) builds one SP2 block and one allocator; the long tier all seven.
    let short = ["sp2_receiver_v2", "alloc_islip1_m8"];
    for top in [
        "sp2_receiver_v2",
        "sp2_transmitter_v2",
        "sp2_allocator_v2",
        "alloc_islip1_m8",
        "alloc_pim1_m8",
        "alloc_wavefront_m8",
        "benes8r",
    ] {
        if asr_testbench::harness::long_tier() || short.contains(&top) {
            clean(top, 5_000, 20_000);
        }
    }
}

/// The v2 central queue keeps its never-used chunks in a counter, not in RAM contents, so a reset restores
/// it (with the free list in an initialised RAM, a reset mid-run handed out stale chunks twice: this test
/// found it, at cycle 92 after the reset of `sp2_central_queue_v2`). The whole switch and the board (two
/// large Verilator builds) in the long tier only.
#[test]
fn v2_central_queue_switch_and_board_after_a_reset_equal_a_fresh_model() {
    clean("sp2_central_queue_v2", 5_000, 20_000);
    if asr_testbench::harness::long_tier() {
        clean("sp2_switch_v2", 20_000, 50_000);
        clean("sp2_board_v2", 20_000, 50_000);
    }
}

/// The v3 central queue, like v2's, counts its never-used chunks (`fresh`) and its RAMs have no initial
/// contents, so a reset restores it; the entries never written since the reset are undefined, and its
/// co-simulation does not compare them (`rd_banks`: `Frame::put_fields_opt`), while the switch never
/// reads one. The free-chunk counter left out of the reset is caught (at cycle 0, `free_head`). The
/// blocks and the whole switch in the long tier (four more Verilator builds).
#[test]
fn v3_central_queue_blocks_and_switch_after_a_reset_equal_a_fresh_model() {
    clean("sp2_central_queue_v3", 5_000, 20_000);
    let seed = asr_testbench::harness::seed();
    match reset_then_fresh("sp2_central_queue_v3", &["fresh"], seed, 5_000, 20_000, false) {
        Outcome::Mismatch { cycle, port } => {
            eprintln!("sp2_central_queue_v3, `fresh` not reset: cycle {cycle} after the reset, port {port} differs")
        }
        Outcome::Clean { .. } => panic!(
            "sp2_central_queue_v3: `fresh` left out of the reset was not caught (ASR_SEED={seed:#x})"
        ),
    }
    if asr_testbench::harness::long_tier() {
        for top in ["sp2_receiver_v3", "sp2_transmitter_v3", "sp2_allocator_v3"] {
            clean(top, 5_000, 20_000);
        }
        clean("sp2_switch_v3", 20_000, 50_000);
    }
}

/// Every top can have the reset input (no block RAM with initial contents: the v2 central queue keeps its
/// never-used chunks in a counter), and every clocked top gets it with `--reset`; a combinational top (the
/// matchers) is exported as without it. (The refusal itself: `asr_hdl::reset`'s unit tests.)
///
/// Known refusal, asserted as such: `asr_nic`, whose route table is a block RAM initialised at export (a
/// reset keeps the table as last written through `cfg_*`: configuration, not state).
#[test]
fn every_clocked_top_gets_a_reset_input() {
    const REFUSED: [(&str, &str); 1] =
        [("asr_nic", "asr_nic__tab: a block RAM with initial contents")];
    for top in asr_testbench::tops::TOPS {
        let (v, refused) = top.user_verilog_with_reset();
        if let Some((_, why)) = REFUSED.iter().find(|r| r.0 == top.name) {
            let r = refused
                .unwrap_or_else(|| panic!("{}: no longer refused: update REFUSED", top.name));
            assert!(
                r.contains(why),
                "{}: refused for another reason: {r}",
                top.name
            );
            continue;
        }
        assert!(refused.is_none(), "{}: refused: {refused:?}", top.name);
        let clocked = top.verilog().contains("input wire  clock;");
        assert_eq!(
            v.contains("input wire  reset;"),
            clocked,
            "{}: a reset input exactly when clocked",
            top.name
        );
    }
}

/// The harness catches a register left out of the reset: in `benes8` (whose 12 switches share one module),
/// each register role in turn has its reset tied to 0, the pins quiet during the reset (so that full output
/// buffers stay full). Every full flag (a stale one shows a phantom word) must be caught; a data register
/// may not be (its value is not visible while its buffer is empty), so only the flags are required. All are
/// tried and reported in the long tier; the short tier tries the flags only (a Verilator build each).
#[test]
fn a_register_without_reset_is_caught() {
    let seed = asr_testbench::harness::seed();
    let v = asr_testbench::tops::find("benes8").unwrap().verilog();
    let regs = asr_hdl::reset::register_instances(&v);
    assert_eq!(regs.len(), 10, "{regs:?}");
    let mut caught = Vec::new();
    let long = asr_testbench::harness::long_tier();
    for r in regs.iter().filter(|r| long || r.contains("full")) {
        match reset_then_fresh("benes8", &[r.as_str()], seed, 3_000, 5_000, true) {
            Outcome::Mismatch { cycle, port } => {
                eprintln!(
                    "benes8, {r} not reset: cycle {cycle} after the reset, port {port} differs"
                );
                caught.push(r.clone());
            }
            Outcome::Clean { .. } => eprintln!("benes8, {r} not reset: not visible in this run"),
        }
    }
    for r in regs.iter().filter(|r| r.contains("full")) {
        assert!(
            caught.contains(r),
            "{r} without reset was not caught (ASR_SEED={seed:#x})"
        );
    }
}

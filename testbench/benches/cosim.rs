//! Where the co-simulation's time goes, per cycle: the model side alone (stimulus, model twin and scoreboard:
//! `Top::cycle` writing both frames), the Verilated design alone (replaying recorded frames, no comparison),
//! and the crossing into the library (one call per cycle into the smallest design, `matcher_m4_p1`, whose
//! evaluation is a few dozen instructions). In a lock-step run the two sides run in parallel threads, so the
//! rate is bounded by the slower one.
//!
//! `cargo bench -p asr-testbench --bench cosim` (builds or reuses the Verilator libraries under
//! target/verilator first).

use asr_testbench::cosim::verilator::{Opt, Verilated};
use asr_testbench::cosim::{layout, record, tops, BackendKind, Frame, Options};
use criterion::{criterion_group, criterion_main, Criterion};

const TOPS: &[&str] = &[
    "benes8",
    "benes16",
    "benes32",
    "sp2_switch_v2",
    "sp2_board_v2",
];

fn model_side(c: &mut Criterion) {
    let mut g = c.benchmark_group("model");
    g.sample_size(20);
    for &t in TOPS.iter().chain(&["matcher_m4_p1"]) {
        let (l, _) = layout(t).unwrap();
        let mut top = tops::make(t, 1, u64::MAX).unwrap();
        let mut pins = Frame::new(&l.inputs);
        let mut expect = Frame::new(&l.outputs);
        let mut n = 0u64;
        g.bench_function(t, |b| {
            b.iter(|| {
                pins.clear();
                expect.clear();
                top.cycle(n, &mut pins, &mut expect).unwrap();
                n += 1;
            })
        });
    }
    g.finish();
}

fn verilator_side(c: &mut Criterion) {
    let mut g = c.benchmark_group("verilator");
    g.sample_size(20);
    for &t in TOPS.iter().chain(&["matcher_m4_p1"]) {
        let (l, v) = layout(t).unwrap();
        let frames = 20_000;
        let rec = record(
            &Options::new(t, BackendKind::Verilator, frames, 1),
            &l,
            frames,
        )
        .unwrap();
        let mut m = Verilated::new(&l, &v, false, Opt::Run).unwrap();
        let (iw, ow) = (l.input_words(), l.output_words());
        let count = rec.pins.len() / iw.max(1);
        let mut out = vec![0u32; ow];
        let mut k = 0usize;
        g.bench_function(t, |b| {
            b.iter(|| {
                m.cycle(&rec.pins[k * iw..(k + 1) * iw], &mut out);
                k = (k + 1) % count;
            })
        });
    }
    g.finish();
}

criterion_group!(benches, model_side, verilator_side);
criterion_main!(benches);

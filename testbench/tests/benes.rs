//! Lock-step: the `benes8` HDL top against `asr_model::benes::Benes::step`, 50 000+ cycles of random
//! injections (valid random headers and ASR headers, random 16-bit tags) and random output backpressure;
//! every port compared every cycle, and a scoreboard: every packet delivered exactly once, at an output its
//! header permits. Replay a failure with `ASR_SEED=<seed>`.

use asr_testbench::harness::{rng, seed};
use asr_testbench::lockstep::{Benes8Lock, BenesLock};
use asr_testbench::traffic::BenesTraffic;
use rand::Rng;
use std::time::Instant;

fn run<const N: usize, const W: usize, const W2: usize, const NW: usize>(
    cycles: usize,
    name: &str,
) {
    let seed = seed();
    let mut rng = rng(seed ^ N as u64);
    let mut dut = BenesLock::<N, W, W2, NW>::default();
    let mut tr = BenesTraffic::new(N);
    let t = Instant::now();
    let mut n = 0;
    let mut drained = false;
    while n < cycles || !drained {
        let draining = n >= cycles;
        let phase = (n / 2000) % 4;
        let (p_inj, p_rdy) = [(0.8, 0.7), (0.3, 1.0), (1.0, 0.3), (0.6, 0.9)][phase];
        let (in_valid, in_data) = if draining {
            // Anything still offered at an input is withdrawn; wait for the network to empty.
            tr.pending.iter_mut().for_each(|p| *p = None);
            (vec![false; N], vec![0; N])
        } else {
            tr.offer(&mut rng, p_inj)
        };
        let out_ready: Vec<bool> = (0..N).map(|_| draining || rng.gen_bool(p_rdy)).collect();
        let (hw, sw) = dut.step(&in_valid, &in_data, &out_ready);
        assert_eq!(
            hw, sw,
            "{name} cycle {n}: HDL and model differ (ASR_SEED={seed:#x}); in_valid={in_valid:?} \
             in_data={in_data:x?} out_ready={out_ready:?}"
        );
        tr.record(&sw.in_ready, &sw.out_valid, &sw.out_data, &out_ready)
            .unwrap_or_else(|e| panic!("{name} cycle {n}: scoreboard: {e} (ASR_SEED={seed:#x})"));
        if draining {
            drained = tr.in_flight() == 0;
            assert!(
                n < cycles + 1000,
                "{name}: network does not drain (ASR_SEED={seed:#x})"
            );
        }
        n += 1;
    }
    assert_eq!(dut.model.occupancy(), 0);
    assert_eq!(tr.injected, tr.delivered);
    assert!(tr.injected as usize > cycles, "{name}: too little traffic");
    eprintln!(
        "{name}: {n} cycles agree in {:.2} s ({:.0} cycles/s); {} packets injected and delivered \
         exactly once (seed {seed:#x})",
        t.elapsed().as_secs_f64(),
        n as f64 / t.elapsed().as_secs_f64(),
        tr.injected
    );
}

#[test]
fn benes8_agrees_with_the_model() {
    let _: Option<Benes8Lock> = None;
    run::<8, 26, 52, 208>(60_000, "benes8");
}

#[test]
fn benes16_agrees_with_the_model() {
    run::<16, 30, 60, 480>(5_000, "benes16");
}

/// The exported `benes8` Verilog in Icarus on 20 000 cycles recorded from the model (with the scoreboard
/// checking the recorded traffic too).
#[test]
fn benes8_verilog_in_icarus() {
    use asr_model::benes::Benes;
    use asr_testbench::icarus::{run, stream_ports, stream_vector};
    const N: usize = 8;
    const W: usize = 26;
    let seed = seed();
    let mut rng = rng(seed ^ 0x1ca);
    let mut model = Benes::new(N).unwrap();
    let mut tr = BenesTraffic::new(N);
    let mut vectors = Vec::new();
    for n in 0..20_000 {
        let (p_inj, p_rdy) = [(0.8, 0.7), (0.3, 1.0), (1.0, 0.3), (0.6, 0.9)][(n / 1000) % 4];
        let (in_valid, in_data) = tr.offer(&mut rng, p_inj);
        let out_ready: Vec<bool> = (0..N).map(|_| rng.gen_bool(p_rdy)).collect();
        let o = model.step(&in_valid, &in_data, &out_ready).unwrap();
        tr.record(&o.in_ready, &o.out_valid, &o.out_data, &out_ready)
            .unwrap_or_else(|e| panic!("cycle {n}: scoreboard: {e}"));
        vectors.push(stream_vector(
            &in_valid,
            &in_data,
            &out_ready,
            &o.in_ready,
            &o.out_valid,
            &o.out_data,
            W,
        ));
    }
    let (ins, outs) = stream_ports(N, W);
    let r = run(
        "benes8",
        &asr_hdl::export::verilog_of("benes8").unwrap(),
        &ins,
        &outs,
        &vectors,
        true,
    )
    .expect("Icarus run (iverilog must be installed)");
    assert_eq!(r.vectors, 20_000);
    assert_eq!(
        r.mismatches, 0,
        "benes8: Icarus disagrees with the model (ASR_SEED={seed:#x})"
    );
    eprintln!(
        "benes8: {} Icarus cycles, 0 mismatches ({} packets)",
        r.vectors, tr.injected
    );
}

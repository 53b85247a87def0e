//! Criterion benchmark of the wormhole simulator: simulated cycles per second on a 2^10-node hypercube under
//! random traffic (worms of 10 flits) at 50 % of λmax, for E-cube (1 VC), Fully (2 VCs) and Non-Minimal
//! (4 VCs), after a 1000-cycle warm-up. Multiply by the flit-hops per cycle printed by `asr wormhole` to get
//! flit-hops per second.

use asr_model::wormhole::{Algorithm, Pattern, SimConfig, Simulator};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("wormhole_n10_random_b10_50pct");
    g.throughput(Throughput::Elements(1));
    g.sample_size(20);
    for alg in [Algorithm::Ecube, Algorithm::Fully, Algorithm::NonMinimal] {
        let mut cfg = SimConfig::new(
            10,
            alg,
            Pattern::Random,
            10,
            SimConfig::rate_for_pct(10, 50.0),
        );
        cfg.warmup = 0;
        cfg.measure = u64::MAX / 4;
        let mut sim = Simulator::new(&cfg).expect("valid configuration");
        for _ in 0..1000 {
            sim.step(true).expect("no deadlock");
        }
        g.bench_with_input(BenchmarkId::new("cycle", alg.name()), &alg, |b, _| {
            b.iter(|| sim.step(true).expect("no deadlock"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

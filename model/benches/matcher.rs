//! Criterion benchmarks of the matching kernels: the heuristic at 8×8 and 16×16 with 1 and 2 passes, and the
//! exact maximum matching (Hopcroft–Karp) at 8×8 and 16×16. Each iteration matches one of 1024 pre-generated
//! random request matrices (density ½), so the figure is matchings per second.

use asr_model::exact::max_matching_size;
use asr_model::matcher::{cardinality, heuristic_into};
use asr_model::rng::stream;
use asr_model::table2_1::random_matrix;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

fn matrices(m: usize) -> Vec<Vec<u64>> {
    let mut rng = stream(42, m as u64);
    (0..1024)
        .map(|_| {
            let mut r = vec![0; m];
            random_matrix(&mut rng, m, 0.5, &mut r);
            r
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("matching");
    g.throughput(Throughput::Elements(1));
    for m in [8usize, 16] {
        let mats = matrices(m);
        for passes in [1usize, 2] {
            g.bench_with_input(
                BenchmarkId::new(format!("heuristic_p{passes}"), m),
                &m,
                |b, &m| {
                    let mut out = vec![0u64; m];
                    let mut i = 0;
                    b.iter(|| {
                        i = (i + 1) & 1023;
                        heuristic_into(black_box(&mats[i]), m, passes, &mut out);
                        cardinality(&out)
                    })
                },
            );
        }
        g.bench_with_input(BenchmarkId::new("exact_hopcroft_karp", m), &m, |b, _| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) & 1023;
                max_matching_size(black_box(&mats[i]))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

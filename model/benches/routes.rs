//! Criterion benchmark of the route-table generator: all route tables of the SP2 systems (pruned solution
//! graph, rayon over the cores present), and the full solution graph of thesis Fig. 4.4 on the smaller ones.

use asr_model::routes::{generate, Method};
use asr_model::topology::builtin;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

fn routes(c: &mut Criterion) {
    let mut g = c.benchmark_group("routes");
    g.sample_size(10);
    for n in [16usize, 32, 48, 64, 80, 128, 256, 512] {
        let t = builtin(&format!("sp2:{n}")).unwrap();
        g.bench_with_input(BenchmarkId::new("pruned", n), &t, |b, t| {
            b.iter(|| generate(t, Method::Pruned, &|| {}).unwrap())
        });
        if n <= 128 {
            g.bench_with_input(BenchmarkId::new("full", n), &t, |b, t| {
                b.iter(|| generate(t, Method::Full, &|| {}).unwrap())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, routes);
criterion_main!(benches);

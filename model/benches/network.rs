//! Criterion benchmark of one simulation step: a whole Beneš network (64 and 512 ports) kept at saturation
//! (every processor always offers a packet, ASR headers, uniform destinations). Throughput is counted in
//! switches per iteration, so criterion's "elements/s" is router-cycles per second.

use asr_model::network::build::benes_topology;
use asr_model::network::engine::{Engine, StepIo};
use asr_model::network::packet::{Meta, Packets, NONE};
use asr_model::rng::stream;
use asr_model::routing::{BenesRouting, Routing, Scheme};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::Rng;

struct Driver {
    e: Engine,
    pk: Packets,
    offer: Vec<u32>,
    ready: Vec<bool>,
    io: StepIo,
    hops: Vec<u64>,
    r: BenesRouting,
    rng: asr_model::rng::Rng,
}

impl Driver {
    fn new(ports: usize) -> Self {
        let n = ports.trailing_zeros() as usize;
        let mut e = Engine::new(&benes_topology(ports).unwrap().topo).unwrap();
        e.prepare(2 * n - 1);
        Driver {
            e,
            pk: Packets::new(2 * n - 1),
            offer: vec![NONE; ports],
            ready: vec![true; ports],
            io: StepIo::default(),
            hops: Vec::new(),
            r: BenesRouting {
                n,
                scheme: Scheme::Asr,
            },
            rng: stream(1, 0),
        }
    }

    fn cycle(&mut self) {
        let ports = self.offer.len();
        for p in 0..ports {
            if self.offer[p] == NONE {
                let d = self.rng.gen_range(0..ports);
                self.r.route(p, d, &mut self.rng, &mut self.hops);
                let m = Meta {
                    src: p as u32,
                    dst: d as u32,
                    ..Default::default()
                };
                self.offer[p] = self.pk.alloc(m, &self.hops);
            }
        }
        self.e
            .step(&mut self.pk, &self.offer, &self.ready, &mut self.io)
            .unwrap();
        for &p in &self.io.accepted {
            self.offer[p as usize] = NONE;
        }
        for &(_, w) in &self.io.delivered {
            self.pk.free(w);
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("network_step");
    for ports in [64usize, 512] {
        let mut d = Driver::new(ports);
        for _ in 0..1000 {
            d.cycle();
        }
        g.throughput(Throughput::Elements(d.e.switches() as u64));
        g.bench_with_input(
            BenchmarkId::new("benes_asr_saturated", ports),
            &ports,
            |b, _| b.iter(|| d.cycle()),
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

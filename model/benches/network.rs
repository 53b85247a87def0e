//! Criterion benchmark of one simulation step: a whole network kept at saturation (every processor always
//! offers a packet, uniform destinations): the Beneš with ASR headers (64 and 512 ports) and the 2-ary 6-fly
//! with destination tags, in thesis mode (one-packet buffers) and with 8-packet buffers. Throughput is
//! counted in switches per iteration, so criterion's "elements/s" is router-cycles per second.

use asr_model::network::build::{benes_topology, fly_topology};
use asr_model::network::engine::{Engine, FlowControl, StepIo};
use asr_model::network::packet::{Meta, Packets, NONE};
use asr_model::rng::stream;
use asr_model::routing::{BenesRouting, FlyRouting, Routing, Scheme};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::Rng;

struct Driver {
    e: Engine,
    pk: Packets,
    offer: Vec<u32>,
    ready: Vec<bool>,
    io: StepIo,
    hops: Vec<u64>,
    r: Box<dyn Routing>,
    rng: asr_model::rng::Rng,
}

impl Driver {
    /// `benes` or `fly` (2-ary), `ports` processors, `depth`-packet input buffers.
    fn new(kind: &str, ports: usize, depth: u32) -> Self {
        let n = ports.trailing_zeros() as usize;
        let (topo, r): (_, Box<dyn Routing>) = if kind == "benes" {
            let r = BenesRouting {
                n,
                scheme: Scheme::Asr,
            };
            (benes_topology(ports).unwrap().topo, Box::new(r))
        } else {
            (
                fly_topology(2, n).unwrap().topo,
                Box::new(FlyRouting { k: 2, n }),
            )
        };
        let mut e = Engine::new(&topo)
            .unwrap()
            .with_flow(FlowControl::new(depth, 0).unwrap())
            .unwrap();
        e.prepare(r.max_hops());
        Driver {
            e,
            pk: Packets::new(r.max_hops()),
            offer: vec![NONE; ports],
            ready: vec![true; ports],
            io: StepIo::default(),
            hops: Vec::new(),
            r,
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
    for (kind, ports, depth) in [
        ("benes", 64usize, 1u32),
        ("benes", 512, 1),
        ("benes", 64, 8),
        ("fly", 64, 1),
        ("fly", 64, 8),
    ] {
        let mut d = Driver::new(kind, ports, depth);
        for _ in 0..1000 {
            d.cycle();
        }
        g.throughput(Throughput::Elements(d.e.switches() as u64));
        g.bench_with_input(
            BenchmarkId::new(format!("{kind}_saturated_buffer{depth}"), ports),
            &ports,
            |b, _| b.iter(|| d.cycle()),
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

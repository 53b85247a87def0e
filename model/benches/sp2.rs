//! Criterion benchmark of one cycle of the SP2-style switch model: a whole SP2 system (the 16-node board and
//! the 128-node system) kept at saturation — every processor always has a packet waiting (32-byte payloads,
//! uniform destinations, ASR headers from the route generator). Throughput is counted in switches per
//! iteration, so criterion's "elements/s" is switch-cycles per second (idle switches with no input are skipped
//! by the network, which cannot happen at saturation).

use asr_model::header::Header;
use asr_model::rng::stream;
use asr_model::routing::{Routing, TableRouting};
use asr_model::sp2::encode_packet;
use asr_model::sp2::network::Sp2Network;
use asr_model::sp2::node::Node;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::Rng;

struct Driver {
    net: Sp2Network,
    nodes: Vec<Node>,
    routing: TableRouting,
    rng: asr_model::rng::Rng,
    hops: Vec<u64>,
    link: Vec<Option<u8>>,
    token: Vec<bool>,
    cycle: u64,
}

impl Driver {
    fn new(name: &str) -> Self {
        let t = asr_model::topology::builtin(name).unwrap();
        let tables =
            asr_model::routes::generate(&t, asr_model::routes::Method::Pruned, &|| {}).unwrap();
        let routing = TableRouting::from_tables(&t, &tables, "asr").unwrap();
        let net = Sp2Network::new(&t).unwrap();
        let n = net.processors();
        let mut d = Driver {
            net,
            nodes: (0..n).map(|_| Node::new()).collect(),
            routing,
            rng: stream(1, 0),
            hops: Vec::new(),
            link: vec![None; n],
            token: vec![false; n],
            cycle: 0,
        };
        // Warm up into the saturated steady state.
        for _ in 0..3_000 {
            d.step();
        }
        d
    }

    fn step(&mut self) {
        let n = self.nodes.len();
        for s in 0..n {
            if self.nodes[s].send_queue.len() < 2 {
                let dst = (s + self.rng.gen_range(1..n)) % n;
                self.routing.route(s, dst, &mut self.rng, &mut self.hops);
                let h = Header::new(8, self.hops.clone()).unwrap();
                let p = encode_packet(&h, &[0x5a; 32]).unwrap();
                self.nodes[s].send_queue.push_back(p);
            }
            let (b, t) = self.net.to_node(s);
            let (lo, to) = self.nodes[s].cycle(self.cycle, b, t, 1);
            self.nodes[s].arrivals.clear();
            self.nodes[s].first_byte_cycles.clear();
            self.link[s] = lo;
            self.token[s] = to;
        }
        self.net.step(&self.link, &self.token).unwrap();
        self.cycle += 1;
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("sp2_system_cycle_saturated");
    for name in ["sp2:16", "sp2:128"] {
        let mut d = Driver::new(name);
        g.throughput(Throughput::Elements(d.net.switches.len() as u64));
        g.bench_function(BenchmarkId::from_parameter(name), |b| b.iter(|| d.step()));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

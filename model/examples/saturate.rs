//! A saturated network for profiling and instruction counts: `benes:64` or `fly:2,6` at offered load 1.0,
//! uniform traffic, in thesis mode or with deeper buffers.
//!
//!     cargo build --release -p asr-model --example saturate
//!     valgrind --tool=callgrind target/release/examples/saturate fly 1 2000
//!
//! Arguments: `benes|fly`, buffer depth (default 1), measured packets per input (default 2000). Prints the
//! router-cycles simulated (divide callgrind's instruction count by it) and the rate.

use asr_model::network::build::{benes_topology, fly_topology};
use asr_model::network::engine::{Engine, FlowControl};
use asr_model::network::sim::{simulate, SimConfig};
use asr_model::routing::{BenesRouting, FlyRouting, Routing, Scheme};
use asr_model::traffic::{Injection, Pattern};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let net = a.get(1).map_or("fly", |s| s.as_str());
    let buf: u32 = a.get(2).map_or(1, |s| s.parse().expect("buffer depth"));
    let ppi: u64 = a
        .get(3)
        .map_or(2000, |s| s.parse().expect("packets per input"));
    let (e, r): (Engine, Box<dyn Routing>) = if net == "fly" {
        let g = fly_topology(2, 6).expect("fly:2,6");
        (
            Engine::new(&g.topo).expect("engine"),
            Box::new(FlyRouting { k: 2, n: 6 }),
        )
    } else {
        let g = benes_topology(64).expect("benes:64");
        let r = BenesRouting {
            n: 6,
            scheme: Scheme::Asr,
        };
        (Engine::new(&g.topo).expect("engine"), Box::new(r))
    };
    let e = e
        .with_flow(FlowControl::new(buf, 0).expect("buffer depth 1..=64"))
        .expect("flow");
    let mut c = SimConfig::new(
        Injection::geometric(1.0).expect("load"),
        Pattern::Uniform,
        1,
    );
    c.packets_per_input = ppi;
    let t = std::time::Instant::now();
    let s = simulate(&e, r.as_ref(), &c).expect("run");
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{} router-cycles, accepted {:.4}, {:.1} M router-cycles/s",
        s.router_cycles,
        s.accepted,
        s.router_cycles as f64 / secs / 1e6
    );
}

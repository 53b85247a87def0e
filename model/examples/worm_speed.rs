//! Speed of the wormhole simulator on 2^10 nodes: `cargo run --release -p asr-model --example worm_speed
//! [alg] [load%] [cycles]`. Prints flit-hops per CPU second of one single-threaded run.

use asr_model::wormhole::{Algorithm, Pattern, SimConfig, Simulator};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let alg: Algorithm = args
        .get(1)
        .map(|s| s.parse().expect("algorithm"))
        .unwrap_or(Algorithm::Fully);
    let load: f64 = args
        .get(2)
        .map(|s| s.parse().expect("load"))
        .unwrap_or(50.0);
    let cycles: u64 = args
        .get(3)
        .map(|s| s.parse().expect("cycles"))
        .unwrap_or(4000);
    let mut cfg = SimConfig::new(
        10,
        alg,
        Pattern::Random,
        10,
        SimConfig::rate_for_pct(10, load),
    );
    cfg.warmup = cycles / 4;
    cfg.measure = cycles - cycles / 4;
    let t = Instant::now();
    let r = Simulator::run(&cfg).expect("run");
    let s = t.elapsed().as_secs_f64();
    println!(
        "{alg} random b=10 load {load}%: {} cycles, {} flit-hops in {s:.3} s = {:.3e} flit-hops/s, {:.0} cycles/s, accepted {:.1}%",
        r.cycles,
        r.flit_hops,
        r.flit_hops as f64 / s,
        r.cycles as f64 / s,
        r.accepted_pct
    );
}

//! Lock-step: the `central_queue` HDL top against `asr_model::sp2::central_queue::CentralQueue` for
//! 100 000 cycles of random writes (random outputs, data, byte counts, last/bad flags; a receiver holds its
//! chunk until granted or withdraws it; the fields of idle receivers carry random junk) and random read
//! requests, in phases that fill the queue to the reservation limit, drain it, and skew the outputs; every
//! output port compared every cycle, the model's invariants checked as it runs. Then the exported Verilog
//! in Icarus on 12 000 cycles recorded from the model. Replay a failure with `ASR_SEED=<seed>`.

use asr_model::sp2::central_queue::{CentralQueue, WriteReq};
use asr_testbench::harness::{rng, seed};
use asr_testbench::lockstep::{CqLock, CqPins, CqPorts};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

const CYCLES: usize = 100_000;
const ICARUS_CYCLES: usize = 12_000;

fn random_chunk(rng: &mut Xoshiro256PlusPlus, outs: u8) -> WriteReq {
    let last = rng.gen_bool(0.3);
    WriteReq {
        out: rng.gen_range(0..outs),
        data: rng.gen(),
        bytes: if last { rng.gen_range(1..=8) } else { 8 },
        last,
        bad: rng.gen_bool(0.1),
    }
}

/// Receivers' pending chunks and the phase schedule.
struct Stimulus {
    pending: [Option<WriteReq>; 8],
}

impl Stimulus {
    /// The pins of cycle `n`.
    fn pins(&mut self, rng: &mut Xoshiro256PlusPlus, n: usize) -> CqPins {
        // (new chunk, read request, outputs used): fill to the reservation limit, drain, balanced, skewed
        // to 2 outputs (the other outputs' reserved chunks), single output.
        let (p_new, p_rd, outs) = [
            (0.9, 0.1, 8),
            (0.2, 0.9, 8),
            (0.7, 0.6, 8),
            (0.9, 0.3, 2),
            (0.6, 0.5, 1),
        ][(n / 2000) % 5];
        for p in self.pending.iter_mut() {
            if p.is_some() && rng.gen_bool(0.02) {
                *p = None;
            }
            if p.is_none() && rng.gen_bool(p_new) {
                *p = Some(random_chunk(rng, outs));
            }
        }
        CqPins {
            wr_valid: std::array::from_fn(|i| self.pending[i].is_some()),
            wr: std::array::from_fn(|i| self.pending[i].unwrap_or_else(|| random_chunk(rng, 8))),
            rd: std::array::from_fn(|_| rng.gen_bool(p_rd)),
        }
    }

    fn granted(&mut self, o: &CqPorts) {
        if o.wr_grant_valid {
            self.pending[o.wr_grant as usize] = None;
        }
    }
}

#[test]
fn central_queue_agrees_with_the_model() {
    let seed = seed();
    let mut rng = rng(seed);
    let mut dut = CqLock::default();
    let mut st = Stimulus { pending: [None; 8] };
    let t = Instant::now();
    let (mut writes, mut reads, mut min_free, mut refused) = (0usize, 0usize, 255u8, 0usize);
    for n in 0..CYCLES {
        let pins = st.pins(&mut rng, n);
        let (hw, sw) = dut.step(&pins);
        assert_eq!(
            hw, sw,
            "cycle {n}: HDL and model differ (ASR_SEED={seed:#x}); pins {pins:?}"
        );
        if n % 1000 == 0 {
            dut.model
                .check()
                .unwrap_or_else(|e| panic!("cycle {n}: model invariant (ASR_SEED={seed:#x}): {e}"));
        }
        writes += sw.wr_grant_valid as usize;
        reads += sw.rd_grant_valid as usize;
        min_free = min_free.min(sw.free);
        refused += (pins.wr_valid.iter().any(|&v| v) && !sw.wr_grant_valid) as usize;
        st.granted(&sw);
    }
    eprintln!(
        "central_queue: {CYCLES} cycles agree in {:.2} s ({writes} writes, {reads} reads, min free {min_free}, \
         {refused} cycles with every offer refused; seed {seed:#x})",
        t.elapsed().as_secs_f64()
    );
    // The run must reach the reservation limit (free down to the reserved chunks) and move many chunks.
    assert!(min_free <= 8, "queue never filled (min free {min_free})");
    assert!(
        refused > 1000,
        "reservation rule hardly exercised ({refused})"
    );
    assert!(writes > CYCLES / 3 && reads + 128 >= writes);
}

/// The exported `central_queue` Verilog in Icarus on cycles recorded from the model.
#[test]
fn central_queue_verilog_in_icarus() {
    use asr_testbench::icarus::{run, value, value_of_bools, value_of_fields, Port, Vector};
    let seed = seed();
    let mut rng = rng(seed ^ 0xc0);
    let mut model = CentralQueue::new();
    let mut st = Stimulus { pending: [None; 8] };
    let mut vectors = Vec::with_capacity(ICARUS_CYCLES);
    for n in 0..ICARUS_CYCLES {
        let pins = st.pins(&mut rng, n * 2);
        let o = CqPorts::of_model(&model.step(&pins.model_inputs()).expect("valid chunks"));
        st.granted(&o);
        let f = |g: fn(&WriteReq) -> u128| -> Vec<u128> { pins.wr.iter().map(g).collect() };
        vectors.push(Vector {
            inputs: vec![
                value_of_bools(&pins.wr_valid),
                value_of_fields(&f(|w| w.out as u128), 3),
                value_of_fields(&f(|w| w.data as u128), 64),
                value_of_fields(&f(|w| w.bytes as u128), 4),
                value_of_fields(&f(|w| w.last as u128), 1),
                value_of_fields(&f(|w| w.bad as u128), 1),
                value_of_bools(&pins.rd),
            ],
            outputs: vec![
                value(o.wr_grant_valid as u128, 1),
                value(o.wr_grant as u128, 3),
                value(o.rd_grant_valid as u128, 1),
                value(o.rd_grant as u128, 3),
                value(o.rd_valid as u128, 1),
                value(o.rd_out as u128, 3),
                value(o.rd_data as u128, 64),
                value(o.rd_bytes as u128, 4),
                value(o.rd_last as u128, 1),
                value(o.rd_bad as u128, 1),
                value_of_fields(&o.count.map(|c| c as u128), 8),
                value(o.free as u128, 8),
            ],
        });
    }
    let r = run(
        "central_queue",
        &asr_hdl::export::verilog_of("central_queue").unwrap(),
        &[
            Port::new("wr_valid", 8),
            Port::new("wr_out", 24),
            Port::new("wr_data", 512),
            Port::new("wr_bytes", 32),
            Port::new("wr_last", 8),
            Port::new("wr_bad", 8),
            Port::new("rd_req", 8),
        ],
        &[
            Port::new("wr_grant_valid", 1),
            Port::new("wr_grant", 3),
            Port::new("rd_grant_valid", 1),
            Port::new("rd_grant", 3),
            Port::new("rd_valid", 1),
            Port::new("rd_out", 3),
            Port::new("rd_data", 64),
            Port::new("rd_bytes", 4),
            Port::new("rd_last", 1),
            Port::new("rd_bad", 1),
            Port::new("count", 64),
            Port::new("free", 8),
        ],
        &vectors,
        true,
    )
    .expect("Icarus run (iverilog must be installed)");
    r.assert_clean("central_queue", seed, ICARUS_CYCLES);
}

//! `central_queue`: the SP2 central queue against `asr_model::sp2::central_queue::CentralQueue`: random
//! writes (random outputs, data, byte counts, last and bad flags; a receiver holds its chunk until granted
//! or withdraws it; the fields of idle receivers carry random junk the design must ignore) and random read
//! requests, in phases that fill the queue to the reservation limit, drain it, and skew the outputs; the
//! model's invariants (order, integrity, no leaked chunk, reservation) checked every 1 000 cycles.

use crate::cosim::{Frame, Top};
use crate::harness::rng;
use crate::lockstep::{CqPins, CqPorts};
use asr_model::sp2::central_queue::{CentralQueue, WriteReq};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

crate::rusthdl_io!(
    CentralQueueIo,
    asr_hdl::sp2::central_queue::CentralQueue,
    clocked,
    [wr_valid, wr_out, wr_data, wr_bytes, wr_last, wr_bad, rd_req],
    [
        wr_grant_valid,
        wr_grant,
        rd_grant_valid,
        rd_grant,
        rd_valid,
        rd_out,
        rd_data,
        rd_bytes,
        rd_last,
        rd_bad,
        count,
        free
    ]
);

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

pub struct CentralQueueTop {
    rng: Xoshiro256PlusPlus,
    model: CentralQueue,
    pending: [Option<WriteReq>; 8],
    draining: bool,
    writes: u64,
    reads: u64,
    min_free: u8,
    /// Cycles in which some receiver offered a chunk and none was granted (the reservation rule at work).
    refused: u64,
}

impl CentralQueueTop {
    pub fn new(seed: u64) -> Self {
        CentralQueueTop {
            rng: rng(seed ^ 0xc0),
            model: CentralQueue::new(),
            pending: [None; 8],
            draining: false,
            writes: 0,
            reads: 0,
            min_free: u8::MAX,
            refused: 0,
        }
    }

    /// The pins of cycle `n`.
    fn pins(&mut self, n: u64) -> CqPins {
        // (new chunk, read request, outputs used): fill to the reservation limit, drain, balanced, skewed to
        // 2 outputs (the other outputs' reserved chunks), single output.
        let (p_new, p_rd, outs) = [
            (0.9, 0.1, 8),
            (0.2, 0.9, 8),
            (0.7, 0.6, 8),
            (0.9, 0.3, 2),
            (0.6, 0.5, 1),
        ][((n / 2000) % 5) as usize];
        let (p_new, p_rd) = if self.draining {
            (0.0, 1.0)
        } else {
            (p_new, p_rd)
        };
        let rng = &mut self.rng;
        for p in self.pending.iter_mut() {
            if p.is_some() && (self.draining || rng.gen_bool(0.02)) {
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
}

impl Top for CentralQueueTop {
    fn name(&self) -> &str {
        "central_queue"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let p = self.pins(n);
        let o = CqPorts::of_model(
            &self
                .model
                .step(&p.model_inputs())
                .map_err(|e| format!("model: {e}"))?,
        );
        if n.is_multiple_of(1000) {
            self.model
                .check()
                .map_err(|e| format!("model invariant: {e}"))?;
        }
        if o.wr_grant_valid {
            self.pending[o.wr_grant as usize] = None;
        }
        self.writes += o.wr_grant_valid as u64;
        self.reads += o.rd_grant_valid as u64;
        self.min_free = self.min_free.min(o.free);
        self.refused += (p.wr_valid.iter().any(|&v| v) && !o.wr_grant_valid) as u64;
        let f = |g: fn(&WriteReq) -> u128| -> Vec<u128> { p.wr.iter().map(g).collect() };
        pins.put_bools("wr_valid", &p.wr_valid);
        pins.put_fields("wr_out", &f(|w| w.out as u128), 3);
        pins.put_fields("wr_data", &f(|w| w.data as u128), 64);
        pins.put_fields("wr_bytes", &f(|w| w.bytes as u128), 4);
        pins.put_fields("wr_last", &f(|w| w.last as u128), 1);
        pins.put_fields("wr_bad", &f(|w| w.bad as u128), 1);
        pins.put_bools("rd_req", &p.rd);
        expect.put("wr_grant_valid", o.wr_grant_valid as u64, 1);
        expect.put("wr_grant", o.wr_grant as u64, 3);
        expect.put("rd_grant_valid", o.rd_grant_valid as u64, 1);
        expect.put("rd_grant", o.rd_grant as u64, 3);
        expect.put("rd_valid", o.rd_valid as u64, 1);
        expect.put("rd_out", o.rd_out as u64, 3);
        expect.put("rd_data", o.rd_data, 64);
        expect.put("rd_bytes", o.rd_bytes as u64, 4);
        expect.put("rd_last", o.rd_last as u64, 1);
        expect.put("rd_bad", o.rd_bad as u64, 1);
        expect.put_bytes("count", &o.count);
        expect.put("free", o.free as u64, 8);
        Ok(())
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.pending.iter().all(Option::is_none)
            && self.model.free() as usize == asr_model::sp2::CQ_CHUNKS
    }

    fn packets(&self) -> u64 {
        self.reads
    }

    fn finish(&mut self) -> Result<(), String> {
        self.model
            .check()
            .map_err(|e| format!("model invariant after draining: {e}"))
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("writes", self.writes),
            ("reads", self.reads),
            ("min_free", self.min_free as u64),
            ("refused", self.refused),
        ]
    }
}

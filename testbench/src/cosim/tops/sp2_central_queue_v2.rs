//! `sp2_central_queue_v2`: the v2 central queue against `asr_model::sp2::v2::central_queue::CentralQueue`.
//!
//! Stimulus, keeping the model's protocol: a receiver without a packet being written presents an admission
//! request (a random permitted set and 1..32 chunks; it may withdraw it, and present another from the next
//! cycle on) and asks with it in most cycles (the queue decides on the previous cycle's requests and cancels
//! a pick that does not ask now); an
//! admitted receiver offers its packet's chunks in order (8 bytes each, the last 1..8 bytes with a random CRC
//! verdict), holding each offer until it is written; transmitters ask for reads at random. The chunk fields
//! of a receiver without a request, and of one that does not offer a chunk, carry random junk the design must
//! ignore (its set field is 0: no request). Phases: fill to the reservation limit,
//! drain, balanced, skewed to 2 outputs, one output with 1-chunk packets (its packet FIFO fills), and
//! cut-through (transmitters follow slow writers, so a read often awaits the writer's next chunk).
//!
//! Checks besides the port comparison: the model's invariants (`check()`: every chunk free or in exactly one
//! chain, loads and promises add up) every 500 cycles and after the drain; a scoreboard of packets per output
//! (in the order their first chunks were written) against which every chunk read is compared (no chunk lost,
//! duplicated, corrupted or misdelivered); after the drain every chunk is free and nothing is promised.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use asr_model::sp2::v2::central_queue::{
    AdmReq, CentralQueue, Chunk, CqIn, ReadPtr, CHUNKS, N, PFIFO,
};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::VecDeque;

crate::rusthdl_io!(
    CentralQueueV2Io,
    asr_hdl::sp2::v2::central_queue::CentralQueueV2,
    clocked,
    [adm_valid, adm_set, adm_chunks, wr_valid, wr_data, wr_bytes, wr_last, wr_bad, rd_req],
    [
        adm_grant_valid,
        adm_grant,
        adm_out,
        adm_oh,
        wr_oh,
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
        load,
        busy
    ]
);

/// A phase's behaviour.
#[derive(Clone, Copy)]
struct Phase {
    /// Probability a free receiver asks for admission.
    p_adm: f64,
    /// Probability an admitted receiver has its next chunk ready in a cycle.
    p_wr: f64,
    /// Probability a transmitter asks for a read.
    p_rd: f64,
    /// Outputs the permitted sets are drawn from (1, 2 or 8; 1 = output 0).
    outs: u8,
    /// Largest packet in chunks.
    max_chunks: u8,
    /// Split: odd receivers write at a tenth of `p_wr`, transmitters 0..4 read at a tenth of `p_rd` (the
    /// queue fills with their packets while transmitters 4..8 follow slow writers through a short free
    /// FIFO, so an awaited writer's previous chunk is reused by another packet).
    split: bool,
}

const PHASES: [Phase; 7] = [
    // Fill to the reservation limit.
    Phase {
        p_adm: 0.9,
        p_wr: 0.9,
        p_rd: 0.1,
        outs: 8,
        max_chunks: 32,
        split: false,
    },
    // Drain.
    Phase {
        p_adm: 0.1,
        p_wr: 0.9,
        p_rd: 0.9,
        outs: 8,
        max_chunks: 8,
        split: false,
    },
    // Balanced.
    Phase {
        p_adm: 0.5,
        p_wr: 0.7,
        p_rd: 0.6,
        outs: 8,
        max_chunks: 6,
        split: false,
    },
    // Skewed to 2 outputs.
    Phase {
        p_adm: 0.8,
        p_wr: 0.8,
        p_rd: 0.3,
        outs: 2,
        max_chunks: 12,
        split: false,
    },
    // One output, 1-chunk packets: its packet FIFO fills.
    Phase {
        p_adm: 0.9,
        p_wr: 0.9,
        p_rd: 0.15,
        outs: 1,
        max_chunks: 1,
        split: false,
    },
    // Cut-through: slow writers, eager readers.
    Phase {
        p_adm: 0.6,
        p_wr: 0.15,
        p_rd: 1.0,
        outs: 8,
        max_chunks: 10,
        split: false,
    },
    // Full queue, fast and slow writers and readers.
    Phase {
        p_adm: 0.9,
        p_wr: 0.9,
        p_rd: 1.0,
        outs: 8,
        max_chunks: 6,
        split: true,
    },
];

/// A receiver's side of the protocol.
#[derive(Clone, Copy, Default)]
struct Rx {
    /// Its standing admission request (while not admitted).
    req: Option<AdmReq>,
    /// Chunks left to write of its admitted packet, and the next chunk's number.
    left: u8,
    /// Its offered chunk (held until written).
    offer: Option<Chunk>,
    /// The scoreboard id of its packet.
    id: u64,
}

/// The `sp2_central_queue_v2` definition: the phased receiver and transmitter stimulus, the model queue and
/// the per-output chunk scoreboard of the module documentation.
pub struct CentralQueueV2Top {
    rng: Xoshiro256PlusPlus,
    model: CentralQueue,
    rx: [Rx; N],
    draining: bool,
    next_id: u64,
    /// Packets per output, in the order of their first chunk's write: (id, chunks written and not read).
    sb: Vec<VecDeque<(u64, VecDeque<Chunk>)>>,
    admissions: u64,
    writes: u64,
    reads: u64,
    min_free: usize,
    refused: u64,
    cancelled: u64,
    awaits: u64,
    pfifo_full: u64,
    reused_awaited: u64,
}

impl CentralQueueV2Top {
    /// An empty queue and stimulus drawn from `seed`, from the first phase.
    pub fn new(seed: u64) -> Self {
        CentralQueueV2Top {
            rng: rng(seed ^ 0xc2),
            model: CentralQueue::new(),
            rx: [Rx::default(); N],
            draining: false,
            next_id: 0,
            sb: vec![VecDeque::new(); N],
            admissions: 0,
            writes: 0,
            reads: 0,
            min_free: CHUNKS,
            refused: 0,
            cancelled: 0,
            awaits: 0,
            pfifo_full: 0,
            reused_awaited: 0,
        }
    }

    fn random_req(rng: &mut Xoshiro256PlusPlus, ph: &Phase) -> AdmReq {
        let set = match ph.outs {
            1 => 1,
            2 => rng.gen_range(1..=3u8) << (2 * rng.gen_range(0..2u8)),
            _ => {
                if rng.gen_bool(0.5) {
                    1 << rng.gen_range(0..8)
                } else {
                    rng.gen_range(1..=255u8)
                }
            }
        };
        let chunks = if rng.gen_bool(0.7) {
            rng.gen_range(1..=ph.max_chunks.min(5))
        } else {
            rng.gen_range(1..=ph.max_chunks)
        };
        AdmReq { set, chunks }
    }

    /// The inputs of cycle `n`.
    fn inputs(&mut self, n: u64) -> CqIn {
        let ph = PHASES[((n / 1500) % PHASES.len() as u64) as usize];
        let rng = &mut self.rng;
        let mut i = CqIn::default();
        for r in 0..N {
            let x = &mut self.rx[r];
            if !self.model.admitted(r) {
                // Free: ask (or keep asking, or withdraw).
                if self.draining || (x.req.is_some() && rng.gen_bool(0.03)) {
                    x.req = None;
                } else if x.req.is_none() && rng.gen_bool(ph.p_adm) {
                    x.req = Some(Self::random_req(rng, &ph));
                }
                i.adm[r] = x.req;
                if x.req.is_some() && rng.gen_bool(0.85) {
                    i.ask |= 1 << r;
                }
            } else if self.model.writer[r].is_some() {
                // Writing (not in the cycle after its admission, which the queue takes at its end).
                let p_wr = if ph.split && r % 2 == 1 {
                    ph.p_wr / 10.0
                } else {
                    ph.p_wr
                };
                let p_wr = if self.draining { p_wr.max(0.3) } else { p_wr };
                if x.offer.is_none() && x.left > 0 && rng.gen_bool(p_wr) {
                    let last = x.left == 1;
                    x.offer = Some(Chunk {
                        data: rng.gen(),
                        bytes: if last { rng.gen_range(1..=8) } else { 8 },
                        last,
                        bad: last && rng.gen_bool(0.2),
                    });
                }
                i.wr[r] = x.offer;
            }
        }
        for t in 0..N {
            let p_rd = if ph.split && t < 4 {
                ph.p_rd / 10.0
            } else {
                ph.p_rd
            };
            i.rd[t] = rng.gen_bool(if self.draining { 1.0 } else { p_rd });
        }
        i
    }
}

impl Top for CentralQueueV2Top {
    fn name(&self) -> &str {
        "sp2_central_queue_v2"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let i = self.inputs(n);
        // Statistics of the state at the start of the cycle.
        self.min_free = self.min_free.min(self.model.free.len());
        if self.model.rp.iter().any(|p| matches!(p, ReadPtr::Await(_))) {
            self.awaits += 1;
            // An awaited writer whose previous chunk is free again and already reused.
            for p in self.model.rp {
                if let ReadPtr::Await(r) = p {
                    let prev = self.model.writer[r as usize].and_then(|w| w.prev);
                    if prev.is_some_and(|c| !self.model.free.contains(&c)) {
                        self.reused_awaited += 1;
                    }
                }
            }
        }
        if (0..N).any(|o| self.model.packets_for(o) >= PFIFO) {
            self.pfifo_full += 1;
        }
        let busy = self.model.busy();
        let o = self.model.eval(&i).map_err(|e| format!("model: {e}"))?;
        self.refused += (i.ask != 0 && o.adm.is_none()) as u64;
        self.cancelled += (o.adm_pick.is_some() && o.adm.is_none()) as u64;
        // Scoreboard: the chunk read at the last edge.
        if let Some((t, ch)) = o.rd_data {
            let t = t as usize;
            let q = &mut self.sb[t];
            let Some((id, chunks)) = q.front_mut() else {
                return Err(format!(
                    "cycle {n}: output {t} read a chunk with no packet queued"
                ));
            };
            let id = *id;
            let Some(exp) = chunks.pop_front() else {
                return Err(format!(
                    "cycle {n}: output {t} read past packet {id}'s written chunks"
                ));
            };
            if exp != ch {
                return Err(format!(
                    "cycle {n}: output {t} packet {id}: read {ch:?}, written {exp:?}"
                ));
            }
            if ch.last {
                q.pop_front();
            }
        }
        // Writes: the scoreboard takes the written chunk.
        if let Some(r) = o.wr {
            let r = r as usize;
            let ch = i.wr[r].ok_or("write granted without an offer")?;
            let w = self.model.writer[r].ok_or("write granted to a receiver without a packet")?;
            let out = w.out as usize;
            if w.prev.is_none() {
                self.sb[out].push_back((self.rx[r].id, VecDeque::new()));
            }
            let id = self.rx[r].id;
            let pk = self.sb[out]
                .iter_mut()
                .find(|(k, _)| *k == id)
                .ok_or_else(|| {
                    format!("cycle {n}: packet {id} of receiver {r} not on output {out}")
                })?;
            pk.1.push_back(ch);
            self.rx[r].offer = None;
            self.rx[r].left -= 1;
            self.writes += 1;
        }
        if let Some((r, out)) = o.adm {
            let r = r as usize;
            let a = i.adm[r].ok_or("admission granted without a request")?;
            if a.set >> out & 1 == 0 {
                return Err(format!(
                    "cycle {n}: receiver {r} admitted to output {out} outside its set"
                ));
            }
            self.rx[r] = Rx {
                req: None,
                left: a.chunks,
                offer: None,
                id: self.next_id,
            };
            self.next_id += 1;
            self.admissions += 1;
        }
        self.reads += o.rd.is_some() as u64;
        self.model.commit(&i, &o);
        if n.is_multiple_of(500) {
            self.model
                .check()
                .map_err(|e| format!("cycle {n}: model invariant: {e}"))?;
        }
        // Pins.
        let f = |g: &dyn Fn(usize) -> u128| -> Vec<u128> { (0..N).map(g).collect() };
        let junk: Vec<u128> = (0..4 * N).map(|_| self.rng.gen::<u64>() as u128).collect();
        pins.put_bools(
            "adm_valid",
            &std::array::from_fn::<bool, N, _>(|r| i.ask >> r & 1 == 1),
        );
        pins.put_fields("adm_set", &f(&|r| i.adm[r].map_or(0, |a| a.set as u128)), 8);
        pins.put_fields(
            "adm_chunks",
            &f(&|r| i.adm[r].map_or(junk[r] >> 8 & 0x3f, |a| a.chunks as u128)),
            6,
        );
        pins.put_bools("wr_valid", &i.wr.map(|c| c.is_some()));
        pins.put_fields(
            "wr_data",
            &f(&|r| i.wr[r].map_or(junk[N + r], |c| c.data as u128)),
            64,
        );
        pins.put_fields(
            "wr_bytes",
            &f(&|r| i.wr[r].map_or(junk[2 * N + r] & 0xf, |c| c.bytes as u128)),
            4,
        );
        pins.put_fields(
            "wr_last",
            &f(&|r| i.wr[r].map_or(junk[2 * N + r] >> 4 & 1, |c| c.last as u128)),
            1,
        );
        pins.put_fields(
            "wr_bad",
            &f(&|r| i.wr[r].map_or(junk[2 * N + r] >> 5 & 1, |c| c.bad as u128)),
            1,
        );
        pins.put_bools("rd_req", &i.rd);
        expect.put("adm_grant_valid", o.adm.is_some() as u64, 1);
        expect.put("adm_grant", o.adm.map_or(0, |a| a.0) as u64, 3);
        expect.put("adm_out", o.adm.map_or(0, |a| a.1) as u64, 3);
        expect.put("adm_oh", o.adm.map_or(0, |a| 1u64 << a.0), 8);
        expect.put("wr_oh", o.wr.map_or(0, |r| 1u64 << r), 8);
        expect.put("wr_grant_valid", o.wr.is_some() as u64, 1);
        expect.put("wr_grant", o.wr.unwrap_or(0) as u64, 3);
        expect.put("rd_grant_valid", o.rd.is_some() as u64, 1);
        expect.put("rd_grant", o.rd.unwrap_or(0) as u64, 3);
        let rd = o.rd_data;
        let c = rd.map(|x| x.1).unwrap_or_default();
        expect.put("rd_valid", rd.is_some() as u64, 1);
        expect.put("rd_out", rd.map_or(0, |x| x.0) as u64, 3);
        expect.put("rd_data", c.data, 64);
        expect.put("rd_bytes", c.bytes as u64, 4);
        expect.put("rd_last", c.last as u64, 1);
        expect.put("rd_bad", c.bad as u64, 1);
        expect.put_bytes("load", &o.load);
        expect.put("busy", busy as u64, 8);
        Ok(())
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.model.writer.iter().all(Option::is_none)
            && self.model.adm_pend.is_none()
            && self.model.used() == 0
            && self.model.promised == 0
            && self.model.rd_reg.is_none()
    }

    fn packets(&self) -> u64 {
        self.reads
    }

    fn finish(&mut self) -> Result<(), String> {
        self.model
            .check()
            .map_err(|e| format!("model invariant after draining: {e}"))?;
        if let Some((o, q)) = self.sb.iter().enumerate().find(|(_, q)| !q.is_empty()) {
            return Err(format!("output {o}: {} packets never read", q.len()));
        }
        if self.model.free.len() != CHUNKS {
            return Err(format!("{} chunks leaked", CHUNKS - self.model.free.len()));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("admissions", self.admissions),
            ("writes", self.writes),
            ("reads", self.reads),
            ("min_free", self.min_free as u64),
            ("refused", self.refused),
            ("cancelled", self.cancelled),
            ("awaits", self.awaits),
            ("reused_awaited", self.reused_awaited),
            ("pfifo_full", self.pfifo_full),
        ]
    }
}

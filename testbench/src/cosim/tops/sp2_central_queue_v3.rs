//! `sp2_central_queue_v3`: the v3 central queue against `asr_model::sp2::v3::central_queue::CentralQueue`
//! inside the running v3 model switch ([`Shadow`]): every cycle the HDL is driven with what the model queue
//! read (`trace.cq_in`: the receivers' requests, positions and RAM-port actions, the transmitters' read
//! requests, the allocator's matrix) and its outputs are compared with the model queue's registers before
//! the edge (`trace.before.cq`).
//!
//! Encoding of the model's values on the pins: `None` fields 0; `rd_banks` holds each bank's entry by
//! `Entry::to_bits`. The queue's RAMs have no initial contents (so that a reset restores the queue), so an
//! entry never written since the reset is undefined (`Frame::put_fields_opt`: not compared), and so is
//! all of `rd_banks` when no chunk was read (`rd` None: the HDL's banks read chunk 0, don't care).
//!
//! Checks beside the comparison (model side, every cycle): a write's bank is the receiver's slot
//! `(i + t) mod 8` (the HDL derives it from its slot counter), and no used RAM read meets a write at its
//! address (the condition of `no_rw_check`): the chunk read is not written nor linked in that cycle.

use super::sp2_v3_shadow::Shadow;
use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use asr_model::sp2::v3::central_queue::{CentralQueue, ReadPtr};
use asr_model::sp2::v3::Entry;
use asr_model::sp2::{CHUNK, PORTS};

crate::rusthdl_io!(
    CentralQueueV3Io,
    asr_hdl::sp2::v3::central_queue::CentralQueueV3,
    clocked,
    [
        ask_valid,
        ask_set,
        ask_chunks,
        wpos_valid,
        wpos,
        wr_valid,
        wr_chunk,
        wr_entry,
        pop,
        link_valid,
        link_from,
        link_to,
        push_valid,
        push_out,
        push_head,
        push_first,
        push_start,
        rd_req,
        cand,
        xres,
        in_rows,
        in_cols,
        may_capture
    ],
    [
        load_nz,
        adm_valid,
        adm_rx,
        adm_out,
        adm_busy,
        free_head_valid,
        free_head,
        rd_valid,
        rd_to,
        rd_banks,
        rd_start,
        rd_head_valid,
        rd_head
    ]
);

/// A chunk's entries as the 80-bit `rd_banks` (bank j at bits `[10j +: 10]`, `None` undefined).
fn banks_bits(b: &[Option<Entry>; CHUNK]) -> Vec<Option<u128>> {
    b.iter().map(|e| e.map(|e| e.to_bits() as u128)).collect()
}

/// The `sp2_central_queue_v3` definition: the shadow switch and the counters.
pub struct CentralQueueV3Top {
    sh: Shadow,
    /// The model queue at the start of the current cycle (for the read of the cycle).
    cq: CentralQueue,
    counts: Counts,
}

#[derive(Default)]
struct Counts {
    admissions: u64,
    stage_c_rejects: u64,
    reads: u64,
    starts: u64,
    blocked_reads: u64,
    writes: u64,
    pops: u64,
    links: u64,
    pushes: u64,
    free_empty: u64,
    two_records: u64,
    rw_conflicts: u64,
}

impl CentralQueueV3Top {
    /// The shadow switch from `seed`.
    pub fn new(seed: u64) -> Self {
        CentralQueueV3Top {
            sh: Shadow::new(seed),
            cq: CentralQueue::new(),
            counts: Counts::default(),
        }
    }
}

impl Top for CentralQueueV3Top {
    fn name(&self) -> &str {
        "sp2_central_queue_v3"
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let (t, sw) = self.sh.step()?;
        let after = sw.cq.clone();
        let i = &t.cq_in;
        let before = &self.cq;
        // The model side's checks.
        let rd = before.read_pick(i).map(|o| match before.rp[o as usize] {
            ReadPtr::Between => before.pfifo[o as usize][0].first,
            ReadPtr::At { c, .. } => c,
            ReadPtr::Reading => unreachable!("a reading transmitter is not picked"),
        });
        for (r, a) in i.acts.iter().enumerate() {
            if let Some((c, b, _)) = a.write {
                if b as u64 != (r as u64 + n) % PORTS as u64 {
                    return Err(format!(
                        "cycle {n}: receiver {r} wrote bank {b} outside its slot"
                    ));
                }
                self.counts.writes += 1;
                self.counts.rw_conflicts += (rd == Some(c)) as u64;
            }
            if let Some((p, _)) = a.link {
                self.counts.links += 1;
                self.counts.rw_conflicts += (rd == Some(p)) as u64;
            }
            self.counts.pops += a.pop as u64;
            self.counts.pushes += a.push.is_some() as u64;
        }
        for o in 0..PORTS {
            let stuck = match before.rp[o] {
                ReadPtr::At { c, .. } => i.wpos.contains(&Some(c)),
                ReadPtr::Between => before.pfifo[o]
                    .front()
                    .is_some_and(|p| i.wpos.contains(&Some(p.first))),
                ReadPtr::Reading => false,
            };
            self.counts.blocked_reads += (stuck && i.rd_req >> o & 1 == 1) as u64;
        }
        if before.stage_b.is_some() && after.regs.adm.is_none() {
            self.counts.stage_c_rejects += 1;
        }
        self.counts.two_records += before.writer.iter().filter(|w| w.len() == 2).count() as u64;
        self.counts.free_empty += before.free.is_empty() as u64;
        // The pins.
        let bits = |f: &dyn Fn(usize) -> bool| (0..PORTS).fold(0u64, |a, r| a | (f(r) as u64) << r);
        let fields = |f: &dyn Fn(usize) -> u128| (0..PORTS).map(f).collect::<Vec<u128>>();
        pins.put("ask_valid", bits(&|r| i.ask[r].is_some()), 8);
        pins.put_fields(
            "ask_set",
            &fields(&|r| i.ask[r].map_or(0, |a| a.set as u128)),
            8,
        );
        pins.put_fields(
            "ask_chunks",
            &fields(&|r| i.ask[r].map_or(0, |a| a.chunks as u128)),
            6,
        );
        pins.put("wpos_valid", bits(&|r| i.wpos[r].is_some()), 8);
        pins.put_fields("wpos", &fields(&|r| i.wpos[r].unwrap_or(0) as u128), 7);
        let w = |r: usize| i.acts[r].write;
        pins.put("wr_valid", bits(&|r| w(r).is_some()), 8);
        pins.put_fields("wr_chunk", &fields(&|r| w(r).map_or(0, |x| x.0 as u128)), 7);
        pins.put_fields(
            "wr_entry",
            &fields(&|r| w(r).map_or(0, |x| x.2.to_bits() as u128)),
            10,
        );
        pins.put("pop", bits(&|r| i.acts[r].pop), 8);
        let l = |r: usize| i.acts[r].link;
        pins.put("link_valid", bits(&|r| l(r).is_some()), 8);
        pins.put_fields(
            "link_from",
            &fields(&|r| l(r).map_or(0, |x| x.0 as u128)),
            7,
        );
        pins.put_fields("link_to", &fields(&|r| l(r).map_or(0, |x| x.1 as u128)), 7);
        let p = |r: usize| i.acts[r].push;
        pins.put("push_valid", bits(&|r| p(r).is_some()), 8);
        pins.put_fields("push_out", &fields(&|r| p(r).map_or(0, |x| x.0 as u128)), 3);
        pins.put_fields(
            "push_head",
            &fields(&|r| p(r).map_or(0, |x| x.1.head as u128)),
            8,
        );
        pins.put_fields(
            "push_first",
            &fields(&|r| p(r).map_or(0, |x| x.1.first as u128)),
            7,
        );
        pins.put_fields(
            "push_start",
            &fields(&|r| p(r).map_or(0, |x| x.1.start as u128)),
            3,
        );
        for (r, a) in i.acts.iter().enumerate() {
            if let Some((_, q)) = a.push {
                if q.writer as usize != r {
                    return Err(format!(
                        "cycle {n}: receiver {r} pushed a packet of {}",
                        q.writer
                    ));
                }
            }
        }
        pins.put("rd_req", i.rd_req as u64, 8);
        pins.put("cand", i.cand as u64, 8);
        pins.put("xres", i.xres as u64, 8);
        pins.put("in_rows", i.in_rows as u64, 8);
        pins.put("in_cols", i.in_cols as u64, 8);
        pins.put("may_capture", i.may_capture as u64, 1);
        // The registers before the edge.
        let g = &t.before.cq;
        expect.put("load_nz", g.load_nz as u64, 8);
        expect.put("adm_valid", g.adm.is_some() as u64, 1);
        expect.put("adm_rx", g.adm.map_or(0, |a| a.0) as u64, 3);
        expect.put("adm_out", g.adm.map_or(0, |a| a.1) as u64, 3);
        expect.put("adm_busy", g.adm_busy as u64, 8);
        expect.put("free_head_valid", g.free_head.is_some() as u64, 1);
        expect.put("free_head", g.free_head.unwrap_or(0) as u64, 7);
        expect.put("rd_valid", g.rd.is_some() as u64, 1);
        expect.put("rd_to", g.rd.map_or(0, |r| r.0) as u64, 3);
        let banks = g.rd.map_or([None; CHUNK], |r| r.1.banks);
        expect.put_fields_opt("rd_banks", &banks_bits(&banks), 10);
        expect.put("rd_start", g.rd.map_or(0, |r| r.1.start) as u64, 3);
        let head = g.rd.and_then(|r| r.1.head);
        expect.put("rd_head_valid", head.is_some() as u64, 1);
        expect.put("rd_head", head.unwrap_or(0) as u64, 8);
        if let Some((_, d)) = g.rd {
            self.counts.reads += 1;
            self.counts.starts += d.head.is_some() as u64;
        }
        self.counts.admissions += g.adm.is_some() as u64;
        self.cq = after;
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.counts.reads
    }

    fn finish(&mut self) -> Result<(), String> {
        if self.counts.rw_conflicts != 0 {
            return Err(format!(
                "{} chunk reads met a write of their chunk",
                self.counts.rw_conflicts
            ));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let c = &self.counts;
        vec![
            ("admissions", c.admissions),
            ("stage_c_rejects", c.stage_c_rejects),
            ("chunk_reads", c.reads),
            ("packet_starts", c.starts),
            ("reads_awaiting_writer", c.blocked_reads),
            ("bank_writes", c.writes),
            ("pops", c.pops),
            ("links", c.links),
            ("pushes", c.pushes),
            ("cycles_free_list_empty", c.free_empty),
            ("receiver_cycles_two_records", c.two_records),
            ("read_write_conflicts", c.rw_conflicts),
        ]
    }
}

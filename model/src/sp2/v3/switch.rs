//! The v3 SP2-style 8×8 ASR switch (docs/sp2-switch.md, v3), cycle-accurate: 8 receivers, the allocator
//! (one matrix at a time, held grants), the central queue in byte-sliced banks, 8 transmitters.
//!
//! Model twin of the future `hdl/src/sp2/v3/switch.rs`. Pins per cycle as v2: in — `link_in[i]`,
//! `token_in[o]`; out — `link_out[o]` (the output registers), `token_out[i]`.
//!
//! A cycle: [`Sp2SwitchV3::snapshot`] copies every block's registers; each block commits from its own
//! state, the pins and that copy (the receivers first, because their bank writes and control operations
//! go straight into the central queue's RAM ports in the same edge). No block reads another's decision of
//! the same cycle otherwise, so the order of the ports never matters.

use super::allocator::{AllocIn, AllocRegs, Allocator};
use super::central_queue::{CentralQueue, CqError, CqIn, CqRegs, ReadPtr, PFIFO};
use super::ports::RdData;
use super::receiver::{Receiver, RxError, RxIn, RxRegs, RxState};
use super::transmitter::{Transmitter, TxError, TxIn, TxRegs, TxSrc};
use crate::sp2::{Sp2Outputs, SwitchModel, CQ_CHUNKS, PORTS};
use thiserror::Error;

/// A broken invariant or protocol violation (an error, never a statistic).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Sp2V3Error {
    /// A receiver's error, by input port.
    #[error("cycle {0}: input {1}: {2}")]
    Rx(u64, usize, RxError),
    /// A transmitter's error, by output port.
    #[error("cycle {0}: output {1}: {2}")]
    Tx(u64, usize, TxError),
    /// The central queue's invariants broken.
    #[error("cycle {0}: central queue: {1}")]
    Queue(u64, CqError),
    /// A rule of the switch broken (a grant outside its packet's route set, a grant on an output with
    /// queued packets, a queued packet waiting longer than its bound).
    #[error("cycle {cycle}: {what}")]
    Rule {
        /// The switch's cycle count when the rule broke.
        cycle: u64,
        /// Which rule and how.
        what: String,
    },
}

/// The waiting bound (docs/sp2-switch.md v2 §D, kept in v3): from the cycle a queued packet is pushed into
/// its output's packet FIFO, at most this many other packets start on its output before it.
pub const WAIT_BOUND_PACKETS: u64 = PFIFO as u64 - 1;

/// Every block's registers at the start of a cycle: what the blocks read from each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    /// The receivers' registers.
    pub rx: [RxRegs; PORTS],
    /// The transmitters' registers.
    pub tx: [TxRegs; PORTS],
    /// The allocator's registers.
    pub alloc: AllocRegs,
    /// The central queue's registers.
    pub cq: CqRegs,
}

/// What every block of the switch read in one cycle ([`Sp2SwitchV3::step_traced`]); the receivers'
/// decisions of the cycle (their bank writes and control operations) are `cq_in.acts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleTrace {
    /// Every block's registers before the edge.
    pub before: Snapshot,
    /// Each receiver's inputs.
    pub rx_in: [RxIn; PORTS],
    /// Each transmitter's inputs.
    pub tx_in: [TxIn; PORTS],
    /// The central queue's inputs (with the receivers' RAM-port actions).
    pub cq_in: CqIn,
    /// The allocator's inputs.
    pub alloc_in: AllocIn,
}

/// The switch state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sp2SwitchV3 {
    /// The receivers.
    pub rx: Vec<Receiver>,
    /// The transmitters.
    pub tx: Vec<Transmitter>,
    /// The central queue.
    pub cq: CentralQueue,
    /// The allocator.
    pub alloc: Allocator,
    /// Cycles since reset.
    pub cycle: u64,
    /// The waiting bound's bookkeeping (no hardware twin): packets started per output.
    pub starts: [u64; PORTS],
    /// Per queued packet (by its first chunk), its output's `starts` when it was pushed.
    pub pushed_at: std::collections::HashMap<u8, u64>,
    /// When on, every [`SwitchModel::step_pins`] keeps its cycle's [`CycleTrace`] in `last_trace` (for the
    /// lock-step of a block's HDL twin inside the running switch).
    pub tracing: bool,
    /// The last cycle's trace, when `tracing`.
    pub last_trace: Option<Box<CycleTrace>>,
    /// The read pipeline register: the queue's chunk read register one cycle later, what the transmitters
    /// read (V3.F: a chunk read in cycle t reaches its transmitter in t + 2, so that the queue's RAM
    /// outputs go into a register before any logic).
    pub rd_pipe: Option<(u8, RdData)>,
}

impl Default for Sp2SwitchV3 {
    fn default() -> Self {
        Sp2SwitchV3 {
            rx: (0..PORTS as u8).map(Receiver::new).collect(),
            tx: (0..PORTS as u8).map(Transmitter::new).collect(),
            cq: CentralQueue::new(),
            alloc: Allocator::default(),
            cycle: 0,
            starts: [0; PORTS],
            pushed_at: Default::default(),
            tracing: false,
            last_trace: None,
            rd_pipe: None,
        }
    }
}

impl Sp2SwitchV3 {
    /// The switch after reset.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every block's registers now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            rx: std::array::from_fn(|i| self.rx[i].regs),
            tx: std::array::from_fn(|o| self.tx[o].regs),
            alloc: self.alloc.regs,
            cq: self.cq.regs,
        }
    }

    /// What receiver `i` reads in this cycle.
    pub fn rx_in(&self, s: &Snapshot, i: usize, pins: Option<u8>) -> RxIn {
        let mut conn = 0u8;
        let mut tx_idle = 0u8;
        let mut credit_ok = 0u8;
        let mut cand = 0u8;
        for o in 0..PORTS {
            conn |= ((s.tx[o].src == TxSrc::Xbar(i as u8)) as u8) << o;
            tx_idle |= (s.tx[o].idle as u8) << o;
            credit_ok |= (s.tx[o].credit_ok as u8) << o;
            cand |= ((s.tx[o].cand || s.tx[o].soon) as u8) << o;
        }
        RxIn {
            pins,
            grant: (0..PORTS as u8).find(|&o| s.alloc.grant[o as usize] == Some(i as u8)),
            conn,
            tx_idle,
            credit_ok,
            cand_free: cand & !s.cq.load_nz,
            admitted: s.cq.adm.filter(|a| a.0 as usize == i).map(|a| a.1),
            in_matrix: s.alloc.rows >> i & 1 == 1,
            adm_busy: s.cq.adm_busy >> i & 1 == 1,
            slot_bank: ((i as u64 + self.cycle) % PORTS as u64) as u8,
            ctrl_slot: self.cycle % PORTS as u64 == i as u64,
            free_head: s.cq.free_head,
        }
    }

    /// What transmitter `o` reads in this cycle.
    pub fn tx_in(&self, s: &Snapshot, o: usize, token: bool) -> TxIn {
        let grant = s.alloc.grant[o];
        let from = match s.tx[o].src {
            TxSrc::Xbar(i) => Some(i),
            TxSrc::Idle => grant,
        };
        TxIn {
            grant,
            offer: from.and_then(|i| s.rx[i as usize].offer),
            near_end: from.is_some_and(|i| s.rx[i as usize].near_end),
            // A chunk read for it in the last cycle still counts as load until it arrives: the transmitter
            // is no candidate for the crossbar before it has it.
            load_nz: s.cq.load_nz >> o & 1 == 1 || s.cq.rd.is_some_and(|r| r.0 as usize == o),
            rd: self.rd_pipe.filter(|r| r.0 as usize == o).map(|r| r.1),
            token,
        }
    }

    /// The switch's rules on a cycle, checked as invariants before its edge: every grant connects a
    /// receiver to an output of the route set of the packet it is for, and none goes to an output with
    /// queued packets; a queued packet that starts now has waited for at most [`WAIT_BOUND_PACKETS`] others.
    fn check_rules(&self, s: &Snapshot) -> Result<(), Sp2V3Error> {
        let rule = |what: String| {
            Err(Sp2V3Error::Rule {
                cycle: self.cycle,
                what,
            })
        };
        for (o, g) in s.alloc.grant.iter().enumerate() {
            let Some(i) = *g else { continue };
            let r = &self.rx[i as usize];
            let set = match r.state {
                RxState::Wait => r.cur.map_or(0, |c| c.set),
                _ => r.lookahead().map_or(0, |h| h.set),
            };
            if set >> o & 1 == 0 {
                return rule(format!(
                    "receiver {i} granted output {o}, outside the set {set:#04x} of its packet"
                ));
            }
            if self.cq.load[o] != 0 {
                return rule(format!(
                    "receiver {i} granted output {o}, which has queued packets (load {})",
                    self.cq.load[o]
                ));
            }
        }
        Ok(())
    }

    /// The waiting bound's bookkeeping and check, before the queue's edge: a packet pushed into its
    /// output's packet FIFO notes how many packets have started there; when its first chunk is read, at
    /// most [`WAIT_BOUND_PACKETS`] more may have.
    fn count_queue_starts(&mut self, cq_in: &CqIn) -> Result<(), Sp2V3Error> {
        for a in &cq_in.acts {
            if let Some((o, p)) = a.push {
                self.pushed_at.insert(p.first, self.starts[o as usize]);
            }
        }
        if let Some(o) = self.cq.read_pick(cq_in) {
            let o = o as usize;
            if self.cq.rp[o] == ReadPtr::Between {
                let p = *self.cq.pfifo[o].front().expect("readable");
                let mark = self.pushed_at.remove(&p.first).unwrap_or(self.starts[o]);
                let waited = self.starts[o] - mark;
                if waited > WAIT_BOUND_PACKETS {
                    return Err(Sp2V3Error::Rule {
                        cycle: self.cycle,
                        what: format!(
                            "a queued packet on output {o} waited for {waited} packets (bound {WAIT_BOUND_PACKETS})"
                        ),
                    });
                }
                self.starts[o] += 1;
            }
        }
        Ok(())
    }

    /// One clock cycle: returns what the switch drove during it.
    pub fn step(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<Sp2Outputs, Sp2V3Error> {
        self.step_traced(link_in, token_in).map(|t| t.0)
    }

    /// [`Sp2SwitchV3::step`], also returning what every block read and decided in the cycle
    /// ([`CycleTrace`]): the stimulus with which a block's HDL twin is driven in lock-step with the block
    /// inside a running model switch (its registers after the edge are the model block's `regs`).
    pub fn step_traced(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<(Sp2Outputs, CycleTrace), Sp2V3Error> {
        let s = self.snapshot();
        self.check_rules(&s)?;
        let out = Sp2Outputs {
            link_out: std::array::from_fn(|o| self.tx[o].out_reg),
            token_out: std::array::from_fn(|i| self.rx[i].regs.token),
        };
        let cyc = self.cycle;
        let mut cq_in = CqIn {
            rd_req: (0..PORTS).fold(0, |a, o| a | ((s.tx[o].rd_req as u8) << o)),
            cand: (0..PORTS).fold(0, |a, o| a | ((s.tx[o].cand as u8) << o)),
            xres: (0..PORTS).fold(0, |a, o| a | (((s.tx[o].xres || s.tx[o].soon) as u8) << o)),
            in_rows: s.alloc.rows,
            in_cols: s.alloc.cols,
            may_capture: s.alloc.may_capture,
            ..Default::default()
        };
        // A transmitter receiving its chunk now asked before it knew: its request is not read.
        if let Some((o, _)) = self.rd_pipe {
            cq_in.rd_req &= !(1 << o);
        }
        for i in 0..PORTS {
            cq_in.ask[i] = s.rx[i].ask;
            cq_in.wpos[i] = s.rx[i].wpos;
        }
        let rx_ins: Vec<RxIn> = (0..PORTS).map(|i| self.rx_in(&s, i, link_in[i])).collect();
        let tx_ins: Vec<TxIn> = (0..PORTS).map(|o| self.tx_in(&s, o, token_in[o])).collect();
        // The crossbar: what receiver and transmitter each compute must agree.
        for o in 0..PORTS {
            let t = self.tx[o].takes(&tx_ins[o]);
            if t {
                let i = match s.tx[o].src {
                    TxSrc::Xbar(i) => i,
                    TxSrc::Idle => s.alloc.grant[o].expect("a grant"),
                } as usize;
                if !self.rx[i].taken(&rx_ins[i]) {
                    return Err(Sp2V3Error::Rule {
                        cycle: cyc,
                        what: format!("output {o} takes an offer receiver {i} does not see taken"),
                    });
                }
                self.starts[o] += (self.tx[o].started as u64 == 0) as u64;
            }
        }
        for i in 0..PORTS {
            cq_in.acts[i] = self.rx[i]
                .commit(&rx_ins[i])
                .map_err(|e| Sp2V3Error::Rx(cyc, i, e))?;
        }
        for o in 0..PORTS {
            self.tx[o]
                .commit(&tx_ins[o])
                .map_err(|e| Sp2V3Error::Tx(cyc, o, e))?;
        }
        self.count_queue_starts(&cq_in)?;
        self.cq
            .commit(&cq_in)
            .map_err(|e| Sp2V3Error::Queue(cyc, e))?;
        let mut req = [0u8; PORTS];
        for i in 0..PORTS {
            req[i] = s.rx[i].req;
        }
        let ai = AllocIn {
            req,
            cand: cq_in.cand,
            load_nz: s.cq.load_nz,
            adm_busy: s.cq.adm_busy,
        };
        self.alloc.commit(&ai);
        self.rd_pipe = s.cq.rd;
        self.cycle += 1;
        let trace = CycleTrace {
            before: s,
            rx_in: rx_ins.try_into().expect("PORTS receivers"),
            tx_in: tx_ins.try_into().expect("PORTS transmitters"),
            cq_in,
            alloc_in: ai,
        };
        Ok((out, trace))
    }

    /// The central queue's invariants (with the receivers' held chunks and unpushed packets).
    pub fn check(&self) -> Result<(), Sp2V3Error> {
        let held: Vec<u8> = self
            .rx
            .iter()
            .flat_map(|r| r.held.iter().copied())
            .collect();
        let unpushed: Vec<_> = self
            .rx
            .iter()
            .filter_map(|r| r.push_pending.map(|p| p.1))
            .collect();
        let wpos = std::array::from_fn(|i| self.rx[i].wchunk);
        self.cq
            .check(&held, &unpushed, &wpos)
            .map_err(|e| Sp2V3Error::Queue(self.cycle, e))
    }

    /// Nothing inside: every receiver, transmitter and the queue empty, the allocator quiet.
    pub fn is_idle(&self) -> bool {
        self.rx.iter().all(|r| r.is_idle())
            && self.tx.iter().all(|t| t.is_idle())
            && self.cq.used() == PORTS * super::receiver::HELD
            && self.cq.promised == 0
            && self.cq.load.iter().all(|&l| l == 0)
            && self.alloc.flight.is_none()
            && self.rd_pipe.is_none()
    }
}

impl SwitchModel for Sp2SwitchV3 {
    fn step_pins(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<Sp2Outputs, String> {
        let (o, t) = self
            .step_traced(link_in, token_in)
            .map_err(|e| e.to_string())?;
        if self.tracing {
            self.last_trace = Some(Box::new(t));
        }
        self.check().map_err(|e| e.to_string())?;
        Ok(o)
    }
    fn queue_chunks(&self) -> usize {
        self.cq.used() - self.rx.iter().map(|r| r.held.len()).sum::<usize>()
    }
    fn check_queue(&self) -> Result<(), String> {
        self.check().map_err(|e| e.to_string())
    }
    fn idle(&self) -> bool {
        self.is_idle()
    }
    fn packets_via(&self) -> (u64, u64) {
        (
            self.tx.iter().map(|t| t.packets_queue).sum(),
            self.tx.iter().map(|t| t.packets_xbar).sum(),
        )
    }
    fn outputs(&self) -> Sp2Outputs {
        Sp2Outputs {
            link_out: std::array::from_fn(|o| self.tx[o].out_reg),
            token_out: std::array::from_fn(|i| self.rx[i].regs.token),
        }
    }
    fn tx_credit(&self, p: usize) -> u16 {
        self.tx[p].credit as u16
    }
    fn quiescent(&self) -> bool {
        false
    }
    fn skip_cycle(&mut self) {
        // Never skipped (`quiescent` is false): the slot schedule follows the cycle count.
        self.cycle += 1;
        self.cq.cycle += 1;
    }
    fn queue_free(&self) -> usize {
        CQ_CHUNKS - self.queue_chunks() - PORTS * super::receiver::HELD
    }
    fn dump(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "cycle {} chunks used {} promised {} loads {:?} alloc {:?}",
            self.cycle,
            self.cq.used(),
            self.cq.promised,
            self.cq.load,
            self.alloc.flight
        );
        for (i, r) in self.rx.iter().enumerate() {
            let _ = writeln!(
                out,
                "  rx{i}: {:?} cur {:?} la {:?} hdr {:?} fifo {} regs {:?}",
                r.state,
                r.cur,
                r.la_out,
                r.hdr,
                r.fifo.len(),
                r.regs
            );
        }
        for (o, t) in self.tx.iter().enumerate() {
            let _ = writeln!(
                out,
                "  tx{o}: {:?} next {:?} credit {} ser {} regs {:?} rp {:?} pfifo {}",
                t.regs.src,
                t.next_src,
                t.credit,
                t.ser.len(),
                t.regs,
                self.cq.rp[o],
                self.cq.pfifo[o].len()
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule checks catch each broken rule injected into a cycle: a grant outside the packet's set, a
    /// grant on an output with queued packets.
    #[test]
    fn the_rule_checks_catch_injected_faults() {
        let mut sw = Sp2SwitchV3::new();
        sw.rx[6].state = RxState::Wait;
        sw.rx[6].cur = Some(super::super::receiver::Cur {
            len: 4,
            set: 0b11,
            headed: true,
            done: 0,
        });
        let mut s = sw.snapshot();
        s.alloc.grant[1] = Some(6);
        assert!(sw.check_rules(&s).is_ok());
        s.alloc.grant[1] = None;
        s.alloc.grant[2] = Some(6);
        let e = sw.check_rules(&s).unwrap_err().to_string();
        assert!(e.contains("outside the set"), "{e}");
        s.alloc.grant[2] = None;
        s.alloc.grant[1] = Some(6);
        sw.cq.load[1] = 3;
        let e = sw.check_rules(&s).unwrap_err().to_string();
        assert!(e.contains("queued packets"), "{e}");
    }

    /// The queue's invariant catches a lost chunk, a chunk in two places and a promise that eats the
    /// reservation of the outputs without load.
    #[test]
    fn the_queue_check_catches_a_lost_or_doubled_chunk() {
        let mut sw = Sp2SwitchV3::new();
        assert!(sw.check().is_ok());
        let c = sw.cq.free.pop_back().unwrap();
        let e = sw.check().unwrap_err().to_string();
        assert!(e.contains(&format!("chunk {c} is neither free")), "{e}");
        sw.cq.free.push_back(c);
        sw.cq.free.push_back(c);
        let e = sw.check().unwrap_err().to_string();
        assert!(e.contains("twice"), "{e}");
        sw.cq.free.pop_back();
        assert!(sw.check().is_ok());
        // 128 free, 8 outputs without load: a promise of 120 is the most the reservation allows.
        sw.cq.promised = 120;
        assert!(sw.check().is_ok());
        sw.cq.promised = 121;
        let e = sw.check().unwrap_err().to_string();
        assert!(e.contains("8 outputs without load with 128 free"), "{e}");
    }

    /// A packet through the idle switch: its `LEN − 1` leaves 8 cycles after its `LEN` arrived, the rest of
    /// it one byte per cycle behind, with the CRC recomputed.
    #[test]
    fn cut_through_is_eight_cycles() {
        let h = crate::header::Header::new(8, vec![1 << 5]).unwrap();
        let p = crate::sp2::encode_packet(&h, &[1, 2, 3, 4]).unwrap();
        let mut sw = Sp2SwitchV3::new();
        let mut out = Vec::new();
        for t in 0..40u64 {
            let mut li = [None; PORTS];
            li[2] = p.get(t as usize).copied();
            let o = sw.step(&li, &[false; PORTS]).unwrap();
            if let Some(b) = o.link_out[5] {
                out.push((t, b));
            }
        }
        let want: Vec<u8> = {
            let mut v = vec![p[0] - 1, 1, 2, 3, 4];
            v.push(crate::sp2::crc8(&v));
            v
        };
        assert_eq!(out.iter().map(|x| x.1).collect::<Vec<_>>(), want);
        assert_eq!(out[0].0, 8, "{out:?}");
    }
}

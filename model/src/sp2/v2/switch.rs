//! The v2 SP2-style 8×8 ASR switch (docs/sp2-switch.md, v2), cycle-accurate: 8 receivers, the pipelined
//! crossbar allocator, the central queue with per-packet chunk chains, 8 transmitters.
//!
//! Model twin of `hdl/src/sp2/v2/switch.rs`. Ports per cycle as v1: in — `link_in[i]`, `token_in[o]`; out —
//! `link_out[o]` (the output registers), `token_out[i]`. Latency: 6 cycles from `LEN` in to `LEN − 1` out
//! without contention (`LEN` and `R1` consumed through the receiver's bypass in cycles 0 and 1, the allocator's
//! stages in cycles 2–4, the grant's transmitter loads `LEN − 1` in cycle 5).
//!
//! Two-phase: every unit shows what it asks from the state at the start of the cycle ([`Sp2SwitchV2::step`]
//! phase 1), the arbiters decide from that, and every unit commits at the edge, so no result depends on the
//! order in which the ports are visited.

use super::allocator::Allocator;
use super::allocator::LATENCY;
use super::central_queue::{CentralQueue, CqError, CqIn, CqOut};
use super::receiver::{Offer, Receiver, RxDecide, RxError, RxView};
use super::transmitter::{Transmitter, TxDecide, TxError, TxSrc, TxView};
use crate::sp2::PORTS;
use crate::sp2::{Sp2Outputs, SwitchModel, CQ_CHUNKS};
use thiserror::Error;

/// A broken invariant or protocol violation (an error, never a statistic).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Sp2V2Error {
    /// A receiver's protocol violation, by input port.
    #[error("input {0}: {1}")]
    Rx(usize, RxError),
    /// A transmitter's protocol violation, by output port.
    #[error("output {0}: {1}")]
    Tx(usize, TxError),
    /// The central queue's rules or invariants broken.
    #[error("central queue: {0}")]
    Queue(#[from] CqError),
    /// A rule of the switch broken (a grant outside its packet's route set, a grant that overtakes a queued
    /// packet, a queued packet waiting longer than its bound).
    #[error("cycle {cycle}: {what}")]
    Rule {
        /// The switch's cycle count when the rule broke.
        cycle: u64,
        /// Which rule and how.
        what: String,
    },
}

/// The waiting bound (docs/sp2-switch.md v2 §D): from the cycle a queued packet's first chunk is written,
/// at most this many other packets start on its output before it (the packets ahead of it in its
/// output's packet FIFO; no crossbar packet starts on a busy output).
pub const WAIT_BOUND_PACKETS: u64 = super::central_queue::PFIFO as u64 - 1;

/// Everything a cycle decided (for tests and waveforms).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Decisions {
    /// Every receiver's view (phase 1).
    pub rx: [RxView; PORTS],
    /// Every transmitter's view (phase 1).
    pub tx: [TxView; PORTS],
    /// The allocator's requests for the matrix captured this cycle, per receiver (route set, 0 for none).
    pub req: [u8; PORTS],
    /// The transmitters free for that matrix (free now, or about to be), bit j = transmitter j.
    pub free: u8,
    /// Transmitters free now (the allocator's grants are among these; queue admission needs none of a
    /// receiver's permitted outputs in it).
    pub free_now: u8,
    /// Receivers waiting for the crossbar, including a look-ahead packet whose predecessor ends now (the
    /// allocator's `waiting`).
    pub waiting: u8,
    /// Per receiver: the route set of the packet it waits for (from the registers, with `wait_spec`), 0 when
    /// not `wait_spec`: the allocator grants a row only a column of this set.
    pub wait_set: [u8; PORTS],
    /// Outputs with queued or promised chunks, or an admission pending (the central queue's `busy`): free
    /// for no crossbar packet.
    pub busy: u8,
    /// Each receiver's own `waiting` (before the switch holds out the one whose admission arrives now).
    pub rx_waiting: u8,
    /// The allocator's input for its grants: transmitters free from the registers alone (a superset of
    /// `free_now`).
    pub free_spec: u8,
    /// The allocator's input for its grants: receivers waiting from the registers alone (a superset of
    /// `waiting`).
    pub wait_spec: u8,
    /// Per transmitter: the receiver the allocator granted (on `free_spec` and `wait_spec`; its LRS orders
    /// advance on these).
    pub grant_spec: [Option<u8>; PORTS],
    /// Per transmitter: the grant that stands (column free now, row waiting now).
    pub grant: [Option<u8>; PORTS],
    /// The central queue's inputs this cycle.
    pub cq_in: CqIn,
    /// The central queue's decisions this cycle.
    pub cq: CqOut,
}

/// The switch state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sp2SwitchV2 {
    /// The receivers, one per input port.
    pub rx: Vec<Receiver>,
    /// The transmitters, one per output port.
    pub tx: Vec<Transmitter>,
    /// The central queue shared by all ports.
    pub cq: CentralQueue,
    /// The pipelined crossbar allocator.
    pub alloc: Allocator,
    /// Cycles since reset (stepped or skipped).
    pub cycle: u64,
    /// The receiver the central queue admitted in the last cycle (it takes the admission now: the queue's
    /// admission arbiter does not drive the receivers' state in the cycle it decides).
    pub adm_late: Option<u8>,
    /// The waiting bound's bookkeeping (no hardware twin): packets started per output.
    pub starts: [u64; PORTS],
    /// The waiting bound's bookkeeping: per queued packet (keyed by its first chunk), its output's `starts`
    /// when that chunk was written.
    pub first_written: std::collections::HashMap<u8, u64>,
}

impl Default for Sp2SwitchV2 {
    fn default() -> Self {
        Sp2SwitchV2 {
            rx: (0..PORTS).map(|_| Receiver::default()).collect(),
            tx: (0..PORTS).map(|_| Transmitter::default()).collect(),
            cq: CentralQueue::new(),
            alloc: Allocator::default(),
            cycle: 0,
            adm_late: None,
            starts: [0; PORTS],
            first_written: Default::default(),
        }
    }
}

impl Sp2SwitchV2 {
    /// The switch after reset: everything empty, every transmitter with its full credit.
    pub fn new() -> Self {
        Self::default()
    }

    /// Phase 1: every unit's view and every arbiter's decision, from the state and the pins.
    pub fn decide(&self, link_in: &[Option<u8>; PORTS]) -> Result<Decisions, Sp2V2Error> {
        let mut d = Decisions::default();
        let load = self.cq.load.map(|x| x.min(255) as u8);
        for o in 0..PORTS {
            d.tx[o] = self.tx[o].view(load[o]);
        }
        for i in 0..PORTS {
            d.rx[i] = self.rx[i].view(link_in[i]);
        }
        // Free now: free, or sending its packet's CRC byte in this cycle (free from the edge on). Free from
        // the registers (`free_spec`): free, or streaming with the CRC as the next byte, whether or not it is
        // here and taken — the allocator grants on it and on `wait_spec`, and a grant to a column not free now
        // or a row not waiting now is cancelled, so no path runs from the crossbar offer through the
        // allocator's arbiters or into the queue admission. Free for the matrix captured now (whose grants come
        // `LATENCY` cycles later): also a transmitter whose crossbar packet has at most `LATENCY + 1` bytes
        // left to send. None of them while its output is busy (chunks queued or promised, or an admission
        // pending): the queue is served first (the service rule, docs/sp2-switch.md v2 §D).
        let mut busy = self.cq.busy();
        for o in 0..PORTS {
            // A transmitter on the crossbar may hold the next queued packet's first chunk already.
            if d.tx[o].queued {
                busy |= 1 << o;
            }
        }
        let mut free = 0u8;
        let mut free_spec = 0u8;
        let mut free_soon = 0u8;
        for o in 0..PORTS {
            let (now, spec, soon) = match self.tx[o].src {
                TxSrc::Xbar(i) => {
                    let r = &self.rx[i as usize];
                    let ends =
                        d.tx[o].takes && matches!(d.rx[i as usize].offer, Some(Offer::End { .. }));
                    (ends, d.rx[i as usize].at_end, r.bytes_left() <= LATENCY + 1)
                }
                _ => (d.tx[o].free, d.tx[o].free, d.tx[o].free),
            };
            free |= (now as u8) << o;
            free_spec |= (spec as u8) << o;
            free_soon |= (soon as u8) << o;
        }
        free &= !busy;
        free_spec &= !busy;
        free_soon &= !busy;
        let mut req = [0u8; PORTS];
        let mut waiting = 0u8;
        let mut wait_spec = 0u8;
        // A receiver streaming toward transmitter o takes part if o takes its offer this cycle.
        let mut takes = [false; PORTS];
        for o in 0..PORTS {
            if let TxSrc::Xbar(i) = self.tx[o].src {
                takes[i as usize] = d.tx[o].takes;
            }
        }
        for i in 0..PORTS {
            let v = d.rx[i];
            req[i] = v.req;
            // Waiting: for its packet, or (look-ahead) its current packet ends in this cycle.
            // The receiver admitted in the last cycle learns it now: it is held out of the allocator's and
            // the queue's requests (it leaves `Wait` at this edge).
            let late = self.adm_late == Some(i as u8);
            let own = v.waiting || (v.la_set != 0 && v.ends(takes[i]));
            d.rx_waiting |= (own as u8) << i;
            let w = !late && own;
            waiting |= (w as u8) << i;
            wait_spec |= ((!late && v.wait_spec) as u8) << i;
            if !late {
                d.wait_set[i] = v.spec_set;
            }
            // The admission request, presented from the `R1` cycle on; asked only when none of the permitted
            // transmitters is (speculatively) free now, nor free soon (its crossbar packet has at most
            // `LATENCY + 1` bytes left: a grant is likely within the allocator's latency).
            if v.set != 0 {
                d.cq_in.adm[i] = Some(super::central_queue::AdmReq {
                    set: v.set,
                    chunks: v.chunks,
                });
            }
            if !late && v.may_queue && v.set & (free_spec | free_soon) == 0 {
                d.cq_in.ask |= 1 << i;
            }
            d.cq_in.wr[i] = v.ready;
        }
        let a = self.alloc.eval(free_spec, &d.wait_set);
        d.grant_spec = a.grant;
        for (o, g) in a.grant.iter().enumerate() {
            d.grant[o] = g.filter(|&i| free >> o & 1 == 1 && waiting >> i & 1 == 1);
        }
        for o in 0..PORTS {
            d.cq_in.rd[o] = d.tx[o].wants;
        }
        d.cq = self.cq.eval(&d.cq_in)?;
        d.req = req;
        d.free = free_soon;
        d.free_now = free;
        d.free_spec = free_spec;
        d.waiting = waiting;
        d.wait_spec = wait_spec;
        d.busy = busy;
        self.check_rules(&d)?;
        Ok(d)
    }

    /// The switch's rules on a cycle's decisions, checked as invariants: every standing grant connects a
    /// receiver to an output of the route set of the packet it waits for, and none is on a busy output;
    /// every admission is to an output of the set the receiver asked with; a queued packet that starts
    /// now has waited for at most [`WAIT_BOUND_PACKETS`] other packets since its first chunk was written.
    fn check_rules(&self, d: &Decisions) -> Result<(), Sp2V2Error> {
        let rule = |what: String| {
            Err(Sp2V2Error::Rule {
                cycle: self.cycle,
                what,
            })
        };
        for (o, g) in d.grant.iter().enumerate() {
            let Some(i) = *g else { continue };
            if d.wait_set[i as usize] >> o & 1 == 0 {
                return rule(format!(
                    "receiver {i} granted output {o}, outside the set {:#04x} of the packet it waits for",
                    d.wait_set[i as usize]
                ));
            }
            if d.busy >> o & 1 == 1 {
                return rule(format!(
                    "receiver {i} granted output {o}, which has queued packets (load {})",
                    self.cq.load[o]
                ));
            }
        }
        if let Some((r, o)) = d.cq.adm {
            let set = d.cq_in.adm[r as usize].map_or(0, |a| a.set);
            if set >> o & 1 == 0 {
                return rule(format!(
                    "receiver {r} admitted for output {o}, outside its set {set:#04x}"
                ));
            }
        }
        if let Some(t) = d.cq.rd {
            if self.cq.rp[t as usize] == super::central_queue::ReadPtr::Between {
                let c = self.cq.pfifo[t as usize][0];
                let mark = self.first_written.get(&c).copied().unwrap_or(0);
                let waited = self.starts[t as usize] - mark;
                if waited > WAIT_BOUND_PACKETS {
                    return rule(format!(
                        "a queued packet on output {t} waited for {waited} packets (bound {WAIT_BOUND_PACKETS})"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The waiting bound's bookkeeping at the edge (before the queue commits).
    fn count_starts(&mut self, d: &Decisions) {
        if let Some(r) = d.cq.wr {
            if let Some(w) = self.cq.writer[r as usize] {
                if w.prev.is_none() {
                    let c = *self.cq.free.front().expect("a written chunk is free");
                    self.first_written.insert(c, self.starts[w.out as usize]);
                }
            }
        }
        if let Some(t) = d.cq.rd {
            if self.cq.rp[t as usize] == super::central_queue::ReadPtr::Between {
                let c = self.cq.pfifo[t as usize][0];
                self.first_written.remove(&c);
                self.starts[t as usize] += 1;
            }
        }
        for (o, g) in d.grant.iter().enumerate() {
            if g.is_some() {
                self.starts[o] += 1;
            }
        }
    }

    /// One clock cycle: the pins, then the edge. Returns what the switch drove during the cycle.
    pub fn step(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<Sp2Outputs, Sp2V2Error> {
        let d = self.decide(link_in)?;
        self.commit(&d, link_in, token_in)?;
        Ok(Sp2Outputs {
            link_out: d.tx.map(|t| t.link),
            token_out: d.rx.map(|r| r.token),
        })
    }

    /// Phase 2: the edge, with the decisions of [`Self::decide`].
    pub fn commit(
        &mut self,
        d: &Decisions,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<(), Sp2V2Error> {
        let mut rx_grant = [None; PORTS];
        for (o, g) in d.grant.iter().enumerate() {
            if let Some(i) = g {
                rx_grant[*i as usize] = Some(o as u8);
            }
        }
        // The crossbar: transmitter o takes its receiver's offer when it has credit.
        let mut taken = [false; PORTS];
        let mut offer: [Option<Offer>; PORTS] = [None; PORTS];
        for o in 0..PORTS {
            if let TxSrc::Xbar(i) = self.tx[o].src {
                if d.tx[o].takes {
                    if let Some(x) = d.rx[i as usize].offer {
                        taken[i as usize] = true;
                        offer[o] = Some(x);
                    }
                }
            }
        }
        for i in 0..PORTS {
            let dec = RxDecide {
                pins: link_in[i],
                grant: rx_grant[i],
                admitted: self.adm_late == Some(i as u8),
                taken: taken[i],
                written: d.cq.wr == Some(i as u8),
            };
            self.rx[i]
                .commit(&d.rx[i], &dec)
                .map_err(|e| Sp2V2Error::Rx(i, e))?;
        }
        for o in 0..PORTS {
            let dec = TxDecide {
                grant: d.grant[o],
                offer: offer[o],
                read: d.cq.rd == Some(o as u8),
                chunk: d
                    .cq
                    .rd_data
                    .filter(|(t, _)| *t as usize == o)
                    .map(|(_, c)| c),
                token: token_in[o],
            };
            self.tx[o].commit(&dec).map_err(|e| Sp2V2Error::Tx(o, e))?;
        }
        self.count_starts(d);
        self.cq.commit(&d.cq_in, &d.cq);
        self.adm_late = d.cq.adm.map(|(r, _)| r);
        let out = super::allocator::AllocOut {
            grant: d.grant_spec,
        };
        self.alloc.commit(&out, &d.req, d.free);
        self.cycle += 1;
        Ok(())
    }

    /// The central queue's invariants.
    pub fn check(&self) -> Result<(), Sp2V2Error> {
        Ok(self.cq.check()?)
    }

    /// Nothing inside: every receiver, transmitter and the queue empty.
    pub fn is_idle(&self) -> bool {
        self.rx.iter().all(|r| r.is_idle())
            && self.tx.iter().all(|t| t.is_idle() && t.out_reg.is_none())
            && self.cq.used() == 0
            && self.cq.promised == 0
    }
}

impl SwitchModel for Sp2SwitchV2 {
    fn step_pins(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<Sp2Outputs, String> {
        self.step(link_in, token_in).map_err(|e| e.to_string())
    }
    fn queue_chunks(&self) -> usize {
        self.cq.used()
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
        let mut out = Sp2Outputs::default();
        for p in 0..PORTS {
            out.link_out[p] = self.tx[p].out_reg;
            out.token_out[p] = self.rx[p].token;
        }
        out
    }
    fn tx_credit(&self, p: usize) -> u16 {
        self.tx[p].credit as u16
    }
    fn quiescent(&self) -> bool {
        // The pipelined allocator's banks and least-recently-served orders are not covered by `is_idle`:
        // never skip (correct, only slower).
        false
    }
    fn skip_cycle(&mut self) {
        self.cycle += 1;
    }
    fn queue_free(&self) -> usize {
        CQ_CHUNKS - self.cq.used()
    }
    fn dump(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "chunks used {} promised {} loads {:?}",
            self.cq.used(),
            self.cq.promised,
            self.cq.load
        );
        for (i, r) in self.rx.iter().enumerate() {
            let _ = writeln!(out, "  rx{i}: {:?} fifo {}", r.state, r.fifo.len());
        }
        for (o, t) in self.tx.iter().enumerate() {
            let _ = writeln!(out, "  tx{o}: {:?} credit {}", t.src, t.credit);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules' checks catch each broken rule when it is injected into a cycle's decisions: a grant
    /// outside the packet's set (fault 1 of issue 30), a grant on a busy output (fault 2), and a queued
    /// packet started after more than the bound's packets on its output.
    #[test]
    fn the_rule_checks_catch_injected_faults() {
        let sw = Sp2SwitchV2::new();
        let mut d = Decisions::default();
        d.wait_set[6] = 0b11;
        d.grant[2] = Some(6);
        let e = sw.check_rules(&d).unwrap_err().to_string();
        assert!(e.contains("outside the set"), "{e}");
        d.grant[2] = None;
        d.grant[1] = Some(6);
        assert!(sw.check_rules(&d).is_ok());
        d.busy = 0b10;
        let e = sw.check_rules(&d).unwrap_err().to_string();
        assert!(e.contains("queued packets"), "{e}");

        let mut sw = Sp2SwitchV2::new();
        sw.cq.pfifo[4].push_back(9);
        sw.first_written.insert(9, 100);
        sw.starts[4] = 100 + WAIT_BOUND_PACKETS;
        let mut d = Decisions::default();
        d.cq.rd = Some(4);
        assert!(sw.check_rules(&d).is_ok());
        sw.starts[4] += 1;
        let e = sw.check_rules(&d).unwrap_err().to_string();
        assert!(e.contains("waited for 16 packets"), "{e}");
    }
}

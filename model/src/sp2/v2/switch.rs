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
use crate::sp2::switch::Sp2Outputs;
use crate::sp2::PORTS;
use thiserror::Error;

/// A broken invariant or protocol violation (an error, never a statistic).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Sp2V2Error {
    #[error("input {0}: {1}")]
    Rx(usize, RxError),
    #[error("output {0}: {1}")]
    Tx(usize, TxError),
    #[error("central queue: {0}")]
    Queue(#[from] CqError),
}

/// Everything a cycle decided (for tests and waveforms).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Decisions {
    pub rx: [RxView; PORTS],
    pub tx: [TxView; PORTS],
    /// The allocator's inputs for the matrix captured this cycle: requests and the transmitters free for
    /// it (free now, or about to be).
    pub req: [u8; PORTS],
    pub free: u8,
    /// Transmitters free now (the allocator's grants are among these; queue admission needs none of a
    /// receiver's permitted outputs in it).
    pub free_now: u8,
    /// Receivers waiting for the crossbar, including a look-ahead packet whose predecessor ends now (the
    /// allocator's `waiting`).
    pub waiting: u8,
    /// Each receiver's own `waiting` (before the switch holds out the one whose admission arrives now).
    pub rx_waiting: u8,
    /// The allocator's inputs for its grants: transmitters free and receivers waiting, from the registers
    /// alone (a superset of `free_now` and `waiting`).
    pub free_spec: u8,
    pub wait_spec: u8,
    /// Per transmitter: the receiver the allocator granted (on `free_spec` and `wait_spec`; its LRS orders
    /// advance on these).
    pub grant_spec: [Option<u8>; PORTS],
    /// Per transmitter: the grant that stands (column free now, row waiting now).
    pub grant: [Option<u8>; PORTS],
    pub cq_in: CqIn,
    pub cq: CqOut,
}

/// The switch state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sp2SwitchV2 {
    pub rx: Vec<Receiver>,
    pub tx: Vec<Transmitter>,
    pub cq: CentralQueue,
    pub alloc: Allocator,
    pub cycle: u64,
    /// The receiver the central queue admitted in the last cycle (it takes the admission now: the queue's
    /// admission arbiter does not drive the receivers' state in the cycle it decides).
    pub adm_late: Option<u8>,
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
        }
    }
}

impl Sp2SwitchV2 {
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
        // left to send.
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
            // The admission request, presented from the `R1` cycle on; asked only when none of the permitted
            // transmitters is (speculatively) free now.
            if v.set != 0 {
                d.cq_in.adm[i] = Some(super::central_queue::AdmReq {
                    set: v.set,
                    chunks: v.chunks,
                });
            }
            if !late && v.may_queue && v.set & free_spec == 0 {
                d.cq_in.ask |= 1 << i;
            }
            d.cq_in.wr[i] = v.ready;
        }
        let a = self.alloc.eval(free_spec, wait_spec);
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
        Ok(d)
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

//! The SP2-style 8×8 ASR switch (docs/sp2-switch.md), cycle-accurate: 8 receivers, the crossbar with ASR
//! output choice (matching heuristic + LRS per transmitter), the central queue, 8 transmitters.
//!
//! Model twin of `hdl/src/sp2/switch.rs`, exported as `sp2_switch`.
//! Ports per cycle: in — `link_in[i]` (a byte with valid), `token_in[o]` (downstream token for output o);
//! out — `link_out[o]` (the output register), `token_out[i]` (upstream token for input i).
//! Latency: 5 cycles from `LEN` in to `LEN − 1` out without contention (see `model/tests/sp2_switch.rs`).
//!
//! Two-phase: every decision of a cycle is made from the state at the start of the cycle; the new state is
//! built from it, so no result depends on the order in which ports are visited.

use super::central_queue::{CentralQueue, CqError, CqInputs, WriteReq};
use super::receiver::{Receiver, RxState, XbarByte};
use super::transmitter::{Source, Transmitter};
use crate::lrs::Lrs;
use crate::matcher::heuristic_into;
use crate::sp2::{Sp2Outputs, SwitchModel, CQ_CHUNKS, PASSES, PORTS, RX_DEPTH};
use thiserror::Error;

/// A broken invariant or protocol violation (an error, never a statistic).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Sp2Error {
    /// A byte arrived on the input with the receiver's FIFO full.
    #[error("input {0}: byte arrived with the receiver FIFO full (upstream ignored its credit)")]
    RxOverflow(usize),
    /// A token arrived for the output that would raise its transmitter's credit above [`RX_DEPTH`].
    #[error("output {0}: token arrived with the credit already full")]
    CreditOverflow(usize),
    /// The central queue was offered a malformed chunk or its lists are inconsistent.
    #[error("central queue: {0}")]
    Queue(#[from] CqError),
}

/// What a cycle's decisions read from the state at the start of the cycle (two-phase without cloning the
/// whole switch every cycle).
struct Snapshot {
    rx_state: [RxState; PORTS],
    rx_ready: [Option<WriteReq>; PORTS],
    rx_xbar: [Option<XbarByte>; PORTS],
    tx_free: [bool; PORTS],
    tx_wants: [bool; PORTS],
    /// `tx_room[o][reg_full]`.
    tx_room: [[bool; 2]; PORTS],
    tx_source: [Source; PORTS],
}

impl Snapshot {
    fn of(s: &Sp2Switch) -> Self {
        Snapshot {
            rx_state: std::array::from_fn(|i| s.rx[i].state),
            rx_ready: std::array::from_fn(|i| s.rx[i].ready),
            rx_xbar: std::array::from_fn(|i| s.rx[i].xbar),
            tx_free: std::array::from_fn(|o| s.tx[o].free_for_xbar(s.cq.count(o))),
            tx_wants: std::array::from_fn(|o| s.tx[o].wants_chunk(s.cq.count(o))),
            tx_room: std::array::from_fn(|o| [s.tx[o].xbar_room(false), s.tx[o].xbar_room(true)]),
            tx_source: std::array::from_fn(|o| s.tx[o].source),
        }
    }
}

/// The switch state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sp2Switch {
    /// The receivers, one per input port.
    pub rx: Vec<Receiver>,
    /// The transmitters, one per output port.
    pub tx: Vec<Transmitter>,
    /// The central queue shared by all ports.
    pub cq: CentralQueue,
    /// Per transmitter: LRS among the receivers the matching gave it.
    pub xbar_arb: Vec<Lrs>,
    /// LRS among receivers choosing a queue output.
    pub choose_arb: Lrs,
    /// The receiver writing a packet into each output's list.
    pub lock: [Option<u8>; PORTS],
    /// Cycles since reset (stepped or skipped).
    pub cycle: u64,
}

impl Default for Sp2Switch {
    fn default() -> Self {
        Self::new()
    }
}

impl Sp2Switch {
    /// The switch after reset: everything empty, every transmitter with its full credit.
    pub fn new() -> Self {
        Sp2Switch {
            rx: vec![Receiver::default(); PORTS],
            tx: vec![Transmitter::default(); PORTS],
            cq: CentralQueue::new(),
            xbar_arb: vec![Lrs::new(PORTS); PORTS],
            choose_arb: Lrs::new(PORTS),
            lock: [None; PORTS],
            cycle: 0,
        }
    }

    /// What the switch drives in this cycle: its output registers and pending tokens. They depend on the
    /// state only (never on this cycle's inputs), so a network can read every switch's outputs first and
    /// then step every switch with its neighbours' outputs; `step` returns the same values.
    pub fn outputs(&self) -> Sp2Outputs {
        let mut out = Sp2Outputs::default();
        for p in 0..PORTS {
            out.link_out[p] = self.tx[p].out_reg;
            out.token_out[p] = self.rx[p].tokens_owed > 0;
        }
        out
    }

    /// One clock cycle.
    pub fn step(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<Sp2Outputs, Sp2Error> {
        let old = Snapshot::of(self);
        let out = self.outputs();
        for p in 0..PORTS {
            if out.token_out[p] {
                self.rx[p].tokens_owed -= 1;
            }
        }

        // Receivers: parse LEN / R1 / drops (decoded routes join this cycle's matching).
        for r in self.rx.iter_mut() {
            r.parse();
        }

        // Crossbar matching on the waiting receivers and the free transmitters.
        let free: u64 = (0..PORTS)
            .filter(|&o| old.tx_free[o])
            .fold(0, |m, o| m | 1 << o);
        let rows: Vec<u64> = self
            .rx
            .iter()
            .map(|r| r.xbar_request().map_or(0, |s| s as u64 & free))
            .collect();
        let mut mm = vec![0u64; PORTS];
        heuristic_into(&rows, PORTS, PASSES, &mut mm);
        let mut granted = [None::<u8>; PORTS];
        for o in 0..PORTS {
            let want = (0..PORTS)
                .filter(|&i| mm[i] >> o & 1 == 1)
                .fold(0u64, |m, i| m | 1 << i);
            // Each arbiter picks before it is served: `self`'s arbiters still hold the cycle's start state.
            if let Some(i) = self.xbar_arb[o].pick(want) {
                granted[i as usize] = Some(o as u8);
                self.xbar_arb[o].served(i);
            }
        }
        for (i, (rx, &g)) in self.rx.iter_mut().zip(&granted).enumerate() {
            match (rx.state, g) {
                (RxState::Wait { body, .. }, Some(o)) => {
                    rx.state = RxState::Xbar {
                        out: o,
                        held_sent: false,
                        body,
                    };
                    self.tx[o as usize].source = Source::Xbar(i as u8);
                }
                (RxState::Wait { set, body }, None) if rx.first_chunk_in() => {
                    rx.state = RxState::Choose { set, body };
                }
                _ => {}
            }
        }

        // One queue-output choice per cycle (LRS), least-loaded permitted unlocked output, among receivers whose
        // ready slot is empty: a receiver still holding its previous packet's last chunk must not lock another
        // output (docs/sp2-switch.md §5: that would make others wait on an output their packets never use).
        // The locks and the queue's counts are unchanged so far this cycle.
        let lock = self.lock;
        let unlocked = |o: usize| lock[o].is_none();
        let choosers: u64 = (0..PORTS)
            .filter(|&i| old.rx_ready[i].is_none() && matches!(old.rx_state[i], RxState::Choose { set, .. } if (0..PORTS).any(|o| set >> o & 1 == 1 && unlocked(o))))
            .fold(0, |m, i| m | 1 << i);
        if let Some(i) = self.choose_arb.pick(choosers) {
            let RxState::Choose { set, body } = old.rx_state[i as usize] else {
                unreachable!()
            };
            let o = (0..PORTS)
                .filter(|&o| set >> o & 1 == 1 && unlocked(o))
                .min_by_key(|&o| (self.cq.count(o), o))
                .expect("a chooser has an unlocked output");
            self.lock[o] = Some(i);
            self.rx[i as usize].state = RxState::Queue {
                out: o as u8,
                held_in: false,
                body,
            };
            self.choose_arb.served(i);
        }

        // Central queue: writes from the ready slots (as they were), reads for the transmitters.
        let mut cqi = CqInputs::default();
        for i in 0..PORTS {
            cqi.wr[i] = old.rx_ready[i];
            cqi.rd[i] = old.tx_wants[i];
        }
        let cqo = self.cq.eval(&cqi)?;
        self.cq.commit(&cqi, &cqo);
        if let Some(i) = cqo.wr_grant {
            let w = old.rx_ready[i as usize].expect("granted ready chunk");
            self.rx[i as usize].ready = None;
            if w.last {
                self.lock[w.out as usize] = None;
            }
        }
        if let Some(o) = cqo.rd_grant {
            self.tx[o as usize].reading = true;
        }

        // Crossbar and queue data paths of the receivers.
        for (i, (rx, g)) in self.rx.iter_mut().zip(granted).enumerate() {
            let room = match old.rx_state[i] {
                RxState::Xbar { out, .. } => {
                    old.tx_room[out as usize][old.rx_xbar[i].is_some() as usize]
                }
                _ => false,
            };
            // A receiver granted this cycle sends its held byte at once (the transmitter is idle).
            let room = room || g.is_some_and(|o| old.tx_room[o as usize][0]);
            rx.feed_xbar(room);
            if matches!(old.rx_state[i], RxState::Queue { .. }) || rx.asm_done.is_some() {
                rx.feed_queue();
            }
        }

        // Transmitters.
        for (o, (tx, &tok)) in self.tx.iter_mut().zip(token_in.iter()).enumerate() {
            let xb = match old.tx_source[o] {
                Source::Xbar(i) => old.rx_xbar[i as usize],
                _ => None,
            };
            let chunk = cqo.rd_data.filter(|c| c.out as usize == o);
            tx.cycle(xb, chunk, tok);
            if tx.credit as usize > RX_DEPTH {
                return Err(Sp2Error::CreditOverflow(o));
            }
        }

        // Links in.
        for (i, (rx, &l)) in self.rx.iter_mut().zip(link_in.iter()).enumerate() {
            if let Some(b) = l {
                if rx.fifo.len() >= RX_DEPTH {
                    return Err(Sp2Error::RxOverflow(i));
                }
                rx.fifo.push_back(b);
            }
        }
        self.cycle += 1;
        Ok(out)
    }

    /// Everything drained: no byte, chunk, lock or pending token left.
    pub fn is_idle(&self) -> bool {
        self.rx.iter().all(|r| r.is_idle() && r.tokens_owed == 0)
            && self.tx.iter().all(|t| t.is_idle())
            && self.cq.free() as usize == CQ_CHUNKS
            && self.lock.iter().all(|l| l.is_none())
    }

    /// Checks the queue's lists (every cycle in tests).
    pub fn check(&self) -> Result<(), Sp2Error> {
        Ok(self.cq.check()?)
    }
}

impl SwitchModel for Sp2Switch {
    fn step_pins(
        &mut self,
        link_in: &[Option<u8>; PORTS],
        token_in: &[bool; PORTS],
    ) -> Result<Sp2Outputs, String> {
        self.step(link_in, token_in).map_err(|e| e.to_string())
    }
    fn queue_chunks(&self) -> usize {
        self.cq.occupancy()
    }
    fn check_queue(&self) -> Result<(), String> {
        self.check().map_err(|e| e.to_string())
    }
    fn idle(&self) -> bool {
        self.is_idle() && self.cq.free() as usize == CQ_CHUNKS
    }
    fn packets_via(&self) -> (u64, u64) {
        (
            self.tx.iter().map(|t| t.packets_queue).sum(),
            self.tx.iter().map(|t| t.packets_xbar).sum(),
        )
    }
    fn outputs(&self) -> Sp2Outputs {
        Sp2Switch::outputs(self)
    }
    fn tx_credit(&self, p: usize) -> u16 {
        self.tx[p].credit
    }
    fn quiescent(&self) -> bool {
        // Checked by the network tests (an idle switch with nothing arriving keeps its state).
        self.is_idle()
    }
    fn skip_cycle(&mut self) {
        self.cycle += 1;
    }
    fn queue_free(&self) -> usize {
        self.cq.free() as usize
    }
    fn dump(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let counts: Vec<u8> = (0..PORTS).map(|o| self.cq.count(o)).collect();
        let _ = writeln!(
            out,
            "free {} counts {:?} locks {:?}",
            self.cq.free(),
            counts,
            self.lock
        );
        for (i, r) in self.rx.iter().enumerate() {
            let _ = writeln!(
                out,
                "  rx{i}: {:?} fifo {} ready {:?}",
                r.state,
                r.fifo.len(),
                r.ready.map(|w| w.out)
            );
        }
        for (o, t) in self.tx.iter().enumerate() {
            let _ = writeln!(
                out,
                "  tx{o}: {:?} credit {} fifo {} ser {}",
                t.source,
                t.credit,
                t.fifo.len(),
                t.ser.len()
            );
        }
        out
    }
}

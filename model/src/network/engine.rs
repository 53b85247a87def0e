//! The cycle-accurate core of the network simulator: switches with an input buffer of `depth` packets and a
//! one-packet output buffer on every port, joined by channels with credit-based flow control, on any
//! [`Topology`].
//!
//! **Buffers.** Input port i of a switch has a FIFO of [`FlowControl::depth`] packets (the thesis: 1); output
//! port q has a one-packet output buffer that drives the channel. A processor injects into the input buffer
//! its channel leads to and receives from the output buffer that feeds it.
//!
//! **One flow-control rule on every switch-to-switch channel** (whatever the evaluation order): the upstream
//! output keeps a credit count of free slots in the downstream input buffer; it sends its packet only with a
//! credit. A packet sent at edge t is written into the downstream buffer at edge t + L (L =
//! [`FlowControl::link_delay`]); the credit of a slot freed at edge t can be used at edge t + C, the
//! *credit delay*:
//! - C = L when L ≥ 1 (the credit travels back through L registers);
//! - C = 0 when L = 0 on a feed-forward network: a slot freed at an edge can be refilled at the same edge,
//!   i.e. `ready` is combinational from the sinks back through every stage — the thesis' switch
//!   (docs/switch2.md), bit for bit;
//! - C = 1 when L = 0 on a cyclic network (rings, meshes, tori, SP2 systems): a combinational ready around a
//!   cycle of switches would be a combinational loop, which no hardware has, so every channel gets one
//!   register in its credit path. This is an input-queued switch with credit flow control and a one-cycle
//!   credit return; with one-packet buffers each channel then carries at most one packet every two cycles.
//!
//! A slot is reused after a round trip of 2L + 1 cycles (2 when C = 1), so a channel runs at full rate
//! when depth ≥ 2L + 1 (depth ≥ 2 when C = 1). Processor channels are not switch-to-switch channels: a
//! processor injects when the input buffer has room or its head leaves in that cycle (combinational, it is
//! never in a loop), and a delivery happens when the processor's `sink_ready` is set.
//!
//! **Phase 1 (eval: compute, no state change but the allocators' pointers).** Switches are visited in a
//! fixed order, downstream first (needed only when C = 0, harmless otherwise). For switch s, output q
//! *sends* when its buffer is full and it has a credit — `credit[q] > 0`, or, when C = 0, the downstream
//! head leaves this cycle (already computed); q is *available* when its buffer is empty or sends. The
//! switch's [`HopRule`] (from the routing scheme) turns the heads' requests and the available outputs into
//! request rows; the [`Allocator`] (from the registry, `crate::allocator`) grants a matching.
//!
//! **Phase 2 (commit, the rising edge).** (a) sending outputs hand their packets to the channel (a
//! processor: delivered); (b) granted heads move input → output buffer (the hop is stripped) and return a
//! credit upstream; (c) packets whose link delay has elapsed enter their input buffers; (d) credits whose
//! delay has elapsed arrive; (e) processors whose offered packet met `ready` inject it. Each sub-step reads
//! only phase-1 results and writes disjoint state, so no result depends on visiting order. Every write
//! checks its buffer has room and every grant is checked to be a matching inside the requests (invariants,
//! reported as errors).
//!
//! Latency: 2 + L edges per switch (input → output buffer, output buffer → next input buffer); a packet
//! accepted at the edge of cycle t through S switches is delivered at edge t + 2S + (S − 1)·L at the
//! earliest.
//!
//! Headers: when a packet enters an input buffer its next hop is read and checked (non-empty, only
//! connected outputs) and kept as its request row, so phase 1 reads no packet memory. When
//! `max_radix × hops ≤ 128` bits the remaining header travels packed in the buffers (the DESIGN.md packet
//! word without its tag; stripping = shift right by the field width); otherwise it is read from the packet
//! store.

use super::packet::{Packets, NONE};
use super::NetError;
use crate::allocator::traits::{Out, Phase1};
use crate::allocator::{self, Allocator, NO_GRANT};
use crate::routing::hop::{Head, HeaderHop, HopHeader, HopRule};
use crate::topology::{Kind, Topology};
use std::sync::Arc;

/// Largest input-buffer depth (packets).
pub const MAX_DEPTH: u32 = 64;
/// Largest link delay (cycles).
pub const MAX_LINK_DELAY: u32 = 64;

/// The flow-control parameters of every switch-to-switch channel (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FlowControl {
    /// Input-buffer depth in packets, 1..=[`MAX_DEPTH`]. Thesis: 1.
    pub depth: u32,
    /// Link latency in cycles, 0..=[`MAX_LINK_DELAY`]. Thesis: 0.
    pub link_delay: u32,
}

impl Default for FlowControl {
    fn default() -> Self {
        FlowControl {
            depth: 1,
            link_delay: 0,
        }
    }
}

impl FlowControl {
    /// Checked constructor.
    pub fn new(depth: u32, link_delay: u32) -> Result<Self, NetError> {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(NetError::BadFlow(format!(
                "buffer depth {depth}: must be 1..={MAX_DEPTH} packets"
            )));
        }
        if link_delay > MAX_LINK_DELAY {
            return Err(NetError::BadFlow(format!(
                "link delay {link_delay}: must be 0..={MAX_LINK_DELAY} cycles"
            )));
        }
        Ok(FlowControl { depth, link_delay })
    }

    /// The thesis' flow control: one-packet buffers, no link delay.
    pub fn is_thesis(&self) -> bool {
        *self == FlowControl::default()
    }
}

/// What happened at the edge of one cycle.
#[derive(Debug, Clone, Default)]
pub struct StepIo {
    /// Processors whose offered packet entered the network.
    pub accepted: Vec<u32>,
    /// (processor, packet slot) delivered this cycle.
    pub delivered: Vec<(u32, u32)>,
}

/// A packet on a link: (downstream input port, slot, packed header).
type Flight = (u32, u32, u128);

/// An input port's FIFO bookkeeping.
#[derive(Debug, Clone, Copy)]
struct In {
    /// The output port feeding it over a switch-to-switch channel, else NONE.
    src: u32,
    /// Switch it belongs to.
    sw: u32,
    head: u8,
    count: u8,
}

/// One packet in an input FIFO.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    hw: u128,
    req: u64,
    key: u32,
    slot: u32,
}

/// The network: static structure plus buffer, credit and allocator state.
#[derive(Debug, Clone)]
pub struct Engine {
    // --- structure ---
    sw_elem: Vec<usize>,
    radix: Vec<u8>,
    base: Vec<u32>,
    /// Connected outputs of each switch.
    conn: Vec<u64>,
    /// Evaluation order (downstream first).
    order: Vec<u32>,
    /// Global input port each processor injects into (NONE if it has no output channel), and per processor
    /// the output port that feeds it (NONE if none).
    inject: Vec<u32>,
    feed: Vec<u32>,
    proc_elem: Vec<usize>,
    cyclic: bool,
    flow: FlowControl,
    credit_delay: u32,
    /// Credit delay 0: ready is combinational.
    comb: bool,
    /// Packed mode (see the module doc) and its field width.
    packed: bool,
    fw: u32,
    alloc: Arc<dyn Allocator>,
    /// The allocator uses the heads' ages: `born` keeps each buffered packet's generation cycle (low 32
    /// bits), parallel to `fifo`; empty otherwise.
    aged: bool,
    born: Vec<u32>,
    alloc_seed: u64,
    /// Allocator state of switch s: `astate[aoff[s]..aoff[s + 1]]`.
    aoff: Vec<u32>,
    rule: Box<dyn HopRule>,
    /// `rule.uses_destination()`, cached: entering packets' destinations are looked up only then.
    rule_dst: bool,
    // --- state ---
    depth: usize,
    outs: Vec<Out>,
    ins: Vec<In>,
    /// The packet at the head of each input (req 0: empty).
    heads: Vec<Head>,
    /// Input FIFOs, `depth` entries per input port.
    fifo: Vec<Entry>,
    astate: Vec<u8>,
    /// Packets held per switch (input and output buffers), for skipping empty switches.
    occ: Vec<u32>,
    /// Packets inside the network: in buffers and on links.
    population: usize,
    cycle: u64,
    /// Packets on links, by the edge (mod L + 1) at which they arrive.
    flights: Vec<Vec<Flight>>,
    /// Credits under way, by the edge (mod max(C, 1)) at which they arrive: output ports.
    credits: Vec<Vec<u32>>,
    // --- phase-1 results ---
    /// Grant of each input port this cycle (NO_GRANT: stays); entries beyond the ports never move.
    mv: Vec<u8>,
    /// Sending output ports.
    sends: Vec<u32>,
    /// Granted moves: (input port, output port).
    moves: Vec<(u32, u32)>,
    /// Scratch rows for the allocator (no per-switch initialisation).
    rows: Box<[u64; 64]>,
    grants: Box<[u8; 64]>,
}

impl Engine {
    /// Builds the engine for `topo` with the thesis' flow control and allocator (`asr-p2`) and source
    /// routing; processors are its nodes in order (`Topology::nodes`).
    pub fn new(topo: &Topology) -> Result<Self, NetError> {
        let els = topo.elements();
        let mut sw_index = vec![u32::MAX; els.len()];
        let mut proc_index = vec![u32::MAX; els.len()];
        let (mut sw_elem, mut radix, mut base, mut proc_elem) = (vec![], vec![], vec![], vec![]);
        let mut ports = 0u32;
        for (e, el) in els.iter().enumerate() {
            match el.kind {
                Kind::Switch { ports: r } => {
                    sw_index[e] = sw_elem.len() as u32;
                    sw_elem.push(e);
                    radix.push(r as u8);
                    base.push(ports);
                    ports += r;
                }
                Kind::Node => {
                    proc_index[e] = proc_elem.len() as u32;
                    proc_elem.push(e);
                }
            }
        }
        if proc_elem.is_empty() {
            return Err(NetError::NoProcessors);
        }
        let nsw = sw_elem.len();
        let np = ports as usize;
        let nproc = proc_elem.len();
        // Evaluation order, downstream first: switches by their height (the longest path to a switch with no
        // switch-to-switch output), ties in index order — the stages of a multistage network from the last to
        // the first, each in memory order. A cyclic switch graph has no such order (and needs none: its credits
        // are registered); it is evaluated in index order.
        let succ: Vec<Vec<usize>> = (0..nsw)
            .map(|s| {
                (0..radix[s] as u32)
                    .filter_map(|q| topo.output(sw_elem[s], q))
                    .filter_map(|p| {
                        let j = sw_index[p.elem];
                        (j != u32::MAX).then_some(j as usize)
                    })
                    .collect()
            })
            .collect();
        let mut pred: Vec<Vec<usize>> = vec![Vec::new(); nsw];
        let mut outdeg = vec![0usize; nsw];
        for (s, kids) in succ.iter().enumerate() {
            outdeg[s] = kids.len();
            for &j in kids {
                pred[j].push(s);
            }
        }
        let mut order: Vec<u32> = Vec::with_capacity(nsw);
        let mut layer: Vec<usize> = (0..nsw).filter(|&s| outdeg[s] == 0).collect();
        while !layer.is_empty() {
            order.extend(layer.iter().map(|&s| s as u32));
            let mut next = Vec::new();
            for &s in &layer {
                for &u in &pred[s] {
                    outdeg[u] -= 1;
                    if outdeg[u] == 0 {
                        next.push(u);
                    }
                }
            }
            next.sort_unstable();
            layer = next;
        }
        let cyclic = order.len() < nsw;
        if cyclic {
            order = (0..nsw as u32).collect();
        }
        let nowhere = (np + nproc) as u32;
        let mut outs = vec![
            Out {
                hw: 0,
                slot: NONE,
                credit: 0,
                tgt: nowhere,
                sw: 0,
            };
            np
        ];
        let mut ins = vec![
            In {
                src: NONE,
                sw: 0,
                head: 0,
                count: 0,
            };
            np
        ];
        let mut feed = vec![NONE; nproc];
        let mut conn = vec![0u64; nsw];
        for s in 0..nsw {
            for q in 0..radix[s] as u32 {
                let gq = (base[s] + q) as usize;
                ins[gq].sw = s as u32;
                outs[gq].sw = s as u32;
                if let Some(p) = topo.output(sw_elem[s], q) {
                    conn[s] |= 1 << q;
                    if proc_index[p.elem] != u32::MAX {
                        let d = proc_index[p.elem];
                        outs[gq].tgt = (np as u32) + d;
                        if feed[d as usize] == NONE {
                            feed[d as usize] = gq as u32;
                        }
                    } else {
                        let j = sw_index[p.elem] as usize;
                        let i = base[j] + p.port;
                        outs[gq].tgt = i;
                        ins[i as usize].src = gq as u32;
                    }
                }
            }
        }
        let inject = proc_elem
            .iter()
            .map(|&e| match topo.output(e, 0) {
                Some(p) if sw_index[p.elem] != u32::MAX => base[sw_index[p.elem] as usize] + p.port,
                _ => NONE,
            })
            .collect();
        let radix_max = radix.iter().copied().max().unwrap_or(1) as u32;
        let mut e = Engine {
            sw_elem,
            radix,
            base,
            conn,
            order,
            inject,
            feed,
            proc_elem,
            cyclic,
            flow: FlowControl::default(),
            credit_delay: 0,
            comb: true,
            packed: false,
            fw: radix_max,
            alloc: allocator::by_name(allocator::DEFAULT).expect("the default allocator exists"),
            aged: false,
            born: Vec::new(),
            alloc_seed: 0,
            aoff: Vec::new(),
            rule: Box::new(HeaderHop),
            rule_dst: false,
            depth: 1,
            outs,
            ins,
            heads: Vec::new(),
            fifo: Vec::new(),
            astate: Vec::new(),
            occ: Vec::new(),
            population: 0,
            cycle: 0,
            flights: Vec::new(),
            credits: Vec::new(),
            mv: Vec::new(),
            sends: Vec::new(),
            moves: Vec::new(),
            rows: Box::new([0; 64]),
            grants: Box::new([NO_GRANT; 64]),
        };
        e.reset();
        Ok(e)
    }

    /// Empties the network and sets every credit, pointer and buffer to its initial value.
    fn reset(&mut self) {
        let np = self.outs.len();
        let nproc = self.proc_elem.len();
        let b = self.flow.depth as usize;
        self.depth = b;
        self.credit_delay = if self.flow.link_delay > 0 {
            self.flow.link_delay
        } else {
            self.cyclic as u32
        };
        self.comb = self.credit_delay == 0;
        for o in self.outs.iter_mut() {
            o.slot = NONE;
            o.hw = 0;
            o.credit = if (o.tgt as usize) < np { b as i32 } else { 0 };
        }
        for i in self.ins.iter_mut() {
            i.head = 0;
            i.count = 0;
        }
        self.heads = vec![Head::default(); np];
        self.fifo = vec![
            Entry {
                slot: NONE,
                ..Default::default()
            };
            np * b
        ];
        self.born = vec![0; if self.aged { np * b } else { 0 }];
        self.occ = vec![0; self.sw_elem.len()];
        self.population = 0;
        self.cycle = 0;
        self.flights = vec![Vec::new(); self.flow.link_delay as usize + 1];
        self.credits = vec![Vec::new(); self.credit_delay.max(1) as usize];
        self.mv = vec![NO_GRANT; np + nproc + 1];
        self.sends = Vec::with_capacity(np);
        self.moves = Vec::with_capacity(np);
        self.reset_allocator();
    }

    fn reset_allocator(&mut self) {
        let mut off = vec![0u32; self.sw_elem.len() + 1];
        for s in 0..self.sw_elem.len() {
            off[s + 1] = off[s] + self.alloc.state_len(self.radix[s] as usize) as u32;
        }
        self.astate = vec![0; off[self.sw_elem.len()] as usize];
        for s in 0..self.sw_elem.len() {
            let st = &mut self.astate[off[s] as usize..off[s + 1] as usize];
            self.alloc.init(s, self.alloc_seed, st);
        }
        self.aoff = off;
    }

    /// Sets the flow control (empties the network).
    pub fn set_flow(&mut self, flow: FlowControl) -> Result<(), NetError> {
        let f = FlowControl::new(flow.depth, flow.link_delay)?;
        self.flow = f;
        self.reset();
        Ok(())
    }

    /// Builder form of [`Engine::set_flow`].
    pub fn with_flow(mut self, flow: FlowControl) -> Result<Self, NetError> {
        self.set_flow(flow)?;
        Ok(self)
    }

    /// The flow control in use (buffer depth, link delay).
    pub fn flow(&self) -> FlowControl {
        self.flow
    }

    /// Cycles from the edge a slot frees to the edge its credit can be used (see the module doc).
    pub fn credit_delay(&self) -> u32 {
        self.credit_delay
    }

    /// Whether the switch graph has a cycle (then the credit delay is at least 1).
    pub fn is_cyclic(&self) -> bool {
        self.cyclic
    }

    /// Sets the allocator (every switch's state back to its initial value).
    pub fn set_allocator(&mut self, a: Arc<dyn Allocator>) {
        self.aged = a.uses_age();
        self.alloc = a;
        // Packets already buffered count as born at cycle 0.
        self.born = vec![0; if self.aged { self.fifo.len() } else { 0 }];
        self.reset_allocator();
    }

    /// Builder form of [`Engine::set_allocator`] by registry name.
    pub fn with_allocator(mut self, name: &str) -> Result<Self, NetError> {
        let a = allocator::by_name(name).map_err(|e| NetError::BadFlow(e.to_string()))?;
        self.set_allocator(a);
        Ok(self)
    }

    /// The registry name of the allocator in use.
    pub fn allocator_name(&self) -> &'static str {
        self.alloc.name()
    }

    /// Re-initialises the allocators' state with `seed` (random allocators draw from it).
    pub fn seed_allocator(&mut self, seed: u64) {
        self.alloc_seed = seed;
        self.reset_allocator();
    }

    /// Sets the per-hop rule (the routing scheme's [`crate::routing::Routing::hop_rule`]).
    pub fn set_rule(&mut self, rule: Box<dyn HopRule>) {
        self.rule_dst = rule.uses_destination();
        self.rule = rule;
    }

    /// Per global output port: whether it leads to another switch.
    pub fn switch_links(&self) -> Vec<bool> {
        let np = self.outs.len();
        self.outs.iter().map(|o| (o.tgt as usize) < np).collect()
    }

    /// Element index of engine switch `s`.
    pub fn switch_elem(&self, s: usize) -> usize {
        self.sw_elem[s]
    }

    /// Processors in the network.
    pub fn processors(&self) -> usize {
        self.proc_elem.len()
    }
    /// Switches in the network.
    pub fn switches(&self) -> usize {
        self.sw_elem.len()
    }
    /// Packets inside the network (switch buffers and links).
    pub fn population(&self) -> usize {
        self.population
    }
    /// Element index of processor `p` in the topology.
    pub fn proc_elem(&self, p: usize) -> usize {
        self.proc_elem[p]
    }
    /// Whether processor `p` has a channel into the network.
    pub fn can_inject(&self, p: usize) -> bool {
        self.inject[p] != NONE
    }

    /// Chooses how headers travel for packets of at most `max_hops` hops: packed in the buffers (fast) when
    /// they fit in 128 bits, else read from the packet store. Call on an empty network.
    pub fn prepare(&mut self, max_hops: usize) {
        self.packed = self.fw < 64 && self.fw as usize * max_hops <= 128;
    }

    /// Whether headers travel packed in the buffers.
    pub fn is_packed(&self) -> bool {
        self.packed
    }

    /// Non-empty fields of a packed header.
    fn fields(&self, mut hw: u128) -> usize {
        let mask = (1u128 << self.fw) - 1;
        let mut k = 0;
        while hw != 0 {
            k += (hw & mask != 0) as usize;
            hw >>= self.fw;
        }
        k
    }

    /// Input ready of the channel processor `p` injects into (valid after phase 1 of this cycle).
    pub fn inject_ready(&self, p: usize) -> bool {
        let i = self.inject[p];
        i != NONE
            && ((self.ins[i as usize].count as usize) < self.depth
                || self.mv[i as usize] != NO_GRANT)
    }

    /// Phase 1: evaluates every switch. `sink_ready[p]`: processor p accepts a packet this cycle.
    /// Headers were checked when packets entered their input buffers, so this cannot fail.
    pub fn eval(&mut self, sink_ready: &[bool]) {
        for (&f, &r) in self.feed.iter().zip(sink_ready) {
            if f != NONE {
                self.outs[f as usize].credit = r as i32;
            }
        }
        self.rule.begin_cycle();
        let mut p = Phase1 {
            order: &self.order,
            base: &self.base,
            radix: &self.radix,
            occ: &self.occ,
            aoff: &self.aoff,
            outs: &self.outs,
            heads: &self.heads,
            comb: self.comb,
            rule: &*self.rule,
            mv: &mut self.mv,
            sends: &mut self.sends,
            moves: &mut self.moves,
            rows: &mut self.rows,
            grants: &mut self.grants,
            astate: &mut self.astate,
        };
        self.alloc.phase1(&mut p);
    }

    /// Phase 2: the edge. `offer[p]` = packet slot offered by processor p (NONE for none). Must follow
    /// [`Engine::eval`] with the same `sink_ready`.
    pub fn commit(
        &mut self,
        pk: &mut Packets,
        offer: &[u32],
        io: &mut StepIo,
    ) -> Result<(), NetError> {
        io.accepted.clear();
        io.delivered.clear();
        let np = self.outs.len() as u32;
        let t = self.cycle;
        let lanes = self.flights.len() as u64;
        let land = ((t + lanes - 1) % lanes) as usize;
        let cl = self.credits.len() as u64;
        let cland = ((t + cl - 1) % cl) as usize;
        // (a) output buffers hand over.
        for k in 0..self.sends.len() {
            let q = self.sends[k] as usize;
            let o = &mut self.outs[q];
            let (w, hw, d, sw) = (o.slot, o.hw, o.tgt, o.sw);
            o.slot = NONE;
            self.occ[sw as usize] -= 1;
            if d < np {
                o.credit -= 1;
                self.flights[land].push((d, w, hw));
            } else {
                self.population -= 1;
                let left = if self.packed {
                    self.fields(hw)
                } else {
                    pk.remaining(w)
                };
                if left != 0 {
                    let m = pk.meta(w);
                    return Err(NetError::HeaderLeft {
                        src: m.src,
                        seq: m.seq,
                        remaining: left,
                    });
                }
                io.delivered.push((d - np, w));
            }
        }
        // (b) moves input → output, stripping the hop; a credit goes back upstream.
        for k in 0..self.moves.len() {
            let (i, o) = self.moves[k];
            let (i, o) = (i as usize, o as usize);
            let g = self.mv[i];
            self.mv[i] = NO_GRANT;
            if self.heads[i].req >> g & 1 == 0 || self.outs[o].slot != NONE {
                return Err(self.bad_move(i, g));
            }
            let d = self.depth;
            let inp = &mut self.ins[i];
            let at = i * d + inp.head as usize;
            inp.head += 1;
            if inp.head as usize == d {
                inp.head = 0;
            }
            inp.count -= 1;
            let (up, more, next) = (inp.src, inp.count != 0, i * d + inp.head as usize);
            let e = self.fifo[at];
            self.heads[i] = if more {
                Head {
                    req: self.fifo[next].req,
                    key: self.fifo[next].key,
                    born: if self.aged { self.born[next] } else { 0 },
                }
            } else {
                Head::default()
            };
            let out = &mut self.outs[o];
            out.slot = e.slot;
            if self.packed {
                out.hw = e.hw >> self.fw;
            } else {
                pk.strip(e.slot);
            }
            if up != NONE {
                if self.credit_delay <= 1 {
                    // Usable from the next edge on (C = 0 used it combinationally already).
                    self.outs[up as usize].credit += 1;
                } else {
                    self.credits[cland].push(up);
                }
            }
        }
        // (c) packets whose link delay has elapsed enter the downstream input buffers.
        let now = (t % lanes) as usize;
        let mut fl = std::mem::take(&mut self.flights[now]);
        for &(i, w, hw) in &fl {
            if !self.put_input(pk, i as usize, w, hw) {
                return Err(self.bad_entry(pk, i as usize, w, hw));
            }
        }
        fl.clear();
        self.flights[now] = fl;
        // (d) credits whose delay has elapsed arrive.
        let now = (t % cl) as usize;
        let mut cr = std::mem::take(&mut self.credits[now]);
        for &q in &cr {
            self.outs[q as usize].credit += 1;
        }
        cr.clear();
        self.credits[now] = cr;
        // (e) injection.
        for (p, &w) in offer.iter().enumerate() {
            let i = self.inject[p];
            if w != NONE && i != NONE && (self.ins[i as usize].count as usize) < self.depth {
                let hw = if self.packed {
                    pk.pack(w, self.fw).map_err(|set| NetError::LeadsNowhere {
                        switch: self.sw_elem[self.ins[i as usize].sw as usize],
                        set,
                        src: pk.meta(w).src,
                        seq: pk.meta(w).seq,
                    })?
                } else {
                    0
                };
                if !self.put_input(pk, i as usize, w, hw) {
                    return Err(self.bad_entry(pk, i as usize, w, hw));
                }
                self.population += 1;
                io.accepted.push(p as u32);
            }
        }
        self.sends.clear();
        self.moves.clear();
        self.cycle += 1;
        Ok(())
    }

    /// The error of a granted move that breaks an invariant.
    #[cold]
    fn bad_move(&self, i: usize, g: u8) -> NetError {
        let s = self.ins[i].sw as usize;
        let b = self.base[s] as usize;
        if self.outs[b + g as usize].slot != NONE {
            NetError::DoubleOccupancy {
                switch: self.sw_elem[s],
                port: g as u32,
                output: true,
            }
        } else {
            NetError::BadGrant {
                switch: self.sw_elem[s],
                input: (i - b) as u32,
                output: g as u32,
                allocator: self.alloc.name(),
            }
        }
    }

    /// A packet enters input buffer `i`: the buffer must have room and the packet's next hop must name
    /// connected outputs of this switch (else the header is exhausted or leads nowhere). False: it cannot
    /// ([`Engine::bad_entry`] says why) and nothing changed.
    #[inline(always)]
    fn put_input(&mut self, pk: &Packets, i: usize, w: u32, hw: u128) -> bool {
        let inp = self.ins[i];
        let s = inp.sw as usize;
        let first = if self.packed {
            (hw & ((1u128 << self.fw) - 1)) as u64
        } else {
            pk.first(w)
        };
        let (req, key) = self.rule.enter(s, self.hop_header(pk, w, first));
        let c = inp.count as usize;
        if req == 0 || req & !self.conn[s] != 0 || c >= self.depth {
            return false;
        }
        let mut at = inp.head as usize + c;
        if at >= self.depth {
            at -= self.depth;
        }
        let born = if self.aged {
            let g = pk.meta(w).gen as u32;
            self.born[i * self.depth + at] = g;
            g
        } else {
            0
        };
        let head = Head { req, key, born };
        self.fifo[i * self.depth + at] = Entry {
            hw,
            req,
            key,
            slot: w,
        };
        if c == 0 {
            self.heads[i] = head;
        }
        self.ins[i].count += 1;
        self.occ[s] += 1;
        true
    }

    /// What the hop rule sees of packet `w` with next hop set `first`.
    #[inline(always)]
    fn hop_header(&self, pk: &Packets, w: u32, first: u64) -> HopHeader {
        let dst = if self.rule_dst { pk.meta(w).dst } else { 0 };
        HopHeader { first, dst }
    }

    /// The error of a packet that cannot enter input buffer `i`.
    #[cold]
    fn bad_entry(&self, pk: &Packets, i: usize, w: u32, hw: u128) -> NetError {
        let s = self.ins[i].sw as usize;
        let first = if self.packed {
            (hw & ((1u128 << self.fw) - 1)) as u64
        } else {
            pk.first(w)
        };
        let req = self.rule.enter(s, self.hop_header(pk, w, first)).0;
        let (src, seq) = (pk.meta(w).src, pk.meta(w).seq);
        if req == 0 {
            NetError::HeaderExhausted {
                switch: self.sw_elem[s],
                input: i as u32 - self.base[s],
                src,
                seq,
            }
        } else if req & !self.conn[s] != 0 {
            NetError::LeadsNowhere {
                switch: self.sw_elem[s],
                set: req,
                src,
                seq,
            }
        } else {
            NetError::DoubleOccupancy {
                switch: self.sw_elem[s],
                port: i as u32 - self.base[s],
                output: false,
            }
        }
    }

    /// One whole cycle.
    pub fn step(
        &mut self,
        pk: &mut Packets,
        offer: &[u32],
        sink_ready: &[bool],
        io: &mut StepIo,
    ) -> Result<(), NetError> {
        self.eval(sink_ready);
        self.commit(pk, offer, io)
    }

    /// The packet (slot or NONE) in the output buffer that feeds processor `p` — what the processor sees as
    /// `out_valid`/`out_data` this cycle.
    pub fn offered_to(&self, p: usize) -> Option<u32> {
        let f = self.feed[p];
        (f != NONE).then(|| self.outs[f as usize].slot)
    }
}

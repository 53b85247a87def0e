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
use crate::allocator::{self, Allocator, NO_GRANT};
use crate::routing::hop::{HeaderHop, HopRule};
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
    /// Switch of each global port.
    port_sw: Vec<u32>,
    /// Per output port: the input port it feeds (< ports), a processor (`ports + p`), or nowhere
    /// (`ports + processors`). Indexes `mv`.
    tgt: Vec<u32>,
    /// Per input port: the output port feeding it over a switch-to-switch channel, else NONE.
    src: Vec<u32>,
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
    alloc_seed: u64,
    /// Allocator state of switch s: `astate[aoff[s]..aoff[s + 1]]`.
    aoff: Vec<u32>,
    rule: Box<dyn HopRule>,
    // --- state ---
    depth: usize,
    /// Input FIFOs, `depth` entries per input port: slot, packed header, request row, rule key.
    qslot: Vec<u32>,
    qhw: Vec<u128>,
    qreq: Vec<u64>,
    qkey: Vec<u32>,
    qhead: Vec<u8>,
    qcount: Vec<u8>,
    /// Request row and key of the head of each input (0: empty).
    req: Vec<u64>,
    key: Vec<u32>,
    ob: Vec<u32>,
    ohw: Vec<u128>,
    /// Credits of each output port (free slots downstream as known upstream; the sink's ready for outputs
    /// that feed processors). May be −1 inside a commit when C = 0.
    credit: Vec<i32>,
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
    sends: Vec<u32>,
    moves: Vec<u32>,
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
        // Evaluation order: DFS post-order over switch→switch channels (downstream finishes first).
        let succ = |s: usize| -> Vec<usize> {
            (0..radix[s] as u32)
                .filter_map(|q| topo.output(sw_elem[s], q))
                .filter_map(|p| {
                    let j = sw_index[p.elem];
                    (j != u32::MAX).then_some(j as usize)
                })
                .collect()
        };
        let mut state = vec![0u8; nsw]; // 0 new, 1 on stack, 2 done
        let mut order = Vec::with_capacity(nsw);
        for root in 0..nsw {
            if state[root] != 0 {
                continue;
            }
            let mut stack = vec![(root, succ(root), 0usize)];
            state[root] = 1;
            while let Some((v, kids, k)) = stack.last_mut() {
                if *k < kids.len() {
                    let w = kids[*k];
                    *k += 1;
                    if state[w] == 0 {
                        state[w] = 1;
                        let kw = succ(w);
                        stack.push((w, kw, 0));
                    }
                } else {
                    state[*v] = 2;
                    order.push(*v as u32);
                    stack.pop();
                }
            }
        }
        let mut pos = vec![0usize; nsw];
        for (k, &s) in order.iter().enumerate() {
            pos[s as usize] = k;
        }
        let nowhere = (np + nproc) as u32;
        let mut tgt = vec![nowhere; np];
        let mut src = vec![NONE; np];
        let mut feed = vec![NONE; nproc];
        let mut conn = vec![0u64; nsw];
        let mut port_sw = vec![0u32; np];
        let mut cyclic = false;
        for s in 0..nsw {
            for q in 0..radix[s] as u32 {
                let gq = (base[s] + q) as usize;
                port_sw[gq] = s as u32;
                if let Some(p) = topo.output(sw_elem[s], q) {
                    conn[s] |= 1 << q;
                    if proc_index[p.elem] != u32::MAX {
                        let d = proc_index[p.elem];
                        tgt[gq] = (np as u32) + d;
                        if feed[d as usize] == NONE {
                            feed[d as usize] = gq as u32;
                        }
                    } else {
                        let j = sw_index[p.elem] as usize;
                        let i = base[j] + p.port;
                        tgt[gq] = i;
                        src[i as usize] = gq as u32;
                        cyclic |= pos[j] >= pos[s];
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
            port_sw,
            tgt,
            src,
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
            alloc_seed: 0,
            aoff: Vec::new(),
            rule: Box::new(HeaderHop),
            depth: 1,
            qslot: Vec::new(),
            qhw: Vec::new(),
            qreq: Vec::new(),
            qkey: Vec::new(),
            qhead: Vec::new(),
            qcount: Vec::new(),
            req: Vec::new(),
            key: Vec::new(),
            ob: Vec::new(),
            ohw: Vec::new(),
            credit: Vec::new(),
            astate: Vec::new(),
            occ: Vec::new(),
            population: 0,
            cycle: 0,
            flights: Vec::new(),
            credits: Vec::new(),
            mv: Vec::new(),
            sends: Vec::new(),
            moves: Vec::new(),
        };
        e.reset();
        Ok(e)
    }

    /// Empties the network and sets every credit, pointer and buffer to its initial value.
    fn reset(&mut self) {
        let np = self.tgt.len();
        let nproc = self.proc_elem.len();
        let b = self.flow.depth as usize;
        self.depth = b;
        self.credit_delay = if self.flow.link_delay > 0 {
            self.flow.link_delay
        } else {
            self.cyclic as u32
        };
        self.comb = self.credit_delay == 0;
        self.qslot = vec![NONE; np * b];
        self.qhw = vec![0; np * b];
        self.qreq = vec![0; np * b];
        self.qkey = vec![0; np * b];
        self.qhead = vec![0; np];
        self.qcount = vec![0; np];
        self.req = vec![0; np];
        self.key = vec![0; np];
        self.ob = vec![NONE; np];
        self.ohw = vec![0; np];
        self.credit = (0..np)
            .map(|q| {
                if (self.tgt[q] as usize) < np {
                    b as i32
                } else {
                    0
                }
            })
            .collect();
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
        self.alloc = a;
        self.reset_allocator();
    }

    /// Builder form of [`Engine::set_allocator`] by registry name.
    pub fn with_allocator(mut self, name: &str) -> Result<Self, NetError> {
        let a = allocator::by_name(name).map_err(|e| NetError::BadFlow(e.to_string()))?;
        self.set_allocator(a);
        Ok(self)
    }

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
        self.rule = rule;
    }

    /// Per global output port: whether it leads to another switch.
    pub fn switch_links(&self) -> Vec<bool> {
        let np = self.tgt.len();
        self.tgt.iter().map(|&t| (t as usize) < np).collect()
    }

    /// Element index of engine switch `s`.
    pub fn switch_elem(&self, s: usize) -> usize {
        self.sw_elem[s]
    }

    pub fn processors(&self) -> usize {
        self.proc_elem.len()
    }
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
            && ((self.qcount[i as usize] as usize) < self.depth || self.mv[i as usize] != NO_GRANT)
    }

    /// Phase 1: evaluates every switch. `sink_ready[p]`: processor p accepts a packet this cycle.
    /// Headers were checked when packets entered their input buffers, so this cannot fail.
    pub fn eval(&mut self, sink_ready: &[bool]) {
        for (p, &f) in self.feed.iter().enumerate() {
            if f != NONE {
                self.credit[f as usize] = sink_ready[p] as i32;
            }
        }
        self.rule.begin_cycle();
        for k in 0..self.order.len() {
            let s = self.order[k] as usize;
            if self.occ[s] != 0 {
                self.eval_switch(s);
            }
        }
    }

    /// Phase 1 for switch `s` (holding at least one packet).
    #[inline]
    fn eval_switch(&mut self, s: usize) {
        let b = self.base[s] as usize;
        let r = self.radix[s] as usize;
        let mut avail = 0u64;
        let mut waiting = 0u64;
        for k in 0..r {
            let q = b + k;
            let full = self.ob[q] != NONE;
            let rd = self.credit[q] > 0 || (self.comb && self.mv[self.tgt[q] as usize] != NO_GRANT);
            if full && rd {
                self.sends.push(q as u32);
            }
            avail |= ((!full || rd) as u64) << k;
            waiting |= self.req[q];
        }
        if waiting == 0 {
            return;
        }
        let mut a = [0u64; 64];
        self.rule.requests(
            s,
            b,
            &self.req[b..b + r],
            &self.key[b..b + r],
            avail,
            &mut a[..r],
        );
        if a[..r].iter().all(|&x| x == 0) {
            return;
        }
        let mut g = [NO_GRANT; 64];
        let st = &mut self.astate[self.aoff[s] as usize..self.aoff[s + 1] as usize];
        self.alloc.allocate(&a[..r], st, &mut g[..r]);
        for (k, &x) in g[..r].iter().enumerate() {
            if x != NO_GRANT {
                self.mv[b + k] = x;
                self.moves.push((b + k) as u32);
            }
        }
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
        let np = self.tgt.len() as u32;
        let t = self.cycle;
        let lanes = self.flights.len() as u64;
        let land = ((t + lanes - 1) % lanes) as usize;
        let cl = self.credits.len() as u64;
        let cland = ((t + cl - 1) % cl) as usize;
        // (a) output buffers hand over.
        for k in 0..self.sends.len() {
            let q = self.sends[k] as usize;
            let w = self.ob[q];
            let hw = self.ohw[q];
            self.ob[q] = NONE;
            self.occ[self.port_sw[q] as usize] -= 1;
            let d = self.tgt[q];
            if d < np {
                self.credit[q] -= 1;
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
            let i = self.moves[k] as usize;
            let g = self.mv[i];
            self.mv[i] = NO_GRANT;
            let s = self.port_sw[i] as usize;
            let b = self.base[s] as usize;
            let o = b + g as usize;
            if self.req[i] >> g & 1 == 0 {
                return Err(NetError::BadGrant {
                    switch: self.sw_elem[s],
                    input: (i - b) as u32,
                    output: g as u32,
                    allocator: self.alloc.name(),
                });
            }
            if self.ob[o] != NONE {
                return Err(NetError::DoubleOccupancy {
                    switch: self.sw_elem[s],
                    port: g as u32,
                    output: true,
                });
            }
            let h = i * self.depth + self.qhead[i] as usize;
            let w = self.qslot[h];
            let hw = self.qhw[h];
            self.qslot[h] = NONE;
            self.qhead[i] += 1;
            if self.qhead[i] as usize == self.depth {
                self.qhead[i] = 0;
            }
            self.qcount[i] -= 1;
            if self.qcount[i] == 0 {
                self.req[i] = 0;
            } else {
                let h = i * self.depth + self.qhead[i] as usize;
                self.req[i] = self.qreq[h];
                self.key[i] = self.qkey[h];
            }
            if self.packed {
                self.ohw[o] = hw >> self.fw;
            } else {
                pk.strip(w);
            }
            self.ob[o] = w;
            let up = self.src[i];
            if up != NONE {
                self.credits[cland].push(up);
            }
        }
        // (c) packets whose link delay has elapsed enter the downstream input buffers.
        let now = (t % lanes) as usize;
        let mut fl = std::mem::take(&mut self.flights[now]);
        for &(i, w, hw) in &fl {
            self.put_input(pk, i as usize, w, hw)?;
        }
        fl.clear();
        self.flights[now] = fl;
        // (d) credits whose delay has elapsed arrive.
        let now = (t % cl) as usize;
        let mut cr = std::mem::take(&mut self.credits[now]);
        for &q in &cr {
            self.credit[q as usize] += 1;
        }
        cr.clear();
        self.credits[now] = cr;
        // (e) injection.
        for (p, &w) in offer.iter().enumerate() {
            let i = self.inject[p];
            if w != NONE && i != NONE && (self.qcount[i as usize] as usize) < self.depth {
                let hw = if self.packed {
                    pk.pack(w, self.fw).map_err(|set| NetError::LeadsNowhere {
                        switch: self.sw_elem[self.port_sw[i as usize] as usize],
                        set,
                        src: pk.meta(w).src,
                        seq: pk.meta(w).seq,
                    })?
                } else {
                    0
                };
                self.put_input(pk, i as usize, w, hw)?;
                self.population += 1;
                io.accepted.push(p as u32);
            }
        }
        self.sends.clear();
        self.moves.clear();
        self.cycle += 1;
        Ok(())
    }

    /// A packet enters input buffer `i`: the buffer must have room and the packet's next hop must name
    /// connected outputs of this switch (else the header is exhausted or leads nowhere).
    #[inline]
    fn put_input(&mut self, pk: &Packets, i: usize, w: u32, hw: u128) -> Result<(), NetError> {
        let s = self.port_sw[i] as usize;
        let first = if self.packed {
            (hw & ((1u128 << self.fw) - 1)) as u64
        } else {
            pk.first(w)
        };
        let (h, key) = self.rule.enter(s, pk, w, first);
        if h == 0 {
            return Err(NetError::HeaderExhausted {
                switch: self.sw_elem[s],
                input: i as u32 - self.base[s],
                src: pk.meta(w).src,
                seq: pk.meta(w).seq,
            });
        }
        if h & !self.conn[s] != 0 {
            return Err(NetError::LeadsNowhere {
                switch: self.sw_elem[s],
                set: h,
                src: pk.meta(w).src,
                seq: pk.meta(w).seq,
            });
        }
        let c = self.qcount[i] as usize;
        if c >= self.depth {
            return Err(NetError::DoubleOccupancy {
                switch: self.sw_elem[s],
                port: i as u32 - self.base[s],
                output: false,
            });
        }
        let mut at = self.qhead[i] as usize + c;
        if at >= self.depth {
            at -= self.depth;
        }
        let at = i * self.depth + at;
        self.qslot[at] = w;
        self.qhw[at] = hw;
        self.qreq[at] = h;
        self.qkey[at] = key;
        if c == 0 {
            self.req[i] = h;
            self.key[i] = key;
        }
        self.qcount[i] += 1;
        self.occ[s] += 1;
        Ok(())
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
        (f != NONE).then(|| self.ob[f as usize])
    }
}

//! The cycle-accurate core of the network simulator: switches with one-packet input and output buffers on
//! every port, joined by channels, on any [`Topology`].
//!
//! Per switch port p there is an input buffer `ib[p]` and an output buffer `ob[p]`; a processor injects
//! into the input buffer its channel leads to and receives from the output buffer that feeds it. One cycle:
//!
//! When a packet enters an input buffer its next hop is checked (non-empty, only connected outputs) and kept
//! as that input's request row, so phase 1 reads no packet memory.
//!
//! **Phase 1 (compute, no state change except round-robin pointers).** Switches are visited in a fixed
//! evaluation order, downstream first. For switch s, output q is *available* when `ob[q]` is empty or its
//! packet leaves this cycle, i.e. its downstream side is ready: a processor's `sink_ready`, or the
//! downstream switch's `in_ready` (already computed: combinational ready, exactly docs/switch2.md). On a
//! channel that closes a cycle in the switch graph (a back edge of the evaluation order — only in cyclic
//! topologies such as tori), `ready` is *registered*: the downstream input buffer is empty at the start of
//! the cycle. The usable requests are `A[i] = first_hop(ib[i]) & avail`; then
//! - radix 2: [`crate::switch2::arbitrate`] — the one rule, shared with `Switch2`;
//! - radix > 2: the matching heuristic (`matcher::heuristic_into`, 2 passes) on `A`, then each output that
//!   the heuristic gave to several rows is granted to the first of them at or after that output's
//!   round-robin pointer, which then moves past the winner; losers wait for the next cycle.
//!
//! `in_ready[i] = ib[i] empty | ib[i] moves`.
//!
//! **Phase 2 (commit, the rising edge).** (a) every output buffer whose downstream is ready hands its packet
//! over (to a processor: delivered; to a switch: into a temporary); (b) every move `ib[i] → ob[q]` happens,
//! stripping the hop; (c) the handed-over packets enter the downstream input buffers; (d) processors whose
//! offered packet met `in_ready` inject it. Each sub-step reads only phase-1 results and writes disjoint
//! buffers, so no result depends on the visiting order. Every write checks that the buffer is empty
//! (invariant: no buffer ever holds two packets).
//!
//! Latency: 2 edges per switch (input→output buffer, output buffer→next input buffer); a packet accepted at
//! the edge of cycle t through S switches is delivered at the edge of cycle t + 2S at the earliest.

use super::packet::{Packets, NONE};
use super::NetError;
use crate::matcher::heuristic_into;
use crate::switch2::{arbitrate, Pointers};
use crate::topology::{Kind, Topology};

/// Where a switch output leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// Input buffer (global port index) of a switch; `comb` = combinational ready.
    Switch { port: u32, sw: u32, comb: bool },
    /// A processor (index in the processor list).
    Proc(u32),
    /// Unconnected.
    Nothing,
}

/// The network: static structure plus buffer and arbiter state.
#[derive(Debug, Clone)]
pub struct Engine {
    /// Element index of each switch, and its radix and first global port.
    sw_elem: Vec<usize>,
    radix: Vec<u8>,
    base: Vec<u32>,
    /// Connected outputs of each switch.
    conn: Vec<u64>,
    order: Vec<u32>,
    target: Vec<Target>,
    /// Global input port each processor injects into (NONE if it has no output channel), and its switch.
    inject: Vec<u32>,
    inject_sw: Vec<u32>,
    /// Element index of each processor.
    proc_elem: Vec<usize>,
    /// State.
    pub(crate) ib: Vec<u32>,
    pub(crate) ob: Vec<u32>,
    /// First hop of the packet in each input buffer (0 when empty): the request row.
    req: Vec<u64>,
    /// Packed mode: the remaining header of each buffered packet in `fw`-bit fields (hop 0 lowest), as
    /// the DESIGN.md packet word without its tag. Used when `fw × max_hops ≤ 128`; otherwise the header is
    /// read from the packet store.
    packed: bool,
    fw: u32,
    ihw: Vec<u128>,
    ohw: Vec<u128>,
    ptr: Vec<Pointers>,
    rr: Vec<u8>,
    /// Per-switch count of packets held (for skipping empty switches).
    occ: Vec<u32>,
    population: usize,
    /// Phase-1 scratch.
    in_ready: Vec<bool>,
    mv: Vec<u8>,
    go: Vec<bool>,
    handed: Vec<(u32, u32, u32, u128)>,
    /// Per-hop routing, when set (instead of the packets' headers).
    per_hop: Option<Box<PerHopState>>,
}

/// Per-hop routing (seed 003's policies) instead of source-routed headers: for every switch and destination
/// processor, the eligible output ports in priority order. A packet in an input buffer takes the first port
/// of its list whose output is available this cycle (inputs served round-robin); a switch-to-switch output
/// is unavailable in a cycle with probability `fail` (seed 003's 1 − p), independently.
#[derive(Debug, Clone)]
pub struct PerHop {
    /// `order[s][d]`: ports of engine switch `s` toward processor `d`, best first (empty: no route).
    pub order: Vec<Vec<Vec<u8>>>,
    pub fail: f64,
    pub seed: u64,
}

#[derive(Debug, Clone)]
struct PerHopState {
    table: PerHop,
    rng: crate::rng::Rng,
    /// Destination processor of the packet in each input buffer.
    dst: Vec<u32>,
    /// Output ports unavailable this cycle.
    down: Vec<bool>,
}

/// What happened at the edge of one cycle.
#[derive(Debug, Clone, Default)]
pub struct StepIo {
    /// Processors whose offered packet entered the network.
    pub accepted: Vec<u32>,
    /// (processor, packet slot) delivered this cycle.
    pub delivered: Vec<(u32, u32)>,
}

const NO_MOVE: u8 = u8::MAX;

impl Engine {
    /// Builds the engine for `topo`; processors are its nodes in order (`Topology::nodes`).
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
        let mut target = vec![Target::Nothing; ports as usize];
        let mut conn = vec![0u64; nsw];
        for s in 0..nsw {
            for q in 0..radix[s] as u32 {
                if let Some(p) = topo.output(sw_elem[s], q) {
                    conn[s] |= 1 << q;
                    target[(base[s] + q) as usize] = if proc_index[p.elem] != u32::MAX {
                        Target::Proc(proc_index[p.elem])
                    } else {
                        let j = sw_index[p.elem] as usize;
                        Target::Switch {
                            port: base[j] + p.port,
                            sw: j as u32,
                            comb: pos[j] < pos[s],
                        }
                    };
                }
            }
        }
        let (inject, inject_sw) = proc_elem
            .iter()
            .map(|&e| match topo.output(e, 0) {
                Some(p) if sw_index[p.elem] != u32::MAX => {
                    let j = sw_index[p.elem];
                    (base[j as usize] + p.port, j)
                }
                _ => (NONE, NONE),
            })
            .unzip();
        let np = ports as usize;
        let radix_max = radix.iter().copied().max().unwrap_or(1) as u32;
        Ok(Engine {
            sw_elem,
            radix,
            base,
            conn,
            order,
            target,
            inject,
            inject_sw,
            proc_elem,
            ib: vec![NONE; np],
            ob: vec![NONE; np],
            req: vec![0; np],
            packed: false,
            fw: radix_max,
            ihw: vec![0; np],
            ohw: vec![0; np],
            ptr: vec![Pointers::default(); nsw],
            rr: vec![0; np],
            occ: vec![0; nsw],
            population: 0,
            in_ready: vec![true; np],
            mv: vec![NO_MOVE; np],
            go: vec![false; np],
            handed: Vec::new(),
            per_hop: None,
        })
    }

    /// Routes per hop by `t` instead of by headers (call on an empty network). `t.order` must have one
    /// entry per switch and per processor.
    pub fn set_per_hop(&mut self, t: PerHop) -> Result<(), String> {
        if t.order.len() != self.sw_elem.len()
            || t.order.iter().any(|o| o.len() != self.proc_elem.len())
        {
            return Err(format!(
                "per-hop table is {} switches × ?, network has {} switches and {} processors",
                t.order.len(),
                self.sw_elem.len(),
                self.proc_elem.len()
            ));
        }
        if !(0.0..1.0).contains(&t.fail) {
            return Err(format!(
                "link failure probability {} outside [0, 1)",
                t.fail
            ));
        }
        let np = self.ib.len();
        let rng = crate::rng::stream(t.seed, 0x9e7);
        self.per_hop = Some(Box::new(PerHopState {
            table: t,
            rng,
            dst: vec![0; np],
            down: vec![false; np],
        }));
        Ok(())
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
    /// Packets in switch buffers.
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

    #[inline]
    fn ready(&self, t: Target, sink_ready: &[bool]) -> bool {
        match t {
            Target::Switch { port, comb, .. } => {
                if comb {
                    self.in_ready[port as usize]
                } else {
                    self.ib[port as usize] == NONE
                }
            }
            Target::Proc(p) => sink_ready[p as usize],
            Target::Nothing => false,
        }
    }

    /// Phase 1 for switch `s`.
    #[inline]
    fn eval_switch(&mut self, s: usize, sink_ready: &[bool]) {
        let b = self.base[s] as usize;
        let r = self.radix[s] as usize;
        if self.occ[s] == 0 {
            for p in b..b + r {
                self.in_ready[p] = true;
                self.go[p] = false;
                self.mv[p] = NO_MOVE;
            }
            return;
        }
        if self.per_hop.is_some() {
            self.eval_switch_per_hop(s, sink_ready);
            return;
        }
        if r == 2 {
            // The docs/switch2.md rule, exactly as `Switch2::eval`.
            let f0 = self.ob[b] != NONE;
            let f1 = self.ob[b + 1] != NONE;
            let r0 = self.ready(self.target[b], sink_ready);
            let r1 = self.ready(self.target[b + 1], sink_ready);
            self.go[b] = f0 && r0;
            self.go[b + 1] = f1 && r1;
            let avail = (!f0 || r0) as u64 | (((!f1 || r1) as u64) << 1);
            let a0 = (self.req[b] & avail) as u8;
            let a1 = (self.req[b + 1] & avail) as u8;
            let d = arbitrate([a0, a1], self.ptr[s]);
            self.ptr[s] = d.next;
            self.mv[b] = d.moves[0].unwrap_or(NO_MOVE);
            self.mv[b + 1] = d.moves[1].unwrap_or(NO_MOVE);
            self.in_ready[b] = self.ib[b] == NONE || d.moves[0].is_some();
            self.in_ready[b + 1] = self.ib[b + 1] == NONE || d.moves[1].is_some();
            return;
        }
        let avail = self.outputs_available(b, r, sink_ready);
        let mut a = [0u64; 64];
        for (i, ai) in a.iter_mut().enumerate().take(r) {
            self.mv[b + i] = NO_MOVE;
            *ai = self.req[b + i] & avail;
        }
        let mut m = [0u64; 64];
        heuristic_into(&a[..r], r, 2, &mut m[..r]);
        let mut claimed = 0u64;
        for &x in &m[..r] {
            claimed |= x;
        }
        while claimed != 0 {
            let q = claimed.trailing_zeros() as usize;
            claimed &= claimed - 1;
            let start = self.rr[b + q] as usize;
            let winner = (0..r)
                .map(|k| (start + k) % r)
                .find(|&i| m[i] >> q & 1 == 1);
            if let Some(i) = winner {
                self.mv[b + i] = q as u8;
                self.rr[b + q] = ((i + 1) % r) as u8;
            }
        }
        for i in 0..r {
            self.in_ready[b + i] = self.ib[b + i] == NONE || self.mv[b + i] != NO_MOVE;
        }
    }

    /// Sets `go` (an output buffer's packet leaves this cycle) for the ports `b..b + r` and returns the outputs
    /// that can take a packet this cycle: empty, or emptied this cycle.
    fn outputs_available(&mut self, b: usize, r: usize, sink_ready: &[bool]) -> u64 {
        let mut avail = 0u64;
        for q in 0..r {
            let full = self.ob[b + q] != NONE;
            let rd = self.ready(self.target[b + q], sink_ready);
            self.go[b + q] = full && rd;
            if !full || rd {
                avail |= 1 << q;
            }
        }
        avail
    }

    /// Per-hop mode: each waiting packet takes the first available, unclaimed port of its priority list;
    /// inputs are served round-robin (the pointer advances every cycle).
    fn eval_switch_per_hop(&mut self, s: usize, sink_ready: &[bool]) {
        let b = self.base[s] as usize;
        let r = self.radix[s] as usize;
        let mut avail = self.outputs_available(b, r, sink_ready);
        let ph = self.per_hop.as_ref().expect("per-hop mode");
        for q in 0..r {
            if ph.down[b + q] {
                avail &= !(1 << q);
            }
        }
        let start = self.rr[b] as usize;
        let mut claimed = 0u64;
        for k in 0..r {
            let i = (start + k) % r;
            self.mv[b + i] = NO_MOVE;
            if self.ib[b + i] == NONE {
                continue;
            }
            let list = &ph.table.order[s][ph.dst[b + i] as usize];
            if let Some(&q) = list.iter().find(|&&q| (avail & !claimed) >> q & 1 == 1) {
                self.mv[b + i] = q;
                claimed |= 1 << q;
            }
        }
        self.rr[b] = ((start + 1) % r) as u8;
        for i in 0..r {
            self.in_ready[b + i] = self.ib[b + i] == NONE || self.mv[b + i] != NO_MOVE;
        }
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
        i != NONE && self.in_ready[i as usize]
    }

    /// Phase 1: evaluates every switch. `sink_ready[p]`: processor p accepts a packet this cycle.
    /// Headers were checked when packets entered their input buffers, so this cannot fail.
    pub fn eval(&mut self, sink_ready: &[bool]) {
        if let Some(ph) = self.per_hop.as_mut() {
            use rand::Rng as _;
            if ph.table.fail > 0.0 {
                for (p, t) in self.target.iter().enumerate() {
                    ph.down[p] =
                        matches!(t, Target::Switch { .. }) && ph.rng.gen_bool(ph.table.fail);
                }
            }
        }
        for k in 0..self.order.len() {
            let s = self.order[k] as usize;
            self.eval_switch(s, sink_ready);
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
        self.handed.clear();
        let nsw = self.sw_elem.len();
        // (a) output buffers hand over.
        for s in 0..nsw {
            if self.occ[s] == 0 {
                continue;
            }
            let b = self.base[s] as usize;
            for p in b..b + self.radix[s] as usize {
                if !self.go[p] && self.ob[p] != NONE && self.per_hop.is_some() {
                    // Per-hop mode: an output buffer's packet that cannot leave this cycle is delayed.
                    pk.meta_mut(self.ob[p]).delayed = true;
                }
                if self.go[p] {
                    let w = self.ob[p];
                    let hw = self.ohw[p];
                    self.ob[p] = NONE;
                    self.occ[s] -= 1;
                    self.population -= 1;
                    match self.target[p] {
                        Target::Proc(d) => {
                            let left = if self.per_hop.is_some() {
                                0
                            } else if self.packed {
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
                            io.delivered.push((d, w))
                        }
                        Target::Switch { port, sw, .. } => self.handed.push((port, sw, w, hw)),
                        Target::Nothing => unreachable!("go on an unconnected output"),
                    }
                }
            }
            // (b) moves input → output, stripping the hop.
            for i in b..b + self.radix[s] as usize {
                let q = self.mv[i];
                if q != NO_MOVE {
                    let w = self.ib[i];
                    let o = b + q as usize;
                    if self.ob[o] != NONE {
                        return Err(NetError::DoubleOccupancy {
                            switch: self.sw_elem[s],
                            port: q as u32,
                            output: true,
                        });
                    }
                    self.ib[i] = NONE;
                    self.req[i] = 0;
                    if self.per_hop.is_some() {
                        // no header to strip
                    } else if self.packed {
                        self.ohw[o] = self.ihw[i] >> self.fw;
                    } else {
                        pk.strip(w);
                    }
                    self.ob[o] = w;
                }
            }
            // Per-hop mode: a packet that stays in a buffer this cycle is delayed.
            if self.per_hop.is_some() {
                for p in b..b + self.radix[s] as usize {
                    if self.ib[p] != NONE && self.mv[p] == NO_MOVE {
                        pk.meta_mut(self.ib[p]).delayed = true;
                    }
                }
            }
        }
        // (c) handed-over packets enter the downstream input buffers.
        for k in 0..self.handed.len() {
            let (port, sw, w, hw) = self.handed[k];
            self.put_input(pk, port, sw as usize, w, hw)?;
        }
        // (d) injection.
        for (p, &w) in offer.iter().enumerate() {
            if w != NONE && self.inject_ready(p) {
                let hw = if self.packed {
                    pk.pack(w, self.fw).map_err(|set| NetError::LeadsNowhere {
                        switch: self.sw_elem[self.inject_sw[p] as usize],
                        set,
                        src: pk.meta(w).src,
                        seq: pk.meta(w).seq,
                    })?
                } else {
                    0
                };
                self.put_input(pk, self.inject[p], self.inject_sw[p] as usize, w, hw)?;
                io.accepted.push(p as u32);
            }
        }
        Ok(())
    }

    #[inline]
    /// A packet enters an input buffer: the buffer must be empty and the packet's next hop must name
    /// connected outputs of this switch (else the header is exhausted or leads nowhere).
    fn put_input(
        &mut self,
        pk: &Packets,
        port: u32,
        s: usize,
        w: u32,
        hw: u128,
    ) -> Result<(), NetError> {
        let port = port as usize;
        let h = if let Some(ph) = self.per_hop.as_mut() {
            // Per-hop mode: the request is the eligible set toward the packet's destination.
            let d = pk.meta(w).dst;
            ph.dst[port] = d;
            let list = &ph.table.order[s][d as usize];
            if list.is_empty() {
                return Err(NetError::LeadsNowhere {
                    switch: self.sw_elem[s],
                    set: 0,
                    src: pk.meta(w).src,
                    seq: pk.meta(w).seq,
                });
            }
            list.iter().fold(0u64, |m, &q| m | 1 << q)
        } else if self.packed {
            self.ihw[port] = hw;
            (hw & ((1u128 << self.fw) - 1)) as u64
        } else {
            pk.first(w)
        };
        if h == 0 {
            return Err(NetError::HeaderExhausted {
                switch: self.sw_elem[s],
                input: port as u32 - self.base[s],
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
        self.req[port] = h;
        if self.ib[port] != NONE {
            return Err(NetError::DoubleOccupancy {
                switch: self.sw_elem[s],
                port: port as u32 - self.base[s],
                output: false,
            });
        }
        self.ib[port] = w;
        self.occ[s] += 1;
        self.population += 1;
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
    /// `out_valid`/`out_data` this cycle. For lock-step comparisons (linear search; not for hot loops).
    pub fn offered_to(&self, p: usize) -> Option<u32> {
        self.target
            .iter()
            .position(|&t| t == Target::Proc(p as u32))
            .map(|i| self.ob[i])
    }
}

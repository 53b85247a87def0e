//! The cycle-accurate flit-level wormhole simulator on the n-cube (router model: [`super::router`]).
//!
//! Parameters ([`SimConfig`]): dimension `n`, algorithm, traffic pattern, worm length `b` (flits), offered
//! rate (messages per injecting node per cycle), buffer depth per VC, warm-up and measurement cycles, watchdog
//! window, drain limit, seed and stream id (each configuration draws from `rng::stream(seed, stream)`, so results
//! do not depend on how runs are spread over threads).
//!
//! A run: warm-up, measurement window, then drain (generation stops, worms still waiting in source queues are
//! discarded and counted, every injected worm must be delivered). Latency is counted from the cycle a message is
//! generated into its source queue to the cycle its tail is ejected (inclusive): `h + b` cycles at zero load.
//!
//! Invariants, checked on every delivered flit and after the drain, reported as [`WormError::Invariant`]: each
//! flit is delivered once, in order (sequence numbers 0..b), at its worm's destination, by the VC its worm owns;
//! after draining no VC is reserved, no buffer holds a flit, no worm is alive. The watchdog reports
//! [`WormError::Deadlock`] when worms are in the network and no flit has moved (injection, link or ejection) for
//! `watchdog` cycles; a partial deadlock is caught during the drain, once the rest of the traffic is gone.
//!
//! Memory is flat arrays indexed by VC id; nothing is allocated per flit (worm records are recycled through a
//! free list, source queues are `VecDeque`s that only grow).

use super::algorithms::Algorithm;
use super::error::WormError;
use super::node_model::NodeModel;
use super::router::{vc_id, vc_parts, Candidates, EJECT, NONE};
use super::stats::{lambda_max, RunResult};
use super::traffic::Pattern;
use crate::rng::{stream, Rng};
use crate::scoreboard::{Dest, Scoreboard, Watchdog};
use rand::Rng as _;
use std::collections::VecDeque;
use std::time::Instant;

/// Maximum supported dimension (node labels and dimension masks are `u32`; candidate lists are fixed-size).
pub const MAX_N: u32 = 16;

/// One configuration to simulate.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SimConfig {
    /// Hypercube dimension n (2^n nodes), 1 to [`MAX_N`].
    pub n: u32,
    /// The routing algorithm.
    pub algorithm: Algorithm,
    /// The traffic pattern (who sends to whom).
    pub pattern: Pattern,
    /// Worm length b in flits (≥ 1).
    pub worm_len: u32,
    /// Offered rate, messages per injecting node per cycle (0 < rate ≤ 1).
    pub rate: f64,
    /// Flit buffer depth per virtual channel (1..=255).
    pub buf_depth: u32,
    /// Warm-up cycles before the measurement window.
    pub warmup: u64,
    /// Cycles of the measurement window.
    pub measure: u64,
    /// Deadlock watchdog window in cycles.
    pub watchdog: u64,
    /// Maximum drain cycles before the run is declared stuck.
    pub drain_max: u64,
    /// Master seed of the random streams.
    pub seed: u64,
    /// Random stream id of this configuration.
    pub stream: u64,
    /// The processor–router interface (see [`NodeModel`]).
    #[serde(default)]
    pub node: NodeModel,
}

impl SimConfig {
    /// A configuration with the defaults used by the CLI (buffer depth 2, watchdog 2000 cycles).
    pub fn new(
        n: u32,
        algorithm: Algorithm,
        pattern: Pattern,
        worm_len: u32,
        rate: f64,
    ) -> SimConfig {
        SimConfig {
            n,
            algorithm,
            pattern,
            worm_len,
            rate,
            buf_depth: 2,
            warmup: 2000,
            measure: 5000,
            watchdog: 2000,
            drain_max: 1_000_000,
            seed: 1,
            stream: 0,
            node: NodeModel::Separate,
        }
    }

    /// Rate from a percentage of λmax = 1/(2b).
    pub fn rate_for_pct(worm_len: u32, pct: f64) -> f64 {
        lambda_max(worm_len) * pct / 100.0
    }

    /// Checks the parameters; [`WormError::BadParam`] says which is out of range.
    pub fn validate(&self) -> Result<(), WormError> {
        let bad = |s: String| Err(WormError::BadParam(s));
        if self.n < 1 || self.n > MAX_N {
            return bad(format!(
                "n = {}: the hypercube dimension must be between 1 and {MAX_N}",
                self.n
            ));
        }
        super::traffic::validate(self.pattern, self.n)?;
        if self.worm_len == 0 || self.worm_len > 1 << 20 {
            return bad(format!(
                "worm length {} flits: must be between 1 and 2^20",
                self.worm_len
            ));
        }
        if !(self.rate > 0.0 && self.rate <= 1.0) {
            return bad(format!(
                "rate {} messages/node/cycle: must be > 0 and ≤ 1 (λmax = {} for b = {})",
                self.rate,
                lambda_max(self.worm_len),
                self.worm_len
            ));
        }
        if self.buf_depth == 0 || self.buf_depth > 255 {
            return bad(format!(
                "buffer depth {}: must be between 1 and 255 flits",
                self.buf_depth
            ));
        }
        if self.measure == 0 {
            return bad("measurement window must be at least 1 cycle".into());
        }
        if self.watchdog == 0 {
            return bad("watchdog window must be at least 1 cycle".into());
        }
        self.algorithm.resolve(self.n)?;
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Worm {
    dst: u32,
    state: u32,
    t_gen: u64,
    next_seq: u32,
    /// Source node and the worm's number there (its scoreboard key).
    src: u32,
    id: u64,
}

/// The simulator state. Use [`Simulator::run`] for a whole run, or `new` + `step` + `check_drained` to drive it.
pub struct Simulator {
    cfg: SimConfig,
    alg: Algorithm,
    n: u32,
    nodes: u32,
    v: u32,
    lv: u32,
    depth: u32,
    len: u32,
    owner: Vec<u32>,
    out: Vec<u32>,
    src_of: Vec<u32>,
    buf: Vec<u64>,
    head: Vec<u8>,
    cnt: Vec<u8>,
    rr_link: Vec<u8>,
    /// Reserved VCs per directed link (links with none are skipped in the move phase).
    link_busy: Vec<u8>,
    inj_seq: Vec<u32>,
    /// Shared node model: whose turn it is when injection and ejection both have a flit (0 ejection, 1
    /// injection); `inj_ok[x]`: node x's injection may use the shared channel this cycle.
    turn: Vec<u8>,
    inj_ok: Vec<bool>,
    injects: Vec<bool>,
    queues: Vec<VecDeque<(u32, u64)>>,
    ej: Vec<Vec<u32>>,
    ej_rr: Vec<u32>,
    pending: Vec<u32>,
    worms: Vec<Worm>,
    free: Vec<u32>,
    moves: Vec<(u32, u32)>,
    cand: Candidates,
    rng: Rng,
    /// Current cycle.
    pub cycle: u64,
    live: u64,
    buffered: u64,
    queued: u64,
    /// No flit moving for `watchdog` cycles with worms inside is a deadlock.
    watchdog: Watchdog,
    /// Every injected worm, keyed by (source, worm number), until its tail is delivered at its destination.
    board: Scoreboard<()>,
    sent: Vec<u64>,
    injected_worms: u64,
    delivered_worms: u64,
    /// Flit-hops over physical links so far.
    pub flit_hops: u64,
    // window statistics
    win_start: u64,
    win_end: u64,
    generated: u64,
    delivered: u64,
    lat_sum: u128,
    lat_max: u64,
    lat_n: u64,
}

impl Simulator {
    /// A simulator for `cfg`, empty network at cycle 0; errors if `cfg` is invalid or the algorithm cannot be
    /// resolved for this n.
    pub fn new(cfg: &SimConfig) -> Result<Simulator, WormError> {
        cfg.validate()?;
        let alg = cfg.algorithm.resolve(cfg.n)?;
        let n = cfg.n;
        let nodes = 1u32 << n;
        let v = alg.vcs(n);
        let lv = nodes * n * v;
        let total = (lv + nodes) as usize;
        let depth = cfg.buf_depth;
        Ok(Simulator {
            cfg: cfg.clone(),
            alg,
            n,
            nodes,
            v,
            lv,
            depth,
            len: cfg.worm_len,
            owner: vec![NONE; total],
            out: vec![NONE; total],
            src_of: vec![NONE; lv as usize],
            buf: vec![0; lv as usize * depth as usize],
            head: vec![0; lv as usize],
            cnt: vec![0; lv as usize],
            rr_link: vec![0; (nodes * n) as usize],
            link_busy: vec![0; (nodes * n) as usize],
            inj_seq: vec![0; nodes as usize],
            turn: vec![0; nodes as usize],
            inj_ok: vec![true; nodes as usize],
            injects: (0..nodes)
                .map(|x| cfg.pattern.injects(x as usize, nodes as usize))
                .collect(),
            queues: (0..nodes).map(|_| VecDeque::new()).collect(),
            ej: (0..nodes)
                .map(|_| Vec::with_capacity((n * v) as usize))
                .collect(),
            ej_rr: vec![0; nodes as usize],
            pending: Vec::with_capacity(total),
            worms: Vec::new(),
            free: Vec::new(),
            moves: Vec::with_capacity(total),
            cand: Candidates::default(),
            rng: stream(cfg.seed, cfg.stream),
            cycle: 0,
            live: 0,
            buffered: 0,
            queued: 0,
            watchdog: Watchdog::new(cfg.watchdog.saturating_sub(1)),
            board: Scoreboard::new(nodes as usize),
            sent: vec![0; nodes as usize],
            injected_worms: 0,
            delivered_worms: 0,
            flit_hops: 0,
            win_start: cfg.warmup,
            win_end: cfg.warmup + cfg.measure,
            generated: 0,
            delivered: 0,
            lat_sum: 0,
            lat_max: 0,
            lat_n: 0,
        })
    }

    /// The resolved algorithm (Subcubes' default subcube dimensions filled in).
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// Worms injected (or being injected) and not yet fully delivered.
    pub fn live_worms(&self) -> u64 {
        self.live
    }

    /// Queues a message from `s` to `d` now (used by tests to build exact scenarios).
    pub fn enqueue(&mut self, s: u32, d: u32) -> Result<(), WormError> {
        if s >= self.nodes || d >= self.nodes || s == d {
            return Err(WormError::BadParam(format!(
                "enqueue {s} -> {d}: need two distinct nodes of the cube"
            )));
        }
        self.queues[s as usize].push_back((d, self.cycle));
        self.queued += 1;
        Ok(())
    }

    #[inline]
    fn in_node(&self, i: u32) -> u32 {
        if i >= self.lv {
            i - self.lv
        } else {
            let (s, d, _) = vc_parts(self.n, self.v, i);
            s ^ (1 << d)
        }
    }

    /// Simulates one cycle; `generate` turns message generation on.
    pub fn step(&mut self, generate: bool) -> Result<(), WormError> {
        let t = self.cycle;
        let in_win = t >= self.win_start && t < self.win_end;
        // 1. generation
        if generate {
            let rate = self.cfg.rate;
            for x in 0..self.nodes {
                if self.injects[x as usize] && self.rng.gen::<f64>() < rate {
                    let d = self
                        .cfg
                        .pattern
                        .dest(x as usize, self.nodes as usize, &mut self.rng)
                        as u32;
                    self.queues[x as usize].push_back((d, t));
                    self.queued += 1;
                    if in_win {
                        self.generated += 1;
                    }
                }
            }
        }
        // 2. start worms
        if self.queued > 0 {
            for x in 0..self.nodes {
                let iv = (self.lv + x) as usize;
                if self.owner[iv] == NONE {
                    if let Some((d, tg)) = self.queues[x as usize].pop_front() {
                        self.queued -= 1;
                        let id = self.sent[x as usize];
                        self.sent[x as usize] += 1;
                        self.board
                            .expect(x as usize, id, Dest::One(d as usize), ())
                            .map_err(|e| WormError::Invariant(e.to_string()))?;
                        let w = Worm {
                            dst: d,
                            state: 0,
                            t_gen: tg,
                            next_seq: 0,
                            src: x,
                            id,
                        };
                        let slot = match self.free.pop() {
                            Some(s) => {
                                self.worms[s as usize] = w;
                                s
                            }
                            None => {
                                self.worms.push(w);
                                (self.worms.len() - 1) as u32
                            }
                        };
                        self.owner[iv] = slot;
                        self.out[iv] = NONE;
                        self.inj_seq[x as usize] = 0;
                        self.pending.push(iv as u32);
                        self.live += 1;
                        self.injected_worms += 1;
                    }
                }
            }
        }
        // 3. route heads (VC allocation), random service order
        let np = self.pending.len();
        for k in (1..np).rev() {
            let j = self.rng.gen_range(0..=k);
            self.pending.swap(k, j);
        }
        let mut k = 0;
        while k < self.pending.len() {
            let i = self.pending[k];
            if self.allocate(i)? {
                self.pending.swap_remove(k);
            } else {
                k += 1;
            }
        }
        // 4. compute moves from the start-of-phase state
        self.moves.clear();
        let v = self.v;
        let depth = self.depth as u8;
        if self.cfg.node == NodeModel::Shared {
            self.share_node_channels();
        }
        for link in 0..self.nodes * self.n {
            if self.link_busy[link as usize] == 0 {
                continue;
            }
            let base = link * v;
            let mut vv = self.rr_link[link as usize] as u32;
            for _ in 0..v {
                vv += 1;
                if vv == v {
                    vv = 0;
                }
                let o = base + vv;
                if self.owner[o as usize] == NONE {
                    continue;
                }
                let i = self.src_of[o as usize];
                if i == NONE {
                    continue;
                }
                let ready = if i >= self.lv {
                    let x = (i - self.lv) as usize;
                    self.inj_seq[x] < self.len && self.inj_ok[x]
                } else {
                    self.cnt[i as usize] > 0
                };
                if ready && self.cnt[o as usize] < depth {
                    self.moves.push((i, o));
                    self.rr_link[link as usize] = vv as u8;
                    break;
                }
            }
        }
        for x in 0..self.nodes as usize {
            let l = self.ej[x].len();
            if l == 0 || (self.cfg.node == NodeModel::Shared && self.inj_ok[x]) {
                continue;
            }
            let start = (self.ej_rr[x] as usize).min(l - 1);
            for kk in 0..l {
                let idx = if start + kk >= l {
                    start + kk - l
                } else {
                    start + kk
                };
                let i = self.ej[x][idx];
                if self.cnt[i as usize] > 0 {
                    self.moves.push((i, EJECT));
                    self.ej_rr[x] = (idx + 1) as u32;
                    break;
                }
            }
        }
        // 5. commit
        let progress = !self.moves.is_empty();
        for m in 0..self.moves.len() {
            let (i, o) = self.moves[m];
            self.commit(i, o, t, in_win)?;
        }
        if let Some(idle) = self.watchdog.tick(t, progress, self.live > 0) {
            return Err(WormError::Deadlock {
                cycle: t,
                idle,
                worms: self.live,
                flits: self.buffered,
            });
        }
        self.cycle += 1;
        Ok(())
    }

    /// Shared node model: each node's one channel goes to injection or ejection this cycle. Injection wants it
    /// when its worm has a flit left and its output VC has buffer space; ejection when an input VC whose worm
    /// ends here holds a flit. When both want it they take turns (`turn`); `inj_ok[x]` = injection has it (if
    /// the link then serves another VC, the channel idles this cycle).
    fn share_node_channels(&mut self) {
        let depth = self.depth as u8;
        for x in 0..self.nodes as usize {
            let iv = self.lv as usize + x;
            let o = self.out[iv];
            let inj = self.owner[iv] != NONE
                && o != NONE
                && self.inj_seq[x] < self.len
                && self.cnt[o as usize] < depth;
            let ej = self.ej[x].iter().any(|&i| self.cnt[i as usize] > 0);
            self.inj_ok[x] = match (inj, ej) {
                (true, true) => {
                    let t = self.turn[x];
                    self.turn[x] ^= 1;
                    t == 1
                }
                (inj, _) => inj,
            };
        }
    }

    /// Tries to route the head at the front of input VC `i`. Returns whether it got an output.
    #[inline]
    fn allocate(&mut self, i: u32) -> Result<bool, WormError> {
        let x = self.in_node(i);
        let w = self.owner[i as usize];
        let worm = self.worms[w as usize];
        if worm.dst == x {
            self.out[i as usize] = EJECT;
            self.ej[x as usize].push(i);
            return Ok(true);
        }
        self.alg
            .route(self.n, x, worm.dst, worm.state, &mut self.cand);
        if self.cand.is_empty() {
            return Err(WormError::Routing(format!(
                "{} offered no channel at node {x} for destination {} (state {})",
                self.alg, worm.dst, worm.state
            )));
        }
        let mut best_tier = u8::MAX;
        let mut count = 0u32;
        let mut chosen = (NONE, 0u32);
        for c in self.cand.as_slice() {
            let o = vc_id(self.n, self.v, x, c.dim as u32, c.vc as u32);
            if self.owner[o as usize] != NONE {
                continue;
            }
            if c.tier < best_tier {
                best_tier = c.tier;
                count = 1;
                chosen = (o, c.state);
            } else if c.tier == best_tier {
                count += 1;
                if self.rng.gen_range(0..count) == 0 {
                    chosen = (o, c.state);
                }
            }
        }
        if chosen.0 == NONE {
            return Ok(false);
        }
        let o = chosen.0;
        self.owner[o as usize] = w;
        self.link_busy[(o / self.v) as usize] += 1;
        self.src_of[o as usize] = i;
        self.out[i as usize] = o;
        self.worms[w as usize].state = chosen.1;
        Ok(true)
    }

    #[inline]
    fn commit(&mut self, i: u32, o: u32, t: u64, in_win: bool) -> Result<(), WormError> {
        let d = self.depth as usize;
        let flit = if i >= self.lv {
            let x = (i - self.lv) as usize;
            let s = self.inj_seq[x];
            self.inj_seq[x] += 1;
            self.buffered += 1;
            ((self.owner[i as usize] as u64) << 32) | s as u64
        } else {
            let iu = i as usize;
            let f = self.buf[iu * d + self.head[iu] as usize];
            self.head[iu] = ((self.head[iu] as usize + 1) % d) as u8;
            self.cnt[iu] -= 1;
            f
        };
        let w = (flit >> 32) as u32;
        let seq = flit as u32;
        if w != self.owner[i as usize] {
            return Err(WormError::Invariant(format!(
                "cycle {t}: VC {i} holds a flit of worm {w} but is owned by worm {}",
                self.owner[i as usize]
            )));
        }
        let tail = seq + 1 == self.len;
        if o == EJECT {
            let x = self.in_node(i);
            let worm = &mut self.worms[w as usize];
            if worm.dst != x {
                return Err(WormError::Invariant(format!(
                    "cycle {t}: flit {seq} of worm {w} delivered at node {x}, destination is {}",
                    worm.dst
                )));
            }
            if seq != worm.next_seq {
                return Err(WormError::Invariant(format!(
                    "cycle {t}: worm {w} delivered flit {seq}, expected flit {} (out of order or duplicate)",
                    worm.next_seq
                )));
            }
            worm.next_seq += 1;
            self.buffered -= 1;
            if tail {
                self.board
                    .arrive(worm.src as usize, worm.id, x as usize)
                    .map_err(|e| WormError::Invariant(format!("cycle {t}: {e}")))?;
                let lat = t + 1 - worm.t_gen;
                if worm.t_gen >= self.win_start && worm.t_gen < self.win_end {
                    self.lat_sum += lat as u128;
                    self.lat_n += 1;
                    self.lat_max = self.lat_max.max(lat);
                }
                if in_win {
                    self.delivered += 1;
                }
                self.live -= 1;
                self.delivered_worms += 1;
                self.free.push(w);
                let list = &mut self.ej[x as usize];
                if let Some(p) = list.iter().position(|&e| e == i) {
                    list.swap_remove(p);
                }
            }
        } else {
            let ou = o as usize;
            let c = self.cnt[ou] as usize;
            if c >= d {
                return Err(WormError::Invariant(format!(
                    "cycle {t}: VC {o} overflows its {d}-flit buffer"
                )));
            }
            self.buf[ou * d + (self.head[ou] as usize + c) % d] = flit;
            self.cnt[ou] += 1;
            self.flit_hops += 1;
            if seq == 0 {
                self.pending.push(o);
            }
            if tail {
                self.src_of[ou] = NONE;
            }
        }
        if tail {
            if i < self.lv {
                self.link_busy[(i / self.v) as usize] -= 1;
            }
            self.owner[i as usize] = NONE;
            self.out[i as usize] = NONE;
        }
        Ok(())
    }

    /// Checks that the network is empty and nothing leaked (after a drain).
    pub fn check_drained(&self) -> Result<(), WormError> {
        let inv = |s: String| Err(WormError::Invariant(s));
        if self.live != 0 {
            return inv(format!("{} worms still alive after the drain", self.live));
        }
        if self.injected_worms != self.delivered_worms {
            return inv(format!(
                "{} worms injected but {} delivered",
                self.injected_worms, self.delivered_worms
            ));
        }
        if let Some(i) = self.owner.iter().position(|&o| o != NONE) {
            return inv(format!(
                "VC {i} still reserved by worm {} after the drain",
                self.owner[i]
            ));
        }
        if let Some(i) = self.out.iter().position(|&o| o != NONE) {
            return inv(format!("input VC {i} still holds a route after the drain"));
        }
        if let Some(i) = self.src_of.iter().position(|&o| o != NONE) {
            return inv(format!(
                "output VC {i} still linked to an input after the drain"
            ));
        }
        if self.link_busy.iter().any(|&c| c != 0) {
            return inv("a link still counts reserved VCs after the drain".into());
        }
        if let Some(i) = self.cnt.iter().position(|&c| c != 0) {
            return inv(format!(
                "VC {i} still buffers {} flits after the drain",
                self.cnt[i]
            ));
        }
        if self.buffered != 0 || !self.pending.is_empty() || self.ej.iter().any(|l| !l.is_empty()) {
            return inv("router state not empty after the drain".into());
        }
        if self.free.len() != self.worms.len() {
            return inv("worm records leaked".into());
        }
        if self.board.outstanding() != 0 {
            return inv(format!(
                "{} injected worms never delivered (scoreboard)",
                self.board.outstanding()
            ));
        }
        Ok(())
    }

    /// Steps without generation until every injected worm is delivered, then checks for leaks.
    pub fn drain(&mut self) -> Result<(), WormError> {
        let start = self.cycle;
        while self.live > 0 {
            if self.cycle - start > self.cfg.drain_max {
                return Err(WormError::Invariant(format!(
                    "drain did not finish in {} cycles ({} worms left)",
                    self.cfg.drain_max, self.live
                )));
            }
            self.step(false)?;
        }
        self.check_drained()
    }

    /// Runs warm-up, measurement window and drain; returns the statistics.
    pub fn run(cfg: &SimConfig) -> Result<RunResult, WormError> {
        let t0 = Instant::now();
        let mut s = Simulator::new(cfg)?;
        let mut queued_start = 0;
        while s.cycle < s.win_end {
            if s.cycle == s.win_start {
                queued_start = s.queued;
            }
            s.step(true)?;
        }
        let queued_end = s.queued;
        let discarded = s.queued;
        for q in s.queues.iter_mut() {
            q.clear();
        }
        s.queued = 0;
        s.drain()?;
        let active = cfg.pattern.active(1usize << cfg.n) as f64;
        let lm = lambda_max(cfg.worm_len);
        let accepted = s.delivered as f64 / (active * cfg.measure as f64);
        let mut r = RunResult {
            n: cfg.n,
            node: cfg.node,
            algorithm: s.alg.name().to_string(),
            pattern: cfg.pattern.name().to_string(),
            worm_len: cfg.worm_len,
            vcs: s.v,
            buf_depth: cfg.buf_depth,
            rate: cfg.rate,
            offered_pct: 100.0 * cfg.rate / lm,
            accepted,
            accepted_pct: 100.0 * accepted / lm,
            mean_latency: if s.lat_n > 0 {
                s.lat_sum as f64 / s.lat_n as f64
            } else {
                0.0
            },
            max_latency: s.lat_max,
            generated: s.generated,
            delivered: s.delivered,
            latency_samples: s.lat_n,
            queued_start,
            queued_end,
            discarded,
            flit_hops: s.flit_hops,
            cycles: s.cycle,
            seconds: t0.elapsed().as_secs_f64(),
            sustained: false,
        };
        r.sustained = r.compute_sustained();
        Ok(r)
    }
}

//! A whole SP2-style system, cycle-accurate: an [`Sp2Network`] of SP2 switches (any topology of 8-port
//! switches — the 16-node board, the 32–512-node systems), a [`Node`] on every processor port, route
//! headers from a [`Routing`] (the route generator's ASR tables, or their single-path reduction), uniform
//! traffic and a scoreboard.
//!
//! Traffic ("where"): every packet goes to a destination drawn uniformly among the other processors.
//! Injection ("when"): Bernoulli per cycle, so that a processor offers `load` link bytes per cycle on average
//! (a packet is created with probability `load / (payload + route bytes + 2)`, with the source's mean route
//! length, and its bytes are `LEN`, the route bytes, the payload and the CRC); a processor keeps at most
//! `source_queue` packets waiting, and a packet not created because its queue is full is counted as
//! refused (never lost). Payload: the source (2 bytes), a sequence number (4 bytes), then bytes derived from
//! both, so the destination can check every byte.
//!
//! A run: `warmup` cycles, `measure` cycles whose created packets are tagged, then injection stops and the
//! system drains. Invariants (errors, never statistics): every packet arrives exactly once, at its
//! destination, intact and with a good CRC; nothing is left in any switch after draining (every central
//! queue's free list full again); the central queues' lists are consistent (checked every `check_every`
//! cycles); if packets are outstanding and no byte moves on any link for [`DEADLOCK_CYCLES`], the run stops
//! with [`Sp2SysError::Deadlock`] (`ASR_DUMP_DEADLOCK=1` prints every busy switch first); if the network is
//! empty while packets are still expected, they were lost ([`Sp2SysError::Lost`], each named).
//!
//! Fault scenario ([`run_with_faults`], [`FaultPlan`]): links fail at a given cycle (the network's bit buckets
//! and fillers, [`Sp2Network::fail_link`]); arrivals the scoreboard would reject after the failure are counted
//! as damaged (at most two per failed link), the packets never delivered intact are returned by id, the sources
//! switch to regenerated tables after a delay, and every packet created after the switch must arrive.

pub use super::error::{fmt_ids, Sp2SysError, DEADLOCK_CYCLES};
use super::network::Sp2Network;
use super::node::Node;
use super::scoreboard::{payload_bytes, Dest, Scoreboard};
use super::SwitchModel;
use super::{encode_packet, CQ_CHUNKS};
use crate::header::Header;
use crate::rng::stream;
use crate::routing::Routing;
use rand::Rng;
use serde::Serialize;

/// Parameters of one run.
#[derive(Debug, Clone, Serialize)]
pub struct Sp2SysConfig {
    /// Offered load in link bytes per processor per cycle (0 < load ≤ 1).
    pub load: f64,
    /// Payload bytes per packet, inclusive range (0 ≤ min ≤ max; payloads below 6 bytes are known by their
    /// content, `super::scoreboard`).
    pub payload: (usize, usize),
    /// Draw payloads over the whole legal range instead (`super::stimulus::payload_len`: 0 up to 255 minus
    /// the route bytes, the corners often); `payload` is then ignored.
    #[serde(default)]
    pub payload_full: bool,
    /// Cycles of injection before the measured window (their packets are not tagged).
    pub warmup: u64,
    /// Cycles of the measured window; injection stops at its end and the system drains.
    pub measure: u64,
    /// Packets a processor may have waiting before it refuses new ones.
    pub source_queue: usize,
    /// Per cycle, each processor consumes a received byte with this probability (1.0 = no backpressure).
    pub consume: f64,
    /// Check the central queues' lists every this many cycles (0 = only at the end).
    pub check_every: u64,
    /// Seed of the run's random numbers (traffic, payload lengths, route choices, backpressure): the same
    /// seed gives the same run.
    pub seed: u64,
}

impl Default for Sp2SysConfig {
    fn default() -> Self {
        Sp2SysConfig {
            load: 0.3,
            payload: (32, 32),
            payload_full: false,
            warmup: 2_000,
            measure: 10_000,
            source_queue: 16,
            consume: 1.0,
            check_every: 0,
            seed: 1,
        }
    }
}

/// What one run measured.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Sp2SysStats {
    /// Processors in the network.
    pub processors: usize,
    /// Switches in the network.
    pub switches: usize,
    /// The routing's name (the tables used before any failure).
    pub routing: String,
    /// Offered load in link bytes per processor per cycle, as configured.
    pub load: f64,
    /// Link bytes of delivered packets per processor per cycle, over the measured window.
    pub accepted: f64,
    /// Packets created in the measured window (tagged).
    pub tagged: u64,
    /// Mean latency in cycles of the tagged packets delivered: from creation to the last byte consumed at
    /// the destination (includes waiting at the source); 0 if none was delivered.
    pub mean_latency: f64,
    /// 99th-percentile latency in cycles of the same packets.
    pub p99_latency: u64,
    /// Packets refused because their source queue was full (offered but never created).
    pub refused: u64,
    /// Packets created in the whole run.
    #[serde(default)]
    pub created: u64,
    /// Packets delivered intact in the whole run (all those created unless links failed).
    pub delivered: u64,
    /// Mean chunks in use per central queue over the measured window.
    pub mean_queue_chunks: f64,
    /// The largest occupancy of any one central queue in the window, in chunks.
    pub max_queue_chunks: usize,
    /// Share of packet-hops through a central queue (rather than cut through the crossbar).
    pub queue_share: f64,
    /// Cycles run in all (warm-up, window, drain).
    pub cycles: u64,
    /// Switch-cycles actually stepped (idle switches with no input are skipped).
    pub switch_steps: u64,
    /// The fault scenario's results, if there was one.
    #[serde(default)]
    pub faults: Option<FaultStats>,
}

/// A fault scenario for [`run_with_faults`]: links that fail during the run and the tables the sources switch
/// to afterwards.
pub struct FaultPlan<'a> {
    /// The cycle at whose start the links fail.
    pub at: u64,
    /// The failing links, each as one of its ends (switch index in the network, port).
    pub links: Vec<(usize, u8)>,
    /// Cycles after the failure until the sources use `reroute` (regeneration and distribution of the tables).
    pub delay: u64,
    /// Route tables for the degraded network.
    pub reroute: &'a dyn Routing,
}

/// What a fault scenario measured.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct FaultStats {
    /// The cycle at whose start the links failed.
    pub at: u64,
    /// The cycle from which new packets use the regenerated tables.
    pub switch_at: u64,
    /// The failed links as `A.p <-> B.q`.
    pub links: Vec<String>,
    /// Packets lost (never delivered intact), each as (source, sequence number): those on a failed link or
    /// routed onto one by the old tables.
    pub lost: Vec<(usize, u32)>,
    /// Of those, created before the failure (in flight when it happened or routed over it afterwards).
    pub lost_before_failure: usize,
    /// Damaged remains of packets cut by the failure that still reached a processor (flagged bad, counted once
    /// each; their packets are in `lost`).
    pub fragments: u64,
    /// Bytes the failed links swallowed.
    pub discarded_bytes: u64,
    /// Filler bytes that completed packets cut by the failure.
    pub filler_bytes: u64,
    /// Packets created from `switch_at` on.
    pub created_after_switch: u64,
    /// Of those, how many were delivered (all, or the run fails).
    pub delivered_after_switch: u64,
    /// Accepted load (link bytes per processor per cycle) in the measured window before the failure.
    pub accepted_before: f64,
    /// Accepted load from `switch_at` to the end of injection.
    pub accepted_after: f64,
}

/// Runs the system on `net` (fresh) with headers from `routing`.
pub fn run<S: SwitchModel>(
    net: Sp2Network<S>,
    routing: &dyn Routing,
    cfg: &Sp2SysConfig,
) -> Result<Sp2SysStats, Sp2SysError> {
    run_with_faults(net, routing, cfg, None)
}

/// Runs the system with an optional fault scenario: at `plan.at` the links fail (packets on them, and packets
/// the old tables route onto them, are lost and counted by id); from `plan.at + plan.delay` new packets take
/// their headers from `plan.reroute`, and every one of them must be delivered.
pub fn run_with_faults<S: SwitchModel>(
    net: Sp2Network<S>,
    routing: &dyn Routing,
    cfg: &Sp2SysConfig,
    plan: Option<&FaultPlan>,
) -> Result<Sp2SysStats, Sp2SysError> {
    check_config(cfg, net.processors())?;
    let routings = routings_of(routing, cfg, plan, net.processors())?;
    let mut run = Run::new(net, routings, cfg, plan);
    run.run_cycles()?;
    run.settle()?;
    run.check_drained()?;
    let faults = run.fault_stats()?;
    Ok(run.into_stats(faults))
}

/// Rejects a configuration outside the documented ranges, or a network of fewer than two processors.
fn check_config(cfg: &Sp2SysConfig, n: usize) -> Result<(), Sp2SysError> {
    if !(cfg.load > 0.0 && cfg.load <= 1.0) {
        return Err(Sp2SysError::Params(format!(
            "load {} outside (0, 1]",
            cfg.load
        )));
    }
    if cfg.payload.0 > cfg.payload.1 || cfg.payload.1 > 254 {
        return Err(Sp2SysError::Params(format!(
            "payload range {:?}: need min ≤ max ≤ 254",
            cfg.payload
        )));
    }
    if !(cfg.consume > 0.0 && cfg.consume <= 1.0) || cfg.source_queue == 0 || n < 2 {
        return Err(Sp2SysError::Params(format!(
            "consume {} must be in (0, 1], source queue ≥ 1, processors ≥ 2 (got {n})",
            cfg.consume
        )));
    }
    Ok(())
}

/// The run's routings: `routing`, then the plan's regenerated tables if there is a plan (index 1 from the
/// switch on). Errors if the plan's times fall outside the measured window, it fails no link, or a routing is
/// for another number of processors than `n`.
fn routings_of<'a>(
    routing: &'a dyn Routing,
    cfg: &Sp2SysConfig,
    plan: Option<&'a FaultPlan<'a>>,
    n: usize,
) -> Result<Vec<&'a dyn Routing>, Sp2SysError> {
    let inject_until = cfg.warmup + cfg.measure;
    let mut routings: Vec<&dyn Routing> = vec![routing];
    if let Some(pl) = plan {
        if pl.at < cfg.warmup || pl.at + pl.delay >= inject_until {
            return Err(Sp2SysError::Params(format!(
                "the failure at cycle {} and the switch to new tables {} cycles later must fall inside the measured window [{}, {})",
                pl.at, pl.delay, cfg.warmup, inject_until
            )));
        }
        if pl.links.is_empty() {
            return Err(Sp2SysError::Params("a fault plan with no link".into()));
        }
        routings.push(pl.reroute);
    }
    for r in &routings {
        if r.processors() != n {
            return Err(Sp2SysError::Params(format!(
                "routing {} is for {} processors, the network has {n}",
                r.name(),
                r.processors()
            )));
        }
    }
    Ok(routings)
}

/// Mean route length (hops) per routing and source over all other destinations, so that a packet is created
/// with probability load / (its mean size on the link) and a processor offers `load` bytes per cycle on
/// average. Draws from `rng` as the routings choose among their routes.
fn mean_route_lengths(
    routings: &[&dyn Routing],
    n: usize,
    rng: &mut crate::rng::Rng,
    hops: &mut Vec<u64>,
) -> Vec<Vec<f64>> {
    routings
        .iter()
        .map(|r| {
            (0..n)
                .map(|s| {
                    let total: usize = (0..n)
                        .filter(|&d| d != s)
                        .map(|d| {
                            r.route(s, d, rng, hops);
                            hops.len()
                        })
                        .sum();
                    total as f64 / (n - 1) as f64
                })
                .collect()
        })
        .collect()
}

/// The cycles at which a run changes phase.
#[derive(Debug, Clone, Copy)]
struct Schedule {
    /// End of the warm-up: packets created from here on are tagged, and the measured window starts.
    warmup: u64,
    /// End of the measured window and of injection (`warmup + measure`).
    inject_until: u64,
    /// The cycle at whose start the links fail (`u64::MAX` without a fault plan).
    fail_at: u64,
    /// The cycle from which new packets use the regenerated tables (`u64::MAX` without a fault plan).
    switch_at: u64,
}

impl Schedule {
    fn new(cfg: &Sp2SysConfig, plan: Option<&FaultPlan>) -> Self {
        Schedule {
            warmup: cfg.warmup,
            inject_until: cfg.warmup + cfg.measure,
            fail_at: plan.map_or(u64::MAX, |p| p.at),
            switch_at: plan.map_or(u64::MAX, |p| p.at + p.delay),
        }
    }

    /// Sources still create packets in cycle `c`.
    fn injecting(&self, c: u64) -> bool {
        c < self.inject_until
    }

    /// Cycle `c` is in the measured window.
    fn in_window(&self, c: u64) -> bool {
        c >= self.warmup && c < self.inject_until
    }
}

/// A created packet's record on the scoreboard until it arrives.
#[derive(Clone)]
struct Pending {
    /// The cycle it was created in.
    created: u64,
    /// Its length on the link in bytes (`LEN`, route bytes, payload, CRC).
    bytes: usize,
    /// Created in the measured window (or after it started): its latency counts.
    tagged: bool,
}

/// The run's counters, turned into [`Sp2SysStats`] and [`FaultStats`] at the end.
#[derive(Debug, Default)]
struct Tally {
    /// Packets not created because their source queue was full.
    refused: u64,
    /// Packets delivered intact (the whole run).
    delivered: u64,
    /// Link bytes of the packets delivered in the measured window, and of those delivered in it before the
    /// failure and from the switch to the new tables on.
    accepted_bytes: u64,
    bytes_before: u64,
    bytes_after: u64,
    /// Packets created from the switch to the new tables on, and how many of them were delivered.
    created_after: u64,
    delivered_after: u64,
    /// Damaged arrivals after the failure (remains of packets cut on a failed link).
    fragments: u64,
    /// Packets created from the end of the warm-up on.
    tagged: u64,
    /// Sum over the measured window's cycles of every central queue's chunks in use, and the largest
    /// occupancy of any one queue in the window (chunks).
    q_sum: u64,
    q_max: usize,
    /// Latency (cycles from creation to the last byte) of every tagged packet delivered.
    latencies: Vec<u64>,
}

impl Tally {
    /// Adds the central queues' occupancy in one cycle of the measured window.
    fn sample_queues<S: SwitchModel>(&mut self, switches: &[S]) {
        for sw in switches {
            let occ = sw.queue_chunks();
            self.q_sum += occ as u64;
            self.q_max = self.q_max.max(occ);
        }
    }

    /// Counts packet `p`, delivered intact in cycle `c` with its last byte in cycle `arrived`.
    fn record_delivery(&mut self, at: &Schedule, c: u64, p: &Pending, arrived: u64) {
        self.delivered += 1;
        if at.in_window(c) {
            self.accepted_bytes += p.bytes as u64;
            if c < at.fail_at {
                self.bytes_before += p.bytes as u64;
            } else if c >= at.switch_at {
                self.bytes_after += p.bytes as u64;
            }
        }
        if p.created >= at.switch_at {
            self.delivered_after += 1;
        }
        if p.tagged {
            self.latencies.push(arrived - p.created);
        }
    }

    /// Mean and 99th-percentile latency of the tagged packets delivered (0 if none); sorts the latencies.
    fn latency_summary(&mut self) -> (f64, u64) {
        let l = &mut self.latencies;
        l.sort_unstable();
        let mean = if l.is_empty() {
            0.0
        } else {
            l.iter().sum::<u64>() as f64 / l.len() as f64
        };
        let p99 = l
            .get((l.len() * 99 / 100).min(l.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0);
        (mean, p99)
    }
}

/// One run in progress: the network, its processors, the scoreboard and the counters, at cycle `c`.
struct Run<'a, S: SwitchModel> {
    net: Sp2Network<S>,
    cfg: &'a Sp2SysConfig,
    plan: Option<&'a FaultPlan<'a>>,
    /// The routing before the switch (index 0) and the regenerated tables after it (index 1, with a plan).
    routings: Vec<&'a dyn Routing>,
    /// Mean route length in hops per routing and source ([`mean_route_lengths`]).
    mean_hops: Vec<Vec<f64>>,
    at: Schedule,
    rng: crate::rng::Rng,
    nodes: Vec<Node>,
    /// The next sequence number per source (= packets it created so far).
    seq: Vec<u32>,
    pending: Scoreboard<Pending>,
    /// Scratch buffer for a route's hops.
    hops: Vec<u64>,
    /// What the processors drive to the network this cycle: a byte and a token per processor.
    link_in: Vec<Option<u8>>,
    token_in: Vec<bool>,
    /// The failed links as `A.p <-> B.q`, once they failed.
    failed_names: Vec<String>,
    watchdog: crate::scoreboard::Watchdog,
    tally: Tally,
    /// The current cycle.
    c: u64,
}

impl<'a, S: SwitchModel> Run<'a, S> {
    fn new(
        net: Sp2Network<S>,
        routings: Vec<&'a dyn Routing>,
        cfg: &'a Sp2SysConfig,
        plan: Option<&'a FaultPlan<'a>>,
    ) -> Self {
        let n = net.processors();
        let mut rng = stream(cfg.seed, 0x5b2_5e7);
        let mut hops = Vec::new();
        let mean_hops = mean_route_lengths(&routings, n, &mut rng, &mut hops);
        Run {
            net,
            cfg,
            plan,
            routings,
            mean_hops,
            at: Schedule::new(cfg, plan),
            rng,
            nodes: (0..n).map(|_| Node::new()).collect(),
            seq: vec![0; n],
            pending: Scoreboard::new(),
            hops,
            link_in: vec![None; n],
            token_in: vec![false; n],
            failed_names: Vec::new(),
            watchdog: crate::scoreboard::Watchdog::new(DEADLOCK_CYCLES),
            tally: Tally::default(),
            c: 0,
        }
    }

    /// Runs cycles until injection is over and no packet is expected any more; after a failure, also ends
    /// when nothing is left anywhere (the packets still expected are the failure's losses). Errors on a
    /// broken invariant or a deadlock.
    fn run_cycles(&mut self) -> Result<(), Sp2SysError> {
        loop {
            let injecting = self.at.injecting(self.c);
            if !injecting && self.pending.outstanding() == 0 {
                return Ok(());
            }
            if self.c == self.at.fail_at {
                self.fail_links()?;
            }
            if injecting {
                self.inject()?;
            }
            let moved = self.step()?;
            if self.all_lost(moved, injecting)? {
                return Ok(());
            }
            self.watch_deadlock(moved)?;
            if self.at.in_window(self.c) {
                self.tally.sample_queues(&self.net.switches);
            }
            if self.cfg.check_every > 0 && self.c.is_multiple_of(self.cfg.check_every) {
                self.net.check()?;
            }
            self.score_arrivals()?;
            self.c += 1;
        }
    }

    /// Fails the plan's links and records their names.
    fn fail_links(&mut self) -> Result<(), Sp2SysError> {
        let pl = self.plan.expect("a failure time comes with a plan");
        for &(sw, port) in &pl.links {
            let (s2, p2) = self.net.fail_link(sw, port)?;
            self.failed_names.push(format!(
                "{}.{port} <-> {}.{p2}",
                self.net.names[sw], self.net.names[s2]
            ));
        }
        Ok(())
    }

    /// Gives every source its chance to create a packet this cycle, with the tables in use this cycle.
    fn inject(&mut self) -> Result<(), Sp2SysError> {
        let r = (self.c >= self.at.switch_at) as usize;
        for s in 0..self.nodes.len() {
            self.offer(s, r)?;
        }
        Ok(())
    }

    /// Source `s` draws a payload length and, with probability load / (the packet's mean size on the link),
    /// offers a packet to a uniformly drawn other processor; a full source queue refuses it (counted).
    fn offer(&mut self, s: usize, r: usize) -> Result<(), Sp2SysError> {
        let mean_hops = self.mean_hops[r][s];
        let len = if self.cfg.payload_full {
            super::stimulus::payload_len(&mut self.rng, mean_hops.round() as usize)
        } else {
            self.rng.gen_range(self.cfg.payload.0..=self.cfg.payload.1)
        };
        // Packet bytes on a link: LEN, route bytes, payload, CRC.
        if !self
            .rng
            .gen_bool((self.cfg.load / (len as f64 + 2.0 + mean_hops)).min(1.0))
        {
            return Ok(());
        }
        let n = self.nodes.len();
        let dst = (s + self.rng.gen_range(1..n)) % n;
        if self.nodes[s].send_queue.len() >= self.cfg.source_queue {
            self.tally.refused += 1;
            return Ok(());
        }
        self.create(s, dst, len, r)
    }

    /// Creates a packet from `s` to `dst` with `len` payload bytes (cut to the route's length for full-range
    /// payloads), routed by routing `r`: the scoreboard expects it and it joins the source's queue. Errors if
    /// the route cannot be encoded or makes `LEN` exceed 255.
    fn create(&mut self, s: usize, dst: usize, len: usize, r: usize) -> Result<(), Sp2SysError> {
        let route_error = |e: crate::header::HeaderError| Sp2SysError::Route {
            src: s,
            dst,
            why: e.to_string(),
        };
        self.routings[r].route(s, dst, &mut self.rng, &mut self.hops);
        let header = Header::new(8, self.hops.clone()).map_err(route_error)?;
        let hops = self.hops.len();
        // The longest payloads of the whole range, cut to this route's length.
        let len = if self.cfg.payload_full {
            len.min(255 - hops)
        } else {
            len
        };
        if hops + len > 255 {
            return Err(Sp2SysError::Params(format!(
                "route {s} → {dst} has {hops} hops: with {len} payload bytes LEN exceeds 255"
            )));
        }
        let k = self.seq[s];
        self.seq[s] += 1;
        let bytes = encode_packet(&header, &payload_bytes(s, k, len)).map_err(route_error)?;
        let tagged = self.c >= self.cfg.warmup;
        self.tally.tagged += tagged as u64;
        self.tally.created_after += (self.c >= self.at.switch_at) as u64;
        let record = Pending {
            created: self.c,
            bytes: bytes.len(),
            tagged,
        };
        self.pending.expect_len(s, k, Dest::One(dst), len, record);
        self.nodes[s].send_queue.push_back(bytes);
        Ok(())
    }

    /// One cycle of the processors (each consuming a received byte with probability `consume`) and then of
    /// the network; returns whether a byte moved on any link.
    fn step(&mut self) -> Result<bool, Sp2SysError> {
        // Nodes first (their outputs depend on their state only), then the network.
        let mut moved = self.step_nodes(self.cfg.consume);
        moved |= self
            .net
            .switch_outputs()
            .iter()
            .any(|o| o.link_out.iter().any(|b| b.is_some()));
        self.net.step(&self.link_in, &self.token_in)?;
        Ok(moved)
    }

    /// One cycle of every processor, each consuming a received byte with probability `consume` (1.0: always,
    /// drawing nothing); sets what they drive to the network and returns whether a byte moved to or from one.
    fn step_nodes(&mut self, consume: f64) -> bool {
        let mut moved = false;
        for (k, node) in self.nodes.iter_mut().enumerate() {
            let (b, t) = self.net.to_node(k);
            moved |= b.is_some();
            let take = if consume >= 1.0 || self.rng.gen_bool(consume) {
                1
            } else {
                0
            };
            let (lo, to) = node.cycle(self.c, b, t, take);
            self.link_in[k] = lo;
            self.token_in[k] = to;
            moved |= lo.is_some();
        }
        moved
    }

    /// Whether nothing is anywhere while packets are still expected after injection: with a failure behind,
    /// they are its losses and the run ends (`true`); without one it is [`Sp2SysError::Lost`].
    fn all_lost(&self, moved: bool, injecting: bool) -> Result<bool, Sp2SysError> {
        if !moved
            && self.pending.outstanding() > 0
            && !injecting
            && self.net.is_idle()
            && self.nodes.iter().all(|x| x.is_idle())
        {
            if self.plan.is_some() && self.c >= self.at.fail_at {
                return Ok(true);
            }
            return Err(Sp2SysError::Lost {
                cycle: self.c,
                ids: self.pending.ids(),
            });
        }
        Ok(false)
    }

    /// [`Sp2SysError::Deadlock`] if packets are outstanding and no byte moved for [`DEADLOCK_CYCLES`]
    /// (`ASR_DUMP_DEADLOCK` set: every busy switch is printed first).
    fn watch_deadlock(&mut self, moved: bool) -> Result<(), Sp2SysError> {
        let busy = self.pending.outstanding() > 0;
        if self.watchdog.tick(self.c, moved, busy).is_some() {
            if std::env::var_os("ASR_DUMP_DEADLOCK").is_some() {
                eprint!("{}", self.net.dump_busy());
            }
            return Err(Sp2SysError::Deadlock {
                cycle: self.c,
                outstanding: self.pending.outstanding(),
            });
        }
        Ok(())
    }

    /// Checks this cycle's arrivals against the scoreboard and counts them. After a failure, an arrival the
    /// scoreboard would reject is a damaged remain of a cut packet (completed with filler bytes and flagged
    /// bad): it is counted as a fragment and its packet stays expected (lost).
    fn score_arrivals(&mut self) -> Result<(), Sp2SysError> {
        let c = self.c;
        let after_failure = c >= self.at.fail_at;
        for (at, node) in self.nodes.iter_mut().enumerate() {
            for a in node.arrivals.drain(..) {
                if after_failure && !self.pending.would_accept(at, &a) {
                    self.tally.fragments += 1;
                    continue;
                }
                let (_, _, p) = self.pending.arrive(c, at, &a)?;
                self.tally.record_delivery(&self.at, c, &p, a.cycle);
            }
        }
        Ok(())
    }

    /// Drains the last tokens and bytes in flight once every packet is in (the links settle within a few
    /// cycles; at most 1000 are run).
    fn settle(&mut self) -> Result<(), Sp2SysError> {
        let mut settle = 0;
        while !(self.net.is_idle() && self.nodes.iter().all(|x| x.is_idle())) && settle < 1_000 {
            self.step_nodes(1.0);
            self.net.step(&self.link_in, &self.token_in)?;
            self.c += 1;
            settle += 1;
        }
        Ok(())
    }

    /// After settling: the central queues' lists are consistent, the failed links hold nothing, and every
    /// switch and processor is idle; otherwise [`Sp2SysError::Leak`] (or the list check's error).
    fn check_drained(&self) -> Result<(), Sp2SysError> {
        let net = &self.net;
        net.check()?;
        net.check_failed().map_err(Sp2SysError::Leak)?;
        if let Some((s, sw)) = net.switches.iter().enumerate().find(|(_, s)| !s.idle()) {
            return Err(Sp2SysError::Leak(format!(
                "switch `{}` not idle ({} chunks free of {CQ_CHUNKS})",
                net.names[s],
                sw.queue_free()
            )));
        }
        if let Some(k) = self.nodes.iter().position(|x| !x.is_idle()) {
            return Err(Sp2SysError::Leak(format!("processor {k} not idle")));
        }
        Ok(())
    }

    /// The fault scenario's results (`None` without a plan). Errors if a packet created after the switch to
    /// the new tables was lost, or if more packets arrived damaged than the failed links can cut (two each).
    fn fault_stats(&mut self) -> Result<Option<FaultStats>, Sp2SysError> {
        let Some(pl) = self.plan else {
            return Ok(None);
        };
        let switch_at = self.at.switch_at;
        let lost = self.pending.ids();
        let created = |id: &(usize, u32)| self.pending.get(id).map_or(0, |p| p.created);
        if let Some(&(s, k)) = lost.iter().find(|id| created(id) >= switch_at) {
            return Err(Sp2SysError::LostAfterReroute {
                src: s,
                seq: k,
                count: lost.iter().filter(|id| created(id) >= switch_at).count(),
            });
        }
        // Every failed channel can cut at most one packet.
        let t = &self.tally;
        if t.fragments > 2 * pl.links.len() as u64 {
            return Err(Sp2SysError::Leak(format!(
                "{} damaged packets from {} failed links (at most 2 per link)",
                t.fragments,
                pl.links.len()
            )));
        }
        let n = self.nodes.len();
        let per = |bytes: u64, cycles: u64| bytes as f64 / (n as f64 * cycles.max(1) as f64);
        Ok(Some(FaultStats {
            at: pl.at,
            switch_at,
            links: std::mem::take(&mut self.failed_names),
            lost_before_failure: lost.iter().filter(|id| created(id) < pl.at).count(),
            lost,
            fragments: t.fragments,
            discarded_bytes: self.net.discarded_bytes,
            filler_bytes: self.net.filler_bytes,
            created_after_switch: t.created_after,
            delivered_after_switch: t.delivered_after,
            accepted_before: per(t.bytes_before, pl.at - self.cfg.warmup),
            accepted_after: per(t.bytes_after, self.at.inject_until - switch_at),
        }))
    }

    /// The run's statistics, with `faults` from [`Self::fault_stats`].
    fn into_stats(mut self, faults: Option<FaultStats>) -> Sp2SysStats {
        let (mean_latency, p99_latency) = self.tally.latency_summary();
        let (via_q, via_x) = self
            .net
            .switches
            .iter()
            .map(|s| s.packets_via())
            .fold((0u64, 0u64), |(q, x), (a, b)| (q + a, x + b));
        let n = self.nodes.len();
        let sw = self.net.switches.len();
        let window = self.cfg.measure.max(1) as f64;
        let t = &self.tally;
        Sp2SysStats {
            processors: n,
            switches: sw,
            routing: self.routings[0].name(),
            load: self.cfg.load,
            accepted: t.accepted_bytes as f64 / (n as f64 * window),
            tagged: t.tagged,
            mean_latency,
            p99_latency,
            refused: t.refused,
            created: self.seq.iter().map(|&k| k as u64).sum(),
            delivered: t.delivered,
            mean_queue_chunks: t.q_sum as f64 / (window * sw as f64),
            max_queue_chunks: t.q_max,
            queue_share: via_q as f64 / (via_q + via_x).max(1) as f64,
            cycles: self.c,
            switch_steps: self.net.stepped,
            faults,
        }
    }
}

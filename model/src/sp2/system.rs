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
    pub warmup: u64,
    pub measure: u64,
    /// Packets a processor may have waiting before it refuses new ones.
    pub source_queue: usize,
    /// Per cycle, each processor consumes a received byte with this probability (1.0 = no backpressure).
    pub consume: f64,
    /// Check the central queues' lists every this many cycles (0 = only at the end).
    pub check_every: u64,
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
    pub processors: usize,
    pub switches: usize,
    pub routing: String,
    pub load: f64,
    /// Link bytes of delivered packets per processor per cycle, over the measured window.
    pub accepted: f64,
    /// Packets created in the measured window and their mean / 99th-percentile latency in cycles (creation to
    /// the last byte at the destination; includes waiting at the source).
    pub tagged: u64,
    pub mean_latency: f64,
    pub p99_latency: u64,
    /// Packets refused because their source queue was full (offered but never created).
    pub refused: u64,
    /// Packets created in the whole run, and delivered intact (all of them unless links failed).
    #[serde(default)]
    pub created: u64,
    pub delivered: u64,
    /// Mean chunks in use per central queue over the window, and the largest occupancy of any one queue.
    pub mean_queue_chunks: f64,
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

#[derive(Clone)]
struct Pending {
    created: u64,
    bytes: usize,
    tagged: bool,
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
    /// Bytes the failed links swallowed and filler bytes that completed cut packets.
    pub discarded_bytes: u64,
    pub filler_bytes: u64,
    /// Packets created from `switch_at` on, and how many of them were delivered (all, or the run fails).
    pub created_after_switch: u64,
    pub delivered_after_switch: u64,
    /// Accepted load (link bytes per processor per cycle) in the measured window before the failure and from
    /// `switch_at` to the end of injection.
    pub accepted_before: f64,
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
    mut net: Sp2Network<S>,
    routing: &dyn Routing,
    cfg: &Sp2SysConfig,
    plan: Option<&FaultPlan>,
) -> Result<Sp2SysStats, Sp2SysError> {
    let n = net.processors();
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
    let switch_at = plan.map_or(u64::MAX, |p| p.at + p.delay);
    let fail_at = plan.map_or(u64::MAX, |p| p.at);
    let mut rng = stream(cfg.seed, 0x5b2_5e7);
    let mut nodes: Vec<Node> = (0..n).map(|_| Node::new()).collect();
    let mut seq = vec![0u32; n];
    let mut pending: Scoreboard<Pending> = Scoreboard::new();
    let mut hops = Vec::new();
    let (mut refused, mut delivered, mut accepted_bytes) = (0u64, 0u64, 0u64);
    let (mut bytes_before, mut bytes_after) = (0u64, 0u64);
    let (mut created_after, mut delivered_after, mut fragments) = (0u64, 0u64, 0u64);
    let mut failed_names = Vec::new();
    let mut latencies: Vec<u64> = Vec::new();
    let mut tagged = 0u64;
    let (mut q_sum, mut q_max) = (0u64, 0usize);
    let (mut link_in, mut token_in) = (vec![None; n], vec![false; n]);
    // Mean route length per source and routing, so that a packet is created with probability load / (its mean
    // size on the link) and a processor offers `load` bytes per cycle on average.
    let mean_hops: Vec<Vec<f64>> = routings
        .iter()
        .map(|r| {
            (0..n)
                .map(|s| {
                    let total: usize = (0..n)
                        .filter(|&d| d != s)
                        .map(|d| {
                            r.route(s, d, &mut rng, &mut hops);
                            hops.len()
                        })
                        .sum();
                    total as f64 / (n - 1) as f64
                })
                .collect()
        })
        .collect();
    let mut watchdog = crate::scoreboard::Watchdog::new(DEADLOCK_CYCLES);
    let mut c = 0u64;
    loop {
        let injecting = c < inject_until;
        if !injecting && pending.outstanding() == 0 {
            break;
        }
        if c == fail_at {
            let pl = plan.expect("a failure time comes with a plan");
            for &(sw, port) in &pl.links {
                let (s2, p2) = net.fail_link(sw, port)?;
                failed_names.push(format!(
                    "{}.{port} <-> {}.{p2}",
                    net.names[sw], net.names[s2]
                ));
            }
        }
        let r = (c >= switch_at) as usize;
        if injecting {
            for (s, node) in nodes.iter_mut().enumerate() {
                let mut len = if cfg.payload_full {
                    super::stimulus::payload_len(&mut rng, mean_hops[r][s].round() as usize)
                } else {
                    rng.gen_range(cfg.payload.0..=cfg.payload.1)
                };
                // Packet bytes on a link: LEN, route bytes, payload, CRC.
                if !rng.gen_bool((cfg.load / (len as f64 + 2.0 + mean_hops[r][s])).min(1.0)) {
                    continue;
                }
                let dst = (s + rng.gen_range(1..n)) % n;
                if node.send_queue.len() >= cfg.source_queue {
                    refused += 1;
                    continue;
                }
                routings[r].route(s, dst, &mut rng, &mut hops);
                let header = Header::new(8, hops.clone()).map_err(|e| Sp2SysError::Route {
                    src: s,
                    dst,
                    why: e.to_string(),
                })?;
                if cfg.payload_full {
                    // The longest payloads of the whole range, cut to this route's length.
                    len = len.min(255 - hops.len());
                }
                if hops.len() + len > 255 {
                    return Err(Sp2SysError::Params(format!(
                        "route {s} → {dst} has {} hops: with {len} payload bytes LEN exceeds 255",
                        hops.len()
                    )));
                }
                let k = seq[s];
                seq[s] += 1;
                let bytes = encode_packet(&header, &payload_bytes(s, k, len)).map_err(|e| {
                    Sp2SysError::Route {
                        src: s,
                        dst,
                        why: e.to_string(),
                    }
                })?;
                let is_tagged = c >= cfg.warmup;
                tagged += is_tagged as u64;
                created_after += (c >= switch_at) as u64;
                pending.expect_len(
                    s,
                    k,
                    Dest::One(dst),
                    len,
                    Pending {
                        created: c,
                        bytes: bytes.len(),
                        tagged: is_tagged,
                    },
                );
                node.send_queue.push_back(bytes);
            }
        }
        // Nodes first (their outputs depend on their state only), then the network.
        let mut moved = false;
        for (k, node) in nodes.iter_mut().enumerate() {
            let (b, t) = net.to_node(k);
            moved |= b.is_some();
            let consume = if cfg.consume >= 1.0 || rng.gen_bool(cfg.consume) {
                1
            } else {
                0
            };
            let (lo, to) = node.cycle(c, b, t, consume);
            link_in[k] = lo;
            token_in[k] = to;
            moved |= lo.is_some();
        }
        moved |= net
            .switch_outputs()
            .iter()
            .any(|o| o.link_out.iter().any(|b| b.is_some()));
        net.step(&link_in, &token_in)?;
        if !moved
            && pending.outstanding() > 0
            && !injecting
            && net.is_idle()
            && nodes.iter().all(|x| x.is_idle())
        {
            // Nothing is anywhere: the packets still expected were lost.
            if plan.is_some() && c >= fail_at {
                break;
            }
            return Err(Sp2SysError::Lost {
                cycle: c,
                ids: pending.ids(),
            });
        }
        if watchdog.tick(c, moved, pending.outstanding() > 0).is_some() {
            if std::env::var_os("ASR_DUMP_DEADLOCK").is_some() {
                eprint!("{}", net.dump_busy());
            }
            return Err(Sp2SysError::Deadlock {
                cycle: c,
                outstanding: pending.outstanding(),
            });
        }
        let in_window = c >= cfg.warmup && c < inject_until;
        if in_window {
            for sw in &net.switches {
                let occ = sw.queue_chunks();
                q_sum += occ as u64;
                q_max = q_max.max(occ);
            }
        }
        if cfg.check_every > 0 && c.is_multiple_of(cfg.check_every) {
            net.check()?;
        }
        let after_failure = c >= fail_at;
        for (at, node) in nodes.iter_mut().enumerate() {
            for a in node.arrivals.drain(..) {
                // After a failure, a packet cut on a failed link may arrive damaged (completed with filler bytes
                // and flagged bad): it is counted as a fragment and its packet stays expected (lost).
                if after_failure && !pending.would_accept(at, &a) {
                    fragments += 1;
                    continue;
                }
                let (_, _, p) = pending.arrive(c, at, &a)?;
                delivered += 1;
                if in_window {
                    accepted_bytes += p.bytes as u64;
                    if c < fail_at {
                        bytes_before += p.bytes as u64;
                    } else if c >= switch_at {
                        bytes_after += p.bytes as u64;
                    }
                }
                if p.created >= switch_at {
                    delivered_after += 1;
                }
                if p.tagged {
                    latencies.push(a.cycle - p.created);
                }
            }
        }
        c += 1;
    }
    // Drain the last tokens and bytes in flight (all packets are in; the links settle within a few cycles).
    let mut settle = 0;
    while !(net.is_idle() && nodes.iter().all(|x| x.is_idle())) && settle < 1_000 {
        for (k, node) in nodes.iter_mut().enumerate() {
            let (b, t) = net.to_node(k);
            let (lo, to) = node.cycle(c, b, t, 1);
            link_in[k] = lo;
            token_in[k] = to;
        }
        net.step(&link_in, &token_in)?;
        c += 1;
        settle += 1;
    }
    net.check()?;
    net.check_failed().map_err(Sp2SysError::Leak)?;
    if let Some((s, sw)) = net.switches.iter().enumerate().find(|(_, s)| !s.idle()) {
        return Err(Sp2SysError::Leak(format!(
            "switch `{}` not idle ({} chunks free of {CQ_CHUNKS})",
            net.names[s],
            sw.queue_free()
        )));
    }
    if let Some(k) = nodes.iter().position(|x| !x.is_idle()) {
        return Err(Sp2SysError::Leak(format!("processor {k} not idle")));
    }
    let faults = match plan {
        None => None,
        Some(pl) => {
            let lost = pending.ids();
            let created = |id: &(usize, u32)| pending.get(id).map_or(0, |p| p.created);
            if let Some(&(s, k)) = lost.iter().find(|id| created(id) >= switch_at) {
                return Err(Sp2SysError::LostAfterReroute {
                    src: s,
                    seq: k,
                    count: lost.iter().filter(|id| created(id) >= switch_at).count(),
                });
            }
            // Every failed channel can cut at most one packet.
            if fragments > 2 * pl.links.len() as u64 {
                return Err(Sp2SysError::Leak(format!(
                    "{fragments} damaged packets from {} failed links (at most 2 per link)",
                    pl.links.len()
                )));
            }
            let per = |bytes: u64, cycles: u64| bytes as f64 / (n as f64 * cycles.max(1) as f64);
            Some(FaultStats {
                at: pl.at,
                switch_at,
                links: failed_names,
                lost_before_failure: lost.iter().filter(|id| created(id) < pl.at).count(),
                lost,
                fragments,
                discarded_bytes: net.discarded_bytes,
                filler_bytes: net.filler_bytes,
                created_after_switch: created_after,
                delivered_after_switch: delivered_after,
                accepted_before: per(bytes_before, pl.at - cfg.warmup),
                accepted_after: per(bytes_after, inject_until - switch_at),
            })
        }
    };
    latencies.sort_unstable();
    let (via_q, via_x) = net
        .switches
        .iter()
        .map(|s| s.packets_via())
        .fold((0u64, 0u64), |(q, x), (a, b)| (q + a, x + b));
    let sw = net.switches.len();
    Ok(Sp2SysStats {
        processors: n,
        switches: sw,
        routing: routing.name(),
        load: cfg.load,
        accepted: accepted_bytes as f64 / (n as f64 * cfg.measure.max(1) as f64),
        tagged,
        mean_latency: if latencies.is_empty() {
            0.0
        } else {
            latencies.iter().sum::<u64>() as f64 / latencies.len() as f64
        },
        p99_latency: latencies
            .get((latencies.len() * 99 / 100).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0),
        refused,
        created: seq.iter().map(|&k| k as u64).sum(),
        delivered,
        mean_queue_chunks: q_sum as f64 / (cfg.measure.max(1) as f64 * sw as f64),
        max_queue_chunks: q_max,
        queue_share: via_q as f64 / (via_q + via_x).max(1) as f64,
        cycles: c,
        switch_steps: net.stepped,
        faults,
    })
}

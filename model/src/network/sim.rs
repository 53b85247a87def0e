//! One simulation run (thesis Fig. 3.7): processors with source queues inject into an [`Engine`] under an
//! injection process and a traffic pattern, headers come from a [`Routing`] scheme, statistics are taken
//! from steady state, and the run ends when the network has drained.
//!
//! Per cycle t: (1) each processor whose issue time is t generates a packet (generation cycle t,
//! destination from the pattern) into its unbounded FIFO source queue; (2) a queue head that is not yet
//! offered gets its header from the routing scheme and is offered to the network; (3) the engine steps
//! (phase 1, phase 2); (4) accepted heads leave the queues, delivered packets are checked and counted.
//! Latency = (cycle of the delivery edge) − (generation cycle); it includes the source queue (thesis §3.5).
//!
//! **Flat memory.** A source queue holds nothing but two positions in the processor's traffic stream: the
//! *frontier* draws each packet's destination and next inter-arrival time when it is generated (to count
//! packets and know generation times), the *head* draws the very same numbers again when the packet
//! reaches the front of the queue and is offered. Queued packets are therefore never stored, whatever the
//! backlog, and the results equal those of an explicit FIFO. The scoreboard
//! ([`crate::scoreboard::Scoreboard`]) holds the packets inside the network only. Memory is independent of
//! the run's length at any load.
//!
//! **Steady state.** The network population P(t) (packets in switch buffers) is averaged over windows of
//! `W = max(64, 8·switches/processors)` cycles; the network is steady at the end of the first window whose
//! mean is not above the previous window's (the population has stopped growing), or after 64 windows.
//! **Measurement window** `[t0, t1)`: t0 = steady cycle; t1 = the first cycle by which every processor has
//! generated at least `packets_per_input` packets at or after t0. Injection stops at t1; the run continues
//! until every queue and buffer is empty. Measured packets = those generated in `[t0, t1)`; accepted
//! throughput = packets delivered during `[t0, t1)` / (processors × (t1 − t0)).
//!
//! **Invariants** (errors): every generated packet is delivered exactly once (scoreboard keyed by
//! (source, sequence) holding the destination), at its destination, with its header fully used (checked by
//! the engine) and its tag
//! intact; no buffer ever holds more packets than it has room for (checked by the engine on every write);
//! the network drains within `max_cycles`; a network in which no packet is delivered for `DEADLOCK_CYCLES`
//! cycles while packets are inside it is reported as a deadlock ([`crate::scoreboard::Watchdog`]).
//!
//! Random streams: processor p draws its traffic from `stream(seed, p)`, its routing choices from
//! `stream(seed, N + p)` and its sink back-pressure from `stream(seed, 2N + p)`: identical seeds give
//! identical traffic for every routing scheme, whatever the thread count.

use super::engine::{Engine, StepIo};
use super::packet::{Meta, Packets, NONE};
use super::NetError;
use crate::rng::{stream, Rng};
use crate::routing::Routing;
use crate::scoreboard::{Dest, ScoreError, Scoreboard, Watchdog};
use crate::traffic::{Injection, Pattern};
use rand::Rng as _;

/// The deadlock watchdog: no delivery for this many cycles while packets are inside the network is an error.
pub const DEADLOCK_CYCLES: u64 = 20_000;

/// Parameters of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimConfig {
    /// When each processor generates packets.
    pub injection: Injection,
    /// Where each packet goes.
    pub pattern: Pattern,
    /// Seed of every random stream of the run (see "Random streams" above).
    pub seed: u64,
    /// Packets each processor generates inside the measurement window (at least). Thesis: 1500.
    pub packets_per_input: u64,
    /// Probability that a processor accepts a delivery in a given cycle (1.0: always; < 1: back-pressure).
    pub sink_ready: f64,
    /// Give up (error) after this many cycles.
    pub max_cycles: u64,
}

impl SimConfig {
    /// Thesis defaults: 1500 packets per input, processors always accept.
    pub fn new(injection: Injection, pattern: Pattern, seed: u64) -> Self {
        SimConfig {
            injection,
            pattern,
            seed,
            packets_per_input: 1500,
            sink_ready: 1.0,
            max_cycles: 50_000_000,
        }
    }
}

/// Results of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SimStats {
    /// Offered load (packets per input per cycle).
    pub offered: f64,
    /// Accepted throughput in the measurement window (packets per input per cycle).
    pub accepted: f64,
    /// Mean latency of measured packets (cycles, source queue included).
    pub mean_latency: f64,
    /// Maximum latency of measured packets (cycles, source queue included).
    pub max_latency: u64,
    /// Mean time in cycles of measured packets from entering the first switch to delivery (no source
    /// queueing).
    pub mean_network_latency: f64,
    /// Packets generated in the measurement window and delivered (all of them: a lost packet is an error).
    pub measured: u64,
    /// Start of the measurement window, t0: the cycle the network was found steady.
    pub steady_cycle: u64,
    /// End of the measurement window, t1 (exclusive): injection stops here.
    pub window_end: u64,
    /// Cycles run in all, drain included.
    pub cycles: u64,
    /// Packets generated in the whole run.
    pub generated: u64,
    /// Packets delivered in the whole run (equal to `generated`).
    pub delivered: u64,
    /// Switch evaluations performed (switches × cycles), for speed figures.
    pub router_cycles: u64,
    /// Memory high-water mark: the most packets stored at once (in the network or offered). It does not grow
    /// with the run's length (see "Flat memory").
    pub peak_packets: u64,
    /// Memory high-water mark: the most scoreboard entries at once (packets inside the network).
    pub peak_scoreboard: u64,
}

/// A processor's source queue as two positions in its traffic stream (see "Flat memory" above).
struct Source {
    /// Frontier: draws at generation time; `front_next` = cycle of the next generation.
    front: Rng,
    front_next: u64,
    /// Head: replays the same draws when a packet reaches the front; `head_next` = its generation cycle.
    head: Rng,
    head_next: u64,
    /// Packets generated (frontier) and taken to the front (head) so far.
    generated: u64,
    taken: u64,
}

const NEVER: u64 = u64::MAX;

/// Runs one configuration on a fresh copy of `net` (its flow control and allocator; the routing scheme's
/// per-hop rule).
pub fn simulate(
    net: &Engine,
    routing: &dyn Routing,
    cfg: &SimConfig,
) -> Result<SimStats, NetError> {
    let n = net.processors();
    if routing.processors() != n {
        return Err(NetError::SizeMismatch {
            routing: routing.processors(),
            network: n,
        });
    }
    cfg.pattern.check(n)?;
    if let Some(p) = (0..n).find(|&p| !net.can_inject(p)) {
        return Err(NetError::CannotInject(p));
    }
    let mut e = net.clone();
    e.prepare(routing.max_hops());
    e.set_rule(routing.hop_rule());
    e.seed_allocator(cfg.seed);
    let mut pk = Packets::new(routing.max_hops());
    let mut src: Vec<Source> = (0..n)
        .map(|p| {
            let mut r = stream(cfg.seed, p as u64);
            let first = cfg.injection.gap(&mut r).map_or(NEVER, |g| g - 1);
            Source {
                front: r.clone(),
                front_next: first,
                head: r,
                head_next: first,
                generated: 0,
                taken: 0,
            }
        })
        .collect();
    let mut route_rng: Vec<Rng> = (0..n).map(|p| stream(cfg.seed, (n + p) as u64)).collect();
    let mut sink_rng: Vec<Rng> = (0..n)
        .map(|p| stream(cfg.seed, (2 * n + p) as u64))
        .collect();
    let mut offer = vec![NONE; n];
    let mut sink_ready = vec![true; n];
    let mut board: Scoreboard<()> = Scoreboard::new(n);
    let mut next_seq = vec![0u32; n];
    let mut io = StepIo::default();
    let mut hops = Vec::with_capacity(routing.max_hops());

    let mut st = SimStats {
        offered: cfg.injection.load(),
        ..Default::default()
    };
    if cfg.injection.load() <= 0.0 {
        return Ok(st);
    }
    let window = 64u64.max(8 * e.switches() as u64 / n as u64);
    let (mut wsum, mut prev_mean, mut windows) = (0u64, f64::INFINITY, 0u32);
    let mut t0: Option<u64> = None;
    let mut t1: Option<u64> = None;
    let mut measured_gen = vec![0u64; n];
    let mut short = n; // processors below packets_per_input in the window
    let (mut lat_sum, mut net_lat_sum, mut lat_max, mut measured) = (0u64, 0u64, 0u64, 0u64);
    let mut delivered_in_window = 0u64;
    let mut queued = 0usize;
    let mut watchdog = Watchdog::new(DEADLOCK_CYCLES);

    let mut t = 0u64;
    loop {
        // (1) generation (the frontier).
        if t1.is_none() {
            for (p, s) in src.iter_mut().enumerate() {
                if s.front_next == t {
                    cfg.pattern.dest(p, n, &mut s.front);
                    s.generated += 1;
                    queued += 1;
                    st.generated += 1;
                    if t0.is_some() {
                        measured_gen[p] += 1;
                        if measured_gen[p] == cfg.packets_per_input {
                            short -= 1;
                        }
                    }
                    s.front_next = cfg.injection.gap(&mut s.front).map_or(NEVER, |g| t + g);
                }
            }
        }
        // (2) offers: the head of a non-empty queue (replayed from the head position).
        for (p, s) in src.iter_mut().enumerate() {
            if offer[p] == NONE && s.taken < s.generated {
                let g = s.head_next;
                let d = cfg.pattern.dest(p, n, &mut s.head) as u32;
                s.head_next = cfg.injection.gap(&mut s.head).map_or(NEVER, |x| g + x);
                s.taken += 1;
                routing.route(p, d as usize, &mut route_rng[p], &mut hops);
                let seq = next_seq[p];
                next_seq[p] += 1;
                board
                    .expect(p, seq as u64, Dest::One(d as usize), ())
                    .expect("sequence numbers are issued in order");
                let meta = Meta {
                    src: p as u32,
                    dst: d,
                    seq,
                    gen: g,
                    entered: 0,
                };
                offer[p] = pk.alloc(meta, &hops);
            }
        }
        if cfg.sink_ready < 1.0 {
            for p in 0..n {
                sink_ready[p] = sink_rng[p].gen::<f64>() < cfg.sink_ready;
            }
        }
        // (3) the cycle.
        e.step(&mut pk, &offer, &sink_ready, &mut io)?;
        st.router_cycles += e.switches() as u64;
        // (4) bookkeeping.
        for &p in &io.accepted {
            let p = p as usize;
            pk.meta_mut(offer[p]).entered = t;
            offer[p] = NONE;
            queued -= 1;
        }
        let in_window = t0.is_some_and(|a| t >= a) && t1.is_none_or(|b| t < b);
        for &(at, w) in &io.delivered {
            let m = *pk.meta(w);
            if m.dst != at {
                return Err(NetError::Misdelivered {
                    src: m.src,
                    seq: m.seq,
                    dst: m.dst,
                    at,
                });
            }
            // The scoreboard holds the destination the source chose; the packet's tag must match it.
            match board.arrive(m.src as usize, m.seq as u64, at as usize) {
                Ok(()) => {}
                Err(ScoreError::Misdelivered { dst, .. }) => {
                    return Err(NetError::BadTag {
                        src: m.src,
                        seq: m.seq,
                        expected: dst as u32,
                        found: m.dst,
                    })
                }
                Err(_) => {
                    return Err(NetError::Duplicate {
                        src: m.src,
                        seq: m.seq,
                    })
                }
            }
            st.delivered += 1;
            if in_window {
                delivered_in_window += 1;
            }
            if t0.is_some_and(|a| m.gen >= a) && t1.is_none_or(|b| m.gen < b) {
                let l = t - m.gen;
                lat_sum += l;
                net_lat_sum += t - m.entered;
                lat_max = lat_max.max(l);
                measured += 1;
            }
            pk.free(w);
        }
        // Steady-state detection.
        if t0.is_none() {
            wsum += e.population() as u64;
            if (t + 1).is_multiple_of(window) {
                let mean = wsum as f64 / window as f64;
                windows += 1;
                if mean <= prev_mean && windows >= 2 || windows >= 64 {
                    t0 = Some(t + 1);
                }
                prev_mean = mean;
                wsum = 0;
            }
        } else if t1.is_none() && short == 0 {
            t1 = Some(t + 1);
        }
        t += 1;
        if t1.is_some() && queued == 0 && e.population() == 0 {
            break;
        }
        // Watchdog: packets inside the network but none delivered for DEADLOCK_CYCLES cycles.
        if let Some(idle) = watchdog.tick(t, !io.delivered.is_empty(), e.population() != 0) {
            return Err(NetError::Deadlock {
                cycle: t,
                idle,
                population: e.population(),
            });
        }
        if t >= cfg.max_cycles {
            return Err(NetError::NotDrained {
                cycles: t,
                population: e.population(),
                queued,
            });
        }
    }
    let lost = st.generated - st.delivered;
    if lost != 0 {
        return Err(NetError::Lost { lost });
    }
    let (a, b) = (t0.unwrap_or(0), t1.unwrap_or(t));
    st.steady_cycle = a;
    st.window_end = b;
    st.cycles = t;
    st.measured = measured;
    st.accepted = delivered_in_window as f64 / (n as f64 * (b - a).max(1) as f64);
    if measured > 0 {
        st.mean_latency = lat_sum as f64 / measured as f64;
        st.mean_network_latency = net_lat_sum as f64 / measured as f64;
    }
    st.max_latency = lat_max;
    st.peak_packets = pk.capacity() as u64;
    st.peak_scoreboard = board.peak() as u64;
    Ok(st)
}

//! Measurements of one SP2-style switch with a node on every port (docs/sp2-switch.md): throughput per port
//! at saturation, central-queue occupancy, the share of packets through the crossbar and the queue, latency;
//! and the cut-through latency of a packet through the idle switch ([`cut_through_latency`]).
//!
//! Every node keeps `backlog` packets queued (saturation) or injects at a given offered load; destinations
//! are uniform over the ports, as single-port route sets (source routing) or as random sets of `set_bits`
//! ports (ASR); nodes consume one byte per cycle (no backpressure beyond the link's own).
//!
//! Every run has the systems' scoreboard ([`super::scoreboard`]): every packet arrives exactly once, at a
//! port of its route set, intact and with a good CRC; after the measured cycles injection stops and the
//! switch drains, and then nothing may be outstanding, the switch must be idle with its free list full
//! (its lists are checked) and every node idle. A broken invariant, or no byte moving for
//! [`DEADLOCK_CYCLES`] while packets are outstanding, is an error.

use super::node::Node;
use super::scoreboard::{payload_bytes, Dest, Scoreboard};
use super::system::{Sp2SysError, DEADLOCK_CYCLES};
use super::v1::switch::Sp2Switch;
use super::{encode_packet, SwitchModel, PORTS};
use crate::header::Header;
use crate::rng::stream;
use rand::Rng;
use serde::Serialize;

/// One measurement.
#[derive(Debug, Clone, Serialize)]
pub struct Sp2Stats {
    /// Ports in each packet's route set.
    pub set_bits: u32,
    /// Offered load in bytes per port per cycle (1.0 = saturation: always a packet waiting).
    pub offered: f64,
    /// Measured cycles (after a warm-up of a fifth as many).
    pub cycles: u64,
    /// Link bytes delivered per output port per cycle (measured after warm-up).
    pub throughput: f64,
    /// Mean chunks in use in the central queue over the measured cycles.
    pub mean_queue_chunks: f64,
    /// The most chunks in use in any measured cycle.
    pub max_queue_chunks: usize,
    /// Share of packets that went through the central queue.
    pub queue_share: f64,
    /// Mean latency in cycles from a packet's first byte sent to its last byte received.
    pub mean_latency: f64,
    /// Packets sent in the whole run (every one checked by the scoreboard and delivered).
    pub packets: u64,
}

/// Runs `cycles` cycles (after `cycles / 5` of warm-up), then drains; payloads of `payload` bytes (6..=250:
/// the first six carry the source and a sequence number). On the v1 switch ([`run_on`] runs either).
pub fn run(
    set_bits: u32,
    offered: f64,
    payload: usize,
    cycles: u64,
    seed: u64,
) -> Result<Sp2Stats, Sp2SysError> {
    run_on::<Sp2Switch>(set_bits, offered, payload, cycles, seed)
}

/// [`run`] on the switch model `S`.
pub fn run_on<S: SwitchModel>(
    set_bits: u32,
    offered: f64,
    payload: usize,
    cycles: u64,
    seed: u64,
) -> Result<Sp2Stats, Sp2SysError> {
    if !((1..=8).contains(&set_bits)
        && offered > 0.0
        && offered <= 1.0
        && (6..=250).contains(&payload))
    {
        return Err(Sp2SysError::Params(format!(
            "set bits {set_bits} (1..=8), offered {offered} ((0, 1]), payload {payload} (6..=250)"
        )));
    }
    let mut rng = stream(seed, 0x5b2);
    let mut sw = S::default();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let pkt_bytes = payload + 3;
    let warm = cycles / 5;
    let (mut wires_out, mut wires_tok) = ([None; PORTS], [false; PORTS]);
    let (mut bytes_out, mut q_sum, mut q_max) = (0u64, 0u64, 0usize);
    // Per packet: the cycle its first byte was sent (`u64::MAX` until then).
    let mut board: Scoreboard<()> = Scoreboard::new();
    let mut sent_at: Vec<std::collections::HashMap<u32, u64>> = vec![Default::default(); PORTS];
    let mut seq = [0u32; PORTS];
    let (mut lat_sum, mut lat_n) = (0u64, 0u64);
    let mut watchdog = crate::scoreboard::Watchdog::new(DEADLOCK_CYCLES);
    let mut c = 0u64;
    loop {
        let injecting = c < warm + cycles;
        if !injecting && board.outstanding() == 0 {
            break;
        }
        if injecting {
            for (s, n) in nodes.iter_mut().enumerate() {
                let want = if offered >= 1.0 {
                    n.send_queue.len() < 2
                } else {
                    rng.gen_bool((offered / pkt_bytes as f64).min(1.0))
                };
                if want {
                    let mut set = 0u8;
                    while set.count_ones() < set_bits {
                        set |= 1 << rng.gen_range(0..PORTS);
                    }
                    let k = seq[s];
                    seq[s] += 1;
                    n.send_queue.push_back(
                        encode_packet(
                            &Header::new(8, vec![set as u64]).expect("non-empty set"),
                            &payload_bytes(s, k, payload),
                        )
                        .expect("8-bit route"),
                    );
                    board.expect(s, k, Dest::Set(set as u64), ());
                    sent_at[s].insert(k, u64::MAX);
                }
            }
        }
        let mut link_in = [None; PORTS];
        let mut token_in = [false; PORTS];
        let mut moved = wires_out.iter().any(|b| b.is_some());
        for p in 0..PORTS {
            let before = nodes[p].first_byte_cycles.len();
            let (b, t) = nodes[p].cycle(c, wires_out[p], wires_tok[p], 1);
            link_in[p] = b;
            token_in[p] = t;
            moved |= b.is_some();
            if nodes[p].first_byte_cycles.len() > before {
                // The packet that just started: the oldest one not yet started.
                let k = (nodes[p].first_byte_cycles.len() - 1) as u32;
                sent_at[p].insert(k, c);
            }
        }
        let o = sw
            .step_pins(&link_in, &token_in)
            .map_err(Sp2SysError::Model)?;
        wires_out = o.link_out;
        wires_tok = o.token_out;
        if c >= warm && injecting {
            bytes_out += o.link_out.iter().filter(|b| b.is_some()).count() as u64;
            let occ = sw.queue_chunks();
            q_sum += occ as u64;
            q_max = q_max.max(occ);
        }
        if watchdog.tick(c, moved, board.outstanding() > 0).is_some() {
            if std::env::var_os("ASR_DUMP").is_some() {
                eprintln!("{}", sw.dump());
            }
            return Err(Sp2SysError::Deadlock {
                cycle: c,
                outstanding: board.outstanding(),
            });
        }
        for (at, n) in nodes.iter_mut().enumerate() {
            for a in n.arrivals.drain(..) {
                let (src, k, ()) = board.arrive(c, at, &a)?;
                if let Some(t0) = sent_at[src].remove(&k) {
                    if c >= warm && injecting && t0 != u64::MAX {
                        lat_sum += c - t0;
                        lat_n += 1;
                    }
                }
            }
        }
        c += 1;
    }
    // The last tokens and bytes in flight settle within a few cycles.
    let mut settle = 0;
    while !(sw.idle() && nodes.iter().all(|x| x.is_idle())) && settle < 1_000 {
        let mut link_in = [None; PORTS];
        let mut token_in = [false; PORTS];
        for p in 0..PORTS {
            (link_in[p], token_in[p]) = nodes[p].cycle(c, wires_out[p], wires_tok[p], 1);
        }
        let o = sw
            .step_pins(&link_in, &token_in)
            .map_err(Sp2SysError::Model)?;
        (wires_out, wires_tok) = (o.link_out, o.token_out);
        c += 1;
        settle += 1;
    }
    sw.check_queue().map_err(Sp2SysError::Model)?;
    if !sw.idle() {
        return Err(Sp2SysError::Leak(format!(
            "the switch is not idle ({} chunks in use)",
            sw.queue_chunks()
        )));
    }
    if let Some(k) = nodes.iter().position(|x| !x.is_idle()) {
        return Err(Sp2SysError::Leak(format!("node {k} not idle")));
    }
    let (via_q, via_x) = sw.packets_via();
    Ok(Sp2Stats {
        set_bits,
        offered,
        cycles,
        throughput: bytes_out as f64 / (cycles as f64 * PORTS as f64),
        mean_queue_chunks: q_sum as f64 / cycles as f64,
        max_queue_chunks: q_max,
        queue_share: via_q as f64 / (via_q + via_x).max(1) as f64,
        mean_latency: if lat_n == 0 {
            0.0
        } else {
            lat_sum as f64 / lat_n as f64
        },
        packets: seq.iter().map(|&k| k as u64).sum(),
    })
}

/// The cut-through latency of the idle switch, measured: one packet of `payload` bytes from port 2 to
/// port 6, cycles from its first byte leaving the node to the first byte leaving the switch.
pub fn cut_through_latency(payload: usize) -> Result<u64, Sp2SysError> {
    cut_through_latency_on::<Sp2Switch>(payload)
}

/// [`cut_through_latency`] of the switch model `S`.
pub fn cut_through_latency_on<S: SwitchModel>(payload: usize) -> Result<u64, Sp2SysError> {
    let mut sw = S::default();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let h = Header::new(8, vec![1 << 6]).expect("one port");
    let bytes = encode_packet(&h, &payload_bytes(2, 0, payload.max(6)))
        .map_err(|e| Sp2SysError::Params(e.to_string()))?;
    nodes[2].send_queue.push_back(bytes);
    let (mut wires_out, mut wires_tok) = ([None; PORTS], [false; PORTS]);
    for c in 0..1_000u64 {
        let mut link_in = [None; PORTS];
        let mut token_in = [false; PORTS];
        for p in 0..PORTS {
            (link_in[p], token_in[p]) = nodes[p].cycle(c, wires_out[p], wires_tok[p], 1);
        }
        let o = sw
            .step_pins(&link_in, &token_in)
            .map_err(Sp2SysError::Model)?;
        (wires_out, wires_tok) = (o.link_out, o.token_out);
        if o.link_out[6].is_some() {
            return Ok(c - nodes[2].first_byte_cycles[0]);
        }
    }
    Err(Sp2SysError::Leak(
        "one packet through the idle switch did not come out in 1000 cycles".into(),
    ))
}

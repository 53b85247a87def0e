//! Measurements of one SP2-style switch with a node on every port (docs/sp2-switch.md): throughput per port
//! at saturation, central-queue occupancy, the share of packets through the crossbar and the queue, latency.
//!
//! Every node keeps `backlog` packets queued (saturation) or injects at a given offered load; destinations
//! are uniform over the ports, as single-port route sets (source routing) or as random sets of `set_bits`
//! ports (ASR); nodes consume one byte per cycle (no backpressure beyond the link's own).

use super::node::Node;
use super::switch::{Sp2Error, Sp2Switch};
use super::{encode_packet, PORTS};
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
    pub cycles: u64,
    /// Link bytes delivered per output port per cycle (measured after warm-up).
    pub throughput: f64,
    pub mean_queue_chunks: f64,
    pub max_queue_chunks: usize,
    /// Share of packets that went through the central queue.
    pub queue_share: f64,
    /// Mean latency in cycles from a packet's first byte sent to its last byte received.
    pub mean_latency: f64,
}

/// Runs `cycles` cycles (after `cycles / 5` of warm-up) with payloads of `payload` bytes (5..=250: the first
/// five carry the source and a sequence number).
pub fn run(
    set_bits: u32,
    offered: f64,
    payload: usize,
    cycles: u64,
    seed: u64,
) -> Result<Sp2Stats, Sp2Error> {
    assert!(
        (1..=8).contains(&set_bits)
            && offered > 0.0
            && offered <= 1.0
            && (5..=250).contains(&payload)
    );
    let mut rng = stream(seed, 0x5b2);
    let mut sw = Sp2Switch::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let pkt_bytes = payload + 3;
    let warm = cycles / 5;
    let (mut wires_out, mut wires_tok) = ([None; PORTS], [false; PORTS]);
    let (mut bytes_out, mut q_sum, mut q_max) = (0u64, 0u64, 0usize);
    let mut sent_at: Vec<std::collections::HashMap<u32, u64>> = vec![Default::default(); PORTS];
    let mut seq = [0u32; PORTS];
    let (mut lat_sum, mut lat_n) = (0u64, 0u64);
    for c in 0..warm + cycles {
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
                let mut p = vec![s as u8];
                p.extend_from_slice(&seq[s].to_be_bytes());
                p.resize(payload, 0xa5);
                n.send_queue.push_back(
                    encode_packet(
                        &Header::new(8, vec![set as u64]).expect("non-empty set"),
                        &p,
                    )
                    .expect("8-bit route"),
                );
                sent_at[s].insert(seq[s], u64::MAX);
                seq[s] += 1;
            }
        }
        let mut link_in = [None; PORTS];
        let mut token_in = [false; PORTS];
        for p in 0..PORTS {
            let before = nodes[p].first_byte_cycles.len();
            let (b, t) = nodes[p].cycle(c, wires_out[p], wires_tok[p], 1);
            link_in[p] = b;
            token_in[p] = t;
            if nodes[p].first_byte_cycles.len() > before {
                // The packet that just started: the oldest one not yet started.
                let k = (nodes[p].first_byte_cycles.len() - 1) as u32;
                sent_at[p].insert(k, c);
            }
        }
        let o = sw.step(&link_in, &token_in)?;
        wires_out = o.link_out;
        wires_tok = o.token_out;
        if c >= warm {
            bytes_out += o.link_out.iter().filter(|b| b.is_some()).count() as u64;
            let occ = sw.cq.occupancy();
            q_sum += occ as u64;
            q_max = q_max.max(occ);
        }
        for n in nodes.iter_mut() {
            for a in n.arrivals.drain(..) {
                let src = a.payload[0] as usize;
                let k =
                    u32::from_be_bytes([a.payload[1], a.payload[2], a.payload[3], a.payload[4]]);
                if let Some(t0) = sent_at[src].remove(&k) {
                    if c >= warm && t0 != u64::MAX {
                        lat_sum += c - t0;
                        lat_n += 1;
                    }
                }
            }
        }
    }
    let via_q: u64 = sw.tx.iter().map(|t| t.packets_queue).sum();
    let via_x: u64 = sw.tx.iter().map(|t| t.packets_xbar).sum();
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
    })
}

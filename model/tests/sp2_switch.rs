//! The SP2-style switch model alone, with a node on each port: every packet delivered once, intact, at one of
//! its permitted outputs (scoreboard keyed by source and sequence), backpressure on and off; cut-through
//! latency without contention; a corrupted byte detected, counted and flagged; no chunk leaks and the switch
//! drains. Seeds are printed on failure (ASR_SEED overrides).

use asr_model::header::Header;
use asr_model::rng::stream;
use asr_model::sp2::node::Node;
use asr_model::sp2::v1::switch::Sp2Switch;
use asr_model::sp2::{encode_packet, PORTS};
use rand::Rng;
use std::collections::HashMap;

fn seed() -> u64 {
    std::env::var("ASR_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5b2)
}

/// Drives the switch and its 8 nodes for one cycle; `consume[o]` bytes per cycle at node o.
fn cycle(
    sw: &mut Sp2Switch,
    nodes: &mut [Node],
    wires: &mut ([Option<u8>; PORTS], [bool; PORTS]),
    consume: &[usize; PORTS],
    corrupt: Option<usize>,
) {
    let (sw_out_prev, sw_tok_prev) = *wires;
    let mut link_in = [None; PORTS];
    let mut token_in = [false; PORTS];
    for p in 0..PORTS {
        let (b, t) = nodes[p].cycle(sw.cycle, sw_out_prev[p], sw_tok_prev[p], consume[p]);
        link_in[p] = b;
        token_in[p] = t;
    }
    if let Some(p) = corrupt {
        link_in[p] = link_in[p].map(|b| b ^ 0x10);
    }
    let o = sw
        .step(&link_in, &token_in)
        .unwrap_or_else(|e| panic!("cycle {}: {e}", sw.cycle));
    *wires = (o.link_out, o.token_out);
    sw.check()
        .unwrap_or_else(|e| panic!("cycle {}: {e}", sw.cycle));
}

struct Expect {
    set: u8,
    payload: Vec<u8>,
}

fn random_traffic(seed: u64, packets_per_node: usize, backpressure: bool, max_set_bits: u32) {
    let mut rng = stream(seed, 3);
    let mut sw = Sp2Switch::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let mut expect: HashMap<(u8, u16), Expect> = HashMap::new();
    for (src, node) in nodes.iter_mut().enumerate() {
        for seq in 0..packets_per_node as u16 {
            let set: u8 = loop {
                let s = rng.gen::<u8>() & rng.gen::<u8>();
                if s != 0 && s.count_ones() <= max_set_bits {
                    break s;
                }
            };
            let n = rng.gen_range(3..40);
            let mut payload = vec![src as u8, (seq >> 8) as u8, seq as u8];
            payload.extend((3..n).map(|_| rng.gen::<u8>()));
            let h = Header::new(8, vec![set as u64]).unwrap();
            node.send_queue
                .push_back(encode_packet(&h, &payload).unwrap());
            expect.insert((src as u8, seq), Expect { set, payload });
        }
    }
    let total = expect.len();
    let mut wires = ([None; PORTS], [false; PORTS]);
    let mut delivered = 0;
    let mut cycles = 0u64;
    while delivered < total {
        let consume: [usize; PORTS] = std::array::from_fn(|_| {
            if backpressure {
                rng.gen_bool(0.6) as usize
            } else {
                2
            }
        });
        cycle(&mut sw, &mut nodes, &mut wires, &consume, None);
        for (o, n) in nodes.iter_mut().enumerate() {
            for a in n.arrivals.drain(..) {
                assert!(a.crc_ok, "seed {seed}: CRC error at output {o}");
                let key = (
                    a.payload[0],
                    u16::from_be_bytes([a.payload[1], a.payload[2]]),
                );
                let e = expect.remove(&key).unwrap_or_else(|| {
                    panic!("seed {seed}: unexpected or duplicate packet {key:?} at output {o}")
                });
                assert!(
                    e.set >> o & 1 == 1,
                    "seed {seed}: packet {key:?} left on output {o}, not in its set {:#04x}",
                    e.set
                );
                assert_eq!(
                    a.payload, e.payload,
                    "seed {seed}: packet {key:?} corrupted"
                );
                delivered += 1;
            }
        }
        cycles += 1;
        assert!(
            cycles < 2_000_000,
            "seed {seed}: no progress ({delivered}/{total} delivered)"
        );
    }
    // Drain: the switch and the nodes empty out, every chunk back on the free list, all credit returned.
    for _ in 0..100 {
        cycle(&mut sw, &mut nodes, &mut wires, &[4; PORTS], None);
    }
    assert!(expect.is_empty());
    assert!(sw.is_idle(), "seed {seed}: switch not idle after draining");
    assert!(
        nodes.iter().all(|n| n.is_idle() && n.credit == 16),
        "seed {seed}: credit not returned"
    );
    assert!(sw
        .rx
        .iter()
        .all(|r| r.crc_errors == 0 && r.route_errors == 0));
    let via_q: u64 = sw.tx.iter().map(|t| t.packets_queue).sum();
    let via_x: u64 = sw.tx.iter().map(|t| t.packets_xbar).sum();
    assert_eq!((via_q + via_x) as usize, total);
    if backpressure {
        assert!(
            via_q > 0,
            "seed {seed}: backpressure never used the central queue"
        );
    }
}

#[test]
fn scoreboard_single_port_routes_no_backpressure() {
    random_traffic(seed(), 300, false, 1);
}

#[test]
fn scoreboard_adaptive_routes_with_backpressure() {
    random_traffic(seed() + 1, 300, true, 8);
}

#[test]
fn scoreboard_adaptive_routes_no_backpressure() {
    random_traffic(seed() + 2, 300, false, 3);
}

#[test]
fn cut_through_latency_is_five_cycles() {
    let mut sw = Sp2Switch::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let h = Header::new(8, vec![1 << 6]).unwrap();
    nodes[2]
        .send_queue
        .push_back(encode_packet(&h, &[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]).unwrap());
    let mut wires = ([None; PORTS], [false; PORTS]);
    let mut first_out = None;
    for c in 0..60u64 {
        cycle(&mut sw, &mut nodes, &mut wires, &[1; PORTS], None);
        if first_out.is_none() && wires.0[6].is_some() {
            // wires hold what the switch drove in cycle c.
            first_out = Some(c);
            assert_eq!(wires.0[6], Some(10), "first outgoing byte is LEN - 1");
        }
    }
    let sent = nodes[2].first_byte_cycles[0];
    assert_eq!(first_out.unwrap() - sent, 5, "cut-through latency");
    assert_eq!(nodes[6].arrivals.len(), 1);
    assert_eq!(sw.tx[6].packets_xbar, 1);
}

#[test]
fn corrupted_byte_is_detected_and_flagged() {
    let mut sw = Sp2Switch::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let h = Header::new(8, vec![1 << 3]).unwrap();
    for k in 0..3u8 {
        nodes[0]
            .send_queue
            .push_back(encode_packet(&h, &[k; 20]).unwrap());
    }
    let mut wires = ([None; PORTS], [false; PORTS]);
    for c in 0..200u64 {
        // Corrupt one byte in the middle of the second packet (24 bytes per packet on the wire).
        let corrupt = (c == 24 + 10).then_some(0);
        cycle(&mut sw, &mut nodes, &mut wires, &[1; PORTS], corrupt);
    }
    assert_eq!(sw.rx[0].crc_errors, 1);
    let ok: Vec<bool> = nodes[3].arrivals.iter().map(|a| a.crc_ok).collect();
    assert_eq!(
        ok,
        vec![true, false, true],
        "the bad packet is flagged (inverted CRC), the others are intact"
    );
    assert!(sw.is_idle());
}

#[test]
fn empty_route_set_is_dropped_and_counted() {
    let mut sw = Sp2Switch::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    // A packet whose route byte is 0 (built by hand: Header refuses empty sets).
    let mut bad = vec![4u8, 0, 1, 2, 3];
    bad.push(asr_model::sp2::crc8(&bad));
    nodes[1].send_queue.push_back(bad);
    nodes[1]
        .send_queue
        .push_back(encode_packet(&Header::new(8, vec![1]).unwrap(), &[42]).unwrap());
    let mut wires = ([None; PORTS], [false; PORTS]);
    for _ in 0..60 {
        cycle(&mut sw, &mut nodes, &mut wires, &[1; PORTS], None);
    }
    assert_eq!(sw.rx[1].route_errors, 1);
    assert_eq!(nodes[0].arrivals.len(), 1);
    assert_eq!(nodes[0].arrivals[0].payload, vec![42]);
    assert!(sw.is_idle());
}

/// The single-switch measurement (`asr sp2`) runs under the systems' scoreboard and drains; its cut-through
/// latency is measured, not assumed; bad parameters are errors.
#[test]
fn experiment_has_a_scoreboard_and_measures_cut_through() {
    use asr_model::sp2::experiment::{cut_through_latency, run};
    for (bits, load) in [(1, 1.0), (2, 0.6), (8, 1.0)] {
        let s = run(bits, load, 32, 3_000, 7).unwrap();
        assert!(s.packets > 200, "{s:?}");
        assert!(s.throughput > 0.1, "{s:?}");
    }
    assert_eq!(cut_through_latency(10).unwrap(), 5);
    assert_eq!(cut_through_latency(200).unwrap(), 5);
    assert!(run(0, 1.0, 32, 1_000, 1).is_err());
    assert!(run(1, 1.0, 5, 1_000, 1).is_err());
}

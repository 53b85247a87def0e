//! `sp2_board_v2`: the 16-node board of 8 `sp2_switch_v2` chips against the model network
//! `asr_model::sp2::network::Sp2Network` of the same switch version ([`SwitchTwin`]) on
//! `builtin("sp2:16")`, both driven by the same 16 model processors
//! (`asr_model::sp2::node::Node`): packets with ASR headers from the route generator's tables
//! (`TableRouting::from_tables`) and some with their single-path reduction, random destinations (on the same
//! chip: one switch; on another chip: three switches, turning around at a stage chip), payloads over the
//! whole legal range with its corners often and gaps of 0 or 1 idle cycles most of the time
//! (`asr_model::sp2::stimulus`), load phases, random consumer backpressure on and off. The board's outputs
//! and every chip's link and token outputs (`chips_*` ports) are compared every cycle; a scoreboard checks
//! that every packet arrives exactly once, intact, at its destination — by its payload, which from 4 bytes
//! on starts with (source, destination, sequence) and below is random bytes, matched by content
//! (`asr_model::content_board`, exact whatever the collisions); after the drain every switch must be idle
//! with its free list full.

use super::sp2_switch::SwitchTwin;
use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use asr_model::content_board::ContentBoard;
use asr_model::header::Header;
use asr_model::routing::{Routing, TableRouting};
use asr_model::scoreboard::Dest;
use asr_model::sp2::network::Sp2Network;
use asr_model::sp2::node::Node;
use asr_model::sp2::stimulus::{gap, payload_len, Corners};
use asr_model::sp2::{encode_packet, PORTS};
use asr_model::topology::{builtin, Topology};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

crate::rusthdl_io!(
    Sp2BoardV2Io,
    asr_hdl::sp2::board::Sp2BoardV2,
    clocked,
    [node_in_valid, node_in_data, node_token_in],
    [
        node_out_valid,
        node_out_data,
        node_token_out,
        chips_link_out_valid,
        chips_link_out_data,
        chips_token_out
    ]
);

/// Processors on the board.
pub const N: usize = 16;
/// Switch chips on the board.
pub const CHIPS: usize = 8;

/// A packet the scoreboard waits for.
#[derive(Clone)]
struct Expect {
    hops: usize,
    single: bool,
}

/// The route generator's ASR tables of `t` (maximum adaptivity).
pub fn asr_tables(t: &Topology) -> TableRouting {
    let tables = asr_model::routes::generate(t, asr_model::routes::Method::Pruned, &|| {})
        .expect("route tables of sp2:16");
    TableRouting::from_tables(t, &tables, "asr").expect("a route for every pair")
}

/// The board definition for switch version `S` (`S::BOARD`): the 16 model processors' traffic, the model
/// network and the delivery scoreboard of the module documentation.
pub struct Sp2BoardTop<S: SwitchTwin> {
    rng: Xoshiro256PlusPlus,
    net: Sp2Network<S>,
    asr: TableRouting,
    single: TableRouting,
    nodes: Vec<Node>,
    seq: Vec<u16>,
    /// Expected packets by payload, at their destination.
    pending: ContentBoard<Vec<u8>, Expect>,
    corners: Corners,
    /// Cycles per load phase.
    phase_len: u64,
    /// Per processor: probability of consuming a received byte in this phase.
    consume: [f64; N],
    draining: bool,
    hops: Vec<u64>,
    injected: u64,
    delivered: u64,
    one_hop: u64,
    three_hop: u64,
    single_path: u64,
    bytes_out: u64,
}

impl<S: SwitchTwin> Sp2BoardTop<S> {
    /// Load phases of `phase_len` cycles (1 000 for long runs; shorter ones see every phase sooner).
    pub fn new(seed: u64, phase_len: u64) -> Self {
        let t = builtin("sp2:16").expect("built-in topology");
        let asr = asr_tables(&t);
        let single = asr.single_path("single");
        Sp2BoardTop {
            rng: rng(seed ^ 0xb0a2d),
            net: Sp2Network::new(&t).expect("sp2:16 is an SP2 network"),
            asr,
            single,
            nodes: (0..N).map(|_| Node::new()).collect(),
            seq: vec![0; N],
            pending: ContentBoard::new(),
            corners: Corners::default(),
            phase_len,
            consume: [1.0; N],
            draining: false,
            hops: Vec::new(),
            injected: 0,
            delivered: 0,
            one_hop: 0,
            three_hop: 0,
            single_path: 0,
            bytes_out: 0,
        }
    }

    /// A new packet from `src`: destination, route (ASR or single-path), payload `[src, dst, seq_hi, seq_lo,
    /// …]` (random bytes below 4 bytes), and the gap before it.
    fn new_packet(&mut self, src: usize, single_share: f64) -> Result<(u32, Vec<u8>), String> {
        let rng = &mut self.rng;
        let dst = if rng.gen_bool(0.3) {
            // Same chip: one switch.
            4 * (src / 4) + (src % 4 + rng.gen_range(1..4)) % 4
        } else {
            (src + rng.gen_range(1..N)) % N
        };
        let single = rng.gen_bool(single_share);
        let routing: &dyn Routing = if single { &self.single } else { &self.asr };
        routing.route(src, dst, rng, &mut self.hops);
        let len = payload_len(rng, self.hops.len());
        let g = gap(rng);
        self.corners.count(len, 255 - self.hops.len(), g);
        // The sequence number wraps after 65 536 packets per source; a packet of the same number still in
        // flight would be matched by content all the same (the board is exact).
        let seq = self.seq[src];
        self.seq[src] = seq.wrapping_add(1);
        let mut payload = vec![src as u8, dst as u8, (seq >> 8) as u8, seq as u8];
        payload.truncate(len);
        payload.extend((payload.len()..len).map(|_| rng.gen::<u8>()));
        if len < 4 {
            payload = (0..len).map(|_| rng.gen::<u8>()).collect();
        }
        let header =
            Header::new(8, self.hops.clone()).map_err(|e| format!("generated route: {e}"))?;
        let bytes = encode_packet(&header, &payload).map_err(|e| format!("packet: {e}"))?;
        let e = Expect {
            hops: self.hops.len(),
            single,
        };
        self.pending.expect(payload, Dest::One(dst), e);
        self.injected += 1;
        Ok((g, bytes))
    }

    /// Takes the packets that arrived this cycle off the scoreboard.
    fn collect(&mut self) -> Result<(), String> {
        for at in 0..N {
            for a in std::mem::take(&mut self.nodes[at].arrivals) {
                if !a.crc_ok {
                    return Err(format!(
                        "processor {at} got a packet with a bad CRC: {:02x?}",
                        a.payload
                    ));
                }
                let e = self
                    .pending
                    .arrive(&a.payload, at)
                    .map_err(|e| format!("processor {at}: a packet {e}: {:02x?}", a.payload))?;
                self.delivered += 1;
                match e.hops {
                    1 => self.one_hop += 1,
                    3 => self.three_hop += 1,
                    h => return Err(format!("a {h}-switch route on one board")),
                }
                self.single_path += e.single as u64;
            }
        }
        Ok(())
    }
}

impl<S: SwitchTwin> Top for Sp2BoardTop<S> {
    fn name(&self) -> &str {
        S::BOARD
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let mut link_out = [None; N];
        let mut token_out = [false; N];
        for k in 0..N {
            (link_out[k], token_out[k]) = self.net.to_node(k);
        }
        // Phases: 0 heavy mixed, 1 heavy with backpressure, 2 heavy single-path, 3 light with backpressure.
        let phase = (n / self.phase_len) % 4;
        if n.is_multiple_of(self.phase_len) {
            for c in self.consume.iter_mut() {
                *c = if phase % 2 == 1 {
                    self.rng.gen_range(0.15..0.9)
                } else {
                    1.0
                };
            }
        }
        let (p_new, single_share) =
            [(0.04, 0.25), (0.04, 0.25), (0.04, 1.0), (0.008, 0.25)][phase as usize];
        let mut link_in = [None; N];
        let mut token_in = [false; N];
        for k in 0..N {
            if !self.draining && self.nodes[k].send_queue.len() < 3 && self.rng.gen_bool(p_new) {
                let (g, p) = self.new_packet(k, single_share)?;
                self.nodes[k].send_after(g, p);
            }
            let consume = (self.draining || self.rng.gen_bool(self.consume[k])) as usize;
            (link_in[k], token_in[k]) = self.nodes[k].cycle(n, link_out[k], token_out[k], consume);
        }
        self.bytes_out += link_out.iter().filter(|b| b.is_some()).count() as u64;
        super::sp2_switch::put_link(pins, "node_in_", "node_token_in", &link_in, &token_in);
        super::sp2_switch::put_link(expect, "node_out_", "node_token_out", &link_out, &token_out);
        let chips = self.net.switch_outputs();
        let valid: Vec<bool> = chips
            .iter()
            .flat_map(|c| c.link_out.map(|b| b.is_some()))
            .collect();
        let data: Vec<u8> = chips
            .iter()
            .flat_map(|c| c.link_out.map(|b| b.unwrap_or(0)))
            .collect();
        let tokens: Vec<bool> = chips.iter().flat_map(|c| c.token_out).collect();
        expect.put_bools("chips_link_out_valid", &valid);
        expect.put_bytes("chips_link_out_data", &data);
        expect.put_bools("chips_token_out", &tokens);
        self.net
            .step(&link_in, &token_in)
            .map_err(|e| format!("model: {e}"))?;
        if n.is_multiple_of(97) {
            self.net.check().map_err(|e| format!("model: {e}"))?;
        }
        self.collect()
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.pending.outstanding() == 0
            && self.nodes.iter().all(|x| x.is_idle())
            && self.net.is_idle()
    }

    fn drain_limit(&self) -> u64 {
        5_000
    }

    fn packets(&self) -> u64 {
        self.delivered
    }

    fn finish(&mut self) -> Result<(), String> {
        self.net
            .check()
            .map_err(|e| format!("model after draining: {e}"))?;
        for (s, sw) in self.net.switches.iter().enumerate() {
            if !sw.idle() || sw.queue_free() != asr_model::sp2::CQ_CHUNKS {
                return Err(format!(
                    "chip {s} not idle after draining ({} queue chunks free)",
                    sw.queue_free()
                ));
            }
        }
        if self.delivered != self.injected {
            return Err(format!(
                "{} packets injected, {} delivered",
                self.injected, self.delivered
            ));
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let (via_queue, via_xbar) = self
            .net
            .switches
            .iter()
            .map(|s| s.packets_via())
            .fold((0, 0), |(q, x), (a, b)| (q + a, x + b));
        vec![
            ("injected", self.injected),
            ("delivered", self.delivered),
            ("one_switch", self.one_hop),
            ("three_switch", self.three_hop),
            ("single_path", self.single_path),
            ("bytes_out", self.bytes_out),
            ("hops_via_xbar", via_xbar),
            ("hops_via_queue", via_queue),
        ]
        .into_iter()
        .chain(self.corners.counters())
        .collect()
    }
}

const _: () = assert!(PORTS == 8);

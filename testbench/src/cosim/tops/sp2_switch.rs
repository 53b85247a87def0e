//! `sp2_switch`: the whole SP2-style 8×8 switch against `asr_model::sp2::switch::Sp2Switch::step`, with a
//! model node (`asr_model::sp2::node::Node`) on each port: random packets (route sets of 1, 2 or any number
//! of ports, extra route bytes, 0..40-byte payloads, a few empty route sets, a few packets with one flipped
//! bit — in the payload or CRC, or anywhere), random consumer backpressure at the nodes (a slow consumer in
//! one load phase, and stalls of 20..300 cycles switched on and off at random at every node), load phases;
//! `link_out`, `token_out` and the receivers' error counters (modulo 256) compared every cycle; the model's
//! queue invariants checked every 500 cycles. No drain: a flipped bit in `LEN` misframes a receiver until
//! more bytes arrive, so the switch is never certain to empty (the board's traffic has no such packets and
//! drains).

use crate::cosim::{Frame, Top};
use crate::harness::rng;
use asr_model::header::Header;
use asr_model::sp2::node::Node;
use asr_model::sp2::switch::Sp2Switch;
use asr_model::sp2::v2::switch::Sp2SwitchV2;
use asr_model::sp2::{crc8, encode_packet, SwitchModel, PORTS};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

crate::rusthdl_io!(
    Sp2SwitchIo,
    asr_hdl::sp2::switch::Sp2Switch,
    clocked,
    [link_in_valid, link_in_data, token_in],
    [
        link_out_valid,
        link_out_data,
        token_out,
        crc_errors,
        route_errors
    ]
);

crate::rusthdl_io!(
    Sp2SwitchV2Io,
    asr_hdl::sp2::v2::switch::Sp2SwitchV2,
    clocked,
    [link_in_valid, link_in_data, token_in],
    [
        link_out_valid,
        link_out_data,
        token_out,
        crc_errors,
        route_errors
    ]
);

/// The switch models this top drives (v1 `sp2_switch`, v2 `sp2_switch_v2`): the model crate's
/// [`SwitchModel`] and what the top reads besides.
pub trait SwitchTwin: SwitchModel {
    /// The exported top.
    const TOP: &'static str;
    /// The exported 16-node board of these chips.
    const BOARD: &'static str;
    /// Cycles stepped.
    fn cycles(&self) -> u64;
    /// Receiver i's CRC and route error counts.
    fn errors(&self, i: usize) -> (u64, u64);
}

impl SwitchTwin for Sp2Switch {
    const TOP: &'static str = "sp2_switch";
    const BOARD: &'static str = "sp2_board";
    fn cycles(&self) -> u64 {
        self.cycle
    }
    fn errors(&self, i: usize) -> (u64, u64) {
        (self.rx[i].crc_errors, self.rx[i].route_errors)
    }
}

impl SwitchTwin for Sp2SwitchV2 {
    const TOP: &'static str = "sp2_switch_v2";
    const BOARD: &'static str = "sp2_board_v2";
    fn cycles(&self) -> u64 {
        self.cycle
    }
    fn errors(&self, i: usize) -> (u64, u64) {
        (self.rx[i].crc_errors, self.rx[i].route_errors)
    }
}

/// A random packet for load phase `phase` (1: single-port routes only).
pub fn random_packet(rng: &mut Xoshiro256PlusPlus, phase: u64) -> Vec<u8> {
    let set: u8 = match rng.gen_range(0..40) {
        0 => 0, // malformed: dropped and counted
        k if k < 16 || phase == 1 => 1 << rng.gen_range(0..8),
        k if k < 30 => {
            let a = rng.gen_range(0..8);
            let b = (a + rng.gen_range(1..8)) % 8;
            (1 << a) | (1 << b)
        }
        _ => rng.gen_range(1..=255),
    };
    let hops: Vec<u64> = std::iter::once(set as u64)
        .chain((0..rng.gen_range(0..3)).map(|_| rng.gen_range(1..=255u64)))
        .collect();
    let payload: Vec<u8> = (0..rng.gen_range(0..=40)).map(|_| rng.gen()).collect();
    let route_bytes = hops.len();
    let mut p = if set == 0 {
        // `Header` refuses an empty set: the same format by hand (docs/sp2-switch.md §2).
        let mut p = vec![(hops.len() + payload.len()) as u8];
        p.extend(hops.iter().map(|&h| h as u8));
        p.extend_from_slice(&payload);
        p.push(crc8(&p));
        p
    } else {
        encode_packet(&Header::new(8, hops).expect("non-empty sets"), &payload).expect("LEN ≤ 255")
    };
    // One flipped bit: in the payload or the CRC (the packet is routed and flagged bad: a CRC error), or
    // anywhere (LEN and route bytes too: misframed and malformed packets).
    if rng.gen_bool(0.02) {
        let k = if rng.gen_bool(0.7) {
            rng.gen_range(1 + route_bytes..p.len())
        } else {
            rng.gen_range(0..p.len())
        };
        p[k] ^= 1 << rng.gen_range(0..8);
    }
    p
}

pub struct Sp2SwitchTop<S: SwitchTwin = Sp2Switch> {
    rng: Xoshiro256PlusPlus,
    sw: S,
    nodes: Vec<Node>,
    wires: ([Option<u8>; PORTS], [bool; PORTS]),
    stall_until: [u64; PORTS],
    bytes_out: u64,
}

impl<S: SwitchTwin> Sp2SwitchTop<S> {
    pub fn new(seed: u64) -> Self {
        Sp2SwitchTop {
            rng: rng(seed),
            sw: S::default(),
            nodes: (0..PORTS).map(|_| Node::new()).collect(),
            wires: ([None; PORTS], [false; PORTS]),
            stall_until: [0; PORTS],
            bytes_out: 0,
        }
    }
}

impl<S: SwitchTwin> Top for Sp2SwitchTop<S> {
    fn name(&self) -> &str {
        S::TOP
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        // 0: heavy mixed sets, 1: heavy single-port routes, 2: light load, 3: backpressured outputs.
        let phase = (n / 2500) % 4;
        let (p_new, p_consume) =
            [(0.05, 1.0), (0.05, 1.0), (0.01, 1.0), (0.05, 0.3)][phase as usize];
        let mut link_in = [None; PORTS];
        let mut token_in = [false; PORTS];
        for p in 0..PORTS {
            if self.nodes[p].send_queue.len() < 4 && self.rng.gen_bool(p_new) {
                let pkt = random_packet(&mut self.rng, phase);
                self.nodes[p].send_queue.push_back(pkt);
            }
            if n >= self.stall_until[p] && self.rng.gen_bool(0.001) {
                self.stall_until[p] = n + self.rng.gen_range(20..300);
            }
            let consume = (n >= self.stall_until[p] && self.rng.gen_bool(p_consume)) as usize;
            (link_in[p], token_in[p]) =
                self.nodes[p].cycle(self.sw.cycles(), self.wires.0[p], self.wires.1[p], consume);
        }
        let crc: [u8; PORTS] = std::array::from_fn(|i| self.sw.errors(i).0 as u8);
        let route: [u8; PORTS] = std::array::from_fn(|i| self.sw.errors(i).1 as u8);
        let o = self
            .sw
            .step_pins(&link_in, &token_in)
            .map_err(|e| format!("model: {e}"))?;
        if n.is_multiple_of(500) {
            self.sw.check_queue().map_err(|e| format!("model: {e}"))?;
        }
        self.bytes_out += o.link_out.iter().filter(|b| b.is_some()).count() as u64;
        self.wires = (o.link_out, o.token_out);
        put_link(pins, "link_in_", "token_in", &link_in, &token_in);
        put_link(expect, "link_out_", "token_out", &o.link_out, &o.token_out);
        expect.put_bytes("crc_errors", &crc);
        expect.put_bytes("route_errors", &route);
        Ok(())
    }

    fn packets(&self) -> u64 {
        let (q, x) = self.sw.packets_via();
        q + x
    }

    fn finish(&mut self) -> Result<(), String> {
        self.sw
            .check_queue()
            .map_err(|e| format!("model at the end: {e}"))
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let (q, x) = self.sw.packets_via();
        let errs = (0..PORTS).map(|i| self.sw.errors(i));
        vec![
            ("bytes_out", self.bytes_out),
            ("via_xbar", x),
            ("via_queue", q),
            ("crc_errors", errs.clone().map(|e| e.0).sum()),
            ("route_errors", errs.map(|e| e.1).sum()),
        ]
    }
}

/// An SP2 link bundle (docs/sp2-switch.md §3) as the ports `{prefix}valid`, `{prefix}data` and `token`:
/// valid bits, bytes (0 when not valid), tokens.
pub fn put_link(f: &mut Frame, prefix: &str, token: &str, link: &[Option<u8>], tokens: &[bool]) {
    let valid: Vec<bool> = link.iter().map(Option::is_some).collect();
    let data: Vec<u8> = link.iter().map(|b| b.unwrap_or(0)).collect();
    f.put_bools(&format!("{prefix}valid"), &valid);
    f.put_bytes(&format!("{prefix}data"), &data);
    f.put_bools(token, tokens);
}

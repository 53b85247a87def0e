//! `sp2_switch_v2`: the whole SP2-style 8×8 switch against its model (`asr_model::sp2::v2::switch::Sp2SwitchV2`,
//! generic over the version: [`SwitchTwin`]), with a
//! model node (`asr_model::sp2::node::Node`) on each port: random packets (route sets of 1, 2 or any number
//! of ports, extra route bytes, payloads over the whole legal range with its corners often —
//! `asr_model::sp2::stimulus`: 0, 1 and 2 bytes, the chunk boundaries, the longest — sent back to back or
//! after 1 idle cycle most of the time; a few empty route sets and `LEN = 0` packets, dropped and counted; a
//! few packets with one flipped bit after `R1`, routed and flagged bad), random consumer backpressure at the
//! nodes (a slow consumer in one load phase, and stalls of 20..300 cycles switched on and off at random at
//! every node), load phases; `link_out`, `token_out` and the receivers' error counters (modulo 256) compared
//! every cycle; the model's queue invariants checked every 500 cycles.
//!
//! Scoreboard: every packet the switch should forward is expected by its content (what follows `LEN − 1`:
//! the further route bytes and the payload, and whether its CRC must arrive good) at the ports of its route
//! set (`asr_model::content_board`: exact even for the many empty payloads), every arrival is matched, and
//! after the drain nothing is outstanding and the switch is idle with every chunk free. (Bit flips in `LEN`
//! or `R1`, which misframe a receiver for good, are the receiver tops' stimulus, not this one's.)

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use asr_model::content_board::ContentBoard;
use asr_model::header::Header;
use asr_model::scoreboard::Dest;
use asr_model::sp2::node::Node;
use asr_model::sp2::stimulus::{gap, payload_len, Corners};
use asr_model::sp2::v2::switch::Sp2SwitchV2;
use asr_model::sp2::v3::switch::Sp2SwitchV3;
use asr_model::sp2::{crc8, encode_packet, SwitchModel, PORTS};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

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

crate::rusthdl_io!(
    Sp2SwitchV3Io,
    asr_hdl::sp2::v3::switch::Sp2SwitchV3,
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

/// The switch models this top drives (v2 `sp2_switch_v2`; each version implements it): the model crate's
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

impl SwitchTwin for Sp2SwitchV3 {
    const TOP: &'static str = "sp2_switch_v3";
    const BOARD: &'static str = "sp2_board_v3";
    fn cycles(&self) -> u64 {
        self.cycle
    }
    fn errors(&self, i: usize) -> (u64, u64) {
        (self.rx[i].crc_errors, self.rx[i].route_errors)
    }
}

/// The switch's pins as frames (inputs, outputs), for a run of the model alone.
pub(crate) fn pin_frames() -> (Frame, Frame) {
    use crate::cosim::ports::Port;
    let ports = |list: &[(&str, usize)]| -> Vec<Port> {
        let mut off = 0;
        list.iter()
            .map(|&(name, width)| {
                let p = Port {
                    name: name.into(),
                    width,
                    offset: off,
                };
                off += p.words();
                p
            })
            .collect()
    };
    let i = ports(&[("link_in_valid", 8), ("link_in_data", 64), ("token_in", 8)]);
    let o = ports(&[
        ("link_out_valid", 8),
        ("link_out_data", 64),
        ("token_out", 8),
        ("crc_errors", 64),
        ("route_errors", 64),
    ]);
    (Frame::new(&i), Frame::new(&o))
}

/// Runs this top's stimulus and scoreboard on switch model `S` alone (no HDL: a version whose HDL is not
/// written yet) for `cycles` cycles from `seed`, then drains and makes the final checks; returns the
/// counters.
pub fn model_only<S: SwitchTwin>(
    seed: u64,
    cycles: u64,
) -> Result<Vec<(&'static str, u64)>, String> {
    let mut t = Sp2SwitchTop::<S>::new(seed);
    let (mut pins, mut expect) = pin_frames();
    let mut n = 0;
    while n < cycles {
        pins.clear();
        expect.clear();
        t.cycle(n, &mut pins, &mut expect)
            .map_err(|e| format!("seed {seed:#x}, cycle {n}: {e}"))?;
        n += 1;
    }
    t.drain();
    let end = n + t.drain_limit();
    while !t.drained() {
        if n >= end {
            return Err(format!("seed {seed:#x}: not drained by cycle {n}"));
        }
        pins.clear();
        expect.clear();
        t.cycle(n, &mut pins, &mut expect)
            .map_err(|e| format!("seed {seed:#x}, cycle {n}: {e}"))?;
        n += 1;
    }
    t.finish().map_err(|e| format!("seed {seed:#x}: {e}"))?;
    Ok(t.counters())
}

/// A random packet for load phase `phase` (1: single-port routes only), and what the switch forwards of it
/// (none for a malformed one): its content after `LEN − 1`, whether its CRC arrives good, its route set.
pub struct RandomPacket {
    /// The packet as sent on the link, from `LEN` to the CRC byte.
    pub bytes: Vec<u8>,
    /// What the switch forwards: (bytes after `LEN − 1` up to the CRC, CRC good, route set `R1`); `None`
    /// for a malformed packet the switch drops.
    pub forwarded: Option<(Vec<u8>, bool, u8)>,
    /// Its payload and the largest payload its route allows.
    pub payload: usize,
    /// The largest payload in bytes its route bytes leave room for (`255 −` route bytes; 0 for `LEN = 0`).
    pub max: usize,
}

/// Draws a [`RandomPacket`].
pub fn random_packet(rng: &mut Xoshiro256PlusPlus, phase: u64) -> RandomPacket {
    if rng.gen_range(0..60) == 0 {
        // `LEN = 0`: two bytes, dropped and counted.
        return RandomPacket {
            bytes: vec![0, crc8(&[0])],
            forwarded: None,
            payload: 0,
            max: 0,
        };
    }
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
    let len = payload_len(rng, hops.len());
    let payload: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
    let max = 255 - hops.len();
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
    // One flipped bit after `R1` (further route bytes, payload or CRC): the packet is routed and flagged
    // bad, and arrives with a bad CRC.
    let mut good = true;
    if p.len() > 2 && rng.gen_bool(0.02) {
        let k = rng.gen_range(2..p.len());
        p[k] ^= 1 << rng.gen_range(0..8);
        good = false;
    }
    let forwarded = (set != 0).then(|| (p[2..p.len() - 1].to_vec(), good, set));
    RandomPacket {
        bytes: p,
        forwarded,
        payload: len,
        max,
    }
}

/// The switch definition for version `S` (`S::TOP`): the eight model nodes' traffic and backpressure, the
/// model switch and the content scoreboard of the module documentation.
pub struct Sp2SwitchTop<S: SwitchTwin> {
    rng: Xoshiro256PlusPlus,
    sw: S,
    nodes: Vec<Node>,
    wires: ([Option<u8>; PORTS], [bool; PORTS]),
    stall_until: [u64; PORTS],
    bytes_out: u64,
    /// Expected packets by content (what follows `LEN − 1`, CRC good): (source port, its packet number).
    board: ContentBoard<(Vec<u8>, bool), (usize, u64)>,
    sent: [u64; PORTS],
    delivered: u64,
    corners: Corners,
    draining: bool,
}

impl<S: SwitchTwin> Sp2SwitchTop<S> {
    /// The switch model.
    pub fn switch(&self) -> &S {
        &self.sw
    }

    /// The switch model, to change (for example to turn on its tracing).
    pub fn switch_mut(&mut self) -> &mut S {
        &mut self.sw
    }

    /// An idle switch and nodes, stimulus drawn from `seed`, from load phase 0.
    pub fn new(seed: u64) -> Self {
        Sp2SwitchTop {
            rng: rng(seed),
            sw: S::default(),
            nodes: (0..PORTS).map(|_| Node::new()).collect(),
            wires: ([None; PORTS], [false; PORTS]),
            stall_until: [0; PORTS],
            bytes_out: 0,
            board: ContentBoard::new(),
            sent: [0; PORTS],
            delivered: 0,
            corners: Corners::default(),
            draining: false,
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
            if !self.draining && self.nodes[p].send_queue.len() < 4 && self.rng.gen_bool(p_new) {
                let pkt = random_packet(&mut self.rng, phase);
                let g = gap(&mut self.rng);
                self.corners.count(pkt.payload, pkt.max, g);
                if let Some((body, good, set)) = pkt.forwarded {
                    self.board
                        .expect((body, good), Dest::Set(set as u64), (p, self.sent[p]));
                }
                self.sent[p] += 1;
                self.nodes[p].send_after(g, pkt.bytes);
            }
            if n >= self.stall_until[p] && self.rng.gen_bool(0.001) {
                self.stall_until[p] = n + self.rng.gen_range(20..300);
            }
            let consume = (self.draining
                || (n >= self.stall_until[p] && self.rng.gen_bool(p_consume)))
                as usize;
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
        for at in 0..PORTS {
            for a in std::mem::take(&mut self.nodes[at].arrivals) {
                self.board
                    .arrive(&(a.payload, a.crc_ok), at)
                    .map_err(|e| format!("scoreboard, cycle {n}: a packet {e}"))?;
                self.delivered += 1;
            }
        }
        put_link(pins, "link_in_", "token_in", &link_in, &token_in);
        put_link(expect, "link_out_", "token_out", &o.link_out, &o.token_out);
        expect.put_bytes("crc_errors", &crc);
        expect.put_bytes("route_errors", &route);
        Ok(())
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.board.outstanding() == 0
            && self.nodes.iter().all(|x| x.is_idle())
            && self.sw.idle()
            && self.wires.0.iter().all(Option::is_none)
    }

    fn drain_limit(&self) -> u64 {
        // Four packets of up to 257 bytes queued at every node, then the switch's contents.
        20_000
    }

    fn packets(&self) -> u64 {
        let (q, x) = self.sw.packets_via();
        q + x
    }

    fn finish(&mut self) -> Result<(), String> {
        self.sw
            .check_queue()
            .map_err(|e| format!("model at the end: {e}"))?;
        if self.board.outstanding() != 0 {
            let lost: Vec<String> = self
                .board
                .unarrived()
                .iter()
                .take(10)
                .map(|(s, k)| format!("{s}#{k}"))
                .collect();
            return Err(format!(
                "{} packets never arrived, e.g. {}",
                self.board.outstanding(),
                lost.join(", ")
            ));
        }
        if !self.sw.idle() {
            return Err("the switch is not idle after the drain".into());
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let (q, x) = self.sw.packets_via();
        let errs = (0..PORTS).map(|i| self.sw.errors(i));
        let mut v = vec![
            ("bytes_out", self.bytes_out),
            ("via_xbar", x),
            ("via_queue", q),
            ("delivered", self.delivered),
            ("crc_errors", errs.clone().map(|e| e.0).sum()),
            ("route_errors", errs.map(|e| e.1).sum()),
        ];
        v.extend(self.corners.counters());
        v
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

/// Asserts that a run of this top of `cycles` cycles of traffic exercised what it should (per 100 000
/// cycles: the byte and packet counts, both paths, both error counters, every payload corner and both
/// short gaps, at about half of what seed 0x5eeda5a5 gives on either switch).
pub fn assert_exercised(r: &crate::cosim::report::Report, cycles: u64) {
    assert_counts(&|name| r.counter(name), cycles, &r.to_string());
}

/// [`assert_exercised`] on named counts (`get`), `what` describing the run in the message.
pub fn assert_counts(get: &dyn Fn(&str) -> u64, cycles: u64, what: &str) {
    let k = cycles as f64 / 100_000.0;
    let want = [
        ("bytes_out", 250_000.0),
        ("via_xbar", 800.0),
        ("via_queue", 1_500.0),
        ("delivered", 2_000.0),
        ("crc_errors", 40.0),
        ("route_errors", 90.0),
        ("payload_0", 250.0),
        ("payload_1", 200.0),
        ("payload_2", 200.0),
        ("payload_max", 120.0),
        ("gap_0", 1_200.0),
        ("gap_1", 600.0),
    ];
    for (name, per) in want {
        assert!(
            get(name) as f64 > per * k,
            "too little `{name}` ({} < {:.0}): {what}",
            get(name),
            per * k
        );
    }
}

//! Directed stimulus for the SP2 switch (`sp2_switch_v2`, generic over the version): a scripted [`Top`] for regression
//! tests that must reproduce an exact byte sequence at the pins, in lock-step with the model and through the
//! exported Verilog (Icarus, Verilator) with the same script ([`crate::cosim::Options::stimulus`]).
//!
//! A [`Script`] gives, per input port, either raw bytes per cycle (`None`: no byte that cycle; the script
//! keeps within the link's 16 bytes of credit itself) or whole packets handed to a model node at a given
//! cycle (the node sends them back to back within its credit), and per output port the cycles in which its
//! node consumes nothing (no tokens return: back-pressure), or raw `token_in` per cycle in place of a port's
//! node (exact token timing). The model switch runs beside, every output is compared every cycle, and at the
//! end the script's check gets the [`Log`]: the bytes each output sent (with their cycles) and every cycle's
//! pins ([`Pins`]: what went in, what the switch drove, its error counters), and names what is wrong. The
//! backends equal the model on every output in every cycle, so what the check sees holds for the Verilog too.

use super::sp2_switch::{put_link, SwitchTwin};
use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use asr_model::sp2::node::Node;
use asr_model::sp2::PORTS;
use std::ops::Range;
use std::sync::Arc;

/// What each output sent: per output, (cycle, byte) in order.
pub type Sent = Vec<Vec<(u64, u8)>>;

/// The switch's pins in one cycle, as the exported Verilog shows them before the edge.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pins {
    /// `link_in_valid/data[i]` (None: not valid).
    pub link_in: [Option<u8>; PORTS],
    /// `token_in[i]`.
    pub token_in: [bool; PORTS],
    /// `link_out_valid/data[o]`.
    pub link_out: [Option<u8>; PORTS],
    /// `token_out[o]`.
    pub token_out: [bool; PORTS],
    /// `crc_errors[8i +: 8]` and `route_errors[8i +: 8]`.
    pub crc_errors: [u8; PORTS],
    /// See `crc_errors`.
    pub route_errors: [u8; PORTS],
}

/// What a run of a script recorded, for its check.
#[derive(Debug, Clone, Default)]
pub struct Log {
    /// What each output sent.
    pub sent: Sent,
    /// Every cycle's pins, indexed by cycle.
    pub pins: Vec<Pins>,
}

/// A check of a run's [`Log`].
pub type Check = Arc<dyn Fn(&Log) -> Result<(), String> + Send + Sync>;

/// A directed test's stimulus.
#[derive(Clone)]
pub struct Script {
    /// Per input: raw bytes, one per cycle from cycle 0.
    pub raw: Vec<(usize, Vec<Option<u8>>)>,
    /// Packets (whole byte strings) handed to the node on a port at a cycle.
    pub packets: Vec<(u64, usize, Vec<u8>)>,
    /// Per output: the cycles in which its node consumes nothing.
    pub stall: Vec<(usize, Range<u64>)>,
    /// Per output: raw `token_in`, one per cycle from cycle 0, in place of the node's tokens (none after the
    /// end; the script keeps within the credit itself: a token beyond it is a model error).
    pub tokens: Vec<(usize, Vec<bool>)>,
    /// Cycles after which the switch must be idle and everything delivered.
    pub cycles: u64,
    /// The script's check of the run's [`Log`], called after the drain.
    pub check: Check,
}

/// The scripted top.
pub struct Sp2Directed<S: SwitchTwin> {
    script: Script,
    sw: S,
    nodes: Vec<Node>,
    wires: ([Option<u8>; PORTS], [bool; PORTS]),
    log: Log,
    packets: u64,
}

impl<S: SwitchTwin> Sp2Directed<S> {
    /// The top of a run of `script`, from cycle 0 with an idle model switch and nodes.
    pub fn new(script: Script) -> Self {
        Sp2Directed {
            script,
            sw: S::default(),
            nodes: (0..PORTS).map(|_| Node::new()).collect(),
            wires: ([None; PORTS], [false; PORTS]),
            log: Log {
                sent: vec![Vec::new(); PORTS],
                pins: Vec::new(),
            },
            packets: 0,
        }
    }

    /// The stimulus of a run of this script (for [`crate::cosim::Options::stimulus`]).
    pub fn stimulus(script: Script) -> crate::cosim::run::Stimulus
    where
        S: 'static,
    {
        crate::cosim::run::Stimulus(Arc::new(move || Box::new(Self::new(script.clone()))))
    }

    /// Runs the script on the model alone and returns its log (for tests that check the model before the
    /// HDL).
    pub fn model_only(script: Script) -> Result<Log, String> {
        let mut t = Self::new(script);
        for n in 0..t.script.cycles {
            t.step(n)?;
        }
        t.finish()?;
        Ok(t.log)
    }

    /// Cycle `n` of the model: the pins and what the switch drove (links, tokens, error counters before the
    /// edge).
    #[allow(clippy::type_complexity)]
    fn step(
        &mut self,
        n: u64,
    ) -> Result<
        (
            [Option<u8>; PORTS],
            [bool; PORTS],
            asr_model::sp2::Sp2Outputs,
            [u8; PORTS],
            [u8; PORTS],
        ),
        String,
    > {
        for (c, p, bytes) in &self.script.packets {
            if *c == n {
                self.nodes[*p].send_queue.push_back(bytes.clone());
            }
        }
        let mut link_in = [None; PORTS];
        let mut token_in = [false; PORTS];
        for p in 0..PORTS {
            let stalled = self
                .script
                .stall
                .iter()
                .any(|(q, r)| *q == p && r.contains(&n));
            (link_in[p], token_in[p]) = self.nodes[p].cycle(
                self.sw.cycles(),
                self.wires.0[p],
                self.wires.1[p],
                (!stalled) as usize,
            );
        }
        for (p, bytes) in &self.script.raw {
            link_in[*p] = bytes.get(n as usize).copied().flatten();
        }
        for (p, tokens) in &self.script.tokens {
            token_in[*p] = tokens.get(n as usize).copied().unwrap_or(false);
        }
        let crc: [u8; PORTS] = std::array::from_fn(|i| self.sw.errors(i).0 as u8);
        let route: [u8; PORTS] = std::array::from_fn(|i| self.sw.errors(i).1 as u8);
        let o = self
            .sw
            .step_pins(&link_in, &token_in)
            .map_err(|e| format!("model, cycle {n}: {e}"))?;
        for (p, b) in o.link_out.iter().enumerate() {
            if let Some(b) = b {
                self.log.sent[p].push((n, *b));
            }
        }
        self.log.pins.push(Pins {
            link_in,
            token_in,
            link_out: o.link_out,
            token_out: o.token_out,
            crc_errors: crc,
            route_errors: route,
        });
        self.wires = (o.link_out, o.token_out);
        let (q, x) = self.sw.packets_via();
        self.packets = q + x;
        Ok((link_in, token_in, o, crc, route))
    }
}

impl<S: SwitchTwin> Top for Sp2Directed<S> {
    fn name(&self) -> &str {
        S::TOP
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let (link_in, token_in, o, crc, route) = self.step(n)?;
        put_link(pins, "link_in_", "token_in", &link_in, &token_in);
        put_link(expect, "link_out_", "token_out", &o.link_out, &o.token_out);
        expect.put_bytes("crc_errors", &crc);
        expect.put_bytes("route_errors", &route);
        Ok(())
    }

    fn packets(&self) -> u64 {
        self.packets
    }

    fn finish(&mut self) -> Result<(), String> {
        self.sw.check_queue()?;
        if !self.sw.idle() {
            return Err("the switch is not idle at the end of the script".into());
        }
        (self.script.check)(&self.log)
    }
}

/// Splits the bytes an output sent into packets (`LEN`, `LEN` bytes, the CRC); a cut-off last packet is
/// returned as it is.
pub fn packets_of(sent: &[(u64, u8)]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    for &(_, b) in sent {
        cur.push(b);
        if cur.len() == cur[0] as usize + 2 {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A script's raw input: `bytes` from cycle `start` on, one per cycle.
pub fn raw_from(start: usize, bytes: &[u8]) -> Vec<Option<u8>> {
    let mut v = vec![None; start];
    v.extend(bytes.iter().map(|&b| Some(b)));
    v
}

/// The backends every directed script runs on after the model.
pub const BACKENDS: [crate::cosim::run::BackendKind; 3] = [
    crate::cosim::run::BackendKind::RustHdl,
    crate::cosim::run::BackendKind::Icarus,
    crate::cosim::run::BackendKind::Verilator,
];

/// Runs `script` on switch `S`'s model alone, then on every backend against the model; panics on a failed
/// check or a mismatch, naming the test and the backend.
pub fn run_everywhere<S: SwitchTwin + 'static>(name: &str, script: Script) {
    run_on::<S>(name, script, &BACKENDS);
}

/// [`run_everywhere`] on the backends named.
pub fn run_on<S: SwitchTwin + 'static>(
    name: &str,
    script: Script,
    backends: &[crate::cosim::run::BackendKind],
) {
    Sp2Directed::<S>::model_only(script.clone())
        .unwrap_or_else(|e| panic!("{name} ({}), model: {e}", S::TOP));
    for &b in backends {
        let mut o = crate::cosim::run::Options::new(S::TOP, b, script.cycles, 0);
        o.stimulus = Some(Sp2Directed::<S>::stimulus(script.clone()));
        let r = crate::cosim::run::run(&o)
            .unwrap_or_else(|e| panic!("{name} ({}) on {}: {e:#}", S::TOP, b.name()));
        r.assert_clean(script.cycles);
        eprintln!("{name}: {r}");
    }
}

fn one_hop(set: u8, payload: &[u8]) -> Vec<u8> {
    asr_model::sp2::encode_packet(
        &asr_model::header::Header::new(8, vec![set as u64]).expect("a non-empty set"),
        payload,
    )
    .expect("LEN ≤ 255")
}

/// Issue 30, fault 1, as reported from the pins: port 6 drives `01 04 09 05 03 aa bb cc dd 42` in cycles
/// 1–10 — a packet with `LEN` 1 to {2}, then at once one with `LEN` 5 to {0, 1}. The check: output 2 sends
/// `00 00` only; the second packet leaves once, on output 0 or 1, intact.
pub fn short_packet_then_another() -> Script {
    use asr_model::sp2::crc8;
    let bytes = [0x01, 0x04, 0x09, 0x05, 0x03, 0xaa, 0xbb, 0xcc, 0xdd, 0x42];
    let check = Arc::new(|l: &Log| {
        let s = &l.sent;
        let bytes = |p: usize| s[p].iter().map(|x| x.1).collect::<Vec<u8>>();
        if bytes(2) != [0x00, 0x00] {
            return Err(format!("output 2 sent {:02x?}", bytes(2)));
        }
        let b = [0x04, 0xaa, 0xbb, 0xcc, 0xdd];
        let mut want = b.to_vec();
        want.push(crc8(&b));
        let on: Vec<usize> = (0..PORTS).filter(|&p| p != 2 && !s[p].is_empty()).collect();
        match on.as_slice() {
            [p] if *p < 2 && bytes(*p) == want => Ok(()),
            _ => Err(format!("the second packet: {s:?}")),
        }
    });
    Script {
        raw: vec![(6, raw_from(1, &bytes))],
        packets: vec![],
        stall: vec![],
        tokens: vec![],
        cycles: 60,
        check,
    }
}

/// Issue 30, fault 2, as reported: the node on port 0 returns no tokens for cycles 1–50; port 3 sends `n`
/// back-to-back packets of 30 payload bytes to {0}; at cycle 11 port 7 sends one to {0}. The check: port 7's
/// packet leaves second, right after port 3's first (which held output 0 when it arrived).
pub fn queued_packet_and_newer_crossbar_packets(n: u32) -> Script {
    use asr_model::sp2::scoreboard::payload_bytes;
    let mut packets: Vec<(u64, usize, Vec<u8>)> = (0..n)
        .map(|k| (0, 3, one_hop(1, &payload_bytes(3, k, 30))))
        .collect();
    packets.push((11, 7, one_hop(1, &payload_bytes(7, 0, 30))));
    let check = Arc::new(move |l: &Log| {
        let srcs: Vec<u16> = packets_of(&l.sent[0])
            .iter()
            .map(|p| u16::from_be_bytes([p[1], p[2]]))
            .collect();
        let mut want = vec![3u16; n as usize + 1];
        want[1] = 7;
        if srcs == want {
            Ok(())
        } else {
            Err(format!("output 0 delivered the sources {srcs:?}"))
        }
    });
    Script {
        raw: vec![],
        packets,
        stall: vec![(0, 1..51)],
        tokens: vec![],
        cycles: 100 + 70 * n as u64,
        check,
    }
}

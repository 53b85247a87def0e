//! Scenario `sp2-contention`: the `sp2_switch` HDL (or the model `Sp2Switch`) with a model `Node` on each
//! port, 360 cycles of scripted contention:
//!
//! - cycle 2: inputs 0–3 each send a 20-byte packet to output 5 (`R1 = {5}`): one cuts through the
//!   crossbar, the others miss the drop deadline and go through the central queue, one list writer at a
//!   time (the output's lock);
//! - cycle 60: inputs 4–7 send ASR multi-port packets (`{1,2}`, `{1,2}`, `{1,2,3}`, `{2,3}`): the matching
//!   spreads them over outputs 1–3;
//! - cycle 130: all eight inputs send packets whose sets contain output 0 (`{0}`, `{0,7}`, `{0,6}`, `{0,4}`,
//!   …, and one `{7}`) while output 0's node stops consuming (cycles 130–199): output 0 backs up and the
//!   queue takes the rest, choosing the least-loaded permitted output;
//! - cycle 210: a packet with a flipped payload bit (a CRC error), one with `R1 = 0` (a route error) and a
//!   3-port set;
//! - then the switch drains.
//!
//! The model runs first (the nodes react to its outputs); the HDL is driven with the same pins and must
//! drive the same outputs every cycle (the writer fails otherwise). Timing as in `benes8-burst`: cycle n
//! has its inputs at time 10n (clock low), its rising edge at 10n+5.
//!
//! [`signals`] lists the signals the `.gtkw` shows, with rust-hdl's hierarchical names; the model's VCD
//! carries the ones marked `model`, with the same names and widths, computed from the model's state before
//! the cycle (registers, `.q`, also after the edge). [`view`] arranges them in named rows (one per port for
//! packed buses) and groups.

use anyhow::{bail, Result};
use asr_hdl::sp2::board::BoardChip;
use asr_hdl::sp2::receiver as rx;
use asr_hdl::sp2::switch::Sp2Switch as SwHw;
use asr_model::header::Header;
use asr_model::matcher::heuristic_into;
use asr_model::sp2::central_queue::{CqInputs, CqOutputs};
use asr_model::sp2::node::Node;
use asr_model::sp2::receiver::RxState;
use asr_model::sp2::switch::{Sp2Outputs, Sp2Switch};
use asr_model::sp2::transmitter::Source;
use asr_model::sp2::{crc8, encode_packet, PASSES, PORTS};
use rust_hdl::prelude::*;
use std::collections::HashMap;
use std::io::Write;

use super::gtkw::{Fmt, Group, Names, Row};
use super::NsTimescale;
use crate::harness::{from_bools, pack, unpack};
use crate::lockstep::SETTLE;

/// Cycles of the scenario.
pub const CYCLES: usize = 360;

/// One signal of the scenario: its name under `uut`, its width, and whether the model's VCD has it too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sig {
    pub name: String,
    pub width: usize,
    pub model: bool,
}

/// Every signal the `.gtkw` shows.
pub fn signals() -> Vec<Sig> {
    let mut v = Vec::new();
    let mut add = |name: String, width: usize, model: bool| v.push(Sig { name, width, model });
    for (n, w) in [
        ("clock", 1),
        ("link_in_valid", 8),
        ("link_in_data", 64),
        ("token_in", 8),
        ("link_out_valid", 8),
        ("link_out_data", 64),
        ("token_out", 8),
        ("crc_errors", 64),
        ("route_errors", 64),
    ] {
        add(n.into(), w, true);
    }
    for i in 0..PORTS {
        for (n, w) in [
            ("st.q", 3),
            ("len.q", 5),
            ("xbar_req", 1),
            ("xbar_set", 8),
            ("choose_req", 1),
            ("ready_valid", 1),
            ("xbar_grant", 1),
            ("xbar_gout", 3),
            ("choose_grant", 1),
        ] {
            add(format!("rx${i}.{n}"), w, true);
        }
    }
    add("matcher.requests".into(), 64, true);
    add("matcher.grants".into(), 64, true);
    for o in 0..PORTS {
        add(format!("xarb${o}.grant_valid"), 1, true);
        add(format!("xarb${o}.grant"), 3, true);
        add(format!("lock_v${o}.q"), 1, true);
    }
    add("carb.grant_valid".into(), 1, true);
    add("carb.grant".into(), 3, true);
    for (n, w) in [
        ("cq.wr_valid", 8),
        ("cq.wr_grant_valid", 1),
        ("cq.wr_grant", 3),
        ("cq.rd_req", 8),
        ("cq.rd_grant_valid", 1),
        ("cq.rd_grant", 3),
        ("cq.nfree.q", 8),
    ] {
        add(n.into(), w, true);
    }
    add("cq.free_head.q".into(), 7, false);
    for o in 0..PORTS {
        add(format!("cq.cnt${o}.q"), 8, true);
        add(format!("cq.head${o}.q"), 7, false);
        add(format!("cq.tail${o}.q"), 7, false);
    }
    for o in 0..PORTS {
        for (n, w) in [
            ("src.q", 2),
            ("src_rx", 3),
            ("fifo_len.q", 3),
            ("link_valid", 1),
            ("link_byte", 8),
        ] {
            add(format!("tx${o}.{n}"), w, true);
        }
    }
    v
}

/// The receiver's states (`rx$i.st.q`).
pub const RX_STATE: Names = Names {
    id: "rx_state",
    values: &[
        (rx::ST_LEN, "Len"),
        (rx::ST_ROUTE, "Route"),
        (rx::ST_WAIT, "Wait"),
        (rx::ST_XBAR, "Xbar"),
        (rx::ST_CHOOSE, "Choose"),
        (rx::ST_QUEUE, "Queue"),
        (rx::ST_DROP, "Drop"),
    ],
};

/// A transmitter's source (`tx$o.src.q`).
pub const TX_SOURCE: Names = Names {
    id: "tx_source",
    values: &[(0, "idle"), (1, "crossbar"), (2, "queue")],
};

/// What the `.gtkw` shows, in groups: the clock; per port its input link (valid, byte) with the credit it
/// returns, and its output link with the credit it receives; the receivers (state, FIFO bytes, requests,
/// error counters); the crossbar (each matching row's requests and grants, each transmitter's LRS grant,
/// each receiver's grant, the queue-output choice, the locks); the central queue; the transmitters. The
/// model's view leaves out the rows its VCD lacks (the queue's head and tail pointers).
pub fn view(model: bool) -> Vec<Group> {
    let sigs = signals();
    let width = |name: &str| {
        sigs.iter()
            .find(|s| s.name == name)
            .map(|s| s.width)
            .unwrap_or_else(|| panic!("{name} is not a signal of the scenario"))
    };
    let whole = |row: String, name: &str, fmt: Fmt| Row::whole(row, name, width(name), fmt);
    let part = |row: String, name: &str, lsb: usize, len: usize, fmt: Fmt| {
        Row::part(row, name, width(name), lsb, len, fmt)
    };
    let mut g = vec![Group::new(
        "clock",
        vec![whole("clock".into(), "clock", Fmt::Bin)],
    )];
    for p in 0..PORTS {
        g.push(Group::new(
            format!("port {p}"),
            vec![
                part(format!("in{p}/valid"), "link_in_valid", p, 1, Fmt::Bin),
                part(format!("in{p}/byte"), "link_in_data", 8 * p, 8, Fmt::Hex),
                part(format!("in{p}/credit_out"), "token_out", p, 1, Fmt::Bin),
                part(format!("out{p}/valid"), "link_out_valid", p, 1, Fmt::Bin),
                part(format!("out{p}/byte"), "link_out_data", 8 * p, 8, Fmt::Hex),
                part(format!("out{p}/credit_in"), "token_in", p, 1, Fmt::Bin),
            ],
        ));
    }
    let mut rows = Vec::new();
    for i in 0..PORTS {
        rows.push(whole(format!("rx{i}/state"), &format!("rx${i}.st.q"), Fmt::Dec).named(RX_STATE));
        rows.push(whole(
            format!("rx{i}/fifo_bytes"),
            &format!("rx${i}.len.q"),
            Fmt::Dec,
        ));
        rows.push(whole(
            format!("rx{i}/xbar_req"),
            &format!("rx${i}.xbar_req"),
            Fmt::Bin,
        ));
        rows.push(whole(
            format!("rx{i}/xbar_set"),
            &format!("rx${i}.xbar_set"),
            Fmt::Bin,
        ));
        rows.push(whole(
            format!("rx{i}/choose_req"),
            &format!("rx${i}.choose_req"),
            Fmt::Bin,
        ));
        rows.push(whole(
            format!("rx{i}/chunk_ready"),
            &format!("rx${i}.ready_valid"),
            Fmt::Bin,
        ));
        rows.push(part(
            format!("rx{i}/crc_errors"),
            "crc_errors",
            8 * i,
            8,
            Fmt::Dec,
        ));
        rows.push(part(
            format!("rx{i}/route_errors"),
            "route_errors",
            8 * i,
            8,
            Fmt::Dec,
        ));
    }
    g.push(Group::new("receivers", rows));
    let mut rows = Vec::new();
    for i in 0..PORTS {
        rows.push(part(
            format!("match/req{i}"),
            "matcher.requests",
            8 * i,
            8,
            Fmt::Bin,
        ));
        rows.push(part(
            format!("match/grant{i}"),
            "matcher.grants",
            8 * i,
            8,
            Fmt::Bin,
        ));
    }
    for o in 0..PORTS {
        rows.push(whole(
            format!("xarb{o}/grant_valid"),
            &format!("xarb${o}.grant_valid"),
            Fmt::Bin,
        ));
        rows.push(whole(
            format!("xarb{o}/grant_rx"),
            &format!("xarb${o}.grant"),
            Fmt::Dec,
        ));
    }
    for i in 0..PORTS {
        rows.push(whole(
            format!("rx{i}/xbar_grant"),
            &format!("rx${i}.xbar_grant"),
            Fmt::Bin,
        ));
        rows.push(whole(
            format!("rx{i}/xbar_out"),
            &format!("rx${i}.xbar_gout"),
            Fmt::Dec,
        ));
        rows.push(whole(
            format!("rx{i}/choose_grant"),
            &format!("rx${i}.choose_grant"),
            Fmt::Bin,
        ));
    }
    rows.push(whole(
        "carb/grant_valid".into(),
        "carb.grant_valid",
        Fmt::Bin,
    ));
    rows.push(whole("carb/grant_rx".into(), "carb.grant", Fmt::Dec));
    for o in 0..PORTS {
        rows.push(whole(
            format!("lock{o}"),
            &format!("lock_v${o}.q"),
            Fmt::Bin,
        ));
    }
    g.push(Group::new("crossbar", rows));
    let mut rows = vec![
        whole("cq/wr_valid".into(), "cq.wr_valid", Fmt::Bin),
        whole("cq/wr_grant_valid".into(), "cq.wr_grant_valid", Fmt::Bin),
        whole("cq/wr_grant_rx".into(), "cq.wr_grant", Fmt::Dec),
        whole("cq/rd_req".into(), "cq.rd_req", Fmt::Bin),
        whole("cq/rd_grant_valid".into(), "cq.rd_grant_valid", Fmt::Bin),
        whole("cq/rd_grant_tx".into(), "cq.rd_grant", Fmt::Dec),
        whole("cq/free_chunks".into(), "cq.nfree.q", Fmt::Dec),
    ];
    if !model {
        rows.push(whole("cq/free_head".into(), "cq.free_head.q", Fmt::Dec));
    }
    for o in 0..PORTS {
        rows.push(whole(
            format!("cq/count{o}"),
            &format!("cq.cnt${o}.q"),
            Fmt::Dec,
        ));
        if !model {
            rows.push(whole(
                format!("cq/head{o}"),
                &format!("cq.head${o}.q"),
                Fmt::Dec,
            ));
            rows.push(whole(
                format!("cq/tail{o}"),
                &format!("cq.tail${o}.q"),
                Fmt::Dec,
            ));
        }
    }
    g.push(Group::new("central queue", rows));
    let mut rows = Vec::new();
    for o in 0..PORTS {
        rows.push(
            whole(format!("tx{o}/source"), &format!("tx${o}.src.q"), Fmt::Dec).named(TX_SOURCE),
        );
        rows.push(whole(
            format!("tx{o}/source_rx"),
            &format!("tx${o}.src_rx"),
            Fmt::Dec,
        ));
        rows.push(whole(
            format!("tx{o}/fifo_bytes"),
            &format!("tx${o}.fifo_len.q"),
            Fmt::Dec,
        ));
        rows.push(whole(
            format!("tx{o}/valid"),
            &format!("tx${o}.link_valid"),
            Fmt::Bin,
        ));
        rows.push(whole(
            format!("tx{o}/byte"),
            &format!("tx${o}.link_byte"),
            Fmt::Hex,
        ));
    }
    g.push(Group::new("transmitters", rows));
    g
}

/// The switch's pins in one cycle.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pins {
    pub(crate) link_in: [Option<u8>; PORTS],
    pub(crate) token_in: [bool; PORTS],
}

/// The model's run: per cycle the pins, the state before and after the cycle, and the outputs.
struct Run {
    pins: Vec<Pins>,
    before: Vec<Sp2Switch>,
    after: Vec<Sp2Switch>,
    outs: Vec<Sp2Outputs>,
}

/// A packet of `payload` bytes from `input` with first route byte `set` (0: malformed), one bit of the
/// payload flipped if `flip`.
pub(crate) fn packet(input: usize, k: usize, set: u8, payload: usize, flip: bool) -> Vec<u8> {
    let data: Vec<u8> = (0..payload)
        .map(|j| (input * 40 + k * 16 + j) as u8)
        .collect();
    let mut p = if set == 0 {
        let mut p = vec![(1 + payload) as u8, 0];
        p.extend_from_slice(&data);
        p.push(crc8(&p));
        p
    } else {
        encode_packet(&Header::new(8, vec![set as u64]).expect("valid set"), &data)
            .expect("fits a packet")
    };
    if flip {
        p[2 + payload / 2] ^= 0x08;
    }
    p
}

/// (cycle, input, route set, payload bytes, flipped bit).
pub(crate) const SCRIPT: &[(usize, usize, u8, usize, bool)] = &[
    (2, 0, 0b0010_0000, 20, false),
    (2, 1, 0b0010_0000, 20, false),
    (2, 2, 0b0010_0000, 20, false),
    (2, 3, 0b0010_0000, 20, false),
    (60, 4, 0b0000_0110, 28, false),
    (60, 5, 0b0000_0110, 28, false),
    (60, 6, 0b0000_1110, 28, false),
    (60, 7, 0b0000_1100, 28, false),
    (130, 0, 0b0000_0001, 16, false),
    (130, 1, 0b1000_0001, 16, false),
    (130, 2, 0b0000_0001, 16, false),
    (130, 3, 0b0100_0001, 16, false),
    (130, 4, 0b0000_0001, 16, false),
    (130, 5, 0b0001_0001, 16, false),
    (130, 6, 0b1000_0000, 16, false),
    (130, 7, 0b0000_0001, 16, false),
    (210, 3, 0b0100_0000, 12, true),
    (210, 4, 0b0000_0000, 6, false),
    (210, 2, 0b0010_1010, 12, false),
];

/// The script's cycle `n` at the nodes: the packets due now join their senders' queues, then every node sees
/// what the switch drove in the previous cycle (`wires`: link bytes, tokens) and drives the switch's pins.
/// Output 0's node stops consuming in cycles 130–199 (backpressure).
pub(crate) fn script_cycle(
    n: usize,
    nodes: &mut [Node],
    wires: &([Option<u8>; PORTS], [bool; PORTS]),
) -> Pins {
    for (k, &(at, input, set, payload, flip)) in SCRIPT.iter().enumerate() {
        if at == n {
            nodes[input]
                .send_queue
                .push_back(packet(input, k, set, payload, flip));
        }
    }
    let mut pins = Pins {
        link_in: [None; PORTS],
        token_in: [false; PORTS],
    };
    for (p, node) in nodes.iter_mut().enumerate() {
        let consume = usize::from(!(p == 0 && (130..200).contains(&n)));
        (pins.link_in[p], pins.token_in[p]) = node.cycle(n as u64, wires.0[p], wires.1[p], consume);
    }
    pins
}

/// What the scenario exercised (the model's counts at the end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub via_xbar: u64,
    pub via_queue: u64,
    pub crc_errors: u64,
    pub route_errors: u64,
    pub bytes_out: u64,
}

/// Runs the scenario on the model and returns its counts.
pub fn summary() -> Result<Summary> {
    Ok(run_model()?.1)
}

fn run_model() -> Result<(Run, Summary)> {
    let mut sw = Sp2Switch::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let mut wires = ([None; PORTS], [false; PORTS]);
    let mut run = Run {
        pins: Vec::with_capacity(CYCLES),
        before: Vec::with_capacity(CYCLES),
        after: Vec::with_capacity(CYCLES),
        outs: Vec::with_capacity(CYCLES),
    };
    for n in 0..CYCLES {
        let pins = script_cycle(n, &mut nodes, &wires);
        run.before.push(sw.clone());
        let o = sw
            .step(&pins.link_in, &pins.token_in)
            .map_err(|e| anyhow::anyhow!("model, cycle {n}: {e}"))?;
        sw.check()
            .map_err(|e| anyhow::anyhow!("model, cycle {n}: {e}"))?;
        wires = (o.link_out, o.token_out);
        run.pins.push(pins);
        run.after.push(sw.clone());
        run.outs.push(o);
    }
    let via_xbar: u64 = sw.tx.iter().map(|t| t.packets_xbar).sum();
    let via_queue: u64 = sw.tx.iter().map(|t| t.packets_queue).sum();
    let crc: u64 = sw.rx.iter().map(|r| r.crc_errors).sum();
    let route: u64 = sw.rx.iter().map(|r| r.route_errors).sum();
    let bytes_out = run
        .outs
        .iter()
        .map(|o| o.link_out.iter().filter(|b| b.is_some()).count() as u64)
        .sum();
    if via_xbar == 0 || via_queue == 0 || crc == 0 || route == 0 || !sw.is_idle() {
        bail!(
            "sp2-contention lost its point: {via_xbar} packets via the crossbar, {via_queue} via the queue, \
             {crc} CRC and {route} route errors, idle at the end: {}",
            sw.is_idle()
        );
    }
    Ok((
        run,
        Summary {
            via_xbar,
            via_queue,
            crc_errors: crc,
            route_errors: route,
            bytes_out,
        },
    ))
}

/// The model's decisions in a cycle, recomputed from the state before it (pure functions of the model)
/// or read from the state after it (the grants).
struct Decisions {
    /// Each receiver's crossbar request after this cycle's parse.
    req: [Option<u8>; PORTS],
    rows: [u64; PORTS],
    matching: [u64; PORTS],
    /// Per transmitter, the receiver it was granted to.
    xarb: [Option<u8>; PORTS],
    /// Per receiver, the transmitter it was granted.
    xgrant: [Option<u8>; PORTS],
    /// The receiver given a queue output.
    choose: Option<u8>,
    cqi: CqInputs,
    cqo: CqOutputs,
}

fn decisions(b: &Sp2Switch, a: &Sp2Switch) -> Decisions {
    let mut req = [None; PORTS];
    for (i, r) in req.iter_mut().enumerate() {
        let mut rx = b.rx[i].clone();
        rx.parse();
        *r = rx.xbar_request();
    }
    let free: u64 = (0..PORTS)
        .filter(|&o| b.tx[o].free_for_xbar(b.cq.count(o)))
        .fold(0, |m, o| m | 1 << o);
    let rows: [u64; PORTS] = std::array::from_fn(|i| req[i].map_or(0, |s| s as u64 & free));
    let mut mm = vec![0u64; PORTS];
    heuristic_into(&rows, PORTS, PASSES, &mut mm);
    let mut xarb = [None; PORTS];
    let mut xgrant = [None; PORTS];
    for (o, x) in xarb.iter_mut().enumerate() {
        if let (Source::Xbar(i), false) =
            (a.tx[o].source, matches!(b.tx[o].source, Source::Xbar(_)))
        {
            *x = Some(i);
            xgrant[i as usize] = Some(o as u8);
        }
    }
    let choose = (0..PORTS)
        .find(|&i| {
            matches!(b.rx[i].state, RxState::Choose { .. })
                && matches!(a.rx[i].state, RxState::Queue { .. })
        })
        .map(|i| i as u8);
    let mut cqi = CqInputs::default();
    for i in 0..PORTS {
        cqi.wr[i] = b.rx[i].ready;
        cqi.rd[i] = b.tx[i].wants_chunk(b.cq.count(i));
    }
    let cqo = b.cq.eval(&cqi).expect("the run already stepped this cycle");
    Decisions {
        req,
        rows,
        matching: std::array::from_fn(|i| mm[i]),
        xarb,
        xgrant,
        choose,
        cqi,
        cqo,
    }
}

fn st_code(s: RxState) -> u128 {
    (match s {
        RxState::Len => rx::ST_LEN,
        RxState::Route { .. } => rx::ST_ROUTE,
        RxState::Wait { .. } => rx::ST_WAIT,
        RxState::Xbar { .. } => rx::ST_XBAR,
        RxState::Choose { .. } => rx::ST_CHOOSE,
        RxState::Queue { .. } => rx::ST_QUEUE,
        RxState::Drop { .. } => rx::ST_DROP,
    }) as u128
}

pub(crate) fn packed(f: impl Fn(usize) -> u128, w: usize) -> u128 {
    (0..PORTS).fold(0, |acc, k| acc | ((f(k) & ((1 << w) - 1)) << (k * w)))
}

/// A register of the model (`.q`) from a state.
fn reg_value(name: &str, s: &Sp2Switch) -> Option<u128> {
    let (head, rest) = name.split_once('.')?;
    let (base, idx) = match head.split_once('$') {
        Some((b, i)) => (b, i.parse::<usize>().ok()?),
        None => (head, 0),
    };
    Some(match (base, rest) {
        ("rx", "st.q") => st_code(s.rx[idx].state),
        ("rx", "len.q") => s.rx[idx].fifo.len() as u128,
        ("lock_v", "q") => s.lock[idx].is_some() as u128,
        ("cq", "nfree.q") => s.cq.free() as u128,
        ("cq", r) if r.starts_with("cnt$") => {
            let o: usize = r
                .trim_start_matches("cnt$")
                .trim_end_matches(".q")
                .parse()
                .ok()?;
            s.cq.count(o) as u128
        }
        ("tx", "src.q") => match s.tx[idx].source {
            Source::Idle => 0,
            Source::Xbar(_) => 1,
            Source::Queue => 2,
        },
        ("tx", "fifo_len.q") => s.tx[idx].fifo.len() as u128,
        _ => return None,
    })
}

/// Any model signal before the edge of cycle `n`.
fn value(name: &str, p: &Pins, b: &Sp2Switch, o: &Sp2Outputs, d: &Decisions) -> u128 {
    if let Some(v) = reg_value(name, b) {
        return v;
    }
    let idx = |s: &str| -> usize {
        s.split_once('$')
            .and_then(|(_, r)| r.split('.').next())
            .and_then(|k| k.parse().ok())
            .unwrap_or(0)
    };
    let i = idx(name);
    let rest = name.split_once('.').map_or("", |(_, r)| r);
    let base = name.split(['$', '.']).next().unwrap_or("");
    match (base, rest) {
        ("clock", _) => 0,
        ("link_in_valid", _) => packed(|k| p.link_in[k].is_some() as u128, 1),
        ("link_in_data", _) => packed(|k| p.link_in[k].unwrap_or(0) as u128, 8),
        ("token_in", _) => packed(|k| p.token_in[k] as u128, 1),
        ("link_out_valid", _) => packed(|k| o.link_out[k].is_some() as u128, 1),
        ("link_out_data", _) => packed(|k| o.link_out[k].unwrap_or(0) as u128, 8),
        ("token_out", _) => packed(|k| o.token_out[k] as u128, 1),
        ("crc_errors", _) => packed(|k| b.rx[k].crc_errors as u128, 8),
        ("route_errors", _) => packed(|k| b.rx[k].route_errors as u128, 8),
        ("rx", "xbar_req") => d.req[i].is_some() as u128,
        ("rx", "xbar_set") => d.req[i].unwrap_or(0) as u128,
        ("rx", "choose_req") => matches!(b.rx[i].state, RxState::Choose { .. }) as u128,
        ("rx", "ready_valid") => b.rx[i].ready.is_some() as u128,
        ("rx", "xbar_grant") => d.xgrant[i].is_some() as u128,
        ("rx", "xbar_gout") => d.xgrant[i].unwrap_or(0) as u128,
        ("rx", "choose_grant") => (d.choose == Some(i as u8)) as u128,
        ("matcher", "requests") => packed(|k| d.rows[k] as u128, 8),
        ("matcher", "grants") => packed(|k| d.matching[k] as u128, 8),
        ("xarb", "grant_valid") => d.xarb[i].is_some() as u128,
        ("xarb", "grant") => d.xarb[i].unwrap_or(0) as u128,
        ("carb", "grant_valid") => d.choose.is_some() as u128,
        ("carb", "grant") => d.choose.unwrap_or(0) as u128,
        ("cq", "wr_valid") => packed(|k| d.cqi.wr[k].is_some() as u128, 1),
        ("cq", "wr_grant_valid") => d.cqo.wr_grant.is_some() as u128,
        ("cq", "wr_grant") => d.cqo.wr_grant.unwrap_or(0) as u128,
        ("cq", "rd_req") => packed(|k| d.cqi.rd[k] as u128, 1),
        ("cq", "rd_grant_valid") => d.cqo.rd_grant.is_some() as u128,
        ("cq", "rd_grant") => d.cqo.rd_grant.unwrap_or(0) as u128,
        ("tx", "src_rx") => match b.tx[i].source {
            Source::Xbar(r) => r as u128,
            _ => 0,
        },
        ("tx", "link_valid") => b.tx[i].out_reg.is_some() as u128,
        ("tx", "link_byte") => b.tx[i].out_reg.unwrap_or(0) as u128,
        _ => panic!("no model value for {name}"),
    }
}

/// Writes the HDL's VCD (whole hierarchy); fails if the HDL's outputs differ from the model's in a cycle.
pub fn write_hdl<Wr: Write>(f: Wr) -> Result<()> {
    let (run, _) = run_model()?;
    write_switch_hdl::<SwHw, Wr>(f, "sp2_switch", &run.pins, &run.outs)
}

/// Drives a switch chip `C` (`sp2_switch` or `sp2_switch_v2`, named `top` in errors) with `pins`, one cycle
/// each, and writes its VCD (whole hierarchy, the timing of the module documentation); fails if its outputs
/// differ from `outs` in a cycle.
pub(crate) fn write_switch_hdl<C: BoardChip, Wr: Write>(
    f: Wr,
    top: &str,
    pins: &[Pins],
    outs: &[Sp2Outputs],
) -> Result<()> {
    let mut uut = C::default();
    uut.connect_all();
    simulate(&mut uut, SETTLE);
    let mut vcd = write_vcd_header(NsTimescale::new(f), &uut);
    vcd = write_vcd_dump(vcd, &uut);
    for (n, (p, want)) in pins.iter().zip(outs).enumerate() {
        {
            let (clock, valid, data, token) = uut.inputs_mut();
            valid.next = from_bools(&p.link_in.map(|b| b.is_some()));
            data.next = pack(&p.link_in.map(|b| b.unwrap_or(0) as u128), 8);
            token.next = from_bools(&p.token_in);
            clock.next = Clock::from(false);
        }
        if !simulate(&mut uut, SETTLE) {
            bail!("{top} does not settle in cycle {n}");
        }
        vcd.timestamp(10 * n as u64)?;
        vcd = write_vcd_change(vcd, &uut);
        let (valid, data, token) = uut.outputs();
        let (v, t) = (valid.val(), token.val());
        let d = unpack(data.val(), 8, 8);
        for (k, &dk) in d.iter().enumerate() {
            let got = v.get_bit(k).then_some(dk as u8);
            if got != want.link_out[k] || t.get_bit(k) != want.token_out[k] {
                bail!("cycle {n}, port {k}: HDL and model outputs differ");
            }
        }
        uut.inputs_mut().0.next = Clock::from(true);
        if !simulate(&mut uut, SETTLE) {
            bail!("{top} does not settle after the edge of cycle {n}");
        }
        vcd.timestamp(10 * n as u64 + 5)?;
        vcd = write_vcd_change(vcd, &uut);
    }
    vcd.timestamp(10 * pins.len() as u64)?;
    Ok(())
}

/// Writes the model's VCD: the signals of [`signals`] marked `model`, same names and widths as the HDL's.
pub fn write_model<Wr: Write>(f: Wr) -> Result<()> {
    let (run, _) = run_model()?;
    let sigs: Vec<Sig> = signals().into_iter().filter(|s| s.model).collect();
    let mut d = None;
    write_model_vcd(
        f,
        &sigs,
        CYCLES,
        |n, s| {
            let (b, a) = (&run.before[n], &run.after[n]);
            let dn = d.get_or_insert_with(|| (n, decisions(b, a)));
            if dn.0 != n {
                *dn = (n, decisions(b, a));
            }
            value(&s.name, &run.pins[n], b, &run.outs[n], &dn.1)
        },
        |n, s| reg_value(&s.name, &run.after[n]),
    )
}

/// Writes a model VCD of `sigs` (dotted names under `uut`) over `cycles` cycles: `before(n, sig)` is each
/// signal's value before the edge of cycle n (time 10n), `after(n, sig)` a register's value after it (time
/// 10n + 5; `None` for a signal that is not a register). The clock is 0 before the edge and 1 after.
pub(crate) fn write_model_vcd<Wr: Write>(
    f: Wr,
    sigs: &[Sig],
    cycles: usize,
    mut before: impl FnMut(usize, &Sig) -> u128,
    mut after: impl FnMut(usize, &Sig) -> Option<u128>,
) -> Result<()> {
    let mut w = vcd::Writer::new(f);
    w.timescale(1, vcd::TimescaleUnit::NS)?;
    w.add_module("uut")?;
    // Scopes from the dotted names: sorted by path so every scope's items are contiguous.
    let mut order: Vec<usize> = (0..sigs.len()).collect();
    order.sort_by(|&a, &b| {
        let pa: Vec<&str> = sigs[a].name.split('.').collect();
        let pb: Vec<&str> = sigs[b].name.split('.').collect();
        pa[..pa.len() - 1]
            .cmp(&pb[..pb.len() - 1])
            .then(pa.len().cmp(&pb.len()))
    });
    let mut ids = vec![None; sigs.len()];
    let mut open: Vec<String> = Vec::new();
    for &k in &order {
        let parts: Vec<&str> = sigs[k].name.split('.').collect();
        let scope = &parts[..parts.len() - 1];
        let common = open
            .iter()
            .zip(scope)
            .take_while(|(a, b)| a.as_str() == **b)
            .count();
        while open.len() > common {
            w.upscope()?;
            open.pop();
        }
        for s in &scope[common..] {
            w.add_module(s)?;
            open.push(s.to_string());
        }
        ids[k] = Some(w.add_wire(sigs[k].width as u32, parts[parts.len() - 1])?);
    }
    for _ in &open {
        w.upscope()?;
    }
    w.upscope()?;
    w.enddefinitions()?;
    let mut last: HashMap<usize, u128> = HashMap::new();
    let mut put = |w: &mut vcd::Writer<Wr>, k: usize, v: u128| -> Result<()> {
        if last.insert(k, v) != Some(v) {
            let id = ids[k].expect("declared");
            if sigs[k].width == 1 {
                w.change_scalar(
                    id,
                    if v & 1 == 1 {
                        vcd::Value::V1
                    } else {
                        vcd::Value::V0
                    },
                )?;
            } else {
                w.change_vector(id, super::bits_of(v, sigs[k].width))?;
            }
        }
        Ok(())
    };
    for n in 0..cycles {
        w.timestamp(10 * n as u64)?;
        for (k, s) in sigs.iter().enumerate() {
            let v = if s.name == "clock" { 0 } else { before(n, s) };
            put(&mut w, k, v)?;
        }
        w.timestamp(10 * n as u64 + 5)?;
        for (k, s) in sigs.iter().enumerate() {
            if s.name == "clock" {
                put(&mut w, k, 1)?;
            } else if let Some(v) = after(n, s) {
                put(&mut w, k, v)?;
            }
        }
    }
    w.timestamp(10 * cycles as u64)?;
    w.flush()?;
    Ok(())
}

//! What the SP2 switch scenarios share (`sp2-contention-v2`, [`super::sp2_v2`], and any later version's): the
//! contention script at the model nodes (`script_cycle`), the switch chip's HDL VCD writer checked against
//! the model's outputs (`write_switch_hdl`) and the model VCD writer (`write_model_vcd`).
//!
//! The script, 360 cycles:
//!
//! - cycle 2: inputs 0–3 each send a 20-byte packet to output 5 (`R1 = {5}`): one cuts through the
//!   crossbar, the others go through the central queue;
//! - cycle 60: inputs 4–7 send ASR multi-port packets (`{1,2}`, `{1,2}`, `{1,2,3}`, `{2,3}`): the matching
//!   spreads them over outputs 1–3;
//! - cycle 130: all eight inputs send packets whose sets contain output 0 (`{0}`, `{0,7}`, `{0,6}`, `{0,4}`,
//!   …, and one `{7}`) while output 0's node stops consuming (cycles 130–199): output 0 backs up and the
//!   queue takes the rest, choosing the least-loaded permitted output;
//! - cycle 210: a packet with a flipped payload bit (a CRC error), one with `R1 = 0` (a route error) and a
//!   3-port set;
//! - then the switch drains.
//!
//! Timing as in `benes8-burst`: cycle n has its inputs at time 10n (clock low), its rising edge at 10n+5.

use anyhow::{bail, Result};
use asr_hdl::sp2::board::BoardChip;
use asr_model::header::Header;
use asr_model::sp2::node::Node;
use asr_model::sp2::{crc8, encode_packet, PORTS};
use asr_model::sp2::{Sp2Outputs, SwitchModel};
use rust_hdl::prelude::*;
use std::collections::HashMap;
use std::io::Write;

use super::gtkw::{Fmt, Group, Row};
use super::vcd_out::{bits_of, NsTimescale};
use crate::harness::{from_bools, pack, unpack};
use crate::lockstep::SETTLE;

/// One signal of a scenario: its name under `uut`, its width, and whether the model's VCD has it too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sig {
    /// The signal's path under `uut`.
    pub name: String,
    /// Width in bits.
    pub width: usize,
    /// Whether the model's VCD has the signal too.
    pub model: bool,
}

/// The switch chip's pins (the same in every version) and their widths, in the scenarios' VCDs.
pub(crate) const PIN_SIGNALS: &[(&str, usize)] = &[
    ("clock", 1),
    ("link_in_valid", 8),
    ("link_in_data", 64),
    ("token_in", 8),
    ("link_out_valid", 8),
    ("link_out_data", 64),
    ("token_out", 8),
    ("crc_errors", 64),
    ("route_errors", 64),
];

/// The `.gtkw` groups of the pins: the clock, and per port its input link, the token it returns, its output
/// link and the token it gets.
pub(crate) fn pin_groups() -> Vec<Group> {
    let mut g = vec![Group::new(
        "clock",
        vec![Row::whole("clock", "clock", 1, Fmt::Bin)],
    )];
    for p in 0..PORTS {
        let row =
            |side: &str, row: &str, name: &str, w: usize, lsb: usize, len: usize, fmt: Fmt| {
                Row::part(format!("{side}{p}/{row}"), name, w, lsb, len, fmt)
            };
        g.push(Group::new(
            format!("port {p}"),
            vec![
                row("in", "valid", "link_in_valid", 8, p, 1, Fmt::Bin),
                row("in", "byte", "link_in_data", 64, 8 * p, 8, Fmt::Hex),
                row("in", "credit_out", "token_out", 8, p, 1, Fmt::Bin),
                row("out", "valid", "link_out_valid", 8, p, 1, Fmt::Bin),
                row("out", "byte", "link_out_data", 64, 8 * p, 8, Fmt::Hex),
                row("out", "credit_in", "token_in", 8, p, 1, Fmt::Bin),
            ],
        ));
    }
    g
}

/// The rows of receiver `i`'s error counts (its bytes of the `crc_errors` and `route_errors` pins).
pub(crate) fn error_rows(i: usize) -> [Row; 2] {
    [
        Row::part(
            format!("rx{i}/crc_errors"),
            "crc_errors",
            64,
            8 * i,
            8,
            Fmt::Dec,
        ),
        Row::part(
            format!("rx{i}/route_errors"),
            "route_errors",
            64,
            8 * i,
            8,
            Fmt::Dec,
        ),
    ]
}

/// The rows of the allocator's request matrix, one per receiver (`alloc.req`, 8 bits each).
pub(crate) fn alloc_req_rows() -> impl Iterator<Item = Row> {
    (0..PORTS).map(|i| Row::part(format!("alloc/req{i}"), "alloc.req", 64, 8 * i, 8, Fmt::Bin))
}

/// A pin's value in a cycle (`p` the inputs, `o` the outputs); `None` for a signal that is not a link or
/// token pin.
pub(crate) fn pin_value(name: &str, p: &Pins, o: &Sp2Outputs) -> Option<u128> {
    let bits8 = |f: &dyn Fn(usize) -> bool| packed(|k| f(k) as u128, 1);
    Some(match name {
        "link_in_valid" => bits8(&|k| p.link_in[k].is_some()),
        "link_in_data" => packed(|k| p.link_in[k].unwrap_or(0) as u128, 8),
        "token_in" => bits8(&|k| p.token_in[k]),
        "link_out_valid" => bits8(&|k| o.link_out[k].is_some()),
        "link_out_data" => packed(|k| o.link_out[k].unwrap_or(0) as u128, 8),
        "token_out" => bits8(&|k| o.token_out[k]),
        _ => return None,
    })
}

/// The switch's pins in one cycle.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pins {
    pub(crate) link_in: [Option<u8>; PORTS],
    pub(crate) token_in: [bool; PORTS],
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
    /// Packets sent through the crossbar (cut through).
    pub via_xbar: u64,
    /// Packets sent through the central queue.
    pub via_queue: u64,
    /// Packets whose CRC byte did not match, over all receivers.
    pub crc_errors: u64,
    /// Packets dropped for a zero `LEN` or a zero route byte, over all receivers.
    pub route_errors: u64,
    /// Bytes driven on the output links over the whole scenario.
    pub bytes_out: u64,
}

/// The scenario's counts at the end of the model's run (`errors`: the receivers' CRC and route error counts
/// summed); an error if the run lost its point: no packet through the crossbar or the queue, no CRC or route
/// error, or the switch not idle after the drain.
pub(crate) fn summarize<S: SwitchModel>(
    scenario: &str,
    sw: &S,
    (crc_errors, route_errors): (u64, u64),
    outs: &[Sp2Outputs],
) -> Result<Summary> {
    let (via_queue, via_xbar) = sw.packets_via();
    let bytes_out = outs
        .iter()
        .map(|o| o.link_out.iter().filter(|b| b.is_some()).count() as u64)
        .sum();
    if via_xbar == 0 || via_queue == 0 || crc_errors == 0 || route_errors == 0 || !sw.idle() {
        bail!(
            "{scenario} lost its point: {via_xbar} packets via the crossbar, {via_queue} via the queue, \
             {crc_errors} CRC and {route_errors} route errors, idle at the end: {}",
            sw.idle()
        );
    }
    Ok(Summary {
        via_xbar,
        via_queue,
        crc_errors,
        route_errors,
        bytes_out,
    })
}

pub(crate) fn packed(f: impl Fn(usize) -> u128, w: usize) -> u128 {
    (0..PORTS).fold(0, |acc, k| acc | ((f(k) & ((1 << w) - 1)) << (k * w)))
}

/// Drives a switch chip `C` (`sp2_switch_v2`, or a later version's, named `top` in errors) with `pins`, one cycle
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
                w.change_vector(id, bits_of(v, sigs[k].width))?;
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

//! Scenario `sp2-contention-v2`: the v2 switch `sp2_switch_v2` (or the model `Sp2SwitchV2`) with a model
//! `Node` on each port, driven by the SP2 contention script ([`super::sp2`]): four inputs to output 5 at
//! once (cycle 2), ASR multi-port sets spread over outputs 1–3 (cycle 60), all eight inputs to sets containing
//! output 0 while output 0's node stops consuming (cycles 130–199), a CRC error, a route error and a 3-port
//! set (cycle 210), then the drain; 360 cycles.
//!
//! What it shows (beside what v1's scenario showed, which is gone with v1's HDL): the pipelined allocator (requests registered, grants three cycles later,
//! made among the transmitters free from the registers' point of view — `alloc/free_spec`, `wait_spec` — and
//! kept where the column is free and the row waiting now), queue admission only when none of a packet's
//! permitted outputs is free (`free_spec`), several receivers writing packets for one output at once (per-packet chunk chains), the per-output
//! load that the least-loaded choice reads.
//!
//! The model runs first (the nodes react to its outputs); the HDL is driven with the same pins and must drive
//! the same outputs every cycle (the writer fails otherwise). Every signal the model's VCD carries is taken
//! from the model's typed cycle function, `Sp2SwitchV2::decide` (its [`Decisions`]), never re-derived here;
//! the HDL's VCD has the whole hierarchy. Timing as in `benes8-burst`: cycle n has its inputs at time 10n
//! (clock low), its rising edge at 10n+5.

use anyhow::Result;
use asr_hdl::sp2::v2::switch::Sp2SwitchV2 as SwHw;
use asr_model::sp2::node::Node;
use asr_model::sp2::v2::receiver::Offer;
use asr_model::sp2::v2::switch::{Decisions, Sp2SwitchV2};
use asr_model::sp2::Sp2Outputs;
use asr_model::sp2::PORTS;
use std::io::Write;

use super::gtkw::{Fmt, Group, Row};
use super::sp2::{
    alloc_req_rows, error_rows, packed, pin_groups, pin_value, script_cycle, summarize,
    write_model_vcd, write_switch_hdl, Pins, Sig, Summary, PIN_SIGNALS,
};

/// Cycles of the scenario.
pub const CYCLES: usize = 360;

/// Every signal the `.gtkw` shows; those marked `model` are in the model's VCD too, with the same values.
pub fn signals() -> Vec<Sig> {
    let mut v = Vec::new();
    let mut add = |name: String, width: usize, model: bool| v.push(Sig { name, width, model });
    for &(n, w) in PIN_SIGNALS {
        add(n.into(), w, true);
    }
    for i in 0..PORTS {
        for (n, w, model) in [
            ("req", 8, true),
            ("waiting", 1, true),
            ("wait_spec", 1, true),
            ("at_end", 1, true),
            ("may_queue", 1, true),
            ("adm_set", 8, false),
            ("chunks", 6, false),
            ("offer_valid", 1, true),
            ("offer_end", 1, true),
            ("ready_valid", 1, true),
            ("soon", 1, false),
            ("grant", 1, true),
            ("grant_out", 3, false),
            ("admitted", 1, true),
            ("written", 1, true),
            ("takes", 1, false),
        ] {
            add(format!("rx${i}.{n}"), w, model);
        }
    }
    for (n, w, model) in [
        ("req", 64, true),
        ("wait_set", 64, true),
        ("free", 8, true),
        ("mat_free", 8, true),
        ("grant_valid", 8, true),
        ("grant_row", 24, false),
    ] {
        add(format!("alloc.{n}"), w, model);
    }
    for (n, w, model) in [
        ("adm_valid", 8, true),
        ("adm_grant_valid", 1, true),
        ("adm_grant", 3, false),
        ("adm_out", 3, false),
        ("wr_valid", 8, true),
        ("wr_grant_valid", 1, true),
        ("wr_grant", 3, false),
        ("rd_req", 8, true),
        ("rd_grant_valid", 1, true),
        ("rd_grant", 3, false),
        ("rd_valid", 1, true),
        ("rd_out", 3, false),
        ("load", 64, true),
    ] {
        add(format!("cq.{n}"), w, model);
    }
    for o in 0..PORTS {
        for (n, w, model) in [
            ("src_xbar", 1, true),
            ("src_rx", 3, false),
            ("free", 1, true),
            ("wants", 1, true),
            ("takes", 1, true),
            ("link_valid", 1, true),
            ("link_byte", 8, true),
        ] {
            add(format!("tx${o}.{n}"), w, model);
        }
    }
    v
}

/// What the `.gtkw` shows, in groups: the clock; per port its links and credits; the receivers; the
/// allocator (each row's request, the free columns, the grants); the central queue (admission, writes, reads,
/// per-output load); the transmitters. The model's view leaves out the rows its VCD lacks.
pub fn view(model: bool) -> Vec<Group> {
    let sigs = signals();
    let sig = |name: &str| {
        sigs.iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name} is not a signal of the scenario"))
    };
    let shown = |name: &str| !model || sig(name).model;
    let whole = |rows: &mut Vec<Row>, row: String, name: &str, fmt: Fmt| {
        if shown(name) {
            rows.push(Row::whole(row, name, sig(name).width, fmt));
        }
    };
    let part = |rows: &mut Vec<Row>, row: String, name: &str, lsb: usize, len: usize, fmt: Fmt| {
        if shown(name) {
            rows.push(Row::part(row, name, sig(name).width, lsb, len, fmt));
        }
    };
    let mut g = pin_groups();
    let mut rows = Vec::new();
    for i in 0..PORTS {
        for (row, n, fmt) in [
            ("request", "req", Fmt::Bin),
            ("waiting", "waiting", Fmt::Bin),
            ("wait_spec", "wait_spec", Fmt::Bin),
            ("at_end", "at_end", Fmt::Bin),
            ("may_queue", "may_queue", Fmt::Bin),
            ("queue_set", "adm_set", Fmt::Bin),
            ("queue_chunks", "chunks", Fmt::Dec),
            ("offer", "offer_valid", Fmt::Bin),
            ("offer_end", "offer_end", Fmt::Bin),
            ("chunk_ready", "ready_valid", Fmt::Bin),
            ("ends_soon", "soon", Fmt::Bin),
            ("granted", "grant", Fmt::Bin),
            ("granted_out", "grant_out", Fmt::Dec),
            ("admitted", "admitted", Fmt::Bin),
            ("written", "written", Fmt::Bin),
            ("offer_taken", "takes", Fmt::Bin),
        ] {
            whole(
                &mut rows,
                format!("rx{i}/{row}"),
                &format!("rx${i}.{n}"),
                fmt,
            );
        }
        rows.extend(error_rows(i));
    }
    g.push(Group::new("receivers", rows));
    let mut rows = Vec::new();
    rows.extend(alloc_req_rows());
    for i in 0..PORTS {
        part(
            &mut rows,
            format!("alloc/wait_set{i}"),
            "alloc.wait_set",
            8 * i,
            8,
            Fmt::Bin,
        );
    }
    whole(&mut rows, "alloc/free_spec".into(), "alloc.free", Fmt::Bin);
    whole(
        &mut rows,
        "alloc/free_soon".into(),
        "alloc.mat_free",
        Fmt::Bin,
    );
    whole(
        &mut rows,
        "alloc/grant_spec".into(),
        "alloc.grant_valid",
        Fmt::Bin,
    );
    for o in 0..PORTS {
        part(
            &mut rows,
            format!("alloc/grant_rx{o}"),
            "alloc.grant_row",
            3 * o,
            3,
            Fmt::Dec,
        );
    }
    g.push(Group::new("allocator", rows));
    let mut rows = Vec::new();
    for (row, n, fmt) in [
        ("adm_ask", "adm_valid", Fmt::Bin),
        ("adm_grant_valid", "adm_grant_valid", Fmt::Bin),
        ("adm_grant_rx", "adm_grant", Fmt::Dec),
        ("adm_out", "adm_out", Fmt::Dec),
        ("wr_valid", "wr_valid", Fmt::Bin),
        ("wr_grant_valid", "wr_grant_valid", Fmt::Bin),
        ("wr_grant_rx", "wr_grant", Fmt::Dec),
        ("rd_req", "rd_req", Fmt::Bin),
        ("rd_grant_valid", "rd_grant_valid", Fmt::Bin),
        ("rd_grant_tx", "rd_grant", Fmt::Dec),
        ("rd_valid", "rd_valid", Fmt::Bin),
        ("rd_out", "rd_out", Fmt::Dec),
    ] {
        whole(&mut rows, format!("cq/{row}"), &format!("cq.{n}"), fmt);
    }
    for o in 0..PORTS {
        part(
            &mut rows,
            format!("cq/load{o}"),
            "cq.load",
            8 * o,
            8,
            Fmt::Dec,
        );
    }
    g.push(Group::new("central queue", rows));
    let mut rows = Vec::new();
    for o in 0..PORTS {
        for (row, n, fmt) in [
            ("from_crossbar", "src_xbar", Fmt::Bin),
            ("source_rx", "src_rx", Fmt::Dec),
            ("free", "free", Fmt::Bin),
            ("wants_chunk", "wants", Fmt::Bin),
            ("takes_offer", "takes", Fmt::Bin),
            ("valid", "link_valid", Fmt::Bin),
            ("byte", "link_byte", Fmt::Hex),
        ] {
            whole(
                &mut rows,
                format!("tx{o}/{row}"),
                &format!("tx${o}.{n}"),
                fmt,
            );
        }
    }
    g.push(Group::new("transmitters", rows));
    g
}

/// The model's run: per cycle the pins, the state before the cycle, its decisions and the outputs.
struct Run {
    pins: Vec<Pins>,
    before: Vec<Sp2SwitchV2>,
    dec: Vec<Decisions>,
    outs: Vec<Sp2Outputs>,
}

/// Runs the scenario on the model and returns its counts.
pub fn summary() -> Result<Summary> {
    Ok(run_model()?.1)
}

fn run_model() -> Result<(Run, Summary)> {
    let mut sw = Sp2SwitchV2::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let mut wires = ([None; PORTS], [false; PORTS]);
    let mut run = Run {
        pins: Vec::with_capacity(CYCLES),
        before: Vec::with_capacity(CYCLES),
        dec: Vec::with_capacity(CYCLES),
        outs: Vec::with_capacity(CYCLES),
    };
    for n in 0..CYCLES {
        let pins = script_cycle(n, &mut nodes, &wires);
        let d = sw
            .decide(&pins.link_in)
            .map_err(|e| anyhow::anyhow!("model, cycle {n}: {e}"))?;
        run.before.push(sw.clone());
        sw.commit(&d, &pins.link_in, &pins.token_in)
            .map_err(|e| anyhow::anyhow!("model, cycle {n}: {e}"))?;
        sw.check()
            .map_err(|e| anyhow::anyhow!("model, cycle {n}: {e}"))?;
        let o = Sp2Outputs {
            link_out: d.tx.map(|t| t.link),
            token_out: d.rx.map(|r| r.token),
        };
        wires = (o.link_out, o.token_out);
        run.pins.push(pins);
        run.dec.push(d);
        run.outs.push(o);
    }
    let errors = (
        sw.rx.iter().map(|r| r.crc_errors).sum(),
        sw.rx.iter().map(|r| r.route_errors).sum(),
    );
    let summary = summarize("sp2-contention-v2", &sw, errors, &run.outs)?;
    Ok((run, summary))
}

/// A model signal before the edge of a cycle: from the pins, the state before the cycle (registers on the
/// pins: the error counters, the queue's load, the transmitters' sources) and the cycle's decisions.
fn value(name: &str, p: &Pins, b: &Sp2SwitchV2, o: &Sp2Outputs, d: &Decisions) -> u128 {
    let bit = |x: bool| x as u128;
    let bits8 = |f: &dyn Fn(usize) -> bool| packed(|k| f(k) as u128, 1);
    let (head, field) = name.split_once('.').unwrap_or((name, ""));
    let (base, k) = match head.split_once('$') {
        Some((base, k)) => (base, k.parse::<usize>().expect("an index")),
        None => (head, 0),
    };
    let rx = &d.rx[k];
    let granted = |i: usize| d.grant.contains(&Some(i as u8));
    if let Some(v) = pin_value(name, p, o) {
        return v;
    }
    match (base, field) {
        ("crc_errors", _) => packed(|k| b.rx[k].crc_errors as u128, 8),
        ("route_errors", _) => packed(|k| b.rx[k].route_errors as u128, 8),
        ("alloc", "free") => d.free_spec as u128,
        ("rx", "req") => rx.req as u128,
        ("rx", "waiting") => bit(d.rx_waiting >> k & 1 == 1),
        ("rx", "may_queue") => bit(rx.may_queue),
        ("rx", "at_end") => bit(rx.at_end),
        ("rx", "wait_spec") => bit(rx.wait_spec),
        ("rx", "offer_valid") => bit(rx.offer.is_some()),
        ("rx", "offer_end") => bit(matches!(rx.offer, Some(Offer::End { .. }))),
        ("rx", "ready_valid") => bit(rx.ready.is_some()),
        ("rx", "grant") => bit(granted(k)),
        ("rx", "admitted") => bit(b.adm_late == Some(k as u8)),
        ("rx", "written") => bit(d.cq.wr == Some(k as u8)),
        ("alloc", "req") => packed(|i| d.req[i] as u128, 8),
        ("alloc", "wait_set") => packed(|i| d.wait_set[i] as u128, 8),
        ("alloc", "mat_free") => d.free as u128,
        ("alloc", "grant_valid") => bits8(&|o| d.grant_spec[o].is_some()),
        ("cq", "adm_valid") => d.cq_in.ask as u128,
        ("cq", "adm_grant_valid") => bit(d.cq.adm.is_some()),
        ("cq", "wr_valid") => bits8(&|i| d.cq_in.wr[i].is_some()),
        ("cq", "wr_grant_valid") => bit(d.cq.wr.is_some()),
        ("cq", "rd_req") => bits8(&|o| d.cq_in.rd[o]),
        ("cq", "rd_grant_valid") => bit(d.cq.rd.is_some()),
        ("cq", "rd_valid") => bit(d.cq.rd_data.is_some()),
        ("cq", "load") => packed(|o| b.cq.load[o].min(255) as u128, 8),
        ("tx", "src_xbar") => bit(matches!(
            b.tx[k].src,
            asr_model::sp2::v2::transmitter::TxSrc::Xbar(_)
        )),
        ("tx", "free") => bit(d.tx[k].free),
        ("tx", "wants") => bit(d.tx[k].wants),
        ("tx", "takes") => bit(d.tx[k].takes),
        ("tx", "link_valid") => bit(d.tx[k].link.is_some()),
        ("tx", "link_byte") => d.tx[k].link.unwrap_or(0) as u128,
        _ => panic!("no model value for {name}"),
    }
}

/// Writes the HDL's VCD (whole hierarchy); fails if the HDL's outputs differ from the model's in a cycle.
pub fn write_hdl<Wr: Write>(f: Wr) -> Result<()> {
    let (run, _) = run_model()?;
    write_switch_hdl::<SwHw, Wr>(f, "sp2_switch_v2", &run.pins, &run.outs)
}

/// Writes the model's VCD: the signals of [`signals`] marked `model`, same names and widths as the HDL's.
/// Every one is a value before the edge (the model's VCD has no registers of its own after the edge).
pub fn write_model<Wr: Write>(f: Wr) -> Result<()> {
    let (run, _) = run_model()?;
    let sigs: Vec<Sig> = signals().into_iter().filter(|s| s.model).collect();
    write_model_vcd(
        f,
        &sigs,
        CYCLES,
        |n, s| {
            value(
                &s.name,
                &run.pins[n],
                &run.before[n],
                &run.outs[n],
                &run.dec[n],
            )
        },
        |_, _| None,
    )
}

//! Scenario `sp2-contention-v3`: the v3 switch `sp2_switch_v3` (or the model `Sp2SwitchV3`) with a model
//! `Node` on each port, driven by the SP2 contention script of [`super::sp2`] (the one `sp2-contention-v2`
//! runs): four inputs to output 5 at once (cycle 2), ASR multi-port sets spread over outputs 1–3 (cycle 60),
//! all eight inputs to sets containing output 0 while output 0's node stops consuming (cycles 130–199), a
//! CRC error, a route error and a 3-port set (cycle 210), then the drain; 360 cycles.
//!
//! What it shows of v3 (docs/sp2-switch.md, v3): every signal is a block port, and every block output a
//! register. Per receiver its request register, its admission request (`ask`), its look-ahead offer, the
//! grant and admission it reads, and the central-queue operations it drives in the cycle (a bank write in
//! its slot, a link, a push); the allocator's matrix in flight (`rows`, `cols`) and its registered grants
//! five cycles after the capture (`may_capture`); the queue's admissions, its per-output load flags, its
//! free-chunk head and its chunk reads; per transmitter its source, the offer it reads, its credit and its
//! requests for the queue.
//!
//! The model runs first (the nodes react to its outputs); the HDL is driven with the same pins and must drive
//! the same outputs every cycle (the writer fails otherwise). Every value in the model's VCD comes from the
//! model's typed cycle function, `Sp2SwitchV3::step_traced` (its [`CycleTrace`]: every block's registers
//! before the edge and what every block reads), never re-derived here; the HDL's VCD has the whole hierarchy.
//! Timing as in `benes8-burst`: cycle n has its inputs at time 10n (clock low), its rising edge at 10n+5.

use anyhow::Result;
use asr_hdl::sp2::v3::switch::Sp2SwitchV3 as SwHw;
use asr_model::sp2::node::Node;
use asr_model::sp2::v3::switch::{CycleTrace, Sp2SwitchV3};
use asr_model::sp2::v3::transmitter::TxSrc;
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

/// Per receiver: (port, width, row name, format).
const RX: &[(&str, usize, &str, Fmt)] = &[
    ("req", 8, "request", Fmt::Bin),
    ("ask_valid", 1, "asks_queue", Fmt::Bin),
    ("ask_set", 8, "queue_set", Fmt::Bin),
    ("ask_chunks", 6, "queue_chunks", Fmt::Dec),
    ("grant_valid", 1, "granted", Fmt::Bin),
    ("grant", 3, "granted_out", Fmt::Dec),
    ("admitted_valid", 1, "admitted", Fmt::Bin),
    ("admitted", 3, "admitted_out", Fmt::Dec),
    ("conn", 8, "connected_to", Fmt::Bin),
    ("offer_valid", 1, "offer", Fmt::Bin),
    ("offer_to_valid", 1, "offer_for_valid", Fmt::Bin),
    ("offer_to", 3, "offer_for", Fmt::Dec),
    ("near_end", 1, "near_end", Fmt::Bin),
    ("wpos_valid", 1, "writes_queue", Fmt::Bin),
    ("wpos", 7, "write_chunk_pos", Fmt::Dec),
    ("write_valid", 1, "bank_write", Fmt::Bin),
    ("link_valid", 1, "chunk_link", Fmt::Bin),
    ("push_valid", 1, "packet_push", Fmt::Bin),
    ("token", 1, "token", Fmt::Bin),
];

/// The allocator's ports: (port, width, row name, format).
const ALLOC: &[(&str, usize, &str, Fmt)] = &[
    ("may_capture", 1, "may_capture", Fmt::Bin),
    ("rows", 8, "matrix_rows", Fmt::Bin),
    ("cols", 8, "matrix_cols", Fmt::Bin),
    ("grant_valid", 8, "grant_valid", Fmt::Bin),
];

/// The central queue's ports: (port, width, row name, format).
const CQ: &[(&str, usize, &str, Fmt)] = &[
    ("ask_valid", 8, "adm_ask", Fmt::Bin),
    ("adm_valid", 1, "admits", Fmt::Bin),
    ("adm_rx", 3, "admits_rx", Fmt::Dec),
    ("adm_out", 3, "admits_to_out", Fmt::Dec),
    ("adm_busy", 8, "adm_busy", Fmt::Bin),
    ("load_nz", 8, "queued_for", Fmt::Bin),
    ("wr_valid", 8, "bank_writes", Fmt::Bin),
    ("free_head_valid", 1, "free_head_valid", Fmt::Bin),
    ("free_head", 7, "free_head", Fmt::Dec),
    ("rd_req", 8, "rd_req", Fmt::Bin),
    ("rd_valid", 1, "reads", Fmt::Bin),
    ("rd_to", 3, "reads_for", Fmt::Dec),
];

/// Per transmitter: (port, width, row name, format).
const TX: &[(&str, usize, &str, Fmt)] = &[
    ("src_valid", 1, "from_crossbar", Fmt::Bin),
    ("src", 3, "source_rx", Fmt::Dec),
    ("grant_valid", 1, "granted", Fmt::Bin),
    ("offer_valid", 1, "offer_in", Fmt::Bin),
    ("idle", 1, "idle", Fmt::Bin),
    ("credit_ok", 1, "credit_ok", Fmt::Bin),
    ("cand", 1, "candidate", Fmt::Bin),
    ("soon", 1, "ends_soon", Fmt::Bin),
    ("rd_req", 1, "wants_chunk", Fmt::Bin),
    ("rd_valid", 1, "chunk_in", Fmt::Bin),
    ("link_valid", 1, "valid", Fmt::Bin),
    ("link_byte", 8, "byte", Fmt::Hex),
];

/// Every signal the `.gtkw` shows; all are in the model's VCD too, with the same values.
pub fn signals() -> Vec<Sig> {
    let mut v: Vec<Sig> = PIN_SIGNALS
        .iter()
        .map(|&(n, w)| Sig {
            name: n.into(),
            width: w,
            model: true,
        })
        .collect();
    let mut add = |name: String, width: usize| {
        v.push(Sig {
            name,
            width,
            model: true,
        })
    };
    for i in 0..PORTS {
        for &(n, w, _, _) in RX {
            add(format!("rx${i}.{n}"), w);
        }
    }
    add("alloc.req".into(), 64);
    add("alloc.grant".into(), 24);
    for &(n, w, _, _) in ALLOC {
        add(format!("alloc.{n}"), w);
    }
    for &(n, w, _, _) in CQ {
        add(format!("cq.{n}"), w);
    }
    for o in 0..PORTS {
        for &(n, w, _, _) in TX {
            add(format!("tx${o}.{n}"), w);
        }
    }
    v
}

/// What the `.gtkw` shows, in groups: the clock; per port its links and credits; the receivers; the
/// allocator (each row's request, the matrix in flight, the grants); the central queue; the transmitters.
/// The model's VCD has every signal, so both views are the same.
pub fn view(model: bool) -> Vec<Group> {
    let sigs = signals();
    let width = |name: &str| {
        sigs.iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name} is not a signal of the scenario"))
            .width
    };
    let whole = |rows: &mut Vec<Row>, row: String, name: &str, fmt: Fmt| {
        rows.push(Row::whole(row, name, width(name), fmt));
    };
    let part = |rows: &mut Vec<Row>, row: String, name: &str, lsb: usize, len: usize, fmt: Fmt| {
        rows.push(Row::part(row, name, width(name), lsb, len, fmt));
    };
    let _ = model;
    let mut g = pin_groups();
    let mut rows = Vec::new();
    for i in 0..PORTS {
        for &(n, _, row, fmt) in RX {
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
    for &(n, _, row, fmt) in ALLOC {
        whole(
            &mut rows,
            format!("alloc/{row}"),
            &format!("alloc.{n}"),
            fmt,
        );
    }
    for o in 0..PORTS {
        part(
            &mut rows,
            format!("alloc/grant_rx{o}"),
            "alloc.grant",
            3 * o,
            3,
            Fmt::Dec,
        );
    }
    g.push(Group::new("allocator", rows));
    let mut rows = Vec::new();
    for &(n, _, row, fmt) in CQ {
        whole(&mut rows, format!("cq/{row}"), &format!("cq.{n}"), fmt);
    }
    g.push(Group::new("central queue", rows));
    let mut rows = Vec::new();
    for o in 0..PORTS {
        for &(n, _, row, fmt) in TX {
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

/// The model's run: per cycle the pins, the receivers' error counts before the cycle, its trace and its
/// outputs.
struct Run {
    pins: Vec<Pins>,
    errors: Vec<[(u64, u64); PORTS]>,
    trace: Vec<CycleTrace>,
    outs: Vec<Sp2Outputs>,
}

/// Runs the scenario on the model and returns its counts.
pub fn summary() -> Result<Summary> {
    Ok(run_model()?.1)
}

fn run_model() -> Result<(Run, Summary)> {
    let mut sw = Sp2SwitchV3::new();
    let mut nodes: Vec<Node> = (0..PORTS).map(|_| Node::new()).collect();
    let mut wires = ([None; PORTS], [false; PORTS]);
    let mut run = Run {
        pins: Vec::with_capacity(CYCLES),
        errors: Vec::with_capacity(CYCLES),
        trace: Vec::with_capacity(CYCLES),
        outs: Vec::with_capacity(CYCLES),
    };
    for n in 0..CYCLES {
        let pins = script_cycle(n, &mut nodes, &wires);
        run.errors.push(std::array::from_fn(|i| {
            (sw.rx[i].crc_errors, sw.rx[i].route_errors)
        }));
        let (o, t) = sw
            .step_traced(&pins.link_in, &pins.token_in)
            .map_err(|e| anyhow::anyhow!("model, cycle {n}: {e}"))?;
        sw.check()
            .map_err(|e| anyhow::anyhow!("model, cycle {n}: {e}"))?;
        wires = (o.link_out, o.token_out);
        run.pins.push(pins);
        run.trace.push(t);
        run.outs.push(o);
    }
    let errors = (
        sw.rx.iter().map(|r| r.crc_errors).sum(),
        sw.rx.iter().map(|r| r.route_errors).sum(),
    );
    let summary = summarize("sp2-contention-v3", &sw, errors, &run.outs)?;
    Ok((run, summary))
}

/// A model signal before the edge of a cycle: the pins, else from the cycle's trace (the blocks' registers
/// before the edge and what each block reads) and the error counts before the cycle.
fn value(name: &str, p: &Pins, o: &Sp2Outputs, err: &[(u64, u64); PORTS], t: &CycleTrace) -> u128 {
    if let Some(v) = pin_value(name, p, o) {
        return v;
    }
    let bit = |x: bool| x as u128;
    let bits8 = |f: &dyn Fn(usize) -> bool| packed(|k| f(k) as u128, 1);
    let opt = |x: Option<u8>| x.map_or(0, u128::from);
    let (head, field) = name.split_once('.').unwrap_or((name, ""));
    let (base, k) = match head.split_once('$') {
        Some((base, k)) => (base, k.parse::<usize>().expect("an index")),
        None => (head, 0),
    };
    let b = &t.before;
    let (r, ri, ra) = (&b.rx[k], &t.rx_in[k], &t.cq_in.acts[k]);
    let (x, xi) = (&b.tx[k], &t.tx_in[k]);
    match (base, field) {
        ("crc_errors", _) => packed(|i| err[i].0 as u128, 8),
        ("route_errors", _) => packed(|i| err[i].1 as u128, 8),
        ("rx", "req") => r.req.into(),
        ("rx", "ask_valid") => bit(r.ask.is_some()),
        ("rx", "ask_set") => opt(r.ask.map(|a| a.set)),
        ("rx", "ask_chunks") => opt(r.ask.map(|a| a.chunks)),
        ("rx", "grant_valid") => bit(ri.grant.is_some()),
        ("rx", "grant") => opt(ri.grant),
        ("rx", "admitted_valid") => bit(ri.admitted.is_some()),
        // The glue drives every receiver's `admitted` with the queue's `adm_out` (its valid bit says
        // whose it is).
        ("rx", "admitted") => opt(b.cq.adm.map(|a| a.1)),
        ("rx", "conn") => ri.conn.into(),
        ("rx", "offer_valid") => bit(r.offer.is_some()),
        ("rx", "offer_to_valid") => bit(r.offer.is_some_and(|f| f.to.is_some())),
        ("rx", "offer_to") => opt(r.offer.and_then(|f| f.to)),
        ("rx", "near_end") => bit(r.near_end),
        ("rx", "wpos_valid") => bit(r.wpos.is_some()),
        ("rx", "wpos") => opt(r.wpos),
        ("rx", "write_valid") => bit(ra.write.is_some()),
        ("rx", "link_valid") => bit(ra.link.is_some()),
        ("rx", "push_valid") => bit(ra.push.is_some()),
        ("rx", "token") => bit(r.token),
        ("alloc", "req") => packed(|i| t.alloc_in.req[i] as u128, 8),
        ("alloc", "grant") => packed(|o| opt(b.alloc.grant[o]), 3),
        ("alloc", "grant_valid") => bits8(&|o| b.alloc.grant[o].is_some()),
        ("alloc", "may_capture") => bit(b.alloc.may_capture),
        ("alloc", "rows") => b.alloc.rows.into(),
        ("alloc", "cols") => b.alloc.cols.into(),
        ("cq", "ask_valid") => bits8(&|i| t.cq_in.ask[i].is_some()),
        ("cq", "adm_valid") => bit(b.cq.adm.is_some()),
        ("cq", "adm_rx") => opt(b.cq.adm.map(|a| a.0)),
        ("cq", "adm_out") => opt(b.cq.adm.map(|a| a.1)),
        ("cq", "adm_busy") => b.cq.adm_busy.into(),
        ("cq", "load_nz") => b.cq.load_nz.into(),
        ("cq", "wr_valid") => bits8(&|i| t.cq_in.acts[i].write.is_some()),
        ("cq", "free_head_valid") => bit(b.cq.free_head.is_some()),
        ("cq", "free_head") => opt(b.cq.free_head),
        ("cq", "rd_req") => t.cq_in.rd_req.into(),
        ("cq", "rd_valid") => bit(b.cq.rd.is_some()),
        ("cq", "rd_to") => opt(b.cq.rd.map(|r| r.0)),
        ("tx", "src_valid") => bit(x.src != TxSrc::Idle),
        ("tx", "src") => match x.src {
            TxSrc::Xbar(i) => i.into(),
            TxSrc::Idle => 0,
        },
        ("tx", "grant_valid") => bit(xi.grant.is_some()),
        ("tx", "offer_valid") => bit(xi.offer.is_some()),
        ("tx", "idle") => bit(x.idle),
        ("tx", "credit_ok") => bit(x.credit_ok),
        ("tx", "cand") => bit(x.cand),
        ("tx", "soon") => bit(x.soon),
        ("tx", "rd_req") => bit(x.rd_req),
        ("tx", "rd_valid") => bit(xi.rd.is_some()),
        ("tx", "link_valid") => bit(o.link_out[k].is_some()),
        ("tx", "link_byte") => opt(o.link_out[k]),
        _ => panic!("no model value for {name}"),
    }
}

/// Writes the HDL's VCD (whole hierarchy); fails if the HDL's outputs differ from the model's in a cycle.
pub fn write_hdl<Wr: Write>(f: Wr) -> Result<()> {
    let (run, _) = run_model()?;
    write_switch_hdl::<SwHw, Wr>(f, "sp2_switch_v3", &run.pins, &run.outs)
}

/// Writes the model's VCD: every signal of [`signals`], same names and widths as the HDL's. Every one is a
/// value before the edge (the model's VCD has no registers of its own after the edge).
pub fn write_model<Wr: Write>(f: Wr) -> Result<()> {
    let (run, _) = run_model()?;
    write_model_vcd(
        f,
        &signals(),
        CYCLES,
        |n, s| {
            value(
                &s.name,
                &run.pins[n],
                &run.outs[n],
                &run.errors[n],
                &run.trace[n],
            )
        },
        |_, _| None,
    )
}

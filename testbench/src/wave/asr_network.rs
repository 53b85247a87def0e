//! The waveform of a generated network (`asr network --wave N`, docs/network.md): the network's Verilog in
//! a traced Verilator build, driven by the co-simulation's stimulus (random AXI4-Stream traffic on every
//! processor, [`crate::cosim::tops::asr_network`]) for N cycles and then its drain, written as a VCD of the
//! whole design; and a GTKWave save file beside it with one group per endpoint and one per switch.
//!
//! Endpoint group `p<k> <node>`: the AXI4-Stream send side (`s_tvalid`, `s_tready`, `s_tdata`, `s_tlast`,
//! `s_tdest`), the receive side (`m_*`, `tid` the source, `tuser` a bad CRC), and its link into its switch
//! (`link_valid`, `link_byte`, `token_in` from the switch). Switch group `sw<s> <name>`: per connected
//! output port its link (`out<j> valid`, `out<j> byte`, named after what it drives: ` to p3`, ` to sw2:5`; GTKWave shows ASCII only) and the
//! token it returns on input port j (`tok<j>`).
//!
//! Time: one cycle is 10 time units; the rising edge at the middle of a cycle (the co-simulation's
//! Verilator harness).

use super::gtkw::{self, Fmt, Group, Row};
use crate::cosim::tops::asr_network as net;
use anyhow::{Context, Result};
use asr_model::sp2::asr_network::AsrNetwork;
use asr_model::sp2::network::End;
use asr_model::sp2::nic::NicParams;
use asr_model::sp2::PORTS;
use asr_model::topology::Topology;
use std::path::{Path, PathBuf};

/// What an output drives, as a row suffix.
fn to(e: &End) -> Option<String> {
    match e {
        End::Open => None,
        End::Switch { sw, port } => Some(format!(" to sw{sw}:{port}")),
        End::Node(k) => Some(format!(" to p{k}")),
        End::Failed => Some(" to a failed link".to_string()),
    }
}

/// The groups of the network of `t` with `tables` (one per endpoint, then one per switch).
pub fn view(t: &Topology, tables: &[NicParams]) -> Result<Vec<Group>> {
    // The wiring does not depend on the switch model.
    let n = AsrNetwork::<asr_model::sp2::v3::switch::Sp2SwitchV3>::new(t, tables.to_vec())?;
    let (feed, sink) = n.wiring();
    let mut groups = Vec::new();
    for (k, node) in n.net.node_names.iter().enumerate() {
        let p = |s: &str| format!("p{k}_{s}");
        let at = feed
            .iter()
            .enumerate()
            .find_map(|(s, f)| {
                f.iter()
                    .position(|e| *e == End::Node(k))
                    .map(|port| (s, port))
            })
            .context("a processor without a switch")?;
        let mut rows = vec![
            Row::whole(format!("p{k}/s_tvalid"), p("s_axis_tvalid"), 1, Fmt::Bin),
            Row::whole(format!("p{k}/s_tready"), p("s_axis_tready"), 1, Fmt::Bin),
            Row::whole(format!("p{k}/s_tdata"), p("s_axis_tdata"), 8, Fmt::Hex),
            Row::whole(format!("p{k}/s_tlast"), p("s_axis_tlast"), 1, Fmt::Bin),
            Row::whole(format!("p{k}/s_tdest"), p("s_axis_tdest"), 8, Fmt::Dec),
            Row::whole(format!("p{k}/m_tvalid"), p("m_axis_tvalid"), 1, Fmt::Bin),
            Row::whole(format!("p{k}/m_tready"), p("m_axis_tready"), 1, Fmt::Bin),
            Row::whole(format!("p{k}/m_tdata"), p("m_axis_tdata"), 8, Fmt::Hex),
            Row::whole(format!("p{k}/m_tlast"), p("m_axis_tlast"), 1, Fmt::Bin),
            Row::whole(format!("p{k}/m_tid"), p("m_axis_tid"), 8, Fmt::Dec),
            Row::whole(format!("p{k}/m_tuser"), p("m_axis_tuser"), 1, Fmt::Bin),
        ];
        rows.push(Row::whole(
            format!("p{k}/link_valid to sw{}:{}", at.0, at.1),
            format!("n{k}_lo_v"),
            1,
            Fmt::Bin,
        ));
        rows.push(Row::whole(
            format!("p{k}/link_byte"),
            format!("n{k}_lo_d"),
            8,
            Fmt::Hex,
        ));
        rows.push(Row::part(
            format!("p{k}/token_in"),
            format!("s{}_to", at.0),
            PORTS,
            at.1,
            1,
            Fmt::Bin,
        ));
        groups.push(Group::new(format!("p{k} {node}"), rows));
    }
    for (s, name) in n.net.names.iter().enumerate() {
        let mut rows = Vec::new();
        for (j, e) in sink[s].iter().enumerate() {
            let Some(dest) = to(e) else { continue };
            rows.push(Row::part(
                format!("sw{s}/out{j} valid{dest}"),
                format!("s{s}_lo_v"),
                PORTS,
                j,
                1,
                Fmt::Bin,
            ));
            rows.push(Row::part(
                format!("sw{s}/out{j} byte"),
                format!("s{s}_lo_d"),
                8 * PORTS,
                8 * j,
                8,
                Fmt::Hex,
            ));
        }
        for (j, e) in feed[s].iter().enumerate() {
            if *e == End::Open {
                continue;
            }
            rows.push(Row::part(
                format!("sw{s}/tok{j}"),
                format!("s{s}_to"),
                PORTS,
                j,
                1,
                Fmt::Bin,
            ));
        }
        groups.push(Group::new(format!("sw{s} {name}"), rows));
    }
    Ok(groups)
}

/// Writes `vcd` (the network `name` of `t` with `tables`, switch `version`, its Verilog `v`: `cycles`
/// cycles of the co-simulation's traffic with `seed`, then the drain) and `<vcd stem>.gtkw` beside it;
/// returns the save file's path and the cycles written.
#[allow(clippy::too_many_arguments)]
pub fn write(
    t: &Topology,
    tables: Vec<NicParams>,
    version: &str,
    name: &str,
    v: &str,
    cycles: u64,
    seed: u64,
    vcd: &Path,
) -> Result<(PathBuf, u64)> {
    use crate::cosim::{run, BackendKind};
    let groups = view(t, &tables)?;
    let (layout, o) = net::options(
        t,
        tables,
        version,
        name,
        v,
        BackendKind::Verilator,
        cycles,
        seed,
    )?;
    let limit = cycles + o.make_top()?.drain_limit();
    // The traffic, then the drain until the network is idle (or the definition's drain limit).
    let recorded = run::design_vcd(&o, &layout, v, 0, limit, vcd)?;
    let gtkw = vcd.with_extension("gtkw");
    gtkw::write_save_file_in(&format!("TOP.{name}"), vcd, &gtkw, 10 * recorded, &groups)?;
    Ok((gtkw, recorded))
}

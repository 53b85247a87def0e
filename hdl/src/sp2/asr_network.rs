//! `asr network`: the Verilog of a whole network — the switches wired as a topology says, an [`AsrNic`]
//! endpoint on every processor port with its own route table, one AXI4-Stream pair per processor at the
//! top (docs/network.md). Hardware twin of `asr_model::sp2::asr_network::AsrNetwork` on the same topology and
//! tables.
//!
//! The file is structural Verilog written here around two designs exported from RustHDL once each: the
//! switch (v2 or v3, its module renamed `<name>__switch`) and the endpoint (module `<name>__nic`, built for
//! the network's table size). The endpoints differ only in their table's contents, so the endpoint's table
//! RAM takes them from a Verilog parameter (`TABLE`, the table's bytes, byte 0 in bits 7:0), set per
//! instance: one endpoint design, N tables. Every wire between two blocks runs from one block's output
//! register to another block's input (a switch's link output drives the next switch's or endpoint's input in
//! the same cycle, as `Sp2Network::step` does).
//!
//! Ports of the generated top (processor k, `k` in 0..N):
//! - `clock`;
//! - `p<k>_s_axis_tvalid`, `_tdata[7:0]`, `_tlast`, `_tdest[7:0]`, out `_tready`: messages to send;
//! - out `p<k>_m_axis_tvalid`, `_tdata[7:0]`, `_tlast`, `_tid[7:0]`, `_tuser`, in `_tready`: messages
//!   received (`tid` = source, `tuser` on the last beat = bad CRC);
//! - `p<k>_cfg_we`, `p<k>_cfg_addr[TB-1:0]`, `p<k>_cfg_data[7:0]`: writes into endpoint k's route table;
//! - out `p<k>_tx_busy`, `p<k>_tx_dropped[7:0]`, `p<k>_rx_dropped[7:0]`, `p<k>_rx_overflow`,
//!   `p<k>_credit_overflow`: the endpoint's status;
//! - out `switch_link_valid[8S-1:0]`, `switch_link_data[64S-1:0]`, `switch_token[8S-1:0]`: every switch's
//!   link outputs (switch s at bits `[8s +: 8]`, `[64s +: 64]`, `[8s +: 8]`), for observation only.

use super::nic::AsrNic;
use crate::export::doc::{TopDoc, CLOCK};
use crate::export::{finish, header_of, isolate_all_comb, typable_module_names};
use asr_model::sp2::network::End;
use asr_model::sp2::nic::NicParams;
use asr_model::sp2::PORTS;
use std::fmt::Write;

/// What the generator needs: the topology's wiring, the tables and the switch's design.
pub struct NetworkSpec<'a> {
    /// The top module's name (also the prefix of every other module of the file).
    pub name: &'a str,
    /// rust-hdl's Verilog of the switch (module `top`, as `crate::export::build` gives it, with the
    /// comments its export needs).
    pub switch_raw: &'a str,
    /// The switch's exported name (`sp2_switch_v2`, `sp2_switch_v3`), for the header.
    pub switch_name: &'a str,
    /// `feed[s][p]`: what drives input p of switch s (`Sp2Network::feed`).
    pub feed: &'a [[End; PORTS]],
    /// `sink[s][p]`: what output p of switch s drives.
    pub sink: &'a [[End; PORTS]],
    /// Switch names, for the header and the wiring comments.
    pub switch_names: &'a [String],
    /// Processor names.
    pub node_names: &'a [String],
    /// Endpoint k's table (all of one size).
    pub tables: &'a [NicParams],
}

/// The endpoint's Verilog for tables of `2^tb` bytes (module `top`), its table taken from `p`.
fn nic_raw(tb: usize, p: &NicParams) -> Result<String, String> {
    macro_rules! by_tb {
        ($($n:literal)*) => {
            match tb {
                $($n => Ok(isolate_all_comb(&crate::export::build(AsrNic::<$n>::new(p)))),)*
                _ => Err(format!("a route table of 2^{tb} bytes: endpoints hold 8 to 8192")),
            }
        };
    }
    by_tb!(3 4 5 6 7 8 9 10 11 12 13)
}

/// The endpoint's module with its table RAM initialised from the parameter `TABLE` (`bytes` bytes),
/// passed down from the endpoint's top module.
fn parameterise_table(v: &str, module: &str, bytes: usize) -> Result<String, String> {
    let tab = format!("{module}__tab");
    let bad = |what: &str| {
        Err(format!(
            "the endpoint's Verilog: {what} (the exporter changed?)"
        ))
    };
    let Some(start) = v.find(&format!("module {tab}(")) else {
        return bad(&format!("no module {tab}"));
    };
    let Some(init) = v[start..].find("    initial begin\n") else {
        return bad("the table RAM has no initial block");
    };
    let init = start + init;
    let Some(end) = v[init..].find("    end\n") else {
        return bad("the table RAM's initial block has no end");
    };
    let end = init + end + "    end\n".len();
    let bits = bytes * 8;
    let mut out = String::with_capacity(v.len() + 512);
    out.push_str(&v[..init]);
    let _ = write!(
        out,
        "    // The table's contents: byte i in TABLE[8*i +: 8] (set per endpoint by the network).\n    \
         integer i;\n    initial begin\n        for (i = 0; i < {bytes}; i = i + 1) mem[i] = TABLE[8*i +: 8];\n    end\n"
    );
    out.push_str(&v[end..]);
    // The parameter: declared in the table module and in the endpoint's top, which passes it down.
    let param = format!("    parameter [{}:0] TABLE = {bits}'h0;\n", bits - 1);
    let decl = |text: &str, m: &str| -> Result<String, String> {
        let head = format!("module {m}(");
        let Some(s) = text.find(&head) else {
            return Err(format!("the endpoint's Verilog: no module {m}"));
        };
        let Some(nl) = text[s..].find(");\n") else {
            return Err(format!("the endpoint's Verilog: module {m}'s header"));
        };
        let at = s + nl + 3;
        Ok(format!("{}{}{}", &text[..at], param, &text[at..]))
    };
    let out = decl(&out, &tab)?;
    let out = decl(&out, module)?;
    let inst = format!("    {tab} tab(");
    if out.matches(&inst).count() != 1 {
        return bad("the table RAM's instance");
    }
    Ok(out.replace(&inst, &format!("    {tab} #(.TABLE(TABLE)) tab(")))
}

/// Bits of a table address for `n` bytes (a power of two).
fn table_bits(n: usize) -> usize {
    n.trailing_zeros() as usize
}

/// The generated file: header, the top module, the endpoint's and the switch's modules.
pub fn generate(spec: &NetworkSpec) -> Result<String, String> {
    let n = spec.tables.len();
    let s_count = spec.feed.len();
    if n == 0 || s_count == 0 {
        return Err("a network needs processors and switches".into());
    }
    let bytes = spec.tables[0].table.len();
    if spec.tables.iter().any(|t| t.table.len() != bytes) {
        return Err("every endpoint's table must have one size".into());
    }
    let tb = table_bits(bytes);
    let nic_mod = format!("{}__nic", spec.name);
    let sw_mod = format!("{}__switch", spec.name);
    let nic = typable_module_names(&finish(&nic_mod, &nic_raw(tb, &spec.tables[0])?));
    let nic = parameterise_table(&nic, &nic_mod, bytes)?;
    let sw = typable_module_names(&finish(&sw_mod, spec.switch_raw));
    // Where processor k's link enters and leaves the switches.
    let mut enters = vec![None; n];
    let mut leaves = vec![None; n];
    for s in 0..s_count {
        for p in 0..PORTS {
            if let End::Node(k) = spec.feed[s][p] {
                enters[k] = Some((s, p));
            }
            if let End::Node(k) = spec.sink[s][p] {
                leaves[k] = Some((s, p));
            }
        }
    }
    let mut ports: Vec<(String, bool, usize)> = Vec::new(); // (name, input, width)
    for k in 0..n {
        let p = |s: &str| format!("p{k}_{s}");
        for (s, i, w) in [
            ("s_axis_tvalid", true, 1),
            ("s_axis_tdata", true, 8),
            ("s_axis_tlast", true, 1),
            ("s_axis_tdest", true, 8),
            ("s_axis_tready", false, 1),
            ("m_axis_tvalid", false, 1),
            ("m_axis_tdata", false, 8),
            ("m_axis_tlast", false, 1),
            ("m_axis_tid", false, 8),
            ("m_axis_tuser", false, 1),
            ("m_axis_tready", true, 1),
            ("cfg_we", true, 1),
            ("cfg_addr", true, tb),
            ("cfg_data", true, 8),
            ("tx_busy", false, 1),
            ("tx_dropped", false, 8),
            ("rx_dropped", false, 8),
            ("rx_overflow", false, 1),
            ("credit_overflow", false, 1),
        ] {
            ports.push((p(s), i, w));
        }
    }
    ports.push(("switch_link_valid".into(), false, 8 * s_count));
    ports.push(("switch_link_data".into(), false, 64 * s_count));
    ports.push(("switch_token".into(), false, 8 * s_count));
    let mut top = String::new();
    let names: Vec<&str> = std::iter::once("clock")
        .chain(ports.iter().map(|p| p.0.as_str()))
        .collect();
    let _ = writeln!(top, "module {}({});", spec.name, names.join(","));
    let _ = writeln!(top, "    input wire  clock;");
    for (name, input, w) in &ports {
        let range = if *w > 1 {
            format!("[{}:0] ", w - 1)
        } else {
            String::new()
        };
        let dir = if *input { "input" } else { "output" };
        let _ = writeln!(top, "    {dir} wire  {range}{name};");
    }
    // Wires: every switch's link inputs and outputs, every endpoint's link outputs.
    for s in 0..s_count {
        let _ = writeln!(
            top,
            "    // switch {s}: {}\n    wire [7:0] s{s}_li_v;\n    wire [63:0] s{s}_li_d;\n    wire [7:0] s{s}_ti;\n    \
             wire [7:0] s{s}_lo_v;\n    wire [63:0] s{s}_lo_d;\n    wire [7:0] s{s}_to;\n    \
             // The switch's error counters (per input, 8 bits each): not brought out.\n    \
             wire [63:0] s{s}_crc_errors;\n    wire [63:0] s{s}_route_errors;",
            spec.switch_names[s]
        );
    }
    for k in 0..n {
        let _ = writeln!(
            top,
            "    wire n{k}_lo_v;\n    wire [7:0] n{k}_lo_d;\n    wire n{k}_to;"
        );
    }
    // Switch inputs.
    for s in 0..s_count {
        for p in 0..PORTS {
            let (v, d) = match spec.feed[s][p] {
                End::Switch { sw, port } => (
                    format!("s{sw}_lo_v[{port}]"),
                    format!(
                        "s{sw}_lo_d[{}:{}]",
                        8 * port as usize + 7,
                        8 * port as usize
                    ),
                ),
                End::Node(k) => (format!("n{k}_lo_v"), format!("n{k}_lo_d")),
                End::Open | End::Failed => ("1'b0".into(), "8'h0".into()),
            };
            let t = match spec.sink[s][p] {
                End::Switch { sw, port } => format!("s{sw}_to[{port}]"),
                End::Node(k) => format!("n{k}_to"),
                End::Open | End::Failed => "1'b0".into(),
            };
            let _ = writeln!(
                top,
                "    assign s{s}_li_v[{p}] = {v};\n    assign s{s}_li_d[{}:{}] = {d};\n    assign s{s}_ti[{p}] = {t};",
                8 * p + 7,
                8 * p
            );
        }
        let _ = writeln!(
            top,
            "    {sw_mod} sw{s}(.clock(clock), .link_in_valid(s{s}_li_v), .link_in_data(s{s}_li_d), \
             .token_in(s{s}_ti), .link_out_valid(s{s}_lo_v), .link_out_data(s{s}_lo_d), .token_out(s{s}_to), \
             .crc_errors(s{s}_crc_errors), .route_errors(s{s}_route_errors));"
        );
        let _ = writeln!(
            top,
            "    assign switch_link_valid[{}:{}] = s{s}_lo_v;\n    assign switch_link_data[{}:{}] = s{s}_lo_d;\n    \
             assign switch_token[{}:{}] = s{s}_to;",
            8 * s + 7,
            8 * s,
            64 * s + 63,
            64 * s,
            8 * s + 7,
            8 * s
        );
    }
    for k in 0..n {
        let (Some((si, pi)), Some((so, po))) = (enters[k], leaves[k]) else {
            return Err(format!(
                "processor `{}` is not linked to a switch in both directions",
                spec.node_names[k]
            ));
        };
        let hex: String = spec.tables[k]
            .table
            .iter()
            .rev()
            .map(|b| format!("{b:02x}"))
            .collect();
        let p = |s: &str| format!("p{k}_{s}");
        let _ = writeln!(
            top,
            "    // processor {k}: {} (into switch {si} port {pi}, out of switch {so} port {po})",
            spec.node_names[k]
        );
        let _ = writeln!(
            top,
            "    {nic_mod} #(.TABLE({}'h{hex})) nic{k}(.clock(clock), .s_tvalid({}), .s_tdata({}), .s_tlast({}), \
             .s_tdest({}), .s_tready({}), .m_tvalid({}), .m_tdata({}), .m_tlast({}), .m_tid({}), .m_tuser({}), \
             .m_tready({}), .link_in_valid(s{so}_lo_v[{po}]), .link_in_data(s{so}_lo_d[{}:{}]), \
             .token_in(s{si}_to[{pi}]), .link_out_valid(n{k}_lo_v), .link_out_data(n{k}_lo_d), .token_out(n{k}_to), \
             .cfg_we({}), .cfg_addr({}), .cfg_data({}), .node_id(8'd{k}), .tx_busy({}), .tx_dropped({}), \
             .rx_dropped({}), .rx_overflow({}), .credit_overflow({}));",
            bytes * 8,
            p("s_axis_tvalid"),
            p("s_axis_tdata"),
            p("s_axis_tlast"),
            p("s_axis_tdest"),
            p("s_axis_tready"),
            p("m_axis_tvalid"),
            p("m_axis_tdata"),
            p("m_axis_tlast"),
            p("m_axis_tid"),
            p("m_axis_tuser"),
            p("m_axis_tready"),
            8 * po + 7,
            8 * po,
            p("cfg_we"),
            p("cfg_addr"),
            p("cfg_data"),
            p("tx_busy"),
            p("tx_dropped"),
            p("rx_dropped"),
            p("rx_overflow"),
            p("credit_overflow"),
        );
    }
    let _ = writeln!(top, "endmodule // {}", spec.name);
    let body = format!("{top}\n{nic}\n{sw}");
    let doc = top_doc(spec, tb);
    let header = header_of(spec.name, &doc, &body).replacen(
        "exported by `asr verilog`",
        "generated by `asr network`",
        1,
    );
    Ok(format!("{header}{body}"))
}

/// The generated file's port documentation.
fn top_doc(spec: &NetworkSpec, tb: usize) -> TopDoc {
    let n = spec.tables.len();
    let p = &spec.tables[0];
    let mut ports = vec![(CLOCK.0.to_string(), CLOCK.1.to_string())];
    for k in 0..n {
        let name = &spec.node_names[k];
        for (s, what) in [
            ("s_axis_tvalid", format!("processor {k} ({name}) sends: a beat is offered")),
            ("s_axis_tdata", "its byte".into()),
            (
                "s_axis_tlast",
                format!("the message's last byte (a message is 1 to {} bytes)", p.max_msg()),
            ),
            ("s_axis_tdest", format!("the destination processor (0..{}), with tlast", n - 1)),
            ("s_axis_tready", "the endpoint takes the beat".into()),
            ("m_axis_tvalid", format!("processor {k} receives: a beat is offered")),
            ("m_axis_tdata", "its byte".into()),
            ("m_axis_tlast", "the message's last byte".into()),
            ("m_axis_tid", "the source processor".into()),
            ("m_axis_tuser", "with tlast: the packet arrived with a bad CRC".into()),
            ("m_axis_tready", "the processor takes the beat".into()),
            ("cfg_we", format!("write cfg_data into endpoint {k}'s route table (only while tx_busy is low)")),
            (
                "cfg_addr",
                format!(
                    "table byte address: destination * {} + j (j = 0: route length; 1..: route bytes)",
                    p.stride
                ),
            ),
            ("cfg_data", "the table byte".into()),
            ("tx_busy", "a message is buffered or being sent".into()),
            ("tx_dropped", "messages dropped (too long, no route), wrapping".into()),
            ("rx_dropped", "packets without a message dropped, wrapping".into()),
            ("rx_overflow", "sticky: a link byte beyond the credit".into()),
            ("credit_overflow", "sticky: a token with the credit full".into()),
        ] {
            ports.push((format!("p{k}_{s}"), what));
        }
    }
    ports.push((
        "switch_link_valid".into(),
        "observation: switch s's link_out_valid at bits [8s +: 8]".into(),
    ));
    ports.push((
        "switch_link_data".into(),
        "observation: switch s's link_out_data at bits [64s +: 64]".into(),
    ));
    ports.push((
        "switch_token".into(),
        "observation: switch s's token_out at bits [8s +: 8]".into(),
    ));
    let wiring: Vec<String> = spec
        .switch_names
        .iter()
        .enumerate()
        .map(|(s, name)| format!("sw{s} = {name}"))
        .collect();
    TopDoc {
        summary: format!(
            "{}: {} processors, {} switches {} ({}), one asr_nic endpoint per processor (route table of \
             {} entries of {} bytes, {} bytes in all, address bits {tb}), generated by `asr network`. \
             Twin of asr_model::sp2::asr_network::AsrNetwork on the same topology and tables. Switches: {}.",
            spec.name,
            n,
            spec.feed.len(),
            spec.switch_name,
            "docs/sp2-switch.md",
            p.procs,
            p.stride,
            p.table.len(),
            wiring.join(", ")
        ),
        ports,
        latency: "every output is a register; a message's LEN leaves its endpoint 4 cycles after its \
                  tlast beat and crosses each switch in the switch's cut-through latency"
            .into(),
    }
}

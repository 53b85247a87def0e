//! Verilog export of every top of docs/contracts.md: one `(name, verilog)` pair per top, the module named as the
//! top (rust-hdl always calls the top module `top`; it is renamed here, together with the `top$…` prefix
//! of the sub-module names so several tops can be compiled together).
//!
//! Used by `asr verilog --out DIR` (one file `DIR/<name>.v` per top) and by the testbench's Icarus check.

use rust_hdl::prelude::*;

use crate::benes::{Benes16, Benes16R, Benes32, Benes8, Benes8R};
use crate::matcher::*;
use crate::sp2::board::{Sp2Board, Sp2BoardV2};
use crate::sp2::central_queue::CentralQueue;
use crate::sp2::receiver::Receiver;
use crate::sp2::switch::Sp2Switch;
use crate::sp2::transmitter::Transmitter;
use crate::sp2::v2::allocator::Sp2Allocator;
use crate::sp2::v2::central_queue::CentralQueueV2;
use crate::sp2::v2::receiver::Receiver as ReceiverV2;
use crate::sp2::v2::switch::Sp2SwitchV2;
use crate::sp2::v2::transmitter::Sp2Transmitter;
use crate::switch2::Switch2Top;
use crate::switch2r::Switch2RTop;

/// Names of all exported tops, in export order.
pub const TOPS: &[&str] = &[
    "matcher_m4_p1",
    "matcher_m4_p2",
    "matcher_m8_p1",
    "matcher_m8_p2",
    "matcher_m16_p1",
    "matcher_m16_p2",
    "switch2",
    "benes8",
    "benes16",
    "benes32",
    "switch2r",
    "benes8r",
    "benes16r",
    "central_queue",
    "central_queue_v2",
    "transmitter",
    "receiver",
    "receiver_v2",
    "sp2_switch",
    "sp2_switch_v2",
    "sp2_board",
    "sp2_board_v2",
    "sp2_allocator",
    "sp2_transmitter",
    "alloc_islip1_m8",
    "alloc_pim1_m8",
    "alloc_wavefront_m8",
];

/// Renames rust-hdl's `top` module (and the `top$` prefix of its sub-modules, where they are declared and
/// where they are instantiated) to `name`.
pub fn rename_top(verilog: &str, name: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(verilog.len() + 1024);
    let mut prev: Option<char> = None;
    let mut rest = verilog;
    while !rest.is_empty() {
        let boundary = prev.is_none_or(|c| !is_ident(c));
        if boundary && (rest.starts_with("top$") || rest.starts_with("top(")) {
            out.push_str(name);
            rest = &rest[3..];
            prev = Some('p');
            continue;
        }
        let c = rest.chars().next().expect("non-empty");
        out.push(c);
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn gen<U: Block>(mut uut: U, _name: &str) -> String {
    uut.connect_all();
    generate_verilog(&uut)
}

/// The Verilog of one top with the module named as the top and identical sub-module trees merged
/// ([`dedupe_modules`]), or `None` for an unknown name.
pub fn verilog_of(name: &str) -> Option<String> {
    raw_verilog_of(name).map(|v| dedupe_modules(&rename_top(&v, name)))
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Replaces every whole identifier of `text` that `f` maps (identifiers may contain `$`).
fn map_idents(text: &str, f: impl Fn(&str) -> Option<String>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if is_ident(b[i]) && (i == 0 || !is_ident(b[i - 1])) {
            let mut j = i;
            while j < b.len() && is_ident(b[j]) {
                j += 1;
            }
            let id = &text[i..j];
            match f(id) {
                Some(r) => out.push_str(&r),
                None => out.push_str(id),
            }
            i = j;
        } else {
            let c = text[i..].chars().next().expect("in bounds");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Merges identical sub-module trees. rust-hdl elaborates every instance into its own module (`benes32` has
/// 144 copies of the 2×2 switch, `sp2_board` 8 copies of the whole switch): module `P` (with its descendants
/// `P$…`) and module `Q` (with `Q$…`) whose texts are equal once their own names are written alike are one
/// design, so `Q` and its descendants are dropped and `Q`'s instantiation names `P`. Instance names, and so
/// every hierarchical signal name in a simulator or a VCD, are unchanged; the file of `sp2_board` shrinks
/// from 7.5 MB to about 1 MB and Verilator compiles it about 8 times faster.
pub fn dedupe_modules(verilog: &str) -> String {
    // Split into (preamble, modules): a module runs from a line starting `module NAME(` to `endmodule`.
    let mut pre = String::new();
    let mut mods: Vec<(String, String)> = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for line in verilog.split_inclusive('\n') {
        if cur.is_none() {
            if let Some(r) = line.strip_prefix("module ") {
                let name = r.split('(').next().unwrap_or("").trim().to_string();
                cur = Some((name, String::new()));
            }
        }
        match cur.as_mut() {
            Some((_, t)) => {
                t.push_str(line);
                if line.trim_start().starts_with("endmodule") {
                    mods.push(cur.take().expect("in a module"));
                }
            }
            None => pre.push_str(line),
        }
    }
    if cur.is_some() || mods.is_empty() {
        return verilog.to_string();
    }
    // Descendants of each module: the modules named `NAME$…`, in sorted order.
    let mut sorted: Vec<usize> = (0..mods.len()).collect();
    sorted.sort_by(|&a, &b| mods[a].0.cmp(&mods[b].0));
    let descendants = |k: usize| -> Vec<usize> {
        let p = format!("{}$", mods[k].0);
        let start = sorted.partition_point(|&j| mods[j].0.as_str() < p.as_str());
        sorted[start..]
            .iter()
            .copied()
            .take_while(|&j| mods[j].0.starts_with(&p))
            .collect()
    };
    let signature = |k: usize| -> String {
        let name = &mods[k].0;
        let mut sig = String::new();
        for j in std::iter::once(k).chain(descendants(k)) {
            sig.push_str(&map_idents(&mods[j].1, |id| {
                id.strip_prefix(name.as_str())
                    .filter(|r| r.is_empty() || r.starts_with('$'))
                    .map(|r| format!("#{r}"))
            }));
        }
        sig
    };
    let depth = |k: usize| mods[k].0.matches('$').count();
    let mut order: Vec<usize> = (0..mods.len()).filter(|&k| depth(k) > 0).collect();
    order.sort_by_key(|&k| (depth(k), k));
    let mut removed = vec![false; mods.len()];
    let mut canon: std::collections::HashMap<String, usize> = Default::default();
    let mut rename: std::collections::HashMap<String, String> = Default::default();
    for k in order {
        if removed[k] {
            continue;
        }
        let sig = signature(k);
        match canon.get(&sig) {
            Some(&p) => {
                removed[k] = true;
                for d in descendants(k) {
                    removed[d] = true;
                }
                rename.insert(mods[k].0.clone(), mods[p].0.clone());
            }
            None => {
                canon.insert(sig, k);
            }
        }
    }
    let mut out = pre;
    for (k, (_, text)) in mods.iter().enumerate() {
        if !removed[k] {
            out.push_str(&map_idents(text, |id| rename.get(id).cloned()));
        }
    }
    out
}

/// The Verilog of one top as rust-hdl emits it (top module `top`, as `yosys_validate` expects).
pub fn raw_verilog_of(name: &str) -> Option<String> {
    Some(match name {
        "matcher_m4_p1" => gen(MatcherM4P1::default(), name),
        "matcher_m4_p2" => gen(MatcherM4P2::default(), name),
        "matcher_m8_p1" => gen(MatcherM8P1::default(), name),
        "matcher_m8_p2" => gen(MatcherM8P2::default(), name),
        "matcher_m16_p1" => gen(MatcherM16P1::default(), name),
        "matcher_m16_p2" => gen(MatcherM16P2::default(), name),
        "switch2" => gen(Switch2Top::default(), name),
        "benes8" => gen(Benes8::default(), name),
        "benes16" => gen(Benes16::default(), name),
        "benes32" => gen(Benes32::default(), name),
        "switch2r" => gen(Switch2RTop::default(), name),
        "benes8r" => gen(Benes8R::default(), name),
        "benes16r" => gen(Benes16R::default(), name),
        "central_queue" => isolate_assignments(
            &no_rw_check(&gen(CentralQueue::default(), name)),
            CQ_REQUEST_CONE,
        ),
        // One `always` block computes the arbiters' requests and reads their grants: isolated for Verilator.
        "central_queue_v2" => waive_unoptflat(
            &no_rw_check(&gen(CentralQueueV2::default(), name)),
            &["adm_arb$req"],
        ),
        "transmitter" => isolate_assignments(&gen(Transmitter::default(), name), TX_CRC_CONE),
        "receiver" => isolate_assignments(&gen(Receiver::default(), name), RX_CRC_CONE),
        "receiver_v2" => isolate_assignments(
            &no_rw_check(&gen(ReceiverV2::default(), name)),
            RX_V2_CRC_CONE,
        ),
        "sp2_switch" => sp2_switch_verilog(name),
        "sp2_switch_v2" => isolate_top_glue(
            &isolate_assignments(
                &no_rw_check(&gen(Sp2SwitchV2::default(), name)),
                RX_V2_CRC_CONE,
            ),
            SW_V2_ACCUMULATED,
        ),
        "sp2_board" => isolate_all_comb(&no_rw_check(&gen(Sp2Board::<Sp2Switch>::default(), name))),
        // As `sp2_switch_v2`, whose chips it is built of.
        "sp2_board_v2" => isolate_top_glue(
            &isolate_assignments(
                &no_rw_check(&gen(Sp2BoardV2::default(), name)),
                RX_V2_CRC_CONE,
            ),
            SW_V2_ACCUMULATED,
        ),
        "sp2_allocator" => isolate_all_comb(&gen(Sp2Allocator::default(), name)),
        "sp2_transmitter" => isolate_all_comb(&gen(Sp2Transmitter::default(), name)),
        "alloc_islip1_m8" => gen(crate::alloc::islip::Islip8::default(), name),
        "alloc_pim1_m8" => gen(crate::alloc::pim::PimLfsr8::default(), name),
        "alloc_wavefront_m8" => gen(crate::alloc::wavefront::Wavefront8::default(), name),
        _ => return None,
    })
}

/// The central queue's request logic: the locals from its registers and inputs to its arbiters' `req`.
/// rust-hdl emits the whole block as one `always @(*)` that both drives an arbiter's `req` and reads its
/// `grant`, so Verilator sees a block-level (not bit-level) loop and reports `UNOPTFLAT`; isolating the
/// assignments of these signals into their own blocks removes the false loop (Verilator only; a comment
/// for every other tool).
pub const CQ_REQUEST_CONE: &[&str] = &["wr_arb$req", "rd_arb$req", "wmacc$", "wo$"];

/// The transmitter's FIFO-input choice, which feeds its `Crc8Step` and reads the CRC back in the same
/// `always` block (the same false loop as [`CQ_REQUEST_CONE`]).
pub const TX_CRC_CONE: &[&str] = &[
    "crc_step$data",
    "pbyte",
    "push",
    "pcrc",
    "ppop",
    "plast",
    "pbad",
    "had_room",
    "src_e",
    "rx_e",
];

/// The receiver's parse step, which feeds its two `Crc8Step`s and reads their results in the same
/// `always` block (the same false loop as [`CQ_REQUEST_CONE`]).
pub const RX_CRC_CONE: &[&str] = &[
    "crc_a$crc",
    "crc_a$data",
    "crc_b$crc",
    "crc_b$data",
    "h0",
    "h1",
    "h2",
    "crc1",
    "p1",
    "st_a",
    "body_a",
    "set_a",
    "len_a",
    "g0",
    "g1",
];

/// Wraps the declarations of the top module's `reg`s named in `names` in `/*verilator lint_off UNOPTFLAT*/`
/// … `lint_on`: a waiver, for `central_queue_v2`, whose one `always` block computes the admission arbiter's
/// request and reads its grant (a loop of blocks, not of bits). `isolate_all_comb` removes the warning but
/// Verilator then mis-simulates that top (the 10^6-cycle co-simulation fails at cycle 1 on `load`, built by
/// `x = x | …` accumulation), so the waiver stays until its accumulated locals are written as arrays.
pub fn waive_unoptflat(verilog: &str, names: &[&str]) -> String {
    verilog
        .lines()
        .map(|l| {
            let t = l.trim();
            let hit = t.starts_with("reg ")
                && t.ends_with(';')
                && t[..t.len() - 1]
                    .split_whitespace()
                    .last()
                    .is_some_and(|n| names.contains(&n));
            if hit {
                format!("/*verilator lint_off UNOPTFLAT*/\n{l}\n/*verilator lint_on UNOPTFLAT*/")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The v2 receiver's byte `cur`, which feeds its `Crc8Step` and reads the result in the same `always` block
/// (the same false loop as [`CQ_REQUEST_CONE`]).
pub const RX_V2_CRC_CONE: &[&str] = &["crc_step$crc", "crc_step$data", "head", "cur", "cur_v"];

/// The `sp2_switch_v2` glue's locals built by accumulation in one signal (`x = x | …` over a loop), which
/// Verilator mis-simulates once isolated (see [`waive_unoptflat`]): left in the shared block.
pub const SW_V2_ACCUMULATED: &[&str] = &["gs", "r_go", "g_w"];

/// Adds `/*verilator isolate_assignments*/` to every combinational `reg` of the v2 switch's own module (the
/// module with the switch's ports: the top of `sp2_switch_v2`, each chip of `sp2_board_v2`) but the arrays
/// named in `except`: its glue block drives the allocator's, the queue's and the port blocks' inputs from their
/// outputs (block-level loops through the crossbar, the busy outputs and the grants, which Verilator 5.006 did
/// not settle: a mismatch at cycle 53 549 of the 10^6-cycle co-simulation after the service rule and the wait
/// sets were added, rust-hdl and Icarus agreeing with the model).
pub fn isolate_top_glue(verilog: &str, except: &[&str]) -> String {
    const SWITCH_PORTS: &str =
        "(clock,link_in_valid,link_in_data,token_in,link_out_valid,link_out_data,\
                                token_out,crc_errors,route_errors)";
    let mut inside = false;
    mark_isolated(verilog, |t| {
        if t.starts_with("module ") {
            inside = t.contains(SWITCH_PORTS);
        }
        let name = t
            .trim_end_matches(';')
            .split_whitespace()
            .last()
            .unwrap_or("");
        let base = name.split('$').next().unwrap_or("");
        inside
            && !t.contains("mem[")
            && !t.contains("isolate_assignments")
            && !except.contains(&base)
    })
}

/// Adds `/*verilator isolate_assignments*/` to every `reg` declaration for which `hit` holds. `hit` sees
/// every trimmed line in order (so it may track the module it is in) and decides for `reg` lines: the one
/// rewrite of [`isolate_assignments`], [`isolate_top_glue`] and [`isolate_all_comb`].
fn mark_isolated(verilog: &str, mut hit: impl FnMut(&str) -> bool) -> String {
    verilog
        .lines()
        .map(|l| {
            let t = l.trim();
            let h = hit(t);
            if h && t.starts_with("reg ") && t.ends_with(';') {
                format!("{} /*verilator isolate_assignments*/;", &l[..l.len() - 1])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Adds `/*verilator isolate_assignments*/` to the declarations of the top module's `reg`s named in
/// `names` (an entry ending in `$` matches every element `name$k` of a rust-hdl signal array).
pub fn isolate_assignments(verilog: &str, names: &[&str]) -> String {
    mark_isolated(verilog, |t| {
        t.ends_with(';')
            && t[..t.len() - 1].split_whitespace().last().is_some_and(|n| {
                names.iter().any(|&p| {
                    n == p
                        || (p.ends_with('$')
                            && n.strip_prefix(p)
                                .is_some_and(|k| k.chars().all(|c| c.is_ascii_digit())))
                })
            })
    })
}

/// Marks every rust-hdl `RAM` memory of a design `(* no_rw_check *)`, so Yosys maps it to block RAM
/// without read-during-write emulation (about 137 DFF + 70 LUT for the 128×64 RAM otherwise). Only for
/// designs that never read and write one address in a cycle whose read value they use: the central queue
/// (docs/sp2-switch.md §6: the written chunk comes from the free list, the read one from an output list;
/// its next-pointer RAMs `nx` and `fnx` as argued in `sp2/central_queue.rs`).
pub fn no_rw_check(verilog: &str) -> String {
    verilog
        .lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("reg[") && t.contains(" mem[") {
                format!("(* no_rw_check *) {t}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The whole switch: every combinational `reg` of every module isolated (see [`isolate_all_comb`]).
fn sp2_switch_verilog(name: &str) -> String {
    isolate_all_comb(&no_rw_check(&gen(Sp2Switch::default(), name)))
}

/// Adds `/*verilator isolate_assignments*/` to every `reg` declaration but memories and the clocked `q` /
/// `read_data` registers of `DFF`s and `RAM`s. For `sp2_switch` (and `sp2_board`, 8 of them), where the top's `always` block and those
/// of its sub-blocks (matcher, arbiters, port blocks) form block-level loops through many signals: the
/// targeted lists of the port blocks are not enough once they are wired together.
pub fn isolate_all_comb(verilog: &str) -> String {
    mark_isolated(verilog, |t| {
        let clocked = t.ends_with(" q;") || t.ends_with(" read_data;");
        !t.contains("mem[") && !t.contains("isolate_assignments") && !clocked
    })
}

/// `(name, verilog)` for every top in [`TOPS`].
pub fn all_verilog() -> Vec<(String, String)> {
    TOPS.iter()
        .map(|&n| {
            (
                n.to_string(),
                verilog_of(n).expect("TOPS lists a known top"),
            )
        })
        .collect()
}

/// A port of an exported top module, as declared in its Verilog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// `input` or `output`.
    pub dir: &'static str,
    /// Width in bits.
    pub width: usize,
    /// The port's name.
    pub name: String,
}

/// The ports of module `top` in `verilog`, in declaration order (from its `input`/`output` lines).
pub fn ports_of(verilog: &str, top: &str) -> Vec<Port> {
    let head = format!("module {top}(");
    let mut ports = Vec::new();
    let mut inside = false;
    for line in verilog.lines() {
        let t = line.trim();
        if !inside {
            inside = t.starts_with(&head);
            continue;
        }
        if t.starts_with("endmodule") {
            break;
        }
        let (dir, rest) = if let Some(r) = t.strip_prefix("input ") {
            ("input", r)
        } else if let Some(r) = t.strip_prefix("output ") {
            ("output", r)
        } else {
            continue;
        };
        let rest = rest.trim_end_matches(';');
        let width = match (rest.find('['), rest.find(':')) {
            (Some(a), Some(b)) if a < b => {
                rest[a + 1..b].trim().parse::<usize>().map_or(1, |m| m + 1)
            }
            _ => 1,
        };
        if let Some(name) = rest.split_whitespace().last() {
            ports.push(Port {
                dir,
                width,
                name: name.to_string(),
            });
        }
    }
    ports
}

/// What a user needs to instantiate a top: what it is, each port's meaning and packing, latency, reset.
#[derive(Clone, Debug)]
pub struct TopDoc {
    /// One paragraph: what the top is and which model block it is the twin of.
    pub summary: String,
    /// `(port, meaning)` for every port of the top module.
    pub ports: Vec<(String, String)>,
    /// Latency in cycles.
    pub latency: String,
}

/// Exported tops whose header lists their ports without meanings yet (merged after the header was written);
/// the test `user_export_documents_every_port_and_is_the_same_design` requires every other top to be documented.
pub const AWAITING_PORT_DOCS: &[&str] = &[];

/// What every top says about reset: there is no reset input (yet); registers start at their initial values.
pub const RESET_NOTE: &str = "none (no reset input): every register starts at the initial value of its `initial` \
block (0 unless stated) when the simulation starts or the FPGA is configured (every flip-flop starts at 0: \
a non-zero initial value is stored XORed with it, and Yosys maps the `initial` 0 to the iCE40 flip-flops' \
power-up state). To restart the design, reconfigure the FPGA, or export it with a reset input: `asr verilog \
--reset`.";

/// The `reset` port's meaning in the export with `--reset`.
const RESET_PORT: &str =
    "synchronous reset, active high: registers load their initial values at this edge";

/// What a top exported with `--reset` says about reset.
pub const RESET_WITH_PORT: &str = "the `reset` input (active high, synchronous): while it is 1 at a rising edge \
every register loads its initial value (0 unless stated), the state the design has after configuration, \
whatever the other inputs; one cycle is enough, and the outputs in the cycles after it are those of a freshly \
configured design. Block-RAM contents are kept and not written during a reset (the top reads a RAM only where \
it wrote since its start). Power-up: as without the reset input (`initial` values).";

fn docs(ps: &[(&str, &str)]) -> Vec<(String, String)> {
    ps.iter()
        .map(|(p, m)| (p.to_string(), m.to_string()))
        .collect()
}

const CLOCK: (&str, &str) = (
    "clock",
    "clock; every register changes at its rising edge, inputs are sampled there",
);

/// The documentation of an exported top, or `None` for an unknown name.
pub fn top_doc(name: &str) -> Option<TopDoc> {
    if let Some(rest) = name.strip_prefix("matcher_m") {
        let (m, p) = rest.split_once("_p")?;
        let (m, p): (usize, usize) = (m.parse().ok()?, p.parse().ok()?);
        return Some(TopDoc {
            summary: format!(
                "The combinational matcher of thesis Fig. 2.3 (ColumnOR / Rotate_Until_Zero heuristic) for \
                 {m} inputs and {m} outputs, {p} pass(es), as docs/contracts.md reads it. Twin of \
                 asr_model::matcher::heuristic (hdl/src/matcher.rs)."
            ),
            ports: vec![
                (
                    "requests".into(),
                    format!(
                        "request matrix: row i (input i) at bits [i*{m} +: {m}], bit j of a row = output j requested"
                    ),
                ),
                (
                    "grants".into(),
                    format!(
                        "assignment after initialisation and {p} pass(es), same layout as requests (before \
                         conflict arbitration: a column may be given to several rows)"
                    ),
                ),
            ],
            latency: "0 cycles (combinational, no clock)".into(),
        });
    }
    let benes = |n: usize, registered: bool| {
        let stages = 2 * n.trailing_zeros() as usize - 1;
        let w = 2 * stages + 16;
        TopDoc {
            summary: format!(
                "Benes {n}x{n} network of {}2x2 ASR switches ({stages} stages of {} switches), wired as \
                 docs/contracts.md fixes. Twin of asr_model::benes::{} (hdl/src/benes.rs). A packet is \
                 one {w}-bit word: header in bits [{}:0] (2 bits per stage, stage 0 lowest, bit q = output q \
                 permitted), 16-bit tag above; each stage strips 2 bits, so an output word is the tag.",
                if registered {
                    "registered-ready (skid-buffered, docs/switch2.md) "
                } else {
                    ""
                },
                n / 2,
                if registered { "BenesR" } else { "Benes" },
                2 * stages - 1
            ),
            ports: vec![
                CLOCK,
                ("in_valid", "bit p: input p offers the word in_data[p]"),
                ("in_data", "input p's word at bits [p*W +: W]"),
                (
                    "out_ready",
                    "bit p: the consumer of output p takes its word this cycle",
                ),
                (
                    "in_ready",
                    if registered {
                        "bit p: input p takes its offered word at this edge (a register: its skid buffer is empty)"
                    } else {
                        "bit p: input p takes its offered word at this edge (combinational from out_ready)"
                    },
                ),
                ("out_valid", "bit p: output p offers out_data[p]"),
                (
                    "out_data",
                    "output p's word (the tag) at bits [p*W +: W]; 0 when not valid",
                ),
            ]
            .into_iter()
            .map(|(p, m)| (p.to_string(), m.replace('W', &w.to_string())))
            .collect(),
            latency: format!(
                "{} edges from acceptance at an input to delivery at an output without contention (2 per stage)",
                2 * stages
            ),
        }
    };
    Some(match name {
        "switch2" => TopDoc {
            summary: "The 2x2 ASR switch of thesis chapter 3 with one-word input and output buffers and the \
                      arbitration rule of docs/switch2.md. Twin of asr_model::switch2::Switch2 \
                      (hdl/src/switch2.rs). A word is 26 bits: the 2-bit port set of this hop in bits [1:0] \
                      (bit q = output q permitted), the rest of the header and the tag above; a move shifts \
                      it right by 2."
                .into(),
            ports: docs(&[
                CLOCK,
                ("in_valid", "bit i: input i offers in_data[i]"),
                ("in_data", "input i's word at bits [i*26 +: 26]"),
                ("out_ready", "bit q: the consumer of output q takes its word this cycle"),
                (
                    "in_ready",
                    "bit i: input i takes its offered word at this edge (combinational from out_ready)",
                ),
                ("out_valid", "bit q: output q offers out_data[q]"),
                ("out_data", "output q's word at bits [q*26 +: 26]; 0 when not valid"),
            ]),
            latency: "a word accepted at edge t is in an output buffer at edge t+1 and offered during the \
                      following cycle (2 edges per switch in a network)"
                .into(),
        },
        "switch2r" => TopDoc {
            summary: "The registered-ready 2x2 ASR switch (docs/switch2.md, registered-ready variant): the thesis \
                      switch with a one-word skid buffer per input, so in_ready is a register. Twin of \
                      asr_model::switch2r::Switch2R (hdl/src/switch2r.rs). A word is 26 bits: the 2-bit port set of this hop in bits [1:0] \
                      (bit q = output q permitted), the rest of the header and the tag above; a move shifts \
                      it right by 2."
                .into(),
            ports: docs(&[
                CLOCK,
                ("in_valid", "bit i: input i offers in_data[i]"),
                ("in_data", "input i's word at bits [i*26 +: 26]"),
                ("out_ready", "bit q: the consumer of output q takes its word this cycle"),
                (
                    "in_ready",
                    "bit i: input i takes its offered word at this edge (a register: its skid buffer is empty)",
                ),
                ("out_valid", "bit q: output q offers out_data[q]"),
                ("out_data", "output q's word at bits [q*26 +: 26]; 0 when not valid"),
            ]),
            latency: "a word accepted at edge t is in an output buffer at edge t+1 and offered during the \
                      following cycle (2 edges per switch in a network)"
                .into(),
        },
        "benes8" => benes(8, false),
        "benes8r" => benes(8, true),
        "benes16r" => benes(16, true),
        "benes16" => benes(16, false),
        "benes32" => benes(32, false),
        "central_queue" => TopDoc {
            summary: "The central queue of the SP2-style switch (docs/sp2-switch.md section 6): 128 chunks of 8 \
                      bytes in block RAM, a linked list per output and a free list, least-recently-served \
                      write and read arbiters, the reservation rule. Twin of \
                      asr_model::sp2::central_queue::CentralQueue (hdl/src/sp2/central_queue.rs). Field k of a \
                      packed port (receiver, transmitter or output k) is at bits [k*W +: W]."
                .into(),
            ports: docs(&[
                CLOCK,
                ("wr_valid", "bit i: receiver i offers a chunk"),
                ("wr_out", "3 bits per receiver: the output whose list the chunk joins"),
                ("wr_data", "64 bits per receiver: the chunk, byte 0 in bits [7:0]"),
                ("wr_bytes", "4 bits per receiver: bytes in the chunk, 1..8"),
                ("wr_last", "bit i: the chunk is its packet's last"),
                ("wr_bad", "bit i: the packet is flagged bad (CRC error)"),
                ("rd_req", "bit o: transmitter o can take a chunk"),
                ("wr_grant_valid", "a receiver writes in this cycle"),
                ("wr_grant", "the receiver that writes (0 when none)"),
                ("rd_grant_valid", "a transmitter reads in this cycle"),
                ("rd_grant", "the transmitter that reads (0 when none)"),
                ("rd_valid", "the chunk read at the previous edge is on rd_*"),
                ("rd_out", "its output"),
                ("rd_data", "its data, byte 0 in bits [7:0]; 0 when not valid"),
                ("rd_bytes", "its byte count; 0 when not valid"),
                ("rd_last", "it is its packet's last chunk"),
                ("rd_bad", "its packet is flagged bad"),
                ("count", "8 bits per output: chunks queued"),
                ("free", "chunks on the free list (128 at start)"),
            ]),
            latency: "1 cycle from read grant to rd_*; a written chunk is counted and readable from the next \
                      cycle on"
                .into(),
        },
        "transmitter" => TopDoc {
            summary: "The transmitter of the SP2-style switch (docs/sp2-switch.md sections 7, 8): source selection \
                      (idle, crossbar, central queue), 16-byte serializer, CRC, 7-byte output FIFO, output \
                      register and link credit. Twin of asr_model::sp2::transmitter::Transmitter \
                      (hdl/src/sp2/transmitter.rs)."
                .into(),
            ports: docs(&[
                CLOCK,
                ("grant", "the crossbar connects receiver grant_rx from this cycle on"),
                ("grant_rx", "that receiver"),
                ("xbar_valid", "the connected receiver's crossbar register holds a byte"),
                ("xbar_byte", "that byte"),
                ("xbar_last", "it is the packet's last byte"),
                ("xbar_bad", "the packet is flagged bad"),
                ("rd_grant", "the central queue granted this transmitter's read"),
                ("chunk_valid", "the queue's read data are for this output"),
                ("chunk_data", "the chunk, byte 0 in bits [7:0]"),
                ("chunk_bytes", "its byte count"),
                ("chunk_last", "it is its packet's last chunk"),
                ("chunk_bad", "its packet is flagged bad"),
                ("token_in", "a credit from downstream (one byte of buffer freed)"),
                ("queued", "the central queue's chunk count for this output"),
                ("link_valid", "the output register holds a byte for the link"),
                ("link_byte", "that byte; 0 when not valid"),
                ("free_xbar", "free for a crossbar connection (combinational)"),
                ("wants_chunk", "asks the central queue for a chunk (combinational)"),
                ("room0", "room for a crossbar byte that is not a packet's last (combinational)"),
                ("room1", "room for a packet's last crossbar byte (combinational)"),
                ("src_xbar", "the current source is the crossbar"),
                ("src_rx", "its receiver (0 otherwise)"),
            ]),
            latency: "a byte entering the FIFO in a cycle is on link_byte 1 cycle later at the earliest; \
                      the credit counter starts at 16"
                .into(),
        },
        "receiver" => TopDoc {
            summary: "The receiver of the SP2-style switch (docs/sp2-switch.md sections 4, 5, 8): 16-byte input \
                      FIFO, packet parser and CRC check, crossbar request, queue-output choice, chunk \
                      assembly for the central queue, error counters. Twin of \
                      asr_model::sp2::receiver::Receiver (hdl/src/sp2/receiver.rs)."
                .into(),
            ports: docs(&[
                CLOCK,
                ("link_valid", "a byte from upstream"),
                ("link_byte", "that byte (written into the FIFO at the edge)"),
                ("xbar_grant", "the crossbar granted this cycle's request"),
                ("xbar_gout", "to this transmitter"),
                ("choose_grant", "the switch chose a queue output for this receiver"),
                ("choose_out", "that output"),
                ("wr_grant", "the central queue takes the ready chunk this cycle"),
                ("room", "the connected transmitter has room for a crossbar byte"),
                ("token_out", "an upstream credit (registered: one per byte popped, one per cycle)"),
                ("xbar_req", "crossbar request (combinational from the FIFO head)"),
                ("xbar_set", "its permitted outputs (bit o = output o); 0 without a request"),
                ("choose_req", "waiting for a queue output (state Choose)"),
                ("choose_set", "its permitted outputs"),
                ("ready_valid", "a chunk is offered to the central queue"),
                ("ready_out", "its output"),
                ("ready_data", "its data, byte 0 in bits [7:0]"),
                ("ready_bytes", "its byte count"),
                ("ready_last", "it is its packet's last chunk"),
                ("ready_bad", "its packet is flagged bad"),
                ("xbar_valid", "the crossbar register holds a byte"),
                ("xbar_byte", "that byte; 0 when not valid"),
                ("xbar_last", "it is the packet's last byte"),
                ("xbar_bad", "the packet is flagged bad"),
                ("xbar_on", "connected to a transmitter through the crossbar (state Xbar)"),
                ("xbar_out", "that transmitter"),
                ("crc_errors", "wrapping count of packets whose CRC byte did not match (registered)"),
                ("route_errors", "wrapping count of malformed packets dropped, LEN = 0 or R1 = 0 (registered)"),
            ]),
            latency: "a byte written at an edge is parsed from the next cycle on; see docs/sp2-switch.md section 4"
                .into(),
        },
        "sp2_switch" => TopDoc {
            summary: "The SP2-style 8x8 ASR switch (docs/sp2-switch.md): 8 receivers, 8 transmitters, the \
                      central queue, the crossbar allocated by the 2-pass matching heuristic. Twin of \
                      asr_model::sp2::switch::Sp2Switch (hdl/src/sp2/switch.rs). Port p's byte is at bits \
                      [p*8 +: 8], its flag at bit p. Links carry bytes with credit-based flow control: a \
                      sender may have at most 16 bytes outstanding per link and gets one token per byte the \
                      receiver frees."
                .into(),
            ports: docs(&[
                CLOCK,
                ("link_in_valid", "bit p: a byte arrives on input link p"),
                ("link_in_data", "input link p's byte"),
                ("token_in", "bit p: a credit from the device downstream of output p"),
                ("link_out_valid", "bit p: output p's register holds a byte"),
                ("link_out_data", "output p's byte; 0 when not valid"),
                ("token_out", "bit p: a credit back to the device upstream of input p"),
                ("crc_errors", "receiver i's 8-bit wrapping count of CRC errors at bits [i*8 +: 8] (registered)"),
                ("route_errors", "receiver i's 8-bit wrapping count of dropped malformed packets (registered)"),
            ]),
            latency: "5 cycles from LEN in to LEN - 1 out without contention (cut-through)".into(),
        },
        "sp2_switch_v2" => TopDoc {
            summary: "The v2 SP2-style 8x8 ASR switch (docs/sp2-switch.md, v2): 8 receivers with block-RAM FIFOs, \
                      the pipelined crossbar allocator, the central queue with per-packet chunk chains, 8 \
                      transmitters; the same ports as sp2_switch. Twin of \
                      asr_model::sp2::v2::switch::Sp2SwitchV2 (hdl/src/sp2/v2/switch.rs). Port p's byte is at bits \
                      [p*8 +: 8], its flag at bit p. Links carry bytes with credit-based flow control: a \
                      sender may have at most 16 bytes outstanding per link and gets one token per byte the \
                      receiver frees."
                .into(),
            ports: docs(&[
                CLOCK,
                ("link_in_valid", "bit p: a byte arrives on input link p"),
                ("link_in_data", "input link p's byte"),
                ("token_in", "bit p: a credit from the device downstream of output p"),
                ("link_out_valid", "bit p: output p's register holds a byte"),
                ("link_out_data", "output p's byte; 0 when not valid"),
                ("token_out", "bit p: a credit back to the device upstream of input p"),
                ("crc_errors", "receiver i's 8-bit wrapping count of CRC errors at bits [i*8 +: 8] (registered)"),
                ("route_errors", "receiver i's 8-bit wrapping count of dropped malformed packets (registered)"),
            ]),
            latency: "6 cycles from LEN in to LEN - 1 out without contention (cut-through)".into(),
        },
        "receiver_v2" => TopDoc {
            summary: "The v2 receiver of the SP2-style switch (docs/sp2-switch.md v2 section B): a 16-byte input \
                      FIFO in block RAM, packet parser and CRC check, crossbar request with look-ahead, queue \
                      admission request, chunk assembly and ready slot for the central queue, error counters. \
                      Twin of asr_model::sp2::v2::receiver::Receiver (hdl/src/sp2/v2/receiver.rs)."
                .into(),
            ports: docs(&[
                CLOCK,
                ("link_valid", "a byte from upstream"),
                ("link_byte", "that byte (consumed at once or written into the FIFO at the edge)"),
                ("grant", "the allocator grants this receiver a transmitter this cycle"),
                ("grant_out", "that transmitter"),
                ("admitted", "the central queue admits this receiver's packet this cycle"),
                ("taken", "its transmitter takes the crossbar offer this cycle"),
                ("written", "the central queue writes the ready chunk this cycle"),
                ("takes", "the transmitter it streams to takes offers this cycle (has credit)"),
                ("token_out", "an upstream credit: a byte was consumed last cycle (registered)"),
                ("req", "allocator request: the permitted outputs (bit o = output o); 0 for none"),
                ("waiting", "the allocator's candidate bit: waiting for a grant now"),
                ("may_queue", "may be admitted to the central queue (waiting, assembly and ready slot empty)"),
                ("adm_set", "the admission request's permitted outputs: in Wait, and from the R1 cycle of \
                             Route when R1 is not 0; 0 otherwise"),
                ("chunks", "the packet's size in 8-byte chunks (1..32) with adm_set; 0 otherwise"),
                ("offer_valid", "a crossbar offer this cycle"),
                ("offer_byte", "its byte; 0 when none"),
                ("offer_end", "the offer is the packet's end (the CRC byte position)"),
                ("offer_bad", "with the end: the CRC did not match"),
                ("ready_valid", "a chunk waits in the ready slot for the central queue"),
                ("ready_data", "its data, byte 0 in bits [7:0]; 0 when not valid"),
                ("ready_bytes", "its byte count, 1..8; 0 when not valid"),
                ("ready_last", "it is its packet's last chunk; 0 when not valid"),
                ("ready_bad", "its packet failed the CRC check; 0 when not valid"),
                ("soon", "streaming with at most 4 bytes left: its transmitter counts as free soon"),
                ("at_end", "streaming with the CRC as the next byte to offer, from the registers alone"),
                ("wait_spec", "waiting from the registers alone: in Wait, or a look-ahead packet whose \
                               predecessor's last byte is next (the switch's speculative candidate bit)"),
                ("spec_set", "with wait_spec: the route set of the packet it waits for (the Wait set or the \
                              look-ahead's); 0 otherwise. The allocator grants the row only a column of it"),
                ("crc_errors", "wrapping count of packets whose CRC byte did not match (registered)"),
                ("route_errors", "wrapping count of malformed packets dropped, LEN = 0 or R1 = 0 (registered)"),
            ]),
            latency: "every output but token_out and the counters is combinational from the registers and \
                      the link pins; a byte arriving in a cycle can be offered in that cycle (FIFO bypass)"
                .into(),
        },
        "sp2_transmitter" => TopDoc {
            summary: "The v2 transmitter of the SP2-style switch (docs/sp2-switch.md v2 section D): source \
                      selection (idle, crossbar, central queue), serializer and one-chunk prefetch register, \
                      CRC, output register on the link pins, link credit. Twin of \
                      asr_model::sp2::v2::transmitter::Transmitter (hdl/src/sp2/v2/transmitter.rs)."
                .into(),
            ports: docs(&[
                CLOCK,
                ("load", "the central queue's load of this output (chunks queued or promised)"),
                ("grant", "the allocator grants this transmitter to receiver grant_rx this cycle (only when free)"),
                ("grant_rx", "that receiver"),
                ("offer_valid", "the crossbar receiver offers a byte or the packet's end"),
                ("offer_byte", "the offered byte"),
                ("offer_end", "the offer is the packet's end"),
                ("offer_bad", "with the end: the packet failed its CRC check"),
                ("read", "this transmitter's central-queue read is granted this cycle"),
                ("chunk_valid", "the chunk read for it last cycle arrives now"),
                ("chunk_data", "its data, byte 0 in bits [7:0]"),
                ("chunk_bytes", "its byte count, 1..8"),
                ("chunk_last", "it is its packet's last chunk"),
                ("chunk_bad", "its packet failed the CRC check"),
                ("token_in", "a downstream credit (one byte of room freed)"),
                ("link_valid", "the output register holds a byte (the link pins)"),
                ("link_byte", "that byte; 0 when not valid"),
                ("free", "free for the crossbar: idle, no queue packet inside, load 0"),
                ("wants", "asks the central queue for a chunk (prefetch empty, no read in flight; on the \
                           crossbar only with the serializer empty: the next queued packet's first chunk \
                           is read while the crossbar packet streams)"),
                ("queued", "something of the queue path is inside (serializer, prefetch, read in flight, CRC \
                            due): with the source on the crossbar, the output takes no new crossbar packet"),
                ("takes", "takes its crossbar receiver's offer this cycle (source crossbar, credit left)"),
                ("src_xbar", "the source is the crossbar"),
                ("src_rx", "its receiver (0 otherwise)"),
                ("credit_overflow", "sticky: a token arrived with the credit already full (it was ignored)"),
            ]),
            latency: "outputs but credit_overflow are combinational from the registers and load; a byte \
                      offered or serialized in cycle t is on the link pins in cycle t + 1; the credit starts \
                      at 16"
                .into(),
        },
        "central_queue_v2" => TopDoc {
            summary: "The v2 central queue of the SP2-style switch (docs/sp2-switch.md v2 section C): 128 \
                      chunks of 8 bytes in block RAM, per-packet chunk chains, a packet FIFO per output, \
                      whole-packet admission to the least loaded permitted output with one chunk reserved \
                      per empty output, one admission, one write and one read per cycle, each least recently \
                      served. Twin of asr_model::sp2::v2::central_queue::CentralQueue \
                      (hdl/src/sp2/v2/central_queue.rs). Field k of a packed port (receiver, transmitter or \
                      output k) is at bits [k*W +: W]."
                .into(),
            ports: docs(&[
                CLOCK,
                ("adm_valid", "bit r: receiver r asks to admit its packet now, with the request it \
                               presented in the previous cycle if any (only the final AND sees it)"),
                ("adm_set", "8 bits per receiver: its request's permitted outputs, 0 for none; the \
                             admission is decided on the requests registered at the last edge"),
                ("adm_chunks", "6 bits per receiver: the packet's chunks, 1..32 (ignored with adm_set 0)"),
                ("wr_valid", "bit r: receiver r offers a ready chunk of its admitted packet"),
                ("wr_data", "64 bits per receiver: the chunk, byte 0 in bits [7:0]"),
                ("wr_bytes", "4 bits per receiver: bytes in the chunk, 1..8"),
                ("wr_last", "bit r: the chunk is its packet's last"),
                ("wr_bad", "bit r: the packet failed its CRC check"),
                ("rd_req", "bit o: transmitter o has room for a chunk"),
                ("adm_grant_valid", "a receiver is admitted in this cycle"),
                ("adm_grant", "that receiver (0 when none)"),
                ("adm_out", "the output its packet is queued for (0 when none)"),
                ("adm_oh", "bit r: receiver r is admitted in this cycle (adm_grant one-hot)"),
                ("wr_grant_valid", "a receiver's chunk is written in this cycle"),
                ("wr_grant", "that receiver (0 when none)"),
                ("wr_oh", "bit r: receiver r's chunk is written in this cycle (wr_grant one-hot)"),
                ("rd_grant_valid", "a transmitter reads in this cycle"),
                ("rd_grant", "that transmitter (0 when none)"),
                ("rd_valid", "the chunk read at the previous edge is on rd_*"),
                ("rd_out", "its output; 0 when not valid"),
                ("rd_data", "its data, byte 0 in bits [7:0]; 0 when not valid"),
                ("rd_bytes", "its byte count; 0 when not valid"),
                ("rd_last", "it is its packet's last chunk; 0 when not valid"),
                ("rd_bad", "its packet failed the CRC check; 0 when not valid"),
                ("load", "8 bits per output: chunks queued or promised (registered)"),
                ("busy", "bit o: output o has chunks queued or promised, or the pending admission is for \
                          it (from registers): the switch hands it to no new crossbar packet"),
            ]),
            latency: "the admission is decided on the requests registered at the last edge (a request \
                      presented a cycle before its receiver asks can be admitted in its first cycle of \
                      asking) and taken into the queue's state (load, room, writer) at the end of the next \
                      cycle, in which no admission is decided; the other grants are combinational from the \
                      registers and the inputs; 1 cycle from a read grant to rd_*; a written chunk is \
                      readable from the next cycle on"
                .into(),
        },
        "sp2_allocator" => TopDoc {
            summary: "The pipelined crossbar allocator of the v2 SP2-style switch (docs/sp2-switch.md v2 \
                      section A): the ColumnOR / Rotate_Until_Zero heuristic on a registered request matrix, \
                      its row steps spread over 3 pipeline stages, every column granting its least recently \
                      served candidate. Twin of asr_model::sp2::v2::allocator::Allocator \
                      (hdl/src/sp2/v2/allocator.rs). Row = receiver, column = transmitter."
                .into(),
            ports: docs(&[
                CLOCK,
                ("req", "receiver i's requested transmitters at bits [i*8 +: 8] (0 = no request)"),
                ("free", "bit j: transmitter j is free for the crossbar now (the grants)"),
                ("mat_free", "bit j: free for the matrix registered at this edge (free now or soon)"),
                ("wait_set", "receiver i's set at bits [i*8 +: 8]: it waits now with this route set (0 = \
                              not waiting); row i is granted only a column of it"),
                ("grant_valid", "bit j: transmitter j grants a receiver in this cycle"),
                ("grant_row", "that receiver at bits [j*3 +: 3] (0 when grant_valid[j] is 0)"),
            ]),
            latency: "3 cycles from req to the grant it leads to; the grants are combinational from the last \
                      pipeline bank, free, wait_set and the least-recently-served orders"
                .into(),
        },
        "alloc_islip1_m8" | "alloc_pim1_m8" | "alloc_wavefront_m8" => {
            let (what, state) = match name {
                "alloc_islip1_m8" => (
                    "iSLIP with one iteration (McKeown 1999): output q grants the first requesting input at or \
                     after its grant pointer, input i accepts the first granting output at or after its accept \
                     pointer; accepted pairs move both pointers one past each other. Twin of \
                     asr_model::allocator::islip::Islip { iterations: 1 } (hdl/src/alloc/islip.rs).",
                    "16 one-hot pointers (128 flip-flops), all at port 0 at start",
                ),
                "alloc_pim1_m8" => (
                    "parallel iterative matching with one iteration, its random priorities read from a 64-bit \
                     xorshift register that steps at every edge. Twin of \
                     asr_model::allocator::pim_lfsr::PimLfsr8 (hdl/src/alloc/pim.rs).",
                    "the 64-bit random register, at asr_model::allocator::pim_lfsr::SEED at start",
                ),
                _ => (
                    "the wavefront allocator (Tamir and Chi 1993): the 8 diagonals of the request matrix \
                     served in turn from a priority diagonal that advances by one at every edge. Twin of \
                     asr_model::allocator::wavefront::Wavefront (hdl/src/alloc/wavefront.rs).",
                    "the 3-bit priority diagonal, 0 at start",
                ),
            };
            TopDoc {
                summary: format!("8x8 switch allocator for the comparison of docs/allocators.md: {what} State: {state}."),
                ports: docs(&[
                    CLOCK,
                    ("requests", "request matrix: input i's row at bits [i*8 +: 8], bit q = output q requested"),
                    (
                        "grants",
                        "the matching, same layout: one-hot rows (or 0), each grant inside the requests",
                    ),
                ]),
                latency: "0 cycles: the grant is combinational from requests and the registered state, which \
                          updates at the rising edge"
                    .into(),
            }
        }
        "sp2_board" => board_doc("sp2_switch", "", 5),
        "sp2_board_v2" => board_doc("sp2_switch_v2", " (v2: per-packet chunk chains, pipelined allocator)", 6),
        _ => return None,
    })
}

/// The documentation of a 16-node board of `chip`s with `per_switch` cycles of cut-through latency.
fn board_doc(chip: &str, what: &str, per_switch: u32) -> TopDoc {
    TopDoc {
        summary: format!(
            "The 16-processor SP2-style board (thesis section 4.2): 8 {chip} chips{what} wired as sp2:16 \
             (processors on chips 4-7, turn-around at chips 0-3). Twin of \
             asr_model::sp2::network::Sp2Network on sp2:16 (hdl/src/sp2/board.rs). Processor k's \
             byte is at bits [k*8 +: 8], its flag at bit k; links as {chip}."
        ),
        ports: docs(&[
            CLOCK,
            ("node_in_valid", "bit k: processor k drives a byte into the board"),
            ("node_in_data", "processor k's byte"),
            ("node_token_in", "bit k: processor k's credit for a byte it consumed"),
            ("node_out_valid", "bit k: the board drives a byte to processor k"),
            ("node_out_data", "that byte; 0 when not valid"),
            ("node_token_out", "bit k: a credit to processor k"),
            ("chips_link_out_valid", "chip c's link_out_valid at bits [c*8 +: 8] (observation only)"),
            ("chips_link_out_data", "chip c's link_out_data at bits [c*64 +: 64] (observation only)"),
            ("chips_token_out", "chip c's token_out at bits [c*8 +: 8] (observation only)"),
        ]),
        latency: format!(
            "{per_switch} cycles per switch: {per_switch} between processors on one chip, {} between chips",
            3 * per_switch
        ),
    }
}

/// Module names as users type them: rust-hdl names a sub-module `top$child$grandchild`; the user export
/// writes `top__child__grandchild` (the exported Verilog has no `__` otherwise, which a test checks, so the
/// change is reversible: [`canonical_of_user`]). Instance and signal names keep their `$`.
pub fn typable_module_names(verilog: &str) -> String {
    let modules: std::collections::HashSet<String> = verilog
        .lines()
        .filter_map(|l| l.strip_prefix("module "))
        .map(|r| r.split('(').next().unwrap_or("").trim().to_string())
        .filter(|n| n.contains('$'))
        .collect();
    map_idents(verilog, |id| {
        modules.contains(id).then(|| id.replace('$', "__"))
    })
}

/// The header comment of a top's user export: ports with direction, width and meaning, latency, reset.
pub fn header_of(name: &str, verilog: &str) -> Option<String> {
    header_with(name, verilog, Reset::None)
}

/// What a header says about reset.
enum Reset<'a> {
    /// No reset input ([`RESET_NOTE`]).
    None,
    /// The `reset` input of `--reset` ([`RESET_WITH_PORT`]).
    Port,
    /// `--reset` could not add one, for this reason.
    Refused(&'a str),
}

/// [`header_of`], saying what `reset` says about reset ([`user_verilog_with_reset`]).
fn header_with(name: &str, verilog: &str, reset: Reset) -> Option<String> {
    if !TOPS.contains(&name) {
        return None;
    }
    let doc = top_doc(name).unwrap_or_else(|| TopDoc {
        summary: format!(
            "{name}: the meaning of its ports is not written here yet; see the doc comment of its RustHDL \
             block in hdl/src/ (tops awaiting port documentation: AWAITING_PORT_DOCS in hdl/src/export.rs)."
        ),
        ports: Vec::new(),
        latency: "see the block's doc comment in hdl/src/".into(),
    });
    let ports = ports_of(verilog, name);
    let mut h = String::new();
    let wrap = |h: &mut String, prefix: &str, text: &str| {
        let mut line = prefix.to_string();
        for w in text.split_whitespace() {
            if line.len() + w.len() + 1 > 110 && line.trim_end().len() > prefix.trim_end().len() {
                h.push_str(line.trim_end());
                h.push('\n');
                line = format!("//{}", " ".repeat(prefix.len() - 2));
            }
            line.push_str(w);
            line.push(' ');
        }
        h.push_str(line.trim_end());
        h.push('\n');
    };
    h.push_str(&format!(
        "// {name}: exported by `asr verilog` (asr {}). Module names use `__` where rust-hdl writes `$`.\n//\n",
        env!("CARGO_PKG_VERSION")
    ));
    wrap(&mut h, "// ", &doc.summary);
    h.push_str("//\n// Ports:\n");
    let nw = ports.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in &ports {
        let meaning = doc.ports.iter().find(|(n, _)| n == &p.name).map_or(
            if matches!(reset, Reset::Port) && p.name == "reset" {
                RESET_PORT
            } else {
                "(see hdl/src/)"
            },
            |(_, m)| m.as_str(),
        );
        let width = if p.width == 1 {
            String::new()
        } else {
            format!("[{}:0]", p.width - 1)
        };
        let prefix = format!("//   {:<6} {:<9} {:<nw$}  ", p.dir, width, p.name);
        wrap(&mut h, &prefix, meaning);
    }
    h.push_str("//\n");
    wrap(&mut h, "// Latency: ", &doc.latency);
    let refused;
    wrap(
        &mut h,
        "// Reset: ",
        match reset {
            Reset::None => RESET_NOTE,
            Reset::Port => RESET_WITH_PORT,
            Reset::Refused(why) => {
                refused = format!(
                    "none, even with --reset: {why}. Every register starts at the initial value of its \
                     `initial` block, and the RAM's contents are loaded with the bitstream; to restart the \
                     design, reconfigure the FPGA."
                );
                &refused
            }
        },
    );
    h.push_str("// Instantiation and an example wrapper: docs/verilog.md.\n");
    Some(h)
}

/// The Verilog a user gets from `asr verilog`: [`header_of`] then [`verilog_of`] with
/// [`typable_module_names`]. The same design as the co-simulated [`verilog_of`] ([`canonical_of_user`]).
pub fn user_verilog_of(name: &str) -> Option<String> {
    let v = verilog_of(name)?;
    let header = header_of(name, &v)?;
    Some(header + &typable_module_names(&v))
}

/// The user export with the synchronous reset input (`asr verilog --reset`, [`crate::reset`]): the header
/// with the `reset` port and its behaviour, the design with a `reset` port on every module that holds a
/// register. A combinational top (the matchers) is exported as without `--reset`. A top the reset cannot
/// restore (a block RAM with initial contents: the central queues' free lists) is exported without it, its
/// header saying why; the reason is returned beside the text.
pub fn user_verilog_with_reset(name: &str) -> Option<(String, Option<String>)> {
    let v = verilog_of(name)?;
    match crate::reset::add_sync_reset(&v) {
        Ok(r) => {
            let has = r != format!("{}\n", v.trim_end());
            let header = header_with(name, &r, if has { Reset::Port } else { Reset::None })?;
            Some((header + &typable_module_names(&r), None))
        }
        Err(e) => {
            let e = e.replace('$', "__");
            let header = header_with(name, &v, Reset::Refused(&e))?;
            Some((header + &typable_module_names(&v), Some(e)))
        }
    }
}

/// Inverse of the user export: drops the leading `//` header lines and writes `$` for `__` again, giving
/// exactly [`verilog_of`] (tested for every top). `scripts/synth.sh` keys its cache on this form, so a
/// header or a name change does not invalidate synthesis results of the same design.
pub fn canonical_of_user(user: &str) -> String {
    let mut out = String::with_capacity(user.len());
    let mut in_header = true;
    for line in user.split_inclusive('\n') {
        if in_header && line.starts_with("//") {
            continue;
        }
        in_header = false;
        out.push_str(&line.replace("__", "$"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every exported top: every port of the module has a meaning in its header and every documented port
    /// exists; the user export has no `$` in a module name and maps back to exactly the co-simulated
    /// Verilog (which has no `__` of its own).
    #[test]
    fn user_export_documents_every_port_and_is_the_same_design() {
        for &top in TOPS {
            let v = verilog_of(top).expect("known top");
            assert!(!v.contains("__"), "{top}: the export already has `__`");
            let ports = ports_of(&v, top);
            assert!(ports.len() >= 2, "{top}: ports not found");
            let user = user_verilog_of(top).expect("known top");
            let ascii_header = &user[..user.find("\nmodule ").expect("a module")];
            assert!(
                ascii_header.is_ascii(),
                "{top}: the header is not plain ASCII"
            );
            assert!(
                canonical_of_user(&user) == v,
                "{top}: user export is not the same design"
            );
            if AWAITING_PORT_DOCS.contains(&top) {
                assert!(
                    top_doc(top).is_none(),
                    "{top}: documented, remove it from AWAITING_PORT_DOCS"
                );
                for p in &ports {
                    assert!(
                        user.contains(&format!(" {} ", p.name)),
                        "{top}: {} not in the header",
                        p.name
                    );
                }
                continue;
            }
            let doc = top_doc(top).unwrap_or_else(|| {
                panic!("{top}: no top_doc (document its ports in hdl/src/export.rs)")
            });
            for p in &ports {
                assert!(
                    doc.ports.iter().any(|(n, _)| n == &p.name),
                    "{top}: port {} has no meaning in top_doc",
                    p.name
                );
            }
            for (n, _) in &doc.ports {
                assert!(
                    ports.iter().any(|p| &p.name == n),
                    "{top}: top_doc describes {n}, which is not a port"
                );
            }
            assert!(user.starts_with(&format!("// {top}: ")), "{top}");
            assert!(!user.contains("(see hdl/src/)"), "{top}");
            let header = &user[..user.find("\nmodule ").expect("a module")];
            assert!(header.is_ascii(), "{top}: the header is not plain ASCII");
            for p in &ports {
                assert!(
                    user.contains(&format!(" {} ", p.name)),
                    "{top}: {} not in the header",
                    p.name
                );
            }
            for l in user.lines().filter_map(|l| l.strip_prefix("module ")) {
                let name = l.split('(').next().unwrap();
                assert!(
                    name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{top}: module name {name:?}"
                );
            }
            assert!(
                canonical_of_user(&user) == v,
                "{top}: user export is not the same design"
            );
        }
    }

    /// The port list of a module is read with directions and widths.
    #[test]
    fn ports_are_parsed_with_widths() {
        let v = "module x$y(a);\n input wire  b;\nendmodule\nmodule t(clock,a,b);\n    input wire  clock;\n    input wire  [51:0] a;\n    output reg  [1:0] b;\nendmodule\n";
        let p = ports_of(v, "t");
        assert_eq!(
            p,
            [
                Port {
                    dir: "input",
                    width: 1,
                    name: "clock".into()
                },
                Port {
                    dir: "input",
                    width: 52,
                    name: "a".into()
                },
                Port {
                    dir: "output",
                    width: 2,
                    name: "b".into()
                },
            ]
        );
        assert_eq!(
            typable_module_names(v).lines().next(),
            Some("module x__y(a);")
        );
    }

    /// Two identical instance trees merge into one; a tree that differs in one constant, or only in a
    /// descendant, stays; instance names stay.
    #[test]
    fn identical_module_trees_merge() {
        let m = |name: &str, body: &str| format!("module {name}(a);\n{body}\nendmodule\n");
        let v = [
            "// preamble\n".to_string(),
            m("t", "  t$s$0 s$0(.a(a));\n  t$s$1 s$1(.a(a));\n  t$s$2 s$2(.a(a));\n  t$s$10 s$10(.a(a));"),
            m("t$s$0", "  t$s$0$d d(.a(a)); wire x = 1;"),
            m("t$s$0$d", "  wire y = 0;"),
            m("t$s$1", "  t$s$1$d d(.a(a)); wire x = 1;"),
            m("t$s$1$d", "  wire y = 0;"),
            m("t$s$2", "  t$s$2$d d(.a(a)); wire x = 1;"),
            m("t$s$2$d", "  wire y = 1;"),
            m("t$s$10", "  t$s$10$d d(.a(a)); wire x = 2;"),
            m("t$s$10$d", "  wire y = 0;"),
        ]
        .concat();
        let d = dedupe_modules(&v);
        let names: Vec<&str> = d
            .lines()
            .filter_map(|l| l.strip_prefix("module "))
            .map(|l| l.split('(').next().unwrap())
            .collect();
        // s$1 merges into s$0; s$2 differs in its child, s$10 in itself; s$2's and s$10's children are
        // copies of s$0's child and merge into it.
        assert_eq!(
            names,
            ["t", "t$s$0", "t$s$0$d", "t$s$2", "t$s$2$d", "t$s$10"]
        );
        assert!(d.starts_with("// preamble\n"));
        assert!(d.contains(
            "  t$s$0 s$0(.a(a));\n  t$s$0 s$1(.a(a));\n  t$s$2 s$2(.a(a));\n  t$s$10 s$10(.a(a));"
        ));
        assert!(d.contains("  t$s$0$d d(.a(a)); wire x = 2;"));
    }
}

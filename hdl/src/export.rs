//! Verilog export of every top of docs/contracts.md: one `(name, verilog)` pair per top, the module named as the
//! top (rust-hdl always calls the top module `top`; it is renamed here, together with the `top$…` prefix
//! of the sub-module names so several tops can be compiled together).
//!
//! Used by `asr verilog --out DIR` (one file `DIR/<name>.v` per top) and by the testbench's Icarus check.

use rust_hdl::prelude::*;

use crate::benes::{Benes16, Benes16R, Benes32, Benes8, Benes8R};
use crate::matcher::*;
use crate::sp2::board::Sp2Board;
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
        "sp2_switch_v2" => isolate_assignments(
            &no_rw_check(&gen(Sp2SwitchV2::default(), name)),
            RX_V2_CRC_CONE,
        ),
        "sp2_board" => isolate_all_comb(&no_rw_check(&gen(Sp2Board::default(), name))),
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

/// Adds `/*verilator isolate_assignments*/` to the declarations of the top module's `reg`s named in
/// `names` (an entry ending in `$` matches every element `name$k` of a rust-hdl signal array).
pub fn isolate_assignments(verilog: &str, names: &[&str]) -> String {
    verilog
        .lines()
        .map(|l| {
            let t = l.trim();
            let hit = t.starts_with("reg ")
                && t.ends_with(';')
                && t[..t.len() - 1].split_whitespace().last().is_some_and(|n| {
                    names.iter().any(|&p| {
                        n == p
                            || (p.ends_with('$')
                                && n.strip_prefix(p)
                                    .is_some_and(|k| k.chars().all(|c| c.is_ascii_digit())))
                    })
                });
            if hit {
                format!("{} /*verilator isolate_assignments*/;", &l[..l.len() - 1])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
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
    verilog
        .lines()
        .map(|l| {
            let t = l.trim();
            let clocked = t.ends_with(" q;") || t.ends_with(" read_data;");
            if t.starts_with("reg ")
                && t.ends_with(';')
                && !t.contains("mem[")
                && !t.contains("isolate_assignments")
                && !clocked
            {
                format!("{} /*verilator isolate_assignments*/;", &l[..l.len() - 1])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
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

#[cfg(test)]
mod tests {
    use super::dedupe_modules;

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

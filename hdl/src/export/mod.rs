//! Verilog export of the exported tops (the table of tops is `asr_testbench::tops`): rust-hdl's Verilog of a
//! block with the top module named as the top (rust-hdl always calls it `top`; it is renamed here, together with
//! the `top$…` prefix of the sub-module names, so several tops can be compiled together) and identical
//! sub-module trees merged.
//!
//! - [`doc`]: what a top's header says ([`doc::TopDoc`]); each exported block writes its own.
//! - [`idents`]: identifiers in rust-hdl's Verilog: the top module's renaming, whole-identifier maps.
//! - [`user`]: the file a user gets from `asr verilog`: header, typable module names, optional reset.
//! - [`verilator`]: the comments that make Verilator schedule rust-hdl's `always` blocks correctly.

pub mod doc;
pub mod idents;
pub mod user;
pub mod verilator;

pub use doc::{TopDoc, RESET_NOTE, RESET_WITH_PORT};
pub use idents::rename_top;
pub use user::{
    canonical_of_user, header_of, ports_of, typable_module_names, user_verilog,
    user_verilog_with_reset, Port,
};
pub use verilator::*;

use idents::map_idents;
use rust_hdl::prelude::*;

/// rust-hdl's Verilog of `uut` after `connect_all` (top module `top`, as `yosys_validate` expects).
pub fn build<U: Block>(mut uut: U) -> String {
    uut.connect_all();
    generate_verilog(&uut)
}

/// The exported Verilog of top `name` from rust-hdl's Verilog `raw` ([`build`], with any Verilator comments):
/// the module named as the top and identical sub-module trees merged ([`dedupe_modules`]).
pub fn finish(name: &str, raw: &str) -> String {
    dedupe_modules(&rename_top(raw, name))
}

/// Merges identical sub-module trees. rust-hdl elaborates every instance into its own module (`benes32` has
/// 144 copies of the 2×2 switch, `sp2_board_v2` 8 copies of the whole switch): module `P` (with its descendants
/// `P$…`) and module `Q` (with `Q$…`) whose texts are equal once their own names are written alike are one
/// design, so `Q` and its descendants are dropped and `Q`'s instantiation names `P`. Instance names, and so
/// every hierarchical signal name in a simulator or a VCD, are unchanged; the file of `sp2_board` (v1) shrank
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

#[cfg(test)]
mod tests {
    use super::*;

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

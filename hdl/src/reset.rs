//! The synchronous reset of the user export (`asr verilog --reset`): an active-high input `reset` on every
//! module that holds a register, directly or through its instances, passed down the hierarchy. While `reset`
//! is 1 at a rising edge, every register loads its initial value (the value of its `initial` block, which is
//! also its power-up value), so one cycle of `reset` puts the design in the state it has after configuration.
//! Block-RAM contents are not cleared and not written during a reset, and a RAM's registered read data keeps
//! being refreshed from the RAM at every edge; a top reads a RAM only at addresses it wrote since its start,
//! so its outputs after a reset are those of a fresh design — which `testbench/tests/reset.rs` checks against
//! a fresh model, cycle for cycle, after random traffic. A top with a RAM that has initial contents (the
//! central queues' free lists) cannot be reset this way: the transformation refuses it.
//!
//! rust-hdl emits every register as a module `(d,q,clock)` with `initial begin q = INIT; end` and
//! `always @(posedge clock) begin q <= d; end`, and every RAM as a module with its own `always` blocks; the
//! transformation rewrites the first form and leaves RAMs alone. A combinational top (the matchers) gets no
//! reset. [`add_sync_reset`] is a pure text transformation of that form; an `always` block of another form
//! makes it refuse (`Err`), so a new register form cannot silently escape the reset.

use std::collections::HashSet;

/// One module of the exported text: its name, port list and body lines (the `module` line excluded, the
/// `endmodule` line included).
struct Module<'a> {
    name: &'a str,
    ports: &'a str,
    body: Vec<&'a str>,
}

fn modules(verilog: &str) -> (Vec<&str>, Vec<Module<'_>>) {
    let mut pre = Vec::new();
    let mut mods: Vec<Module> = Vec::new();
    let mut cur: Option<Module> = None;
    for line in verilog.lines() {
        if let Some(rest) = line.strip_prefix("module ") {
            let (name, ports) = rest.split_once('(').unwrap_or((rest, ");"));
            cur = Some(Module {
                name: name.trim(),
                ports: ports.trim_end_matches(");"),
                body: Vec::new(),
            });
        } else if let Some(m) = cur.as_mut() {
            m.body.push(line);
            if line.starts_with("endmodule") {
                mods.push(cur.take().expect("inside a module"));
            }
        } else {
            pre.push(line);
        }
    }
    (pre, mods)
}

/// A register module: ports `d,q,clock`, one `initial` assignment of `q` and one `q <= d;`. Returns its
/// initial value (the Verilog literal).
fn register_init(m: &Module) -> Option<String> {
    if m.ports != "d,q,clock" {
        return None;
    }
    let init = m
        .body
        .iter()
        .find_map(|l| l.trim().strip_prefix("q = "))?
        .trim_end_matches(';')
        .to_string();
    m.body.iter().any(|l| l.trim() == "q <= d;").then_some(init)
}

/// The instances in a module body: (module, line index of the instance's opening line).
fn instances<'a>(m: &Module<'a>, known: &HashSet<&str>) -> Vec<(&'a str, usize)> {
    m.body
        .iter()
        .enumerate()
        .filter_map(|(k, l)| {
            let t = l.trim();
            let (module, rest) = t.split_once(' ')?;
            (rest.ends_with('(') && known.contains(module)).then_some((module, k))
        })
        .collect()
}

/// The user export with a synchronous active-high `reset` input (module doc). `keep` names register
/// *instances* whose reset input is tied to 0 instead (a fault the reset test must catch: in a module shared
/// by several parents, as rust-hdl's identical sub-modules are, every copy); empty for the real export.
/// Errors name a module whose registers are not of the form rust-hdl emits.
pub fn add_sync_reset_except(verilog: &str, keep: &[&str]) -> Result<String, String> {
    let (pre, mods) = modules(verilog);
    let regs: HashSet<&str> = mods
        .iter()
        .filter(|m| register_init(m).is_some())
        .map(|m| m.name)
        .collect();
    let rams: HashSet<&str> = mods
        .iter()
        .filter(|m| m.ports.contains("read_clock"))
        .map(|m| m.name)
        .collect();
    for m in &mods {
        let always = m
            .body
            .iter()
            .filter(|l| l.contains("always @(posedge"))
            .count();
        let ram = m.ports.contains("read_clock");
        if ram && m.body.iter().any(|l| l.trim() == "initial begin") {
            return Err(format!(
                "module {}: a block RAM with initial contents (a free list), which a reset input cannot \
                 restore",
                m.name
            ));
        }
        if always > 0 && !ram && register_init(m).is_none() {
            return Err(format!(
                "module {}: a clocked `always` block of a form the reset transformation does not know",
                m.name
            ));
        }
    }
    // Modules that need the port: registers, and whatever instantiates one, to a fixed point.
    let mut need: HashSet<&str> = regs.union(&rams).copied().collect();
    loop {
        let before = need.len();
        for m in &mods {
            if !need.contains(m.name) && !instances(m, &need).is_empty() {
                need.insert(m.name);
            }
        }
        if need.len() == before {
            break;
        }
    }
    let mut out: Vec<String> = pre.iter().map(|l| l.to_string()).collect();
    for m in &mods {
        if !need.contains(m.name) {
            out.push(format!("module {}({});", m.name, m.ports));
            out.extend(m.body.iter().map(|l| l.to_string()));
            continue;
        }
        out.push(format!("module {}({},reset);", m.name, m.ports));
        let init = if regs.contains(m.name) {
            register_init(m)
        } else {
            None
        };
        let inst_lines: HashSet<usize> = instances(m, &need).into_iter().map(|(_, k)| k).collect();
        let mut declared = false;
        let mut in_instance = false;
        let mut tie = "reset";
        for (k, l) in m.body.iter().enumerate() {
            let t = l.trim();
            if !declared && t.starts_with("// Module arguments") {
                out.push(l.to_string());
                out.push("    input wire  reset;".into());
                declared = true;
                continue;
            }
            if inst_lines.contains(&k) {
                in_instance = true;
                let inst = t.split(' ').nth(1).unwrap_or("").trim_end_matches('(');
                tie = if keep.contains(&inst) {
                    "1'b0"
                } else {
                    "reset"
                };
            }
            if in_instance && t == ");" {
                // Close the connection list with the reset.
                if let Some(last) = out.last_mut() {
                    last.push(',');
                }
                out.push(format!("        .reset({tie})"));
                in_instance = false;
            }
            let ind = &l[..l.len() - l.trim_start().len()];
            match (&init, t) {
                (Some(v), "q <= d;") => {
                    out.push(format!("{ind}if (reset) q <= {v}; else q <= d;"));
                }
                // No RAM is written during a reset.
                (None, "if (write_enable) begin") if rams.contains(m.name) => {
                    out.push(format!("{ind}if (write_enable && !reset) begin"));
                }
                _ => out.push(l.to_string()),
            }
        }
        if !declared {
            return Err(format!(
                "module {}: no `// Module arguments` section",
                m.name
            ));
        }
    }
    let mut s = out.join("\n");
    s.push('\n');
    Ok(s)
}

/// [`add_sync_reset_except`] with every register reset.
pub fn add_sync_reset(verilog: &str) -> Result<String, String> {
    add_sync_reset_except(verilog, &[])
}

/// The names of the register instances of an export, each once (for fault injection in tests).
pub fn register_instances(verilog: &str) -> Vec<String> {
    let mods = modules(verilog).1;
    let regs: HashSet<&str> = mods
        .iter()
        .filter(|m| register_init(m).is_some())
        .map(|m| m.name)
        .collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for m in &mods {
        for (_, k) in instances(m, &regs) {
            let inst = m.body[k]
                .trim()
                .split(' ')
                .nth(1)
                .unwrap_or("")
                .trim_end_matches('(');
            if seen.insert(inst.to_string()) {
                out.push(inst.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_get_the_reset_and_it_reaches_them_through_the_hierarchy() {
        let v = crate::export::finish(
            "switch2",
            &crate::export::build(crate::switch2::Switch2Top::default()),
        );
        let r = add_sync_reset(&v).unwrap();
        // Every register module resets to its initial value, the top has the port.
        assert!(
            r.contains("module switch2(clock,in_valid,"),
            "{}",
            &r[..200]
        );
        assert!(r
            .lines()
            .any(|l| l.starts_with("module switch2(") && l.ends_with(",reset);")));
        let n_mods = r.matches("if (reset) q <= ").count();
        assert!(n_mods >= 2, "{n_mods}");
        assert_eq!(
            r.matches("q <= d;").count(),
            n_mods,
            "each in the else branch"
        );
        // Every instance of a module with the port passes it: the 10 registers and the core.
        let insts = register_instances(&v);
        assert_eq!(insts.len(), 10, "{insts:?}");
        assert_eq!(r.matches(".reset(reset)").count(), 11);
        // A combinational top is left alone.
        let m = crate::export::finish(
            "matcher_m4_p1",
            &crate::export::build(crate::matcher::MatcherM4P1::default()),
        );
        assert_eq!(add_sync_reset(&m).unwrap(), format!("{}\n", m.trim_end()));
        // A fault: one register's reset tied to 0.
        let f = add_sync_reset_except(&v, &[insts[0].as_str()]).unwrap();
        assert_eq!(f.matches(".reset(reset)").count(), 10);
        assert_eq!(f.matches(".reset(1'b0)").count(), 1);
    }

    /// A block RAM with initial contents (v1's central-queue free list was one) cannot be restored by a
    /// reset input: refused, naming the module.
    #[test]
    fn a_ram_with_initial_contents_is_refused() {
        let v = "module t$ram(read_clock,write_clock);\n    input wire read_clock;\n    input wire write_clock;\n    initial begin\n    end\nendmodule // t$ram\n";
        let e = add_sync_reset(v).unwrap_err();
        assert!(
            e.contains("module t$ram:") && e.contains("initial contents"),
            "{e}"
        );
    }

    #[test]
    fn an_unknown_register_form_is_refused() {
        let v = "module t(clock,x,y);\n    // Module arguments\n    input wire clock;\n    always @(posedge clock) begin\n       y <= x;\n    end\nendmodule // t\n";
        let e = add_sync_reset(v).unwrap_err();
        assert!(e.contains("module t:"), "{e}");
    }
}

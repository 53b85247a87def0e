//! The file a user gets from `asr verilog`: a header comment (ports with direction, width and meaning, latency,
//! reset) and the exported Verilog with module names a user can type; optionally a synchronous reset input.

use super::doc::{TopDoc, RESET_NOTE, RESET_PORT, RESET_WITH_PORT};

use super::idents::map_idents;

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

/// The header comment of top `name`'s user export from its documentation `doc` and its exported Verilog:
/// ports with direction, width and meaning, latency, reset.
pub fn header_of(name: &str, doc: &TopDoc, verilog: &str) -> String {
    header_with(name, doc, verilog, Reset::None)
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
fn header_with(name: &str, doc: &TopDoc, verilog: &str, reset: Reset) -> String {
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
    h
}

/// The file a user gets from `asr verilog` for top `name` (documentation `doc`, exported Verilog `verilog`):
/// [`header_of`] then the Verilog with [`typable_module_names`]; the same design ([`canonical_of_user`]).
pub fn user_verilog(name: &str, doc: &TopDoc, verilog: &str) -> String {
    header_of(name, doc, verilog) + &typable_module_names(verilog)
}

/// The user export with the synchronous reset input (`asr verilog --reset`, [`crate::reset`]): the header
/// with the `reset` port and its behaviour, the design with a `reset` port on every module that holds a
/// register. A combinational top (the matchers) is exported as without `--reset`. A top the reset cannot
/// restore (a block RAM with initial contents: the central queues' free lists) is exported without it, its
/// header saying why; the reason is returned beside the text.
pub fn user_verilog_with_reset(
    name: &str,
    doc: &TopDoc,
    verilog: &str,
) -> (String, Option<String>) {
    match crate::reset::add_sync_reset(verilog) {
        Ok(r) => {
            let has = r != format!("{}\n", verilog.trim_end());
            let header = header_with(name, doc, &r, if has { Reset::Port } else { Reset::None });
            (header + &typable_module_names(&r), None)
        }
        Err(e) => {
            let e = e.replace('$', "__");
            let header = header_with(name, doc, verilog, Reset::Refused(&e));
            (header + &typable_module_names(verilog), Some(e))
        }
    }
}

/// Inverse of the user export: drops the leading `//` header lines and writes `$` for `__` again, giving
/// exactly the exported Verilog (tested for every top). `scripts/synth.sh` keys its cache on this form, so a
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
}

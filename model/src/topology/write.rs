//! Writer for the topology text format of docs/contracts.md: elements in the order they were added, then channels in
//! the order they were added; a channel immediately followed by its reverse is written as one `link`, any
//! other channel as a `wire`. Parsing the output gives back an identical [`Topology`].

use super::graph::{Kind, Port, Topology};
use std::fmt::Write;

/// Writes `t` as topology text.
pub fn write(t: &Topology) -> String {
    let mut s = String::new();
    let nodes = t.nodes().len();
    let _ = writeln!(
        s,
        "# {} switches, {} processors, {} channels",
        t.len() - nodes,
        nodes,
        t.channels().len()
    );
    for e in t.elements() {
        match e.kind {
            Kind::Switch { ports } => {
                let _ = writeln!(s, "switch {} {}", e.name, ports);
            }
            Kind::Node => {
                let _ = writeln!(s, "node {}", e.name);
            }
        }
    }
    let ep = |p: Port| format!("{}.{}", t.element(p.elem).name, p.port);
    let ch = t.channels();
    let mut i = 0;
    while i < ch.len() {
        let (a, b) = ch[i];
        if i + 1 < ch.len() && ch[i + 1] == (b, a) {
            let _ = writeln!(s, "link {} {}", ep(a), ep(b));
            i += 2;
        } else {
            let _ = writeln!(s, "wire {} {}", ep(a), ep(b));
            i += 1;
        }
    }
    s
}

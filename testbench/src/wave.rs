//! Waveform scenarios: a VCD of the HDL simulation (rust-hdl's VCD writer, whole hierarchy) or of the model
//! (the `vcd` crate, same signal names where they exist), plus a GTKWave save file (`.gtkw`, [`gtkw`]) beside
//! the VCD that opens it from any directory with one named row per signal or port, in groups, and the whole
//! run in view.
//!
//! Scenario `benes8-burst` ([`benes8`]): every input of a `benes8` sends a burst of packets under heavy
//! contention and backpressure, then the network drains.
//!
//! Scenario `sp2-contention-v2` ([`sp2_v2`]): the v2 switch `sp2_switch_v2` with several inputs sending to
//! one output at once, so some packets cut through the crossbar and others go through the central queue, ASR
//! multi-port sets, output backpressure, a CRC and a route error (the script, shared by the switch versions'
//! scenarios, is in [`sp2`]); it shows the pipelined allocator, queue admission, per-packet chunk chains and
//! per-output loads.
//!
//! Scenario `sp2-contention-v3` ([`sp2_v3`]): the same script on the v3 switch `sp2_switch_v3`; it shows the
//! blocks' registered ports: the receivers' requests, admission requests and queue operations, the
//! allocator's matrix in flight and its held grants, the queue's admissions, free-chunk head and reads.
//!
//! Time: one cycle is 10 ns (`$timescale 1 ns`); cycle n applies its inputs at 10n and has its rising edge
//! at 10n+5.
//!
//! [`read_vcd`] reads a VCD back (for tests): every variable by its dotted path, its width and its changes.

use anyhow::{bail, Context, Result};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

pub mod asr_network;
pub mod benes8;
pub mod gtkw;
pub mod sp2;
pub mod sp2_v2;
pub mod sp2_v3;
mod vcd_out;

/// Known scenarios.
pub const SCENARIOS: &[&str] = &["benes8-burst", "sp2-contention-v2", "sp2-contention-v3"];

/// The last time of a scenario's VCD (10 time units per cycle).
pub fn end_time(scenario: &str) -> Option<u64> {
    match scenario {
        "benes8-burst" => Some(10 * benes8::CYCLES as u64),
        "sp2-contention-v2" => Some(10 * sp2_v2::CYCLES as u64),
        "sp2-contention-v3" => Some(10 * sp2_v3::CYCLES as u64),
        _ => None,
    }
}

/// The rows and groups of a scenario's `.gtkw` (the model's VCD may have fewer signals than the HDL's).
pub fn view(scenario: &str, model: bool) -> Option<Vec<gtkw::Group>> {
    match scenario {
        "benes8-burst" => Some(benes8::view()),
        "sp2-contention-v2" => Some(sp2_v2::view(model)),
        "sp2-contention-v3" => Some(sp2_v3::view(model)),
        _ => None,
    }
}

/// Writes the scenario's VCD (HDL or model) to `out` and a `.gtkw` beside it; returns the `.gtkw` path.
pub fn write(scenario: &str, out: &Path, model: bool) -> Result<PathBuf> {
    let (Some(end), Some(groups)) = (end_time(scenario), view(scenario, model)) else {
        bail!(
            "unknown scenario `{scenario}`; known: {}",
            SCENARIOS.join(", ")
        );
    };
    if let Some(d) = out.parent() {
        if !d.as_os_str().is_empty() {
            std::fs::create_dir_all(d)
                .with_context(|| format!("creating the folder {}", d.display()))?;
        }
    }
    let f =
        BufWriter::new(File::create(out).with_context(|| format!("creating {}", out.display()))?);
    match (scenario, model) {
        ("sp2-contention-v2", false) => sp2_v2::write_hdl(f)?,
        ("sp2-contention-v2", true) => sp2_v2::write_model(f)?,
        ("sp2-contention-v3", false) => sp2_v3::write_hdl(f)?,
        ("sp2-contention-v3", true) => sp2_v3::write_model(f)?,
        (_, false) => benes8::write_hdl(f)?,
        (_, true) => benes8::write_model(f)?,
    }
    let gtkw = out.with_extension("gtkw");
    gtkw::write_save_file(out, &gtkw, end, &groups)?;
    Ok(gtkw)
}

/// A VCD read back: every variable by its dotted path (`uut.rx$0.st.q`), with its width and changes.
#[derive(Debug, Default)]
pub struct Trace {
    /// The VCD's `$timescale`, as text (`1 ns`).
    pub timescale: Option<String>,
    vars: std::collections::HashMap<String, (usize, vcd::IdCode)>,
    changes: std::collections::HashMap<vcd::IdCode, Vec<(u64, String)>>,
}

impl Trace {
    /// Every variable's dotted path.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.vars.keys().map(|k| k.as_str())
    }

    /// The last timestamp with a change.
    pub fn last_change(&self) -> u64 {
        self.changes
            .values()
            .filter_map(|c| c.last().map(|x| x.0))
            .max()
            .unwrap_or(0)
    }

    /// The declared width of a variable.
    pub fn width(&self, name: &str) -> Option<usize> {
        self.vars.get(name).map(|v| v.0)
    }

    /// The value of a variable at time `t` (after the changes at `t`), as binary digits without leading
    /// zeros ("0" for zero).
    pub fn at(&self, name: &str, t: u64) -> Option<String> {
        let (_, id) = self.vars.get(name)?;
        let ch = self.changes.get(id)?;
        let k = ch.partition_point(|(ct, _)| *ct <= t);
        (k > 0).then(|| ch[k - 1].1.clone())
    }
}

/// Reads a VCD file (rust-hdl's or the model's).
pub fn read_vcd(path: &Path) -> Result<Trace> {
    fn walk(
        items: &[vcd::ScopeItem],
        prefix: &str,
        vars: &mut std::collections::HashMap<String, (usize, vcd::IdCode)>,
    ) {
        for it in items {
            match it {
                vcd::ScopeItem::Scope(s) => {
                    walk(&s.items, &format!("{prefix}{}.", s.identifier), vars)
                }
                vcd::ScopeItem::Var(v) => {
                    vars.insert(
                        format!("{prefix}{}", v.reference),
                        (v.size as usize, v.code),
                    );
                }
                _ => {}
            }
        }
    }
    fn digits(v: impl Iterator<Item = vcd::Value>) -> String {
        let s: String = v.map(|x| x.to_string()).collect();
        let t = s.trim_start_matches('0');
        if t.is_empty() {
            "0".into()
        } else {
            t.into()
        }
    }
    let f = std::io::BufReader::new(
        File::open(path).with_context(|| format!("opening {}", path.display()))?,
    );
    let mut p = vcd::Parser::new(f);
    let h = p.parse_header()?;
    let mut tr = Trace {
        timescale: h.timescale.map(|(n, u)| format!("{n} {u}")),
        ..Trace::default()
    };
    walk(&h.items, "", &mut tr.vars);
    let mut t = 0;
    for c in p {
        match c? {
            vcd::Command::Timestamp(x) => t = x,
            vcd::Command::ChangeScalar(id, v) => tr
                .changes
                .entry(id)
                .or_default()
                .push((t, digits(std::iter::once(v)))),
            vcd::Command::ChangeVector(id, v) => tr
                .changes
                .entry(id)
                .or_default()
                .push((t, digits(v.iter()))),
            _ => {}
        }
    }
    Ok(tr)
}

//! Waveform scenarios: a VCD of the HDL simulation (rust-hdl's VCD writer, whole hierarchy) or of the model
//! (the `vcd` crate, same signal names where they exist), plus a GTKWave save file (`.gtkw`) beside the VCD
//! that opens it with the useful signals grouped.
//!
//! Scenario `benes8-burst`: every input of a `benes8` sends a burst of packets, most to outputs 0–2 (heavy
//! contention), output 0 is blocked for a while and output 1 toggles its `ready` (backpressure), then the
//! network drains. Timing: cycle n has its inputs applied at time 10n (clock low) and its rising edge at
//! 10n+5.
//!
//! Scenario `sp2-contention` ([`sp2`]): the `sp2_switch` with several inputs sending to one output at once,
//! so some packets cut through the crossbar and others go through the central queue, ASR multi-port sets,
//! output backpressure, a CRC and a route error.
//!
//! [`read_vcd`] reads a VCD back (for tests): every variable by its dotted path, its width and its changes.

use anyhow::{bail, Context, Result};
use asr_hdl::benes::Benes8;
use asr_model::benes::{asr_header, Benes, TAG_BITS};
use rust_hdl::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::harness::{bools, from_bools, pack};
use crate::lockstep::SETTLE;

pub mod sp2;

/// Known scenarios.
pub const SCENARIOS: &[&str] = &["benes8-burst", "sp2-contention"];

const N: usize = 8;
const W: usize = 26;
const CYCLES: usize = 80;
const BURST: usize = 6;

/// The scenario's driver: per input a queue of packets, offered until accepted.
struct Burst {
    queue: Vec<Vec<u128>>,
}

impl Burst {
    fn new() -> Self {
        let queue = (0..N)
            .map(|i| {
                (0..BURST)
                    .map(|k| {
                        let dest = if k % 3 == 2 { (i + k) % N } else { (i + k) % 3 };
                        let tag = ((i << 8) | k) as u64;
                        asr_header(3, dest)
                            .expect("valid")
                            .to_u128(2, tag, TAG_BITS)
                            .expect("fits")
                    })
                    .collect()
            })
            .collect();
        Burst { queue }
    }
    fn inputs(&self, n: usize) -> (Vec<bool>, Vec<u128>, Vec<bool>) {
        let valid: Vec<bool> = self.queue.iter().map(|q| !q.is_empty()).collect();
        let data: Vec<u128> = self
            .queue
            .iter()
            .map(|q| q.first().copied().unwrap_or(0))
            .collect();
        let ready = (0..N)
            .map(|p| match p {
                0 => !(8..30).contains(&n),
                1 => (n / 3).is_multiple_of(2),
                _ => true,
            })
            .collect();
        (valid, data, ready)
    }
    fn accept(&mut self, in_ready: &[bool]) {
        for (q, &r) in self.queue.iter_mut().zip(in_ready) {
            if r && !q.is_empty() {
                q.remove(0);
            }
        }
    }
}

/// Writes the scenario's VCD (HDL or model) to `out` and a `.gtkw` beside it; returns the `.gtkw` path.
pub fn write(scenario: &str, out: &Path, model: bool) -> Result<PathBuf> {
    if !SCENARIOS.contains(&scenario) {
        bail!(
            "unknown scenario {scenario:?}; known: {}",
            SCENARIOS.join(", ")
        );
    }
    if let Some(d) = out.parent() {
        if !d.as_os_str().is_empty() {
            std::fs::create_dir_all(d)?;
        }
    }
    let f =
        BufWriter::new(File::create(out).with_context(|| format!("creating {}", out.display()))?);
    let gtkw = out.with_extension("gtkw");
    if scenario == "sp2-contention" {
        if model {
            sp2::write_model(f)?;
        } else {
            sp2::write_hdl(f)?;
        }
        let name = out
            .file_name()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        std::fs::write(&gtkw, sp2::gtkw_text(&name, model))?;
        return Ok(gtkw);
    }
    if model {
        write_model(f)?;
    } else {
        write_hdl(f)?;
    }
    std::fs::write(&gtkw, gtkw_text(out))?;
    Ok(gtkw)
}

fn write_hdl<Wr: Write>(f: Wr) -> Result<()> {
    let mut uut = Benes8::default();
    uut.connect_all();
    simulate(&mut uut, SETTLE);
    let mut vcd = write_vcd_header(f, &uut);
    vcd = write_vcd_dump(vcd, &uut);
    let mut drv = Burst::new();
    for n in 0..CYCLES {
        let (v, d, r) = drv.inputs(n);
        uut.in_valid.next = from_bools(&v);
        uut.in_data.next = pack(&d, W);
        uut.out_ready.next = from_bools(&r);
        uut.clock.next = Clock::from(false);
        assert!(simulate(&mut uut, SETTLE));
        vcd.timestamp(10 * n as u64)?;
        vcd = write_vcd_change(vcd, &uut);
        let in_ready = bools(uut.in_ready.val());
        uut.clock.next = Clock::from(true);
        assert!(simulate(&mut uut, SETTLE));
        vcd.timestamp(10 * n as u64 + 5)?;
        vcd = write_vcd_change(vcd, &uut);
        drv.accept(&in_ready[..N]);
    }
    vcd.timestamp(10 * CYCLES as u64)?;
    Ok(())
}

/// `x` as `w` VCD bits, most significant first.
fn bits_of(x: u128, w: usize) -> Vec<vcd::Value> {
    (0..w)
        .rev()
        .map(|b| {
            if (x >> b) & 1 == 1 {
                vcd::Value::V1
            } else {
                vcd::Value::V0
            }
        })
        .collect()
}

fn bools_of(b: &[bool]) -> Vec<vcd::Value> {
    b.iter()
        .rev()
        .map(|&x| if x { vcd::Value::V1 } else { vcd::Value::V0 })
        .collect()
}

fn write_model<Wr: Write>(f: Wr) -> Result<()> {
    let mut w = vcd::Writer::new(f);
    w.timescale(1, vcd::TimescaleUnit::PS)?;
    w.add_module("uut")?;
    let clock = w.add_wire(1, "clock")?;
    let in_valid = w.add_wire(N as u32, "in_valid")?;
    let in_data = w.add_wire((N * W) as u32, "in_data")?;
    let out_ready = w.add_wire(N as u32, "out_ready")?;
    let in_ready = w.add_wire(N as u32, "in_ready")?;
    let out_valid = w.add_wire(N as u32, "out_valid")?;
    let out_data = w.add_wire((N * W) as u32, "out_data")?;
    // Per switch: the registers, named as in the HDL (`sw$K.<register>.q`).
    let regs = [
        ("ib_full0", 1),
        ("ib_full1", 1),
        ("ib_data0", W),
        ("ib_data1", W),
        ("ob_full0", 1),
        ("ob_full1", 1),
        ("ob_data0", W),
        ("ob_data1", W),
        ("in_ptr", 1),
        ("out_ptr", 1),
    ];
    let mut ids = Vec::new();
    for k in 0..20 {
        w.add_module(&format!("sw${k}"))?;
        let mut v = Vec::new();
        for (r, width) in regs {
            w.add_module(r)?;
            v.push(w.add_wire(width as u32, "q")?);
            w.upscope()?;
        }
        ids.push(v);
        w.upscope()?;
    }
    w.upscope()?;
    w.enddefinitions()?;
    let mut m = Benes::new(N).map_err(anyhow::Error::msg)?;
    let mut drv = Burst::new();
    let dump_state = |w: &mut vcd::Writer<Wr>, m: &Benes| -> Result<()> {
        for (k, v) in ids.iter().enumerate() {
            let s = &m.sw[k / 4][k % 4];
            let vals = [
                s.ib[0].is_some() as u128,
                s.ib[1].is_some() as u128,
                s.ib[0].unwrap_or(0),
                s.ib[1].unwrap_or(0),
                s.ob[0].is_some() as u128,
                s.ob[1].is_some() as u128,
                s.ob[0].unwrap_or(0),
                s.ob[1].unwrap_or(0),
                s.ptr.in_ptr as u128,
                s.ptr.out_ptr as u128,
            ];
            for ((id, val), (_, width)) in v.iter().zip(vals).zip(regs) {
                w.change_vector(*id, bits_of(val, width))?;
            }
        }
        Ok(())
    };
    for n in 0..CYCLES {
        let (v, d, r) = drv.inputs(n);
        let before = m.clone();
        let o = m.step(&v, &d, &r).map_err(|e| anyhow::anyhow!("{e}"))?;
        w.timestamp(10 * n as u64)?;
        w.change_scalar(clock, vcd::Value::V0)?;
        w.change_vector(in_valid, bools_of(&v))?;
        w.change_vector(in_data, bits_of_fields(&d))?;
        w.change_vector(out_ready, bools_of(&r))?;
        w.change_vector(in_ready, bools_of(&o.in_ready))?;
        w.change_vector(out_valid, bools_of(&o.out_valid))?;
        w.change_vector(out_data, bits_of_fields(&o.out_data))?;
        dump_state(&mut w, &before)?;
        w.timestamp(10 * n as u64 + 5)?;
        w.change_scalar(clock, vcd::Value::V1)?;
        dump_state(&mut w, &m)?;
        drv.accept(&o.in_ready);
    }
    w.timestamp(10 * CYCLES as u64)?;
    w.flush()?;
    Ok(())
}

fn bits_of_fields(d: &[u128]) -> Vec<vcd::Value> {
    d.iter().rev().flat_map(|&x| bits_of(x, W)).collect()
}

/// A GTKWave save file for the scenario's VCD: ports, then per stage the switches' buffer valid bits,
/// data (headers in the low bits), and round-robin pointers.
pub fn gtkw_text(vcd: &Path) -> String {
    let name = vcd
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut s = format!("[dumpfile] \"{name}\"\n[timestart] 0\n[size] 1600 1000\n");
    let group = |s: &mut String, title: &str, sigs: &[String]| {
        s.push_str(&format!("@800200\n-{title}\n"));
        for x in sigs {
            s.push_str(x);
            s.push('\n');
        }
        s.push_str(&format!("@1000200\n-{title}\n"));
    };
    let v = |n: &str, w: usize| {
        if w == 1 {
            format!("@28\nuut.{n}")
        } else {
            format!("@22\nuut.{n}[{}:0]", w - 1)
        }
    };
    group(
        &mut s,
        "ports",
        &[
            v("clock", 1),
            v("in_valid", N),
            v("in_ready", N),
            v("in_data", N * W),
            v("out_valid", N),
            v("out_ready", N),
            v("out_data", N * W),
        ],
    );
    for st in 0..5 {
        let mut sigs = Vec::new();
        for i in 0..4 {
            let k = st * 4 + i;
            for r in [
                "ib_full0", "ib_full1", "ob_full0", "ob_full1", "in_ptr", "out_ptr",
            ] {
                sigs.push(v(&format!("sw${k}.{r}.q"), 1));
            }
            for r in ["ib_data0", "ib_data1", "ob_data0", "ob_data1"] {
                sigs.push(v(&format!("sw${k}.{r}.q"), W));
            }
        }
        group(
            &mut s,
            &format!("stage {st}: buffers (valid, header+tag), pointers"),
            &sigs,
        );
    }
    s
}

/// A VCD read back: every variable by its dotted path (`uut.rx$0.st.q`), with its width and changes.
#[derive(Debug, Default)]
pub struct Trace {
    vars: std::collections::HashMap<String, (usize, vcd::IdCode)>,
    changes: std::collections::HashMap<vcd::IdCode, Vec<(u64, String)>>,
}

impl Trace {
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
    let mut tr = Trace::default();
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

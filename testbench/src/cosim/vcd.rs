//! The VCD written on a mismatch: the last cycles before it, port by port, as the design drove them and as
//! the model expected them (scopes `pins`, `design`, `model`, and a `mismatch` flag), whatever the backend.
//! Bits the model leaves undefined ([`super::ports::Frame::care`]) are `x` in `model` and do not set the
//! flag.
//! Cycle n applies its inputs at 10n ns and has its rising clock edge at 10n + 5 ns.

use super::ports::{Layout, Port};
use anyhow::{Context, Result};
use std::collections::VecDeque;
use std::io::{BufWriter, Write};
use std::path::Path;

/// One recorded cycle: its number, pins, expected and actual outputs.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The cycle's number (from 0).
    pub cycle: u64,
    /// The input frame applied to the design.
    pub pins: Vec<u32>,
    /// The output frame the model expected.
    pub expect: Vec<u32>,
    /// Its defined bits.
    pub care: Vec<u32>,
    /// The output frame the design drove.
    pub actual: Vec<u32>,
}

/// The last `cap` cycles.
pub struct Ring {
    cap: usize,
    /// The recorded cycles, oldest first.
    pub cycles: VecDeque<Recorded>,
}

impl Ring {
    /// An empty ring that keeps at most `cap` cycles.
    pub fn new(cap: usize) -> Ring {
        Ring {
            cap,
            cycles: VecDeque::with_capacity(cap + 1),
        }
    }

    /// Records a cycle's frames, dropping the oldest cycle when the ring is full.
    pub fn push(&mut self, cycle: u64, pins: &[u32], expect: &[u32], care: &[u32], actual: &[u32]) {
        let mut r = if self.cycles.len() >= self.cap {
            self.cycles.pop_front().expect("full")
        } else {
            Recorded {
                cycle: 0,
                pins: Vec::new(),
                expect: Vec::new(),
                care: Vec::new(),
                actual: Vec::new(),
            }
        };
        r.cycle = cycle;
        r.pins.clear();
        r.pins.extend_from_slice(pins);
        r.expect.clear();
        r.expect.extend_from_slice(expect);
        r.care.clear();
        r.care.extend_from_slice(care);
        r.actual.clear();
        r.actual.extend_from_slice(actual);
        self.cycles.push_back(r);
    }
}

/// Port `p`'s bits in `words`, most significant first; `x` where `care` (when given) has a 0.
fn bits(words: &[u32], care: Option<&[u32]>, p: &Port) -> Vec<vcd::Value> {
    let bit = |w: &[u32], i: usize| (w[p.offset + i / 32] >> (i % 32)) & 1 == 1;
    (0..p.width)
        .rev()
        .map(|i| {
            if care.is_some_and(|c| !bit(c, i)) {
                vcd::Value::X
            } else if bit(words, i) {
                vcd::Value::V1
            } else {
                vcd::Value::V0
            }
        })
        .collect()
}

/// Writes the recorded cycles of `layout`'s top to `path`.
pub fn write(path: &Path, layout: &Layout, cycles: &VecDeque<Recorded>) -> Result<()> {
    let f = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut w = vcd::Writer::new(BufWriter::new(f));
    w.timescale(1, vcd::TimescaleUnit::NS)?;
    w.add_module(&layout.top)?;
    let clock = w.add_wire(1, "clock")?;
    let flag = w.add_wire(1, "mismatch")?;
    let mut ids = Vec::new();
    for (scope, ports) in [
        ("pins", &layout.inputs),
        ("design", &layout.outputs),
        ("model", &layout.outputs),
    ] {
        w.add_module(scope)?;
        let v: Vec<vcd::IdCode> = ports
            .iter()
            .map(|p| w.add_wire(p.width as u32, &p.name))
            .collect::<std::io::Result<_>>()?;
        ids.push(v);
        w.upscope()?;
    }
    w.upscope()?;
    w.enddefinitions()?;
    for r in cycles {
        w.timestamp(10 * r.cycle)?;
        w.change_scalar(clock, vcd::Value::V0)?;
        w.change_scalar(
            flag,
            if super::ports::same(&r.expect, &r.care, &r.actual) {
                vcd::Value::V0
            } else {
                vcd::Value::V1
            },
        )?;
        for (k, p) in layout.inputs.iter().enumerate() {
            w.change_vector(ids[0][k], bits(&r.pins, None, p))?;
        }
        for (k, p) in layout.outputs.iter().enumerate() {
            w.change_vector(ids[1][k], bits(&r.actual, None, p))?;
            w.change_vector(ids[2][k], bits(&r.expect, Some(&r.care), p))?;
        }
        w.timestamp(10 * r.cycle + 5)?;
        w.change_scalar(clock, vcd::Value::V1)?;
    }
    if let Some(last) = cycles.back() {
        w.timestamp(10 * last.cycle + 10)?;
    }
    w.writer().flush()?;
    Ok(())
}

//! Scenario `benes8-burst`: every input of a `benes8` sends a burst of 6 packets, most to outputs 0–2 (heavy
//! contention), output 0 is blocked in cycles 8–29 and output 1 toggles its `ready` every 3 cycles
//! (backpressure), then the network drains; 80 cycles.
//!
//! The HDL's VCD is rust-hdl's whole hierarchy; the model's has the ports and every switch's registers
//! under the same names (`uut.sw$K.<register>.q`, switch K = stage K/4, switch K%4 in the stage). Both carry
//! every value before the edge (time 10n) and after it (10n+5): the model's outputs after the edge are those
//! of its new state under the cycle's inputs, as the HDL's combinational outputs are; its input buffers'
//! data keep the last word taken, as the HDL's registers do.

use anyhow::Result;
use asr_hdl::benes::Benes8;
use asr_model::benes::{asr_header, Benes, TAG_BITS};
use rust_hdl::prelude::*;
use std::io::Write;

use super::gtkw::{Fmt, Group, Row};
use super::vcd_out::{bits_of, NsTimescale};
use crate::harness::{bools, from_bools, pack};
use crate::lockstep::SETTLE;

/// Ports of the network.
pub const N: usize = 8;
/// Bits of a packet word (header and tag).
pub const W: usize = 26;
/// Cycles of the scenario.
pub const CYCLES: usize = 80;
const BURST: usize = 6;
const STAGES: usize = 5;

/// The registers of each switch, with their widths, as the HDL names them (`sw$K.<name>.q`).
pub const REGS: [(&str, usize); 10] = [
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

/// Writes the HDL's VCD (rust-hdl's whole hierarchy).
pub fn write_hdl<Wr: Write>(f: Wr) -> Result<()> {
    let mut uut = Benes8::default();
    uut.connect_all();
    simulate(&mut uut, SETTLE);
    let mut vcd = write_vcd_header(NsTimescale::new(f), &uut);
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

fn bools_of(b: &[bool]) -> Vec<vcd::Value> {
    b.iter()
        .rev()
        .map(|&x| if x { vcd::Value::V1 } else { vcd::Value::V0 })
        .collect()
}

fn bits_of_fields(d: &[u128]) -> Vec<vcd::Value> {
    d.iter().rev().flat_map(|&x| bits_of(x, W)).collect()
}

/// Writes the model's VCD: the ports and every switch's registers, named as in the HDL.
pub fn write_model<Wr: Write>(f: Wr) -> Result<()> {
    let mut w = vcd::Writer::new(f);
    w.timescale(1, vcd::TimescaleUnit::NS)?;
    w.add_module("uut")?;
    let clock = w.add_wire(1, "clock")?;
    let in_valid = w.add_wire(N as u32, "in_valid")?;
    let in_data = w.add_wire((N * W) as u32, "in_data")?;
    let out_ready = w.add_wire(N as u32, "out_ready")?;
    let in_ready = w.add_wire(N as u32, "in_ready")?;
    let out_valid = w.add_wire(N as u32, "out_valid")?;
    let out_data = w.add_wire((N * W) as u32, "out_data")?;
    let mut ids = Vec::new();
    for k in 0..STAGES * N / 2 {
        w.add_module(&format!("sw${k}"))?;
        let mut v = Vec::new();
        for (r, width) in REGS {
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
    // The HDL's input-buffer data registers keep the last word taken after it moves on (the output
    // buffers' are cleared on delivery): the model's VCD shows the same.
    let mut last_ib = vec![[0u128; 2]; ids.len()];
    let mut dump_state = |w: &mut vcd::Writer<Wr>, m: &Benes| -> Result<()> {
        for (k, v) in ids.iter().enumerate() {
            let s = &m.sw[k / 4][k % 4];
            for (last, ib) in last_ib[k].iter_mut().zip(s.ib) {
                *last = ib.unwrap_or(*last);
            }
            let vals = [
                s.ib[0].is_some() as u128,
                s.ib[1].is_some() as u128,
                last_ib[k][0],
                last_ib[k][1],
                s.ob[0].is_some() as u128,
                s.ob[1].is_some() as u128,
                s.ob[0].unwrap_or(0),
                s.ob[1].unwrap_or(0),
                s.ptr.in_ptr as u128,
                s.ptr.out_ptr as u128,
            ];
            for ((id, val), (_, width)) in v.iter().zip(vals).zip(REGS) {
                w.change_vector(*id, bits_of(val, width))?;
            }
        }
        Ok(())
    };
    let outputs = |w: &mut vcd::Writer<Wr>, o: &asr_model::benes::BenesOutputs| -> Result<()> {
        w.change_vector(in_ready, bools_of(&o.in_ready))?;
        w.change_vector(out_valid, bools_of(&o.out_valid))?;
        w.change_vector(out_data, bits_of_fields(&o.out_data))?;
        Ok(())
    };
    let err = |e: asr_model::switch2::Switch2Error| anyhow::anyhow!("{e}");
    for n in 0..CYCLES {
        let (v, d, r) = drv.inputs(n);
        let before = m.clone();
        let o = m.step(&v, &d, &r).map_err(err)?;
        w.timestamp(10 * n as u64)?;
        w.change_scalar(clock, vcd::Value::V0)?;
        w.change_vector(in_valid, bools_of(&v))?;
        w.change_vector(in_data, bits_of_fields(&d))?;
        w.change_vector(out_ready, bools_of(&r))?;
        outputs(&mut w, &o)?;
        dump_state(&mut w, &before)?;
        w.timestamp(10 * n as u64 + 5)?;
        w.change_scalar(clock, vcd::Value::V1)?;
        // After the edge: the new state's outputs under the same inputs.
        let after = m.clone().step(&v, &d, &r).map_err(err)?;
        outputs(&mut w, &after)?;
        dump_state(&mut w, &m)?;
        drv.accept(&o.in_ready);
    }
    w.timestamp(10 * CYCLES as u64)?;
    w.flush()?;
    Ok(())
}

/// What the `.gtkw` shows: the clock; groups `inputs` and `outputs` with each port's valid, ready and data
/// word (an input word has the header in bits 9–0, 2 bits per stage, and the tag above; an output word is
/// the tag); per stage a group with every switch's buffers (full bit and word, its header shifted by 2 bits
/// per stage passed) and round-robin pointers.
pub fn view() -> Vec<Group> {
    let mut groups = vec![Group::new(
        "clock",
        vec![Row::whole("clock", "clock", 1, Fmt::Bin)],
    )];
    for (side, valid, ready, data) in [
        ("in", "in_valid", "in_ready", "in_data"),
        ("out", "out_valid", "out_ready", "out_data"),
    ] {
        let mut rows = Vec::new();
        for p in 0..N {
            rows.push(Row::part(
                format!("{side}{p}/valid"),
                valid,
                N,
                p,
                1,
                Fmt::Bin,
            ));
            rows.push(Row::part(
                format!("{side}{p}/ready"),
                ready,
                N,
                p,
                1,
                Fmt::Bin,
            ));
            rows.push(Row::part(
                format!("{side}{p}/data"),
                data,
                N * W,
                p * W,
                W,
                Fmt::Hex,
            ));
        }
        groups.push(Group::new(format!("{side}puts"), rows));
    }
    for st in 0..STAGES {
        let mut rows = Vec::new();
        for k in st * 4..st * 4 + 4 {
            for (r, width) in REGS {
                let fmt = if width == 1 { Fmt::Bin } else { Fmt::Hex };
                rows.push(Row::whole(
                    format!("sw{k}/{r}"),
                    format!("sw${k}.{r}.q"),
                    width,
                    fmt,
                ));
            }
        }
        groups.push(Group::new(
            format!("stage {st}: sw{}-sw{}", st * 4, st * 4 + 3),
            rows,
        ));
    }
    groups
}

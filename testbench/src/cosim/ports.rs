//! The port list of an exported top, read from its Verilog, and the flat word frames in which every backend
//! passes port values, and the [`Mismatch`] a backend reports when an output frame differs.
//!
//! A frame holds the values of a port list in declaration order, each port in `ceil(width / 32)` little-endian
//! 32-bit words (Verilator's layout: `CData`/`SData`/`IData` in one word, `QData` in two, `VlWide` in as many as
//! it needs), unused high bits 0. The clock is not part of any frame: a backend drives it.
//!
//! An expected frame may leave bits undefined ([`Frame::put_fields_opt`]: a RAM entry never written since
//! the reset, which a reset cannot restore): its `care` words have those bits 0, and every comparison of a
//! design's outputs with it ([`same`]) skips them. Every other bit is compared.

use anyhow::{bail, Context, Result};
use std::sync::Arc;

/// Direction of a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Driven by the test bench (a `input` declaration).
    Input,
    /// Driven by the design (an `output` declaration).
    Output,
}

/// One port of a top: name, width in bits and its first word in the frame of its direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// The port's name in the Verilog.
    pub name: String,
    /// Width in bits.
    pub width: usize,
    /// Index of the port's first 32-bit word in the frame of its direction.
    pub offset: usize,
}

impl Port {
    /// Number of 32-bit words the port takes in a frame.
    pub fn words(&self) -> usize {
        self.width.div_ceil(32)
    }
}

/// The ports of a top as its Verilog declares them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The Verilog module's name.
    pub top: String,
    /// Whether the top has a `clock` input (every clocked top of this project has exactly one).
    pub clocked: bool,
    /// Input ports other than `clock`, in declaration order, with their offsets in the input frame.
    pub inputs: Vec<Port>,
    /// Output ports in declaration order, with their offsets in the output frame.
    pub outputs: Vec<Port>,
}

impl Layout {
    /// Reads the port declarations of `module top(...)` in `verilog` (rust-hdl's style: the module header
    /// lists the names, then one `input wire [H:0] name;` / `output reg [H:0] name;` per port).
    pub fn from_verilog(top: &str, verilog: &str) -> Result<Layout> {
        let start = verilog
            .find(&format!("module {top}("))
            .with_context(|| format!("no `module {top}(` in the Verilog"))?;
        let body = &verilog[start..];
        let end = body
            .find("endmodule")
            .with_context(|| format!("module {top} has no endmodule"))?;
        let header_end = body
            .find(");")
            .with_context(|| format!("module {top}: unterminated port list"))?;
        let names: Vec<&str> = body[format!("module {top}(").len()..header_end]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let mut decls: Vec<(String, Dir, usize)> = Vec::new();
        for line in body[header_end..end].lines() {
            let t = line.trim();
            let dir = if let Some(r) = t.strip_prefix("input ") {
                (Dir::Input, r)
            } else if let Some(r) = t.strip_prefix("output ") {
                (Dir::Output, r)
            } else {
                continue;
            };
            let rest = dir
                .1
                .trim_start_matches("wire")
                .trim_start_matches("reg")
                .trim_start_matches("logic")
                .trim();
            let rest = rest
                .strip_suffix(';')
                .with_context(|| format!("module {top}: cannot read `{t}`"))?
                .trim();
            let (width, name) = if let Some(r) = rest.strip_prefix('[') {
                let (range, name) = r
                    .split_once(']')
                    .with_context(|| format!("module {top}: cannot read `{t}`"))?;
                let (hi, lo) = range
                    .split_once(':')
                    .with_context(|| format!("module {top}: cannot read the range in `{t}`"))?;
                let hi: usize = hi.trim().parse().with_context(|| format!("`{t}`"))?;
                let lo: usize = lo.trim().parse().with_context(|| format!("`{t}`"))?;
                if lo != 0 || hi < lo {
                    bail!("module {top}: port range [{hi}:{lo}] in `{t}` is not [N-1:0]");
                }
                (hi + 1, name.trim())
            } else {
                (1, rest)
            };
            decls.push((name.to_string(), dir.0, width));
        }
        let mut l = Layout {
            top: top.to_string(),
            clocked: false,
            inputs: Vec::new(),
            outputs: Vec::new(),
        };
        for n in &names {
            let Some((_, dir, width)) = decls.iter().find(|d| d.0 == *n) else {
                bail!("module {top}: port `{n}` has no input/output declaration");
            };
            if *n == "clock" {
                if *dir != Dir::Input || *width != 1 {
                    bail!("module {top}: `clock` must be a 1-bit input");
                }
                l.clocked = true;
                continue;
            }
            let list = match dir {
                Dir::Input => &mut l.inputs,
                Dir::Output => &mut l.outputs,
            };
            let offset = list.last().map_or(0, |p| p.offset + p.words());
            list.push(Port {
                name: n.to_string(),
                width: *width,
                offset,
            });
        }
        if decls.len() != names.len() {
            bail!(
                "module {top}: {} port names but {} declarations",
                names.len(),
                decls.len()
            );
        }
        if l.outputs.is_empty() {
            bail!("module {top} has no outputs");
        }
        Ok(l)
    }

    /// Words of a frame of the inputs.
    pub fn input_words(&self) -> usize {
        self.inputs.last().map_or(0, |p| p.offset + p.words())
    }

    /// Words of a frame of the outputs.
    pub fn output_words(&self) -> usize {
        self.outputs.last().map_or(0, |p| p.offset + p.words())
    }
}

/// Port values of one direction for one cycle, written in declaration order through the `put_*` methods,
/// each of which names the port it writes: a definition that writes ports in another order or width than
/// the Verilog declares is caught at its first cycle.
#[derive(Clone, Debug)]
pub struct Frame {
    ports: Arc<[Port]>,
    /// The frame's 32-bit words (see the module documentation for the layout).
    pub words: Vec<u32>,
    /// Per bit of `words`: 1 where an expected value is defined (compared), 0 where it is left undefined.
    pub care: Vec<u32>,
    next: usize,
}

/// Whether `actual` equals `expect` on every bit `care` marks (the words of one frame, or of as many
/// frames side by side).
pub fn same(expect: &[u32], care: &[u32], actual: &[u32]) -> bool {
    debug_assert!(expect.len() == care.len() && care.len() == actual.len());
    expect
        .iter()
        .zip(care)
        .zip(actual)
        .all(|((e, c), a)| (e ^ a) & c == 0)
}

impl Frame {
    /// An all-zero frame for `ports` (one direction of a [`Layout`]), ready to write its first port.
    pub fn new(ports: &[Port]) -> Frame {
        let n = ports.last().map_or(0, |p| p.offset + p.words());
        Frame {
            ports: ports.into(),
            words: vec![0; n],
            care: vec![!0; n],
            next: 0,
        }
    }

    /// The ports, in order.
    pub fn ports(&self) -> &[Port] {
        &self.ports
    }

    /// Starts writing a new cycle from the first port.
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
        self.care.iter_mut().for_each(|w| *w = !0);
        self.next = 0;
    }

    /// Whether every port has been written since [`Frame::clear`].
    pub fn complete(&self) -> bool {
        self.next == self.ports.len()
    }

    /// The next port's words, after checking that it is `name` of `width` bits.
    fn slot(&mut self, name: &str, width: usize) -> &mut [u32] {
        let p = self
            .ports
            .get(self.next)
            .unwrap_or_else(|| panic!("port `{name}` written after the last port of the frame"));
        assert!(
            p.name == name && p.width == width,
            "port `{name}` ({width} bits) written where the Verilog has `{}` ({} bits)",
            p.name,
            p.width
        );
        self.next += 1;
        let (o, n) = (p.offset, p.words());
        &mut self.words[o..o + n]
    }

    /// Writes `fields` of `w` bits each (field k at bits `[k*w +: w]`) as port `name`.
    pub fn put_fields(&mut self, name: &str, fields: &[u128], w: usize) {
        let s = self.slot(name, fields.len() * w);
        for (k, &f) in fields.iter().enumerate() {
            let mut v = f & crate::harness::mask(w);
            let (mut bit, mut left) = (k * w, w);
            while left > 0 && v != 0 {
                let (i, sh) = (bit / 32, bit % 32);
                s[i] |= (v << sh) as u32;
                let took = (32 - sh).min(left);
                v >>= took;
                bit += took;
                left -= took;
            }
        }
    }

    /// [`Frame::put_fields`] with some fields undefined (`None`: written 0, not compared).
    pub fn put_fields_opt(&mut self, name: &str, fields: &[Option<u128>], w: usize) {
        let values: Vec<u128> = fields.iter().map(|f| f.unwrap_or(0)).collect();
        self.put_fields(name, &values, w);
        let p = self.ports[self.next - 1].clone();
        let care = &mut self.care[p.offset..p.offset + p.words()];
        for (k, _) in fields.iter().enumerate().filter(|(_, f)| f.is_none()) {
            for bit in k * w..(k + 1) * w {
                care[bit / 32] &= !(1 << (bit % 32));
            }
        }
    }

    /// Writes one value of `width` ≤ 64 bits as port `name`.
    pub fn put(&mut self, name: &str, v: u64, width: usize) {
        assert!(width <= 64);
        let v = if width == 64 {
            v
        } else {
            v & ((1 << width) - 1)
        };
        let s = self.slot(name, width);
        s[0] = v as u32;
        if s.len() > 1 {
            s[1] = (v >> 32) as u32;
        }
    }

    /// Writes booleans (bit i = `b[i]`) as port `name`.
    pub fn put_bools(&mut self, name: &str, b: &[bool]) {
        let s = self.slot(name, b.len());
        for (i, &x) in b.iter().enumerate() {
            if x {
                s[i / 32] |= 1 << (i % 32);
            }
        }
    }

    /// Writes bytes (byte k at bits `[8k +: 8]`) as port `name`.
    pub fn put_bytes(&mut self, name: &str, b: &[u8]) {
        let s = self.slot(name, 8 * b.len());
        for (k, &x) in b.iter().enumerate() {
            s[k / 4] |= (x as u32) << (8 * (k % 4));
        }
    }

    /// The value of port `p` as a hexadecimal string of its width (for reports); a digit with an undefined
    /// bit is `x`.
    pub fn hex(&self, p: &Port) -> String {
        let r = p.offset..p.offset + p.words();
        let h = hex(&self.words[r.clone()], p.width);
        let undefined: Vec<u32> = self.care[r]
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let bits = (p.width - 32 * i).min(32);
                !c & if bits == 32 { !0 } else { (1u32 << bits) - 1 }
            })
            .collect();
        let c = hex(&undefined, p.width);
        h.chars()
            .zip(c.chars())
            .map(|(d, u)| if u == '0' { d } else { 'x' })
            .collect()
    }

    /// The bits of port `p`, little-endian.
    pub fn bits(&self, p: &Port) -> Vec<bool> {
        let w = &self.words[p.offset..p.offset + p.words()];
        (0..p.width)
            .map(|i| (w[i / 32] >> (i % 32)) & 1 == 1)
            .collect()
    }
}

/// `words` (little-endian) as `width.div_ceil(4)` hexadecimal digits.
pub fn hex(words: &[u32], width: usize) -> String {
    let digits = width.div_ceil(4).max(1);
    (0..digits)
        .rev()
        .map(|d| {
            let n = (words[d / 8] >> (4 * (d % 8))) & 0xf;
            char::from_digit(n, 16).expect("nibble")
        })
        .collect()
}

/// The first output that differed (in a frame), as every backend reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The cycle (from 0) whose outputs differed.
    pub cycle: u64,
    /// Name of the first output port, in declaration order, that differed.
    pub signal: String,
    /// The value the model drives, as a Verilog literal (`<width>'h<hex>`).
    pub expected: String,
    /// The value the design drove, in the same form.
    pub actual: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cycle {}: `{}` is {} in the design, the model drives {}",
            self.cycle, self.signal, self.actual, self.expected
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: &str = "module t$x(a);\nendmodule\nmodule t(clock,a,b,c,d);\n  // Module arguments\n  input wire  clock;\n  input wire  [7:0] a;\n  input wire  b;\n  output reg  [99:0] c;\n  output wire  [32:0] d;\n  reg [3:0] e;\nendmodule\n";

    #[test]
    fn layout_of_a_module() {
        let l = Layout::from_verilog("t", V).unwrap();
        assert!(l.clocked);
        let n: Vec<(&str, usize, usize)> = l
            .inputs
            .iter()
            .chain(&l.outputs)
            .map(|p| (p.name.as_str(), p.width, p.offset))
            .collect();
        assert_eq!(n, [("a", 8, 0), ("b", 1, 1), ("c", 100, 0), ("d", 33, 4)]);
        assert_eq!((l.input_words(), l.output_words()), (2, 6));
        assert!(Layout::from_verilog("u", V).is_err());
    }

    #[test]
    fn frames_check_names_and_pack_values() {
        let l = Layout::from_verilog("t", V).unwrap();
        let mut f = Frame::new(&l.outputs);
        f.put_fields("c", &[0x1234_5678_9abc, 0xf], 50);
        f.put("d", 0x1_0000_0001, 33);
        assert!(f.complete());
        assert_eq!(f.words, [0x5678_9abc, 0x1234 | 0xf << 18, 0, 0, 1, 1]);
        assert_eq!(f.hex(&l.outputs[1]), "100000001");
        let mut g = Frame::new(&l.inputs);
        let r = std::panic::catch_unwind(move || g.put("b", 1, 1));
        assert!(r.is_err(), "writing b where a is declared must fail");
    }

    /// Undefined fields: written 0, their bits out of `care`, skipped by [`same`], shown as `x`; a defined
    /// bit that differs is still a difference, and `clear` makes every bit defined again.
    #[test]
    fn undefined_fields_are_not_compared() {
        let l = Layout::from_verilog("t", V).unwrap();
        let mut f = Frame::new(&l.outputs);
        f.put_fields_opt("c", &[Some(0x3), None], 50);
        f.put("d", 5, 33);
        assert_eq!(f.words[..4], [3, 0, 0, 0]);
        // Field 1 is bits 50..99: word 1 from bit 18, words 2 and 3 (bits 64..99).
        assert_eq!(f.care[..4], [!0, (1 << 18) - 1, 0, !0 << 4]);
        assert_eq!(f.care[4..], [!0, !0]);
        let mut actual = f.words.clone();
        actual[2] = 0xdead_beef; // undefined bits of c
        actual[1] |= 1 << 20;
        assert!(same(&f.words, &f.care, &actual));
        actual[0] ^= 1; // a defined bit of c
        assert!(!same(&f.words, &f.care, &actual));
        assert_eq!(
            f.hex(&l.outputs[0]),
            format!("{}{}", "x".repeat(13), "000000000003")
        );
        f.clear();
        assert!(f.care.iter().all(|&c| c == !0));
    }
}

//! The independent-simulator check: runs an exported Verilog top in Icarus Verilog (`iverilog -g2012` +
//! `vvp`) on vectors recorded from the model and counts mismatches.
//!
//! A vector file (`$readmemh`, one line per cycle or per combinational vector: inputs then expected outputs,
//! first field most significant) and a generated Verilog testbench that applies the inputs, waits, compares
//! every output with `!==` (so X or Z counts as a mismatch), and for clocked tops then pulses `clock`. The
//! testbench prints `VECTORS <n> MISMATCHES <m>`; [`run`] parses it. A missing `iverilog` is an error.

use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// A port of the top: name and width in bits.
#[derive(Clone, Debug)]
pub struct Port {
    pub name: String,
    pub width: usize,
}

impl Port {
    pub fn new(name: &str, width: usize) -> Self {
        Port {
            name: name.into(),
            width,
        }
    }
}

/// A field value as little-endian bits.
pub type Value = Vec<bool>;

/// `v` as `width` little-endian bits.
pub fn value(v: u128, width: usize) -> Value {
    (0..width).map(|b| b < 128 && (v >> b) & 1 == 1).collect()
}

/// Fields of `w` bits (little-endian field order, field k at bits `[k*w +: w]`) as one value.
pub fn value_of_fields(fields: &[u128], w: usize) -> Value {
    fields.iter().flat_map(|&f| value(f, w)).collect()
}

/// Bools as a value (bit i = `b[i]`).
pub fn value_of_bools(b: &[bool]) -> Value {
    b.to_vec()
}

/// The valid/ready ports of docs/contracts.md's networks (`switch2`, `benes{N}`) with `n` ports of `w`-bit words:
/// (inputs, outputs) in the order [`stream_vector`] fills them.
pub fn stream_ports(n: usize, w: usize) -> (Vec<Port>, Vec<Port>) {
    (
        vec![
            Port::new("in_valid", n),
            Port::new("in_data", n * w),
            Port::new("out_ready", n),
        ],
        vec![
            Port::new("in_ready", n),
            Port::new("out_valid", n),
            Port::new("out_data", n * w),
        ],
    )
}

/// One cycle on the [`stream_ports`]: the inputs applied and the outputs the model drove.
pub fn stream_vector(
    in_valid: &[bool],
    in_data: &[u128],
    out_ready: &[bool],
    in_ready: &[bool],
    out_valid: &[bool],
    out_data: &[u128],
    w: usize,
) -> Vector {
    Vector {
        inputs: vec![
            value_of_bools(in_valid),
            value_of_fields(in_data, w),
            value_of_bools(out_ready),
        ],
        outputs: vec![
            value_of_bools(in_ready),
            value_of_bools(out_valid),
            value_of_fields(out_data, w),
        ],
    }
}

/// The SP2 link bundle of `n` ports (docs/sp2-switch.md §3) as the three port names `{prefix}valid`,
/// `{prefix}data`, `{token}`: valid bits, bytes, tokens (`sp2_switch`: `link_in_`/`token_in`, `link_out_`/
/// `token_out`; `sp2_board`: `node_in_`/`node_token_in`, `node_out_`/`node_token_out`).
pub fn sp2_link_ports(prefix: &str, token: &str, n: usize) -> Vec<Port> {
    vec![
        Port::new(&format!("{prefix}valid"), n),
        Port::new(&format!("{prefix}data"), 8 * n),
        Port::new(token, n),
    ]
}

/// One cycle of an SP2 link bundle in [`sp2_link_ports`] order: valid bits, bytes (0 when not valid), tokens.
pub fn sp2_link_values(link: &[Option<u8>], token: &[bool]) -> Vec<Value> {
    let valid: Vec<bool> = link.iter().map(|b| b.is_some()).collect();
    let data: Vec<u128> = link.iter().map(|b| b.unwrap_or(0) as u128).collect();
    vec![
        value_of_bools(&valid),
        value_of_fields(&data, 8),
        value_of_bools(token),
    ]
}

/// One vector: input values then expected output values, in port order.
#[derive(Clone, Debug)]
pub struct Vector {
    pub inputs: Vec<Value>,
    pub outputs: Vec<Value>,
}

/// What Icarus reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    pub vectors: usize,
    pub mismatches: usize,
}

impl Report {
    /// Asserts that the run compared `vectors` vectors with no mismatch, and says so on stderr.
    pub fn assert_clean(&self, name: &str, seed: u64, vectors: usize) {
        assert_eq!(
            self.vectors, vectors,
            "{name}: Icarus compared {} of {vectors} vectors",
            self.vectors
        );
        assert_eq!(
            self.mismatches, 0,
            "{name}: Icarus disagrees with the model (ASR_SEED={seed:#x})"
        );
        eprintln!("{name}: {} Icarus cycles, 0 mismatches", self.vectors);
    }
}

fn hex_line(fields: &[&Value], total: usize) -> String {
    // Concatenate MSB-first: the first field is the most significant.
    let mut bits: Vec<bool> = Vec::with_capacity(total);
    for f in fields.iter().rev() {
        bits.extend(f.iter().copied());
    }
    let digits = total.div_ceil(4);
    bits.resize(digits * 4, false);
    (0..digits)
        .rev()
        .map(|d| {
            let n = (0..4).fold(0u32, |a, b| a | ((bits[d * 4 + b] as u32) << b));
            char::from_digit(n, 16).expect("nibble")
        })
        .collect()
}

/// The generated testbench module `tb` for `top`.
pub fn testbench(
    top: &str,
    inputs: &[Port],
    outputs: &[Port],
    count: usize,
    clocked: bool,
) -> String {
    let total: usize = inputs.iter().chain(outputs).map(|p| p.width).sum();
    let mut v = String::new();
    writeln!(v, "`timescale 1ns/1ps\nmodule tb;").unwrap();
    writeln!(v, "  reg [{}:0] mem [0:{}];", total - 1, count - 1).unwrap();
    if clocked {
        writeln!(v, "  reg clock;").unwrap();
    }
    for p in inputs {
        writeln!(v, "  reg [{}:0] {};", p.width - 1, p.name).unwrap();
    }
    for p in outputs {
        writeln!(v, "  wire [{}:0] {};", p.width - 1, p.name).unwrap();
        writeln!(v, "  reg [{}:0] exp_{};", p.width - 1, p.name).unwrap();
    }
    writeln!(v, "  integer i, errors;").unwrap();
    let conns: Vec<String> = (clocked.then(|| ".clock(clock)".to_string()).into_iter())
        .chain(
            inputs
                .iter()
                .chain(outputs)
                .map(|p| format!(".{0}({0})", p.name)),
        )
        .collect();
    writeln!(v, "  {top} dut({});", conns.join(", ")).unwrap();
    let fields: Vec<String> = inputs
        .iter()
        .map(|p| p.name.clone())
        .chain(outputs.iter().map(|p| format!("exp_{}", p.name)))
        .collect();
    let cmp: Vec<String> = outputs
        .iter()
        .map(|p| format!("({0} !== exp_{0})", p.name))
        .collect();
    writeln!(v, "  initial begin").unwrap();
    writeln!(v, "    $readmemh(\"vectors.hex\", mem);").unwrap();
    writeln!(v, "    errors = 0;").unwrap();
    if clocked {
        writeln!(v, "    clock = 0;").unwrap();
    }
    writeln!(v, "    for (i = 0; i < {count}; i = i + 1) begin").unwrap();
    writeln!(v, "      {{{}}} = mem[i];", fields.join(", ")).unwrap();
    writeln!(v, "      #1;").unwrap();
    writeln!(v, "      if ({}) begin", cmp.join(" || ")).unwrap();
    writeln!(v, "        errors = errors + 1;").unwrap();
    let shows: Vec<String> = outputs
        .iter()
        .map(|p| format!("{0}=%h exp_{0}=%h", p.name))
        .collect();
    let args: Vec<String> = outputs
        .iter()
        .map(|p| format!("{0}, exp_{0}", p.name))
        .collect();
    writeln!(
        v,
        "        if (errors <= 5) $display(\"MISMATCH at %0d: {}\", i, {});",
        shows.join(" "),
        args.join(", ")
    )
    .unwrap();
    writeln!(v, "      end").unwrap();
    if clocked {
        writeln!(v, "      clock = 1; #1; clock = 0; #1;").unwrap();
    }
    writeln!(v, "    end").unwrap();
    writeln!(
        v,
        "    $display(\"VECTORS %0d MISMATCHES %0d\", {count}, errors);"
    )
    .unwrap();
    writeln!(v, "    $finish;\n  end\nendmodule").unwrap();
    v
}

/// Writes `top`'s Verilog, the vectors and the testbench into a fresh folder, runs Icarus, and returns the
/// report. Fails if `iverilog`/`vvp` cannot be run or the output has no report line.
pub fn run(
    top: &str,
    verilog: &str,
    inputs: &[Port],
    outputs: &[Port],
    vectors: &[Vector],
    clocked: bool,
) -> Result<Report> {
    assert!(!vectors.is_empty());
    let total: usize = inputs.iter().chain(outputs).map(|p| p.width).sum();
    let dir: PathBuf =
        std::env::temp_dir().join(format!("asr-icarus-{top}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let mut hex = String::with_capacity(vectors.len() * (total / 4 + 2));
    for vec in vectors {
        assert_eq!(vec.inputs.len(), inputs.len());
        assert_eq!(vec.outputs.len(), outputs.len());
        for (val, p) in vec
            .inputs
            .iter()
            .zip(inputs)
            .chain(vec.outputs.iter().zip(outputs))
        {
            assert_eq!(val.len(), p.width, "value width of port {}", p.name);
        }
        let fields: Vec<&Value> = vec.inputs.iter().chain(vec.outputs.iter()).collect();
        hex.push_str(&hex_line(&fields, total));
        hex.push('\n');
    }
    std::fs::write(dir.join("vectors.hex"), hex)?;
    std::fs::write(dir.join(format!("{top}.v")), verilog)?;
    std::fs::write(
        dir.join("tb.v"),
        testbench(top, inputs, outputs, vectors.len(), clocked),
    )?;
    let out = Command::new("iverilog")
        .current_dir(&dir)
        .args(["-g2012", "-o", "tb.vvp", "tb.v", &format!("{top}.v")])
        .output()
        .context("running iverilog (is Icarus Verilog installed? `apt-get install iverilog`)")?;
    if !out.status.success() {
        bail!(
            "iverilog failed on {top}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = Command::new("vvp")
        .current_dir(&dir)
        .arg("tb.vvp")
        .output()
        .context("running vvp")?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let line = text
        .lines()
        .find(|l| l.starts_with("VECTORS "))
        .with_context(|| format!("no report from vvp for {top}: {text}"))?;
    let w: Vec<&str> = line.split_whitespace().collect();
    let report = Report {
        vectors: w[1].parse()?,
        mismatches: w[3].parse()?,
    };
    if report.mismatches != 0 {
        eprintln!(
            "{top}: Icarus output:\n{text}\n(files kept in {})",
            dir.display()
        );
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(report)
}

//! The independent-simulator check: runs an exported top in Icarus Verilog (`iverilog -g2012` + `vvp`) on
//! frames recorded from the model ([`crate::cosim`]) and reports the first mismatch.
//!
//! A vector file (`$readmemh`, one line per cycle: inputs then expected outputs, first field most significant)
//! and a generated test bench that applies the inputs, waits, compares every output with `!==` (so an X or Z
//! from the design is a mismatch; an output with bits the model leaves undefined in some frame,
//! [`super::ports::Frame::care`], has a `care_` field after the expected values, and only its defined bits
//! are compared), counts vectors with X or Z in an expected value, and for clocked tops then
//! pulses `clock`. The loop runs until the first vector the file did not fill, so the count of applied vectors
//! it prints (`APPLIED n XZ k`) is measured inside the simulation, not written into it. A missing `iverilog`
//! is an error. The test bench prints `CYCLE n` every [`PROGRESS_EVERY`] vectors; a run that prints nothing for
//! [`STALL`] is stopped and reported with the last cycle it reached (a design whose `always` blocks wake each
//! other forever within one time step stops Icarus's clock without ending the process).

use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// Vectors between two progress lines of the test bench.
pub const PROGRESS_EVERY: usize = 256;

/// How long a `vvp` run may print nothing before it is stopped as stalled.
pub const STALL: std::time::Duration = std::time::Duration::from_secs(300);

/// A field value as little-endian bits.
type Value = Vec<bool>;

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

/// What Icarus did with a run of frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FramesReport {
    /// Vectors applied, counted inside the Verilog loop (which runs until the first line of the vector file
    /// that was not loaded, so a short or unreadable file shows as fewer vectors).
    pub applied: u64,
    /// The first mismatch (the run stops there); an X or Z in a design output is a mismatch.
    pub first: Option<super::ports::Mismatch>,
    /// Vectors with an X or Z in an expected value (an error of the vector file).
    pub xz_expected: u64,
}

/// The generated test bench of [`run_frames`]: `count` vectors in `vectors.hex`, one line per cycle with the
/// input ports then the expected output ports (first field most significant). Inputs change one time unit
/// after the falling clock edge, outputs are compared one unit later, then the clock rises. With `dump`, the
/// whole test bench is dumped to the file from the vector of that index on.
/// `masked[k]`: output k has a `care_` field.
pub fn frames_testbench(
    layout: &super::ports::Layout,
    count: usize,
    masked: &[bool],
    dump: Option<(u64, &std::path::Path)>,
) -> String {
    let (ins, outs) = (&layout.inputs, &layout.outputs);
    let total: usize = ins.iter().chain(outs).map(|p| p.width).sum::<usize>()
        + outs
            .iter()
            .zip(masked)
            .filter(|(_, &m)| m)
            .map(|(p, _)| p.width)
            .sum::<usize>();
    let mut v = String::new();
    let top = &layout.top;
    writeln!(v, "`timescale 1ns/1ps\nmodule tb;").unwrap();
    // One entry more than the file has: it stays X and ends the loop.
    writeln!(v, "  reg [{}:0] mem [0:{count}];", total - 1).unwrap();
    writeln!(v, "  reg clock;").unwrap();
    for p in ins {
        writeln!(v, "  reg [{}:0] {};", p.width - 1, p.name).unwrap();
    }
    for (p, &m) in outs.iter().zip(masked) {
        writeln!(v, "  wire [{}:0] {};", p.width - 1, p.name).unwrap();
        writeln!(v, "  reg [{}:0] exp_{};", p.width - 1, p.name).unwrap();
        if m {
            writeln!(v, "  reg [{}:0] care_{};", p.width - 1, p.name).unwrap();
        }
    }
    writeln!(v, "  integer i, applied, xz, bad;").unwrap();
    let conns: Vec<String> = (layout
        .clocked
        .then(|| ".clock(clock)".to_string())
        .into_iter())
    .chain(ins.iter().chain(outs).map(|p| format!(".{0}({0})", p.name)))
    .collect();
    writeln!(v, "  {top} dut({});", conns.join(", ")).unwrap();
    let fields: Vec<String> = ins
        .iter()
        .map(|p| p.name.clone())
        .chain(outs.iter().map(|p| format!("exp_{}", p.name)))
        .chain(
            outs.iter()
                .zip(masked)
                .filter(|(_, &m)| m)
                .map(|(p, _)| format!("care_{}", p.name)),
        )
        .collect();
    writeln!(v, "  initial begin").unwrap();
    writeln!(v, "    $readmemh(\"vectors.hex\", mem);").unwrap();
    writeln!(v, "    applied = 0; xz = 0; bad = 0; clock = 0;").unwrap();
    writeln!(
        v,
        "    for (i = 0; bad == 0 && (^mem[i] !== 1'bx); i = i + 1) begin"
    )
    .unwrap();
    if let Some((from, path)) = dump {
        writeln!(
            v,
            "      if (i == {from}) begin $dumpfile(\"{}\"); $dumpvars(0, tb); end",
            path.display()
        )
        .unwrap();
    }
    writeln!(
        v,
        "      if (i % {PROGRESS_EVERY} == 0) begin $display(\"CYCLE %0d\", i); $fflush; end"
    )
    .unwrap();
    writeln!(v, "      {{{}}} = mem[i];", fields.join(", ")).unwrap();
    writeln!(v, "      #1;").unwrap();
    let xz: Vec<String> = outs
        .iter()
        .map(|p| format!("((^exp_{}) === 1'bx)", p.name))
        .collect();
    writeln!(v, "      if ({}) xz = xz + 1;", xz.join(" || ")).unwrap();
    for (k, (p, &m)) in outs.iter().zip(masked).enumerate() {
        let e = if k == 0 { "" } else { "else " };
        let differs = if m {
            format!("((({0} ^ exp_{0}) & care_{0}) !== 0)", p.name)
        } else {
            format!("({0} !== exp_{0})", p.name)
        };
        writeln!(
            v,
            "      {e}if {differs} begin bad = 1; $display(\"MISMATCH %0d {0} %h %h\", i, {0}, exp_{0}); end",
            p.name
        )
        .unwrap();
    }
    writeln!(v, "      applied = applied + 1;").unwrap();
    if layout.clocked {
        writeln!(v, "      clock = 1; #1; clock = 0; #1;").unwrap();
    }
    writeln!(v, "    end").unwrap();
    writeln!(v, "    $display(\"APPLIED %0d XZ %0d\", applied, xz);").unwrap();
    writeln!(v, "    $finish;\n  end\nendmodule").unwrap();
    v
}

/// Runs `verilog` in Icarus on frames (`pins` and `expect`, one frame per cycle as
/// [`super::ports::Layout`] lays them out, `care` the expected frames' defined bits or empty when all
/// are); stops at the first mismatch. A missing `iverilog` is an error.
pub fn run_frames(
    layout: &super::ports::Layout,
    verilog: &str,
    pins: &[u32],
    expect: &[u32],
    care: &[u32],
    dump: Option<(u64, &std::path::Path)>,
) -> Result<FramesReport> {
    run_frames_stall(layout, verilog, pins, expect, care, dump, STALL)
}

/// [`run_frames`] with the time `vvp` may print nothing before it is stopped as stalled.
pub fn run_frames_stall(
    layout: &super::ports::Layout,
    verilog: &str,
    pins: &[u32],
    expect: &[u32],
    care: &[u32],
    dump: Option<(u64, &std::path::Path)>,
    stall: std::time::Duration,
) -> Result<FramesReport> {
    let (iw, ow) = (layout.input_words(), layout.output_words());
    let count = expect.len() / ow;
    if count == 0 || pins.len() != count * iw || !(care.is_empty() || care.len() == expect.len()) {
        bail!(
            "{}: {count} expected frames, {} input words, {} care words",
            layout.top,
            pins.len(),
            care.len()
        );
    }
    let top = &layout.top;
    // The bits undefined in some frame (the complement of `care`, ORed over the frames).
    let mut undefined = vec![0u32; ow];
    for f in care.chunks(ow) {
        undefined.iter_mut().zip(f).for_each(|(u, c)| *u |= !c);
    }
    let masked: Vec<bool> = layout
        .outputs
        .iter()
        .map(|p| frame_bits(&undefined, p).contains(&true))
        .collect();
    let total: usize = layout
        .inputs
        .iter()
        .chain(&layout.outputs)
        .map(|p| p.width)
        .sum::<usize>()
        + layout
            .outputs
            .iter()
            .zip(&masked)
            .filter(|(_, &m)| m)
            .map(|(p, _)| p.width)
            .sum::<usize>();
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "asr-icarus-{top}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir)?;
    let mut hex = String::with_capacity(count * (total / 4 + 2));
    for c in 0..count {
        let p = &pins[c * iw..(c + 1) * iw];
        let e = &expect[c * ow..(c + 1) * ow];
        let fields: Vec<Value> = layout
            .inputs
            .iter()
            .map(|x| frame_bits(p, x))
            .chain(layout.outputs.iter().map(|x| frame_bits(e, x)))
            .chain(
                layout
                    .outputs
                    .iter()
                    .zip(&masked)
                    .filter(|(_, &m)| m)
                    .map(|(x, _)| frame_bits(&care[c * ow..(c + 1) * ow], x)),
            )
            .collect();
        let refs: Vec<&Value> = fields.iter().collect();
        hex.push_str(&hex_line(&refs, total));
        hex.push('\n');
    }
    std::fs::write(dir.join("vectors.hex"), hex)?;
    std::fs::write(dir.join(format!("{top}.v")), verilog)?;
    let dump_abs = match dump {
        Some((from, path)) => Some((from, std::path::absolute(path)?)),
        None => None,
    };
    std::fs::write(
        dir.join("tb.v"),
        frames_testbench(
            layout,
            count,
            &masked,
            dump_abs.as_ref().map(|(f, p)| (*f, p.as_path())),
        ),
    )?;
    let out = Command::new("iverilog")
        .current_dir(&dir)
        .args(["-g2012", "-o", "tb.vvp", "tb.v", &format!("{top}.v")])
        .output()
        .context("running iverilog (is Icarus Verilog installed? `apt-get install iverilog` or scripts/setup.sh)")?;
    if !out.status.success() {
        bail!(
            "iverilog failed on {top}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = run_vvp(&dir, top, stall)?;
    let line = text
        .lines()
        .find(|l| l.starts_with("APPLIED "))
        .with_context(|| {
            format!(
                "no report from vvp for {top} (files kept in {}): {text}",
                dir.display()
            )
        })?;
    let w: Vec<&str> = line.split_whitespace().collect();
    let mut r = FramesReport {
        applied: w[1].parse()?,
        first: None,
        xz_expected: w[3].parse()?,
    };
    if let Some(m) = text.lines().find(|l| l.starts_with("MISMATCH ")) {
        let w: Vec<&str> = m.split_whitespace().collect();
        let port = layout
            .outputs
            .iter()
            .find(|p| p.name == w[2])
            .context("mismatch port")?;
        r.first = Some(super::ports::Mismatch {
            cycle: w[1].parse()?,
            signal: w[2].to_string(),
            expected: format!("{}'h{}", port.width, w[4]),
            actual: format!("{}'h{}", port.width, w[3]),
        });
        eprintln!(
            "{top}: Icarus output:\n{text}\n(files kept in {})",
            dir.display()
        );
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(r)
}

/// Runs `tb.vvp` in `dir` and returns what it printed but its progress lines; an error if it prints nothing for `stall` (the
/// process is killed, the files kept) or cannot be started.
pub fn run_vvp(dir: &std::path::Path, top: &str, stall: std::time::Duration) -> Result<String> {
    use std::io::BufRead;
    let mut child = Command::new("vvp")
        .current_dir(dir)
        .arg("tb.vvp")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .context("running vvp (is Icarus Verilog installed? scripts/setup.sh)")?;
    let stdout = child.stdout.take().context("vvp's output")?;
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut text = String::new();
    let mut last_cycle = None;
    loop {
        match rx.recv_timeout(stall) {
            Ok(line) => {
                // Progress lines are kept out of the text (it is printed on a mismatch).
                if let Some(n) = line.strip_prefix("CYCLE ") {
                    last_cycle = Some(n.to_string());
                    continue;
                }
                text.push_str(&line);
                text.push('\n');
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                let _ = child.wait();
                bail!(
                    "Icarus made no progress on {top} for {} s after cycle {} (a zero-delay loop: `always` \
                     blocks that wake each other within one time step?); stopped, files kept in {}",
                    stall.as_secs(),
                    last_cycle.as_deref().unwrap_or("0 (none reached)"),
                    dir.display()
                );
            }
        }
    }
    let _ = reader.join();
    let status = child.wait().context("waiting for vvp")?;
    if !status.success() {
        bail!(
            "vvp failed on {top} ({status}), files kept in {}: {text}",
            dir.display()
        );
    }
    Ok(text)
}

/// The bits of port `p` in a frame.
fn frame_bits(words: &[u32], p: &super::ports::Port) -> Value {
    (0..p.width)
        .map(|i| (words[p.offset + i / 32] >> (i % 32)) & 1 == 1)
        .collect()
}

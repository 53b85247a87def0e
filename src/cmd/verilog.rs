//! `asr verilog --out DIR`: writes one Verilog file per exported top of the table of tops
//! (`asr_testbench::tops`; `DIR/<top>.v`, module named as the file): a header comment listing the ports
//! (meaning, width, packing), latency and reset behaviour, and module names without `$` (docs/verilog.md).
//! `--reset` adds a synchronous reset input to every top that holds a register. `--list` prints the table
//! (name and where `scripts/synth.sh` synthesises the top) instead.

use anyhow::{Context, Result};
use rayon::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Output folder (created if missing).
    #[arg(long, default_value = "out/verilog")]
    pub out: PathBuf,
    /// Only these tops (default: every top; `--list` names them).
    #[arg(long)]
    pub top: Vec<String>,
    /// Give every top that holds a register a synchronous, active-high `reset` input (docs/verilog.md,
    /// "Clock and reset"); the synthesis results in the README are for the export without it.
    #[arg(long)]
    pub reset: bool,
    /// Print the exported tops, one per line: the name and where `scripts/synth.sh` synthesises it
    /// (`fits`: by default, placed on every target; `counts-on-ice40`: by default, Yosys counts only on the
    /// iCE40 HX8K; `on-request`: only when named). Writes no file.
    #[arg(long, conflicts_with_all = ["top", "reset"])]
    pub list: bool,
}

/// Writes the Verilog of `tops` (all when empty) into `out`; returns the files written.
pub fn export(out: &Path, tops: &[String]) -> Result<Vec<PathBuf>> {
    export_with(out, tops, false)
}

/// [`export`], with the reset input on every top that holds a register when `reset`.
pub fn export_with(out: &Path, tops: &[String], reset: bool) -> Result<Vec<PathBuf>> {
    let defs = if tops.is_empty() {
        asr_testbench::tops::TOPS.iter().collect::<Vec<_>>()
    } else {
        let mut defs = Vec::new();
        for t in tops {
            let Ok(def) = asr_testbench::tops::find(t) else {
                anyhow::bail!(
                    "--top {t}: unknown top; known tops: {}",
                    asr_testbench::tops::names().collect::<Vec<_>>().join(", ")
                );
            };
            defs.push(def);
        }
        defs
    };
    super::check::out_dir("--out", out)?;
    // The tops are generated side by side (rust-hdl's generator is single-threaded per top); the files
    // and the messages come out in table order.
    let made: Vec<(String, String, Option<String>)> = defs
        .par_iter()
        .map(|def| {
            if reset {
                let (v, refused) = def.user_verilog_with_reset();
                (def.name.to_string(), v, refused.map(|w| w.to_string()))
            } else {
                (def.name.to_string(), def.user_verilog(), None)
            }
        })
        .collect();
    let mut files = Vec::new();
    for (name, v, refused) in made {
        if let Some(why) = refused {
            eprintln!("asr verilog --reset: {name} has no reset input: {why}");
        }
        let f = out.join(format!("{name}.v"));
        fs::write(&f, v).with_context(|| format!("writing {}", f.display()))?;
        files.push(f);
    }
    Ok(files)
}

/// The lines of `asr verilog --list`: `<top> <synth>` for every top, in table order.
pub fn list() -> String {
    asr_testbench::tops::TOPS
        .iter()
        .map(|t| format!("{} {}\n", t.name, t.synth.as_str()))
        .collect()
}

pub fn run(a: Args) -> Result<()> {
    if a.list {
        print!("{}", list());
        return Ok(());
    }
    for f in export_with(&a.out, &a.top, a.reset)? {
        eprintln!("wrote {}", f.display());
    }
    Ok(())
}

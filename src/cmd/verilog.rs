//! `asr verilog --out DIR`: writes one Verilog file per exported top (`DIR/<top>.v`, module named as the
//! file), from `asr_hdl::export::user_verilog_of`: a header comment listing the ports (meaning, width,
//! packing), latency and reset behaviour, and module names without `$` (docs/verilog.md). `--reset` adds a
//! synchronous reset input to every top that holds a register (`asr_hdl::export::user_verilog_with_reset`).

use anyhow::{bail, Context, Result};
use std::fs;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Output folder (created if missing).
    #[arg(long, default_value = "out/verilog")]
    pub out: PathBuf,
    /// Only these tops (default: all of `asr_hdl::export::TOPS`).
    #[arg(long)]
    pub top: Vec<String>,
    /// Give every top that holds a register a synchronous, active-high `reset` input (docs/verilog.md,
    /// "Clock and reset"); the synthesis results in the README are for the export without it.
    #[arg(long)]
    pub reset: bool,
}

/// Writes the Verilog of `tops` (all when empty) into `out`; returns the files written.
pub fn export(out: &Path, tops: &[String]) -> Result<Vec<PathBuf>> {
    export_with(out, tops, false)
}

/// [`export`], with the reset input on every top that holds a register when `reset`.
pub fn export_with(out: &Path, tops: &[String], reset: bool) -> Result<Vec<PathBuf>> {
    if let Some(bad) = tops
        .iter()
        .find(|t| !asr_hdl::export::TOPS.contains(&t.as_str()))
    {
        bail!(
            "--top {bad}: unknown top; known tops: {}",
            asr_hdl::export::TOPS.join(", ")
        );
    }
    super::check::out_dir("--out", out)?;
    let names: Vec<String> = if tops.is_empty() {
        asr_hdl::export::TOPS
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        tops.to_vec()
    };
    let mut files = Vec::new();
    for name in &names {
        let v = if reset {
            asr_hdl::export::user_verilog_with_reset(name).map(|(v, refused)| {
                if let Some(why) = refused {
                    eprintln!("asr verilog --reset: {name} has no reset input: {why}");
                }
                v
            })
        } else {
            asr_hdl::export::user_verilog_of(name)
        };
        let Some(v) = v else {
            bail!(
                "unknown top {name:?}; known tops: {}",
                asr_hdl::export::TOPS.join(", ")
            );
        };
        let f = out.join(format!("{name}.v"));
        fs::write(&f, v).with_context(|| format!("writing {}", f.display()))?;
        files.push(f);
    }
    Ok(files)
}

pub fn run(a: Args) -> Result<()> {
    for f in export_with(&a.out, &a.top, a.reset)? {
        eprintln!("wrote {}", f.display());
    }
    Ok(())
}

//! `asr topology NAME --out FILE`: writes a built-in topology as a topology file (docs/contracts.md format).

use anyhow::{Context, Result};
use asr_model::topology::{builtin, parse::parse_file, write, Topology};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Built-in topology: sp2:N (16,32,48,64,80,128,256,512), sp2even:64, benes:N, fly:K:N (or fly:K,N),
    /// mesh:KxK, torus:KxK, hypercube:D.
    pub name: String,
    /// Output file (stdout if omitted).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// A topology from a file path if it exists, else from a built-in name.
pub fn load(spec: &str) -> Result<Topology> {
    let p = Path::new(spec);
    if p.is_file() {
        return parse_file(p).map_err(|e| anyhow::anyhow!("{e}"));
    }
    builtin(spec)
        .with_context(|| format!("`{spec}` is neither a readable file nor a built-in topology"))
}

pub fn run(a: Args) -> Result<()> {
    if let Some(p) = &a.out {
        super::check::out_file("--out", p)?;
    }
    let t = builtin(&a.name)?;
    let text = write(&t);
    match a.out {
        Some(p) => {
            std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))?;
            eprintln!(
                "{}: {} elements, {} processors, {} channels",
                p.display(),
                t.len(),
                t.nodes().len(),
                t.channels().len()
            );
        }
        None => print!("{text}"),
    }
    Ok(())
}

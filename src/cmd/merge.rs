//! `asr merge DIR... --out DIR`: the shard files (`super::shard`) of one sweep, checked to be complete,
//! handed to the merge of the command that wrote them, which writes exactly the files of the unsharded run.

use super::shard::read_shards;
use anyhow::{bail, Result};
use std::path::PathBuf;

/// `asr merge`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Folders holding the shard files (`shard-<i>-of-<n>.json`) of one sweep.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Folder for the merged results (the files the unsharded run writes).
    #[arg(long)]
    pub out: PathBuf,
}

/// Reads the shard files of `a.dirs` and hands them to the merge of the command that wrote them.
pub fn run(a: Args) -> Result<()> {
    let (command, params, results) = read_shards(&a.dirs)?;
    let n = results.len();
    match command.as_str() {
        "sim" => super::sim::merge(params, results, &a.out)?,
        "benes-table" => super::benes_table::merge(params, results, &a.out)?,
        "sp2-system" => super::sp2_system::merge(params, results, &a.out)?,
        "wormhole-figures" => super::wormhole_figures::merge(params, results, &a.out)?,
        other => bail!("shard files of `{other}`: no merge for that command"),
    }
    eprintln!(
        "merge: {n} jobs of `asr {command}` from {} folder(s) written to {}",
        a.dirs.len(),
        a.out.display()
    );
    Ok(())
}

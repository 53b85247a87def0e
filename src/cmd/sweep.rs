//! The options every sweep command shares (`asr sim`, `asr benes-table`, `asr sp2-system`,
//! `asr wormhole-figures`), declared once and flattened into each command's arguments: `--seed`, `--out` and
//! `--shard`. A command whose `--out` has a default folder, or whose files need naming in the help, sets that
//! with `#[command(mut_arg("out", ...))]`; the option's name, type and errors stay the same everywhere.
//!
//! In a shard file and a result's `parameters` object only the seed is recorded (`#[serde(flatten)]` puts it
//! where the command's own field stood); the output folder and the shard are not parameters of the results.

use super::shard::Shard;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// `--seed`, `--out` and `--shard` of a sweep command.
#[derive(clap::Args, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepOpts {
    /// Seed of the sweep's random numbers (the traffic, and random routing or failures where the command has
    /// them); the same seed gives the same results.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Folder for the result files (created if missing).
    #[arg(long)]
    #[serde(skip)]
    pub out: Option<PathBuf>,
    /// Compute only share I of N of the sweep's points (`--shard 0/4`) and write them as a shard file into
    /// the --out folder for `asr merge`.
    #[arg(long)]
    #[serde(skip)]
    pub shard: Option<Shard>,
}

impl SweepOpts {
    /// Seed `seed`, results into `out`, no shard.
    pub fn new(seed: u64, out: Option<PathBuf>) -> Self {
        SweepOpts {
            seed,
            out,
            shard: None,
        }
    }

    /// The folder of the shard file: `--out`, which `--shard` needs.
    pub fn shard_dir(&self) -> Result<&Path> {
        self.out
            .as_deref()
            .context("--shard needs --out DIR (the folder for the shard file)")
    }

    /// The output folder of a command whose `--out` has a default (so it is always set on the command line).
    pub fn out_dir(&self) -> Result<&Path> {
        self.out.as_deref().context("--out: no output folder given")
    }
}

//! `asr`: the command line of the ASR switch project. Every job the README shows is a subcommand here.

use anyhow::Result;
use clap::{Parser, Subcommand};

mod cmd;

#[derive(Parser)]
#[command(
    name = "asr",
    version,
    about = "Adaptive source routing (ASR) switches: model, HDL, route generation, experiments"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Thesis Table 2.1: how often the matching heuristic finds a maximum matching.
    Matching(cmd::matching::Args),
    /// Export every HDL top as Verilog, one file per top, module named as the file.
    Verilog(cmd::verilog::Args),
    /// Write a VCD (HDL, or model with --model) of a scenario and a GTKWave save file beside it.
    Wave(cmd::wave::Args),
    /// The main job: run every experiment on built-in defaults and write all results into one folder.
    All(cmd::all::Args),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Matching(a) => cmd::matching::run(a),
        Command::Verilog(a) => cmd::verilog::run(a),
        Command::Wave(a) => cmd::wave::run(a),
        Command::All(a) => cmd::all::run(a),
    }
}

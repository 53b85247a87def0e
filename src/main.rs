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
    /// Wormhole routing on a hypercube (seed 004): one configuration or a sweep.
    Wormhole(cmd::wormhole::Args),
    /// Seed 004 Figures 1-6 and the sustained-throughput table on 2^10 nodes.
    WormholeFigures(cmd::wormhole_figures::Args),
    /// The main job: run every experiment on built-in defaults and write all results into one folder.
    All(cmd::all::Args),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Matching(a) => cmd::matching::run(a),
        Command::Wormhole(a) => cmd::wormhole::run(a),
        Command::WormholeFigures(a) => cmd::wormhole_figures::run(a),
        Command::All(a) => cmd::all::run(a),
    }
}

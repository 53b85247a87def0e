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
    /// One network simulation or a load sweep (Beneš or k-ary n-fly).
    Sim(cmd::sim::Args),
    /// Thesis Table 3.1 and Figures A.1–A.10: Beneš saturation throughput, ASR against random routing.
    BenesTable(cmd::benes_table::Args),
    /// The main job: run every experiment on built-in defaults and write all results into one folder.
    All(cmd::all::Args),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Matching(a) => cmd::matching::run(a),
        Command::Sim(a) => cmd::sim::run(a),
        Command::BenesTable(a) => cmd::benes_table::run(a),
        Command::All(a) => cmd::all::run(a),
    }
}

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
    /// The ASR heuristic beside iSLIP, PIM, wavefront and exact matching: quality, network throughput, FPGA cost.
    Allocators(cmd::allocators::Args),
    /// Shortest-path counts P and delivery probabilities S on a mesh, torus or hypercube (Wu, An Optimal Routing Policy for Mesh-Connected Topologies).
    Paths(cmd::paths::Args),
    /// Wu's torus theorems checked exactly for every even N, and whether MP is optimal.
    TorusTheorems(cmd::paths::TheoremArgs),
    /// Monte-Carlo delivery rates with failing links against the exact S, per policy.
    DeliveryMc(cmd::paths::McArgs),
    /// The per-hop policies (MP, Z2, XY) in the cycle-accurate simulator with failing links against S.
    DeliverySim(cmd::paths::SimCheckArgs),
    /// The SP2-style 8x8 switch alone: throughput, central-queue occupancy and latency against load.
    Sp2(cmd::sp2::Args),
    /// SP2 systems of SP2-style switches (16 to 512 processors): ASR against single-path route tables.
    Sp2System(cmd::sp2_system::Args),
    /// Write a built-in topology as a topology file, optionally with failed links and switches.
    Topology(cmd::topology::Args),
    /// Saturation throughput and adaptivity of an SP2 system against the number of failed links.
    FaultCurve(cmd::fault_curve::Args),
    /// Route tables of maximum adaptivity for every processor pair (thesis ch. 4).
    Routes(cmd::routes::Args),
    /// Thesis Tables 4.1, 4.3 and 4.4 for the SP2 systems, measured beside the thesis' numbers.
    RoutesTable(cmd::routes_table::Args),
    /// What deadlock-free route tables cost: adaptivity, non-minimal pairs, route length, generation time.
    RoutesCost(cmd::routes_cost::Args),
    /// One network simulation or a load sweep on any topology (Beneš, butterfly, SP2, mesh, torus, hypercube, file).
    Sim(cmd::sim::Args),
    /// Thesis Table 3.1 and Figures A.1–A.10: Beneš saturation throughput, ASR against random routing.
    BenesTable(cmd::benes_table::Args),
    /// XY (mesh, torus) or E-cube (hypercube) route tables in the route-table format.
    GridRoutes(cmd::grid::Args),
    /// The share of shortest paths the route generator's ASR headers express on meshes, tori, hypercubes.
    AsrCoverage(cmd::grid::CoverageArgs),
    /// Export every HDL top as Verilog, one file per top, module named as the file.
    Verilog(cmd::verilog::Args),
    /// The Verilog of a whole network for a topology: switches, an AXI4-Stream endpoint per processor with its route table.
    Network(cmd::network::Args),
    /// Run an exported top against its model cycle for cycle (Verilator, rust-hdl or Icarus).
    Cosim(cmd::cosim::Args),
    /// Formal proofs of the exported Verilog with SymbiYosys: properties per top, and mutants that must fail.
    Prove(cmd::prove::Args),
    /// Write a VCD (HDL, or model with --model) of a scenario and a GTKWave save file beside it.
    Wave(cmd::wave::Args),
    /// Wormhole routing on a hypercube (Gravano et al., Adaptive Deadlock-free Worm-hole Routing in Hypercubes): one configuration or a sweep.
    Wormhole(cmd::wormhole::Args),
    /// Gravano et al.'s Figures 1-6 and the sustained-throughput table on 2^10 nodes.
    WormholeFigures(cmd::wormhole_figures::Args),
    /// Combine the shard files of a sweep run with --shard i/n into the files the unsharded run writes.
    Merge(cmd::merge::Args),
    /// The main job: run every experiment on built-in defaults and write all results into one folder.
    All(cmd::all::Args),
}

/// Runs the command line; a user error (bad option, unreadable file, failed run) is printed plainly with its
/// causes and exit status 1, never with a backtrace (`RUST_BACKTRACE` is for bugs, which panic).
fn main() -> std::process::ExitCode {
    match run(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            for cause in e.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Matching(a) => cmd::matching::run(a),
        Command::Allocators(a) => cmd::allocators::run(a),
        Command::Paths(a) => cmd::paths::run(a),
        Command::TorusTheorems(a) => cmd::paths::run_theorems(a),
        Command::DeliveryMc(a) => cmd::paths::run_mc(a),
        Command::DeliverySim(a) => cmd::paths::run_sim_check(a),
        Command::Sp2(a) => cmd::sp2::run(a),
        Command::Sp2System(a) => cmd::sp2_system::run(a),
        Command::Topology(a) => cmd::topology::run(a),
        Command::FaultCurve(a) => cmd::fault_curve::run_cmd(a),
        Command::Routes(a) => cmd::routes::run(a),
        Command::RoutesTable(a) => cmd::routes_table::run(a),
        Command::RoutesCost(a) => cmd::routes_cost::run(a),
        Command::Sim(a) => cmd::sim::run(a),
        Command::BenesTable(a) => cmd::benes_table::run(a),
        Command::GridRoutes(a) => cmd::grid::run(a),
        Command::AsrCoverage(a) => cmd::grid::run_coverage(a),
        Command::Verilog(a) => cmd::verilog::run(a),
        Command::Network(a) => cmd::network::run(a),
        Command::Cosim(a) => cmd::cosim::run_cmd(a),
        Command::Prove(a) => cmd::prove::run(a),
        Command::Wave(a) => cmd::wave::run(a),
        Command::Wormhole(a) => cmd::wormhole::run(a),
        Command::WormholeFigures(a) => cmd::wormhole_figures::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::All(a) => cmd::all::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// `asr --help` and every `asr <command> --help` explain every option.
    #[test]
    fn every_option_has_help_text() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        let mut missing = Vec::new();
        for sub in cli.get_subcommands() {
            assert!(
                sub.get_about().is_some(),
                "{} has no summary",
                sub.get_name()
            );
            for arg in sub.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("asr {} {}: no help", sub.get_name(), id));
                }
                // A comma-separated list shows its default as typed: `[default: 4,8,16]`.
                if arg.get_value_delimiter().is_some() && arg.get_default_values().len() > 1 {
                    missing.push(format!(
                        "asr {} {}: default shown with spaces",
                        sub.get_name(),
                        id
                    ));
                }
            }
        }
        assert!(missing.is_empty(), "options without help: {missing:?}");
    }
}

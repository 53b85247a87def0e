//! `asr network --topology SPEC|FILE [--routes FILE | --deadlock-free] [--switch v2|v3] --out DIR`: the
//! Verilog of a whole network (docs/network.md): the switches wired as the topology says, an `asr_nic`
//! endpoint per processor holding its route table, one AXI4-Stream pair per processor
//! (`asr_hdl::sp2::asr_network`). Route tables whose channel-dependency graph has a cycle are refused unless
//! `--allow-cyclic`. `--cosim N` also runs the generated Verilog against the model network for N cycles of
//! random traffic (Verilator, or Icarus with `--backend icarus`); `--wave N` writes a VCD of N cycles of it
//! and a GTKWave save file (`asr_testbench::wave::asr_network`).

use anyhow::{bail, Context, Result};
use asr_model::routing::{Routing, TableRouting};
use asr_model::sp2::asr_network;
use asr_model::topology::Topology;
use asr_testbench::cosim::tops::asr_network as gen;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The topology: a built-in (`sp2:16`, `sp2:32`, `mesh:4x4`, `irregular:8:2:1`, …; `asr topology
    /// --help`) or a topology file. Every switch has at most 8 ports (fewer are left unconnected).
    #[arg(long, default_value = "sp2:16")]
    pub topology: String,
    /// Route tables from this route file (`asr routes --out`) instead of the generator's.
    #[arg(long, conflicts_with = "deadlock_free")]
    pub routes: Option<PathBuf>,
    /// The generator's deadlock-free tables (an acyclic channel-dependency graph by construction).
    #[arg(long)]
    pub deadlock_free: bool,
    /// Accept tables whose channel-dependency graph has a cycle (the network may deadlock under load).
    #[arg(long)]
    pub allow_cyclic: bool,
    /// The switch version the network is built of.
    #[arg(long, default_value = "v3", value_parser = ["v2", "v3"])]
    pub switch: String,
    /// The top module's name (also the file's name and the prefix of its other modules).
    #[arg(long, default_value = "asr_network")]
    pub name: String,
    /// Output folder (created if missing).
    #[arg(long, default_value = "out/network")]
    pub out: PathBuf,
    /// Then run the generated Verilog against the model for this many cycles of random traffic.
    #[arg(long)]
    pub cosim: Option<u64>,
    /// The simulator of `--cosim`.
    #[arg(long, default_value = "verilator", value_parser = ["verilator", "icarus"])]
    pub backend: String,
    /// Also write `<out>/<name>.vcd`: the network in a traced Verilator build, this many cycles of the
    /// co-simulation's random traffic and then its drain, and `<out>/<name>.gtkw` to open it in GTKWave
    /// (one group per endpoint and per switch).
    #[arg(long, value_name = "CYCLES")]
    pub wave: Option<u64>,
    /// With `--cosim`: flip bit BIT of the network's output PORT in cycle CYCLE (written CYCLE:PORT:BIT, for
    /// example 5000:p3_m_axis_tdata:0), to see the comparison report it at that cycle and signal.
    #[arg(long, value_name = "CYCLE:PORT:BIT", value_parser = super::cosim::parse_fault, requires = "cosim")]
    pub inject_fault: Option<asr_testbench::cosim::Perturb>,
    /// Seed of `--cosim`'s and `--wave`'s traffic.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The route tables the options ask for, checked for a cyclic channel-dependency graph.
fn routing(a: &Args, t: &Topology) -> Result<TableRouting> {
    let r = if let Some(file) = &a.routes {
        super::networks::routes_file(t, file)
            .with_context(|| format!("--routes {}", file.display()))?
    } else if a.deadlock_free {
        super::networks::deadlock_free_tables(
            t,
            &a.topology,
            asr_model::routes::deadlock_free::Objective::default(),
        )?
    } else {
        super::networks::asr_tables(t)?
    };
    let n = r.processors();
    if n != t.nodes().len() {
        bail!(
            "the route table is for {n} processors; {} has {}",
            a.topology,
            t.nodes().len()
        );
    }
    let cdg = r.channel_dependencies(t);
    if let Some(c) = &cdg.cycle {
        let what = format!(
            "the route tables' channel-dependency graph has a cycle ({}): the network can deadlock",
            c.join(" → ")
        );
        if !a.allow_cyclic {
            bail!("{what}; use --deadlock-free, or --allow-cyclic to generate it anyway");
        }
        eprintln!("asr network: {what} (--allow-cyclic)");
    }
    Ok(r)
}

pub fn run(a: Args) -> Result<()> {
    let t = asr_model::topology::load(&a.topology)
        .with_context(|| format!("--topology {}", a.topology))?;
    let r = routing(&a, &t)?;
    let tables = asr_network::tables(&t, &r)?;
    let v = gen::verilog(&t, &tables, &a.switch, &a.name)
        .with_context(|| format!("--topology {}", a.topology))?;
    super::check::out_dir("--out", &a.out)?;
    std::fs::create_dir_all(&a.out).with_context(|| format!("--out {}", a.out.display()))?;
    let file = a.out.join(format!("{}.v", a.name));
    std::fs::write(&file, &v).with_context(|| format!("writing {}", file.display()))?;
    println!(
        "wrote {} ({} processors, {} {} {}, tables of {} bytes per endpoint, longest message {} bytes)",
        file.display(),
        tables.len(),
        t.switches().len(),
        if t.switches().len() == 1 { "switch" } else { "switches" },
        a.switch,
        tables[0].table.len(),
        tables[0].max_msg()
    );
    if let Some(cycles) = a.wave {
        let vcd = a.out.join(format!("{}.vcd", a.name));
        let (gtkw, n) = asr_testbench::wave::asr_network::write(
            &t,
            tables.clone(),
            &a.switch,
            &a.name,
            &v,
            cycles,
            a.seed,
            &vcd,
        )
        .context("--wave")?;
        println!(
            "wrote {} ({n} cycles: {cycles} of traffic, then the drain) and {}",
            vcd.display(),
            gtkw.display()
        );
    }
    if let Some(cycles) = a.cosim {
        let backend = match a.backend.as_str() {
            "icarus" => asr_testbench::cosim::BackendKind::Icarus,
            _ => asr_testbench::cosim::BackendKind::Verilator,
        };
        let rep = gen::check_with(
            &t,
            tables,
            &a.switch,
            &a.name,
            &v,
            backend,
            cycles,
            a.seed,
            a.inject_fault.clone(),
        )?;
        println!("{rep}");
        if let Some(m) = &rep.first {
            bail!("the generated network differs from its model: {m}");
        }
    }
    Ok(())
}

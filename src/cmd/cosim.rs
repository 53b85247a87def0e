//! `asr cosim TOP`: runs an exported top against its model, cycle for cycle, in Verilator, rust-hdl's
//! simulation or Icarus (testbench/src/cosim).

use anyhow::{bail, Result};
use asr_testbench::cosim::verilator::Opt;
use asr_testbench::cosim::{run, BackendKind, Options, Perturb};
use clap::Parser;
use std::path::PathBuf;

#[derive(Parser)]
pub struct Args {
    /// The exported top (`asr verilog --list` lists them), or `all`: the main job's table, every top through
    /// Verilator (the board `sp2_board_v2` 10^7 cycles, the others 10^6) into OUT/cosim.txt and .json.
    pub top: String,
    /// With `all`: the folder for cosim.txt and cosim.json.
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
    /// Cycles of traffic; then the top drains until empty, and those cycles are compared too.
    #[arg(long, default_value_t = 100_000)]
    pub cycles: u64,
    /// Seed of the stimulus (decimal or 0x hex); the same seed replays the same run.
    #[arg(long, default_value = "0x5eeda5a5", value_parser = parse_seed)]
    pub seed: u64,
    /// verilator (the exported Verilog, compiled once and cached under target/verilator), rusthdl (the RustHDL
    /// description in rust-hdl's simulation) or icarus (the exported Verilog in Icarus, on recorded vectors).
    #[arg(long, default_value = "verilator")]
    pub backend: BackendKind,
    /// On a mismatch, write a VCD of the 200 cycles before it here (and, for Verilator, the whole design's
    /// signals beside it as `<stem>.design.vcd`).
    #[arg(long)]
    pub vcd: Option<PathBuf>,
    /// Flip bit BIT of the design's output PORT in cycle CYCLE (written CYCLE:PORT:BIT), to see how the
    /// harness reports a mismatch.
    #[arg(long, value_name = "CYCLE:PORT:BIT", value_parser = parse_fault)]
    pub inject_fault: Option<Perturb>,
    /// How Verilator's C++ is compiled: build (-O1, about 3.5 times quicker to build, the default) or run
    /// (-O3, about 1.3 times faster to run; `all` always uses it).
    #[arg(long, default_value = "build", value_name = "build|run")]
    pub verilator_opt: Opt,
    /// Print one JSON object: {"top", "backend", "cycles", "seconds", "cycles_per_s", "packets", "mismatches", …}.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn parse_fault(s: &str) -> Result<Perturb, String> {
    let f: Vec<&str> = s.split(':').collect();
    let bad = || format!("`{s}` is not CYCLE:PORT:BIT (for example 1000:out_data:3)");
    if f.len() != 3 {
        return Err(bad());
    }
    Ok(Perturb::Output {
        cycle: f[0].parse().map_err(|_| bad())?,
        port: f[1].to_string(),
        bit: f[2].parse().map_err(|_| bad())?,
    })
}

fn parse_seed(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|_| format!("`{s}` is not a seed (a decimal or 0x-hex number)"))
}

pub fn run_cmd(a: Args) -> Result<()> {
    if a.top == "all" {
        std::fs::create_dir_all(&a.out)
            .map_err(|e| anyhow::anyhow!("--out {}: {e}", a.out.display()))?;
        return suite(&a.out, a.seed);
    }
    asr_testbench::tops::find(&a.top).map_err(|e| anyhow::anyhow!("TOP: {e}"))?;
    super::check::count("--cycles", a.cycles, 1, super::check::MAX_CYCLES)?;
    if let Some(p) = &a.vcd {
        if let Some(d) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !d.is_dir() {
                bail!(
                    "--vcd {}: the folder {} does not exist",
                    p.display(),
                    d.display()
                );
            }
        }
    }
    let mut o = Options::new(&a.top, a.backend, a.cycles, a.seed);
    o.vcd = a.vcd;
    o.perturb = a.inject_fault;
    o.opt = a.verilator_opt;
    let r = run(&o)?;
    if a.json {
        println!("{}", r.json());
    } else {
        println!("{r}");
        for v in &r.vcd {
            println!("  wrote {}", v.display());
        }
        if r.first.is_some() {
            println!(
                "  replay: asr cosim {} --backend {} --cycles {} --seed {:#x}",
                r.top, r.backend, a.cycles, r.seed
            );
        }
    }
    if r.mismatches > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// One run of the main job's co-simulation table.
struct Job {
    top: &'static str,
    cycles: u64,
    seed: u64,
}

/// The board every SP2 figure rests on, co-simulated longest by the main job.
const BOARD: &str = "sp2_board_v2";

/// The main job's cross-check: every exported top through Verilator against its model — the board
/// ([`BOARD`]) for 10^7 cycles (4 seeds × 2.5·10^6), every other top for 10^6 — two runs at a time (each
/// runs its model and its design in two threads). Writes `cosim.txt` and
/// `cosim.json` into `out`; any mismatch or model-side failure is an error.
pub fn suite(out: &std::path::Path, seed: u64) -> Result<()> {
    use rayon::prelude::*;
    let t0 = std::time::Instant::now();
    let mut jobs: Vec<Job> = (0..4)
        .map(|k| Job {
            top: BOARD,
            cycles: 2_500_000,
            seed: seed + k,
        })
        .collect();
    for top in asr_testbench::tops::names() {
        if top != BOARD {
            jobs.push(Job {
                top,
                cycles: 1_000_000,
                seed,
            });
        }
    }
    // Build every library first (each build uses both cores), then run.
    for top in asr_testbench::tops::names() {
        let (l, v) = asr_testbench::cosim::layout(top)?;
        asr_testbench::cosim::verilator::build(&l, &v, false, Opt::Run)?;
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
    let reports: Vec<Result<asr_testbench::cosim::Report>> = pool.install(|| {
        jobs.par_iter()
            .map(|j| {
                let r = run(&Options {
                    opt: Opt::Run,
                    ..Options::new(j.top, BackendKind::Verilator, j.cycles, j.seed)
                })?;
                eprintln!("  {r}");
                Ok(r)
            })
            .collect()
    });
    let reports: Vec<asr_testbench::cosim::Report> = reports.into_iter().collect::<Result<_>>()?;
    /// A row of the table: the runs of one top added up.
    #[derive(Default)]
    struct Row {
        top: String,
        cycles: u64,
        packets: u64,
        mismatches: u64,
        seconds: f64,
        cpu: f64,
        seeds: Vec<u64>,
    }
    let mut rows: Vec<Row> = Vec::new();
    for r in &reports {
        let k = match rows.iter().position(|x| x.top == r.top) {
            Some(k) => k,
            None => {
                rows.push(Row {
                    top: r.top.clone(),
                    ..Default::default()
                });
                rows.len() - 1
            }
        };
        let x = &mut rows[k];
        x.cycles += r.cycles;
        x.packets += r.packets;
        x.mismatches += r.mismatches;
        x.seconds += r.seconds;
        x.cpu += r.model_seconds.max(r.backend_seconds);
        x.seeds.push(r.seed);
    }
    let mut t = String::from(
        "Co-simulation: every exported top's Verilog in Verilator against its model, every output compared every cycle\n\
         (`asr cosim TOP --cycles N --seed S` replays a row; cycles include the drain)\n\n",
    );
    t += "| top | cycles | packets | mismatches | wall s | cycles/s | CPU s of the slower side | seeds |\n";
    t += "|---|---|---|---|---|---|---|---|\n";
    for x in &rows {
        let s: Vec<String> = x.seeds.iter().map(|s| s.to_string()).collect();
        t += &format!(
            "| `{}` | {} | {} | {} | {:.1} | {:.0} | {:.1} | {} |\n",
            x.top,
            x.cycles,
            x.packets,
            x.mismatches,
            x.seconds,
            x.cycles as f64 / x.seconds,
            x.cpu,
            s.join(", ")
        );
    }
    t += &format!(
        "\n{} runs, two at a time, in {:.1} s (libraries built or found in target/verilator first).\n",
        reports.len(),
        t0.elapsed().as_secs_f64()
    );
    print!("{t}");
    std::fs::write(out.join("cosim.txt"), &t)?;
    let json: Vec<serde_json::Value> = reports.iter().map(|r| r.json()).collect();
    std::fs::write(out.join("cosim.json"), serde_json::to_string_pretty(&json)?)?;
    if rows.iter().any(|r| r.mismatches > 0) {
        bail!("the Verilog disagrees with the model (see cosim.txt)");
    }
    Ok(())
}

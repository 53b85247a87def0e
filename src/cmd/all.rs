//! `asr all`: the main job. Runs every experiment on built-in defaults and writes the results into one folder.

use anyhow::{Context, Result};
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Output folder (created if missing).
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
    /// Seed for every random experiment.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Wormhole figures (seed 004): warm-up cycles per sweep point.
    #[arg(long, default_value_t = 1000)]
    pub worm_warmup: u64,
    /// Wormhole figures (seed 004): measurement cycles per sweep point.
    #[arg(long, default_value_t = 3000)]
    pub worm_measure: u64,
    /// Wormhole figures (seed 004): offered loads, % of λmax.
    #[arg(long, value_delimiter = ',', default_values_t = super::wormhole_figures::default_loads())]
    pub worm_loads: Vec<f64>,
}

pub fn run(a: Args) -> Result<()> {
    fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let t0 = Instant::now();

    // Thesis Table 2.1.
    let t = Instant::now();
    let margs = super::matching::Args {
        m: vec![4, 8, 16],
        passes: vec![1, 2],
        density: 0.5,
        trials: 100_000,
        seed: a.seed,
        json: false,
    };
    let cells = super::matching::compute(&margs)?;
    let table = super::matching::render(&cells, t.elapsed().as_secs_f64());
    print!("{table}");
    fs::write(a.out.join("table2_1.txt"), &table)?;
    fs::write(
        a.out.join("table2_1.json"),
        serde_json::to_string_pretty(&cells)?,
    )?;

    // Seed 004: wormhole routing on 2^10 nodes, Figures 1-6 and the sustained-throughput table.
    let t = Instant::now();
    let wargs = super::wormhole_figures::Args {
        out: a.out.join("wormhole"),
        n: 10,
        loads: a.worm_loads.clone(),
        warmup: a.worm_warmup,
        measure: a.worm_measure,
        buf: 2,
        watchdog: 2000,
        seed: a.seed,
        cdg: 5,
        from_json: None,
    };
    let w = super::wormhole_figures::compute(&wargs)?;
    print!("{}\n{}", w.table, w.findings);
    eprintln!(
        "asr all: wormhole part ({} runs) in {:.1} s, {:.3e} flit-hops per CPU second",
        w.runs,
        t.elapsed().as_secs_f64(),
        w.flit_hops_per_cpu_second
    );

    eprintln!(
        "asr all: everything written to {} in {:.1} s",
        a.out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

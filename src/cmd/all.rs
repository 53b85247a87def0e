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

    // HDL: every top's Verilog, and the benes8-burst waveform (HDL and model) with GTKWave save files.
    let t = Instant::now();
    let files = super::verilog::export(&a.out.join("verilog"), &[])?;
    asr_testbench::wave::write("benes8-burst", &a.out.join("waves/benes8-burst.vcd"), false)?;
    asr_testbench::wave::write(
        "benes8-burst",
        &a.out.join("waves/benes8-burst-model.vcd"),
        true,
    )?;
    eprintln!(
        "asr all: {} Verilog tops in {}/verilog, waves in {}/waves ({:.1} s)",
        files.len(),
        a.out.display(),
        a.out.display(),
        t.elapsed().as_secs_f64()
    );

    eprintln!(
        "asr all: everything written to {} in {:.1} s",
        a.out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

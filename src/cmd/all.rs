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

    // Thesis Tables 4.1, 4.3, 4.4: route generation on the SP2 systems.
    let t = Instant::now();
    let rargs = super::routes_table::Args {
        topologies: super::routes_table::default_names(),
        workers: None,
        full: false,
        json: false,
    };
    let rows = super::routes_table::compute(&rargs)?;
    let table = super::routes_table::render(&rows, t.elapsed().as_secs_f64());
    print!("{table}");
    fs::write(a.out.join("routes_table.txt"), &table)?;
    fs::write(
        a.out.join("routes_table.json"),
        serde_json::to_string_pretty(&rows)?,
    )?;
    // Thesis Table 3.1 and Figures A.1–A.10: Beneš saturation throughput, ASR against random routing.
    let bargs = super::benes_table::Args {
        sizes: vec![16, 32, 64, 128, 512],
        patterns: vec!["uniform".into(), "shift-right".into()],
        loads: None,
        packets: 1500,
        seed: a.seed,
        out: a.out.join("benes"),
        json: false,
    };
    let (rows, secs) = super::benes_table::compute(&bargs, true)?;
    let table = super::benes_table::render(&rows, secs, &bargs);
    print!("{table}");
    super::benes_table::write(&rows, &table, &bargs)?;

    eprintln!(
        "asr all: everything written to {} in {:.1} s",
        a.out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

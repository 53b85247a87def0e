//! `asr matching`: thesis Table 2.1.

use anyhow::{bail, Result};
use asr_model::table2_1::{run as run_cells, thesis_value, Cell};
use std::fmt::Write;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Matrix sizes (switch ports), comma-separated, each 1..=64.
    #[arg(long, value_delimiter = ',', default_value = "4,8,16")]
    pub m: Vec<usize>,
    /// Pass counts, comma-separated, each 1..=64.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    pub passes: Vec<usize>,
    /// Probability that a request bit is 1.
    #[arg(long, default_value_t = 0.5)]
    pub density: f64,
    /// Random request matrices per cell, 1..=1000000000.
    #[arg(long, default_value_t = 100_000)]
    pub trials: u64,
    /// Seed of the random matrices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print a JSON array of cells instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Validates the arguments and computes every cell.
pub fn compute(a: &Args) -> Result<Vec<Cell>> {
    if a.m.is_empty() || a.passes.is_empty() {
        bail!("--m and --passes need at least one value each");
    }
    if let Some(&m) = a.m.iter().find(|&&m| m == 0 || m > 64) {
        bail!("--m {m}: matrix size must be between 1 and 64");
    }
    if !(0.0..=1.0).contains(&a.density) || a.density.is_nan() {
        bail!("--density {}: must be a probability in [0, 1]", a.density);
    }
    if let Some(&p) = a.passes.iter().find(|&&p| p == 0 || p > 64) {
        bail!("--passes {p}: the number of passes must be between 1 and 64");
    }
    super::check::count("--trials", a.trials, 1, 1_000_000_000)?;
    Ok(a.m
        .iter()
        .flat_map(|&m| run_cells(m, &a.passes, a.density, a.trials, a.seed))
        .collect())
}

/// The table, side by side with the thesis where it printed a value.
pub fn render(cells: &[Cell], seconds: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Thesis Table 2.1: share of trials where the heuristic found maximum - k (measured | thesis)");
    let _ = writeln!(
        s,
        "{:>4} {:>6} {:>9} {:>15} {:>15} {:>15} {:>9} {:>10}",
        "m", "passes", "trials", "maximum", "maximum-1", "maximum-2", "lower", "mean size"
    );
    for c in cells {
        let th = thesis_value(c.m, c.passes);
        let col = |k: usize| {
            let v = c.fractions.get(k).copied().unwrap_or(0.0);
            match th {
                Some(t) => format!("{v:.4} | {:.2}", t[k]),
                None => format!("{v:.4} |  - "),
            }
        };
        let lower: f64 = c.fractions.iter().skip(3).fold(0.0, |a, x| a + x);
        let _ = writeln!(
            s,
            "{:>4} {:>6} {:>9} {:>15} {:>15} {:>15} {:>9.4} {:>10.4}",
            c.m,
            c.passes,
            c.trials,
            col(0),
            col(1),
            col(2),
            lower,
            c.mean_ratio
        );
    }
    let _ = writeln!(
        s,
        "(mean size = heuristic matching size / maximum, averaged over trials; {seconds:.2} s)"
    );
    s
}

pub fn run(a: Args) -> Result<()> {
    let t = Instant::now();
    let cells = compute(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&cells)?);
    } else {
        print!("{}", render(&cells, t.elapsed().as_secs_f64()));
    }
    Ok(())
}

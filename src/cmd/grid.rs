//! `asr grid-routes` (XY / E-cube route tables on the built-in meshes, tori and hypercubes) and
//! `asr asr-coverage` (the share of the shortest paths P(v, u) that the route generator's ASR headers express).

use anyhow::{anyhow, Context, Result};
use asr_model::delivery::tables::{
    asr_coverage_with, dimension_order, grid_topology, write_table, Coverage,
};
use rayon::prelude::*;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// `mesh:KxK`, `torus:KxK` or `hypercube:D`.
    #[arg(long)]
    pub topology: String,
    /// The route-table file to write.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    super::check::out_file("--out", &a.out)?;
    let (g, t) = grid_topology(&a.topology).map_err(|e| anyhow!(e))?;
    let max = super::check::MAX_ROUTE_PROCESSORS;
    if g.nodes() > max {
        anyhow::bail!(
            "route tables of `{}`: {} processors; the limit is {max} processors",
            a.topology,
            g.nodes()
        );
    }
    let routes = dimension_order(&g);
    std::fs::write(&a.out, write_table(&t, &routes))
        .with_context(|| format!("writing {}", a.out.display()))?;
    let hops: usize = routes.iter().map(|r| r.hops.len() - 1).sum();
    println!(
        "{}: {} dimension-order routes ({}), mean path {:.3} links, written to {}",
        a.topology,
        routes.len(),
        if a.topology.starts_with("hypercube") {
            "E-cube"
        } else {
            "XY"
        },
        hops as f64 / routes.len() as f64,
        a.out.display()
    );
    Ok(())
}

#[derive(clap::Args, Debug, Clone)]
pub struct CoverageArgs {
    /// Topologies, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_NAMES)]
    pub topology: Vec<String>,
    /// Print JSON (one object per topology) instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// The default topologies of `asr asr-coverage`.
pub const DEFAULT_NAMES: &str =
    "mesh:4x4,mesh:8x8,torus:4x4,torus:8x8,hypercube:4,hypercube:6,hypercube:8";

pub fn default_names() -> Vec<String> {
    DEFAULT_NAMES.split(',').map(str::to_string).collect()
}

/// Route generation on every topology (refused at once where the generator cannot finish, see
/// [`super::routes::preflight`]), with a progress bar over all source switches.
pub fn compute(names: &[String]) -> Result<Vec<Coverage>> {
    let mut sources = 0;
    for n in names {
        let (_, t) = grid_topology(n).map_err(|e| anyhow!(e))?;
        super::routes::preflight(&t, n)?;
        sources += t.nodes().len() as u64;
    }
    let bar = super::progress::bar("asr-coverage", sources, "source switches");
    let rows = names
        .par_iter()
        .map(|n| asr_coverage_with(n, &|| bar.inc(1)).map_err(|e| anyhow!(e)))
        .collect();
    bar.finish_and_clear();
    rows
}

pub fn render(rows: &[Coverage]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "ASR headers of maximum adaptivity (route generator) against all shortest paths P(v,u)"
    );
    let _ = writeln!(
        s,
        "{:>14} {:>7} {:>12} {:>10} {:>12} {:>10}",
        "topology", "pairs", "mean npath/P", "min", "pairs at P", "P agrees"
    );
    for c in rows {
        let _ = writeln!(
            s,
            "{:>14} {:>7} {:>12.4} {:>10.2e} {:>11.1}% {:>10}",
            c.topology,
            c.pairs,
            c.mean_share,
            c.min_share,
            100.0 * c.full_pairs,
            c.p_agrees
        );
    }
    s
}

pub fn run_coverage(a: CoverageArgs) -> Result<()> {
    let rows = compute(&a.topology)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", render(&rows));
    }
    Ok(())
}

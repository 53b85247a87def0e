//! `asr grid-routes` (XY / E-cube route tables on the built-in meshes, tori and hypercubes) and
//! `asr asr-coverage` (the share of the shortest paths P(v, u) that the route generator's ASR headers express).

use anyhow::{anyhow, Context, Result};
use asr_model::delivery::tables::{
    asr_coverage, dimension_order, grid_topology, write_table, Coverage,
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
    let (g, t) = grid_topology(&a.topology).map_err(|e| anyhow!(e))?;
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
    #[arg(long, value_delimiter = ',', default_values_t = default_names())]
    pub topology: Vec<String>,
    #[arg(long)]
    pub json: bool,
}

pub fn default_names() -> Vec<String> {
    [
        "mesh:4x4",
        "mesh:8x8",
        "torus:4x4",
        "torus:8x8",
        "hypercube:4",
        "hypercube:6",
        "hypercube:8",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

pub fn compute(names: &[String]) -> Result<Vec<Coverage>> {
    names
        .par_iter()
        .map(|n| asr_coverage(n).map_err(|e| anyhow!(e)))
        .collect()
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

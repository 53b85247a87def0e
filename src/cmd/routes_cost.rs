//! `asr routes-cost`: what deadlock freedom costs the route tables. For each topology, thesis Table 4.1's average
//! adaptivity of the maximum-adaptivity tables and whether their channel-dependency graph is acyclic, against the
//! deadlock-free tables (`routes::deadlock_free`): the restriction chosen, their adaptivity over the pairs routed
//! minimally, the pairs routed non-minimally, mean route length and npath, and the generation times (the
//! deadlock-free time includes the unrestricted tables, both dependency checks and the search for an order).

use anyhow::Result;
use asr_model::routes::deadlock_free::{generate_deadlock_free, tables_cdg, Options};
use asr_model::routes::{generate, Method};
use serde::Serialize;
use std::fmt::Write;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Topologies (built-in names or topology files), comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = DEFAULT_TOPOLOGIES
    )]
    pub topologies: Vec<String>,
    /// Print the rows as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The topologies of the cost table.
pub const DEFAULT_TOPOLOGIES: &str = "sp2:16,sp2:32,sp2:48,sp2:64,sp2:80,sp2:128,sp2:256,sp2:512,mesh:8x8,torus:8x8,hypercube:6,irregular:16:1,irregular:16:2,irregular:32:1,irregular:32:2,irregular:64:1,irregular:64:2";

pub fn default_names() -> Vec<String> {
    DEFAULT_TOPOLOGIES.split(',').map(str::to_string).collect()
}

/// One topology.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub name: String,
    pub processors: usize,
    pub switches: usize,
    /// Unrestricted tables: Table 4.1 adaptivity, mean route length (channels), mean npath, whether the
    /// dependency graph is acyclic, generation seconds.
    pub free_adaptivity: f64,
    pub free_hops: f64,
    pub free_npath: f64,
    pub free_acyclic: bool,
    pub free_secs: f64,
    /// Deadlock-free tables.
    pub restriction: String,
    pub df_adaptivity: f64,
    pub df_nonminimal: usize,
    pub pairs: usize,
    pub df_hops: f64,
    pub df_npath: f64,
    pub df_acyclic: bool,
    pub df_secs: f64,
}

pub fn compute(a: &Args) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for name in &a.topologies {
        let t = asr_model::topology::load(name)?;
        let t0 = Instant::now();
        let free = generate(&t, Method::Pruned, &|| {})?;
        let free_secs = t0.elapsed().as_secs_f64();
        let fs = free.summary();
        let free_cdg = tables_cdg(&t, &free);
        let t1 = Instant::now();
        let df = generate_deadlock_free(&t, Method::Pruned, &Options::default())?;
        let df_secs = t1.elapsed().as_secs_f64();
        let ds = df.tables.summary();
        rows.push(Row {
            name: name.clone(),
            processors: t.nodes().len(),
            switches: t.switches().len(),
            free_adaptivity: free.average_adaptivity(),
            free_hops: fs.mean_hops,
            free_npath: fs.mean_npath,
            free_acyclic: free_cdg.cycle.is_none(),
            free_secs,
            restriction: df.restriction.describe(),
            df_adaptivity: ds.adaptivity_minimal,
            df_nonminimal: ds.nonminimal,
            pairs: ds.pairs,
            df_hops: ds.mean_hops,
            df_npath: ds.mean_npath,
            df_acyclic: df.cdg.cycle.is_none(),
            df_secs,
        });
    }
    Ok(rows)
}

pub fn render(rows: &[Row]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "What deadlock freedom costs the route tables (adaptivity = mean npath / physically existing shortest paths; the deadlock-free column over the pairs routed minimally)"
    );
    let _ = writeln!(
        s,
        "| topology | processors | max-adaptivity tables: adaptivity, acyclic? | deadlock-free: adaptivity | pairs non-minimal | mean route (channels) without / with | mean npath without / with | generation (s) without / with |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {:.4}, {} | {:.4}{} | {} of {} | {:.3} / {:.3} | {:.2} / {:.2} | {:.3} / {:.3} |",
            r.name,
            r.processors,
            r.free_adaptivity,
            if r.free_acyclic { "yes" } else { "**no**" },
            r.df_adaptivity,
            if r.df_acyclic { "" } else { " (CYCLIC!)" },
            r.df_nonminimal,
            r.pairs,
            r.free_hops,
            r.df_hops,
            r.free_npath,
            r.df_npath,
            r.free_secs,
            r.df_secs
        );
    }
    let _ = writeln!(s);
    for r in rows {
        let _ = writeln!(s, "{}: {}", r.name, r.restriction);
    }
    s
}

pub fn run(a: Args) -> Result<()> {
    let rows = compute(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", render(&rows));
    }
    Ok(())
}

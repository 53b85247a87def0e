//! `asr routes --topology FILE|NAME --out FILE`: route tables of maximum adaptivity for every ordered processor
//! pair (thesis ch. 4), on all cores, with a progress bar; prints the average adaptivity and the time taken.

use anyhow::{Context, Result};
use asr_model::routes::{generate, Method};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::BufWriter;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Topology file, or a built-in name (e.g. sp2:512, benes:8).
    #[arg(long)]
    pub topology: String,
    /// Route-table file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Build the whole solution graph (thesis Fig. 4.4) instead of only the part the DP needs.
    #[arg(long)]
    pub full: bool,
}

pub fn run(a: Args) -> Result<()> {
    let t = super::topology::load(&a.topology)?;
    let t0 = Instant::now();
    let ends = asr_model::routes::table::endpoints(&t)?;
    let bar = ProgressBar::new(ends.sources.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} source switches")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let tables = generate(
        &t,
        if a.full { Method::Full } else { Method::Pruned },
        &|| bar.inc(1),
    )?;
    bar.finish_and_clear();
    let gen = t0.elapsed().as_secs_f64();
    let f =
        std::fs::File::create(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let mut w = BufWriter::new(f);
    tables
        .write(&t, &mut w)
        .with_context(|| format!("writing {}", a.out.display()))?;
    drop(w);
    let pairs: usize = tables.sources.iter().map(|s| s.dests.len()).sum();
    let sv: usize = tables
        .sources
        .iter()
        .flat_map(|s| &s.dests)
        .map(|d| d.1.s_vertices)
        .sum();
    let se: usize = tables
        .sources
        .iter()
        .flat_map(|s| &s.dests)
        .map(|d| d.1.s_edges)
        .sum();
    eprintln!("{pairs} switch pairs; solution graphs: {sv} vertices, {se} edges in all");
    let n = ends.nodes.len();
    println!(
        "{}: {} processors, {} routes, average adaptivity {:.4}, generated in {:.3} s on {} threads ({:.3} s with writing)",
        a.topology,
        n,
        n * (n - 1),
        tables.average_adaptivity(),
        gen,
        rayon::current_num_threads(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

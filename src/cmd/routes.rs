//! `asr routes --topology FILE|NAME --out FILE`: route tables of maximum adaptivity for every ordered processor
//! pair (thesis ch. 4), on all cores, with a progress bar; prints the average adaptivity and the time taken.

use anyhow::{bail, Context, Result};
use asr_model::routes::table::Tables;
use asr_model::routes::{generate, Method};
use asr_model::topology::Topology;
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

/// Refuses, before any long computation, route generation the generator cannot finish: more processors
/// than [`MAX_ROUTE_PROCESSORS`](super::check::MAX_ROUTE_PROCESSORS), or a topology whose routability graph
/// from the first source switch to its farthest destination switch has a stage wider than the solver's
/// limit (hypercubes from dimension 11, Beneš networks from 4096 ports; the generator would otherwise
/// find this only at the farthest pair of each source, after minutes or hours).
pub fn preflight(t: &Topology, name: &str) -> Result<()> {
    use asr_model::routes::bfs::modified_bfs;
    use asr_model::routes::table::{endpoints, route_switch_pair};
    let ends = endpoints(t).with_context(|| format!("route tables of `{name}`"))?;
    let n = ends.nodes.len();
    let max = super::check::MAX_ROUTE_PROCESSORS;
    if n > max {
        bail!(
            "route tables of `{name}`: {n} processors ({} routes); the limit is {max} processors",
            n * (n - 1)
        );
    }
    let src = ends.sources[0];
    let bfs = modified_bfs(t, src);
    let is_dest: std::collections::HashSet<usize> = ends.dests.iter().copied().collect();
    if let Some(&far) = bfs.order.iter().rev().find(|e| is_dest.contains(e)) {
        let mut scratch = vec![u32::MAX; t.len()];
        route_switch_pair(&bfs, far, &mut scratch, Method::Pruned).with_context(|| {
            format!(
                "route tables of `{name}`: from {} to {}",
                t.element(src).name,
                t.element(far).name
            )
        })?;
    }
    Ok(())
}

/// The route tables of `t` after [`preflight`], with a progress bar over the source switches.
pub fn generate_tables(t: &Topology, name: &str, method: Method) -> Result<Tables> {
    preflight(t, name)?;
    let ends = asr_model::routes::table::endpoints(t)?;
    let bar = super::progress::bar(
        &format!("route tables of {name}"),
        ends.sources.len() as u64,
        "source switches",
    );
    let tables = generate(t, method, &|| bar.inc(1));
    bar.finish_and_clear();
    Ok(tables?)
}

pub fn run(a: Args) -> Result<()> {
    super::check::out_file("--out", &a.out)?;
    let t = super::topology::load(&a.topology)?;
    let t0 = Instant::now();
    let ends = asr_model::routes::table::endpoints(&t)?;
    let tables = generate_tables(
        &t,
        &a.topology,
        if a.full { Method::Full } else { Method::Pruned },
    )?;
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

//! `asr routes --topology FILE|NAME --out FILE`: route tables of maximum adaptivity for every ordered processor
//! pair (thesis ch. 4), on all cores, with a progress bar; prints the average adaptivity and the time taken.
//! With `--deadlock-free`: the tables restricted so that their channel-dependency graph is acyclic
//! (`routes::deadlock_free`), with the restriction chosen, its cost and the acyclicity check printed.

use anyhow::{bail, Context, Result};
use asr_model::routes::table::Tables;
use asr_model::routes::{generate, Method};
use asr_model::topology::Topology;
use std::io::{BufWriter, Write};
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
    /// Restrict the routes so that their channel-dependency graph is acyclic (up*/down* with the best order
    /// found, only where the unrestricted tables have a dependency cycle), and print the check.
    #[arg(long)]
    pub deadlock_free: bool,
    /// With --deadlock-free: restrict even when the unrestricted tables are already acyclic.
    #[arg(long, requires = "deadlock_free")]
    pub always_restrict: bool,
    /// With --deadlock-free: print every candidate order and its score.
    #[arg(long, requires = "deadlock_free")]
    pub candidates: bool,
    /// With --deadlock-free: choose the order by the lowest estimated load on the busiest channel (then
    /// adaptivity) instead of by adaptivity.
    #[arg(long, requires = "deadlock_free")]
    pub balance: bool,
}

fn write_tables(
    a: &Args,
    t: &asr_model::topology::Topology,
    tables: &asr_model::routes::Tables,
) -> Result<()> {
    let f =
        std::fs::File::create(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let mut w = BufWriter::new(f);
    tables
        .write(t, &mut w)
        .with_context(|| format!("writing {}", a.out.display()))?;
    w.flush()
        .with_context(|| format!("writing {}", a.out.display()))?;
    Ok(())
}

fn run_deadlock_free(a: Args, t: asr_model::topology::Topology) -> Result<()> {
    preflight(&t, &a.topology)?;
    use asr_model::routes::deadlock_free::{generate_deadlock_free, Objective, Options};
    let method = if a.full { Method::Full } else { Method::Pruned };
    let t0 = Instant::now();
    let df = generate_deadlock_free(
        &t,
        method,
        &Options {
            always_restrict: a.always_restrict,
            ranking: None,
            objective: if a.balance {
                Objective::Balance
            } else {
                Objective::Adaptivity
            },
        },
    )?;
    let gen = t0.elapsed().as_secs_f64();
    write_tables(&a, &t, &df.tables)?;
    let s = df.tables.summary();
    if a.candidates {
        for c in &df.candidates {
            let full = c.summary.map_or(String::new(), |s| {
                format!(
                    "; generated: {} non-minimal pairs, adaptivity {:.4}, mean hops {:.3}{}",
                    s.nonminimal,
                    s.adaptivity_minimal,
                    s.mean_hops,
                    c.max_load
                        .map_or(String::new(), |l| format!(", busiest channel load {l:.3}"))
                )
            });
            eprintln!(
                "candidate {}: unroutable {}, non-minimal {}, shortest paths kept {:.4}{full}",
                c.method, c.proxy.unroutable, c.proxy.nonminimal, c.proxy.kept
            );
        }
    }
    let free = &df.unrestricted_cdg;
    match &free.cycle {
        Some(c) => println!(
            "unrestricted tables: channel-dependency graph has a cycle of {} channels ({} …)",
            c.len(),
            c.iter().take(6).cloned().collect::<Vec<_>>().join(" → ")
        ),
        None => println!("unrestricted tables: channel-dependency graph acyclic"),
    }
    println!("restriction: {}", df.restriction.describe());
    println!(
        "check: channel-dependency graph of the written tables over every permitted path (source processor's channel included): {} channels, {} dependencies, {}",
        df.cdg.channels,
        df.cdg.edges,
        if df.cdg.cycle.is_none() { "ACYCLIC" } else { "CYCLIC" }
    );
    let st = df.step_secs;
    eprintln!(
        "time: unrestricted tables {:.3} s, their dependency graph {:.3} s, scoring and searching orders {:.3} s, restricted tables {:.3} s, final check {:.3} s",
        st[0], st[1], st[2], st[3], st[4]
    );
    let n = df.tables.ends.nodes.len();
    println!(
        "{}: {} processors, {} routes, adaptivity {:.4} over the {} minimal pairs, {} pairs routed non-minimally, mean route {:.3} channels (shortest {:.3}), mean npath {:.2}; generated and checked in {:.3} s on {} threads ({:.3} s with writing)",
        a.topology,
        n,
        n * (n - 1),
        s.adaptivity_minimal,
        s.pairs - s.nonminimal,
        s.nonminimal,
        s.mean_hops,
        s.mean_shortest_hops,
        s.mean_npath,
        gen,
        rayon::current_num_threads(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
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
    let t = asr_model::topology::load(&a.topology)?;
    if a.deadlock_free {
        return run_deadlock_free(a, t);
    }
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

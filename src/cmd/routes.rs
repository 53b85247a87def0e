//! `asr routes --topology FILE|NAME --out FILE`: route tables of maximum adaptivity for every ordered processor
//! pair (thesis ch. 4), on all cores, with a progress bar; prints the average adaptivity and the time taken.
//! With `--deadlock-free`: the tables restricted so that their channel-dependency graph is acyclic
//! (`routes::deadlock_free`), with the restriction chosen, its cost and the acyclicity check printed.

use anyhow::{Context, Result};
use asr_model::routes::{generate, Method};
use indicatif::{ProgressBar, ProgressStyle};
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

pub fn run(a: Args) -> Result<()> {
    let t = super::topology::load(&a.topology)?;
    if a.deadlock_free {
        return run_deadlock_free(a, t);
    }
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

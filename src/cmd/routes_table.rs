//! `asr routes-table`: thesis Table 4.1 (average adaptivity), Table 4.3-style generation times and Table 4.4-style
//! parallel statistics for the SP2 systems, measured, side by side with the thesis' numbers. Every route is
//! validated (all port combinations reach the destination on a shortest path) before it is counted.

use anyhow::{bail, Result};
use asr_model::routes::stats::{thesis_distribution, ParallelStats};
use asr_model::routes::table::{generate_scattered, Method, Tables};
use asr_model::routes::validate::{check_route, distances};
use asr_model::topology::{builtin, Topology};
use serde::Serialize;
use std::fmt::Write;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Topologies (built-in names), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_NAMES)]
    pub topologies: Vec<String>,
    /// Worker threads for the measured parallel run (default: the cores present).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Build whole solution graphs (thesis Fig. 4.4) instead of only the part the DP needs.
    #[arg(long)]
    pub full: bool,
    /// Print JSON instead of the tables.
    #[arg(long)]
    pub json: bool,
}

/// The default systems of `asr routes-table`.
pub const DEFAULT_NAMES: &str =
    "sp2:16,sp2:32,sp2:48,sp2:64,sp2even:64,sp2:80,sp2:128,sp2:256,sp2:512";

pub fn default_names() -> Vec<String> {
    DEFAULT_NAMES.split(',').map(str::to_string).collect()
}

/// One topology's measurements.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub name: String,
    pub processors: usize,
    pub source_switches: usize,
    pub adaptivity: f64,
    pub adaptivity_same_board: Option<f64>,
    pub adaptivity_cross_board: Option<f64>,
    pub routes_validated: usize,
    /// Sequential time for all tables (one worker), seconds.
    pub t1: f64,
    /// T1 divided by the number of source switches: one processor's table (processors on a switch share it).
    pub per_table: f64,
    pub measured: ParallelStats,
    pub thesis_scheme: ParallelStats,
}

/// Thesis values by processor count: Table 4.1 adaptivity; Table 4.3 (Sparc 5, SP2 host, SP2 node) seconds;
/// Table 4.4 (t_min, t_max, S, eta, L).
pub fn thesis(n: usize) -> Option<(f64, [f64; 3], [f64; 5])> {
    Some(match n {
        16 => (1.0, [0.016, 0.01, 0.01], [0.0, 0.016, 3.0, 0.187, 1.0]),
        32 => (1.0, [0.233, 0.19, 0.18], [0.05, 0.083, 22.8, 0.228, 0.40]),
        48 => (1.0, [0.283, 0.21, 0.21], [0.066, 0.083, 38.4, 0.800, 0.20]),
        64 => (0.53, [0.366, 0.32, 0.27], [0.1, 0.133, 41.75, 0.652, 0.25]),
        128 => (
            1.0,
            [20.699, 15.57, 14.88],
            [5.233, 5.566, 120.072, 0.938, 0.059],
        ),
        256 => (
            1.0,
            [101.645, 47.43, 47.13],
            [26.565, 27.248, 222.913, 0.871, 0.025],
        ),
        512 => (
            1.0,
            [1846.276, 1347.19, 1304.23],
            [482.597, 501.713, 477.675, 0.933, 0.038],
        ),
        _ => return None,
    })
}

fn board(t: &Topology, e: usize) -> &str {
    let n = &t.element(e).name;
    n.split_once('C').map(|x| x.0).unwrap_or(n)
}

/// Validates every route and splits the adaptivity by same-board and cross-board pairs (SP2 names).
fn check_and_split(t: &Topology, tables: &Tables) -> Result<(usize, Option<f64>, Option<f64>)> {
    let mut count = 0;
    let (mut same, mut cross) = ((0.0, 0usize), (0.0, 0usize));
    let mut dist_src = usize::MAX;
    let mut dist = Vec::new();
    for r in tables.routes() {
        if r.src != dist_src {
            dist = distances(t, r.src);
            dist_src = r.src;
        }
        if let Err(e) = check_route(t, r.src, r.dst, &r.hops, r.npath, &dist) {
            bail!(
                "route {} -> {} is invalid: {e}",
                t.element(r.src).name,
                t.element(r.dst).name
            );
        }
        count += 1;
        let a = t.inject_switch(r.src).map(|p| p.elem).unwrap_or(r.src);
        let b = t.deliver_port(r.dst).map(|p| p.elem).unwrap_or(r.dst);
        let acc = if board(t, a) == board(t, b) {
            &mut same
        } else {
            &mut cross
        };
        acc.0 += r.npath as f64 / r.physical as f64;
        acc.1 += 1;
    }
    let avg = |(s, c): (f64, usize)| (c > 0).then(|| s / c as f64);
    Ok((count, avg(same), avg(cross)))
}

/// Measures one topology.
/// Repetitions of every timed run; the fastest is kept (the machine is shared and times are small).
pub const REPS: usize = 5;

/// Measures one topology.
pub fn measure(name: &str, workers: usize, method: Method) -> Result<Row> {
    let t = builtin(name)?;
    let (mut seq, one) = generate_scattered(&t, 1, method)?;
    let mut t1 = one[0];
    for _ in 1..REPS {
        let (again, one) = generate_scattered(&t, 1, method)?;
        t1 = t1.min(one[0]);
        // Keep the fastest time seen for every BFS and every switch pair.
        for (s, a) in seq.sources.iter_mut().zip(&again.sources) {
            s.bfs_secs = s.bfs_secs.min(a.bfs_secs);
            for (d, e) in s.dests.iter_mut().zip(&a.dests) {
                d.2 = d.2.min(e.2);
            }
        }
    }
    let (mut tables, mut times) = generate_scattered(&t, workers, method)?;
    for _ in 1..REPS {
        let (tb, ti) = generate_scattered(&t, workers, method)?;
        if ti.iter().copied().fold(0.0, f64::max) < times.iter().copied().fold(0.0, f64::max) {
            (tables, times) = (tb, ti);
        }
    }
    let (routes_validated, same, cross) = check_and_split(&t, &tables)?;
    let sources = seq.sources.len();
    Ok(Row {
        name: name.to_string(),
        processors: seq.ends.nodes.len(),
        source_switches: sources,
        adaptivity: tables.average_adaptivity(),
        adaptivity_same_board: same,
        adaptivity_cross_board: cross,
        routes_validated,
        t1,
        per_table: t1 / sources as f64,
        measured: ParallelStats::from_times(t1, &times),
        thesis_scheme: thesis_distribution(&seq),
    })
}

pub fn compute(a: &Args) -> Result<Vec<Row>> {
    let workers = a.workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if workers == 0 {
        bail!("--workers must be at least 1");
    }
    let method = if a.full { Method::Full } else { Method::Pruned };
    let bar = super::progress::bar("routes-table", a.topologies.len() as u64, "systems");
    let rows = a
        .topologies
        .iter()
        .map(|n| {
            let r = measure(n, workers, method);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    rows
}

fn opt(x: Option<f64>) -> String {
    x.map(|v| format!("{v:.4}")).unwrap_or_else(|| "-".into())
}

pub fn render(rows: &[Row], seconds: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Thesis Table 4.1: average adaptivity (npath / physically existing shortest paths, over ordered processor pairs)");
    let _ = writeln!(
        s,
        "{:<11} {:>5} {:>9} {:>7} {:>11} {:>12} {:>10}",
        "topology", "N", "measured", "thesis", "same-board", "cross-board", "validated"
    );
    for r in rows {
        let th = thesis(r.processors)
            .map(|x| format!("{:.2}", x.0))
            .unwrap_or_else(|| "-".into());
        let th = if r.name.starts_with("sp2:") {
            th
        } else {
            "-".into()
        };
        let _ = writeln!(
            s,
            "{:<11} {:>5} {:>9.4} {:>7} {:>11} {:>12} {:>10}",
            r.name,
            r.processors,
            r.adaptivity,
            th,
            opt(r.adaptivity_same_board),
            opt(r.adaptivity_cross_board),
            r.routes_validated
        );
    }
    let _ = writeln!(s, "\nTable 4.3-style times (seconds, best of {REPS}): T1 = all tables on one thread of this machine; per table = T1 / source switches");
    let _ = writeln!(s, "(one processor's table; the 4 processors of a switch share it). Thesis: improved algorithm, one processor's table.");
    let _ = writeln!(
        s,
        "{:<11} {:>5} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "topology",
        "N",
        "switches",
        "T1",
        "per table",
        "parallel",
        "Sparc 5",
        "SP2 host",
        "SP2 node"
    );
    for r in rows {
        let th = thesis(r.processors).filter(|_| r.name.starts_with("sp2:"));
        let c = |i: usize| {
            th.map(|x| format!("{:.3}", x.1[i]))
                .unwrap_or_else(|| "-".into())
        };
        let _ = writeln!(
            s,
            "{:<11} {:>5} {:>8} {:>10.4} {:>10.5} {:>10.4} {:>10} {:>10} {:>10}",
            r.name,
            r.processors,
            r.source_switches,
            r.t1,
            r.per_table,
            r.measured.t_max,
            c(0),
            c(1),
            c(2)
        );
    }
    let _ = writeln!(s, "\nTable 4.4-style parallel statistics. measured: source switches scattered over P real threads of this machine;");
    let _ = writeln!(s, "thesis scheme: P = N processors, destination switches dealt to the processors of each source switch (Fig. 4.13),");
    let _ = writeln!(s, "computed from the per-pair times of the sequential run. S = T1/t_max, eta = S/P, L = (t_max-t_min)/t_max.");
    let _ = writeln!(
        s,
        "{:<11} {:>14} {:>4} {:>9} {:>9} {:>8} {:>6} {:>6}",
        "topology", "run", "P", "t_min", "t_max", "S", "eta", "L"
    );
    for r in rows {
        for (label, p) in [
            ("measured", &r.measured),
            ("thesis scheme", &r.thesis_scheme),
        ] {
            let _ = writeln!(
                s,
                "{:<11} {:>14} {:>4} {:>9.5} {:>9.5} {:>8.2} {:>6.3} {:>6.3}",
                r.name,
                label,
                p.processors,
                p.t_min,
                p.t_max,
                p.speedup(),
                p.efficiency(),
                p.imbalance()
            );
        }
        if let Some((_, _, th)) = thesis(r.processors).filter(|_| r.name.starts_with("sp2:")) {
            let _ = writeln!(
                s,
                "{:<11} {:>14} {:>4} {:>9.3} {:>9.3} {:>8.2} {:>6.3} {:>6.3}",
                r.name, "thesis", r.processors, th[0], th[1], th[2], th[3], th[4]
            );
        }
    }
    let _ = writeln!(
        s,
        "\n({} cores present; {:.1} s in all)",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        seconds
    );
    s
}

pub fn run(a: Args) -> Result<()> {
    let t0 = Instant::now();
    let rows = compute(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", render(&rows, t0.elapsed().as_secs_f64()));
    }
    Ok(())
}

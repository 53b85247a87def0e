//! `asr paths`, `asr torus-theorems`, `asr delivery-mc`: shortest-path counts and delivery probabilities on
//! meshes, tori and hypercubes (Wu, An Optimal Routing Policy for Mesh-Connected Topologies), the torus theorems, and the Monte-Carlo check.

use anyhow::{anyhow, bail, Result};
use asr_model::delivery::montecarlo::delivered_share;
use asr_model::delivery::theorems::TorusFindings;
use asr_model::delivery::{delivery, Grid, Policy};
use serde::Serialize;
use std::fmt::Write;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// `mesh:KxK`, `torus:KxK` or `hypercube:D`.
    #[arg(long, default_value = "torus:6x6")]
    pub topology: String,
    /// Destination coordinates, comma-separated (for a hypercube: its label's bits, dimension 0 first, or the
    /// label as one number).
    #[arg(long, default_value = "0,0")]
    pub dest: String,
    /// Policy for S: optimal, mp, z2, xy (= ecube).
    #[arg(long, default_value = "optimal")]
    pub policy: String,
    /// JSON: one object per node `{"node": [i, j], "paths": P, "s": [c0, c1, …]}` with S = Σ ck p^k.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct NodeOut {
    node: Vec<usize>,
    paths: u128,
    s: Vec<i64>,
}

fn parse_dest(g: &Grid, s: &str) -> Result<usize> {
    let parts: Vec<usize> = s
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<usize>()
                .map_err(|_| anyhow!("--dest `{s}`: `{x}` is not a number"))
        })
        .collect::<Result<_>>()?;
    let c = if parts.len() == 1 && g.dims.len() > 1 && g.dims.iter().all(|&k| k == 2) {
        // A hypercube node given as one number: it must be one of the 2^D labels.
        if parts[0] >= g.nodes() {
            bail!(
                "--dest `{s}`: {g} has nodes 0..{} (or give D coordinates 0/1)",
                g.nodes() - 1
            );
        }
        g.coords(parts[0])
    } else {
        parts
    };
    if c.len() != g.dims.len() {
        bail!("--dest `{s}`: {} has {} dimensions", g, g.dims.len());
    }
    for (d, (&x, &k)) in c.iter().zip(&g.dims).enumerate() {
        if x >= k {
            bail!("--dest `{s}`: coordinate {x} of dimension {d} is outside 0..{k}");
        }
    }
    Ok(g.index(&c))
}

pub fn run(a: Args) -> Result<()> {
    let g = Grid::parse(&a.topology).map_err(|e| anyhow!(e))?;
    if g.nodes() > 4096 {
        bail!(
            "{}: {} nodes; exact polynomials are computed up to 4096 nodes",
            g,
            g.nodes()
        );
    }
    let dest = parse_dest(&g, &a.dest)?;
    let policy = Policy::parse(&a.policy).map_err(|e| anyhow!(e))?;
    let d = delivery(&g, dest, policy);
    let p = g.path_counts(dest);
    if a.json {
        let out: Vec<NodeOut> = (0..g.nodes())
            .map(|v| {
                let s = d.s[v]
                    .to_i64()
                    .ok_or_else(|| anyhow!("node {v}: a coefficient of S exceeds 64 bits"))?;
                Ok(NodeOut {
                    node: g.coords(v),
                    paths: p[v],
                    s,
                })
            })
            .collect::<Result<_>>()?;
        println!("{}", serde_json::to_string(&out)?);
    } else {
        print!("{}", render(&g, dest, policy, &d, &p));
    }
    Ok(())
}

/// The per-node table (as Wu's Table 1), nodes ordered by distance.
pub fn render(
    g: &Grid,
    dest: usize,
    policy: Policy,
    d: &asr_model::delivery::Delivery,
    p: &[u128],
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{g}, destination {:?}, policy {}: P = number of shortest paths, S = delivery probability",
        g.coords(dest),
        policy.name()
    );
    let mut nodes: Vec<usize> = (0..g.nodes()).collect();
    nodes.sort_by_key(|&v| (g.dist(v, dest), v));
    for v in nodes {
        let _ = writeln!(
            s,
            "{:>12} P = {:<8} S = {}",
            format!("{:?}", g.coords(v)),
            p[v],
            d.s[v]
        );
    }
    if !d.undecided.is_empty() {
        let _ = writeln!(s, "note: at {} node(s) the optimal order depends on p; S above is one branch (see `asr torus-theorems`)", d.undecided.len());
    }
    s
}

#[derive(clap::Args, Debug, Clone)]
pub struct TheoremArgs {
    /// Largest even N.
    #[arg(long, default_value_t = 20)]
    pub max_n: usize,
    /// Print JSON (one object per N: the theorems' checks and where MP stops being optimal) instead of the text.
    #[arg(long)]
    pub json: bool,
}

pub fn render_findings(all: &[TorusFindings]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Wu's theorems on N×N tori (destination (0,0)); Theorem 1: Z² not optimal for even N > 4; Theorem 2: turning point k with N/2 = 2k or 2k+1");
    let _ = writeln!(s, "{:>3} {:>10} {:>10} {:>14} {:>12} {:>14} {:>9}  p-dependent nodes (p where the best choice changes)", "N", "Theorem 1", "Z² subopt.", "k (formula/MP)", "S_opt 1 poly", "MP optimal", "max gap");
    for f in all {
        let t1 = if f.n > 4 {
            if f.diagonal_not_best && f.z2_not_optimal {
                "holds"
            } else {
                "FAILS"
            }
        } else {
            "n/a"
        };
        let mp = match f.mp_optimal_below {
            None => "all p".to_string(),
            Some(p) => format!("p < {p:.3}"),
        };
        let gap = f.mp_gap.iter().map(|g| g.1).fold(0.0f64, f64::max);
        let cross: Vec<String> = f
            .crossings
            .iter()
            .map(|c| format!("({},{})@{:?}", c.node[0], c.node[1], c.at_p))
            .collect();
        let _ = writeln!(
            s,
            "{:>3} {:>10} {:>10} {:>14} {:>12} {:>14} {:>9.1e}  {}",
            f.n,
            t1,
            f.z2_suboptimal_nodes,
            format!(
                "{}/{} (thm {})",
                f.turning_k_formula, f.turning_k_mp, f.turning_k_theorem
            ),
            f.optimal_is_polynomial,
            mp,
            gap,
            cross.join(" ")
        );
    }
    s
}

pub fn run_theorems(a: TheoremArgs) -> Result<()> {
    if a.max_n < 4 || a.max_n > 40 {
        bail!("--max-n {}: must be between 4 and 40", a.max_n);
    }
    // One N at a time in parallel, with progress (N = 20 alone takes seconds).
    use rayon::prelude::*;
    let ns: Vec<usize> = (4..=a.max_n).filter(|n| n % 2 == 0).collect();
    let bar = if a.json {
        super::progress::hidden()
    } else {
        super::progress::bar("torus-theorems", ns.len() as u64, "tori")
    };
    let all: Vec<_> = ns
        .into_par_iter()
        .map(|n| {
            let f = asr_model::delivery::theorems::torus_findings(n);
            bar.inc(1);
            f
        })
        .collect();
    bar.finish_and_clear();
    if a.json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    } else {
        print!("{}", render_findings(&all));
    }
    Ok(())
}

#[derive(clap::Args, Debug, Clone)]
pub struct McArgs {
    /// `mesh:KxK`, `torus:KxK` or `hypercube:D`.
    #[arg(long, default_value = "torus:6x6")]
    pub topology: String,
    /// Destination node: coordinates `i,j` (meshes, tori) or a number below 2^D (hypercubes).
    #[arg(long, default_value = "0,0")]
    pub dest: String,
    /// Probability that a link is available.
    #[arg(long, default_value_t = 0.8)]
    pub p: f64,
    /// Messages per source node, 1..=100000000.
    #[arg(long, default_value_t = 20_000)]
    pub trials: u64,
    /// Seed of the random link failures.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Monte-Carlo delivery rates against S for every node and policy; returns the report and the largest |z|.
pub fn monte_carlo(a: &McArgs) -> Result<(String, f64)> {
    let g = Grid::parse(&a.topology).map_err(|e| anyhow!(e))?;
    if !(a.p > 0.0 && a.p <= 1.0) {
        bail!("--p {}: must be in (0, 1]", a.p);
    }
    super::check::count("--trials", a.trials, 1, 100_000_000)?;
    let dest = parse_dest(&g, &a.dest)?;
    let mut s = String::new();
    let _ = writeln!(s, "{g}, destination {:?}, p = {}, {} messages per source: delivered without delay (Monte Carlo vs exact S)", g.coords(dest), a.p, a.trials);
    let _ = writeln!(
        s,
        "{:>16} {:>12} {:>12} {:>10}",
        "policy", "mean MC", "mean S", "max |z|"
    );
    let mut worst = 0.0f64;
    for pol in [
        Policy::Optimal,
        Policy::Mp,
        Policy::Z2,
        Policy::DimensionOrder,
    ] {
        let d = delivery(&g, dest, pol);
        let (mut mc, mut ex, mut zmax) = (0.0, 0.0, 0.0f64);
        let others: Vec<usize> = (0..g.nodes()).filter(|&v| v != dest).collect();
        for &v in &others {
            let e = d.s[v].eval(a.p);
            let m = delivered_share(&g, &d, v, a.p, a.trials, a.seed);
            let sigma = (e * (1.0 - e) / a.trials as f64).sqrt().max(1e-12);
            zmax = zmax.max((m - e).abs() / sigma);
            mc += m;
            ex += e;
        }
        let k = others.len() as f64;
        let _ = writeln!(
            s,
            "{:>16} {:>12.5} {:>12.5} {:>10.2}",
            pol.name(),
            mc / k,
            ex / k,
            zmax
        );
        worst = worst.max(zmax);
    }
    Ok((s, worst))
}

pub fn run_mc(a: McArgs) -> Result<()> {
    let (s, _) = monte_carlo(&a)?;
    print!("{s}");
    Ok(())
}

#[derive(clap::Args, Debug, Clone)]
pub struct SimCheckArgs {
    /// Topologies, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "torus:6x6,mesh:5x5,hypercube:4"
    )]
    pub topology: Vec<String>,
    /// Probability that a link is available in a cycle.
    #[arg(long, default_value_t = 0.8)]
    pub p: f64,
    /// Packets per topology and policy (sent one at a time), 1..=100000000.
    #[arg(long, default_value_t = 20_000)]
    pub packets: u64,
    /// Seed of the traffic and the link failures.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON (one object per topology and policy) instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Per-hop policies in the cycle-accurate simulator against the exact S (rows and the rendered table).
pub fn sim_check(
    a: &SimCheckArgs,
) -> Result<(Vec<asr_model::delivery::perhop::PerHopCheck>, String)> {
    use rayon::prelude::*;
    if !(a.p > 0.0 && a.p <= 1.0) {
        bail!("--p {}: must be in (0, 1]", a.p);
    }
    super::check::count("--packets", a.packets, 1, 100_000_000)?;
    for t in &a.topology {
        let g = Grid::parse(t).map_err(|e| anyhow!(e))?;
        let max = super::check::MAX_DELIVERY_SIM_NODES;
        if g.nodes() > max {
            bail!(
                "--topology {t}: {} nodes; delivery-sim computes the exact S for every pair and takes at most {max} nodes",
                g.nodes()
            );
        }
    }
    let jobs: Vec<(String, Policy)> = a
        .topology
        .iter()
        .flat_map(|t| [Policy::Mp, Policy::Z2, Policy::DimensionOrder].map(|p| (t.clone(), p)))
        .collect();
    let bar = if a.json {
        super::progress::hidden()
    } else {
        super::progress::bar("delivery-sim", jobs.len() as u64, "topology × policy")
    };
    let rows: Vec<_> = jobs
        .par_iter()
        .map(|(t, pol)| {
            let r = asr_model::delivery::perhop::check_against_s(t, *pol, a.p, a.packets, a.seed)
                .map_err(|e| anyhow!(e));
            bar.inc(1);
            r
        })
        .collect::<Result<_>>()?;
    bar.finish_and_clear();
    let mut s = String::new();
    let _ = writeln!(s, "Per-hop policies in the cycle-accurate simulator, links unavailable with probability 1 - p = {:.2} per cycle, packets sent one at a time:", 1.0 - a.p);
    let _ = writeln!(
        s,
        "{:>14} {:>16} {:>9} {:>22} {:>12} {:>7}",
        "topology", "policy", "packets", "delivered w/o delay", "expected ΣS", "z"
    );
    for c in &rows {
        let _ = writeln!(
            s,
            "{:>14} {:>16} {:>9} {:>22} {:>12.1} {:>7.2}",
            c.topology, c.policy, c.packets, c.undelayed, c.expected, c.z
        );
    }
    Ok((rows, s))
}

pub fn run_sim_check(a: SimCheckArgs) -> Result<()> {
    let (rows, s) = sim_check(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{s}");
    }
    Ok(())
}

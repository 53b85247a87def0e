//! `asr wormhole`: wormhole routing on a hypercube (Gravano et al., Adaptive Deadlock-free Worm-hole Routing in Hypercubes). Runs one configuration or a sweep (every
//! combination of the listed algorithms, patterns, worm lengths and loads, in parallel with rayon), prints a
//! table (or JSON), and optionally the channel-dependency checks (`--cdg`).

use anyhow::{bail, Result};
use asr_model::wormhole::algorithms::{self, Algorithm};
use asr_model::wormhole::cdg;
use asr_model::wormhole::stats::lambda_max;
use asr_model::wormhole::sweep::run_all;
use asr_model::wormhole::{NodeModel, Pattern, RunResult, SimConfig};
use indicatif::ProgressBar;
use std::fmt::Write;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Hypercube dimension (2^n nodes).
    #[arg(long, default_value_t = 10)]
    pub n: u32,
    /// Algorithms, comma-separated: ecube, hanging, zenith, hanging-order, fully, nonminimal, subcubes,
    /// `subcubes:<hex mask of subcube dimensions>`, unsafe-adaptive; or "all".
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub alg: Vec<String>,
    /// Traffic patterns, comma-separated: random, complement, transpose (Gravano et al.'s), or any other pattern
    /// of `asr sim` that never sends to the source (shift-left, bit-reversal, …).
    #[arg(long, value_delimiter = ',', default_value = "random")]
    pub pattern: Vec<String>,
    /// Worm lengths in flits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "10")]
    pub worm: Vec<u32>,
    /// Offered loads in % of λmax = 1/(2b), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "50")]
    pub load: Vec<f64>,
    /// Offered rates in messages per node per cycle (overrides --load), comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub rate: Vec<f64>,
    /// Flit buffer depth per virtual channel.
    #[arg(long, default_value_t = 2)]
    pub buf: u32,
    /// Processor–router interface: separate (an injection and an ejection channel, one flit per cycle each)
    /// or shared (one channel, one flit per cycle for both; λmax = 1/(2b) is then a bound).
    #[arg(long, default_value = "separate")]
    pub node: NodeModel,
    /// Warm-up cycles, 0..=100000000.
    #[arg(long, default_value_t = 2000)]
    pub warmup: u64,
    /// Measurement cycles, 1..=100000000.
    #[arg(long, default_value_t = 5000)]
    pub measure: u64,
    /// Deadlock watchdog: error when no flit moves for this many cycles with worms in the network.
    #[arg(long, default_value_t = 2000)]
    pub watchdog: u64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON results instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also run the channel-dependency checks for every listed algorithm on n = 2..=CDG.
    #[arg(long)]
    pub cdg: Option<u32>,
}

/// CPU seconds used by this process so far (user + system, all threads), from `/proc/self/stat` (Linux;
/// assumes the usual 100 clock ticks per second). `None` elsewhere.
pub fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ut: f64 = f.get(11)?.parse().ok()?;
    let st: f64 = f.get(12)?.parse().ok()?;
    Some((ut + st) / 100.0)
}

/// Parses an algorithm list ("all" = the seven of Gravano et al.).
pub fn parse_algs(list: &[String]) -> Result<Vec<Algorithm>> {
    let mut v = Vec::new();
    for s in list {
        if s.trim().eq_ignore_ascii_case("all") {
            v.extend(algorithms::ALL);
        } else {
            v.push(s.parse::<Algorithm>()?);
        }
    }
    if v.is_empty() {
        bail!("--alg needs at least one algorithm");
    }
    Ok(v)
}

pub fn parse_patterns(list: &[String]) -> Result<Vec<Pattern>> {
    let v = list
        .iter()
        .map(|s| s.parse::<Pattern>().map_err(anyhow::Error::from))
        .collect::<Result<Vec<_>>>()?;
    if v.is_empty() {
        bail!("--pattern needs at least one pattern");
    }
    Ok(v)
}

/// The configurations of a sweep, each with its own stream id.
pub fn configs(a: &Args) -> Result<Vec<SimConfig>> {
    let algs = parse_algs(&a.alg)?;
    let pats = parse_patterns(&a.pattern)?;
    if a.worm.is_empty() {
        bail!("--worm needs at least one length");
    }
    if a.rate.is_empty() && a.load.is_empty() {
        bail!("give --load or --rate");
    }
    if let Some(l) = a.load.iter().find(|&&l| l.is_nan() || l <= 0.0) {
        bail!("--load {l}: loads must be > 0 (% of λmax)");
    }
    super::check::count("--warmup", a.warmup, 0, super::check::MAX_CYCLES)?;
    super::check::count("--measure", a.measure, 1, super::check::MAX_CYCLES)?;
    super::check::count("--watchdog", a.watchdog, 1, super::check::MAX_CYCLES)?;
    let mut v = Vec::new();
    for &p in &pats {
        for &b in &a.worm {
            let rates: Vec<f64> = if a.rate.is_empty() {
                a.load
                    .iter()
                    .map(|&l| SimConfig::rate_for_pct(b, l))
                    .collect()
            } else {
                a.rate.clone()
            };
            for &alg in &algs {
                for &r in &rates {
                    let mut c = SimConfig::new(a.n, alg, p, b, r);
                    c.buf_depth = a.buf;
                    c.node = a.node;
                    c.warmup = a.warmup;
                    c.measure = a.measure;
                    c.watchdog = a.watchdog;
                    c.seed = a.seed;
                    c.stream = v.len() as u64;
                    c.validate()?;
                    v.push(c);
                }
            }
        }
    }
    Ok(v)
}

/// A progress bar over `len` runs.
pub fn bar(len: u64, msg: &str) -> ProgressBar {
    super::progress::bar(msg, len, "runs")
}

/// Runs every configuration with a progress bar; any error (deadlock, invariant) aborts with its message.
pub fn run_configs(cfgs: &[SimConfig], msg: &str) -> Result<Vec<RunResult>> {
    let pb = bar(cfgs.len() as u64, msg);
    let res = run_all(cfgs, |_, _| pb.inc(1));
    pb.finish_and_clear();
    let mut out = Vec::with_capacity(res.len());
    for (c, r) in cfgs.iter().zip(res) {
        match r {
            Ok(r) => out.push(r),
            Err(e) => bail!(
                "{} {} b={} rate={:.5} (n={}): {e}",
                c.algorithm,
                c.pattern,
                c.worm_len,
                c.rate,
                c.n
            ),
        }
    }
    Ok(out)
}

pub fn render(rs: &[RunResult]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<14} {:<10} {:>3} {:>3} {:>9} {:>9} {:>9} {:>8} {:>5} {:>12}",
        "algorithm",
        "pattern",
        "b",
        "VCs",
        "offered%",
        "accepted%",
        "mean lat",
        "max lat",
        "sust",
        "flit-hops/s"
    );
    for r in rs {
        let _ = writeln!(
            s,
            "{:<14} {:<10} {:>3} {:>3} {:>9.1} {:>9.1} {:>9.1} {:>8} {:>5} {:>12}",
            r.algorithm,
            r.pattern,
            r.worm_len,
            r.vcs,
            r.offered_pct,
            r.accepted_pct,
            r.mean_latency,
            r.max_latency,
            if r.sustained { "yes" } else { "no" },
            r.flit_hops
        );
    }
    s
}

/// CDG checks on n = 2..=max for the given algorithms, as text.
pub fn cdg_text(algs: &[Algorithm], max: u32) -> Result<String> {
    let mut s = String::new();
    for &alg in algs {
        for n in 2..=max {
            let (rep, which) = cdg::check(alg, n)?;
            let _ = writeln!(
                s,
                "{:<14} n={n}: {which}: {} channels, {} dependencies, {}",
                alg.name(),
                rep.channels,
                rep.edges,
                match &rep.cycle {
                    None => "acyclic".to_string(),
                    Some(c) => format!("CYCLE through {} channels {:?}", c.len(), c),
                }
            );
        }
    }
    Ok(s)
}

pub fn run(a: Args) -> Result<()> {
    let cfgs = configs(&a)?;
    if let Some(m) = a.cdg {
        if !(2..=8).contains(&m) {
            bail!("--cdg {m}: checks run on n = 2..=m with m between 2 and 8");
        }
        print!("{}", cdg_text(&parse_algs(&a.alg)?, m)?);
    }
    let t = Instant::now();
    let c0 = cpu_seconds();
    let rs = run_configs(&cfgs, "wormhole")?;
    let secs = t.elapsed().as_secs_f64();
    let cpu = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => rs.iter().map(|r| r.seconds).sum(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rs)?);
    } else {
        print!("{}", render(&rs));
        let hops: u64 = rs.iter().map(|r| r.flit_hops).sum();
        println!(
            "{} runs in {secs:.1} s wall, {cpu:.1} CPU s; {:.3e} flit-hops per CPU second; λmax = 1/(2b) = {}",
            rs.len(),
            hops as f64 / cpu.max(1e-9),
            a.worm.iter().map(|&b| format!("{:.4} (b={b})", lambda_max(b))).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(())
}

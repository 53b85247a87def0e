//! `asr allocators`: the ASR heuristic beside iSLIP, PIM, wavefront and exact maximum matching (issue 17).
//!
//! Three parts, one object per (allocator, m, density) in `--json`:
//! - matching quality on random request matrices (`asr_model::allocator::quality`, Table 2.1's measures);
//! - for m = 8, network throughput with the allocator as every switch's allocator: saturation (the maximum
//!   accepted throughput over a load sweep) on `sp2:128` (deadlock-free ASR tables), `fly:4,3` and
//!   `benes:64`, and the mean latency at half that saturation load (skipped with `--no-networks`);
//! - for m = 8, the FPGA cost of the allocator's 8×8 RustHDL block, read from the synthesis cache that
//!   `scripts/synth.sh` writes (`synth/cache/<target>/<top>-<key>.row`); `null` where no block or no
//!   measurement exists.

use anyhow::{bail, Context, Result};
use asr_model::allocator::quality::{table, QualityCell};
use asr_model::network::engine::Engine;
use asr_model::network::sim::SimConfig;
use asr_model::network::sweep::{saturation, sweep};
use asr_model::routing::Routing;
use asr_model::traffic::{Injection, Pattern};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The networks of the throughput study: (name in the output, `--network`, deadlock-free tables).
pub const NETWORKS: [(&str, &str, bool); 3] = [
    ("sp2:128", "sp2:128", true),
    ("fly:4,3", "fly:4,3", false),
    ("benes:64", "benes:64", false),
];

/// The offered loads of the saturation sweep.
pub const LOADS: [f64; 10] = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0];

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Allocators, comma-separated (asr-p1, asr-p2, islip-1, islip-2, islip-4, pim-1, pim-2, wavefront, exact).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "asr-p1,asr-p2,islip-1,islip-2,islip-4,pim-1,pim-2,wavefront,exact"
    )]
    pub allocator: Vec<String>,
    /// Matrix sizes (switch ports), comma-separated, each 2..=64.
    #[arg(long, value_delimiter = ',', default_value = "4,8,16")]
    pub m: Vec<usize>,
    /// Request densities (probability that a request bit is 1), comma-separated, each in [0, 1].
    #[arg(long, value_delimiter = ',', default_value = "0.1,0.3,0.5,0.9")]
    pub density: Vec<f64>,
    /// Random request matrices per (allocator, m, density), 1..=100000000.
    #[arg(long, default_value_t = 100_000)]
    pub trials: u64,
    /// Seed of the request matrices, of PIM's random choices and of the network traffic.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip the network throughput study (its `saturation` and latency keys are then null).
    #[arg(long)]
    pub no_networks: bool,
    /// Measured packets per input per load of the network study, 100..=1000000.
    #[arg(long, default_value_t = 2000)]
    pub packets: u64,
    /// The synthesis cache to read the FPGA figures from (default: synth/cache of this source tree).
    #[arg(long)]
    pub synth_cache: Option<PathBuf>,
    /// Print one JSON object per (allocator, m, density) (a JSON array) instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// FPGA figures of an allocator's 8×8 block on one target (`None` = not measured).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Hw {
    pub top: Option<String>,
    pub lut: Option<u64>,
    pub ff: Option<u64>,
    pub depth: Option<u64>,
    pub fmax_mhz: Option<f64>,
}

/// Network figures of one allocator on one network.
#[derive(Debug, Clone, Serialize)]
pub struct Net {
    pub saturation: f64,
    pub half_load: f64,
    pub latency_at_half: f64,
}

/// One output object.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub allocator: String,
    pub m: usize,
    pub density: f64,
    pub trials: u64,
    pub fractions: [f64; 4],
    pub mean_size_over_max: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lut_ice40: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ff_ice40: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth_ice40: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fmax_ice40_mhz: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lut_ecp5: Option<Option<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fmax_ecp5_mhz: Option<Option<f64>>,
    /// Saturation throughput per network (null when the study was skipped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saturation: Option<BTreeMap<String, Option<f64>>>,
    /// Mean latency (cycles) at half the saturation load, per network.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_at_half_saturation: Option<BTreeMap<String, Option<f64>>>,
}

/// The exported 8×8 top of each allocator that has one (docs/allocators.md).
pub fn top_of(allocator: &str) -> Option<&'static str> {
    Some(match allocator {
        "asr-p1" => "matcher_m8_p1",
        "asr-p2" => "matcher_m8_p2",
        "islip-1" => "alloc_islip1_m8",
        "pim-1" => "alloc_pim1_m8",
        "wavefront" => "alloc_wavefront_m8",
        _ => return None,
    })
}

/// Parses the row of `top` in a synthesis cache folder (`| top | generic | LUT4 | FF | RAM | carry | depth |
/// Fmax | time |`); `None` when the folder has no row for it. Several rows (stale keys): the last by name.
pub fn cached_row(dir: &Path, top: &str) -> Result<Option<Hw>> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(None);
    };
    let prefix = format!("{top}-");
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix(prefix.as_str()))
                .and_then(|k| k.strip_suffix(".row"))
                .is_some_and(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_hexdigit()))
        })
        .collect();
    files.sort();
    let Some(f) = files.last() else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
    let Some(line) = text.lines().find(|l| l.starts_with('|')) else {
        bail!("{}: no table row", f.display());
    };
    let cols: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
    if cols.len() < 8 || cols[0] != top {
        bail!(
            "{}: expected `| {top} | … |` with 9 columns, got `{line}`",
            f.display()
        );
    }
    Ok(Some(Hw {
        top: Some(top.to_string()),
        lut: cols[2].parse().ok(),
        ff: cols[3].parse().ok(),
        depth: cols[6].parse().ok(),
        fmax_mhz: cols[7].parse().ok(),
    }))
}

/// The LFE5U-25F folder of the synthesis cache (the ECP5 part), if the ECP5 flow has written it.
/// (Another ECP5 folder, such as `ecp5-85f` for the board, is not this column.)
fn ecp5_dir(cache: &Path) -> Option<PathBuf> {
    let d = cache.join("ecp5-25f");
    d.is_dir().then_some(d)
}

/// The engine and routing of a study network.
fn build_network(spec: &str, deadlock_free: bool) -> Result<(Engine, Box<dyn Routing>)> {
    if spec.starts_with("benes") || spec.starts_with("fly") {
        super::networks::network(spec, "asr")
    } else {
        super::networks::table_network(
            spec,
            "asr",
            None,
            deadlock_free,
            super::networks::objective(false),
        )
    }
}

/// Saturation and latency at half saturation of every allocator on every study network.
pub fn network_study(
    allocators: &[String],
    packets: u64,
    seed: u64,
) -> Result<BTreeMap<(String, String), Net>> {
    let mut out = BTreeMap::new();
    for (name, spec, df) in NETWORKS {
        let (engine, routing) = build_network(spec, df)?;
        let mut base = SimConfig::new(Injection::geometric(1.0)?, Pattern::Uniform, seed);
        base.packets_per_input = packets;
        let res: Vec<Result<(String, Net)>> = allocators
            .par_iter()
            .map(|a| {
                let mut e = engine.clone();
                e.set_allocator(asr_model::allocator::by_name(a)?);
                let pts = sweep(&e, routing.as_ref(), &base, &LOADS, &|| {})
                    .with_context(|| format!("{a} on {name}"))?;
                let sat = saturation(&pts);
                let half = sat / 2.0;
                let p = sweep(&e, routing.as_ref(), &base, &[half], &|| {})
                    .with_context(|| format!("{a} on {name} at load {half}"))?;
                Ok((
                    a.clone(),
                    Net {
                        saturation: sat,
                        half_load: half,
                        latency_at_half: p[0].mean_latency,
                    },
                ))
            })
            .collect();
        for r in res {
            let (a, n) = r?;
            out.insert((a, name.to_string()), n);
        }
    }
    Ok(out)
}

fn validate(a: &Args) -> Result<()> {
    if a.allocator.is_empty() || a.m.is_empty() || a.density.is_empty() {
        bail!("--allocator, --m and --density need at least one value each");
    }
    for n in &a.allocator {
        asr_model::allocator::by_name(n).map_err(|e| anyhow::anyhow!("--allocator: {e}"))?;
    }
    if let Some(&m) = a.m.iter().find(|&&m| !(2..=64).contains(&m)) {
        bail!("--m {m}: matrix size must be between 2 and 64");
    }
    if let Some(&d) = a
        .density
        .iter()
        .find(|&&d| d.is_nan() || !(0.0..=1.0).contains(&d))
    {
        bail!("--density {d}: must be a probability in [0, 1]");
    }
    super::check::count("--trials", a.trials, 1, 100_000_000)?;
    super::check::count("--packets", a.packets, 100, 1_000_000)?;
    if let Some(d) = &a.synth_cache {
        if !d.is_dir() {
            bail!("--synth-cache {}: not a folder", d.display());
        }
    }
    Ok(())
}

/// Computes every row.
pub fn compute(a: &Args) -> Result<Vec<Row>> {
    validate(a)?;
    let names: Vec<&str> = a.allocator.iter().map(String::as_str).collect();
    let cells: Vec<QualityCell> = table(&names, &a.m, &a.density, a.trials, a.seed)?;
    let want_m8 = a.m.contains(&8);
    let nets = if want_m8 && !a.no_networks {
        Some(network_study(&a.allocator, a.packets, a.seed)?)
    } else {
        None
    };
    let cache = a
        .synth_cache
        .clone()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("synth/cache"));
    let mut hw: BTreeMap<String, (Option<Hw>, Option<Hw>)> = BTreeMap::new();
    for n in &names {
        let (ice, ecp) = match top_of(n) {
            Some(t) => (
                cached_row(&cache.join("ice40-hx8k"), t)?,
                ecp5_dir(&cache).map_or(Ok(None), |d| cached_row(&d, t))?,
            ),
            None => (None, None),
        };
        hw.insert(n.to_string(), (ice, ecp));
    }
    Ok(cells
        .into_iter()
        .map(|c| {
            let m8 = c.m == 8;
            let (ice, ecp) = hw.get(&c.allocator).cloned().unwrap_or_default();
            let ice = ice.unwrap_or_default();
            let ecp = ecp.unwrap_or_default();
            let per_net = |f: &dyn Fn(&Net) -> f64| -> BTreeMap<String, Option<f64>> {
                NETWORKS
                    .iter()
                    .map(|(name, _, _)| {
                        let v = nets
                            .as_ref()
                            .and_then(|n| n.get(&(c.allocator.clone(), name.to_string())).map(f));
                        (name.to_string(), v)
                    })
                    .collect()
            };
            Row {
                top: when(m8, top_of(&c.allocator).map(str::to_string)),
                lut_ice40: when(m8, ice.lut),
                ff_ice40: when(m8, ice.ff),
                depth_ice40: when(m8, ice.depth),
                fmax_ice40_mhz: when(m8, ice.fmax_mhz),
                lut_ecp5: when(m8, ecp.lut),
                fmax_ecp5_mhz: when(m8, ecp.fmax_mhz),
                saturation: when(m8, per_net(&|n| n.saturation)),
                latency_at_half_saturation: when(m8, per_net(&|n| n.latency_at_half)),
                allocator: c.allocator,
                m: c.m,
                density: c.density,
                trials: c.trials,
                fractions: c.fractions,
                mean_size_over_max: c.mean_size_over_max,
            }
        })
        .collect())
}

/// `Some(x)` for the m = 8 rows, which carry the network and hardware keys.
fn when<T>(m8: bool, x: T) -> Option<T> {
    m8.then_some(x)
}

fn opt<T: std::fmt::Display>(x: &Option<Option<T>>) -> String {
    match x {
        Some(Some(v)) => v.to_string(),
        _ => "-".to_string(),
    }
}

/// The tables: quality for every point, then (for m = 8) throughput and cost per allocator.
pub fn render(a: &Args, rows: &[Row], seconds: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Matching quality: {} random request matrices per point, seed {}, allocator state carried from matrix to matrix",
        a.trials, a.seed
    );
    let _ = writeln!(
        s,
        "{:>10} {:>3} {:>7} {:>8} {:>9} {:>9} {:>9} {:>9}",
        "allocator", "m", "density", "maximum", "max-1", "max-2", "lower", "size/max"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:>10} {:>3} {:>7} {:>8.4} {:>9.4} {:>9.4} {:>9.4} {:>9.4}",
            r.allocator,
            r.m,
            r.density,
            r.fractions[0],
            r.fractions[1],
            r.fractions[2],
            r.fractions[3],
            r.mean_size_over_max
        );
    }
    let m8: Vec<&Row> = {
        let mut seen = std::collections::BTreeSet::new();
        rows.iter()
            .filter(|r| r.m == 8 && seen.insert(r.allocator.clone()))
            .collect()
    };
    if !m8.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "m = 8: saturation throughput (packets/input/cycle) | mean latency at half of it (cycles), uniform traffic, {} packets/input/load{}; 8x8 block on iCE40 HX8K and ECP5 LFE5U-25F (synth/cache, nextpnr seed 1)",
            a.packets,
            if a.no_networks { " (skipped)" } else { "" }
        );
        let mut hdr = format!("{:>10}", "allocator");
        for (n, _, _) in NETWORKS {
            let _ = write!(hdr, " {:>18}", n);
        }
        let _ = write!(
            hdr,
            " {:>20} {:>6} {:>5} {:>6} {:>8} {:>9} {:>9}",
            "top", "LUT4", "FF", "depth", "Fmax MHz", "ECP5 LUT4", "ECP5 MHz"
        );
        let _ = writeln!(s, "{hdr}");
        for r in m8 {
            let mut line = format!("{:>10}", r.allocator);
            for (n, _, _) in NETWORKS {
                let sat = r
                    .saturation
                    .as_ref()
                    .and_then(|m| m.get(n).copied().flatten());
                let lat = r
                    .latency_at_half_saturation
                    .as_ref()
                    .and_then(|m| m.get(n).copied().flatten());
                let cell = match (sat, lat) {
                    (Some(x), Some(y)) => format!("{x:.3} | {y:.1}"),
                    _ => "-".to_string(),
                };
                let _ = write!(line, " {cell:>18}");
            }
            let _ = write!(
                line,
                " {:>20} {:>6} {:>5} {:>6} {:>8} {:>9} {:>9}",
                opt(&r.top),
                opt(&r.lut_ice40),
                opt(&r.ff_ice40),
                opt(&r.depth_ice40),
                opt(&r.fmax_ice40_mhz),
                opt(&r.lut_ecp5),
                opt(&r.fmax_ecp5_mhz)
            );
            let _ = writeln!(s, "{line}");
        }
        let _ = writeln!(
            s,
            "(sp2:128 with deadlock-free ASR tables; asr-p1/p2's blocks are the heuristic's matchers without the per-output conflict arbiter; pim-1's block draws its priorities from a 64-bit xorshift register)"
        );
    }
    let _ = writeln!(s, "({seconds:.1} s)");
    s
}

pub fn run(a: Args) -> Result<()> {
    let t = std::time::Instant::now();
    let rows = compute(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", render(&a, &rows, t.elapsed().as_secs_f64()));
    }
    Ok(())
}

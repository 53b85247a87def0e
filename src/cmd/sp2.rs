//! `asr sp2`: measurements of one SP2-style switch with a node on every port — cut-through latency,
//! throughput per port against offered load up to saturation, central-queue occupancy — for source routing
//! (one port per route byte) and ASR (route sets of several ports).

use anyhow::{bail, Result};
use asr_model::sp2::experiment::{cut_through_latency_on, run_on, Sp2Stats};
use asr_model::sp2::v1::switch::Sp2Switch;
use asr_model::sp2::v2::switch::Sp2SwitchV2;
use asr_model::sp2::v3::switch::Sp2SwitchV3;
use rayon::prelude::*;
use std::fmt::Write;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Route-set sizes to compare (1 = source routing), comma-separated, each 1..=8.
    #[arg(long, value_delimiter = ',', default_value = "1,2,8")]
    pub set_bits: Vec<u32>,
    /// Offered loads in bytes per port per cycle, each in (0, 1] (1 = saturation), comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.2,0.4,0.6,0.8,0.9,1",
        allow_negative_numbers = true
    )]
    pub load: Vec<f64>,
    /// Payload bytes per packet (6..=250).
    #[arg(long, default_value_t = 32)]
    pub payload: usize,
    /// Measured cycles per point (after a warm-up of a fifth of it), 100..=100000000.
    #[arg(long, default_value_t = 50_000)]
    pub cycles: u64,
    /// Seed of the traffic.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Switch versions to measure, comma-separated: `v1` (the first design, docs/sp2-switch.md v1 sections),
    /// `v2` (pipelined allocator, per-packet chunk chains: the v2 sections), `v3` (registered block
    /// boundaries, held grants, byte-sliced central queue: the v3 sections).
    #[arg(long, value_delimiter = ',', default_value = "v1,v2,v3")]
    pub switch: Vec<String>,
    /// Print JSON (one object per switch, route-set size and load) instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// One measured point: the switch version and its statistics.
#[derive(serde::Serialize, Debug, Clone)]
pub struct Row {
    pub switch: String,
    #[serde(flatten)]
    pub stats: Sp2Stats,
}

fn check_switches(switches: &[String]) -> Result<()> {
    if switches.is_empty() {
        bail!("--switch: give at least one of v1, v2, v3");
    }
    if let Some(s) = switches
        .iter()
        .find(|s| !matches!(s.as_str(), "v1" | "v2" | "v3"))
    {
        bail!("--switch {s}: unknown switch version (known: v1, v2, v3)");
    }
    Ok(())
}

pub fn compute(a: &Args) -> Result<Vec<Row>> {
    check_switches(&a.switch)?;
    if a.set_bits.iter().any(|&b| !(1..=8).contains(&b)) {
        bail!("--set-bits: each must be 1..=8");
    }
    super::check::loads("--load", &a.load, "bytes / port / cycle")?;
    if !(6..=250).contains(&a.payload) {
        bail!("--payload {}: must be 6..=250 (the first 6 bytes carry the packet's source and sequence)", a.payload);
    }
    super::check::count("--cycles", a.cycles, 100, super::check::MAX_CYCLES)?;
    let points: Vec<(String, u32, f64)> = a
        .switch
        .iter()
        .flat_map(|v| {
            a.set_bits
                .iter()
                .flat_map(move |&b| a.load.iter().map(move |&l| (v.clone(), b, l)))
        })
        .collect();
    points
        .into_par_iter()
        .map(|(v, b, l)| {
            let stats = match v.as_str() {
                "v1" => run_on::<Sp2Switch>(b, l, a.payload, a.cycles, a.seed)?,
                "v2" => run_on::<Sp2SwitchV2>(b, l, a.payload, a.cycles, a.seed)?,
                _ => run_on::<Sp2SwitchV3>(b, l, a.payload, a.cycles, a.seed)?,
            };
            Ok(Row { switch: v, stats })
        })
        .collect()
}

/// The cut-through latency of each idle switch, measured now (one packet of `payload` bytes).
pub fn cut_through(switches: &[String], payload: usize) -> Result<Vec<(String, u64)>> {
    check_switches(switches)?;
    switches
        .iter()
        .map(|v| {
            let c = match v.as_str() {
                "v1" => cut_through_latency_on::<Sp2Switch>(payload)?,
                "v2" => cut_through_latency_on::<Sp2SwitchV2>(payload)?,
                _ => cut_through_latency_on::<Sp2SwitchV3>(payload)?,
            };
            Ok((v.clone(), c))
        })
        .collect()
}

pub fn render(rows: &[Row], payload: usize, cut_through: &[(String, u64)]) -> String {
    let mut s = String::new();
    let packets: u64 = rows.iter().map(|x| x.stats.packets).sum();
    let ct: Vec<String> = cut_through
        .iter()
        .map(|(v, c)| format!("{v} {c} cycles"))
        .collect();
    let _ = writeln!(s, "SP2-style 8x8 switch, one node per port, uniform destinations, {payload}-byte payloads; cut-through latency without contention, measured (first byte in to first byte out): {}", ct.join(", "));
    let _ = writeln!(
        s,
        "{:>6} {:>8} {:>8} {:>11} {:>11} {:>10} {:>12} {:>12}",
        "switch",
        "set bits",
        "offered",
        "throughput",
        "queue mean",
        "queue max",
        "via queue",
        "latency"
    );
    for r in rows {
        let x = &r.stats;
        let _ = writeln!(
            s,
            "{:>6} {:>8} {:>8.2} {:>11.3} {:>11.1} {:>10} {:>11.1}% {:>12.1}",
            r.switch,
            x.set_bits,
            x.offered,
            x.throughput,
            x.mean_queue_chunks,
            x.max_queue_chunks,
            100.0 * x.queue_share,
            x.mean_latency
        );
    }
    let _ = writeln!(s, "(throughput and offered load in link bytes per port per cycle; queue in 8-byte chunks of 128; latency from first byte sent to last byte received; scoreboard: all {packets} packets delivered once, at a port of their set, intact, CRC good; switch drained, free list full)");
    s
}

pub fn run(a: Args) -> Result<()> {
    let stats = compute(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
    } else {
        print!(
            "{}",
            render(&stats, a.payload, &cut_through(&a.switch, a.payload)?)
        );
    }
    Ok(())
}

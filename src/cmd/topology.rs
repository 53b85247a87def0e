//! `asr topology SPEC --out FILE`: writes a built-in topology (or a topology file, read back) in the topology
//! format of docs/contracts.md. With `--fail-links K|NAMES` and/or `--fail-switches J|NAMES` (and `--seed S`),
//! writes the degraded topology instead: what failed and which processors became unreachable are listed in
//! comments at the top of the file and on stderr.

use anyhow::{Context, Result};
use asr_model::topology::faults::{degrade, Pick};
use asr_model::topology::{builtin, write};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Built-in topology (sp2:N (16,32,48,64,80,128,256,512), sp2even:64, benes:N, fly:K:N (or fly:K,N),
    /// mesh:KxK, torus:KxK, hypercube:D, irregular:S:SEED, irregular:S:P:SEED) or a topology file.
    pub name: String,
    /// Output file (stdout if omitted).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Fail switch-to-switch links: a count K (chosen at random with --seed among the links whose loss keeps
    /// every processor reachable) or names SWITCH.PORT,SWITCH.PORT,… (either end of a link).
    #[arg(long)]
    pub fail_links: Option<String>,
    /// Fail switches: a count J (at random, keeping the remaining processors connected) or names S1,S2,…;
    /// processors attached to a failed switch are removed and reported as unreachable.
    #[arg(long)]
    pub fail_switches: Option<String>,
    /// Seed of the random choice of failures.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(a: Args) -> Result<()> {
    if let Some(p) = &a.out {
        super::check::out_file("--out", p)?;
    }
    let t = if Path::new(&a.name).is_file() {
        asr_model::topology::load(&a.name)?
    } else {
        builtin(&a.name)?
    };
    let (t, comments) = if a.fail_links.is_some() || a.fail_switches.is_some() {
        let links = Pick::parse(a.fail_links.as_deref().unwrap_or("0"));
        let switches = Pick::parse(a.fail_switches.as_deref().unwrap_or("0"));
        let d = degrade(&t, &links, &switches, a.seed).with_context(|| {
            format!(
                "failing {}{}{} in `{}`",
                a.fail_links
                    .as_deref()
                    .map_or(String::new(), |l| format!("links {l}")),
                if a.fail_links.is_some() && a.fail_switches.is_some() {
                    " and "
                } else {
                    ""
                },
                a.fail_switches
                    .as_deref()
                    .map_or(String::new(), |s| format!("switches {s}")),
                a.name
            )
        })?;
        let c = d.comments(&t, &a.name, a.seed);
        eprint!("{c}");
        if !d.unreachable.is_empty() {
            eprintln!(
                "{} processors are unreachable and were removed: {}",
                d.unreachable.len(),
                d.unreachable
                    .iter()
                    .map(|&p| t.element(p).name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        (d.topology, c)
    } else {
        (t, String::new())
    };
    let text = format!("{comments}{}", write(&t));
    match a.out {
        Some(p) => {
            std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))?;
            eprintln!(
                "{}: {} elements, {} processors, {} channels",
                p.display(),
                t.len(),
                t.nodes().len(),
                t.channels().len()
            );
        }
        None => print!("{text}"),
    }
    Ok(())
}

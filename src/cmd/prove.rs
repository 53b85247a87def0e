//! `asr prove [TOP]...`: formal proofs of the exported Verilog with SymbiYosys (docs/formal.md). For each
//! proof of each named top (every proof when none is named) it writes a job folder under `--out` (the
//! exported Verilog, the property wrapper `formal.sv`, the `.sby` file), runs the proof task and the `cover`
//! task, and with `--mutants` every mutant, which must fail. Exit status 1 when a proof or a cover does not
//! pass or a mutant is not caught. The tools: `yowasp-sby` and Yices from PyPI (`scripts/setup.sh`).

use anyhow::{bail, Result};
use asr_testbench::formal::{self, Proof, Status, Tools};
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Tops to prove (default: every top with a proof; `--list` names them).
    pub top: Vec<String>,
    /// Folder of the job folders (created if missing).
    #[arg(long, default_value = "out/formal")]
    pub out: PathBuf,
    /// Also run every mutant (a deliberately broken copy of the exported Verilog), each of which must fail.
    #[arg(long)]
    pub mutants: bool,
    /// Skip the `cover` tasks (the check that every cover statement of the wrapper is reachable).
    #[arg(long)]
    pub no_cover: bool,
    /// Only write the job folders, run nothing.
    #[arg(long)]
    pub write_only: bool,
    /// Print every proof (job, top, mode, claim) and its mutants, run nothing.
    #[arg(long, conflicts_with_all = ["top", "mutants", "no_cover", "write_only"])]
    pub list: bool,
}

/// The lines of `asr prove --list`.
pub fn list() -> String {
    let mut s = String::new();
    for p in formal::PROOFS {
        s += &format!(
            "{} (top {}; {}): {}\n",
            p.name,
            p.top,
            p.mode.describe(),
            p.claims
        );
        for m in p.mutants {
            s += &format!("    mutant {}: {}\n", m.name, m.what);
        }
    }
    s
}

fn selected(tops: &[String]) -> Result<Vec<&'static Proof>> {
    if tops.is_empty() {
        return Ok(formal::PROOFS.iter().collect());
    }
    let mut v = Vec::new();
    for t in tops {
        let before = v.len();
        v.extend(formal::for_top(t));
        if v.len() == before {
            bail!(
                "{t}: no proof of this top; tops with proofs: {}",
                formal::tops().join(", ")
            );
        }
    }
    Ok(v)
}

pub fn run(a: Args) -> Result<()> {
    if a.list {
        print!("{}", list());
        return Ok(());
    }
    let proofs = selected(&a.top)?;
    super::check::out_dir("--out", &a.out)?;
    if a.write_only {
        for p in &proofs {
            eprintln!("wrote {}", p.write(&a.out)?.display());
            if a.mutants {
                for m in p.mutants {
                    eprintln!("wrote {}", p.write_mutant(m, &a.out)?.display());
                }
            }
        }
        return Ok(());
    }
    let tools = Tools::find()?;
    let mut bad = Vec::new();
    let show = |label: &str, o: &formal::Outcome| {
        println!("{label}: {} in {:.1} s", o.status.as_str(), o.seconds);
    };
    for p in &proofs {
        println!("{} ({}): {}", p.name, p.mode.describe(), p.claims);
        let o = p.prove(&tools, &a.out)?;
        show(&format!("  {}", p.mode.task()), &o);
        if o.status != Status::Pass {
            for l in &o.summary {
                println!("    {l}");
            }
            bad.push(format!("{} {}", p.name, p.mode.task()));
        }
        if !a.no_cover {
            let o = p.cover(&tools, &a.out)?;
            show("  cover", &o);
            if o.status != Status::Pass {
                for l in &o.summary {
                    println!("    {l}");
                }
                bad.push(format!("{} cover", p.name));
            }
        }
        if a.mutants {
            for m in p.mutants {
                let o = p.mutant(m, &tools, &a.out)?;
                let verdict = if o.status == Status::Fail {
                    "caught"
                } else {
                    "NOT caught"
                };
                println!(
                    "  mutant {} ({}): {} in {:.1} s, {verdict}",
                    m.name,
                    m.what,
                    o.status.as_str(),
                    o.seconds
                );
                if o.status != Status::Fail {
                    bad.push(format!("{} mutant {}", p.name, m.name));
                }
            }
        }
    }
    println!("jobs in {}", a.out.display());
    if !bad.is_empty() {
        bail!("failed: {}", bad.join(", "));
    }
    Ok(())
}

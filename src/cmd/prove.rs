//! `asr prove [TOP]...`: formal proofs of the exported Verilog with SymbiYosys (docs/formal.md). For each
//! proof of each named top (every proof when none is named) it writes a job folder under `--out` (the
//! exported Verilog, the property wrapper `formal.sv`, the `.sby` file), runs the proof task and the `cover`
//! task, and with `--mutants` every mutant, which must fail; the results go to `results.txt` (a table, one
//! row per task) and `results.json` in `--out`. Exit status 1 when a proof or a cover does not pass or a
//! mutant is not caught. `asr all --prove` runs every job this way ([`suite`]). The tools: `yowasp-sby`
//! and Yices from PyPI (`scripts/setup.sh`).

use anyhow::{bail, Context, Result};
use asr_testbench::formal::{self, Proof, Status, Tools};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Tops to prove, or `all` (default: every top with a proof; `--list` names them).
    pub top: Vec<String>,
    /// Depth of each proof task instead of the table's (the k-induction depth of a full proof, the bound
    /// of a bounded one; a combinational top's depth 1 is already every input). The cover and mutant
    /// tasks keep theirs.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub depth: Option<u32>,
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
    #[arg(long, conflicts_with_all = ["top", "mutants", "no_cover", "write_only", "json", "depth"])]
    pub list: bool,
    /// Print the results as one JSON array on stdout (one object per task: job, top, task, mode, depth,
    /// full proof or bounded, status, expected status, seconds, counterexample views) instead of text.
    #[arg(long, conflicts_with = "write_only")]
    pub json: bool,
}

/// One task's result, as `--json` prints it.
#[derive(serde::Serialize)]
struct Record {
    job: &'static str,
    top: &'static str,
    /// `prove`, `bmc`, `cover` or `mutant:<name>`.
    task: String,
    /// `k-induction`, `bmc` (bounded), `combinational` (bmc depth 1: every input), `cover`.
    engine: &'static str,
    depth: u32,
    /// The property holds for runs of any length (k-induction or a combinational top).
    unbounded: bool,
    status: &'static str,
    /// What the task must give: PASS, or FAIL for a mutant.
    expected: &'static str,
    seconds: f64,
    /// GTKWave save files of the counterexample traces (a failed task).
    traces: Vec<String>,
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
    if tops.is_empty() || tops.iter().any(|t| t == "all") {
        if tops.len() > 1 {
            bail!("all: name it alone (it means every top with a proof)");
        }
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
    let proofs: Vec<Proof> = selected(&a.top)?
        .into_iter()
        .map(|p| match a.depth {
            Some(d) => Proof {
                mode: p.mode.at_depth(d),
                ..*p
            },
            None => *p,
        })
        .collect();
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
    let (records, bad, _) = run_and_write(&proofs, &a.out, a.mutants, !a.no_cover, a.json)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&records)?);
    } else {
        println!(
            "jobs in {}, the results in {}",
            a.out.display(),
            a.out.join("results.txt").display()
        );
    }
    if !bad.is_empty() {
        bail!("failed: {}", bad.join(", "));
    }
    Ok(())
}

/// [`run_all`], then [`write_results`] into `out` with the time it took: the records, the tasks that did
/// not give what they must, and the table.
fn run_and_write(
    proofs: &[Proof],
    out: &Path,
    mutants: bool,
    cover: bool,
    json: bool,
) -> Result<(Vec<Record>, Vec<String>, String)> {
    let t0 = std::time::Instant::now();
    let (records, bad) = run_all(proofs, out, mutants, cover, json)?;
    let table = write_results(
        out,
        &records,
        proofs.len(),
        &bad,
        t0.elapsed().as_secs_f64(),
    )?;
    Ok((records, bad, table))
}

/// Runs the proof task of every job of `proofs`, its cover task when `cover`, and its mutants when
/// `mutants`; prints a line per task unless `json`. Returns one record per task and the tasks that did not
/// give what they must.
fn run_all(
    proofs: &[Proof],
    out: &Path,
    mutants: bool,
    cover: bool,
    json: bool,
) -> Result<(Vec<Record>, Vec<String>)> {
    let tools = Tools::find()?;
    let mut bad = Vec::new();
    let mut records = Vec::new();
    let mut record = |p: &Proof,
                      task: String,
                      engine: &'static str,
                      depth: u32,
                      unbounded: bool,
                      expected: &'static str,
                      o: &formal::Outcome| {
        let traces: Vec<String> = o.traces.iter().map(|t| t.display().to_string()).collect();
        if !json {
            let verdict = match (expected, o.status) {
                ("FAIL", Status::Fail) => ", caught",
                ("FAIL", _) => ", NOT caught",
                _ => "",
            };
            println!(
                "  {task}: {} in {:.1} s{verdict}",
                o.status.as_str(),
                o.seconds
            );
            if expected == "PASS" && o.status != Status::Pass {
                for l in &o.summary {
                    println!("    {l}");
                }
                for t in &traces {
                    println!("    counterexample: gtkwave {t}");
                }
            }
        }
        let ok = match expected {
            "FAIL" => o.status == Status::Fail,
            _ => o.status == Status::Pass,
        };
        if !ok {
            bad.push(format!("{} {task}", p.name));
        }
        records.push(Record {
            job: p.name,
            top: p.top,
            task,
            engine,
            depth,
            unbounded,
            status: o.status.as_str(),
            expected,
            seconds: (o.seconds * 10.0).round() / 10.0,
            traces,
        });
    };
    for p in proofs {
        if !json {
            println!("{} ({}): {}", p.name, p.mode.describe(), p.claims);
        }
        let (engine, depth, unbounded) = match p.mode {
            formal::Mode::Comb => ("combinational", 1, true),
            formal::Mode::Prove(d) => ("k-induction", d, true),
            formal::Mode::Bmc(d) => ("bmc", d, false),
        };
        let o = p.prove(&tools, out)?;
        record(
            p,
            p.mode.task().to_string(),
            engine,
            depth,
            unbounded,
            "PASS",
            &o,
        );
        if cover {
            let o = p.cover(&tools, out)?;
            record(p, "cover".into(), "cover", p.cover_depth, false, "PASS", &o);
        }
        if mutants {
            for m in p.mutants {
                if !json {
                    println!("  mutant {}: {}", m.name, m.what);
                }
                let o = p.mutant(m, &tools, out)?;
                record(
                    p,
                    format!("mutant:{}", m.name),
                    "bmc",
                    p.mutant_depth,
                    false,
                    "FAIL",
                    &o,
                );
            }
        }
    }
    Ok((records, bad))
}

/// Writes the results table (`results.txt`, a Markdown table: one row per task) and the records
/// (`results.json`) into `out`; returns the table.
fn write_results(
    out: &Path,
    records: &[Record],
    jobs: usize,
    bad: &[String],
    seconds: f64,
) -> Result<String> {
    let mut t = String::from(
        "Formal proofs of the exported Verilog (SymbiYosys, Yices; docs/formal.md): one row per task \
         (`asr prove TOP --mutants` replays a top's rows)\n\n\
         | job | task | engine | depth | any length | status | must be | s |\n|---|---|---|---|---|---|---|---|\n",
    );
    for r in records {
        t += &format!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {:.1} |\n",
            r.job,
            r.task,
            r.engine,
            r.depth,
            if r.unbounded { "yes" } else { "no" },
            r.status,
            r.expected,
            r.seconds
        );
    }
    t += &format!(
        "\n{} tasks of {jobs} jobs in {seconds:.1} s, one at a time; {} not as they must be.\n",
        records.len(),
        bad.len()
    );
    let f = out.join("results.txt");
    std::fs::write(&f, &t).with_context(|| format!("writing {}", f.display()))?;
    let f = out.join("results.json");
    std::fs::write(&f, serde_json::to_string_pretty(records)?)
        .with_context(|| format!("writing {}", f.display()))?;
    Ok(t)
}

/// `asr all --prove`: every job's proof, cover task and mutants, into `out/formal/` with its
/// `results.txt` and `results.json`. An error when a task did not give what it must (written first).
pub fn suite(out: &Path) -> Result<()> {
    let dir = out.join("formal");
    let (_, bad, table) = run_and_write(formal::PROOFS, &dir, true, true, false)?;
    print!("{table}");
    if !bad.is_empty() {
        bail!(
            "formal: {} (see {})",
            bad.join(", "),
            dir.join("results.txt").display()
        );
    }
    Ok(())
}

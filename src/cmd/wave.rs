//! `asr wave SCENARIO --out FILE.vcd [--model]`: a VCD of the HDL simulation (or, with `--model`, of the
//! model) of a scenario, and a GTKWave save file `FILE.gtkw` beside it.

use anyhow::Result;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Scenario (known: benes8-burst, sp2-contention-v2, sp2-contention-v3).
    pub scenario: String,
    /// VCD file to write; the `.gtkw` goes beside it. Default: `out/waves/SCENARIO.vcd`
    /// (`out/waves/SCENARIO-model.vcd` with `--model`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the model's VCD instead of the HDL's.
    #[arg(long)]
    pub model: bool,
}

pub fn run(a: Args) -> Result<()> {
    let out = a.out.unwrap_or_else(|| {
        let suffix = if a.model { "-model" } else { "" };
        PathBuf::from(format!("out/waves/{}{suffix}.vcd", a.scenario))
    });
    if !asr_testbench::wave::SCENARIOS.contains(&a.scenario.as_str()) {
        anyhow::bail!(
            "unknown scenario `{}`; known: {}",
            a.scenario,
            asr_testbench::wave::SCENARIOS.join(", ")
        );
    }
    super::check::out_file("--out", &out)?;
    let gtkw = asr_testbench::wave::write(&a.scenario, &out, a.model)?;
    eprintln!(
        "wrote {} and {} (open with: gtkwave {})",
        out.display(),
        gtkw.display(),
        gtkw.display()
    );
    Ok(())
}

//! `asr wave SCENARIO --out FILE.vcd [--model]`: a VCD of the HDL simulation (or, with `--model`, of the
//! model) of a scenario, and a GTKWave save file `FILE.gtkw` beside it.

use anyhow::Result;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Scenario (known: benes8-burst).
    pub scenario: String,
    /// VCD file to write; the `.gtkw` goes beside it.
    #[arg(long, default_value = "out/waves/benes8-burst.vcd")]
    pub out: PathBuf,
    /// Write the model's VCD instead of the HDL's.
    #[arg(long)]
    pub model: bool,
}

pub fn run(a: Args) -> Result<()> {
    let gtkw = asr_testbench::wave::write(&a.scenario, &a.out, a.model)?;
    eprintln!(
        "wrote {} and {} (open with: gtkwave {})",
        a.out.display(),
        gtkw.display(),
        gtkw.display()
    );
    Ok(())
}

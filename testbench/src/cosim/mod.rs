//! Co-simulation: one definition per exported top of how it is driven and compared ([`Top`]), the backends
//! that run it ([`Backend`]: the exported Verilog in Verilator or Icarus, or the RustHDL description in
//! rust-hdl's own simulation), and the driver that runs a top against its model for N cycles ([`run()`]).
//!
//! A top's definition (one file in `tops/`) owns the seeded stimulus, the model twin and the scoreboard. Each
//! cycle it writes the input pins and the outputs the model drives before the clock edge into two
//! [`Frame`]s laid out as the exported Verilog declares the ports ([`Layout::from_verilog`]); the backend
//! applies the pins to the design and returns its outputs, and the driver compares every output word of
//! every cycle. The stimulus only ever depends on the model, so the model side runs ahead in its own thread
//! and the backend in the caller's: the two cores share the work. The first mismatch stops the run and names
//! the cycle, the port, the expected and the actual value.

pub mod icarus;
pub mod ports;
pub mod run;
pub mod rusthdl;
pub mod tops;
pub mod vcd;
pub mod verilator;

pub use ports::{Frame, Layout, Port};
pub use run::{record, run, BackendKind, Mismatch, Options, Perturb, Recording, Report, Stimulus};

/// One exported top's stimulus, model and scoreboard.
pub trait Top: Send {
    /// The exported top's name (a row of [`tops::TOPS`]).
    fn name(&self) -> &str;

    /// Cycle `n`: writes the input pins into `pins` and the outputs the model drives before the edge into
    /// `expect` (every port, in declaration order), then steps the model. An `Err` is a violated invariant
    /// or scoreboard check of the model side (lost, duplicated, corrupted or misdelivered packet).
    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String>;

    /// Stops offering new traffic: the following cycles drain what is inside.
    fn drain(&mut self) {}

    /// Whether everything offered has come out (always true for blocks without traffic).
    fn drained(&self) -> bool {
        true
    }

    /// Cycles the drain may take before it is a deadlock.
    fn drain_limit(&self) -> u64 {
        10_000
    }

    /// Units the model delivered so far: packets for networks and switches, chunks for the central queue,
    /// matrices for matchers, words for `switch2`.
    fn packets(&self) -> u64;

    /// Final checks after the drain (scoreboard empty, queues free, traffic really exercised what it should).
    fn finish(&mut self) -> Result<(), String> {
        Ok(())
    }

    /// Named counts of what the run exercised (tests assert on them; the CLI prints them).
    fn counters(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
}

/// A design under test: applies one cycle's pins and returns the outputs it drives before the edge.
pub trait Backend {
    /// One cycle: `pins` applied, outputs settled before the rising edge written into `out`, then the edge.
    fn cycle(&mut self, pins: &[u32], out: &mut [u32]);

    /// Starts (or with `None` stops) a VCD of the whole design, when the backend can write one.
    fn trace(&mut self, _path: Option<&std::path::Path>) -> anyhow::Result<()> {
        anyhow::bail!("this backend writes no design VCD")
    }
}

impl Backend for verilator::Verilated {
    fn cycle(&mut self, pins: &[u32], out: &mut [u32]) {
        verilator::Verilated::cycle(self, pins, out)
    }
    fn trace(&mut self, path: Option<&std::path::Path>) -> anyhow::Result<()> {
        verilator::Verilated::trace(self, path)
    }
}

/// The layout of an exported top, from its Verilog.
pub fn layout(top: &str) -> anyhow::Result<(Layout, String)> {
    let v = tops::find(top)?.verilog();
    Ok((Layout::from_verilog(top, &v)?, v))
}

/// Runs `top` on `backend` for `cycles` cycles of traffic with the test seed ([`crate::harness::seed`]),
/// asserting no mismatch and no model-side failure, and returns the report (printed on stderr). For tests.
pub fn check(top: &str, backend: BackendKind, cycles: u64) -> Report {
    let seed = crate::harness::seed();
    let r = run(&Options::new(top, backend, cycles, seed))
        .unwrap_or_else(|e| panic!("{top} on {}: {e:#} (ASR_SEED={seed:#x})", backend.name()));
    r.assert_clean(cycles);
    r
}

//! The two sides the driver connects: a top's definition ([`Top`]: its stimulus, model twin and scoreboard)
//! and the design under test ([`Backend`]), with the Verilator backend's implementation; see the
//! documentation of [`crate::cosim`].

use super::ports::Frame;
use super::verilator;

/// One exported top's stimulus, model and scoreboard.
pub trait Top: Send {
    /// The exported top's name (a row of [`tops::TOPS`](super::tops::TOPS)).
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

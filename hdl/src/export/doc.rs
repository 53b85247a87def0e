//! What a top's header says: [`TopDoc`], written by each exported block (`top_doc()` beside the block), and
//! the reset notes every header shares.

/// What a user needs to instantiate a top: what it is, each port's meaning and packing, latency, reset.
#[derive(Clone, Debug)]
pub struct TopDoc {
    /// One paragraph: what the top is and which model block it is the twin of.
    pub summary: String,
    /// `(port, meaning)` for every port of the top module.
    pub ports: Vec<(String, String)>,
    /// Latency in cycles.
    pub latency: String,
}

/// What every top says about reset: there is no reset input (yet); registers start at their initial values.
pub const RESET_NOTE: &str = "none (no reset input): every register starts at the initial value of its `initial` \
block (0 unless stated) when the simulation starts or the FPGA is configured (every flip-flop starts at 0: \
a non-zero initial value is stored XORed with it, and Yosys maps the `initial` 0 to the iCE40 flip-flops' \
power-up state). To restart the design, reconfigure the FPGA, or export it with a reset input: `asr verilog \
--reset`.";

/// The `reset` port's meaning in the export with `--reset`.
pub(crate) const RESET_PORT: &str =
    "synchronous reset, active high: registers load their initial values at this edge";

/// What a top exported with `--reset` says about reset.
pub const RESET_WITH_PORT: &str = "the `reset` input (active high, synchronous): while it is 1 at a rising edge \
every register loads its initial value (0 unless stated), the state the design has after configuration, \
whatever the other inputs; one cycle is enough, and the outputs in the cycles after it are those of a freshly \
configured design. Block-RAM contents are kept and not written during a reset (the top reads a RAM only where \
it wrote since its start). Power-up: as without the reset input (`initial` values).";

/// `(port, meaning)` pairs as owned strings.
pub fn docs(ps: &[(&str, &str)]) -> Vec<(String, String)> {
    ps.iter()
        .map(|(p, m)| (p.to_string(), m.to_string()))
        .collect()
}

/// The clock port's meaning, the same in every clocked top.
pub const CLOCK: (&str, &str) = (
    "clock",
    "clock; every register changes at its rising edge, inputs are sampled there",
);

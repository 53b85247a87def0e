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
pub mod report;
pub mod run;
pub mod rusthdl;
pub mod top;
pub mod tops;
pub mod vcd;
pub mod verilator;

pub use ports::{Frame, Layout, Port};
pub use report::Report;
pub use run::{
    check, input_fault_caught, input_flips_caught, output_flip_reported, record, run, run_design,
    BackendKind, Mismatch, Options, Perturb, Recording, Stimulus,
};
pub use top::{Backend, Top};
pub use tops::layout;

#![warn(missing_docs)]
//! # asr-testbench
//!
//! Lock-step harness (HDL against model), scoreboards, traffic drivers, VCD scenarios and the
//! independent-simulator check (Icarus/Verilator running the exported Verilog).
//!
//! - [`harness`]: seeds, random streams, packing of rows and ports into `Bits`.
//! - [`cosim::icarus`]: the exported Verilog in Icarus on vectors recorded from the model.
//! - [`lockstep`]: drivers that step an HDL block and its model twin together (matcher, switch2, Beneš).
//! - [`traffic`]: Beneš traffic (random valid headers, backpressure) and the delivery scoreboard.
//! - [`tops`]: the table of exported tops (Verilog, port documentation, co-simulation, synthesis targets).
//! - [`wave`]: VCD scenarios (HDL or model) and GTKWave save files.
//! - [`formal`]: formal proofs of the exported Verilog with SymbiYosys (property wrappers, jobs, mutants).

pub mod cosim;
pub mod formal;
pub mod harness;
pub mod lockstep;
mod rusthdl_io;
pub mod traffic;
pub mod wave;

/// The table of exported tops (defined beside the co-simulation definitions, [`cosim::tops`]).
pub use cosim::tops;

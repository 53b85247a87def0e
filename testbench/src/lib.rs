//! # asr-testbench
//!
//! Lock-step harness (HDL against model), scoreboards, traffic drivers, VCD scenarios and the
//! independent-simulator check (Icarus/Verilator running the exported Verilog).

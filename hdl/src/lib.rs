//! # asr-hdl
//!
//! RustHDL blocks of the ASR switches and networks, and their Verilog export.

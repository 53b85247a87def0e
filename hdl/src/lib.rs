//! # asr-hdl
//!
//! RustHDL blocks of the ASR switches and networks, and their Verilog export.
//!
//! - [`matcher`]: the combinational matching heuristic (`matcher_m{M}_p{P}`).
//! - [`export`]: the Verilog of every top, module named as the top.
//! - [`switch2`]: the 2×2 ASR switch (docs/switch2.md).
//! - [`benes`]: Beneš networks of 2×2 switches (`benes8`, `benes16`, `benes32`).

pub mod benes;
pub mod export;
pub mod matcher;
pub mod switch2;

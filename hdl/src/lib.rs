#![warn(missing_docs)]

//! # asr-hdl
//!
//! RustHDL blocks of the ASR switches and networks, and their Verilog export.
//!
//! - [`alloc`]: 8×8 iSLIP-1, PIM-1 (xorshift priorities) and wavefront allocators (`alloc_*_m8`).
//! - [`matcher`]: the combinational matching heuristic (`matcher_m{M}_p{P}`).
//! - [`export`]: the Verilog of every top, module named as the top.
//! - [`switch2`]: the 2×2 ASR switch (docs/switch2.md).
//! - [`switch2r`]: its registered-ready variant (skid buffers; docs/switch2.md).
//! - [`benes`]: Beneš networks of 2×2 switches (`benes8`, `benes16`, `benes32`; registered-ready `benes8r`,
//!   `benes16r`).
//! - [`reset`]: the synchronous reset of the user export (`asr verilog --reset`).
//! - [`lrs`]: the least-recently-served arbiter (8 requesters).
//! - [`lrs_tri`]: the same with a triangular order matrix, the winner always served (the v2 allocator).
//! - [`rr`]: the round-robin arbiter (8 requesters; the v3 allocator and central queue).
//! - [`sp2`]: the SP2-style 8×8 switch, one folder per version (`sp2/v2`), and its 16-node board.

pub mod alloc;
#[cfg(test)]
mod arbiter_check;
pub mod benes;
pub mod export;
pub mod lrs;
pub mod lrs_tri;
pub mod matcher;
pub mod parts;
pub mod reset;
pub mod rr;
pub mod sp2;
pub mod switch2;
pub mod switch2r;

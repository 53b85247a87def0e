//! # asr-model
//!
//! The cycle-accurate model of adaptive source routing (ASR) switches and networks, after Aydoğan's thesis
//! (Bilkent, 1995). Plain Rust, no HDL: the HDL crate and the testbench use the formats defined here.
//!
//! - [`benes`]: the port-level Beneš network of 2×2 switches (DESIGN.md wiring).
//! - [`header`]: the ASR header (one permitted-output set per hop), N_path, packing into packet words.
//! - [`matcher`]: the ColumnOR / Rotate_Until_Zero matching heuristic (thesis Fig. 2.3).
//! - [`exact`]: exact maximum matching (Hopcroft–Karp), the deficiency theorem, brute force.
//! - [`switch2`]: the 2×2 ASR switch (docs/switch2.md).
//! - [`table2_1`]: the experiment of thesis Table 2.1.
//! - [`rng`]: seeded random streams.
//! - [`topology`]: switches, processor nodes and the channels between them.

pub mod benes;
pub mod exact;
pub mod header;
pub mod matcher;
pub mod rng;
pub mod switch2;
pub mod table2_1;
pub mod topology;
pub mod wormhole;

#![warn(missing_docs)]
//! # asr-model
//!
//! The cycle-accurate model of adaptive source routing (ASR) switches and networks, after Aydoğan's thesis
//! (Bilkent, 1995). Plain Rust, no HDL: the HDL crate and the testbench use the formats defined here.
//!
//! - [`benes`]: the port-level Beneš network of 2×2 switches (docs/contracts.md wiring), thesis or
//!   registered-ready.
//! - [`header`]: the ASR header (one permitted-output set per hop), N_path, packing into packet words.
//! - [`lrs`]: least-recently-served arbiter.
//! - [`sp2`]: the SP2-style 8×8 switch (docs/sp2-switch.md): packet format, central queue.
//! - [`matcher`]: the ColumnOR / Rotate_Until_Zero matching heuristic (thesis Fig. 2.3).
//! - [`delivery`]: path counts and delivery probability on meshes, tori, hypercubes (seed 003).
//! - [`exact`]: exact maximum matching (Hopcroft–Karp), the deficiency theorem, brute force.
//! - [`switch2`]: the 2×2 ASR switch (docs/switch2.md).
//! - [`switch2r`]: its registered-ready variant (skid buffers; docs/switch2.md).
//! - [`table2_1`]: the experiment of thesis Table 2.1.
//! - [`rng`]: seeded random streams.
//! - [`topology`]: switches, processor nodes and the channels between them; the topology file; built-ins.
//! - [`routes`]: the route-table generator of thesis ch. 4.
//! - [`network`]: the cycle-accurate network simulator (engine, builders, runs, sweeps).
//! - [`traffic`]: traffic patterns (where) and injection processes (when).
//! - [`routing`]: ASR, random and fixed routing on the Beneš; destination tag on the butterfly; route tables;
//!   per-hop policies.
//! - [`allocator`]: switch allocators behind one trait and a registry of names (ASR heuristic, exact,
//!   iSLIP, PIM, wavefront).
//! - [`scoreboard`]: the scoreboard and deadlock watchdog shared by the simulators.
//! - [`experiment`]: experiment drivers (SP2 systems, the fault curve, the wormhole figures): the sweeps, their
//!   typed results and the saturation points picked from them.

pub mod allocator;
pub mod benes;
pub mod content_board;
pub mod delivery;
pub mod exact;
pub mod experiment;
pub mod header;
pub mod lrs;
pub mod matcher;
pub mod network;
pub mod rng;
pub mod routes;
pub mod routing;
pub mod rr;
pub mod scoreboard;
pub mod sp2;
pub mod switch2;
pub mod switch2r;
pub mod table2_1;
pub mod topology;
pub mod traffic;
pub mod wormhole;

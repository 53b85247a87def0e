//! One definition per exported top: its stimulus, model twin and scoreboard ([`Top`]) and its rust-hdl
//! binding (an [`super::rusthdl::HdlIo`]). The table of tops (`crate::tops`) names which definition each top
//! uses; adding a top is one file here and one row there.

pub mod alloc;
pub mod benes;
pub mod matcher;
pub mod sp2_allocator_v2;
pub mod sp2_board;
pub mod sp2_central_queue_v2;
pub mod sp2_directed;
pub mod sp2_receiver_v2;
pub mod sp2_switch;
pub mod sp2_transmitter_v2;
pub mod switch2;

use super::{Backend, Layout, Top};
use anyhow::Result;

/// The co-simulation definition of `top` ([`crate::tops::TopDef::cosim`]) with its random streams seeded from
/// `seed`, for a run of `cycles` cycles of traffic.
pub fn make(top: &str, seed: u64, cycles: u64) -> Result<Box<dyn Top>> {
    Ok((crate::tops::find(top)?.cosim)(seed, cycles))
}

/// The rust-hdl description of `top` in rust-hdl's simulation, checked against `layout`.
pub fn rusthdl(top: &str, layout: &Layout) -> Result<Box<dyn Backend>> {
    (crate::tops::find(top)?.rusthdl)(layout)
}

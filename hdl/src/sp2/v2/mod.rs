//! HDL blocks of version 2 of the SP2-style switch (docs/sp2-switch.md, v2), twins of `model/src/sp2/v2/`.
//!
//! - [`allocator`]: the pipelined crossbar allocator (`asr_model::sp2::v2::allocator::Allocator`), exported
//!   as `sp2_allocator`.
//! - [`row_step`]: one row step of the matching heuristic as a sum of products (`asr_model::matcher::row_step`).

pub mod allocator;
pub mod row_step;

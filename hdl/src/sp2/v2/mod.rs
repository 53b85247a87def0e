//! Version 2 of the SP2-style switch in RustHDL (docs/sp2-switch.md, v2), twin of `asr_model::sp2::v2`.
//!
//! - [`allocator`]: the pipelined crossbar allocator (`asr_model::sp2::v2::allocator::Allocator`), exported
//!   as `sp2_allocator_v2`.
//! - [`receiver`]: the v2 receiver (`asr_model::sp2::v2::receiver`), exported as `sp2_receiver_v2`.
//! - [`transmitter`]: the v2 transmitter (`asr_model::sp2::v2::transmitter::Transmitter`), exported as
//!   `sp2_transmitter_v2`.
//! - [`central_queue`]: the v2 central queue, exported as `sp2_central_queue_v2`.
//! - [`switch`]: the v2 8×8 switch (`asr_model::sp2::v2::switch::Sp2SwitchV2`), exported as `sp2_switch_v2`.
//! - [`row_step`]: one row step of the matching heuristic as a sum of products (`asr_model::matcher::row_step`).

pub mod allocator;
pub mod central_queue;
pub mod receiver;
pub mod row_step;
pub mod switch;
pub mod transmitter;

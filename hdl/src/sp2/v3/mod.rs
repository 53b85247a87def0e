//! Version 3 of the SP2-style switch in RustHDL (docs/sp2-switch.md, V3), twin of `asr_model::sp2::v3`, block
//! for block and cycle for cycle: every block output a register, the central queue in byte-sliced banks, the
//! pipelined admission; each block is exported alone as `sp2_<block>_v3`.
//!
//! - [`allocator`]: the crossbar allocator (`asr_model::sp2::v3::allocator::Allocator`), exported as
//!   `sp2_allocator_v3`.
//! - [`transmitter`]: the transmitter of one output (`asr_model::sp2::v3::transmitter::Transmitter`),
//!   exported for one port as `sp2_transmitter_v3`.
//! - [`receiver`]: the v3 receiver (`asr_model::sp2::v3::receiver::Receiver`), exported as
//!   `sp2_receiver_v3`.
//! - [`central_queue`]: the v3 central queue (`asr_model::sp2::v3::central_queue::CentralQueue`), exported as
//!   `sp2_central_queue_v3`.
//! - [`switch`]: the v3 8×8 switch (`asr_model::sp2::v3::switch::Sp2SwitchV3`), exported as `sp2_switch_v3`.

pub mod allocator;
pub mod central_queue;
pub mod receiver;
pub mod switch;
pub mod transmitter;

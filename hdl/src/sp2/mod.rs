//! HDL blocks of the SP2-style 8×8 ASR switch (`docs/sp2-switch.md`), twins of `model/src/sp2/`.
//!
//! - [`central_queue`]: 128 chunks × 64 bits in block RAM, per-output linked lists, a free list, LRS write
//!   and read arbitration (`asr_model::sp2::central_queue::CentralQueue`).

pub mod central_queue;

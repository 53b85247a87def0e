//! HDL blocks of the SP2-style 8×8 ASR switch (`docs/sp2-switch.md`), twins of `model/src/sp2/`.
//!
//! - [`board`]: the 16-node board of 8 switches (`asr_model::sp2::network::Sp2Network` on `sp2:16`),
//!   exported as `sp2_board`.
//! - [`central_queue`]: 128 chunks × 64 bits in block RAM, per-output linked lists, a free list, LRS write
//!   and read arbitration (`asr_model::sp2::central_queue::CentralQueue`).
//! - [`crc8`]: one byte of the packet CRC-8 (`asr_model::sp2::crc8_step`).
//! - [`transmitter`]: source selection, serializer, CRC, 7-byte FIFO, credit
//!   (`asr_model::sp2::transmitter::Transmitter`).
//! - [`receiver`]: FIFO, parser, route decoding, crossbar register, chunk assembly, CRC check, tokens
//!   (`asr_model::sp2::receiver::Receiver`).
//! - [`switch`]: the whole switch (`asr_model::sp2::switch::Sp2Switch`), exported as `sp2_switch`.
//! - [`v2`]: blocks of version 2 (the pipelined allocator `sp2_allocator`, the receiver).

pub mod board;
pub mod central_queue;
pub mod crc8;
pub mod receiver;
pub mod switch;
pub mod transmitter;
pub mod v2;

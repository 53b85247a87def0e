//! HDL blocks of the SP2-style 8×8 ASR switch (`docs/sp2-switch.md`), twins of `model/src/sp2/`: one folder per
//! switch version, and what the versions share beside them.
//!
//! - [`v2`]: version 2, the switch of the board (pipelined allocator, block-RAM port FIFOs, per-packet chunk
//!   chains in the central queue); its blocks are exported as `sp2_<block>_v2`. (Version 1's RustHDL
//!   description was removed once v2 passed every check; its model stays, `asr_model::sp2::v1`, and its
//!   synthesis figures are in docs/journal.md.)
//! - [`v3`]: version 3 (every block output a register), its blocks exported alone as `sp2_<block>_v3`.
//! - [`board`]: the 16-node board of 8 switch chips (`asr_model::sp2::network::Sp2Network` on `sp2:16`),
//!   generic over the chip, exported as `sp2_board_v2`.
//! - [`crc8`]: one byte of the packet CRC-8 (`asr_model::sp2::crc8_step`).

pub mod asr_network;
pub mod board;
pub mod crc8;
pub mod nic;
pub mod v2;
pub mod v3;

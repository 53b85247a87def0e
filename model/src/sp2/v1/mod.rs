//! Version 1 of the SP2-style switch (docs/sp2-switch.md sections 1-9): a combinational crossbar allocator
//! (the matching heuristic each cycle), per-output linked lists in the central queue. Superseded by
//! [`super::v2`] in hardware (its RustHDL description was removed once v2 passed every check; its synthesis
//! figures are in docs/journal.md); the model stays for the comparison of the SP2-system studies
//! (`asr sp2-system --switch v1`).

pub mod central_queue;
pub mod receiver;
pub mod switch;
pub mod transmitter;

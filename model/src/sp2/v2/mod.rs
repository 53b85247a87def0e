//! Version 2 of the SP2-style switch (docs/sp2-switch.md, v2): a pipelined allocator, block-RAM buffers and
//! per-packet chunk chains in the central queue. Built beside v1 until it replaces it.

// Port-indexed state: loops over port numbers index several per-port arrays at once, as the hardware's
// per-port blocks do.
#![allow(clippy::needless_range_loop)]

pub mod allocator;
pub mod central_queue;
pub mod receiver;
pub mod switch;
pub mod transmitter;

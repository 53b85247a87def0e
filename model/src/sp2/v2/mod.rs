//! Version 2 of the SP2-style switch (docs/sp2-switch.md, v2): a pipelined allocator, block-RAM buffers and
//! per-packet chunk chains in the central queue. Built beside v1 until it replaces it.

pub mod allocator;

//! Version 2 of the SP2-style switch in RustHDL (docs/sp2-switch.md, v2), twin of `asr_model::sp2::v2`.

pub mod receiver;

//! The registry of allocator names ([`by_name`], [`NAMES`], [`DEFAULT`]), as BookSim's allocator factory.

use super::traits::Allocator;
use super::{age, asr, exact, islip, pim, wavefront};
use std::sync::Arc;
use thiserror::Error;

/// The thesis' allocator (the default everywhere).
pub const DEFAULT: &str = "asr-p2";

/// Every registered allocator name, in the order tables list them.
pub const NAMES: [&str; 10] = [
    "age",
    "asr-p1",
    "asr-p2",
    "exact",
    "islip-1",
    "islip-2",
    "islip-4",
    "pim-1",
    "pim-2",
    "wavefront",
];

/// A name that no allocator is registered under (the name given).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown allocator `{0}` (age, asr-p1, asr-p2, exact, islip-1, islip-2, islip-4, pim-1, pim-2, wavefront)")]
pub struct UnknownAllocator(pub String);

/// The allocator registered under `name`.
pub fn by_name(name: &str) -> Result<Arc<dyn Allocator>, UnknownAllocator> {
    Ok(match name {
        "age" => Arc::new(age::Age),
        "asr-p1" => Arc::new(asr::Asr::new(1)),
        "asr-p2" => Arc::new(asr::Asr::new(2)),
        "exact" => Arc::new(exact::Exact),
        "islip-1" => Arc::new(islip::Islip { iterations: 1 }),
        "islip-2" => Arc::new(islip::Islip { iterations: 2 }),
        "islip-4" => Arc::new(islip::Islip { iterations: 4 }),
        "pim-1" => Arc::new(pim::Pim { iterations: 1 }),
        "pim-2" => Arc::new(pim::Pim { iterations: 2 }),
        "wavefront" => Arc::new(wavefront::Wavefront),
        _ => return Err(UnknownAllocator(name.to_string())),
    })
}

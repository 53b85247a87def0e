//! The error of SP2 systems and experiments: a broken invariant or an impossible request (never a statistic).
//! In its own file so that the system and its scoreboard both use it without importing each other.

use super::network::Sp2NetError;
use thiserror::Error;

/// Cycles without any byte moving, with packets outstanding, that count as a deadlock.
pub const DEADLOCK_CYCLES: u64 = 20_000;

/// Packet ids as `src#seq`, the first 20 of them.
pub fn fmt_ids(ids: &[(usize, u32)]) -> String {
    let mut s: Vec<String> = ids
        .iter()
        .take(20)
        .map(|(a, b)| format!("{a}#{b}"))
        .collect();
    if ids.len() > 20 {
        s.push(format!("… ({} more)", ids.len() - 20));
    }
    s.join(", ")
}

/// A broken invariant or an impossible request.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Sp2SysError {
    #[error("{0}")]
    Net(#[from] Sp2NetError),
    /// A single switch's broken invariant (runs of one switch, [`super::experiment`]).
    #[error("{0}")]
    Switch(#[from] super::v1::switch::Sp2Error),
    /// A switch model's broken invariant, as text (runs generic over [`super::SwitchModel`]).
    #[error("{0}")]
    Model(String),
    #[error("bad parameters: {0}")]
    Params(String),
    #[error("route {src} → {dst}: {why}")]
    Route { src: usize, dst: usize, why: String },
    #[error("cycle {cycle}: packet {src}#{seq} for processor {dst} arrived at processor {at}")]
    Misdelivered {
        cycle: u64,
        src: usize,
        seq: u32,
        dst: usize,
        at: usize,
    },
    #[error("cycle {cycle}: packet {src}#{seq} for ports {set:#b} arrived at port {at}")]
    OutsideSet {
        cycle: u64,
        src: usize,
        seq: u32,
        set: u64,
        at: usize,
    },
    #[error("cycle {cycle}: processor {at} received an unknown or duplicate packet {src}#{seq}")]
    Unexpected {
        cycle: u64,
        at: usize,
        src: usize,
        seq: u32,
    },
    #[error("cycle {cycle}: packet {src}#{seq} arrived at processor {at} corrupted ({why})")]
    Corrupted {
        cycle: u64,
        at: usize,
        src: usize,
        seq: u32,
        why: &'static str,
    },
    #[error("cycle {cycle}: a packet with a {len}-byte payload arrived at {at}, {why}: {detail}")]
    Short {
        cycle: u64,
        at: usize,
        len: usize,
        why: &'static str,
        detail: String,
    },
    #[error("deadlock: no byte moved for {DEADLOCK_CYCLES} cycles up to cycle {cycle} with {outstanding} packets outstanding")]
    Deadlock { cycle: u64, outstanding: usize },
    #[error("after draining: {0}")]
    Leak(String),
    #[error("cycle {cycle}: the network is empty but {} packets never arrived (lost): {}", ids.len(), fmt_ids(ids))]
    Lost { cycle: u64, ids: Vec<(usize, u32)> },
    #[error("{count} packets created after the switch to the regenerated tables were lost, e.g. {src}#{seq}")]
    LostAfterReroute { src: usize, seq: u32, count: usize },
}

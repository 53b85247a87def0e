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
    /// The network could not be built, a switch inside it broke an invariant, a route led to an unconnected
    /// output, or a link could not be failed.
    #[error("{0}")]
    Net(#[from] Sp2NetError),
    /// A single switch's broken invariant (runs of one switch, [`super::experiment`]).
    #[error("{0}")]
    Switch(#[from] super::v1::switch::Sp2Error),
    /// A switch model's broken invariant, as text (runs generic over [`super::SwitchModel`]).
    #[error("{0}")]
    Model(String),
    /// The run's parameters are out of range or contradict each other (the text says which).
    #[error("bad parameters: {0}")]
    Params(String),
    /// The route from processor `src` to processor `dst` cannot be encoded as a header or packet (`why`).
    #[error("route {src} → {dst}: {why}")]
    Route {
        /// Source processor.
        src: usize,
        /// Destination processor.
        dst: usize,
        /// The encoder's error.
        why: String,
    },
    /// A packet arrived at another processor than its destination.
    #[error("cycle {cycle}: packet {src}#{seq} for processor {dst} arrived at processor {at}")]
    Misdelivered {
        /// The cycle of the arrival.
        cycle: u64,
        /// The packet's source processor.
        src: usize,
        /// Its sequence number at that source.
        seq: u32,
        /// Where it should have arrived.
        dst: usize,
        /// Where it arrived.
        at: usize,
    },
    /// A packet of a one-switch run arrived at an output port outside its route set.
    #[error("cycle {cycle}: packet {src}#{seq} for ports {set:#b} arrived at port {at}")]
    OutsideSet {
        /// The cycle of the arrival.
        cycle: u64,
        /// The packet's source port.
        src: usize,
        /// Its sequence number at that source.
        seq: u32,
        /// The permitted output ports (bit k = port k).
        set: u64,
        /// The port it arrived at.
        at: usize,
    },
    /// A packet arrived that was never sent, or arrived a second time.
    #[error("cycle {cycle}: processor {at} received an unknown or duplicate packet {src}#{seq}")]
    Unexpected {
        /// The cycle of the arrival.
        cycle: u64,
        /// Where it arrived (processor, or port in one-switch runs).
        at: usize,
        /// The source its payload names.
        src: usize,
        /// Its sequence number at that source.
        seq: u32,
    },
    /// A packet arrived at a permitted place but damaged: CRC mismatch or payload bytes not as sent.
    #[error("cycle {cycle}: packet {src}#{seq} arrived at processor {at} corrupted ({why})")]
    Corrupted {
        /// The cycle of the arrival.
        cycle: u64,
        /// Where it arrived (processor, or port in one-switch runs).
        at: usize,
        /// The source its payload names (`usize::MAX` for a short payload, which names none).
        src: usize,
        /// Its sequence number at that source (0 for a short payload).
        seq: u32,
        /// What was wrong.
        why: &'static str,
    },
    /// A packet with a payload shorter than six bytes (known only by its content) was misdelivered,
    /// duplicated or unknown.
    #[error("cycle {cycle}: a packet with a {len}-byte payload arrived at {at}, {why}: {detail}")]
    Short {
        /// The cycle of the arrival.
        cycle: u64,
        /// Where it arrived (processor, or port in one-switch runs).
        at: usize,
        /// Its payload length in bytes (0 to 5).
        len: usize,
        /// `misdelivered`, `duplicated` or `unknown`.
        why: &'static str,
        /// The content scoreboard's description of the case.
        detail: String,
    },
    /// Packets were outstanding and no byte moved on any link for [`DEADLOCK_CYCLES`].
    #[error("deadlock: no byte moved for {DEADLOCK_CYCLES} cycles up to cycle {cycle} with {outstanding} packets outstanding")]
    Deadlock {
        /// The cycle at which the watchdog fired.
        cycle: u64,
        /// Packets still expected then.
        outstanding: usize,
    },
    /// After draining something is left (a switch or processor not idle, a failed link's bookkeeping not
    /// settled), or more damaged packets arrived than the failed links can explain.
    #[error("after draining: {0}")]
    Leak(String),
    /// The network and every processor are idle but packets are still expected: they were lost.
    #[error("cycle {cycle}: the network is empty but {} packets never arrived (lost): {}", ids.len(), fmt_ids(ids))]
    Lost {
        /// The cycle at which the network was found empty.
        cycle: u64,
        /// The missing packets as (source, sequence number).
        ids: Vec<(usize, u32)>,
    },
    /// In a fault scenario, packets created with the regenerated tables were lost (none may be).
    #[error("{count} packets created after the switch to the regenerated tables were lost, e.g. {src}#{seq}")]
    LostAfterReroute {
        /// The first such packet's source.
        src: usize,
        /// Its sequence number at that source.
        seq: u32,
        /// How many were lost.
        count: usize,
    },
}

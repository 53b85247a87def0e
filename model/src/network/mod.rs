//! The cycle-accurate network simulator (thesis ch. 3), after BookSim's shape: a general graph of switches
//! and processors joined by channels (built from a [`crate::topology::Topology`]), source-routed ASR headers,
//! pluggable traffic (`crate::traffic`) and routing (`crate::routing`).
//!
//! - [`packet`]: the packet store (slots, headers as hop sets with a cursor).
//! - [`engine`]: the two-phase cycle of all switches and channels (docs/switch2.md semantics).
//! - [`build`]: Beneš and k-ary n-fly builders.
//! - [`sim`]: one run: source queues, injection, statistics from steady state, invariants, drain.
//! - [`sweep`]: a load sweep across both cores and the saturation throughput.
//!
//! See `docs/simulator.md` for the cycle semantics and the steady-state and saturation definitions.

pub mod build;
pub mod engine;
pub mod packet;
pub mod sim;
pub mod sweep;

use thiserror::Error;

/// Everything that can go wrong in a simulation. Invariant violations are errors, not statistics.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NetError {
    #[error("topology has no processor nodes")]
    NoProcessors,
    #[error("routing serves {routing} processors but the network has {network}")]
    SizeMismatch { routing: usize, network: usize },
    #[error("processor {0} has no channel into the network")]
    CannotInject(usize),
    #[error("packet (src {src}, seq {seq}) reached switch element {switch} input {input} with no hop left")]
    HeaderExhausted {
        switch: usize,
        input: u32,
        src: u32,
        seq: u32,
    },
    #[error("packet (src {src}, seq {seq}) at switch element {switch}: hop set {set:#x} names an unconnected output (header leads nowhere)")]
    LeadsNowhere {
        switch: usize,
        set: u64,
        src: u32,
        seq: u32,
    },
    #[error("buffer overrun: switch element {switch} {} buffer {port} would hold more packets than it has room for", if *output { "output" } else { "input" })]
    DoubleOccupancy {
        switch: usize,
        port: u32,
        output: bool,
    },
    #[error("packet (src {src}, seq {seq}) for processor {dst} was delivered to processor {at}")]
    Misdelivered {
        src: u32,
        seq: u32,
        dst: u32,
        at: u32,
    },
    #[error("packet (src {src}, seq {seq}) arrived with {remaining} header hops unused")]
    HeaderLeft {
        src: u32,
        seq: u32,
        remaining: usize,
    },
    #[error("packet (src {src}, seq {seq}) delivered twice")]
    Duplicate { src: u32, seq: u32 },
    #[error("packet (src {src}, seq {seq}) carries a corrupted tag (expected destination {expected}, found {found})")]
    BadTag {
        src: u32,
        seq: u32,
        expected: u32,
        found: u32,
    },
    #[error("{lost} packets generated but never delivered")]
    Lost { lost: u64 },
    #[error("network did not drain within {cycles} cycles ({population} packets still inside, {queued} queued)")]
    NotDrained {
        cycles: u64,
        population: usize,
        queued: usize,
    },
    #[error("deadlock: no packet delivered for {idle} cycles up to cycle {cycle} with {population} packets in the network (cyclic channel dependencies?)")]
    Deadlock {
        cycle: u64,
        idle: u64,
        population: usize,
    },
    #[error("allocator `{allocator}` granted switch element {switch} input {input} output {output}, which it did not request or which another input got")]
    BadGrant {
        switch: usize,
        input: u32,
        output: u32,
        allocator: &'static str,
    },
    #[error("flow control: {0}")]
    BadFlow(String),
    #[error(transparent)]
    Pattern(#[from] crate::traffic::PatternError),
    #[error(transparent)]
    Injection(#[from] crate::traffic::InjectionError),
    #[error(transparent)]
    Build(#[from] build::BuildError),
}

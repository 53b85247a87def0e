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
    /// The topology has no processor.
    #[error("topology has no processor nodes")]
    NoProcessors,
    /// The routing was made for another number of processors.
    #[error("routing serves {routing} processors but the network has {network}")]
    SizeMismatch {
        /// Processors the routing serves.
        routing: usize,
        /// Processors in the network.
        network: usize,
    },
    /// The processor has no channel into a switch.
    #[error("processor {0} has no channel into the network")]
    CannotInject(usize),
    /// A packet needs another hop at a switch but its header is used up.
    #[error("packet (src {src}, seq {seq}) reached switch element {switch} input {input} with no hop left")]
    HeaderExhausted {
        /// The switch's element index in the topology.
        switch: usize,
        /// The input port it is at.
        input: u32,
        /// The packet's source processor.
        src: u32,
        /// Its sequence number at that source.
        seq: u32,
    },
    /// A packet's hop set names an output of the switch with no channel.
    #[error("packet (src {src}, seq {seq}) at switch element {switch}: hop set {set:#x} names an unconnected output (header leads nowhere)")]
    LeadsNowhere {
        /// The switch's element index in the topology.
        switch: usize,
        /// The hop set (bit k = output k).
        set: u64,
        /// The packet's source processor.
        src: u32,
        /// Its sequence number at that source.
        seq: u32,
    },
    /// A buffer would receive a packet while it is full.
    #[error("buffer overrun: switch element {switch} {} buffer {port} would hold more packets than it has room for", if *output { "output" } else { "input" })]
    DoubleOccupancy {
        /// The switch's element index in the topology.
        switch: usize,
        /// The buffer's port.
        port: u32,
        /// An output buffer (else an input buffer).
        output: bool,
    },
    /// A packet was delivered to another processor than its destination.
    #[error("packet (src {src}, seq {seq}) for processor {dst} was delivered to processor {at}")]
    Misdelivered {
        /// The packet's source processor.
        src: u32,
        /// Its sequence number at that source.
        seq: u32,
        /// Its destination processor.
        dst: u32,
        /// The processor it reached.
        at: u32,
    },
    /// A packet reached its processor with hops of its header not taken.
    #[error("packet (src {src}, seq {seq}) arrived with {remaining} header hops unused")]
    HeaderLeft {
        /// The packet's source processor.
        src: u32,
        /// Its sequence number at that source.
        seq: u32,
        /// Hops left in the header.
        remaining: usize,
    },
    /// A packet was delivered a second time, or delivered without having been sent.
    #[error("packet (src {src}, seq {seq}) delivered twice")]
    Duplicate {
        /// The packet's source processor.
        src: u32,
        /// Its sequence number at that source.
        seq: u32,
    },
    /// A packet's destination tag differs from the destination its source chose (the scoreboard's).
    #[error("packet (src {src}, seq {seq}) carries a corrupted tag (expected destination {expected}, found {found})")]
    BadTag {
        /// The packet's source processor.
        src: u32,
        /// Its sequence number at that source.
        seq: u32,
        /// The destination the source chose.
        expected: u32,
        /// The destination in the packet's tag.
        found: u32,
    },
    /// The network drained but packets generated were never delivered.
    #[error("{lost} packets generated but never delivered")]
    Lost {
        /// Packets generated minus packets delivered.
        lost: u64,
    },
    /// The run reached its cycle limit before the network and the source queues were empty.
    #[error("network did not drain within {cycles} cycles ({population} packets still inside, {queued} queued)")]
    NotDrained {
        /// The cycle limit reached.
        cycles: u64,
        /// Packets inside the network then.
        population: usize,
        /// Packets still waiting in the source queues.
        queued: usize,
    },
    /// Packets were inside the network and none was delivered for the watchdog's limit.
    #[error("deadlock: no packet delivered for {idle} cycles up to cycle {cycle} with {population} packets in the network (cyclic channel dependencies?)")]
    Deadlock {
        /// The cycle at which the watchdog fired.
        cycle: u64,
        /// Cycles since the last delivery.
        idle: u64,
        /// Packets inside the network.
        population: usize,
    },
    /// The allocator granted an output the input did not request, or one already granted to another input.
    #[error("allocator `{allocator}` granted switch element {switch} input {input} output {output}, which it did not request or which another input got")]
    BadGrant {
        /// The switch's element index in the topology.
        switch: usize,
        /// The input granted.
        input: u32,
        /// The output granted.
        output: u32,
        /// The allocator's name.
        allocator: &'static str,
    },
    /// Flow-control or allocator parameters out of range, or an unknown allocator name.
    #[error("flow control: {0}")]
    BadFlow(String),
    /// The traffic pattern does not fit the network.
    #[error(transparent)]
    Pattern(#[from] crate::traffic::PatternError),
    /// The injection process's load or period is out of range.
    #[error(transparent)]
    Injection(#[from] crate::traffic::InjectionError),
    /// A Beneš or k-ary n-fly network could not be built.
    #[error(transparent)]
    Build(#[from] build::BuildError),
}

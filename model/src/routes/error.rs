//! Why routes cannot be generated ([`RouteError`]): the one error type of the generator's steps, in a file of
//! its own so that the steps and the facade import it and not each other.

use thiserror::Error;

/// Why routes cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RouteError {
    /// Some ordered processor pair has no path at all (the topology is not strongly connected between them).
    #[error("no path from processor {src} to processor {dst}")]
    NoPath {
        /// Name of the source processor.
        src: String,
        /// Name of the destination processor.
        dst: String,
    },
    /// Route tables need at least two processors.
    #[error("the topology has fewer than two processors")]
    TooFewProcessors,
    /// A stage of the routability graph R is wider than a [`VSet`](super::solution::VSet) can hold.
    #[error("a stage of the routability graph has {width} switches; at most {max} are supported")]
    StageTooWide {
        /// Switches in the widest stage.
        width: usize,
        /// The supported maximum ([`MAX_STAGE_WIDTH`](super::solution::MAX_STAGE_WIDTH)).
        max: usize,
    },
    /// A solution-graph vertex has more usable output ports than the routing-set enumeration supports.
    #[error("{ports} output ports usable at one hop; at most {max} are supported")]
    TooManyChoices {
        /// Output ports usable at that hop.
        ports: u32,
        /// The supported maximum ([`MAX_CHOICE_PORTS`](super::solution::MAX_CHOICE_PORTS)).
        max: u32,
    },
    /// Every candidate up*/down* order leaves some processor pair without a legal path.
    #[error(
        "no candidate up*/down* order of the switches gives every processor pair a legal path"
    )]
    NoLegalOrder,
    /// The tables generated under a turn restriction still have a channel-dependency cycle (a bug); the cycle
    /// as channel names.
    #[error("internal error: restricted tables have a channel-dependency cycle {0}")]
    CyclicRestriction(String),
    /// No regenerated tables keep the union of the old and new routes acyclic, so switching tables in a live
    /// network could deadlock; an example cycle as channel names.
    #[error("no regenerated tables keep the old and new routes together free of dependency cycles (e.g. {0})")]
    UnsafeTransition(String),
}

//! Why routes cannot be generated ([`RouteError`]): the one error type of the generator's steps, in a file of
//! its own so that the steps and the facade import it and not each other.

use thiserror::Error;

/// Why routes cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RouteError {
    #[error("no path from processor {src} to processor {dst}")]
    NoPath { src: String, dst: String },
    #[error("the topology has fewer than two processors")]
    TooFewProcessors,
    #[error("a stage of the routability graph has {width} switches; at most {max} are supported")]
    StageTooWide { width: usize, max: usize },
    #[error("{ports} output ports usable at one hop; at most {max} are supported")]
    TooManyChoices { ports: u32, max: u32 },
    #[error(
        "no candidate up*/down* order of the switches gives every processor pair a legal path"
    )]
    NoLegalOrder,
    #[error("internal error: restricted tables have a channel-dependency cycle {0}")]
    CyclicRestriction(String),
    #[error("no regenerated tables keep the old and new routes together free of dependency cycles (e.g. {0})")]
    UnsafeTransition(String),
}

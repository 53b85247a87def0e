//! The route-table file (docs/contracts.md): one line per ordered processor pair, `src dst npath hop1 hop2 …`, hops as
//! hex permitted-output sets. `#` starts a comment. [`parse_routes`] reads the syntax with file:line errors;
//! [`load_routes`] also resolves the names against a topology and validates every route (all combinations of
//! permitted ports lead to the destination), so a simulator can trust what it loads. A route longer than a
//! shortest path is accepted (deadlock-free tables need some) and marked as such in [`LoadedRoute::minimal`].

use super::validate::{check_walk, distances, RouteCheckError};
use crate::header::npath;
use crate::topology::Topology;
use std::collections::HashSet;
use thiserror::Error;

/// One line of a route-table file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// Source processor name, as written.
    pub src: String,
    /// Destination processor name, as written.
    pub dst: String,
    /// Number of paths the header permits (checked to be the product of the hops' popcounts).
    pub npath: u128,
    /// One permitted-output set per hop (bit i = output port i), the last one into the destination processor.
    pub hops: Vec<u64>,
}

/// A route resolved against a topology (element indices).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedRoute {
    /// Element index of the source processor.
    pub src: usize,
    /// Element index of the destination processor.
    pub dst: usize,
    /// Number of paths the header permits.
    pub npath: u128,
    /// One permitted-output set per hop (bit i = output port i), the last one into the destination processor.
    pub hops: Vec<u64>,
    /// The route is as short as a shortest path between the two processors.
    pub minimal: bool,
}

/// What is wrong with a line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RouteFileProblem {
    /// Fewer than four fields (source, destination, npath and at least one hop).
    #[error("expected `src dst npath hop1 ...`")]
    TooFewFields,
    /// The npath field is not a decimal integer; the text found.
    #[error("`{0}` is not a path count")]
    BadNpath(String),
    /// A hop is not a non-zero hexadecimal port set.
    #[error("hop {hop}: `{text}` is not a non-empty hex port set")]
    BadHop {
        /// 0-based index of the hop on the line.
        hop: usize,
        /// The text found.
        text: String,
    },
    /// The npath field disagrees with the hops.
    #[error("npath {given} is not the product of the hops' popcounts ({product})")]
    NpathMismatch {
        /// npath as written.
        given: u128,
        /// Product of the hops' popcounts.
        product: u128,
    },
    /// A name not in the topology.
    #[error("unknown processor `{0}`")]
    UnknownProcessor(String),
    /// A name of a switch where a processor is required.
    #[error("`{0}` is not a processor")]
    NotAProcessor(String),
    /// A second line for the same (source, destination) pair; the two names.
    #[error("second route for {0} -> {1}")]
    Duplicate(String, String),
    /// A route whose source and destination are the same processor.
    #[error("route from {0} to itself")]
    SelfRoute(String),
    /// The route does not lead to its destination under every combination of permitted ports.
    #[error("{0}")]
    Invalid(#[from] RouteCheckError),
}

/// An error with its location: `file:line: problem`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}:{line}: {problem}")]
pub struct RouteFileError {
    /// The file name given to the parser.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// Boxed to keep `Result`s small (the problem can carry a route-check error).
    pub problem: Box<RouteFileProblem>,
}

fn parse_line(toks: &[&str]) -> Result<(u128, Vec<u64>), RouteFileProblem> {
    if toks.len() < 4 {
        return Err(RouteFileProblem::TooFewFields);
    }
    let given: u128 = toks[2]
        .parse()
        .map_err(|_| RouteFileProblem::BadNpath(toks[2].to_string()))?;
    let mut hops = Vec::with_capacity(toks.len() - 3);
    for (i, h) in toks[3..].iter().enumerate() {
        let v = u64::from_str_radix(h, 16)
            .ok()
            .filter(|&v| v != 0 && !h.starts_with('+'));
        hops.push(v.ok_or_else(|| RouteFileProblem::BadHop {
            hop: i,
            text: h.to_string(),
        })?);
    }
    let product = npath(&hops);
    if product != given {
        return Err(RouteFileProblem::NpathMismatch { given, product });
    }
    Ok((given, hops))
}

/// Parses route-table text; `file` names it in errors. Never panics.
pub fn parse_routes(text: &str, file: &str) -> Result<Vec<RouteLine>, RouteFileError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let toks: Vec<&str> = raw
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if toks.is_empty() {
            continue;
        }
        let (np, hops) = parse_line(&toks).map_err(|problem| RouteFileError {
            file: file.to_string(),
            line: i + 1,
            problem: Box::new(problem),
        })?;
        out.push(RouteLine {
            line: i + 1,
            src: toks[0].to_string(),
            dst: toks[1].to_string(),
            npath: np,
            hops,
        });
    }
    Ok(out)
}

/// Parses and resolves route-table text against `t`, validating every route.
pub fn load_routes(
    t: &Topology,
    text: &str,
    file: &str,
) -> Result<Vec<LoadedRoute>, RouteFileError> {
    let lines = parse_routes(text, file)?;
    let mut seen = HashSet::new();
    let mut dist_src = usize::MAX;
    let mut dist = Vec::new();
    let mut out = Vec::with_capacity(lines.len());
    for l in lines {
        let err = |problem| RouteFileError {
            file: file.to_string(),
            line: l.line,
            problem: Box::new(problem),
        };
        let node = |n: &str| {
            let e = t
                .find(n)
                .ok_or_else(|| RouteFileProblem::UnknownProcessor(n.to_string()))?;
            if t.element(e).is_node() {
                Ok(e)
            } else {
                Err(RouteFileProblem::NotAProcessor(n.to_string()))
            }
        };
        let src = node(&l.src).map_err(err)?;
        let dst = node(&l.dst).map_err(err)?;
        if src == dst {
            return Err(err(RouteFileProblem::SelfRoute(l.src.clone())));
        }
        if !seen.insert((src, dst)) {
            return Err(err(RouteFileProblem::Duplicate(
                l.src.clone(),
                l.dst.clone(),
            )));
        }
        if dist_src != src {
            dist = distances(t, src);
            dist_src = src;
        }
        let channels = check_walk(t, src, dst, &l.hops, l.npath).map_err(|e| err(e.into()))?;
        out.push(LoadedRoute {
            src,
            dst,
            npath: l.npath,
            hops: l.hops,
            minimal: channels == dist[dst] as usize,
        });
    }
    Ok(out)
}

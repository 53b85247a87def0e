//! Parser for the topology text format of docs/contracts.md.
//!
//! ```text
//! # comment to end of line
//! switch S0 8        # switch named S0 with ports 0..7
//! node P0            # processor node, port 0
//! link P0.0 S0.0     # full duplex
//! wire S0.1 S1.0     # one direction: S0 output 1 feeds S1 input 0
//! ```
//! Every error names the file, the line and the problem, e.g.
//! `sp2.top:12: port 9 out of range for switch S3 (8 ports)`. The parser never panics on any input.

use super::error::TopologyError;
use super::graph::{Port, Topology};
use thiserror::Error;

/// What is wrong with one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// The line starts with a word that is not a keyword.
    #[error("unknown keyword `{0}` (expected switch, node, link or wire)")]
    UnknownKeyword(String),
    /// A keyword with the wrong number of arguments.
    #[error("`{keyword}` expects {expected}")]
    Arity {
        /// The keyword.
        keyword: &'static str,
        /// The arguments it takes, as written in the message.
        expected: &'static str,
    },
    /// A switch's port count that is not a number from 1 to 64.
    #[error("`{0}` is not a valid number of ports (1..=64)")]
    BadPortCount(String),
    /// A link or wire end that is not `NAME.PORT` with a numeric port.
    #[error("`{0}` is not of the form NAME.PORT")]
    BadEndpoint(String),
    /// The line is well formed but breaks a topology rule (duplicate name, port in use, …).
    #[error("{0}")]
    Topology(#[from] TopologyError),
}

/// A parse error with its location: displays as `file:line: problem`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}:{line}: {kind}")]
pub struct ParseError {
    /// The file name given to the parser.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// The problem.
    pub kind: ParseErrorKind,
}

fn endpoint(t: &Topology, tok: &str) -> Result<Port, ParseErrorKind> {
    let (name, port) = tok
        .rsplit_once('.')
        .ok_or_else(|| ParseErrorKind::BadEndpoint(tok.to_string()))?;
    let port: u32 = port
        .parse()
        .map_err(|_| ParseErrorKind::BadEndpoint(tok.to_string()))?;
    let elem = t
        .find(name)
        .ok_or_else(|| TopologyError::UnknownName(name.to_string()))?;
    Ok(Port { elem, port })
}

fn line(t: &mut Topology, toks: &[&str]) -> Result<(), ParseErrorKind> {
    match toks[0] {
        "switch" => {
            if toks.len() != 3 {
                return Err(ParseErrorKind::Arity {
                    keyword: "switch",
                    expected: "a name and a port count",
                });
            }
            let ports: u32 = toks[2]
                .parse()
                .map_err(|_| ParseErrorKind::BadPortCount(toks[2].to_string()))?;
            t.add_switch(toks[1], ports)?;
        }
        "node" => {
            if toks.len() != 2 {
                return Err(ParseErrorKind::Arity {
                    keyword: "node",
                    expected: "one name",
                });
            }
            t.add_node(toks[1])?;
        }
        kw @ ("link" | "wire") => {
            let keyword = if kw == "link" { "link" } else { "wire" };
            if toks.len() != 3 {
                return Err(ParseErrorKind::Arity {
                    keyword,
                    expected: "two endpoints NAME.PORT",
                });
            }
            let a = endpoint(t, toks[1])?;
            let b = endpoint(t, toks[2])?;
            if keyword == "link" {
                t.link(a, b)?;
            } else {
                t.wire(a, b)?;
            }
        }
        other => return Err(ParseErrorKind::UnknownKeyword(other.to_string())),
    }
    Ok(())
}

/// Parses topology text; `file` is the name used in error messages.
pub fn parse(text: &str, file: &str) -> Result<Topology, ParseError> {
    let mut t = Topology::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("");
        let toks: Vec<&str> = body.split_whitespace().collect();
        if toks.is_empty() {
            continue;
        }
        line(&mut t, &toks).map_err(|kind| ParseError {
            file: file.to_string(),
            line: i + 1,
            kind,
        })?;
    }
    Ok(t)
}

/// Reads and parses a topology file.
pub fn parse_file(
    path: &std::path::Path,
) -> Result<Topology, Box<dyn std::error::Error + Send + Sync>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(parse(&text, &path.display().to_string())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reports_lines() {
        let t = parse("# x\nswitch S0 8\nnode P0 # p\nlink P0.0 S0.0\n", "a.top").unwrap();
        assert_eq!(t.len(), 2);
        let e = parse("switch S3 8\nnode P\n\nwire S3.9 P.0\n", "sp2.top").unwrap_err();
        assert_eq!(
            e.to_string(),
            "sp2.top:4: port 9 out of range for switch S3 (8 ports)"
        );
        assert_eq!(e.line, 4);
        let e = parse("switsh S0 8", "f").unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::UnknownKeyword(_)));
        let e = parse("switch S0 8\nswitch S0 2", "f").unwrap_err();
        assert_eq!(
            (e.line, e.kind),
            (
                2,
                ParseErrorKind::Topology(TopologyError::DuplicateName("S0".into()))
            )
        );
        let e = parse("switch S0 8\nlink S0.0 Q.0", "f").unwrap_err();
        assert_eq!(
            e.kind,
            ParseErrorKind::Topology(TopologyError::UnknownName("Q".into()))
        );
        let e = parse(
            "switch S0 8\nswitch S1 8\nwire S0.0 S1.0\nwire S0.0 S1.1",
            "f",
        )
        .unwrap_err();
        assert!(matches!(
            e.kind,
            ParseErrorKind::Topology(TopologyError::OutputUsed { .. })
        ));
        let e = parse("switch S0 8\nnode P\nlink P.0 S0.0\nlink P.0 S0.1", "f").unwrap_err();
        assert_eq!(
            e.kind,
            ParseErrorKind::Topology(TopologyError::NodeOverlinked("P".into()))
        );
        assert!(parse("switch S0 x", "f").is_err());
        assert!(parse("switch S0 0", "f").is_err());
        assert!(parse("link a", "f").is_err());
        assert!(parse("switch S0 2\nnode P\nlink P S0.0", "f").is_err());
    }
}

//! Failed links and switches: a degraded copy of a topology, for regenerating route tables around faults (as the
//! SP2 did) and for the fault scenarios of the SP2 system simulation.
//!
//! A *link* is a connection between two switch ports: a full-duplex `link` or a single `wire` between switches
//! (processor links never fail on their own; a processor whose switch fails becomes unreachable). A link is named
//! by either of its ends, `SWITCH.PORT`. Failures are given as a count (chosen at random with a seed, among the
//! links or switches whose loss keeps every remaining processor able to reach every other) or as names.
//!
//! Errors, never silent: an unknown name, a port with no switch-to-switch link, more failures than there are
//! links or switches, a named failure that disconnects the remaining processors, and a count that cannot be met
//! without disconnecting them. Processors that lose their switch are removed and listed as unreachable.

use super::graph::{Port, Topology};
use crate::rng::stream;
use rand::seq::SliceRandom;
use std::collections::VecDeque;
use thiserror::Error;

/// How failures are asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// This many, chosen at random.
    Random(usize),
    /// These, by name (`SWITCH.PORT` for a link, `SWITCH` for a switch).
    Named(Vec<String>),
}

impl Pick {
    /// `K` (a count) or `NAME,NAME,…`.
    pub fn parse(s: &str) -> Pick {
        match s.trim().parse::<usize>() {
            Ok(k) => Pick::Random(k),
            Err(_) => Pick::Named(
                s.split(',')
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect(),
            ),
        }
    }
}

/// Why the failures cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FaultError {
    /// A random link count larger than the number of switch-to-switch links.
    #[error("cannot fail {asked} links: the topology has only {available} switch-to-switch links")]
    TooManyLinks {
        /// Links asked to fail.
        asked: usize,
        /// Switch-to-switch links in the topology.
        available: usize,
    },
    /// A random switch count larger than the number of switches.
    #[error("cannot fail {asked} switches: the topology has only {available}")]
    TooManySwitches {
        /// Switches asked to fail.
        asked: usize,
        /// Switches in the topology.
        available: usize,
    },
    /// A link name not of the form `ELEMENT.PORT` with a known element and a numeric port.
    #[error("unknown link `{0}`: name it by one of its ends as SWITCH.PORT")]
    UnknownLink(String),
    /// A `SWITCH.PORT` with no link, or whose link goes to a processor.
    #[error("`{0}` is not a switch-to-switch link (no link, or a processor's link)")]
    NotALink(String),
    /// A link name whose port does not exist on its switch.
    #[error("`{name}`: switch {switch} has ports 0 to {last}")]
    PortOutOfRange {
        /// The link name as given.
        name: String,
        /// The switch's name.
        switch: String,
        /// The switch's highest port number.
        last: u32,
    },
    /// A switch name that is unknown or names a processor.
    #[error("unknown switch `{0}`")]
    UnknownSwitch(String),
    /// The named failures leave two remaining processors unable to reach each other.
    #[error("failing {what} disconnects the network: {cut} can no longer reach {other}")]
    Disconnects {
        /// The failures, as listed in the message (e.g. `switches S1, S2`).
        what: String,
        /// A processor cut off …
        cut: String,
        /// … from this one.
        other: String,
    },
    /// The random failures cannot all be chosen without disconnecting the remaining processors.
    #[error(
        "cannot fail {asked} {what} without disconnecting the network: after {done} every remaining one is needed"
    )]
    CannotKeepConnected {
        /// Failures asked for.
        asked: usize,
        /// Failures chosen before every remaining candidate became necessary.
        done: usize,
        /// `"links"` or `"switches"`.
        what: &'static str,
    },
    /// A link or switch named twice.
    #[error("`{0}` is named twice")]
    Duplicate(String),
    /// Fewer than two processors remain reachable.
    #[error(
        "the failures leave {left} processor(s) ({removed} unreachable and removed with their switches): \
         a network needs at least 2"
    )]
    TooFewProcessors {
        /// Processors left.
        left: usize,
        /// Processors removed with their failed switches.
        removed: usize,
    },
}

/// A switch-to-switch link (one or two channels between the same two switch ports): its two ends, a ≤ b.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link {
    /// The lower end.
    pub a: Port,
    /// The higher end.
    pub b: Port,
}

/// Every switch-to-switch link of `t`, in channel order.
pub fn links(t: &Topology) -> Vec<Link> {
    let mut out: Vec<Link> = Vec::new();
    for &(from, to) in t.channels() {
        if t.element(from.elem).is_node() || t.element(to.elem).is_node() {
            continue;
        }
        let (a, b) = if from <= to { (from, to) } else { (to, from) };
        let l = Link { a, b };
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// A degraded topology and what was removed.
#[derive(Debug, Clone)]
pub struct Degraded {
    /// The same elements minus failed switches and the processors only they connected, the same channels minus
    /// those of failed links and switches. With no switch failed, element indices are those of the original.
    pub topology: Topology,
    /// Failed links as `A.p <-> B.q` (names of the original topology).
    pub failed_links: Vec<Link>,
    /// Failed switches (element indices of the original topology).
    pub failed_switches: Vec<usize>,
    /// Processors removed because their switch failed.
    pub unreachable: Vec<usize>,
}

impl Degraded {
    /// `A.p <-> B.q` for a link of the original topology.
    pub fn link_name(t: &Topology, l: &Link) -> String {
        format!(
            "{}.{} <-> {}.{}",
            t.element(l.a.elem).name,
            l.a.port,
            t.element(l.b.elem).name,
            l.b.port
        )
    }

    /// Comment lines for the degraded topology file: what failed and which processors became unreachable.
    pub fn comments(&self, original: &Topology, spec: &str, seed: u64) -> String {
        let mut s = format!(
            "# degraded {spec}: {} failed links, {} failed switches, {} unreachable processors (seed {seed})\n",
            self.failed_links.len(),
            self.failed_switches.len(),
            self.unreachable.len()
        );
        for l in &self.failed_links {
            s += &format!("# failed link {}\n", Self::link_name(original, l));
        }
        for &w in &self.failed_switches {
            s += &format!("# failed switch {}\n", original.element(w).name);
        }
        for &p in &self.unreachable {
            s += &format!(
                "# unreachable processor {} (its switch failed; removed)\n",
                original.element(p).name
            );
        }
        s
    }
}

/// Copies `t` without the failed links and switches and without the processors attached only to failed
/// switches (returned as unreachable).
fn rebuild(t: &Topology, dead_links: &[Link], dead_sw: &[bool]) -> (Topology, Vec<usize>) {
    let mut gone = dead_sw.to_vec();
    let mut unreachable = Vec::new();
    for n in t.nodes() {
        let ends = [t.output(n, 0), t.input(n, 0)];
        if ends.iter().flatten().any(|p| dead_sw[p.elem]) {
            gone[n] = true;
            unreachable.push(n);
        }
    }
    let mut out = Topology::new();
    let mut idx = vec![usize::MAX; t.len()];
    for (e, el) in t.elements().iter().enumerate() {
        if gone[e] {
            continue;
        }
        idx[e] = match el.kind {
            super::graph::Kind::Switch { ports } => out.add_switch(&el.name, ports),
            super::graph::Kind::Node => out.add_node(&el.name),
        }
        .expect("names and ports of a valid topology");
    }
    for &(from, to) in t.channels() {
        if gone[from.elem] || gone[to.elem] {
            continue;
        }
        let (a, b) = if from <= to { (from, to) } else { (to, from) };
        if dead_links.contains(&Link { a, b }) {
            continue;
        }
        let m = |p: Port| Port {
            elem: idx[p.elem],
            port: p.port,
        };
        out.wire(m(from), m(to))
            .expect("channels of a valid topology");
    }
    (out, unreachable)
}

/// Whether every processor of `t` reaches every other (forward and backward search from the first).
pub fn processors_connected(t: &Topology) -> Result<(), (usize, usize)> {
    let nodes = t.nodes();
    let Some(&p0) = nodes.first() else {
        return Ok(());
    };
    for forward in [true, false] {
        let mut seen = vec![false; t.len()];
        seen[p0] = true;
        let mut q = VecDeque::from([p0]);
        while let Some(u) = q.pop_front() {
            if u != p0 && t.element(u).is_node() {
                continue;
            }
            for p in 0..t.ports(u) {
                let next = if forward {
                    t.output(u, p)
                } else {
                    t.input(u, p)
                };
                if let Some(v) = next {
                    if !seen[v.elem] {
                        seen[v.elem] = true;
                        q.push_back(v.elem);
                    }
                }
            }
        }
        if let Some(&n) = nodes.iter().find(|&&n| !seen[n]) {
            return Err(if forward { (p0, n) } else { (n, p0) });
        }
    }
    Ok(())
}

fn named_link(t: &Topology, all: &[Link], name: &str) -> Result<Link, FaultError> {
    let (e, p) = name
        .rsplit_once('.')
        .ok_or_else(|| FaultError::UnknownLink(name.to_string()))?;
    let elem = t
        .find(e)
        .ok_or_else(|| FaultError::UnknownLink(name.to_string()))?;
    let port: u32 = p
        .parse()
        .map_err(|_| FaultError::UnknownLink(name.to_string()))?;
    if t.element(elem).is_node() {
        return Err(FaultError::NotALink(name.to_string()));
    }
    if port >= t.ports(elem) {
        return Err(FaultError::PortOutOfRange {
            name: name.to_string(),
            switch: e.to_string(),
            last: t.ports(elem) - 1,
        });
    }
    let at = Port { elem, port };
    all.iter()
        .copied()
        .find(|l| l.a == at || l.b == at)
        .ok_or_else(|| FaultError::NotALink(name.to_string()))
}

/// Fails `links` and `switches` of `t` (random picks drawn with `seed`).
pub fn degrade(
    t: &Topology,
    links_pick: &Pick,
    switches_pick: &Pick,
    seed: u64,
) -> Result<Degraded, FaultError> {
    let all = links(t);
    let sw = t.switches();
    let mut rng = stream(seed, 0xfa_17);
    let mut dead_sw = vec![false; t.len()];
    let check = |dead_links: &[Link], dead_sw: &[bool], what: &str| -> Result<(), FaultError> {
        let (d, _) = rebuild(t, dead_links, dead_sw);
        processors_connected(&d).map_err(|(a, b)| FaultError::Disconnects {
            what: what.to_string(),
            cut: d.element(a).name.clone(),
            other: d.element(b).name.clone(),
        })
    };
    // Switches first: their links go with them.
    let mut failed_switches = Vec::new();
    match switches_pick {
        Pick::Named(names) => {
            for n in names {
                let e = t
                    .find(n)
                    .filter(|&e| !t.element(e).is_node())
                    .ok_or_else(|| FaultError::UnknownSwitch(n.clone()))?;
                if dead_sw[e] {
                    return Err(FaultError::Duplicate(n.clone()));
                }
                dead_sw[e] = true;
                failed_switches.push(e);
            }
            if !names.is_empty() {
                check(&[], &dead_sw, &format!("switches {}", names.join(", ")))?;
            }
        }
        Pick::Random(k) => {
            if *k > sw.len() {
                return Err(FaultError::TooManySwitches {
                    asked: *k,
                    available: sw.len(),
                });
            }
            for done in 0..*k {
                let mut cand: Vec<usize> = sw.iter().copied().filter(|&s| !dead_sw[s]).collect();
                cand.shuffle(&mut rng);
                let pick = cand.into_iter().find(|&s| {
                    dead_sw[s] = true;
                    let ok = check(&[], &dead_sw, "").is_ok()
                        && rebuild(t, &[], &dead_sw).0.nodes().len() >= 2;
                    dead_sw[s] = false;
                    ok
                });
                let Some(s) = pick else {
                    return Err(FaultError::CannotKeepConnected {
                        asked: *k,
                        done,
                        what: "switches",
                    });
                };
                dead_sw[s] = true;
                failed_switches.push(s);
            }
        }
    }
    // Links still present after the switch failures.
    let alive: Vec<Link> = all
        .iter()
        .copied()
        .filter(|l| !dead_sw[l.a.elem] && !dead_sw[l.b.elem])
        .collect();
    let mut failed_links: Vec<Link> = Vec::new();
    match links_pick {
        Pick::Named(names) => {
            for n in names {
                let l = named_link(t, &all, n)?;
                if failed_links.contains(&l) {
                    return Err(FaultError::Duplicate(n.clone()));
                }
                if !alive.contains(&l) {
                    return Err(FaultError::NotALink(format!("{n} (its switch failed)")));
                }
                failed_links.push(l);
            }
            if !names.is_empty() {
                let what = format!(
                    "link{} {}",
                    if names.len() > 1 { "s" } else { "" },
                    failed_links
                        .iter()
                        .map(|l| Degraded::link_name(t, l))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                check(&failed_links, &dead_sw, &what)?;
            }
        }
        Pick::Random(k) => {
            if *k > alive.len() {
                return Err(FaultError::TooManyLinks {
                    asked: *k,
                    available: alive.len(),
                });
            }
            for done in 0..*k {
                let mut cand: Vec<Link> = alive
                    .iter()
                    .copied()
                    .filter(|l| !failed_links.contains(l))
                    .collect();
                cand.shuffle(&mut rng);
                let pick = cand.into_iter().find(|&l| {
                    failed_links.push(l);
                    let ok = check(&failed_links, &dead_sw, "").is_ok();
                    failed_links.pop();
                    ok
                });
                let Some(l) = pick else {
                    return Err(FaultError::CannotKeepConnected {
                        asked: *k,
                        done,
                        what: "links",
                    });
                };
                failed_links.push(l);
            }
        }
    }
    let (topology, unreachable) = rebuild(t, &failed_links, &dead_sw);
    let left = topology.nodes().len();
    if left < 2 {
        return Err(FaultError::TooFewProcessors {
            left,
            removed: unreachable.len(),
        });
    }
    Ok(Degraded {
        topology,
        failed_links,
        failed_switches,
        unreachable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::builtin;

    #[test]
    fn links_of_the_128_node_system() {
        let t = builtin("sp2:128").unwrap();
        // 12 boards × 16 internal links + 128 cables.
        assert_eq!(links(&t).len(), 12 * 16 + 128);
    }

    #[test]
    fn a_bridge_cannot_fail() {
        let t = crate::topology::parse(
            "switch A 4\nswitch B 4\nnode P\nnode Q\nlink P.0 A.0\nlink Q.0 B.0\nlink A.1 B.1\n",
            "x",
        )
        .unwrap();
        assert_eq!(
            degrade(&t, &Pick::Random(1), &Pick::Random(0), 1).unwrap_err(),
            FaultError::CannotKeepConnected {
                asked: 1,
                done: 0,
                what: "links"
            }
        );
        assert!(matches!(
            degrade(&t, &Pick::Named(vec!["B.1".into()]), &Pick::Random(0), 1),
            Err(FaultError::Disconnects { .. })
        ));
        assert_eq!(
            degrade(&t, &Pick::Named(vec!["A.7".into()]), &Pick::Random(0), 1).unwrap_err(),
            FaultError::PortOutOfRange {
                name: "A.7".into(),
                switch: "A".into(),
                last: 3
            }
        );
        assert_eq!(
            degrade(
                &t,
                &Pick::Named(vec!["A.1".into(), "B.1".into()]),
                &Pick::Random(0),
                1
            )
            .unwrap_err(),
            FaultError::Duplicate("B.1".into())
        );
    }

    #[test]
    fn random_failures_keep_the_network_connected_and_are_reproducible() {
        let t = builtin("sp2:128").unwrap();
        let a = degrade(&t, &Pick::Random(32), &Pick::Random(0), 5).unwrap();
        let b = degrade(&t, &Pick::Random(32), &Pick::Random(0), 5).unwrap();
        assert_eq!(a.failed_links, b.failed_links);
        assert_eq!(a.failed_links.len(), 32);
        assert_eq!(a.topology.len(), t.len());
        assert_eq!(a.topology.channels().len(), t.channels().len() - 64);
        assert!(processors_connected(&a.topology).is_ok());
        assert!(a.unreachable.is_empty());
    }
}

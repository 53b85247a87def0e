//! The graph itself: elements ([`Element`]: switches and processor nodes, [`Kind`]) with numbered ports,
//! and the directed channels between their ports ([`Port`]), built and queried through [`Topology`]; see the
//! documentation of [`crate::topology`].

use super::error::TopologyError;
use std::collections::HashMap;

/// What an element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A switch with `ports` ports (0..ports), each with an input and an output.
    Switch {
        /// Number of ports, 1 to 64.
        ports: u32,
    },
    /// A processor node with the single port 0.
    Node,
}

/// A switch or a processor node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    /// Unique name: non-empty, without whitespace, `#` or `.`.
    pub name: String,
    /// Switch (with its port count) or processor node.
    pub kind: Kind,
}

impl Element {
    /// Number of ports: the switch's count, 1 for a processor.
    pub fn ports(&self) -> u32 {
        match self.kind {
            Kind::Switch { ports } => ports,
            Kind::Node => 1,
        }
    }
    /// Whether the element is a processor node.
    pub fn is_node(&self) -> bool {
        self.kind == Kind::Node
    }
}

/// One side of a channel: element index and port number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Port {
    /// Element index in its [`Topology`].
    pub elem: usize,
    /// Port number on that element (0-based).
    pub port: u32,
}

/// A network: elements and the directed channels between their ports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Topology {
    elements: Vec<Element>,
    by_name: HashMap<String, usize>,
    /// `out[e][p]`: the input that output `p` of element `e` feeds.
    out: Vec<Vec<Option<Port>>>,
    /// `inp[e][p]`: the output that feeds input `p` of element `e`.
    inp: Vec<Vec<Option<Port>>>,
    /// Channels in the order they were added (for writing the file back).
    channels: Vec<(Port, Port)>,
}

impl Topology {
    /// An empty topology.
    pub fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, name: &str, kind: Kind) -> Result<usize, TopologyError> {
        if name.is_empty()
            || name
                .chars()
                .any(|c| c.is_whitespace() || c == '#' || c == '.')
        {
            return Err(TopologyError::BadName(name.to_string()));
        }
        if self.by_name.contains_key(name) {
            return Err(TopologyError::DuplicateName(name.to_string()));
        }
        let e = Element {
            name: name.to_string(),
            kind,
        };
        let n = e.ports() as usize;
        self.elements.push(e);
        self.out.push(vec![None; n]);
        self.inp.push(vec![None; n]);
        self.by_name
            .insert(name.to_string(), self.elements.len() - 1);
        Ok(self.elements.len() - 1)
    }

    /// Adds a switch with `ports` ports (1..=64).
    pub fn add_switch(&mut self, name: &str, ports: u32) -> Result<usize, TopologyError> {
        if ports == 0 || ports > 64 {
            return Err(TopologyError::BadPortCount {
                name: name.to_string(),
                ports,
            });
        }
        self.add(name, Kind::Switch { ports })
    }

    /// Adds a processor node (one port, port 0).
    pub fn add_node(&mut self, name: &str) -> Result<usize, TopologyError> {
        self.add(name, Kind::Node)
    }

    fn check_port(&self, p: Port) -> Result<(), TopologyError> {
        let e = &self.elements[p.elem];
        if p.port >= e.ports() {
            let what = if e.is_node() { "processor" } else { "switch" };
            return Err(TopologyError::PortOutOfRange {
                what,
                name: e.name.clone(),
                port: p.port,
                ports: e.ports(),
            });
        }
        Ok(())
    }

    /// One direction: output `from` feeds input `to`.
    pub fn wire(&mut self, from: Port, to: Port) -> Result<(), TopologyError> {
        self.check_port(from)?;
        self.check_port(to)?;
        if from.elem == to.elem {
            return Err(TopologyError::SelfLoop(
                self.elements[from.elem].name.clone(),
            ));
        }
        if self.out[from.elem][from.port as usize].is_some() {
            let e = &self.elements[from.elem];
            return Err(if e.is_node() {
                TopologyError::NodeOverlinked(e.name.clone())
            } else {
                TopologyError::OutputUsed {
                    name: e.name.clone(),
                    port: from.port,
                }
            });
        }
        if self.inp[to.elem][to.port as usize].is_some() {
            let e = &self.elements[to.elem];
            return Err(if e.is_node() {
                TopologyError::NodeOverlinked(e.name.clone())
            } else {
                TopologyError::InputUsed {
                    name: e.name.clone(),
                    port: to.port,
                }
            });
        }
        self.out[from.elem][from.port as usize] = Some(to);
        self.inp[to.elem][to.port as usize] = Some(from);
        self.channels.push((from, to));
        Ok(())
    }

    /// Full duplex: `a` feeds `b` and `b` feeds `a`. Either both channels are added or neither.
    pub fn link(&mut self, a: Port, b: Port) -> Result<(), TopologyError> {
        self.check_port(a)?;
        self.check_port(b)?;
        for (x, y) in [(a, b), (b, a)] {
            if x.elem == y.elem {
                return Err(TopologyError::SelfLoop(self.elements[x.elem].name.clone()));
            }
            if self.out[x.elem][x.port as usize].is_some()
                || self.inp[y.elem][y.port as usize].is_some()
            {
                // Report through wire()'s error, without leaving a half-made link.
                let mut probe = self.clone();
                probe.wire(x, y)?;
            }
        }
        self.wire(a, b)?;
        self.wire(b, a)
    }

    /// Looks an element up by name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }
    /// All elements, by index.
    pub fn elements(&self) -> &[Element] {
        &self.elements
    }
    /// Element `e`; panics if `e` is out of range.
    pub fn element(&self, e: usize) -> &Element {
        &self.elements[e]
    }
    /// Number of elements (switches and processors).
    pub fn len(&self) -> usize {
        self.elements.len()
    }
    /// Whether the topology has no element.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }
    /// The input that output `port` of `elem` feeds, if connected.
    pub fn output(&self, elem: usize, port: u32) -> Option<Port> {
        self.out[elem].get(port as usize).copied().flatten()
    }
    /// The output that feeds input `port` of `elem`, if connected.
    pub fn input(&self, elem: usize, port: u32) -> Option<Port> {
        self.inp[elem].get(port as usize).copied().flatten()
    }
    /// Every channel (from output, to input), in the order added.
    pub fn channels(&self) -> &[(Port, Port)] {
        &self.channels
    }
    /// Indices of the processor nodes, in the order added.
    pub fn nodes(&self) -> Vec<usize> {
        (0..self.elements.len())
            .filter(|&e| self.elements[e].is_node())
            .collect()
    }
    /// Indices of the switches, in the order added.
    pub fn switches(&self) -> Vec<usize> {
        (0..self.elements.len())
            .filter(|&e| !self.elements[e].is_node())
            .collect()
    }
    /// The switch that processor `node` injects into (the element its output feeds), if connected.
    pub fn inject_switch(&self, node: usize) -> Option<Port> {
        self.output(node, 0)
    }
    /// The switch output that delivers to processor `node` (the output feeding its input), if connected.
    pub fn deliver_port(&self, node: usize) -> Option<Port> {
        self.input(node, 0)
    }
    /// Number of ports of element `e`.
    pub fn ports(&self, e: usize) -> u32 {
        self.elements[e].ports()
    }
    /// Whether the two channels of a port pair form a full-duplex link (a feeds b and b feeds a).
    pub fn is_link(&self, a: Port, b: Port) -> bool {
        self.output(a.elem, a.port) == Some(b) && self.output(b.elem, b.port) == Some(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(elem: usize, port: u32) -> Port {
        Port { elem, port }
    }

    #[test]
    fn build_and_errors() {
        let mut t = Topology::new();
        let s0 = t.add_switch("S0", 8).unwrap();
        let s1 = t.add_switch("S1", 2).unwrap();
        let n0 = t.add_node("P0").unwrap();
        assert_eq!(
            t.add_node("S0"),
            Err(TopologyError::DuplicateName("S0".into()))
        );
        assert!(matches!(
            t.add_switch("X", 65),
            Err(TopologyError::BadPortCount { .. })
        ));
        t.link(p(n0, 0), p(s0, 0)).unwrap();
        assert_eq!(t.output(s0, 0), Some(p(n0, 0)));
        assert_eq!(t.input(s0, 0), Some(p(n0, 0)));
        assert!(t.is_link(p(n0, 0), p(s0, 0)));
        assert_eq!(
            t.link(p(n0, 0), p(s0, 1)),
            Err(TopologyError::NodeOverlinked("P0".into()))
        );
        // The failed link left nothing behind.
        assert_eq!(t.output(s0, 1), None);
        assert!(matches!(
            t.wire(p(s0, 1), p(s1, 2)),
            Err(TopologyError::PortOutOfRange { .. })
        ));
        t.wire(p(s0, 1), p(s1, 0)).unwrap();
        assert!(matches!(
            t.wire(p(s0, 1), p(s1, 1)),
            Err(TopologyError::OutputUsed { .. })
        ));
        assert!(matches!(
            t.wire(p(s0, 2), p(s1, 0)),
            Err(TopologyError::InputUsed { .. })
        ));
        assert_eq!(
            t.wire(p(s0, 3), p(s0, 4)),
            Err(TopologyError::SelfLoop("S0".into()))
        );
        assert_eq!(t.nodes(), vec![n0]);
        assert_eq!(t.switches(), vec![s0, s1]);
        assert_eq!(t.channels().len(), 3);
    }
}

//! A network of SP2-style switches wired as a [`Topology`] (every switch has 8 ports), with the processor
//! links left as external ports: the model twin of `hdl/src/sp2/board.rs` (exported as `sp2_board`) when
//! built from the 16-node board `sp2:16`, and the fabric of [`super::system`] for the 32–512-node systems.
//!
//! Ports per cycle, for processor k (the topology's k-th node, `Topology::nodes` order):
//! in — `link_in[k]` (the byte processor k drives into its switch, if any), `token_in[k]` (processor k's
//! token for a byte it consumed); out — `link_out[k]` (the byte its switch's transmitter drives to it),
//! `token_out[k]` (its switch's receiver token back to processor k).
//!
//! Links between switches are direct wires: output p of one switch drives the input of the next in the
//! same cycle, and the receiver's token goes back the same way. A switch's outputs are registers
//! ([`Sp2Switch::outputs`]), so one cycle is: read every switch's outputs, then step every switch with its
//! neighbours' outputs (two-phase: the order of the switches never matters). Latency per switch: 5 cycles
//! from `LEN` in to `LEN − 1` out, as a single switch.
//!
//! A byte driven on an unconnected output is an error (a route leads nowhere), not a silent loss.
//!
//! Links can fail during a run ([`Sp2Network::fail_link`], both directions): behind a failed output a *bit
//! bucket* takes every byte and returns a token for each (and for the bytes still unacknowledged when the link
//! failed), so packets routed onto a dead link drain and are lost, never stuck; in front of the failed input a
//! *filler* completes the packet that was arriving when the link failed with zero bytes (a zero route byte is
//! dropped by the receiver as a route error, zero body bytes fail the CRC and the packet arrives flagged bad),
//! so no receiver waits forever for the rest of a packet. To do that the network keeps, per switch input, the
//! bytes still expected of the current packet and the upstream transmitter's credit.

use super::v1::switch::Sp2Switch;
use super::Sp2Outputs;
use super::SwitchModel;
use super::{PORTS, RX_DEPTH};
use crate::topology::{Kind, Topology};
use thiserror::Error;

/// What drives an input, or what an output drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Nothing is connected.
    Open,
    /// Port `port` of switch `sw` (index into [`Sp2Network::switches`]).
    Switch {
        /// Index into [`Sp2Network::switches`].
        sw: usize,
        /// Port of that switch, 0 to 7.
        port: u8,
    },
    /// Processor k.
    Node(usize),
    /// A failed link: the bit bucket behind an output, the filler in front of an input.
    Failed,
}

/// Why a network cannot be built or a cycle failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Sp2NetError {
    /// A switch of the topology does not have 8 ports.
    #[error("switch `{name}` has {ports} ports; an SP2 switch has 8 (a topology's switch may use fewer)")]
    TooManyPorts {
        /// The switch's name in the topology.
        name: String,
        /// Its number of ports.
        ports: u32,
    },
    /// The named processor lacks a link to a switch, or one from it.
    #[error("processor `{0}` is not linked to a switch in both directions")]
    NodeUnlinked(String),
    /// The named processor is wired to another processor.
    #[error("processor `{0}` is linked directly to another processor")]
    NodeToNode(String),
    /// A switch broke one of its invariants while stepping, or its central-queue lists are inconsistent.
    #[error("switch `{name}`: {err}")]
    Switch {
        /// The switch's name.
        name: String,
        /// The switch model's description of the error.
        err: String,
    },
    /// A switch drove a byte on an output with nothing connected.
    #[error(
        "cycle {cycle}: switch `{name}` sent a byte on output {port}, which is not connected (a route leads nowhere)"
    )]
    Unconnected {
        /// The network's cycle count at the time.
        cycle: u64,
        /// The switch's name.
        name: String,
        /// The unconnected output port.
        port: u8,
    },
    /// [`Sp2Network::fail_link`] was given a port that is not a working full-duplex link between two
    /// switches.
    #[error("cannot fail `{name}.{port}`: {why}")]
    BadFailure {
        /// The switch's name (empty if the index is out of range).
        name: String,
        /// The port given.
        port: u8,
        /// Why the link cannot fail.
        why: &'static str,
    },
}

/// The switches, their wiring and the processor ports. `S` is the switch model: v1 ([`Sp2Switch`], the
/// default) or v2 ([`super::v2::switch::Sp2SwitchV2`]).
#[derive(Debug, Clone)]
pub struct Sp2Network<S: SwitchModel = Sp2Switch> {
    /// The switches, in the topology's switch order.
    pub switches: Vec<S>,
    /// Switch names (as in the topology).
    pub names: Vec<String>,
    /// Processor names, in port order.
    pub node_names: Vec<String>,
    /// `feed[s][p]`: what drives input p of switch s.
    feed: Vec<[End; PORTS]>,
    /// `sink[s][p]`: what output p of switch s drives.
    sink: Vec<[End; PORTS]>,
    /// Per processor: the switch input its link enters, and the switch output that delivers to it.
    node_in: Vec<(usize, u8)>,
    node_out: Vec<(usize, u8)>,
    /// This cycle's outputs of every switch (valid between `step`s).
    outs: Vec<Sp2Outputs>,
    /// Per switch input: bytes still expected of the packet arriving on it (0 between packets) and the credit
    /// its upstream transmitter has for it (tracked from the bytes and tokens on the link).
    rx_rem: Vec<[u16; PORTS]>,
    rx_credit: Vec<[u16; PORTS]>,
    /// Per failed output: tokens the bit bucket still owes its transmitter.
    bucket: Vec<[u16; PORTS]>,
    /// Bytes the bit buckets took (packets lost on failed links), since the network was built.
    pub discarded_bytes: u64,
    /// Filler bytes sent into failed inputs to complete cut packets, since the network was built.
    pub filler_bytes: u64,
    /// Switch-cycles actually stepped since the network was built (an idle switch with no input is skipped):
    /// a measure of the work done.
    pub stepped: u64,
    /// Cycles stepped since the network was built.
    pub cycle: u64,
}

impl<S: SwitchModel> Sp2Network<S> {
    /// Builds the network; every switch must have 8 ports and every processor one link each way to a switch.
    pub fn new(t: &Topology) -> Result<Self, Sp2NetError> {
        let switches = t.switches();
        let nodes = t.nodes();
        let mut sw_index = vec![usize::MAX; t.len()];
        let mut node_index = vec![usize::MAX; t.len()];
        for (k, &e) in switches.iter().enumerate() {
            let el = t.element(e);
            if let Kind::Switch { ports } = el.kind {
                // A switch of fewer ports is an SP2 switch with the rest unconnected.
                if ports as usize > PORTS {
                    return Err(Sp2NetError::TooManyPorts {
                        name: el.name.clone(),
                        ports,
                    });
                }
            }
            sw_index[e] = k;
        }
        for (k, &e) in nodes.iter().enumerate() {
            node_index[e] = k;
        }
        let end = |p: Option<crate::topology::Port>| match p {
            None => End::Open,
            Some(p) if t.element(p.elem).is_node() => End::Node(node_index[p.elem]),
            Some(p) => End::Switch {
                sw: sw_index[p.elem],
                port: p.port as u8,
            },
        };
        let mut feed = vec![[End::Open; PORTS]; switches.len()];
        let mut sink = vec![[End::Open; PORTS]; switches.len()];
        for (k, &e) in switches.iter().enumerate() {
            for p in 0..PORTS {
                feed[k][p] = end(t.input(e, p as u32));
                sink[k][p] = end(t.output(e, p as u32));
            }
        }
        let mut node_in = Vec::with_capacity(nodes.len());
        let mut node_out = Vec::with_capacity(nodes.len());
        for &e in &nodes {
            let name = &t.element(e).name;
            let (o, i) = (t.output(e, 0), t.input(e, 0));
            let (Some(o), Some(i)) = (o, i) else {
                return Err(Sp2NetError::NodeUnlinked(name.clone()));
            };
            if t.element(o.elem).is_node() || t.element(i.elem).is_node() {
                return Err(Sp2NetError::NodeToNode(name.clone()));
            }
            node_in.push((sw_index[o.elem], o.port as u8));
            node_out.push((sw_index[i.elem], i.port as u8));
        }
        Ok(Sp2Network {
            switches: vec![S::default(); switches.len()],
            names: switches
                .iter()
                .map(|&e| t.element(e).name.clone())
                .collect(),
            node_names: nodes.iter().map(|&e| t.element(e).name.clone()).collect(),
            feed,
            sink,
            node_in,
            node_out,
            outs: vec![Sp2Outputs::default(); switches.len()],
            rx_rem: vec![[0; PORTS]; switches.len()],
            rx_credit: vec![[RX_DEPTH as u16; PORTS]; switches.len()],
            bucket: vec![[0; PORTS]; switches.len()],
            discarded_bytes: 0,
            filler_bytes: 0,
            stepped: 0,
            cycle: 0,
        })
    }

    /// `feed[s][p]`: what drives input p of switch s (the wiring, for a generator of the network's HDL).
    pub fn feed(&self) -> &[[End; PORTS]] {
        &self.feed
    }

    /// `sink[s][p]`: what output p of switch s drives.
    pub fn sink(&self) -> &[[End; PORTS]] {
        &self.sink
    }

    /// Number of processor ports.
    pub fn processors(&self) -> usize {
        self.node_in.len()
    }

    /// What the network drives to processor k this cycle: (byte, token). Valid before [`Self::step`].
    pub fn to_node(&self, k: usize) -> (Option<u8>, bool) {
        let (s, p) = self.node_out[k];
        let (si, pi) = self.node_in[k];
        (
            self.outs[s].link_out[p as usize],
            self.outs[si].token_out[pi as usize],
        )
    }

    /// This cycle's outputs of every switch (before [`Self::step`]).
    pub fn switch_outputs(&self) -> &[Sp2Outputs] {
        &self.outs
    }

    /// One clock cycle: the processors drive `link_in` and `token_in`; returns what the network drove to
    /// them in this cycle (`link_out`, `token_out`), as the HDL board's pins show it.
    pub fn step(
        &mut self,
        link_in: &[Option<u8>],
        token_in: &[bool],
    ) -> Result<(Vec<Option<u8>>, Vec<bool>), Sp2NetError> {
        let n = self.processors();
        assert!(link_in.len() == n && token_in.len() == n);
        let (to_link, to_token): (Vec<_>, Vec<_>) = (0..n).map(|k| self.to_node(k)).unzip();
        for (s, o) in self.outs.iter().enumerate() {
            for p in 0..PORTS {
                if o.link_out[p].is_some() && self.sink[s][p] == End::Open {
                    return Err(Sp2NetError::Unconnected {
                        cycle: self.cycle,
                        name: self.names[s].clone(),
                        port: p as u8,
                    });
                }
            }
        }
        for s in 0..self.switches.len() {
            let mut li = [None; PORTS];
            let mut ti = [false; PORTS];
            for p in 0..PORTS {
                li[p] = match self.feed[s][p] {
                    End::Open => None,
                    End::Switch { sw, port } => self.outs[sw].link_out[port as usize],
                    End::Node(k) => link_in[k],
                    End::Failed => {
                        // The filler completes the packet that was arriving, within the credit.
                        (self.rx_rem[s][p] > 0 && self.rx_credit[s][p] > 0).then(|| {
                            self.filler_bytes += 1;
                            0u8
                        })
                    }
                };
                // The token for output p comes from the receiver that output p drives.
                ti[p] = match self.sink[s][p] {
                    End::Open => false,
                    End::Switch { sw, port } => self.outs[sw].token_out[port as usize],
                    End::Node(k) => token_in[k],
                    End::Failed => {
                        let b = &mut self.bucket[s][p];
                        if self.outs[s].link_out[p].is_some() {
                            *b += 1;
                            self.discarded_bytes += 1;
                        }
                        let t = *b > 0;
                        *b -= t as u16;
                        t
                    }
                };
                // Track the packet position and the upstream credit of this input.
                if let Some(byte) = li[p] {
                    self.rx_credit[s][p] -= 1;
                    self.rx_rem[s][p] = match self.rx_rem[s][p] {
                        0 => byte as u16 + 1,
                        r => r - 1,
                    };
                }
                if self.outs[s].token_out[p] {
                    self.rx_credit[s][p] += 1;
                }
            }
            let sw = &mut self.switches[s];
            // An idle switch with nothing arriving keeps its state (checked by the tests below).
            if li.iter().all(|b| b.is_none()) && !ti.iter().any(|&t| t) && sw.quiescent() {
                sw.skip_cycle();
                continue;
            }
            self.stepped += 1;
            sw.step_pins(&li, &ti).map_err(|err| Sp2NetError::Switch {
                name: self.names[s].clone(),
                err,
            })?;
        }
        for (o, sw) in self.outs.iter_mut().zip(&self.switches) {
            *o = sw.outputs();
        }
        self.cycle += 1;
        Ok((to_link, to_token))
    }

    /// Fails the switch-to-switch link at port `port` of switch `sw`, both directions, from the next cycle
    /// on (see the module documentation). Returns the other end (switch, port).
    pub fn fail_link(&mut self, sw: usize, port: u8) -> Result<(usize, u8), Sp2NetError> {
        let bad = |why| Sp2NetError::BadFailure {
            name: self.names.get(sw).cloned().unwrap_or_default(),
            port,
            why,
        };
        if sw >= self.switches.len() || port as usize >= PORTS {
            return Err(bad("no such switch port"));
        }
        let p = port as usize;
        let (End::Switch { sw: s2, port: p2 }, End::Switch { sw: s3, port: p3 }) =
            (self.sink[sw][p], self.feed[sw][p])
        else {
            return Err(bad("not a working link between two switches"));
        };
        if (s2, p2) != (s3, p3) {
            return Err(bad(
                "its two directions go to different ports (not a full-duplex link)",
            ));
        }
        let p2u = p2 as usize;
        for (a, ap, b, bp) in [(sw, p, s2, p2u), (s2, p2u, sw, p)] {
            // Output (a, ap) feeds input (b, bp): a bucket behind the output, a filler in front of the input.
            let owed = RX_DEPTH as u16 - self.switches[a].tx_credit(ap);
            let on_wire = self.outs[a].link_out[ap].is_some() as u16;
            self.bucket[a][ap] = owed - on_wire;
            self.sink[a][ap] = End::Failed;
            self.feed[b][bp] = End::Failed;
        }
        Ok((s2, p2))
    }

    /// Checks the failed links after draining: every bit bucket has returned all its tokens, every transmitter
    /// in front of one has its full credit, and every filler finished its packet.
    pub fn check_failed(&self) -> Result<(), String> {
        for s in 0..self.switches.len() {
            for p in 0..PORTS {
                if self.sink[s][p] == End::Failed
                    && (self.bucket[s][p] != 0
                        || self.switches[s].tx_credit(p) as usize != RX_DEPTH)
                {
                    return Err(format!(
                        "failed output {}.{p}: {} tokens owed, credit {}",
                        self.names[s],
                        self.bucket[s][p],
                        self.switches[s].tx_credit(p)
                    ));
                }
                if self.feed[s][p] == End::Failed && self.rx_rem[s][p] != 0 {
                    return Err(format!(
                        "failed input {}.{p}: {} bytes of a packet never filled",
                        self.names[s], self.rx_rem[s][p]
                    ));
                }
            }
        }
        Ok(())
    }

    /// The index of the switch called `name`.
    pub fn switch_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// A readable dump of every busy switch (receiver states, locks, queue counts, transmitters), for
    /// diagnosing a deadlock.
    pub fn dump_busy(&self) -> String {
        let mut out = String::new();
        for (k, sw) in self.switches.iter().enumerate() {
            if sw.idle() {
                continue;
            }
            out.push_str(&format!("{}: {}", self.names[k], sw.dump()));
        }
        out
    }

    /// Every switch drained (no byte, chunk, lock or token left; every free list full).
    pub fn is_idle(&self) -> bool {
        self.switches.iter().all(|s| s.idle())
    }

    /// Checks every switch's central-queue lists.
    pub fn check(&self) -> Result<(), Sp2NetError> {
        for (s, sw) in self.switches.iter().enumerate() {
            sw.check_queue().map_err(|err| Sp2NetError::Switch {
                name: self.names[s].clone(),
                err,
            })?;
        }
        Ok(())
    }

    /// Chunks in use over all central queues.
    pub fn queue_occupancy(&self) -> usize {
        self.switches.iter().map(|s| s.queue_chunks()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_switch_with_no_input_keeps_its_state() {
        let mut a = Sp2Switch::new();
        // Leave some history in the arbiters first: a packet through and drained.
        let pkt = super::super::encode_packet(
            &crate::header::Header::new(8, vec![0b100]).unwrap(),
            &[1, 2, 3],
        )
        .unwrap();
        let mut credit_back = 0;
        for c in 0..200 {
            let mut li = [None; PORTS];
            li[1] = pkt.get(c).copied();
            let mut ti = [false; PORTS];
            ti[2] = credit_back > 0;
            credit_back -= ti[2] as i32;
            let o = a.step(&li, &ti).unwrap();
            credit_back += o.link_out[2].is_some() as i32;
        }
        assert!(a.is_idle() && a.tx[2].packets_xbar == 1);
        let mut b = a.clone();
        b.step(&[None; PORTS], &[false; PORTS]).unwrap();
        a.cycle += 1;
        assert_eq!(a, b);
    }

    #[test]
    fn rejects_non_sp2_topologies() {
        let mut t = Topology::new();
        let s = t.add_switch("S", 9).unwrap();
        let n = t.add_node("P0").unwrap();
        t.link(
            crate::topology::Port { elem: n, port: 0 },
            crate::topology::Port { elem: s, port: 0 },
        )
        .unwrap();
        assert!(matches!(
            Sp2Network::<Sp2Switch>::new(&t),
            Err(Sp2NetError::TooManyPorts { ports: 9, .. })
        ));
        let mut t = Topology::new();
        t.add_switch("S", 8).unwrap();
        t.add_node("P0").unwrap();
        assert!(matches!(
            Sp2Network::<Sp2Switch>::new(&t),
            Err(Sp2NetError::NodeUnlinked(n)) if n == "P0"
        ));
    }
}

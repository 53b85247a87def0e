//! `asr_network`: a network of SP2-style switches wired as a [`Topology`], with an [`asr_nic`](super::nic)
//! endpoint on every processor port — the model twin of the Verilog `asr network` generates
//! (`hdl/src/sp2/asr_network.rs`, docs/network.md). Toward each processor k the endpoint's AXI4-Stream pair
//! and configuration port; inside, the endpoint's SP2 link is wired to the switch port the topology names.
//!
//! One cycle is [`AsrNetwork::cycle`]: every processor's inputs in ([`ProcIn`]), every endpoint's outputs
//! before the edge out ([`NicOut`], all registers). Inside a cycle, each endpoint reads what the network
//! drives to it (the switch's output registers) and the network reads what each endpoint drives (the
//! endpoint's output registers), so the order never matters: read, then commit both.
//!
//! Route tables: endpoint k holds one ASR header per destination, taken from a [`TableRouting`] (the route
//! generator's tables, deadlock-free or not, or a route file) by [`tables`]; every endpoint of a
//! network has the same entry size (the network's longest route + 1, rounded up to a power of two), so one
//! endpoint design serves them all with its own table contents.

use super::network::{End, Sp2NetError, Sp2Network};
use super::nic::{Nic, NicError, NicIn, NicOut, NicParamError, NicParams};
use super::{Sp2Outputs, SwitchModel};
use crate::header::Header;
use crate::routing::TableRouting;
use crate::topology::Topology;
use thiserror::Error;

/// A network that cannot be built, or a cycle that went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AsrNetworkError {
    /// The switches cannot be wired as the topology says.
    #[error(transparent)]
    Network(#[from] Sp2NetError),
    /// The routing is for another number of processors.
    #[error("the route table is for {table} processors; the topology has {topology}")]
    Processors {
        /// Processors in the table.
        table: usize,
        /// Processors in the topology.
        topology: usize,
    },
    /// A route cannot be held by an endpoint's table.
    #[error("processor {src}: {err}")]
    Table {
        /// The source whose table it is.
        src: usize,
        /// Why.
        err: NicParamError,
    },
    /// A route's header is malformed.
    #[error("route {src} → {dst}: {why}")]
    Header {
        /// Source processor.
        src: usize,
        /// Destination processor.
        dst: usize,
        /// Why.
        why: String,
    },
    /// More processors than an endpoint's `tdest`/`tid` (8 bits) can name.
    #[error("{0} processors: an endpoint names at most 256")]
    TooMany(usize),
    /// An endpoint saw a protocol violation.
    #[error("cycle {cycle}: endpoint {proc}: {err}")]
    Nic {
        /// The cycle.
        cycle: u64,
        /// The processor.
        proc: usize,
        /// What.
        err: NicError,
    },
}

/// Processor k's inputs in one cycle (its AXI4-Stream and configuration pins).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcIn {
    /// Send side: `s_axis_tvalid` with (`tdata`, `tlast`, `tdest`).
    pub s: Option<(u8, bool, u8)>,
    /// Receive side: `m_axis_tready`.
    pub m_tready: bool,
    /// A table write: (`cfg_addr`, `cfg_data`).
    pub cfg: Option<(u16, u8)>,
}

/// The network with its endpoints.
#[derive(Debug, Clone)]
pub struct AsrNetwork<S: SwitchModel> {
    /// The switches and their wiring.
    pub net: Sp2Network<S>,
    /// Processor k's endpoint.
    pub nics: Vec<Nic>,
    /// Cycles run.
    pub cycle: u64,
}

/// Every endpoint's table for `routing` on `t`: entry d of endpoint k is the header of (k, d), all with
/// the network's entry size.
pub fn tables(t: &Topology, routing: &TableRouting) -> Result<Vec<NicParams>, AsrNetworkError> {
    use crate::routing::Routing;
    let n = t.nodes().len();
    if routing.processors() != n {
        return Err(AsrNetworkError::Processors {
            table: routing.processors(),
            topology: n,
        });
    }
    if n > 256 {
        return Err(AsrNetworkError::TooMany(n));
    }
    let mut headers = Vec::with_capacity(n);
    for s in 0..n {
        let mut row = Vec::with_capacity(n);
        for d in 0..n {
            let h = Header::new(8, routing.header(s, d).to_vec()).map_err(|e| {
                AsrNetworkError::Header {
                    src: s,
                    dst: d,
                    why: e.to_string(),
                }
            })?;
            row.push(Some(h));
        }
        headers.push(row);
    }
    let longest = headers
        .iter()
        .flatten()
        .flatten()
        .map(|h| h.len())
        .max()
        .unwrap_or(1);
    headers
        .iter()
        .enumerate()
        .map(|(s, row)| {
            NicParams::table_with_stride(row, (longest + 1).next_power_of_two())
                .map_err(|err| AsrNetworkError::Table { src: s, err })
        })
        .collect()
}

impl<S: SwitchModel> AsrNetwork<S> {
    /// The network of `t` with endpoint k holding `tables[k]`.
    pub fn new(t: &Topology, tables: Vec<NicParams>) -> Result<Self, AsrNetworkError> {
        let net = Sp2Network::<S>::new(t)?;
        if tables.len() != net.processors() {
            return Err(AsrNetworkError::Processors {
                table: tables.len(),
                topology: net.processors(),
            });
        }
        if tables.len() > 256 {
            return Err(AsrNetworkError::TooMany(tables.len()));
        }
        Ok(AsrNetwork {
            net,
            nics: tables.into_iter().map(Nic::new).collect(),
            cycle: 0,
        })
    }

    /// Processors (endpoints).
    pub fn processors(&self) -> usize {
        self.nics.len()
    }

    /// Every switch's output registers during this cycle (valid before [`Self::cycle`]).
    pub fn switch_outputs(&self) -> &[Sp2Outputs] {
        self.net.switch_outputs()
    }

    /// One clock cycle: processor k's pins `ins[k]` in; every endpoint's outputs during the cycle (before
    /// its edge) out.
    pub fn cycle(&mut self, ins: &[ProcIn]) -> Result<Vec<NicOut>, AsrNetworkError> {
        let n = self.processors();
        assert_eq!(ins.len(), n, "one input per processor");
        let mut outs = Vec::with_capacity(n);
        let mut link = Vec::with_capacity(n);
        let mut token = Vec::with_capacity(n);
        for (k, i) in ins.iter().enumerate() {
            let (link_in, token_in) = self.net.to_node(k);
            let o = self.nics[k]
                .cycle(&NicIn {
                    s: i.s,
                    m_tready: i.m_tready,
                    link_in,
                    token_in,
                    cfg: i.cfg,
                    node_id: k as u8,
                })
                .map_err(|err| AsrNetworkError::Nic {
                    cycle: self.cycle,
                    proc: k,
                    err,
                })?;
            link.push(o.link_out);
            token.push(o.token_out);
            outs.push(o);
        }
        self.net.step(&link, &token)?;
        self.cycle += 1;
        Ok(outs)
    }

    /// Nothing inside: every endpoint and every switch idle.
    pub fn is_idle(&self) -> bool {
        self.nics.iter().all(|n| n.is_idle()) && self.net.is_idle()
    }

    /// The wiring, as the generator reads it: `feed[s][p]` and `sink[s][p]` of [`Sp2Network`].
    pub fn wiring(&self) -> (&[[End; super::PORTS]], &[[End; super::PORTS]]) {
        (self.net.feed(), self.net.sink())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sp2::v3::switch::Sp2SwitchV3;

    fn sp2_16() -> (Topology, Vec<NicParams>) {
        let t = crate::topology::load("sp2:16").unwrap();
        let generated =
            crate::routes::table::generate(&t, crate::routes::Method::Pruned, &|| {}).unwrap();
        let r = TableRouting::from_tables(&t, &generated, "asr").unwrap();
        let p = tables(&t, &r).unwrap();
        (t, p)
    }

    /// One message from processor 0 to processor 13 crosses three switches and arrives intact with its
    /// source; the network drains to idle.
    #[test]
    fn a_message_crosses_the_board() {
        let (t, p) = sp2_16();
        assert!(p.iter().all(|x| x.stride == p[0].stride));
        let mut net = AsrNetwork::<Sp2SwitchV3>::new(&t, p).unwrap();
        let msg: Vec<u8> = (1..=40).collect();
        let mut at = 0;
        let mut got = Vec::new();
        for _ in 0..500 {
            let mut ins = vec![
                ProcIn {
                    m_tready: true,
                    ..ProcIn::default()
                };
                16
            ];
            if at < msg.len() {
                ins[0].s = Some((msg[at], at + 1 == msg.len(), 13));
            }
            let o = net.cycle(&ins).unwrap();
            if at < msg.len() && o[0].s_tready {
                at += 1;
            }
            for (k, x) in o.iter().enumerate() {
                if let Some((b, last, tid, bad)) = x.m {
                    assert_eq!((k, tid, bad), (13, 0, false));
                    got.push(b);
                    if last {
                        assert_eq!(got, msg);
                    }
                }
            }
        }
        assert_eq!(got, msg);
        assert!(net.is_idle());
    }

    /// A table for another topology's processor count is refused, naming both counts.
    #[test]
    fn a_table_of_another_size_is_refused() {
        let (_, p) = sp2_16();
        let t32 = crate::topology::load("sp2:32").unwrap();
        let e = AsrNetwork::<Sp2SwitchV3>::new(&t32, p).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the route table is for 16 processors; the topology has 32"
        );
    }
}

//! A generated network (`asr network`, `asr_hdl::sp2::asr_network`) against its model
//! (`asr_model::sp2::asr_network::AsrNetwork`) on the same topology and tables, every output every cycle:
//! every endpoint's AXI4-Stream, configuration-status and link-side registers and every switch's link
//! outputs.
//!
//! Stimulus: on every processor's send side, messages of every length from 1 to the largest (the corners
//! often) to random destinations (the sender itself included), a beat held until taken (AXI4-Stream), with
//! random gaps between beats and messages; the load changes in phases (light, heavy, bursts). On every
//! receive side `m_axis_tready` at random, in phases (often, always, rarely). While `tvalid` is low the
//! data, `tlast` and `tdest` pins carry random bytes (the design must ignore them).
//!
//! Scoreboard (model side): every message arrives once, whole, at its destination, with its source in `tid` and a good CRC; no endpoint drops or overflows; after the drain
//! every endpoint and every switch is idle.

use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use crate::harness::rng;
use anyhow::{bail, Result};
use asr_model::sp2::asr_network::{AsrNetwork, ProcIn};
use asr_model::sp2::nic::NicParams;
use asr_model::sp2::SwitchModel;
use asr_model::topology::Topology;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::{HashMap, VecDeque};

/// Cycles per load phase.
const PHASE: u64 = 5_000;

/// The switch versions a network can be built of.
pub const SWITCHES: [&str; 2] = ["v2", "v3"];

/// The generated Verilog of the network of `t` with endpoint tables `tables`, switch `version` (`v2`,
/// `v3`), top module `name`.
pub fn verilog(t: &Topology, tables: &[NicParams], version: &str, name: &str) -> Result<String> {
    let switch_name = match version {
        "v2" => "sp2_switch_v2",
        "v3" => "sp2_switch_v3",
        other => bail!("switch `{other}`: a network is built of v2 or v3 switches"),
    };
    // The wiring does not depend on the switch model; the v3 model checks the topology and the tables.
    let net = AsrNetwork::<asr_model::sp2::v3::switch::Sp2SwitchV3>::new(t, tables.to_vec())?;
    let (feed, sink) = net.wiring();
    let (switch_names, node_names) = (&net.net.names, &net.net.node_names);
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || !name.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        bail!("module name `{name}`: letters, digits and `_`, starting with a letter");
    }
    let row = super::TOPS
        .iter()
        .find(|r| r.name == switch_name)
        .expect("the switch is a top");
    let raw = (row.raw)();
    asr_hdl::sp2::asr_network::generate(&asr_hdl::sp2::asr_network::NetworkSpec {
        name,
        switch_raw: &raw,
        switch_name,
        feed,
        sink,
        switch_names,
        node_names,
        tables,
    })
    .map_err(anyhow::Error::msg)
}

/// One processor's AXI source: messages queued, the beat index in the first, whether its beat is offered.
#[derive(Default)]
struct Source {
    msgs: VecDeque<(u8, Vec<u8>)>,
    at: usize,
    offered: bool,
}

/// Port names of processor k, in declaration order (inputs, outputs).
struct Names {
    s_tvalid: String,
    s_tdata: String,
    s_tlast: String,
    s_tdest: String,
    m_tready: String,
    cfg_we: String,
    cfg_addr: String,
    cfg_data: String,
    outs: Vec<String>,
}

/// The generated network's definition: stimulus, model network with endpoints, scoreboard.
pub struct AsrNetworkTop<S: SwitchModel> {
    name: String,
    net: AsrNetwork<S>,
    rng: Xoshiro256PlusPlus,
    names: Vec<Names>,
    table_bits: usize,
    src: Vec<Source>,
    expect: HashMap<(u8, u8), VecDeque<Vec<u8>>>,
    got: Vec<Vec<u8>>,
    max: usize,
    draining: bool,
    // Counters.
    sent: u64,
    delivered: u64,
    bytes: u64,
    stalls: u64,
    longest: u64,
    shortest: u64,
    reordered: u64,
}

impl<S: SwitchModel> AsrNetworkTop<S> {
    /// The network of `t` with `tables`, its Verilog module `name`, stimulus from `seed`.
    pub fn new(name: &str, t: &Topology, tables: Vec<NicParams>, seed: u64) -> Result<Self> {
        let max = tables[0].max_msg();
        let table_bits = tables[0].table.len().trailing_zeros() as usize;
        let net = AsrNetwork::<S>::new(t, tables)?;
        let n = net.processors();
        let names = (0..n)
            .map(|k| {
                let p = |s: &str| format!("p{k}_{s}");
                Names {
                    s_tvalid: p("s_axis_tvalid"),
                    s_tdata: p("s_axis_tdata"),
                    s_tlast: p("s_axis_tlast"),
                    s_tdest: p("s_axis_tdest"),
                    m_tready: p("m_axis_tready"),
                    cfg_we: p("cfg_we"),
                    cfg_addr: p("cfg_addr"),
                    cfg_data: p("cfg_data"),
                    outs: [
                        "s_axis_tready",
                        "m_axis_tvalid",
                        "m_axis_tdata",
                        "m_axis_tlast",
                        "m_axis_tid",
                        "m_axis_tuser",
                        "tx_busy",
                        "tx_dropped",
                        "rx_dropped",
                        "rx_overflow",
                        "credit_overflow",
                    ]
                    .map(p)
                    .to_vec(),
                }
            })
            .collect();
        Ok(AsrNetworkTop {
            name: name.to_string(),
            net,
            rng: rng(seed),
            names,
            table_bits,
            src: (0..n).map(|_| Source::default()).collect(),
            expect: HashMap::new(),
            got: vec![Vec::new(); n],
            max,
            draining: false,
            sent: 0,
            delivered: 0,
            bytes: 0,
            stalls: 0,
            longest: 0,
            shortest: 0,
            reordered: 0,
        })
    }

    /// The chance per cycle that a processor queues a new message, by phase.
    fn rate(&self, n: u64) -> f64 {
        match (n / PHASE) % 3 {
            0 => 0.002,
            1 => 0.02,
            _ => 0.006,
        }
    }

    /// Whether processor k's receive side is ready, by phase.
    fn ready(&mut self, n: u64) -> bool {
        if self.draining {
            return true;
        }
        let p = match (n / PHASE / 2) % 3 {
            0 => 0.8,
            1 => 1.0,
            _ => 0.3,
        };
        self.rng.gen_bool(p)
    }

    fn new_message(&mut self, k: usize) {
        let max = self.max;
        let len = match self.rng.gen_range(0..8) {
            0 => 1,
            1 => max,
            2 => self.rng.gen_range(1..=8),
            _ => self.rng.gen_range(1..=max),
        };
        let d = self.rng.gen_range(0..self.src.len()) as u8;
        let m: Vec<u8> = (0..len).map(|_| self.rng.gen()).collect();
        self.expect
            .entry((k as u8, d))
            .or_default()
            .push_back(m.clone());
        self.longest += (len == max) as u64;
        self.shortest += (len == 1) as u64;
        self.src[k].msgs.push_back((d, m));
        self.sent += 1;
    }
}

impl<S: SwitchModel> Top for AsrNetworkTop<S> {
    fn name(&self) -> &str {
        &self.name
    }

    fn cycle(&mut self, n: u64, pins: &mut Frame, expect: &mut Frame) -> Result<(), String> {
        let procs = self.src.len();
        let rate = self.rate(n);
        let mut ins = Vec::with_capacity(procs);
        for k in 0..procs {
            if !self.draining && self.src[k].msgs.len() < 3 && self.rng.gen_bool(rate) {
                self.new_message(k);
            }
            let s = &self.src[k];
            let beat = s
                .msgs
                .front()
                .map(|(d, m)| (m[s.at], s.at + 1 == m.len(), *d));
            // A beat once offered stays offered until taken; a new one after a random gap.
            let offer = beat.filter(|_| s.offered || self.rng.gen_bool(0.7));
            self.src[k].offered = offer.is_some();
            let m_tready = self.ready(n);
            self.stalls += !m_tready as u64;
            let nm = &self.names[k];
            let junk: u32 = self.rng.gen();
            let (d, last, dest) =
                offer.unwrap_or((junk as u8, junk & 0x100 != 0, (junk >> 16) as u8));
            pins.put(&nm.s_tvalid, offer.is_some() as u64, 1);
            pins.put(&nm.s_tdata, d as u64, 8);
            pins.put(&nm.s_tlast, last as u64, 1);
            pins.put(&nm.s_tdest, dest as u64, 8);
            pins.put(&nm.m_tready, m_tready as u64, 1);
            pins.put(&nm.cfg_we, 0, 1);
            pins.put(&nm.cfg_addr, 0, self.table_bits);
            pins.put(&nm.cfg_data, 0, 8);
            ins.push(ProcIn {
                s: offer,
                m_tready,
                cfg: None,
            });
        }
        let sw = self.net.switch_outputs().to_vec();
        let outs = self.net.cycle(&ins).map_err(|e| e.to_string())?;
        for (k, o) in outs.iter().enumerate() {
            let nm = &self.names[k].outs;
            let (md, ml, mid, mu) = o.m.unwrap_or((0, false, 0, false));
            expect.put(&nm[0], o.s_tready as u64, 1);
            expect.put(&nm[1], o.m.is_some() as u64, 1);
            expect.put(&nm[2], md as u64, 8);
            expect.put(&nm[3], ml as u64, 1);
            expect.put(&nm[4], mid as u64, 8);
            expect.put(&nm[5], mu as u64, 1);
            expect.put(&nm[6], o.tx_busy as u64, 1);
            expect.put(&nm[7], o.tx_dropped as u64, 8);
            expect.put(&nm[8], o.rx_dropped as u64, 8);
            expect.put(&nm[9], 0, 1);
            expect.put(&nm[10], 0, 1);
            if o.tx_dropped != 0 || o.rx_dropped != 0 {
                return Err(format!("endpoint {k} dropped a message or packet: {o:?}"));
            }
            if ins[k].s.is_some() && o.s_tready {
                let s = &mut self.src[k];
                s.at += 1;
                s.offered = false;
                if s.at == s.msgs[0].1.len() {
                    s.msgs.pop_front();
                    s.at = 0;
                }
            }
            if let Some((b, last, tid, bad)) = o.m.filter(|_| ins[k].m_tready) {
                if bad {
                    return Err(format!("a message {tid} → {k} arrived with a bad CRC"));
                }
                self.got[k].push(b);
                self.bytes += 1;
                if last {
                    // Adaptive routes may reorder the messages of one pair: any one outstanding.
                    let q = self.expect.entry((tid, k as u8)).or_default();
                    let Some(i) = q.iter().position(|m| *m == self.got[k]) else {
                        return Err(format!(
                            "a message {tid} → {k} of {} bytes arrived that was not sent (or is corrupted, \
                             or arrived twice); {} outstanding for the pair",
                            self.got[k].len(),
                            q.len()
                        ));
                    };
                    q.remove(i);
                    self.reordered += (i > 0) as u64;
                    self.got[k].clear();
                    self.delivered += 1;
                }
            }
        }
        let valid: Vec<bool> = sw
            .iter()
            .flat_map(|o| o.link_out.map(|b| b.is_some()))
            .collect();
        let data: Vec<u8> = sw
            .iter()
            .flat_map(|o| o.link_out.map(|b| b.unwrap_or(0)))
            .collect();
        let token: Vec<bool> = sw.iter().flat_map(|o| o.token_out).collect();
        expect.put_bools("switch_link_valid", &valid);
        expect.put_bytes("switch_link_data", &data);
        expect.put_bools("switch_token", &token);
        Ok(())
    }

    fn drain(&mut self) {
        self.draining = true;
    }

    fn drained(&self) -> bool {
        self.src.iter().all(|s| s.msgs.is_empty()) && self.net.is_idle()
    }

    fn drain_limit(&self) -> u64 {
        200_000
    }

    fn packets(&self) -> u64 {
        self.delivered
    }

    fn finish(&mut self) -> Result<(), String> {
        let left: usize = self.expect.values().map(|q| q.len()).sum();
        if left > 0 || self.delivered != self.sent {
            return Err(format!(
                "{left} messages never arrived ({} sent, {} delivered)",
                self.sent, self.delivered
            ));
        }
        if self.got.iter().any(|g| !g.is_empty()) {
            return Err("a message arrived in part".into());
        }
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("messages", self.sent),
            ("delivered", self.delivered),
            ("bytes", self.bytes),
            ("longest", self.longest),
            ("shortest", self.shortest),
            ("m_stalls", self.stalls),
            ("reordered", self.reordered),
        ]
    }
}

/// The deadlock-free route tables of `t` (the route generator's `asr-df`), as endpoint tables.
pub fn deadlock_free_tables(t: &Topology) -> Result<Vec<NicParams>> {
    use asr_model::routes::deadlock_free::{generate_deadlock_free, Options};
    let df = generate_deadlock_free(t, asr_model::routes::Method::Pruned, &Options::default())?;
    if let Some(c) = &df.cdg.cycle {
        bail!("the deadlock-free tables have a cyclic channel dependency: {c:?}");
    }
    let r = asr_model::routing::TableRouting::from_tables(t, &df.tables, "asr-df")
        .map_err(anyhow::Error::msg)?;
    Ok(asr_model::sp2::asr_network::tables(t, &r)?)
}

/// Runs the network of topology `spec` (v2 or v3 switches, deadlock-free tables) on `backend` for `cycles`
/// cycles of traffic with `seed`: its generated Verilog against its model.
pub fn check(
    spec: &str,
    version: &str,
    backend: crate::cosim::BackendKind,
    cycles: u64,
    seed: u64,
    perturb: Option<crate::cosim::Perturb>,
) -> Result<crate::cosim::Report> {
    let t = asr_model::topology::load(spec)?;
    let tables = deadlock_free_tables(&t)?;
    let name = "asr_network";
    let v = verilog(&t, &tables, version, name)?;
    check_with(
        &t, tables, version, name, &v, backend, cycles, seed, perturb,
    )
}

/// Runs the network `v` (generated by [`verilog`] for `t`, `tables`, `version`, module `name`) against its
/// model on `backend` for `cycles` cycles of traffic with `seed`, with an optional fault.
#[allow(clippy::too_many_arguments)]
pub fn check_with(
    t: &Topology,
    tables: Vec<NicParams>,
    version: &str,
    name: &str,
    v: &str,
    backend: crate::cosim::BackendKind,
    cycles: u64,
    seed: u64,
    perturb: Option<crate::cosim::Perturb>,
) -> Result<crate::cosim::Report> {
    let (layout, mut o) = options(t, tables, version, name, v, backend, cycles, seed)?;
    o.perturb = perturb;
    crate::cosim::run_design(&o, &layout, v)
}

/// The layout of the network's Verilog `v` and the run options of `cycles` cycles of its traffic with
/// `seed` on `backend`: the stimulus is the network's definition ([`make_top`]), built once here so that a
/// bad topology or table is an error rather than a panic in the model thread.
#[allow(clippy::too_many_arguments)]
pub fn options(
    t: &Topology,
    tables: Vec<NicParams>,
    version: &str,
    name: &str,
    v: &str,
    backend: crate::cosim::BackendKind,
    cycles: u64,
    seed: u64,
) -> Result<(crate::cosim::Layout, crate::cosim::Options)> {
    use crate::cosim::{Layout, Options, Stimulus};
    let layout = Layout::from_verilog(name, v)?;
    let mut o = Options::new(name, backend, cycles, seed);
    make_top(version, name, t, tables.clone(), seed)?;
    let (t, version, name) = (t.clone(), version.to_string(), name.to_string());
    o.stimulus = Some(Stimulus(std::sync::Arc::new(move || {
        make_top(&version, &name, &t, tables.clone(), seed).expect("built once already")
    })));
    Ok((layout, o))
}

/// The definition of the network of `t` with `tables` and switch `version` (`v2`, `v3`), module `name`.
pub fn make_top(
    version: &str,
    name: &str,
    t: &Topology,
    tables: Vec<NicParams>,
    seed: u64,
) -> Result<Box<dyn Top>> {
    use asr_model::sp2::{v2::switch::Sp2SwitchV2, v3::switch::Sp2SwitchV3};
    Ok(match version {
        "v2" => Box::new(AsrNetworkTop::<Sp2SwitchV2>::new(name, t, tables, seed)?),
        "v3" => Box::new(AsrNetworkTop::<Sp2SwitchV3>::new(name, t, tables, seed)?),
        other => bail!("switch `{other}`: a network is built of v2 or v3 switches"),
    })
}

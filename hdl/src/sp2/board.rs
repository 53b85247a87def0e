//! The 16-processor SP2-style switch board (thesis §4.2, docs/sp2-switch.md "The board"): 8 switch chips
//! wired as `model/src/topology/sp2.rs` builds `builtin("sp2:16")`, generic over the chip ([`BoardChip`]):
//! exported as `sp2_board_v2` ([`Sp2BoardV2`], 8 [`Sp2SwitchV2`] chips, docs/sp2-switch.md v2 §F). Hardware
//! twin of `asr_model::sp2::network::Sp2Network` (of the same switch version) on that topology.
//!
//! Wiring ([`BoardWires::sp2_16`]): chips 4–7 face the processors on ports 0–3 (processor k on chip
//! 4 + k/4, port k mod 4, both directions); chip 4+a port 4+b is linked both ways to chip b port 4+a
//! (a, b in 0..4), so a packet between two chips crosses three switches and turns around at a stage chip
//! 0–3; chips 0–3 ports 0–3 are the board's external ports, unused in the 16-node system (their inputs
//! are tied to no byte and no token, their outputs left open).
//!
//! Ports (processor k's field at bits `[k*8 +: 8]`, its flag at bit k):
//! - in `clock`, `node_in_valid[15:0]`, `node_in_data[127:0]` (the byte processor k drives into the board),
//!   `node_token_in[15:0]` (processor k's token for a byte it consumed);
//! - out `node_out_valid[15:0]`, `node_out_data[127:0]` (the byte the board drives to processor k: its
//!   chip's transmitter output register; 0 when not valid), `node_token_out[15:0]` (the token of processor
//!   k's receiver on its chip);
//! - out `chips_link_out_valid[63:0]`, `chips_link_out_data[511:0]`, `chips_token_out[63:0]`: every chip's
//!   own link outputs (chip c's `link_out_valid`, `link_out_data` and `token_out` at bits `[c*8 +: 8]`,
//!   `[c*64 +: 64]` and `[c*8 +: 8]`), so a test bench sees every chip-to-chip link, not just the processors'
//!   ports. Observation only: no logic is added, and a synthesis that leaves them open removes nothing.
//!
//! A switch-to-switch link is a direct wire: the output register of one chip is the input of the next in
//! the same cycle, and the receiving chip's token register goes back the same way, exactly as
//! `Sp2Network::step` does. Latency: the chip's cut-through latency per switch (6 cycles for v2 from `LEN` in to
//! `LEN − 1` out without contention), so 6 cycles between two processors on one chip and 18 between
//! processors on different chips.
//!
//! The wiring is a permutation, which `#[hdl_gen]` cannot express (indices may only be loop variables
//! plus literals), so, as in `crate::benes::Benes`, `update` (simulation) and `hdl` (a Verilog
//! `always @(*)` block assigning every chip input exactly once) are both generated from one table.
//! Outputs of the chips that the board does not use (unconnected ports, any counters a chip exports) are
//! simply not read.
//!
//! Simulation speed: each chip is wrapped in [`Settle`], which iterates it to its own fixed point inside
//! every `update_all` of the board, and skips a settled chip whose inputs did not change (rust-hdl's
//! `simulate` otherwise iterates all 8 chips as many times as the slowest one needs, and a chip whose
//! inputs change after the clock edge, because a neighbour's output registers changed, makes all of them
//! iterate again). The fixed point is the same (no combinational path runs between chips: every link
//! carries output registers); the Verilog is unchanged (the wrapper is invisible to probes). This doubled
//! the lock-step's speed.

use crate::export::doc::{docs, TopDoc, CLOCK};
use rust_hdl::prelude::*;

use super::v2::switch::Sp2SwitchV2;
use super::v3::switch::Sp2SwitchV3;
use asr_model::topology::{Port, Topology};

/// Switch chips on the board.
pub const CHIPS: usize = 8;
/// Ports per chip: the model's `PORTS`.
pub const PORTS: usize = asr_model::sp2::PORTS;
/// Processors on the board.
pub const PROCS: usize = 16;

/// One end of a wire at a chip port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Nothing connected.
    Open,
    /// Processor k.
    Node(usize),
    /// Port `port` of chip `chip`.
    Chip {
        /// The chip, 0..[`CHIPS`].
        chip: usize,
        /// Its port, 0..[`PORTS`].
        port: usize,
    },
}

/// The board's wiring: for every chip port, what drives its input and what its output drives. Not a
/// signal: an inert block so it can live in a `#[derive(LogicBlock)]` struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardWires {
    /// `feed[c][p]`: what drives input p of chip c.
    pub feed: [[End; PORTS]; CHIPS],
    /// `sink[c][p]`: what output p of chip c drives (whose token comes back to output p).
    pub sink: [[End; PORTS]; CHIPS],
    /// Per processor: the chip port its link enters (its token comes from that receiver).
    pub node_in: [(usize, usize); PROCS],
    /// Per processor: the chip port whose output delivers to it.
    pub node_out: [(usize, usize); PROCS],
}

impl BoardWires {
    /// The 16-node board, its wiring read from the model's topology `sp2:16`
    /// (`asr_model::topology::builtin`), so the board and the network model cannot disagree.
    pub fn sp2_16() -> Self {
        let t = asr_model::topology::builtin("sp2:16").expect("sp2:16 is a built-in topology");
        Self::from_topology(&t).expect("sp2:16 is a board of 8 chips of 8 ports and 16 processors")
    }

    /// The wiring of any topology of [`CHIPS`] switches of [`PORTS`] ports and [`PROCS`] processors: chips and
    /// processors numbered in the topology's order. Errors name what does not fit.
    pub fn from_topology(t: &Topology) -> Result<Self, String> {
        let chips = t.switches();
        let nodes = t.nodes();
        if chips.len() != CHIPS || nodes.len() != PROCS {
            return Err(format!(
                "a board has {CHIPS} switches and {PROCS} processors; the topology has {} and {}",
                chips.len(),
                nodes.len()
            ));
        }
        if let Some(&e) = chips.iter().find(|&&e| t.ports(e) as usize != PORTS) {
            return Err(format!(
                "switch `{}` has {} ports; a board's chips have {PORTS}",
                t.element(e).name,
                t.ports(e)
            ));
        }
        let end = |q: Option<Port>| match q {
            None => End::Open,
            Some(q) => match chips.iter().position(|&e| e == q.elem) {
                Some(chip) => End::Chip {
                    chip,
                    port: q.port as usize,
                },
                None => End::Node(nodes.iter().position(|&e| e == q.elem).expect("an element")),
            },
        };
        let mut feed = [[End::Open; PORTS]; CHIPS];
        let mut sink = [[End::Open; PORTS]; CHIPS];
        for (c, &e) in chips.iter().enumerate() {
            for p in 0..PORTS {
                feed[c][p] = end(t.input(e, p as u32));
                sink[c][p] = end(t.output(e, p as u32));
            }
        }
        let chip_port = |q: Option<Port>, k: usize, what: &str| match end(q) {
            End::Chip { chip, port } => Ok((chip, port)),
            _ => Err(format!(
                "processor `{}` {what} no switch",
                t.element(nodes[k]).name
            )),
        };
        let mut node_in = [(0, 0); PROCS];
        let mut node_out = [(0, 0); PROCS];
        for (k, &n) in nodes.iter().enumerate() {
            node_in[k] = chip_port(t.inject_switch(n), k, "injects into")?;
            node_out[k] = chip_port(t.deliver_port(n), k, "is fed by")?;
        }
        Ok(BoardWires {
            feed,
            sink,
            node_in,
            node_out,
        })
    }
}

impl Default for BoardWires {
    fn default() -> Self {
        Self::sp2_16()
    }
}

impl Logic for BoardWires {
    fn update(&mut self) {}
}

impl Block for BoardWires {
    fn connect_all(&mut self) {}
    fn update_all(&mut self) {}
    fn has_changed(&self) -> bool {
        false
    }
    fn accept(&self, _name: &str, _probe: &mut dyn Probe) {}
}

/// The inputs of a block, for [`Settle`]: whether any input was given a new value since the block last
/// settled.
pub trait Inputs {
    /// Whether the next value of some input differs from its current value (an update may change the
    /// block).
    fn inputs_changed(&self) -> bool;
}

/// A chip's inputs `clock`, `link_in_valid`, `link_in_data`, `token_in`.
pub type ChipInputs<'a> = (
    &'a mut Signal<In, Clock>,
    &'a mut Signal<In, Bits<8>>,
    &'a mut Signal<In, Bits<64>>,
    &'a mut Signal<In, Bits<8>>,
);

/// A chip's outputs `link_out_valid`, `link_out_data`, `token_out`.
pub type ChipOutputs<'a> = (
    &'a Signal<Out, Bits<8>>,
    &'a Signal<Out, Bits<64>>,
    &'a Signal<Out, Bits<8>>,
);

/// A switch chip a board can be built of: the pins of `sp2_switch_v2` (and of any later version), which are the
/// same, so one board serves both.
pub trait BoardChip: Block + Inputs + Default {
    /// The inputs `clock`, `link_in_valid`, `link_in_data`, `token_in`.
    fn inputs_mut(&mut self) -> ChipInputs<'_>;
    /// The outputs `link_out_valid`, `link_out_data`, `token_out`.
    fn outputs(&self) -> ChipOutputs<'_>;
}

macro_rules! board_chip {
    ($t:ty) => {
        impl Inputs for $t {
            fn inputs_changed(&self) -> bool {
                self.clock.next != self.clock.val()
                    || self.link_in_valid.next != self.link_in_valid.val()
                    || self.link_in_data.next != self.link_in_data.val()
                    || self.token_in.next != self.token_in.val()
            }
        }

        impl BoardChip for $t {
            fn inputs_mut(&mut self) -> ChipInputs<'_> {
                (
                    &mut self.clock,
                    &mut self.link_in_valid,
                    &mut self.link_in_data,
                    &mut self.token_in,
                )
            }
            fn outputs(&self) -> ChipOutputs<'_> {
                (&self.link_out_valid, &self.link_out_data, &self.token_out)
            }
        }
    };
}

board_chip!(Sp2SwitchV2);
board_chip!(Sp2SwitchV3);

/// Simulation-only wrapper: `update_all` iterates the inner block until it no longer changes (and does
/// nothing if the block is settled and none of its inputs changed: another pass would change nothing), and
/// `has_changed` says whether it changed at all in that call; everything else (connection, probes, Verilog)
/// is the inner block's, under the same name.
#[derive(Default)]
pub struct Settle<B: Block + Inputs> {
    /// The wrapped block (a board chip).
    pub inner: B,
    changed: bool,
    settled: bool,
    /// Passes (`update_all` of the inner block) so far: a measure of simulation work.
    pub passes: u64,
}

/// Iterations a chip may need to settle in one `update_all`.
pub const SETTLE_LIMIT: usize = 500;

impl<B: Block + Inputs> std::ops::Deref for Settle<B> {
    type Target = B;
    fn deref(&self) -> &B {
        &self.inner
    }
}

impl<B: Block + Inputs> std::ops::DerefMut for Settle<B> {
    fn deref_mut(&mut self) -> &mut B {
        &mut self.inner
    }
}

impl<B: Block + Inputs> Logic for Settle<B> {
    fn update(&mut self) {}
}

impl<B: Block + Inputs> Block for Settle<B> {
    fn connect_all(&mut self) {
        self.settled = false;
        self.inner.connect_all();
    }
    fn update_all(&mut self) {
        self.changed = false;
        if self.settled && !self.inner.inputs_changed() {
            return;
        }
        self.settled = false;
        for _ in 0..SETTLE_LIMIT {
            self.passes += 1;
            self.inner.update_all();
            if !self.inner.has_changed() {
                self.settled = true;
                return;
            }
            self.changed = true;
        }
        panic!("a board chip does not settle in {SETTLE_LIMIT} iterations");
    }
    fn has_changed(&self) -> bool {
        self.changed
    }
    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        self.inner.accept(name, probe);
    }
}

/// The 16-node board of v2 chips, exported as `sp2_board_v2`: the same wiring, ports and checks; 6 cycles
/// per switch (`sp2_switch_v2`'s cut-through), so 6 between two processors on one chip and 18 across chips.
pub type Sp2BoardV2 = Sp2Board<Sp2SwitchV2>;

/// The 16-node board; see the module documentation for wiring, ports and latency.
#[derive(LogicBlock)]
pub struct Sp2Board<S: BoardChip> {
    /// Clock of every chip.
    pub clock: Signal<In, Clock>,
    /// Bit k: processor k drives a byte into the board in this cycle.
    pub node_in_valid: Signal<In, Bits<16>>,
    /// Processor k's byte at bits `[k*8 +: 8]`.
    pub node_in_data: Signal<In, Bits<128>>,
    /// Bit k: processor k returns a token for a byte it consumed (one byte of room freed).
    pub node_token_in: Signal<In, Bits<16>>,
    /// Bit k: the board drives a byte to processor k (its chip's transmitter output register); registered.
    pub node_out_valid: Signal<Out, Bits<16>>,
    /// The byte to processor k at bits `[k*8 +: 8]`; 0 when not valid; registered.
    pub node_out_data: Signal<Out, Bits<128>>,
    /// Bit k: a token to processor k from the receiver of its link (a byte it sent was consumed); registered.
    pub node_token_out: Signal<Out, Bits<16>>,
    /// Chip c's `link_out_valid` at bits `[c*8 +: 8]`; registered. Observation only: every chip-to-chip link,
    /// for test benches.
    pub chips_link_out_valid: Signal<Out, Bits<64>>,
    /// Chip c's `link_out_data` at bits `[c*64 +: 64]`; registered. Observation only.
    pub chips_link_out_data: Signal<Out, Bits<512>>,
    /// Chip c's `token_out` at bits `[c*8 +: 8]`; registered. Observation only.
    pub chips_token_out: Signal<Out, Bits<64>>,
    /// Chip c is `sw[c]` (Verilog instance `sw$c`).
    pub sw: Vec<Settle<S>>,
    wires: BoardWires,
}

impl<S: BoardChip> Default for Sp2Board<S> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            node_in_valid: Default::default(),
            node_in_data: Default::default(),
            node_token_in: Default::default(),
            node_out_valid: Default::default(),
            node_out_data: Default::default(),
            node_token_out: Default::default(),
            chips_link_out_valid: Default::default(),
            chips_link_out_data: Default::default(),
            chips_token_out: Default::default(),
            sw: (0..CHIPS).map(|_| Settle::default()).collect(),
            wires: BoardWires::sp2_16(),
        }
    }
}

impl<S: BoardChip> Sp2Board<S> {
    /// The wiring table the board is built from.
    pub fn wires(&self) -> &BoardWires {
        &self.wires
    }
}

impl<S: BoardChip> Logic for Sp2Board<S> {
    fn update(&mut self) {
        let clock = self.clock.val();
        let in_valid = self.node_in_valid.val().to_u64();
        let in_data = self.node_in_data.val();
        let in_words = [
            in_data.get_bits::<64>(0).to_u64(),
            in_data.get_bits::<64>(64).to_u64(),
        ];
        let tok_in = self.node_token_in.val().to_u64();
        // Every chip's outputs, read once.
        let mut ov = [0u64; CHIPS];
        let mut od = [0u64; CHIPS];
        let mut ot = [0u64; CHIPS];
        for c in 0..CHIPS {
            let (v, d, t) = self.sw[c].outputs();
            ov[c] = v.val().to_u64();
            od[c] = d.val().to_u64();
            ot[c] = t.val().to_u64();
        }
        for c in 0..CHIPS {
            let (mut v, mut d, mut t) = (0u64, 0u64, 0u64);
            for p in 0..PORTS {
                match self.wires.feed[c][p] {
                    End::Open => {}
                    End::Node(k) => {
                        v |= ((in_valid >> k) & 1) << p;
                        d |= ((in_words[k / 8] >> (8 * (k % 8))) & 0xff) << (8 * p);
                    }
                    End::Chip { chip, port } => {
                        v |= ((ov[chip] >> port) & 1) << p;
                        d |= ((od[chip] >> (8 * port)) & 0xff) << (8 * p);
                    }
                }
                t |= match self.wires.sink[c][p] {
                    End::Open => 0,
                    End::Node(k) => (tok_in >> k) & 1,
                    End::Chip { chip, port } => (ot[chip] >> port) & 1,
                } << p;
            }
            let (ck, iv, id, it) = self.sw[c].inputs_mut();
            ck.next = clock;
            iv.next = Bits::from(v);
            id.next = Bits::from(d);
            it.next = Bits::from(t);
        }
        let (mut v, mut t) = (0u64, 0u64);
        let (mut lo, mut hi) = (0u64, 0u64);
        for k in 0..PROCS {
            let (c, p) = self.wires.node_out[k];
            v |= ((ov[c] >> p) & 1) << k;
            let b = (od[c] >> (8 * p)) & 0xff;
            if k < 8 {
                lo |= b << (8 * k);
            } else {
                hi |= b << (8 * (k - 8));
            }
            let (c, p) = self.wires.node_in[k];
            t |= ((ot[c] >> p) & 1) << k;
        }
        self.node_out_valid.next = Bits::from(v);
        self.node_out_data.next = Bits::<128>::from(lo) | (Bits::<128>::from(hi) << 64u64);
        self.node_token_out.next = Bits::from(t);
        let (mut cv, mut ct, mut cd) = (0u64, 0u64, Bits::<512>::default());
        for c in 0..CHIPS {
            cv |= ov[c] << (8 * c);
            ct |= ot[c] << (8 * c);
            cd = cd | (Bits::<512>::from(od[c]) << (64 * c) as u64);
        }
        self.chips_link_out_valid.next = Bits::from(cv);
        self.chips_link_out_data.next = cd;
        self.chips_token_out.next = Bits::from(ct);
    }

    fn connect(&mut self) {
        self.node_out_valid.connect();
        self.node_out_data.connect();
        self.node_token_out.connect();
        self.chips_link_out_valid.connect();
        self.chips_link_out_data.connect();
        self.chips_token_out.connect();
        for s in self.sw.iter_mut() {
            let (ck, iv, id, it) = s.inputs_mut();
            ck.connect();
            iv.connect();
            id.connect();
            it.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let feed = |e: End| match e {
            End::Open => ("1'b0".to_string(), "8'h00".to_string()),
            End::Node(k) => (
                format!("node_in_valid[{k}]"),
                format!("node_in_data[{}+:8]", 8 * k),
            ),
            End::Chip { chip, port } => (
                format!("sw${chip}$link_out_valid[{port}]"),
                format!("sw${chip}$link_out_data[{}+:8]", 8 * port),
            ),
        };
        let token = |e: End| match e {
            End::Open => "1'b0".to_string(),
            End::Node(k) => format!("node_token_in[{k}]"),
            End::Chip { chip, port } => format!("sw${chip}$token_out[{port}]"),
        };
        // `{a, b, …}` with the highest field first.
        let cat = |x: Vec<String>| x.into_iter().rev().collect::<Vec<_>>().join(", ");
        let mut v = String::from("always @(*) begin\n");
        for c in 0..CHIPS {
            let (vs, ds): (Vec<String>, Vec<String>) =
                (0..PORTS).map(|p| feed(self.wires.feed[c][p])).unzip();
            let ts: Vec<String> = (0..PORTS).map(|p| token(self.wires.sink[c][p])).collect();
            v += &format!("    sw${c}$clock = clock;\n");
            v += &format!("    sw${c}$link_in_valid = {{{}}};\n", cat(vs));
            v += &format!("    sw${c}$link_in_data = {{{}}};\n", cat(ds));
            v += &format!("    sw${c}$token_in = {{{}}};\n", cat(ts));
        }
        let outs = |f: &dyn Fn(usize) -> String| cat((0..PROCS).map(f).collect());
        let w = &self.wires;
        v += &format!(
            "    node_out_valid = {{{}}};\n",
            outs(&|k| format!("sw${}$link_out_valid[{}]", w.node_out[k].0, w.node_out[k].1))
        );
        v += &format!(
            "    node_out_data = {{{}}};\n",
            outs(&|k| format!(
                "sw${}$link_out_data[{}+:8]",
                w.node_out[k].0,
                8 * w.node_out[k].1
            ))
        );
        v += &format!(
            "    node_token_out = {{{}}};\n",
            outs(&|k| format!("sw${}$token_out[{}]", w.node_in[k].0, w.node_in[k].1))
        );
        let chips = |f: &str| cat((0..CHIPS).map(|c| format!("sw${c}${f}")).collect());
        v += &format!(
            "    chips_link_out_valid = {{{}}};\n",
            chips("link_out_valid")
        );
        v += &format!(
            "    chips_link_out_data = {{{}}};\n",
            chips("link_out_data")
        );
        v += &format!("    chips_token_out = {{{}}};\n", chips("token_out"));
        v += "end\n";
        Verilog::Custom(v)
    }
}

/// The documentation of a 16-node board of `chip`s with `per_switch` cycles of cut-through latency.
pub fn top_doc(chip: &str, what: &str, per_switch: u32) -> TopDoc {
    TopDoc {
        summary: format!(
            "The 16-processor SP2-style board (thesis section 4.2): 8 {chip} chips{what} wired as sp2:16 \
             (processors on chips 4-7, turn-around at chips 0-3). Twin of \
             asr_model::sp2::network::Sp2Network on sp2:16 (hdl/src/sp2/board.rs). Processor k's \
             byte is at bits [k*8 +: 8], its flag at bit k; links as {chip}."
        ),
        ports: docs(&[
            CLOCK,
            ("node_in_valid", "bit k: processor k drives a byte into the board"),
            ("node_in_data", "processor k's byte"),
            ("node_token_in", "bit k: processor k's credit for a byte it consumed"),
            ("node_out_valid", "bit k: the board drives a byte to processor k"),
            ("node_out_data", "that byte; 0 when not valid"),
            ("node_token_out", "bit k: a credit to processor k"),
            ("chips_link_out_valid", "chip c's link_out_valid at bits [c*8 +: 8] (observation only)"),
            ("chips_link_out_data", "chip c's link_out_data at bits [c*64 +: 64] (observation only)"),
            ("chips_token_out", "chip c's token_out at bits [c*8 +: 8] (observation only)"),
        ]),
        latency: format!(
            "{per_switch} cycles per switch: {per_switch} between processors on one chip, {} between chips",
            3 * per_switch
        ),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_link_is_bidirectional_and_every_port_used_once() {
        let w = BoardWires::sp2_16();
        let mut drives = 0;
        for c in 0..CHIPS {
            for p in 0..PORTS {
                if let End::Chip { chip, port } = w.sink[c][p] {
                    // Output (c, p) drives input (chip, port), and output (chip, port) drives input (c, p).
                    assert_eq!(w.feed[chip][port], End::Chip { chip: c, port: p });
                    assert_eq!(w.sink[chip][port], End::Chip { chip: c, port: p });
                    drives += 1;
                }
                // Chips 0-3, ports 0-3: the board's external ports, open.
                if c < 4 && p < 4 {
                    assert_eq!((w.feed[c][p], w.sink[c][p]), (End::Open, End::Open));
                }
            }
        }
        assert_eq!(drives, 32);
        // The wiring the module documentation describes (sp2.rs's board): chip 4+a port 4+b <-> chip b
        // port 4+a; processor k on chip 4 + k/4, port k mod 4.
        for a in 0..4 {
            for b in 0..4 {
                assert_eq!(
                    w.sink[4 + a][4 + b],
                    End::Chip {
                        chip: b,
                        port: 4 + a
                    }
                );
            }
        }
        for k in 0..PROCS {
            let (c, p) = w.node_in[k];
            assert_eq!((w.feed[c][p], w.sink[c][p]), (End::Node(k), End::Node(k)));
            assert_eq!((c, p), (4 + k / 4, k % 4));
            assert_eq!(w.node_out[k], (c, p));
        }
    }

    #[test]
    fn other_topologies_are_refused_with_a_reason() {
        let t = asr_model::topology::builtin("sp2:32").unwrap();
        let e = BoardWires::from_topology(&t).unwrap_err();
        assert!(e.contains("16 switches") || e.contains("has 16"), "{e}");
    }
}

//! Beneš N×N networks of 2×2 switches (thesis §3.2), wired and ported as docs/contracts.md fixes. Hardware twin of
//! `model/src/benes.rs` (`asr_model::benes::Benes`), exported as `benes8` (and `benes16`, `benes32`) with the
//! thesis' switch ([`Switch2Core`]) and as `benes8r`, `benes16r` with the registered-ready switch
//! ([`Switch2RCore`], docs/switch2.md; model twin `asr_model::benes::BenesR`).
//!
//! [`Benes`]`<C, N, W, W2, NW>` with switch C, N = 2^n ports, W = 2(2n−1)+16 bits per word, W2 = 2·W, NW = N·W:
//! - inputs `clock`, `in_valid[N-1:0]`, `in_data[NW-1:0]`, `out_ready[N-1:0]`;
//! - outputs `in_ready[N-1:0]`, `out_valid[N-1:0]`, `out_data[NW-1:0]`; port p at bits `[p*W +: W]`.
//!
//! 2n−1 stages of N/2 switches; switch (s, i) is `sw[s·N/2 + i]`. The inter-stage wiring is
//! `asr_model::benes::BenesWiring` (the docs/contracts.md recursion: first-stage switch i sends output 0 to the upper
//! half-size network's input i and output 1 to the lower one's; the last stage mirrors it; network inputs
//! 2i, 2i+1 enter first-stage switch i, network outputs 2i, 2i+1 leave last-stage switch i). `valid`/`data`
//! flow forward along the wiring, `ready` backward; the network is feed-forward so there is no loop. With
//! the thesis switch `ready` is combinational through all 2n−1 stages; with the registered-ready switch each
//! `ready` is a register of the switch it comes from, so no path crosses more than one switch.
//!
//! Latency: 2(2n−1) edges from acceptance at an input to delivery at an output without contention (both
//! switches).
//!
//! The wiring is a permutation computed in Rust, which rust-hdl's `#[hdl_gen]` cannot express (array
//! indices there may only be loop variables plus literals), so this block's `update` (simulation) and
//! `hdl` (a Verilog `always @(*)` block of assignments) are both generated from the same table, [`Wires`].

use crate::export::doc::{TopDoc, CLOCK};
use asr_model::benes::BenesWiring;
use rust_hdl::prelude::*;

use crate::switch2::Switch2Core;
use crate::switch2r::Switch2RCore;

/// A 2×2 switch block a Beneš is built of: [`Switch2Core`] (thesis) or [`Switch2RCore`] (registered ready).
/// Both have the same ports; these accessors let one network block wire either.
pub trait Cell<const W: usize>: Block + Default {
    /// The switch's `clock` input.
    fn clock_in(&mut self) -> &mut Signal<In, Clock>;
    /// The switch's `in_valid[1:0]` input.
    fn in_valid_in(&mut self) -> &mut Signal<In, Bits<2>>;
    /// The switch's word input of port `r` (`in_data0` for 0, `in_data1` otherwise).
    fn in_data_in(&mut self, r: usize) -> &mut Signal<In, Bits<W>>;
    /// The switch's `out_ready[1:0]` input.
    fn out_ready_in(&mut self) -> &mut Signal<In, Bits<2>>;
    /// The switch's `in_ready[1:0]` output.
    fn in_ready_out(&self) -> &Signal<Out, Bits<2>>;
    /// The switch's `out_valid[1:0]` output.
    fn out_valid_out(&self) -> &Signal<Out, Bits<2>>;
    /// The switch's word output of port `q` (`out_data0` for 0, `out_data1` otherwise).
    fn out_data_out(&self, q: usize) -> &Signal<Out, Bits<W>>;
}

macro_rules! cell {
    ($t:ident) => {
        impl<const W: usize> Cell<W> for $t<W> {
            fn clock_in(&mut self) -> &mut Signal<In, Clock> {
                &mut self.clock
            }
            fn in_valid_in(&mut self) -> &mut Signal<In, Bits<2>> {
                &mut self.in_valid
            }
            fn in_data_in(&mut self, r: usize) -> &mut Signal<In, Bits<W>> {
                if r == 0 {
                    &mut self.in_data0
                } else {
                    &mut self.in_data1
                }
            }
            fn out_ready_in(&mut self) -> &mut Signal<In, Bits<2>> {
                &mut self.out_ready
            }
            fn in_ready_out(&self) -> &Signal<Out, Bits<2>> {
                &self.in_ready
            }
            fn out_valid_out(&self) -> &Signal<Out, Bits<2>> {
                &self.out_valid
            }
            fn out_data_out(&self, q: usize) -> &Signal<Out, Bits<W>> {
                if q == 0 {
                    &self.out_data0
                } else {
                    &self.out_data1
                }
            }
        }
    };
}
cell!(Switch2Core);
cell!(Switch2RCore);

/// Where a switch input comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Network input port p.
    Net(usize),
    /// Output port q of switch k (flat index).
    Sw(usize, usize),
}

/// Where a switch output goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sink {
    /// Network output port p.
    Net(usize),
    /// Input port r of switch k (flat index).
    Sw(usize, usize),
}

/// The flattened wiring of a Beneš: for every switch, the sources of its two inputs and the sinks of its two
/// outputs. Not a signal: an inert block so it can live in a `#[derive(LogicBlock)]` struct.
#[derive(Clone, Debug, Default)]
pub struct Wires {
    /// Per switch, by flat index s·N/2 + i: the sources of its inputs 0 and 1.
    pub src: Vec<[Source; 2]>,
    /// Per switch, by flat index: the sinks of its outputs 0 and 1.
    pub dst: Vec<[Sink; 2]>,
}

impl Wires {
    /// The wiring of a Beneš with `ports` inputs (a power of two ≥ 2).
    pub fn new(ports: usize) -> Self {
        let w = BenesWiring::new(ports).expect("Beneš size is a power of two ≥ 2");
        let half = ports / 2;
        let st = w.stages();
        let count = st * half;
        let mut src = vec![[Source::Net(0); 2]; count];
        let mut dst = vec![[Sink::Net(0); 2]; count];
        for i in 0..half {
            src[i] = [Source::Net(2 * i), Source::Net(2 * i + 1)];
            dst[(st - 1) * half + i] = [Sink::Net(2 * i), Sink::Net(2 * i + 1)];
        }
        for (s, next) in w.next.iter().enumerate().take(st - 1) {
            for (i, next_i) in next.iter().enumerate().take(half) {
                for (q, &(s2, j, r)) in next_i.iter().enumerate().take(2) {
                    let (k, k2) = (s * half + i, s2 * half + j);
                    dst[k][q] = Sink::Sw(k2, r as usize);
                    src[k2][r as usize] = Source::Sw(k, q);
                }
            }
        }
        Wires { src, dst }
    }
}

impl Logic for Wires {
    fn update(&mut self) {}
}

impl Block for Wires {
    fn connect_all(&mut self) {}
    fn update_all(&mut self) {}
    fn has_changed(&self) -> bool {
        false
    }
    fn accept(&self, _name: &str, _probe: &mut dyn Probe) {}
}

/// A Beneš network of switches C; see the module documentation for ports, wiring and latency.
#[derive(LogicBlock)]
pub struct Benes<C: Cell<W>, const N: usize, const W: usize, const W2: usize, const NW: usize> {
    /// Clock of every switch; all registers update at its rising edge.
    pub clock: Signal<In, Clock>,
    /// Bit p: network input p offers its word in `in_data` in this cycle.
    pub in_valid: Signal<In, Bits<N>>,
    /// Input p's word at bits `[p*W +: W]`: the header, 2 bits per stage with stage 0 lowest (bit q of a
    /// pair = output q of that stage's switch permitted), and the 16-bit tag above.
    pub in_data: Signal<In, Bits<NW>>,
    /// Bit p: the consumer of network output p takes its word in this cycle (if `out_valid[p]`).
    pub out_ready: Signal<In, Bits<N>>,
    /// Bit p: input p takes its offered word at this edge. With the thesis switch combinational from
    /// `out_ready` through every stage; with the registered-ready switch a register of the first-stage
    /// switch.
    pub in_ready: Signal<Out, Bits<N>>,
    /// Bit p: network output p offers its word in `out_data`; registered (a last-stage output buffer).
    pub out_valid: Signal<Out, Bits<N>>,
    /// Output p's word at bits `[p*W +: W]`: the tag, every stage having stripped its 2 header bits; 0 while
    /// not valid; registered.
    pub out_data: Signal<Out, Bits<NW>>,
    /// Switch (s, i) at index s·N/2 + i.
    pub sw: Vec<C>,
    wires: Wires,
}

impl<C: Cell<W>, const N: usize, const W: usize, const W2: usize, const NW: usize> Default
    for Benes<C, N, W, W2, NW>
{
    fn default() -> Self {
        let wires = Wires::new(N);
        let stages = 2 * N.trailing_zeros() as usize - 1;
        assert_eq!(W, 2 * stages + asr_model::benes::TAG_BITS, "Beneš {N}: W");
        assert!(W2 == 2 * W && NW == N * W, "Beneš {N}: W2 = 2W, NW = N·W");
        Self {
            clock: Default::default(),
            in_valid: Default::default(),
            in_data: Default::default(),
            out_ready: Default::default(),
            in_ready: Default::default(),
            out_valid: Default::default(),
            out_data: Default::default(),
            sw: (0..wires.src.len()).map(|_| C::default()).collect(),
            wires,
        }
    }
}

fn pair2(a: bool, b: bool) -> Bits<2> {
    Bits::from(a as u64 | ((b as u64) << 1))
}

impl<C: Cell<W>, const N: usize, const W: usize, const W2: usize, const NW: usize> Logic
    for Benes<C, N, W, W2, NW>
{
    fn update(&mut self) {
        let in_valid = self.in_valid.val();
        let in_data = self.in_data.val();
        let out_ready = self.out_ready.val();
        // Forward: valid and data into every switch.
        for k in 0..self.sw.len() {
            let mut v = [false; 2];
            let mut d = [Bits::<W>::default(); 2];
            for r in 0..2 {
                (v[r], d[r]) = match self.wires.src[k][r] {
                    Source::Net(p) => (in_valid.get_bit(p), in_data.get_bits::<W>(p * W)),
                    Source::Sw(j, q) => (
                        self.sw[j].out_valid_out().val().get_bit(q),
                        self.sw[j].out_data_out(q).val(),
                    ),
                };
            }
            let clock = self.clock.val();
            let sw = &mut self.sw[k];
            sw.clock_in().next = clock;
            sw.in_valid_in().next = pair2(v[0], v[1]);
            sw.in_data_in(0).next = d[0];
            sw.in_data_in(1).next = d[1];
        }
        // Backward: ready into every switch; network outputs.
        let mut in_ready = Bits::<N>::default();
        let mut out_valid = Bits::<N>::default();
        let mut out_data = Bits::<NW>::default();
        for k in 0..self.sw.len() {
            let mut rdy = [false; 2];
            for (q, rdy_q) in rdy.iter_mut().enumerate() {
                *rdy_q = match self.wires.dst[k][q] {
                    Sink::Net(p) => {
                        if self.sw[k].out_valid_out().val().get_bit(q) {
                            out_valid = out_valid.replace_bit(p, true);
                        }
                        let d = self.sw[k].out_data_out(q).val();
                        if d.any() {
                            out_data = out_data | (bit_cast::<NW, W>(d) << ((p * W) as u64));
                        }
                        out_ready.get_bit(p)
                    }
                    Sink::Sw(j, r) => self.sw[j].in_ready_out().val().get_bit(r),
                };
            }
            self.sw[k].out_ready_in().next = pair2(rdy[0], rdy[1]);
            for r in 0..2 {
                if let Source::Net(p) = self.wires.src[k][r] {
                    if self.sw[k].in_ready_out().val().get_bit(r) {
                        in_ready = in_ready.replace_bit(p, true);
                    }
                }
            }
        }
        self.in_ready.next = in_ready;
        self.out_valid.next = out_valid;
        self.out_data.next = out_data;
    }

    fn connect(&mut self) {
        self.in_ready.connect();
        self.out_valid.connect();
        self.out_data.connect();
        for s in self.sw.iter_mut() {
            s.clock_in().connect();
            s.in_valid_in().connect();
            s.in_data_in(0).connect();
            s.in_data_in(1).connect();
            s.out_ready_in().connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let src = |s: Source| match s {
            Source::Net(p) => (format!("in_valid[{p}]"), format!("in_data[{}+:{W}]", p * W)),
            Source::Sw(j, q) => (
                format!("sw${j}$out_valid[{q}]"),
                format!("sw${j}$out_data{q}"),
            ),
        };
        let mut v = String::from("always @(*) begin\n");
        let mut in_ready = vec![String::new(); N];
        let mut out_valid = vec![String::new(); N];
        let mut out_data = vec![String::new(); N];
        for k in 0..self.sw.len() {
            let (v0, d0) = src(self.wires.src[k][0]);
            let (v1, d1) = src(self.wires.src[k][1]);
            let rdy = |q: usize| match self.wires.dst[k][q] {
                Sink::Net(p) => format!("out_ready[{p}]"),
                Sink::Sw(j, r) => format!("sw${j}$in_ready[{r}]"),
            };
            v += &format!("    sw${k}$clock = clock;\n");
            v += &format!("    sw${k}$in_valid = {{{v1}, {v0}}};\n");
            v += &format!("    sw${k}$in_data0 = {d0};\n");
            v += &format!("    sw${k}$in_data1 = {d1};\n");
            v += &format!("    sw${k}$out_ready = {{{}, {}}};\n", rdy(1), rdy(0));
            for q in 0..2 {
                if let Sink::Net(p) = self.wires.dst[k][q] {
                    out_valid[p] = format!("sw${k}$out_valid[{q}]");
                    out_data[p] = format!("sw${k}$out_data{q}");
                }
                if let Source::Net(p) = self.wires.src[k][q] {
                    in_ready[p] = format!("sw${k}$in_ready[{q}]");
                }
            }
        }
        let cat = |x: &[String]| x.iter().rev().cloned().collect::<Vec<_>>().join(", ");
        v += &format!("    in_ready = {{{}}};\n", cat(&in_ready));
        v += &format!("    out_valid = {{{}}};\n", cat(&out_valid));
        v += &format!("    out_data = {{{}}};\n", cat(&out_data));
        v += "end\n";
        Verilog::Custom(v)
    }
}

/// `benes8`: N = 8, W = 2·5 + 16 = 26.
pub type Benes8 = Benes<Switch2Core<26>, 8, 26, 52, 208>;
/// `benes16`: N = 16, W = 2·7 + 16 = 30.
pub type Benes16 = Benes<Switch2Core<30>, 16, 30, 60, 480>;
/// `benes32`: N = 32, W = 2·9 + 16 = 34.
pub type Benes32 = Benes<Switch2Core<34>, 32, 34, 68, 1088>;
/// `benes8r`: `benes8` of registered-ready switches.
pub type Benes8R = Benes<Switch2RCore<26>, 8, 26, 52, 208>;
/// `benes16r`: `benes16` of registered-ready switches.
pub type Benes16R = Benes<Switch2RCore<30>, 16, 30, 60, 480>;

/// The port documentation of the exported Beneš top of `n` ports (`benes<n>`, or `benes<n>r` built of
/// registered-ready switches when `registered`).
pub fn top_doc(n: usize, registered: bool) -> TopDoc {
    let stages = 2 * n.trailing_zeros() as usize - 1;
    let w = 2 * stages + 16;
    TopDoc {
            summary: format!(
                "Benes {n}x{n} network of {}2x2 ASR switches ({stages} stages of {} switches), wired as \
                 docs/contracts.md fixes. Twin of asr_model::benes::{} (hdl/src/benes.rs). A packet is \
                 one {w}-bit word: header in bits [{}:0] (2 bits per stage, stage 0 lowest, bit q = output q \
                 permitted), 16-bit tag above; each stage strips 2 bits, so an output word is the tag.",
                if registered {
                    "registered-ready (skid-buffered, docs/switch2.md) "
                } else {
                    ""
                },
                n / 2,
                if registered { "BenesR" } else { "Benes" },
                2 * stages - 1
            ),
            ports: vec![
                CLOCK,
                ("in_valid", "bit p: input p offers the word in_data[p]"),
                ("in_data", "input p's word at bits [p*W +: W]"),
                (
                    "out_ready",
                    "bit p: the consumer of output p takes its word this cycle",
                ),
                (
                    "in_ready",
                    if registered {
                        "bit p: input p takes its offered word at this edge (a register: its skid buffer is empty)"
                    } else {
                        "bit p: input p takes its offered word at this edge (combinational from out_ready)"
                    },
                ),
                ("out_valid", "bit p: output p offers out_data[p]"),
                (
                    "out_data",
                    "output p's word (the tag) at bits [p*W +: W]; 0 when not valid",
                ),
            ]
            .into_iter()
            .map(|(p, m)| (p.to_string(), m.replace('W', &w.to_string())))
            .collect(),
            latency: format!(
                "{} edges from acceptance at an input to delivery at an output without contention (2 per stage)",
                2 * stages
            ),
        }
}

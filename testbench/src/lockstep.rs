//! Lock-step drivers: each steps an HDL block (rust-hdl's thread-free `simulate()`) and its model twin on
//! the same inputs and returns both sides' outputs, so tests, the Icarus vector recorder and the benchmark
//! share one definition of "a cycle".

use asr_model::matcher::heuristic;
use rust_hdl::prelude::*;

use crate::harness::{pack, unpack};

/// Settle limit for `simulate()`.
pub const SETTLE: usize = 200;

/// A matcher under test: any `Matcher<M, MM, P>` with a uniform interface.
pub struct MatcherDut<const M: usize, const MM: usize, const P: usize> {
    pub uut: asr_hdl::matcher::Matcher<M, MM, P>,
}

impl<const M: usize, const MM: usize, const P: usize> Default for MatcherDut<M, MM, P> {
    fn default() -> Self {
        let mut uut = asr_hdl::matcher::Matcher::<M, MM, P>::default();
        uut.connect_all();
        assert!(simulate(&mut uut, SETTLE), "matcher does not settle");
        Self { uut }
    }
}

/// Object-safe view of a matcher for loops over the six tops.
pub trait MatcherLike {
    fn m(&self) -> usize;
    fn passes(&self) -> usize;
    /// Applies `rows` (M rows of M bits) and returns the HDL's grants rows.
    fn eval(&mut self, rows: &[u64]) -> Vec<u64>;
}

impl<const M: usize, const MM: usize, const P: usize> MatcherLike for MatcherDut<M, MM, P> {
    fn m(&self) -> usize {
        M
    }
    fn passes(&self) -> usize {
        P
    }
    fn eval(&mut self, rows: &[u64]) -> Vec<u64> {
        let f: Vec<u128> = rows.iter().map(|&r| r as u128).collect();
        self.uut.requests.next = pack::<MM>(&f, M);
        assert!(simulate(&mut self.uut, SETTLE), "matcher does not settle");
        unpack::<MM>(self.uut.grants.val(), M, M)
            .into_iter()
            .map(|x| x as u64)
            .collect()
    }
}

/// The six exported matchers, in `asr_hdl::export::TOPS` order, with their names.
pub fn all_matchers() -> Vec<(&'static str, Box<dyn MatcherLike>)> {
    vec![
        ("matcher_m4_p1", Box::new(MatcherDut::<4, 16, 1>::default())),
        ("matcher_m4_p2", Box::new(MatcherDut::<4, 16, 2>::default())),
        ("matcher_m8_p1", Box::new(MatcherDut::<8, 64, 1>::default())),
        ("matcher_m8_p2", Box::new(MatcherDut::<8, 64, 2>::default())),
        (
            "matcher_m16_p1",
            Box::new(MatcherDut::<16, 256, 1>::default()),
        ),
        (
            "matcher_m16_p2",
            Box::new(MatcherDut::<16, 256, 2>::default()),
        ),
    ]
}

/// The model's answer for the same rows.
pub fn matcher_model(rows: &[u64], m: usize, passes: usize) -> Vec<u64> {
    heuristic(rows, m, passes)
}

/// A random request matrix: mostly density ½ (Table 2.1), sometimes a random density per matrix so sparse
/// and dense rows are both exercised.
pub fn random_rows(rng: &mut impl rand::Rng, m: usize) -> Vec<u64> {
    let full = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
    let mode = rng.gen_range(0..4);
    (0..m)
        .map(|_| match mode {
            0 => rng.gen::<u64>() & rng.gen::<u64>() & full,
            1 => (rng.gen::<u64>() | rng.gen::<u64>()) & full,
            2 => {
                if rng.gen_bool(0.3) {
                    0
                } else {
                    1u64 << rng.gen_range(0..m)
                }
            }
            _ => rng.gen::<u64>() & full,
        })
        .collect()
}

/// What a 2×2 switch drove in one cycle (before the edge).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortOut2 {
    pub in_ready: [bool; 2],
    pub out_valid: [bool; 2],
    pub out_data: [u128; 2],
}

/// One clock cycle of a clocked rust-hdl block: inputs must already be set. Lowers the clock and settles (the
/// previous cycle's edge, the falling clock and the new inputs settle together), calls `read` on the settled
/// pre-edge state, raises the clock and runs just enough iterations for every register and memory to capture
/// it ([`edge_iterations`]); the combinational logic after the edge settles in the next call, together with
/// the next inputs. So after `cycle` returns the design is mid-settle: call `simulate` before inspecting it.
///
/// This gives the same pre-edge states as settling after each of the three steps (rust-hdl's registers act on
/// `pos_edge` only, and the combinational logic settles to the same fixed point from any start), in about
/// 40 % less time on `sp2_switch` (docs/hdl.md, "Harness: fewer `update_all` passes per cycle").
pub fn cycle<B: Block + 'static, T>(
    uut: &mut B,
    clock: impl Fn(&mut B, bool),
    read: impl Fn(&B) -> T,
) -> T {
    clock(uut, false);
    assert!(
        simulate(uut, SETTLE),
        "design does not settle before the edge"
    );
    let t = read(uut);
    clock(uut, true);
    edge(uut);
    t
}

/// Number of `update_all` passes after raising the top's clock until every register of a design of type `B`
/// has captured: the passes until every clock signal of the hierarchy is high (clocks are passed down one
/// level of hierarchy per pass), plus one for the block owning the deepest clock to see its `pos_edge`, plus
/// one for margin. Measured once per type on the first edge (by walking the hierarchy after every pass) and
/// cached.
pub fn edge_iterations<B: Block + 'static>() -> Option<usize> {
    EDGE.with(|m| m.borrow().get(&std::any::TypeId::of::<B>()).copied())
}

thread_local! {
    static EDGE: std::cell::RefCell<std::collections::HashMap<std::any::TypeId, usize>> =
        Default::default();
}

/// Counts the clock signals of a hierarchy that are still low.
struct LowClocks(usize);

impl Probe for LowClocks {
    fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
        if signal.descriptor().name == "clock" && signal.vcd() != VCDValue::from(true) {
            self.0 += 1;
        }
    }
}

/// Runs the passes after a rising edge (see [`edge_iterations`]).
fn edge<B: Block + 'static>(uut: &mut B) {
    if let Some(k) = edge_iterations::<B>() {
        for _ in 0..k {
            uut.update_all();
        }
        return;
    }
    let mut n = 0;
    loop {
        let mut low = LowClocks(0);
        uut.accept("top", &mut low);
        if low.0 == 0 {
            break;
        }
        assert!(n < SETTLE, "the clock does not reach every block");
        uut.update_all();
        n += 1;
    }
    for _ in 0..2 {
        uut.update_all();
    }
    EDGE.with(|m| m.borrow_mut().insert(std::any::TypeId::of::<B>(), n + 2));
}

/// The exported `switch2` top and `asr_model::switch2::Switch2`, stepped together.
pub struct Switch2Lock {
    pub hw: asr_hdl::switch2::Switch2Top,
    pub model: asr_model::switch2::Switch2,
}

impl Default for Switch2Lock {
    fn default() -> Self {
        let mut hw = asr_hdl::switch2::Switch2Top::default();
        hw.connect_all();
        assert!(simulate(&mut hw, SETTLE));
        Self {
            hw,
            model: Default::default(),
        }
    }
}

impl Switch2Lock {
    /// One cycle on both sides: returns (HDL, model) port values driven during the cycle.
    pub fn step(
        &mut self,
        in_valid: [bool; 2],
        in_data: [u128; 2],
        out_ready: [bool; 2],
    ) -> (PortOut2, PortOut2) {
        const W: usize = asr_hdl::switch2::SWITCH2_W;
        self.hw.in_valid.next = crate::harness::from_bools(&in_valid);
        self.hw.in_data.next = pack(&in_data, W);
        self.hw.out_ready.next = crate::harness::from_bools(&out_ready);
        let hw = cycle(
            &mut self.hw,
            |u, c| u.clock.next = Clock::from(c),
            |u| {
                let d = unpack(u.out_data.val(), W, 2);
                PortOut2 {
                    in_ready: [u.in_ready.val().get_bit(0), u.in_ready.val().get_bit(1)],
                    out_valid: [u.out_valid.val().get_bit(0), u.out_valid.val().get_bit(1)],
                    out_data: [d[0], d[1]],
                }
            },
        );
        let o = self
            .model
            .step(in_valid, in_data, out_ready)
            .expect("tests never inject an empty request");
        (
            hw,
            PortOut2 {
                in_ready: o.in_ready,
                out_valid: o.out_valid,
                out_data: o.out_data,
            },
        )
    }
}

/// What a Beneš drove in one cycle (before the edge), port by port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenesPorts {
    pub in_ready: Vec<bool>,
    pub out_valid: Vec<bool>,
    pub out_data: Vec<u128>,
}

/// A Beneš HDL block and `asr_model::benes::Benes`, stepped together.
pub struct BenesLock<const N: usize, const W: usize, const W2: usize, const NW: usize> {
    pub hw: asr_hdl::benes::Benes<N, W, W2, NW>,
    pub model: asr_model::benes::Benes,
}

/// The exported `benes8` in lock-step with its model.
pub type Benes8Lock = BenesLock<8, 26, 52, 208>;

impl<const N: usize, const W: usize, const W2: usize, const NW: usize> Default
    for BenesLock<N, W, W2, NW>
{
    fn default() -> Self {
        let mut hw = asr_hdl::benes::Benes::<N, W, W2, NW>::default();
        hw.connect_all();
        assert!(simulate(&mut hw, SETTLE));
        Self {
            hw,
            model: asr_model::benes::Benes::new(N).expect("valid Beneš size"),
        }
    }
}

impl<const N: usize, const W: usize, const W2: usize, const NW: usize> BenesLock<N, W, W2, NW> {
    /// Drives the HDL inputs and runs one HDL cycle, returning its pre-edge outputs.
    pub fn step_hw(
        &mut self,
        in_valid: &[bool],
        in_data: &[u128],
        out_ready: &[bool],
    ) -> BenesPorts {
        self.hw.in_valid.next = crate::harness::from_bools(in_valid);
        self.hw.in_data.next = pack(in_data, W);
        self.hw.out_ready.next = crate::harness::from_bools(out_ready);
        cycle(
            &mut self.hw,
            |u, c| u.clock.next = Clock::from(c),
            |u| BenesPorts {
                in_ready: crate::harness::bools(u.in_ready.val()),
                out_valid: crate::harness::bools(u.out_valid.val()),
                out_data: unpack(u.out_data.val(), W, N),
            },
        )
    }

    /// One cycle on both sides: (HDL, model) port values driven during the cycle.
    pub fn step(
        &mut self,
        in_valid: &[bool],
        in_data: &[u128],
        out_ready: &[bool],
    ) -> (BenesPorts, BenesPorts) {
        let hw = self.step_hw(in_valid, in_data, out_ready);
        let o = self
            .model
            .step(in_valid, in_data, out_ready)
            .expect("tests never inject an empty request");
        (
            hw,
            BenesPorts {
                in_ready: o.in_ready,
                out_valid: o.out_valid,
                out_data: o.out_data,
            },
        )
    }
}

/// Every output port of the `central_queue` top in one cycle (before the edge), raw: the fields of an
/// absent grant or read are compared too (they must be 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CqPorts {
    pub wr_grant_valid: bool,
    pub wr_grant: u8,
    pub rd_grant_valid: bool,
    pub rd_grant: u8,
    pub rd_valid: bool,
    pub rd_out: u8,
    pub rd_data: u64,
    pub rd_bytes: u8,
    pub rd_last: bool,
    pub rd_bad: bool,
    pub count: [u8; 8],
    pub free: u8,
}

impl CqPorts {
    /// The ports the HDL must drive for the model's outputs of a cycle.
    pub fn of_model(o: &asr_model::sp2::central_queue::CqOutputs) -> Self {
        let r = o.rd_data;
        CqPorts {
            wr_grant_valid: o.wr_grant.is_some(),
            wr_grant: o.wr_grant.unwrap_or(0),
            rd_grant_valid: o.rd_grant.is_some(),
            rd_grant: o.rd_grant.unwrap_or(0),
            rd_valid: r.is_some(),
            rd_out: r.map_or(0, |c| c.out),
            rd_data: r.map_or(0, |c| c.data),
            rd_bytes: r.map_or(0, |c| c.bytes),
            rd_last: r.is_some_and(|c| c.last),
            rd_bad: r.is_some_and(|c| c.bad),
            count: o.count,
            free: o.free,
        }
    }
}

/// The input pins of the `central_queue` top in one cycle: every receiver's write fields are driven even
/// when its `wr_valid` bit is 0 (tests put random junk there; the HDL must ignore it).
#[derive(Debug, Clone, Copy)]
pub struct CqPins {
    pub wr_valid: [bool; 8],
    pub wr: [asr_model::sp2::central_queue::WriteReq; 8],
    pub rd: [bool; 8],
}

impl CqPins {
    /// The model's inputs for these pins.
    pub fn model_inputs(&self) -> asr_model::sp2::central_queue::CqInputs {
        asr_model::sp2::central_queue::CqInputs {
            wr: std::array::from_fn(|i| self.wr_valid[i].then_some(self.wr[i])),
            rd: self.rd,
        }
    }
}

/// The `central_queue` HDL top and `asr_model::sp2::central_queue::CentralQueue`, stepped together.
pub struct CqLock {
    pub hw: asr_hdl::sp2::central_queue::CentralQueue,
    pub model: asr_model::sp2::central_queue::CentralQueue,
}

impl Default for CqLock {
    fn default() -> Self {
        let mut hw = asr_hdl::sp2::central_queue::CentralQueue::default();
        hw.connect_all();
        assert!(simulate(&mut hw, SETTLE));
        Self {
            hw,
            model: Default::default(),
        }
    }
}

impl CqLock {
    /// Drives the pins and runs one HDL cycle; returns the HDL's pre-edge outputs.
    pub fn step_hw(&mut self, p: &CqPins) -> CqPorts {
        let u = &mut self.hw;
        u.wr_valid.next = crate::harness::from_bools(&p.wr_valid);
        let f = |g: fn(&asr_model::sp2::central_queue::WriteReq) -> u128| -> Vec<u128> {
            p.wr.iter().map(g).collect()
        };
        u.wr_out.next = pack(&f(|w| w.out as u128), 3);
        u.wr_data.next = pack(&f(|w| w.data as u128), 64);
        u.wr_bytes.next = pack(&f(|w| w.bytes as u128), 4);
        u.wr_last.next = pack(&f(|w| w.last as u128), 1);
        u.wr_bad.next = pack(&f(|w| w.bad as u128), 1);
        u.rd_req.next = crate::harness::from_bools(&p.rd);
        cycle(
            u,
            |u, c| u.clock.next = Clock::from(c),
            |u| {
                let count = unpack(u.count.val(), 8, 8);
                CqPorts {
                    wr_grant_valid: u.wr_grant_valid.val(),
                    wr_grant: u.wr_grant.val().to_u64() as u8,
                    rd_grant_valid: u.rd_grant_valid.val(),
                    rd_grant: u.rd_grant.val().to_u64() as u8,
                    rd_valid: u.rd_valid.val(),
                    rd_out: u.rd_out.val().to_u64() as u8,
                    rd_data: u.rd_data.val().to_u64(),
                    rd_bytes: u.rd_bytes.val().to_u64() as u8,
                    rd_last: u.rd_last.val(),
                    rd_bad: u.rd_bad.val(),
                    count: std::array::from_fn(|o| count[o] as u8),
                    free: u.free.val().to_u64() as u8,
                }
            },
        )
    }

    /// One cycle on both sides: (HDL, model) outputs.
    pub fn step(&mut self, p: &CqPins) -> (CqPorts, CqPorts) {
        let hw = self.step_hw(p);
        let o = self
            .model
            .step(&p.model_inputs())
            .expect("tests offer only valid chunks");
        (hw, CqPorts::of_model(&o))
    }
}

/// Replays `run` — per cycle the pins and the model's outputs — through the HDL block `hw` (connected and
/// settled) with `step`, asserting that the HDL's outputs equal the model's in every cycle. A failure names the
/// cycle, the seed and the pins.
pub fn replay<H, P: std::fmt::Debug, O: PartialEq + std::fmt::Debug>(
    hw: &mut H,
    run: &[(P, O)],
    seed: u64,
    mut step: impl FnMut(&mut H, &P) -> O,
) {
    for (n, (p, want)) in run.iter().enumerate() {
        let got = step(hw, p);
        assert_eq!(
            got, *want,
            "cycle {n}: HDL and model differ (ASR_SEED={seed:#x}); pins {p:?}"
        );
    }
}

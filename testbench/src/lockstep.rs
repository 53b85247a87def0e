//! Pieces of the rust-hdl lock-step shared by the co-simulation ([`crate::cosim`]) and the waveform
//! writers: one clock cycle of a rust-hdl block ([`cycle`]) and random request matrices.

use rust_hdl::prelude::*;

/// Settle limit for `simulate()`.
pub const SETTLE: usize = 200;

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

/// One clock cycle of a clocked rust-hdl block: inputs must already be set. Lowers the clock and settles (the
/// previous cycle's edge, the falling clock and the new inputs settle together), calls `read` on the settled
/// pre-edge state, raises the clock and runs just enough iterations for every register and memory to capture
/// it ([`edge_iterations`]); the combinational logic after the edge settles in the next call, together with
/// the next inputs. So after `cycle` returns the design is mid-settle: call `simulate` before inspecting it.
///
/// This gives the same pre-edge states as settling after each of the three steps (rust-hdl's registers act on
/// `pos_edge` only, and the combinational logic settles to the same fixed point from any start), in about
/// 40 % less time on the v1 SP2 switch (docs/hdl.md, "Harness: fewer `update_all` passes per cycle").
pub fn cycle<B: Block + 'static, T>(
    uut: &mut B,
    clock: impl Fn(&mut B, bool),
    read: impl FnOnce(&B) -> T,
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

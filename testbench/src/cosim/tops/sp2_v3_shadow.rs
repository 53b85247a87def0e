//! Lock-step of a v3 block's HDL twin **inside the running v3 model switch**: the whole switch model
//! (`asr_model::sp2::v3::switch::Sp2SwitchV3`) runs under the stimulus of [`super::sp2_switch`] (a model
//! node on each port, random route sets, payloads over the whole legal range, back-to-back packets,
//! malformed packets, stalls, load phases; its scoreboard and invariants checked), and every cycle yields
//! what each block read ([`CycleTrace`]) and the switch after the edge. A block's HDL twin is driven with
//! its model block's inputs of the cycle and its outputs compared with the model block's registers (and,
//! for the receivers, their RAM-port actions `trace.cq_in.acts`): realistic stimulus for every block with
//! no stimulus generator per block.
//!
//! ```text
//! let mut sh = Shadow::new(seed);
//! for _ in 0..cycles {
//!     let (trace, sw) = sh.step()?;
//!     // drive the HDL with trace.rx_in[3], compare with sw.rx[3].regs and trace.cq_in.acts[3]
//! }
//! ```

use super::sp2_switch::{pin_frames, Sp2SwitchTop};
use crate::cosim::ports::Frame;
use crate::cosim::top::Top;
use asr_model::sp2::v3::switch::{CycleTrace, Sp2SwitchV3};

/// The v3 model switch under random traffic, traced every cycle.
pub struct Shadow {
    top: Sp2SwitchTop<Sp2SwitchV3>,
    pins: Frame,
    expect: Frame,
    n: u64,
    seed: u64,
}

impl Shadow {
    /// The idle switch, stimulus from `seed`.
    pub fn new(seed: u64) -> Self {
        let mut top = Sp2SwitchTop::<Sp2SwitchV3>::new(seed);
        top.switch_mut().tracing = true;
        let (pins, expect) = pin_frames();
        Shadow {
            top,
            pins,
            expect,
            n: 0,
            seed,
        }
    }

    /// Cycles stepped.
    pub fn cycles(&self) -> u64 {
        self.n
    }

    /// One cycle: what every block read in it, and the switch after its edge (each block's `regs`). An
    /// error names the seed and the cycle.
    pub fn step(&mut self) -> Result<(Box<CycleTrace>, &Sp2SwitchV3), String> {
        self.pins.clear();
        self.expect.clear();
        self.top
            .cycle(self.n, &mut self.pins, &mut self.expect)
            .map_err(|e| format!("seed {:#x}, cycle {}: {e}", self.seed, self.n))?;
        self.n += 1;
        let sw = self.top.switch();
        let t = sw.last_trace.clone().expect("tracing is on");
        Ok((t, sw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trace is the cycle's: the snapshot before equals the registers the switch had, and the slot of
    /// each receiver follows the cycle count.
    #[test]
    fn the_trace_follows_the_switch() {
        let mut sh = Shadow::new(7);
        let mut before = Sp2SwitchV3::new().snapshot();
        let mut busy = 0;
        for n in 0..3000u64 {
            let (t, sw) = sh.step().unwrap();
            assert_eq!(t.before, before, "cycle {n}");
            for i in 0..8 {
                assert_eq!(t.rx_in[i].slot_bank as u64, (i as u64 + n) % 8);
            }
            busy += t.rx_in.iter().filter(|r| r.pins.is_some()).count();
            before = sw.snapshot();
        }
        assert!(busy > 1000, "little traffic: {busy}");
    }
}

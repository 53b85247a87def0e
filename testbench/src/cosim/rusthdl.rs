//! The RustHDL backend: the top's rust-hdl description in rust-hdl's own thread-free simulation
//! ([`crate::lockstep::cycle`]), driven from the same frames as the Verilog backends.
//!
//! A top's binding is one [`rusthdl_io!`](crate::rusthdl_io!) line naming its input and output fields in
//! declaration order (the Verilog's port names are the field names); [`RustHdl::new`] checks them against
//! the exported Verilog's port list.

use super::ports::Layout;
use super::top::Backend;
use crate::lockstep::SETTLE;
use num_bigint::BigUint;
use rust_hdl::prelude::*;

/// A port value type of rust-hdl (`Bits<N>` or `Bit`) in frame words.
pub trait PortValue: Sized {
    /// Width in bits.
    const WIDTH: usize;
    /// Writes the value into `out`, `ceil(WIDTH / 32)` little-endian words.
    fn to_words(&self, out: &mut [u32]);
    /// Reads the value from the first `ceil(WIDTH / 32)` little-endian words of `w`.
    fn from_words(w: &[u32]) -> Self;
}

impl<const N: usize> PortValue for Bits<N> {
    const WIDTH: usize = N;
    fn to_words(&self, out: &mut [u32]) {
        if N <= 64 {
            let v = self.to_u64();
            out[0] = v as u32;
            if N > 32 {
                out[1] = (v >> 32) as u32;
            }
        } else {
            let b: BigUint = (*self).into();
            out.iter_mut().for_each(|w| *w = 0);
            for (o, d) in out.iter_mut().zip(b.to_u32_digits()) {
                *o = d;
            }
        }
    }
    fn from_words(w: &[u32]) -> Self {
        if N <= 64 {
            let hi = if N > 32 { w[1] as u64 } else { 0 };
            Bits::from(w[0] as u64 | (hi << 32))
        } else {
            BigUint::from_slice(w).into()
        }
    }
}

impl PortValue for bool {
    const WIDTH: usize = 1;
    fn to_words(&self, out: &mut [u32]) {
        out[0] = *self as u32;
    }
    fn from_words(w: &[u32]) -> Self {
        w[0] & 1 == 1
    }
}

/// Drives the input `s` from the frame words at `*k` (and advances `k`).
pub fn set<T: PortValue + Synth>(s: &mut Signal<In, T>, pins: &[u32], k: &mut usize) {
    let n = T::WIDTH.div_ceil(32);
    s.next = T::from_words(&pins[*k..*k + n]);
    *k += n;
}

/// Reads the output `s` into the frame words at `*k` (and advances `k`).
pub fn get<T: PortValue + Synth>(s: &Signal<Out, T>, out: &mut [u32], k: &mut usize) {
    let n = T::WIDTH.div_ceil(32);
    s.val().to_words(&mut out[*k..*k + n]);
    *k += n;
}

/// How a rust-hdl top is driven: written by [`rusthdl_io!`](crate::rusthdl_io!).
pub trait HdlIo {
    /// The rust-hdl top.
    type Hw: Block + Default + 'static;
    /// Whether the top has a `clock` input (false: combinational, settled once per cycle).
    const CLOCKED: bool;
    /// Names of the input fields bound to the input frame, in frame order.
    fn inputs() -> &'static [&'static str];
    /// Names of the output fields read into the output frame, in frame order.
    fn outputs() -> &'static [&'static str];
    /// Drives the top's inputs from an input frame.
    fn set(hw: &mut Self::Hw, pins: &[u32]);
    /// Writes the top's outputs into an output frame.
    fn get(hw: &Self::Hw, out: &mut [u32]);
    /// Sets the top's clock input high or low (does nothing for a combinational top).
    fn clock(hw: &mut Self::Hw, high: bool);
}

/// A rust-hdl top in simulation.
pub struct RustHdl<I: HdlIo> {
    /// The simulated top, connected and settled.
    pub hw: I::Hw,
}

impl<I: HdlIo> RustHdl<I> {
    /// Builds and settles the top, after checking the binding's port names against `layout`.
    pub fn new(layout: &Layout) -> anyhow::Result<Self> {
        let names = |p: &[super::Port]| p.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
        if names(&layout.inputs) != I::inputs()
            || names(&layout.outputs) != I::outputs()
            || layout.clocked != I::CLOCKED
        {
            anyhow::bail!(
                "{}: the rust-hdl binding's ports {:?} → {:?} are not the Verilog's {:?} → {:?}",
                layout.top,
                I::inputs(),
                I::outputs(),
                names(&layout.inputs),
                names(&layout.outputs)
            );
        }
        let mut hw = I::Hw::default();
        hw.connect_all();
        anyhow::ensure!(simulate(&mut hw, SETTLE), "{}: does not settle", layout.top);
        Ok(RustHdl { hw })
    }
}

impl<I: HdlIo> Backend for RustHdl<I> {
    fn cycle(&mut self, pins: &[u32], out: &mut [u32]) {
        I::set(&mut self.hw, pins);
        if I::CLOCKED {
            crate::lockstep::cycle(&mut self.hw, I::clock, |u| I::get(u, out));
        } else {
            assert!(simulate(&mut self.hw, SETTLE), "design does not settle");
            I::get(&self.hw, out);
        }
    }
}

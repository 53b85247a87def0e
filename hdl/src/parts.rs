//! Small constructors shared by the blocks' `Default` impls: vectors of local signals, of sub-blocks, and
//! the per-port bit offsets used with `get_bits` and shifts on packed buses.

use rust_hdl::prelude::*;

/// `n` default local signals.
pub fn locals<T: Synth>(n: usize) -> Vec<Signal<Local, T>> {
    (0..n).map(|_| Signal::default()).collect()
}

/// `n` default blocks (sub-blocks, `DFF`s, …).
pub fn blocks<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

/// The bit offsets `w·p` of the fields of the [`asr_model::sp2::PORTS`] ports in a packed bus, as 16-bit
/// constants.
pub fn port_offsets(w: usize) -> Vec<Constant<Bits<16>>> {
    (0..asr_model::sp2::PORTS)
        .map(|i| Constant::new(((i * w) as u64).into()))
        .collect()
}

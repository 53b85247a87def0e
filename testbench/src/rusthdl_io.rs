//! The [`rusthdl_io!`](crate::rusthdl_io!) macro, which binds a rust-hdl top to the co-simulation's frames by
//! writing its [`HdlIo`](crate::cosim::rusthdl::HdlIo). A `#[macro_export]` macro is named from the crate
//! root (`crate::rusthdl_io!`) wherever it is defined; it has a module of the same name so that the tops that
//! invoke it depend on this file alone, not on `lib.rs`.

/// Binds a rust-hdl top to frames: `rusthdl_io!(Name, HwType, clocked|comb, [inputs…], [outputs…])`.
#[macro_export]
macro_rules! rusthdl_io {
    ($name:ident, $hw:ty, $kind:ident, [$($i:ident),* $(,)?], [$($o:ident),* $(,)?]) => {
        #[doc = concat!("Binds the rust-hdl top `", stringify!($hw), "` to co-simulation frames.")]
        pub struct $name;
        impl $crate::cosim::rusthdl::HdlIo for $name {
            type Hw = $hw;
            const CLOCKED: bool = $crate::rusthdl_io!(@clocked $kind);
            fn inputs() -> &'static [&'static str] {
                &[$(stringify!($i)),*]
            }
            fn outputs() -> &'static [&'static str] {
                &[$(stringify!($o)),*]
            }
            fn set(hw: &mut $hw, pins: &[u32]) {
                let mut k = 0;
                $($crate::cosim::rusthdl::set(&mut hw.$i, pins, &mut k);)*
                let _ = k;
            }
            fn get(hw: &$hw, out: &mut [u32]) {
                let mut k = 0;
                $($crate::cosim::rusthdl::get(&hw.$o, out, &mut k);)*
                let _ = k;
            }
            $crate::rusthdl_io!(@clock $kind, $hw);
        }
    };
    (@clocked clocked) => { true };
    (@clocked comb) => { false };
    (@clock clocked, $hw:ty) => {
        fn clock(hw: &mut $hw, high: bool) {
            hw.clock.next = rust_hdl::prelude::Clock::from(high);
        }
    };
    (@clock comb, $hw:ty) => {
        fn clock(_: &mut $hw, _: bool) {}
    };
}

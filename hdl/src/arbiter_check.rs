//! Test helper (compiled for tests only): an 8-requester arbiter block against its model, cycle by cycle,
//! on random requests (dense, and sparse as the AND of two draws). Used by [`crate::lrs_tri`] and [`crate::rr`].

use rust_hdl::prelude::*;

/// Runs `cycles` cycles: `drive(uut, req, clock)` sets the block's inputs, `read(uut)` gives its
/// `(grant_valid, grant, onehot)` before the edge, and `model(req)` gives the model's pick and commits it
/// (its `served`). Every output equals the model's every cycle. Returns the grants per requester.
pub(crate) fn agrees_with_model<U: Block>(
    uut: &mut U,
    cycles: usize,
    drive: impl Fn(&mut U, u64, bool),
    read: impl Fn(&U) -> (bool, u64, u64),
    mut model: impl FnMut(u64) -> Option<u8>,
) -> [u64; 8] {
    // xorshift64: the hdl crate has no `rand`.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut wins = [0u64; 8];
    for n in 0..cycles {
        let a = next();
        let req = if a >> 63 == 1 {
            a & 0xff
        } else {
            a & next() & 0xff
        };
        drive(uut, req, false);
        assert!(simulate(uut, 100));
        let want = model(req);
        let (valid, grant, onehot) = read(uut);
        assert_eq!(valid, want.is_some(), "cycle {n}, requests {req:#04x}");
        assert_eq!(
            grant,
            want.unwrap_or(0) as u64,
            "cycle {n}, requests {req:#04x}"
        );
        assert_eq!(
            onehot,
            want.map_or(0, |w| 1 << w),
            "cycle {n}, requests {req:#04x}"
        );
        if let Some(w) = want {
            wins[w as usize] += 1;
        }
        drive(uut, req, true);
        assert!(simulate(uut, 100));
    }
    wins
}

//! Shared lock-step harness: seeds, random streams, packing rows/ports into rust-hdl `Bits`.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rust_hdl::prelude::*;

/// The default seed of every randomized test (override with `ASR_SEED`).
pub const DEFAULT_SEED: u64 = 0x5eed_a5a5;

/// Whether the long test tier runs: `ASR_LONG=1`, which `scripts/test.sh` (the README's test command, run by CI)
/// sets. Plain `cargo test` runs the short tier: the same tests, long co-simulations at a tenth of their
/// length ([`cycles`]), and the tests marked `#[ignore]` (long-tier only) skipped.
pub fn long_tier() -> bool {
    std::env::var("ASR_LONG").is_ok_and(|v| v.trim() == "1")
}

/// The length of a long co-simulation: `full` cycles in the long tier, a tenth of them in the short one.
/// Tests scale their traffic thresholds with the value returned.
pub fn cycles(full: u64) -> u64 {
    if long_tier() {
        full
    } else {
        (full / 10).max(1)
    }
}

/// The seed of a test: `ASR_SEED` (decimal or `0x` hex) when set, else [`DEFAULT_SEED`].
pub fn seed() -> u64 {
    match std::env::var("ASR_SEED") {
        Ok(s) => {
            let s = s.trim();
            let v = if let Some(h) = s.strip_prefix("0x") {
                u64::from_str_radix(h, 16)
            } else {
                s.parse()
            };
            v.unwrap_or_else(|_| panic!("ASR_SEED={s:?} is not a number"))
        }
        Err(_) => DEFAULT_SEED,
    }
}

/// A seeded random stream.
pub fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Packs `fields` of `w` bits each (field k at bits `[k*w +: w]`) into `Bits<N>`.
pub fn pack<const N: usize>(fields: &[u128], w: usize) -> Bits<N> {
    assert!(fields.len() * w <= N && w <= 128);
    if N <= 64 {
        let x = fields
            .iter()
            .enumerate()
            .fold(0u64, |a, (k, &f)| a | (((f & mask(w)) as u64) << (k * w)));
        return Bits::from(x);
    }
    let mut acc = Bits::<N>::default();
    for (k, &f) in fields.iter().enumerate() {
        let f = f & mask(w);
        let lo = f as u64;
        let hi = (f >> 64) as u64;
        if lo != 0 {
            acc = acc | (Bits::<N>::from(lo) << ((k * w) as u64));
        }
        if hi != 0 {
            acc = acc | (Bits::<N>::from(hi) << ((k * w + 64) as u64));
        }
    }
    acc
}

/// Unpacks `count` fields of `w` bits from `Bits<N>` (inverse of [`pack`]).
pub fn unpack<const N: usize>(x: Bits<N>, w: usize, count: usize) -> Vec<u128> {
    assert!(count * w <= N && w <= 128);
    (0..count)
        .map(|k| {
            let lo = x.get_bits::<64>(k * w).to_u64() as u128;
            let hi = if w > 64 {
                x.get_bits::<64>(k * w + 64).to_u64() as u128
            } else {
                0
            };
            (lo | (hi << 64)) & mask(w)
        })
        .collect()
}

/// `w` low ones.
pub fn mask(w: usize) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// Splits an N-bit boolean vector into bools.
pub fn bools<const N: usize>(x: Bits<N>) -> Vec<bool> {
    (0..N).map(|i| x.get_bit(i)).collect()
}

/// Packs bools into `Bits<N>`.
pub fn from_bools<const N: usize>(b: &[bool]) -> Bits<N> {
    assert!(b.len() <= N && N <= 64);
    Bits::from(
        b.iter()
            .enumerate()
            .fold(0u64, |a, (i, &v)| a | ((v as u64) << i)),
    )
}

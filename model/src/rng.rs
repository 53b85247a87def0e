//! Seeded random number streams shared by every experiment, so that any run can be replayed from its seed.
//!
//! `stream(seed, id)` derives an independent generator for a sub-task (a chunk of trials, a processor, a sweep
//! point) from the user's seed, so results do not depend on how work is split across threads.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator used throughout the model.
pub type Rng = Xoshiro256PlusPlus;

/// SplitMix64 finaliser: a good 64-bit mixing function.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An independent stream `id` of the run seeded with `seed`.
pub fn stream(seed: u64, id: u64) -> Rng {
    Rng::seed_from_u64(mix(seed ^ mix(id)))
}

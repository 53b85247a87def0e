//! Traffic of seed 004, section 3, on the 2^n nodes of the n-cube: the one pattern type of the simulators,
//! [`crate::traffic::Pattern`], of which the wormhole figures use `random` (uniform over the other nodes),
//! `complement` (`!s`) and `transpose` (n even; the 2^(n/2) nodes equal to their transpose inject nothing and
//! throughput is normalised by the injecting nodes, [`crate::traffic::Pattern::active`]). A pattern under
//! which a source may draw itself (`uniform`) is refused: a worm cannot be sent to its own source.
//!
//! Injection is continuous: every cycle each injecting node generates a message with probability `rate`
//! (Bernoulli, messages per node per cycle) into its unbounded source queue.

use super::error::WormError;
pub use crate::traffic::Pattern;

/// The three patterns of the seed's figures.
pub const ALL: [Pattern; 3] = [Pattern::Random, Pattern::Complement, Pattern::Transpose];

/// Transpose of an n-bit label (n even): swap the high and low halves.
#[inline]
pub fn transpose(s: u32, n: u32) -> u32 {
    let h = n / 2;
    let lo = s & ((1 << h) - 1);
    let hi = s >> h;
    (lo << h) | hi
}

/// Checks that `p` can drive the n-cube's wormhole simulator.
pub fn validate(p: Pattern, n: u32) -> Result<(), WormError> {
    if p.may_draw_source() {
        return Err(WormError::BadParam(format!(
            "pattern `{p}` may send a worm to its own source; use `random` (uniform over the other nodes)"
        )));
    }
    p.check(1usize << n)
        .map_err(|e| WormError::BadParam(format!("{e} (n = {n})")))
}

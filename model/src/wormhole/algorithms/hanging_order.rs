//! Hanging-Order. The seed cites Chiu, Chalasani & Raghavendra, "Flexible, fault-tolerant routing criteria for
//! circuit-switched hypercubes" (ICDCS 1991) \[4\] but does not define it, and we could not find that paper's text
//! (searches of the available corpora found only the seed's abstract and the abstract of its journal version,
//! which name the algorithm without defining it). **The rule below is our own reconstruction, named after
//! the two ingredients it combines; it is not taken from a source.**
//!
//! Rule (minimal, partially adaptive, one virtual channel per directed link): let `U` be the dimensions where the
//! current node has 0 and the destination 1, `D` those where it has 1 and the destination 0. The worm may take
//! any dimension of `U` (as in Hanging), and it may also take the lowest dimension `i = min D` provided no 0→1
//! correction remains below it (`U` has no dimension `< i`). So 1→0 corrections happen in increasing dimension
//! order (as in E-cube) and may be interleaved with 0→1 corrections of higher dimensions. Deadlock freedom is
//! not argued here but checked: the channel dependency graph is verified acyclic by [`crate::wormhole::cdg`] for
//! n = 2..6 in the tests (`cdg_checks`).

use crate::wormhole::router::Candidates;

/// Pushes the choices at node `x` for destination `d` (`x != d`): every 0→1 correction, plus the lowest 1→0
/// correction when no 0→1 correction remains below it; VC 0.
#[inline]
pub fn route(x: u32, d: u32, c: &mut Candidates) {
    let up = !x & d;
    let down = x & !d;
    c.push_mask(up, 0, 0, 0);
    if down != 0 {
        let i = down.trailing_zeros();
        if up & ((1u32 << i) - 1) == 0 {
            c.push(i, 0, 0, 0);
        }
    }
}

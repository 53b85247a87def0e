//! Switch allocators: which waiting input moves to which output in a cycle. One trait, [`Allocator`], and a
//! registry of names ([`by_name`], [`NAMES`]), as BookSim's allocator factory.
//!
//! An allocator sees one switch at a time: `req[i]` is the set of outputs input i may take this cycle (its
//! request already masked with the outputs that can take a packet), and it writes `grant[i]`, the output
//! input i moves to, or [`NO_GRANT`]. The grants must form a matching inside the requests (each output to at
//! most one input, each granted output permitted); the engine checks this and reports a violation as an error.
//! Per-switch state (round-robin pointers, random streams) lives in a byte slice of
//! [`Allocator::state_len`] bytes that the engine keeps for each switch, so one allocator object serves every
//! switch and sweeps run in parallel on clones of the engine.
//!
//! | name | what | per-switch state |
//! |---|---|---|
//! | `asr-p1`, `asr-p2` | the ASR switch: on 2×2 switches the rule of docs/switch2.md (maximum matching, `in_ptr`/`out_ptr`); on larger ones the ColumnOR / Rotate_Until_Zero heuristic with 1 or 2 passes, then an output the heuristic gave to several inputs goes to the first of them at or after that output's round-robin pointer (thesis ch. 2–3) | 2 bytes (2×2) or one pointer per output |
//! | `exact` | a maximum matching (Hopcroft–Karp, `crate::exact`) over the inputs taken in rotating order | 1 pointer |
//! | `islip-1`, `islip-2`, `islip-4` | iSLIP (McKeown 1999) with 1, 2, 4 iterations: outputs grant round-robin, inputs accept round-robin, pointers move only on first-iteration accepts | grant and accept pointers |
//! | `pim-1`, `pim-2` | parallel iterative matching (Anderson et al. 1993) with 1, 2 iterations: random grants, random accepts | a 64-bit random state |
//! | `age` | oldest first: inputs in order of their head packet's age (generation cycle; ties from a rotating pointer), each taking the first output of its request not taken by an older one (from the same pointer); a maximal matching (the engine hands it the heads' ages, [`Allocator::allocate_aged`]) | 1 pointer |
//! | `wavefront` | wavefront allocator (Tamir & Chi 1993): cells served diagonal by diagonal, starting at a rotating priority diagonal | 1 pointer |
//!
//! Latency: combinational (the decision is made in the cycle it is used).

pub mod age;
pub mod asr;
pub mod exact;
pub mod grant;
pub mod islip;
pub mod pim;
pub mod pim_lfsr;
pub mod quality;
pub mod registry;
pub mod traits;
pub mod wavefront;

pub use grant::{check_matching, NO_GRANT};
pub use registry::{by_name, UnknownAllocator, DEFAULT, NAMES};
pub use traits::{Allocator, Phase1};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;
    use rand::Rng;

    fn random_req(rng: &mut crate::rng::Rng, r: usize, density: f64) -> Vec<u64> {
        (0..r)
            .map(|_| (0..r).fold(0u64, |m, q| m | ((rng.gen::<f64>() < density) as u64) << q))
            .collect()
    }

    #[test]
    fn every_allocator_grants_a_matching_inside_the_requests() {
        let mut rng = stream(42, 0);
        for name in NAMES {
            let a = by_name(name).unwrap();
            assert_eq!(a.name(), name);
            for r in [1usize, 2, 3, 4, 5, 8, 16, 33, 64] {
                let mut st = vec![0u8; a.state_len(r)];
                a.init(3, 9, &mut st);
                let mut g = vec![0u8; r];
                for k in 0..300 {
                    let req = random_req(&mut rng, r, [0.1, 0.5, 0.9][k % 3]);
                    a.allocate(&req, &mut st, &mut g);
                    assert_eq!(
                        check_matching(&req, &g),
                        Ok(()),
                        "{name} r={r} {req:?} {g:?}"
                    );
                    // Nobody who asked for nothing moves, and an allocation is never empty when a request is.
                    if req.iter().any(|&x| x != 0) {
                        assert!(g.iter().any(|&x| x != NO_GRANT), "{name} r={r}: no grant");
                    }
                }
            }
        }
        assert!(by_name("fifo").is_err());
    }

    #[test]
    fn exact_and_wavefront_sizes() {
        let mut rng = stream(7, 1);
        let ex = by_name("exact").unwrap();
        let wf = by_name("wavefront").unwrap();
        for r in [2usize, 4, 8, 16] {
            let mut s1 = vec![0u8; ex.state_len(r)];
            let mut s2 = vec![0u8; wf.state_len(r)];
            let mut g = vec![0u8; r];
            for _ in 0..500 {
                let req = random_req(&mut rng, r, 0.3);
                ex.allocate(&req, &mut s1, &mut g);
                let size = g.iter().filter(|&&x| x != NO_GRANT).count();
                assert_eq!(size, crate::exact::max_matching_size(&req));
                // Wavefront is maximal: no request between an unmatched input and an unmatched output.
                wf.allocate(&req, &mut s2, &mut g);
                let used = g
                    .iter()
                    .filter(|&&x| x != NO_GRANT)
                    .fold(0u64, |m, &q| m | 1 << q);
                for i in 0..r {
                    if g[i] == NO_GRANT {
                        assert_eq!(req[i] & !used, 0, "wavefront not maximal: {req:?} {g:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn islip_desynchronises_under_full_load() {
        // All inputs request all outputs every cycle: iSLIP-1's pointers desynchronise and, after at most r
        // cycles, every cycle is a perfect matching (McKeown's 100 % under uniform saturation).
        for r in [2usize, 4, 8, 16] {
            let a = by_name("islip-1").unwrap();
            let mut st = vec![0u8; a.state_len(r)];
            let req = vec![(1u64 << r) - 1; r];
            let mut g = vec![0u8; r];
            for cyc in 0..3 * r {
                a.allocate(&req, &mut st, &mut g);
                if cyc >= r {
                    assert!(g.iter().all(|&x| x != NO_GRANT), "r={r} cycle {cyc}: {g:?}");
                }
            }
        }
        // PIM-1 with random choices is not perfect: about 1 − 1/e of the outputs are matched.
        let a = by_name("pim-1").unwrap();
        let r = 16;
        let mut st = vec![0u8; a.state_len(r)];
        a.init(0, 1, &mut st);
        let req = vec![(1u64 << r) - 1; r];
        let mut g = vec![0u8; r];
        let mut matched = 0;
        for _ in 0..2000 {
            a.allocate(&req, &mut st, &mut g);
            matched += g.iter().filter(|&&x| x != NO_GRANT).count();
        }
        let share = matched as f64 / (2000.0 * r as f64);
        assert!((share - 0.64).abs() < 0.03, "PIM-1 matched share {share}");
    }
}

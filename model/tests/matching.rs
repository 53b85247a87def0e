//! Matching: the heuristic's invariants (proptest), exact matching against brute force and the deficiency
//! theorem (thesis Theorem 2.1), exhaustively for m ≤ 4 and on random cases up to m = 8.

use asr_model::exact::{
    brute_force, deficiency, hopcroft_karp, max_matching_size, size_by_deficiency,
};
use asr_model::header::all_ports;
use asr_model::matcher::{cardinality, column_or, heuristic, heuristic_literal, trace};
use asr_model::rng::stream;
use asr_model::table2_1::random_matrix;
use proptest::prelude::*;

fn rows_of(bits: u64, m: usize) -> Vec<u64> {
    (0..m)
        .map(|i| (bits >> (i * m)) & all_ports(m as u32))
        .collect()
}

#[test]
fn exact_equals_deficiency_and_brute_force_exhaustively_up_to_4() {
    for m in 1..=4usize {
        for bits in 0u64..(1 << (m * m)) {
            let r = rows_of(bits, m);
            let hk = max_matching_size(&r);
            assert_eq!(
                hk,
                size_by_deficiency(&r),
                "Theorem 2.1 vs Hopcroft–Karp, m={m} r={r:?}"
            );
            assert_eq!(
                hk,
                brute_force(&r),
                "brute force vs Hopcroft–Karp, m={m} r={r:?}"
            );
        }
    }
}

#[test]
fn exact_equals_deficiency_on_random_cases_up_to_8() {
    for m in 5..=8usize {
        let mut rng = stream(2024, m as u64);
        for density in [0.1, 0.25, 0.5, 0.75] {
            let mut r = vec![0u64; m];
            for _ in 0..3000 {
                random_matrix(&mut rng, m, density, &mut r);
                let hk = max_matching_size(&r);
                assert_eq!(
                    hk,
                    r.len() - deficiency(&r),
                    "m={m} density={density} r={r:x?}"
                );
                assert_eq!(hk, brute_force(&r), "m={m} r={r:x?}");
            }
        }
    }
}

#[test]
fn hopcroft_karp_returns_a_valid_matching_on_rectangular_cases() {
    let mut rng = stream(5, 5);
    for rows in [1usize, 3, 10, 40, 64, 100] {
        let mut r = vec![0u64; rows];
        for _ in 0..200 {
            random_matrix(&mut rng, 64, 0.05, &mut r);
            let m = hopcroft_karp(&r);
            let mut used = 0u64;
            for (i, c) in m.row_to_col.iter().enumerate() {
                if let Some(c) = *c {
                    assert_eq!(r[i] >> c & 1, 1);
                    assert_eq!(used >> c & 1, 0);
                    used |= 1 << c;
                }
            }
            if rows <= 16 {
                assert_eq!(m.size(), brute_force(&r));
            }
        }
    }
}

fn matrix() -> impl Strategy<Value = (usize, Vec<u64>, usize)> {
    (1usize..=64, 0usize..4).prop_flat_map(|(m, passes)| {
        let full = all_ports(m as u32);
        (
            Just(m),
            prop::collection::vec(any::<u64>().prop_map(move |x| x & full), m),
            Just(passes),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn heuristic_invariants((m, r, passes) in matrix()) {
        let t = trace(&r, m, passes);
        let mut prev = 0;
        for step in &t {
            for (i, &mi) in step.iter().enumerate() {
                // Every grant is permitted, and each row has at most one grant.
                prop_assert_eq!(mi & !r[i], 0, "grant not permitted, row {}", i);
                prop_assert!(mi.count_ones() <= 1, "row {} has {} grants", i, mi.count_ones());
                // A row with requests always holds one of them.
                prop_assert_eq!(mi != 0, r[i] != 0);
            }
            // The cardinality never decreases from one row step to the next.
            let c = cardinality(step);
            prop_assert!(c >= prev, "cardinality fell from {} to {}", prev, c);
            prev = c;
        }
        let last = t.last().unwrap();
        prop_assert_eq!(last, &heuristic(&r, m, passes));
        prop_assert_eq!(last, &heuristic_literal(&r, m, passes));
        // The heuristic never beats the exact maximum.
        prop_assert!(cardinality(last) as usize <= max_matching_size(&r));
        prop_assert_eq!(column_or(last) & !r.iter().fold(0, |a, &x| a | x), 0);
    }

    #[test]
    fn exact_matching_is_maximum_for_small_m(bits in any::<u64>(), m in 1usize..=6) {
        let r = rows_of(bits & ((1u64 << (m * m)) - 1), m);
        prop_assert_eq!(max_matching_size(&r), brute_force(&r));
    }
}

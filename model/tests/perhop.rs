//! Seed 003's per-hop policies in the cycle-accurate network simulator: with every switch-to-switch link
//! unavailable with probability 1 − p in each cycle and one packet in the network at a time, the share of
//! packets delivered without waiting anywhere matches the exact S(v, u) within sampling error, for MP, Z² and
//! XY / E-cube on a torus, a mesh and a hypercube.

use asr_model::delivery::perhop::check_against_s;
use asr_model::delivery::Policy;

#[test]
fn simulator_delivery_without_delay_matches_s() {
    for pol in [Policy::Mp, Policy::Z2, Policy::DimensionOrder] {
        for (t, p) in [("torus:6x6", 0.8), ("mesh:5x5", 0.6), ("hypercube:4", 0.7)] {
            let c = check_against_s(t, pol, p, 6000, 11).unwrap();
            assert!(
                c.z.abs() < 4.0,
                "{t} {pol:?} p={p}: {} delivered without delay, expected {:.1} (z = {:.2})",
                c.undelayed,
                c.expected,
                c.z
            );
        }
    }
}

#[test]
fn no_failures_means_no_delay() {
    let c = check_against_s("torus:5x5", Policy::Mp, 1.0, 2000, 1).unwrap();
    assert_eq!(c.undelayed, 2000);
    assert!((c.expected - 2000.0).abs() < 1e-9);
}

#[test]
fn bad_p_is_an_error() {
    assert!(check_against_s("torus:4x4", Policy::Mp, 0.0, 10, 1).is_err());
    assert!(check_against_s("torus:4", Policy::Mp, 0.5, 10, 1).is_err());
}

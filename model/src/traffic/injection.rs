//! Injection processes (thesis §3.3.1): *when* each processor generates a packet.
//!
//! [`Injection::Geometric`] is the thesis' POISSON(a) of Fig. 3.4: inter-arrival times `t ≥ 1` with
//! `P(t) = ((1−a)/a)·a^t` (eq. 3.1), mean `1/(1−a)` (eq. 3.3). We parameterise by the offered load
//! `λ = 1 − a` in packets per input per cycle, so the mean gap is `1/λ`; λ = 1 injects every cycle, λ = 0
//! never. This is the same process as an independent Bernoulli(λ) trial each cycle.
//! [`Injection::Periodic`] injects every `period` cycles (deterministic, for tests).
//! The first packet of a processor is generated at cycle `gap − 1` (the thesis' `Packet_Issue_Time[i] ←
//! POISSON(a)` with its clock counted from 1), so λ = 1 generates at cycles 0, 1, 2, …

use crate::rng::Rng;
use rand::Rng as _;
use thiserror::Error;

/// Why an injection process cannot be built.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum InjectionError {
    /// The offered load (given) is outside [0, 1] or NaN.
    #[error("offered load {0} is outside [0, 1] packets per input per cycle")]
    BadLoad(f64),
    /// A periodic process with period 0.
    #[error("period must be at least 1 cycle")]
    BadPeriod,
}

/// An injection process, one independent instance per processor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Injection {
    /// Geometric inter-arrival times with mean `1/load` (thesis Fig. 3.4).
    Geometric {
        /// Offered load λ = 1 − a, in packets per input per cycle, in [0, 1].
        load: f64,
    },
    /// One packet every `period` cycles.
    Periodic {
        /// The gap between packets, in cycles (≥ 1).
        period: u64,
    },
}

impl Injection {
    /// The thesis' process at offered load `load` ∈ [0, 1].
    pub fn geometric(load: f64) -> Result<Self, InjectionError> {
        if !(0.0..=1.0).contains(&load) || load.is_nan() {
            return Err(InjectionError::BadLoad(load));
        }
        Ok(Injection::Geometric { load })
    }

    /// One packet every `period` cycles; [`InjectionError::BadPeriod`] when `period` is 0.
    pub fn periodic(period: u64) -> Result<Self, InjectionError> {
        if period == 0 {
            return Err(InjectionError::BadPeriod);
        }
        Ok(Injection::Periodic { period })
    }

    /// Offered load in packets per input per cycle.
    pub fn load(&self) -> f64 {
        match *self {
            Injection::Geometric { load } => load,
            Injection::Periodic { period } => 1.0 / period as f64,
        }
    }

    /// The next inter-arrival gap (≥ 1 cycles), or `None` for "never".
    #[inline]
    pub fn gap(&self, rng: &mut Rng) -> Option<u64> {
        match *self {
            Injection::Geometric { load } => {
                if load <= 0.0 {
                    None
                } else if load >= 1.0 {
                    Some(1)
                } else {
                    // Inverse transform: P(T > t) = (1−λ)^t.
                    let u: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
                    let t = (u.ln() / (1.0 - load).ln()).floor() as u64 + 1;
                    Some(t.max(1))
                }
            }
            Injection::Periodic { period } => Some(period),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

    #[test]
    fn geometric_mean_is_one_over_load() {
        // eq. 3.3: a = 0.5 → mean gap 2.
        for load in [0.5, 0.1, 0.9] {
            let inj = Injection::geometric(load).unwrap();
            let mut r = stream(7, 0);
            let k = 200_000;
            let s: u64 = (0..k).map(|_| inj.gap(&mut r).unwrap()).sum();
            let mean = s as f64 / k as f64;
            assert!(
                (mean - 1.0 / load).abs() < 0.02 / load,
                "load {load}: {mean}"
            );
        }
        let mut r = stream(7, 1);
        assert_eq!(Injection::geometric(1.0).unwrap().gap(&mut r), Some(1));
        assert_eq!(Injection::geometric(0.0).unwrap().gap(&mut r), None);
        assert!(Injection::geometric(1.5).is_err());
        assert!(Injection::geometric(-0.1).is_err());
        assert!(Injection::geometric(f64::NAN).is_err());
        assert!(Injection::periodic(0).is_err());
    }
}

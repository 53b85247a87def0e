//! What a run did ([`Report`]): its counts, times and first mismatch, printed, as JSON, and checked by the
//! tests.

use super::ports::Mismatch;
use std::path::PathBuf;

/// What a run did.
#[derive(Clone, Debug)]
pub struct Report {
    /// The exported top's name.
    pub top: String,
    /// The backend's name ([`BackendKind::name`](super::run::BackendKind::name)).
    pub backend: &'static str,
    /// The seed the top's stimulus was drawn from (the same seed reproduces the run).
    pub seed: u64,
    /// Cycles compared (traffic and drain; up to and including a mismatch).
    pub cycles: u64,
    /// Wall time of the compared cycles (not building or loading the design).
    pub seconds: f64,
    /// `cycles / seconds`.
    pub cycles_per_s: f64,
    /// Packets (or the top's unit: see [`Top::packets`](super::top::Top::packets)) the model delivered.
    pub packets: u64,
    /// 0, or 1 for the mismatch that stopped the run.
    pub mismatches: u64,
    /// The mismatch that stopped the run, if any.
    pub first: Option<Mismatch>,
    /// The top's named counts of what the run exercised ([`Top::counters`](super::top::Top::counters)).
    pub counters: Vec<(String, u64)>,
    /// CPU time of the model side (stimulus, model, scoreboard) and of the backend side (design and
    /// comparison; waiting for the model costs none); they run in parallel, so on an otherwise idle machine with two cores the
    /// rate is about `cycles / max(model_seconds, backend_seconds)`.
    pub model_seconds: f64,
    /// CPU time of the backend side, in seconds (see `model_seconds`).
    pub backend_seconds: f64,
    /// Files written on a mismatch.
    pub vcd: Vec<PathBuf>,
}

impl Report {
    /// A counter by name (0 if the top has none of that name).
    pub fn counter(&self, name: &str) -> u64 {
        self.counters
            .iter()
            .find(|c| c.0 == name)
            .map_or(0, |c| c.1)
    }

    /// The JSON object of `asr cosim --json`: `top`, `backend`, `cycles`, `seconds`, `cycles_per_s`,
    /// `packets`, `mismatches`, and `seed`, `model_cpu_s`, `backend_cpu_s`, `counters`, `first_mismatch`.
    pub fn json(&self) -> serde_json::Value {
        let counters: serde_json::Map<String, serde_json::Value> = self
            .counters
            .iter()
            .map(|(k, v)| (k.clone(), (*v).into()))
            .collect();
        serde_json::json!({
            "top": self.top,
            "backend": self.backend,
            "cycles": self.cycles,
            "seconds": self.seconds,
            "cycles_per_s": self.cycles_per_s.round(),
            "packets": self.packets,
            "mismatches": self.mismatches,
            "seed": self.seed,
            "model_cpu_s": self.model_seconds,
            "backend_cpu_s": self.backend_seconds,
            "counters": counters,
            "first_mismatch": self.first.as_ref().map(|m| serde_json::json!({
                "cycle": m.cycle,
                "signal": m.signal,
                "expected": m.expected,
                "actual": m.actual,
            })),
        })
    }

    /// Panics unless the run compared at least `min_cycles` cycles with no mismatch; says so on stderr.
    pub fn assert_clean(&self, min_cycles: u64) {
        if let Some(m) = &self.first {
            panic!(
                "{} ({}): {m} (ASR_SEED={:#x})",
                self.top, self.backend, self.seed
            );
        }
        assert!(
            self.cycles >= min_cycles,
            "{} ({}): only {} of {min_cycles} cycles compared",
            self.top,
            self.backend,
            self.cycles
        );
        eprintln!("{self}");
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} on {}: {} cycles in {:.2} s ({:.0} cycles/s; CPU: model side {:.2} s, {} side {:.2} s), {} packets, {} mismatches (seed {:#x})",
            self.top,
            self.backend,
            self.cycles,
            self.seconds,
            self.cycles_per_s,
            self.model_seconds,
            self.backend,
            self.backend_seconds,
            self.packets,
            self.mismatches,
            self.seed
        )?;
        if !self.counters.is_empty() {
            let c: Vec<String> = self
                .counters
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            write!(f, "; {}", c.join(", "))?;
        }
        if let Some(m) = &self.first {
            write!(f, "\n  first mismatch: {m}")?;
        }
        Ok(())
    }
}

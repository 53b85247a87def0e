//! What a formal job is: the top, the claim, how it is proven ([`Mode`]) and its mutants ([`Mutant`]); the
//! jobs themselves are the rows of [`super::PROOFS`].

/// How a proof's claim is established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A combinational top (no state): a bounded model check of depth 1 covers every input, a full proof.
    Comb,
    /// k-induction (SymbiYosys `mode prove`) of this depth: a full proof for every reachable state.
    Prove(u32),
    /// A bounded model check of this depth only: no counterexample in that many cycles from the initial state.
    Bmc(u32),
}

impl Mode {
    /// The task name in the job's `.sby` file.
    pub fn task(self) -> &'static str {
        match self {
            Mode::Prove(_) => "prove",
            Mode::Comb | Mode::Bmc(_) => "bmc",
        }
    }

    /// One phrase for reports: "k-induction, depth 2", "combinational (bmc depth 1)", "bmc depth 20".
    pub fn describe(self) -> String {
        match self {
            Mode::Comb => "combinational: bmc depth 1, a full proof".into(),
            Mode::Prove(d) => format!("k-induction depth {d}, a full proof"),
            Mode::Bmc(d) => format!("bmc depth {d}"),
        }
    }

    /// The same mode at depth `d` (`asr prove --depth`); a combinational top keeps its depth 1, which is
    /// already a full proof.
    pub fn at_depth(self, d: u32) -> Mode {
        match self {
            Mode::Comb => Mode::Comb,
            Mode::Prove(_) => Mode::Prove(d),
            Mode::Bmc(_) => Mode::Bmc(d),
        }
    }
}

/// A deliberately broken variant of a top: every occurrence of `find` in the exported text replaced by
/// `replace`.
#[derive(Clone, Copy, Debug)]
pub struct Mutant {
    /// Short name: the job folder's suffix.
    pub name: &'static str,
    /// What the change breaks, in a few words.
    pub what: &'static str,
    /// Exported text to replace (at least one occurrence).
    pub find: &'static str,
    /// Its replacement.
    pub replace: &'static str,
    /// The check assumes the job's white-box invariants (`WHITEBOX_ASSUMED`: the wrapper's white-box
    /// `assert`s become `assume`s), which the proof task proves of the design: for a property whose first
    /// possible failure lies deeper than the plain check reaches. A failure found is still a run of the
    /// mutant from reset within the environment's assumptions; a mutant that broke an invariant would only
    /// have fewer runs to fail on, so it cannot be counted caught by breaking it.
    pub whitebox: bool,
}

/// One formal job: a property wrapper over one exported top, how it is proven, and its mutants.
#[derive(Clone, Copy)]
pub struct Proof {
    /// The job's name (its folder): the top's name, or the top's name and a variant.
    pub name: &'static str,
    /// The exported top (a row of [`crate::tops::TOPS`]).
    pub top: &'static str,
    /// What is proven, in one sentence.
    pub claims: &'static str,
    /// How the proof task runs.
    pub mode: Mode,
    /// Depth of the `cover` task.
    pub cover_depth: u32,
    /// Depth of a mutant's bounded model check.
    pub mutant_depth: u32,
    /// The wrapper template: `@TOP@` and the names of [`Proof::params`] are replaced.
    pub template: &'static str,
    /// Template parameters (`@NAME@` → value).
    pub params: fn() -> Vec<(&'static str, String)>,
    /// Verilog defines of the wrapper in every task (`EQUIV`, `MAXIMAL`, `LEGAL`).
    pub defines: &'static [&'static str],
    /// White-box wires of the proof task (`WHITEBOX` defined): wrapper wire, register of the flattened design.
    pub observe: &'static [(&'static str, &'static str)],
    /// The mutants the properties must catch.
    pub mutants: &'static [Mutant],
}

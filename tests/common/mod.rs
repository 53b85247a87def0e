//! Shared by the CLI tests: run the `asr` binary built for the tests.

/// Runs `asr` with `args` and returns its exit status and output.
pub fn asr(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_asr"))
        .args(args)
        .output()
        .expect("running asr")
}

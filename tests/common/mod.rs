//! Shared by the CLI tests: run the `asr` binary built for the tests.

#![allow(dead_code)] // each test file uses some of these

use std::path::Path;
use std::time::{Duration, Instant};

/// Runs `asr` with `args` and returns its exit status and output.
pub fn asr(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_asr"))
        .args(args)
        .output()
        .expect("running asr")
}

/// Runs `asr` with `args` in the folder `dir`, with `RUST_BACKTRACE=1` set (user errors must still print
/// plainly); kills it and panics if it has not finished after `limit` (a hang is a failure, not a wait).
pub fn asr_in(dir: &Path, args: &[&str], limit: Duration) -> std::process::Output {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_asr"))
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running asr");
    let t0 = Instant::now();
    // Read the pipes on threads so that a chatty command cannot block on a full pipe.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let o = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let e = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("waiting for asr") {
            break s;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("asr {args:?} still running after {limit:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    std::process::Output {
        status,
        stdout: o.join().expect("stdout reader"),
        stderr: e.join().expect("stderr reader"),
    }
}

/// A new, empty folder `asr-<prefix>-<pid>-<name>` in the system's temporary folder (removed first if a
/// run before left one).
pub fn fresh_dir(prefix: &str, name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("asr-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the project's Python script `scripts/<script>` with `args`.
pub fn python_script(script: &str, args: &[&str]) -> std::process::Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(script);
    std::process::Command::new("python3")
        .arg(path)
        .args(args)
        .output()
        .expect("python3 runs")
}

/// The cells of the Markdown table row of `out` whose first cell is `label`; panics (showing `out`) when
/// there is none.
pub fn md_row<'a>(out: &'a str, label: &str) -> Vec<&'a str> {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("| {label} |")))
        .unwrap_or_else(|| panic!("no row {label} in\n{out}"));
    line.trim_matches('|').split('|').map(str::trim).collect()
}

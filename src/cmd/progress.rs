//! Progress on stderr for every phase that can take more than a couple of seconds: a bar with the elapsed
//! time (ticking every second, so that a slow first step does not look like a hang) and an estimate of the
//! time left. indicatif draws nothing when stderr is not a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::time::Duration;

/// A bar over `len` steps of `unit` (e.g. "loads", "source switches"), prefixed with `what`.
pub fn bar(what: &str, len: u64, unit: &str) -> ProgressBar {
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template(&format!(
            "{{prefix}} {{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed_precise}} elapsed, about {{eta}} left"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b.set_prefix(what.to_string());
    b.enable_steady_tick(Duration::from_secs(1));
    b
}

/// A bar that draws nothing (for `--json` runs and library use).
pub fn hidden() -> ProgressBar {
    ProgressBar::hidden()
}

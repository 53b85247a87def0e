//! Progress on stderr for every phase that can take more than a couple of seconds: a bar with the elapsed
//! time (ticking every second, so that a slow first step does not look like a hang) and an estimate of the
//! time left. indicatif draws nothing when stderr is not a terminal.

use indicatif::{HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use std::time::Duration;

/// The bar's estimate of the time left: none before the first step is done (indicatif would say "0s" while
/// a slow first step runs, which reads as "about to finish").
pub fn left_text(pos: u64, eta: Duration) -> String {
    if pos == 0 {
        "time left: estimated after the first step".to_string()
    } else {
        format!("about {:#} left", HumanDuration(eta))
    }
}

/// A bar over `len` steps of `unit` (e.g. "loads", "source switches"), prefixed with `what`.
pub fn bar(what: &str, len: u64, unit: &str) -> ProgressBar {
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template(&format!(
            "{{prefix}} {{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed_precise}} elapsed, {{left}}"
        ))
        .map(|st| {
            st.with_key("left", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&left_text(s.pos(), s.eta()));
            })
        })
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

#[cfg(test)]
mod tests {
    use super::left_text;
    use std::time::Duration;

    #[test]
    fn no_estimate_before_the_first_step() {
        assert_eq!(
            left_text(0, Duration::ZERO),
            "time left: estimated after the first step"
        );
        assert_eq!(left_text(3, Duration::from_secs(300)), "about 5m left");
    }
}

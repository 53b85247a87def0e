//! Checks every command runs before it computes anything: that its output folders and files can be
//! written (so that a bad `--out` is reported at once, by name, not after an hour of simulation), and the
//! documented limits on run sizes (so that a mistyped count is refused instead of running for days).

use anyhow::{bail, Context, Result};
use std::path::Path;

/// Largest `--packets` per input of `asr sim` and `asr benes-table`.
pub const MAX_PACKETS_PER_INPUT: u64 = 1_000_000;
/// Largest estimated work of one `asr sim` or `asr benes-table` run, in switch evaluations (switches ×
/// cycles summed over the loads): about 2 hours at the measured 14 M router-cycles per second and core.
pub const MAX_ROUTER_CYCLES: f64 = 1e11;
/// Largest estimated work of one `asr sp2-system` run, in switch-cycles (switches × cycles × loads ×
/// routings): about 2 hours on one core at the measured 1.3 M switch-cycles per second.
pub const MAX_SWITCH_CYCLES: f64 = 1e10;
/// Largest cycle count of a single phase (warm-up, measurement) of any simulation.
pub const MAX_CYCLES: u64 = 100_000_000;
/// Largest number of processors route tables are generated or written for (their file has N(N−1) lines:
/// 4.2 million at the limit).
pub const MAX_ROUTE_PROCESSORS: usize = 2048;
/// Largest topology of `asr delivery-sim` (it computes the exact S for every node pair; 256 nodes take
/// about a CPU second, 1024 would take minutes).
pub const MAX_DELIVERY_SIM_NODES: usize = 256;

/// Makes sure `dir` is a folder this process can write into, creating it (and its parents) if missing.
/// `option` names the command-line option it came from (`--out`).
pub fn out_dir(option: &str, dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("{option} {}: exists and is not a folder", dir.display());
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{option} {}: cannot create the folder", dir.display()))?;
    let probe = dir.join(format!(".asr-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("{option} {}: cannot write into the folder", dir.display()))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

/// Makes sure `file` can be written: not a folder, its folder exists or can be created, and the file can
/// be opened for writing (an existing file is left as it is until the command writes it).
pub fn out_file(option: &str, file: &Path) -> Result<()> {
    if file.is_dir() {
        bail!(
            "{option} {}: is a folder, expected a file name",
            file.display()
        );
    }
    if let Some(parent) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        if parent.exists() && !parent.is_dir() {
            bail!(
                "{option} {}: {} is not a folder",
                file.display(),
                parent.display()
            );
        }
        std::fs::create_dir_all(parent).with_context(|| {
            format!(
                "{option} {}: cannot create the folder {}",
                file.display(),
                parent.display()
            )
        })?;
    }
    let existed = file.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(file)
        .with_context(|| format!("{option} {}: cannot write the file", file.display()))?;
    if !existed {
        let _ = std::fs::remove_file(file);
    }
    Ok(())
}

/// Refuses a count outside `lo..=hi`, naming the option.
pub fn count(option: &str, value: u64, lo: u64, hi: u64) -> Result<()> {
    if value < lo || value > hi {
        bail!("{option} {value}: must be between {lo} and {hi}");
    }
    Ok(())
}

/// Refuses loads outside (0, 1] (or an empty list), naming the option and the unit.
pub fn loads(option: &str, loads: &[f64], unit: &str) -> Result<()> {
    if loads.is_empty() {
        bail!("{option}: give at least one load");
    }
    if let Some(l) = loads.iter().find(|&&l| !(l > 0.0 && l <= 1.0)) {
        bail!("{option} {l}: each load must be in (0, 1] {unit}");
    }
    Ok(())
}

/// Refuses a run whose estimated work, switch evaluations = switches × Σ over the loads of the cycles
/// needed to generate `packets` per input (packets / load), is above
/// [`MAX_ROUTER_CYCLES`].
pub fn check_work(what: &str, switches: usize, loads: &[f64], packets: u64) -> Result<()> {
    let cycles: f64 = loads.iter().map(|&l| packets as f64 / l.max(1e-9)).sum();
    let work = switches as f64 * cycles;
    let max = MAX_ROUTER_CYCLES;
    if work > max {
        bail!(
            "{what}: about {work:.1e} switch evaluations ({switches} switches, {packets} packets per input, loads {loads:?}), \
             above the limit of {max:.0e} (about 2 hours): use fewer --packets, fewer or higher loads, or a smaller network"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_checked_by_name() {
        let base = std::env::temp_dir().join(format!("asr-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let file = base.join("a-file");
        std::fs::write(&file, "x").unwrap();
        let e = out_dir("--out", &file).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("--out {}: exists and is not a folder", file.display())
        );
        let e = out_file("--out", &base).unwrap_err().to_string();
        assert!(e.ends_with("is a folder, expected a file name"), "{e}");
        let e = out_file("--out", &file.join("x.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("a-file is not a folder"), "{e}");
        out_dir("--out", &base.join("new/deeper")).unwrap();
        assert!(base.join("new/deeper").is_dir());
        out_file("--out", &base.join("other/x.txt")).unwrap();
        assert!(
            !base.join("other/x.txt").exists(),
            "the check leaves no file"
        );
        out_file("--out", &file).unwrap();
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "x",
            "kept as it was"
        );
        let _ = std::fs::remove_dir_all(base);
    }

    #[test]
    fn counts_and_loads() {
        assert!(count("--packets", 0, 1, 10).is_err());
        assert!(count("--packets", 11, 1, 10).is_err());
        assert!(count("--packets", 10, 1, 10).is_ok());
        assert_eq!(
            loads("--load", &[0.5, 0.0], "packets / input / cycle")
                .unwrap_err()
                .to_string(),
            "--load 0: each load must be in (0, 1] packets / input / cycle"
        );
        assert!(loads("--load", &[f64::NAN], "x").is_err());
        assert!(loads("--load", &[], "x").is_err());
    }
}

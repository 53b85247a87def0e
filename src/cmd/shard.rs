//! Sweeps beyond one machine: `--shard i/n` on every sweep command (`asr sim`, `asr benes-table`,
//! `asr sp2-system`, `asr wormhole-figures`), and the shard files that `asr merge DIR... --out DIR`
//! (`super::merge`) combines. This module is the library part: the sweep commands and `merge` import it,
//! and it imports none of them.
//!
//! A sweep is a list of independent jobs (simulation points), numbered in the order the unsharded run lists
//! them; each job draws its random numbers from the seed and its own identity only, so it gives the same
//! result wherever it runs. Shard i of n computes the jobs whose number is i modulo n and writes
//! `shard-<i>-of-<n>.json` into its `--out` folder: the command, the program version, the command's
//! parameters, and (job number, result) pairs. `asr merge` reads the shard files of one or more folders,
//! checks that they come from the same command, version and parameters and cover every job exactly once,
//! and writes exactly the files the unsharded run writes (the same bytes for every CSV and JSON file; text
//! tables say they were merged instead of giving a wall time).
//!
//! Every JSON result of these commands starts with a `parameters` object ([`Parameters`]) and every CSV row
//! carries the parameters of its point, so a result file says how it was made.

use anyhow::{bail, Context, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The program version recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `--shard i/n`: this run computes the jobs whose number is `index` modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("`{s}`: expected i/n with 0 ≤ i < n, e.g. 0/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether job `job` belongs to this shard.
    pub fn owns(&self, job: usize) -> bool {
        job % self.count == self.index
    }

    /// The shard's file name.
    pub fn file_name(&self) -> String {
        format!("shard-{}-of-{}.json", self.index, self.count)
    }
}

/// Which jobs of `jobs` to run: all, or the shard's share.
pub fn selected(shard: Option<Shard>, jobs: usize) -> Vec<usize> {
    (0..jobs)
        .filter(|&j| shard.is_none_or(|s| s.owns(j)))
        .collect()
}

/// How a result was made: the command, the program version and the command's parameters (its arguments,
/// without the output folder and the shard).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Parameters<A> {
    pub command: String,
    pub version: String,
    #[serde(flatten)]
    pub args: A,
}

impl<A> Parameters<A> {
    pub fn new(command: &str, args: A) -> Self {
        Parameters {
            command: command.to_string(),
            version: VERSION.to_string(),
            args,
        }
    }
}

/// A shard's file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShardFile<A, R> {
    pub parameters: Parameters<A>,
    pub shard: Shard,
    /// Jobs of the whole sweep.
    pub jobs: usize,
    /// (job number, result) of this shard's jobs.
    pub results: Vec<(usize, R)>,
}

/// Writes shard `shard`'s results into `dir`.
pub fn write_shard<A: Serialize, R: Serialize>(
    dir: &Path,
    command: &str,
    args: A,
    shard: Shard,
    jobs: usize,
    results: Vec<(usize, R)>,
) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join(shard.file_name());
    let f = ShardFile {
        parameters: Parameters::new(command, args),
        shard,
        jobs,
        results,
    };
    std::fs::write(&path, serde_json::to_string(&f)?)
        .with_context(|| format!("writing {}", path.display()))?;
    eprintln!(
        "{command}: shard {shard} ({} of {jobs} jobs) written to {}; combine the shards with `asr merge`",
        f.results.len(),
        path.display()
    );
    Ok(path)
}

/// The shard files of `dirs`, checked to be one complete sweep: (command, parameters as JSON, one result
/// per job in job order).
pub fn read_shards(
    dirs: &[PathBuf],
) -> Result<(String, serde_json::Value, Vec<serde_json::Value>)> {
    let mut files = Vec::new();
    for d in dirs {
        let rd = std::fs::read_dir(d).with_context(|| format!("reading folder {}", d.display()))?;
        let mut here: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".json"))
            })
            .collect();
        if here.is_empty() {
            bail!(
                "{}: no shard-*.json file (run the sweep with --shard i/n --out {0})",
                d.display()
            );
        }
        here.sort();
        files.extend(here);
    }
    let mut params: Option<(PathBuf, serde_json::Value)> = None;
    let mut jobs: Option<usize> = None;
    let mut got: BTreeMap<usize, (serde_json::Value, PathBuf)> = BTreeMap::new();
    for f in &files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        let v: ShardFile<serde_json::Value, serde_json::Value> = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a shard file", f.display()))?;
        let p = serde_json::to_value(&v.parameters)?;
        match &params {
            None => params = Some((f.clone(), p)),
            Some((first, q)) if *q != p => bail!(
                "{} and {} come from different sweeps (command, version or parameters differ)",
                first.display(),
                f.display()
            ),
            _ => {}
        }
        if *jobs.get_or_insert(v.jobs) != v.jobs {
            bail!(
                "{}: {} jobs, other shards say {}",
                f.display(),
                v.jobs,
                jobs.unwrap_or(0)
            );
        }
        for (j, r) in v.results {
            if j >= v.jobs {
                bail!(
                    "{}: job {j} outside the sweep's {} jobs",
                    f.display(),
                    v.jobs
                );
            }
            if let Some((_, other)) = got.insert(j, (r, f.clone())) {
                bail!(
                    "job {j} is in both {} and {} (the same shard given twice?)",
                    other.display(),
                    f.display()
                );
            }
        }
    }
    let (_, params) = params.expect("at least one file");
    let jobs = jobs.expect("at least one file");
    if let Some(missing) = (0..jobs).find(|j| !got.contains_key(j)) {
        bail!(
            "job {missing} of {jobs} is in no shard file: {} of {jobs} jobs found (a shard is missing)",
            got.len()
        );
    }
    let command = params["command"]
        .as_str()
        .context("shard file without a command")?
        .to_string();
    Ok((command, params, got.into_values().map(|(r, _)| r).collect()))
}

/// The command's arguments and results from [`read_shards`]' JSON.
pub fn decode<A: DeserializeOwned, R: DeserializeOwned>(
    params: serde_json::Value,
    results: Vec<serde_json::Value>,
) -> Result<(A, Vec<R>)> {
    let p: Parameters<A> = serde_json::from_value(params).context("shard parameters")?;
    let r = results
        .into_iter()
        .map(serde_json::from_value)
        .collect::<Result<Vec<R>, _>>()
        .context("shard results")?;
    Ok((p.args, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parsing_and_ownership() {
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("0/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        let s = "2/3".parse::<Shard>().unwrap();
        assert_eq!(selected(Some(s), 8), vec![2, 5]);
        assert_eq!(selected(None, 3), vec![0, 1, 2]);
        // Every job in exactly one shard.
        let mut seen = [0; 10];
        for i in 0..3 {
            for j in selected(Some(Shard { index: i, count: 3 }), 10) {
                seen[j] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
    }
}

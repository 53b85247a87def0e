//! The user guide holds together: every relative link and image in the README and in `docs/` leads to a file
//! that exists, and a link to a heading (`page.md#heading`) to a heading that exists (GitHub's anchors); every
//! page of `docs/` (but the generated result files under `docs/results/`) is in `docs/SUMMARY.md`, the
//! guide's contents (mdBook's format); and no page but the journal names a machine path (`/tmp/`, `/work/`,
//! a folder outside the repository) or an issue number. (A link check rather than an mdBook build: building
//! mdBook would add minutes of compilation to every CI run.)

use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every page of `docs/` outside `docs/results/`.
fn pages() -> Vec<PathBuf> {
    let mut v = vec![root().join("README.md")];
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// The text outside fenced code blocks and inline code spans.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || line.starts_with("    ") {
            continue;
        }
        let mut code = false;
        for c in line.chars() {
            if c == '`' {
                code = !code;
            } else if !code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of `[text](target)` and `![alt](target)` links.
fn links(text: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut rest = text;
    while let Some(k) = rest.find("](") {
        let after = &rest[k + 2..];
        match after.find(')') {
            Some(e) => {
                v.push(after[..e].trim().to_string());
                rest = &after[e..];
            }
            None => break,
        }
    }
    v
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, spaces to `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of every heading of a page (outside code blocks).
fn anchors(text: &str) -> HashSet<String> {
    let mut fenced = false;
    let mut set = HashSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            set.insert(anchor(line.trim_start_matches('#')));
        }
    }
    set
}

/// Every broken link of `page`, as `page: target (why)`.
fn broken(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap();
    let dir = page.parent().unwrap();
    let mut bad = Vec::new();
    for target in links(&prose(&text)) {
        if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
            continue;
        }
        let target = target.split_whitespace().next().unwrap_or("").to_string();
        let (path, frag) = match target.split_once('#') {
            Some((p, f)) => (p.to_string(), Some(f.to_string())),
            None => (target.clone(), None),
        };
        let file = if path.is_empty() {
            page.to_path_buf()
        } else {
            dir.join(&path)
        };
        if !file.exists() {
            bad.push(format!("{}: {target} (no such file)", page.display()));
            continue;
        }
        if let Some(f) = frag {
            if file.extension().is_some_and(|x| x == "md") {
                let t = std::fs::read_to_string(&file).unwrap();
                if !anchors(&t).contains(&f) {
                    bad.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    bad
}

#[test]
fn every_link_leads_somewhere() {
    let bad: Vec<String> = pages().iter().flat_map(|p| broken(p)).collect();
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn every_page_is_in_the_contents() {
    let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
    let listed: HashSet<String> = links(&summary).into_iter().collect();
    for p in pages().iter().skip(1) {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name == "SUMMARY.md" {
            continue;
        }
        assert!(
            listed.contains(&name),
            "docs/{name} is not in docs/SUMMARY.md"
        );
    }
    for l in &listed {
        assert!(root().join("docs").join(l).exists(), "SUMMARY.md lists {l}");
    }
}

#[test]
fn no_machine_paths_or_issue_numbers_in_the_guide() {
    for p in pages() {
        if p.ends_with("docs/journal.md") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        for (n, line) in text.lines().enumerate() {
            for bad in ["/tmp/", "/work/", "../shared"] {
                assert!(
                    !line.contains(bad),
                    "{}:{}: names a machine path ({bad}): {line}",
                    p.display(),
                    n + 1
                );
            }
            let lower = line.to_lowercase();
            let issue = lower.match_indices("issue ").any(|(k, _)| {
                lower[k + 6..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            });
            assert!(
                !issue,
                "{}:{}: names an issue number: {line}",
                p.display(),
                n + 1
            );
        }
    }
}

/// The checker itself: a missing file, a missing heading and a link inside code are told apart.
#[test]
fn the_checker_catches_a_broken_link() {
    let dir = std::env::temp_dir().join(format!("asr-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("b.md"), "# A Heading, with (punctuation)\n").unwrap();
    let a = dir.join("a.md");
    std::fs::write(
        &a,
        "[ok](b.md#a-heading-with-punctuation) [gone](c.md) [no](b.md#other) `[code](d.md)`\n",
    )
    .unwrap();
    let bad = broken(&a);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad[0].contains("c.md (no such file)"), "{bad:?}");
    assert!(bad[1].contains("b.md#other (no such heading)"), "{bad:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `.rs` files under `dir`, recursively, skipping build output.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&p, out);
            }
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

/// A doc example marked `ignore` is still compiled (and fails) under `cargo test -- --include-ignored`,
/// which the long test tier passes: a sketch that is not meant to compile is a `text` block.
#[test]
fn no_doc_example_is_marked_ignore() {
    let mut files = Vec::new();
    for d in ["src", "model", "hdl", "testbench", "tests", "benches"] {
        rust_files(&root().join(d), &mut files);
    }
    assert!(files.len() > 50, "found only {} Rust files", files.len());
    let fence = ["```", "ignore"].concat();
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        for (n, line) in text.lines().enumerate() {
            let t = line.trim_start();
            let doc = t.starts_with("//!") || t.starts_with("///");
            assert!(
                !(doc && t.contains(&fence)),
                "{}:{}: a doc example marked ignore is compiled under --include-ignored; make it a text block",
                p.display(),
                n + 1
            );
        }
    }
}

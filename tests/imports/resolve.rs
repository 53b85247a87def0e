//! One crate's module tree (from its root file along the `mod x;` declarations) and the resolution of a
//! path to the file that defines what it names, following imports and re-exports (`pub use`, globs).

use super::parse::{parse, FileFacts};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A module path from the crate root (`[]` is the root).
pub type ModPath = Vec<String>;

/// One module: the file holding it and what that file says.
pub struct Module {
    pub file: PathBuf,
    pub facts: FileFacts,
}

/// The modules of one crate.
pub struct Crate {
    pub modules: BTreeMap<ModPath, Module>,
}

/// Depth limit for following imports (a guard against import loops such as `use a::*` both ways).
const MAX_HOPS: usize = 16;

impl Crate {
    /// Reads the crate whose root file is `root` (`lib.rs` or `main.rs`).
    pub fn load(root: &Path) -> Crate {
        let mut modules = BTreeMap::new();
        let mut todo = vec![(ModPath::new(), root.to_path_buf())];
        while let Some((path, file)) = todo.pop() {
            let src = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let facts = parse(&src);
            // Children of `lib.rs`, `main.rs` or `mod.rs` sit beside it; those of `a.rs` in `a/`.
            let stem = file.file_stem().unwrap().to_str().unwrap();
            let dir = if ["lib", "main", "mod"].contains(&stem) || path.is_empty() {
                file.parent().unwrap().to_path_buf()
            } else {
                file.with_extension("")
            };
            for child in &facts.children {
                let flat = dir.join(format!("{child}.rs"));
                let nested = dir.join(child).join("mod.rs");
                let f = if flat.exists() { flat } else { nested };
                assert!(f.exists(), "{}: `mod {child};` has no file", file.display());
                let mut p = path.clone();
                p.push(child.clone());
                todo.push((p, f));
            }
            modules.insert(path, Module { file, facts });
        }
        Crate { modules }
    }

    /// The file that a path written in module `ctx` names, or `None` when it leaves the crate.
    pub fn resolve(&self, ctx: &[String], segs: &[String], hops: usize) -> Option<&Path> {
        let (cur, rest) = self.start(ctx, segs, hops)?;
        self.walk(cur, &rest, hops)
    }

    /// The module a path starts from and the segments left after it.
    fn start(
        &self,
        ctx: &[String],
        segs: &[String],
        hops: usize,
    ) -> Option<(ModPath, Vec<String>)> {
        let first = segs.first()?;
        match first.as_str() {
            "crate" => Some((ModPath::new(), segs[1..].to_vec())),
            "self" => Some((ctx.to_vec(), segs[1..].to_vec())),
            "super" => {
                let n = segs.iter().take_while(|s| *s == "super").count();
                let cur = ctx[..ctx.len().checked_sub(n)?].to_vec();
                Some((cur, segs[n..].to_vec()))
            }
            _ => {
                let mut child = ctx.to_vec();
                child.push(first.clone());
                if self.modules.contains_key(&child) {
                    return Some((child, segs[1..].to_vec()));
                }
                // A name imported into `ctx` (`use super::engine;` then `engine::x`), else another crate.
                let m = self.modules.get(ctx)?;
                let (_, target) = m
                    .facts
                    .imports
                    .iter()
                    .find(|(n, _)| n.as_ref() == Some(first))?;
                if hops >= MAX_HOPS || target.first() == Some(first) {
                    return None;
                }
                let mut whole = target.clone();
                whole.extend(segs[1..].iter().cloned());
                self.start(ctx, &whole, hops + 1)
            }
        }
    }

    /// Walks `rest` down from module `cur`: into child modules, then to the item's defining file.
    fn walk(&self, mut cur: ModPath, rest: &[String], hops: usize) -> Option<&Path> {
        for seg in rest {
            if seg == "*" {
                break;
            }
            let mut child = cur.clone();
            child.push(seg.clone());
            if self.modules.contains_key(&child) {
                cur = child;
                continue;
            }
            return self.item(&cur, seg, hops);
        }
        self.modules.get(&cur).map(|m| m.file.as_path())
    }

    /// The file defining item `name` as seen from module `m`: its own definition, an import of that name
    /// (followed), a glob import that provides it, or else the module's own file.
    fn item(&self, m: &ModPath, name: &str, hops: usize) -> Option<&Path> {
        let module = self.modules.get(m)?;
        if module.facts.items.iter().any(|i| i == name) || hops >= MAX_HOPS {
            return Some(&module.file);
        }
        if let Some((_, target)) = module
            .facts
            .imports
            .iter()
            .find(|(n, _)| n.as_deref() == Some(name))
        {
            // An import from outside the crate (`pub use anyhow::Result`) defines nothing here.
            return self.resolve(m, target, hops + 1);
        }
        for (_, glob) in module
            .facts
            .imports
            .iter()
            .filter(|(_, p)| p.last().is_some_and(|l| l == "*"))
        {
            let Some((from, rest)) = self.start(m, &glob[..glob.len() - 1], hops + 1) else {
                continue;
            };
            let mut at = from;
            at.extend(rest.iter().cloned());
            if let Some(g) = self.modules.get(&at) {
                let provides = g.facts.items.iter().any(|i| i == name)
                    || g.facts
                        .imports
                        .iter()
                        .any(|(n, _)| n.as_deref() == Some(name));
                if provides {
                    return self.item(&at, name, hops + 1);
                }
            }
        }
        Some(&module.file)
    }

    /// The file graph: for every file, the other files it names and one path that shows each edge. With
    /// `siblings_only`, an edge between a module and one of its ancestors (`a/b/c.rs` naming `a/mod.rs`,
    /// or `a/mod.rs` naming `a/b.rs`) is left out.
    pub fn edges(&self, siblings_only: bool) -> BTreeMap<PathBuf, BTreeMap<PathBuf, String>> {
        let file_mod: BTreeMap<&Path, &ModPath> = self
            .modules
            .iter()
            .map(|(p, m)| (m.file.as_path(), p))
            .collect();
        let nested = |a: &ModPath, b: &ModPath| a.starts_with(b) || b.starts_with(a);
        let mut g: BTreeMap<PathBuf, BTreeMap<PathBuf, String>> = BTreeMap::new();
        for (mp, m) in &self.modules {
            let out = g.entry(m.file.clone()).or_default();
            for p in &m.facts.paths {
                let Some(f) = self.resolve(mp, p, 0) else {
                    continue;
                };
                if f == m.file || (siblings_only && nested(mp, file_mod[f])) {
                    continue;
                }
                out.entry(f.to_path_buf()).or_insert_with(|| p.join("::"));
            }
        }
        g
    }
}

//! Reading one source file: comments, strings and `#[cfg(test)]` items blanked out, then the tokens, the
//! `mod x;` declarations, the items defined at the top level, the `use` trees and the `crate::`/`super::`/
//! `self::`/child-module paths written in code.

/// One token: an identifier (keywords included), `::`, or a single punctuation character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

/// What one file says about its module: children, top-level items, imports and the paths it names.
#[derive(Debug, Default)]
pub struct FileFacts {
    /// `mod x;` declared at the top level (not `#[cfg(test)]`).
    pub children: Vec<String>,
    /// Names of the functions, types, traits, constants, statics and macros defined at the top level.
    pub items: Vec<String>,
    /// Top-level `use` imports: the name brought into scope (`None` for `as _` and globs) and the path.
    pub imports: Vec<(Option<String>, Vec<String>)>,
    /// Every path this file names: all `use` paths (any depth) and the paths written in code that start
    /// with `crate`, `super`, `self` or a declared child module.
    pub paths: Vec<Vec<String>>,
}

/// Replaces comments, string and char literals with spaces (line breaks kept).
fn blank(src: &str) -> Vec<char> {
    let c: Vec<char> = src.chars().collect();
    let mut out = c.clone();
    let mut i = 0;
    let wipe = |out: &mut Vec<char>, from: usize, to: usize| {
        for ch in out.iter_mut().take(to.min(c.len())).skip(from) {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            let end = (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len());
            wipe(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && next == Some('*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 1;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 1;
                }
                j += 1;
            }
            wipe(&mut out, i, j);
            i = j;
        } else if c[i] == 'r' && (next == Some('"') || next == Some('#')) && !ident_char(&c, i) {
            let hashes = (i + 1..c.len()).take_while(|&j| c[j] == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let body: String = c[i + 2 + hashes..].iter().collect();
            let end = body.find(&close).map_or(c.len(), |k| {
                i + 2 + hashes + body[..k].chars().count() + close.len()
            });
            wipe(&mut out, i, end);
            i = end;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            wipe(&mut out, i, j + 1);
            i = j + 1;
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{..}'); a lifetime ('a) is left alone.
            let end = if next == Some('\\') {
                (i + 2..c.len()).find(|&j| c[j] == '\'').map(|j| j + 1)
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(e) => {
                    wipe(&mut out, i, e);
                    i = e;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

/// True when the character before `i` continues an identifier (so `r"` there is not a raw string).
fn ident_char(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// Splits blanked source into tokens.
fn tokens(c: &[char]) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphabetic() || c[i] == '_' {
            let j = (i..c.len())
                .find(|&j| !(c[j].is_alphanumeric() || c[j] == '_'))
                .unwrap_or(c.len());
            out.push(Tok::Ident(c[i..j].iter().collect()));
            i = j;
        } else if c[i].is_ascii_digit() {
            i = (i..c.len())
                .find(|&j| !(c[j].is_alphanumeric() || c[j] == '_'))
                .unwrap_or(c.len());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::PathSep);
            i += 2;
        } else if c[i].is_whitespace() {
            i += 1;
        } else {
            out.push(Tok::Punct(c[i]));
            i += 1;
        }
    }
    out
}

fn is(t: Option<&Tok>, s: &str) -> bool {
    matches!(t, Some(Tok::Ident(x)) if x == s)
}

fn punct(t: Option<&Tok>, p: char) -> bool {
    t == Some(&Tok::Punct(p))
}

/// Drops every item carrying `#[cfg(test)]` (test modules, test-only imports and helpers).
fn drop_test_items(t: Vec<Tok>) -> Vec<Tok> {
    let attr: Vec<Tok> = tokens(&"#[cfg(test)]".chars().collect::<Vec<_>>());
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i..].starts_with(&attr) {
            // Skip to the end of the item: its `;` at depth 0 or the `}` closing its first brace.
            let mut j = i + attr.len();
            let mut depth = 0usize;
            while j < t.len() {
                match &t[j] {
                    Tok::Punct('{') => depth += 1,
                    Tok::Punct('}') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Tok::Punct(';') if depth == 0 => break,
                    _ => {}
                }
                j += 1;
            }
            i = j + 1;
        } else {
            out.push(t[i].clone());
            i += 1;
        }
    }
    out
}

/// Expands one use tree starting at `t[*i]` under `prefix`; `*i` ends on the token after the tree.
fn use_tree(
    t: &[Tok],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Option<String>, Vec<String>)>,
) {
    let mut path = prefix;
    loop {
        match t.get(*i) {
            Some(Tok::Punct('*')) => {
                *i += 1;
                path.push("*".into());
                out.push((None, path));
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                while !punct(t.get(*i), '}') && *i < t.len() {
                    use_tree(t, i, path.clone(), out);
                    if punct(t.get(*i), ',') {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                *i += 1;
                if t.get(*i) == Some(&Tok::PathSep) {
                    *i += 1;
                    continue;
                }
                if path.last().is_some_and(|l| l == "self") {
                    path.pop();
                }
                let mut name = path.last().cloned();
                if is(t.get(*i), "as") {
                    name = match t.get(*i + 1) {
                        Some(Tok::Ident(a)) if a != "_" => Some(a.clone()),
                        _ => None,
                    };
                    *i += 2;
                }
                out.push((name, path));
                return;
            }
            _ => return,
        }
    }
}

const ITEM_KEYWORDS: [&str; 9] = [
    "fn",
    "struct",
    "enum",
    "trait",
    "type",
    "const",
    "static",
    "union",
    "macro_rules",
];

/// Reads one file's facts.
pub fn parse(src: &str) -> FileFacts {
    let t = drop_test_items(tokens(&blank(src)));
    let mut f = FileFacts::default();
    let mut in_use = vec![false; t.len()];
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => depth = depth.saturating_sub(1),
            Tok::Ident(k) if k == "use" && t.get(i + 1) != Some(&Tok::PathSep) => {
                let start = i;
                let mut j = i + 1;
                let mut found = Vec::new();
                use_tree(&t, &mut j, Vec::new(), &mut found);
                for flag in in_use.iter_mut().take(j.min(t.len())).skip(start) {
                    *flag = true;
                }
                for (name, path) in found {
                    if depth == 0 {
                        f.imports.push((name, path.clone()));
                    }
                    f.paths.push(path);
                }
                i = j;
                continue;
            }
            Tok::Ident(k) if k == "mod" && depth == 0 => {
                if let (Some(Tok::Ident(name)), true) = (t.get(i + 1), punct(t.get(i + 2), ';')) {
                    f.children.push(name.clone());
                }
            }
            Tok::Ident(k) if depth == 0 && ITEM_KEYWORDS.contains(&k.as_str()) => {
                let at = if k == "macro_rules" { i + 2 } else { i + 1 };
                if let Some(Tok::Ident(name)) = t.get(at) {
                    if !ITEM_KEYWORDS.contains(&name.as_str()) {
                        f.items.push(name.clone());
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Paths in code: `crate::`, `super::`, `self::` or `<child>::`, not after `::`, `.` or `$`.
    for i in 0..t.len() {
        let Tok::Ident(first) = &t[i] else { continue };
        let starts =
            ["crate", "super", "self"].contains(&first.as_str()) || f.children.contains(first);
        let after = i.checked_sub(1).map(|p| &t[p]);
        let glued = matches!(after, Some(Tok::PathSep | Tok::Punct('.' | '$')));
        if in_use[i] || !starts || glued || t.get(i + 1) != Some(&Tok::PathSep) {
            continue;
        }
        let mut path = vec![first.clone()];
        let mut j = i + 1;
        while t.get(j) == Some(&Tok::PathSep) {
            match t.get(j + 1) {
                Some(Tok::Ident(s)) => path.push(s.clone()),
                _ => break,
            }
            j += 2;
        }
        f.paths.push(path);
    }
    f
}

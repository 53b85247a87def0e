//! Identifiers in rust-hdl's Verilog: renaming the top module ([`rename_top`]) and replacing whole
//! identifiers (`map_idents`, shared by the merge of identical modules and the user file's module names).

/// Renames rust-hdl's `top` module (and the `top$` prefix of its sub-modules, where they are declared and
/// where they are instantiated) to `name`.
pub fn rename_top(verilog: &str, name: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(verilog.len() + 1024);
    let mut prev: Option<char> = None;
    let mut rest = verilog;
    while !rest.is_empty() {
        let boundary = prev.is_none_or(|c| !is_ident(c));
        if boundary && (rest.starts_with("top$") || rest.starts_with("top(")) {
            out.push_str(name);
            rest = &rest[3..];
            prev = Some('p');
            continue;
        }
        let c = rest.chars().next().expect("non-empty");
        out.push(c);
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Replaces every whole identifier of `text` that `f` maps (identifiers may contain `$`).
pub(crate) fn map_idents(text: &str, f: impl Fn(&str) -> Option<String>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if is_ident(b[i]) && (i == 0 || !is_ident(b[i - 1])) {
            let mut j = i;
            while j < b.len() && is_ident(b[j]) {
                j += 1;
            }
            let id = &text[i..j];
            match f(id) {
                Some(r) => out.push_str(&r),
                None => out.push_str(id),
            }
            i = j;
        } else {
            let c = text[i..].chars().next().expect("in bounds");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

//! Route-table routings by name, as a factory: `asr` (the generator's tables of maximum adaptivity),
//! `single` (one path per pair from them), `asr-df` and `single-df` (the same from the deadlock-free tables,
//! `crate::routes::deadlock_free`). A name says which base tables it is made from ([`Base`]) and whether it
//! keeps one path per pair; the caller supplies the base tables (it decides how they are generated and
//! what it reports), and [`build`] makes each base at most once however many names use it.

use super::table::TableRouting;
use thiserror::Error;

/// The routing-table names, in the order help texts list them.
pub const TABLE_NAMES: [&str; 4] = ["asr", "single", "asr-df", "single-df"];

/// A name that is not a routing table.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown routing table `{0}` (known: asr, single, asr-df, single-df)")]
pub struct UnknownTable(pub String);

/// The tables a routing-table name is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// The generator's tables of maximum adaptivity (no deadlock check).
    Free,
    /// The deadlock-free tables (acyclic channel dependencies).
    DeadlockFree,
}

/// A routing-table name resolved: its canonical name, its base tables and whether it keeps one path per pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableKind {
    /// `asr`, `single`, `asr-df` or `single-df`.
    pub name: &'static str,
    /// The tables the routes are taken from.
    pub base: Base,
    /// One path per pair (`single`, `single-df`) instead of every adaptive path.
    pub single: bool,
}

impl TableKind {
    /// The routing named `name`; `deadlock_free` turns `asr`/`single` into `asr-df`/`single-df`.
    pub fn lookup(name: &str, deadlock_free: bool) -> Result<TableKind, UnknownTable> {
        let name = match (name, deadlock_free) {
            ("asr", true) => "asr-df",
            ("single", true) => "single-df",
            (x, _) => x,
        };
        let (name, base, single) = match name {
            "asr" => ("asr", Base::Free, false),
            "single" => ("single", Base::Free, true),
            "asr-df" => ("asr-df", Base::DeadlockFree, false),
            "single-df" => ("single-df", Base::DeadlockFree, true),
            other => return Err(UnknownTable(other.to_string())),
        };
        Ok(TableKind { name, base, single })
    }

    /// This routing made from its base tables `base` (one path per pair, renamed, or a copy).
    pub fn make(&self, base: &TableRouting) -> TableRouting {
        if self.single {
            base.single_path(self.name)
        } else {
            base.clone()
        }
    }
}

/// The routings `names` (see [`TableKind::lookup`] for `deadlock_free`), each base made at most once by
/// `make(base)`, in the order the names are given. An unknown name is an error before any base is made.
pub fn build<E: From<UnknownTable>>(
    names: &[String],
    deadlock_free: bool,
    mut make: impl FnMut(Base) -> Result<TableRouting, E>,
) -> Result<Vec<TableRouting>, E> {
    let kinds = names
        .iter()
        .map(|n| TableKind::lookup(n, deadlock_free))
        .collect::<Result<Vec<_>, _>>()?;
    let (mut free, mut df) = (None, None);
    let mut out = Vec::with_capacity(kinds.len());
    for k in kinds {
        let slot = match k.base {
            Base::Free => &mut free,
            Base::DeadlockFree => &mut df,
        };
        if slot.is_none() {
            *slot = Some(make(k.base)?);
        }
        out.push(k.make(slot.as_ref().expect("set above")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_errors() {
        let k = TableKind::lookup("single", true).unwrap();
        assert_eq!(
            (k.name, k.base, k.single),
            ("single-df", Base::DeadlockFree, true)
        );
        assert_eq!(
            TableKind::lookup("asr-df", false).unwrap().base,
            Base::DeadlockFree
        );
        for n in TABLE_NAMES {
            assert_eq!(TableKind::lookup(n, false).unwrap().name, n);
        }
        let e = TableKind::lookup("dor", false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown routing table `dor` (known: asr, single, asr-df, single-df)"
        );
    }
}

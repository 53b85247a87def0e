//! Exact maximum bipartite matching between rows (packets) and columns (outputs), for the evaluation of the
//! heuristic (thesis Table 2.1) and as a comparison allocator.
//!
//! - [`hopcroft_karp`]: Hopcroft–Karp, `O(E·√V)`, rows as `u64` column masks (up to 64 columns, any number of rows).
//! - [`deficiency`]: the deficiency δ(G) = max over row subsets A of |A| − |N(A)| by brute force; by thesis
//!   Theorem 2.1 the maximum matching has `rows − δ(G)` edges. Exponential in the number of rows: small cases only.
//! - [`brute_force`]: the maximum matching by trying every assignment (tiny cases only).

/// A maximum matching: `row_to_col[i]` is row i's column, if matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matching {
    /// Per row (packet): the column (output, `0..64`) it is matched to, or `None` when unmatched. No two rows
    /// share a column.
    pub row_to_col: Vec<Option<u32>>,
}

impl Matching {
    /// The number of matched rows (edges in the matching).
    pub fn size(&self) -> usize {
        self.row_to_col.iter().filter(|c| c.is_some()).count()
    }
    /// The matching as one-hot rows (the same shape as the heuristic's `M`).
    pub fn as_rows(&self) -> Vec<u64> {
        self.row_to_col
            .iter()
            .map(|c| c.map_or(0, |c| 1u64 << c))
            .collect()
    }
}

const NIL: u32 = u32::MAX;

/// Hopcroft–Karp maximum matching. `rows[i]` is the set of columns row i may take (bit j = column j).
pub fn hopcroft_karp(rows: &[u64]) -> Matching {
    let n = rows.len();
    let mut row_match = vec![NIL; n];
    let mut col_match = [NIL; 64];
    let mut dist = vec![0u32; n];
    let mut queue = Vec::with_capacity(n);

    // Greedy start: cheap and often already maximum.
    for i in 0..n {
        let mut free = rows[i];
        while free != 0 {
            let j = free.trailing_zeros();
            free &= free - 1;
            if col_match[j as usize] == NIL {
                col_match[j as usize] = i as u32;
                row_match[i] = j;
                break;
            }
        }
    }

    loop {
        // BFS from free rows over alternating paths; dist = layer of each row.
        queue.clear();
        for i in 0..n {
            if row_match[i] == NIL {
                dist[i] = 0;
                queue.push(i as u32);
            } else {
                dist[i] = u32::MAX;
            }
        }
        let mut found = false;
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head] as usize;
            head += 1;
            let mut cols = rows[i];
            while cols != 0 {
                let j = cols.trailing_zeros() as usize;
                cols &= cols - 1;
                let k = col_match[j];
                if k == NIL {
                    found = true;
                } else if dist[k as usize] == u32::MAX {
                    dist[k as usize] = dist[i] + 1;
                    queue.push(k);
                }
            }
        }
        if !found {
            break;
        }
        // DFS along the layers for vertex-disjoint shortest augmenting paths.
        let mut augmented = false;
        for i in 0..n {
            if row_match[i] == NIL && augment(i, rows, &mut row_match, &mut col_match, &mut dist) {
                augmented = true;
            }
        }
        if !augmented {
            break;
        }
    }
    Matching {
        row_to_col: row_match
            .into_iter()
            .map(|c| (c != NIL).then_some(c))
            .collect(),
    }
}

fn augment(
    i: usize,
    rows: &[u64],
    row_match: &mut [u32],
    col_match: &mut [u32; 64],
    dist: &mut [u32],
) -> bool {
    let mut cols = rows[i];
    while cols != 0 {
        let j = cols.trailing_zeros() as usize;
        cols &= cols - 1;
        let k = col_match[j];
        let ok = if k == NIL {
            true
        } else if dist[k as usize] == dist[i] + 1 {
            augment(k as usize, rows, row_match, col_match, dist)
        } else {
            false
        };
        if ok {
            col_match[j] = i as u32;
            row_match[i] = j as u32;
            return true;
        }
    }
    dist[i] = u32::MAX; // dead end in this phase
    false
}

/// The size of a maximum matching.
pub fn max_matching_size(rows: &[u64]) -> usize {
    hopcroft_karp(rows).size()
}

/// The deficiency δ(G) = max over subsets A of rows of |A| − |N(A)| (the empty set gives 0), by brute force
/// over all `2^rows` subsets. Panics above 24 rows.
pub fn deficiency(rows: &[u64]) -> usize {
    let n = rows.len();
    assert!(
        n <= 24,
        "deficiency by brute force is for small cases (got {n} rows)"
    );
    // Neighbourhood of each subset, built incrementally from the subset without its lowest row.
    let mut nb = vec![0u64; 1 << n];
    let mut best = 0i64;
    for a in 1usize..(1 << n) {
        let low = a.trailing_zeros() as usize;
        nb[a] = nb[a & (a - 1)] | rows[low];
        let d = a.count_ones() as i64 - nb[a].count_ones() as i64;
        best = best.max(d);
    }
    best as usize
}

/// The maximum matching size by thesis Theorem 2.1: `|V1| − δ(G)`.
pub fn size_by_deficiency(rows: &[u64]) -> usize {
    rows.len() - deficiency(rows)
}

/// The maximum matching size by trying every row's choice (each row: one permitted column or none).
pub fn brute_force(rows: &[u64]) -> usize {
    fn go(rows: &[u64], used: u64) -> usize {
        match rows.split_first() {
            None => 0,
            Some((&r, rest)) => {
                let mut best = go(rest, used);
                let mut c = r & !used;
                while c != 0 {
                    let j = c.trailing_zeros();
                    c &= c - 1;
                    best = best.max(1 + go(rest, used | (1 << j)));
                }
                best
            }
        }
    }
    go(rows, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_2_5_shape() {
        // Rows a, b, d all see only column 0; row c sees column 1: δ({a,b,d}) = 2, maximum = 4 − 2 = 2.
        let rows = [0b01, 0b01, 0b10, 0b01];
        assert_eq!(deficiency(&rows), 2);
        assert_eq!(max_matching_size(&rows), 2);
    }

    #[test]
    fn matching_is_valid() {
        let rows = [0b0011, 0b0101, 0b1011, 0b1010];
        let m = hopcroft_karp(&rows);
        assert_eq!(m.size(), 4);
        let mut used = 0u64;
        for (i, c) in m.row_to_col.iter().enumerate() {
            let c = c.unwrap();
            assert!(rows[i] >> c & 1 == 1);
            assert_eq!(used >> c & 1, 0);
            used |= 1 << c;
        }
    }
}

//! IBM SP2-style systems (thesis §4.2): switch boards of 8 chips with 8 bidirectional ports, joined by cables.
//! Every assumption about IBM's (unpublished) cabling is documented in `docs/sp2-systems.md`.
//!
//! Board: chips 0–7 (`{board}C{chip}`); chips 4–7 face the processors on ports 0–3; chip 4+a port 4+b is
//! linked to chip b port 4+a (a, b in 0..4); chips 0–3 ports 0–3 are the board's 16 external ports, numbered
//! as slot s = 4·chip + port. Processor Pk sits on node board k/16, chip 4 + (k mod 16)/4, port k mod 4.
//!
//! Systems:
//! - 16: one board (`N0`), external ports unused.
//! - 32, 48, 64, 80: B = N/16 node boards joined directly, round-robin: slot s of board x (for s < 16 −
//!   16 mod (B−1)) is cabled to board (x + 1 + s mod (B−1)) mod B; the m-th slot of x going to y is joined to
//!   the m-th slot of y going to x. For B = 2, 3, 5 this puts the cable to a given board on the same port
//!   number of every chip; for B = 4 (64 nodes, 5 cables per board pair, 15 of 16 slots used) it does not.
//! - `sp2even:64`: the alternative 64-node wiring: chip c port q of board x to board (x+1+q) mod 4, port 3 unused
//!   (4 cables per pair, the same port on every chip).
//! - 128, 256, 512: B node boards (`N{x}`) and I intermediate boards (`I{i}`): 8+4, 16+16, 32+16. Slot s of node
//!   board x goes to intermediate board s mod I, where it takes attachment t = x·(16/I) + s div I; attachment t
//!   is chip 4 + t/4 for t < 16 and chip (t−16)/4 for t ≥ 16, port t mod 4.

use super::builtin_error::{bad, BuiltinError};
use super::graph::{Port, Topology};

fn p(elem: usize, port: u32) -> Port {
    Port { elem, port }
}

/// Adds one switch board named `prefix` (chips `{prefix}C0`..`{prefix}C7`) with its internal links; returns
/// the element indices of chips 0..8.
pub fn add_board(t: &mut Topology, prefix: &str) -> Result<[usize; 8], BuiltinError> {
    let mut c = [0usize; 8];
    for (i, slot) in c.iter_mut().enumerate() {
        *slot = t.add_switch(&format!("{prefix}C{i}"), 8)?;
    }
    for a in 0..4u32 {
        for b in 0..4u32 {
            t.link(p(c[4 + a as usize], 4 + b), p(c[b as usize], 4 + a))?;
        }
    }
    Ok(c)
}

/// The chip and port of a node board's external slot s (0..16).
fn slot(board: &[usize; 8], s: usize) -> Port {
    p(board[s / 4], (s % 4) as u32)
}

fn boards_with_nodes(t: &mut Topology, count: usize) -> Result<Vec<[usize; 8]>, BuiltinError> {
    let boards: Vec<[usize; 8]> = (0..count)
        .map(|x| add_board(t, &format!("N{x}")))
        .collect::<Result<_, _>>()?;
    for (x, b) in boards.iter().enumerate() {
        for j in 0..16 {
            let n = t.add_node(&format!("P{}", 16 * x + j))?;
            t.link(p(n, 0), p(b[4 + j / 4], (j % 4) as u32))?;
        }
    }
    Ok(boards)
}

/// Joins boards directly: `target(x, s)` says which board slot s of board x is cabled to (None = unused).
fn direct(
    t: &mut Topology,
    boards: &[[usize; 8]],
    target: impl Fn(usize, usize) -> Option<usize>,
) -> Result<(), BuiltinError> {
    let nb = boards.len();
    for x in 0..nb {
        for y in x + 1..nb {
            let from_x: Vec<usize> = (0..16).filter(|&s| target(x, s) == Some(y)).collect();
            let from_y: Vec<usize> = (0..16).filter(|&s| target(y, s) == Some(x)).collect();
            if from_x.len() != from_y.len() {
                return Err(bad(
                    "sp2",
                    format!("boards {x} and {y} disagree on their cable count"),
                ));
            }
            for (&sx, &sy) in from_x.iter().zip(&from_y) {
                t.link(slot(&boards[x], sx), slot(&boards[y], sy))?;
            }
        }
    }
    Ok(())
}

/// The SP2-style system with `n` processors (16, 32, 48, 64, 80, 128, 256 or 512).
pub fn sp2(n: usize) -> Result<Topology, BuiltinError> {
    let mut t = Topology::new();
    match n {
        16 | 32 | 48 | 64 | 80 => {
            let nb = n / 16;
            let boards = boards_with_nodes(&mut t, nb)?;
            if nb > 1 {
                let per = nb - 1;
                let used = 16 - 16 % per;
                direct(&mut t, &boards, |x, s| {
                    (s < used).then_some((x + 1 + s % per) % nb)
                })?;
            }
        }
        128 | 256 | 512 => {
            let (nb, ni) = match n {
                128 => (8, 4),
                256 => (16, 16),
                _ => (32, 16),
            };
            let boards = boards_with_nodes(&mut t, nb)?;
            let isb: Vec<[usize; 8]> = (0..ni)
                .map(|i| add_board(&mut t, &format!("I{i}")))
                .collect::<Result<_, _>>()?;
            let per = 16 / ni;
            for (x, b) in boards.iter().enumerate() {
                for s in 0..16 {
                    let at = x * per + s / ni;
                    let chip = if at < 16 { 4 + at / 4 } else { (at - 16) / 4 };
                    t.link(slot(b, s), p(isb[s % ni][chip], (at % 4) as u32))?;
                }
            }
        }
        _ => {
            return Err(bad(
                &format!("sp2:{n}"),
                "N must be one of 16, 32, 48, 64, 80, 128, 256, 512",
            ))
        }
    }
    Ok(t)
}

/// The alternative 64-node wiring (`sp2even:64`): chip c port q of board x is cabled to chip c port 2−q of
/// board (x+1+q) mod 4 for q < 3, so the cable to a given board leaves every chip on the same port.
pub fn sp2_even64() -> Result<Topology, BuiltinError> {
    let mut t = Topology::new();
    let boards = boards_with_nodes(&mut t, 4)?;
    direct(&mut t, &boards, |x, s| {
        (s % 4 < 3).then_some((x + 1 + s % 4) % 4)
    })?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_build_and_use_every_port_as_documented() {
        for n in [16, 32, 48, 64, 80, 128, 256, 512] {
            let t = sp2(n).unwrap();
            assert_eq!(t.nodes().len(), n, "sp2:{n}");
        }
        // 32 nodes: all 16 external slots of both boards cabled: 2 * (16 internal + 16 node) links + 16 cables.
        assert_eq!(sp2(32).unwrap().channels().len(), 2 * (2 * 32 + 16));
        // 64 nodes: 15 of 16 slots per board cabled.
        assert_eq!(sp2(64).unwrap().channels().len(), 2 * (4 * 32 + 4 * 15 / 2));
        assert!(sp2(17).is_err());
        // IBM's documented intra-board path: chip 4 port 4+b -> chip b port 4, chip b port 7 -> chip 7 port 4+b.
        let t = sp2(16).unwrap();
        let c = |i: usize| t.find(&format!("N0C{i}")).unwrap();
        for b in 0..4 {
            assert_eq!(t.output(c(4), 4 + b), Some(p(c(b as usize), 4)));
            assert_eq!(t.output(c(b as usize), 7), Some(p(c(7), 4 + b)));
        }
    }
}

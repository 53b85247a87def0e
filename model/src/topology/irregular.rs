//! Random irregular networks of 8-port switches, as in networks of workstations (Autonet, Myrinet): `S`
//! switches `S0` … `S{S−1}` with `P` processors each (processor `Pk` on switch k / P, port k mod P) and the
//! other 8 − P ports of every switch joined at random by full-duplex links: first a random spanning tree (so
//! the network is connected), then random links between switches that still have free ports and are not yet
//! linked, until no such pair is left. Which free port a link takes is random too. The same (S, P, seed) always
//! gives the same network (`crate::rng::stream`).

use super::builtin_error::{bad, BuiltinError};
use super::graph::{Port, Topology};
use crate::rng::stream;
use rand::seq::SliceRandom;
use rand::Rng;

/// Ports per switch.
pub const PORTS: u32 = 8;

/// `irregular:S:P:SEED`: S in 2..=1024 switches, P in 1..=6 processors per switch.
pub fn irregular(switches: usize, procs: usize, seed: u64) -> Result<Topology, BuiltinError> {
    let name = format!("irregular:{switches}:{procs}:{seed}");
    if !(2..=1024).contains(&switches) {
        return Err(bad(
            &name,
            "the number of switches must be between 2 and 1024",
        ));
    }
    if !(1..=6).contains(&procs) {
        return Err(bad(
            &name,
            "processors per switch must be between 1 and 6 (8-port switches need 2 ports for links)",
        ));
    }
    let mut rng = stream(seed, 0x1aae9);
    let mut t = Topology::new();
    let s: Vec<usize> = (0..switches)
        .map(|i| t.add_switch(&format!("S{i}"), PORTS))
        .collect::<Result<_, _>>()?;
    for (i, &sw) in s.iter().enumerate() {
        for q in 0..procs {
            let n = t.add_node(&format!("P{}", i * procs + q))?;
            t.link(
                Port { elem: n, port: 0 },
                Port {
                    elem: sw,
                    port: q as u32,
                },
            )?;
        }
    }
    let mut free: Vec<Vec<u32>> = (0..switches)
        .map(|_| (procs as u32..PORTS).collect())
        .collect();
    let mut linked = vec![vec![false; switches]; switches];
    let join = |t: &mut Topology,
                rng: &mut crate::rng::Rng,
                free: &mut Vec<Vec<u32>>,
                linked: &mut Vec<Vec<bool>>,
                a: usize,
                b: usize| {
        let (na, nb) = (free[a].len(), free[b].len());
        let pa = free[a].swap_remove(rng.gen_range(0..na));
        let pb = free[b].swap_remove(rng.gen_range(0..nb));
        linked[a][b] = true;
        linked[b][a] = true;
        t.link(
            Port {
                elem: s[a],
                port: pa,
            },
            Port {
                elem: s[b],
                port: pb,
            },
        )
    };
    // A random spanning tree: each switch in a random order joins an earlier one with a free port.
    let mut order: Vec<usize> = (0..switches).collect();
    order.shuffle(&mut rng);
    for i in 1..switches {
        let b = order[i];
        let open: Vec<usize> = order[..i]
            .iter()
            .copied()
            .filter(|&a| !free[a].is_empty())
            .collect();
        let a = open[rng.gen_range(0..open.len())];
        join(&mut t, &mut rng, &mut free, &mut linked, a, b)?;
    }
    // Extra random links until no two switches with free ports are left unlinked.
    loop {
        let mut pairs = Vec::new();
        for a in 0..switches {
            if free[a].is_empty() {
                continue;
            }
            for b in a + 1..switches {
                if !free[b].is_empty() && !linked[a][b] {
                    pairs.push((a, b));
                }
            }
        }
        let Some(&(a, b)) = pairs.choose(&mut rng) else {
            break;
        };
        join(&mut t, &mut rng, &mut free, &mut linked, a, b)?;
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connected_and_reproducible() {
        let a = irregular(16, 4, 7).unwrap();
        assert_eq!(a, irregular(16, 4, 7).unwrap());
        assert_ne!(a, irregular(16, 4, 8).unwrap());
        assert_eq!(a.nodes().len(), 64);
        // Every processor reaches every other one.
        let d = crate::routes::validate::distances(&a, a.find("P0").unwrap());
        assert!(a.nodes().iter().all(|&n| d[n] != u32::MAX));
        assert!(irregular(1, 4, 1).is_err());
        assert!(irregular(8, 7, 1).is_err());
    }
}

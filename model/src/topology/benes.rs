//! Beneš networks of 2×2 switches (thesis §3.2), wired exactly as docs/contracts.md fixes it.
//!
//! An N×N Beneš network (N = 2^n) has 2n−1 stages of N/2 switches, each a `switch X 2` whose ports carry one
//! direction (`wire`s). Recursive construction: the first stage's switch i sends output 0 to input i of the
//! upper half-size Beneš and output 1 to input i of the lower one; the last stage's switch i takes input 0 from
//! output i of the upper half and input 1 from output i of the lower half and drives network outputs 2i, 2i+1;
//! network inputs 2i and 2i+1 enter first-stage switch i on ports 0 and 1. Network input i of a sub-network is
//! port i mod 2 of its first-stage switch i/2, and likewise for outputs. The upper half occupies switch indices
//! 0..N/4 of the inner stages, the lower half N/4..N/2.
//!
//! Processor Pk injects with `wire Pk.0 S0_{k/2}.{k%2}` and receives with `wire S{2n-2}_{k/2}.{k%2} Pk.0`.
//! Switch names are `S{stage}_{index}`.

use super::builtin_error::{bad, BuiltinError};
use super::graph::{Port, Topology};

/// A Beneš network and the index maps a simulator needs.
#[derive(Debug, Clone)]
pub struct Benes {
    /// The network itself.
    pub topology: Topology,
    /// n = log2 N.
    pub n: u32,
    /// `switch[s][i]`: the element index of the switch at stage `s` (0..2n−1), index `i` (0..N/2).
    pub switch: Vec<Vec<usize>>,
    /// `nodes[k]`: the element index of processor Pk (network input and output k).
    pub nodes: Vec<usize>,
    /// `position[e]`: `Some((stage, index))` for a switch element, `None` for a processor.
    pub position: Vec<Option<(usize, usize)>>,
}

impl Benes {
    /// Number of network ports N.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }
    /// Number of stages 2n − 1.
    pub fn stages(&self) -> usize {
        self.switch.len()
    }
    /// The ASR header of docs/contracts.md to reach output `dst`: all-ones for the first n−1 stages, then the bits of
    /// `dst` most significant first as one-hot sets (N/2 paths).
    pub fn asr_route(&self, dst: usize) -> Vec<u64> {
        let n = self.n as usize;
        let mut hops = vec![0b11u64; n - 1];
        for b in (0..n).rev() {
            hops.push(1 << ((dst >> b) & 1));
        }
        hops
    }
}

/// Wires the inner stages from [`crate::benes::BenesWiring`], the one definition of the Beneš wiring.
fn build(t: &mut Topology, sw: &[Vec<usize>], size: usize) -> Result<(), BuiltinError> {
    let w = crate::benes::BenesWiring::new(size).map_err(|e| bad(&format!("benes:{size}"), &e))?;
    for (s, stage) in w.next.iter().enumerate() {
        for (i, outs) in stage.iter().enumerate() {
            for (q, &(s2, j, r)) in outs.iter().enumerate() {
                t.wire(
                    Port {
                        elem: sw[s][i],
                        port: q as u32,
                    },
                    Port {
                        elem: sw[s2][j],
                        port: r as u32,
                    },
                )?;
            }
        }
    }
    Ok(())
}

/// Processors' element indices, and every element's (stage, index) position.
pub(crate) type Placement = (Vec<usize>, Vec<Option<(usize, usize)>>);

/// Adds processors `P0..P{count}` to a staged network of `radix`-port switches: processor x injects into
/// first-stage switch x / radix on port x mod radix and receives from the last-stage switch x / radix on the
/// same port. Returns the processors' element indices and every element's (stage, index) position.
pub(crate) fn attach_processors(
    t: &mut Topology,
    switch: &[Vec<usize>],
    radix: usize,
    count: usize,
) -> Result<Placement, BuiltinError> {
    let last = switch.len() - 1;
    let mut nodes = Vec::with_capacity(count);
    for x in 0..count {
        let e = t.add_node(&format!("P{x}"))?;
        let port = (x % radix) as u32;
        t.wire(
            Port { elem: e, port: 0 },
            Port {
                elem: switch[0][x / radix],
                port,
            },
        )?;
        t.wire(
            Port {
                elem: switch[last][x / radix],
                port,
            },
            Port { elem: e, port: 0 },
        )?;
        nodes.push(e);
    }
    let mut position = vec![None; t.len()];
    for (s, row) in switch.iter().enumerate() {
        for (i, &e) in row.iter().enumerate() {
            position[e] = Some((s, i));
        }
    }
    Ok((nodes, position))
}

/// Builds the N×N Beneš network with its N processors. N must be a power of two, 2..=65536.
pub fn benes(size: usize) -> Result<Benes, BuiltinError> {
    let name = format!("benes:{size}");
    if size < 2 || !size.is_power_of_two() || size > 1 << 16 {
        return Err(bad(&name, "N must be a power of two between 2 and 65536"));
    }
    let n = size.trailing_zeros();
    let stages = 2 * n as usize - 1;
    let mut t = Topology::new();
    let mut switch = vec![Vec::with_capacity(size / 2); stages];
    for (s, row) in switch.iter_mut().enumerate() {
        for i in 0..size / 2 {
            row.push(t.add_switch(&format!("S{s}_{i}"), 2)?);
        }
    }
    build(&mut t, &switch, size)?;
    let (nodes, position) = attach_processors(&mut t, &switch, 2, size)?;
    Ok(Benes {
        topology: t,
        n,
        switch,
        nodes,
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows a one-port-per-hop header from a middle-stage switch input and returns the network output.
    fn follow(b: &Benes, start: usize, hops: &[u32]) -> usize {
        let mut e = start;
        for &h in hops {
            let next = b.topology.output(e, h).unwrap();
            e = next.elem;
        }
        b.nodes.iter().position(|&x| x == e).unwrap()
    }

    #[test]
    fn benes8_shape_and_design_example() {
        let b = benes(8).unwrap();
        assert_eq!(b.stages(), 5);
        assert_eq!(b.topology.channels().len(), 4 * 4 * 2 + 16);
        // docs/contracts.md: from any middle-stage switch, output 6 = 110 is reached by ports 1, 1, 0.
        for i in 0..4 {
            assert_eq!(follow(&b, b.switch[2][i], &[1, 1, 0]), 6);
        }
        // Every output d from every input with any choice in the first n-1 stages.
        for src in 0..8 {
            for d in 0..8 {
                for c in 0..4u32 {
                    let hops = [
                        c & 1,
                        c >> 1,
                        (d >> 2) as u32 & 1,
                        (d >> 1) as u32 & 1,
                        d as u32 & 1,
                    ];
                    assert_eq!(
                        follow(
                            &b,
                            b.nodes[src],
                            &[0].iter().chain(&hops).copied().collect::<Vec<_>>()
                        ),
                        d
                    );
                }
            }
        }
        assert_eq!(b.asr_route(6), vec![3, 3, 2, 2, 1]);
        assert!(benes(6).is_err());
    }
}

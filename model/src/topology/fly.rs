//! k-ary n-fly (butterfly) networks: k^n processors, n stages of k^(n−1) switches of k×k, one-direction
//! `wire`s (a `switch F k` has input i and output i on port i).
//!
//! Addresses are n base-k digits. Processor t injects into stage-0 switch t/k, port t mod k, and receives from
//! stage-(n−1) switch t/k, port t mod k. Output port j of stage-s switch w (s < n−1) feeds stage s+1, switch
//! w′ = w with base-k digit (n−2−s) replaced by j, on input port = the replaced digit. So the output port taken
//! at stage s is digit n−1−s of the destination (most significant first): one path per pair, destination-tag
//! routing. Switch names are `F{stage}_{index}`, processors `P{t}`.

use super::builtin_error::{bad, BuiltinError};
use super::graph::{Port, Topology};

/// A k-ary n-fly and its index maps.
#[derive(Debug, Clone)]
pub struct Fly {
    /// The network itself.
    pub topology: Topology,
    /// k: the switch radix (k×k switches) and the base of the addresses.
    pub k: usize,
    /// n: stages, the digits of an address.
    pub n: usize,
    /// `switch[s][w]`: element index of the switch at stage `s`, index `w`.
    pub switch: Vec<Vec<usize>>,
    /// `nodes[t]`: element index of processor Pt.
    pub nodes: Vec<usize>,
    /// `position[e]`: `Some((stage, index))` for a switch, `None` for a processor.
    pub position: Vec<Option<(usize, usize)>>,
}

impl Fly {
    /// The destination-tag route to processor `dst`: one-hot sets, digit n−1 first.
    pub fn route(&self, dst: usize) -> Vec<u64> {
        (0..self.n)
            .rev()
            .map(|s| 1u64 << ((dst / self.k.pow(s as u32)) % self.k))
            .collect()
    }
}

/// Builds the k-ary n-fly (k in 2..=64, n ≥ 1, at most 65536 processors).
pub fn fly(k: usize, n: usize) -> Result<Fly, BuiltinError> {
    let name = format!("fly:{k}:{n}");
    if !(2..=64).contains(&k) || n == 0 {
        return Err(bad(&name, "need 2 <= K <= 64 and N >= 1"));
    }
    let terminals = (0..n).try_fold(1usize, |a, _| a.checked_mul(k).filter(|&x| x <= 1 << 16));
    let terminals = terminals.ok_or_else(|| bad(&name, "more than 65536 processors"))?;
    let per_stage = terminals / k;
    let mut t = Topology::new();
    let mut switch = vec![Vec::with_capacity(per_stage); n];
    for (s, row) in switch.iter_mut().enumerate() {
        for w in 0..per_stage {
            row.push(t.add_switch(&format!("F{s}_{w}"), k as u32)?);
        }
    }
    for s in 0..n.saturating_sub(1) {
        let weight = k.pow((n - 2 - s) as u32);
        for w in 0..per_stage {
            let old = (w / weight) % k;
            for j in 0..k {
                let w2 = w - old * weight + j * weight;
                t.wire(
                    Port {
                        elem: switch[s][w],
                        port: j as u32,
                    },
                    Port {
                        elem: switch[s + 1][w2],
                        port: old as u32,
                    },
                )?;
            }
        }
    }
    let (nodes, position) = super::benes::attach_processors(&mut t, &switch, k, terminals)?;
    Ok(Fly {
        topology: t,
        k,
        n,
        switch,
        nodes,
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destination_tag_reaches_every_output() {
        for (k, n) in [(2, 3), (3, 2), (4, 3), (2, 1)] {
            let f = fly(k, n).unwrap();
            for src in 0..f.nodes.len() {
                for dst in 0..f.nodes.len() {
                    let mut e = f.topology.output(f.nodes[src], 0).unwrap().elem;
                    for h in f.route(dst) {
                        e = f.topology.output(e, h.trailing_zeros()).unwrap().elem;
                    }
                    assert_eq!(e, f.nodes[dst], "k={k} n={n} {src}->{dst}");
                }
            }
        }
    }
}

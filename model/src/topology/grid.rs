//! Direct networks with one processor per router: K×K meshes and tori, D-dimensional hypercubes. All links
//! are full duplex.
//!
//! Mesh and torus: router `R{x}_{y}` has 5 ports: 0 = its processor `P{y*K+x}`, 1 = +x, 2 = −x, 3 = +y,
//! 4 = −y; port 1 of (x, y) is linked to port 2 of (x+1, y), port 3 of (x, y) to port 4 of (x, y+1), with
//! wrap-around in the torus. Hypercube: router `H{i}` has D+1 ports: 0 = processor `P{i}`, 1+b = the link
//! along dimension b to router i XOR 2^b (on its port 1+b).

use super::builtin_error::{bad, BuiltinError};
use super::graph::{Port, Topology};

fn p(elem: usize, port: u32) -> Port {
    Port { elem, port }
}

/// A K×K mesh (`torus = false`) or torus (`torus = true`), K in 2..=64.
pub fn mesh(k: usize, torus: bool) -> Result<Topology, BuiltinError> {
    let name = format!("{}:{k}x{k}", if torus { "torus" } else { "mesh" });
    if !(2..=64).contains(&k) {
        return Err(bad(&name, "K must be between 2 and 64"));
    }
    let mut t = Topology::new();
    let mut r = vec![0; k * k];
    for y in 0..k {
        for x in 0..k {
            r[y * k + x] = t.add_switch(&format!("R{x}_{y}"), 5)?;
        }
    }
    for y in 0..k {
        for x in 0..k {
            let n = t.add_node(&format!("P{}", y * k + x))?;
            t.link(p(n, 0), p(r[y * k + x], 0))?;
        }
    }
    for y in 0..k {
        for x in 0..k {
            if x + 1 < k || torus {
                t.link(p(r[y * k + x], 1), p(r[y * k + (x + 1) % k], 2))?;
            }
            if y + 1 < k || torus {
                t.link(p(r[y * k + x], 3), p(r[((y + 1) % k) * k + x], 4))?;
            }
        }
    }
    Ok(t)
}

/// A D-dimensional hypercube, D in 1..=12.
pub fn hypercube(d: usize) -> Result<Topology, BuiltinError> {
    if !(1..=12).contains(&d) {
        return Err(bad(&format!("hypercube:{d}"), "D must be between 1 and 12"));
    }
    let n = 1usize << d;
    let mut t = Topology::new();
    let r: Vec<usize> = (0..n)
        .map(|i| t.add_switch(&format!("H{i}"), d as u32 + 1))
        .collect::<Result<_, _>>()?;
    for (i, &ri) in r.iter().enumerate() {
        let e = t.add_node(&format!("P{i}"))?;
        t.link(p(e, 0), p(ri, 0))?;
    }
    for i in 0..n {
        for b in 0..d {
            let j = i ^ (1 << b);
            if i < j {
                t.link(p(r[i], 1 + b as u32), p(r[j], 1 + b as u32))?;
            }
        }
    }
    Ok(t)
}

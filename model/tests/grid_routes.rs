//! XY and E-cube route tables (seed 000) on the built-in meshes, tori and hypercubes: every route is minimal
//! (|dx| + |dy| on a mesh, the Hamming distance on a hypercube), x before y, loads and validates as a
//! route-table file; Example 2.16 exactly; and the ASR headers of the route generator against P(v, u).

use asr_model::delivery::tables::{asr_coverage, dimension_order, grid_topology, write_table};
use asr_model::routes::file::load_routes;

#[test]
fn dimension_order_tables_are_minimal_and_valid() {
    for name in ["mesh:5x5", "torus:6x6", "torus:5x5", "hypercube:4"] {
        let (g, t) = grid_topology(name).unwrap();
        let routes = dimension_order(&g);
        assert_eq!(routes.len(), g.nodes() * (g.nodes() - 1));
        for r in &routes {
            // One hop per router on the path, the last one delivering on port 0.
            assert_eq!(r.hops.len() - 1, g.dist(r.src, r.dst), "{name} {r:?}");
            assert_eq!(*r.hops.last().unwrap(), 1);
            let (a, b) = (g.coords(r.src), g.coords(r.dst));
            if name.starts_with("mesh") {
                assert_eq!(r.hops.len() - 1, a[0].abs_diff(b[0]) + a[1].abs_diff(b[1]));
            }
            if name.starts_with("hypercube") {
                assert_eq!(r.hops.len() - 1, (r.src ^ r.dst).count_ones() as usize);
            }
            if !name.starts_with("hypercube") {
                // XY: every x move (ports 1, 2) comes before every y move (ports 3, 4).
                let ports: Vec<u32> = r.hops.iter().map(|h| h.trailing_zeros()).collect();
                let first_y = ports.iter().position(|&p| p >= 3).unwrap_or(ports.len());
                assert!(
                    ports[first_y..].iter().all(|&p| p >= 3 || p == 0),
                    "{name} {ports:?}"
                );
            }
        }
        // The file loads against the topology, and the loader re-validates every route on a shortest path.
        let text = write_table(&t, &routes);
        let loaded = load_routes(&t, &text, name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.len(), routes.len());
    }
}

#[test]
fn example_2_16() {
    // E-cube from 010 to 111: along dimension 0 to 011, then dimension 2 to 111, then to the processor.
    let (g, t) = grid_topology("hypercube:3").unwrap();
    let routes = dimension_order(&g);
    let r = routes
        .iter()
        .find(|r| r.src == 0b010 && r.dst == 0b111)
        .unwrap();
    assert_eq!(r.hops, vec![1 << 1, 1 << 3, 1]);
    assert!(write_table(&t, &routes).contains("\nP2 P7 1 2 8 1\n"));
}

#[test]
fn asr_headers_against_all_shortest_paths() {
    for name in ["mesh:4x4", "torus:4x4", "hypercube:3", "hypercube:4"] {
        let c = asr_coverage(name).unwrap();
        assert!(
            c.p_agrees,
            "{name}: the generator's path count differs from P(v, u)"
        );
        assert!(
            c.min_share > 0.0 && c.mean_share <= 1.0 && c.mean_share >= c.min_share,
            "{c:?}"
        );
        assert_eq!(
            c.pairs,
            if name.starts_with("hypercube:3") {
                56
            } else {
                240
            }
        );
    }
    // One header per hop cannot follow every staircase of a mesh: (0,0) → (2,2) has 6 shortest paths.
    let mesh = asr_coverage("mesh:4x4").unwrap();
    assert!(mesh.mean_share < 1.0 && mesh.full_pairs < 1.0, "{mesh:?}");
}

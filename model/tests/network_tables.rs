//! The network simulator routed by route tables: the route generator's ASR tables and their single-path
//! reduction on the 16-node SP2 board, XY on a mesh, a Beneš from a route-table file; every run checks the
//! simulator's invariants (delivered once, to the right processor, tag intact, drained). A torus with XY and
//! one-packet buffers deadlocks, and the watchdog reports it as an error.

use asr_model::network::engine::Engine;
use asr_model::network::sim::{simulate, SimConfig};
use asr_model::network::NetError;
use asr_model::routes::{generate, Method};
use asr_model::routing::{Routing, TableRouting};
use asr_model::topology::builtin;
use asr_model::traffic::{Injection, Pattern};

fn run(
    net: &str,
    routing: &dyn Routing,
    load: f64,
) -> Result<asr_model::network::sim::SimStats, NetError> {
    let t = builtin(net).unwrap();
    let e = Engine::new(&t).unwrap();
    let mut cfg = SimConfig::new(Injection::geometric(load).unwrap(), Pattern::Uniform, 7);
    cfg.packets_per_input = 200;
    simulate(&e, routing, &cfg)
}

#[test]
fn sp2_board_asr_tables_beat_single_path_tables() {
    let t = builtin("sp2:16").unwrap();
    let tables = generate(&t, Method::Pruned, &|| {}).unwrap();
    let asr = TableRouting::from_tables(&t, &tables, "asr").unwrap();
    let single = asr.single_path("single");
    assert!(
        asr.mean_npath() > 1.5,
        "ASR tables should permit several paths"
    );
    assert_eq!(single.mean_npath(), 1.0);
    let a = run("sp2:16", &asr, 0.7).unwrap();
    let s = run("sp2:16", &single, 0.7).unwrap();
    assert_eq!(a.generated, a.delivered);
    assert_eq!(s.generated, s.delivered);
    // One-packet buffers on a cyclic topology: credits are registered on every channel (docs/simulator.md).
    assert!(
        a.accepted > 1.15 * s.accepted,
        "ASR {} vs single path {}",
        a.accepted,
        s.accepted
    );
}

#[test]
fn mesh_xy_and_benes_route_file() {
    let (g, t) = asr_model::delivery::tables::grid_topology("mesh:4x4").unwrap();
    let el = |v: usize| t.find(&format!("P{v}")).unwrap();
    let xy = asr_model::delivery::tables::dimension_order(&g)
        .into_iter()
        .map(|r| (el(r.src), el(r.dst), r.hops));
    let xy = TableRouting::from_routes(&t, xy, "xy").unwrap();
    let st = run("mesh:4x4", &xy, 0.3).unwrap();
    assert_eq!(st.generated, st.delivered);
    // A Beneš routed by a route-table file (written by the generator, loaded back and validated).
    let b = builtin("benes:8").unwrap();
    let tables = generate(&b, Method::Pruned, &|| {}).unwrap();
    let mut text = Vec::new();
    tables.write(&b, &mut text).unwrap();
    let loaded = asr_model::routes::file::load_routes(
        &b,
        std::str::from_utf8(&text).unwrap(),
        "benes8.routes",
    )
    .unwrap();
    let r = TableRouting::from_loaded(&b, &loaded, "file").unwrap();
    // Self-routes (uniform traffic picks them) go through the whole network.
    assert_eq!(r.max_hops(), 5);
    let st = run("benes:8", &r, 0.4).unwrap();
    assert_eq!(st.generated, st.delivered);
}

#[test]
fn torus_xy_deadlock_is_reported() {
    let (g, t) = asr_model::delivery::tables::grid_topology("torus:4x4").unwrap();
    let el = |v: usize| t.find(&format!("P{v}")).unwrap();
    let xy = asr_model::delivery::tables::dimension_order(&g)
        .into_iter()
        .map(|r| (el(r.src), el(r.dst), r.hops));
    let xy = TableRouting::from_routes(&t, xy, "xy").unwrap();
    match run("torus:4x4", &xy, 0.6) {
        Err(NetError::Deadlock { population, .. }) => assert!(population > 0),
        other => panic!("expected a deadlock, got {other:?}"),
    }
}

#[test]
fn missing_route_is_an_error() {
    let t = builtin("sp2:16").unwrap();
    let tables = generate(&t, Method::Pruned, &|| {}).unwrap();
    let some: Vec<_> = tables
        .routes()
        .skip(1)
        .map(|r| (r.src, r.dst, r.hops))
        .collect();
    assert!(TableRouting::from_routes(&t, some, "partial")
        .unwrap_err()
        .contains("no route"));
}

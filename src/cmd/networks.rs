//! Engines and routings named on the command line, shared by the commands that simulate packet networks
//! (`sim`, `allocators`, `fault-curve`, `sp2-system`): the Beneš and butterfly schemes, route-table routings
//! by name (the model's registry, `asr_model::routing::registry`), route-table files, dimension order and
//! the per-hop policies; and the deadlock-free tables' objective of a `--balance` flag.

use anyhow::{bail, Context, Result};
use asr_model::network::build::{benes_topology, fly_topology};
use asr_model::network::engine::Engine;
use asr_model::routing::registry::{self, Base, TableKind, UnknownTable};
use asr_model::routing::{BenesRouting, FlyRouting, Routing, Scheme};

/// Builds the engine and routing named by `--network` / `--routing`.
pub fn network(spec: &str, routing: &str) -> Result<(Engine, Box<dyn Routing>)> {
    let (kind, arg) = spec
        .split_once(':')
        .with_context(|| format!("network `{spec}`: expected benes:N or fly:K:N"))?;
    match kind {
        "benes" => {
            let size: usize = arg
                .parse()
                .with_context(|| format!("network `{spec}`: `{arg}` is not a number"))?;
            let g = benes_topology(size).with_context(|| format!("network `{spec}`"))?;
            let scheme: Scheme = routing
                .parse()
                .with_context(|| format!("--routing `{routing}` on `{spec}`"))?;
            let n = size.trailing_zeros() as usize;
            Ok((Engine::new(&g.topo)?, Box::new(BenesRouting { n, scheme })))
        }
        "fly" => {
            let parts: Vec<&str> = arg.split([',', ':']).collect();
            let [k, n] = parts[..] else {
                bail!("network `{spec}`: expected fly:K:N (K-ary N-fly)");
            };
            let num = |x: &str| {
                x.parse::<usize>()
                    .with_context(|| format!("network `{spec}`: `{x}` is not a number"))
            };
            let (k, n) = (num(k)?, num(n)?);
            let g = fly_topology(k, n).with_context(|| format!("network `{spec}`"))?;
            if routing != "asr" {
                bail!("--routing `{routing}` on `{spec}`: the butterfly routes by destination tag (leave --routing out)");
            }
            Ok((Engine::new(&g.topo)?, Box::new(FlyRouting { k, n })))
        }
        _ => bail!("network `{spec}`: unknown kind `{kind}` (benes, fly)"),
    }
}

/// The route generator's ASR headers for every processor pair of `topo` (`single_path` reduces them).
pub fn asr_tables(
    topo: &asr_model::topology::Topology,
) -> Result<asr_model::routing::TableRouting> {
    let tables = super::routes::generate_tables(
        topo,
        &format!("{} processors", topo.nodes().len()),
        asr_model::routes::Method::Pruned,
    )?;
    asr_model::routing::TableRouting::from_tables(topo, &tables, "asr").map_err(anyhow::Error::msg)
}

/// The route generator's deadlock-free ASR headers (`routes::deadlock_free`), named `asr-df`; reports the
/// restriction and the acyclicity check on stderr.
pub fn deadlock_free_tables(
    topo: &asr_model::topology::Topology,
    spec: &str,
    objective: asr_model::routes::deadlock_free::Objective,
) -> Result<asr_model::routing::TableRouting> {
    use asr_model::routes::deadlock_free::{generate_deadlock_free, Options};
    let df = generate_deadlock_free(
        topo,
        asr_model::routes::Method::Pruned,
        &Options {
            objective,
            ..Options::default()
        },
    )?;
    let s = df.tables.summary();
    eprintln!(
        "{spec}: deadlock-free tables: restriction {}; channel-dependency graph {} ({} dependencies); adaptivity {:.4}, {} pairs non-minimal",
        df.restriction.describe(),
        if df.cdg.cycle.is_none() { "acyclic" } else { "CYCLIC" },
        df.cdg.edges,
        s.adaptivity_minimal,
        s.nonminimal
    );
    asr_model::routing::TableRouting::from_tables(topo, &df.tables, "asr-df")
        .map_err(anyhow::Error::msg)
}

/// The route-table routings `names` (the model's registry, [`registry::build`]: `asr`, `single`, `asr-df`,
/// `single-df`; `deadlock_free` turns `asr`/`single` into `asr-df`/`single-df`), each base generated once.
pub fn named_tables(
    topo: &asr_model::topology::Topology,
    spec: &str,
    names: &[String],
    deadlock_free: bool,
    objective: asr_model::routes::deadlock_free::Objective,
) -> Result<Vec<asr_model::routing::TableRouting>> {
    registry::build(names, deadlock_free, |base| match base {
        Base::Free => asr_tables(topo),
        Base::DeadlockFree => deadlock_free_tables(topo, spec, objective),
    })
    .map_err(|e| match e.downcast::<UnknownTable>() {
        Ok(u) => anyhow::anyhow!("--routing `{}`: use asr, single, asr-df or single-df", u.0),
        Err(e) => e,
    })
}

/// Builds the engine for a built-in or file topology, routed by a route-table file or by `routing`
/// (asr / single / asr-df / single-df / dor / mp / z2).
pub fn table_network(
    spec: &str,
    routing: &str,
    routes: Option<&std::path::Path>,
    deadlock_free: bool,
    objective: asr_model::routes::deadlock_free::Objective,
) -> Result<(Engine, Box<dyn Routing>)> {
    use asr_model::routing::TableRouting;
    let topo = asr_model::topology::load(spec)?;
    let engine = Engine::new(&topo)?;
    if routes.is_none() && (routing == "mp" || routing == "z2") {
        // Wu's per-hop policies: the switches choose among eligible outputs by the policy's priority.
        let policy = asr_model::delivery::Policy::parse(routing).map_err(anyhow::Error::msg)?;
        let (g, _) =
            asr_model::delivery::tables::grid_topology(spec).map_err(anyhow::Error::msg)?;
        let table = asr_model::delivery::perhop::per_hop_table(&engine, &topo, &g, policy, 0.0, 1);
        let n = engine.processors();
        return Ok((
            engine,
            Box::new(asr_model::routing::PerHopRouting {
                table,
                n,
                name: routing.to_string(),
            }),
        ));
    }
    let table = if let Some(file) = routes {
        routes_file(&topo, file)?
    } else {
        match routing {
            r if TableKind::lookup(r, false).is_ok() => named_tables(
                &topo,
                spec,
                &[routing.to_string()],
                deadlock_free,
                objective,
            )?
            .pop()
            .expect("one routing asked for"),
            "dor" | "xy" | "ecube" => {
                let (g, t) =
                    asr_model::delivery::tables::grid_topology(spec).map_err(anyhow::Error::msg)?;
                let el = |v: usize| t.find(&format!("P{v}")).expect("built-in processor name");
                let routes = asr_model::delivery::tables::dimension_order(&g)
                    .into_iter()
                    .map(|r| (el(r.src), el(r.dst), r.hops));
                TableRouting::from_routes(&t, routes, "dor").map_err(anyhow::Error::msg)?
            }
            other => {
                bail!("--routing `{other}` on `{spec}`: use asr, single, asr-df, single-df, dor, mp, z2, or --routes FILE")
            }
        }
    };
    Ok((engine, Box::new(table)))
}

/// The routing of a route-table file (`asr routes --out`) on `topo`, named `table:FILE`.
pub fn routes_file(
    topo: &asr_model::topology::Topology,
    file: &std::path::Path,
) -> Result<asr_model::routing::TableRouting> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let loaded = asr_model::routes::file::load_routes(topo, &text, &file.display().to_string())?;
    asr_model::routing::TableRouting::from_loaded(
        topo,
        &loaded,
        &format!("table:{}", file.display()),
    )
    .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))
}

/// The deadlock-free tables' objective for a `--balance` flag.
pub fn objective(balance: bool) -> asr_model::routes::deadlock_free::Objective {
    if balance {
        asr_model::routes::deadlock_free::Objective::Balance
    } else {
        asr_model::routes::deadlock_free::Objective::Adaptivity
    }
}

//! One module per subcommand (and `plot`, shared CSV/SVG output).

pub mod all;
pub mod allocators;
pub mod benes_table;
pub mod check;
pub mod cosim;
pub mod fault_curve;
pub mod grid;
pub mod matching;
pub mod merge;
pub mod networks;
pub mod paths;
pub mod plot;
pub mod progress;
pub mod routes;
pub mod routes_cost;
pub mod routes_table;
pub mod shard;
pub mod sim;
pub mod sp2;
pub mod sp2_system;
pub mod sweep;
pub mod topology;
pub mod verilog;
pub mod wave;
pub mod wormhole;
pub mod wormhole_figures;

//! One module per subcommand (and `plot`, shared CSV/SVG output).

pub mod all;
pub mod benes_table;
pub mod matching;
pub mod plot;
pub mod sim;

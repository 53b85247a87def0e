//! One module per subcommand.

pub mod all;
pub mod matching;
pub mod wormhole;
pub mod wormhole_figures;

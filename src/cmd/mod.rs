//! One module per subcommand.

pub mod all;
pub mod matching;
pub mod verilog;
pub mod wave;

//! One module per subcommand.

pub mod all;
pub mod matching;
pub mod routes;
pub mod routes_table;
pub mod topology;

//! One module per subcommand.

pub mod all;
pub mod matching;
pub mod paths;
pub mod routes;
pub mod routes_table;
pub mod sp2;
pub mod topology;

//! Shortest-path routing on meshes, tori and hypercubes (seeds 000/001 and 003): path counts P(v, u),
//! delivery probabilities S(v, u) as exact polynomials for the optimal policy and for given policies
//! (MP, Z², XY / E-cube), the theorems of seed 003, and a Monte-Carlo check of S.

pub mod grid;
pub mod montecarlo;
pub mod perhop;
pub mod policy;
pub mod poly;
pub mod tables;
pub mod theorems;

pub use grid::{Grid, GridKind};
pub use policy::{delivery, Delivery, Policy};
pub use poly::{Poly, Sign};

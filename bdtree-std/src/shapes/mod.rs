//! **Shapes and bases made in code**: procedural meshes with smooth analytic bases (the
//! fixtures are made of them), the chair of the simulation, and local bases (B-spline patches,
//! lattice cages). Imports [`crate::io`] only.
//!
//! | file | what |
//! |---|---|
//! | `procedural.rs` | icosphere, UV sphere, torus, sheet, bar, blob, cable; [`procedural::smooth_basis`] |
//! | `chair.rs` | [`chair::chair_mesh`] and the solid chair's mass properties |
//! | `bspline.rs` | [`bspline::bspline_patch`]: a B-spline surface whose control points are the modes |
//! | `cage.rs` | [`cage::cage_basis`]: a trilinear lattice cage; [`cage::lambda_sphere`] |
//!
//! Every generator is deterministic (seeds go through [`crate::rng::Rng`]): the same arguments
//! give bit-identical meshes on every machine.

pub mod bspline;
pub mod cage;
pub mod chair;
pub mod degenerate;
pub mod procedural;

pub use bspline::{bspline_patch, Patch};
pub use cage::{cage_basis, lambda_sphere, Cage};
pub use chair::chair_mesh;

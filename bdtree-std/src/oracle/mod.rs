//! The independent brute-force oracle: explicit deformation and triangle–triangle tests in f64.
//!
//! Everything the kernel answers is checked against this module, so it shares **no code** with
//! `bdtree-core`: its own deformation ([`deform`], with the scene files' [`Pose`](crate::io::Pose)), its own
//! geometric predicates.
//!
//! # Exactness
//!
//! [`triangles_intersect`] decides every case from the signs of 3×3 and 2×2 determinants of the
//! input coordinates (Guigue–Devillers for two proper triangles, segment–triangle and
//! segment–segment tests for degenerate ones). Each sign is first taken from a plain f64
//! evaluation with a forward error bound (Shewchuk's static filter) and, when the bound cannot
//! decide, recomputed exactly with floating-point expansion arithmetic. The decisions are
//! therefore exact for any finite f64 input whose products neither overflow nor underflow —
//! touching triangles (a shared vertex, an edge lying on a face) are reported as intersecting,
//! triangles 1e-300 apart are not. Non-finite coordinates never intersect anything.
//!
//! [`separation_gap`] is a diagnostic in plain f64 (no exact arithmetic): its value carries
//! rounding errors of a few ulps of the coordinates.
//!
//! | file | what |
//! |---|---|
//! | `deform.rs` | [`deform`]: `R (p + U q) + t` for every vertex; [`crate::io::Scene::world_vertices`] |
//! | `triangles.rs` | [`triangles_intersect`] (exact) and [`separation_gap`] (a diagnostic) |
//! | `predicates.rs` | filtered and exact `orient2d` / `orient3d` (floating-point expansions) |
//! | `distance.rs` | [`triangle_distance`] |
//! | `primitive.rs` | rigid primitives ([`Solid`]: half-space, ball, capsule, box) against triangles: [`brute_force_primitive`] |
//! | `brute.rs` | every pair: [`brute_force_pairs`], [`brute_force_self_pairs`], [`brute_force_distance`] |

mod brute;
mod deform;
mod distance;
mod predicates;
mod primitive;
mod triangles;

pub use brute::{brute_force_distance, brute_force_pairs, brute_force_self_pairs};
pub use deform::deform;
pub use distance::triangle_distance;
pub use primitive::{brute_force_primitive, Solid};
pub use triangles::{separation_gap, triangles_intersect};

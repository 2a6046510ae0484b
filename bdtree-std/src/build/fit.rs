//! **How well a tree's spheres fit the body**, level by level: Bradshaw's fit error and the
//! volume outside the body, measured by sampling (the table of `bdtree inspect` and of
//! `examples/medial_fit.rs`). Closed meshes only: an open surface has no inside
//! ([`NotClosed`]).
//!
//! Per sphere, with a seeded random stream (the same figures every run):
//! * **error**, Bradshaw's: the largest distance from the part of the sphere outside the body
//!   to the surface, estimated over [`SAMPLES`] random points on the sphere (the largest
//!   distance to a body over a ball lies on its boundary) and measured to the nearest of
//!   [`SURFACE_POINTS`] random surface points (an over-estimate by at most their spacing, the
//!   same for every tree of one mesh);
//! * **outside**: the sphere's volume outside the body, from [`SAMPLES`] random points inside
//!   it.
//!
//! A level's row has the mean and the largest error over its spheres, relative to the body's
//! bounding-box diagonal, and the summed outside volume over the body's volume (overlapping
//! spheres count twice: it is the spheres', not their union's).
//!
//! Costs: `O(P log P)` for the surface points, then per sphere `2 × SAMPLES` winding numbers and
//! up to `SAMPLES` nearest-point queries. None of it is a bound: it measures, for choosing a
//! tree and for the book's tables.

use bdtree_core::image::tree::{NodeKind, TreeView};
use bdtree_core::Scalar;

use super::medial::{NotClosed, Solid, SurfacePoints};
use crate::io::Mesh;
use crate::rng::Rng;

/// Random points per sphere, on it (error) and inside it (outside volume).
pub const SAMPLES: usize = 128;

/// Random surface points the distances are measured to.
pub const SURFACE_POINTS: usize = 400_000;

/// One level of the fit table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FitRow {
    /// Depth (root = 0).
    pub level: u32,
    /// Spheres at this depth, plus the leaves above it (the cover of the body at this depth).
    pub spheres: usize,
    /// Mean Bradshaw error over the spheres, over the bounding-box diagonal.
    pub mean_error: f64,
    /// Largest Bradshaw error, over the bounding-box diagonal.
    pub max_error: f64,
    /// Summed volume of the spheres outside the body, over the body's volume.
    pub outside: f64,
}

/// The nodes of a tree's cover at each depth in `levels`: its nodes at that depth and its
/// leaves above it (every triangle under exactly one of them).
pub fn level_cover<S: Scalar>(
    tree: &TreeView<'_, S>,
    levels: impl IntoIterator<Item = u32>,
) -> Vec<(u32, Vec<usize>)> {
    levels
        .into_iter()
        .map(|level| {
            let nodes = (0..tree.node_count())
                .filter(|&k| {
                    tree.node_depth(k).is_some_and(|d| {
                        d == level
                            || (d < level && matches!(tree.kind(k), Some(NodeKind::Leaf { .. })))
                    })
                })
                .collect();
            (level, nodes)
        })
        .collect()
}

/// The exact (rest) spheres `[x, y, z, r]` of a tree's cover at each depth in `levels`
/// ([`level_cover`]).
pub fn level_spheres<S: Scalar>(
    tree: &TreeView<'_, S>,
    levels: impl IntoIterator<Item = u32>,
) -> Vec<(u32, Vec<[f64; 4]>)> {
    level_cover(tree, levels)
        .into_iter()
        .map(|(level, nodes)| {
            let spheres = nodes
                .into_iter()
                .filter_map(|k| tree.rest_sphere(k))
                .map(|s| s.map(S::to_f64))
                .collect();
            (level, spheres)
        })
        .collect()
}

/// The body's signed volume (positive for outward-facing triangles).
pub fn volume(mesh: &Mesh) -> f64 {
    mesh.triangles
        .iter()
        .map(|f| {
            let [a, b, c] = f.map(|v| mesh.vertices[v as usize]);
            (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0]))
                / 6.0
        })
        .sum()
}

/// A closed mesh as the fit measures it: its solid and its surface points. Build it once to
/// measure several trees of one mesh ([`Fit::rows`]).
pub struct Fit {
    solid: Solid,
    surface: SurfacePoints,
    volume: f64,
    diagonal: f64,
}

impl Fit {
    /// The fit measure of a closed mesh; refuses a mesh that is not closed.
    pub fn new(mesh: &Mesh) -> Result<Fit, NotClosed> {
        let solid = Solid::new(mesh)?;
        let (lo, hi) = solid.bounds();
        let diagonal = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
        Ok(Fit {
            surface: SurfacePoints::new(mesh, SURFACE_POINTS, 7),
            solid,
            volume: volume(mesh).abs(),
            diagonal,
        })
    }

    /// One row per level of `levels` ([`level_spheres`]), in their order, all from one random
    /// stream (seed 59).
    pub fn rows(&self, levels: &[(u32, Vec<[f64; 4]>)]) -> Vec<FitRow> {
        let mut rng = Rng::new(59);
        levels
            .iter()
            .map(|(level, spheres)| {
                let (mut sum, mut max, mut outside) = (0.0, 0.0f64, 0.0);
                for &[x, y, z, r] in spheres {
                    let c = [x, y, z];
                    let mut error = 0.0f64;
                    let mut out = 0;
                    for _ in 0..SAMPLES {
                        let d = rng.unit_vector();
                        let p = [0, 1, 2].map(|i| c[i] + r * d[i]);
                        if !self.solid.contains(p) {
                            error = error.max(self.surface.distance(p));
                        }
                        let s = r * rng.unit().cbrt();
                        let d = rng.unit_vector();
                        if !self.solid.contains([0, 1, 2].map(|i| c[i] + s * d[i])) {
                            out += 1;
                        }
                    }
                    sum += error;
                    max = max.max(error);
                    outside += 4.0 / 3.0 * std::f64::consts::PI * r.powi(3) * f64::from(out)
                        / SAMPLES as f64;
                }
                let n = spheres.len().max(1) as f64;
                FitRow {
                    level: *level,
                    spheres: spheres.len(),
                    mean_error: sum / n / self.diagonal,
                    max_error: max / self.diagonal,
                    outside: outside / self.volume,
                }
            })
            .collect()
    }
}

/// The fit table of a tree of a closed mesh at `levels` ([`Fit::rows`] of [`level_spheres`]).
pub fn fit_rows<S: Scalar>(
    mesh: &Mesh,
    tree: &TreeView<'_, S>,
    levels: impl IntoIterator<Item = u32>,
) -> Result<Vec<FitRow>, NotClosed> {
    Ok(Fit::new(mesh)?.rows(&level_spheres(tree, levels)))
}

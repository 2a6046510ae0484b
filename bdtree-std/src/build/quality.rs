//! Zero-area triangles: counting them in a mesh, and meshes that carry them on purpose.
//!
//! Real meshes hold triangles without area — marching-cubes and scan output (collapsed faces
//! and slivers), CAD and STL exports, UV spheres whose poles are rings of coincident vertices,
//! seams welded by duplicating vertices. The loaders keep them (they are valid geometry: a
//! point or a segment), the kernel's leaf test answers them exactly
//! ([`bdtree_core::geometry::triangle`]), and `bdtree build` and `bdtree inspect` say how many a mesh
//! holds ([`counts`], [`Counts::summary`]).
//!
//! The classes, from the rest positions in f64:
//!
//! * **point**: three coincident vertices (bitwise equal positions, whatever the indices);
//! * **segment**: not a point, and collinear up to the resolution of its coordinates: its
//!   height over the longest edge is at most `16u w` (`u = 2⁻⁵³`, `w` the largest coordinate
//!   magnitude of its vertices) — a vertex at the rounded midpoint of the other two is one;
//! * **sliver**: a real area, but a height over the longest edge below
//!   [`SLIVER_RATIO`] of that edge.
//!
//! The generators (`shapes::degenerate`: `pole_sphere`, `collapsed_soup`) make test and
//! fixture meshes with all three classes.

use crate::io::mesh::Mesh;
use crate::vec3::{cross, dot, sub};

/// A triangle whose height over its longest edge is below this fraction of that edge (and
/// that is not a segment or a point) counts as a sliver.
pub const SLIVER_RATIO: f64 = 1e-6;

/// How many triangles of a mesh have no area, or nearly none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Three coincident vertices.
    pub points: usize,
    /// Collinear vertices (up to rounding), not all coincident.
    pub segments: usize,
    /// Height below [`SLIVER_RATIO`] of the longest edge.
    pub slivers: usize,
}

impl Counts {
    /// Point and segment triangles: the zero-area ones.
    pub fn zero_area(&self) -> usize {
        self.points + self.segments
    }

    /// One line for a summary, e.g. `"12 zero-area triangles (4 points, 8 segments), 3 slivers"`,
    /// or `None` when the mesh has none of the three.
    pub fn summary(&self) -> Option<String> {
        if *self == Counts::default() {
            return None;
        }
        let mut s = format!(
            "{} zero-area triangles ({} points, {} segments)",
            self.zero_area(),
            self.points,
            self.segments
        );
        if self.slivers > 0 {
            s.push_str(&format!(", {} slivers", self.slivers));
        }
        Some(s)
    }
}

/// The class of one triangle given its three positions.
pub fn classify(t: &[[f64; 3]; 3]) -> Option<Class> {
    let [a, b, c] = *t;
    if a == b && b == c {
        return Some(Class::Point);
    }
    let (ab, ac, bc) = (sub(b, a), sub(c, a), sub(c, b));
    let n = cross(ab, ac);
    let area2 = dot(n, n).sqrt();
    let longest = dot(ab, ab).max(dot(ac, ac)).max(dot(bc, bc)).sqrt();
    let w = t.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    // Height over the longest edge (twice the area over it), against the coordinates' ulps.
    let height = area2 / longest;
    if height <= 16.0 * (f64::EPSILON / 2.0) * w {
        return Some(Class::Segment);
    }
    (height < SLIVER_RATIO * longest).then_some(Class::Sliver)
}

/// What [`classify`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Three coincident vertices.
    Point,
    /// Collinear up to rounding.
    Segment,
    /// A height below [`SLIVER_RATIO`] of the longest edge.
    Sliver,
}

/// Counts the point, segment and sliver triangles of `positions` indexed by `triangles`
/// (triangles with an index out of range are skipped). One pass, ~30 flops per triangle.
pub fn count(positions: &[[f64; 3]], triangles: &[[u32; 3]]) -> Counts {
    let mut out = Counts::default();
    for t in triangles {
        let Some(p) = corners(positions, t) else {
            continue;
        };
        match classify(&p) {
            Some(Class::Point) => out.points += 1,
            Some(Class::Segment) => out.segments += 1,
            Some(Class::Sliver) => out.slivers += 1,
            None => {}
        }
    }
    out
}

/// [`count`] on a mesh.
pub fn counts(mesh: &Mesh) -> Counts {
    count(&mesh.vertices, &mesh.triangles)
}

/// [`count`] on the rest mesh an image stores (widened to f64; 16-bit meshes as decoded).
/// Bounded images hold no mesh: all zero.
pub fn image_counts<S: bdtree_core::Scalar>(image: &bdtree_core::Image<'_, S>) -> Counts {
    let model = &image.model;
    let positions: Vec<[f64; 3]> = (0..model.vertex_count())
        .map_while(|i| model.position(i))
        .map(|p| p.map(|x| x.to_f64()))
        .collect();
    count(&positions, model.triangles())
}

fn corners(positions: &[[f64; 3]], t: &[u32; 3]) -> Option<[[f64; 3]; 3]> {
    Some([
        *positions.get(t[0] as usize)?,
        *positions.get(t[1] as usize)?,
        *positions.get(t[2] as usize)?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let p = [0.3, 0.1, -0.2];
        type Case = (&'static str, [[f64; 3]; 3], Option<Class>);
        let cases: [Case; 5] = [
            ("point", [p, p, p], Some(Class::Point)),
            (
                "duplicated vertex",
                [p, p, [1.0, 2.0, 3.0]],
                Some(Class::Segment),
            ),
            (
                "midpoint",
                [[0.0; 3], [0.5, 0.5, 0.5], [1.0; 3]],
                Some(Class::Segment),
            ),
            (
                "sliver",
                [[0.0; 3], [1.0, 0.0, 0.0], [0.5, 1e-9, 0.0]],
                Some(Class::Sliver),
            ),
            (
                "ordinary",
                [[0.0; 3], [1.0, 0.0, 0.0], [0.5, 0.1, 0.0]],
                None,
            ),
        ];
        for (name, t, want) in cases {
            assert_eq!(classify(&t), want, "{name}");
        }
    }
}

//! Zero-area triangles: counting them in a mesh, and meshes that carry them on purpose.
//!
//! Real meshes hold triangles without area — marching-cubes and scan output (collapsed faces
//! and slivers), CAD and STL exports, UV spheres whose poles are rings of coincident vertices,
//! seams welded by duplicating vertices. The loaders keep them (they are valid geometry: a
//! point or a segment), the kernel's leaf test answers them exactly
//! ([`bdtree_core::triangle`]), and `bdtree build` and `bdtree inspect` say how many a mesh
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
//! The generators ([`pole_sphere`], [`collapsed_soup`]) make test and fixture meshes with all
//! three classes.

use std::f64::consts::PI;

use crate::mesh::Mesh;
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

/// A UV sphere as exporters write it: each pole is a ring of `slices + 1` coincident vertices
/// (one per texture seam column, the last duplicating the first), so every pole triangle
/// `(pole_j, pole_{j+1}, ring_j)` is a **segment triangle**, and the seam column is welded by
/// duplicated vertices. `stacks ≥ 2` bands, `slices ≥ 3` around the z axis; closed up to the
/// seam, outward winding. `2·slices·(stacks − 1) + 2·slices` triangles, of which `2·slices`
/// are segments (plus, with `stacks = 2`, none ordinary at the poles).
pub fn pole_sphere(radius: f64, stacks: u32, slices: u32) -> Mesh {
    let stacks = stacks.max(2);
    let slices = slices.max(3);
    let columns = slices + 1;
    let mut vertices = Vec::new();
    for i in 0..=stacks {
        let theta = PI * f64::from(i) / f64::from(stacks);
        let (rho, z) = (radius * theta.sin(), radius * theta.cos());
        for j in 0..columns {
            // The poles have rho = sin(0) = 0 and sin(π) ≈ 1.2e-16: snap them to the axis so
            // every pole vertex is bitwise the same point.
            let phi = 2.0 * PI * f64::from(j % slices) / f64::from(slices);
            let (x, y) = if i == 0 || i == stacks {
                (0.0, 0.0)
            } else {
                (rho * phi.cos(), rho * phi.sin())
            };
            vertices.push([x, y, if i == stacks { -radius } else { z }]);
        }
    }
    let at = |i: u32, j: u32| i * columns + j;
    let mut triangles = Vec::new();
    for i in 0..stacks {
        for j in 0..slices {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// A soup of `count` small separate triangles (about `size` across) in the cube
/// `[-half, half]³`, from a seed: a third **point triangles** (three vertices at one
/// position), a third **segment triangles** (a vertex at the rounded midpoint of the other
/// two, or a duplicated vertex), the rest ordinary triangles and **slivers** (a third vertex at
/// `10⁻³…10⁻¹⁵` of the edge from it). Every triangle has its own three vertices (no sharing), so
/// self-collision tests every pair.
pub fn collapsed_soup(count: usize, half: f64, size: f64, seed: u64) -> Mesh {
    let mut rng = SplitMix(seed);
    let mut vertices = Vec::with_capacity(3 * count);
    let mut triangles = Vec::with_capacity(count);
    for k in 0..count {
        let center = [0, 1, 2].map(|_| rng.uniform(-half, half));
        let corner =
            |rng: &mut SplitMix| [0, 1, 2].map(|i| center[i] + rng.uniform(-size, size) / 2.0);
        let (a, b) = (corner(&mut rng), corner(&mut rng));
        let t = match k % 6 {
            0 | 1 => [a, a, a],
            2 => [a, [0, 1, 2].map(|i| 0.5 * (a[i] + b[i])), b],
            3 => [a, b, b],
            4 => {
                let scale = 10f64.powf(-rng.uniform(3.0, 15.0));
                let mid = [0, 1, 2].map(|i| 0.5 * (a[i] + b[i]));
                let off = corner(&mut rng);
                [
                    a,
                    b,
                    [0, 1, 2].map(|i| mid[i] + scale * (off[i] - center[i])),
                ]
            }
            _ => [a, b, corner(&mut rng)],
        };
        let base = vertices.len() as u32;
        vertices.extend_from_slice(&t);
        triangles.push([base, base + 1, base + 2]);
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// SplitMix64, for the soup.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let p = [0.3, 0.1, -0.2];
        let cases: [(&str, [[f64; 3]; 3], Option<Class>); 5] = [
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

    #[test]
    fn pole_sphere_has_segment_triangles_at_its_poles() {
        let mesh = pole_sphere(1.0, 8, 12);
        let c = counts(&mesh);
        assert_eq!(c.segments, 2 * 12);
        assert_eq!(c.points, 0);
        assert!(mesh.validate(std::path::Path::new("pole")).is_ok());
    }

    #[test]
    fn soup_has_every_class() {
        let mesh = collapsed_soup(600, 0.5, 0.1, 23);
        let c = counts(&mesh);
        assert_eq!(c.points, 200);
        assert!(c.segments >= 150, "{c:?}");
        assert!(c.slivers >= 50, "{c:?}");
        assert_eq!(
            c.summary().expect("some"),
            format!(
                "{} zero-area triangles (200 points, {} segments), {} slivers",
                200 + c.segments,
                c.segments,
                c.slivers
            )
        );
        assert_eq!(Counts::default().summary(), None);
    }
}

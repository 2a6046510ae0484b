//! Meshes that carry zero-area triangles on purpose (issue 23): a UV sphere with pole rings of
//! coincident vertices, and a soup of collapsed faces. [`crate::build::quality`] counts them.

use std::f64::consts::PI;

use crate::io::Mesh;
use crate::rng::Rng;
use crate::shapes::procedural::quads;

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
    let triangles = quads(0..stacks, slices, at).collect();
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
    let mut rng = Rng::new(seed);
    let mut vertices = Vec::with_capacity(3 * count);
    let mut triangles = Vec::with_capacity(count);
    for k in 0..count {
        let center = [0, 1, 2].map(|_| rng.uniform(-half, half));
        let corner = |rng: &mut Rng| [0, 1, 2].map(|i| center[i] + rng.uniform(-size, size) / 2.0);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::quality::{counts, Counts};

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

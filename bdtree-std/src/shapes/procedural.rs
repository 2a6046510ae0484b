//! Procedural fixture geometry and smooth analytic displacement bases.
//!
//! Every generator is deterministic (no global RNG, no hashing of addresses): the same arguments
//! give bit-identical meshes on every machine, which the committed fixtures rely on. Closed
//! meshes share their vertices (every edge belongs to exactly two triangles) and are wound
//! counter-clockwise seen from outside, so the right-handed triangle normals point outward.
//! Degenerate arguments (too few subdivisions, segments, stacks…) are raised to the smallest
//! value that still gives a valid mesh.

use core::f64::consts::PI;
use std::collections::HashMap;

use crate::io::{Basis, Mesh};
use crate::rng::Rng;
use crate::vec3::{bounding_box, dot, norm};

/// A sphere of `radius` made by subdividing an icosahedron `subdivisions` times, every vertex
/// projected onto the sphere.
///
/// `10·4^s + 2` vertices and `20·4^s` triangles of nearly equal size; closed, outward winding.
pub fn icosphere(radius: f64, subdivisions: u32) -> Mesh {
    let t = (1.0 + 5f64.sqrt()) / 2.0;
    let mut vertices: Vec<[f64; 3]> = [
        [-1.0, t, 0.0],
        [1.0, t, 0.0],
        [-1.0, -t, 0.0],
        [1.0, -t, 0.0],
        [0.0, -1.0, t],
        [0.0, 1.0, t],
        [0.0, -1.0, -t],
        [0.0, 1.0, -t],
        [t, 0.0, -1.0],
        [t, 0.0, 1.0],
        [-t, 0.0, -1.0],
        [-t, 0.0, 1.0],
    ]
    .iter()
    .map(|&p| normalized(p))
    .collect();
    let mut triangles: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..subdivisions {
        let mut midpoints: HashMap<(u32, u32), u32> = HashMap::new();
        let mut midpoint = |a: u32, b: u32, vertices: &mut Vec<[f64; 3]>| -> u32 {
            let key = (a.min(b), a.max(b));
            *midpoints.entry(key).or_insert_with(|| {
                let (p, q) = (vertices[a as usize], vertices[b as usize]);
                vertices.push(normalized([p[0] + q[0], p[1] + q[1], p[2] + q[2]]));
                (vertices.len() - 1) as u32
            })
        };
        let mut next = Vec::with_capacity(triangles.len() * 4);
        for &[a, b, c] in &triangles {
            let ab = midpoint(a, b, &mut vertices);
            let bc = midpoint(b, c, &mut vertices);
            let ca = midpoint(c, a, &mut vertices);
            next.extend_from_slice(&[[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        triangles = next;
    }
    for v in &mut vertices {
        *v = v.map(|c| c * radius);
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// A latitude–longitude sphere of `radius` around the z axis: `stacks` bands (at least 2)
/// between the poles, `slices` segments (at least 3) around.
///
/// `(stacks − 1)·slices + 2` vertices (the poles are single shared vertices) and
/// `2·slices·(stacks − 1)` triangles; closed, outward winding. Triangles near the poles are thin
/// slivers — useful for testing elongated geometry.
pub fn uv_sphere(radius: f64, stacks: u32, slices: u32) -> Mesh {
    let stacks = stacks.max(2);
    let slices = slices.max(3);
    let mut vertices = vec![[0.0, 0.0, radius]];
    for i in 1..stacks {
        let theta = PI * f64::from(i) / f64::from(stacks);
        let (rho, z) = (radius * theta.sin(), radius * theta.cos());
        for j in 0..slices {
            let phi = 2.0 * PI * f64::from(j) / f64::from(slices);
            vertices.push([rho * phi.cos(), rho * phi.sin(), z]);
        }
    }
    vertices.push([0.0, 0.0, -radius]);
    let south = (vertices.len() - 1) as u32;
    let ring = |i: u32, j: u32| 1 + (i - 1) * slices + j % slices;
    let mut triangles = Vec::with_capacity((2 * slices * (stacks - 1)) as usize);
    for j in 0..slices {
        triangles.push([0, ring(1, j), ring(1, j + 1)]);
    }
    triangles.extend(quads(1..stacks - 1, slices, ring));
    for j in 0..slices {
        triangles.push([south, ring(stacks - 1, j + 1), ring(stacks - 1, j)]);
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// The two triangles `a b c` and `a c d` of each quad of a grid, `a = at(i, j)`,
/// `b = at(i + 1, j)`, `c = at(i + 1, j + 1)`, `d = at(i, j + 1)`, for `i` in `rows` (outer)
/// and `j` in `0..columns`.
pub(crate) fn quads(
    rows: core::ops::Range<u32>,
    columns: u32,
    at: impl Fn(u32, u32) -> u32,
) -> impl Iterator<Item = [u32; 3]> {
    rows.flat_map(move |i| (0..columns).map(move |j| (i, j)))
        .flat_map(move |(i, j)| {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            [[a, b, c], [a, c, d]]
        })
}

/// A torus around the z axis: tube center circle of radius `major`, tube radius `minor`
/// (`minor < major` for a non-self-intersecting surface), `nu` segments (at least 3) around the
/// z axis and `nv` (at least 3) around the tube.
///
/// `nu·nv` vertices, `2·nu·nv` triangles; closed (genus 1), outward winding.
pub fn torus(major: f64, minor: f64, nu: u32, nv: u32) -> Mesh {
    let nu = nu.max(3);
    let nv = nv.max(3);
    let mut vertices = Vec::with_capacity((nu * nv) as usize);
    for i in 0..nu {
        let u = 2.0 * PI * f64::from(i) / f64::from(nu);
        for j in 0..nv {
            let v = 2.0 * PI * f64::from(j) / f64::from(nv);
            let rho = major + minor * v.cos();
            vertices.push([rho * u.cos(), rho * u.sin(), minor * v.sin()]);
        }
    }
    let idx = |i: u32, j: u32| (i % nu) * nv + j % nv;
    let mut triangles = Vec::with_capacity((2 * nu * nv) as usize);
    triangles.extend(quads(0..nu, nv, idx));
    Mesh {
        vertices,
        triangles,
    }
}

/// A flat sheet `width × height` in the z = 0 plane, centered at the origin: a single layer of
/// `2·nx·ny` triangles on an `(nx + 1) × (ny + 1)` vertex grid (`nx`, `ny` at least 1), normals
/// along +z. Open (it has a boundary), infinitely thin.
pub fn sheet(width: f64, height: f64, nx: u32, ny: u32) -> Mesh {
    let nx = nx.max(1);
    let ny = ny.max(1);
    let mut vertices = Vec::with_capacity(((nx + 1) * (ny + 1)) as usize);
    for j in 0..=ny {
        let y = height * (f64::from(j) / f64::from(ny) - 0.5);
        for i in 0..=nx {
            let x = width * (f64::from(i) / f64::from(nx) - 0.5);
            vertices.push([x, y, 0.0]);
        }
    }
    let idx = |i: u32, j: u32| j * (nx + 1) + i;
    let mut triangles = Vec::with_capacity((2 * nx * ny) as usize);
    for j in 0..ny {
        for i in 0..nx {
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// A long box along x: `length` in x (from `−length/2` to `length/2`), a `width × width` square
/// cross-section, split into `segments` (at least 1) slabs along x with no interior vertices on
/// the side faces.
///
/// `4·(segments + 1)` vertices, `8·segments + 4` triangles; closed, outward winding. With
/// `length / segments ≫ width` the side triangles are long slivers.
pub fn bar(length: f64, width: f64, segments: u32) -> Mesh {
    let segments = segments.max(1);
    let h = 0.5 * width;
    // Corners counter-clockwise seen from +x.
    let corners = [[-h, -h], [h, -h], [h, h], [-h, h]];
    let mut vertices = Vec::with_capacity(4 * (segments as usize + 1));
    for s in 0..=segments {
        let x = length * (f64::from(s) / f64::from(segments) - 0.5);
        for [y, z] in corners {
            vertices.push([x, y, z]);
        }
    }
    let idx = |s: u32, c: u32| 4 * s + c % 4;
    let mut triangles = Vec::with_capacity(8 * segments as usize + 4);
    for s in 0..segments {
        for c in 0..4 {
            let (a, b, d, e) = (idx(s, c), idx(s, c + 1), idx(s + 1, c + 1), idx(s + 1, c));
            triangles.push([a, b, d]);
            triangles.push([a, d, e]);
        }
    }
    // The −x cap faces −x, the +x cap faces +x.
    triangles.push([idx(0, 0), idx(0, 2), idx(0, 1)]);
    triangles.push([idx(0, 0), idx(0, 3), idx(0, 2)]);
    let last = segments;
    triangles.push([idx(last, 0), idx(last, 1), idx(last, 2)]);
    triangles.push([idx(last, 0), idx(last, 2), idx(last, 3)]);
    Mesh {
        vertices,
        triangles,
    }
}

/// A cable: a round tube of `radius` along a gentle S-curve of `length` in x (the centre line
/// `(x, 0.1·length·sin(2πx/length), 0)`), `rings` rings of `sides` vertices (at least 3 each)
/// and a flat cap at each end fanned from a centre vertex.
///
/// `rings·sides + 2` vertices, `2·sides·(rings − 1) + 2·sides` triangles; closed, outward
/// winding. The slender part of the fit figures (a finger or a cable).
pub fn cable(length: f64, radius: f64, rings: u32, sides: u32) -> Mesh {
    let (rings, sides) = (rings.max(2), sides.max(3));
    let tau = 2.0 * std::f64::consts::PI;
    let centre = |s: f64| {
        let x = length * (s - 0.5);
        [x, 0.1 * length * (tau * s).sin(), 0.0]
    };
    let mut vertices = Vec::with_capacity((rings * sides + 2) as usize);
    for i in 0..rings {
        let s = f64::from(i) / f64::from(rings - 1);
        let c = centre(s);
        // The curve's unit tangent in the xy-plane, its normal in the plane and z.
        let slope = 0.1 * tau * (tau * s).cos();
        let norm = (1.0 + slope * slope).sqrt();
        let (tx, ty) = (1.0 / norm, slope / norm);
        for k in 0..sides {
            let a = tau * f64::from(k) / f64::from(sides);
            let (u, w) = (radius * a.cos(), radius * a.sin());
            vertices.push([c[0] - ty * u, c[1] + tx * u, w]);
        }
    }
    let (start, end) = (vertices.len() as u32, vertices.len() as u32 + 1);
    vertices.push(centre(0.0));
    vertices.push(centre(1.0));
    let idx = |i: u32, k: u32| i * sides + k % sides;
    let mut triangles = Vec::with_capacity((2 * sides * rings) as usize);
    for i in 0..rings - 1 {
        for k in 0..sides {
            let (a, b, c, d) = (idx(i, k), idx(i, k + 1), idx(i + 1, k + 1), idx(i + 1, k));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    for k in 0..sides {
        triangles.push([start, idx(0, k + 1), idx(0, k)]);
        triangles.push([end, idx(rings - 1, k), idx(rings - 1, k + 1)]);
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// An [`icosphere`] of `radius` pushed outward by `bumps` smooth radial bumps at directions,
/// heights (15–35 % of the radius) and widths drawn from `seed`.
///
/// The surface stays star-shaped around the origin (every radius is at least `radius`), so it
/// stays closed, free of self-intersections and outward wound. Same counts as the icosphere.
pub fn blob(radius: f64, subdivisions: u32, bumps: u32, seed: u64) -> Mesh {
    let mut rng = Rng::new(seed);
    let bumps: Vec<([f64; 3], f64, f64)> = (0..bumps)
        .map(|_| {
            let center = rng.unit_vector();
            let height = 0.15 + 0.2 * rng.unit();
            let sharpness = 3.0 + 5.0 * rng.unit();
            (center, height, sharpness)
        })
        .collect();
    let mut mesh = icosphere(1.0, subdivisions);
    for v in &mut mesh.vertices {
        let dir = *v;
        let lift: f64 = bumps
            .iter()
            .map(|&(c, a, k)| a * (k * (dot(dir, c) - 1.0)).exp())
            .sum();
        *v = dir.map(|x| x * radius * (1.0 + lift));
    }
    mesh
}

/// Smooth analytic displacement fields at the rest `vertices`, as an `N × modes` basis.
///
/// Coordinates are first normalised to `u = (p − c) / h` (box center `c`, largest box
/// half-extent `h`). The modes, in order, are low-order polynomial fields — for each axis x,
/// y, z in turn: two bendings (`u_b²` across it), a twist about it, a bulge across it and a
/// stretch along it — followed by sinusoids `sin(π f u_b + φ)` of rising frequency `f`.
/// A field that vanishes on every vertex (a bending across z on a flat sheet, say) is skipped,
/// so every returned mode moves the mesh. Each mode is scaled so that its largest vertex
/// displacement (Euclidean length of the 3-vector `U_ij`) is exactly `amplitude` (up to one
/// rounding). Deterministic; `O(N · modes)`.
pub fn smooth_basis(vertices: &[[f64; 3]], modes: usize, amplitude: f64) -> Basis {
    let n = vertices.len();
    let mut data = vec![0.0; 3 * n * modes];
    if n == 0 || modes == 0 {
        return Basis {
            vertices: n,
            modes,
            data,
        };
    }
    let (lo, hi) = bounding_box(vertices.iter().copied());
    let center = [0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k]));
    let half = (0..3).map(|k| 0.5 * (hi[k] - lo[k])).fold(0.0, f64::max);
    let half = if half > 0.0 && half.is_finite() {
        half
    } else {
        1.0
    };
    let u: Vec<[f64; 3]> = vertices
        .iter()
        .map(|p| [0, 1, 2].map(|k| (p[k] - center[k]) / half))
        .collect();

    /// Fields smaller than this (in normalised units, where fields are O(1)) count as zero.
    const ZERO_FIELD: f64 = 1e-9;
    let mut column = 0;
    let mut field = Vec::with_capacity(n);
    // The sinusoids never vanish everywhere for long, so the bound is never reached in practice.
    for generator in 0..POLYNOMIAL_FIELDS + 16 * modes + 64 {
        if column == modes {
            break;
        }
        field.clear();
        field.extend(u.iter().map(|&x| analytic_field(generator, x)));
        let largest = field.iter().map(|&d| norm(d)).fold(0.0, f64::max);
        if !(largest.is_finite() && largest > ZERO_FIELD) {
            continue;
        }
        let scale = amplitude / largest;
        for (i, d) in field.iter().enumerate() {
            for k in 0..3 {
                data[(3 * i + k) * modes + column] = d[k] * scale;
            }
        }
        column += 1;
    }
    Basis {
        vertices: n,
        modes,
        data,
    }
}

/// Number of polynomial fields before the sinusoids in [`analytic_field`].
const POLYNOMIAL_FIELDS: usize = 15;

/// Field number `g` at normalised coordinates `u`.
fn analytic_field(g: usize, u: [f64; 3]) -> [f64; 3] {
    if g < POLYNOMIAL_FIELDS {
        let axis = g / 5;
        let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
        let mut d = [0.0; 3];
        match g % 5 {
            // Bend the `b` coordinate along `axis` …
            0 => d[b] = u[axis] * u[axis],
            // … and the `c` coordinate.
            1 => d[c] = u[axis] * u[axis],
            // Twist about `axis`: rotate the cross-section by an angle proportional to u_axis.
            2 => {
                d[b] = -u[c] * u[axis];
                d[c] = u[b] * u[axis];
            }
            // Bulge the cross-section, most at the middle of `axis`.
            3 => {
                let w = 1.0 - u[axis] * u[axis];
                d[b] = u[b] * w;
                d[c] = u[c] * w;
            }
            // Stretch along `axis`.
            _ => d[axis] = u[axis],
        }
        return d;
    }
    let k = g - POLYNOMIAL_FIELDS;
    let (component, along) = (k % 3, (k / 3) % 3);
    let frequency = 1.0 + (k / 9) as f64;
    let phase = 0.3 + 0.7 * k as f64;
    let mut d = [0.0; 3];
    d[component] = (PI * frequency * u[along] + phase).sin();
    d
}

/// Moves every vertex of `mesh` by `t`.
pub fn translate(mesh: &mut Mesh, t: [f64; 3]) {
    for v in &mut mesh.vertices {
        *v = [v[0] + t[0], v[1] + t[1], v[2] + t[2]];
    }
}

fn normalized(p: [f64; 3]) -> [f64; 3] {
    let n = norm(p);
    p.map(|c| c / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vec3::{cross, sub};

    /// Relative tolerance of the amplitude check (one rounding of the scaling).
    const AMPLITUDE_TOLERANCE: f64 = 1e-12;

    fn normal(mesh: &Mesh, t: &[u32; 3]) -> [f64; 3] {
        let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
        cross(sub(b, a), sub(c, a))
    }

    /// Every directed edge appears exactly once and its reverse exactly once: closed, manifold
    /// along edges, consistently wound.
    fn assert_closed(mesh: &Mesh, name: &str) {
        let mut directed: HashMap<(u32, u32), usize> = HashMap::new();
        for t in &mesh.triangles {
            for i in 0..3 {
                *directed.entry((t[i], t[(i + 1) % 3])).or_default() += 1;
            }
        }
        for (&(a, b), &count) in &directed {
            assert_eq!(count, 1, "{name}: directed edge {a}→{b} used {count} times");
            assert_eq!(
                directed.get(&(b, a)),
                Some(&1),
                "{name}: edge {a}–{b} is not shared by exactly two triangles"
            );
        }
    }

    fn signed_volume(mesh: &Mesh) -> f64 {
        mesh.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
                dot(a, cross(b, c)) / 6.0
            })
            .sum()
    }

    fn assert_no_degenerate(mesh: &Mesh, min_double_area: f64, name: &str) {
        for (i, t) in mesh.triangles.iter().enumerate() {
            let area2 = norm(normal(mesh, t));
            assert!(
                area2 > min_double_area,
                "{name}: triangle {i} has doubled area {area2}"
            );
            assert!(
                t[0] != t[1] && t[1] != t[2] && t[0] != t[2],
                "{name}: triangle {i} repeats a vertex"
            );
        }
        assert!(mesh
            .triangles
            .iter()
            .flatten()
            .all(|&i| (i as usize) < mesh.vertices.len()));
    }

    /// Star-shaped around the origin: every triangle's cone from the origin has positive volume.
    fn assert_outward_from_origin(mesh: &Mesh, name: &str) {
        for (i, t) in mesh.triangles.iter().enumerate() {
            let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
            assert!(
                dot(a, cross(b, c)) > 0.0,
                "{name}: triangle {i} is wound inward"
            );
        }
    }

    #[test]
    fn icosphere_counts_and_shape() {
        for s in 0..4 {
            let m = icosphere(2.0, s);
            let f = 4usize.pow(s);
            assert_eq!(m.vertices.len(), 10 * f + 2);
            assert_eq!(m.triangles.len(), 20 * f);
            assert_closed(&m, "icosphere");
            assert_outward_from_origin(&m, "icosphere");
            assert_no_degenerate(&m, 1e-6, "icosphere");
            assert!(m.vertices.iter().all(|&v| (norm(v) - 2.0).abs() < 1e-12));
        }
        let v = signed_volume(&icosphere(1.0, 4));
        assert!(
            v > 0.99 * 4.0 / 3.0 * PI && v < 4.0 / 3.0 * PI,
            "volume {v}"
        );
    }

    #[test]
    fn uv_sphere_counts_and_shape() {
        for (stacks, slices) in [(2, 3), (3, 4), (8, 16), (1, 1)] {
            let m = uv_sphere(1.5, stacks, slices);
            let (st, sl) = (stacks.max(2) as usize, slices.max(3) as usize);
            assert_eq!(m.vertices.len(), (st - 1) * sl + 2);
            assert_eq!(m.triangles.len(), 2 * sl * (st - 1));
            assert_closed(&m, "uv_sphere");
            assert_outward_from_origin(&m, "uv_sphere");
            assert_no_degenerate(&m, 1e-6, "uv_sphere");
        }
        assert!(signed_volume(&uv_sphere(1.0, 32, 64)) > 0.98 * 4.0 / 3.0 * PI);
    }

    #[test]
    fn torus_counts_and_shape() {
        let (major, minor) = (2.0, 0.5);
        let m = torus(major, minor, 24, 12);
        assert_eq!(m.vertices.len(), 24 * 12);
        assert_eq!(m.triangles.len(), 2 * 24 * 12);
        assert_closed(&m, "torus");
        assert_no_degenerate(&m, 1e-6, "torus");
        // Outward: the normal points away from the tube's center circle.
        for t in &m.triangles {
            let [a, b, c] = t.map(|i| m.vertices[i as usize]);
            let centroid = [0, 1, 2].map(|k| (a[k] + b[k] + c[k]) / 3.0);
            let rho = (centroid[0].powi(2) + centroid[1].powi(2)).sqrt();
            let on_circle = [centroid[0] * major / rho, centroid[1] * major / rho, 0.0];
            assert!(dot(normal(&m, t), sub(centroid, on_circle)) > 0.0);
        }
        let exact = 2.0 * PI * PI * major * minor * minor;
        let v = signed_volume(&m);
        assert!(v > 0.9 * exact && v < exact, "volume {v} vs {exact}");
    }

    #[test]
    fn sheet_counts_and_shape() {
        let m = sheet(2.0, 1.0, 4, 3);
        assert_eq!(m.vertices.len(), 5 * 4);
        assert_eq!(m.triangles.len(), 2 * 4 * 3);
        assert_no_degenerate(&m, 1e-6, "sheet");
        assert!(m
            .vertices
            .iter()
            .all(|v| v[2] == 0.0 && v[0].abs() <= 1.0 && v[1].abs() <= 0.5));
        assert!(m.triangles.iter().all(|t| normal(&m, t)[2] > 0.0));
        let area: f64 = m.triangles.iter().map(|t| 0.5 * norm(normal(&m, t))).sum();
        assert!((area - 2.0).abs() < 1e-12);
    }

    #[test]
    fn bar_counts_and_shape() {
        let m = bar(10.0, 0.2, 5);
        assert_eq!(m.vertices.len(), 4 * 6);
        assert_eq!(m.triangles.len(), 8 * 5 + 4);
        assert_closed(&m, "bar");
        assert_no_degenerate(&m, 1e-6, "bar");
        let v = signed_volume(&m);
        assert!((v - 10.0 * 0.04).abs() < 1e-12, "volume {v}");
        // Outward: every normal points away from the x axis or out of the end caps.
        for t in &m.triangles {
            let [a, b, c] = t.map(|i| m.vertices[i as usize]);
            let centroid = [0, 1, 2].map(|k| (a[k] + b[k] + c[k]) / 3.0);
            let n = normal(&m, t);
            let away = if n[0] != 0.0 {
                [centroid[0], 0.0, 0.0]
            } else {
                [0.0, centroid[1], centroid[2]]
            };
            assert!(dot(n, away) > 0.0);
        }
        assert_closed(&bar(1.0, 1.0, 0), "bar with one segment");
    }

    #[test]
    fn blob_is_closed_deterministic_and_bumpy() {
        let m = blob(1.0, 3, 5, 42);
        assert_eq!(m.triangles.len(), 20 * 64);
        assert_closed(&m, "blob");
        assert_outward_from_origin(&m, "blob");
        assert_no_degenerate(&m, 1e-8, "blob");
        assert!(m.vertices.iter().all(|&v| norm(v) >= 1.0 - 1e-12));
        assert!(
            m.vertices.iter().any(|&v| norm(v) > 1.1),
            "at least one bump"
        );
        assert_eq!(m, blob(1.0, 3, 5, 42));
        assert_ne!(m, blob(1.0, 3, 5, 43));
        assert_eq!(blob(1.0, 2, 0, 7), icosphere(1.0, 2));
    }

    fn column_max(basis: &Basis, j: usize) -> f64 {
        (0..basis.vertices)
            .map(|i| norm([0, 1, 2].map(|k| basis.data[(3 * i + k) * basis.modes + j])))
            .fold(0.0, f64::max)
    }

    #[test]
    fn smooth_basis_amplitude() {
        let meshes = [
            icosphere(1.0, 2),
            bar(4.0, 0.3, 8),
            sheet(1.0, 2.0, 6, 6),
            torus(1.0, 0.25, 12, 6),
        ];
        for m in &meshes {
            for (modes, amplitude) in [(1, 0.1), (6, 0.05), (20, 2.0), (40, 1e-3)] {
                let b = smooth_basis(&m.vertices, modes, amplitude);
                assert_eq!((b.vertices, b.modes), (m.vertices.len(), modes));
                assert_eq!(b.data.len(), 3 * m.vertices.len() * modes);
                for j in 0..modes {
                    let got = column_max(&b, j);
                    assert!(
                        (got - amplitude).abs() <= AMPLITUDE_TOLERANCE * amplitude,
                        "mode {j} of {modes}: largest displacement {got}, expected {amplitude}"
                    );
                }
                assert_eq!(
                    b,
                    smooth_basis(&m.vertices, modes, amplitude),
                    "deterministic"
                );
            }
        }
    }

    #[test]
    fn smooth_basis_flat_sheet_stays_in_plane_modes_then_bends() {
        // Bendings across z vanish on a flat sheet; they are skipped, not returned as zeros.
        let m = sheet(1.0, 1.0, 4, 4);
        let b = smooth_basis(&m.vertices, 30, 1.0);
        for j in 0..30 {
            assert!(column_max(&b, j) > 0.5);
        }
    }

    #[test]
    fn smooth_basis_is_smooth() {
        // Neighbouring vertices of a fine sphere move nearly alike: the fields are low-frequency.
        let m = icosphere(1.0, 3);
        let b = smooth_basis(&m.vertices, 12, 1.0);
        for t in &m.triangles {
            let (i, k) = (t[0] as usize, t[1] as usize);
            let edge = norm(sub(m.vertices[i], m.vertices[k]));
            for j in 0..12 {
                let d = norm(
                    [0, 1, 2].map(|c| b.data[(3 * i + c) * 12 + j] - b.data[(3 * k + c) * 12 + j]),
                );
                assert!(
                    d < 10.0 * edge,
                    "mode {j} jumps {d} across an edge of length {edge}"
                );
            }
        }
    }

    #[test]
    fn smooth_basis_degenerate_inputs() {
        let empty = smooth_basis(&[], 3, 1.0);
        assert_eq!((empty.vertices, empty.modes, empty.data.len()), (0, 3, 0));
        let single = smooth_basis(&[[1.0, 2.0, 3.0]], 4, 0.5);
        for j in 0..4 {
            assert!((column_max(&single, j) - 0.5).abs() < 1e-12);
        }
        assert_eq!(smooth_basis(&[[0.0; 3]; 2], 0, 1.0).data.len(), 0);
    }

    #[test]
    fn translate_moves_every_vertex() {
        let mut m = sheet(1.0, 1.0, 1, 1);
        translate(&mut m, [1.0, -2.0, 0.5]);
        assert!(m
            .vertices
            .iter()
            .all(|v| v[2] == 0.5 && v[0] >= 0.5 && v[1] <= -1.5));
    }
}

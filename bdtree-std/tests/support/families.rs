//! Meshes that break the preconditions of self-collision's shortcuts: rest shapes that cross or
//! touch themselves, duplicated vertices (UV seams and poles, STL-style soups), triangle soups
//! with point, segment and sliver triangles, non-manifold edges and degenerate triangles; bases
//! with no modes, all-zero columns and clamped parts; and the C-shaped strip whose f64 source
//! crosses itself by less than its f32 storage rounding. Self-contained (the C binding's tests
//! include this file too).

use std::vec;
use std::vec::Vec;

use bdtree_std::io::{Basis, Mesh};
use bdtree_std::shapes::degenerate::{collapsed_soup, pole_sphere};
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis, torus, translate};

use bdtree_std::rng::Rng;

/// A family of meshes whose rest shape breaks a precondition of a self-collision shortcut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Crosses itself at rest: two sheets through each other, or a torus whose tube is wider
    /// than its hole.
    Crossing,
    /// Touches itself at rest between non-adjacent triangles (distance exactly 0): sheets
    /// meeting edge to edge without shared vertices, a sheet standing on another, a patch
    /// lying on a sheet.
    Touching,
    /// A UV sphere whose seam column and pole rings are duplicated vertices.
    Seams,
    /// An STL-style soup: every triangle of a closed sphere has its own three vertices.
    Unwelded,
    /// Separate triangles, a third of them points and segments, some slivers, crossing at
    /// random.
    Soup,
    /// Pages of a book sharing their spine (edges used by three or more triangles), crossed
    /// by a sheet.
    NonManifold,
    /// A sheet with vertices collapsed onto their neighbours (zero-area triangles; the
    /// triangles around the two meet at one point without sharing it).
    Degenerate,
}

/// Every family, for proptest's `select`.
pub const FAMILIES: [Family; 7] = [
    Family::Crossing,
    Family::Touching,
    Family::Seams,
    Family::Unwelded,
    Family::Soup,
    Family::NonManifold,
    Family::Degenerate,
];

/// A mesh of `family`, about unit size, near the origin, drawn from `rng`.
pub fn family_mesh(family: Family, rng: &mut Rng) -> Mesh {
    match family {
        Family::Crossing => {
            if rng.below(2) == 0 {
                let mut mesh = sheet(1.0, 1.0, 6, 6);
                let mut other = sheet(1.0, 0.8, 5, 4);
                let angle = rng.uniform(0.3, 1.5);
                rotate_x(&mut other, angle);
                translate(&mut other, [rng.uniform(-0.2, 0.2), 0.0, 0.0]);
                merge(&mut mesh, &other);
                mesh
            } else {
                torus(0.3, rng.uniform(0.35, 0.5), 14, 8)
            }
        }
        Family::Touching => match rng.below(3) {
            // Edge to edge: the second sheet's left column lies exactly on the first's right.
            0 => {
                let mut mesh = sheet(1.0, 1.0, 4, 4);
                let mut other = sheet(1.0, 1.0, 4, 4);
                translate(&mut other, [1.0, 0.0, 0.0]);
                merge(&mut mesh, &other);
                mesh
            }
            // A sheet standing on another: its bottom edge lies in the first one's plane.
            1 => {
                let mut mesh = sheet(1.0, 1.0, 6, 6);
                let mut wall = sheet(0.6, 0.5, 3, 2);
                rotate_x(&mut wall, core::f64::consts::FRAC_PI_2);
                translate(&mut wall, [0.05, 0.1, 0.25]);
                merge(&mut mesh, &wall);
                mesh
            }
            // A small patch lying flat on a sheet (coplanar overlap).
            _ => {
                let mut mesh = sheet(1.0, 1.0, 5, 5);
                let mut patch = sheet(0.3, 0.2, 2, 2);
                translate(&mut patch, [0.125, -0.05, 0.0]);
                merge(&mut mesh, &patch);
                mesh
            }
        },
        Family::Seams => pole_sphere(0.5, 3 + rng.below(5) as u32, 6 + rng.below(9) as u32),
        Family::Unwelded => unweld(&icosphere(0.5, 1 + rng.below(2) as u32)),
        Family::Soup => collapsed_soup(30 + rng.below(50), 0.5, 0.35, rng.next_u64()),
        Family::NonManifold => {
            let pages = 3 + rng.below(3);
            let mut mesh = book(pages, 3, 3);
            let mut cross = sheet(1.4, 0.6, 5, 3);
            translate(&mut cross, [0.0, 0.0, rng.uniform(0.2, 0.8)]);
            merge(&mut mesh, &cross);
            mesh
        }
        Family::Degenerate => {
            let mut mesh = sheet(1.0, 1.0, 6, 6);
            let n = mesh.vertices.len();
            for _ in 0..4 {
                // Vertex `i` moved onto its right neighbour (same row of the grid).
                let i = rng.below(n - 1);
                mesh.vertices[i] = mesh.vertices[i + 1];
            }
            // Folded a little along x so that the sheet is not flat.
            for v in &mut mesh.vertices {
                v[2] = 0.3 * v[0] * v[0];
            }
            mesh
        }
    }
}

/// The kinds of basis a family is drawn with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BasisKind {
    /// No modes (`M = 0`): a rigid body.
    None,
    /// `modes` columns, all zero.
    Zero,
    /// A smooth basis whose rows are zero on the half of the vertices with `x < 0` (a clamped
    /// part, a local basis).
    Clamped,
    /// A smooth basis.
    Smooth,
    /// Independent random entries.
    Rough,
}

/// Every basis kind, for proptest's `select`.
pub const BASES: [BasisKind; 5] = [
    BasisKind::None,
    BasisKind::Zero,
    BasisKind::Clamped,
    BasisKind::Smooth,
    BasisKind::Rough,
];

/// A basis of `kind` with `modes` columns (`None` for [`BasisKind::None`]).
pub fn family_basis(
    kind: BasisKind,
    mesh: &Mesh,
    modes: usize,
    amplitude: f64,
    rng: &mut Rng,
) -> Option<Basis> {
    let n = mesh.vertices.len();
    match kind {
        BasisKind::None => None,
        BasisKind::Zero => Some(Basis::zeros(n, modes)),
        BasisKind::Clamped => {
            let mut basis = smooth_basis(&mesh.vertices, modes, amplitude);
            for (i, v) in mesh.vertices.iter().enumerate() {
                if v[0] < 0.0 {
                    basis.data[3 * i * modes..3 * (i + 1) * modes].fill(0.0);
                }
            }
            Some(basis)
        }
        BasisKind::Smooth => Some(smooth_basis(&mesh.vertices, modes, amplitude)),
        BasisKind::Rough => Some(Basis {
            vertices: n,
            modes,
            data: (0..3 * n * modes)
                .map(|_| rng.uniform(-0.2 * amplitude, 0.2 * amplitude))
                .collect(),
        }),
    }
}

/// `mesh` scaled by `scale`, then moved by `offset` (modelled far from the origin).
pub fn placed(
    mut mesh: Mesh,
    basis: Option<Basis>,
    scale: f64,
    offset: [f64; 3],
) -> (Mesh, Option<Basis>) {
    mesh.vertices.iter_mut().flatten().for_each(|x| *x *= scale);
    translate(&mut mesh, offset);
    let basis = basis.map(|mut b| {
        b.data.iter_mut().for_each(|x| *x *= scale);
        b
    });
    (mesh, basis)
}

/// The C-shaped strip: a flat ring of quads in the `z = 0` plane, about `scale` across,
/// modelled at `offset`, open at one slanted radial edge, whose end comes back onto its start.
/// The end's outer corner is turned in steps of a tenth of the f32 spacing at that place until the f64
/// strip crosses itself (its last triangles overlap its first, by less than a spacing) while
/// the strip rounded to f32 does not, so a certificate made from the rounded values alone would
/// call it free. `None` when no turn within four spacings at any of 200 gap angles gives
/// such a strip. Its one mode
/// lifts the strip's middle and leaves both ends in place, so the f64 strip crosses itself at
/// every `q`.
pub fn c_strip(scale: f64, offset: [f64; 3]) -> Option<(Mesh, Basis)> {
    let sweep = 2.0 * core::f64::consts::PI;
    // The gap at slanted angles (rounding x and y apart moves a point across the edge there),
    // tried until one whose start edge rounding moves away from the end's corner.
    (0..200).find_map(|k| strip_at(0.7 + 0.004 * f64::from(k), sweep, scale, offset))
}

/// [`c_strip`] with its gap at angle `start`.
fn strip_at(start: f64, sweep: f64, scale: f64, offset: [f64; 3]) -> Option<(Mesh, Basis)> {
    use bdtree_std::oracle::triangles_intersect;
    let segments = 24u32;
    let (inner, outer) = (0.35 * scale, 0.5 * scale);
    let at = |r: f64, angle: f64| {
        [
            offset[0] + r * angle.cos(),
            offset[1] + r * angle.sin(),
            offset[2],
        ]
    };
    let mut base = Mesh {
        vertices: Vec::new(),
        triangles: Vec::new(),
    };
    for k in 0..=segments {
        let angle = start + sweep * f64::from(k) / f64::from(segments);
        base.vertices.push(at(inner, angle));
        base.vertices.push(at(outer, angle));
    }
    for k in 0..segments {
        let (a, b, c, d) = (2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2);
        base.triangles.push([a, b, c]);
        base.triangles.push([a, c, d]);
    }
    let last = base.vertices.len() - 1;
    let ends = [0usize, 1];
    let other_ends = [base.triangles.len() - 2, base.triangles.len() - 1];
    let spacing = {
        let x = offset[0].abs().max(offset[1].abs()).max(offset[2].abs()) + outer;
        f64::from(f32::EPSILON) * x
    };
    let crosses = |mesh: &Mesh| {
        let tri = |t: usize| mesh.triangles[t].map(|v| mesh.vertices[v as usize]);
        ends.iter().any(|&f| {
            other_ends
                .iter()
                .any(|&l| triangles_intersect(&tri(f), &tri(l)))
        })
    };
    let rounded = |mesh: &Mesh| Mesh {
        vertices: mesh
            .vertices
            .iter()
            .map(|v| v.map(|x| f64::from(x as f32)))
            .collect(),
        triangles: mesh.triangles.clone(),
    };
    for step in 1i32..=40 {
        let mut mesh = base.clone();
        // The end's inner corner stays a little short of the start; its outer corner comes
        // in to the middle of the start's edge and just past it, so the crossing is decided
        // by that corner against an edge whose ends lie far from it (rounding moves the three
        // apart, not together).
        let middle = 0.5 * (inner + outer);
        let angle = start + sweep + f64::from(step) * 0.1 * spacing / middle;
        mesh.vertices[last - 1] = at(inner, start + sweep - 0.02);
        mesh.vertices[last] = at(middle, angle);
        if crosses(&mesh) && !crosses(&rounded(&mesh)) {
            let mut basis = Basis::zeros(mesh.vertices.len(), 1);
            for (i, _) in mesh.vertices.iter().enumerate() {
                let k = (i / 2) as f64 / f64::from(segments);
                basis.data[3 * i + 2] = 0.05 * scale * (core::f64::consts::PI * k).sin().powi(2);
            }
            return Some((mesh, basis));
        }
    }
    None
}

/// Appends `other`'s vertices and triangles to `mesh` (no vertex shared).
fn merge(mesh: &mut Mesh, other: &Mesh) {
    let base = mesh.vertices.len() as u32;
    mesh.vertices.extend_from_slice(&other.vertices);
    mesh.triangles
        .extend(other.triangles.iter().map(|t| t.map(|v| v + base)));
}

/// Turns `mesh` by `angle` about the x axis.
fn rotate_x(mesh: &mut Mesh, angle: f64) {
    let (s, c) = angle.sin_cos();
    for v in &mut mesh.vertices {
        let (y, z) = (v[1], v[2]);
        v[1] = c * y - s * z;
        v[2] = s * y + c * z;
    }
}

/// Every triangle with its own three vertices, as STL files store meshes.
fn unweld(mesh: &Mesh) -> Mesh {
    let mut vertices = Vec::with_capacity(3 * mesh.triangles.len());
    let mut triangles = Vec::with_capacity(mesh.triangles.len());
    for t in &mesh.triangles {
        let base = vertices.len() as u32;
        vertices.extend(t.iter().map(|&v| mesh.vertices[v as usize]));
        triangles.push([base, base + 1, base + 2]);
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// `pages` rectangles of `across × up` quads fanned around the spine, the segment from
/// `(0, 0, 0)` to `(0, 0, 1)`, whose vertices they all share: each spine edge is used by two
/// triangles of every page.
fn book(pages: usize, across: u32, up: u32) -> Mesh {
    let mut vertices: Vec<[f64; 3]> = (0..=up)
        .map(|k| [0.0, 0.0, f64::from(k) / f64::from(up)])
        .collect();
    let mut triangles = Vec::new();
    for p in 0..pages {
        let angle = 2.0 * core::f64::consts::PI * p as f64 / pages as f64;
        let (s, c) = angle.sin_cos();
        // Column `i` of the page: the spine's own vertices for `i = 0`.
        let mut columns: Vec<Vec<u32>> = vec![(0..=up).collect()];
        for i in 1..=across {
            let r = 0.6 * f64::from(i) / f64::from(across);
            let start = vertices.len() as u32;
            for k in 0..=up {
                vertices.push([r * c, r * s, f64::from(k) / f64::from(up)]);
            }
            columns.push((start..=start + up).collect());
        }
        for i in 0..across as usize {
            for k in 0..up as usize {
                let (a, b) = (columns[i][k], columns[i + 1][k]);
                let (cc, d) = (columns[i + 1][k + 1], columns[i][k + 1]);
                triangles.push([a, b, cc]);
                triangles.push([a, cc, d]);
            }
        }
    }
    Mesh {
        vertices,
        triangles,
    }
}

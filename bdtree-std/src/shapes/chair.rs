//! The chair of the falling-chairs simulation (the `bdtree` application's `bdtree demo` and its
//! many-chairs example): a seat, four legs and a back made of welded, subdivided boxes (3,648
//! triangles), its origin at the center of mass, and the mass properties of the solid chair.

// Index loops spell out the inertia formulas.
#![allow(clippy::needless_range_loop)]

use crate::io::Mesh;

/// Density of the chair's material (stiff plastic), kg/m³.
pub const DENSITY: f64 = 1000.0;

/// The chair's parts: solid boxes `[lo, hi]` in metres, before centering.
const PARTS: [([f64; 3], [f64; 3]); 6] = [
    ([-0.2, -0.2, 0.40], [0.2, 0.2, 0.44]), // seat
    ([-0.2, -0.2, 0.0], [-0.16, -0.16, 0.40]),
    ([0.16, -0.2, 0.0], [0.2, -0.16, 0.40]),
    ([-0.2, 0.16, 0.0], [-0.16, 0.2, 0.40]),
    ([0.16, 0.16, 0.0], [0.2, 0.2, 0.40]),
    ([-0.2, 0.16, 0.44], [0.2, 0.2, 0.84]), // back
];

/// A closed box `[lo, hi]`, each face a grid of `n` cells per metre (at least 1 per side); the
/// faces' shared edges are welded, so every box is a closed surface of its own.
fn add_box(mesh: &mut Mesh, lo: [f64; 3], hi: [f64; 3], n: f64) {
    let mut part = Mesh {
        vertices: Vec::new(),
        triangles: Vec::new(),
    };
    add_faces(&mut part, lo, hi, n);
    // Weld bit-identical positions (the face grids compute shared edges identically).
    let mut index = std::collections::HashMap::new();
    let mut remap = Vec::with_capacity(part.vertices.len());
    let base = mesh.vertices.len() as u32;
    for p in &part.vertices {
        let key = p.map(f64::to_bits);
        let next = base + index.len() as u32;
        let id = *index.entry(key).or_insert_with(|| {
            mesh.vertices.push(*p);
            next
        });
        remap.push(id);
    }
    for t in &part.triangles {
        mesh.triangles.push(t.map(|v| remap[v as usize]));
    }
}

fn add_faces(mesh: &mut Mesh, lo: [f64; 3], hi: [f64; 3], n: f64) {
    let cells = [0, 1, 2].map(|k| (((hi[k] - lo[k]) * n).ceil() as usize).max(1));
    for axis in 0..3 {
        for side in [0, 1] {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let base = mesh.vertices.len() as u32;
            let (nu, nv) = (cells[u], cells[v]);
            for j in 0..=nv {
                for i in 0..=nu {
                    let mut p = [0.0; 3];
                    p[axis] = if side == 0 { lo[axis] } else { hi[axis] };
                    p[u] = lo[u] + (hi[u] - lo[u]) * i as f64 / nu as f64;
                    p[v] = lo[v] + (hi[v] - lo[v]) * j as f64 / nv as f64;
                    mesh.vertices.push(p);
                }
            }
            let id = |i: usize, j: usize| base + (i + j * (nu + 1)) as u32;
            for j in 0..nv {
                for i in 0..nu {
                    let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
                    // Outward orientation: flip on the low side.
                    if side == 1 {
                        mesh.triangles.push([a, b, c]);
                        mesh.triangles.push([a, c, d]);
                    } else {
                        mesh.triangles.push([a, c, b]);
                        mesh.triangles.push([a, d, c]);
                    }
                }
            }
        }
    }
}

/// Mass (kg), center of mass and inertia tensor about it (kg·m², diagonal entries first
/// then off-diagonal `[xy, xz, yz]`) of the solid chair at [`DENSITY`], from its boxes.
pub fn mass_properties() -> (f64, [f64; 3], [[f64; 3]; 3]) {
    let (mut mass, mut first) = (0.0, [0.0; 3]);
    for (lo, hi) in PARTS {
        let m = DENSITY * (0..3).map(|k| hi[k] - lo[k]).product::<f64>();
        mass += m;
        for k in 0..3 {
            first[k] += m * 0.5 * (lo[k] + hi[k]);
        }
    }
    let com = first.map(|x| x / mass);
    let mut inertia = [[0.0; 3]; 3];
    for (lo, hi) in PARTS {
        let size = [0, 1, 2].map(|k| hi[k] - lo[k]);
        let m = DENSITY * size.iter().product::<f64>();
        let c = [0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k]) - com[k]);
        for i in 0..3 {
            for j in 0..3 {
                let own = if i == j {
                    let (a, b) = ((i + 1) % 3, (i + 2) % 3);
                    m * (size[a] * size[a] + size[b] * size[b]) / 12.0
                } else {
                    0.0
                };
                let d2 = c.iter().map(|x| x * x).sum::<f64>();
                let shift = m * (if i == j { d2 } else { 0.0 } - c[i] * c[j]);
                inertia[i][j] += own + shift;
            }
        }
    }
    (mass, com, inertia)
}

/// The chair mesh, its origin at the center of mass (3,648 triangles).
pub fn chair_mesh() -> Mesh {
    let mut mesh = Mesh {
        vertices: Vec::new(),
        triangles: Vec::new(),
    };
    for (lo, hi) in PARTS {
        add_box(&mut mesh, lo, hi, 40.0);
    }
    let (_, com, _) = mass_properties();
    for v in &mut mesh.vertices {
        for k in 0..3 {
            v[k] -= com[k];
        }
    }
    mesh
}

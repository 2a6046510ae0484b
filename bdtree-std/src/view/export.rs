//! Export of a scene frame for MeshLab or Blender: deformed meshes, spheres and contact points
//! as PLY or OBJ.
//!
//! [`frame_geometry`] deforms every body of one frame (f64, [`crate::oracle::deform`]), finds
//! its intersecting triangle pairs with the kernel (f64 images), and optionally the overlapping
//! contact proxies and every body's spheres at a tree level. [`write_frame`] writes it, in the
//! format of the file's extension:
//!
//! * **PLY** (ASCII): one `vertex` element with `x y z` (double) and `red green blue` (uchar),
//!   one `face` element with `vertex_indices` and `red green blue`. Bodies come first, in scene
//!   order, each in its colour ([`crate::render::PALETTE`]); the triangles of intersecting pairs
//!   are red (face colour, and the colour of their vertices, for programs that read vertex
//!   colours only, like Blender). Spheres follow as low-poly icospheres (42 vertices, 80
//!   triangles each) coloured by radius growth `r(q) / r_rest` on
//!   [`crate::render::growth_color`]; contact points come last as yellow vertices used by no
//!   face (MeshLab shows them as points).
//! * **OBJ**: the same vertices as `v x y z r g b` (the common vertex-colour extension, colours
//!   in `[0, 1]`), one group `g` per body and one for the spheres, faces `f`, and the contact
//!   points as `p` statements. OBJ has no face colours: contact triangles are red by their
//!   vertices.
//!
//! Both read back with [`crate::mesh::load_mesh`]: its vertex count is the bodies' plus the
//! spheres' plus the contact points', its triangle count the bodies' plus the spheres'.
//!
//! A contact point is a point of the intersection of the two triangles: the mean of the points
//! where an edge of one crosses the other (the midpoint of the intersection segment for a
//! transversal pair), or the midpoint of the two centroids when no edge crosses (coplanar or
//! touching pairs).

use crate::vec3::{cross, dot, sub};
use std::io::Write;
use std::path::Path;

use crate::builder::{BuildOptions, Precision};
use crate::collide::{prepare, run_with, Caches, Contact, ProxyContact};
use crate::render::{growth_color, level_cut, RenderError, HIGHLIGHT, PALETTE};
use crate::scene::Scene;

/// The error of an export: the file concerned and the problem.
pub type ExportError = RenderError;

/// What [`frame_geometry`] computes besides the deformed meshes and the contacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GeometryOptions {
    /// The overlapping contact proxies at this depth (the trees are then built nested).
    pub proxies: Option<u32>,
    /// Each body's self-contacts too.
    pub self_pairs: bool,
    /// Every body's deformed spheres at this tree level (the cut of [`level_cut`]).
    pub spheres: Option<u32>,
}

/// One body of a frame.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyGeometry {
    /// The body's name in the scene.
    pub name: String,
    /// Deformed world vertices (f64).
    pub vertices: Vec<[f64; 3]>,
    /// The mesh's triangles.
    pub triangles: Vec<[u32; 3]>,
    /// The triangles in at least one intersecting pair, sorted, each once.
    pub contact_triangles: Vec<u32>,
    /// Of those, the triangles in self-contacts only (no pair with another body), sorted.
    pub self_contact_triangles: Vec<u32>,
    /// With [`GeometryOptions::spheres`]: the world spheres `[x, y, z, r]` of the cut, each with
    /// its growth `r(q) / r_rest`.
    pub spheres: Vec<([f64; 4], f64)>,
}

/// One frame of a scene, ready to draw or export.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameGeometry {
    /// The bodies, in scene order.
    pub bodies: Vec<BodyGeometry>,
    /// The intersecting triangle pairs (kernel, f64), sorted.
    pub pairs: Vec<Contact>,
    /// With [`GeometryOptions::proxies`]: the overlapping proxy pairs.
    pub proxies: Vec<ProxyContact>,
    /// One point of each pair's intersection, in the order of `pairs`.
    pub contact_points: Vec<[f64; 3]>,
}

/// Deforms every body of frame `frame` and finds its contacts (see the module documentation).
pub fn frame_geometry(
    scene: &Scene,
    frame: usize,
    options: &GeometryOptions,
) -> Result<FrameGeometry, ExportError> {
    let path = &scene.path;
    let Some(states) = scene.frames.get(frame) else {
        return Err(RenderError::new(
            path,
            format!(
                "frame {frame} does not exist (the scene has {} frame{})",
                scene.frames.len(),
                if scene.frames.len() == 1 { "" } else { "s" }
            ),
        ));
    };
    let one = Scene {
        path: scene.path.clone(),
        bodies: scene.bodies.clone(),
        frames: vec![states.clone()],
    };
    let build = BuildOptions {
        precision: Precision::F64,
        nested: options.proxies.is_some(),
        ..BuildOptions::default()
    };
    let prepared = prepare(&one, build).map_err(|e| RenderError::new(path, e.to_string()))?;
    let run_err = |e: crate::collide::RunError| RenderError::new(path, e.to_string());
    let (results, _) =
        run_with::<f64>(&one, &prepared, 1, None, options.self_pairs).map_err(run_err)?;
    let pairs = results.into_iter().next().unwrap_or_default().pairs;
    let proxies = match options.proxies {
        Some(l) => {
            let (results, _) =
                run_with::<f64>(&one, &prepared, 1, Some(l), false).map_err(run_err)?;
            results.into_iter().next().unwrap_or_default().proxies
        }
        None => Vec::new(),
    };

    let mut bodies = Vec::with_capacity(one.bodies.len());
    for (b, body) in one.bodies.iter().enumerate() {
        let vertices = one.world_vertices(0, b).unwrap_or_default();
        let mut contact_triangles: Vec<u32> = pairs
            .iter()
            .flat_map(|&(i, j, ta, tb)| {
                [(i == b).then_some(ta), (j == b).then_some(tb)]
                    .into_iter()
                    .flatten()
            })
            .collect();
        contact_triangles.sort_unstable();
        contact_triangles.dedup();
        let other: std::collections::BTreeSet<u32> = pairs
            .iter()
            .filter(|p| p.0 != p.1)
            .flat_map(|&(i, j, ta, tb)| {
                [(i == b).then_some(ta), (j == b).then_some(tb)]
                    .into_iter()
                    .flatten()
            })
            .collect();
        let self_contact_triangles = contact_triangles
            .iter()
            .copied()
            .filter(|t| !other.contains(t))
            .collect();
        bodies.push(BodyGeometry {
            name: body.name.clone(),
            vertices,
            triangles: body.mesh.triangles.clone(),
            contact_triangles,
            self_contact_triangles,
            spheres: Vec::new(),
        });
    }

    if let Some(level) = options.spheres {
        let images = crate::collide::parse_images::<f64>(&one, &prepared).map_err(run_err)?;
        let mut caches = Caches::new(&images);
        let mut live = caches.bodies(&one, &images).map_err(run_err)?;
        let mut q = Vec::new();
        crate::collide::set_frame(&one, 0, &mut live, &mut q).map_err(run_err)?;
        for (body, out) in live.iter_mut().zip(bodies.iter_mut()) {
            let tree = *body.tree();
            for k in level_cut(&tree, level) {
                let (Some(rest), Some(s)) = (tree.rest_sphere(k as usize), body.sphere(k as usize))
                else {
                    continue;
                };
                let growth = if rest[3] > 0.0 { s[3] / rest[3] } else { 1.0 };
                out.spheres.push((s, growth));
            }
        }
    }

    let triangle = |b: usize, t: u32| -> Option<[[f64; 3]; 3]> {
        let body = bodies.get(b)?;
        let tri = body.triangles.get(t as usize)?;
        Some([
            *body.vertices.get(tri[0] as usize)?,
            *body.vertices.get(tri[1] as usize)?,
            *body.vertices.get(tri[2] as usize)?,
        ])
    };
    let contact_points = pairs
        .iter()
        .filter_map(|&(i, j, ta, tb)| Some(contact_point(&triangle(i, ta)?, &triangle(j, tb)?)))
        .collect();
    Ok(FrameGeometry {
        bodies,
        pairs,
        proxies,
        contact_points,
    })
}

/// Where segment `p q` crosses triangle `t` (plain f64, a small tolerance at the edges).
fn segment_triangle(p: [f64; 3], q: [f64; 3], t: &[[f64; 3]; 3]) -> Option<[f64; 3]> {
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let nn = dot(n, n);
    if nn == 0.0 {
        return None;
    }
    let (dp, dq) = (dot(n, sub(p, t[0])), dot(n, sub(q, t[0])));
    if (dp > 0.0 && dq > 0.0) || (dp < 0.0 && dq < 0.0) || dp == dq {
        return None;
    }
    let s = dp / (dp - dq);
    let x = [
        p[0] + s * (q[0] - p[0]),
        p[1] + s * (q[1] - p[1]),
        p[2] + s * (q[2] - p[2]),
    ];
    for i in 0..3 {
        let c = cross(sub(t[(i + 1) % 3], t[i]), sub(x, t[i]));
        if dot(c, n) < -1e-9 * nn {
            return None;
        }
    }
    Some(x)
}

/// A point of the intersection of two intersecting triangles (see the module documentation).
pub fn contact_point(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [f64; 3] {
    let mut sum = [0.0; 3];
    let mut count = 0.0;
    for (edges, other) in [(a, b), (b, a)] {
        for i in 0..3 {
            if let Some(x) = segment_triangle(edges[i], edges[(i + 1) % 3], other) {
                for k in 0..3 {
                    sum[k] += x[k];
                }
                count += 1.0;
            }
        }
    }
    if count > 0.0 {
        return sum.map(|s| s / count);
    }
    let centroid = |t: &[[f64; 3]; 3]| [0, 1, 2].map(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0);
    let (ca, cb) = (centroid(a), centroid(b));
    [0, 1, 2].map(|k| 0.5 * (ca[k] + cb[k]))
}

/// The export formats, chosen by the output file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshFormat {
    /// `.ply`, ASCII.
    Ply,
    /// `.obj`.
    Obj,
}

impl MeshFormat {
    /// The format of `path` from its extension (`.ply` or `.obj`, any case).
    pub fn of(path: &Path) -> Result<MeshFormat, ExportError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("ply") => Ok(MeshFormat::Ply),
            Some("obj") => Ok(MeshFormat::Obj),
            Some(other) => Err(RenderError::new(
                path,
                format!("unknown export format '.{other}' (use .ply or .obj)"),
            )),
            None => Err(RenderError::new(
                path,
                "the file name has no extension (use .ply or .obj)",
            )),
        }
    }
}

/// What [`write_frame`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportSummary {
    /// Vertices (bodies, spheres and contact points).
    pub vertices: usize,
    /// Triangles (bodies and spheres).
    pub triangles: usize,
    /// Spheres, each an icosphere.
    pub spheres: usize,
    /// Contact points.
    pub points: usize,
}

/// The colour of exported contact points.
pub const POINT_COLOR: (u8, u8, u8) = (255, 210, 0);

/// Subdivisions of the exported icospheres (42 vertices, 80 triangles each).
pub const SPHERE_SUBDIVISIONS: u32 = 1;

/// Writes a frame (see the module documentation) to `path`, `.ply` or `.obj`; `points` adds the
/// contact points. `comment` goes in the file's header.
pub fn write_frame(
    geometry: &FrameGeometry,
    points: bool,
    comment: &str,
    path: &Path,
) -> Result<ExportSummary, ExportError> {
    let format = MeshFormat::of(path)?;
    // Vertices with colours, then faces with colours.
    let mut vertices: Vec<([f64; 3], (u8, u8, u8))> = Vec::new();
    let mut faces: Vec<([u32; 3], (u8, u8, u8))> = Vec::new();
    let mut groups: Vec<(String, usize)> = Vec::new();
    for (b, body) in geometry.bodies.iter().enumerate() {
        let color = PALETTE[b % PALETTE.len()];
        let base = vertices.len() as u32;
        let mut red = vec![false; body.vertices.len()];
        let mut in_contact = vec![false; body.triangles.len()];
        for &t in &body.contact_triangles {
            if let Some(tri) = body.triangles.get(t as usize) {
                in_contact[t as usize] = true;
                for &v in tri {
                    if let Some(r) = red.get_mut(v as usize) {
                        *r = true;
                    }
                }
            }
        }
        vertices.extend(
            body.vertices
                .iter()
                .zip(&red)
                .map(|(&p, &r)| (p, if r { HIGHLIGHT } else { color })),
        );
        groups.push((body.name.clone(), faces.len()));
        faces.extend(
            body.triangles
                .iter()
                .zip(&in_contact)
                .map(|(t, &c)| (t.map(|v| v + base), if c { HIGHLIGHT } else { color })),
        );
    }
    let spheres: Vec<([f64; 4], f64)> = geometry
        .bodies
        .iter()
        .flat_map(|b| b.spheres.iter().copied())
        .collect();
    if !spheres.is_empty() {
        groups.push(("spheres".to_string(), faces.len()));
        let lo = spheres.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
        let hi = spheres
            .iter()
            .map(|s| s.1)
            .fold(f64::NEG_INFINITY, f64::max);
        let unit = crate::procedural::icosphere(1.0, SPHERE_SUBDIVISIONS);
        for (s, g) in &spheres {
            let color = growth_color(if hi > lo { (g - lo) / (hi - lo) } else { 0.0 });
            let base = vertices.len() as u32;
            vertices.extend(
                unit.vertices
                    .iter()
                    .map(|v| ([0, 1, 2].map(|k| s[k] + s[3] * v[k]), color)),
            );
            faces.extend(unit.triangles.iter().map(|t| (t.map(|v| v + base), color)));
        }
    }
    let first_point = vertices.len();
    if points {
        vertices.extend(geometry.contact_points.iter().map(|&p| (p, POINT_COLOR)));
    }
    let summary = ExportSummary {
        vertices: vertices.len(),
        triangles: faces.len(),
        spheres: spheres.len(),
        points: vertices.len() - first_point,
    };

    let file = std::fs::File::create(path)
        .map_err(|e| RenderError::new(path, format!("cannot write: {e}")))?;
    let mut w = std::io::BufWriter::new(file);
    let comment = comment.replace(['\n', '\r'], " ");
    let written = match format {
        MeshFormat::Ply => (|| -> std::io::Result<()> {
            writeln!(w, "ply\nformat ascii 1.0")?;
            writeln!(w, "comment {comment}")?;
            writeln!(
                w,
                "comment vertices: bodies, then spheres, then {} contact point(s) used by no face",
                summary.points
            )?;
            writeln!(w, "element vertex {}", vertices.len())?;
            writeln!(w, "property double x\nproperty double y\nproperty double z")?;
            writeln!(
                w,
                "property uchar red\nproperty uchar green\nproperty uchar blue"
            )?;
            writeln!(w, "element face {}", faces.len())?;
            writeln!(w, "property list uchar uint vertex_indices")?;
            writeln!(
                w,
                "property uchar red\nproperty uchar green\nproperty uchar blue"
            )?;
            writeln!(w, "end_header")?;
            for ([x, y, z], (r, g, b)) in &vertices {
                writeln!(w, "{x} {y} {z} {r} {g} {b}")?;
            }
            for ([a, b, c], (r, g, bl)) in &faces {
                writeln!(w, "3 {a} {b} {c} {r} {g} {bl}")?;
            }
            w.flush()
        })(),
        MeshFormat::Obj => (|| -> std::io::Result<()> {
            writeln!(w, "# {comment}")?;
            writeln!(
                w,
                "# vertices: bodies, then spheres, then {} contact point(s) (p statements); \
                 colours as v x y z r g b",
                summary.points
            )?;
            let c = |x: u8| f64::from(x) / 255.0;
            for ([x, y, z], (r, g, b)) in &vertices {
                writeln!(w, "v {x} {y} {z} {:.4} {:.4} {:.4}", c(*r), c(*g), c(*b))?;
            }
            let mut next_group = groups.iter().peekable();
            for (k, (t, _)) in faces.iter().enumerate() {
                while let Some((name, _)) = next_group.next_if(|g| g.1 == k) {
                    writeln!(w, "g {}", name.replace(char::is_whitespace, "_"))?;
                }
                let [a, b, c] = t.map(|v| u64::from(v) + 1);
                writeln!(w, "f {a} {b} {c}")?;
            }
            if summary.points > 0 {
                writeln!(w, "g contact_points")?;
                for k in first_point..vertices.len() {
                    writeln!(w, "p {}", k + 1)?;
                }
            }
            w.flush()
        })(),
    };
    written.map_err(|e| RenderError::new(path, format!("cannot write: {e}")))?;
    Ok(summary)
}

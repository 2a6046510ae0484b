//! Export of a scene frame for MeshLab or Blender: deformed meshes, spheres and contact points
//! as PLY or OBJ.
//!
//! [`write_frame`] writes a frame's geometry ([`super::FrameGeometry`]: the application fills it
//! from a scene, Python from its bodies) in the format of the file's extension:
//!
//! * **PLY** (ASCII): one `vertex` element with `x y z` (double) and `red green blue` (uchar),
//!   one `face` element with `vertex_indices` and `red green blue`. Bodies come first, in scene
//!   order, each in its colour ([`super::PALETTE`]); the triangles of intersecting pairs
//!   are red (face colour, and the colour of their vertices, for programs that read vertex
//!   colours only, like Blender). Spheres follow as low-poly icospheres (42 vertices, 80
//!   triangles each) coloured by radius growth `r(q) / r_rest` on
//!   [`super::growth_color`]; contact points come last as yellow vertices used by no
//!   face (MeshLab shows them as points).
//! * **OBJ**: the same vertices as `v x y z r g b` (the common vertex-colour extension, colours
//!   in `[0, 1]`), one group `g` per body and one for the spheres, faces `f`, and the contact
//!   points as `p` statements. OBJ has no face colours: contact triangles are red by their
//!   vertices.
//!
//! Both read back with [`crate::io::load_mesh`]: its vertex count is the bodies' plus the
//! spheres' plus the contact points', its triangle count the bodies' plus the spheres'.
//!
//! The contact points are [`super::contact_point`]s.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::colors::{growth_color, HIGHLIGHT, PALETTE};
use super::frame::FrameGeometry;
use crate::shapes::procedural::icosphere;

/// Why an export could not be written: the file concerned and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportError {
    /// The file the problem is about.
    pub path: PathBuf,
    /// What is wrong, in words.
    pub message: String,
}

impl ExportError {
    /// A problem with `path`.
    pub fn new(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self {
            path: path.as_ref().to_path_buf(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for ExportError {}

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
            Some(other) => Err(ExportError::new(
                path,
                format!("unknown export format '.{other}' (use .ply or .obj)"),
            )),
            None => Err(ExportError::new(
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
        let unit = icosphere(1.0, SPHERE_SUBDIVISIONS);
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
        .map_err(|e| ExportError::new(path, format!("cannot write: {e}")))?;
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
    written.map_err(|e| ExportError::new(path, format!("cannot write: {e}")))?;
    Ok(summary)
}

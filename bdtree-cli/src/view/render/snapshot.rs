//! Many bodies at once (a simulation frame: deformed meshes, highlighted triangles, contact
//! points) over a ground plane.

use std::path::Path;

use super::picture::{palette, shade, Circ, Picture};
use super::picture::{Format, View};
use crate::view::error::RenderError;
use bdtree_std::export::{HIGHLIGHT, SECONDARY};

/// One body of a [`snapshot`] or a contacts picture: its deformed world mesh and the
/// triangles to highlight.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SnapshotBody {
    /// World positions of the deformed vertices.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles, indices into `vertices` (out-of-range triangles are skipped).
    pub triangles: Vec<[u32; 3]>,
    /// Indices of the triangles to highlight (drawn red, on top).
    pub highlighted: Vec<u32>,
    /// Indices of triangles to highlight in orange instead ([`SECONDARY`]; e.g. self-contacts);
    /// a triangle in both lists is red.
    pub secondary: Vec<u32>,
}

/// Options of [`snapshot_with`].
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotOptions {
    /// The direction of view.
    pub view: View,
    /// Picture size in pixels.
    pub size: (u32, u32),
    /// The height `z` of a ground plane to draw under the bodies (a rectangle 10 % larger than
    /// the bodies' `x`–`y` extent; a line in the side views), or `None`.
    pub ground: Option<f64>,
    /// Names of the bodies for a legend (none when empty).
    pub names: Vec<String>,
    /// Further caption lines.
    pub lines: Vec<String>,
    /// Spheres `[x, y, z, r]` to outline, each with the index of the body whose colour (darker)
    /// it takes.
    pub spheres: Vec<([f64; 4], usize)>,
}

impl Default for SnapshotOptions {
    fn default() -> Self {
        Self {
            view: View::Iso,
            size: (1000, 800),
            ground: Some(0.0),
            names: Vec::new(),
            lines: Vec::new(),
            spheres: Vec::new(),
        }
    }
}

/// A snapshot of many bodies (a simulation frame) into `path` (`.png` or `.svg`): every body's
/// deformed mesh in its own colour ([`bdtree_std::export::PALETTE`], cycling), its highlighted triangles in red on
/// top, the contact points as small dark-red squares, over a ground plane at `z = 0`, in the ¾
/// view ([`View::Iso`]), 1000 × 800 pixels. `caption` is the title; a second line counts the
/// bodies, triangles, highlighted triangles and contact points. See [`snapshot_with`] for the
/// options.
pub fn snapshot(
    bodies: &[SnapshotBody],
    contacts: &[[f64; 3]],
    caption: &str,
    path: &Path,
) -> Result<(), RenderError> {
    snapshot_with(bodies, contacts, caption, &SnapshotOptions::default(), path)
}

/// [`snapshot`] with a chosen view, size, ground, legend, caption lines and spheres.
pub fn snapshot_with(
    bodies: &[SnapshotBody],
    contacts: &[[f64; 3]],
    caption: &str,
    options: &SnapshotOptions,
    path: &Path,
) -> Result<(), RenderError> {
    Format::of(path)?;
    let view = options.view;
    let mut pic = Picture::new(options.size, caption.to_string());
    let (mut triangles, mut highlighted, mut secondary) = (0usize, 0usize, 0usize);
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for (b, body) in bodies.iter().enumerate() {
        let color = palette(b);
        // 0: plain, 1: secondary, 2: highlighted.
        let mut marked = vec![0u8; body.triangles.len()];
        for (list, mark) in [(&body.secondary, 1), (&body.highlighted, 2)] {
            for &t in list {
                if let Some(m) = marked.get_mut(t as usize) {
                    *m = (*m).max(mark);
                }
            }
        }
        for (t, tri) in body.triangles.iter().enumerate() {
            let Some(corners) = tri
                .iter()
                .map(|&v| body.vertices.get(v as usize).copied())
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let corners = [corners[0], corners[1], corners[2]];
            for c in &corners {
                for k in 0..3 {
                    lo[k] = lo[k].min(c[k]);
                    hi[k] = hi[k].max(c[k]);
                }
            }
            triangles += 1;
            match marked[t] {
                2 => {
                    highlighted += 1;
                    pic.triangle(view, corners, HIGHLIGHT, 0.6, true);
                }
                1 => {
                    secondary += 1;
                    pic.triangle(view, corners, SECONDARY, 0.6, true);
                }
                _ => pic.triangle(view, corners, color, 0.45, false),
            }
        }
    }
    for (s, b) in &options.spheres {
        let (center, _) = view.project([s[0], s[1], s[2]]);
        pic.circles.push(Circ {
            center,
            radius: s[3],
            color: shade(palette(*b), 0.55),
            faded: false,
            width: 2,
        });
    }
    for &c in contacts {
        pic.dots.push((view.project(c).0, (120, 0, 0)));
    }
    if let (Some(z), true) = (options.ground, lo[0] <= hi[0]) {
        let (dx, dy) = (0.1 * (hi[0] - lo[0]), 0.1 * (hi[1] - lo[1]));
        let corners = [
            [lo[0] - dx, lo[1] - dy, z],
            [hi[0] + dx, lo[1] - dy, z],
            [hi[0] + dx, hi[1] + dy, z],
            [lo[0] - dx, hi[1] + dy, z],
        ];
        let poly = corners.iter().map(|&c| view.project(c).0).collect();
        pic.ground.push((poly, (232, 228, 218), (150, 140, 120)));
    }
    pic.lines.extend(options.lines.iter().cloned());
    pic.lines.push(format!(
        "{} bod{}, {triangles} triangles, {highlighted} highlighted (red){}{}; view {}{}",
        bodies.len(),
        if bodies.len() == 1 { "y" } else { "ies" },
        if secondary > 0 {
            format!(", {secondary} orange")
        } else {
            String::new()
        },
        if contacts.is_empty() {
            String::new()
        } else {
            format!(
                ", {} contact point{} (dark red squares)",
                contacts.len(),
                if contacts.len() == 1 { "" } else { "s" }
            )
        },
        view.name(),
        match options.ground {
            Some(z) => format!(", ground z = {z}"),
            None => String::new(),
        }
    ));
    for (b, name) in options.names.iter().enumerate() {
        pic.legend.push((name.clone(), palette(b)));
    }
    pic.save(path)
}

//! Pictures of BD-Trees and scenes, as PNG or SVG (drawn with [`plotters`]).
//!
//! * [`spheres`]: a body's deformed mesh and its deformed spheres at one tree level, each sphere
//!   coloured by its radius growth `r(q) / r_rest` (the BD-Tree paper's Figs. 4 and 6), with a
//!   colour bar and a caption naming the image, the level, `q` and the min/median/max growth.
//! * [`tightness`]: the per-level tightness curve of [`crate::inspect`] (mean rest radius and
//!   mean `‖ΔR‖₂` per level, both relative to the root, on a log scale).
//! * [`contacts`]: a scene frame: every body's deformed mesh in its own colour, the triangles in
//!   contact in red, optionally the overlapping contact proxies' spheres (the paper's Fig. 1).
//! * [`snapshot`]: many bodies at once (a simulation frame: deformed meshes, highlighted
//!   triangles, contact points) over a ground plane.
//!
//! # Conventions
//!
//! The output format follows the file extension, `.png` or `.svg` (any case); anything else is a
//! [`RenderError`] naming the file. Every picture is an **orthographic** projection along one of
//! the [`View`]s, with equal scales on both screen axes and a scale bar in mesh units. Triangles
//! are filled, flat-shaded by a light at the viewer, and drawn back to front (painter's order by
//! mean depth); highlighted triangles are drawn after them and after the sphere outlines, on top
//! (an X-ray view, so a contact is visible even where another surface hides it). A world sphere projects to a circle
//! of the same radius, drawn as an outline.
//!
//! Text uses the DejaVu Sans font bundled with the crate (`fixtures/fonts/DejaVuSans.ttf`,
//! Bitstream Vera licence in `fixtures/fonts/LICENSE-DejaVu.txt`), so pictures do not depend
//! on the fonts of the machine. SVG files name the font family `sans-serif`; their viewer
//! draws the text.

use crate::vec3::{cross, dot, sub};
use crate::BodyStorage;
use std::path::{Path, PathBuf};
use std::sync::Once;

use bdtree_core::{Image, NodeKind, Pose, Scalar, TreeView};
use plotters::coord::Shift;
use plotters::prelude::DerivedColorMap;
use plotters::prelude::*;

use crate::builder::ImageBuf;
use crate::inspect::Inspection;

/// Why a picture could not be made: the file concerned and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderError {
    /// The file the problem is about (the output, or the input that could not be used).
    pub path: PathBuf,
    /// What is wrong, in words.
    pub message: String,
}

impl RenderError {
    /// A problem with `path`.
    pub fn new(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self {
            path: path.as_ref().to_path_buf(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for RenderError {}

impl From<crate::LoadError> for RenderError {
    fn from(e: crate::LoadError) -> Self {
        let message = match &e.location {
            Some(at) => format!("{at}: {}", e.message),
            None => e.message.clone(),
        };
        Self {
            path: e.path,
            message,
        }
    }
}

/// The picture formats, chosen by the output file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.png`: a bitmap.
    Png,
    /// `.svg`: vector graphics.
    Svg,
}

impl Format {
    /// The format of `path` from its extension (`.png` or `.svg`, any case).
    pub fn of(path: &Path) -> Result<Format, RenderError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png") => Ok(Format::Png),
            Some("svg") => Ok(Format::Svg),
            Some(other) => Err(RenderError::new(
                path,
                format!("unknown picture format '.{other}' (use .png or .svg)"),
            )),
            None => Err(RenderError::new(
                path,
                "the file name has no extension (use .png or .svg)",
            )),
        }
    }
}

/// The direction a picture is seen from (orthographic projection; `z` is up except in the top
/// view).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum View {
    /// From `+x` (looking along `−x`): `+y` to the right, `+z` up.
    X,
    /// From `−y` (looking along `+y`, a front view): `+x` to the right, `+z` up.
    Y,
    /// From `+z` (looking down): `+x` to the right, `+y` up.
    Z,
    /// A ¾ view from `(1, −1, 1)`: `+z` projects vertically up.
    #[default]
    Iso,
}

impl View {
    /// The screen axes in world coordinates: right, up, and toward the viewer (a right-handed
    /// orthonormal frame).
    pub fn axes(self) -> [[f64; 3]; 3] {
        match self {
            View::X => [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
            View::Y => [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]],
            View::Z => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            View::Iso => {
                let (s2, s3, s6) = (2f64.sqrt(), 3f64.sqrt(), 6f64.sqrt());
                [
                    [1.0 / s2, 1.0 / s2, 0.0],
                    [-1.0 / s6, 1.0 / s6, 2.0 / s6],
                    [1.0 / s3, -1.0 / s3, 1.0 / s3],
                ]
            }
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            View::X => "x",
            View::Y => "y",
            View::Z => "z",
            View::Iso => "iso",
        }
    }

    /// Screen position `(right, up)` and depth (larger is nearer the viewer) of a world point.
    fn project(self, p: [f64; 3]) -> ([f64; 2], f64) {
        let [r, u, b] = self.axes();
        ([dot(p, r), dot(p, u)], dot(p, b))
    }
}

// ---------------------------------------------------------------------------------------------
// Fonts and colours
// ---------------------------------------------------------------------------------------------

static FONT: &[u8] = include_bytes!("../../fixtures/fonts/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

/// Registers the bundled font with plotters (once per process).
fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled file is a valid TrueType font; a failure would only mean no text.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

/// Body colours of [`contacts`] and [`snapshot`] (muted, none of them red), in order.
pub const PALETTE: [(u8, u8, u8); 8] = [
    (76, 114, 176),
    (85, 168, 104),
    (129, 114, 179),
    (204, 185, 116),
    (100, 181, 205),
    (140, 86, 75),
    (218, 139, 195),
    (130, 130, 130),
];

/// The colour of highlighted (contact) triangles.
pub const HIGHLIGHT: (u8, u8, u8) = (220, 20, 20);

/// The colour of secondary highlighted triangles (self-contacts in [`contacts`]).
pub const SECONDARY: (u8, u8, u8) = (250, 160, 20);

fn rgb(c: (u8, u8, u8)) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

fn palette(i: usize) -> (u8, u8, u8) {
    PALETTE[i % PALETTE.len()]
}

/// The growth colour scale (the dark part of "plasma": blue–purple–red–orange, legible on a
/// white background and over light grey triangles), at `t` in `[0, 1]`.
pub fn growth_color(t: f64) -> (u8, u8, u8) {
    let map = DerivedColorMap::new(&[
        RGBColor(13, 8, 135),
        RGBColor(106, 0, 168),
        RGBColor(177, 42, 144),
        RGBColor(225, 100, 98),
        RGBColor(245, 150, 40),
    ]);
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let c = map.get_color_normalized(t, 0.0, 1.0);
    (c.0, c.1, c.2)
}

fn shade(c: (u8, u8, u8), k: f64) -> (u8, u8, u8) {
    let f = |x: u8| (f64::from(x) * k).round().clamp(0.0, 255.0) as u8;
    (f(c.0), f(c.1), f(c.2))
}

// ---------------------------------------------------------------------------------------------
// A picture: projected shapes, caption, colour bar, legend
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct Tri {
    points: [[f64; 2]; 3],
    depth: f64,
    fill: (u8, u8, u8),
}

#[derive(Clone, Copy)]
struct Circ {
    center: [f64; 2],
    radius: f64,
    color: (u8, u8, u8),
    /// Drawn thin and faded toward white (a depth cue for spheres at the back).
    faded: bool,
    /// Stroke width in pixels (when not faded).
    width: u32,
}

struct ColorBar {
    min: f64,
    max: f64,
    label: String,
}

/// An RGB colour.
type Rgb = (u8, u8, u8);

/// A filled polygon with its fill and edge colours.
type Patch = (Vec<[f64; 2]>, Rgb, Rgb);

/// Everything a picture shows, in projected (world-unit) screen coordinates.
struct Picture {
    size: (u32, u32),
    title: String,
    lines: Vec<String>,
    /// Drawn first: (polygon, fill, edge).
    ground: Vec<Patch>,
    tris: Vec<Tri>,
    overlay: Vec<Tri>,
    circles: Vec<Circ>,
    dots: Vec<([f64; 2], (u8, u8, u8))>,
    colorbar: Option<ColorBar>,
    legend: Vec<(String, (u8, u8, u8))>,
}

impl Picture {
    fn new(size: (u32, u32), title: String) -> Self {
        Self {
            size,
            title,
            lines: Vec::new(),
            ground: Vec::new(),
            tris: Vec::new(),
            overlay: Vec::new(),
            circles: Vec::new(),
            dots: Vec::new(),
            colorbar: None,
            legend: Vec::new(),
        }
    }

    /// Adds a world triangle, flat-shaded (two-sided) by a light near the viewer.
    fn triangle(&mut self, view: View, t: [[f64; 3]; 3], base: (u8, u8, u8), lo: f64, top: bool) {
        let [_, up, back] = view.axes();
        let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
        let len = dot(n, n).sqrt();
        let light = {
            let l = [
                back[0] + 0.5 * up[0],
                back[1] + 0.5 * up[1],
                back[2] + 0.5 * up[2],
            ];
            let ll = dot(l, l).sqrt();
            l.map(|x| x / ll)
        };
        let cos = if len > 0.0 {
            (dot(n, light) / len).abs()
        } else {
            1.0
        };
        // 32 shading steps: invisible banding, far smaller PNG files.
        let cos = (cos * 32.0).round() / 32.0;
        let fill = shade(base, lo + (1.0 - lo) * cos);
        let mut points = [[0.0; 2]; 3];
        let mut depth = 0.0;
        for (p, &v) in points.iter_mut().zip(&t) {
            let (xy, d) = view.project(v);
            *p = xy;
            depth += d / 3.0;
        }
        let tri = Tri {
            points,
            depth,
            fill,
        };
        if top {
            self.overlay.push(tri);
        } else {
            self.tris.push(tri);
        }
    }

    /// The bounding box of everything drawn, in screen coordinates.
    fn bounds(&self) -> Option<[f64; 4]> {
        let mut b = [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut add = |p: [f64; 2], r: f64| {
            if p[0].is_finite() && p[1].is_finite() && r.is_finite() {
                b[0] = b[0].min(p[0] - r);
                b[1] = b[1].min(p[1] - r);
                b[2] = b[2].max(p[0] + r);
                b[3] = b[3].max(p[1] + r);
            }
        };
        for (poly, _, _) in &self.ground {
            poly.iter().for_each(|&p| add(p, 0.0));
        }
        for t in self.tris.iter().chain(&self.overlay) {
            t.points.iter().for_each(|&p| add(p, 0.0));
        }
        for c in &self.circles {
            add(c.center, c.radius);
        }
        for (p, _) in &self.dots {
            add(*p, 0.0);
        }
        (b[0] <= b[2] && b[1] <= b[3]).then_some(b)
    }

    /// Writes the picture to `path` (format from the extension).
    fn save(mut self, path: &Path) -> Result<(), RenderError> {
        let format = Format::of(path)?;
        register_fonts();
        self.tris.sort_by(|a, b| a.depth.total_cmp(&b.depth));
        self.overlay.sort_by(|a, b| a.depth.total_cmp(&b.depth));
        write_picture(
            path,
            format,
            self.size,
            |root| self.draw(root, false),
            |root| self.draw(root, true),
        )
    }

    /// Draws on `root`; `vector` for SVG (circles as `<circle>` elements).
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        vector: bool,
    ) -> Result<(), String> {
        let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let (w, h) = (f64::from(self.size.0), f64::from(self.size.1));
        let title_font = (FAMILY, 22).into_font().color(&BLACK);
        let line_font = (FAMILY, 16).into_font().color(&RGBColor(40, 40, 40));
        root.draw_text(&self.title, &title_font, (16, 12))
            .map_err(e)?;
        let mut y = 44;
        for line in &self.lines {
            root.draw_text(line, &line_font, (16, y)).map_err(e)?;
            y += 22;
        }
        let legend_rows = self.legend.len().div_ceil(3) as i32;
        let top = f64::from(y + 10);
        let bottom = h - 46.0 - 24.0 * f64::from(legend_rows);
        let left = 20.0;
        let right = w - if self.colorbar.is_some() { 150.0 } else { 20.0 };

        // Legend, in rows of three under the plot.
        for (i, (name, color)) in self.legend.iter().enumerate() {
            let x = 20 + 320 * (i % 3) as i32;
            let yy = (bottom as i32) + 40 + 24 * (i / 3) as i32;
            root.draw(&Rectangle::new(
                [(x, yy), (x + 16, yy + 16)],
                rgb(*color).filled(),
            ))
            .map_err(e)?;
            root.draw_text(name, &line_font, (x + 24, yy)).map_err(e)?;
        }

        let Some(b) = self.bounds() else {
            return Ok(());
        };
        let (bw, bh) = ((b[2] - b[0]).max(1e-12), (b[3] - b[1]).max(1e-12));
        let scale = 0.96 * ((right - left) / bw).min((bottom - top) / bh);
        let (cx, cy) = (0.5 * (b[0] + b[2]), 0.5 * (b[1] + b[3]));
        let (px, py) = (0.5 * (left + right), 0.5 * (top + bottom));
        let to = |p: [f64; 2]| -> (i32, i32) {
            (
                (px + scale * (p[0] - cx)).round() as i32,
                (py - scale * (p[1] - cy)).round() as i32,
            )
        };

        for (poly, fill, edge) in &self.ground {
            let pts: Vec<(i32, i32)> = poly.iter().map(|&p| to(p)).collect();
            root.draw(&Polygon::new(pts.clone(), rgb(*fill).filled()))
                .map_err(e)?;
            let mut closed = pts;
            if let Some(&first) = closed.first() {
                closed.push(first);
            }
            root.draw(&PathElement::new(closed, rgb(*edge).stroke_width(2)))
                .map_err(e)?;
        }
        let fill = |t: &Tri, edge: Option<(u8, u8, u8)>| -> Result<(), String> {
            let pts: Vec<(i32, i32)> = t.points.iter().map(|&p| to(p)).collect();
            root.draw(&Polygon::new(pts.clone(), rgb(t.fill).filled()))
                .map_err(e)?;
            // The outline in the fill colour closes the seams between neighbours (highlighted
            // triangles get a darker one, so that each stays visible).
            let closed = vec![pts[0], pts[1], pts[2], pts[0]];
            let c = rgb(edge.unwrap_or(t.fill));
            root.draw(&PathElement::new(closed, c.stroke_width(1)))
                .map_err(e)
        };
        for t in &self.tris {
            fill(t, None)?;
        }
        for c in &self.circles {
            let r = (scale * c.radius).round().max(1.0) as u32;
            let style = if c.faded {
                let f = |x: u8| ((u16::from(x) + 2 * 255) / 3) as u8;
                RGBColor(f(c.color.0), f(c.color.1), f(c.color.2)).stroke_width(1)
            } else {
                rgb(c.color).stroke_width(c.width)
            };
            if vector {
                root.draw(&Circle::new(to(c.center), r, style)).map_err(e)?;
            } else {
                // On bitmaps a crisp polygon: plotters' anti-aliased circle outlines blend into
                // thousands of colours that bloat the PNG files.
                let (x, y) = to(c.center);
                let n = (f64::from(r) * 0.8).clamp(24.0, 256.0) as usize;
                let pts: Vec<(i32, i32)> = (0..=n)
                    .map(|k| {
                        let a = std::f64::consts::TAU * k as f64 / n as f64;
                        (
                            x + (f64::from(r) * a.cos()).round() as i32,
                            y + (f64::from(r) * a.sin()).round() as i32,
                        )
                    })
                    .collect();
                root.draw(&PathElement::new(pts, style)).map_err(e)?;
            }
        }
        // Highlighted triangles over everything but the dots.
        for t in &self.overlay {
            fill(t, Some(shade(t.fill, 0.6)))?;
        }
        for (p, color) in &self.dots {
            let (x, y) = to(*p);
            root.draw(&Rectangle::new(
                [(x - 3, y - 3), (x + 3, y + 3)],
                rgb(*color).filled(),
            ))
            .map_err(e)?;
        }

        // Scale bar: a round length near a fifth of the plot's width.
        let target = 0.2 * (right - left) / scale;
        let base = 10f64.powf(target.log10().floor());
        let unit = [5.0, 2.0, 1.0]
            .iter()
            .map(|k| k * base)
            .find(|&u| u <= target)
            .unwrap_or(base);
        if unit.is_finite() && unit > 0.0 {
            let y0 = (bottom + 22.0) as i32;
            let x1 = left as i32 + (unit * scale).round() as i32;
            let bar =
                |a: (i32, i32), b: (i32, i32)| PathElement::new(vec![a, b], BLACK.stroke_width(2));
            root.draw(&bar((left as i32, y0), (x1, y0))).map_err(e)?;
            root.draw(&bar((left as i32, y0 - 5), (left as i32, y0 + 5)))
                .map_err(e)?;
            root.draw(&bar((x1, y0 - 5), (x1, y0 + 5))).map_err(e)?;
            root.draw_text(
                &format!("{} (mesh units)", fmt_len(unit)),
                &line_font,
                (x1 + 10, y0 - 9),
            )
            .map_err(e)?;
        }

        if let Some(bar) = &self.colorbar {
            let x0 = (w - 120.0) as i32;
            let (y0, y1) = (top as i32 + 30, bottom as i32 - 10);
            let steps = 200;
            for i in 0..steps {
                let t0 = i as f64 / steps as f64;
                let t1 = (i + 1) as f64 / steps as f64;
                let ya = y1 - ((y1 - y0) as f64 * t0).round() as i32;
                let yb = y1 - ((y1 - y0) as f64 * t1).round() as i32;
                root.draw(&Rectangle::new(
                    [(x0, yb), (x0 + 24, ya)],
                    rgb(growth_color(t0)).filled(),
                ))
                .map_err(e)?;
            }
            root.draw(&Rectangle::new(
                [(x0, y0), (x0 + 24, y1)],
                BLACK.stroke_width(1),
            ))
            .map_err(e)?;
            root.draw_text(&bar.label, &line_font, (x0 - 20, y0 - 28))
                .map_err(e)?;
            for k in 0..=4 {
                let t = f64::from(k) / 4.0;
                let v = bar.min + t * (bar.max - bar.min);
                let yy = y1 - ((y1 - y0) as f64 * t).round() as i32;
                root.draw(&PathElement::new(
                    vec![(x0 + 24, yy), (x0 + 30, yy)],
                    BLACK.stroke_width(1),
                ))
                .map_err(e)?;
                root.draw_text(&format!("{v:.3}"), &line_font, (x0 + 34, yy - 8))
                    .map_err(e)?;
            }
        }
        Ok(())
    }
}

/// Draws with `png` (on an RGB buffer, then encoded by the `png` crate at its best
/// compression) or `svg` (plotters' SVG backend), and writes `path`.
fn write_picture(
    path: &Path,
    format: Format,
    size: (u32, u32),
    png: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
    svg: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<(), RenderError> {
    let draw_err = |e: String| RenderError::new(path, format!("cannot draw: {e}"));
    let write_err =
        |e: &dyn std::fmt::Display| RenderError::new(path, format!("cannot write: {e}"));
    match format {
        Format::Png => {
            let mut pixels = vec![0u8; 3 * size.0 as usize * size.1 as usize];
            {
                let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
                png(&root).map_err(draw_err)?;
                root.present().map_err(|e| draw_err(e.to_string()))?;
            }
            let file = std::fs::File::create(path).map_err(|e| write_err(&e))?;
            let mut encoder = ::png::Encoder::new(std::io::BufWriter::new(file), size.0, size.1);
            encoder.set_color(::png::ColorType::Rgb);
            encoder.set_depth(::png::BitDepth::Eight);
            encoder.set_compression(::png::Compression::Best);
            encoder.set_adaptive_filter(::png::AdaptiveFilterType::Adaptive);
            let mut writer = encoder.write_header().map_err(|e| write_err(&e))?;
            writer
                .write_image_data(&pixels)
                .map_err(|e| write_err(&e))?;
            writer.finish().map_err(|e| write_err(&e))
        }
        Format::Svg => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
                svg(&root).map_err(draw_err)?;
                root.present().map_err(|e| draw_err(e.to_string()))?;
            }
            std::fs::write(path, text).map_err(|e| write_err(&e))
        }
    }
}

/// A length for the scale bar: `0.05`, `2`, `500`.
fn fmt_len(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// At most `n` numbers of a list, `…` after.
fn fmt_list(v: &[f64], n: usize) -> String {
    let mut parts: Vec<String> = v.iter().take(n).map(|x| format!("{x:.4}")).collect();
    if v.len() > n {
        parts.push(format!("… ({} in all)", v.len()));
    }
    format!("[{}]", parts.join(", "))
}

// ---------------------------------------------------------------------------------------------
// Spheres at a tree level
// ---------------------------------------------------------------------------------------------

/// Options of [`spheres`].
#[derive(Debug, Clone, PartialEq)]
pub struct SphereOptions {
    /// The tree level (depth; the root is 0). Drawn are the nodes at this depth and the leaves
    /// above it: the cut of the tree at this level, which covers the whole mesh.
    pub level: u32,
    /// The reduced coordinates; `None` for the default [`default_q`].
    pub q: Option<Vec<f64>>,
    /// The direction of view.
    pub view: View,
    /// Picture size in pixels.
    pub size: (u32, u32),
}

impl Default for SphereOptions {
    fn default() -> Self {
        Self {
            level: 3,
            q: None,
            view: View::Iso,
            size: (1000, 800),
        }
    }
}

/// The fraction of the root's rest radius that the largest vertex displacement reaches under
/// the default `q` (see [`default_q`]).
pub const DEFAULT_DISPLACEMENT: f64 = 0.1;

/// What [`spheres`] drew, for captions and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct SphereSummary {
    /// The `q` used.
    pub q: Vec<f64>,
    /// The nodes drawn (the cut at the level), in tree order.
    pub nodes: Vec<u32>,
    /// `r(q) / r_rest` of each drawn node, in the order of `nodes`.
    pub growth: Vec<f64>,
}

/// The nodes of the cut at `level`: nodes of that depth, and leaves above it, in tree order.
pub fn level_cut<S: Scalar>(tree: &TreeView<'_, S>, level: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut stack = vec![0u32];
    while let Some(k) = stack.pop() {
        let depth = tree.node_depth(k as usize).unwrap_or(0);
        match tree.kind(k as usize) {
            Some(NodeKind::Internal { left, right }) if depth < level => {
                stack.push(right);
                stack.push(left);
            }
            Some(_) => out.push(k),
            None => {}
        }
    }
    out.sort_unstable();
    out
}

/// The default `q` of an image: every mode at the same amplitude `a`, with `a` chosen so that
/// the largest vertex displacement `max_i ‖U_i q‖` is [`DEFAULT_DISPLACEMENT`] (10 %) of the
/// root's rest radius. Empty for a rigid image.
pub fn default_q<S: Scalar>(image: &Image<'_, S>) -> Vec<f64> {
    let m = image.tree.modes();
    if m == 0 {
        return Vec::new();
    }
    let ones = vec![S::ONE; m];
    let mut largest = 0.0f64;
    for i in 0..image.model.vertex_count() {
        if let (Some(x), Some(p)) = (image.model.deformed(i, &ones), image.model.position(i)) {
            let d = sub(x.map(S::to_f64), p.map(S::to_f64));
            largest = largest.max(dot(d, d).sqrt());
        }
    }
    let root = image.tree.rest_sphere(0).map_or(1.0, |s| s[3].to_f64());
    let a = if largest > 0.0 {
        DEFAULT_DISPLACEMENT * root / largest
    } else {
        0.0
    };
    vec![a; m]
}

fn sphere_picture<S: Scalar>(
    image: &Image<'_, S>,
    name: &str,
    options: &SphereOptions,
    path: &Path,
) -> Result<(Picture, SphereSummary), RenderError> {
    let tree = &image.tree;
    let m = tree.modes();
    let (q, default) = match &options.q {
        Some(q) => (q.clone(), false),
        None => (default_q(image), true),
    };
    if q.len() != m {
        return Err(RenderError::new(
            path,
            format!(
                "the image has {m} mode{} but q has {} entr{}",
                if m == 1 { "" } else { "s" },
                q.len(),
                if q.len() == 1 { "y" } else { "ies" }
            ),
        ));
    }
    if let Some(bad) = q.iter().find(|x| !x.is_finite()) {
        return Err(RenderError::new(
            path,
            format!("q holds a non-finite value ({bad})"),
        ));
    }
    if options.level > tree.depth() {
        return Err(RenderError::new(
            path,
            format!(
                "level {} does not exist (the tree's depth is {})",
                options.level,
                tree.depth()
            ),
        ));
    }
    let mut cache = BodyStorage::new(tree.node_count());
    let mut body = cache
        .body(image)
        .map_err(|e| RenderError::new(path, e.to_string()))?;
    let qs: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    body.set_state(Pose::identity(), &qs)
        .map_err(|e| RenderError::new(path, e.to_string()))?;

    let view = options.view;
    let title = format!(
        "{name}: spheres at level {} under q, coloured by r(q) / r_rest",
        options.level
    );
    let mut pic = Picture::new(options.size, title);
    for t in 0..image.model.triangles().len() {
        if let Some(tri) = body.world_triangle(t) {
            pic.triangle(
                view,
                tri.map(|v| v.map(S::to_f64)),
                (236, 236, 240),
                0.72,
                false,
            );
        }
    }
    let nodes = level_cut(tree, options.level);
    let mut growth = Vec::with_capacity(nodes.len());
    let mut spheres = Vec::with_capacity(nodes.len());
    for &k in &nodes {
        let (Some(rest), Some(s)) = (tree.rest_sphere(k as usize), body.sphere(k as usize)) else {
            continue;
        };
        let r0 = rest[3].to_f64();
        let r = s[3].to_f64();
        let g = if r0 > 0.0 { r / r0 } else { 1.0 };
        growth.push(g);
        spheres.push((s.map(S::to_f64), g));
    }
    let mut sorted = growth.clone();
    sorted.sort_by(f64::total_cmp);
    let (lo, hi) = (
        sorted.first().copied().unwrap_or(1.0),
        sorted.last().copied().unwrap_or(1.0),
    );
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(1.0);
    let (bar_lo, bar_hi) = if hi - lo > 1e-9 {
        (lo, hi)
    } else {
        (lo - 0.001, hi + 0.001)
    };
    // Back spheres (center behind the median depth) faded and first; then largest first, so
    // small ones stay visible on top.
    let mut depths: Vec<f64> = spheres
        .iter()
        .map(|(s, _)| view.project([s[0], s[1], s[2]]).1)
        .collect();
    depths.sort_by(f64::total_cmp);
    let middle = depths.get(depths.len() / 2).copied().unwrap_or(0.0);
    let faded_count = depths.iter().filter(|&&d| d < middle).count();
    let mut circles: Vec<Circ> = spheres
        .iter()
        .map(|(s, g)| {
            let (center, depth) = view.project([s[0], s[1], s[2]]);
            Circ {
                center,
                radius: s[3],
                color: growth_color((g - bar_lo) / (bar_hi - bar_lo)),
                faded: depth < middle,
                width: 2,
            }
        })
        .collect();
    circles.sort_by(|a, b| b.faded.cmp(&a.faded).then(b.radius.total_cmp(&a.radius)));
    pic.circles = circles;
    let q_text = if default {
        format!(
            "q = {} (default: every mode at one amplitude, largest vertex displacement {:.0} % of the root radius)",
            if m == 0 {
                "[] (rigid)".to_string()
            } else {
                format!("{:.4} × (1, …, 1)", q[0])
            },
            100.0 * DEFAULT_DISPLACEMENT
        )
    } else {
        format!("q = {}", fmt_list(&q, 6))
    };
    pic.lines.push(format!(
        "{} sphere{} (nodes at depth {} and shallower leaves; the {faded_count} behind the middle faded), {} modes, view {}",
        nodes.len(),
        if nodes.len() == 1 { "" } else { "s" },
        options.level,
        m,
        view.name()
    ));
    pic.lines.push(q_text);
    pic.lines.push(format!(
        "radius growth r(q) / r_rest: min {lo:.4}, median {median:.4}, max {hi:.4}"
    ));
    pic.colorbar = Some(ColorBar {
        min: bar_lo,
        max: bar_hi,
        label: "r(q) / r_rest".to_string(),
    });
    Ok((pic, SphereSummary { q, nodes, growth }))
}

/// Draws the tree image `image` (a `.bdt` file): its deformed mesh (light grey) and its
/// deformed spheres at `options.level`, coloured by `r(q) / r_rest`, into `output` (`.png` or
/// `.svg`). Returns what was drawn.
pub fn spheres(
    image: &Path,
    options: &SphereOptions,
    output: &Path,
) -> Result<SphereSummary, RenderError> {
    Format::of(output)?;
    let buf = ImageBuf::read(image)?;
    let header = buf
        .header()
        .map_err(|e| RenderError::new(image, e.to_string()))?;
    let name = image.file_name().map_or_else(
        || image.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let (pic, summary) = if header.scalar_bytes == 8 {
        let parsed = buf.parse_named::<f64>(image)?;
        sphere_picture(&parsed, &name, options, image)?
    } else {
        let parsed = buf.parse_named::<f32>(image)?;
        sphere_picture(&parsed, &name, options, image)?
    };
    pic.save(output)?;
    Ok(summary)
}

// ---------------------------------------------------------------------------------------------
// Tightness curve
// ---------------------------------------------------------------------------------------------

/// The two curves of [`tightness`], one point `(level, value)` per tree level: mean rest radius
/// over the root's, and mean `‖ΔR‖₂` over the root's (empty for a rigid image).
pub fn tightness_series(inspection: &Inspection) -> [Vec<(f64, f64)>; 2] {
    let root = inspection.levels.first().map_or(0.0, |l| l.mean_radius);
    let radius = inspection
        .levels
        .iter()
        .filter(|_| root > 0.0)
        .map(|l| (f64::from(l.level), l.mean_radius / root))
        .collect();
    let growth = inspection
        .levels
        .iter()
        .filter(|_| inspection.modes > 0)
        .map(|l| (f64::from(l.level), l.relative_growth))
        .filter(|&(_, g)| g > 0.0)
        .collect();
    [radius, growth]
}

/// Draws the per-level tightness curve of an inspected image into `output` (`.png` or `.svg`):
/// per level, the mean rest radius and the mean radius growth `‖ΔR‖₂`, both relative to the
/// root's, on a logarithmic axis, one marker per level. `name` names the image in the title.
pub fn tightness(
    inspection: &Inspection,
    name: &str,
    size: (u32, u32),
    output: &Path,
) -> Result<(), RenderError> {
    let format = Format::of(output)?;
    register_fonts();
    write_picture(
        output,
        format,
        size,
        |root| draw_tightness(root, inspection, name),
        |root| draw_tightness(root, inspection, name),
    )
}

fn draw_tightness<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    inspection: &Inspection,
    name: &str,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let [radius, growth] = tightness_series(inspection);
    let values = radius.iter().chain(&growth).map(|p| p.1);
    let lo = values.clone().fold(1.0f64, f64::min).max(1e-9);
    let hi = values.fold(1.0f64, f64::max);
    let depth = f64::from(inspection.depth);
    let title_font = (FAMILY, 22).into_font();
    let caption = format!(
        "{name}: tightness per tree level ({} triangles, {} modes, depth {})",
        inspection.triangles, inspection.modes, inspection.depth
    );
    let mut chart = ChartBuilder::on(root)
        .caption(caption, title_font)
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(-0.5..depth + 0.5, (lo / 1.5..hi * 1.5).log_scale())
        .map_err(e)?;
    let label_font = (FAMILY, 16).into_font();
    chart
        .configure_mesh()
        .x_desc("tree level (root = 0)")
        .y_desc("mean over the level / root's (log scale)")
        .axis_desc_style((FAMILY, 18).into_font())
        .label_style(label_font.clone())
        .x_labels((inspection.depth as usize + 1).min(30))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(20)
        .y_label_formatter(&|&y| {
            // Labels at 1, 2 and 5 times a power of ten only: the others crowd the log axis.
            let m = y / 10f64.powf(y.log10().floor());
            if [1.0, 2.0, 5.0, 10.0].iter().any(|k| (m - k).abs() < 1e-6) {
                fmt_len(y)
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(e)?;
    let series = [
        (radius, RGBColor(31, 90, 170), "mean rest radius R / root's"),
        (
            growth,
            RGBColor(200, 60, 20),
            "mean ‖ΔR‖₂ / root's (growth with |q|)",
        ),
    ];
    for (points, color, label) in series {
        if points.is_empty() {
            continue;
        }
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(e)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
            });
        chart
            .draw_series(PointSeries::of_element(
                points,
                5,
                color.filled(),
                &|c, s, st| Circle::new(c, s, st),
            ))
            .map_err(e)?;
    }
    chart
        .configure_series_labels()
        .label_font(label_font)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(e)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Scenes: contacts of a frame, and snapshots
// ---------------------------------------------------------------------------------------------

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
/// deformed mesh in its own colour ([`PALETTE`], cycling), its highlighted triangles in red on
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

/// Options of [`contacts`].
#[derive(Debug, Clone, PartialEq)]
pub struct ContactOptions {
    /// The frame (0-based).
    pub frame: usize,
    /// Also draw the overlapping contact proxies' spheres at this depth (trees built nested).
    pub proxies: Option<u32>,
    /// Also find each body's self-contacts.
    pub self_pairs: bool,
    /// The direction of view.
    pub view: View,
    /// Picture size in pixels.
    pub size: (u32, u32),
}

impl Default for ContactOptions {
    fn default() -> Self {
        Self {
            frame: 0,
            proxies: None,
            self_pairs: false,
            view: View::Iso,
            size: (1000, 800),
        }
    }
}

/// What [`contacts`] drew.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactSummary {
    /// Intersecting triangle pairs found (f64 kernel).
    pub pairs: usize,
    /// Highlighted triangles, over all bodies.
    pub highlighted: usize,
    /// Proxy pairs drawn.
    pub proxies: usize,
}

/// Draws frame `options.frame` of the scene `scene` (a `bdtree collide` JSON file) into
/// `output` (`.png` or `.svg`): every body's deformed mesh in its own colour, the triangles of
/// every intersecting pair (found by the kernel in f64) in red on top, and with
/// `options.proxies` the spheres of the overlapping proxy pairs at that depth.
pub fn contacts(
    scene: &Path,
    options: &ContactOptions,
    output: &Path,
) -> Result<ContactSummary, RenderError> {
    Format::of(output)?;
    let loaded = crate::scene::Scene::load(scene)?;
    let geometry = crate::export::frame_geometry(
        &loaded,
        options.frame,
        &crate::export::GeometryOptions {
            proxies: options.proxies,
            self_pairs: options.self_pairs,
            spheres: None,
        },
    )?;
    let name = scene.file_name().map_or_else(
        || scene.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let bodies: Vec<SnapshotBody> = geometry
        .bodies
        .iter()
        .map(|b| SnapshotBody {
            vertices: b.vertices.clone(),
            triangles: b.triangles.clone(),
            highlighted: b
                .contact_triangles
                .iter()
                .copied()
                .filter(|t| b.self_contact_triangles.binary_search(t).is_err())
                .collect(),
            secondary: b.self_contact_triangles.clone(),
        })
        .collect();
    let highlighted = bodies
        .iter()
        .map(|b| b.highlighted.len() + b.secondary.len())
        .sum();
    let self_count = geometry.pairs.iter().filter(|p| p.0 == p.1).count();
    let mut lines = vec![format!(
        "{} intersecting triangle pair{} (kernel, f64){}; their triangles drawn on top",
        geometry.pairs.len(),
        if geometry.pairs.len() == 1 { "" } else { "s" },
        if options.self_pairs {
            format!(", {self_count} of them self-contacts")
        } else {
            String::new()
        }
    )];
    if options.self_pairs {
        lines.push(
            "red: triangles in a contact between bodies; orange: triangles in self-contacts only"
                .to_string(),
        );
    }
    let mut spheres = Vec::new();
    if let Some(l) = options.proxies {
        // Each proxy once, however many pairs it is in.
        let mut seen = std::collections::BTreeSet::new();
        for p in &geometry.proxies {
            for (body, node, sphere) in [
                (p.bodies.0, p.nodes.0, p.spheres[0]),
                (p.bodies.1, p.nodes.1, p.spheres[1]),
            ] {
                if seen.insert((body, node)) {
                    spheres.push((sphere, body));
                }
            }
        }
        lines.push(format!(
            "{} overlapping proxy pair{} at depth {l} (nested trees): their {} spheres outlined in the darker body colour",
            geometry.proxies.len(),
            if geometry.proxies.len() == 1 { "" } else { "s" },
            spheres.len()
        ));
    }
    let snapshot_options = SnapshotOptions {
        view: options.view,
        size: options.size,
        ground: None,
        names: geometry.bodies.iter().map(|b| b.name.clone()).collect(),
        lines,
        spheres,
    };
    let caption = format!("{name}: contacts of frame {}", options.frame);
    snapshot_with(&bodies, &[], &caption, &snapshot_options, output)?;
    Ok(ContactSummary {
        pairs: geometry.pairs.len(),
        highlighted,
        proxies: geometry.proxies.len(),
    })
}

/// Reads and inspects a tree image, then draws [`tightness`] into `output`.
pub fn tightness_of(image: &Path, size: (u32, u32), output: &Path) -> Result<(), RenderError> {
    Format::of(output)?;
    let buf = ImageBuf::read(image)?;
    let header = buf
        .header()
        .map_err(|e| RenderError::new(image, e.to_string()))?;
    let inspection = if header.scalar_bytes == 8 {
        crate::inspect::inspect(&buf.parse_named::<f64>(image)?)
    } else {
        crate::inspect::inspect(&buf.parse_named::<f32>(image)?)
    };
    let name = image.file_name().map_or_else(
        || image.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    tightness(&inspection, &name, size, output)
}

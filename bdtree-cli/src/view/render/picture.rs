//! A picture: projected shapes, caption, colour bar and legend, drawn by plotters into PNG or
//! SVG; the formats, the views and the bundled font.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::view::error::RenderError;
use bdtree_std::export::{growth_color, PALETTE};
use bdtree_std::vec3::{cross, dot, sub};

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
    pub(crate) fn project(self, p: [f64; 3]) -> ([f64; 2], f64) {
        let [r, u, b] = self.axes();
        ([dot(p, r), dot(p, u)], dot(p, b))
    }
}

static FONT: &[u8] = include_bytes!("../../../../fixtures/fonts/DejaVuSans.ttf");
pub(super) const FAMILY: &str = "sans-serif";

/// A chart on `root` with the plots' caption font, margin and label areas.
pub(super) fn chart<'a, 'b, DB: DrawingBackend, S: AsRef<str>>(
    root: &'a DrawingArea<DB, Shift>,
    caption: S,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(caption, (FAMILY, 22).into_font())
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80);
    builder
}

/// Draws the series' legend of `chart` at `position` in the plots' style.
pub(super) fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    font: FontDesc<'_>,
    position: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .label_font(font)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .position(position)
        .draw()
        .map_err(|e| e.to_string())
}

/// Registers the bundled font with plotters (once per process).
pub(super) fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled file is a valid TrueType font; a failure would only mean no text.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

pub(super) fn rgb(c: (u8, u8, u8)) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

pub(super) fn palette(i: usize) -> (u8, u8, u8) {
    PALETTE[i % PALETTE.len()]
}

pub(super) fn shade(c: (u8, u8, u8), k: f64) -> (u8, u8, u8) {
    let f = |x: u8| (f64::from(x) * k).round().clamp(0.0, 255.0) as u8;
    (f(c.0), f(c.1), f(c.2))
}

// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
pub(super) struct Tri {
    pub(super) points: [[f64; 2]; 3],
    pub(super) depth: f64,
    pub(super) fill: (u8, u8, u8),
}

#[derive(Clone, Copy)]
pub(super) struct Circ {
    pub(super) center: [f64; 2],
    pub(super) radius: f64,
    pub(super) color: (u8, u8, u8),
    /// Drawn thin and faded toward white (a depth cue for spheres at the back).
    pub(super) faded: bool,
    /// Stroke width in pixels (when not faded).
    pub(super) width: u32,
}

pub(super) struct ColorBar {
    pub(super) min: f64,
    pub(super) max: f64,
    pub(super) label: String,
}

/// An RGB colour.
pub(super) type Rgb = (u8, u8, u8);

/// A filled polygon with its fill and edge colours.
pub(super) type Patch = (Vec<[f64; 2]>, Rgb, Rgb);

/// Everything a picture shows, in projected (world-unit) screen coordinates.
pub(super) struct Picture {
    pub(super) size: (u32, u32),
    pub(super) title: String,
    pub(super) lines: Vec<String>,
    /// Drawn first: (polygon, fill, edge).
    pub(super) ground: Vec<Patch>,
    pub(super) tris: Vec<Tri>,
    pub(super) overlay: Vec<Tri>,
    pub(super) circles: Vec<Circ>,
    pub(super) dots: Vec<([f64; 2], (u8, u8, u8))>,
    pub(super) colorbar: Option<ColorBar>,
    pub(super) legend: Vec<(String, (u8, u8, u8))>,
}

impl Picture {
    pub(super) fn new(size: (u32, u32), title: String) -> Self {
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
    pub(super) fn triangle(
        &mut self,
        view: View,
        t: [[f64; 3]; 3],
        base: (u8, u8, u8),
        lo: f64,
        top: bool,
    ) {
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
    pub(super) fn bounds(&self) -> Option<[f64; 4]> {
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
    pub(super) fn save(mut self, path: &Path) -> Result<(), RenderError> {
        self.tris.sort_by(|a, b| a.depth.total_cmp(&b.depth));
        self.overlay.sort_by(|a, b| a.depth.total_cmp(&b.depth));
        write_picture(
            path,
            self.size,
            |root| self.draw(root, false),
            |root| self.draw(root, true),
        )
    }

    /// Draws on `root`; `vector` for SVG (circles as `<circle>` elements).
    pub(super) fn draw<DB: DrawingBackend>(
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
/// compression) or `svg` (plotters' SVG backend), as `path`'s extension says, and writes `path`.
pub(super) fn write_picture(
    path: &Path,
    size: (u32, u32),
    png: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
    svg: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<(), RenderError> {
    let format = Format::of(path)?;
    register_fonts();
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
pub(super) fn fmt_len(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// At most `n` numbers of a list, `…` after.
pub(super) fn fmt_list(v: &[f64], n: usize) -> String {
    let mut parts: Vec<String> = v.iter().take(n).map(|x| format!("{x:.4}")).collect();
    if v.len() > n {
        parts.push(format!("… ({} in all)", v.len()));
    }
    format!("[{}]", parts.join(", "))
}

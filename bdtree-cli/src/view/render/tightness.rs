//! The per-level tightness curve of an inspected image.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::picture::Format;
use super::picture::{chart, fmt_len, legend, write_picture, FAMILY};
use crate::view::error::RenderError;
use bdtree_std::io::ImageBuf;
use bdtree_std::runner::inspect::{inspect, Inspection};

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
    write_picture(
        output,
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
    let caption = format!(
        "{name}: tightness per tree level ({} triangles, {} modes, depth {})",
        inspection.triangles, inspection.modes, inspection.depth
    );
    let mut chart = chart(root, caption)
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
    legend(&mut chart, label_font, SeriesLabelPosition::UpperRight)
}

/// Reads and inspects a tree image, then draws [`tightness`] into `output`.
pub fn tightness_of(image: &Path, size: (u32, u32), output: &Path) -> Result<(), RenderError> {
    Format::of(output)?;
    let buf = ImageBuf::read(image)?;
    let header = buf
        .header()
        .map_err(|e| RenderError::new(image, e.to_string()))?;
    let inspection = if header.scalar_bytes == 8 {
        inspect(&buf.parse_named::<f64>(image)?)
    } else {
        inspect(&buf.parse_named::<f32>(image)?)
    };
    let name = image.file_name().map_or_else(
        || image.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    tightness(&inspection, &name, size, output)
}

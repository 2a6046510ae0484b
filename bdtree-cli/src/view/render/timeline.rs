//! A per-step series over a run: the collision time of every step, deformable and rigid.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::picture::{chart, legend, write_picture, FAMILY};
use crate::view::error::RenderError;

/// One curve of [`timeline`]: a name and one value per step.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend's name.
    pub name: String,
    /// One value per step.
    pub values: Vec<f64>,
}

/// Draws `series` (one value per step of `dt` seconds) against simulated time into `output`
/// (`.png` or `.svg`), `size` pixels: `title` above, `unit` on the vertical axis. Each curve
/// is its values thinned to at most one point per horizontal pixel (the largest of each
/// pixel's steps, so no peak is lost).
pub fn timeline(
    series: &[Series],
    dt: f64,
    title: &str,
    unit: &str,
    size: (u32, u32),
    output: &Path,
) -> Result<(), RenderError> {
    write_picture(
        output,
        size,
        |root| draw(root, series, dt, title, unit, size.0),
        |root| draw(root, series, dt, title, unit, size.0),
    )
}

/// `values` as points `(t, v)`, at most `width` of them: each the largest of its steps.
fn thinned(values: &[f64], dt: f64, width: u32) -> Vec<(f64, f64)> {
    let per = values.len().div_ceil(width.max(1) as usize).max(1);
    values
        .chunks(per)
        .enumerate()
        .map(|(k, chunk)| {
            let top = chunk.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            ((k * per) as f64 * dt, top)
        })
        .collect()
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Series],
    dt: f64,
    title: &str,
    unit: &str,
    width: u32,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let steps = series.iter().map(|s| s.values.len()).max().unwrap_or(0);
    let end = (steps.max(1) as f64 * dt).max(dt);
    let top = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let top = if top > 0.0 { top * 1.1 } else { 1.0 };
    let mut chart = chart(root, title)
        .build_cartesian_2d(0.0..end, 0.0..top)
        .map_err(e)?;
    let label_font = (FAMILY, 16).into_font();
    chart
        .configure_mesh()
        .x_desc("simulated time, s")
        .y_desc(unit)
        .axis_desc_style((FAMILY, 18).into_font())
        .label_style(label_font.clone())
        .draw()
        .map_err(e)?;
    let colors = [
        RGBColor(200, 60, 20),
        RGBColor(31, 90, 170),
        RGBColor(40, 140, 60),
        RGBColor(120, 120, 120),
    ];
    for (k, s) in series.iter().enumerate() {
        let color = colors[k % colors.len()];
        let points = thinned(&s.values, dt, width);
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(e)?
            .label(s.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
            });
    }
    legend(&mut chart, label_font, SeriesLabelPosition::UpperLeft)
}

#[cfg(test)]
mod tests {
    use super::thinned;

    #[test]
    fn thinning_keeps_every_peak() {
        let values: Vec<f64> = (0..1000)
            .map(|k| if k == 517 { 9.0 } else { 1.0 })
            .collect();
        let points = thinned(&values, 0.002, 100);
        assert_eq!(points.len(), 100);
        assert_eq!(points.iter().filter(|p| p.1 == 9.0).count(), 1);
        assert_eq!(thinned(&values[..10], 0.002, 100).len(), 10);
    }
}

//! The demo's picture: every chair at the busiest step, the triangles the exact check found in
//! contact highlighted, and the step's penalty contact points.

use std::path::Path;

use super::error::RenderError;
use super::render::{snapshot_with, SnapshotBody, SnapshotOptions};
use crate::sim::chairs::Chair;
use crate::sim::demo::Demo;

/// Draws the busiest step of `demo` into `path` (`.png` or `.svg`).
pub fn picture(chair: &Chair, demo: &Demo, path: &Path) -> Result<(), RenderError> {
    let (worlds, highlighted) = (&demo.worlds, &demo.check.contact_triangles);
    let step = demo.busiest;
    let contacts = &demo.trajectory.contacts[step];
    let bodies: Vec<SnapshotBody> = worlds
        .iter()
        .zip(highlighted)
        .map(|(vertices, high)| SnapshotBody {
            vertices: vertices.clone(),
            triangles: chair.mesh.triangles.clone(),
            highlighted: high.clone(),
            ..SnapshotBody::default()
        })
        .collect();
    let points: Vec<[f64; 3]> = contacts.chairs.iter().map(|p| p.map(f64::from)).collect();
    let caption = format!(
        "bdtree demo: {} flexing chairs at step {step} (t = {:.2} s), the busiest step",
        worlds.len(),
        step as f64 * demo.options.dt
    );
    let options = SnapshotOptions {
        ground: Some(0.0),
        lines: vec![format!(
            "penalty contact points of the step's {} chair–chair proxy contacts; {} triangles of the exact check's intersecting pairs",
            points.len(),
            highlighted.iter().map(Vec::len).sum::<usize>()
        )],
        ..SnapshotOptions::default()
    };
    snapshot_with(&bodies, &points, &caption, &options, path)
}

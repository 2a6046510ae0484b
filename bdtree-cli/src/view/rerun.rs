//! Logging a chairs simulation to a [Rerun](https://rerun.io) recording (feature `rerun`):
//! the kept steps of a demo run, each chair's deformed mesh (its own entity, `chairs/<k>`) and the
//! step's contact points (`contacts/chairs` red, `contacts/ground` orange), on the `step`
//! timeline. Open the file with `rerun FILE.rrd`.

use std::path::{Path, PathBuf};

use crate::sim::chairs::{world_vertices, Chair};
use crate::sim::demo::Kept;

/// Why a recording could not be written: the file and the problem (the recording stream's
/// error, in words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RerunError {
    /// The recording file.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for RerunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for RerunError {}

/// Writes the kept steps `steps` (e.g. every `every`-th of a demo run,
/// [`crate::sim::demo::run_keeping`]) to the Rerun recording `path` (see the module docs).
pub fn log_chairs(chair: &Chair, steps: &[Kept], path: &Path) -> Result<(), RerunError> {
    let fail = |e: &dyn std::fmt::Display| RerunError {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let rec = rerun::RecordingStreamBuilder::new("bdtree_chairs")
        .save(path)
        .map_err(|e| fail(&e))?;
    let triangles: Vec<[u32; 3]> = chair.mesh.triangles.clone();
    rec.log_static(
        "ground",
        &rerun::Boxes3D::from_centers_and_half_sizes([(0.0, 0.0, -0.005)], [(20.0, 20.0, 0.005)])
            .with_colors([rerun::Color::from_rgb(200, 200, 200)]),
    )
    .map_err(|e| fail(&e))?;
    for kept in steps {
        rec.set_time_sequence("step", kept.step as i64);
        for (k, placement) in kept.placements.iter().enumerate() {
            let vertices: Vec<[f32; 3]> = world_vertices(chair, placement)
                .iter()
                .map(|v| v.map(|x| x as f32))
                .collect();
            let mesh = rerun::Mesh3D::new(vertices)
                .with_triangle_indices(triangles.iter().copied())
                .with_albedo_factor(rerun::datatypes::Rgba32::from_rgb(90, 140, 200));
            rec.log(format!("chairs/{k}"), &mesh)
                .map_err(|e| fail(&e))?;
        }
        let contacts = &kept.contacts;
        rec.log(
            "contacts/chairs",
            &rerun::Points3D::new(contacts.chairs.iter().copied())
                .with_colors([rerun::Color::from_rgb(220, 30, 30)])
                .with_radii([0.015]),
        )
        .map_err(|e| fail(&e))?;
        rec.log(
            "contacts/ground",
            &rerun::Points3D::new(contacts.ground.iter().copied())
                .with_colors([rerun::Color::from_rgb(240, 150, 20)])
                .with_radii([0.01]),
        )
        .map_err(|e| fail(&e))?;
    }
    rec.flush_blocking().map_err(|e| fail(&e))?;
    Ok(())
}

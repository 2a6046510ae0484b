//! One scene frame, ready to draw or export ([`FrameGeometry`]): every body deformed (f64,
//! [`crate::oracle::deform`]), its intersecting triangle pairs found with the kernel (f64
//! images), and optionally the overlapping contact proxies and every body's spheres at a tree
//! level ([`crate::host::Body::level_spheres_at`]); a point of each pair's intersection
//! ([`contact_point`]).

use super::scene::{prepare, run_with, set_world_frame, world, RunError};
use crate::build::{BuildOptions, Precision};
use crate::export::{contact_point, BodyGeometry, FrameGeometry};
use crate::io::Scene;

/// What [`frame_geometry`] computes besides the deformed meshes and the contacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GeometryOptions {
    /// The overlapping contact proxies at this depth (the trees are then built nested).
    pub proxies: Option<u32>,
    /// Each body's self-contacts too.
    pub self_pairs: bool,
    /// Every body's deformed spheres at this tree level (the cut of
    /// [`crate::host::level_cut`]).
    pub spheres: Option<u32>,
}

/// Deforms every body of frame `frame` and finds its contacts (see the module documentation).
pub fn frame_geometry(
    scene: &Scene,
    frame: usize,
    options: &GeometryOptions,
) -> Result<FrameGeometry, RunError> {
    let path = &scene.path;
    let Some(states) = scene.frames.get(frame) else {
        return Err(RunError::UnknownFrame {
            scene: path.clone(),
            frame,
            frames: scene.frames.len(),
        });
    };
    let one = Scene {
        path: scene.path.clone(),
        bodies: scene.bodies.clone(),
        frames: vec![states.clone()],
        primitives: Vec::new(),
    };
    let build = BuildOptions {
        precision: Precision::F64,
        nested: options.proxies.is_some(),
        ..BuildOptions::default()
    };
    let prepared = prepare(&one, build).map_err(|error| RunError::Build {
        scene: path.clone(),
        error,
    })?;
    let (results, _) = run_with::<f64>(&one, &prepared, 1, None, options.self_pairs)?;
    let pairs = results.into_iter().next().unwrap_or_default().pairs;
    let proxies = match options.proxies {
        Some(l) => {
            let (results, _) = run_with::<f64>(&one, &prepared, 1, Some(l), false)?;
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
        // f64 at the world origin: the spheres are drawn in world coordinates.
        let mut world = world::<f64>(&one, &prepared)?;
        set_world_frame(&mut world, &one, 0)?;
        for (b, (body, out)) in world
            .bodies_mut()
            .iter_mut()
            .zip(bodies.iter_mut())
            .enumerate()
        {
            out.spheres =
                body.level_spheres_at(level, [0.0; 3])
                    .map_err(|error| RunError::Host {
                        frame: Some(0),
                        body: one.name(b).to_string(),
                        error,
                    })?;
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

//! A scene frame: every body's deformed mesh in its colour, the triangles in contact in red,
//! optionally the overlapping contact proxies' spheres (the paper's Fig. 1).

use std::path::Path;

use super::picture::{Format, View};
use super::snapshot::{snapshot_with, SnapshotBody, SnapshotOptions};
use crate::view::error::RenderError;
use bdtree_std::io::Scene;
use bdtree_std::runner::frame::{frame_geometry, GeometryOptions};

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
    let loaded = Scene::load(scene)?;
    let geometry = frame_geometry(
        &loaded,
        options.frame,
        &GeometryOptions {
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

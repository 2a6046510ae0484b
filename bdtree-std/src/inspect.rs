//! Statistics of a tree image: sizes and the per-level tightness table.
//!
//! The tightness table follows the BD-Tree paper: per tree level, the mean rest radius and the
//! mean radius growth `‖ΔR‖₂` (the Euclidean norm of the node's `ΔR` over the modes — how fast
//! its sphere grows with `|q|`), normalised to the root's. Wrapped spheres deep in the tree
//! grow far less than the root, which is what keeps the updated tree tight.
//!
//! The box table does the same for the box bounds computed from the image
//! ([`crate::obb::box_table`]): mean largest half-extent, mean `‖ΔH‖` (the Frobenius norm of the
//! node's per-mode, per-axis half-extent growths) and the mean box-to-sphere volume ratio of the
//! rest bounds.

use bdtree_core::{Image, Scalar};

/// One level of the tightness table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Level {
    /// Depth (root = 0).
    pub level: u32,
    /// Nodes at this depth.
    pub nodes: usize,
    /// Mean rest radius.
    pub mean_radius: f64,
    /// Mean `‖ΔR‖₂`.
    pub mean_growth: f64,
    /// Mean `‖ΔR‖₂` divided by the root's (0 when the root does not grow).
    pub relative_growth: f64,
    /// Mean largest rest half-extent `max_k H_k` of the node boxes.
    pub mean_half_extent: f64,
    /// Mean `‖ΔH‖` (Frobenius over modes and axes) of the node boxes.
    pub mean_box_growth: f64,
    /// Mean rest box volume over rest sphere volume, `8 H_x H_y H_z / (4/3 π R³)`.
    pub box_to_sphere_volume: f64,
}

/// What `bdtree inspect` reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Inspection {
    /// Format version.
    pub version: u32,
    /// `"f32"` or `"f64"`.
    pub scalar: &'static str,
    /// Triangles.
    pub triangles: usize,
    /// Vertices.
    pub vertices: usize,
    /// Modes.
    pub modes: usize,
    /// Whether the image is nested (proxy queries allowed).
    pub nested: bool,
    /// Nodes.
    pub nodes: usize,
    /// Depth of the deepest node.
    pub depth: u32,
    /// Image size.
    pub bytes: usize,
    /// Bytes of the tree sections (stats, records, spread, links).
    pub tree_bytes: usize,
    /// Bytes of the model sections (positions, basis, faces).
    pub model_bytes: usize,
    /// The tightness table.
    pub levels: Vec<Level>,
}

impl Inspection {
    /// As one JSON object.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Inspects a parsed image.
pub fn inspect<S: Scalar>(image: &Image<'_, S>) -> Inspection {
    let tree = &image.tree;
    let layout = image.header.layout();
    let (tree_bytes, model_bytes) = layout
        .map(|l| (l.lengths[..4].iter().sum(), l.lengths[4..].iter().sum()))
        .unwrap_or((0, 0));
    let boxes = crate::obb::box_table(image);
    let m = tree.modes();
    let mut levels: Vec<Level> = Vec::new();
    let mut root_growth = 0.0;
    for k in 0..tree.node_count() {
        let (Some(record), Some(depth)) = (tree.record(k), tree.node_depth(k)) else {
            continue;
        };
        let radius = record[0][3].to_f64();
        let growth = record[1..]
            .iter()
            .map(|r| r[3].to_f64().powi(2))
            .sum::<f64>()
            .sqrt();
        if k == 0 {
            root_growth = growth;
        }
        let d = depth as usize;
        while levels.len() <= d {
            let level = levels.len() as u32;
            levels.push(Level {
                level,
                nodes: 0,
                mean_radius: 0.0,
                mean_growth: 0.0,
                relative_growth: 0.0,
                mean_half_extent: 0.0,
                mean_box_growth: 0.0,
                box_to_sphere_volume: 0.0,
            });
        }
        let rows = boxes.get(k * (m + 1)..(k + 1) * (m + 1)).unwrap_or(&[]);
        let half = rows
            .first()
            .map_or([0.0; 3], |h| [0, 1, 2].map(|a| h[a].to_f64()));
        let box_growth = rows
            .iter()
            .skip(1)
            .flat_map(|r| r[..3].iter().map(|x| x.to_f64().powi(2)))
            .sum::<f64>()
            .sqrt();
        let sphere_volume = 4.0 / 3.0 * std::f64::consts::PI * radius.powi(3);
        let l = &mut levels[d];
        l.nodes += 1;
        l.mean_radius += radius;
        l.mean_growth += growth;
        l.mean_half_extent += half[0].max(half[1]).max(half[2]);
        l.mean_box_growth += box_growth;
        if sphere_volume > 0.0 {
            l.box_to_sphere_volume += 8.0 * half[0] * half[1] * half[2] / sphere_volume;
        }
    }
    for l in &mut levels {
        l.mean_radius /= l.nodes.max(1) as f64;
        l.mean_growth /= l.nodes.max(1) as f64;
        l.mean_half_extent /= l.nodes.max(1) as f64;
        l.mean_box_growth /= l.nodes.max(1) as f64;
        l.box_to_sphere_volume /= l.nodes.max(1) as f64;
        l.relative_growth = if root_growth > 0.0 {
            l.mean_growth / root_growth
        } else {
            0.0
        };
    }
    Inspection {
        version: image.header.version,
        scalar: S::NAME,
        triangles: image.model.triangles().len(),
        vertices: image.model.positions().len(),
        modes: tree.modes(),
        nested: tree.is_nested(),
        nodes: tree.node_count(),
        depth: tree.depth(),
        bytes: image.header.total_len as usize,
        tree_bytes,
        model_bytes,
        levels,
    }
}

//! Statistics of a tree image: sizes and the per-level tightness table.
//!
//! The tightness table follows the BD-Tree paper: per tree level, the mean rest radius and the
//! mean radius growth `‖ΔR‖₂` (the Euclidean norm of the node's `ΔR` over the modes — how fast
//! its sphere grows with `|q|`), normalised to the root's. Wrapped spheres deep in the tree
//! grow far less than the root, which is what keeps the updated tree tight.
//!
//! The box table does the same for the box bounds computed from the image
//! ([`crate::build::boxes::box_table`]): mean largest half-extent, mean `‖ΔH‖` (the Frobenius
//! norm of the node's per-mode, per-axis half-extent growths) and the mean box-to-sphere volume
//! ratio of the rest bounds.

use bdtree_core::image::Section;
use bdtree_core::{Encoding, Image, Scalar};

use super::cost::{cost_of_queries, QueryCost};
use crate::build::compact::TREE_SECTIONS;
use crate::build::fit::{fit_rows, FitRow};
use crate::host::Tree;
use crate::io::{ImageBuf, Mesh};

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
    /// Mean rest box volume over rest sphere volume, `8 H_x H_y H_z / (4/3 π R³)`. The box
    /// columns are zero for quantized and bounded images (boxes need scalar rows and the mesh).
    pub box_to_sphere_volume: f64,
}

/// What `bdtree inspect` reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Inspection {
    /// Format version.
    pub version: u32,
    /// `"f32"` or `"f64"`.
    pub scalar: &'static str,
    /// Row encoding: `"float"`, `"q16"` or `"q8"`.
    pub encoding: &'static str,
    /// Whether only the top levels are stored (no mesh; proxy queries only).
    pub bounded: bool,
    /// Whether the mesh and basis are stored as 16-bit codes.
    pub model_16_bit: bool,
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
    /// Bytes of the tree sections (stats, records, spread, links, scales).
    pub tree_bytes: usize,
    /// `tree_bytes` per node.
    pub tree_bytes_per_node: f64,
    /// Mean `‖ΔR‖₂` over all nodes.
    pub mean_growth: f64,
    /// Bytes of the model sections (positions, basis, faces).
    pub model_bytes: usize,
    /// This tree's share of a swept front's entries ([`swept_front_share`]): a pair's front
    /// holds about the two trees' shares, its storage twice that.
    pub swept_front_share: usize,
    /// Bytes of one swept front entry in this image's scalar (C:
    /// `bdtree_swept_front_entry_f32`/`_f64`).
    pub swept_front_entry_bytes: usize,
    /// The tightness table.
    pub levels: Vec<Level>,
    /// Zero-area (point, segment) and sliver triangles of the stored mesh.
    pub degenerate: crate::build::quality::Counts,
    /// The per-level fit table ([`fit_table`]), when it was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<FitTable>,
}

/// The per-level fit of a tree's spheres to its body ([`crate::build::fit`]): Bradshaw's error
/// and the volume outside, levels 0 to [`FIT_LEVELS`] at most.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FitTable {
    /// One row per level; empty when the body has no inside.
    pub rows: Vec<FitRow>,
    /// Why there are no rows: `"open mesh: no inside"`, or the image stores no mesh.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The deepest level of the fit table (2047 spheres at most: the measure samples each).
pub const FIT_LEVELS: u32 = 10;

/// The fit table of an image's tree against its stored rest mesh (`O(400,000 log)` for the
/// surface points, then 256 samples per sphere of levels 0 to [`FIT_LEVELS`]).
pub fn fit_table<S: Scalar>(image: &Image<'_, S>) -> FitTable {
    let (tree, model) = (&image.tree, &image.model);
    if tree.is_bounded() || model.vertex_count() == 0 {
        return FitTable {
            rows: Vec::new(),
            note: Some("bounded image: no mesh".into()),
        };
    }
    let mesh = Mesh {
        vertices: (0..model.vertex_count())
            .map(|i| model.position(i).unwrap_or([S::ZERO; 3]).map(S::to_f64))
            .collect(),
        triangles: model.triangles().to_vec(),
    };
    match fit_rows(&mesh, tree, 0..=tree.depth().min(FIT_LEVELS)) {
        Ok(rows) => FitTable { rows, note: None },
        Err(_) => FitTable {
            rows: Vec::new(),
            note: Some("open mesh: no inside".into()),
        },
    }
}

/// Swept front entries per node of each tree of a pair ([`swept_front_share`]).
pub const SWEPT_FRONT_PER_NODE: usize = 4;

/// A tree's share of a swept front (`bdtree_core::SweptFront`, C
/// `bdtree_collide_swept_front_*`): `SWEPT_FRONT_PER_NODE × nodes` entries. A pair's front needs
/// about the sum of its two trees' shares, and its storage twice that (the front and its
/// successor; C `bdtree_swept_front_entries`). A guide measured on contact in small patches —
/// the largest front a pair reached, over every tick of the resting pad at 60 Hz to 1 kHz, the
/// swept fixtures (`tunnel`, `plate`, `flap`, as given and sub-stepped 8 times) and the
/// `touching` fixture, was 0.8 to 3.9 times the two trees' nodes (`cargo test -p bdtree-c
/// front_sizes -- --nocapture`). Contact spread over large areas needs more (the `demo`,
/// `thin`, `rigid` and `fold` fixtures: 5 to 35 times), and a front
/// keeps the finest partition it reached while the pair stays in its storage. A front too large
/// for its storage costs time only: it is dropped and the next query walks from the root.
pub fn swept_front_share(nodes: usize) -> usize {
    nodes.saturating_mul(SWEPT_FRONT_PER_NODE)
}

/// Inspects a parsed image.
pub fn inspect<S: Scalar>(image: &Image<'_, S>) -> Inspection {
    let tree = &image.tree;
    let layout = image.header.layout();
    let (tree_bytes, model_bytes) = layout
        .map(|l| {
            let sum = |sections: &[Section]| sections.iter().map(|&s| l.len_of(s)).sum::<usize>();
            (
                sum(&TREE_SECTIONS)
                    + sum(&[
                        Section::Signatures,
                        Section::Contours,
                        Section::Certificates,
                    ]),
                sum(&[Section::Positions, Section::Basis, Section::Faces]),
            )
        })
        .unwrap_or((0, 0));
    // Box bounds are computed from the mesh and the scalar rows.
    let boxes = if tree.encoding() == Encoding::Float && !tree.is_bounded() {
        crate::build::boxes::box_table(image)
    } else {
        Vec::new()
    };
    let m = tree.modes();
    let mut levels: Vec<Level> = Vec::new();
    let mut root_growth = 0.0;
    let mut total_growth = 0.0;
    for k in 0..tree.node_count() {
        let (Some(head), Some(depth)) = (tree.row(k, 0), tree.node_depth(k)) else {
            continue;
        };
        let radius = head[3].to_f64();
        let growth = (1..=m)
            .filter_map(|r| tree.row(k, r))
            .map(|r| r[3].to_f64().powi(2))
            .sum::<f64>()
            .sqrt();
        total_growth += growth;
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
        encoding: tree.encoding().name(),
        bounded: tree.is_bounded(),
        model_16_bit: image.model.is_quantized(),
        triangles: tree.triangle_count(),
        vertices: image.model.vertex_count(),
        modes: tree.modes(),
        nested: tree.is_nested(),
        nodes: tree.node_count(),
        depth: tree.depth(),
        bytes: image.header.total_len as usize,
        tree_bytes,
        tree_bytes_per_node: tree_bytes as f64 / tree.node_count().max(1) as f64,
        mean_growth: total_growth / tree.node_count().max(1) as f64,
        model_bytes,
        swept_front_share: swept_front_share(tree.node_count()),
        swept_front_entry_bytes: core::mem::size_of::<bdtree_core::FrontEntry<S>>(),
        levels,
        degenerate: crate::build::quality::image_counts(image),
        fit: None,
    }
}

/// The tightness cost of a compact image against the complete f32 image it was made from.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Comparison {
    /// Size of the image over the reference's.
    pub bytes_ratio: f64,
    /// Proxy depth of the queries (the image's depth).
    pub proxy_depth: u32,
    /// Mean `‖ΔR‖₂` over the nodes of depth `≤ proxy_depth`: image.
    pub mean_growth: f64,
    /// The same for the reference.
    pub reference_mean_growth: f64,
    /// Queries run on each.
    pub queries: usize,
    /// Sphere overlap tests per query: image.
    pub overlap_tests: f64,
    /// The same for the reference.
    pub reference_overlap_tests: f64,
    /// Proxy pairs per query: image.
    pub proxy_pairs: f64,
    /// The same for the reference.
    pub reference_proxy_pairs: f64,
}

impl Comparison {
    /// Overlap tests per query relative to the reference (1.10 = 10 % more).
    pub fn test_ratio(&self) -> f64 {
        self.overlap_tests / self.reference_overlap_tests.max(1e-300)
    }
}

/// Compares `image` (compact) with `reference` (the complete f32 image of the same body):
/// sizes, mean radius growth over the levels both store, and the sphere overlap tests of
/// `queries` proxy queries at the image's depth between two copies placed identically
/// ([`cost_of_queries`]). `None` when the two do not describe the same tree (modes, triangles
/// or root center differ) or one is not a valid f32 image.
pub fn compare(image: &ImageBuf, reference: &ImageBuf, queries: usize) -> Option<Comparison> {
    let (image_tree, reference_tree) = (
        Tree::new(image.clone()).ok()?,
        Tree::new(reference.clone()).ok()?,
    );
    let (image, reference) = (image.parse::<f32>().ok()?, reference.parse::<f32>().ok()?);
    let (a, b) = (&image.tree, &reference.tree);
    if a.modes() != b.modes()
        || a.triangle_count() != b.triangle_count()
        // Same root center (a 16-bit mesh grows the radii).
        || a.rest_sphere(0).map(|s| [s[0], s[1], s[2]]) != b.rest_sphere(0).map(|s| [s[0], s[1], s[2]])
    {
        return None;
    }
    let depth = a.depth();
    let growth = |t: &bdtree_core::TreeView<'_, f32>| {
        let (mut sum, mut n) = (0.0, 0usize);
        for k in 0..t.node_count() {
            if t.node_depth(k).is_some_and(|d| d <= depth) {
                sum += (1..=t.modes())
                    .filter_map(|r| t.row(k, r))
                    .map(|r| f64::from(r[3]).powi(2))
                    .sum::<f64>()
                    .sqrt();
                n += 1;
            }
        }
        sum / n.max(1) as f64
    };
    let per = |c: QueryCost, x: u64| x as f64 / c.queries.max(1) as f64;
    let ca = cost_of_queries(&image_tree, depth, queries, 0x5eed);
    let cb = cost_of_queries(&reference_tree, depth, queries, 0x5eed);
    Some(Comparison {
        bytes_ratio: image.header.total_len as f64 / reference.header.total_len.max(1) as f64,
        proxy_depth: depth,
        mean_growth: growth(a),
        reference_mean_growth: growth(b),
        queries: ca.queries,
        overlap_tests: per(ca, ca.overlap_tests),
        reference_overlap_tests: per(cb, cb.overlap_tests),
        proxy_pairs: per(ca, ca.proxy_pairs),
        reference_proxy_pairs: per(cb, cb.proxy_pairs),
    })
}

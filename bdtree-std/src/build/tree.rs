//! Building BD-Trees in f64 and writing tree images.
//!
//! Top-down: a node's triangles are split at the median of their centroids along the longest
//! axis of the node's vertex bounding box (in rest space, or with [`Grouping::Motion`] in rest
//! space plus scaled displacements), down to one triangle per leaf. Nodes are stored in
//! sibling pairs (the image format's version 4): the root first, then the two children of each
//! internal node side by side, the left one at an odd index, pairs in depth-first order (a
//! node's pair before its descendants'). Per node, over the set `L` of vertices of its
//! triangles:
//!
//! * the rest sphere wraps `L` (Welzl's minimal enclosing sphere by default, or the sphere
//!   around the bounding-box center — both radii are reported);
//! * `Ū_j` is the mean of `U_ij` over `L` (or, with [`ModeCenter::MinimalBall`], the center of
//!   the minimal ball around the points `U_ij`), `ΔR_j = max_L |U_ij − Ū_j|`;
//! * `D = max_L ‖U_i − Ū‖_F` (Frobenius, an upper bound of the spectral norm).
//!
//! The model is rounded to the image's scalar first and every bound is computed in f64 from the
//! rounded model with the rounded center and `Ū`, then rounded outward, so the stored bounds
//! hold exactly for the stored model.

use bdtree_core::image::tree::NONE;
use bdtree_core::image::{Layout, Optional, Section};

use std::cmp::Ordering;

use super::error::BuildError;
use super::fitted::{fitted_spheres, FitBody, Fitted, Nodes};
use super::medial::{medial_balls, medial_keys, MedialKey, NotClosed, THIN};
use super::welzl::minimal_ball;
use super::writer::{ImageWriter, MagnitudeBounds};
use crate::io::{Basis, ImageBuf, Mesh};
use crate::vec3::bounding_box;

/// The scalar of an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Precision {
    /// 4-byte floats: for microcontrollers, half the size.
    #[default]
    F32,
    /// 8-byte floats.
    F64,
}

impl Precision {
    /// Scalar size in bytes.
    pub fn bytes(self) -> u32 {
        match self {
            Self::F32 => 4,
            Self::F64 => 8,
        }
    }
}

/// How rest spheres are fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SphereFit {
    /// Welzl's minimal enclosing sphere.
    #[default]
    Welzl,
    /// Centered on the bounding box of the node's vertices.
    BoxCenter,
}

/// How a node's per-mode center displacement `Ū_j` is chosen. Either way
/// `ΔR_j = max_L |U_ij − Ū_j|` is computed from the rounded `Ū_j`, so the choice only changes
/// tightness, never containment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ModeCenter {
    /// The mean of `U_ij` over the node's vertices (the paper's choice).
    Mean,
    /// The center of the minimal enclosing ball of the 3D points `{U_ij}` (Welzl): the `Ū_j`
    /// that minimises `ΔR_j`, up to rounding. Costs one Welzl run per node and mode
    /// (expected linear in the node's vertices). The default: 7–15 % smaller mean `‖ΔR‖₂` than
    /// [`ModeCenter::Mean`] on the fixture meshes (the book's `docs/src/performance/bounds.md`).
    #[default]
    #[cfg_attr(feature = "clap", value(name = "ball"))]
    MinimalBall,
}

/// How the top-down split groups triangles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Grouping {
    /// Median split of the rest centroids along the longest axis of the vertex box (the
    /// paper's split).
    Rest,
    /// Per node, the better of two median splits: the rest split, or the split along the
    /// longest axis of the displacement part of the `(3 + 3M)`-dimensional space
    /// `[p_i, α·U_i1, …, α·U_iM]`. "Better" is the smaller estimated swept size of the
    /// children, `Σ (r + α·‖ΔR‖₂)` from bounding boxes. Measured, the gain comes from the extra
    /// (oblique) split direction more than from the weighting: it is the same at tiny weights.
    /// `α` is [`BuildOptions::motion_weight`] times the ratio of the root's largest rest
    /// extent to its largest displacement extent: at weight 1 the root's largest displacement
    /// spread equals its largest rest spread; smaller weights stand for smaller `|q|`.
    /// The default: never worse than [`Grouping::Rest`] on the fixture scenes' overlap tests
    /// (the book's `docs/src/performance/bounds.md`).
    #[default]
    Motion,
}

/// Which partition of the triangles the tree is built on. Either way the image has the same
/// format and shape (halves at every split), and every node's sphere wraps its own triangles:
/// only which triangles share a node differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum TreeKind {
    /// The BD paper's top-down median split ([`Grouping`] chooses its direction).
    #[default]
    Median,
    /// Splits chosen from an approximation of the body's medial axis
    /// ([`medial`](super::medial)): closed meshes only ([`BuildError::NotClosed`] otherwise);
    /// [`Grouping`] and [`BuildOptions::motion_weight`] are ignored (the partition is of the
    /// rest shape). Every node also gets a fitted sphere placed to fit the body, with its rest
    /// reach ([`fit`](super::fit)); a median-split tree's fitted spheres are its exact ones
    /// ([`Fitted::exact`]).
    Medial,
}

impl TreeKind {
    /// The name of the partition in scene files, Python and the command line (`"median"`,
    /// `"medial"`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Median => "median",
            Self::Medial => "medial",
        }
    }
}

impl std::str::FromStr for TreeKind {
    type Err = String;

    /// Parses [`TreeKind::name`]; the error names the value and the choices.
    fn from_str(s: &str) -> Result<Self, String> {
        [Self::Median, Self::Medial]
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown tree \"{s}\" (expected \"median\" or \"medial\")"))
    }
}

/// Options of [`build`].
#[derive(Debug, Clone, Copy)]
pub struct BuildOptions {
    /// Which partition the tree is built on.
    pub tree: TreeKind,
    /// Scalar of the image.
    pub precision: Precision,
    /// Rest sphere fit.
    pub sphere: SphereFit,
    /// Rule for the per-mode center displacement `Ū_j`.
    pub mode_center: ModeCenter,
    /// How the split groups triangles.
    pub grouping: Grouping,
    /// Multiplier of the automatic displacement scale `α` of [`Grouping::Motion`] (ignored by
    /// [`Grouping::Rest`]); 1 makes the largest displacement extent equal the largest rest
    /// extent at the root.
    pub motion_weight: f64,
    /// Enlarge every internal node to contain its children's bounds for every `q` (a nested
    /// image, [`bdtree_core::image::FLAG_NESTED`]): needed by bounded-depth proxy queries
    /// ([`bdtree_core::query::proxies`]); costs some tightness in the upper levels (measured in
    /// the book's `docs/src/performance/proxies.md`).
    pub nested: bool,
    /// Store fitted spheres ([`super::fitted`]; a medial tree always does, 20 B/node in f32).
    pub fitted: bool,
    /// Store the self-collision culling data ([`super::with_self_data`]) so the kernel culls
    /// from the image alone. Off by default (images stay small); give it for a body used for
    /// self-collision.
    pub self_cull: bool,
}

impl BuildOptions {
    /// The units of work a build of `triangles` triangles reports to its `progress`
    /// ([`build`]): one per leaf, plus one per medial ball for a medial tree.
    pub fn work(&self, triangles: usize) -> usize {
        match self.tree {
            TreeKind::Median => triangles,
            TreeKind::Medial => 2 * triangles,
        }
    }
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            tree: TreeKind::default(),
            precision: Precision::default(),
            sphere: SphereFit::default(),
            mode_center: ModeCenter::default(),
            grouping: Grouping::default(),
            motion_weight: 1.0,
            nested: false,
            fitted: false,
            self_cull: false,
        }
    }
}

/// What a build produced, beside the image.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    /// Nodes.
    pub nodes: usize,
    /// Depth of the deepest node (root = 0).
    pub depth: u32,
    /// Modes.
    pub modes: usize,
    /// Image size in bytes.
    pub bytes: usize,
    /// Mean rest radius over all nodes with Welzl spheres.
    pub mean_radius_welzl: f64,
    /// Mean rest radius over all nodes with bounding-box-centered spheres.
    pub mean_radius_box: f64,
    /// Nodes where the Welzl sphere is strictly smaller.
    pub welzl_smaller: usize,
    /// Mean radius growth `‖ΔR‖₂` (Euclidean norm over the modes) over all nodes, as stored.
    pub mean_growth: f64,
}

/// One node as built, in f64, before storage.
#[derive(Debug, Clone)]
struct Node {
    center: [f64; 3],
    radius: f64,
    ubar: Vec<[f64; 3]>,
    growth: Vec<f64>,
    spread: f64,
    links: [u32; 4],
}

struct Builder<'a> {
    positions: Vec<[f64; 3]>,
    basis: Vec<f64>,
    triangles: &'a [[u32; 3]],
    modes: usize,
    precision: Precision,
    fit: SphereFit,
    mode_center: ModeCenter,
    grouping: Grouping,
    /// `α` of [`Grouping::Motion`].
    alpha: f64,
    /// The triangles' medial keys, for [`TreeKind::Medial`].
    medial: Option<Vec<MedialKey>>,
    nodes: Vec<Node>,
    report: BuildReport,
    progress: &'a mut dyn FnMut(usize),
}

/// Rounds an f64 to the precision's scalar (and back, exactly).
fn round(precision: Precision, x: f64) -> f64 {
    match precision {
        Precision::F32 => f64::from(x as f32),
        Precision::F64 => x,
    }
}

/// Rounds a non-negative bound up to the precision's scalar, after a relative slack that
/// covers the f64 arithmetic that computed it.
fn round_up(precision: Precision, x: f64) -> f64 {
    let x = x * (1.0 + 1e-12);
    match precision {
        Precision::F32 => {
            let y = x as f32;
            f64::from(if f64::from(y) < x { y.next_up() } else { y })
        }
        Precision::F64 => x.next_up(),
    }
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The nodes renumbered in sibling pairs (see the module docs): the root at 0, then each
/// internal node's children as the pair `(2k + 1, 2k + 2)`, pairs depth first. Children keep
/// larger indices than their parent. `nodes[0]` is the root.
fn sibling_order(nodes: Vec<Node>) -> Vec<Node> {
    let children = |node: &Node| {
        let [left, right, triangle, _] = node.links;
        (triangle == NONE && left != NONE).then_some([left, right])
    };
    // New position to old index, depth first over pairs.
    let mut order: Vec<u32> = Vec::with_capacity(nodes.len());
    order.push(0);
    let mut pending = vec![0u32];
    while let Some(old) = pending.pop() {
        if let Some([left, right]) = children(&nodes[old as usize]) {
            order.extend([left, right]);
            pending.extend([right, left]);
        }
    }
    let mut new_of = vec![0u32; nodes.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of[old as usize] = new as u32;
    }
    order
        .iter()
        .map(|&old| {
            let mut node = nodes[old as usize].clone();
            if let Some([left, right]) = children(&node) {
                node.links[0] = new_of[left as usize];
                node.links[1] = new_of[right as usize];
            }
            node
        })
        .collect()
}

impl Builder<'_> {
    fn u(&self, vertex: u32, axis: usize, mode: usize) -> f64 {
        self.basis[(3 * vertex as usize + axis) * self.modes + mode]
    }

    /// Builds the subtree over `tris` and returns its index.
    fn node(&mut self, tris: &mut [u32], depth: u32) -> u32 {
        let index = self.nodes.len() as u32;
        self.report.depth = self.report.depth.max(depth);
        let mut verts: Vec<u32> = tris
            .iter()
            .flat_map(|&t| self.triangles[t as usize])
            .collect();
        verts.sort_unstable();
        verts.dedup();
        let node = self.bounds(&verts, depth);
        self.nodes.push(node);
        if let [t] = *tris {
            self.nodes[index as usize].links = [NONE, NONE, t, depth];
            (self.progress)(1);
            return index;
        }
        if self.medial.is_some() {
            self.split_medial(tris, &verts);
        } else if self.grouping == Grouping::Motion && self.modes > 0 {
            self.split_motion(tris, &verts);
        } else {
            self.split_rest(tris, &verts);
        }
        let mid = tris.len() / 2;
        let (left_tris, right_tris) = tris.split_at_mut(mid);
        let left = self.node(left_tris, depth + 1);
        let right = self.node(right_tris, depth + 1);
        self.nodes[index as usize].links = [left, right, NONE, depth];
        index
    }

    /// Reorders `tris` so that the first half lies below the median (the paper's split).
    fn split_rest(&self, tris: &mut [u32], verts: &[u32]) {
        // Median split of the centroids along the longest axis of the vertex box.
        let (lo, hi) = bounding_box(verts.iter().map(|&v| self.positions[v as usize]));
        let axis = (0..3)
            .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
            .unwrap_or(0);
        let centroid = |t: u32| -> f64 {
            self.triangles[t as usize]
                .iter()
                .map(|&v| self.positions[v as usize][axis])
                .sum::<f64>()
        };
        let mid = tris.len() / 2;
        tris.select_nth_unstable_by(mid, |&a, &b| {
            centroid(a).total_cmp(&centroid(b)).then(a.cmp(&b))
        });
    }

    /// The medial split (see [`medial`](super::medial)): on a thick node the paper's split
    /// ([`Self::split_rest`]); on a thin one, of the paper's split and the median splits of the
    /// medial keys along x, y and z, the one whose halves' spheres have the smaller summed
    /// volume `Σ 4π/3 R³` (`R` box-centered over the half's vertices). `O(n)` per candidate
    /// plus the selections.
    fn split_medial(&self, tris: &mut [u32], verts: &[u32]) {
        let Some(keys) = self.medial.as_deref() else {
            return;
        };
        let mid = tris.len() / 2;
        let cost = |order: &[u32]| -> f64 {
            [&order[..mid], &order[mid..]]
                .iter()
                .map(|half| {
                    let verts = || half.iter().flat_map(|&t| self.triangles[t as usize]);
                    let (lo, hi) = bounding_box(verts().map(|v| self.positions[v as usize]));
                    let c = [0, 1, 2].map(|k| 0.5 * (lo[k] + hi[k]));
                    let r = verts()
                        .map(|v| dist(c, self.positions[v as usize]))
                        .fold(0.0, f64::max);
                    4.0 / 3.0 * std::f64::consts::PI * r.powi(3)
                })
                .sum()
        };
        self.split_rest(tris, verts);
        let (lo, hi) = bounding_box(verts.iter().map(|&v| self.positions[v as usize]));
        let half_diagonal = 0.5 * dist(lo, hi);
        let mean_radius =
            tris.iter().map(|&t| keys[t as usize].radius).sum::<f64>() / tris.len() as f64;
        // Thick (or not finite): the paper's split.
        let thin = mean_radius.partial_cmp(&(THIN * half_diagonal)) == Some(Ordering::Less);
        if !thin {
            return;
        }
        let mut best = cost(tris);
        for axis in 0..3 {
            let mut medial = tris.to_vec();
            medial.select_nth_unstable_by(mid, |&a, &b| {
                let (ka, kb) = (keys[a as usize].key[axis], keys[b as usize].key[axis]);
                ka.total_cmp(&kb).then(a.cmp(&b))
            });
            let c = cost(&medial);
            if c < best {
                best = c;
                tris.copy_from_slice(&medial);
            }
        }
    }

    /// Coordinate `d` of vertex `v` in the motion feature space `[p, α·U_1, …, α·U_M]`.
    fn feature(&self, v: u32, d: usize) -> f64 {
        if d < 3 {
            self.positions[v as usize][d]
        } else {
            let (j, k) = ((d - 3) / 3, (d - 3) % 3);
            self.alpha * self.u(v, k, j)
        }
    }

    /// The motion-aware split: two candidates, the paper's rest split and the median split
    /// along the longest axis of the vertex box in the feature space `[p, α·U_1, …, α·U_M]`;
    /// keeps the one whose children have the smaller estimated swept size
    /// `Σ_children (r + α·‖ΔR‖₂)`, with `r` and `ΔR_j` estimated as half-diagonals of the
    /// child's boxes of rest positions and of mode-`j` displacements. `O((3 + 3M)·|L|)` per
    /// candidate, plus the selections.
    fn split_motion(&self, tris: &mut [u32], verts: &[u32]) {
        let dims = 3 + 3 * self.modes;
        let (lo, hi) = self.feature_box(verts.iter().copied());
        let axis = (3..dims)
            .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
            .unwrap_or(0);
        self.split_rest(tris, verts);
        let rest_cost = self.split_cost(tris);
        let mut moved = tris.to_vec();
        let mut keys: Vec<(f64, u32)> = moved
            .iter()
            .map(|&t| {
                let key = self.triangles[t as usize]
                    .iter()
                    .map(|&v| self.feature(v, axis))
                    .sum::<f64>();
                (key, t)
            })
            .collect();
        let mid = tris.len() / 2;
        keys.select_nth_unstable_by(mid, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (slot, (_, t)) in moved.iter_mut().zip(keys) {
            *slot = t;
        }
        if self.split_cost(&moved) < rest_cost {
            tris.copy_from_slice(&moved);
        }
    }

    /// Box of the feature vectors of some vertices.
    fn feature_box(&self, verts: impl Iterator<Item = u32>) -> (Vec<f64>, Vec<f64>) {
        let dims = 3 + 3 * self.modes;
        let mut lo = vec![f64::INFINITY; dims];
        let mut hi = vec![f64::NEG_INFINITY; dims];
        for v in verts {
            for d in 0..dims {
                let x = self.feature(v, d);
                lo[d] = lo[d].min(x);
                hi[d] = hi[d].max(x);
            }
        }
        (lo, hi)
    }

    /// Estimated swept size of the two halves of `tris` (split at the median index).
    fn split_cost(&self, tris: &[u32]) -> f64 {
        let (left, right) = tris.split_at(tris.len() / 2);
        [left, right]
            .iter()
            .map(|half| {
                let verts = half.iter().flat_map(|&t| self.triangles[t as usize]);
                let (lo, hi) = self.feature_box(verts);
                let ext2 = |d: usize| (hi[d] - lo[d]).powi(2);
                let rest = (0..3).map(ext2).sum::<f64>().sqrt();
                let moving = (3..lo.len()).map(ext2).sum::<f64>().sqrt();
                0.5 * (rest + moving)
            })
            .sum()
    }

    /// Sphere, Ū, ΔR and D of a node over its vertex set, in the precision's values.
    fn bounds(&mut self, verts: &[u32], _depth: u32) -> Node {
        let p = self.precision;
        let mut pts: Vec<[f64; 3]> = verts.iter().map(|&v| self.positions[v as usize]).collect();
        let (lo, hi) = bounding_box(pts.iter().copied());
        let box_center = [
            (lo[0] + hi[0]) * 0.5,
            (lo[1] + hi[1]) * 0.5,
            (lo[2] + hi[2]) * 0.5,
        ];
        let box_center = box_center.map(|x| round(p, x));
        let box_radius = pts.iter().map(|&q| dist(box_center, q)).fold(0.0, f64::max);
        let ball = minimal_ball(&mut pts);
        let welzl_center = ball.center.map(|x| round(p, x));
        let welzl_radius = verts
            .iter()
            .map(|&v| dist(welzl_center, self.positions[v as usize]))
            .fold(0.0, f64::max);
        self.report.mean_radius_box += box_radius;
        self.report.mean_radius_welzl += welzl_radius;
        if welzl_radius < box_radius {
            self.report.welzl_smaller += 1;
        }
        let (center, radius) = match self.fit {
            SphereFit::Welzl => (welzl_center, welzl_radius),
            SphereFit::BoxCenter => (box_center, box_radius),
        };

        let m = self.modes;
        let count = verts.len() as f64;
        let mut ubar = vec![[0.0f64; 3]; m];
        for (j, u) in ubar.iter_mut().enumerate() {
            match self.mode_center {
                ModeCenter::Mean => {
                    for (k, uk) in u.iter_mut().enumerate() {
                        let sum: f64 = verts.iter().map(|&v| self.u(v, k, j)).sum();
                        *uk = round(p, sum / count);
                    }
                }
                ModeCenter::MinimalBall => {
                    let mut pts: Vec<[f64; 3]> = verts
                        .iter()
                        .map(|&v| [0, 1, 2].map(|k| self.u(v, k, j)))
                        .collect();
                    let ball = minimal_ball(&mut pts);
                    // A non-finite center (cannot happen for finite points, but cheap to
                    // exclude) falls back to the first point; ΔR_j below covers any center.
                    let center = if ball.center.iter().all(|x| x.is_finite()) {
                        ball.center
                    } else {
                        [0, 1, 2].map(|k| self.u(verts[0], k, j))
                    };
                    *u = center.map(|x| round(p, x));
                }
            }
        }
        let mut growth = vec![0.0f64; m];
        let mut spread = 0.0f64;
        for &v in verts {
            // ‖U_i‖_F ≥ ‖U_i‖₂: the radius growth per unit of ‖δq‖₂ around a kept center.
            let mut frob = 0.0;
            for j in 0..m {
                let d = [0, 1, 2].map(|k| self.u(v, k, j) - ubar[j][k]);
                let len2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                growth[j] = growth[j].max(len2.sqrt());
                frob += [0, 1, 2]
                    .map(|k| self.u(v, k, j).powi(2))
                    .iter()
                    .sum::<f64>();
            }
            spread = spread.max(frob.sqrt() * (1.0 + 4.0 * f64::EPSILON));
        }
        Node {
            center,
            radius: round_up(p, radius),
            ubar,
            growth: growth.into_iter().map(|g| round_up(p, g)).collect(),
            spread: round_up(p, spread),
            links: [NONE; 4],
        }
    }
}

/// The automatic `α` of [`Grouping::Motion`]: the largest extent of the rest positions over
/// the largest extent of any coordinate of any mode's displacements (1 when nothing moves).
fn motion_scale(positions: &[[f64; 3]], basis: &[f64], modes: usize) -> f64 {
    let extent = |values: &mut dyn Iterator<Item = f64>| {
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
        (hi - lo).max(0.0)
    };
    let rest = (0..3)
        .map(|k| extent(&mut positions.iter().map(|p| p[k])))
        .fold(0.0, f64::max);
    let moving = (0..3 * modes)
        .map(|c| {
            extent(
                &mut basis
                    .iter()
                    .skip(c / 3 + (c % 3) * modes)
                    .step_by(3 * modes)
                    .copied(),
            )
        })
        .fold(0.0, f64::max);
    if moving > 0.0 && rest > 0.0 && (rest / moving).is_finite() {
        rest / moving
    } else {
        1.0
    }
}

/// Makes every internal node contain its children for every `q`, bottom-up (children have
/// larger indices than their parent): `R_p ≥ ‖c_c − c_p‖ + R_c`, `ΔR_pj ≥ ‖Ū_cj − Ū_pj‖ + ΔR_cj`
/// and `D_p ≥ D_c`, on the stored (already rounded) values, rounded up. Then for every `q`
/// `‖c_c(q) − c_p(q)‖ + R_c(q) ≤ ‖c_c − c_p‖ + Σ_j ‖Ū_cj − Ū_pj‖ |q_j| + R_c + Σ_j ΔR_cj |q_j|
/// ≤ R_p(q)`: the child's updated sphere lies in the parent's.
fn nest(nodes: &mut [Node], p: Precision) {
    for i in (0..nodes.len()).rev() {
        let [left, right, triangle, _] = nodes[i].links;
        if triangle != NONE {
            continue;
        }
        // The f64 differences of f64 values round by at most u·max(|a|, |b|) per coordinate:
        // `gap` bounds the distance from above (`round_up` adds a relative slack on top).
        let gap = |a: [f64; 3], b: [f64; 3]| {
            let size = a.iter().chain(&b).fold(0.0f64, |m, x| m.max(x.abs()));
            dist(a, b) + 4.0 * f64::EPSILON * size
        };
        for c in [left as usize, right as usize] {
            let (head, tail) = nodes.split_at_mut(c);
            let (parent, child) = (&mut head[i], &tail[0]);
            let wrap = gap(child.center, parent.center) + child.radius;
            parent.radius = parent.radius.max(round_up(p, wrap));
            for j in 0..parent.growth.len() {
                let wrap = gap(child.ubar[j], parent.ubar[j]) + child.growth[j];
                parent.growth[j] = parent.growth[j].max(round_up(p, wrap));
            }
            parent.spread = parent.spread.max(child.spread);
        }
    }
}

/// Builds the BD-Tree of a mesh (and its basis; `None` for a rigid body) and writes the image.
/// `progress` is called with the units of work finished since its last call: one per leaf,
/// and for a medial tree first one per triangle's medial ball ([`BuildOptions::work`] units in
/// all).
pub fn build(
    mesh: &Mesh,
    basis: Option<&Basis>,
    options: BuildOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<(ImageBuf, BuildReport), BuildError> {
    let n = mesh.vertices.len();
    if mesh.triangles.is_empty() {
        return Err(BuildError::BadMesh("the mesh has no triangles".into()));
    }
    if let Some(t) = mesh
        .triangles
        .iter()
        .position(|f| f.iter().any(|&v| v as usize >= n))
    {
        return Err(BuildError::BadMesh(format!(
            "triangle {t} refers to a missing vertex"
        )));
    }
    if mesh.vertices.iter().flatten().any(|x| !x.is_finite()) {
        return Err(BuildError::BadMesh(
            "a vertex coordinate is not finite".into(),
        ));
    }
    let (modes, basis_data) = match basis {
        Some(b) => {
            if b.vertices != n {
                return Err(BuildError::BadBasis(format!(
                    "basis has {} rows ({} vertices) but the mesh has {n} vertices",
                    3 * b.vertices,
                    b.vertices
                )));
            }
            if b.data.len() != 3 * n * b.modes || b.data.iter().any(|x| !x.is_finite()) {
                return Err(BuildError::BadBasis(
                    "basis data is short or not finite".into(),
                ));
            }
            (b.modes, b.data.as_slice())
        }
        None => (0, &[][..]),
    };
    let p = options.precision;
    let t = mesh.triangles.len();
    let with_fitted = options.fitted || options.tree == TreeKind::Medial;
    let layout = Layout::new(p.bytes() as usize, modes, 2 * t - 1, t, n)
        .and_then(|l| {
            l.with_optional(Optional {
                fitted: with_fitted,
                self_cull: None,
            })
        })
        .ok_or(BuildError::TooLarge)?;
    let balls = match options.tree {
        TreeKind::Median => None,
        TreeKind::Medial => Some(
            medial_balls(mesh, &mut *progress).map_err(|NotClosed(m)| BuildError::NotClosed(m))?,
        ),
    };
    let mut builder = Builder {
        positions: mesh
            .vertices
            .iter()
            .map(|v| v.map(|x| round(p, x)))
            .collect(),
        basis: basis_data.iter().map(|&x| round(p, x)).collect(),
        triangles: &mesh.triangles,
        modes,
        precision: p,
        fit: options.sphere,
        mode_center: options.mode_center,
        grouping: options.grouping,
        alpha: 0.0,
        medial: balls.as_ref().map(|b| medial_keys(mesh, b)),
        nodes: Vec::with_capacity(2 * t - 1),
        report: BuildReport::default(),
        progress,
    };
    if options.grouping == Grouping::Motion {
        builder.alpha = motion_scale(&builder.positions, &builder.basis, modes)
            * if options.motion_weight.is_finite() {
                options.motion_weight.max(0.0)
            } else {
                1.0
            };
    }
    let mut tris: Vec<u32> = (0..t as u32).collect();
    builder.node(&mut tris, 0);
    builder.nodes = sibling_order(std::mem::take(&mut builder.nodes));

    if options.nested {
        nest(&mut builder.nodes, p);
    }
    let fitted = match balls {
        Some(balls) => {
            let centres = balls.into_iter().map(|b| b.0).collect();
            let body = FitBody::with_centres(mesh, centres)
                .map_err(|NotClosed(m)| BuildError::NotClosed(m))?;
            let hierarchy = Nodes {
                links: builder.nodes.iter().map(|n| n.links).collect(),
                spheres: builder
                    .nodes
                    .iter()
                    .map(|n| [n.center[0], n.center[1], n.center[2], n.radius])
                    .collect(),
            };
            fitted_spheres(&body, &hierarchy)
        }
        None => builder
            .nodes
            .iter()
            .map(|n| Fitted::exact(n.center, n.radius))
            .collect(),
    };
    let nodes = &builder.nodes;
    let mut report = builder.report.clone();
    report.nodes = nodes.len();
    report.modes = modes;
    report.bytes = layout.total;
    report.mean_radius_box /= nodes.len() as f64;
    report.mean_radius_welzl /= nodes.len() as f64;
    report.mean_growth = nodes
        .iter()
        .map(|n| n.growth.iter().map(|g| g * g).sum::<f64>().sqrt())
        .sum::<f64>()
        / nodes.len() as f64;

    // Magnitude bounds (checked by the loader in the image's own arithmetic: keep a margin).
    let margin = match p {
        Precision::F32 => 1.0 + 1e-5,
        Precision::F64 => 1.0 + 1e-12,
    };
    let mut stats = MagnitudeBounds::new(modes, margin, |x| round_up(p, x));
    for node in nodes {
        let [x, y, z] = node.center;
        stats.add(0, [x, y, z, node.radius]);
        for (j, (u, &g)) in node.ubar.iter().zip(&node.growth).enumerate() {
            stats.add(j + 1, [u[0], u[1], u[2], g]);
        }
    }

    let scalar = p.bytes() as usize;
    let mut image = ImageWriter::new(layout);
    let mut w = image.section(Section::Stats);
    for &x in stats.values() {
        w.scalar(scalar, x);
    }
    let mut w = image.section(Section::Records);
    for node in nodes {
        for x in [node.center[0], node.center[1], node.center[2], node.radius] {
            w.scalar(scalar, x);
        }
        for (u, &g) in node.ubar.iter().zip(&node.growth) {
            for x in [u[0], u[1], u[2], g] {
                w.scalar(scalar, x);
            }
        }
    }
    debug_assert_eq!(w.written(), layout.len_of(Section::Records));
    let mut w = image.section(Section::Spread);
    for node in nodes {
        w.scalar(scalar, node.spread);
    }
    let mut w = image.section(Section::Links);
    for &link in nodes.iter().flat_map(|node| &node.links) {
        w.word(link);
    }
    let mut w = image.section(Section::Positions);
    for &x in builder.positions.iter().flatten() {
        w.scalar(scalar, x);
    }
    let mut w = image.section(Section::Basis);
    for &x in &builder.basis {
        w.scalar(scalar, x);
    }
    debug_assert_eq!(w.written(), layout.len_of(Section::Basis));
    let mut w = image.section(Section::Faces);
    for &v in mesh.triangles.iter().flatten() {
        w.word(v);
    }
    if with_fitted {
        let mut w = image.section(Section::Fitted);
        for f in &fitted {
            for x in [f.center[0], f.center[1], f.center[2], f.radius] {
                w.scalar(scalar, x);
            }
        }
        for f in &fitted {
            w.scalar(scalar, f.reach);
        }
        debug_assert_eq!(w.written(), layout.len_of(Section::Fitted));
    }
    let image = image.finish(report.depth, options.nested);
    if !options.self_cull {
        return Ok((image, report));
    }
    let image = super::self_data::with_self_data(&image, true)?;
    report.bytes = image.as_bytes().len();
    Ok((image, report))
}

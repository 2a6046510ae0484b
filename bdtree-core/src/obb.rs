//! The box variant of the BD-Tree (paper section 3.5): oriented boxes with the same center
//! update as the spheres and a per-axis half-extent growth.
//!
//! # Bounds
//!
//! A node's box is centred on its sphere center and aligned with the body's axes. With
//! `H_k ≥ max_i |p_ik − c_k|` and `ΔH_jk ≥ max_i |U_ijk − Ū_jk|` over the node's vertices,
//!
//! ```text
//! c' = c + Ū q                      (the sphere's center, shared)
//! h_k = H_k + Σ_j ΔH_jk |q_j|        (3M multiply-adds, the same kernel as the sphere update)
//! ```
//!
//! contains every deformed vertex: `|x_ik − c'_k| ≤ |p_ik − c_k| + Σ_j |U_ijk − Ū_jk| |q_j|`.
//! In the world the box is oriented by the body's rotation. The table stores per node `M + 1`
//! rows `[H_x, H_y, H_z, 0]`, `[ΔH_jx, ΔH_jy, ΔH_jz, 0]` (`16 (M + 1)` bytes in f32, beside the
//! sphere record's `16 (M + 1) + 4`), built by `bdtree_std::obb::box_table` from an image.
//!
//! # Rounding
//!
//! `H_k ≤ R` and `ΔH_jk ≤ ΔR_j`, so the per-coordinate error bound `δ` of the sphere update
//! ([`crate::sphere`]) covers the half-extents too (the loader checks both inequalities); the
//! world center is the sphere's, within `√3 δ` of the exact one; the box axes are the computed
//! rotation's columns, whose deviation is in `δ` as well. World boxes are inflated by `3δ` per
//! half-extent, and both box tests add a relative slack of `64u` of the magnitudes they compare,
//! so they never separate boxes whose exact versions touch.
//!
//! # Tests
//!
//! * [`BoxTest::Exact`]: the separating-axis test over all 15 axes (3 + 3 face normals, 9 edge
//!   cross products) — exact for boxes, up to the slack.
//! * [`BoxTest::FaceAxes`]: Lau et al.'s cheaper "SAT lite", the 6 face normals only: it may
//!   report overlap for boxes that only an edge–edge axis separates (conservative), never the
//!   reverse.

use crate::body::Body;
use crate::image::NONE;
use crate::query::{split, stack_capacity, ContactSink, QueryOutcome, QueryStats, QueryStatus};
use crate::query::{Split, TrianglePair};
use crate::scalar::Scalar;
use crate::tree::TreeView;
use crate::triangle::triangles_may_intersect;

/// Why a box table was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BoxTableError {
    /// The table does not hold `nodes × (M + 1)` rows.
    WrongLength {
        /// Rows expected.
        expected: usize,
        /// Rows given.
        actual: usize,
    },
    /// A value is not finite, negative, its fourth lane is not zero, or it exceeds the
    /// sphere's matching bound (`H_k ≤ R`, `ΔH_jk ≤ ΔR_j`).
    BadValue {
        /// The node.
        node: usize,
    },
}

impl core::fmt::Display for BoxTableError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::WrongLength { expected, actual } => {
                write!(f, "box table has {actual} rows, the tree needs {expected}")
            }
            Self::BadValue { node } => write!(f, "box table node {node} has an invalid bound"),
        }
    }
}

impl core::error::Error for BoxTableError {}

/// Validated box bounds of a tree (see the module docs), borrowed.
#[derive(Debug, Clone, Copy)]
pub struct BoxTable<'a, S: Scalar> {
    rows: &'a [[S; 4]],
    modes: usize,
}

impl<'a, S: Scalar> BoxTable<'a, S> {
    /// Checks `rows` against `tree`: length, finiteness, signs, and `H ≤ R`, `ΔH_j ≤ ΔR_j` per
    /// node (what makes the sphere's rounding bound cover the boxes).
    pub fn new(rows: &'a [[S; 4]], tree: &TreeView<'_, S>) -> Result<Self, BoxTableError> {
        let m = tree.modes();
        let expected = tree.node_count().saturating_mul(m + 1);
        if rows.len() != expected {
            return Err(BoxTableError::WrongLength {
                expected,
                actual: rows.len(),
            });
        }
        for node in 0..tree.node_count() {
            let bad = BoxTableError::BadValue { node };
            let start = node * (m + 1);
            let Some(boxes) = rows.get(start..start + m + 1) else {
                return Err(bad);
            };
            for (r, b) in boxes.iter().enumerate() {
                let Some(s) = tree.row(node, r) else {
                    return Err(bad);
                };
                let ok = b[3] == S::ZERO
                    && b[..3]
                        .iter()
                        .all(|&h| h.is_finite() && h >= S::ZERO && h <= s[3]);
                if !ok {
                    return Err(bad);
                }
            }
        }
        Ok(Self { rows, modes: m })
    }

    /// A node's rows.
    pub fn record(&self, node: usize) -> Option<&'a [[S; 4]]> {
        let stride = self.modes + 1;
        let start = node.checked_mul(stride)?;
        self.rows.get(start..start.checked_add(stride)?)
    }
}

/// A world-space oriented box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldBox<S> {
    /// Center.
    pub center: [S; 3],
    /// Axes: the columns of the body's rotation matrix (`axes[r][k]` = row r of axis k).
    pub axes: [[S; 3]; 3],
    /// Half-extents along the axes, inflated.
    pub half: [S; 3],
}

/// Which box overlap test a query uses (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BoxTest {
    /// All 15 separating axes.
    #[default]
    Exact,
    /// The 6 face axes only (conservative).
    FaceAxes,
}

/// The world box of `node` of `body` in its current state, or `None` for a bad index.
pub fn world_box<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    table: &BoxTable<'_, S>,
    node: usize,
) -> Option<WorldBox<S>> {
    let sphere = body.sphere(node)?;
    let h = half_extents(table.record(node)?, body.weights());
    let inflate = S::from_u32(3) * body.sphere_error();
    Some(WorldBox {
        center: [sphere[0], sphere[1], sphere[2]],
        axes: body.pose().rotation,
        half: [h[0] + inflate, h[1] + inflate, h[2] + inflate],
    })
}

/// `[H + Σ_j ΔH_j |q_j|, 0]` from a node's box rows and the body's mode weights (whose last
/// lane is `|q_j|`): `3M` multiply-adds.
fn half_extents<S: Scalar>(record: &[[S; 4]], weights: &[[S; 4]]) -> [S; 4] {
    let Some((&head, rows)) = record.split_first() else {
        return [S::ZERO; 4];
    };
    let mut h = head;
    for (row, w) in rows.iter().zip(weights) {
        for l in 0..3 {
            h[l] = h[l] + row[l] * w[3];
        }
    }
    h
}

/// Whether two world boxes may overlap (touching counts): never `false` when they intersect.
pub fn boxes_overlap<S: Scalar>(a: &WorldBox<S>, b: &WorldBox<S>, test: BoxTest) -> bool {
    let t_world = [
        b.center[0] - a.center[0],
        b.center[1] - a.center[1],
        b.center[2] - a.center[2],
    ];
    // Axis k of a box is column k of its rotation matrix.
    let axis = |m: &[[S; 3]; 3], k: usize| [m[0][k], m[1][k], m[2][k]];
    let dot = |u: [S; 3], v: [S; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    // t in a's frame, and r[i][j] = a_i · b_j.
    let t = [0, 1, 2].map(|i| dot(axis(&a.axes, i), t_world));
    let r = [0, 1, 2].map(|i| [0, 1, 2].map(|j| dot(axis(&a.axes, i), axis(&b.axes, j))));
    let abs_r = r.map(|row| row.map(|x| x.abs()));
    let magnitude = t_world[0].abs()
        + t_world[1].abs()
        + t_world[2].abs()
        + a.half[0]
        + a.half[1]
        + a.half[2]
        + b.half[0]
        + b.half[1]
        + b.half[2];
    let slack = S::from_u32(64) * S::UNIT_ROUNDOFF * magnitude;
    let separated = |projection: S, reach: S| projection.abs() > reach + slack;
    for i in 0..3 {
        let rb = b.half[0] * abs_r[i][0] + b.half[1] * abs_r[i][1] + b.half[2] * abs_r[i][2];
        if separated(t[i], a.half[i] + rb) {
            return false;
        }
    }
    for j in 0..3 {
        let ra = a.half[0] * abs_r[0][j] + a.half[1] * abs_r[1][j] + a.half[2] * abs_r[2][j];
        let tj = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        if separated(tj, ra + b.half[j]) {
            return false;
        }
    }
    if test == BoxTest::FaceAxes {
        return true;
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = a.half[i1] * abs_r[i2][j] + a.half[i2] * abs_r[i1][j];
            let rb = b.half[j1] * abs_r[i][j2] + b.half[j2] * abs_r[i][j1];
            let p = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            if separated(p, ra + rb) {
                return false;
            }
        }
    }
    true
}

/// [`crate::collide`] with box bounds: every intersecting triangle pair of `a` and `b`, the
/// node pairs pruned by the boxes of `boxes_a` and `boxes_b` under `test` (boxes computed on
/// demand, their centers from the bodies' sphere caches).
#[allow(clippy::too_many_arguments)]
pub fn collide_boxes<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    boxes_a: &BoxTable<'_, S>,
    b: &mut Body<'_, '_, S>,
    boxes_b: &BoxTable<'_, S>,
    test: BoxTest,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    if a.tree().is_bounded() || b.tree().is_bounded() {
        let status = QueryStatus::Truncated;
        return QueryOutcome { status, stats };
    }
    let needed = stack_capacity(a.tree().depth(), b.tree().depth());
    if stack.len() < needed {
        let status = QueryStatus::StackTooSmall {
            needed,
            given: stack.len(),
        };
        return QueryOutcome { status, stats };
    }
    let status = run(a, boxes_a, b, boxes_b, test, stack, sink, &mut stats);
    QueryOutcome { status, stats }
}

#[allow(clippy::too_many_arguments)]
fn run<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    ta: &BoxTable<'_, S>,
    b: &mut Body<'_, '_, S>,
    tb: &BoxTable<'_, S>,
    test: BoxTest,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
    stats: &mut QueryStats,
) -> QueryStatus {
    let updates_before = a.update_count().wrapping_add(b.update_count());
    let error = a.error() + b.error();
    let (Some(ra), Some(rb)) = (world_box(a, ta, 0), world_box(b, tb, 0)) else {
        return QueryStatus::Inconsistent;
    };
    stats.overlap_tests += 1;
    let Some(root) = stack.first_mut() else {
        return QueryStatus::StackTooSmall {
            needed: 1,
            given: 0,
        };
    };
    *root = [0, 0];
    let mut len = usize::from(boxes_overlap(&ra, &rb, test));
    let status = loop {
        if len == 0 {
            break QueryStatus::Complete;
        }
        len -= 1;
        let Some(&[i, j]) = stack.get(len) else {
            break QueryStatus::Inconsistent;
        };
        stats.nodes_visited += 1;
        let (Some([la, ra, tra, _]), Some([lb, rb, trb, _])) =
            (a.tree().links(i as usize), b.tree().links(j as usize))
        else {
            break QueryStatus::Inconsistent;
        };
        let (leaf_a, leaf_b) = (tra != NONE, trb != NONE);
        if leaf_a & leaf_b {
            let (Some(va), Some(vb)) = (
                a.world_triangle(tra as usize),
                b.world_triangle(trb as usize),
            ) else {
                break QueryStatus::Inconsistent;
            };
            stats.triangle_tests += 1;
            if triangles_may_intersect(&va, &vb, error) {
                let pair = TrianglePair { a: tra, b: trb };
                if let Err(pair) = sink.push(pair) {
                    break QueryStatus::OutputFull { pair };
                }
                stats.pairs += 1;
            }
            continue;
        }
        let (Some(sa), Some(sb)) = (a.sphere(i as usize), b.sphere(j as usize)) else {
            break QueryStatus::Inconsistent;
        };
        let how = split(sa[3], sb[3], leaf_a, leaf_b);
        let children: [[u32; 2]; 4] = match how {
            Split::Both => [[la, lb], [la, rb], [ra, lb], [ra, rb]],
            Split::First => [[la, j], [ra, j], [0, 0], [0, 0]],
            Split::Second => [[i, lb], [i, rb], [0, 0], [0, 0]],
        };
        let count = if how == Split::Both { 4 } else { 2 };
        let mut kept = 0usize;
        let mut failed = false;
        for &[x, y] in children.iter().take(count) {
            let (Some(bx), Some(by)) = (world_box(a, ta, x as usize), world_box(b, tb, y as usize))
            else {
                failed = true;
                break;
            };
            stats.overlap_tests += 1;
            if boxes_overlap(&bx, &by, test) {
                if let Some(slot) = stack.get_mut(len + kept) {
                    *slot = [x, y];
                    kept += 1;
                } else {
                    failed = true;
                    break;
                }
            }
        }
        if failed {
            break QueryStatus::Inconsistent;
        }
        len += kept;
    };
    stats.sphere_updates = a
        .update_count()
        .wrapping_add(b.update_count())
        .wrapping_sub(updates_before);
    status
}

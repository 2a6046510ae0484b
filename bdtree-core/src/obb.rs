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
//! sphere record's `16 (M + 1) + 4`), built by `bdtree_std::build::box_table` from an image.
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
use crate::output::{ContactSink, QueryOutcome, QueryStats, QueryStatus};
use crate::scalar::Scalar;
use crate::tree::TreeView;
use crate::walk::{run_query, Bodies, Flow, Node, Policy};

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
    // Axis k of a box is column k of its rotation matrix. Indices below are constants or go
    // through `at` (a match): no bounds check survives at any opt-level.
    let axis = |m: &[[S; 3]; 3], k: usize| [at(m[0], k), at(m[1], k), at(m[2], k)];
    let dot = |u: [S; 3], v: [S; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    // t in a's frame, and r[i][j] = a_i · b_j.
    let a_axes = [axis(&a.axes, 0), axis(&a.axes, 1), axis(&a.axes, 2)];
    let b_axes = [axis(&b.axes, 0), axis(&b.axes, 1), axis(&b.axes, 2)];
    let t = a_axes.map(|ai| dot(ai, t_world));
    let r = a_axes.map(|ai| b_axes.map(|bj| dot(ai, bj)));
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
    for ((&ti, &ha), abs_row) in t.iter().zip(&a.half).zip(&abs_r) {
        let rb = b.half[0] * abs_row[0] + b.half[1] * abs_row[1] + b.half[2] * abs_row[2];
        if separated(ti, ha + rb) {
            return false;
        }
    }
    for (j, &hb) in b.half.iter().enumerate() {
        let col = |m: &[[S; 3]; 3]| [at(m[0], j), at(m[1], j), at(m[2], j)];
        let (abs_col, col_r) = (col(&abs_r), col(&r));
        let ra = a.half[0] * abs_col[0] + a.half[1] * abs_col[1] + a.half[2] * abs_col[2];
        let tj = t[0] * col_r[0] + t[1] * col_r[1] + t[2] * col_r[2];
        if separated(tj, ra + hb) {
            return false;
        }
    }
    if test == BoxTest::FaceAxes {
        return true;
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (r_i1, r_i2) = (at(r, i1), at(r, i2));
        let (abs_i, abs_i1, abs_i2) = (at(abs_r, i), at(abs_r, i1), at(abs_r, i2));
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = at(a.half, i1) * at(abs_i2, j) + at(a.half, i2) * at(abs_i1, j);
            let rb = at(b.half, j1) * at(abs_i, j2) + at(b.half, j2) * at(abs_i, j1);
            let p = at(t, i2) * at(r_i1, j) - at(t, i1) * at(r_i2, j);
            if separated(p, ra + rb) {
                return false;
            }
        }
    }
    true
}

/// Entry `k` of three (the last for `k ≥ 2`): a runtime index without a bounds check.
#[inline(always)]
fn at<T: Copy>(v: [T; 3], k: usize) -> T {
    match k {
        0 => v[0],
        1 => v[1],
        _ => v[2],
    }
}

/// The box query's policy: world boxes (with the sphere radius the split rule compares),
/// leaves, the exact triangle test.
struct Boxes<'q, 'ta, 'ca, 'tb, 'cb, S: Scalar, X: ?Sized> {
    bodies: Bodies<'q, 'ta, 'ca, 'tb, 'cb, S>,
    tables: [&'q BoxTable<'q, S>; 2],
    test: BoxTest,
    sink: &'q mut X,
    error: S,
}

impl<S: Scalar, X: ContactSink + ?Sized> Policy for Boxes<'_, '_, '_, '_, '_, S, X> {
    type S = S;
    type Bound = (WorldBox<S>, S);
    type Key = ();

    #[inline(always)]
    fn node(&self, first: bool, node: u32) -> Option<Node> {
        self.bodies.leaf_node(first, node)
    }

    #[inline(always)]
    fn bound(&mut self, first: bool, node: u32) -> Option<(WorldBox<S>, S)> {
        /// A node's box and sphere radius.
        fn of<S: Scalar>(
            body: &mut Body<'_, '_, S>,
            table: &BoxTable<'_, S>,
            node: u32,
        ) -> Option<(WorldBox<S>, S)> {
            let radius = body.sphere(node as usize)?[3];
            Some((world_box(body, table, node as usize)?, radius))
        }
        if first {
            of(self.bodies.a, self.tables[0], node)
        } else {
            of(self.bodies.b, self.tables[1], node)
        }
    }

    #[inline(always)]
    fn size(bound: &(WorldBox<S>, S)) -> S {
        bound.1
    }

    #[inline(always)]
    fn test(&self, a: &(WorldBox<S>, S), b: &(WorldBox<S>, S)) -> Option<()> {
        boxes_overlap(&a.0, &b.0, self.test).then_some(())
    }

    fn updates(&self) -> u32 {
        self.bodies.updates()
    }

    fn leaf(
        &mut self,
        _: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        self.bodies
            .triangle_leaf(a, b, self.error, self.sink, stats)
    }
}

/// [`crate::collide()`] with box bounds: every intersecting triangle pair of `a` and `b`, the
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
    sink: &mut (impl ContactSink + ?Sized),
) -> QueryOutcome {
    let bodies = Bodies { a, b };
    let check = bodies.check(stack.len());
    let error = bodies.error();
    let mut policy = Boxes {
        bodies,
        tables: [boxes_a, boxes_b],
        test,
        sink,
        error,
    };
    run_query(&mut policy, stack, check)
}

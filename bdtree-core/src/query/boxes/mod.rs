//! The box variant of the BD-Tree (paper section 3.5): oriented boxes with the same center
//! update as the spheres and a per-axis half-extent growth.
//!
//! # Bounds
//!
//! A node's box is centred on its BD-Tree sphere's center and aligned with the body's axes. With
//! `H_k ≥ max_i |p_ik − c_k|` and `ΔH_jk ≥ max_i |U_ijk − Ū_jk|` over the node's vertices,
//!
//! ```text
//! c' = c + Ū q                      (the BD-Tree sphere's center, computed for the box)
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
//! ([`crate::bounds::sphere`]) covers the half-extents too (the loader checks both inequalities); the
//! world center is computed as the sphere update computes it, within `√3 δ` of the exact one
//! (not read from the sphere cache: with a vertex cache a leaf's cached sphere is centred on
//! its deformed triangle, with temporal coherence on the reference `q`); the box axes are the computed
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
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | the query: its policy over the one walk and [`collide_boxes`] |
//! | `table.rs` | [`BoxTable`]: a tree's box rows, checked against its spheres |
//! | `overlap.rs` | [`WorldBox`] of a node in its body's state and [`boxes_overlap`] |

mod overlap;
mod table;

use overlap::box_around;
pub use overlap::{boxes_overlap, world_box, BoxTest, WorldBox};
pub use table::{BoxTable, BoxTableError};

use crate::body::Body;
use crate::scalar::Scalar;
use crate::walk::output::{ContactSink, QueryOutcome, QueryStats, QueryStatus};
use crate::walk::{run_query, Bodies, Flow, Node, Policy, Side};

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
            side: &mut Side<'_, '_, '_, S>,
            table: &BoxTable<'_, S>,
            node: u32,
        ) -> Option<(WorldBox<S>, S)> {
            let sphere = side.sphere(node)?;
            Some((box_around(side.body, table, node as usize)?, sphere[3]))
        }
        if first {
            of(&mut self.bodies.a, self.tables[0], node)
        } else {
            of(&mut self.bodies.b, self.tables[1], node)
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
/// demand, each centred on its node's BD-Tree center `c + Ū q` computed for it: a body's
/// cached sphere may be centred elsewhere, see [`world_box`]).
#[allow(clippy::too_many_arguments)]
pub fn collide_boxes<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    boxes_a: &BoxTable<'_, S>,
    boxes_b: &BoxTable<'_, S>,
    test: BoxTest,
    stack: &mut [[u32; 2]],
    sink: &mut (impl ContactSink + ?Sized),
) -> QueryOutcome {
    let bodies = Bodies::new(a, b);
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

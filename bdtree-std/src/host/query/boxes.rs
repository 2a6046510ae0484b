//! The bound a triangle-pair query prunes node pairs with: the tree's spheres, or the box
//! variant of the BD-Tree ([`bdtree_core::query::boxes`]: oriented boxes with the spheres' centre update
//! and a per-axis growth, tested on 15 or 6 separating axes) — [`pairs_with`] for two bodies,
//! [`crate::host::World::pairs_with`] for a world.
//!
//! The bound changes which node pairs the walk visits, never the answer: every bound contains
//! its node's deformed geometry (with its rounding), so every intersecting pair is reached, and
//! the leaf test and the f32 refinement are the same as [`crate::host::pairs`]'. After refinement the
//! answer is the triangle pairs [`crate::host::pairs`] gives (the tests hold both against the f64
//! brute force: nothing missed, extras within the pair's bound of [`crate::host::placing`]).
//!
//! **Cost.** A tree's box table (`16 (M + 1)` bytes per node in f32, built by
//! [`crate::build::box_rows`] from the image) is computed the first time a box query asks for
//! it and kept with the [`Tree`], shared by its bodies. A box test costs more than a sphere test
//! and the half-extents `3M` multiply-adds per node visited; boxes prune better on elongated or
//! flat nodes (sheets, limbs), spheres on round ones — `benches/benches/boxes.rs` measures both.

use bdtree_core::query::boxes::{collide_boxes, BoxTable, BoxTest};
use bdtree_core::{refine, stack_capacity, Body as KernelBody, QueryStats, Scalar, TrianglePair};

use super::triangles::pairs;
use crate::build::box_rows;
use crate::host::answer::Answer;
use crate::host::body::{Body, OnTwo};
use crate::host::error::HostError;
use crate::host::placing::pair_origin;
use crate::host::stack::Stack;
use crate::host::tree::Tree;

/// The bound a triangle-pair query prunes with (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PairBound {
    /// The tree's spheres ([`crate::host::pairs`]).
    #[default]
    Spheres,
    /// Oriented boxes, the separating-axis test over all 15 axes ([`BoxTest::Exact`]).
    Boxes15,
    /// Oriented boxes, the 6 face axes only ([`BoxTest::FaceAxes`], Lau's "SAT lite": cheaper,
    /// prunes less).
    Boxes6,
}

impl PairBound {
    /// The name the command line and Python give it (`spheres`, `boxes15`, `boxes6`).
    pub fn name(self) -> &'static str {
        match self {
            PairBound::Spheres => "spheres",
            PairBound::Boxes15 => "boxes15",
            PairBound::Boxes6 => "boxes6",
        }
    }

    /// The bound named `name` (see [`PairBound::name`]).
    pub fn from_name(name: &str) -> Option<PairBound> {
        [PairBound::Spheres, PairBound::Boxes15, PairBound::Boxes6]
            .into_iter()
            .find(|b| b.name() == name)
    }
}

/// The box rows of `tree` in its scalar `S` (the scalar of its bodies), computed once from
/// the kernel body's tree and model and kept with the tree (as 8-byte words, which any
/// scalar's rows can be viewed from).
fn rows<'t, S: Scalar>(tree: &'t Tree, body: &KernelBody<'_, '_, S>) -> Option<&'t [[S; 4]]> {
    let words = tree.data.boxes.get_or_init(|| {
        let rows = box_rows(body.tree(), body.model());
        let bytes: &[u8] = bytemuck::cast_slice(&rows);
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        words
    });
    bytemuck::try_cast_slice(words).ok()
}

struct BoxPairs {
    trees: [Tree; 2],
    test: BoxTest,
}

impl OnTwo for BoxPairs {
    type Out = Result<Answer<[u32; 2]>, HostError>;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out {
        let bad = |message: String| HostError::Body { message };
        let (Some(ra), Some(rb)) = (rows(&self.trees[0], a), rows(&self.trees[1], b)) else {
            return Err(bad(
                "the tree's box table is not in its precision".to_string()
            ));
        };
        let ta = BoxTable::new(ra, a.tree()).map_err(|e| bad(format!("a: {e}")))?;
        let tb = BoxTable::new(rb, b.tree()).map_err(|e| bad(format!("b: {e}")))?;
        let mut found = Vec::new();
        let mut stack = Stack::take(stack_capacity(a.tree().depth(), b.tree().depth()));
        let outcome = collide_boxes(
            a,
            b,
            &ta,
            &tb,
            self.test,
            &mut stack,
            &mut |p: TrianglePair| {
                found.push(p);
                true
            },
        );
        if !outcome.status.is_complete() {
            return Err(HostError::Incomplete {
                query: "collide_boxes",
                status: outcome.status,
            });
        }
        let kept = refine(a, b, &mut found);
        let mut items: Vec<[u32; 2]> = found.iter().take(kept).map(|p| [p.a, p.b]).collect();
        items.sort_unstable();
        let mut stats = QueryStats::default();
        stats.add(&outcome.stats);
        Ok(Answer { items, stats })
    }
}

/// [`crate::host::pairs`] with the node bound `bound`: every intersecting triangle pair of `a` and
/// `b` (`[triangle of a, triangle of b]`, sorted) at the pair's floating origin, refined in
/// f64 in f32 — the same pairs whichever the bound (module docs), found by a different walk.
pub fn pairs_with(
    a: &mut Body,
    b: &mut Body,
    bound: PairBound,
) -> Result<Answer<[u32; 2]>, HostError> {
    let test = match bound {
        PairBound::Spheres => return pairs(a, b),
        PairBound::Boxes15 => BoxTest::Exact,
        PairBound::Boxes6 => BoxTest::FaceAxes,
    };
    let origin = pair_origin(a, b);
    a.place(origin)?;
    b.place(origin)?;
    let trees = [a.tree().clone(), b.tree().clone()];
    Body::on_two(a, b, BoxPairs { trees, test })?
}

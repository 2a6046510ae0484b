//! The self walk's stored boxes ([`crate::Body::with_box_cache`]): lent by the body to the
//! self walk's own loop alone (the pair walk's [`Side`] never carries them), each node's box
//! made once per step where the walk first reads it.
//!
//! A leaf's box is the coordinate box of its triangle's deformed world vertices (their
//! coordinate-wise minimum and maximum in the order of the leaf step's box filter, so the same
//! bits); a node up to [`LEVELS`] levels above the leaves has the exact union of its
//! children's boxes (minimum and maximum: no rounding), which contains every leaf box below
//! it, so two nodes whose boxes the filter finds apart have every leaf pair below them apart.
//! A node higher up, or above a triangle with a NaN coordinate, has none for the step.
//!
//! A node with a row of the query's affine spheres ([`super::SelfAids::spheres`]) takes its
//! affine box instead, at any height ([`Body::affine_box`]: its rest half-extents
//! turned by the fitted map, `O(M)`, no vertex read), when the fit bounds it: it holds every
//! vertex below the node as the step computes them, so every leaf box below it too, and the
//! filter's argument stands. Its children's boxes are made only when the walk reads them (a
//! child without one sends the walk back to spheres, read through their step check).

use crate::body::{Body, BoxEntry};
use crate::image::self_tables::SelfSpheres;
use crate::image::tree::NONE;
use crate::scalar::Scalar;
use crate::walk::Side;

/// Levels above the leaves up to which a node has a box.
const LEVELS: usize = 4;

/// A body's box cache, lent to one self walk (see the module docs).
pub(super) struct Boxes<'c, 'a, S: Scalar> {
    slots: &'c mut [BoxEntry<S>],
    /// The body's step: an entry of another step is stale.
    epoch: u32,
    /// The affine sphere rows: a node with one gets its affine box ([`Body::affine_box`]).
    spheres: SelfSpheres<'a>,
}

impl<'c, 'a, S: Scalar> Boxes<'c, 'a, S> {
    /// The body's box cache (empty when it has none), lent until [`Boxes::give_back`], with
    /// the affine sphere rows a node's box may come from.
    pub(super) fn lend(body: &mut Body<'_, 'c, S>, spheres: SelfSpheres<'a>) -> Self {
        Boxes {
            epoch: body.step(),
            slots: body.swap_boxes(&mut []),
            spheres,
        }
    }

    /// No boxes (a walk that tests spheres only).
    #[inline(always)]
    pub(super) fn none() -> Self {
        Boxes {
            slots: &mut [],
            epoch: 0,
            spheres: SelfSpheres::NONE,
        }
    }

    /// Hands the box cache back to the body it was lent from.
    pub(super) fn give_back(&mut self, body: &mut Body<'_, 'c, S>) {
        body.swap_boxes(core::mem::take(&mut self.slots));
    }

    /// Whether the walk has a box cache. On bare-metal targets (`target_os = "none"`) an f64
    /// body's walk tests spheres only (its box cache is not read), which keeps the boxes' code
    /// out of f64 builds there: the C library links both precisions into a board's flash.
    #[inline(always)]
    pub(super) fn present(&self) -> bool {
        let bare_f64 = S::BYTES == 8 && cfg!(target_os = "none");
        !(bare_f64 || self.slots.is_empty())
    }

    /// For the four pairs `(a0, b0), (a0, b1), (a1, b0), (a1, b1)` of nodes, whether their
    /// boxes are more than `error` apart on some axis: the leaf step's box filter
    /// (`walk::boxes_apart`), the same bits for two leaves, and for nodes with a box above the
    /// leaves apart only when every leaf pair below is. `Some(None)` when a node has no box
    /// (looked at from `a0`); each box read from the cache, made and kept there on a miss.
    /// `None` for a bad index.
    #[inline(always)]
    pub(super) fn apart4(
        &mut self,
        side: &mut Side<'_, '_, '_, S>,
        [a0, a1]: [u32; 2],
        [b0, b1]: [u32; 2],
        error: S,
    ) -> Option<Option<[bool; 4]>> {
        // The common case, all four boxes of this step, checked without a branch per entry;
        // otherwise each made on a miss (out of line).
        let epoch = self.epoch;
        let boxed =
            |e: Option<&BoxEntry<S>>| e.is_some_and(|e| (e.epoch == epoch) & (e.bounded != 0));
        let entry = |node: u32| self.slots.get(node as usize);
        let all = boxed(entry(a0)) & boxed(entry(a1)) & boxed(entry(b0)) & boxed(entry(b1));
        if !all && !self.fresh4(side, [a0, a1, b0, b1])? {
            return Some(None);
        }
        let limit = error * (S::ONE + S::from_u32(2) * S::UNIT_ROUNDOFF);
        let entry = |node: u32| self.slots.get(node as usize);
        let ([x0, x1], [y0, y1]) = ([entry(a0)?, entry(a1)?], [entry(b0)?, entry(b1)?]);
        Some(Some([
            apart(x0, y0, limit),
            apart(x0, y1, limit),
            apart(x1, y0, limit),
            apart(x1, y1, limit),
        ]))
    }

    /// Whether the four nodes all have a box of this step, each made on a miss (the first
    /// without one ends it): the miss of [`Boxes::apart4`].
    #[inline(never)]
    fn fresh4(&mut self, side: &mut Side<'_, '_, '_, S>, nodes: [u32; 4]) -> Option<bool> {
        for node in nodes {
            if !self.fresh(side, node)? {
                return Some(false);
            }
        }
        Some(true)
    }

    /// [`Boxes::apart4`] of one pair `(a, b)`: `Some(None)` when a node has no box.
    #[inline(always)]
    pub(super) fn apart1(
        &mut self,
        side: &mut Side<'_, '_, '_, S>,
        a: u32,
        b: u32,
        error: S,
    ) -> Option<Option<bool>> {
        if !(self.fresh(side, a)? && self.fresh(side, b)?) {
            return Some(None);
        }
        let limit = error * (S::ONE + S::from_u32(2) * S::UNIT_ROUNDOFF);
        let (a, b) = (self.slots.get(a as usize)?, self.slots.get(b as usize)?);
        let apart = apart(a, b, limit);
        Some(Some(apart))
    }

    /// Whether a node has a box of this step, made on a miss.
    #[inline(always)]
    fn fresh(&mut self, side: &mut Side<'_, '_, '_, S>, node: u32) -> Option<bool> {
        let entry = self.slots.get(node as usize)?;
        if entry.epoch == self.epoch {
            return Some(entry.bounded != 0);
        }
        self.miss(side, node)
    }

    /// A miss of [`Boxes::fresh`]: the node's affine box when it has a row that gives one
    /// ([`Body::affine_box`], `O(M)`: its subtree is not read), else its box made from its
    /// subtree, depth first down to [`LEVELS`] levels below it (each stale box on the way
    /// made and kept: a leaf's from its triangle, a node's as the union of its children's,
    /// given up at the first child without one), and the node marked as having none when it
    /// is higher up. One routine for every level, with its own small path instead of
    /// recursion. `None` for a bad index or a row its read refuses (the query names it).
    #[inline(never)]
    fn miss(&mut self, side: &mut Side<'_, '_, '_, S>, node: u32) -> Option<bool> {
        if self.spheres.has_row(node as usize) {
            if let Some((lo, hi)) = side.body.affine_box(node as usize, &self.spheres).ok()? {
                *self.slots.get_mut(node as usize)? = BoxEntry {
                    lo,
                    hi,
                    epoch: self.epoch,
                    bounded: 1,
                };
                return Some(true);
            }
        }
        // `path[d]`: the node at depth `d` below `node` on the way to the one being made, its
        // children, and which of them is being made (1: the left, 2: the right).
        let mut path = [[0u32; 4]; LEVELS];
        let mut depth = 0usize;
        let mut k = node;
        let mut boxed;
        'made: loop {
            // Node `k`, at `depth`: its box of this step, made now as a leaf's, or its
            // children made first.
            let entry = self.slots.get(k as usize)?;
            if entry.epoch == self.epoch {
                boxed = entry.bounded != 0;
            } else {
                let [left, right, triangle, _] = side.links(k)?;
                if triangle != NONE {
                    boxed = self.leaf(side, k, triangle)?;
                } else if let Some(slot) = path.get_mut(depth) {
                    *slot = [k, left, right, 1];
                    depth += 1;
                    k = left;
                    continue;
                } else {
                    // More than `LEVELS` above the leaves.
                    boxed = false;
                }
            }
            // Up from the node just made: a parent whose right child is still to make goes
            // on with it, the others take the union; given up at the first child without one.
            while boxed {
                let Some(d) = depth.checked_sub(1) else {
                    break 'made;
                };
                let [parent, left, right, stage] = path.get_mut(d)?;
                if *stage == 1 {
                    *stage = 2;
                    k = *right;
                    continue 'made;
                }
                let (parent, children) = (*parent, [*left, *right]);
                boxed = self.union(parent, children)?;
                depth = d;
            }
            break;
        }
        if !boxed {
            *self.slots.get_mut(node as usize)? = BoxEntry {
                epoch: self.epoch,
                ..BoxEntry::EMPTY
            };
        }
        Some(boxed)
    }

    /// A node's box made from its two children's (of this step, both with a box): their
    /// coordinate-wise minimum and maximum, exact.
    #[inline(always)]
    fn union(&mut self, node: u32, [left, right]: [u32; 2]) -> Option<bool> {
        let (a, b) = (
            self.slots.get(left as usize)?,
            self.slots.get(right as usize)?,
        );
        let lo: [S; 3] = core::array::from_fn(|k| a.lo[k].min(b.lo[k]));
        let hi: [S; 3] = core::array::from_fn(|k| a.hi[k].max(b.hi[k]));
        let epoch = self.epoch;
        *self.slots.get_mut(node as usize)? = BoxEntry {
            lo,
            hi,
            epoch,
            bounded: 1,
        };
        Some(true)
    }

    /// A leaf's box made from its triangle's deformed vertices (the vertex cache's when it
    /// holds them) and kept for the step; none when a coordinate is NaN (which the minimum
    /// and maximum would drop from a union).
    #[inline(always)]
    fn leaf(&mut self, side: &mut Side<'_, '_, '_, S>, node: u32, triangle: u32) -> Option<bool> {
        let [a, b, c] = side.world_triangle(triangle)?;
        let lo = core::array::from_fn(|k| a[k].min(b[k]).min(c[k]));
        let hi = core::array::from_fn(|k| a[k].max(b[k]).max(c[k]));
        let bounded = [a, b, c]
            .iter()
            .flatten()
            .all(|x| x.partial_cmp(x).is_some());
        let epoch = self.epoch;
        *self.slots.get_mut(node as usize)? = BoxEntry {
            lo,
            hi,
            epoch,
            bounded: u32::from(bounded),
        };
        Some(bounded)
    }
}

/// `walk::boxes_apart` (the leaf step's box filter) of two stored boxes: whether `lo_a - hi_b`
/// or `lo_b - hi_a` exceeds `limit` on some axis, the same differences (the same bits), their
/// largest compared once (six differences, five maxima and one branch, where a comparison per
/// difference took six branches). A NaN difference (infinite coordinates) makes the largest
/// NaN or is passed over: never apart where a comparison per difference would not be.
/// Constant indices (an index from a loop or a closure is a panic path in a size-optimised
/// build).
#[inline(always)]
fn apart<S: Scalar>(a: &BoxEntry<S>, b: &BoxEntry<S>, limit: S) -> bool {
    let x = (a.lo[0] - b.hi[0]).max(b.lo[0] - a.hi[0]);
    let y = (a.lo[1] - b.hi[1]).max(b.lo[1] - a.hi[1]);
    let z = (a.lo[2] - b.hi[2]).max(b.lo[2] - a.hi[2]);
    x.max(y).max(z) > limit
}

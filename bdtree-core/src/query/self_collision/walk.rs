//! The self walk's own depth-first loop, for the queries from the root ([`super::collide_self_with`]
//! and [`super::collide_self_lazy`]): the same units, pairs, order, answer and counters as
//! [`crate::walk::walk_pairs`] runs with the [`Units`] policy, in a loop with less to carry. An
//! entry is popped before its step (nothing interrupts the walk), a pair's own spheres are not
//! read when both of its nodes split (only the children's are: a self walk splits both whenever
//! both descend), and both children's spheres of a node are read with one look at the cache.
//! With the body's box cache ([`crate::Body::with_box_cache`], lent to this loop alone: see
//! [`super::boxes`]), child pairs whose nodes have stored boxes (the leaves, the nodes up to
//! four levels above them, and the nodes with an affine box) are tested by their boxes instead
//! of their spheres.

use super::{Units, TYPE3};
use crate::bounds::sphere::spheres_overlap;
use crate::image::tree::NONE;
use crate::scalar::Scalar;
use crate::walk::output::{ContactSink, QueryStats, QueryStatus};
use crate::walk::{Flow, Node, Policy, Visit};

/// On the walk's stack, set in a pair unit's second slot when its pair was kept by the stored
/// boxes of its two nodes: for two leaves, the leaf step's box filter already made.
const BOXED: u32 = 1 << 31;

impl<S, X, R> Units<'_, '_, '_, '_, S, X, R>
where
    S: Scalar,
    X: ContactSink + ?Sized,
    R: FnMut([u32; 2], bool),
{
    /// Walks the body against itself from the root's Type 1 unit on `stack` (at least
    /// [`super::self_stack_capacity`] entries, checked by the caller).
    pub(super) fn walk(&mut self, stack: &mut [[u32; 2]], stats: &mut QueryStats) -> QueryStatus {
        const FAILED: QueryStatus = QueryStatus::Inconsistent;
        let Some(root) = stack.first_mut() else {
            return FAILED;
        };
        *root = [0, 0];
        let mut len = 1usize;
        while len > 0 {
            len -= 1;
            let Some(&[raw, raw_j]) = stack.get(len) else {
                return FAILED;
            };
            let (i, j) = (raw & !TYPE3, raw_j & !BOXED);
            if i == j {
                if let Visit::Skip = self.visit_self(i) {
                    continue;
                }
                let Some([l, r, triangle, _]) = self.side.links(i) else {
                    return FAILED;
                };
                stats.nodes_visited += 1;
                if triangle != NONE {
                    continue;
                }
                // Children with stored boxes: their boxes tested instead of their spheres (as
                // for a pair's children below), whose spheres the one-pass refit leaves unmade.
                #[cfg(feature = "speed")]
                if self.boxes.present() {
                    match self.boxes.apart1(&mut self.side, l, r, self.error) {
                        Some(Some(apart)) => {
                            let Some(slots) = stack.get_mut(len..len + 3) else {
                                return FAILED;
                            };
                            stats.overlap_tests += 1;
                            len += push_children(slots, [l, r], usize::from(!apart));
                            continue;
                        }
                        Some(None) => {}
                        None => return FAILED,
                    }
                }
                let Some([bl, br]) = self.child_spheres([l, r]) else {
                    return FAILED;
                };
                let Some(slots) = stack.get_mut(len..len + 3) else {
                    return FAILED;
                };
                stats.overlap_tests += 1;
                let overlap = spheres_overlap(bl, br);
                if !overlap {
                    (self.record)([l, r], true);
                }
                len += push_children(slots, [l, r], usize::from(overlap));
                continue;
            }
            let type3 = raw & TYPE3 != 0 || self.signatures_disjoint(i, j);
            self.type3 = type3;
            if type3 {
                self.counts.type3 += 1;
            } else {
                self.counts.type2 += 1;
            }
            let (Some(a), Some(b)) = (self.side.links(i), self.side.links(j)) else {
                return FAILED;
            };
            stats.nodes_visited += 1;
            let (leaf_i, leaf_j) = (a[2] != NONE, b[2] != NONE);
            if leaf_i & leaf_j {
                let (a, b) = (Node::leaf_terminal(a), Node::leaf_terminal(b));
                match self.leaf_step([i, j], &a, &b, raw_j & BOXED != 0, stats) {
                    Ok(Flow::Continue) => continue,
                    Ok(Flow::Stop) => return QueryStatus::Complete,
                    Err(status) => return status,
                }
            }
            let tag = if type3 { TYPE3 } else { 0 };
            let ([li, ri], [lj, rj]) = ([a[0], a[1]], [b[0], b[1]]);
            let Some(slots) = stack.get_mut(len..len + 4) else {
                return FAILED;
            };
            let mut kept = 0;
            // Children with stored boxes: the boxes tested instead of the spheres (the leaf
            // step's box filter, taken where the pairs are pushed). A pair pushed by its boxes
            // has children with boxes too, so it is expanded here again: its leaf's sphere,
            // which no test made, is never read below.
            #[cfg(feature = "speed")]
            if self.boxes.present() {
                let (a, b) = match (leaf_i, leaf_j) {
                    (false, false) => ([li, ri], [lj, rj]),
                    (false, true) => ([li, ri], [j, j]),
                    _ => ([i, i], [lj, rj]),
                };
                match self.boxes.apart4(&mut self.side, a, b, self.error) {
                    Some(Some([a0b0, a0b1, a1b0, a1b1])) => {
                        let mut push = |pair: [u32; 2], apart: bool| {
                            if let Some(slot) = slots.get_mut(kept) {
                                *slot = [pair[0] | tag, pair[1] | BOXED];
                            }
                            kept += usize::from(!apart);
                        };
                        push([a[0], b[0]], a0b0);
                        if leaf_i | leaf_j {
                            // The leaf is named twice: its pairs with the other's children.
                            let (pair, apart) = if leaf_j {
                                ([a[1], b[0]], a1b0)
                            } else {
                                ([a[0], b[1]], a0b1)
                            };
                            push(pair, apart);
                            stats.overlap_tests += 2;
                        } else {
                            push([a[0], b[1]], a0b1);
                            push([a[1], b[0]], a1b0);
                            push([a[1], b[1]], a1b1);
                            stats.overlap_tests += 4;
                        }
                        len += kept;
                        continue;
                    }
                    Some(None) => {}
                    None => return FAILED,
                }
            }
            let mut keep = |units: &mut Self, pair: [u32; 2], x: [S; 4], y: [S; 4]| {
                let overlap = spheres_overlap(x, y);
                if !overlap {
                    (units.record)(pair, true);
                }
                if let Some(slot) = slots.get_mut(kept) {
                    *slot = [pair[0] | tag, pair[1]];
                }
                kept += usize::from(overlap);
            };
            if !leaf_i & !leaf_j {
                let (Some([il, ir]), Some([jl, jr])) =
                    (self.child_spheres([li, ri]), self.child_spheres([lj, rj]))
                else {
                    return FAILED;
                };
                stats.overlap_tests += 4;
                let overlap = overlap4([il, ir], [jl, jr]);
                let pairs = [[li, lj], [li, rj], [ri, lj], [ri, rj]];
                for (pair, overlap) in pairs.into_iter().zip(overlap) {
                    if !overlap {
                        (self.record)(pair, true);
                    }
                    if let Some(slot) = slots.get_mut(kept) {
                        *slot = [pair[0] | tag, pair[1]];
                    }
                    kept += usize::from(overlap);
                }
            } else if leaf_j {
                // The leaf's sphere read through its step check: a pair pushed by its boxes
                // comes here when a child of the other node has no box (an affine box's
                // children need not have one).
                let (Some([il, ir]), Some(bj)) =
                    (self.child_spheres([li, ri]), self.bound(true, j))
                else {
                    return FAILED;
                };
                stats.overlap_tests += 2;
                keep(self, [li, j], il, bj);
                keep(self, [ri, j], ir, bj);
            } else {
                let (Some(bi), Some([jl, jr])) =
                    (self.bound(true, i), self.child_spheres([lj, rj]))
                else {
                    return FAILED;
                };
                stats.overlap_tests += 2;
                keep(self, [i, lj], bi, jl);
                keep(self, [i, rj], bi, jr);
            }
            len += kept;
        }
        QueryStatus::Complete
    }

    /// The spheres of an internal node's children `[left, right]` (sibling pairs: `right =
    /// left + 1`), read at once when both are of this step.
    #[inline(always)]
    fn child_spheres(&mut self, children: [u32; 2]) -> Option<[[S; 4]; 2]> {
        if !self.side.siblings_fresh(children[0]) {
            self.children_miss(children)?;
        }
        self.side.cached_siblings(children[0])
    }

    /// The miss of [`Units::child_spheres`]: each child's sphere made through
    /// [`Policy::bound`] (kept in the cache for the step).
    #[inline(never)]
    fn children_miss(&mut self, [left, right]: [u32; 2]) -> Option<()> {
        self.bound(true, left)?;
        self.bound(true, right)?;
        Some(())
    }
}

/// [`spheres_overlap`] of the four child pairs of two nodes, `a`'s children against `b`'s in
/// the order `(a0, b0), (a0, b1), (a1, b0), (a1, b1)`, lane by lane with the same operations
/// in the same order (the same bits as four calls), written across the four pairs so that a
/// host compiler runs them as one four-lane computation.
#[inline(always)]
fn overlap4<S: Scalar>(a: [[S; 4]; 2], b: [[S; 4]; 2]) -> [bool; 4] {
    let [a0, a1] = a;
    let [b0, b1] = b;
    let lanes = |k: usize| {
        let at = |s: &[S; 4]| s.get(k).copied().unwrap_or(S::ZERO);
        (
            [at(&a0), at(&a0), at(&a1), at(&a1)],
            [at(&b0), at(&b1), at(&b0), at(&b1)],
        )
    };
    let diff = |k: usize| {
        let (x, y) = lanes(k);
        [x[0] - y[0], x[1] - y[1], x[2] - y[2], x[3] - y[3]]
    };
    let (dx, dy, dz) = (diff(0), diff(1), diff(2));
    let (ra, rb) = lanes(3);
    let slack = S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF;
    let mut out = [false; 4];
    for (l, o) in out.iter_mut().enumerate() {
        let at = |v: &[S; 4]| v.get(l).copied().unwrap_or(S::ZERO);
        let d2 = at(&dx) * at(&dx) + at(&dy) * at(&dy) + at(&dz) * at(&dz);
        let r = at(&ra) + at(&rb);
        *o = d2 <= r * r * slack;
    }
    out
}

/// A Type 1 unit's children pushed on `slots` (three free entries): their pair when `kept` is
/// 1 (their bounds overlap), then each child's own Type 1 unit, the left on top (the order the
/// pair walk keeps). Returns the entries pushed.
#[inline(always)]
fn push_children(slots: &mut [[u32; 2]], [l, r]: [u32; 2], kept: usize) -> usize {
    let mut put = |k: usize, entry: [u32; 2]| {
        if let Some(slot) = slots.get_mut(k) {
            *slot = entry;
        }
    };
    put(0, [l, r]);
    put(kept, [r, r]);
    put(kept + 1, [l, l]);
    kept + 2
}

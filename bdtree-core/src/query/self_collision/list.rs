//! Lau et al.'s incremental self-collision list: the traversal's front carried from step to
//! step (see the parent module's docs).

use super::{check, SelfAids, UnitCounts, Units, NODE, SEPARATED};
use crate::body::Body;
use crate::bounds::sphere::spheres_overlap;
use crate::image::tree::NONE;
use crate::scalar::Scalar;
use crate::walk::budget::Unlimited;
use crate::walk::output::{ContactSink, QueryOutcome, QueryStats, QueryStatus};
use crate::walk::{walk_pairs, Policy, Side, Stack};

/// Lau et al.'s **incremental self-collision list** for one body: the units where the last step's
/// traversal stopped, carried to the next step (see the module docs). Storage is the caller's: the
/// tree's parents ([`tree_parents`](super::tree_parents)) and two unit buffers of equal use (the
/// list and its successor; a few times the leaf count is ample, see [`SelfList::len`]).
///
/// The first query, and any query after [`SelfList::reset`] or after the list did not fit
/// ([`SelfList::overflowed`]), walks from the root. A list belongs to one body; each query's answer
/// equals [`collide_self`](super::collide_self)'s for the body's current state (as a set; the order
/// differs).
#[derive(Debug)]
pub struct SelfList<'s> {
    parents: &'s [u32],
    units: &'s mut [[u32; 2]],
    spare: &'s mut [[u32; 2]],
    len: usize,
    fresh: bool,
    overflowed: bool,
}

impl<'s> SelfList<'s> {
    /// An empty list over the caller's storage; the first query walks from the root.
    pub fn new(parents: &'s [u32], units: &'s mut [[u32; 2]], spare: &'s mut [[u32; 2]]) -> Self {
        SelfList {
            parents,
            units,
            spare,
            len: 0,
            fresh: true,
            overflowed: false,
        }
    }

    /// Units in the list (after the last query).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no unit.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The units, each `[a, b]` with `a < b` (a Type 1 unit, kept only when the cones culled
    /// it, is `[a, a]`).
    pub fn units(&self) -> impl Iterator<Item = [u32; 2]> + '_ {
        self.units
            .iter()
            .take(self.len)
            .map(|&[a, b]| [a & NODE, b & NODE])
    }

    /// Whether the last query's list did not fit the storage: its answer is still complete,
    /// but the next query walks from the root again.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Forgets the list: the next query walks from the root.
    pub fn reset(&mut self) {
        self.len = 0;
        self.fresh = true;
    }

    /// The self-collision pairs of `body` in its current state (as
    /// [`collide_self_with`](super::collide_self_with)), starting from the units of the last step,
    /// then the list for the next step.
    pub fn collide<S: Scalar>(
        &mut self,
        body: &mut Body<'_, '_, S>,
        aids: SelfAids<'_>,
        stack: &mut [[u32; 2]],
        sink: &mut impl ContactSink,
        counts: &mut UnitCounts,
    ) -> QueryOutcome {
        let mut stats = QueryStats::default();
        if let Err(status) = check(body, &aids, stack) {
            return QueryOutcome { status, stats };
        }
        if self.parents.len() < body.tree().node_count() {
            return QueryOutcome {
                status: QueryStatus::Inconsistent,
                stats,
            };
        }
        let before = body.update_count();
        if body.refit().is_none() {
            self.reset();
            return QueryOutcome {
                status: QueryStatus::Inconsistent,
                stats,
            };
        }
        let (mut next, mut overflow) = (0usize, false);
        let spare = &mut *self.spare;
        let mut record = |[a, b]: [u32; 2], separated: bool| {
            let unit = [a.min(b), a.max(b) | if separated { SEPARATED } else { 0 }];
            match spare.get_mut(next) {
                Some(slot) => {
                    *slot = unit;
                    next += 1;
                }
                None => overflow = true,
            }
        };
        let error = body.error() + body.error();
        let faces = body.model().triangles();
        let mut units = Units {
            side: Side::new(&mut *body),
            faces,
            aids,
            sink,
            error,
            counts,
            record: &mut record,
            type3: false,
            lazy: None,
            refused: false,
            #[cfg(feature = "speed")]
            boxes: super::boxes::Boxes::none(),
        };
        let root = [[0, 0]];
        let start: &[[u32; 2]] = if self.fresh {
            &root
        } else {
            self.units.get(..self.len).unwrap_or(&[])
        };
        let mut status = QueryStatus::Complete;
        for &[a, b] in start {
            let (a, b) = (a & NODE, b & NODE);
            if a != b {
                // A pair unit is re-tested where it stands; generated units are tested by the
                // walk when their parent expands.
                let (Some(sa), Some(sb)) = (units.bound(true, a), units.bound(false, b)) else {
                    status = QueryStatus::Inconsistent;
                    break;
                };
                stats.overlap_tests += 1;
                if !spheres_overlap(sa, sb) {
                    stats.nodes_visited += 1;
                    units.separated([a, b]);
                    continue;
                }
            }
            let mut pending = Stack::new(stack);
            if !pending.push([a, b]) {
                status = QueryStatus::Inconsistent;
                break;
            }
            status = walk_pairs(&mut units, &mut pending, &mut Unlimited, &mut stats).status();
            if status != QueryStatus::Complete {
                break;
            }
        }
        drop(units);
        self.overflowed = overflow;
        if status != QueryStatus::Complete || overflow {
            self.reset();
        } else {
            self.len = next;
            core::mem::swap(&mut self.units, &mut self.spare);
            self.fresh = false;
            if self.merge(body, &mut stats).is_none() {
                self.reset();
                status = QueryStatus::Inconsistent;
            }
        }
        stats.sphere_updates = body.update_count().wrapping_sub(before);
        QueryOutcome { status, stats }
    }

    /// Lau's "move up": two separated units next to each other in the list that differ in one
    /// node, the two nodes being siblings, are merged into the parent unit when that one is
    /// separated as well — the list stays a partition of the triangle pairs. The walk records
    /// the units of one expansion side by side and keeps the list's order from step to step, so
    /// looking at neighbours only finds the merges without sorting (`O(len)`); a merge missed
    /// costs a finer list, never an answer. One level per step.
    fn merge<S: Scalar>(
        &mut self,
        body: &mut Body<'_, '_, S>,
        stats: &mut QueryStats,
    ) -> Option<()> {
        let units = self.units.get_mut(..self.len)?;
        let mut kept = 0usize;
        let mut k = 0usize;
        while k < units.len() {
            let [a, b] = *units.get(k)?;
            let merged = match units.get(k + 1) {
                Some(&[c, d]) if b & d & SEPARATED != 0 => {
                    let (b, d) = (b & NODE, d & NODE);
                    // The shared node and the two that differ.
                    let split = if a == c && b != d {
                        Some((a, b, d))
                    } else if b == d && a != c {
                        Some((b, a, c))
                    } else if a == d && b != c {
                        Some((a, b, c))
                    } else if b == c && a != d {
                        Some((b, a, d))
                    } else {
                        None
                    };
                    match split {
                        Some((other, x, y)) => {
                            let parent = *self.parents.get(x as usize)?;
                            if parent != NONE && parent == *self.parents.get(y as usize)? {
                                let (Some(sp), Some(so)) =
                                    (body.sphere(parent as usize), body.sphere(other as usize))
                                else {
                                    return None;
                                };
                                stats.overlap_tests += 1;
                                (!spheres_overlap(sp, so)).then_some([parent, other])
                            } else {
                                None
                            }
                        }
                        None => None,
                    }
                }
                _ => None,
            };
            let unit = match merged {
                Some([x, y]) => {
                    k += 2;
                    [x.min(y), x.max(y) | SEPARATED]
                }
                None => {
                    k += 1;
                    [a, b]
                }
            };
            *units.get_mut(kept)? = unit;
            kept += 1;
        }
        self.len = kept;
        Some(())
    }
}

//! The proxy walk as one loop of its own where floating point is in hardware
//! ([`hardware_float`]): the pair walk of [`crate::walk`] specialised to proxies, with the same
//! node pairs, the same tests, the same order and the same counters as the policy over it
//! (`policy`, which soft-float cores keep), in fewer instructions (−43 % for the world query
//! of a heap of 1,000 chairs on x86-64, −20 % for the firmware's proxy scenes on the
//! Cortex-M4F).
//!
//! What the general walk does through its policy, this loop does once per step:
//!
//! * a node's links are read once per visit (its children, whether it is a proxy) and, unless
//!   proxies are enlarged too (`ALL`, [`super::collide_proxies_apart`]), its children's links
//!   once per expansion, side by side (siblings are adjacent), which says which children are
//!   proxies — the general walk asked the tree again for every bound it enlarged, eight times
//!   per node pair;
//! * the split rule reads the two nodes' radii only; both sides' children are made fresh in
//!   the sphere caches before any of their spheres is read, so no sphere is held across a
//!   miss's call;
//! * a pair that splits both nodes tests its four child pairs together
//!   ([`overlaps_four`]): the two children's spheres of each side read once (siblings are
//!   adjacent in the cache too) and laid out lane by lane, each lane computing exactly what
//!   [`spheres_overlap`] computes, in the same order, so the bits and the answers are the same;
//! * b's spheres are seen from a's frame by a [`View`] known at compile time (nothing for
//!   [`super::collide_proxies`], the offset and its slack for
//!   [`super::collide_proxies_apart`]).
//!
//! [`spheres_overlap`]: crate::bounds::sphere::spheres_overlap

use crate::image::tree::NONE;
use crate::scalar::Scalar;
use crate::walk::output::{report, ProxySink, QueryStats, QueryStatus};
use crate::walk::{Bodies, Side};

use super::proxy_pair;

/// Whether arithmetic in `S` is in hardware here: x86, x86-64, AArch64, WebAssembly, and f32 on
/// 32-bit ARM with a hardware FPU (`eabihf`: Cortex-M4F/M7/M33, Cortex-R). Elsewhere (Cortex-M0,
/// M3, f64 on an f32 FPU) every operation is a library call: the proxy queries run the policy
/// walk there (`policy`), and this loop where this holds.
pub(super) const fn hardware_float<S: Scalar>() -> bool {
    let wide_fpu = cfg!(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "wasm32"
    ));
    wide_fpu || (cfg!(target_abi = "eabihf") && S::BYTES == 4)
}

/// How the walk sees b's spheres from a's frame.
pub(super) trait View<S: Scalar> {
    /// A sphere of b (its bound: own or enlarged) as a's frame sees it.
    fn see(&self, sphere: [S; 4]) -> [S; 4];
    /// The radius of [`View::see`]'s sphere.
    fn radius(&self, r: S) -> S;
}

/// Both bodies at one origin: b's spheres as they are.
pub(super) struct Same;

impl<S: Scalar> View<S> for Same {
    #[inline(always)]
    fn see(&self, sphere: [S; 4]) -> [S; 4] {
        sphere
    }

    #[inline(always)]
    fn radius(&self, r: S) -> S {
        r
    }
}

/// b at its own origin: its spheres moved by `shift` and grown by `slack`
/// ([`super::collide_proxies_apart`]).
pub(super) struct Moved<S> {
    pub shift: [S; 3],
    pub slack: S,
}

impl<S: Scalar> View<S> for Moved<S> {
    #[inline(always)]
    fn see(&self, [x, y, z, r]: [S; 4]) -> [S; 4] {
        let o = self.shift;
        [x + o[0], y + o[1], z + o[2], self.radius(r)]
    }

    #[inline(always)]
    fn radius(&self, r: S) -> S {
        r + self.slack
    }
}

/// One body of the walk: its side (caches and links), its proxy depth and the margin its
/// spheres are enlarged by.
struct Tree<'s, 'q, 't, 'c, S: Scalar, const ALL: bool> {
    side: &'s mut Side<'q, 't, 'c, S>,
    depth: u32,
    margin: S,
}

impl<S: Scalar, const ALL: bool> Tree<'_, '_, '_, '_, S, ALL> {
    /// Whether a node with these links is terminal: a leaf or a cut node of a bounded tree (no
    /// children: the loader refuses a leaf with a child) or a node at the proxy depth.
    #[inline(always)]
    fn terminal(&self, [left, _, _, depth]: [u32; 4]) -> bool {
        (left == NONE) | (depth >= self.depth)
    }

    /// A node's bound radius ([`Tree::bound`]'s).
    #[inline(always)]
    fn radius(&self, r: S, terminal: bool) -> S {
        if terminal & !ALL {
            r
        } else {
            r + self.margin
        }
    }

    /// A node's bound: its sphere enlarged by the margin, a proxy's own sphere unless `ALL`.
    #[inline(always)]
    fn bound(&self, [x, y, z, r]: [S; 4], terminal: bool) -> [S; 4] {
        [x, y, z, self.radius(r, terminal)]
    }

    /// Makes the cache hold this step's spheres of the children of a node with these links.
    #[inline(always)]
    fn fresh_children(&mut self, links: [u32; 4]) -> Option<()> {
        self.side.fresh_siblings(links[0])
    }

    /// The children `[left, left + 1]` of a node with these links, and their bounds (their
    /// spheres of this step: [`Tree::fresh_children`] first).
    #[inline(always)]
    fn children(&self, links: [u32; 4]) -> Option<([u32; 2], [[S; 4]; 2])> {
        let left = links[0];
        let [l, r] = self.side.cached_siblings(left)?;
        let bounds = if ALL {
            [self.bound(l, false), self.bound(r, false)]
        } else {
            let [ll, rl] = self.side.sibling_links(left)?;
            [
                self.bound(l, self.terminal(ll)),
                self.bound(r, self.terminal(rl)),
            ]
        };
        Some(([left, left.wrapping_add(1)], bounds))
    }
}

/// The overlap tests of the child pairs `(a0, b0)`, `(a0, b1)`, `(a1, b0)`, `(a1, b1)`, in
/// that order: each lane is [`crate::bounds::sphere::spheres_overlap`] on its pair, the same
/// operations in the same order (so the same bits), laid out so that hosts with vector units
/// run the four at once.
#[inline(always)]
fn overlaps_four<S: Scalar>([a0, a1]: [[S; 4]; 2], [b0, b1]: [[S; 4]; 2]) -> [bool; 4] {
    let lane = |k: usize| -> [S; 4] { [a0[k], a0[k], a1[k], a1[k]] };
    let other = |k: usize| -> [S; 4] { [b0[k], b1[k], b0[k], b1[k]] };
    let (ax, ay, az, ar) = (lane(0), lane(1), lane(2), lane(3));
    let (bx, by, bz, br) = (other(0), other(1), other(2), other(3));
    let slack = S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF;
    let mut out = [false; 4];
    for k in 0..4 {
        let d = [ax[k] - bx[k], ay[k] - by[k], az[k] - bz[k]];
        let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        let r = ar[k] + br[k];
        out[k] = d2 <= r * r * slack;
    }
    out
}

/// [`crate::bounds::sphere::spheres_overlap`] (the same operations in the same order).
#[inline(always)]
fn spheres_meet<S: Scalar>(a: [S; 4], b: [S; 4]) -> bool {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    let r = a[3] + b[3];
    d2 <= r * r * (S::ONE + S::from_u32(16) * S::UNIT_ROUNDOFF)
}

/// Writes the kept pairs of `pairs` (those with `keep`) to `slots` in order; how many.
#[inline(always)]
fn push<const N: usize>(slots: &mut [[u32; 2]; N], pairs: [[u32; 2]; N], keep: [bool; N]) -> usize {
    let mut kept = 0;
    for (pair, keep) in pairs.into_iter().zip(keep) {
        if let Some(slot) = slots.get_mut(kept) {
            *slot = pair;
        }
        kept += usize::from(keep);
    }
    kept
}

/// The proxy walk (module docs) from the root pair on `stack`, each reported pair delivered
/// to `sink`; the counters in `stats`, the sphere updates left to the caller.
#[inline(always)]
pub(super) fn descend<S: Scalar, V: View<S>, const ALL: bool>(
    bodies: &mut Bodies<'_, '_, '_, '_, '_, S>,
    depths: [u32; 2],
    margins: [S; 2],
    view: &V,
    stack: &mut [[u32; 2]],
    sink: &mut (impl ProxySink<S> + ?Sized),
    stats: &mut QueryStats,
) -> QueryStatus {
    const FAILED: QueryStatus = QueryStatus::Inconsistent;
    let mut a: Tree<'_, '_, '_, '_, S, ALL> = Tree {
        side: &mut bodies.a,
        depth: depths[0],
        margin: margins[0],
    };
    let mut b: Tree<'_, '_, '_, '_, S, ALL> = Tree {
        side: &mut bodies.b,
        depth: depths[1],
        margin: margins[1],
    };
    // The root pair.
    let (Some(la), Some(lb)) = (a.side.links(0), b.side.links(0)) else {
        return FAILED;
    };
    let (Some(ra), Some(rb)) = (a.side.sphere(0), b.side.sphere(0)) else {
        return FAILED;
    };
    let (ra, rb) = (
        a.bound(ra, a.terminal(la)),
        view.see(b.bound(rb, b.terminal(lb))),
    );
    stats.overlap_tests = stats.overlap_tests.wrapping_add(1);
    if !spheres_meet(ra, rb) {
        return QueryStatus::Complete;
    }
    let Some(slot) = stack.first_mut() else {
        return QueryStatus::StackTooSmall {
            needed: 1,
            given: 0,
        };
    };
    *slot = [0, 0];
    let mut len = 1;
    while len > 0 {
        len -= 1;
        let Some(&[i, j]) = stack.get(len) else {
            return FAILED;
        };
        let (Some(la), Some(lb)) = (a.side.links(i), b.side.links(j)) else {
            return FAILED;
        };
        let (ta, tb) = (a.terminal(la), b.terminal(lb));
        stats.nodes_visited = stats.nodes_visited.wrapping_add(1);
        if ta & tb {
            let (Some(si), Some(sj)) = (a.side.cached_sphere(i), b.side.cached_sphere(j)) else {
                return FAILED;
            };
            // Two proxies: their own spheres (b's as a sees it), reported; when the walk
            // reached them on enlarged spheres (`ALL`), only if their own overlap.
            let sj = view.see(sj);
            if ALL {
                stats.overlap_tests = stats.overlap_tests.wrapping_add(1);
                if !spheres_meet(si, sj) {
                    continue;
                }
            }
            let pair = proxy_pair(i, j, si, sj);
            if let Err(status) = report(sink, pair, stats) {
                return status;
            }
            continue;
        }
        let (Some(ri), Some(rj)) = (a.side.cached_sphere(i), b.side.cached_sphere(j)) else {
            return FAILED;
        };
        let (ri, rj) = (ri[3], rj[3]);
        // The split rule (`walk::split`) on the bounds' radii: both nodes while within a
        // factor of two, else the larger, never a terminal one.
        let (size_i, size_j) = (a.radius(ri, ta), view.radius(b.radius(rj, tb)));
        let i_larger = size_i >= size_j;
        // `small + small >= large`, both ways round without choosing which is the smaller
        // (the same answer for any sizes, a NaN included: false).
        let within_two = (size_i + size_i >= size_j) & (size_j + size_j >= size_i);
        if !ta & !tb & within_two {
            let Some(slots) = stack.get_mut(len..).and_then(<[_]>::first_chunk_mut::<4>) else {
                return FAILED;
            };
            stats.overlap_tests = stats.overlap_tests.wrapping_add(4);
            // Both caches made fresh before any sphere is read: no sphere is held across a
            // miss's call.
            let (Some(()), Some(())) = (a.fresh_children(la), b.fresh_children(lb)) else {
                return FAILED;
            };
            let (Some(([li, ri], ca)), Some(([lj, rj], cb))) = (a.children(la), b.children(lb))
            else {
                return FAILED;
            };
            let cb = [view.see(cb[0]), view.see(cb[1])];
            let pairs = [[li, lj], [li, rj], [ri, lj], [ri, rj]];
            len += push(slots, pairs, overlaps_four(ca, cb));
            continue;
        }
        let Some(slots) = stack.get_mut(len..).and_then(<[_]>::first_chunk_mut::<2>) else {
            return FAILED;
        };
        stats.overlap_tests = stats.overlap_tests.wrapping_add(2);
        len += if !ta & (tb | i_larger) {
            let Some(()) = a.fresh_children(la) else {
                return FAILED;
            };
            let (Some(([li, ri], ca)), Some(sj)) = (a.children(la), b.side.cached_sphere(j)) else {
                return FAILED;
            };
            let sj = view.see(b.bound(sj, tb));
            push(
                slots,
                [[li, j], [ri, j]],
                [spheres_meet(ca[0], sj), spheres_meet(ca[1], sj)],
            )
        } else {
            let Some(()) = b.fresh_children(lb) else {
                return FAILED;
            };
            let (Some(([lj, rj], cb)), Some(si)) = (b.children(lb), a.side.cached_sphere(i)) else {
                return FAILED;
            };
            let si = a.bound(si, ta);
            let cb = [view.see(cb[0]), view.see(cb[1])];
            push(
                slots,
                [[i, lj], [i, rj]],
                [spheres_meet(si, cb[0]), spheres_meet(si, cb[1])],
            )
        };
    }
    QueryStatus::Complete
}

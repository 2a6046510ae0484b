//! Bounded-depth traversal with contact proxies (James & Pai 2004, section 3.4).
//!
//! A **proxy** of a tree at proxy depth `L` is a node at depth `L`, or a leaf shallower than
//! `L` (or a cut node of a bounded-depth tree, [`crate::TreeView::is_bounded`], whose depth is
//! the tree's): the proxies partition the triangles, and a traversal that stops at them costs what a
//! tree of depth `L` costs, whatever the mesh resolution. [`collide_proxies`] returns exactly
//!
//! ```text
//! { (p, q) : p a proxy of a, q a proxy of b, spheres_overlap(a.sphere(p), b.sphere(q)) }
//! ```
//!
//! — the proxy pairs whose updated spheres (as [`Body::sphere`] computes them, exact or
//! coherent) overlap, each with its two world spheres and penetration depth for contact
//! response. `L` is chosen per query and per body (0 is the root; a depth at or beyond the
//! tree's depth makes every leaf a proxy, and the answer is then every overlapping leaf pair).
//!
//! # Why pruning at an ancestor is exact
//!
//! The trees must be **nested** (built with nesting, [`crate::image::FLAG_NESTED`]; the loader
//! verifies it): every node's updated sphere contains its children's for every `q`, in exact
//! arithmetic, and so (by induction) every descendant's. Computed spheres carry rounding
//! error, so a computed ancestor sphere need not contain a computed descendant sphere; the
//! traversal therefore tests every **non-proxy** node with its sphere enlarged by
//!
//! ```text
//! margin = (8 + ⌈d / 4⌉) · δ      (d the tree's depth, δ the body's sphere rounding bound)
//! ```
//!
//! Derivation: each computed center is within `√3 δ` of the exact one and each computed radius
//! within `δ`, before the `3δ` inflation every sphere gets ([`crate::sphere`]). A computed
//! descendant sphere therefore lies inside the exact descendant sphere grown by
//! `(√3 + 4) δ`; that lies inside the exact ancestor sphere grown by the same amount plus the
//! nesting tolerance the loader accepts (below `δ/4` per level, see
//! [`crate::image::check_nested`]); and that lies inside the computed ancestor sphere grown by
//! `(2√3 + 2) δ + ⌈d/4⌉ δ`. One more `δ` covers the overlap test's own rounding
//! (`spheres_overlap`'s relative slack `16u` is below `δ/6` of any radius of the body) and the
//! rounding of the enlargement itself. So if a proxy pair overlaps, every ancestor pair's
//! enlarged spheres overlap and the traversal reaches it; and a proxy pair is reported exactly
//! when its own (unenlarged) spheres overlap.
//!
//! For f32 and a body of size 1 at M = 10, `δ ≈ 10⁻⁵`: the enlargement is a few 10⁻⁴ at most.

use crate::body::Body;
use crate::image::NONE;
use crate::query::{expand, split, stack_capacity, QueryOutcome, QueryStats, QueryStatus};
use crate::scalar::Scalar;
use crate::sphere::spheres_overlap;

/// An overlapping pair of proxies, one of each body, with their world spheres.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ProxyPair<S> {
    /// The proxy node of the first body.
    pub a: u32,
    /// The proxy node of the second body.
    pub b: u32,
    /// The first proxy's world sphere `[x, y, z, r]` (as [`Body::sphere`] returns it).
    pub sphere_a: [S; 4],
    /// The second proxy's world sphere.
    pub sphere_b: [S; 4],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖` (units of the mesh), computed in the scalar:
    /// positive when the spheres overlap; within rounding of 0 (possibly slightly negative)
    /// when they touch. The contact normal is along `c_b − c_a`.
    pub depth: S,
}

/// Where [`collide_proxies`] puts the pairs it finds. A sink that refuses a pair ends the query
/// with [`QueryStatus::ProxyOutputFull`]: nothing is dropped silently.
pub trait ProxySink<S> {
    /// Takes a pair, or hands it back when full.
    fn push(&mut self, pair: ProxyPair<S>) -> Result<(), ProxyPair<S>>;
}

/// Any `FnMut(ProxyPair<S>) -> bool` is a sink; returning `false` refuses the pair.
impl<S: Copy, F: FnMut(ProxyPair<S>) -> bool> ProxySink<S> for F {
    fn push(&mut self, pair: ProxyPair<S>) -> Result<(), ProxyPair<S>> {
        if self(pair) {
            Ok(())
        } else {
            Err(pair)
        }
    }
}

/// A fixed-capacity buffer of proxy pairs.
#[derive(Debug, Clone)]
pub struct ProxyBuffer<S: Scalar, const N: usize> {
    pairs: [ProxyPair<S>; N],
    len: usize,
}

impl<S: Scalar, const N: usize> Default for ProxyBuffer<S, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Scalar, const N: usize> ProxyBuffer<S, N> {
    /// An empty buffer.
    pub fn new() -> Self {
        let empty = ProxyPair {
            a: 0,
            b: 0,
            sphere_a: [S::ZERO; 4],
            sphere_b: [S::ZERO; 4],
            depth: S::ZERO,
        };
        Self {
            pairs: [empty; N],
            len: 0,
        }
    }
    /// The pairs held, in the order found.
    pub fn as_slice(&self) -> &[ProxyPair<S>] {
        self.pairs.get(..self.len).unwrap_or(&[])
    }
    /// Empties the buffer.
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Pairs held.
    pub fn len(&self) -> usize {
        self.len
    }
    /// No pairs held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<S: Scalar, const N: usize> ProxySink<S> for ProxyBuffer<S, N> {
    fn push(&mut self, pair: ProxyPair<S>) -> Result<(), ProxyPair<S>> {
        let slot = self.pairs.get_mut(self.len).ok_or(pair)?;
        *slot = pair;
        self.len += 1;
        Ok(())
    }
}

/// Stack entries [`collide_proxies`] needs for these trees and proxy depths.
pub fn proxy_stack_capacity(
    tree_depth_a: u32,
    proxy_depth_a: u32,
    tree_depth_b: u32,
    proxy_depth_b: u32,
) -> usize {
    stack_capacity(
        tree_depth_a.min(proxy_depth_a),
        tree_depth_b.min(proxy_depth_b),
    )
}

/// One side of the traversal: a body, its proxy depth and its non-proxy margin.
struct Side<'r, 't, 'c, S: Scalar> {
    body: &'r mut Body<'t, 'c, S>,
    proxy_depth: u32,
    margin: S,
}

impl<S: Scalar> Side<'_, '_, '_, S> {
    /// The side of `body`, with the enlargement of its non-proxy spheres (module docs).
    fn new<'r, 't, 'c>(body: &'r mut Body<'t, 'c, S>, proxy_depth: u32) -> Side<'r, 't, 'c, S> {
        let depth = body.tree().depth();
        let levels = S::from_u32(8 + depth.div_ceil(4));
        let margin = levels * body.sphere_error();
        Side {
            body,
            proxy_depth,
            margin,
        }
    }

    /// `(is_proxy, children)` of a node; `None` for a bad index.
    fn node(&self, node: u32) -> Option<(bool, [u32; 2])> {
        let [left, right, triangle, depth] = self.body.tree().links(node as usize)?;
        // Leaves, cut nodes of a bounded tree (no children) and nodes at the proxy depth.
        let proxy = triangle != NONE || left == NONE || depth >= self.proxy_depth;
        Some((proxy, [left, right]))
    }

    /// The node's sphere as traversed: a proxy's own, a non-proxy's enlarged by the margin.
    fn sphere(&mut self, node: u32) -> Option<[S; 4]> {
        let (proxy, _) = self.node(node)?;
        let [x, y, z, r] = self.body.sphere(node as usize)?;
        Some([x, y, z, if proxy { r } else { r + self.margin }])
    }
}

/// Every pair of proxies (nodes at depth `proxy_depth_a` of `a`'s tree, or leaves above it;
/// likewise for `b`) whose updated world spheres overlap — exactly the pairs for which
/// [`spheres_overlap`] holds on [`Body::sphere`], see the module docs — delivered to `sink`
/// in traversal order with their spheres and penetration depth.
///
/// Both trees must be nested ([`crate::TreeView::is_nested`]); otherwise nothing is done and
/// the status is [`QueryStatus::NotNested`]. `stack` needs [`proxy_stack_capacity`] entries.
/// Cost: the traversal never goes below the proxies, so it is bounded by the node pairs above
/// them, whatever the mesh resolution; no triangle is touched.
pub fn collide_proxies<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    proxy_depth_a: u32,
    b: &mut Body<'_, '_, S>,
    proxy_depth_b: u32,
    stack: &mut [[u32; 2]],
    sink: &mut impl ProxySink<S>,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    if !a.tree().is_nested() || !b.tree().is_nested() {
        return QueryOutcome {
            status: QueryStatus::NotNested,
            stats,
        };
    }
    let needed = proxy_stack_capacity(
        a.tree().depth(),
        proxy_depth_a,
        b.tree().depth(),
        proxy_depth_b,
    );
    if stack.len() < needed {
        let status = QueryStatus::StackTooSmall {
            needed,
            given: stack.len(),
        };
        return QueryOutcome { status, stats };
    }
    let updates_before = a.update_count().wrapping_add(b.update_count());
    let mut sa = Side::new(a, proxy_depth_a);
    let mut sb = Side::new(b, proxy_depth_b);
    let status = run(&mut sa, &mut sb, stack, sink, &mut stats);
    stats.sphere_updates = sa
        .body
        .update_count()
        .wrapping_add(sb.body.update_count())
        .wrapping_sub(updates_before);
    QueryOutcome { status, stats }
}

fn run<S: Scalar>(
    a: &mut Side<'_, '_, '_, S>,
    b: &mut Side<'_, '_, '_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut impl ProxySink<S>,
    stats: &mut QueryStats,
) -> QueryStatus {
    // As in `query::run`: every pair on the stack overlaps (as traversed); children are
    // tested when their parent pair is expanded.
    let (Some(ra), Some(rb)) = (a.sphere(0), b.sphere(0)) else {
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
    let mut len = usize::from(spheres_overlap(ra, rb));
    while len > 0 {
        len -= 1;
        let Some(&[i, j]) = stack.get(len) else {
            return QueryStatus::Inconsistent;
        };
        stats.nodes_visited += 1;
        let (Some((proxy_a, [la, ra])), Some((proxy_b, [lb, rb]))) = (a.node(i), b.node(j)) else {
            return QueryStatus::Inconsistent;
        };
        let (Some(sa), Some(sb)) = (a.sphere(i), b.sphere(j)) else {
            return QueryStatus::Inconsistent;
        };
        if proxy_a & proxy_b {
            let d = [sb[0] - sa[0], sb[1] - sa[1], sb[2] - sa[2]];
            let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            let pair = ProxyPair {
                a: i,
                b: j,
                sphere_a: sa,
                sphere_b: sb,
                depth: sa[3] + sb[3] - distance,
            };
            if let Err(pair) = sink.push(pair) {
                return QueryStatus::ProxyOutputFull {
                    a: pair.a,
                    b: pair.b,
                };
            }
            stats.pairs += 1;
            continue;
        }
        // A proxy is never split (it plays the leaf).
        let how = split(sa[3], sb[3], proxy_a, proxy_b);
        let sphere = |first: bool, node: u32| {
            if first {
                a.sphere(node)
            } else {
                b.sphere(node)
            }
        };
        let Some(slots) = stack.get_mut(len..len + 4) else {
            return QueryStatus::Inconsistent;
        };
        let mut kept = 0usize;
        let keep = |pair: [u32; 2], x: [S; 4], y: [S; 4]| {
            if let Some(slot) = slots.get_mut(kept) {
                *slot = pair;
            }
            kept += usize::from(spheres_overlap(x, y));
        };
        let Some(tests) = expand(how, (i, [la, ra], sa), (j, [lb, rb], sb), sphere, keep) else {
            return QueryStatus::Inconsistent;
        };
        stats.overlap_tests += tests;
        len += kept;
    }
    QueryStatus::Complete
}

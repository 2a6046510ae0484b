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
//! within `δ`, before the `3δ` inflation every sphere gets ([`crate::bounds::sphere`]). A computed
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
//!
//! # The walk, and where proxies are enlarged too
//!
//! Where floating point is in hardware — x86, x86-64, AArch64, WebAssembly, and f32 on 32-bit
//! ARM with a hardware FPU (`eabihf`: Cortex-M4F/M7/M33, Cortex-R) — the walk is a loop of its
//! own (`packed`): the same node pairs, tests, order and counters as the general walk
//! ([`crate::walk`]) with this module's policy (`policy`), which the soft-float cores
//! (Cortex-M0/M3, f64 on an f32 FPU) keep, where it measures cheaper. Knowing which children
//! are proxies (their sphere unenlarged) costs a look at the children's links per expansion.
//! Where floating point is in hardware, [`collide_proxies_apart`] skips it by enlarging
//! **every** sphere by the margin, proxies too, and testing a proxy pair's own spheres once
//! more before reporting it: the pairs reported, their spheres, depths and order are the same
//! (a proxy pair's enlarged spheres overlap whenever its own do); the walk also visits the few
//! node pairs within the margin of touching, and its counters count them (`nodes_visited`,
//! `overlap_tests` and `sphere_updates` a fraction of a percent higher on a heap of chairs). On
//! soft-float cores each added margin and test is a library call, dearer than the lookup, so
//! the walk there keeps a proxy's sphere unenlarged. [`collide_proxies`] keeps it unenlarged on
//! every target: its counters are the same everywhere, which the firmware replay compares with
//! the host's.
//!
//! # Fitted proxies, an approximate answer beside the exact one
//!
//! The proxies' spheres above are wrapped: each contains its node's deformed triangles, which
//! is what makes the answer exact, and on thick or round bodies much of each sphere lies outside
//! the body. A version-5 image also stores a **fitted** sphere per node, placed to fit the body
//! ([`crate::bounds::fitted`]). [`fitted_pair`] gives a reported pair's two fitted spheres, each
//! with its **reach** — every point of it (whose rest pre-image is outside the rest body) lies
//! within the reach of the node's deformed triangles — and the depth between them: a contact
//! proxy that is closer to the body, for a controller that acts on spheres. It never replaces the
//! query: the pairs are found with the exact spheres, so none is missed, and the fitted spheres
//! of a reported pair may not overlap.

use crate::body::Body;
use crate::bounds::fitted::FittedSphere;
use crate::scalar::Scalar;
use crate::walk::output::{ProxyPair, ProxySink, QueryOutcome, QueryStats, QueryStatus};
use crate::walk::{stack_capacity, Bodies};

mod packed;
mod policy;
use packed::{hardware_float, Moved, Same, View};

/// Stack entries [`collide_proxies`] needs for these trees and proxy depths. A `const fn`, so
/// static storage can be sized with it.
pub const fn proxy_stack_capacity(
    tree_depth_a: u32,
    proxy_depth_a: u32,
    tree_depth_b: u32,
    proxy_depth_b: u32,
) -> usize {
    /// `u32::min` is not a `const fn` (it is `Ord::min`).
    const fn least(a: u32, b: u32) -> u32 {
        if a < b {
            a
        } else {
            b
        }
    }
    stack_capacity(
        least(tree_depth_a, proxy_depth_a),
        least(tree_depth_b, proxy_depth_b),
    )
}

/// Proxies `i` of a and `j` of b on their own spheres (b's as a sees it): the pair reported,
/// its depth how far the spheres overlap.
#[inline(always)]
fn proxy_pair<S: Scalar>(i: u32, j: u32, sa: [S; 4], sb: [S; 4]) -> ProxyPair<S> {
    let d = [sb[0] - sa[0], sb[1] - sa[1], sb[2] - sa[2]];
    let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    ProxyPair {
        a: i,
        b: j,
        sphere_a: sa,
        sphere_b: sb,
        depth: sa[3] + sb[3] - distance,
    }
}

/// The enlargement of a body's non-proxy spheres (module docs).
fn margin<S: Scalar>(body: &Body<'_, '_, S>) -> S {
    let levels = S::from_u32(8 + body.tree().depth().div_ceil(4));
    levels * body.sphere_error()
}

/// The frame of a proxy query: the entry checks (`check`), the walk from the root pair with
/// b's spheres seen through `view`, and the sphere updates it made counted.
#[inline(always)]
fn run<S: Scalar, V: View<S>, const ALL: bool>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    depths: [u32; 2],
    view: &V,
    stack: &mut [[u32; 2]],
    sink: &mut (impl ProxySink<S> + ?Sized),
    check: Result<(), QueryStatus>,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    if let Err(status) = check {
        return QueryOutcome { status, stats };
    }
    let margins = [margin(a), margin(b)];
    let mut bodies = Bodies::new(a, b);
    let before = bodies.updates();
    let status =
        packed::descend::<S, V, ALL>(&mut bodies, depths, margins, view, stack, sink, &mut stats);
    stats.sphere_updates = bodies.updates().wrapping_sub(before);
    QueryOutcome { status, stats }
}

/// What a proxy query needs before it walks: nested trees and a stack of
/// [`proxy_stack_capacity`] entries.
#[inline(always)]
fn checked<S: Scalar>(
    a: &Body<'_, '_, S>,
    proxy_depth_a: u32,
    b: &Body<'_, '_, S>,
    proxy_depth_b: u32,
    stack: &[[u32; 2]],
) -> Result<(), QueryStatus> {
    let needed = proxy_stack_capacity(
        a.tree().depth(),
        proxy_depth_a,
        b.tree().depth(),
        proxy_depth_b,
    );
    if !a.tree().is_nested() || !b.tree().is_nested() {
        Err(QueryStatus::NotNested)
    } else if stack.len() < needed {
        let given = stack.len();
        Err(QueryStatus::StackTooSmall { needed, given })
    } else {
        Ok(())
    }
}

/// Every pair of proxies (nodes at depth `proxy_depth_a` of `a`'s tree, or leaves above it;
/// likewise for `b`) whose updated world spheres overlap — exactly the pairs for which
/// [`spheres_overlap`](crate::bounds::sphere::spheres_overlap) holds on [`Body::sphere`], see the module docs — delivered to `sink`
/// in traversal order with their spheres and penetration depth.
///
/// Both trees must be nested ([`crate::TreeView::is_nested`]); otherwise nothing is done and
/// the status is [`QueryStatus::NotNested`]. `stack` needs [`proxy_stack_capacity`] entries.
/// Cost: the traversal never goes below the proxies, so it is bounded by the node pairs above
/// them, whatever the mesh resolution; no triangle is touched.
pub fn collide_proxies<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    proxy_depth_a: u32,
    proxy_depth_b: u32,
    stack: &mut [[u32; 2]],
    sink: &mut (impl ProxySink<S> + ?Sized),
) -> QueryOutcome {
    let check = checked(a, proxy_depth_a, b, proxy_depth_b, stack);
    let depths = [proxy_depth_a, proxy_depth_b];
    if hardware_float::<S>() {
        run::<S, Same, false>(a, b, depths, &Same, stack, sink, check)
    } else {
        policy::plain(a, b, depths, stack, sink, check)
    }
}

/// [`collide_proxies`] on two bodies **each at its own floating origin** (e.g. each placed at
/// its own translation, [`Body::set_state_f64`]): `offset` is b's origin less a's, in f64.
/// The walk sees b's spheres from a's frame — moved by the offset rounded to `S`, grown by
/// `slack = 16 u (X_a + X_b + ‖offset‖∞)` (`X` a body's root `‖c‖∞ + 2r`, every node's centre
/// within it), which covers the rounding of the offset, of the move and of the overlap test
/// on the moved coordinates — so every proxy pair whose spheres overlap is reported, at the
/// precision a common origin between the two would give. Reported pairs carry a's sphere and
/// b's **as seen** (moved and grown), and the depth between them. Spheres computed at each
/// body's own origin serve every pair the body is in: a body among many is placed once per
/// state. Where `S` is in hardware, the walk enlarges proxies' spheres too (module docs): the
/// same pairs, and counters a little higher than [`collide_proxies`] would give.
///
/// An offset that is not finite (in f64, or once rounded to `S`) ends the query with
/// [`QueryStatus::Inconsistent`] and reports nothing.
pub fn collide_proxies_apart<S: Scalar>(
    a: &mut Body<'_, '_, S>,
    b: &mut Body<'_, '_, S>,
    proxy_depth_a: u32,
    proxy_depth_b: u32,
    offset: [f64; 3],
    stack: &mut [[u32; 2]],
    sink: &mut (impl ProxySink<S> + ?Sized),
) -> QueryOutcome {
    let reach = |body: &mut Body<'_, '_, S>| {
        body.sphere(0).map_or(f64::INFINITY, |s| {
            let c = s[0].abs().max(s[1].abs()).max(s[2].abs());
            c.to_f64() + 2.0 * s[3].to_f64()
        })
    };
    let far = offset[0].abs().max(offset[1].abs()).max(offset[2].abs());
    let size = reach(a) + reach(b) + far;
    let u = S::UNIT_ROUNDOFF.to_f64();
    // Rounded up to `S` by the extra factor.
    let slack = S::from_f64(16.0 * u * size * (1.0 + 8.0 * u));
    let shift = offset.map(S::from_f64);
    if !(size.is_finite() && slack.is_finite() && shift.iter().all(|x| x.is_finite())) {
        return QueryOutcome {
            status: QueryStatus::Inconsistent,
            stats: QueryStats::default(),
        };
    }
    let check = checked(a, proxy_depth_a, b, proxy_depth_b, stack);
    let depths = [proxy_depth_a, proxy_depth_b];
    let view = Moved { shift, slack };
    // Proxies enlarged too where `S` is in hardware (module docs).
    if hardware_float::<S>() {
        run::<S, Moved<S>, true>(a, b, depths, &view, stack, sink, check)
    } else {
        policy::apart(a, b, depths, &view, stack, sink, check)
    }
}

/// A reported proxy pair's fitted spheres (see the module docs): each with its reach, and the
/// depth `r_a + r_b − ‖c_b − c_a‖` between them (negative when they do not overlap).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FittedPair<S> {
    /// The first proxy's fitted sphere and reach.
    pub a: FittedSphere<S>,
    /// The second proxy's fitted sphere and reach.
    pub b: FittedSphere<S>,
    /// Depth between the two fitted spheres, computed in the scalar.
    pub depth: S,
}

/// The fitted spheres of a proxy pair reported by [`collide_proxies`] on the same bodies and
/// state ([`crate::Body::fitted_sphere`] of each side). `None` for a node index the bodies'
/// trees do not have. Two fitted updates (`8M + 24` multiply-adds) and a square root.
pub fn fitted_pair<S: Scalar>(
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
    pair: &ProxyPair<S>,
) -> Option<FittedPair<S>> {
    let fa = a.fitted_sphere(pair.a as usize)?;
    let fb = b.fitted_sphere(pair.b as usize)?;
    let (sa, sb) = (fa.sphere, fb.sphere);
    let d = [sb[0] - sa[0], sb[1] - sa[1], sb[2] - sa[2]];
    let distance = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    Some(FittedPair {
        a: fa,
        b: fb,
        depth: sa[3] + sb[3] - distance,
    })
}

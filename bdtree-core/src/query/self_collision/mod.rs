//! Self-collision: every pair of non-adjacent triangles of one deformed body that intersect.
//!
//! The traversal runs one tree against itself in Lau et al.'s **test units**, on a binary tree:
//!
//! * **Type 1** — one node against itself. It expands into its children's Type 1 units and,
//!   when the children's spheres overlap, the pair unit of the two children. A leaf has nothing
//!   to test against itself.
//! * **Type 2** — two nodes that may share a vertex (adjacent patches). Their spheres nearly
//!   always overlap, so they descend to their leaves, where triangles sharing a vertex index are
//!   skipped: touching along the shared vertex or edge is the mesh's own connectivity, not a
//!   collision (a fold that makes two adjacent triangles cross beyond their shared vertex is not
//!   reported; their non-adjacent neighbours are).
//! * **Type 3** — two nodes that share no vertex: an ordinary pair, pruned by sphere overlap as
//!   in [`crate::collide()`] (children tested at expansion; both nodes split whenever both
//!   descend); every pair below it is Type 3 too, so the classification is made once and the
//!   leaves skip the adjacency check.
//!
//! The queries from the root walk these units in a depth-first loop of their own (the same
//! units, order, answer and counters as the pair walk's general loop with this module's
//! policy, which [`SelfList`] runs): an entry popped before its step, a pair's own spheres not
//! read when both nodes split, both children's spheres of a node read at one look, the four
//! child pairs' sphere tests side by side.
//!
//! **Adjacency in O(1)** for any mesh: [`vertex_signatures`] gives each node a 64-bit
//! signature, bit `h(v)` set for every vertex `v` below it (`h` a multiplicative hash). Two
//! nodes whose signatures share no bit share no vertex (Type 3, proven); otherwise they are
//! taken as Type 2, which costs a leaf-level adjacency check and never an answer. (Lau et al.
//! index quad-tree nodes on the `(u, v)` grid; a BD-Tree is built over arbitrary meshes, so the
//! signature plays that role.) Without signatures every pair unit is treated as Type 2.
//!
//! **Incremental self-collision list.** [`SelfList`] carries the units where the previous
//! step's traversal stopped (Lau's self-collision list; a front of the traversal tree) from
//! step to step: each is re-tested from where it is — separated units stay, units that came to
//! overlap descend, and two separated sibling units whose parent unit is separated too are
//! merged into it (one level per step, Lau's "move up"). The list always partitions the body's
//! pairs of non-adjacent triangles (adjacent leaf pairs are left out: they never report), so
//! its answer equals [`collide_self`]'s.
//!
//! **Spheres that follow the fold.** Before the walk every node's sphere is rebuilt bottom-up
//! from the deformed triangles (`Body::refit`): a fold or crumple turns each node's BD-Tree
//! sphere (which carries `Σ_j ΔR_j |q_j|`) into many times the node's true size, and
//! self-collision reaches most of the tree anyway. The spheres stay in the body's cache for
//! the step, so later queries on the body read them.
//!
//! **Sound culling** (with [`SelfAids::cones`] and [`SelfAids::contours`]): a Type 1 unit is
//! skipped when every true normal of its patch faces one of the 14 sampled directions
//! ([`normal_cones`], with margins for rounding) and the patch's boundary loop, projected
//! along that direction, is a simple closed curve ([`SelfContours`]): the theorem of Volino
//! and Magnenat-Thalmann, with the contour half Lau et al. dropped. Without both, a Type 1
//! unit always descends to its leaves, so the cost is at least one test per pair of
//! neighbouring leaves: `O(n)` per query on top of the pairs that truly come close.
//!
//! **From the image** ([`collide_self_image`]): an image built with its self-collision data
//! ([`crate::image::FLAG_SELF`]: signatures, contours, certificates) hands them to the lazy
//! query itself, so a device culls with the image and caller buffers alone (a cone slot per
//! node and the stack).
//!
//! **Subspace certificates** (with [`SelfAids::certificates`], after Barbič and James 2010):
//! the same theorem bounded over `q` once per tree, so a Type 1 unit whose certificate holds
//! is culled in `O(M)` without a deformed vertex, and a body certified at its root skips the
//! refit ([`SelfCertificates`]).

use crate::body::Body;
use crate::bounds::sphere::spheres_overlap;
use crate::image::optional::split;
use crate::image::self_tables::vertex_bit;
use crate::image::tree::{TreeView, NONE};
use crate::scalar::Scalar;
use crate::walk::output::{ContactSink, QueryOutcome, QueryStats, QueryStatus, TrianglePair};
#[cfg(feature = "speed")]
use crate::walk::triangle_step_refs;
use crate::walk::{stack_capacity, triangle_step, Flow, Node, Policy, Side, Visit};
use contour::certified;

#[cfg(feature = "speed")]
mod boxes;
mod certificates;
mod cones;
mod contour;
mod list;
mod normals;
mod walk;

pub use crate::image::self_tables::{
    normal_quadratic_width, normal_row_width, sphere_row_width, BadRow, SelfCertificates,
    SelfContours, SelfNormals, SelfSpheres, CERTIFICATE_VECTORS, MAX_CONTOUR,
    NORMAL_QUADRATIC_MODES, NO_ROW,
};
use cones::{all_cones_and_spheres, lazy_cone};
pub use cones::{normal_cones, ConeSlot, SelfCones, DIRECTIONS};
pub use list::SelfList;

/// On the stack, set in a pair unit's first slot when it is known to be Type 3 (a Type 1 unit
/// is `[i, i]`).
const TYPE3: u32 = 1 << 31;

/// In a [`SelfList`] entry's second slot: the unit's spheres were disjoint this step.
const SEPARATED: u32 = 1 << 31;
/// The node bits of a [`SelfList`] entry slot.
const NODE: u32 = SEPARATED - 1;

/// Self-collision handles trees of fewer nodes than this (2³¹; the bit above carries a flag).
pub const MAX_NODES: usize = 1 << 31;

/// Stack entries [`collide_self`] needs for a tree of this depth: the self units left pending
/// along one root-to-leaf path (two per level) plus a pair traversal's
/// [`stack_capacity`]`(depth, depth)`, plus one.
pub const fn self_stack_capacity(depth: u32) -> usize {
    2 * depth as usize + stack_capacity(depth, depth) + 1
}

/// Optional accelerations of a self-collision query; [`SelfAids::NONE`] is the plain exact
/// traversal. None of them changes the answer: every culled unit is proven free.
#[derive(Debug, Clone, Copy, Default)]
pub struct SelfAids<'a> {
    /// Per-node vertex signatures from [`vertex_signatures`], each as two 32-bit halves (bits
    /// 0–31, 32–63; empty: off). With them, pair units are classified Type 2 / Type 3; the
    /// answer does not change.
    pub signatures: &'a [[u32; 2]],
    /// Per-node normal bitfields for this step from [`normal_cones`] (empty: off). Used only
    /// with [`SelfAids::contours`]: a Type 1 unit (a node against itself) is culled when its
    /// bitfield is non-zero and its contour, projected along a direction the bitfield names,
    /// does not cross itself (the contour test Lau et al. skipped; see [`SelfContours`]).
    pub cones: &'a [u16],
    /// Per-node boundary loops, written once per tree by the host
    /// (`bdtree_std::build::self_contours`); [`SelfContours::NONE`]: no unit is culled.
    pub contours: SelfContours<'a>,
    /// Per-node subspace certificates, written once per tree by the host
    /// (`bdtree_std::build::self_certificates`; [`SelfCertificates::NONE`]: off). A Type 1
    /// unit whose certificate holds at the body's `q` is culled in `O(M)`, before its cone;
    /// when the root's holds, the query ends before any sphere is refitted.
    pub certificates: SelfCertificates<'a>,
    /// Per-node bounds on the deformed normals, written once per tree by the host
    /// (`bdtree_std::build::self_normals`; [`SelfNormals::NONE`]: off). Read by
    /// [`collide_self_lazy`] only: a node with a row gets its normal cone in `O(M)` when the
    /// bound proves a direction, instead of from every triangle below it.
    pub normals: SelfNormals<'a>,
    /// Per-node affine spheres, written once per tree by the host
    /// (`bdtree_std::build::self_spheres`; [`SelfSpheres::NONE`]: off). Read by
    /// [`collide_self_lazy`] only: a node with a row whose affine sphere is within a quarter of
    /// its rest radius takes it in `O(M)`, where its subtree would otherwise be refitted.
    pub spheres: SelfSpheres<'a>,
}

impl SelfAids<'_> {
    /// No accelerations: the exact traversal.
    pub const NONE: SelfAids<'static> = SelfAids {
        signatures: &[],
        cones: &[],
        contours: SelfContours::NONE,
        certificates: SelfCertificates::NONE,
        normals: SelfNormals::NONE,
        spheres: SelfSpheres::NONE,
    };
}

/// Test units a self-collision query processed, by Lau et al.'s types.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UnitCounts {
    /// Type 1 units (a node against itself).
    pub type1: u32,
    /// Type 2 units (two nodes that may share a vertex; all pair units without signatures).
    pub type2: u32,
    /// Type 3 units (two nodes proven to share no vertex).
    pub type3: u32,
    /// Type 1 units culled: proven free by a subspace certificate, or by the normal cone and
    /// the contour test.
    pub culled: u32,
    /// Of [`UnitCounts::culled`], those proven free by their subspace certificate.
    pub certified: u32,
}

/// Every pair `(a, b)`, `a < b`, of non-adjacent triangles of `body` that intersect in its
/// current state — conservatively, as [`crate::collide()`]: pairs closer than the rounding bound
/// may be reported, intersecting pairs never missed — delivered to `sink` in traversal order.
pub fn collide_self<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    collide_self_with(
        body,
        SelfAids::NONE,
        &mut UnitCounts::default(),
        stack,
        sink,
    )
}

/// [`collide_self`] with accelerations (see [`SelfAids`]), counting the test units by type
/// into `counts` (added to what it holds). The same answer with or without them.
pub fn collide_self_with<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    aids: SelfAids<'_>,
    counts: &mut UnitCounts,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    if let Err(status) = check(body, &aids, stack) {
        return QueryOutcome { status, stats };
    }
    let before = body.update_count();
    // A body whose whole surface is proven free needs no spheres at all.
    let whole = aids.cones.first().copied().unwrap_or(0);
    let leaf = body.tree().links(0).is_none_or(|l| l[2] != NONE);
    let by_q = !leaf && aids.certificates.hold(body, 0);
    if by_q || (!leaf && certified(body, &aids.contours, 0, whole)) {
        counts.type1 += 1;
        counts.culled += 1;
        counts.certified += u32::from(by_q);
        return QueryOutcome {
            status: QueryStatus::Complete,
            stats,
        };
    }
    if body.refit().is_none() {
        return QueryOutcome {
            status: QueryStatus::Inconsistent,
            stats,
        };
    }
    let error = body.error() + body.error();
    let faces = body.model().triangles();
    // The box cache is for the lazy query (the host's, the image's): this plain walk, which
    // `collide_self` and the world queries' self pairs run, tests spheres only and carries no
    // box code.
    let mut units = Units {
        side: Side::new(body),
        faces,
        aids,
        sink,
        error,
        counts,
        record: &mut |_, _| {},
        type3: false,
        lazy: None,
        refused: false,
        #[cfg(feature = "speed")]
        boxes: boxes::Boxes::none(),
    };
    let status = units.walk(stack, &mut stats);
    stats.sphere_updates = units.side.body.update_count().wrapping_sub(before);
    QueryOutcome { status, stats }
}

/// [`collide_self_with`] paying only where the walk goes: each node's normal cone and tight
/// sphere are made the first time the walk reads them, not for the whole body before it. A
/// Type 1 unit's cone comes from its subtree (kept in `cones` for the query; abandoned, as 0,
/// as soon as no direction is left); a sphere is the one enclosing its children's, made from
/// the leaves up where the walk asks (kept in the body's cache for the step), or, for a node
/// nearly rigid at this `q`, its `O(M)` BD-Tree update. A subtree culled by its certificate,
/// or never reached, costs nothing. `aids.cones` is not read. The same answer as
/// [`collide_self_with`] and [`collide_self`]; `cones` needs a slot per node.
pub fn collide_self_lazy<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    aids: SelfAids<'_>,
    cones: &mut SelfCones<'_>,
    counts: &mut UnitCounts,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    let mut stats = QueryStats::default();
    if let Err(status) = check(body, &aids, stack) {
        return QueryOutcome { status, stats };
    }
    if cones.len() < body.tree().node_count() {
        return QueryOutcome {
            status: QueryStatus::Inconsistent,
            stats,
        };
    }
    cones.begin();
    let before = body.update_count();
    // A body with nothing to skip near its root (no node of the top three levels nearly rigid
    // or certified: deformed everywhere) gets its cones and spheres before the walk, as the
    // walk will read nearly all of them: in one pass once the root's cone is known to be 0,
    // else the spheres after the root's contour test, when the root is not culled.
    if !skippable(body, &aids.certificates) {
        let Some(spheres) = all_cones_and_spheres(body, cones) else {
            return QueryOutcome {
                status: QueryStatus::Inconsistent,
                stats,
            };
        };
        let leaf = body.tree().links(0).is_none_or(|l| l[2] != NONE);
        let whole = cones.get(0).unwrap_or(0);
        if !leaf && certified(body, &aids.contours, 0, whole) {
            counts.type1 += 1;
            counts.culled += 1;
            stats.sphere_updates = body.update_count().wrapping_sub(before);
            return QueryOutcome {
                status: QueryStatus::Complete,
                stats,
            };
        }
        if !spheres && body.refit_for_walk().is_none() {
            return QueryOutcome {
                status: QueryStatus::Inconsistent,
                stats,
            };
        }
    }
    let error = body.error() + body.error();
    let faces = body.model().triangles();
    let (nodes, modes) = (body.tree().node_count(), body.q().len());
    #[cfg(feature = "speed")]
    let boxes = boxes::Boxes::lend(body, aids.spheres);
    let mut units = Units {
        side: Side::new(body),
        faces,
        aids,
        sink,
        error,
        counts,
        record: &mut |_, _| {},
        type3: false,
        lazy: Some(cones),
        refused: false,
        #[cfg(feature = "speed")]
        boxes,
    };
    let status = units.walk(stack, &mut stats);
    #[cfg(feature = "speed")]
    units.boxes.give_back(units.side.body);
    let status = named(status, units.refused, &aids, nodes, modes);
    stats.sphere_updates = units.side.body.update_count().wrapping_sub(before);
    QueryOutcome { status, stats }
}

/// The status of a lazy walk that ended `status`, `refused` when a read refused a row of the
/// aids' normal bounds or affine spheres: after a refusal or a failed walk
/// ([`QueryStatus::Inconsistent`]: a refused sphere row ends the walk there) both tables are
/// checked whole, `O(nodes + rows)`, and the first bad place is named
/// ([`QueryStatus::BadSection`]). Only a walk that failed pays for it.
#[inline(never)]
fn named(
    status: QueryStatus,
    refused: bool,
    aids: &SelfAids<'_>,
    nodes: usize,
    modes: usize,
) -> QueryStatus {
    if !refused && status != QueryStatus::Inconsistent {
        return status;
    }
    if let Err(index) = aids.normals.check(nodes, modes) {
        return QueryStatus::BadSection {
            section: "normals",
            index,
        };
    }
    if let Err(index) = aids.spheres.check(nodes, modes) {
        return QueryStatus::BadSection {
            section: "spheres",
            index,
        };
    }
    if refused {
        QueryStatus::Inconsistent
    } else {
        status
    }
}

/// [`collide_self_lazy`] with the culling data the body's image carries
/// ([`crate::image::FLAG_SELF`]: signatures, contours and, when present, certificates) — the
/// culled query from the image and caller buffers alone, as on a device. An image without them
/// is answered by the plain traversal ([`collide_self_with`] without aids; `cones` is then not
/// read). The same answer either way; `cones` needs a slot per node ([`ConeSlot`], 8 bytes)
/// when the image carries the data.
pub fn collide_self_image<S: Scalar>(
    body: &mut Body<'_, '_, S>,
    cones: &mut SelfCones<'_>,
    counts: &mut UnitCounts,
    stack: &mut [[u32; 2]],
    sink: &mut impl ContactSink,
) -> QueryOutcome {
    match body.tree().self_data().copied() {
        Some(data) => {
            let aids = SelfAids {
                signatures: data.signatures,
                cones: &[],
                contours: data.contours,
                certificates: data.certificates,
                normals: data.normals(),
                spheres: data.spheres(),
            };
            collide_self_lazy(body, aids, cones, counts, stack, sink)
        }
        None => collide_self_with(body, SelfAids::NONE, counts, stack, sink),
    }
}

/// Whether a node of the top three levels of `body`'s tree is nearly rigid at its `q` (its
/// BD-Tree sphere close to its rest one) or certified free: something a lazy walk may skip.
fn skippable<S: Scalar>(body: &Body<'_, '_, S>, certificates: &SelfCertificates<'_>) -> bool {
    let tree = body.tree();
    let mut level = [0u32; 4];
    let mut width = 1;
    for _ in 0..3 {
        let mut next = [0u32; 4];
        let mut n = 0;
        for &k in level.iter().take(width) {
            let k = k as usize;
            let Some([left, right, triangle, _]) = tree.links(k) else {
                return false;
            };
            if triangle == NONE && (body.nearly_rigid(k) || certificates.hold(body, k)) {
                return true;
            }
            let slots = next.get_mut(n..).and_then(|r| r.first_chunk_mut::<2>());
            if let (NONE, Some(slots)) = (triangle, slots) {
                *slots = [left, right];
                n += 2;
            }
        }
        (level, width) = (next, n);
    }
    false
}

/// The checks every entry point makes before touching the body.
fn check<S: Scalar>(
    body: &Body<'_, '_, S>,
    aids: &SelfAids<'_>,
    stack: &[[u32; 2]],
) -> Result<(), QueryStatus> {
    if body.tree().is_bounded() {
        return Err(QueryStatus::Truncated);
    }
    let needed = self_stack_capacity(body.tree().depth());
    if stack.len() < needed {
        return Err(QueryStatus::StackTooSmall {
            needed,
            given: stack.len(),
        });
    }
    let nodes = body.tree().node_count();
    let short = |len: usize| len != 0 && len < nodes;
    let starts = aids.contours.starts.len();
    if nodes >= MAX_NODES
        || short(aids.signatures.len())
        || short(aids.cones.len())
        || (starts != 0 && starts <= nodes)
        || !aids.certificates.fits(nodes, body.q().len())
        || !aids.normals.fits(nodes, body.q().len())
        || !aids.spheres.fits(nodes, body.q().len())
    {
        return Err(QueryStatus::Inconsistent);
    }
    Ok(())
}

/// Whether two triangles share a vertex index: nine comparisons, without a branch.
#[inline(always)]
fn adjacent(a: [u32; 3], b: [u32; 3]) -> bool {
    let shared = |v: u32| (v == b[0]) | (v == b[1]) | (v == b[2]);
    shared(a[0]) | shared(a[1]) | shared(a[2])
}

/// Each node's vertex signature (see the module docs): bit `h(v)` set for every vertex `v` of
/// every triangle below the node, stored as two 32-bit halves (bits 0–31, 32–63: the image's
/// layout, readable at any 4-byte alignment). Computed once per tree, `O(nodes)` (an image
/// built with its self-collision data stores them: [`crate::image::FLAG_SELF`]). `None` when
/// `signatures` is shorter than the node count or the tree is inconsistent.
pub fn vertex_signatures<S: Scalar>(
    body: &Body<'_, '_, S>,
    signatures: &mut [[u32; 2]],
) -> Option<()> {
    let tree = body.tree();
    let triangles = body.model().triangles();
    let signatures = signatures.get_mut(..tree.node_count())?;
    for k in (0..signatures.len()).rev() {
        let [left, right, triangle, _] = tree.links(k)?;
        let signature = if triangle != NONE {
            let [a, b, c] = *triangles.get(triangle as usize)?;
            split(vertex_bit(a) | vertex_bit(b) | vertex_bit(c))
        } else {
            let (l, r) = (
                signatures.get(left as usize)?,
                signatures.get(right as usize)?,
            );
            [l[0] | r[0], l[1] | r[1]]
        };
        *signatures.get_mut(k)? = signature;
    }
    Some(())
}

/// Each node's parent ([`NONE`] for the root), which a [`SelfList`] needs to merge units.
/// `None` when `parents` is shorter than the node count or the tree is inconsistent.
pub fn tree_parents<S: Scalar>(tree: &TreeView<'_, S>, parents: &mut [u32]) -> Option<()> {
    let parents = parents.get_mut(..tree.node_count())?;
    parents.fill(NONE);
    for k in 0..parents.len() {
        let [left, right, triangle, _] = tree.links(k)?;
        if triangle == NONE {
            *parents.get_mut(left as usize)? = k as u32;
            *parents.get_mut(right as usize)? = k as u32;
        }
    }
    Some(())
}

/// The self-collision policy: one body against itself in test units, spheres, leaves with the
/// adjacency check, and a record of the units where the walk stops (for [`SelfList`]).
///
/// `record(unit, separated)` receives every unit where the walk stops and that may matter next
/// step: pair units whose spheres are disjoint (`true`), pairs of non-adjacent leaves and units
/// taken as free by the cones (`false`); a Type 1 unit is `[i, i]`. (Leaf Type 1 units and
/// adjacent leaf pairs never report anything, whatever the deformation, and are not recorded.)
struct Units<'q, 't, 'c, 'k, S: Scalar, X: ?Sized, R> {
    /// The body, its caches lent to the walk (spheres and vertices read in place).
    side: Side<'q, 't, 'c, S>,
    /// The mesh's triangles (vertex indices).
    faces: &'t [[u32; 3]],
    aids: SelfAids<'q>,
    /// The cones made as the walk goes ([`collide_self_lazy`]); `None`: `aids.cones`, made
    /// before the walk, and every sphere refitted before it.
    lazy: Option<&'q mut SelfCones<'k>>,
    sink: &'q mut X,
    error: S,
    counts: &'q mut UnitCounts,
    record: &'q mut R,
    /// The pair unit being visited is Type 3 (proven to share no vertex): its children are
    /// too, and its leaves skip the adjacency check.
    type3: bool,
    /// A lazy cone could not be made (a row of `aids.normals` its read refused, or a bad
    /// index): the query does not end complete ([`named`]).
    refused: bool,
    /// The body's box cache, lent to the self walk's own loop (empty for the general walk).
    #[cfg(feature = "speed")]
    boxes: boxes::Boxes<'c, 'q, S>,
}

impl<S, X, R> Units<'_, '_, '_, '_, S, X, R>
where
    S: Scalar,
    X: ContactSink + ?Sized,
    R: FnMut([u32; 2], bool),
{
    /// Whether the pair unit `(i, j)` is proven Type 3 (no shared vertex).
    fn signatures_disjoint(&self, i: u32, j: u32) -> bool {
        match (
            self.aids.signatures.get(i as usize),
            self.aids.signatures.get(j as usize),
        ) {
            (Some(a), Some(b)) => (a[0] & b[0]) | (a[1] & b[1]) == 0,
            _ => false,
        }
    }

    /// The miss of [`Policy::bound`]: the node's sphere made by the body ([`Body::refit_sphere`],
    /// kept in its cache for the step). Out of line: after the one-pass refit nothing misses.
    #[inline(never)]
    fn refit_miss(&mut self, node: u32) -> Option<[S; 4]> {
        let spheres = self.aids.spheres;
        self.side
            .with_body(|body| body.refit_sphere(node as usize, &spheres))
    }

    /// A Type 1 unit: culled when its subspace certificate holds, or its normal cone and
    /// contour prove it free. Kept out of line: Type 1 units are a few per query, and the
    /// pair units' loop stays as small as it was.
    #[inline(never)]
    fn visit_self(&mut self, i: u32) -> Visit {
        self.counts.type1 += 1;
        self.type3 = false;
        let links = self.side.links(i);
        let leaf = links.is_some_and(|l| l[2] != NONE);
        if !leaf {
            if self.aids.certificates.hold(self.side.body, i as usize) {
                self.counts.certified += 1;
                self.counts.culled += 1;
                (self.record)([i, i], false);
                return Visit::Skip;
            }
            let certificates = self.aids.certificates;
            let normals = self.aids.normals;
            let cone = match self.lazy.as_deref_mut() {
                // Made before the walk (the one-pass refit) or by an earlier unit.
                Some(cones) if cones.get(i).is_some() => cones.get(i),
                Some(cones) => self.side.with_body(|body| {
                    // The child a certificate does not cover first: the likelier to end the
                    // cone early (a certified patch is nearly flat, its normals close).
                    let right_first = links.is_some_and(|l| {
                        certificates.hold(body, l[0] as usize)
                            && !certificates.hold(body, l[1] as usize)
                    });
                    lazy_cone(body, cones, &normals, i, right_first)
                }),
                None => self.aids.cones.get(i as usize).copied(),
            };
            self.refused |= cone.is_none() && self.lazy.is_some();
            if let Some(cone) = cone {
                let contours = self.aids.contours;
                let free = self
                    .side
                    .with_body(|body| certified(body, &contours, i as usize, cone));
                if free {
                    self.counts.culled += 1;
                    (self.record)([i, i], false);
                    return Visit::Skip;
                }
            }
        }
        Visit::Pair([i, i])
    }
}

impl<S, X, R> Policy for Units<'_, '_, '_, '_, S, X, R>
where
    S: Scalar,
    X: ContactSink + ?Sized,
    R: FnMut([u32; 2], bool),
{
    type S = S;
    type Bound = [S; 4];
    type Key = ();
    const SELF: bool = true;

    #[inline(always)]
    fn node(&self, _: bool, node: u32) -> Option<Node> {
        self.side.links(node).map(Node::leaf_terminal)
    }

    #[inline(always)]
    fn bound(&mut self, _: bool, node: u32) -> Option<[S; 4]> {
        match self.side.fresh_sphere(node) {
            Some(sphere) => Some(sphere),
            None => self.refit_miss(node),
        }
    }

    /// Made when the pair was tested: read as it is.
    #[inline(always)]
    fn pending_bound(&mut self, _: bool, node: u32) -> Option<[S; 4]> {
        self.side.cached_sphere(node)
    }

    #[inline(always)]
    fn size(bound: &[S; 4]) -> S {
        bound[3]
    }

    fn updates(&self) -> u32 {
        self.side.body.update_count()
    }

    #[inline(always)]
    fn test(&self, a: &[S; 4], b: &[S; 4]) -> Option<()> {
        spheres_overlap(*a, *b).then_some(())
    }

    /// Classifies the unit (Type 1, 2 or 3), counts it, and culls a Type 1 unit whose patch is
    /// proven free of self-intersection (see [`Units::visit_self`]).
    fn visit(&mut self, [raw, j]: [u32; 2]) -> Visit {
        let (i, known3) = (raw & !TYPE3, raw & TYPE3 != 0);
        if i == j {
            return self.visit_self(i);
        }
        self.type3 = known3 || self.signatures_disjoint(i, j);
        if self.type3 {
            self.counts.type3 += 1;
        } else {
            self.counts.type2 += 1;
        }
        Visit::Pair([i, j])
    }

    #[inline(always)]
    fn tag(&self, [a, b]: [u32; 2]) -> [u32; 2] {
        [if self.type3 { a | TYPE3 } else { a }, b]
    }

    #[inline(always)]
    fn separated(&mut self, pair: [u32; 2]) {
        (self.record)(pair, true);
    }

    /// The general walk's leaf step (its pairs kept by their spheres): the box filter made here.
    fn leaf(
        &mut self,
        [i, j]: [u32; 2],
        a: &Node,
        b: &Node,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        self.leaf_step([i, j], a, b, false, stats)
    }
}

impl<S, X, R> Units<'_, '_, '_, '_, S, X, R>
where
    S: Scalar,
    X: ContactSink + ?Sized,
    R: FnMut([u32; 2], bool),
{
    /// [`Policy::leaf`]: two leaves, `boxed` when the walk pushed their pair by its stored
    /// leaf boxes (the leaf step's own box filter, the same bits on the same vertices), whose
    /// filter is then not made again.
    #[inline(always)]
    fn leaf_step(
        &mut self,
        [i, j]: [u32; 2],
        a: &Node,
        b: &Node,
        boxed: bool,
        stats: &mut QueryStats,
    ) -> Result<Flow, QueryStatus> {
        // Without `speed` every leaf pair takes the box filter (there are no stored boxes).
        #[cfg(not(feature = "speed"))]
        let _ = boxed;
        let (ti, tj) = (a.triangle, b.triangle);
        // Adjacent triangles are never tested, and their spheres (both holding the shared
        // vertex) always overlap: a list need not keep them.
        if !self.type3 {
            let (Some(&fi), Some(&fj)) = (self.faces.get(ti as usize), self.faces.get(tj as usize))
            else {
                return Err(QueryStatus::Inconsistent);
            };
            if adjacent(fi, fj) {
                return Ok(Flow::Continue);
            }
        }
        (self.record)([i, j], false);
        let pair = TrianglePair {
            a: ti.min(tj),
            b: ti.max(tj),
        };
        // The common case: both triangles' vertices in the vertex cache (the leaves' spheres
        // deformed them), read in place.
        #[cfg(feature = "speed")]
        if let (Some(vi), Some(vj)) = (self.side.cached_triangle(ti), self.side.cached_triangle(tj))
        {
            triangle_step_refs(vi, vj, self.error, pair, boxed, self.sink, stats)?;
            return Ok(Flow::Continue);
        }
        let (Some(vi), Some(vj)) = (self.side.world_triangle(ti), self.side.world_triangle(tj))
        else {
            return Err(QueryStatus::Inconsistent);
        };
        triangle_step(&vi, &vj, self.error, pair, self.sink, stats)?;
        Ok(Flow::Continue)
    }
}

//! A prototype of issue 52's 4-wide pair walk, for measurement only (`examples/versus_wide.rs`):
//! the f32 triangle query of `bdtree_core::collide` on 4-wide nodes built from a body's binary
//! BD-Tree. It reports the same triangle pairs as `collide` (checked on every frame of both
//! scenes by `versus_wide check`).
//!
//! * **The node.** A wide node is a binary internal node; its up to four lanes are its
//!   grandchildren where a child is internal and the child itself where it is a leaf. The
//!   lanes' rows are stored side by side (structure of arrays, `wide::f32x4`): for each row `r`
//!   of the binary record (`r = 0`: `[c, R]`, `r = j + 1`: `[Ū_j, ΔR_j]`) and each component
//!   `k` (x, y, z, radius), one `f32x4` holding the four lanes. Empty lanes have a NaN centre,
//!   so they never overlap anything. The binary nodes between two wide levels have no rows.
//! * **The update.** A wide node's four lane spheres are computed together when the walk first
//!   reaches the node in a step (one epoch per wide node): `4 (M + 1)` four-lane multiply-adds
//!   in the same order as the kernel's `bounds::sphere::update` (even and odd accumulators,
//!   unrolled for the kernel's fixed mode counts, `M` known at run time), the world transform in
//!   four lanes, and the kernel's inflation `3δ`. A leaf lane's sphere is then replaced by the
//!   sphere of its deformed triangle, as the kernel does with a vertex cache
//!   (`Body::triangle_sphere`, crate-private, copied here), so every sphere has the kernel's
//!   bits.
//! * **The walk.** Depth-first on a stack whose entries carry both spheres. A popped pair's
//!   larger sphere's node (the internal one when the other is a leaf) is descended and its four
//!   lanes are tested against the other sphere in one step (the kernel's `spheres_overlap`, four
//!   lanes); overlapping leaf lanes against a leaf get the leaf step at once, the other
//!   overlapping lanes are pushed.
//! * **The leaf step.** The kernel's (`walk::triangle_step_refs`, crate-private): the
//!   coordinate-box filter (copied), then the public `triangles_may_intersect`, which repeats a
//!   box stage the kernel's leaf step skips (`triangles_may_intersect_boxed`, crate-private; the
//!   answer is the same, its tolerance being larger than the filter's; the repeat costs this
//!   side a few dozen instructions per triangle test). The vertices come from a vertex cache of
//!   the walk's own, laid out as the kernel's (`VertexEntry`, read through the faces) and
//!   filled by the kernel's arithmetic (`pose.apply(model.deformed(v, q))`).
use bdtree_core::geometry::triangle::triangles_may_intersect;
use bdtree_core::image::model::Model;
use bdtree_core::{Body, NodeKind, Pose, Scalar, TreeView, TrianglePair};
use wide::f32x4;

/// A lane target: a wide node, or `LEAF | triangle`.
const LEAF: u32 = 1 << 31;
/// An empty lane.
const EMPTY: u32 = u32::MAX;

/// Four lanes.
type L = f32x4;

/// A body's binary tree as 4-wide nodes (see the module docs).
pub struct WideTree {
    /// Modes `M`.
    modes: usize,
    /// Per wide node `4 (M + 1)` lane rows: row `r`, component `k` at `4 r + k`.
    rows: Vec<L>,
    /// The same rows as arrays while the tree is built.
    build: Vec<[f32; 4]>,
    /// Per wide node, its lanes' targets.
    lanes: Vec<[u32; 4]>,
    /// Per wide node, the bit mask of its leaf lanes.
    leaves: Vec<u8>,
    /// The root's target.
    root: u32,
    /// Wide levels below the root (the longest path).
    depth: u32,
}

/// One wide node's lane spheres for a step.
#[derive(Clone, Copy, Default)]
pub struct LaneSpheres {
    /// Centres' x, y, z and radii, four lanes each.
    s: [L; 4],
    epoch: u32,
}

/// One slot of the wide walk's vertex cache: a deformed world vertex and its step (the
/// kernel's `VertexEntry`).
#[derive(Clone, Copy, Default)]
pub struct VertexSlot {
    position: [f32; 3],
    epoch: u32,
}

/// The wide walk's per-body state: the lane sphere cache (one entry per wide node) and a vertex
/// cache (one entry per model vertex, as the kernel's `Body::with_vertex_cache`).
pub struct WideCache {
    spheres: Vec<LaneSpheres>,
    vertices: Vec<VertexSlot>,
}

/// A pending pair: both targets and their world spheres.
#[derive(Clone, Copy, Default)]
pub struct Entry {
    a: u32,
    b: u32,
    sa: [f32; 4],
    sb: [f32; 4],
}

/// Work counters of one wide query.
#[derive(Clone, Copy, Default, Debug)]
pub struct WideStats {
    /// Pairs popped (the wide walk's node pairs, leaf pairs included).
    pub visits: u64,
    /// Wide node expansions (each tests four lanes).
    pub expansions: u64,
    /// Wide node updates (four lane spheres each).
    pub updates: u64,
    /// Leaf spheres computed from deformed triangles.
    pub leaf_spheres: u64,
    /// Leaf pairs tested (box filter and, past it, the triangle test).
    pub leaf_pairs: u64,
    /// Leaf pairs past the box filter.
    pub triangle_tests: u64,
}

impl WideTree {
    /// The wide nodes of `tree` (scalar rows; `None` for quantized rows or a cut tree).
    pub fn new(tree: &TreeView<'_, f32>) -> Option<Self> {
        let modes = tree.modes();
        let mut wide = WideTree {
            modes,
            rows: Vec::new(),
            build: Vec::new(),
            lanes: Vec::new(),
            leaves: Vec::new(),
            root: 0,
            depth: 0,
        };
        // Binary internal nodes that become wide nodes, in the order of their ids, and their
        // wide depth.
        let mut queue: Vec<(u32, u32)> = Vec::new();
        match tree.kind(0)? {
            NodeKind::Leaf { triangle } => wide.root = LEAF | triangle,
            NodeKind::Internal { .. } => queue.push((0, 0)),
            _ => return None,
        }
        let mut next = 0;
        while let Some(&(node, depth)) = queue.get(next) {
            next += 1;
            wide.depth = wide.depth.max(depth);
            let NodeKind::Internal { left, right } = tree.kind(node as usize)? else {
                return None;
            };
            let mut lanes: Vec<(u32, u32)> = Vec::with_capacity(4);
            for child in [left, right] {
                match tree.kind(child as usize)? {
                    NodeKind::Leaf { triangle } => lanes.push((child, LEAF | triangle)),
                    NodeKind::Internal { left, right } => {
                        for g in [left, right] {
                            match tree.kind(g as usize)? {
                                NodeKind::Leaf { triangle } => lanes.push((g, LEAF | triangle)),
                                NodeKind::Internal { .. } => {
                                    lanes.push((g, queue.len() as u32));
                                    queue.push((g, depth + 1));
                                }
                                _ => return None,
                            }
                        }
                    }
                    _ => return None,
                }
            }
            let base = wide.build.len();
            wide.build.resize(base + 4 * (modes + 1), [0.0; 4]);
            let mut targets = [EMPTY; 4];
            let mut leaf_mask = 0u8;
            for (lane, slot) in targets.iter_mut().enumerate() {
                match lanes.get(lane) {
                    Some(&(binary, target)) => {
                        *slot = target;
                        if target & LEAF != 0 {
                            leaf_mask |= 1 << lane;
                        }
                        let record = tree.record(binary as usize)?;
                        for (r, row) in record.iter().enumerate().take(modes + 1) {
                            for (k, &v) in row.iter().enumerate() {
                                wide.build[base + 4 * r + k][lane] = v;
                            }
                        }
                    }
                    None => {
                        for k in 0..3 {
                            wide.build[base + k][lane] = f32::NAN;
                        }
                    }
                }
            }
            wide.lanes.push(targets);
            wide.leaves.push(leaf_mask);
        }
        wide.rows = core::mem::take(&mut wide.build)
            .into_iter()
            .map(f32x4::new)
            .collect();
        Some(wide)
    }

    /// Wide nodes.
    pub fn node_count(&self) -> usize {
        self.lanes.len()
    }

    /// Bytes of the lane rows (the update's data).
    pub fn row_bytes(&self) -> usize {
        self.rows.len() * core::mem::size_of::<L>()
    }

    /// Wide levels below the root.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Empty caches for this tree and a model of `vertices` vertices.
    pub fn cache(&self, vertices: usize) -> WideCache {
        WideCache {
            spheres: vec![LaneSpheres::default(); self.lanes.len()],
            vertices: vec![VertexSlot::default(); vertices],
        }
    }
}

/// Stack entries a walk between wide trees of these depths needs: each step pops one pair and
/// pushes at most four (three left pending per level), and writes four slots above the top.
pub fn wide_stack_capacity(a: &WideTree, b: &WideTree) -> usize {
    3 * (a.depth as usize + b.depth as usize + 2) + 5
}

/// One side of the wide walk for one query: the body's state (pose, `q`, weights, error, step)
/// and model held in locals, its wide tree and its caches (as the kernel's `walk::Side`).
pub struct WideSide<'w, 't> {
    tree: &'w WideTree,
    spheres: &'w mut [LaneSpheres],
    vertices: &'w mut [VertexSlot],
    faces: &'t [[u32; 3]],
    model: Model<'t, f32>,
    q: &'w [f32],
    weights: &'w [[f32; 4]],
    pose: Pose<f32>,
    error: f32,
    inflation: f32,
    epoch: u32,
    /// The root's world sphere when the root is internal (the kernel's `Body::sphere(0)`).
    root: Option<[f32; 4]>,
}

impl<'w, 't> WideSide<'w, 't> {
    /// A body in its current state (set by `Body::set_state`), its wide tree and caches.
    pub fn new(body: &'w Body<'t, '_, f32>, tree: &'w WideTree, cache: &'w mut WideCache) -> Self {
        let (pose, error) = (*body.pose(), body.error());
        let inflation = 3.0f32 * error;
        let root = body.tree().update(0, body.weights()).map(|local| {
            let [x, y, z] = pose.apply([local[0], local[1], local[2]]);
            [x, y, z, local[3] + inflation]
        });
        WideSide {
            tree,
            spheres: &mut cache.spheres,
            vertices: &mut cache.vertices,
            faces: body.model().triangles(),
            model: *body.model(),
            q: body.q(),
            weights: body.weights(),
            pose,
            error,
            inflation,
            epoch: body.step(),
            root,
        }
    }

    /// The lane spheres of wide node `w` for this step, computed on first use.
    #[inline(always)]
    fn lanes(&mut self, w: u32, stats: &mut WideStats) -> Option<[L; 4]> {
        let entry = self.spheres.get(w as usize)?;
        if entry.epoch == self.epoch {
            return Some(entry.s);
        }
        self.update(w, stats)
    }

    /// The miss of [`WideSide::lanes`]: the four lanes' exact update, world transform and
    /// inflation, leaf lanes from their deformed triangles.
    #[inline(never)]
    fn update(&mut self, w: u32, stats: &mut WideStats) -> Option<[L; 4]> {
        let m = self.tree.modes;
        let stride = 4 * (m + 1);
        let start = (w as usize) * stride;
        let rows = self.tree.rows.get(start..start + stride)?;
        let [x, y, z, radius] = update_lanes(rows, self.weights);
        let (r, t) = (self.pose.rotation, self.pose.translation);
        let row = |k: usize| {
            f32x4::splat(r[k][0]) * x
                + f32x4::splat(r[k][1]) * y
                + f32x4::splat(r[k][2]) * z
                + f32x4::splat(t[k])
        };
        let mut s = [
            row(0),
            row(1),
            row(2),
            radius + f32x4::splat(self.inflation),
        ];
        let mut leaves = *self.tree.leaves.get(w as usize)?;
        if leaves != 0 {
            let targets = *self.tree.lanes.get(w as usize)?;
            let mut a = s.map(f32x4::to_array);
            while leaves != 0 {
                let lane = leaves.trailing_zeros() as usize;
                leaves &= leaves - 1;
                let sphere = self.triangle_sphere(targets[lane] & !LEAF)?;
                for (k, v) in sphere.iter().enumerate() {
                    a[k][lane] = *v;
                }
                stats.leaf_spheres += 1;
            }
            s = a.map(f32x4::new);
        }
        *self.spheres.get_mut(w as usize)? = LaneSpheres {
            s,
            epoch: self.epoch,
        };
        stats.updates += 1;
        Some(s)
    }

    /// A deformed world vertex, from the vertex cache or deformed and cached (the kernel's
    /// `Body::world_vertex`: `pose.apply(model.deformed(v, q))`).
    #[inline(always)]
    fn vertex(&mut self, v: u32) -> Option<[f32; 3]> {
        let slot = self.vertices.get_mut(v as usize)?;
        if slot.epoch == self.epoch {
            return Some(slot.position);
        }
        let position = self.pose.apply(self.model.deformed(v as usize, self.q)?);
        *slot = VertexSlot {
            position,
            epoch: self.epoch,
        };
        Some(position)
    }

    /// A triangle's deformed world vertices (cache reads in a leaf step: its leaf's sphere
    /// deformed them).
    #[inline(always)]
    fn triangle(&mut self, triangle: u32) -> Option<[[f32; 3]; 3]> {
        let [a, b, c] = *self.faces.get(triangle as usize)?;
        Some([self.vertex(a)?, self.vertex(b)?, self.vertex(c)?])
    }

    /// A leaf's sphere from its deformed world triangle: the kernel's `Body::triangle_sphere`
    /// (crate-private; the same arithmetic).
    #[inline(never)]
    fn triangle_sphere(&mut self, triangle: u32) -> Option<[f32; 4]> {
        let [a, b, c] = self.triangle(triangle)?;
        let sub = |p: [f32; 3], q: [f32; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
        let norm2 = |d: [f32; 3]| d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        let half = 1.0f32 / 2.0;
        let mid = |p: [f32; 3], q: [f32; 3]| {
            [
                (p[0] + q[0]) * half,
                (p[1] + q[1]) * half,
                (p[2] + q[2]) * half,
            ]
        };
        let (ab, bc, ca) = (norm2(sub(b, a)), norm2(sub(c, b)), norm2(sub(a, c)));
        let (p, q, o) = if ab >= bc && ab >= ca {
            (a, b, c)
        } else if bc >= ca {
            (b, c, a)
        } else {
            (c, a, b)
        };
        let mut center = mid(p, q);
        if norm2(sub(o, center)) > norm2(sub(p, center)).max(norm2(sub(q, center))) {
            let third = 1.0f32 / 3.0;
            center = [
                (a[0] + b[0] + c[0]) * third,
                (a[1] + b[1] + c[1]) * third,
                (a[2] + b[2] + c[2]) * third,
            ];
        }
        let r2 = norm2(sub(a, center))
            .max(norm2(sub(b, center)))
            .max(norm2(sub(c, center)));
        let grow = 1.0f32 + 8.0 * f32::UNIT_ROUNDOFF;
        let r = Scalar::sqrt(r2) * grow;
        Some([center[0], center[1], center[2], r + 3.0 * self.error])
    }

    /// The root's world sphere and target.
    fn root(&mut self) -> Option<(u32, [f32; 4])> {
        let root = self.tree.root;
        if root & LEAF != 0 {
            Some((root, self.triangle_sphere(root & !LEAF)?))
        } else {
            Some((root, self.root?))
        }
    }
}

/// The exact update of four lanes: `[c + Ū q, R + Σ ΔR_j |q_j|]` per lane, the kernel's sum
/// in the kernel's order (`bounds::sphere::update`: even and odd accumulators, the odd one
/// started by mode 1, a trailing odd mode added to the even one, the two added last), so each
/// lane has the bits of the kernel's update of that node. `4 (M + 1)` four-lane
/// multiply-adds. As the kernel, mode counts in its `FIXED_MODES` run a kernel unrolled for
/// that count (`M` is known only at run time: this dispatch picks it), others a loop.
#[inline(always)]
fn update_lanes(rows: &[L], weights: &[[f32; 4]]) -> [L; 4] {
    macro_rules! dispatch {
        ($($modes:literal)*) => {
            match weights.len() {
                $($modes => {
                    if let (Some(r), Some(w)) = (
                        rows.first_chunk::<{ 4 * ($modes + 1) }>(),
                        weights.first_chunk::<$modes>(),
                    ) {
                        return update_fixed(r, w);
                    }
                })*
                _ => {}
            }
        };
    }
    dispatch!(4 6 8 10 12 16);
    update_loop(rows, weights)
}

/// The weight `[q_j, q_j, q_j, |q_j|]` of each component, in four lanes.
#[inline(always)]
fn lanes(w: &[f32; 4]) -> [L; 4] {
    let (q, a) = (f32x4::splat(w[0]), f32x4::splat(w[3]));
    [q, q, q, a]
}

/// `acc += c w` per component.
#[inline(always)]
fn mac(acc: &mut [L; 4], c: &[L], w: &[f32; 4]) {
    let w = lanes(w);
    for ((a, c), w) in acc.iter_mut().zip(c).zip(w) {
        *a += *c * w;
    }
}

/// [`update_lanes`] unrolled for `M` modes (`R = 4 (M + 1)` lane rows).
#[inline(always)]
fn update_fixed<const R: usize, const M: usize>(rows: &[L; R], weights: &[[f32; 4]; M]) -> [L; 4] {
    let row = |j: usize| rows.get(4 + 4 * j..8 + 4 * j).unwrap_or(&[]);
    let mut even = [rows[0], rows[1], rows[2], rows[3]];
    let mut odd = [f32x4::ZERO; 4];
    if M >= 2 {
        mac(&mut even, row(0), &weights[0]);
        let w = lanes(&weights[1]);
        for ((o, c), w) in odd.iter_mut().zip(row(1)).zip(w) {
            *o = *c * w;
        }
    }
    let mut j = 2;
    while j + 1 < M {
        mac(&mut even, row(j), &weights[j]);
        mac(&mut odd, row(j + 1), &weights[j + 1]);
        j += 2;
    }
    if M % 2 == 1 {
        mac(&mut even, row(M - 1), &weights[M - 1]);
    }
    for k in 0..4 {
        even[k] += odd[k];
    }
    even
}

/// [`update_lanes`] for any mode count: the same sum as [`update_fixed`], as a loop.
#[inline(never)]
fn update_loop(rows: &[L], weights: &[[f32; 4]]) -> [L; 4] {
    let Some((head, cols)) = rows.split_first_chunk::<4>() else {
        return [f32x4::splat(f32::NAN); 4];
    };
    let mut even = *head;
    let mut odd = [f32x4::ZERO; 4];
    let mut col_pairs = cols.chunks_exact(8);
    let mut w_pairs = weights.chunks_exact(2);
    if let (Some(c), Some([w0, w1])) = (col_pairs.next(), w_pairs.next()) {
        mac(&mut even, &c[..4], w0);
        let w = lanes(w1);
        for ((o, c), w) in odd.iter_mut().zip(&c[4..]).zip(w) {
            *o = *c * w;
        }
    }
    for (c, w) in (&mut col_pairs).zip(&mut w_pairs) {
        if let [w0, w1] = w {
            mac(&mut even, &c[..4], w0);
            mac(&mut odd, &c[4..], w1);
        }
    }
    let rest = col_pairs.remainder();
    if let (Some(c), Some(w)) = (rest.get(..4), w_pairs.remainder().first()) {
        mac(&mut even, c, w);
    }
    for k in 0..4 {
        even[k] += odd[k];
    }
    even
}

/// The kernel's `spheres_overlap` on four lanes against one sphere: the mask of overlapping
/// lanes.
#[inline(always)]
fn overlap_lanes(s: &[L; 4], o: &[f32; 4]) -> u32 {
    let slack = f32x4::splat(1.0f32 + 16.0 * f32::UNIT_ROUNDOFF);
    let d = [0, 1, 2].map(|k| s[k] - f32x4::splat(o[k]));
    let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    let r = s[3] + f32x4::splat(o[3]);
    d2.simd_le(r * r * slack).to_bitmask()
}

/// The kernel's leaf-step box filter (`walk::boxes_apart`): whether two triangles' coordinate
/// boxes are more than `error (1 + 2u)` apart on some axis.
#[inline(always)]
fn boxes_apart(a: &[[f32; 3]; 3], b: &[[f32; 3]; 3], error: f32) -> bool {
    let limit = error * (1.0 + 2.0 * f32::UNIT_ROUNDOFF);
    (0..3).any(|k| {
        let lo = |t: &[[f32; 3]; 3]| t[0][k].min(t[1][k]).min(t[2][k]);
        let hi = |t: &[[f32; 3]; 3]| t[0][k].max(t[1][k]).max(t[2][k]);
        lo(a) - hi(b) > limit || lo(b) - hi(a) > limit
    })
}

/// The leaf step on two triangles: the kernel's (box filter, then the exact test).
#[inline(always)]
fn leaf(
    a: &mut WideSide<'_, '_>,
    b: &mut WideSide<'_, '_>,
    ta: u32,
    tb: u32,
    error: f32,
    out: &mut Vec<TrianglePair>,
    stats: &mut WideStats,
) -> Option<()> {
    stats.leaf_pairs += 1;
    let va = a.triangle(ta)?;
    let vb = b.triangle(tb)?;
    if boxes_apart(&va, &vb, error) {
        return Some(());
    }
    stats.triangle_tests += 1;
    if triangles_may_intersect(&va, &vb, error) {
        out.push(TrianglePair { a: ta, b: tb });
    }
    Some(())
}

/// Every triangle pair of the two bodies (in their current states) that may intersect, pushed
/// to `out`: the wide walk (see the module docs). `None` when the stack is too small or a
/// lookup fails.
pub fn collide_wide(
    a: &mut WideSide<'_, '_>,
    b: &mut WideSide<'_, '_>,
    stack: &mut [Entry],
    out: &mut Vec<TrianglePair>,
    stats: &mut WideStats,
) -> Option<()> {
    let error = a.error + b.error;
    let (ra, sa) = a.root()?;
    let (rb, sb) = b.root()?;
    let root = [0, 1, 2, 3].map(|k| f32x4::splat(sa[k]));
    if overlap_lanes(&root, &sb) & 1 == 0 {
        return Some(());
    }
    *stack.first_mut()? = Entry {
        a: ra,
        b: rb,
        sa,
        sb,
    };
    let mut len = 1;
    while len > 0 {
        len -= 1;
        let e = *stack.get(len)?;
        stats.visits += 1;
        let (leaf_a, leaf_b) = (e.a & LEAF != 0, e.b & LEAF != 0);
        if leaf_a & leaf_b {
            leaf(a, b, e.a & !LEAF, e.b & !LEAF, error, out, stats)?;
            continue;
        }
        let slots = stack.get_mut(len..len + 4)?;
        stats.expansions += 1;
        let mut kept = 0;
        if !leaf_a & (leaf_b | (e.sa[3] >= e.sb[3])) {
            let s = a.lanes(e.a, stats)?;
            let targets = *a.tree.lanes.get(e.a as usize)?;
            let mut mask = overlap_lanes(&s, &e.sb);
            if leaf_b {
                // Leaf lanes against a leaf: the leaf step now, not pushed.
                let mut now = mask & u32::from(*a.tree.leaves.get(e.a as usize)?);
                mask &= !now;
                while now != 0 {
                    let l = now.trailing_zeros() as usize;
                    now &= now - 1;
                    leaf(a, b, targets[l] & !LEAF, e.b & !LEAF, error, out, stats)?;
                }
            }
            let s = s.map(f32x4::to_array);
            while mask != 0 {
                let l = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                *slots.get_mut(kept)? = Entry {
                    a: targets[l],
                    b: e.b,
                    sa: [s[0][l], s[1][l], s[2][l], s[3][l]],
                    sb: e.sb,
                };
                kept += 1;
            }
        } else {
            let s = b.lanes(e.b, stats)?;
            let targets = *b.tree.lanes.get(e.b as usize)?;
            let mut mask = overlap_lanes(&s, &e.sa);
            if leaf_a {
                let mut now = mask & u32::from(*b.tree.leaves.get(e.b as usize)?);
                mask &= !now;
                while now != 0 {
                    let l = now.trailing_zeros() as usize;
                    now &= now - 1;
                    leaf(a, b, e.a & !LEAF, targets[l] & !LEAF, error, out, stats)?;
                }
            }
            let s = s.map(f32x4::to_array);
            while mask != 0 {
                let l = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                *slots.get_mut(kept)? = Entry {
                    a: e.a,
                    b: targets[l],
                    sa: e.sa,
                    sb: [s[0][l], s[1][l], s[2][l], s[3][l]],
                };
                kept += 1;
            }
        }
        len += kept;
    }
    Some(())
}

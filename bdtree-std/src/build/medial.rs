//! The **medial partition**: which triangles share a node, chosen from an approximation of the
//! body's medial axis (Bradshaw and O'Sullivan 2004, as the interruptible-collision paper uses
//! it), for [`TreeKind::Medial`](super::TreeKind::Medial).
//!
//! The partition changes, and every node gets a fitted sphere beside its exact one
//! ([`fit`](super::fit), from the medial-ball centres computed here). The image is the same
//! format as the median-split tree's (whose fitted spheres are its exact ones), every node's
//! exact sphere is still the wrapped (Welzl) sphere of its own triangles with BD's bounds, so
//! every exact query stays exact and the kernel, C and the firmware read it unchanged. The
//! image does not record which builder made it: nothing reads it differently, and the loader
//! refuses unknown flags and non-zero reserved header words, so recording it would make
//! today's readers refuse medial images.
//!
//! # How
//!
//! 1. **Closed bodies only.** The mesh must be closed: every edge used as often in one
//!    direction as in the other (a 2-cycle, so the winding number is defined off the surface).
//!    An open surface (a sheet, cloth) or a mesh with holes has no inside, hence no medial axis:
//!    the build is refused with [`BuildError::NotClosed`](super::BuildError::NotClosed),
//!    naming the first offending edge (build it with the median split instead). No silent fallback: a caller asking for a
//!    medial tree gets one or an error.
//! 2. **Surface samples**: one uniformly random point in every triangle (its representative)
//!    plus area-weighted random points, `max(2T, 8192)` in all (deterministic seed).
//! 3. **Medial balls**: each representative's inner medial ball by the *shrinking ball*
//!    (Ma, Bae, Choi and Lee 2012): start with a large ball tangent at the sample on the inner
//!    side of the triangle's normal, and shrink it through the nearest sample inside it until
//!    it is empty. An empty ball touching the sample is what the Voronoi diagram's inner pole
//!    is (Amenta's poles; Bradshaw's toolkit takes the Voronoi vertices inside the body); the
//!    shrinking ball finds the same ball from nearest-neighbour queries alone (a k-d tree
//!    here). The ball's center is then checked inside the body (winding number, [`Solid`]) and
//!    halved towards the sample until it is.
//! 4. **Grouping**, top down with the median builder's balanced shape (a node's triangles
//!    split in halves, so every level has as many nodes as the median tree's). A node is
//!    *thin* when the mean radius of its triangles' medial balls is below `THIN` (0.25) times the
//!    half-diagonal of its vertex box: a piece of a slab, a bar, a leg. A thick node (a patch
//!    of a round body, where the body is deeper than the patch is wide) gets the paper's
//!    median split. A thin node gets, of four candidates — the paper's split and the median
//!    splits of the medial keys (the midpoints between each triangle's centroid and its
//!    medial center) along x, y and z — the one whose children's spheres have the smaller
//!    summed volume `Σ 4π/3 R³`, `R` box-centered over the child's vertices (the body's
//!    volume inside them is the same for every split of a node, so this ranks the splits by
//!    their volume outside the body as far as the spheres do not overlap). The medial key
//!    keeps the two sides of a thin part together and follows the part's axis.
//!
//!    Tried and dropped, measured with `examples/medial_fit.rs`: keys on the medial centers
//!    alone (on a round body they crowd the middle, and their splits gathered patches from
//!    opposite sides: the 20k blob's outside volume 4.3x the median tree's at level 10);
//!    the choice by `Σ R³` on every node (on the blob 1.2–12x the median tree's outside
//!    volume on levels 5–10, even among centroid splits only: the greedy choice ruins the
//!    lower levels of a round body); only the longest axis of the keys (no gain anywhere);
//!    `THIN` = 1 (the blob's root then counts as thin, since a round body's box
//!    half-diagonal is √3 times its radius, and the blob's outside volume was 12x the median
//!    tree's at level 10; the bar's slices gained, mean error 0.53–0.60x on levels 7–9, which
//!    0.25 loses). With 0.25 the blob's tree is the median tree, the bar's nearly so, and the
//!    chair's slabs gain (run `examples/medial_fit.rs` for the table).
//!
//! # Why no Delaunay crate
//!
//! `qhull` 0.4 (MIT bindings to the Qhull C library) runs bindgen in its build script: it needs
//! libclang on every machine that builds it (absent on this one: the build fails) and
//! pulls bindgen, clang-sys, regex and syn (44 s on two cores before it fails). `delaunay`
//! 0.8 (BSD-3, pure Rust, exact predicates) requires Rust 1.99.1, newer than this toolchain
//! (1.95) and the workspace's MSRV (1.86). The shrinking ball needs neither, is deterministic,
//! and cannot fail on cospherical or coplanar samples (a box's faces, an icosphere), where a
//! Delaunay code needs joggling or exact arithmetic.
//!
//! What this slice does not do yet: Bradshaw's adaptive refinement (more samples where a
//! sphere's error is large) and his merge/burst reduction of the medial spheres; the partition
//! here is chosen against a volume proxy of the fit, node by node.
//!
//! Costs: `O(S log S)` for the k-d tree (with the tight box of every range's samples: a
//! surface's samples fill a thin part of a k-d cell, and the cell alone proved a round body's
//! medial balls empty only after visiting a good part of the samples), two to ten shrinking
//! steps per triangle, each a search stopped after `SEARCH_BUDGET` (64) range visits once it holds
//! a sample inside the ball (the last, which proves the ball empty, is complete), one winding
//! number per triangle (a grid over the yz-plane), and `O(6 n)` per node to choose its split.
//! The triangles are shared among the threads (`std::thread::available_parallelism`), in
//! chunks after each of which the progress is reported; the keys do not depend on the
//! threads. Measured (CPU time, one thread, loaded two-core machine): the 20,480-triangle blob
//! 12 s with the k-d cells only, 1.1 s with the tight boxes, 0.5 s with the stopped searches
//! as well; a 100,000-triangle torus 26 s, 4.8 s, 2.9 s. With the tight boxes alone the trees
//! are the same bytes as before; the stopped searches can move a ball's radius within
//! `EMPTY_SLACK` (the chair's and the 20k blob's trees did not change, the torus's did). None of it
//! affects a bound: a poor medial estimate only makes a looser tree.

use crate::io::Mesh;
use crate::rng::Rng;
use crate::vec3::{bounding_box, cross, dot, sub};
use std::collections::HashMap;

/// A node is thin (its split chosen from medial keys) when the mean medial radius of its
/// triangles is below this fraction of the half-diagonal of its vertex box.
pub(crate) const THIN: f64 = 0.25;

/// A triangle's medial key: the midpoint between its centroid and the center of its medial
/// ball. The two sides of a thin part get nearby keys (their medial centers coincide and the
/// part is thin); on a round body, where every medial center sits near the middle, the keys
/// stay spread like the surface, so a split of keys stays a split of nearby triangles.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MedialKey {
    pub(crate) key: [f64; 3],
    /// The medial ball's radius.
    pub(crate) radius: f64,
}

/// Why a mesh has no inside: the first offending edge or triangle, named (the build reports it
/// as [`BuildError::NotClosed`](super::BuildError::NotClosed)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotClosed(pub String);

impl std::fmt::Display for NotClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotClosed {}

/// Checks that a mesh is closed: every undirected edge is used as often in one direction as in
/// the other (and every triangle has three distinct vertices). Names the first offending edge.
pub fn check_closed(mesh: &Mesh) -> Result<(), NotClosed> {
    let mut balance: HashMap<(u32, u32), i64> = HashMap::new();
    for (t, f) in mesh.triangles.iter().enumerate() {
        if f[0] == f[1] || f[1] == f[2] || f[0] == f[2] {
            return Err(NotClosed(format!("triangle {t} repeats a vertex")));
        }
        for k in 0..3 {
            let (a, b) = (f[k], f[(k + 1) % 3]);
            let (key, sign) = if a < b { ((a, b), 1) } else { ((b, a), -1) };
            *balance.entry(key).or_insert(0) += sign;
        }
    }
    let mut open: Vec<(u32, u32)> = balance
        .into_iter()
        .filter(|&(_, s)| s != 0)
        .map(|(e, _)| e)
        .collect();
    if let Some(&(a, b)) = open.iter().min() {
        let count = open.len();
        open.clear();
        return Err(NotClosed(format!(
            "the mesh is not closed ({count} edges are boundary or unmatched edges, the first \
             between vertices {a} and {b}): an open surface has no inside, hence no medial axis; \
             build it with the median split"
        )));
    }
    Ok(())
}

/// A closed mesh as a solid: the winding number of a point, by signed crossings of the ray
/// `p + s·x̂` (`s > 0`) with the triangles, found in a grid over the yz-plane.
///
/// A ray through a projected edge or vertex (an axis-aligned ray through a symmetric mesh's
/// center, say) is moved sideways by a few billionths of the mesh's extent and cast again; the
/// edge tests are in f64 without exact predicates, so a point within rounding of the surface
/// may be miscounted. The builder uses this for a heuristic and the fit example for a sampled
/// estimate, never for a bound.
#[derive(Debug, Clone)]
pub struct Solid {
    triangles: Vec<[[f64; 3]; 3]>,
    lo: [f64; 3],
    hi: [f64; 3],
    cells: usize,
    cell: [f64; 2],
    grid: Vec<Vec<u32>>,
}

impl Solid {
    /// The solid of a closed mesh ([`check_closed`]); `O(T)` plus the grid cells the triangles
    /// cover.
    pub fn new(mesh: &Mesh) -> Result<Solid, NotClosed> {
        check_closed(mesh)?;
        let triangles: Vec<[[f64; 3]; 3]> = mesh
            .triangles
            .iter()
            .map(|f| f.map(|v| mesh.vertices[v as usize]))
            .collect();
        let (lo, hi) = bounding_box(triangles.iter().flatten().copied());
        let cells = ((triangles.len() as f64).sqrt() as usize).clamp(1, 1024);
        let cell = [1, 2].map(|k| ((hi[k] - lo[k]) / cells as f64).max(f64::MIN_POSITIVE));
        let mut solid = Solid {
            triangles,
            lo,
            hi,
            cells,
            cell: [cell[0], cell[1]],
            grid: vec![Vec::new(); cells * cells],
        };
        for t in 0..solid.triangles.len() {
            let tri = solid.triangles[t];
            let (mut a, mut b) = ([usize::MAX; 2], [0usize; 2]);
            for p in tri {
                let c = solid.cell_of(p);
                for k in 0..2 {
                    a[k] = a[k].min(c[k]);
                    b[k] = b[k].max(c[k]);
                }
            }
            for i in a[0]..=b[0] {
                for j in a[1]..=b[1] {
                    solid.grid[i * cells + j].push(t as u32);
                }
            }
        }
        Ok(solid)
    }

    fn cell_of(&self, p: [f64; 3]) -> [usize; 2] {
        [0, 1].map(|k| {
            let x = ((p[k + 1] - self.lo[k + 1]) / self.cell[k]).floor();
            if x.is_finite() && x > 0.0 {
                (x as usize).min(self.cells - 1)
            } else {
                0
            }
        })
    }

    /// The lower and upper corners of the mesh's bounding box.
    pub fn bounds(&self) -> ([f64; 3], [f64; 3]) {
        (self.lo, self.hi)
    }

    /// The winding number of `p` (0 outside; ±1 inside a simple closed body, by orientation).
    pub fn winding(&self, p: [f64; 3]) -> i32 {
        if (0..3).any(|k| !(p[k] >= self.lo[k] && p[k] <= self.hi[k])) {
            return 0;
        }
        let extent = (0..3).map(|k| self.hi[k] - self.lo[k]).fold(0.0, f64::max);
        let mut q = p;
        for nudge in 1..=4 {
            if let Some(w) = self.crossings(q) {
                return w;
            }
            let step = extent * 1e-9 * f64::from(nudge);
            q = [p[0], p[1] + step, p[2] + 0.618_034 * step];
        }
        self.crossings(q).unwrap_or(0)
    }

    /// The signed crossings of the ray from `p`, or `None` when it passes through a projected
    /// edge or vertex of a triangle it might cross.
    fn crossings(&self, p: [f64; 3]) -> Option<i32> {
        let [i, j] = self.cell_of(p);
        let mut winding = 0;
        for &t in &self.grid[i * self.cells + j] {
            let [a, b, c] = self.triangles[t as usize];
            // Edge functions of (y, z) in the yz-projection.
            let e = |u: [f64; 3], v: [f64; 3]| {
                (v[1] - u[1]) * (p[2] - u[2]) - (v[2] - u[2]) * (p[1] - u[1])
            };
            let (ea, eb, ec) = (e(b, c), e(c, a), e(a, b));
            let area = ea + eb + ec;
            let touches = [ea, eb, ec].contains(&0.0)
                && ([ea, eb, ec].iter().all(|&x| x >= 0.0)
                    || [ea, eb, ec].iter().all(|&x| x <= 0.0));
            if touches && area != 0.0 {
                let x = (ea * a[0] + eb * b[0] + ec * c[0]) / area;
                if x > p[0] {
                    return None;
                }
            }
            let inside = (ea > 0.0 && eb > 0.0 && ec > 0.0) || (ea < 0.0 && eb < 0.0 && ec < 0.0);
            if !inside || area == 0.0 {
                continue;
            }
            let x = (ea * a[0] + eb * b[0] + ec * c[0]) / area;
            if x > p[0] {
                // The normal's x-component has the sign of the projected area.
                winding += if area > 0.0 { 1 } else { -1 };
            }
        }
        Some(winding)
    }

    /// Whether `p` lies inside (non-zero winding number).
    pub fn contains(&self, p: [f64; 3]) -> bool {
        self.winding(p) != 0
    }
}

/// A range `lo..hi` of a [`KdTree`]'s points still to visit.
type Pending = (usize, usize);

/// A k-d tree over points (implicit: the points reordered so that every range's middle point
/// splits it along the range's widest axis, kept in `axes` at the middle point's index), with
/// the tight bounding box of every range's points at its middle point's index (a surface's
/// samples fill a thin part of a k-d cell: their own box bounds distances far better).
struct KdTree {
    points: Vec<([f64; 3], u32)>,
    axes: Vec<u8>,
    boxes: Vec<[[f64; 3]; 2]>,
}

impl KdTree {
    fn new(mut points: Vec<([f64; 3], u32)>) -> KdTree {
        let mut axes = vec![0u8; points.len()];
        let mut boxes = vec![[[0.0; 3]; 2]; points.len()];
        let mut pending = vec![(0usize, points.len())];
        while let Some((lo, hi)) = pending.pop() {
            if hi <= lo {
                continue;
            }
            let (low, high) = bounding_box(points[lo..hi].iter().map(|(p, _)| *p));
            let axis = (0..3)
                .max_by(|&a, &b| (high[a] - low[a]).total_cmp(&(high[b] - low[b])))
                .unwrap_or(0);
            let mid = lo + (hi - lo) / 2;
            points[lo..hi].select_nth_unstable_by(mid - lo, |a, b| a.0[axis].total_cmp(&b.0[axis]));
            axes[mid] = axis as u8;
            boxes[mid] = [low, high];
            pending.push((lo, mid));
            pending.push((mid + 1, hi));
        }
        KdTree {
            points,
            axes,
            boxes,
        }
    }

    /// The nearest point to `q` other than the one with id `skip` and closer than
    /// `sqrt(limit)`: the point and its squared distance.
    fn nearest(&self, q: [f64; 3], skip: u32, limit: f64) -> Option<([f64; 3], f64)> {
        self.nearest_with(q, skip, limit, usize::MAX, &mut Vec::new())
    }

    /// [`KdTree::nearest`] with the caller's stack of pending ranges (reused across queries),
    /// stopping early: once `budget` ranges are visited, the nearest point found so far is
    /// returned (if any: without one the search goes on, so `None` still means no point is
    /// closer than `sqrt(limit)`).
    fn nearest_with(
        &self,
        q: [f64; 3],
        skip: u32,
        limit: f64,
        budget: usize,
        pending: &mut Vec<Pending>,
    ) -> Option<([f64; 3], f64)> {
        let mut visits = 0usize;
        let mut best: Option<([f64; 3], f64)> = None;
        let limit = |best: Option<([f64; 3], f64)>| best.map_or(limit, |b| b.1);
        pending.clear();
        pending.push((0, self.points.len()));
        while let Some((lo, hi)) = pending.pop() {
            if lo >= hi {
                continue;
            }
            visits += 1;
            if visits > budget && best.is_some() {
                break;
            }
            let mid = lo + (hi - lo) / 2;
            // The squared distance from `q` to the range's box bounds its points' from below.
            let [low, high] = self.boxes[mid];
            let bound: f64 = (0..3)
                .map(|k| (low[k] - q[k]).max(q[k] - high[k]).max(0.0).powi(2))
                .sum();
            if bound >= limit(best) {
                continue;
            }
            let (p, id) = self.points[mid];
            let d2 = dot(sub(p, q), sub(p, q));
            if id != skip && d2 < limit(best) {
                best = Some((p, d2));
            }
            let axis = usize::from(self.axes[mid]);
            if q[axis] < p[axis] {
                pending.push((mid + 1, hi));
                pending.push((lo, mid));
            } else {
                pending.push((lo, mid));
                pending.push((mid + 1, hi));
            }
        }
        best
    }
}

/// Random points on a mesh's surface, for distances to it: [`SurfacePoints::distance`] is the
/// distance to the nearest point, which over-estimates the distance to the surface by at most
/// the points' spacing.
pub struct SurfacePoints {
    tree: KdTree,
}

impl SurfacePoints {
    /// `count` area-weighted random points on the mesh (deterministic for a `seed`).
    pub fn new(mesh: &Mesh, count: usize, seed: u64) -> SurfacePoints {
        let mut rng = Rng::new(seed);
        let tris: Vec<[[f64; 3]; 3]> = mesh
            .triangles
            .iter()
            .map(|f| f.map(|v| mesh.vertices[v as usize]))
            .collect();
        let mut cumulative = Vec::with_capacity(tris.len());
        let mut sum = 0.0;
        for [a, b, c] in &tris {
            let n = cross(sub(*b, *a), sub(*c, *a));
            sum += 0.5 * dot(n, n).sqrt();
            cumulative.push(sum);
        }
        let points = (0..count)
            .map(|k| {
                let x = rng.unit() * sum;
                let i = cumulative
                    .partition_point(|&c| c <= x)
                    .min(tris.len().saturating_sub(1));
                (point_in(&mut rng, tris[i]), k as u32)
            })
            .collect();
        SurfacePoints {
            tree: KdTree::new(points),
        }
    }

    /// The distance from `p` to the nearest point.
    pub fn distance(&self, p: [f64; 3]) -> f64 {
        self.tree
            .nearest(p, u32::MAX, f64::INFINITY)
            .map_or(f64::INFINITY, |(_, d2)| d2.sqrt())
    }
}

/// A uniformly random point in a triangle.
fn point_in(rng: &mut Rng, [a, b, c]: [[f64; 3]; 3]) -> [f64; 3] {
    let (mut u, mut v) = (rng.unit(), rng.unit());
    if u + v > 1.0 {
        (u, v) = (1.0 - u, 1.0 - v);
    }
    [0, 1, 2].map(|k| a[k] + u * (b[k] - a[k]) + v * (c[k] - a[k]))
}

/// The medial key of every triangle (see the module docs) from its medial ball
/// ([`medial_balls`]).
pub(crate) fn medial_keys(mesh: &Mesh, balls: &[([f64; 3], f64)]) -> Vec<MedialKey> {
    balls
        .iter()
        .zip(&mesh.triangles)
        .map(|(&(center, radius), f)| {
            let [a, b, c] = f.map(|v| mesh.vertices[v as usize]);
            MedialKey {
                key: [0, 1, 2].map(|k| 0.5 * ((a[k] + b[k] + c[k]) / 3.0 + center[k])),
                radius,
            }
        })
        .collect()
}

/// The centre of every triangle's inner medial ball (see the module docs). Refuses meshes
/// that are not closed.
pub fn medial_centres(mesh: &Mesh) -> Result<Vec<[f64; 3]>, NotClosed> {
    Ok(medial_balls(mesh, &mut |_| {})?
        .into_iter()
        .map(|b| b.0)
        .collect())
}

/// Every triangle's inner medial ball, `(centre, radius)`, by the shrinking ball from one
/// random point of the triangle; the centre pulled towards the surface until it is inside.
/// Refuses meshes that are not closed. `progress` is called with the number of triangles whose
/// medial ball is done since its last call.
pub(crate) fn medial_balls(
    mesh: &Mesh,
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<([f64; 3], f64)>, NotClosed> {
    let solid = Solid::new(mesh)?;
    let t = mesh.triangles.len();
    let tri = |i: usize| mesh.triangles[i].map(|v| mesh.vertices[v as usize]);
    let mut rng = Rng::new(0x6d65_6469_616c);
    // Unit outward normals and areas.
    let (normals, areas): (Vec<[f64; 3]>, Vec<f64>) = (0..t)
        .map(|i| {
            let [a, b, c] = tri(i);
            let n = cross(sub(b, a), sub(c, a));
            let len = dot(n, n).sqrt();
            if len > 0.0 && len.is_finite() {
                (n.map(|x| x / len), 0.5 * len)
            } else {
                ([0.0; 3], 0.0)
            }
        })
        .unzip();
    let total: f64 = areas.iter().sum();
    // Representatives first (sample i lies in triangle i), then area-weighted extras.
    let mut samples: Vec<([f64; 3], u32)> = (0..t)
        .map(|i| (point_in(&mut rng, tri(i)), i as u32))
        .collect();
    let extra = (2 * t).max(8192) - t;
    if total > 0.0 {
        let mut cumulative = Vec::with_capacity(t);
        let mut sum = 0.0;
        for &a in &areas {
            sum += a;
            cumulative.push(sum);
        }
        for k in 0..extra {
            let x = rng.unit() * total;
            let i = cumulative.partition_point(|&c| c <= x).min(t - 1);
            samples.push((point_in(&mut rng, tri(i)), (t + k) as u32));
        }
    }
    let positions: Vec<[f64; 3]> = samples.iter().map(|s| s.0).collect();
    let tree = KdTree::new(samples);
    let (lo, hi) = solid.bounds();
    let diagonal = dot(sub(hi, lo), sub(hi, lo)).sqrt();
    let key = |i: usize, stack: &mut Vec<Pending>| {
        let s = positions[i];
        let n = normals[i];
        let r = shrinking_ball(&tree, s, n, i as u32, diagonal, stack);
        let mut center = [0, 1, 2].map(|k| s[k] - r * n[k]);
        let mut radius = r;
        for _ in 0..20 {
            if solid.contains(center) {
                break;
            }
            radius *= 0.5;
            center = [0, 1, 2].map(|k| s[k] - radius * n[k]);
        }
        (center, radius)
    };
    // Chunks of triangles, each split among the threads (the keys do not depend on how): the
    // progress is reported after every chunk.
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 16);
    let mut balls = vec![([0.0; 3], 0.0); t];
    let chunk = 512 * threads;
    for (c, out) in balls.chunks_mut(chunk).enumerate() {
        let first = c * chunk;
        let len = out.len();
        let share = len.div_ceil(threads).max(1);
        std::thread::scope(|scope| {
            for (k, part) in out.chunks_mut(share).enumerate() {
                let key = &key;
                scope.spawn(move || {
                    let mut stack = Vec::new();
                    for (j, slot) in part.iter_mut().enumerate() {
                        *slot = key(first + k * share + j, &mut stack);
                    }
                });
            }
        });
        progress(len);
    }
    Ok(balls)
}

/// How deep inside a ball, relative to its radius, a sample may lie with the ball still taken as
/// empty. Without a tolerance, proving a ball empty costs a visit of every sample near its
/// sphere when the samples are nearly cospherical (a round body's medial ball), `O(S)` per
/// query; 2 % took the blob's 20k triangles from 45 s to 24 s at `3T` samples (the emptiness
/// proofs still visit a third of the samples there), and the radius is within 2 % of the
/// empty ball's (a heuristic partition needs no more).
const EMPTY_SLACK: f64 = 0.02;

/// Ranges a shrinking step's search visits before it takes the nearest sample found so far
/// inside the ball: any sample inside shrinks the ball, the nearest only shrinks it most. The
/// last step's search, which finds none, is complete: the ball it stops at is empty (up to
/// [`EMPTY_SLACK`]) whichever samples shrank it, and no smaller than the largest empty ball.
/// On round bodies the exact nearest sample to a ball's center, which has most samples at
/// nearly one distance, cost about 2,000 range visits; 64 halved the 20k blob's build.
const SEARCH_BUDGET: usize = 64;

/// The radius of the largest empty ball tangent at sample `s` (index `own`) on the inner side
/// of the outward normal `n`, starting from `start` and shrinking through the nearest sample
/// inside the ball (at most 64 steps; empty up to [`EMPTY_SLACK`]).
fn shrinking_ball(
    tree: &KdTree,
    s: [f64; 3],
    n: [f64; 3],
    own: u32,
    start: f64,
    stack: &mut Vec<Pending>,
) -> f64 {
    if dot(n, n) == 0.0 {
        return 0.0;
    }
    let mut r = start;
    for _ in 0..64 {
        let c = [0, 1, 2].map(|k| s[k] - r * n[k]);
        let inner = r * (1.0 - EMPTY_SLACK);
        let Some((p, _)) = tree.nearest_with(c, own, inner * inner, SEARCH_BUDGET, stack) else {
            return r;
        };
        let d = sub(s, p);
        let along = dot(n, d);
        if along <= 0.0 {
            return r;
        }
        let next = dot(d, d) / (2.0 * along);
        // Not smaller (or NaN): no progress.
        if next.partial_cmp(&r) != Some(std::cmp::Ordering::Less) {
            return r;
        }
        r = next;
    }
    r
}

//! **Fitted spheres**: beside every node's exact (wrapped) sphere, a second sphere placed to fit
//! the body, with its **rest reach** `e`. How well either kind fits, level by level, is
//! measured by [`super::fit`].
//!
//! # The fitted sphere
//!
//! A node's exact sphere is the smallest sphere around its own triangles (Welzl): on a round or
//! thick body half of it sticks out of the surface. The fitted sphere still contains the node's
//! own vertices (so a level's fitted spheres cover the surface, as Bradshaw's cover the body),
//! but its centre is chosen to put as little of it outside the body as possible: among centres
//! on the line from the Welzl centre into the body (along the node's area-weighted inward
//! normal, and towards the area-weighted mean of its triangles' medial-ball centres, from
//! [`medial`](super::medial)), at steps of `¼, ½, 1, 2, 4` Welzl radii, then a pattern search
//! around the best (halving steps), the one whose sphere — radius the largest distance to the
//! node's vertices — has the least volume outside the body, estimated from 32 fixed points of
//! the unit ball (inside test: [`Solid`]), if it also beats the Welzl centre on 256 points. A
//! deep centre turns the outside part into a flat cap over the node's patch; it stops paying
//! where the sphere comes out on the other side of the body (a slab, a bar), and the search
//! then stays near the Welzl centre.
//!
//! # The rest reach `e`, and the bound under deformation
//!
//! `e` is the largest distance from a point of the fitted sphere that lies **outside the body**
//! to the node's **own** triangles `T`. It is an upper bound, computed by branch and bound over
//! cubes covering the ball ([`reach`]): a cube of centre `s` and half-diagonal `ρ` contributes
//! at most `d(s, T) + ρ` (distance is 1-Lipschitz); a cube is dropped when it misses the ball,
//! or when it lies inside the body (its centre has a non-zero winding number and no triangle's
//! bounding box meets it, counted in a summed-volume table over a grid of the mesh's box); the
//! cube with the largest bound is split into 8 until that bound is within 5 % of the ball's
//! radius of the largest distance met at a cube centre outside the body, or 200 cubes were
//! measured. `e` is then the largest bound left, rounded up: never below the true value (the
//! one assumption is that the winding number of a point farther from the surface than its
//! cube's half-diagonal is right; near the surface every cube is kept).
//!
//! **Under deformation** the fitted sphere moves with the node's own mean displacement `Ū q`,
//! like the exact sphere's centre, and keeps its radius `r`. Let `x = c_f + v` (`|v| ≤ r`) be
//! a point of the rest fitted sphere outside the body and `y = Σ_i b_i p_i` (barycentric, over
//! one own triangle) a nearest point of `T`, so `|x − y| ≤ e`. Deformed, `x' = x + Ū q` and
//! `y' = y + Σ_i b_i U_i q` lies on the deformed triangle, so
//!
//! ```text
//! |x' − y'| = |x − y + Σ_i b_i (Ū − U_i) q| ≤ e + Σ_j max_i |U_ij − Ū_j| |q_j| = e + ΔRᵀ|q|
//! ```
//!
//! with `ΔR` the node's own growth (BD's per-node bound, stored in the image). The rigid pose
//! moves `x'` and `y'` alike. So every point of the deformed fitted sphere whose rest
//! pre-image `x' − Ū q` lies outside the rest body is within `e + ΔRᵀ|q|` of the deformed
//! node's own triangles. (A point whose pre-image is inside the rest body is carried by the
//! node's mean motion like BD's centre; nothing bounds where the inside goes, since a reduced
//! model moves only the surface.) The kernel evaluates the sum rounded up:
//! [`bdtree_core::bounds::fitted`].

use super::medial::{check_closed, medial_centres, NotClosed, Solid};
use crate::io::Mesh;
use crate::rng::Rng;
use crate::vec3::{cross, dot, sub};
use bdtree_core::geometry::closest::closest_on_triangle;
use bdtree_core::image::tree::{NodeKind, TreeView, NONE};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A node's fitted sphere and its rest reach (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitted {
    /// Centre, rest frame.
    pub center: [f64; 3],
    /// Radius: at least the distance to every own vertex.
    pub radius: f64,
    /// `e ≥` the largest distance from a point of the sphere outside the body to the node's own
    /// triangles.
    pub reach: f64,
}

impl Fitted {
    /// The fitted sphere of a node that keeps its exact sphere `(c, R)` (a median-split tree's):
    /// the centre rounded to f32, the radius grown by that move and rounded up, and the reach
    /// `2r` (every point of a ball lies within `2r` of every point the ball contains, so of the
    /// node's triangles), which needs no inside and holds for open surfaces too.
    pub fn exact(center: [f64; 3], radius: f64) -> Fitted {
        let c = center.map(|x| f64::from(x as f32));
        let shift = dot(sub(c, center), sub(c, center)).sqrt();
        let radius = up32((radius + shift) * (1.0 + 4.0 * f64::EPSILON));
        Fitted {
            center: c,
            radius,
            reach: up32(2.0 * radius * (1.0 + 4.0 * f64::EPSILON)),
        }
    }
}

/// A tree as the fit reads it: per node its links `[left, right, triangle, depth]` (children
/// after their parent, `NONE` where absent) and its exact rest sphere `[x, y, z, R]`, which
/// must contain the node's triangles (they prune the distance searches).
#[derive(Debug, Clone, Default)]
pub struct Nodes {
    /// Links per node.
    pub links: Vec<[u32; 4]>,
    /// Exact rest sphere per node.
    pub spheres: Vec<[f64; 4]>,
}

impl Nodes {
    /// The nodes of a tree view.
    pub fn of(tree: &TreeView<'_, f64>) -> Nodes {
        let n = tree.node_count();
        let links = (0..n)
            .map(|k| match tree.kind(k) {
                Some(NodeKind::Internal { left, right }) => {
                    [left, right, NONE, tree.node_depth(k).unwrap_or(0)]
                }
                Some(NodeKind::Leaf { triangle }) => {
                    [NONE, NONE, triangle, tree.node_depth(k).unwrap_or(0)]
                }
                _ => [NONE, NONE, NONE, tree.node_depth(k).unwrap_or(0)],
            })
            .collect();
        let spheres = (0..n)
            .map(|k| tree.rest_sphere(k).unwrap_or([0.0; 4]))
            .collect();
        Nodes { links, spheres }
    }

    /// Every node's own triangles (the leaves below it).
    pub fn triangles(&self) -> Vec<Vec<u32>> {
        let mut own: Vec<Vec<u32>> = vec![Vec::new(); self.links.len()];
        // Children have larger indices than their parent: fill from the end.
        for k in (0..self.links.len()).rev() {
            let [left, right, triangle, _] = self.links[k];
            if triangle != NONE {
                own[k] = vec![triangle];
            } else if left != NONE && right != NONE {
                let mut v = own[left as usize].clone();
                v.extend_from_slice(&own[right as usize]);
                own[k] = v;
            }
        }
        own
    }
}

/// Points of the unit ball the outside volume of a candidate is estimated from.
const VOLUME_POINTS: usize = 32;
/// Nodes with fewer triangles (leaves) keep their exact sphere's centre (the search costs ~35
/// estimates of 32 inside tests).
const SEARCH_FROM: usize = 2;
/// Points of the unit ball the search's winner is checked against the Welzl centre on.
const FINE_POINTS: usize = 256;
/// Cubes measured per node by [`reach`] at most.
const REACH_BUDGET: usize = 200;
/// [`reach`] stops when its bound is within this fraction of the radius of the best found.
const REACH_TOLERANCE: f64 = 0.05;
/// Cells per axis of the occupancy grid (at most).
const GRID: usize = 96;

/// What the fitted spheres are measured against: the body, its triangles, their occupancy.
pub struct FitBody {
    solid: Solid,
    triangles: Vec<[[f64; 3]; 3]>,
    medial: Vec<[f64; 3]>,
    areas: Vec<f64>,
    normals: Vec<[f64; 3]>,
    lo: [f64; 3],
    cell: [f64; 3],
    dims: [usize; 3],
    /// Summed-volume table of the cells a triangle's bounding box meets, `(dims + 1)³`.
    table: Vec<u32>,
    ball: Vec<[f64; 3]>,
    /// A finer set of ball points: the search's winner must beat the Welzl centre on these.
    fine: Vec<[f64; 3]>,
}

impl FitBody {
    /// The body of a closed mesh (an open one has no inside: [`NotClosed`]).
    pub fn new(mesh: &Mesh) -> Result<FitBody, NotClosed> {
        let medial = medial_centres(mesh)?;
        FitBody::with_centres(mesh, medial)
    }

    /// [`FitBody::new`] with the triangles' medial-ball centres already known
    /// ([`medial_centres`]).
    pub fn with_centres(mesh: &Mesh, medial: Vec<[f64; 3]>) -> Result<FitBody, NotClosed> {
        check_closed(mesh)?;
        let solid = Solid::new(mesh)?;
        let triangles: Vec<[[f64; 3]; 3]> = mesh
            .triangles
            .iter()
            .map(|f| f.map(|v| mesh.vertices[v as usize]))
            .collect();
        let (areas, normals) = triangles
            .iter()
            .map(|&[a, b, c]| {
                let n = cross(sub(b, a), sub(c, a));
                (0.5 * dot(n, n).sqrt(), n.map(|x| 0.5 * x))
            })
            .unzip();
        let (lo, hi) = solid.bounds();
        let extent = (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max);
        let size = (extent / GRID as f64).max(f64::MIN_POSITIVE);
        let dims = [0, 1, 2].map(|k| (((hi[k] - lo[k]) / size).ceil() as usize).clamp(1, GRID));
        let cell = [0, 1, 2].map(|k| ((hi[k] - lo[k]) / dims[k] as f64).max(f64::MIN_POSITIVE));
        let side = [dims[0] + 1, dims[1] + 1, dims[2] + 1];
        let at = |i: usize, j: usize, k: usize| (i * side[1] + j) * side[2] + k;
        let mut table = vec![0u32; side[0] * side[1] * side[2]];
        let mut body = FitBody {
            solid,
            triangles,
            medial,
            areas,
            normals,
            lo,
            cell,
            dims,
            table: Vec::new(),
            ball: Vec::new(),
            fine: Vec::new(),
        };
        for t in &body.triangles {
            let (mut a, mut b) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
            for p in t {
                for k in 0..3 {
                    a[k] = a[k].min(p[k]);
                    b[k] = b[k].max(p[k]);
                }
            }
            let (ca, cb) = (body.cell_range(a, true), body.cell_range(b, false));
            for i in ca[0]..=cb[0] {
                for j in ca[1]..=cb[1] {
                    for k in ca[2]..=cb[2] {
                        table[at(i + 1, j + 1, k + 1)] = 1;
                    }
                }
            }
        }
        // Prefix sums in the three directions.
        for i in 1..side[0] {
            for j in 1..side[1] {
                for k in 1..side[2] {
                    let v = table[at(i, j, k)]
                        + table[at(i - 1, j, k)]
                        + table[at(i, j - 1, k)]
                        + table[at(i, j, k - 1)]
                        + table[at(i - 1, j - 1, k - 1)]
                        - table[at(i - 1, j - 1, k)]
                        - table[at(i - 1, j, k - 1)]
                        - table[at(i, j - 1, k - 1)];
                    table[at(i, j, k)] = v;
                }
            }
        }
        body.table = table;
        let mut rng = Rng::new(0x6669_7474_6564);
        let mut points = |count: usize| -> Vec<[f64; 3]> {
            (0..count)
                .map(|_| {
                    let s = rng.unit().cbrt();
                    rng.unit_vector().map(|x| x * s)
                })
                .collect()
        };
        body.ball = points(VOLUME_POINTS);
        body.fine = points(FINE_POINTS);
        Ok(body)
    }

    /// The grid cell of `p` per axis, clamped to the grid (`low`: rounding down, else up; both
    /// widened by one cell against rounding).
    fn cell_range(&self, p: [f64; 3], low: bool) -> [usize; 3] {
        [0, 1, 2].map(|k| {
            let x = ((p[k] - self.lo[k]) / self.cell[k]).floor();
            let x = if low { x - 1.0 } else { x + 1.0 };
            if x.is_finite() && x > 0.0 {
                (x as usize).min(self.dims[k] - 1)
            } else {
                0
            }
        })
    }

    /// Whether no triangle's bounding box meets the cube `[s − a, s + a]` (conservative: a cube
    /// reaching outside the grid counts as met only through the cells it covers, and the
    /// space outside the mesh's box holds no triangle).
    fn clear(&self, s: [f64; 3], a: f64) -> bool {
        let lo = self.cell_range(s.map(|x| x - a), true);
        let hi = self.cell_range(s.map(|x| x + a), false);
        let side = [self.dims[0] + 1, self.dims[1] + 1, self.dims[2] + 1];
        let at = |i: usize, j: usize, k: usize| self.table[(i * side[1] + j) * side[2] + k];
        let (i0, j0, k0) = (lo[0], lo[1], lo[2]);
        let (i1, j1, k1) = (hi[0] + 1, hi[1] + 1, hi[2] + 1);
        let sum = i64::from(at(i1, j1, k1))
            - i64::from(at(i0, j1, k1))
            - i64::from(at(i1, j0, k1))
            - i64::from(at(i1, j1, k0))
            + i64::from(at(i0, j0, k1))
            + i64::from(at(i0, j1, k0))
            + i64::from(at(i1, j0, k0))
            - i64::from(at(i0, j0, k0));
        sum == 0
    }

    /// Whether `p` lies inside the body.
    pub fn contains(&self, p: [f64; 3]) -> bool {
        self.solid.contains(p)
    }

    /// The estimated volume of a sphere outside the body (32 fixed points).
    fn outside_volume(&self, c: [f64; 3], r: f64) -> f64 {
        self.outside_of(&self.ball, c, r)
    }

    /// The estimated volume of a sphere outside the body from some points of the unit ball.
    fn outside_of(&self, points: &[[f64; 3]], c: [f64; 3], r: f64) -> f64 {
        let out = points
            .iter()
            .filter(|u| !self.solid.contains([0, 1, 2].map(|k| c[k] + r * u[k])))
            .count();
        4.0 / 3.0 * std::f64::consts::PI * r.powi(3) * out as f64 / points.len().max(1) as f64
    }

    /// The distance from `p` to the nearest triangle below node `root` (branch and bound over
    /// the nodes' exact spheres, grown by a millionth against their rounding).
    fn distance(&self, nodes: &Nodes, root: usize, p: [f64; 3]) -> f64 {
        let mut best2 = f64::INFINITY;
        let mut stack = vec![root];
        while let Some(k) = stack.pop() {
            let (Some(&[x, y, z, r]), Some(&[left, right, triangle, _])) =
                (nodes.spheres.get(k), nodes.links.get(k))
            else {
                continue;
            };
            let off = sub(p, [x, y, z]);
            let gap = dot(off, off).sqrt() - r * (1.0 + 1e-6);
            if gap > 0.0 && gap * gap >= best2 {
                continue;
            }
            if triangle != NONE {
                if let Some(tri) = self.triangles.get(triangle as usize) {
                    let d = sub(p, closest_on_triangle(p, tri));
                    best2 = best2.min(dot(d, d));
                }
            } else if left != NONE && right != NONE {
                stack.push(right as usize);
                stack.push(left as usize);
            }
        }
        best2.sqrt()
    }
}

/// The radius of the sphere of centre `c` around some triangles' vertices.
fn radius_around(body: &FitBody, c: [f64; 3], own: &[u32]) -> f64 {
    own.iter()
        .flat_map(|&t| body.triangles[t as usize])
        .map(|p| dot(sub(p, c), sub(p, c)))
        .fold(0.0, f64::max)
        .sqrt()
}

/// The fitted sphere of a node with own triangles `own` and exact (Welzl) sphere
/// `[x, y, z, R]` (see the module docs), with its reach.
pub fn fit_node(body: &FitBody, nodes: &Nodes, node: usize, own: &[u32]) -> Fitted {
    let exact = nodes.spheres.get(node).copied().unwrap_or([0.0; 4]);
    let c0 = [exact[0], exact[1], exact[2]];
    let r0 = radius_around(body, c0, own).max(exact[3]);
    let mut best = (body.outside_volume(c0, r0), c0, r0);
    if own.len() >= SEARCH_FROM && r0 > 0.0 {
        let (mut normal, mut medial, mut area) = ([0.0; 3], [0.0; 3], 0.0);
        for &t in own {
            let t = t as usize;
            for k in 0..3 {
                normal[k] -= body.normals[t][k];
                medial[k] += body.areas[t] * body.medial[t][k];
            }
            area += body.areas[t];
        }
        let mut directions = Vec::new();
        let len = dot(normal, normal).sqrt();
        if len > 0.05 * area && len.is_finite() {
            directions.push(normal.map(|x| x / len));
        }
        if area > 0.0 {
            let m = sub(medial.map(|x| x / area), c0);
            let len = dot(m, m).sqrt();
            if len > 1e-9 * r0 && len.is_finite() {
                directions.push(m.map(|x| x / len));
            }
        }
        let try_centre = |c: [f64; 3], best: &mut (f64, [f64; 3], f64)| {
            let r = radius_around(body, c, own);
            let v = body.outside_volume(c, r);
            if v < best.0 {
                *best = (v, c, r);
            }
        };
        for d in &directions {
            for s in [0.25, 0.5, 1.0, 2.0, 4.0] {
                try_centre([0, 1, 2].map(|k| c0[k] + s * r0 * d[k]), &mut best);
            }
        }
        // Pattern search around the best, along the axes.
        let mut step = 0.25 * r0;
        for _ in 0..4 {
            let centre = best.1;
            for axis in 0..3 {
                for sign in [-1.0, 1.0] {
                    let mut c = centre;
                    c[axis] += sign * step;
                    try_centre(c, &mut best);
                }
            }
            step *= 0.5;
        }
    }
    // The winner must beat the Welzl centre on a finer estimate too (32 points are noisy).
    if best.1 != c0
        && body.outside_of(&body.fine, best.1, best.2) >= body.outside_of(&body.fine, c0, r0)
    {
        best = (0.0, c0, r0);
    }
    let (_, center, _) = best;
    // Values every scalar stores exactly (f32), so that an image of either precision, and a
    // compact one made from it, holds these very spheres: the centre rounded to f32, the
    // radius measured from it and rounded up to f32, the reach measured for them.
    let center = center.map(|x| f64::from(x as f32));
    let radius = up32(radius_around(body, center, own) * (1.0 + 4.0 * f64::EPSILON));
    Fitted {
        center,
        radius,
        reach: up32(reach(body, nodes, node, center, radius)),
    }
}

/// `x` rounded up to an f32 value.
fn up32(x: f64) -> f64 {
    let y = x as f32;
    if f64::from(y) >= x {
        f64::from(y)
    } else {
        f64::from(y.next_up())
    }
}

/// A cube of [`reach`]'s branch and bound: its bound, centre and half-side.
struct Cube(f64, [f64; 3], f64);

impl PartialEq for Cube {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0) == Ordering::Equal
    }
}
impl Eq for Cube {}
impl PartialOrd for Cube {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Cube {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// An upper bound on the largest distance from a point of the sphere `(c, r)` outside the body
/// to the triangles `own` (branch and bound over cubes; see the module docs), rounded up.
pub fn reach(body: &FitBody, nodes: &Nodes, node: usize, c: [f64; 3], r: f64) -> f64 {
    let sqrt3 = 3f64.sqrt();
    let mut found = 0.0f64;
    let mut heap = BinaryHeap::new();
    let measured = std::cell::Cell::new(0usize);
    let visit = |s: [f64; 3], a: f64, found: &mut f64, heap: &mut BinaryHeap<Cube>| {
        let rho = a * sqrt3;
        let off = sub(s, c);
        let to_centre = dot(off, off).sqrt();
        if to_centre > r + rho {
            return;
        }
        let inside = body.contains(s);
        if inside && body.clear(s, a) {
            return;
        }
        measured.set(measured.get() + 1);
        let d = body.distance(nodes, node, s);
        if !inside && to_centre <= r {
            *found = found.max(d);
        }
        heap.push(Cube(d + rho, s, a));
    };
    let a = 0.25 * r;
    for i in 0..4 {
        for j in 0..4 {
            for k in 0..4 {
                let s = [i, j, k].map(|x| f64::from(x) * 2.0 * a - 0.75 * r);
                visit([0, 1, 2].map(|x| c[x] + s[x]), a, &mut found, &mut heap);
            }
        }
    }
    let tolerance = REACH_TOLERANCE * r;
    while let Some(top) = heap.peek() {
        if top.0 <= found || top.0 - found <= tolerance || measured.get() >= REACH_BUDGET {
            break;
        }
        let Some(Cube(_, s, a)) = heap.pop() else {
            break;
        };
        let h = 0.5 * a;
        for corner in 0..8 {
            let o = [0, 1, 2].map(|k| if corner >> k & 1 == 1 { h } else { -h });
            visit([0, 1, 2].map(|k| s[k] + o[k]), h, &mut found, &mut heap);
        }
    }
    let bound = heap.peek().map_or(found, |top| top.0.max(found));
    // The distances' own rounding (a few ulps of the coordinates' magnitude), rounded up.
    let scale = c.iter().fold(r, |m, x| m.max(x.abs()));
    (bound + 64.0 * f64::EPSILON * scale).next_up()
}

/// Every node's fitted sphere (see the module docs).
pub fn fitted_spheres(body: &FitBody, nodes: &Nodes) -> Vec<Fitted> {
    let own = nodes.triangles();
    (0..nodes.links.len())
        .map(|k| fit_node(body, nodes, k, &own[k]))
        .collect()
}

//! Per-node bounds on the deformed normals for self-collision cones in `O(M)`
//! ([`self_normals`]; the bound and its proof are in
//! [`SelfNormals`] and the kernel's cones).

// Per-coordinate and 3×3 arithmetic reads as the formulas do, indexed.
#![allow(clippy::needless_range_loop)]

use bdtree_core::query::self_collision::{
    normal_quadratic_width, normal_row_width, sphere_row_width, SelfNormals, SelfSpheres,
    NORMAL_QUADRATIC_MODES, NO_ROW,
};
use bdtree_core::{Model, Scalar, TreeView};

use super::contours::each_patch;
use crate::vec3::{add, cross, norm, sub};

type V3 = [f64; 3];

/// Nodes over fewer triangles than this get no row: their cone from the triangles costs a few
/// rows' evaluation at most, and the table stays small (a row is `4(10M + 8)` bytes, plus
/// `12M(M + 1)` up to 8 modes: 1,184 bytes at `M = 7`; about one row per 64 triangles).
pub const NORMAL_MIN_TRIANGLES: usize = 128;

/// A triangle whose rest normal is shorter than this fraction of its edges' product is taken
/// as degenerate: its node gets no row (its normal can turn anywhere under a small move).
const DEGENERATE: f64 = 1e-9;

/// Added to every stored value's rounding bound: more than half the least f32 subnormal.
const TINY: f64 = 1e-45;

/// Relative error of the f64 arithmetic behind each value (a few roundings of products of
/// the stored values), taken a thousand times over.
const F64_SLACK: f64 = 1e-13;

/// Nodes over fewer triangles than this get no affine sphere ([`self_spheres`]): below it the
/// walk's refit of the subtree costs a few spheres (a row is `4(10M + 3)` bytes: 292 at
/// `M = 7`, about one row per 8 triangles).
pub const SPHERE_MIN_TRIANGLES: usize = 16;

/// Rows per node, indexed: what [`self_normals`] and [`self_spheres`] make and the kernel's
/// [`SelfNormals`] and [`SelfSpheres`] view.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeRows {
    /// Per node its row's number or [`NO_ROW`] (empty: no rows).
    pub index: Vec<u32>,
    /// The rows, `normal_row_width(M)` scalars each, in node order.
    pub rows: Vec<f32>,
}

impl NodeRows {
    /// The kernel's view of the table as normal bounds ([`self_normals`]' rows).
    pub fn normals(&self) -> SelfNormals<'_> {
        SelfNormals {
            index: &self.index,
            rows: &self.rows,
        }
    }

    /// The kernel's view of the table as affine spheres ([`self_spheres`]' rows).
    pub fn spheres(&self) -> SelfSpheres<'_> {
        SelfSpheres {
            index: &self.index,
            rows: &self.rows,
        }
    }

    /// Whether node `k` has a row.
    pub fn has_row(&self, k: usize) -> bool {
        self.index.get(k).is_some_and(|&i| i != NO_ROW)
    }

    /// Rows in the table.
    pub fn len(&self) -> usize {
        self.index.iter().filter(|&&i| i != NO_ROW).count()
    }

    /// Whether the table has no row.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Per node over at least `min_triangles` triangles ([`NORMAL_MIN_TRIANGLES`] is the
/// default), the bounds on its patch's deformed normals as functions of `q` that let the
/// kernel prove its normal cone in `O(M)` (row layout: the rest normal's centre and spread per
/// coordinate; per mode the linear term's centres, spreads and the edges' reach `β`; the
/// edges' length terms `E₀`, `Eⱼ`; the largest `1/s`). Computed in f64 from the values the
/// image stores, each taken as uncertain by its storage rounding (`2u|x|` per coordinate,
/// `u` the image's unit roundoff), every centre rounded to f32 with its rounding added to the
/// spread and every spread rounded up: the bounds hold for the f64 source of an f32 image too.
/// A node with a degenerate triangle gets no row. Empty for a quantized model (the cones
/// bound its distance from the source through the step's error), for a rigid one, and above
/// [`NORMAL_QUADRATIC_MODES`] modes (a row grows as `M²`; without its quadratic terms the
/// bound cannot follow a patch turned by two modes together).
pub fn self_normals<S: Scalar>(
    tree: &TreeView<'_, S>,
    model: &Model<'_, S>,
    min_triangles: usize,
) -> NodeRows {
    let m = model.modes();
    let table = NodeRows::default();
    if model.is_quantized() || m == 0 {
        return table;
    }
    let u = S::UNIT_ROUNDOFF.to_f64();
    let stored = |x: f64| 2.0 * u * x.abs() + TINY;
    let largest = |v: V3| v[0].abs().max(v[1].abs()).max(v[2].abs());
    let position = |i: u32| -> Option<V3> { model.position(i as usize).map(|p| p.map(S::to_f64)) };
    let row = |i: u32, j: usize| -> Option<V3> {
        let at = |axis| model.basis_entry(i as usize, axis, j).map(S::to_f64);
        Some([at(0)?, at(1)?, at(2)?])
    };
    // Per triangle, its terms divided by its scale (`None`: degenerate or unreadable).
    let terms: Vec<Option<Terms>> = model
        .triangles()
        .iter()
        .map(|&[a, b, c]| {
            let (pa, pb, pc) = (position(a)?, position(b)?, position(c)?);
            let err = |p: V3| 3f64.sqrt() * stored(largest(p));
            let (e1, e2) = (sub(pb, pa), sub(pc, pa));
            let (u1, u2) = (err(pa) + err(pb), err(pa) + err(pc));
            let n0 = cross(e1, e2);
            let (l1, l2) = (norm(e1), norm(e2));
            let s = norm(n0);
            let proper = s > DEGENERATE * l1 * l2 && s.is_finite();
            if !proper {
                return None;
            }
            let root = s.sqrt();
            let rest_unc = (l1 * u2 + u1 * l2 + u1 * u2 + F64_SLACK * l1 * l2) / s;
            let mut t = Terms {
                rest: n0.map(|x| x / s),
                rest_unc,
                linear: Vec::with_capacity(m),
                quadratic: Vec::new(),
                reach: Vec::with_capacity(m),
                edges: (l1 + u1 + l2 + u2) / s,
                lengths: Vec::with_capacity(m),
                inverse: 1.0 / s,
            };
            // Per mode the edges' basis differences, their norms and uncertainties.
            let mut diffs = Vec::with_capacity(m);
            for j in 0..m {
                let (ra, rb, rc) = (row(a, j)?, row(b, j)?, row(c, j)?);
                let (a1, a2) = (sub(rb, ra), sub(rc, ra));
                let (w1, w2) = (err(ra) + err(rb), err(ra) + err(rc));
                diffs.push((a1, a2, w1, w2));
                let l = add(cross(e1, a2), cross(a1, e2));
                let (n1, n2) = (norm(a1), norm(a2));
                let unc = ((l1 + u1) * w2
                    + u1 * n2
                    + (n1 + w1) * u2
                    + w1 * l2
                    + F64_SLACK * (l1 * n2 + n1 * l2))
                    / s;
                t.linear.push((l.map(|x| x / s), unc));
                t.reach.push([0, 1, 2].map(|k| {
                    ((a1[k].abs() + w1).max(a2[k].abs() + w2)) * (1.0 + F64_SLACK) / root
                }));
                t.lengths.push((n1 + w1 + n2 + w2) / s);
            }
            if normal_quadratic_width(m) != 0 {
                // `a₁ⱼ × a₂ₖ` and its bound when both differences move by their uncertainty.
                let term = |j: usize, k: usize| {
                    let (a1, _, w1, _) = diffs[j];
                    let (_, a2, _, w2) = diffs[k];
                    let (n1, n2) = (norm(a1), norm(a2));
                    (
                        cross(a1, a2),
                        n1 * w2 + w1 * n2 + w1 * w2 + F64_SLACK * n1 * n2,
                    )
                };
                for j in 0..m {
                    for k in j..m {
                        let (c, unc) = if j == k {
                            term(j, j)
                        } else {
                            let ((x, ux), (y, uy)) = (term(j, k), term(k, j));
                            (add(x, y), ux + uy)
                        };
                        t.quadratic.push((c.map(|x| x / s), unc / s));
                    }
                }
            }
            Some(t)
        })
        .collect();
    let mut found: Vec<Option<Vec<f32>>> = vec![None; tree.node_count()];
    each_patch(tree, |k, list| {
        if list.len() < min_triangles.max(2) {
            return;
        }
        found[k] = node_row(list, &terms, m);
    });
    indexed(found)
}

/// The rows found per node, indexed (empty when there are none).
fn indexed(found: Vec<Option<Vec<f32>>>) -> NodeRows {
    let mut table = NodeRows::default();
    if found.iter().all(Option::is_none) {
        return table;
    }
    let mut next = 0u32;
    for row in found {
        match row {
            Some(row) => {
                table.index.push(next);
                table.rows.extend_from_slice(&row);
                next += 1;
            }
            None => table.index.push(NO_ROW),
        }
    }
    table
}

/// Per node over at least `min_triangles` triangles ([`SPHERE_MIN_TRIANGLES`] is the default)
/// its affine sphere row (see [`SelfSpheres`] and `bdtree_core::Body::affine_sphere`): the
/// node's rest half-extents about its stored centre, per mode the linear map fitted to its
/// deformation and the largest residual. Computed in f64 from the values the image stores and
/// rounded outward: a bound on the stored model, as the tree's own spheres (the step's error
/// covers the rest). Empty for a quantized model or quantized rows, for a rigid one and above
/// [`NORMAL_QUADRATIC_MODES`] modes (a row is `10M + 3` scalars: over three times a node's
/// certificate).
pub fn self_spheres<S: Scalar>(
    tree: &TreeView<'_, S>,
    model: &Model<'_, S>,
    min_triangles: usize,
) -> NodeRows {
    let m = model.modes();
    if model.is_quantized() || m == 0 || m > NORMAL_QUADRATIC_MODES || tree.record(0).is_none() {
        return NodeRows::default();
    }
    let mut found: Vec<Option<Vec<f32>>> = vec![None; tree.node_count()];
    each_patch(tree, |k, list| {
        if list.len() >= min_triangles.max(2) {
            found[k] = affine_sphere(tree, model, k, list);
        }
    });
    indexed(found)
}

/// Node `k`'s affine sphere row (`h`, then per mode `Gⱼ` row-major, then the residuals
/// `ρⱼ`; see [`sphere_row_width`]): with `yᵢ = pᵢ − c` (its stored centre `c`) and
/// `dᵢⱼ = Uᵢⱼ − Ūⱼ` (its stored mode centres), `Gⱼ` fits `dᵢⱼ ≈ Gⱼ yᵢ` by least squares over the
/// node's vertices and, with `Gⱼ` as stored in f32, `ρⱼ ≥ maxᵢ |dᵢⱼ − Gⱼ yᵢ|`, `hₖ ≥ maxᵢ
/// |yᵢₖ|`, both rounded up: exactly, `xᵢ − c − Σⱼ qⱼ Ūⱼ = F yᵢ + Σⱼ qⱼ (dᵢⱼ − Gⱼ yᵢ)` with
/// `F = I + Σⱼ qⱼ Gⱼ`. For the stored model (as the tree's spheres): the step's error covers
/// the rest. `None` when a value cannot be read or is not finite.
fn affine_sphere<S: Scalar>(
    tree: &TreeView<'_, S>,
    model: &Model<'_, S>,
    k: usize,
    list: &[u32],
) -> Option<Vec<f32>> {
    let m = model.modes();
    let centre = tree.row(k, 0)?.map(S::to_f64);
    let centre = [centre[0], centre[1], centre[2]];
    let means: Vec<V3> = (0..m)
        .map(|j| {
            tree.row(k, j + 1)
                .map(|r| [r[0], r[1], r[2]].map(S::to_f64))
        })
        .collect::<Option<_>>()?;
    let mut vertices: Vec<u32> = list
        .iter()
        .filter_map(|&t| model.triangles().get(t as usize))
        .flatten()
        .copied()
        .collect();
    vertices.sort_unstable();
    vertices.dedup();
    let ys: Vec<V3> = vertices
        .iter()
        .map(|&v| {
            model
                .position(v as usize)
                .map(|p| sub(p.map(S::to_f64), centre))
        })
        .collect::<Option<_>>()?;
    let row = |v: u32, j: usize| -> Option<V3> {
        let at = |axis| model.basis_entry(v as usize, axis, j).map(S::to_f64);
        Some(sub([at(0)?, at(1)?, at(2)?], means[j]))
    };
    // `Σ y yᵀ`, regularised so that a flat or thin patch's missing directions get `G = 0`.
    let mut gram = [[0.0; 3]; 3];
    for y in &ys {
        for r in 0..3 {
            for c in 0..3 {
                gram[r][c] += y[r] * y[c];
            }
        }
    }
    let trace = gram[0][0] + gram[1][1] + gram[2][2];
    for (r, g) in gram.iter_mut().enumerate() {
        g[r] += 1e-9 * trace + f64::MIN_POSITIVE;
    }
    let inverse = invert(gram)?;
    let mut block = Vec::with_capacity(sphere_row_width(m));
    let mut h = [0f64; 3];
    for y in &ys {
        for c in 0..3 {
            h[c] = h[c].max(y[c].abs());
        }
    }
    block.extend(h.map(|x| up_to_f32(x * (1.0 + F64_SLACK))));
    let mut residuals = Vec::with_capacity(m);
    for j in 0..m {
        let ds: Vec<V3> = vertices.iter().map(|&v| row(v, j)).collect::<Option<_>>()?;
        let mut moment = [[0.0; 3]; 3];
        for (d, y) in ds.iter().zip(&ys) {
            for r in 0..3 {
                for c in 0..3 {
                    moment[r][c] += d[r] * y[c];
                }
            }
        }
        let g: [[f32; 3]; 3] = [0, 1, 2].map(|r| {
            [0, 1, 2].map(|c| (0..3).map(|i| moment[r][i] * inverse[i][c]).sum::<f64>() as f32)
        });
        let mut rho = 0f64;
        for (d, y) in ds.iter().zip(&ys) {
            let fitted = [0, 1, 2].map(|r| (0..3).map(|c| f64::from(g[r][c]) * y[c]).sum::<f64>());
            let scale = norm(*d)
                + (0..3)
                    .map(|r| {
                        (0..3)
                            .map(|c| (f64::from(g[r][c]) * y[c]).abs())
                            .sum::<f64>()
                    })
                    .sum::<f64>();
            rho = rho.max(norm(sub(*d, fitted)) + F64_SLACK * scale);
        }
        block.extend(g.iter().flatten().copied());
        residuals.push(up_to_f32(rho));
    }
    block.extend(residuals);
    block.iter().all(|x| x.is_finite()).then_some(block)
}

/// The inverse of a symmetric positive definite 3×3 matrix (`None` when singular).
fn invert(a: [[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let c =
        |r0: usize, c0: usize, r1: usize, c1: usize| a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0];
    let cof = [
        [c(1, 1, 2, 2), -c(1, 0, 2, 2), c(1, 0, 2, 1)],
        [-c(0, 1, 2, 2), c(0, 0, 2, 2), -c(0, 0, 2, 1)],
        [c(0, 1, 1, 2), -c(0, 0, 1, 2), c(0, 0, 1, 1)],
    ];
    let det = a[0][0] * cof[0][0] + a[0][1] * cof[0][1] + a[0][2] * cof[0][2];
    (det.abs() > 0.0 && det.is_finite())
        .then(|| [0, 1, 2].map(|r| [0, 1, 2].map(|c| cof[c][r] / det)))
}

/// One triangle's terms, each divided by its scale `s` (twice its rest area).
struct Terms {
    rest: V3,
    /// Bound (2-norm) on the source's `n₀/s` from `rest`.
    rest_unc: f64,
    /// Per mode `lⱼ/s` and its bound.
    linear: Vec<(V3, f64)>,
    /// Per pair of modes `j ≤ k` (in order) `cⱼₖ/s` and its bound (empty above
    /// [`bdtree_core::query::self_collision::NORMAL_QUADRATIC_MODES`] modes).
    quadratic: Vec<(V3, f64)>,
    /// Per mode the largest `|aⱼₖ|/√s` per coordinate over both edges.
    reach: Vec<V3>,
    edges: f64,
    lengths: Vec<f64>,
    inverse: f64,
}

/// A node's row from its triangles' terms; `None` when one is degenerate.
fn node_row(list: &[u32], terms: &[Option<Terms>], m: usize) -> Option<Vec<f32>> {
    let mut rest = Span::default();
    let mut linear = vec![Span::default(); m];
    let pairs = normal_quadratic_width(m) / 6;
    let mut quadratic = vec![Span::default(); pairs];
    let mut reach = vec![[0f64; 3]; m];
    let (mut edges, mut inverse) = (0f64, 0f64);
    let mut lengths = vec![0f64; m];
    for &t in list {
        let t = terms.get(t as usize)?.as_ref()?;
        rest.add(t.rest, t.rest_unc);
        for (span, &(l, unc)) in linear.iter_mut().zip(&t.linear) {
            span.add(l, unc);
        }
        for (span, &(c, unc)) in quadratic.iter_mut().zip(&t.quadratic) {
            span.add(c, unc);
        }
        for (r, tr) in reach.iter_mut().zip(&t.reach) {
            for k in 0..3 {
                r[k] = r[k].max(tr[k]);
            }
        }
        edges = edges.max(t.edges);
        inverse = inverse.max(t.inverse);
        for (l, tl) in lengths.iter_mut().zip(&t.lengths) {
            *l = l.max(*tl);
        }
    }
    let mut row = Vec::with_capacity(normal_row_width(m));
    let (centre, spread) = rest.stored();
    row.extend_from_slice(&centre);
    row.extend_from_slice(&spread);
    let stored: Vec<([f32; 3], [f32; 3])> = linear.iter().map(Span::stored).collect();
    row.extend(stored.iter().flat_map(|(c, _)| *c));
    row.extend(stored.iter().flat_map(|(_, s)| *s));
    row.extend(reach.iter().flat_map(|r| r.map(up_to_f32)));
    row.push(up_to_f32(edges * (1.0 + F64_SLACK)));
    row.extend(lengths.iter().map(|&l| up_to_f32(l * (1.0 + F64_SLACK))));
    row.push(up_to_f32(inverse * (1.0 + F64_SLACK)));
    let stored: Vec<([f32; 3], [f32; 3])> = quadratic.iter().map(Span::stored).collect();
    row.extend(stored.iter().flat_map(|(c, _)| *c));
    row.extend(stored.iter().flat_map(|(_, s)| *s));
    row.iter().all(|x| x.is_finite()).then_some(row)
}

/// Per coordinate, the least and largest value seen (each widened by its bound).
#[derive(Debug, Clone, Copy)]
struct Span {
    low: V3,
    high: V3,
}

impl Default for Span {
    fn default() -> Self {
        Self {
            low: [f64::INFINITY; 3],
            high: [f64::NEG_INFINITY; 3],
        }
    }
}

impl Span {
    fn add(&mut self, v: V3, unc: f64) {
        for k in 0..3 {
            self.low[k] = self.low[k].min(v[k] - unc);
            self.high[k] = self.high[k].max(v[k] + unc);
        }
    }

    /// The centres rounded to f32 and the spreads (half-widths) that cover the span from them,
    /// rounded up.
    fn stored(&self) -> ([f32; 3], [f32; 3]) {
        let mut centre = [0f32; 3];
        let mut spread = [0f32; 3];
        for k in 0..3 {
            let (lo, hi) = (self.low[k], self.high[k]);
            let c = (0.5 * (lo + hi)) as f32;
            let cf = f64::from(c);
            let half = (hi - cf).max(cf - lo);
            centre[k] = c;
            spread[k] = up_to_f32(half + F64_SLACK * (lo.abs() + hi.abs()));
        }
        (centre, spread)
    }
}

/// The least f32 at or above `x` (`x ≥ 0`; infinite or NaN: infinity).
fn up_to_f32(x: f64) -> f32 {
    let finite = x < f64::from(f32::MAX);
    if !finite {
        return f32::INFINITY;
    }
    let x = x.max(0.0);
    let y = x as f32;
    if f64::from(y) >= x {
        y
    } else {
        f32::from_bits(y.to_bits() + 1)
    }
}

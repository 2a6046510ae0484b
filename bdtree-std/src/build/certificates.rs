//! Subspace certificates of a tree's nodes for self-collision culling in `O(M)`
//! ([`self_certificates`]; the condition and its proof are in
//! [`bdtree_core::query::self_collision::SelfCertificates`]).

use bdtree_core::query::self_collision::CERTIFICATE_VECTORS;
use bdtree_core::{Model, Scalar, TreeView};

use super::contours::{each_patch, ContourTable};
use crate::vec3::{add, cross, dot, norm, sub};

type V3 = [f64; 3];

/// A weight above this makes the node uncertified (its test could never pass at a `q` that
/// matters, and the state's rounding below `2⁻¹⁴⁹` stays negligible against the slack).
const LARGEST_WEIGHT: f64 = 1e20;

/// Added to every stored value's rounding bound: more than half the least f32 subnormal, which
/// bounds round-to-nearest's error near 0 (and is negligible against any patch that can be
/// certified).
const TINY: f64 = 1e-45;

/// Per node, the subspace certificate's `3M` weights (see [`SelfCertificates`](bdtree_core::query::self_collision::SelfCertificates)), node after
/// node: what [`bdtree_core::collide_self_with`] reads through
/// [`SelfAids::certificates`](bdtree_core::query::self_collision::SelfAids::certificates).
/// A node gets finite weights when it has a boundary loop in `contours`, every rest normal of
/// its patch faces the patch's mean normal by more than `10⁻⁹` of its edges' product, and its
/// projected loop is simple with room to spare; the others (and leaves) get infinite weights.
/// Computed in f64 from the values the image stores, with every margin rounded toward refusal
/// and each stored value taken as uncertain by its storage rounding (`2u|x|` per coordinate,
/// `u` the image's unit roundoff, plus the least subnormal): a certificate of an f32 image
/// holds for every f64 model that rounds to it, so for the f64 source the image was made from,
/// not only for its rounded copy. Empty for a quantized model (whose stored values are not the
/// model it was made from) and for a model without modes (a rigid body's rest shape is tested
/// by the cones and contours each query). `O(Σ loop² · M)`: about a second for a
/// 51k-triangle ribbon.
pub fn self_certificates<S: Scalar>(
    tree: &TreeView<'_, S>,
    model: &Model<'_, S>,
    contours: &ContourTable,
) -> Vec<f32> {
    let (n, m) = (tree.node_count(), model.modes());
    if model.is_quantized() || m == 0 || contours.starts.len() != n + 1 {
        return Vec::new();
    }
    let width = CERTIFICATE_VECTORS * m;
    let mut weights = vec![f32::INFINITY; n * width];
    let positions: Vec<V3> = (0..model.vertex_count())
        .map(|i| {
            model
                .position(i)
                .map_or([f64::NAN; 3], |p| p.map(S::to_f64))
        })
        .collect();
    // `rows[i][j]`: vertex `i`'s basis row for mode `j`.
    let rows: Vec<Vec<V3>> = (0..model.vertex_count())
        .map(|i| {
            (0..m)
                .map(|j| {
                    let at = |axis| model.basis_entry(i, axis, j).map_or(f64::NAN, S::to_f64);
                    [at(0), at(1), at(2)]
                })
                .collect()
        })
        .collect();
    // How far the model the image was made from may lie from each stored value (per
    // coordinate: round to nearest moves `x` by at most `u|x|`, and by half the least
    // subnormal near 0; doubled for margin). An f64 image of f64 data is exact; the bound is
    // then 2⁻⁵² of each value, which costs nothing.
    let u = S::UNIT_ROUNDOFF.to_f64();
    let stored = |x: f64| 2.0 * u * x.abs() + TINY;
    let largest = |v: V3| v[0].abs().max(v[1].abs()).max(v[2].abs());
    // Per vertex, the 2-norm of the position's and of each basis row's possible error.
    let position_error: Vec<f64> = positions
        .iter()
        .map(|&p| 3f64.sqrt() * stored(largest(p)))
        .collect();
    let row_error: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|&u| 3f64.sqrt() * stored(largest(u)))
                .collect()
        })
        .collect();
    let patch = Patch {
        positions: &positions,
        rows: &rows,
        position_error: &position_error,
        row_error: &row_error,
        triangles: model.triangles(),
    };
    each_patch(tree, |k, list| {
        let contour =
            &contours.vertices[contours.starts[k] as usize..contours.starts[k + 1] as usize];
        if !contour.is_empty() {
            if let Some(node) = patch.certificate(list, contour) {
                weights[k * width..(k + 1) * width].copy_from_slice(&node);
            }
        }
    });
    weights
}

/// The model's values in f64, each with the bound on its distance from the source's.
struct Patch<'a> {
    positions: &'a [V3],
    rows: &'a [Vec<V3>],
    /// Per vertex, how far (2-norm) the source's rest position may lie from `positions`.
    position_error: &'a [f64],
    /// Per vertex and mode, how far (2-norm) the source's basis row may lie from `rows`.
    row_error: &'a [Vec<f64>],
    triangles: &'a [[u32; 3]],
}

impl Patch<'_> {
    /// The weights `g`, `γ`, `w` of the patch of `triangles` bounded by `contour`, rounded up
    /// to f32; `None` when it cannot be certified at `q = 0` with room to spare.
    fn certificate(&self, triangles: &[u32], contour: &[u32]) -> Option<Vec<f32>> {
        let m = self.rows.first()?.len();
        let position = |v: u32| self.positions.get(v as usize).copied();
        let row = |v: u32| self.rows.get(v as usize);
        let moved = |v: u32| self.position_error.get(v as usize).copied();
        let row_moved = |v: u32| self.row_error.get(v as usize);
        // The patch's mean rest normal, and the projection plane across it; `d` is recomputed
        // from the plane so that the normal test and the projection use one direction.
        let mut sum = [0.0; 3];
        for &t in triangles {
            let [a, b, c] = *self.triangles.get(t as usize)?;
            let normal = cross(
                sub(position(b)?, position(a)?),
                sub(position(c)?, position(a)?),
            );
            sum = add(sum, normal);
        }
        let helper = if sum[0].abs() <= sum[1].abs().max(sum[2].abs()) {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 1.0, 0.0]
        };
        let eu = unit(cross(sum, helper))?;
        let ev = unit(cross(sum, eu))?;
        let d = cross(eu, ev);

        let (mut g, mut gamma, mut w) = (vec![0.0; m], vec![0.0; m], vec![0.0; m]);
        for &t in triangles {
            let [a, b, c] = *self.triangles.get(t as usize)?;
            let (e1, e2) = (
                sub(position(b)?, position(a)?),
                sub(position(c)?, position(a)?),
            );
            let (l1, l2) = (norm(e1), norm(e2));
            let scale = l1 * l2;
            // The source's edges lie within `h1`, `h2` of these (2-norm), so its rest margin
            // `d·(e1' × e2')` within `l1 h2 + h1 l2 + h1 h2` of this one (`d` a unit vector).
            let (h1, h2) = (moved(a)? + moved(b)?, moved(a)? + moved(c)?);
            let storage = l1 * h2 + h1 * l2 + h1 * h2;
            // The rest margin, less what f64 rounding and the storage rounding could have
            // added to it.
            let margin = dot(d, cross(e1, e2)) - 1e-12 * scale - storage;
            if !exceeds(margin, 1e-9 * scale) {
                return None;
            }
            let (ua, ub, uc) = (row(a)?, row(b)?, row(c)?);
            let (ra, rb, rc) = (row_moved(a)?, row_moved(b)?, row_moved(c)?);
            let (de1, e2d) = (cross(d, e1), cross(e2, d));
            for j in 0..m {
                let a1 = sub(*ub.get(j)?, *ua.get(j)?);
                let a2 = sub(*uc.get(j)?, *ua.get(j)?);
                // The source's `A1`, `A2` lie within `k1`, `k2` of these; `|d·(A1' × e2' +
                // e1' × A2')|` then exceeds this one by at most the cross terms below.
                let (k1, k2) = (ra.get(j)? + rb.get(j)?, ra.get(j)? + rc.get(j)?);
                let (n1, n2) = (norm(a1), norm(a2));
                let spread = k1 * l2 + n1 * h2 + k1 * h2 + h1 * n2 + l1 * k2 + h1 * k2;
                g[j] = f64::max(
                    g[j],
                    ((dot(a2, de1) + dot(a1, e2d)).abs() + spread) / margin,
                );
                gamma[j] = f64::max(gamma[j], (n1 + k1).max(n2 + k2) / margin.sqrt());
            }
        }

        let points: Vec<[f64; 2]> = contour
            .iter()
            .map(|&v| position(v).map(|p| [dot(p, eu), dot(p, ev)]))
            .collect::<Option<_>>()?;
        let moves: Vec<Vec<[f64; 2]>> = contour
            .iter()
            .map(|&v| row(v).map(|r| r.iter().map(|u| [dot(*u, eu), dot(*u, ev)]).collect()))
            .collect::<Option<_>>()?;
        let reach = points
            .iter()
            .fold(0.0f64, |r, p| r.max(p[0].abs()).max(p[1].abs()));
        // The source's loop points lie within `shift` of these (a projection onto the plane
        // moves no point farther than in space), so two of its segments are at most `2 shift`
        // closer; its projected mode rows within `row_shift[j]`, so a relative move at most
        // `2 row_shift[j]` larger.
        let shift = contour
            .iter()
            .map(|&v| moved(v))
            .try_fold(0.0f64, |s, e| e.map(|e| s.max(e)))?;
        let mut row_shift = vec![0.0f64; m];
        for &v in contour {
            for (s, e) in row_shift.iter_mut().zip(row_moved(v)?) {
                *s = s.max(*e);
            }
        }
        // Two edges stay apart while the largest relative move of an endpoint of one against
        // an endpoint of the other stays below their rest distance (less its rounding and the
        // storage rounding).
        let mut apart = |distance: f64, pairs: &[(usize, usize)]| -> Option<()> {
            let gap = distance - 1e-12 * reach - 2.0 * shift;
            if !exceeds(gap, 0.0) {
                return None;
            }
            for (j, wj) in w.iter_mut().enumerate() {
                let mut most = 0.0f64;
                for &(x, y) in pairs {
                    let (p, q) = (moves.get(x)?.get(j)?, moves.get(y)?.get(j)?);
                    most = most.max((p[0] - q[0]).hypot(p[1] - q[1]));
                }
                *wj = f64::max(*wj, (most + 2.0 * row_shift.get(j)?) / gap);
            }
            Some(())
        };
        let len = points.len();
        for i in 0..len {
            let i1 = (i + 1) % len;
            let (p, q) = (points[i], points[i1]);
            for j in i + 1..len {
                let j1 = (j + 1) % len;
                let (r, s) = (points[j], points[j1]);
                if j == i1 {
                    // Neighbours meeting at `q = r`: they overlap elsewhere only if the far end
                    // of one lies on the other.
                    apart(segment_distance(p, p, r, s), &[(i, j), (i, j1)])?;
                    apart(segment_distance(s, s, p, q), &[(j1, i), (j1, i1)])?;
                } else if j1 == i {
                    apart(segment_distance(r, r, p, q), &[(j, i), (j, i1)])?;
                    apart(segment_distance(q, q, r, s), &[(i1, j), (i1, j1)])?;
                } else {
                    let pairs = [(i, j), (i, j1), (i1, j), (i1, j1)];
                    apart(segment_distance(p, q, r, s), &pairs)?;
                }
            }
        }

        let mut out = Vec::with_capacity(CERTIFICATE_VECTORS * m);
        for weight in g.iter().chain(&gamma).chain(&w) {
            // Grown past the rounding of the f64 arithmetic above, then rounded up to f32.
            let grown = weight * (1.0 + 1e-9);
            if !exceeds(LARGEST_WEIGHT, grown) {
                return None;
            }
            out.push(up_to_f32(grown));
        }
        Some(out)
    }
}

/// `x > y`, false when either is NaN.
fn exceeds(x: f64, y: f64) -> bool {
    x.partial_cmp(&y) == Some(std::cmp::Ordering::Greater)
}

/// The least f32 at or above `x` (for `0 ≤ x ≤ 10²⁰`; tiny values become `10⁻³⁰`).
fn up_to_f32(x: f64) -> f32 {
    let x = x.max(1e-30);
    let y = x as f32;
    if f64::from(y) >= x {
        y
    } else {
        f32::from_bits(y.to_bits() + 1)
    }
}

fn unit(a: V3) -> Option<V3> {
    let l = norm(a);
    (l > 0.0 && l.is_finite()).then(|| [a[0] / l, a[1] / l, a[2] / l])
}

/// The distance between segments `pq` and `rs` in the plane (0 when they cross).
fn segment_distance(p: [f64; 2], q: [f64; 2], r: [f64; 2], s: [f64; 2]) -> f64 {
    let d = |a: [f64; 2], b: [f64; 2]| [b[0] - a[0], b[1] - a[1]];
    let cross2 = |a: [f64; 2], b: [f64; 2]| a[0] * b[1] - a[1] * b[0];
    let (u, v) = (d(p, q), d(r, s));
    // A proper crossing; a touching or overlapping pair has an endpoint on the other segment,
    // which the endpoint distances below find.
    let straddles = |e: [f64; 2], o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        cross2(e, d(o, a)) * cross2(e, d(o, b)) < 0.0
    };
    if straddles(u, p, r, s) && straddles(v, r, p, q) {
        return 0.0;
    }
    let to_segment = |x: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        let ab = d(a, b);
        let len = ab[0] * ab[0] + ab[1] * ab[1];
        let t = if len > 0.0 {
            (((x[0] - a[0]) * ab[0] + (x[1] - a[1]) * ab[1]) / len).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a[0] + t * ab[0] - x[0]).hypot(a[1] + t * ab[1] - x[1])
    };
    to_segment(p, r, s)
        .min(to_segment(q, r, s))
        .min(to_segment(r, p, q))
        .min(to_segment(s, p, q))
}

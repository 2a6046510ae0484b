//! A [`Body`]'s geometry at its state, in world coordinates (f64), for what reads it besides
//! the queries (drawings, exports, controllers): node spheres, the spheres of a tree level,
//! the deformed vertices, and the motion of a point of a triangle along a normal. Each is
//! computed at the body's own origin ([`super::placing::self_origin`]).

use bdtree_core::geometry::closest::closest_on_triangle;
use bdtree_core::image::tree::{NodeKind, TreeView};
use bdtree_core::{Body as KernelBody, Pose, Scalar};

use super::body::{Body, Exact, OnOne};
use super::error::HostError;
use super::placing::self_origin;

/// The nodes of the cut at `level`: nodes of that depth, and leaves above it, in tree order.
pub fn level_cut<S: Scalar>(tree: &TreeView<'_, S>, level: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut stack = vec![0u32];
    while let Some(k) = stack.pop() {
        let depth = tree.node_depth(k as usize).unwrap_or(0);
        match tree.kind(k as usize) {
            Some(NodeKind::Internal { left, right }) if depth < level => {
                stack.push(right);
                stack.push(left);
            }
            Some(_) => out.push(k),
            None => {}
        }
    }
    out.sort_unstable();
    out
}

/// A node's sphere relative to the origin, widened.
struct Sphere {
    node: usize,
}

impl OnOne for Sphere {
    type Out = Option<[f64; 4]>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        body.sphere(self.node).map(|s| s.map(S::to_f64))
    }
}

/// The spheres of a level cut relative to the origin, each with its growth.
pub(super) struct LevelSpheres {
    pub(super) level: u32,
}

impl OnOne for LevelSpheres {
    type Out = Vec<([f64; 4], f64)>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        let tree = *body.tree();
        let mut out = Vec::new();
        for k in level_cut(&tree, self.level) {
            let (Some(rest), Some(s)) = (tree.rest_sphere(k as usize), body.sphere(k as usize))
            else {
                continue;
            };
            let (r0, r) = (rest[3].to_f64(), s[3].to_f64());
            let growth = if r0 > 0.0 { r / r0 } else { 1.0 };
            out.push((s.map(S::to_f64), growth));
        }
        out
    }
}

/// Every vertex deformed in f64 from the stored model at the state as given, relative to the
/// origin (as [`Body::triangle`]).
struct Vertices {
    exact: Exact,
}

impl OnOne for Vertices {
    type Out = Vec<[f64; 3]>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        (0..body.model().vertex_count())
            .filter_map(|v| self.exact.vertex(body, v))
            .collect()
    }
}

/// `Σ_v w_v (U_vᵀ n_local)`: the motion along a normal of a point with weights `w` on a face.
struct NormalRow {
    face: [u32; 3],
    weights: [f64; 3],
    local: [f64; 3],
}

impl OnOne for NormalRow {
    type Out = Vec<f64>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        let model = body.model();
        let mut row = vec![0.0; model.modes()];
        for (&v, &w) in self.face.iter().zip(&self.weights) {
            if w == 0.0 {
                continue;
            }
            for (j, slot) in row.iter_mut().enumerate() {
                let along: f64 = (0..3)
                    .map(|axis| {
                        let u = model
                            .basis_entry(v as usize, axis, j)
                            .map_or(0.0, S::to_f64);
                        self.local[axis] * u
                    })
                    .sum();
                *slot += w * along;
            }
        }
        row
    }
}

/// Barycentric weights of the point of triangle `t` nearest to `p` (non-negative, summing to
/// 1; the nearest vertex's for a zero-area triangle).
fn barycentric(p: [f64; 3], t: &[[f64; 3]; 3]) -> [f64; 3] {
    let x = closest_on_triangle(p, t);
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let (e1, e2, d) = (sub(t[1], t[0]), sub(t[2], t[0]), sub(x, t[0]));
    let (a, b, c) = (dot(e1, e1), dot(e1, e2), dot(e2, e2));
    let (g, h) = (dot(d, e1), dot(d, e2));
    let det = a * c - b * b;
    if det > 1e-24 * a * c && det.is_finite() {
        let v = ((c * g - b * h) / det).clamp(0.0, 1.0);
        let w = ((a * h - b * g) / det).clamp(0.0, 1.0 - v);
        return [1.0 - v - w, v, w];
    }
    // Zero area: the nearest vertex.
    let mut best = [1.0, 0.0, 0.0];
    let mut nearest = f64::INFINITY;
    for (k, corner) in t.iter().enumerate() {
        let e = sub(x, *corner);
        if dot(e, e) < nearest {
            nearest = dot(e, e);
            best = [0.0; 3];
            best[k] = 1.0;
        }
    }
    best
}

impl Body {
    /// The world sphere `[x, y, z, r]` of `node` at the body's state (node 0: the whole body),
    /// computed at its own origin; `None` for a node the tree does not have.
    pub fn sphere(&mut self, node: usize) -> Result<Option<[f64; 4]>, HostError> {
        let origin = self_origin(self);
        self.place(origin)?;
        let sphere = self.on_one(Sphere { node });
        Ok(sphere.map(|s| [s[0] + origin[0], s[1] + origin[1], s[2] + origin[2], s[3]]))
    }

    /// The world spheres of the tree's cut at `level` (the nodes of that depth and the leaves
    /// above it, in node order) at the body's state, each with its growth `r(q) / r_rest`.
    pub fn level_spheres(&mut self, level: u32) -> Result<Vec<([f64; 4], f64)>, HostError> {
        let origin = self_origin(self);
        self.level_spheres_at(level, origin)
    }

    /// [`Body::level_spheres`] with the body placed at the floating origin `origin` instead of
    /// its own, still in world coordinates (at the world origin: the spheres a scene's
    /// pictures draw, computed where the picture's vertices are).
    pub fn level_spheres_at(
        &mut self,
        level: u32,
        origin: [f64; 3],
    ) -> Result<Vec<([f64; 4], f64)>, HostError> {
        self.place(origin)?;
        let spheres = self.on_one(LevelSpheres { level });
        // A zero component is not added: −0 + 0 would turn a centre's −0 into +0.
        let moved = |x: f64, o: f64| if o == 0.0 { x } else { x + o };
        Ok(spheres
            .into_iter()
            .map(|(s, g)| {
                (
                    [
                        moved(s[0], origin[0]),
                        moved(s[1], origin[1]),
                        moved(s[2], origin[2]),
                        s[3],
                    ],
                    g,
                )
            })
            .collect())
    }

    /// Every vertex at the body's state in world coordinates, deformed in f64 from the stored
    /// model at the state as given (as [`Body::triangle`]), in the mesh's order; [`super::Tree::triangles`] indexes
    /// them.
    pub fn vertices(&mut self) -> Result<Vec<[f64; 3]>, HostError> {
        let origin = self_origin(self);
        self.place(origin)?;
        let exact = Exact::new(self.state(), origin);
        let local = self.on_one(Vertices { exact });
        Ok(local
            .into_iter()
            .map(|v| std::array::from_fn(|k| v[k] + origin[k]))
            .collect())
    }

    /// The motion of a world `point` on `triangle` along a fixed world `normal`:
    /// `∂(n · x)/∂q = nᵀ R Σ_v w_v U_v`, how far the point of the surface at `point` (`w` its
    /// barycentric weights on the triangle at the body's state, `U_v` vertex `v`'s 3 × M
    /// block, `R` the state's rotation) moves along `normal` per unit of each reduced
    /// coordinate. This is **not** a contact's depth derivative (the depth's features are not
    /// at the contact point, and its normal turns with them): that is
    /// [`super::contact_jacobians`]. `None` for a triangle the mesh does not have. Cost:
    /// `O(M)` after the triangle.
    pub fn normal_row(
        &mut self,
        triangle: u32,
        point: [f64; 3],
        normal: [f64; 3],
    ) -> Result<Option<Vec<f64>>, HostError> {
        let Some(corners) = self.triangle(triangle)? else {
            return Ok(None);
        };
        let Some(&face) = self.tree().triangles().get(triangle as usize) else {
            return Ok(None);
        };
        let rotation = self.state().rotation;
        let n = rotation.iter().map(|x| x * x).sum::<f64>().sqrt();
        let unit = rotation.map(|x| x / n);
        let r = Pose::<f64>::from_quaternion(unit, [0.0; 3])
            .map_err(|e| HostError::State {
                argument: "rotation",
                message: e.to_string(),
            })?
            .rotation;
        // Rᵀ n: the normal in the body's axes.
        let local = std::array::from_fn(|c| {
            r[0][c] * normal[0] + r[1][c] * normal[1] + r[2][c] * normal[2]
        });
        let weights = barycentric(point, &corners);
        Ok(Some(self.on_one(NormalRow {
            face,
            weights,
            local,
        })))
    }
}

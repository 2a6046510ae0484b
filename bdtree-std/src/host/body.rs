//! [`Body`]: an owned body over a [`Tree`] — its caches, its state in f64 as the caller gave it,
//! the precision of its tree chosen at run time — and the one precision dispatch of the host.

use bdtree_core::{floating_origin, Body as KernelBody, BodyError, Model, Pose, PoseError, Scalar};

use super::error::{HostError, IMPRECISE_FRACTION};
use super::owned::Owned;
use super::tree::Tree;
use crate::build::Precision;

/// A body's state as the caller gave it, in f64: a unit quaternion `(w, x, y, z)`, a world
/// translation and the reduced coordinates `q` (one per mode). A world vertex is
/// `R (p + U q) + t`.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Unit quaternion `(w, x, y, z)`.
    pub rotation: [f64; 4],
    /// World translation.
    pub translation: [f64; 3],
    /// Reduced coordinates.
    pub q: Vec<f64>,
}

impl State {
    /// The identity pose with `q = 0` for `modes` modes.
    pub fn rest(modes: usize) -> State {
        State {
            rotation: [1.0, 0.0, 0.0, 0.0],
            translation: [0.0; 3],
            q: vec![0.0; modes],
        }
    }
}

/// The kernel body in its tree's precision: the one place the host matches on precision.
pub(crate) enum Kernel {
    F32(Owned<f32>),
    F64(Owned<f64>),
}

/// A scalar a host body's kernel may be in, and that kernel (`None` in the other precision).
pub(crate) trait InKernel: Scalar {
    fn of(kernel: &mut Kernel) -> Option<&mut Owned<Self>>;
}

impl InKernel for f32 {
    fn of(kernel: &mut Kernel) -> Option<&mut Owned<f32>> {
        match kernel {
            Kernel::F32(k) => Some(k),
            Kernel::F64(_) => None,
        }
    }
}

impl InKernel for f64 {
    fn of(kernel: &mut Kernel) -> Option<&mut Owned<f64>> {
        match kernel {
            Kernel::F64(k) => Some(k),
            Kernel::F32(_) => None,
        }
    }
}

/// The device's state ([`super::device`]): the state rounded to `S` and taken as exact at the
/// world origin.
struct DeviceState<'s> {
    state: &'s State,
}

impl OnOne for DeviceState<'_> {
    type Out = Result<(), HostError>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        let State {
            rotation,
            translation,
            q,
        } = self.state;
        let pose = Pose::from_quaternion(rotation.map(S::from_f64), translation.map(S::from_f64))
            .map_err(|e| HostError::State {
            argument: "rotation",
            message: e.to_string(),
        })?;
        let rounded: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
        body.set_state(pose, &rounded)
            .map_err(|e| state_error::<S>(e, *translation, [0.0; 3], q))
    }
}

/// A query on one kernel body, generic over its scalar.
pub(crate) trait OnOne {
    type Out;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out;
}

/// A query on two kernel bodies of one scalar.
pub(crate) trait OnTwo {
    type Out;
    fn run<S: Scalar>(
        self,
        a: &mut KernelBody<'_, '_, S>,
        b: &mut KernelBody<'_, '_, S>,
    ) -> Self::Out;
}

/// A query on four kernel bodies of one scalar (two objects, each before and now).
pub(crate) trait OnFour {
    type Out;
    fn run<S: Scalar>(self, bodies: [&mut KernelBody<'_, '_, S>; 4]) -> Self::Out;
}

/// An owned body: a [`Tree`] (shared), the kernel body over it with its own sphere, mode and
/// vertex caches, and its state in f64 exactly as the caller gave it. Queries place the kernel
/// state at the floating origin each of them needs (module docs of [`super`]); the state
/// itself never changes but by [`Body::set_state`].
///
/// ```
/// # use bdtree_std::host::{Body, Tree};
/// # use bdtree_std::build::BuildOptions;
/// let mesh = bdtree_std::shapes::procedural::icosphere(1.0, 1);
/// let (tree, _) = Tree::build(&mesh, None, BuildOptions::default())?;
/// let mut ball = Body::new(&tree)?;
/// ball.set_state([1.0, 0.0, 0.0, 0.0], [5000.0, 0.0, 0.0], &[])?;
/// assert_eq!(ball.state().translation, [5000.0, 0.0, 0.0]);
/// # Ok::<(), bdtree_std::host::HostError>(())
/// ```
pub struct Body {
    tree: Tree,
    pub(super) kernel: Kernel,
    state: State,
    /// The floating origin the kernel body's state is relative to.
    origin: [f64; 3],
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Body")
            .field("tree", &self.tree)
            .field("state", &self.state)
            .field("origin", &self.origin)
            .finish()
    }
}

/// The host's message for a state the kernel refused.
fn state_error<S: Scalar>(
    error: BodyError,
    translation: [f64; 3],
    origin: [f64; 3],
    q: &[f64],
) -> HostError {
    let biggest = |x: &[f64]| {
        x.iter().enumerate().fold(
            (0, 0.0f64),
            |m, (i, &v)| if v.abs() > m.1.abs() { (i, v) } else { m },
        )
    };
    match error {
        BodyError::Pose(PoseError::NonFinite) => HostError::State {
            argument: "translation",
            message: format!("{translation:?} has a non-finite component"),
        },
        BodyError::Pose(e) => HostError::State {
            argument: "rotation",
            message: e.to_string(),
        },
        BodyError::WrongModeCount { expected, actual } => HostError::State {
            argument: "q",
            message: format!("expected {expected} coordinates (the tree's modes), got {actual}"),
        },
        BodyError::NonFiniteCoordinates => {
            let bad = q.iter().position(|x| !x.is_finite()).unwrap_or(0);
            HostError::State {
                argument: "q",
                message: format!(
                    "q[{bad}] = {} is not finite",
                    q.get(bad).copied().unwrap_or(0.0)
                ),
            }
        }
        BodyError::OutOfRange => {
            let (j, qj) = biggest(q);
            // What the kernel holds is the translation less the query's floating origin.
            let local: [f64; 3] = std::array::from_fn(|k| translation[k] - origin[k]);
            let (k, tk) = biggest(&local);
            let (argument, what) = if tk.abs() >= qj.abs() {
                let what = if origin == [0.0; 3] {
                    format!("translation[{k}] = {tk:e}")
                } else {
                    format!(
                        "translation[{k}] = {:e} (at {tk:e} from the query's floating origin \
                         {origin:?}: the bodies are that far apart)",
                        translation[k]
                    )
                };
                ("translation", what)
            } else {
                ("q", format!("q[{j}] = {qj:e}"))
            };
            HostError::State {
                argument,
                message: format!(
                    "{what} is out of range for a {} body (its coordinates would pass {:e}, \
                     where the kernel's products could overflow)",
                    S::NAME,
                    S::STATE_LIMIT.to_f64()
                ),
            }
        }
        e => HostError::Body {
            message: e.to_string(),
        },
    }
}

/// Sets a kernel body to `state` relative to `origin`.
struct Place<'s> {
    state: &'s State,
    origin: [f64; 3],
}

impl OnOne for Place<'_> {
    type Out = Result<f64, HostError>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        let State {
            rotation,
            translation,
            q,
        } = self.state;
        body.set_state_f64(*rotation, *translation, q, self.origin)
            .map_err(|e| state_error::<S>(e, *translation, self.origin, q))?;
        Ok(body.error().to_f64())
    }
}

impl Body {
    /// A body over `tree` at the identity pose and `q = 0`, with its own sphere cache, mode
    /// storage and vertex cache (sized from the tree: `(16 + 16) × nodes + 16 × vertices`
    /// bytes in f32, about twice that in f64).
    pub fn new(tree: &Tree) -> Result<Body, HostError> {
        Body::with_caches(tree, true)
    }

    /// [`Body::new`] without the vertex cache (`16 × vertices` bytes less in f32): every sphere
    /// is then the tree's own update, a leaf's too (with the cache, a leaf's sphere is taken
    /// from its deformed triangle, tighter). What measures a tree image itself — the spheres
    /// it stores drawn, the overlap tests they cost — and what a device body without a vertex
    /// cache computes. Triangle queries answer the same pairs; the spheres (so a leaf's contact
    /// proxy) and the counters differ.
    pub fn without_vertex_cache(tree: &Tree) -> Result<Body, HostError> {
        Body::with_caches(tree, false)
    }

    fn with_caches(tree: &Tree, vertex_cache: bool) -> Result<Body, HostError> {
        let body = |message: String| HostError::Body { message };
        let kernel = match tree.precision() {
            Precision::F32 => Kernel::F32(Owned::new(&tree.data, vertex_cache).map_err(body)?),
            Precision::F64 => Kernel::F64(Owned::new(&tree.data, vertex_cache).map_err(body)?),
        };
        Ok(Body {
            tree: tree.clone(),
            kernel,
            state: State::rest(tree.modes()),
            origin: [0.0; 3],
        })
    }

    /// The tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The precision of the tree, hence of every query on this body.
    pub fn precision(&self) -> Precision {
        self.tree.precision()
    }

    /// The state as the caller gave it.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The floating origin the kernel body's state currently sits at (the body's own
    /// translation after [`Body::set_state`]; queries move it).
    pub fn origin(&self) -> [f64; 3] {
        self.origin
    }

    /// Sets the state: `rotation` a unit quaternion `(w, x, y, z)` (within
    /// [`crate::io::pose::QUATERNION_NORM_TOLERANCE`] of unit length, never normalised
    /// silently), `translation` the world translation, `q` one coordinate per mode. The state
    /// is kept in f64 as given; the kernel body is placed at the body's own origin (its
    /// translation) and checked there. Cost: `O(M)`.
    ///
    /// Refused, with the argument and its value named, and the body left as it was:
    /// a non-finite number or a quaternion off unit length ([`super::check::state`], the
    /// checks every front end shares), the wrong number of coordinates, a
    /// state beyond what the precision can compute with ([`bdtree_core::BodyError::OutOfRange`]),
    /// and an **imprecise** state ([`HostError::Imprecise`]): one whose per-coordinate rounding
    /// bound at the body's own origin, [`Body::error_bound`], exceeds [`IMPRECISE_FRACTION`]
    /// (1/16) of the body's size (its root's rest radius). Such a state (e.g. an f32 `q` of
    /// 10⁹ on a unit body: a bound of ~10⁴) inflates every sphere past the body itself, so
    /// every node pair of a query overlaps and its answer is all pairs: a wrong `q`, or one
    /// that needs an f64 tree.
    pub fn set_state(
        &mut self,
        rotation: [f64; 4],
        translation: [f64; 3],
        q: &[f64],
    ) -> Result<(), HostError> {
        super::check::state(rotation, translation, q)?;
        let state = State {
            rotation,
            translation,
            q: q.to_vec(),
        };
        let origin = floating_origin(&[translation]);
        let bound = self.on_one(Place {
            state: &state,
            origin,
        });
        let bound = match bound {
            Ok(bound) => bound,
            Err(e) => {
                // The kernel keeps its previous state on refusal, relative to `self.origin`.
                return Err(e);
            }
        };
        let size = self.tree.radius();
        if bound > IMPRECISE_FRACTION * size {
            let q_max = q.iter().enumerate().fold((0, 0.0f64), |m, (i, &v)| {
                if v.abs() > m.1.abs() {
                    (i, v)
                } else {
                    m
                }
            });
            // Put the previous state back (it was accepted before).
            let previous = self.state.clone();
            let _ = self.on_one(Place {
                state: &previous,
                origin: self.origin,
            });
            return Err(HostError::Imprecise {
                q: q_max,
                bound,
                size,
                precision: match self.precision() {
                    Precision::F32 => "f32",
                    Precision::F64 => "f64",
                },
            });
        }
        self.state = state;
        self.origin = origin;
        Ok(())
    }

    /// The per-coordinate rounding bound `δ` of the body at its state and own origin (the
    /// kernel's [`bdtree_core::Body::error`]: the pipeline's rounding, the model's storage and
    /// the state's rounding to the tree's precision); at a pair's origin `o` it grows by about
    /// `(2M + 96) u ‖t − o‖∞` (`u` the precision's unit roundoff).
    pub fn error_bound(&mut self) -> Result<f64, HostError> {
        self.place(floating_origin(&[self.state.translation]))?;
        Ok(self.on_one(ErrorBound))
    }

    /// Triangle `t` at the body's state in world coordinates, deformed in f64 from the stored
    /// model at the state as given (where f32 contacts, distances and witnesses are measured
    /// again; `None` for a triangle the model does not have).
    pub fn triangle(&mut self, t: u32) -> Result<Option<[[f64; 3]; 3]>, HostError> {
        let origin = floating_origin(&[self.state.translation]);
        self.place(origin)?;
        let exact = Exact::new(&self.state, origin);
        let local = self.on_one(Triangle { t, exact });
        Ok(local.map(|tri| tri.map(|v| std::array::from_fn(|k| v[k] + origin[k]))))
    }

    /// Places the kernel state at `origin` (nothing to do when it already is there).
    pub(crate) fn place(&mut self, origin: [f64; 3]) -> Result<(), HostError> {
        if self.origin == origin {
            return Ok(());
        }
        let state = std::mem::replace(&mut self.state, State::rest(0));
        let placed = self.on_one(Place {
            state: &state,
            origin,
        });
        self.state = state;
        placed?;
        self.origin = origin;
        Ok(())
    }

    /// The kernel body in scalar `S` (`None` in the other precision), at whatever state the
    /// last query left it.
    pub(crate) fn kernel_in<S: InKernel>(
        &mut self,
    ) -> Option<&mut KernelBody<'static, 'static, S>> {
        S::of(&mut self.kernel).map(Owned::body)
    }

    /// Sets the kernel body to the device's state ([`super::device`]): the state rounded to `S`
    /// and taken as exact at the world origin. The body is then at no floating origin: the next
    /// query that places it ([`Body::place`]) places it again.
    pub(crate) fn set_device_state<S: InKernel>(&mut self) -> Result<(), HostError> {
        // NaN equals no origin.
        self.origin = [f64::NAN; 3];
        let Some(kernel) = S::of(&mut self.kernel) else {
            return Err(HostError::MixedPrecision);
        };
        DeviceState { state: &self.state }.run(kernel.body())
    }

    /// Runs `query` on the kernel body (the dispatch on precision).
    pub(crate) fn on_one<Q: OnOne>(&mut self, query: Q) -> Q::Out {
        match &mut self.kernel {
            Kernel::F32(k) => query.run(k.body()),
            Kernel::F64(k) => query.run(k.body()),
        }
    }

    /// Runs `query` on two bodies' kernels (the dispatch on precision).
    pub(crate) fn on_two<Q: OnTwo>(
        a: &mut Body,
        b: &mut Body,
        query: Q,
    ) -> Result<Q::Out, HostError> {
        match (&mut a.kernel, &mut b.kernel) {
            (Kernel::F32(a), Kernel::F32(b)) => Ok(query.run(a.body(), b.body())),
            (Kernel::F64(a), Kernel::F64(b)) => Ok(query.run(a.body(), b.body())),
            _ => Err(HostError::MixedPrecision),
        }
    }

    /// Runs `query` on four bodies' kernels (the dispatch on precision).
    pub(crate) fn on_four<Q: OnFour>(
        bodies: [&mut Body; 4],
        query: Q,
    ) -> Result<Q::Out, HostError> {
        let [w, x, y, z] = bodies;
        match (&mut w.kernel, &mut x.kernel, &mut y.kernel, &mut z.kernel) {
            (Kernel::F32(w), Kernel::F32(x), Kernel::F32(y), Kernel::F32(z)) => {
                Ok(query.run([w.body(), x.body(), y.body(), z.body()]))
            }
            (Kernel::F64(w), Kernel::F64(x), Kernel::F64(y), Kernel::F64(z)) => {
                Ok(query.run([w.body(), x.body(), y.body(), z.body()]))
            }
            _ => Err(HostError::MixedPrecision),
        }
    }
}

/// A triangle deformed in f64 at the state as given, relative to the body's origin.
struct Triangle {
    t: u32,
    exact: Exact,
}

impl OnOne for Triangle {
    type Out = Option<[[f64; 3]; 3]>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        self.exact.triangle(body, self.t)
    }
}

/// The kernel body's error bound.
struct ErrorBound;

impl OnOne for ErrorBound {
    type Out = f64;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> f64 {
        body.error().to_f64()
    }
}

/// A body's state as the caller gave it, in f64, relative to a floating origin: where f32
/// answers are measured again. The stored model is deformed at this state (its quaternion
/// normalised), not at the state's rounding to the tree's precision, so a point computed on
/// it carries the model's storage rounding only; [`bdtree_core::refine_error`], which bounds
/// the kernel's f64 view at the rounded state (that rounding included), bounds it too.
pub(crate) struct Exact {
    rotation: [[f64; 3]; 3],
    translation: [f64; 3],
    q: Vec<f64>,
}

impl Exact {
    /// `state` relative to `origin`.
    pub(crate) fn new(state: &State, origin: [f64; 3]) -> Exact {
        let r = state.rotation;
        let n = r.iter().map(|x| x * x).sum::<f64>().sqrt();
        let unit = if n > 0.0 && n.is_finite() {
            r.map(|x| x / n)
        } else {
            [1.0, 0.0, 0.0, 0.0]
        };
        let t = std::array::from_fn(|k| state.translation[k] - origin[k]);
        let pose = Pose::<f64>::from_quaternion(unit, t).unwrap_or_else(|_| Pose::identity());
        Exact {
            rotation: pose.rotation,
            translation: pose.translation,
            q: state.q.clone(),
        }
    }

    /// The rotation matrix of this state (its quaternion normalised).
    pub(crate) fn rotation(&self) -> &[[f64; 3]; 3] {
        &self.rotation
    }

    /// Vertex `v` of a kernel body's stored model at this state (`None` for a vertex the
    /// model does not have).
    pub(crate) fn vertex<S: Scalar>(
        &self,
        body: &KernelBody<'_, '_, S>,
        v: usize,
    ) -> Option<[f64; 3]> {
        self.model_vertex(body.model(), v)
    }

    /// Vertex `v` of `model` at this state (a body's model, copied out of it where the body
    /// itself is borrowed by a walk).
    pub(crate) fn model_vertex<S: Scalar>(
        &self,
        model: &Model<'_, S>,
        v: usize,
    ) -> Option<[f64; 3]> {
        let mut x = model.position(v)?.map(S::to_f64);
        for (axis, c) in x.iter_mut().enumerate() {
            for (j, &qj) in self.q.iter().enumerate() {
                *c += model.basis_entry(v, axis, j)?.to_f64() * qj;
            }
        }
        let r = &self.rotation;
        Some(std::array::from_fn(|k| {
            r[k][0] * x[0] + r[k][1] * x[1] + r[k][2] * x[2] + self.translation[k]
        }))
    }

    /// Triangle `t` of a kernel body's stored model at this state (`None` for a triangle the
    /// model does not have).
    pub(crate) fn triangle<S: Scalar>(
        &self,
        body: &KernelBody<'_, '_, S>,
        t: u32,
    ) -> Option<[[f64; 3]; 3]> {
        self.model_triangle(body.model(), t)
    }

    /// Triangle `t` of `model` at this state.
    pub(crate) fn model_triangle<S: Scalar>(
        &self,
        model: &Model<'_, S>,
        t: u32,
    ) -> Option<[[f64; 3]; 3]> {
        let face = *model.triangles().get(t as usize)?;
        let mut out = [[0.0; 3]; 3];
        for (o, &v) in out.iter_mut().zip(&face) {
            *o = self.model_vertex(model, v as usize)?;
        }
        Some(out)
    }
}

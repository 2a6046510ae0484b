//! A body's per-step state: pose, reduced coordinates, and the lazy cache of updated spheres.

use crate::image::Image;
use crate::model::Model;
use crate::pose::Pose;
use crate::scalar::Scalar;
use crate::sphere::{error_bound, mode_weights, update};
use crate::tree::TreeView;

/// One slot of a body's sphere cache: the world-space sphere `[x, y, z, r]` of a node, valid
/// for the step whose epoch it carries. Storage is the caller's (`[CacheEntry<S>; NODES]` in a
/// `static`, a stack array, or a `Vec` on the host).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct CacheEntry<S: Scalar> {
    sphere: [S; 4],
    epoch: u32,
}

/// One slot of a body's optional vertex cache: a deformed world vertex, valid for the step
/// whose epoch it carries (see [`Body::with_vertex_cache`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct VertexEntry<S: Scalar> {
    position: [S; 3],
    epoch: u32,
}

/// Why a body could not be set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum BodyError {
    /// The vertex cache has fewer entries than the model has vertices.
    VertexCacheTooSmall {
        /// Entries needed (the vertex count).
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// The cache has fewer entries than the tree has nodes.
    CacheTooSmall {
        /// Entries needed (the node count).
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// The tree has more modes than the body's `MAX_MODES` capacity.
    TooManyModes {
        /// Modes of the tree.
        modes: usize,
        /// The capacity.
        capacity: usize,
    },
    /// The tree and the model disagree (triangle count or modes).
    ModelMismatch,
    /// `q` has the wrong length.
    WrongModeCount {
        /// Modes of the body.
        expected: usize,
        /// Length of `q`.
        actual: usize,
    },
    /// `q` holds a NaN or an infinity.
    NonFiniteCoordinates,
}

impl core::fmt::Display for BodyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::CacheTooSmall { needed, given } => {
                write!(
                    f,
                    "sphere cache has {given} entries but the tree has {needed} nodes"
                )
            }
            Self::VertexCacheTooSmall { needed, given } => {
                write!(
                    f,
                    "vertex cache has {given} entries but the model has {needed} vertices"
                )
            }
            Self::TooManyModes { modes, capacity } => {
                write!(
                    f,
                    "tree has {modes} modes but the body holds at most {capacity}"
                )
            }
            Self::ModelMismatch => write!(f, "tree and model disagree"),
            Self::WrongModeCount { expected, actual } => {
                write!(
                    f,
                    "q has {actual} entries but the body has {expected} modes"
                )
            }
            Self::NonFiniteCoordinates => write!(f, "q has a non-finite entry"),
        }
    }
}

impl core::error::Error for BodyError {}

/// A reduced deformable body in a scene: its tree and model, its current pose and `q`, and a
/// cache of world-space spheres updated lazily — each node at most once per step, in whatever
/// order queries reach it, and only the nodes some query reaches.
///
/// `MAX_MODES` is the capacity for `q` (checked against the tree when the body is made).
pub struct Body<'t, 'c, S: Scalar, const MAX_MODES: usize = 32> {
    tree: TreeView<'t, S>,
    model: Model<'t, S>,
    cache: &'c mut [CacheEntry<S>],
    vertices: &'c mut [VertexEntry<S>],
    epoch: u32,
    pose: Pose<S>,
    q: [S; MAX_MODES],
    weights: [[S; 4]; MAX_MODES],
    error: S,
    updates: u32,
}

impl<'t, 'c, S: Scalar, const MAX_MODES: usize> Body<'t, 'c, S, MAX_MODES> {
    /// A body over an image, with the caller's cache (at least one entry per node), at the
    /// identity pose and `q = 0`.
    pub fn new(image: &Image<'t, S>, cache: &'c mut [CacheEntry<S>]) -> Result<Self, BodyError> {
        Self::from_parts(image.tree, image.model, cache)
    }

    /// A body from a tree and a model kept separately (e.g. the model in flash).
    pub fn from_parts(
        tree: TreeView<'t, S>,
        model: Model<'t, S>,
        cache: &'c mut [CacheEntry<S>],
    ) -> Result<Self, BodyError> {
        let needed = tree.node_count();
        if cache.len() < needed {
            return Err(BodyError::CacheTooSmall {
                needed,
                given: cache.len(),
            });
        }
        if tree.modes() > MAX_MODES {
            return Err(BodyError::TooManyModes {
                modes: tree.modes(),
                capacity: MAX_MODES,
            });
        }
        if tree.modes() != model.modes() || tree.triangle_count() != model.triangles().len() {
            return Err(BodyError::ModelMismatch);
        }
        for entry in cache.iter_mut() {
            entry.epoch = 0;
        }
        let mut body = Self {
            tree,
            model,
            cache,
            vertices: &mut [],
            epoch: 1,
            pose: Pose::identity(),
            q: [S::ZERO; MAX_MODES],
            weights: [[S::ZERO; 4]; MAX_MODES],
            error: S::ZERO,
            updates: 0,
        };
        body.error = body.compute_error();
        Ok(body)
    }

    /// Adds a cache of deformed world vertices (at least one entry per model vertex): each
    /// vertex a leaf test reaches is then deformed once per step instead of once per test.
    /// Costs 16 bytes per vertex in f32 (28 in f64); worth it when leaf tests share triangles,
    /// as they do in any contact patch.
    pub fn with_vertex_cache(mut self, cache: &'c mut [VertexEntry<S>]) -> Result<Self, BodyError> {
        let needed = self.model.positions().len();
        if cache.len() < needed {
            return Err(BodyError::VertexCacheTooSmall {
                needed,
                given: cache.len(),
            });
        }
        for entry in cache.iter_mut() {
            entry.epoch = 0;
        }
        self.vertices = cache;
        Ok(self)
    }

    fn compute_error(&self) -> S {
        let m = self.tree.modes();
        error_bound(
            self.tree.magnitude(),
            self.tree.mode_magnitudes(),
            self.q.get(..m).unwrap_or(&[]),
            self.pose.translation,
        )
    }

    /// Starts a new step: sets the pose and `q`, and invalidates every cached sphere in O(1)
    /// (by advancing the epoch; the cache is cleared once every 2³² − 1 steps when it wraps).
    /// Cost: `O(M)`.
    pub fn set_state(&mut self, pose: Pose<S>, q: &[S]) -> Result<(), BodyError> {
        let m = self.tree.modes();
        if q.len() != m {
            return Err(BodyError::WrongModeCount {
                expected: m,
                actual: q.len(),
            });
        }
        if q.iter().any(|x| !x.is_finite()) {
            return Err(BodyError::NonFiniteCoordinates);
        }
        for (dst, &src) in self.q.iter_mut().zip(q) {
            *dst = src;
        }
        mode_weights(q, &mut self.weights);
        self.pose = pose;
        self.error = self.compute_error();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for entry in self.cache.iter_mut() {
                entry.epoch = 0;
            }
            for entry in self.vertices.iter_mut() {
                entry.epoch = 0;
            }
            self.epoch = 1;
        }
        Ok(())
    }

    /// The tree.
    pub fn tree(&self) -> &TreeView<'t, S> {
        &self.tree
    }

    /// The model.
    pub fn model(&self) -> &Model<'t, S> {
        &self.model
    }

    /// The current pose.
    pub fn pose(&self) -> &Pose<S> {
        &self.pose
    }

    /// The current reduced coordinates.
    pub fn q(&self) -> &[S] {
        self.q.get(..self.tree.modes()).unwrap_or(&[])
    }

    /// The per-coordinate rounding-error bound `δ` of this step (see [`crate::sphere`]).
    pub fn error(&self) -> S {
        self.error
    }

    /// Sphere updates performed since the body was made (wrapping counter).
    pub fn update_count(&self) -> u32 {
        self.updates
    }

    /// The world-space sphere `[x, y, z, r]` of a node for this step: computed on first use
    /// (exact update, `4M + 9` multiply-adds, inflated by `3δ`), then read from the cache.
    /// The sphere contains every deformed world vertex of the node. `None` for a bad index.
    #[inline(always)]
    pub fn sphere(&mut self, node: usize) -> Option<[S; 4]> {
        let entry = self.cache.get(node)?;
        if entry.epoch == self.epoch {
            return Some(entry.sphere);
        }
        self.refresh(node)
    }

    /// The cache miss of [`Body::sphere`], kept out of line so the hit stays a load and a
    /// compare in the traversal loop.
    #[inline(never)]
    fn refresh(&mut self, node: usize) -> Option<[S; 4]> {
        let epoch = self.epoch;
        let record = self.tree.record(node)?;
        let m = self.tree.modes();
        let local = update(record, self.weights.get(..m)?);
        let c = self.pose.apply([local[0], local[1], local[2]]);
        let three = S::from_u32(3);
        let sphere = [c[0], c[1], c[2], local[3] + three * self.error];
        *self.cache.get_mut(node)? = CacheEntry { sphere, epoch };
        self.updates = self.updates.wrapping_add(1);
        Some(sphere)
    }

    /// Whether the node's sphere is already up to date for this step.
    pub fn is_cached(&self, node: usize) -> bool {
        self.cache.get(node).is_some_and(|e| e.epoch == self.epoch)
    }

    /// The deformed world positions of a triangle's vertices: `3 (3M + 9)` multiply-adds, or
    /// cache reads for vertices already deformed this step when the body has a vertex cache.
    pub fn world_triangle(&mut self, triangle: usize) -> Option<[[S; 3]; 3]> {
        let face = *self.model.triangles().get(triangle)?;
        let m = self.tree.modes();
        let q = self.q.get(..m)?;
        let mut out = [[S::ZERO; 3]; 3];
        for (o, &v) in out.iter_mut().zip(face.iter()) {
            let v = v as usize;
            match self.vertices.get_mut(v) {
                Some(entry) if entry.epoch == self.epoch => *o = entry.position,
                Some(entry) => {
                    *o = self.pose.apply(self.model.deformed(v, q)?);
                    *entry = VertexEntry {
                        position: *o,
                        epoch: self.epoch,
                    };
                }
                None => *o = self.pose.apply(self.model.deformed(v, q)?),
            }
        }
        Some(out)
    }
}

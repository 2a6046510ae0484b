//! A body's per-step state: pose, reduced coordinates, and the lazy cache of updated spheres.

use crate::bounds::coherence::{coherent_radius, drift_norm, ReferenceEntry};
use crate::bounds::sphere::rounding_bound;
use crate::bounds::track_cache::TrackEntry;
use crate::geometry::pose::Pose;
use crate::image::model::Model;
use crate::image::tree::{TreeView, NONE};
use crate::image::Image;
use crate::scalar::Scalar;

mod anchors;
mod boxes;
mod error;
mod fitted;
mod refit;
mod regions;
mod state;

use anchors::Coherence;
use regions::{support_of, Regions};

pub use boxes::BoxEntry;
pub use error::BodyError;
pub use state::floating_origin;

/// One slot of a body's sphere cache: the world-space sphere `[x, y, z, r]` of a node, valid
/// for the step whose epoch it carries. Storage is the caller's (`[CacheEntry<S>; NODES]` in a
/// `static`, a stack array, or a `Vec` on the host).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct CacheEntry<S: Scalar> {
    pub(crate) sphere: [S; 4],
    pub(crate) epoch: u32,
}

impl<S: Scalar> CacheEntry<S> {
    /// An unused slot (the `Default`), usable in `const` and `static` initialisers:
    /// `static mut CACHE: [CacheEntry<f32>; 4095] = [CacheEntry::EMPTY; 4095];`.
    pub const EMPTY: Self = Self {
        sphere: [S::ZERO; 4],
        epoch: 0,
    };
}

/// One slot of a body's optional vertex cache: a deformed world vertex, valid for the step
/// whose epoch it carries (see [`Body::with_vertex_cache`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct VertexEntry<S: Scalar> {
    pub(crate) position: [S; 3],
    pub(crate) epoch: u32,
}

impl<S: Scalar> VertexEntry<S> {
    /// An unused slot (the `Default`), usable in `const` and `static` initialisers.
    pub const EMPTY: Self = Self {
        position: [S::ZERO; 3],
        epoch: 0,
    };
}

/// A reduced deformable body in a scene: its tree and model, its current pose and `q`, and a
/// cache of world-space spheres updated lazily — each node at most once per step, in whatever
/// order queries reach it, and only the nodes some query reaches.
///
/// Every array it uses is the caller's: the sphere cache (one [`CacheEntry`] per node) and the
/// mode slots (one `[S; 4]` per mode, see [`Body::new`]); optional parts — vertex cache,
/// temporal coherence, deformation regions — bring their own storage when turned on. The
/// body itself is a few hundred bytes whatever the mode count (see the README for `size_of`).
pub struct Body<'t, 'c, S: Scalar> {
    tree: TreeView<'t, S>,
    model: Model<'t, S>,
    cache: &'c mut [CacheEntry<S>],
    vertices: &'c mut [VertexEntry<S>],
    /// The optional node-box cache of self walks ([`Body::with_box_cache`]).
    boxes: &'c mut [BoxEntry<S>],
    /// The optional track cache of swept queries this body ends ([`Body::with_track_cache`]).
    tracks: &'c mut [TrackEntry<S>],
    /// The mark of the last swept query's tracks.
    track_epoch: u32,
    /// Per mode `[q_j, q_j, q_j, |q_j|]` (exactly `M` entries): the update's weights.
    weights: &'c mut [[S; 4]],
    /// `q` (exactly `M` entries), contiguous for the vertex deformation.
    q: &'c mut [S],
    epoch: u32,
    pose: Pose<S>,
    /// A bound on how far the stored state (pose and `q` in `S`) moves any vertex from the
    /// caller's state (see [`Body::set_state_f64`]); 0 when the caller gave `S` values.
    state_error: S,
    error: S,
    /// `3 · error`: the inflation of exact spheres this step (kept for the VFP kernel).
    inflation: S,
    updates: u32,
    coherence: Option<Coherence<'c, S>>,
    regions: Option<Regions<'c>>,
    /// No vertex cache, no coherence, no regions: a cache miss is the plain exact update (one
    /// flag for the hot path instead of three checks).
    plain: bool,
}

/// Copies `from` into `to` over their common length: no length check to fail, and a `memcpy`.
fn copy_prefix<T: Copy>(to: &mut [T], from: &[T]) {
    let n = to.len().min(from.len());
    if let (Some(to), Some(from)) = (to.get_mut(..n), from.get(..n)) {
        to.copy_from_slice(from);
    }
}

/// Scalars of mode storage a body needs for `modes` modes (`5M`: the update weights
/// `[q_j, q_j, q_j, |q_j|]` and `q` itself); see [`Body::new`].
pub const fn mode_storage(modes: usize) -> usize {
    modes.saturating_mul(5)
}

/// Splits caller mode storage into `M` weights and `M` coordinates, or `None` when short.
fn split_modes<S: Scalar>(storage: &mut [S], m: usize) -> Option<(&mut [[S; 4]], &mut [S])> {
    let storage = storage.get_mut(..mode_storage(m))?;
    let (weights, q) = storage.split_at_mut_checked(m.checked_mul(4)?)?;
    let weights: &mut [[S; 4]] = bytemuck::try_cast_slice_mut(weights).ok()?;
    Some((weights, q))
}

impl<'t, 'c, S: Scalar> Body<'t, 'c, S> {
    /// A body over an image, at the identity pose and `q = 0`, with the caller's storage:
    /// `cache`, at least one entry per node ([`TreeView::node_count`]), and `modes`, at least
    /// [`mode_storage`]`(M)` = `5M` scalars ([`TreeView::modes`]; they hold `q` and the sphere
    /// update's weights `[q_j, q_j, q_j, |q_j|]`). A rigid tree needs none: pass `&mut []`.
    ///
    /// ```ignore
    /// let mut cache = [CacheEntry::EMPTY; NODES];
    /// let mut modes = [0.0f32; bdtree_core::body::mode_storage(10)];
    /// let body = Body::new(&image, &mut cache, &mut modes)?;
    /// ```
    pub fn new(
        image: &Image<'t, S>,
        cache: &'c mut [CacheEntry<S>],
        modes: &'c mut [S],
    ) -> Result<Self, BodyError> {
        Self::from_parts(image.tree, image.model, cache, modes)
    }

    /// A body from a tree and a model kept separately (e.g. the model in flash).
    pub fn from_parts(
        tree: TreeView<'t, S>,
        model: Model<'t, S>,
        cache: &'c mut [CacheEntry<S>],
        modes: &'c mut [S],
    ) -> Result<Self, BodyError> {
        let needed = tree.node_count();
        if cache.len() < needed {
            return Err(BodyError::CacheTooSmall {
                needed,
                given: cache.len(),
            });
        }
        let m = tree.modes();
        let given = modes.len();
        let Some((weights, q)) = split_modes(modes, m) else {
            return Err(BodyError::ModeStorageTooSmall {
                needed: mode_storage(m),
                given,
            });
        };
        // A bounded tree (no leaves below its depth) comes without a mesh.
        let triangles = if tree.is_bounded() {
            0
        } else {
            tree.triangle_count()
        };
        if m != model.modes() || triangles != model.triangles().len() {
            return Err(BodyError::ModelMismatch);
        }
        for entry in cache.iter_mut() {
            entry.epoch = 0;
        }
        weights.fill([S::ZERO; 4]);
        q.fill(S::ZERO);
        let mut body = Self {
            tree,
            model,
            cache,
            vertices: &mut [],
            boxes: &mut [],
            tracks: &mut [],
            track_epoch: 0,
            weights,
            q,
            epoch: 1,
            pose: Pose::identity(),
            state_error: S::ZERO,
            error: S::ZERO,
            inflation: S::ZERO,
            updates: 0,
            coherence: None,
            regions: None,
            plain: true,
        };
        body.error = body.compute_error();
        body.inflation = S::from_u32(3) * body.error;
        Ok(body)
    }

    /// Adds a cache of deformed world vertices (at least one entry per model vertex): each
    /// vertex a leaf test reaches is then deformed once per step instead of once per test.
    /// Costs 16 bytes per vertex in f32 (32 in f64); worth it when leaf tests share triangles,
    /// as they do in any contact patch.
    pub fn with_vertex_cache(mut self, cache: &'c mut [VertexEntry<S>]) -> Result<Self, BodyError> {
        let needed = self.model.vertex_count();
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
        self.plain = self.vertices.is_empty() && self.plain;
        Ok(self)
    }

    /// Adds a cache of node tracks (at least one entry per node) for the swept queries whose
    /// motion ends at this body ([`crate::collide_swept`]'s `a_to`, `b_to`): each node's track
    /// over the motion is then computed once per query instead of at every visit. Costs 36
    /// bytes per node in f32 (72 in f64).
    pub fn with_track_cache(mut self, cache: &'c mut [TrackEntry<S>]) -> Result<Self, BodyError> {
        let needed = self.tree.node_count();
        if cache.len() < needed {
            return Err(BodyError::TrackCacheTooSmall {
                needed,
                given: cache.len(),
            });
        }
        for entry in cache.iter_mut() {
            entry.epoch = 0;
        }
        self.tracks = cache;
        self.track_epoch = 0;
        Ok(self)
    }

    /// Lends the track cache (empty when the body has none) to one swept query with a mark of
    /// its own: entries of earlier queries are stale (the cache is cleared when the mark wraps).
    pub(crate) fn lend_tracks(&mut self) -> (&'c mut [TrackEntry<S>], u32) {
        self.track_epoch = self.track_epoch.wrapping_add(1);
        if self.track_epoch == 0 {
            for entry in self.tracks.iter_mut() {
                entry.epoch = 0;
            }
            self.track_epoch = 1;
        }
        (core::mem::take(&mut self.tracks), self.track_epoch)
    }

    /// Takes back the cache [`Body::lend_tracks`] lent.
    pub(crate) fn return_tracks(&mut self, tracks: &'c mut [TrackEntry<S>]) {
        self.tracks = tracks;
    }

    fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for entry in self.cache.iter_mut() {
                entry.epoch = 0;
            }
            for entry in self.vertices.iter_mut() {
                entry.epoch = 0;
            }
            for entry in self.boxes.iter_mut() {
                entry.epoch = 0;
            }
            if let Some(r) = self.regions.as_mut() {
                r.mode_step.fill(0);
                r.pose_step = 0;
            }
            self.epoch = 1;
        }
    }

    /// The rounding bound `δ` for coordinates `q` at the current pose and state error.
    fn error_at(&self, q: &[S]) -> S {
        self.bound(q.iter().copied(), self.pose.translation, self.state_error)
    }

    /// The bound `δ` for coordinates `q`, a translation and a state error: the rounding of the
    /// f32 pipeline ([`crate::bounds::sphere::error_bound`]), a 16-bit model's distance from the model it was made
    /// from (per coordinate, twice over for the rotation to world axes and this sum's own
    /// rounding; see `crate::image`), and the state's own rounding.
    fn bound(&self, q: impl Iterator<Item = S> + Clone, translation: [S; 3], state: S) -> S {
        self.bound_and_magnitude(q, translation, state).0
    }

    /// [`Body::bound`], and the state's magnitude `X₀ + Σ_j A_j |q_j| + ‖t‖∞` (one pass over
    /// `q`; the same arithmetic as [`crate::bounds::sphere::error_bound`]).
    fn bound_and_magnitude(
        &self,
        q: impl Iterator<Item = S> + Clone,
        translation: [S; 3],
        state: S,
    ) -> (S, S) {
        let mut x = self.tree.magnitude();
        let mut modes = 0u32;
        for (&a, qj) in self.tree.mode_magnitudes().iter().zip(q.clone()) {
            x = x + a * qj.abs();
            modes = modes.saturating_add(1);
        }
        let rounding = rounding_bound(x, modes, translation);
        let storage = self.model.storage_error(q);
        let [t0, t1, t2] = translation.map(S::abs);
        (
            rounding + (storage + storage) + state,
            x + t0.max(t1).max(t2),
        )
    }

    fn compute_error(&self) -> S {
        self.error_at(self.q)
    }

    /// Starts a new step: sets the pose and `q`, and invalidates every cached sphere in O(1)
    /// (by advancing the epoch; the cache is cleared once every 2³² − 1 steps when it wraps).
    /// Cost: `O(M)`.
    ///
    /// The state is taken as exact: answers are conservative against this pose and `q`. A
    /// caller holding its state in f64 for an f32 body should use [`Body::set_state_f64`],
    /// which subtracts a floating origin before rounding and widens every test by the
    /// rounding. A refused state (wrong length, a non-finite value, or coordinates beyond
    /// [`Scalar::STATE_LIMIT`]: [`BodyError::OutOfRange`]) changes nothing: the body keeps its
    /// previous state and cached spheres.
    pub fn set_state(&mut self, pose: Pose<S>, q: &[S]) -> Result<(), BodyError> {
        self.commit(pose, q.iter().copied(), S::ZERO)
    }

    /// [`Body::set_state`] with the bound `state_error` on how far the given state is from the
    /// caller's own (0 when they are the same).
    pub(crate) fn commit(
        &mut self,
        pose: Pose<S>,
        q: impl ExactSizeIterator<Item = S> + Clone,
        state_error: S,
    ) -> Result<(), BodyError> {
        let m = self.tree.modes();
        if q.len() != m {
            return Err(BodyError::WrongModeCount {
                expected: m,
                actual: q.len(),
            });
        }
        if q.clone().any(|x| !x.is_finite()) {
            return Err(BodyError::NonFiniteCoordinates);
        }
        if pose.rotation.iter().flatten().any(|x| !x.is_finite())
            || pose.translation.iter().any(|x| !x.is_finite())
        {
            return Err(BodyError::Pose(crate::geometry::pose::PoseError::NonFinite));
        }
        let (error, magnitude) = self.bound_and_magnitude(q.clone(), pose.translation, state_error);
        // `!(x <= limit)` also refuses a NaN.
        if !(magnitude.is_finite() && magnitude <= S::STATE_LIMIT) {
            return Err(BodyError::OutOfRange);
        }
        let pose_changed = pose != self.pose;
        let step = self.epoch.wrapping_add(1);
        // Region bookkeeping: the step at which each coordinate last changed (marks are kept
        // as the next epoch; a coherent body ignores them).
        let mut marks = self.regions.as_mut().map(|r| r.mode_step.iter_mut());
        for ((w, dst), qj) in self.weights.iter_mut().zip(self.q.iter_mut()).zip(q) {
            let mark = marks.as_mut().and_then(|it| it.next());
            if *dst != qj {
                if let Some(mark) = mark {
                    *mark = u64::from(step);
                }
            }
            *dst = qj;
            *w = [qj, qj, qj, qj.abs()];
        }
        self.pose = pose;
        self.state_error = state_error;
        self.error = error;
        self.inflation = S::from_u32(3) * self.error;
        if let Some(c) = self.coherence.as_mut() {
            c.steps = c.steps.saturating_add(1);
            c.drift = drift_norm(self.q.iter().copied(), c.q_ref.iter().copied());
        }
        if self.coherence.is_some() {
            if self.anchor_due() {
                self.reanchor();
                return Ok(());
            }
            let reference = match self.coherence.as_ref() {
                Some(c) => self.error_at(c.q_ref),
                None => S::ZERO,
            };
            if let Some(c) = self.coherence.as_mut() {
                c.error = self.error.max(reference);
            }
        }
        self.next_epoch();
        if pose_changed {
            if let Some(r) = self.regions.as_mut() {
                r.pose_step = self.epoch;
            }
        }
        Ok(())
    }

    /// The bound on how far the stored state moves any vertex from the caller's state: 0 after
    /// [`Body::set_state`], the rounding of the f64 state (and its floating origin) after
    /// [`Body::set_state_f64`]. It is part of [`Body::error`], so every query and
    /// [`crate::refine()`] cover it.
    pub fn state_error(&self) -> S {
        self.state_error
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

    /// The current reduced coordinates `q`.
    pub fn q(&self) -> &[S] {
        self.q
    }

    /// The current mode weights `[q_j, q_j, q_j, |q_j|]`, one per mode (what the sphere update
    /// multiplies the node rows by).
    pub fn weights(&self) -> &[[S; 4]] {
        self.weights
    }

    /// The per-coordinate rounding-error bound `δ` of this step (see [`crate::bounds::sphere`]); for a
    /// 16-bit model it includes `2(e_p + Σ_j e_j |q_j|)`, the model's distance from the one it
    /// was made from (see [`crate::image`]).
    pub fn error(&self) -> S {
        self.error
    }

    /// The rounding-error bound the spheres of this step are inflated by (`3×` it): [`error`]
    /// for exact updates, `max(δ(q), δ(q_r))` for coherent ones.
    ///
    /// [`error`]: Body::error
    pub fn sphere_error(&self) -> S {
        self.coherence.as_ref().map_or(self.error, |c| c.error)
    }

    /// The step id: changes with every [`Body::set_state`] and re-anchoring (wrapping), so a
    /// query spread over several calls can tell that the state it started on is gone.
    pub fn step(&self) -> u32 {
        self.epoch
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

    /// Lends the sphere cache to a walk (`walk::Side`), leaving an empty one behind until
    /// [`Body::return_cache`].
    #[inline(always)]
    pub(crate) fn lend_cache(&mut self) -> &'c mut [CacheEntry<S>] {
        core::mem::take(&mut self.cache)
    }

    /// Takes back the cache [`Body::lend_cache`] lent.
    #[inline(always)]
    pub(crate) fn return_cache(&mut self, cache: &'c mut [CacheEntry<S>]) {
        self.cache = cache;
    }

    /// Lends the vertex cache (empty when the body has none) as [`Body::lend_cache`] the
    /// sphere cache.
    #[cfg(feature = "speed")]
    #[inline(always)]
    pub(crate) fn lend_vertices(&mut self) -> &'c mut [VertexEntry<S>] {
        core::mem::take(&mut self.vertices)
    }

    /// Takes back the vertex cache [`Body::lend_vertices`] lent.
    #[cfg(feature = "speed")]
    #[inline(always)]
    pub(crate) fn return_vertices(&mut self, vertices: &'c mut [VertexEntry<S>]) {
        self.vertices = vertices;
    }

    /// The cache miss of [`Body::sphere`], kept out of line so the hit stays a load and a
    /// compare in the traversal loop. A node other than the root is computed with its sibling
    /// (the other node of its pair, `2k + 1` and `2k + 2`): an expansion tests both children, and
    /// the pair's entries are then always of the same step, so a walk checks one for both
    /// (`walk::Side::child_spheres`).
    #[inline(never)]
    pub(crate) fn refresh(&mut self, node: usize) -> Option<[S; 4]> {
        if node == 0 {
            return self.refresh_one(0);
        }
        let left = ((node - 1) & !1) + 1;
        let right = left + 1;
        // A plain body on hard-float ARM with the `asm` feature: both nodes by the VFP kernel.
        #[cfg(all(feature = "asm", target_arch = "arm", target_abi = "eabihf"))]
        if self.plain && self.refresh_vfp(left).is_some() && self.refresh_vfp(right).is_some() {
            return self.cache.get(node).map(|e| e.sphere);
        }
        #[cfg(feature = "speed")]
        if self.coherence.is_none() && self.regions.is_none() {
            if let Some(()) = self.refresh_pair(left) {
                return self.cache.get(node).map(|e| e.sphere);
            }
        }
        let (first, second) = if node == left {
            (left, right)
        } else {
            (right, left)
        };
        let sphere = self.refresh_one(first)?;
        // The sibling: absent only for a node the image's pairs do not cover (an index the
        // caller made up).
        if self
            .cache
            .get(second)
            .is_some_and(|e| e.epoch != self.epoch)
        {
            self.refresh_one(second);
        }
        Some(sphere)
    }

    /// Both nodes of the sibling pair `left`, `left + 1` of a body without coherence or regions
    /// and with scalar rows, the common case, in one frame: each node's exact update (the VFP
    /// kernel with the `asm` feature on hard-float ARM; or, with a vertex cache, a leaf's sphere
    /// from its triangle), world transform, inflation and cache write inline. `None` for
    /// quantized rows or a bad index: the general path then runs (recomputing what was done).
    #[cfg(feature = "speed")]
    #[inline(always)]
    fn refresh_pair(&mut self, left: usize) -> Option<()> {
        let right = left.checked_add(1)?;
        let links = self.tree.links_all();
        let (lk, rk) = (*links.get(left)?, *links.get(right)?);
        let (lr, rr) = (self.tree.record(left)?, self.tree.record(right)?);
        let has_vertices = !self.vertices.is_empty();
        for (node, link, record) in [(left, lk, lr), (right, rk, rr)] {
            let sphere = if has_vertices && link[2] != NONE {
                self.triangle_sphere(link[2] as usize)?
            } else {
                #[cfg(all(feature = "asm", target_arch = "arm", target_abi = "eabihf"))]
                if self.refresh_vfp(node).is_some() {
                    continue;
                }
                let [x, y, z, r] = crate::bounds::sphere::update(record, self.weights);
                let [cx, cy, cz] = self.pose.apply([x, y, z]);
                [cx, cy, cz, r + self.inflation]
            };
            *self.cache.get_mut(node)? = CacheEntry {
                sphere,
                epoch: self.epoch,
            };
            self.updates = self.updates.wrapping_add(1);
        }
        Some(())
    }

    /// One node's sphere computed and cached (out of line: the general path, for bodies with
    /// coherence, regions or quantized rows, two calls per pair).
    #[inline(never)]
    fn refresh_one(&mut self, node: usize) -> Option<[S; 4]> {
        if self.plain {
            // The exact update, the common case: straight-line, no detours through tuples.
            #[cfg(all(feature = "asm", target_arch = "arm", target_abi = "eabihf"))]
            if let Some(sphere) = self.refresh_vfp(node) {
                return Some(sphere);
            }
            let local = self.tree.update(node, self.weights)?;
            return self.store(node, local, self.error);
        }
        self.refresh_special(node)
    }

    /// The exact f32 update of a scalar-row tree as one VFP kernel (update, world transform,
    /// inflation; see [`crate::bounds::sphere::vfp::world_sphere`]), written straight into the cache.
    /// `None` when it does not apply (f64, quantized rows, a bad index).
    #[cfg(all(feature = "asm", target_arch = "arm", target_abi = "eabihf"))]
    #[inline(always)]
    fn refresh_vfp(&mut self, node: usize) -> Option<[S; 4]> {
        if S::BYTES != 4 {
            return None;
        }
        let record = bytemuck::try_cast_slice::<[S; 4], [f32; 4]>(self.tree.record(node)?).ok()?;
        let weights = bytemuck::try_cast_slice::<[S; 4], [f32; 4]>(self.weights).ok()?;
        let rotation = bytemuck::try_cast_ref::<[[S; 3]; 3], [[f32; 3]; 3]>(&self.pose.rotation);
        let translation = bytemuck::try_cast_ref::<[S; 3], [f32; 3]>(&self.pose.translation);
        let inflation = bytemuck::try_cast_ref::<S, f32>(&self.inflation).ok()?;
        let entry = self.cache.get_mut(node)?;
        let sphere = bytemuck::try_cast_mut::<[S; 4], [f32; 4]>(&mut entry.sphere).ok()?;
        crate::bounds::sphere::vfp::world_sphere(
            record,
            weights,
            rotation.ok()?,
            translation.ok()?,
            inflation,
            sphere,
        )?;
        entry.epoch = self.epoch;
        self.updates = self.updates.wrapping_add(1);
        Some(entry.sphere)
    }

    /// Transforms a body-frame sphere to the world, inflates it by `3 · error` and caches it.
    #[inline(always)]
    fn store(&mut self, node: usize, local: [S; 4], error: S) -> Option<[S; 4]> {
        let c = self.pose.apply([local[0], local[1], local[2]]);
        let three = S::from_u32(3);
        let sphere = [c[0], c[1], c[2], local[3] + three * error];
        *self.cache.get_mut(node)? = CacheEntry {
            sphere,
            epoch: self.epoch,
        };
        self.updates = self.updates.wrapping_add(1);
        Some(sphere)
    }

    /// The cache miss with a vertex cache, temporal coherence or deformation regions on.
    #[inline(never)]
    fn refresh_special(&mut self, node: usize) -> Option<[S; 4]> {
        if self.coherence.is_none() && self.regions.is_none() {
            // A vertex cache alone: leaves from their triangles, other nodes as `refresh`.
            if let Some(sphere) = self.leaf_sphere(node) {
                return sphere;
            }
            #[cfg(all(feature = "asm", target_arch = "arm", target_abi = "eabihf"))]
            if let Some(sphere) = self.refresh_vfp(node) {
                return Some(sphere);
            }
            let local = self.tree.update(node, self.weights)?;
            return self.store(node, local, self.error);
        }
        if self.coherence.is_none() {
            if let Some(sphere) = self.renew(node) {
                return Some(sphere);
            }
        }
        if let Some(sphere) = self.leaf_sphere(node) {
            return sphere;
        }
        let (local, error) = match (self.coherence.is_some(), self.regions.is_some()) {
            (false, false) => (self.tree.update(node, self.weights)?, self.error),
            (false, true) => {
                let support = support_of(self.regions.as_ref()?, node)?;
                let local = self.tree.update_sparse(node, self.weights, support)?;
                (local, self.error)
            }
            (true, _) => self.coherent(node)?,
        };
        self.store(node, local, error)
    }

    /// With a vertex cache, a leaf's sphere from its deformed triangle, cached (`Some(None)`
    /// for a bad index); `None` for internal nodes and bodies without a vertex cache.
    #[inline(always)]
    fn leaf_sphere(&mut self, node: usize) -> Option<Option<[S; 4]>> {
        if self.vertices.is_empty() {
            return None;
        }
        let [_, _, triangle, _] = self.tree.links(node)?;
        if triangle == NONE {
            return None;
        }
        Some(self.triangle_sphere(triangle as usize).and_then(|sphere| {
            *self.cache.get_mut(node)? = CacheEntry {
                sphere,
                epoch: self.epoch,
            };
            self.updates = self.updates.wrapping_add(1);
            Some(sphere)
        }))
    }

    /// A leaf's sphere from its deformed world triangle (through the vertex cache): the
    /// smallest sphere on the longest edge when it holds the third vertex, else the centroid's,
    /// with the radius grown for its own rounding and inflated by `3δ` like every sphere. Much
    /// tighter than the leaf's BD-Tree sphere, whose radius carries `Σ |q_j| r_j`.
    fn triangle_sphere(&mut self, triangle: usize) -> Option<[S; 4]> {
        let world = self.world_triangle(triangle)?;
        Some(self.triangle_bound(world))
    }

    /// [`Body::triangle_sphere`] of a triangle's deformed world vertices.
    #[inline(always)]
    pub(crate) fn triangle_bound(&self, [a, b, c]: [[S; 3]; 3]) -> [S; 4] {
        let sub = |p: [S; 3], q: [S; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
        let norm2 = |d: [S; 3]| d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        let half = S::ONE / S::from_u32(2);
        let mid = |p: [S; 3], q: [S; 3]| {
            [
                (p[0] + q[0]) * half,
                (p[1] + q[1]) * half,
                (p[2] + q[2]) * half,
            ]
        };
        // The longest edge and the vertex opposite it.
        let (ab, bc, ca) = (norm2(sub(b, a)), norm2(sub(c, b)), norm2(sub(a, c)));
        let (p, q, o) = if ab >= bc && ab >= ca {
            (a, b, c)
        } else if bc >= ca {
            (b, c, a)
        } else {
            (c, a, b)
        };
        let mut center = mid(p, q);
        // Whatever the centre's rounding, the radius is measured from it to every vertex:
        // the three distances the choice of the centre measures, when it stays.
        let ends = norm2(sub(p, center)).max(norm2(sub(q, center)));
        let opposite = norm2(sub(o, center));
        let mut r2 = ends.max(opposite);
        if opposite > ends {
            let third = S::ONE / S::from_u32(3);
            center = [
                (a[0] + b[0] + c[0]) * third,
                (a[1] + b[1] + c[1]) * third,
                (a[2] + b[2] + c[2]) * third,
            ];
            r2 = norm2(sub(a, center))
                .max(norm2(sub(b, center)))
                .max(norm2(sub(c, center)));
        }
        let grow = S::ONE + S::from_u32(8) * S::UNIT_ROUNDOFF;
        let r = r2.sqrt() * grow;
        [
            center[0],
            center[1],
            center[2],
            r + S::from_u32(3) * self.error,
        ]
    }

    /// With regions: the node's sphere from an earlier step, carried into this one, when neither
    /// the pose nor a coordinate in its support changed since (`None`: recompute).
    fn renew(&mut self, node: usize) -> Option<[S; 4]> {
        let epoch = self.epoch;
        let regions = self.regions.as_ref()?;
        let computed = self.cache.get(node)?.epoch;
        if computed == 0 || regions.pose_step > computed {
            return None;
        }
        let support = support_of(regions, node)?;
        for (word_index, &word) in support.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let j = word_index * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if regions
                    .mode_step
                    .get(j)
                    .is_none_or(|&at| at > u64::from(computed))
                {
                    return None;
                }
            }
        }
        let entry = self.cache.get_mut(node)?;
        entry.epoch = epoch;
        Some(entry.sphere)
    }

    /// The body-frame coherent sphere of a node — its reference sphere (computed exactly at
    /// `q_r` on the first visit after an anchor) with the radius grown by `D ‖δq‖₂` — and the
    /// rounding bound it carries.
    fn coherent(&mut self, node: usize) -> Option<([S; 4], S)> {
        let c = self.coherence.as_mut()?;
        let entry = c.refs.get_mut(node)?;
        if entry.anchor != c.anchor {
            *entry = ReferenceEntry {
                sphere: self.tree.update(node, c.weights)?,
                spread: self.tree.spread(node)?,
                anchor: c.anchor,
            };
        }
        let [x, y, z, r] = entry.sphere;
        Some((
            [x, y, z, coherent_radius(r, entry.spread, c.drift)],
            c.error,
        ))
    }

    /// Whether the node's sphere is already up to date for this step.
    pub fn is_cached(&self, node: usize) -> bool {
        self.cache.get(node).is_some_and(|e| e.epoch == self.epoch)
    }

    /// The deformed world positions of a triangle's vertices: `3 (3M + 9)` multiply-adds, or
    /// cache reads for vertices already deformed this step when the body has a vertex cache.
    #[inline]
    pub fn world_triangle(&mut self, triangle: usize) -> Option<[[S; 3]; 3]> {
        let face = *self.model.triangles().get(triangle)?;
        // The hit, the common case in a leaf step (the leaf's sphere deformed its vertices):
        // three cache reads, no pose or `q` touched.
        #[cfg(feature = "speed")]
        let cached = |v: u32| {
            self.vertices
                .get(v as usize)
                .filter(|e| e.epoch == self.epoch)
                .map(|e| e.position)
        };
        #[cfg(feature = "speed")]
        if let (Some(a), Some(b), Some(c)) = (cached(face[0]), cached(face[1]), cached(face[2])) {
            return Some([a, b, c]);
        }
        self.deform_triangle(face)
    }

    /// The deformed world position of one vertex: a cache read when the vertex cache holds it
    /// this step, else `3M + 9` multiply-adds (cached when the body has a vertex cache).
    #[inline(always)]
    pub(crate) fn world_vertex(&mut self, v: usize) -> Option<[S; 3]> {
        match self.vertices.get(v) {
            Some(entry) if entry.epoch == self.epoch => Some(entry.position),
            _ => self.vertex_miss(v),
        }
    }

    /// [`Body::world_vertex`] when the vertex is not in the cache (or there is no cache).
    #[inline(never)]
    fn vertex_miss(&mut self, v: usize) -> Option<[S; 3]> {
        match self.vertices.get_mut(v) {
            Some(entry) if entry.epoch == self.epoch => Some(entry.position),
            Some(entry) => {
                let position = self.pose.apply(self.model.deformed(v, self.q)?);
                *entry = VertexEntry {
                    position,
                    epoch: self.epoch,
                };
                Some(position)
            }
            None => Some(self.pose.apply(self.model.deformed(v, self.q)?)),
        }
    }

    /// [`Body::world_triangle`] when a vertex is not in the cache (or there is no cache).
    #[inline(never)]
    fn deform_triangle(&mut self, face: [u32; 3]) -> Option<[[S; 3]; 3]> {
        let q = &*self.q;
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

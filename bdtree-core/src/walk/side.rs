//! One body of a pair walk, with its sphere cache (and, with the `speed` feature, its vertex
//! cache and faces) and its links held where the walk's loop can keep them in registers.
//!
//! A query's policy reaches each body through a `&mut Body`, and the walk calls out of line
//! (a sphere update, a leaf's triangles, the sink) on some of its steps; after such a call the
//! compiler must assume any field of the body may have changed and reload it. A `Side` lends
//! the body's caches for the length of the query, so the walk reads spheres (and deformed
//! vertices) through slices of its own (pointer, length, the step's epoch: locals), and gives
//! them back to the body only for a miss and when the query ends (on drop, whatever the path
//! out).

#[cfg(feature = "speed")]
use crate::body::VertexEntry;
use crate::body::{Body, CacheEntry};
use crate::scalar::Scalar;

/// A body with its caches lent to the walk (see the module docs).
pub(crate) struct Side<'q, 't, 'c, S: Scalar> {
    /// The body; its own caches are empty while the side lives (use the side's methods).
    pub body: &'q mut Body<'t, 'c, S>,
    cache: &'c mut [CacheEntry<S>],
    #[cfg(feature = "speed")]
    vertices: &'c mut [VertexEntry<S>],
    links: &'t [[u32; 4]],
    #[cfg(feature = "speed")]
    faces: &'t [[u32; 3]],
    epoch: u32,
}

impl<'q, 't, 'c, S: Scalar> Side<'q, 't, 'c, S> {
    /// The body, its caches lent until the side is dropped.
    #[inline(always)]
    pub fn new(body: &'q mut Body<'t, 'c, S>) -> Self {
        let cache = body.lend_cache();
        #[cfg(feature = "speed")]
        let vertices = body.lend_vertices();
        let links = body.tree().links_all();
        #[cfg(feature = "speed")]
        let faces = body.model().triangles();
        let epoch = body.step();
        Side {
            body,
            cache,
            #[cfg(feature = "speed")]
            vertices,
            links,
            #[cfg(feature = "speed")]
            faces,
            epoch,
        }
    }

    /// The three deformed world vertices of a triangle when the vertex cache holds them all
    /// for this step (a leaf's sphere deformed them), read in place; `None` otherwise.
    #[cfg(feature = "speed")]
    #[inline(always)]
    pub fn cached_triangle(&self, triangle: u32) -> Option<[&[S; 3]; 3]> {
        let [a, b, c] = *self.faces.get(triangle as usize)?;
        let at = |v: u32| {
            self.vertices
                .get(v as usize)
                .filter(|e| e.epoch == self.epoch)
                .map(|e| &e.position)
        };
        Some([at(a)?, at(b)?, at(c)?])
    }

    /// A triangle's deformed world vertices ([`Body::world_triangle`]).
    #[inline(always)]
    pub fn world_triangle(&mut self, triangle: u32) -> Option<[[S; 3]; 3]> {
        #[cfg(feature = "speed")]
        {
            if let Some([a, b, c]) = self.cached_triangle(triangle) {
                return Some([*a, *b, *c]);
            }
            self.deform_triangle(triangle)
        }
        #[cfg(not(feature = "speed"))]
        self.body.world_triangle(triangle as usize)
    }

    /// The miss of [`Side::world_triangle`]: the caches handed back for the deformation.
    #[cfg(feature = "speed")]
    #[inline(never)]
    fn deform_triangle(&mut self, triangle: u32) -> Option<[[S; 3]; 3]> {
        self.give_back();
        let out = self.body.world_triangle(triangle as usize);
        self.take_again();
        out
    }

    /// Hands the lent caches back to the body.
    #[inline(always)]
    fn give_back(&mut self) {
        self.body.return_cache(core::mem::take(&mut self.cache));
        #[cfg(feature = "speed")]
        self.body
            .return_vertices(core::mem::take(&mut self.vertices));
    }

    /// Lends the caches again.
    #[inline(always)]
    fn take_again(&mut self) {
        self.cache = self.body.lend_cache();
        #[cfg(feature = "speed")]
        {
            self.vertices = self.body.lend_vertices();
        }
    }

    /// Runs `f` on the body with its caches given back (work that reads or fills them through
    /// the body: a lazy refit, a normal cone, a contour), then lends them again.
    #[inline(always)]
    pub fn with_body<R>(&mut self, f: impl FnOnce(&mut Body<'t, 'c, S>) -> R) -> R {
        self.give_back();
        let out = f(self.body);
        self.take_again();
        out
    }

    /// A node's sphere when the cache holds one of this step.
    #[inline(always)]
    pub fn fresh_sphere(&self, node: u32) -> Option<[S; 4]> {
        self.cache
            .get(node as usize)
            .filter(|entry| entry.epoch == self.epoch)
            .map(|entry| entry.sphere)
    }

    /// The links `[left, right, triangle, depth]` of a node.
    #[inline(always)]
    pub fn links(&self, node: u32) -> Option<[u32; 4]> {
        self.links.get(node as usize).copied()
    }

    /// The links of the sibling nodes `left` and `left + 1` (one bounds check for both).
    #[inline(always)]
    pub fn sibling_links(&self, left: u32) -> Option<[[u32; 4]; 2]> {
        self.links.get(left as usize..)?.first_chunk::<2>().copied()
    }

    /// Makes the cache hold spheres of this step for the sibling nodes `left` and `left + 1`
    /// (both computed on a miss), so that [`Side::cached_siblings`] reads them.
    #[inline(always)]
    pub fn fresh_siblings(&mut self, left: u32) -> Option<()> {
        let entry = self.cache.get(left as usize)?;
        if entry.epoch != self.epoch {
            self.refresh(left as usize)?;
        }
        Some(())
    }

    /// A node's world sphere ([`Body::sphere`]).
    #[inline(always)]
    pub fn sphere(&mut self, node: u32) -> Option<[S; 4]> {
        let entry = self.cache.get(node as usize)?;
        if entry.epoch == self.epoch {
            return Some(entry.sphere);
        }
        self.refresh(node as usize)
    }

    /// A node's sphere as the cache holds it, without asking whether it is of this step: for a
    /// node of a pair this walk pushed (see `Policy::pending_bound`).
    #[inline(always)]
    pub fn cached_sphere(&self, node: u32) -> Option<[S; 4]> {
        self.cache.get(node as usize).map(|entry| entry.sphere)
    }

    /// The spheres of the children `left` and `left + 1` of a node (the image's sibling
    /// pairs, always computed together: one check for both; see `Body::refresh`).
    #[inline(always)]
    pub fn child_spheres(&mut self, left: u32) -> Option<[[S; 4]; 2]> {
        let left = left as usize;
        if let Some([l, r]) = self.cache.get(left..).and_then(<[_]>::first_chunk::<2>) {
            if l.epoch == self.epoch {
                return Some([l.sphere, r.sphere]);
            }
        }
        self.refresh(left)?;
        Some([
            self.cached_sphere(left as u32)?,
            self.cached_sphere(left as u32 + 1)?,
        ])
    }

    /// Whether the cache holds spheres of this step for both sibling nodes `left` and
    /// `left + 1` (one look at the cache for the two).
    #[inline(always)]
    pub fn siblings_fresh(&self, left: u32) -> bool {
        let pair = self
            .cache
            .get(left as usize..)
            .and_then(<[_]>::first_chunk::<2>);
        pair.is_some_and(|[l, r]| l.epoch == self.epoch && r.epoch == self.epoch)
    }

    /// The spheres of the sibling nodes `left` and `left + 1` as the cache holds them, without
    /// asking whether they are of this step (see [`Side::siblings_fresh`]).
    #[inline(always)]
    pub fn cached_siblings(&self, left: u32) -> Option<[[S; 4]; 2]> {
        let [l, r] = self.cache.get(left as usize..)?.first_chunk::<2>()?;
        Some([l.sphere, r.sphere])
    }

    /// A cache miss: the caches handed back to the body for the update (which computes the
    /// node and its sibling), then lent again.
    #[inline(never)]
    fn refresh(&mut self, node: usize) -> Option<[S; 4]> {
        self.give_back();
        let sphere = self.body.refresh(node);
        self.take_again();
        sphere
    }
}

impl<S: Scalar> Drop for Side<'_, '_, '_, S> {
    fn drop(&mut self) {
        self.give_back();
    }
}

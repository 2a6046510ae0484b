//! The optional box cache of self walks: each node's coordinate box of its deformed world
//! vertices (a leaf and the nodes up to four levels above the leaves), made once per step where
//! a self walk first reads it, or by the one-pass refit in place of those nodes' spheres.

use super::{Body, BodyError, CacheEntry};
use crate::bounds::sphere::enclosing_sphere;
use crate::image::self_tables::SelfSpheres;
use crate::image::tree::NONE;
use crate::scalar::Scalar;

/// One slot of a body's optional box cache (see [`Body::with_box_cache`]): for a leaf, the
/// coordinate box `lo..hi` of its triangle's deformed world vertices (their coordinate-wise
/// minimum and maximum, no rounding); for a node up to four levels above the leaves, the exact
/// union of its children's boxes; for a node higher up, or above a triangle with a NaN
/// coordinate, none (`bounded` 0). Valid for the step whose epoch it carries.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BoxEntry<S: Scalar> {
    /// The box's low and high corners.
    pub(crate) lo: [S; 3],
    pub(crate) hi: [S; 3],
    /// The step it was made for (0: none).
    pub(crate) epoch: u32,
    /// Non-zero when the node has a box this step (the one-pass refit stores its height
    /// above the leaves plus one), 0 when it has none.
    pub(crate) bounded: u32,
}

impl<S: Scalar> BoxEntry<S> {
    /// An unused slot, of no step (the `Default`), usable in `const` and `static`
    /// initialisers.
    pub const EMPTY: Self = Self {
        epoch: 0,
        bounded: 0,
        lo: [S::ZERO; 3],
        hi: [S::ZERO; 3],
    };
}

impl<'c, S: Scalar> Body<'_, 'c, S> {
    /// Adds a cache of node boxes (at least one entry per node) for the lazy self-collision
    /// query ([`crate::collide_self_lazy`], and [`crate::collide_self_image`] with an image's
    /// self-collision data; the plain [`crate::collide_self`] does not read it): the box of each leaf's deformed triangle, and of each node up to four levels
    /// above the leaves (the exact union of its children's), made once per step where the
    /// walk first reads it. A pair of nodes whose four children have boxes tests the boxes
    /// instead of the children's spheres (the leaf step's own box filter, the same bits for two
    /// leaves: on a flat patch much tighter than a sphere). The pair queries do not read it.
    /// Costs 32 bytes per node in f32 (56 in f64); pays on bodies that fold onto themselves,
    /// with a vertex cache beside it.
    #[inline(never)]
    pub fn with_box_cache(mut self, cache: &'c mut [BoxEntry<S>]) -> Result<Self, BodyError> {
        let (needed, given) = (self.tree.node_count(), cache.len());
        let cache = cache
            .get_mut(..needed)
            .ok_or(BodyError::BoxCacheTooSmall { needed, given })?;
        cache.fill(BoxEntry::EMPTY);
        self.boxes = cache;
        Ok(self)
    }

    /// Puts `boxes` in the body's place for the box cache and hands back what was there: a
    /// self walk borrows the cache with an empty slice (`&mut []`) and returns it the same way.
    #[cfg(feature = "speed")]
    #[inline(always)]
    pub(crate) fn swap_boxes(&mut self, boxes: &'c mut [BoxEntry<S>]) -> &'c mut [BoxEntry<S>] {
        core::mem::replace(&mut self.boxes, boxes)
    }
}

/// Levels above the leaves up to which a node has a box (the self walk's rule).
pub(crate) const BOX_LEVELS: u32 = 4;

impl<S: Scalar> Body<'_, '_, S> {
    /// Whether a self walk on this body tests stored boxes ([`Body::with_box_cache`]): the
    /// body has a box cache, and it is not an f64 body on a bare-metal target (whose walk
    /// tests spheres only). The one-pass refit then makes boxes where the walk reads boxes.
    #[inline(always)]
    pub(crate) fn walk_boxes(&self) -> bool {
        let bare_f64 = S::BYTES == 8 && cfg!(target_os = "none");
        cfg!(feature = "speed") && !bare_f64 && !self.boxes.is_empty()
    }

    /// One node of the one-pass refit of a body whose self walk tests boxes
    /// ([`Body::walk_boxes`]), its children made before it in the same pass: a leaf's box from
    /// its deformed triangle `world`, a node's as the exact union of its children's when both
    /// have one and it is at most [`BOX_LEVELS`] above the leaves (`bounded` holds the height
    /// plus one) — and no sphere, as the walk tests their boxes instead. A node without a box
    /// (higher up, or above a NaN coordinate) is marked as having none and gets its sphere:
    /// a leaf's from its triangle, a node's the one enclosing its children's, where a child
    /// with a box and no sphere of this step gets the sphere around its box (kept for the
    /// step). The spheres below are left unmade: a read of one misses and is made then.
    #[cfg_attr(not(target_os = "none"), inline(always))]
    pub(crate) fn bound_node(
        &mut self,
        node: usize,
        [left, right, _, _]: [u32; 4],
        world: Option<&[[S; 3]; 3]>,
    ) -> Option<()> {
        let epoch = self.epoch;
        let entry = match world {
            Some([a, b, c]) => {
                // Constant indices (a closure's index is a panic path where not inlined).
                let lo = [
                    a[0].min(b[0]).min(c[0]),
                    a[1].min(b[1]).min(c[1]),
                    a[2].min(b[2]).min(c[2]),
                ];
                let hi = [
                    a[0].max(b[0]).max(c[0]),
                    a[1].max(b[1]).max(c[1]),
                    a[2].max(b[2]).max(c[2]),
                ];
                let finite = [a, b, c]
                    .iter()
                    .copied()
                    .flatten()
                    .all(|x| x.partial_cmp(x).is_some());
                BoxEntry {
                    lo,
                    hi,
                    epoch,
                    bounded: u32::from(finite),
                }
            }
            None => {
                // Written just before, in this pass.
                let (a, b) = (
                    self.boxes.get(left as usize)?,
                    self.boxes.get(right as usize)?,
                );
                let height = a.bounded.max(b.bounded);
                if a.bounded != 0 && b.bounded != 0 && height <= BOX_LEVELS {
                    BoxEntry {
                        lo: [
                            a.lo[0].min(b.lo[0]),
                            a.lo[1].min(b.lo[1]),
                            a.lo[2].min(b.lo[2]),
                        ],
                        hi: [
                            a.hi[0].max(b.hi[0]),
                            a.hi[1].max(b.hi[1]),
                            a.hi[2].max(b.hi[2]),
                        ],
                        epoch,
                        bounded: height.saturating_add(1),
                    }
                } else {
                    BoxEntry {
                        epoch,
                        ..BoxEntry::EMPTY
                    }
                }
            }
        };
        *self.boxes.get_mut(node)? = entry;
        if entry.bounded != 0 || self.cache.get(node)?.epoch == epoch {
            return Some(());
        }
        let sphere = match world {
            Some(&world) => self.triangle_bound(world),
            None => {
                let l = self.pass_sphere(left as usize)?;
                enclosing_sphere(l, self.pass_sphere(right as usize)?)
            }
        };
        *self.cache.get_mut(node)? = CacheEntry { sphere, epoch };
        self.updates = self.updates.wrapping_add(1);
        Some(())
    }

    /// A child's sphere in [`Body::bound_node`]: the step's, else the sphere around its box
    /// (made in this pass) kept for the step, else made by the lazy refit.
    fn pass_sphere(&mut self, node: usize) -> Option<[S; 4]> {
        let entry = self.cache.get(node)?;
        if entry.epoch == self.epoch {
            return Some(entry.sphere);
        }
        let boxed = self.boxes.get(node)?;
        if boxed.bounded == 0 || boxed.epoch != self.epoch {
            return self.refit_sphere(node, &SelfSpheres::NONE);
        }
        let sphere = self.box_sphere(boxed.lo, boxed.hi);
        *self.cache.get_mut(node)? = CacheEntry {
            sphere,
            epoch: self.epoch,
        };
        self.updates = self.updates.wrapping_add(1);
        Some(sphere)
    }

    /// The sphere around a box of deformed world vertices: centred at its midpoint, the
    /// radius measured from the computed centre to the far corner (on each axis the larger
    /// of the two computed distances: rounding is monotone, so it is the rounded larger
    /// one), grown by `8u` as [`Body::triangle_bound`]'s (the same operations on exact
    /// corners) and inflated by `3δ` like every sphere. Every point of the box is within the
    /// far corner's distance of any centre.
    #[inline(always)]
    fn box_sphere(&self, lo: [S; 3], hi: [S; 3]) -> [S; 4] {
        let half = S::ONE / S::from_u32(2);
        let mid = |l: S, h: S| (l + h) * half;
        let c = [mid(lo[0], hi[0]), mid(lo[1], hi[1]), mid(lo[2], hi[2])];
        let far = |l: S, h: S, c: S| (h - c).max(c - l);
        let e = [
            far(lo[0], hi[0], c[0]),
            far(lo[1], hi[1], c[1]),
            far(lo[2], hi[2], c[2]),
        ];
        let grow = S::ONE + S::from_u32(8) * S::UNIT_ROUNDOFF;
        let r = (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt() * grow;
        [c[0], c[1], c[2], r + S::from_u32(3) * self.error]
    }

    /// [`Body::bound_node`] of the nodes `from..to`, from the last up, each leaf's triangle
    /// read again (from the vertex cache).
    pub(crate) fn bound_nodes(&mut self, from: usize, to: usize) -> Option<()> {
        let links = self.tree.links_all();
        for node in (from..to).rev() {
            let l @ [_, _, triangle, _] = *links.get(node)?;
            let world = if triangle != NONE {
                Some(self.world_triangle(triangle as usize)?)
            } else {
                None
            };
            self.bound_node(node, l, world.as_ref())?;
        }
        Some(())
    }

    /// Every node's sphere for a self walk: [`Body::bound_nodes`] of the whole tree when the
    /// walk tests boxes, else [`Body::refit`].
    pub(crate) fn refit_for_walk(&mut self) -> Option<()> {
        if self.walk_boxes() {
            self.bound_nodes(0, self.tree.node_count())
        } else {
            self.refit()
        }
    }
}

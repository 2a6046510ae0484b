//! The optional box cache of self walks: each node's coordinate box of its deformed world
//! vertices (a leaf and the nodes up to four levels above the leaves), made once per step where
//! a self walk first reads it, or by the one-pass refit in place of those nodes' spheres.

#[cfg(feature = "speed")]
use super::refit::LOOSE;
use super::{Body, BodyError, CacheEntry};
use crate::bounds::sphere::enclosing_sphere;
#[cfg(feature = "speed")]
use crate::image::self_tables::BadRow;
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

/// A box's low and high corners.
#[cfg(feature = "speed")]
pub(crate) type Corners<S> = ([S; 3], [S; 3]);

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

impl<S: Scalar> Body<'_, '_, S> {
    /// Node `node`'s affine box, `(lo, hi)`: a coordinate box holding every deformed world
    /// vertex below it as this step computes them, from its row of `spheres` in `O(M)`
    /// (no vertex read), when its residual `Σⱼ |qⱼ| ρⱼ` is within a quarter of its rest radius
    /// (as [`Body::affine_sphere`]); `None` otherwise (no row, quantized rows, a looser fit, a
    /// value not finite). With `F = I + Σⱼ qⱼ Gⱼ` and the rest half-extents `h` (see
    /// [`SelfSpheres`]), every vertex of the node is exactly `c' + F yᵢ + rᵢ` with `|yₖ| ≤ hₖ`,
    /// `|rᵢ| ≤ Σⱼ |qⱼ| ρⱼ` and `c' = c + Σⱼ qⱼ Ūⱼ`, so in the world it lies within
    /// `Σₖ |(R F)ₐₖ| hₖ + Σⱼ |qⱼ| ρⱼ` of `R c' + t` on axis `a` — for a patch turned far but
    /// little bent (a fold's flap), about its rest box turned, where a sphere is as tall as it
    /// is wide. Rounding: the computed `R F`'s error (`(M + 1)u` of `1 + Σⱼ |qⱼ| |Gⱼ|` per
    /// entry of `F`, `3u` for the rotation, each row of `R` summing to at most `√3`) and the
    /// sums' own, together below `(2M + 20)u` of `Σₖ hₖ (1 + Σⱼ |qⱼ| |Gⱼ|) + Σⱼ |qⱼ| ρⱼ`; the
    /// centre's rounding and the computed vertices' own (`δ` each) by `3δ`; the corners'
    /// rounding by `2u |c|` and a final growth by `8u`. So the box holds every leaf box below
    /// the node, and a pair of nodes it proves apart has every leaf pair below apart for the
    /// leaf step's box filter.
    ///
    /// On bare-metal targets an f64 body has none (as [`Body::affine_sphere`]). [`BadRow`]
    /// when the node's entry in `spheres` cannot be read.
    #[cfg(feature = "speed")]
    pub(crate) fn affine_box(
        &self,
        node: usize,
        spheres: &SelfSpheres<'_>,
    ) -> Result<Option<Corners<S>>, BadRow> {
        if S::BYTES == 8 && cfg!(target_os = "none") {
            return Ok(None);
        }
        let Ok(id) = u32::try_from(node) else {
            return Ok(None);
        };
        Ok(match spheres.row(id, self.q.len())? {
            Some(block) => self.box_from_row(node, block),
            None => None,
        })
    }

    /// [`Body::affine_box`] from the node's row, read and checked.
    #[cfg(feature = "speed")]
    fn box_from_row(&self, node: usize, block: &[f32]) -> Option<Corners<S>> {
        let m = self.q.len();
        let rest = self.tree.record(node)?.first()?[3];
        let (h, tail) = block.split_at_checked(3)?;
        let (maps, residuals) = tail.split_at_checked(9 * m)?;
        let f = S::from_f32;
        // The residual first: a node its fit does not bound costs no more.
        let weights = self.weights.iter();
        let residual = (residuals.iter().zip(weights)).fold(S::ZERO, |s, (&r, w)| s + w[3] * f(r));
        // False for a NaN residual too.
        let within = residual <= S::from_f64(LOOSE) * rest;
        if !within {
            return None;
        }
        // `Σⱼ qⱼ Gⱼ` and `Σⱼ |qⱼ| |Gⱼ|` entry by entry (row-major), each summed in mode order.
        let mut sum = [S::ZERO; 9];
        let mut reach = [S::ZERO; 9];
        // Rows by offset (as `affine_from_row`: no division on a panic path).
        for (j, w) in self.weights.iter().enumerate() {
            let g: &[f32; 9] = maps.get(9 * j..)?.first_chunk()?;
            for ((x, e), &gx) in sum.iter_mut().zip(reach.iter_mut()).zip(g) {
                let gx = f(gx);
                *x = *x + w[0] * gx;
                *e = *e + w[3] * gx.abs();
            }
        }
        // `F = I + Σⱼ qⱼ Gⱼ` by columns, and per column `1 + Σ_b Σⱼ |qⱼ| |G_bk|`.
        let one = S::ONE;
        let columns = [
            [sum[0] + one, sum[3], sum[6]],
            [sum[1], sum[4] + one, sum[7]],
            [sum[2], sum[5], sum[8] + one],
        ];
        let h = [f(*h.first()?), f(*h.get(1)?), f(*h.get(2)?)];
        let spread = h[0] * (one + reach[0] + reach[3] + reach[6])
            + h[1] * (one + reach[1] + reach[4] + reach[7])
            + h[2] * (one + reach[2] + reach[5] + reach[8]);
        let u = S::UNIT_ROUNDOFF;
        let modes = S::from_u32(u32::try_from(m).ok()?);
        let slack = (modes + modes + S::from_u32(20)) * u * (spread + residual)
            + residual
            + S::from_u32(3) * self.error;
        let local = self.tree.update(node, self.weights)?;
        let c = self.pose.apply([local[0], local[1], local[2]]);
        let grow = S::ONE + S::from_u32(8) * u;
        let two_u = u + u;
        let mut lo = [S::ZERO; 3];
        let mut hi = [S::ZERO; 3];
        let corners = lo.iter_mut().zip(hi.iter_mut());
        for (((low, high), r), &ca) in corners.zip(self.pose.rotation.iter()).zip(c.iter()) {
            // Row `a` of `R F` against `h`: `Σₖ |Σ_b R_ab F_bk| hₖ`.
            let mut extent = S::ZERO;
            for (column, &hk) in columns.iter().zip(h.iter()) {
                let p = r[0] * column[0] + r[1] * column[1] + r[2] * column[2];
                extent = extent + p.abs() * hk;
            }
            let half = (extent + slack + two_u * ca.abs()) * grow;
            *low = ca - half;
            *high = ca + half;
        }
        let finite = lo.iter().chain(hi.iter()).all(|x| x.is_finite());
        finite.then_some((lo, hi))
    }
}

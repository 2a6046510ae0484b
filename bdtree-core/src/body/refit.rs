//! Tight spheres for a query that reaches the whole body (self-collision): every node's sphere
//! rebuilt bottom-up from the deformed triangles, in the body's own sphere cache.

use super::{Body, CacheEntry};
use crate::bounds::sphere::enclosing_sphere;
use crate::image::self_tables::{BadRow, SelfSpheres};
use crate::image::tree::NONE;
use crate::scalar::Scalar;

impl<S: Scalar> Body<'_, '_, S> {
    /// Every node's sphere for this step rebuilt from the bottom: a leaf's from its deformed
    /// triangle (as with a vertex cache, inflated by `3δ`), an internal node's the sphere
    /// enclosing its two children's ([`enclosing_sphere`]). A node whose sphere an earlier
    /// query already computed this step keeps it (both contain the node's deformed vertices;
    /// a sphere once given out stays the step's, so [`Body::sphere`] answers the same whoever
    /// asks first).
    ///
    /// The BD-Tree sphere of a node carries `Σ_j ΔR_j |q_j|`, which a large local rotation (a
    /// fold, a crumple) makes many times the node's true size; these spheres follow the
    /// deformed shape. Cost: one deformation per vertex with a vertex cache (three per
    /// triangle without), and two square roots per internal node, in place of the `4M`
    /// multiply-adds of each node's update. Worth it only for a query that visits most of the
    /// tree, as self-collision does. `None` for an inconsistent tree.
    pub(crate) fn refit(&mut self) -> Option<()> {
        self.refit_nodes(0, self.tree.node_count())
    }

    /// [`Body::refit`] of the nodes `from..to`, from the last up (their children come after
    /// them, so are made first or were made before).
    fn refit_nodes(&mut self, from: usize, to: usize) -> Option<()> {
        let links = self.tree.links_all();
        let epoch = self.epoch;
        for node in (from..to).rev() {
            let [left, right, triangle, _] = *links.get(node)?;
            if self.cache.get(node)?.epoch == epoch {
                // A sphere this step already gave out stays the one of the step.
                continue;
            }
            let sphere = if triangle != NONE {
                self.triangle_sphere(triangle as usize)?
            } else {
                let child = |k: u32| self.cache.get(k as usize).map(|e| e.sphere);
                enclosing_sphere(child(left)?, child(right)?)
            };
            *self.cache.get_mut(node)? = CacheEntry { sphere, epoch };
            self.updates = self.updates.wrapping_add(1);
        }
        Some(())
    }

    /// A pass over every node from the last up calling `each(node, links, triangle)` (with its
    /// deformed world triangle at a leaf) that also refits the spheres ([`Body::refit`]) from
    /// the first node where `each` asks for them (returns `true`) on: the nodes passed before
    /// are refitted then, and each triangle after it is read once for both. When the body's
    /// self walk tests stored boxes ([`Body::walk_boxes`]), the nodes that have one get their
    /// box instead of a sphere ([`Body::bound_node`]): the walk does not read those spheres.
    /// `Some(true)` when the spheres were made; `None` when `each` or a lookup fails.
    pub(crate) fn refit_with(
        &mut self,
        mut each: impl FnMut(usize, [u32; 4], Option<&[[S; 3]; 3]>) -> Option<bool>,
    ) -> Option<bool> {
        // `each` alone until it asks for the spheres (a loop of its own, which a body whose
        // root is culled runs whole), then both.
        let mut node = self.tree.node_count();
        if !self.pass::<false>(&mut node, &mut each)? {
            return Some(false);
        }
        self.pass::<true>(&mut node, &mut each)?;
        Some(true)
    }

    /// The nodes below `node` from the last up (`node` left at the last one passed), `each`
    /// called on every one. With `BOTH`, each node's box or sphere is made too
    /// ([`Body::pass_node`]); without, the pass stops at the first node where `each` asks for
    /// the spheres, makes those of the nodes passed and of that node, and returns `true`.
    #[inline(always)]
    fn pass<const BOTH: bool>(
        &mut self,
        node: &mut usize,
        each: &mut impl FnMut(usize, [u32; 4], Option<&[[S; 3]; 3]>) -> Option<bool>,
    ) -> Option<bool> {
        let all = self.tree.links_all();
        let boxed = self.walk_boxes();
        while let Some(k) = node.checked_sub(1) {
            *node = k;
            let links @ [_, _, triangle, _] = *all.get(k)?;
            let world = if triangle != NONE {
                Some(self.world_triangle(triangle as usize)?)
            } else {
                None
            };
            let asked = each(k, links, world.as_ref())?;
            if !BOTH && asked {
                if boxed {
                    self.bound_nodes(k + 1, all.len())?;
                } else {
                    self.refit_nodes(k + 1, all.len())?;
                }
            }
            if BOTH || asked {
                self.pass_node(k, links, world.as_ref(), boxed)?;
            }
            if !BOTH && asked {
                return Some(true);
            }
        }
        Some(false)
    }

    /// One node of [`Body::refit_with`] once the spheres are asked for: its box
    /// ([`Body::bound_node`]) when the walk tests boxes, else its sphere unless this step has
    /// one.
    #[inline(always)]
    fn pass_node(
        &mut self,
        node: usize,
        links @ [left, right, _, _]: [u32; 4],
        world: Option<&[[S; 3]; 3]>,
        boxed: bool,
    ) -> Option<()> {
        if boxed {
            return self.bound_node(node, links, world);
        }
        let epoch = self.epoch;
        if self.cache.get(node)?.epoch == epoch {
            return Some(());
        }
        let sphere = match world {
            Some(&world) => self.triangle_bound(world),
            None => {
                let child = |k: u32| self.cache.get(k as usize).map(|e| e.sphere);
                enclosing_sphere(child(left)?, child(right)?)
            }
        };
        *self.cache.get_mut(node)? = CacheEntry { sphere, epoch };
        self.updates = self.updates.wrapping_add(1);
        Some(())
    }
}

/// Entries of the lazy refit's path (a fixed array on the stack): two per level below the
/// node asked for, plus one. A tree too deep for it is refitted whole on its first miss
/// ([`Body::refit`]).
pub(crate) const LAZY_PATH: usize = 96;

/// A node whose BD-Tree sphere (`R + Σ_j ΔR_j |q_j|`) grows its rest radius by at most this
/// fraction takes that sphere in the lazy refit (an `O(M)` update) instead of the one
/// enclosing its children's (which needs its whole subtree): a nearly rigid part of the body
/// is then bounded where the walk reads it, without deforming what lies below.
pub(super) const LOOSE: f64 = 0.25;

impl<S: Scalar> Body<'_, '_, S> {
    /// The sphere of `node` for a self walk: the step's sphere when one was made (by any
    /// query), else made now and kept for the step — as [`Body::refit`] would make it (the
    /// sphere enclosing the children's, a leaf's from its deformed triangle), except that a
    /// node whose BD-Tree sphere is within [`LOOSE`] of its rest radius takes that one, and
    /// its subtree is left untouched, and so does a node whose affine sphere (from its row of
    /// `spheres`, [`Body::affine_sphere`]) is within [`LOOSE`] of it. Made only where the walk
    /// reads, so a frame costs what the walk reaches. `None` for a bad index or an
    /// inconsistent tree.
    #[inline(always)]
    pub(crate) fn refit_sphere(
        &mut self,
        node: usize,
        spheres: &SelfSpheres<'_>,
    ) -> Option<[S; 4]> {
        let entry = self.cache.get(node)?;
        if entry.epoch == self.epoch {
            return Some(entry.sphere);
        }
        self.refit_below(node, spheres)
    }

    /// The miss of [`Body::refit_sphere`]: the node's subtree walked depth first (a path of
    /// `[node, children pushed]` on the stack), each node below made once. Whether a node is
    /// nearly rigid is asked of the node itself and its children only: below a node that is
    /// not, the deformation is as large relative to each part's size.
    #[inline(never)]
    fn refit_below(&mut self, node: usize, spheres: &SelfSpheres<'_>) -> Option<[S; 4]> {
        // A leaf, a nearly rigid node (its `O(M)` BD-Tree update, cheaper than the affine
        // sphere) or a node bounded by its affine sphere — the common misses of a walk that
        // reads nodes one by one: made here, without a path.
        let [_, _, triangle, _] = self.tree.links(node)?;
        if triangle == NONE && self.nearly_rigid(node) {
            return self.refresh_one(node);
        }
        let made = if triangle != NONE {
            Some(self.triangle_sphere(triangle as usize)?)
        } else {
            // A row its read refuses: no sphere (the query names the row).
            self.affine_sphere(node, spheres).ok()?
        };
        if let Some(sphere) = made {
            *self.cache.get_mut(node)? = CacheEntry {
                sphere,
                epoch: self.epoch,
            };
            self.updates = self.updates.wrapping_add(1);
            return Some(sphere);
        }
        self.refit_path(node, spheres)
    }

    /// [`Body::refit_below`] of an internal node its affine sphere does not bound: the subtree
    /// walked depth first.
    fn refit_path(&mut self, node: usize, spheres: &SelfSpheres<'_>) -> Option<[S; 4]> {
        if (self.tree.depth() as usize).saturating_mul(2) >= LAZY_PATH {
            self.refit()?;
            return self.cache.get(node).map(|e| e.sphere);
        }
        let epoch = self.epoch;
        let mut path = [[0u32; 2]; LAZY_PATH];
        *path.first_mut()? = [u32::try_from(node).ok()?, 0];
        let mut len = 1usize;
        while let Some(&[k, pushed]) = len.checked_sub(1).and_then(|top| path.get(top)) {
            let k = k as usize;
            let [left, right, triangle, _] = self.tree.links(k)?;
            if triangle != NONE {
                let sphere = self.triangle_sphere(triangle as usize)?;
                *self.cache.get_mut(k)? = CacheEntry { sphere, epoch };
                self.updates = self.updates.wrapping_add(1);
                len -= 1;
                continue;
            }
            if pushed == 0 {
                if len <= 2 && self.nearly_rigid(k) {
                    self.refresh_one(k)?;
                    len -= 1;
                    continue;
                }
                // (The node asked for was tried before the path.)
                let affine = if len > 1 {
                    self.affine_sphere(k, spheres).ok()?
                } else {
                    None
                };
                if let Some(sphere) = affine {
                    *self.cache.get_mut(k)? = CacheEntry { sphere, epoch };
                    self.updates = self.updates.wrapping_add(1);
                    len -= 1;
                    continue;
                }
                // The children not yet of this step, both at once; the node after them.
                *path.get_mut(len - 1)? = [k as u32, 1];
                for child in [right, left] {
                    if self.cache.get(child as usize)?.epoch != epoch {
                        *path.get_mut(len)? = [child, 0];
                        len += 1;
                    }
                }
                continue;
            }
            let child = |c: u32| self.cache.get(c as usize).map(|e| e.sphere);
            let sphere = enclosing_sphere(child(left)?, child(right)?);
            *self.cache.get_mut(k)? = CacheEntry { sphere, epoch };
            self.updates = self.updates.wrapping_add(1);
            len -= 1;
        }
        self.cache.get(node).map(|e| e.sphere)
    }

    /// Node `node`'s world sphere from its row of `spheres` (see [`SelfSpheres`]): the body-frame `[c + Ū q, r]` turned to the world and inflated by `3δ`
    /// as every sphere, when `r` exceeds its rest radius by at most a quarter (what the lazy
    /// refit of a self query takes in place of the node's subtree), else `None` (no row,
    /// quantized rows, a looser bound). With `F = I + Σⱼ qⱼ Gⱼ`, every vertex of the node
    /// lies within `|F yᵢ| + Σⱼ |qⱼ| ρⱼ` of the centre, and over the box `|yₖ| ≤ hₖ`,
    /// `|F y|² = yᵀ FᵀF y ≤ Σₖₗ hₖ hₗ |(FᵀF)ₖₗ|` — the rest radius itself when `F` is a
    /// rotation of the patch. Rounding: the square root grown by `16u`, the computed `F`'s
    /// error (`(M + 1)u` of `1 + Σⱼ |qⱼ| |Gⱼ|` per entry) times `h`, and the residual sum's
    /// `(M + 2)u`; the centre's rounding is covered by the `3δ` every sphere carries (added by
    /// the caller with the world transform). `O(M)`: `9M` multiply-adds and one square root.
    ///
    /// On bare-metal targets (`target_os = "none"`) an f64 body has none (its subtree is
    /// refitted): soft-float f64 code the devices would pay in flash for bodies they run in f32.
    ///
    /// [`BadRow`] when the node's entry in `spheres` cannot be read (checked as it is read: a
    /// self query then ends with [`crate::QueryStatus::BadSection`]).
    #[inline]
    pub fn affine_sphere(
        &self,
        node: usize,
        spheres: &SelfSpheres<'_>,
    ) -> Result<Option<[S; 4]>, BadRow> {
        if S::BYTES == 8 && cfg!(target_os = "none") {
            return Ok(None);
        }
        // The common case of a walk's small nodes, without a call: no row.
        if !spheres.has_row(node) {
            return Ok(None);
        }
        self.affine_read(node, spheres)
    }

    /// [`Body::affine_sphere`] of a node with a row: the row read, checked and used.
    #[inline(never)]
    fn affine_read(
        &self,
        node: usize,
        spheres: &SelfSpheres<'_>,
    ) -> Result<Option<[S; 4]>, BadRow> {
        let Ok(id) = u32::try_from(node) else {
            return Ok(None);
        };
        Ok(match spheres.row(id, self.q.len())? {
            Some(block) => self.affine_from_row(node, block),
            None => None,
        })
    }

    /// [`Body::affine_sphere`] from the node's row, read and checked.
    fn affine_from_row(&self, node: usize, block: &[f32]) -> Option<[S; 4]> {
        let m = self.q.len();
        let rest = self.tree.record(node)?.first()?[3];
        let (h, tail) = block.split_at_checked(3)?;
        let (maps, residuals) = tail.split_at_checked(9 * m)?;
        let f = S::from_f32;
        let mut map = [
            [S::ONE, S::ZERO, S::ZERO],
            [S::ZERO, S::ONE, S::ZERO],
            [S::ZERO, S::ZERO, S::ONE],
        ];
        let mut reach = [S::ONE; 3];
        let mut residual = S::ZERO;
        // Rows by offset, not zipped chunks (whose zip divides by the chunk size: a panic path).
        for (j, &qj) in self.q.iter().enumerate() {
            let g: &[f32; 9] = maps.get(9 * j..)?.first_chunk()?;
            let g = [[g[0], g[1], g[2]], [g[3], g[4], g[5]], [g[6], g[7], g[8]]];
            let a = qj.abs();
            for (row, grow) in map.iter_mut().zip(g.iter()) {
                for ((x, &gx), e) in row.iter_mut().zip(grow).zip(reach.iter_mut()) {
                    let gx = f(gx);
                    *x = *x + qj * gx;
                    *e = *e + a * gx.abs();
                }
            }
            residual = residual + a * f(*residuals.get(j)?);
        }
        let h = [f(*h.first()?), f(*h.get(1)?), f(*h.get(2)?)];
        let mut square = S::ZERO;
        let mut spread = S::ZERO;
        for k in 0..3 {
            for l in 0..3 {
                let gram = map[0][k] * map[0][l] + map[1][k] * map[1][l] + map[2][k] * map[2][l];
                square = square + h[k] * h[l] * gram.abs();
            }
            spread = spread + h[k] * reach[k];
        }
        let u = S::UNIT_ROUNDOFF;
        let modes = S::from_u32(u32::try_from(m).ok()?);
        let radius = square.sqrt() * (S::ONE + S::from_u32(16) * u)
            + (modes + modes + S::from_u32(4)) * u * spread
            + residual * (S::ONE + (modes + S::from_u32(2)) * u);
        let radius = radius * (S::ONE + S::from_u32(4) * u);
        // False for a NaN radius too.
        let within = radius <= S::from_f64(1.0 + LOOSE) * rest;
        if !within {
            return None;
        }
        let local = self.tree.update(node, self.weights)?;
        let c = self.pose.apply([local[0], local[1], local[2]]);
        let inflation = S::from_u32(3) * self.error;
        Some([c[0], c[1], c[2], radius.min(local[3]) + inflation])
    }

    /// Whether `node`'s BD-Tree sphere grows its rest radius by at most [`LOOSE`] at this `q`
    /// (`Σ_j ΔR_j |q_j| ≤ LOOSE · R`; false for quantized rows).
    #[inline(always)]
    pub(crate) fn nearly_rigid(&self, node: usize) -> bool {
        let Some(record) = self.tree.record(node) else {
            return false;
        };
        let Some((rest, rows)) = record.split_first() else {
            return false;
        };
        let spread = rows
            .iter()
            .zip(self.weights.iter())
            .fold(S::ZERO, |sum, (row, w)| sum + row[3] * w[3]);
        spread <= S::from_f64(LOOSE) * rest[3]
    }
}

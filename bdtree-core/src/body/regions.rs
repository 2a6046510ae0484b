//! Deformation regions (Lau et al.): each node's mode support, so that an update costs only the
//! modes that move the node, and a step that changes a few coordinates keeps the spheres it
//! cannot have moved.

use super::{Body, BodyError};
use crate::image::tree::TreeView;
use crate::scalar::Scalar;

/// Deformation regions (see [`Body::with_regions`]).
pub(super) struct Regions<'c> {
    /// Per node, `words` words: bit j set when mode j moves the node.
    pub(super) support: &'c mut [u64],
    pub(super) words: usize,
    /// Per mode, the step at which the coordinate last changed (exactly `M` entries).
    pub(super) mode_step: &'c mut [u64],
    /// The step at which the pose last changed.
    pub(super) pose_step: u32,
}

impl<'c, S: Scalar> Body<'_, 'c, S> {
    /// Words of region storage a tree needs: `nodes × ⌈M / 64⌉` mode-support masks (at least
    /// one word per node), then one step mark per mode.
    pub fn region_words(tree: &TreeView<'_, S>) -> usize {
        tree.node_count()
            .saturating_mul(tree.modes().div_ceil(64).max(1))
            .saturating_add(tree.modes())
    }

    /// Turns on **deformation regions** (Lau et al.): the caller's storage (at least
    /// [`Body::region_words`] words) receives each node's mode support — the modes with a
    /// non-zero `Ū_j` or `ΔR_j` — and each mode's last change. Then a node's update costs
    /// `4·|support|` multiply-adds instead of `4M`, and after a [`Body::set_state`] that changes
    /// only some coordinates (pose unchanged), a node whose support meets none of them keeps its
    /// sphere from the step it was computed in — its exact sphere has not moved, and its
    /// inflation bounds the rounding of the computation that produced it. Ignored while temporal
    /// coherence is on.
    pub fn with_regions(mut self, storage: &'c mut [u64]) -> Result<Self, BodyError> {
        let needed = Self::region_words(&self.tree);
        let m = self.tree.modes();
        let words = m.div_ceil(64).max(1);
        let given = storage.len();
        let masks_len = needed - m;
        let Some((support, rest)) = storage.get_mut(..needed).map(|s| s.split_at_mut(masks_len))
        else {
            return Err(BodyError::RegionStorageTooSmall { needed, given });
        };
        for (node, masks) in support.chunks_exact_mut(words).enumerate() {
            masks.fill(0);
            for j in 0..m {
                let Some(row) = self.tree.row(node, j + 1) else {
                    continue;
                };
                if row.iter().any(|&x| x != S::ZERO) {
                    if let Some(w) = masks.get_mut(j / 64) {
                        *w |= 1u64 << (j % 64);
                    }
                }
            }
        }
        rest.fill(0);
        self.plain = false;
        self.regions = Some(Regions {
            support,
            words,
            mode_step: rest,
            pose_step: self.epoch,
        });
        self.next_epoch();
        Ok(self)
    }

    /// The mode support of a node (with regions on), as words of 64 modes.
    pub fn support(&self, node: usize) -> Option<&[u64]> {
        let regions = self.regions.as_ref()?;
        support_of(regions, node)
    }
}

/// The mode support of a node, as words of 64 modes.
pub(super) fn support_of<'r>(regions: &'r Regions<'_>, node: usize) -> Option<&'r [u64]> {
    let w = regions.words;
    let start = node.checked_mul(w)?;
    regions.support.get(start..start.checked_add(w)?)
}

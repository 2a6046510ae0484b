//! Temporal coherence on a body (see [`crate::bounds::coherence`]): the reference state spheres are
//! kept around, and the anchoring policy that renews it.

use super::{copy_prefix, mode_storage, split_modes, Body, BodyError};
use crate::bounds::coherence::{Anchor, ReferenceEntry};
use crate::scalar::Scalar;

/// The reference state of a coherent body (see [`crate::bounds::coherence`]).
pub(super) struct Coherence<'c, S: Scalar> {
    pub(super) refs: &'c mut [ReferenceEntry<S>],
    pub(super) policy: Anchor<S>,
    /// The weights of `q_r` (exactly `M` entries).
    pub(super) weights: &'c mut [[S; 4]],
    /// `q_r` (exactly `M` entries).
    pub(super) q_ref: &'c mut [S],
    /// Anchor id the valid reference entries carry; 0 means "no reference yet".
    pub(super) anchor: u32,
    /// Anchors taken since the body was made (wrapping).
    pub(super) anchors: u32,
    pub(super) steps: u32,
    pub(super) drift: S,
    /// `max(δ(q), δ(q_r))`: the inflation base of coherent spheres.
    pub(super) error: S,
}

impl<'c, S: Scalar> Body<'_, 'c, S> {
    /// Turns on temporal coherence (see [`crate::bounds::coherence`]) with the caller's reference cache
    /// (at least one entry per node; 24 bytes per node in f32, 48 in f64), reference mode
    /// storage (at least [`mode_storage`]`(M)` scalars: `q_r` and its weights) and an anchoring
    /// policy. Spheres are then
    /// `R'_r + D ‖q − q_r‖₂` around centers kept from the reference step: one multiply-add per
    /// node per step instead of `4M`, looser as `q` drifts.
    pub fn with_coherence(
        mut self,
        refs: &'c mut [ReferenceEntry<S>],
        reference_modes: &'c mut [S],
        policy: Anchor<S>,
    ) -> Result<Self, BodyError> {
        let needed = self.tree.node_count();
        if refs.len() < needed {
            return Err(BodyError::ReferenceCacheTooSmall {
                needed,
                given: refs.len(),
            });
        }
        let m = self.tree.modes();
        let given = reference_modes.len();
        let Some((weights, q_ref)) = split_modes(reference_modes, m) else {
            return Err(BodyError::ModeStorageTooSmall {
                needed: mode_storage(m),
                given,
            });
        };
        for entry in refs.iter_mut() {
            entry.anchor = 0;
        }
        self.plain = false;
        self.coherence = Some(Coherence {
            refs,
            policy,
            weights,
            q_ref,
            anchor: 0,
            anchors: 0,
            steps: 0,
            drift: S::ZERO,
            error: S::ZERO,
        });
        self.reanchor();
        Ok(self)
    }

    /// Makes the current `q` the reference of a coherent body: every node gets an exact update
    /// the next time a query reaches it. Starts a new step (cached spheres are dropped). Does
    /// nothing without coherence.
    pub fn reanchor(&mut self) {
        let Some(c) = self.coherence.as_mut() else {
            return;
        };
        // Equal lengths by construction; copies of the common prefix keep the length check out
        // of the code and compile to `memcpy` (a zipped loop became a `memmove`, 1.5 KB more
        // flash on the Cortex-M).
        copy_prefix(c.weights, self.weights);
        copy_prefix(c.q_ref, self.q);
        c.drift = S::ZERO;
        c.steps = 0;
        c.anchors = c.anchors.wrapping_add(1);
        c.anchor = c.anchor.wrapping_add(1);
        if c.anchor == 0 {
            for entry in c.refs.iter_mut() {
                entry.anchor = 0;
            }
            c.anchor = 1;
        }
        c.error = self.error;
        self.next_epoch();
    }

    /// Whether the body uses temporal coherence.
    pub fn is_coherent(&self) -> bool {
        self.coherence.is_some()
    }

    /// Anchors taken since the body was made (wrapping; 0 without coherence).
    pub fn anchor_count(&self) -> u32 {
        self.coherence.as_ref().map_or(0, |c| c.anchors)
    }

    /// `‖q − q_r‖₂` (rounded up) of this step; 0 without coherence.
    pub fn drift(&self) -> S {
        self.coherence.as_ref().map_or(S::ZERO, |c| c.drift)
    }

    /// The reference coordinate `q_r[j]` (0 without coherence or for a bad index).
    pub fn reference_q(&self, j: usize) -> S {
        self.coherence
            .as_ref()
            .and_then(|c| c.q_ref.get(j).copied())
            .unwrap_or(S::ZERO)
    }

    /// Whether the policy asks for a new anchor at this step's state.
    pub(super) fn anchor_due(&self) -> bool {
        let Some(c) = self.coherence.as_ref() else {
            return false;
        };
        match c.policy {
            Anchor::OnRequest => false,
            Anchor::Steps(n) => c.steps >= n,
            Anchor::Drift(limit) => c.drift > limit,
            Anchor::Growth(limit) => {
                let Some(d) = self.tree.spread(0) else {
                    return true;
                };
                d * c.drift > limit
            }
        }
    }
}

//! Whether two bodies come closer than a distance, stopping at the first proof
//! (`bdtree_closer_than_*`): the safety monitor's check, cheaper than `bdtree_distance_*`.

use bdtree_core::query::separation::closer_than as kernel_closer_than;
use bdtree_core::stack_capacity;

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::ffi::{self, put, Precision};
use crate::query::{bdtree_node_pair, bdtree_stats, stack};
use crate::status::{bdtree_status, status};

/// Whether two bodies come within `distance`.
///
/// # Safety
///
/// `a`, `b` body objects; `stack` valid for `stack_len` entries; `closer` writable; `stats`
/// NULL or writable.
pub unsafe fn closer_than<S: Precision>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    distance: S,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    closer: *mut bool,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        put(stats, bdtree_stats::default())?;
        let out = ffi::out(closer)?;
        // A status of its own for a bad distance: the kernel would count NaN as 0.
        if !(distance.is_finite() && distance >= S::ZERO) {
            return Err(bdtree_status::BadArgument);
        }
        let (a, b) = two_bodies(a, b)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut closer = true;
        let outcome = kernel_closer_than(a, b, distance, S::ZERO, stack, &mut closer);
        put(stats, outcome.stats.into())?;
        let answer = outcome.status.is_complete().then_some(closer);
        match answer {
            Some(x) => {
                out.write(x);
                Ok(())
            }
            // The kernel's checks before its walk, in its order (`Bodies::check`).
            None if a.tree().is_bounded() || b.tree().is_bounded() => Err(bdtree_status::Truncated),
            None if stack_len < stack_capacity(a.tree().depth(), b.tree().depth()) => {
                Err(bdtree_status::StackTooSmall)
            }
            None => Err(bdtree_status::Inconsistent),
        }
    };
    status(run())
}

/// The exported functions of the closer-than query in f32 (`exports_f64` below is generated
/// from them, word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// Whether bodies `a` and `b` come within `distance` of each other (touching counts at 0),
    /// written to `closer`. Never `false` for bodies within `distance` at their states (the
    /// kernel's per-coordinate rounding bound δ of each body included, the rounding of a
    /// state given in doubles too); `true` may
    /// come for bodies up to `4 (δ_a + δ_b)` (times `2√3` in distance) farther — on a device
    /// there is no f64 stage to settle it; the host layer (`bdtree_std::host::closer_than`)
    /// settles it in f64. Nearest-first, pruned at `distance` from the roots, stopping at the
    /// first leaf pair within it: far cheaper than `bdtree_distance_f32` when the answer is
    /// "no" far from the limit or "yes" well inside it. Place the pair at its own floating
    /// origin (`bdtree_floating_origin` of the two translations) when the states are in
    /// doubles. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries; a negative or
    /// non-finite `distance` is `BDTREE_STATUS_BAD_ARGUMENT`.
    ///
    /// # Safety
    ///
    /// `a` and `b` must be distinct `bdtree_body_f32` objects; `stack` `stack_len` writable
    /// entries; `closer` writable; `stats` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_closer_than_f32(
        a: *mut bdtree_body_f32,
        b: *mut bdtree_body_f32,
        distance: f32,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        closer: *mut bool,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            closer_than::<f32>(
                a.cast(),
                b.cast(),
                distance,
                stack,
                stack_len,
                closer,
                stats,
            )
        }
    }
}

// @generated below: `exports_f64`, from `exports_f32` by `cargo xtask c --overwrite` (a test
// checks it is current); do not edit it.

/// The functions of `exports_f32` in f64, word for word (its documentation is theirs).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f64 {
    use super::*;

    /// Whether bodies `a` and `b` come within `distance` of each other (touching counts at 0),
    /// written to `closer`. Never `false` for bodies within `distance` at their states (the
    /// kernel's per-coordinate rounding bound δ of each body included, the rounding of a
    /// state given in doubles too); `true` may
    /// come for bodies up to `4 (δ_a + δ_b)` (times `2√3` in distance) farther — on a device
    /// there is no f64 stage to settle it; the host layer (`bdtree_std::host::closer_than`)
    /// settles it in f64. Nearest-first, pruned at `distance` from the roots, stopping at the
    /// first leaf pair within it: far cheaper than `bdtree_distance_f64` when the answer is
    /// "no" far from the limit or "yes" well inside it. Place the pair at its own floating
    /// origin (`bdtree_floating_origin` of the two translations) when the states are in
    /// doubles. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries; a negative or
    /// non-finite `distance` is `BDTREE_STATUS_BAD_ARGUMENT`.
    ///
    /// # Safety
    ///
    /// `a` and `b` must be distinct `bdtree_body_f64` objects; `stack` `stack_len` writable
    /// entries; `closer` writable; `stats` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_closer_than_f64(
        a: *mut bdtree_body_f64,
        b: *mut bdtree_body_f64,
        distance: f64,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        closer: *mut bool,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            closer_than::<f64>(
                a.cast(),
                b.cast(),
                distance,
                stack,
                stack_len,
                closer,
                stats,
            )
        }
    }
}

//! Separation, named as the kernel's `query::separation`: the minimum distance between two
//! bodies, with its witness points and normal (`bdtree_distance_*`), and whether two bodies
//! come closer than a distance, stopping at the first proof (`bdtree_closer_than_*`): the
//! safety monitor's check, cheaper than `bdtree_distance_*`.

use bdtree_core::query::separation::{closer_than as kernel_closer_than, nearest, Nearest};
use bdtree_core::stack_capacity;

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::ffi::{self, put, Precision};
use crate::query::{bdtree_node_pair, bdtree_stats, stack};
use crate::status::{bdtree_status, status};

/// The nearest points of two bodies in f32 (`bdtree_distance_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_nearest_f32 {
    /// Minimum distance (0 when the bodies intersect), units of the mesh.
    pub distance: f32,
    /// Witness point on the first body (world).
    pub point_a: [f32; 3],
    /// Witness point on the second body (world).
    pub point_b: [f32; 3],
    /// Unit normal from the first body to the second (zero when intersecting).
    pub normal: [f32; 3],
    /// Triangle of the first body.
    pub triangle_a: u32,
    /// Triangle of the second body.
    pub triangle_b: u32,
    /// The two triangles intersect.
    pub intersecting: bool,
}

/// The nearest points of two bodies in f64.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_nearest_f64 {
    /// Minimum distance (0 when the bodies intersect).
    pub distance: f64,
    /// Witness point on the first body (world).
    pub point_a: [f64; 3],
    /// Witness point on the second body (world).
    pub point_b: [f64; 3],
    /// Unit normal from the first body to the second (zero when intersecting).
    pub normal: [f64; 3],
    /// Triangle of the first body.
    pub triangle_a: u32,
    /// Triangle of the second body.
    pub triangle_b: u32,
    /// The two triangles intersect.
    pub intersecting: bool,
}

macro_rules! nearest_from {
    ($c:ident, $s:ty) => {
        impl From<Nearest<$s>> for $c {
            fn from(n: Nearest<$s>) -> Self {
                Self {
                    distance: n.distance,
                    point_a: n.point_a,
                    point_b: n.point_b,
                    normal: n.normal,
                    triangle_a: n.triangle_a,
                    triangle_b: n.triangle_b,
                    intersecting: n.intersecting,
                }
            }
        }
    };
}

nearest_from!(bdtree_nearest_f32, f32);

nearest_from!(bdtree_nearest_f64, f64);

/// The minimum distance between two bodies with witnesses.
///
/// # Safety
///
/// `a`, `b` body objects; `stack` valid for `stack_len` entries; `nearest` writable; `stats`
/// NULL or writable.
pub unsafe fn distance<S: Precision, N: From<Nearest<S>>>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    out: *mut N,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        put(stats, bdtree_stats::default())?;
        let out = ffi::out(out)?;
        let (a, b) = two_bodies(a, b)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut answer = None;
        let outcome = nearest(a, b, stack, &mut answer);
        put(stats, outcome.stats.into())?;
        match (bdtree_status::from(outcome.status), answer) {
            (bdtree_status::Ok, Some(n)) => {
                out.write(n.into());
                Ok(())
            }
            (bdtree_status::Ok, None) => Err(bdtree_status::Inconsistent),
            (s, _) => Err(s),
        }
    };
    status(run())
}

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

/// The exported functions of the separation queries in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// The exact minimum distance between two deformed bodies (0 when they intersect) with its
    /// witness points, triangles and the unit normal from `a` to `b`, written to `nearest`.
    /// `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries.
    ///
    /// # Safety
    ///
    /// `a` and `b` must be distinct `bdtree_body_f32` objects; `stack` `stack_len` writable
    /// entries; `nearest` writable; `stats` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_distance_f32(
        a: *mut bdtree_body_f32,
        b: *mut bdtree_body_f32,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        nearest: *mut bdtree_nearest_f32,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { distance::<f32, _>(a.cast(), b.cast(), stack, stack_len, nearest, stats) }
    }

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

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/separation_f64.rs"));

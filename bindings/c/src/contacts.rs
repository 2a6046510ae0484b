//! Contact data: every intersecting triangle pair with point, normal and depth
//! (`bdtree_collide_contacts_*`), and every pair closer than a distance with its witnesses
//! (`bdtree_within_*`).

use bdtree_core::{ContactPoint, NearPair};

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::ffi::{self, Precision};
use crate::query::{bdtree_node_pair, bdtree_stats, clear_outputs, finish, stack, CBuffer};
use crate::status::{bdtree_status, status};

/// A triangle pair that intersects, with its contact, in f32 (`bdtree_collide_contacts_f32`;
/// `bdtree_collide_primitive_f32` gives `(triangle, 0)` pairs).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_contact_f32 {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body (0 against a primitive).
    pub b: u32,
    /// A point of the intersection (in the bodies' frame, see the header's conventions;
    /// within the rounding tolerance of both triangles).
    pub point: [f32; 3],
    /// Unit normal of least penetration, from the first body's triangle to the second's (to
    /// the primitive).
    pub normal: [f32; 3],
    /// Penetration depth along `normal`: moving the second triangle (the primitive) by
    /// `depth · normal` separates the pair; within rounding of 0 for touching triangles.
    pub depth: f32,
}

/// A triangle pair that intersects, with its contact, in f64.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_contact_f64 {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body (0 against a primitive).
    pub b: u32,
    /// A point of the intersection.
    pub point: [f64; 3],
    /// Unit normal of least penetration, from the first body's triangle to the second's.
    pub normal: [f64; 3],
    /// Penetration depth along `normal`.
    pub depth: f64,
}

/// A triangle pair at most a query's distance apart, with its witness points, in f32
/// (`bdtree_within_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_near_pair_f32 {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// Their distance (0, up to rounding, when they intersect).
    pub distance: f32,
    /// The witness on the first triangle.
    pub point_a: [f32; 3],
    /// The witness on the second triangle.
    pub point_b: [f32; 3],
}

/// A triangle pair at most a query's distance apart, in f64 (`bdtree_within_f64`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_near_pair_f64 {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// Their distance (0, up to rounding, when they intersect).
    pub distance: f64,
    /// The witness on the first triangle.
    pub point_a: [f64; 3],
    /// The witness on the second triangle.
    pub point_b: [f64; 3],
}

macro_rules! contact_from {
    ($c:ident, $n:ident, $s:ty) => {
        impl From<ContactPoint<$s>> for $c {
            fn from(p: ContactPoint<$s>) -> Self {
                Self {
                    a: p.a,
                    b: p.b,
                    point: p.contact.point,
                    normal: p.contact.normal,
                    depth: p.contact.depth,
                }
            }
        }
        impl From<NearPair<$s>> for $n {
            fn from(p: NearPair<$s>) -> Self {
                Self {
                    a: p.a,
                    b: p.b,
                    distance: p.distance,
                    point_a: p.point_a,
                    point_b: p.point_b,
                }
            }
        }
    };
}

contact_from!(bdtree_contact_f32, bdtree_near_pair_f32, f32);
contact_from!(bdtree_contact_f64, bdtree_near_pair_f64, f64);

/// Every intersecting triangle pair of two bodies with its contact (see
/// `bdtree_collide_contacts_f32`).
///
/// # Safety
///
/// As [`crate::triangles::collide()`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_contacts<S: Precision, C: From<ContactPoint<S>>>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    contacts: *mut C,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let (a, b) = two_bodies(a, b)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(contacts, capacity)?);
        let outcome = bdtree_core::collide_contacts(a, b, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// Every triangle pair of two bodies at most `distance` apart, with witnesses (see
/// `bdtree_within_f32`).
///
/// # Safety
///
/// As [`crate::triangles::collide()`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn within<S: Precision, N: From<NearPair<S>>>(
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    distance: S,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut N,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let (a, b) = two_bodies(a, b)?;
        // NaN fails the test too: a distance must be a finite number ≥ 0.
        if !(distance.is_finite() && distance >= S::ZERO) {
            return Err(bdtree_status::BadArgument);
        }
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let outcome = bdtree_core::within(a, b, distance, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// The exported functions of contact data in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// Finds every intersecting triangle pair of two bodies, as `bdtree_collide_f32` does (the same
    /// walk, spheres and exact test), and writes each with its contact to `contacts`: a point of
    /// the intersection (within the rounding tolerance of both triangles), the unit normal of least
    /// penetration from `a`'s triangle to `b`'s, and the depth along it (moving `b`'s triangle by
    /// `depth · normal` separates the pair). `*count` of them, in traversal order; `stack` needs
    /// `bdtree_stack_capacity(depth_a, depth_b)` entries. Statuses as `bdtree_collide_f32`.
    ///
    /// # Safety
    ///
    /// As `bdtree_collide_f32`, with `contacts` pointing to `capacity` writable entries.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_contacts_f32(
        a: *mut bdtree_body_f32,
        b: *mut bdtree_body_f32,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        contacts: *mut bdtree_contact_f32,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_contacts::<f32, _>(
                a.cast(),
                b.cast(),
                stack,
                stack_len,
                contacts,
                capacity,
                count,
                stats,
            )
        }
    }

    /// Finds every triangle pair of two bodies at most `distance` apart (intersecting pairs at
    /// distance 0 included) and writes each with its distance and witness points to `pairs`
    /// (`*count` of them, in traversal order). Conservative: never misses a pair within `distance`;
    /// may add pairs up to twice the rounding tolerance farther. `distance` must be finite and
    /// ≥ 0 (else `BDTREE_STATUS_BAD_ARGUMENT`); `stack` needs `bdtree_stack_capacity(depth_a,
    /// depth_b)` entries. Statuses otherwise as `bdtree_collide_f32`.
    ///
    /// # Safety
    ///
    /// As `bdtree_collide_f32`, with `pairs` pointing to `capacity` writable entries.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_within_f32(
        a: *mut bdtree_body_f32,
        b: *mut bdtree_body_f32,
        distance: f32,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        pairs: *mut bdtree_near_pair_f32,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            within::<f32, _>(
                a.cast(),
                b.cast(),
                distance,
                stack,
                stack_len,
                pairs,
                capacity,
                count,
                stats,
            )
        }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/contacts_f64.rs"));

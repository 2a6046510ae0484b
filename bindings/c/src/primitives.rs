//! Rigid primitives — half-spaces, balls, capsules, oriented boxes (`bdtree_primitive_*`) —
//! and the queries of a body against one: the touching triangles with their contacts
//! (`bdtree_collide_primitive_*`), the contact proxies that may touch
//! (`bdtree_collide_primitive_proxies_*`).

use bdtree_core::{ContactPoint, Pose, Primitive, PrimitiveProxy, Scalar};

use crate::body::{bdtree_body_f32, bdtree_body_f64, finite_pose, BodySlot};
use crate::contacts::{bdtree_contact_f32, bdtree_contact_f64};
use crate::ffi::{self, holds, Precision, Slot};
use crate::query::{bdtree_node_pair, bdtree_stats, clear_outputs, finish, stack, CBuffer};
use crate::status::{bdtree_status, status, Result};

/// 64-bit words of a `bdtree_primitive_f32` (on every target).
pub const BDTREE_PRIMITIVE_WORDS_F32: usize = 12;

/// 64-bit words of a `bdtree_primitive_f64` (on every target).
pub const BDTREE_PRIMITIVE_WORDS_F64: usize = 20;

/// A rigid primitive in f32 — a half-space, a ball, a capsule or an oriented box
/// (`bdtree_primitive_plane_f32` and siblings), checked when made. Plain data: it borrows
/// nothing, may be copied, and needs no clean-up.
#[repr(C)]
pub struct bdtree_primitive_f32 {
    _opaque: [u64; BDTREE_PRIMITIVE_WORDS_F32],
}

/// A rigid primitive in f64 (`bdtree_primitive_plane_f64` and siblings).
#[repr(C)]
pub struct bdtree_primitive_f64 {
    _opaque: [u64; BDTREE_PRIMITIVE_WORDS_F64],
}

holds!(bdtree_primitive_f32, Primitive<f32>);
holds!(bdtree_primitive_f64, Primitive<f64>);

/// A contact proxy of a body whose sphere may touch a primitive, in f32
/// (`bdtree_collide_primitive_proxies_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_primitive_proxy_f32 {
    /// The proxy node.
    pub node: u32,
    /// Its world sphere `[x, y, z, r]`.
    pub sphere: [f32; 4],
    /// How deep the sphere reaches into the primitive: its radius less its center's signed
    /// distance to the primitive's surface (positive when it reaches in; within the tolerance
    /// of 0, possibly negative, when it only may).
    pub depth: f32,
}

/// A contact proxy of a body whose sphere may touch a primitive, in f64.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_primitive_proxy_f64 {
    /// The proxy node.
    pub node: u32,
    /// Its world sphere `[x, y, z, r]`.
    pub sphere: [f64; 4],
    /// How deep the sphere reaches into the primitive.
    pub depth: f64,
}

macro_rules! primitive_proxy_from {
    ($p:ident, $s:ty) => {
        impl From<PrimitiveProxy<$s>> for $p {
            fn from(p: PrimitiveProxy<$s>) -> Self {
                Self {
                    node: p.node,
                    sphere: p.sphere,
                    depth: p.depth,
                }
            }
        }
    };
}
primitive_proxy_from!(bdtree_primitive_proxy_f32, f32);
primitive_proxy_from!(bdtree_primitive_proxy_f64, f64);

/// What a C primitive object holds.
pub type PrimitiveSlot<S> = Slot<Primitive<S>>;

/// A `[S; 3]` from C.
///
/// # Safety
///
/// `ptr` NULL or 3 readable scalars.
unsafe fn vector<S: Scalar>(ptr: *const S) -> Result<[S; 3]> {
    // SAFETY: forwarded.
    let v = unsafe { ffi::slice(ptr, 3) }?;
    v.try_into().map_err(|_| bdtree_status::BadArgument)
}

/// Makes a primitive in the caller's object (`make` validates it); on failure the object is
/// marked unusable.
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `make` reads only what its caller vouched for.
unsafe fn primitive_init<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    make: impl FnOnce() -> Result<Primitive<S>>,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { ffi::forget(primitive) };
    // SAFETY: forwarded.
    let run = || unsafe {
        ffi::check(primitive)?;
        let made = make()?;
        ffi::init(primitive, S::PRIMITIVE, made)
    };
    status(run())
}

/// The half-space below a plane (see `bdtree_primitive_plane_f32`).
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `normal` NULL or 3 readable scalars.
pub unsafe fn primitive_plane<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    normal: *const S,
    offset: S,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { primitive_init(primitive, || Ok(Primitive::plane(vector(normal)?, offset)?)) }
}

/// A ball (see `bdtree_primitive_sphere_f32`).
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `center` NULL or 3 readable scalars.
pub unsafe fn primitive_sphere<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    center: *const S,
    radius: S,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe {
        primitive_init(primitive, || {
            Ok(Primitive::sphere(vector(center)?, radius)?)
        })
    }
}

/// A capsule (see `bdtree_primitive_capsule_f32`).
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `a`, `b` NULL or 3 readable scalars each.
pub unsafe fn primitive_capsule<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    a: *const S,
    b: *const S,
    radius: S,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe {
        primitive_init(primitive, || {
            Ok(Primitive::capsule(vector(a)?, vector(b)?, radius)?)
        })
    }
}

/// An oriented box (see `bdtree_primitive_box_f32`).
///
/// # Safety
///
/// `primitive` NULL or writable for the object; `rotation` NULL or 4 readable scalars,
/// `center` and `half_extents` NULL or 3.
pub unsafe fn primitive_box<S: Precision>(
    primitive: *mut PrimitiveSlot<S>,
    rotation: *const S,
    center: *const S,
    half_extents: *const S,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe {
        primitive_init(primitive, || {
            let rotation = ffi::slice(rotation, 4)?;
            let center = ffi::slice(center, 3)?;
            let half = vector(half_extents)?;
            let (Ok(r), Ok(t)) = (rotation.try_into(), center.try_into()) else {
                return Err(bdtree_status::BadArgument);
            };
            finite_pose(rotation, center)?;
            let pose = Pose::from_quaternion(r, t)?;
            Ok(Primitive::oriented_box(&pose, half)?)
        })
    }
}

/// Every triangle of a body touching a primitive, with its contact (see
/// `bdtree_collide_primitive_f32`).
///
/// # Safety
///
/// `body` a body object, `primitive` a primitive object; otherwise as [`crate::triangles::collide()`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_primitive<S: Precision, C: From<ContactPoint<S>>>(
    body: *mut BodySlot<S>,
    primitive: *const PrimitiveSlot<S>,
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
        let body = ffi::object_mut(body, S::BODY)?;
        let primitive = ffi::object(primitive, S::PRIMITIVE)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(contacts, capacity)?);
        let outcome = bdtree_core::collide_primitive(body, primitive, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// The contact proxies of a body at a depth whose spheres may touch a primitive (see
/// `bdtree_collide_primitive_proxies_f32`).
///
/// # Safety
///
/// As [`collide_primitive`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_primitive_proxies<S: Precision, P: From<PrimitiveProxy<S>>>(
    body: *mut BodySlot<S>,
    proxy_depth: u32,
    primitive: *const PrimitiveSlot<S>,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    proxies: *mut P,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let body = ffi::object_mut(body, S::BODY)?;
        let primitive = ffi::object(primitive, S::PRIMITIVE)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(proxies, capacity)?);
        let outcome =
            bdtree_core::collide_primitive_proxies(body, primitive, proxy_depth, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// Stack entries a primitive query (`bdtree_collide_primitive_*`,
/// `bdtree_collide_primitive_proxies_*`) on a tree of depth `depth` needs.
#[no_mangle]
pub extern "C" fn bdtree_primitive_stack_capacity(depth: u32) -> usize {
    bdtree_core::primitive_stack_capacity(depth)
}

/// The exported functions of primitives in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// Makes the solid half-space `n · x ≤ offset` below a plane (`n = normal / |normal|`, the
    /// normal pointing out of the solid: a floor is `{0, 0, 1}`, 0) in the caller's object, in the
    /// bodies' frame (see the header's conventions). Refused with
    /// `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_ZERO_NORMAL` (the object then unusable).
    ///
    /// # Safety
    ///
    /// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f32`; `normal`
    /// NULL or 3 readable floats.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_primitive_plane_f32(
        primitive: *mut bdtree_primitive_f32,
        normal: *const f32,
        offset: f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { primitive_plane::<f32>(primitive.cast(), normal, offset) }
    }

    /// Makes a solid ball of `radius` (≥ 0) around `center`. Refused with
    /// `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_NEGATIVE_RADIUS`.
    ///
    /// # Safety
    ///
    /// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f32`; `center`
    /// NULL or 3 readable floats.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_primitive_sphere_f32(
        primitive: *mut bdtree_primitive_f32,
        center: *const f32,
        radius: f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { primitive_sphere::<f32>(primitive.cast(), center, radius) }
    }

    /// Makes a solid capsule: the points within `radius` (≥ 0) of the segment from `a` to `b`.
    /// Refused with `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_NEGATIVE_RADIUS`.
    ///
    /// # Safety
    ///
    /// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f32`; `a` and
    /// `b` NULL or 3 readable floats each.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_primitive_capsule_f32(
        primitive: *mut bdtree_primitive_f32,
        a: *const f32,
        b: *const f32,
        radius: f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { primitive_capsule::<f32>(primitive.cast(), a, b, radius) }
    }

    /// Makes a solid oriented box of `half_extents` (each ≥ 0) centred at `center`, its axes the
    /// columns of the rotation of the unit quaternion `rotation = (w, x, y, z)` (as a body's pose;
    /// refused when `| ‖q‖ − 1 | > 10⁻⁶`). Statuses: `BDTREE_STATUS_NON_FINITE_ROTATION`,
    /// `…_NON_FINITE_TRANSLATION` (the center), `…_NOT_UNIT_QUATERNION`,
    /// `…_PRIMITIVE_NON_FINITE`, `…_PRIMITIVE_NEGATIVE_RADIUS`.
    ///
    /// # Safety
    ///
    /// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f32`;
    /// `rotation` NULL or 4 readable floats; `center` and `half_extents` NULL or 3.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_primitive_box_f32(
        primitive: *mut bdtree_primitive_f32,
        rotation: *const f32,
        center: *const f32,
        half_extents: *const f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { primitive_box::<f32>(primitive.cast(), rotation, center, half_extents) }
    }

    /// Finds every triangle of `body` that touches `primitive` and writes each as a contact
    /// `(triangle, 0)` to `contacts`: a point of the triangle inside the primitive, the unit normal
    /// from the triangle to the primitive, and the depth (how far the primitive must move along
    /// the normal for the triangle to stop touching it). Exact against the deformed triangles,
    /// conservative against the node spheres: never misses a touching triangle; may report
    /// triangles up to twice the rounding tolerance away. `stack` needs
    /// `bdtree_primitive_stack_capacity(depth)` entries. Statuses as `bdtree_collide_f32`.
    ///
    /// # Safety
    ///
    /// `body` must point to a `bdtree_body_f32`, `primitive` to a `bdtree_primitive_f32` made by
    /// `bdtree_primitive_…_f32`; `stack` to `stack_len` writable entries, `contacts` to
    /// `capacity`; `count` writable; `stats` NULL or writable. None of these may overlap.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_primitive_f32(
        body: *mut bdtree_body_f32,
        primitive: *const bdtree_primitive_f32,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        contacts: *mut bdtree_contact_f32,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_primitive::<f32, _>(
                body.cast(),
                primitive.cast(),
                stack,
                stack_len,
                contacts,
                capacity,
                count,
                stats,
            )
        }
    }

    /// The bounded-depth form of `bdtree_collide_primitive_f32`, for contact response: every
    /// contact proxy of `body` (a node at depth `proxy_depth`, or a leaf above it) whose world
    /// sphere may touch `primitive`, with its sphere and how deep the sphere reaches in. Every
    /// touching triangle lies under a reported proxy; works on complete and bounded-depth images
    /// (no nesting needed). `stack` needs `bdtree_primitive_stack_capacity(depth)` entries.
    ///
    /// # Safety
    ///
    /// As `bdtree_collide_primitive_f32`, with `proxies` pointing to `capacity` writable entries.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_primitive_proxies_f32(
        body: *mut bdtree_body_f32,
        proxy_depth: u32,
        primitive: *const bdtree_primitive_f32,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        proxies: *mut bdtree_primitive_proxy_f32,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_primitive_proxies::<f32, _>(
                body.cast(),
                proxy_depth,
                primitive.cast(),
                stack,
                stack_len,
                proxies,
                capacity,
                count,
                stats,
            )
        }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/primitives_f64.rs"));

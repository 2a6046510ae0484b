//! Generalized forces: the kernel's contact response ([`bdtree_core::world::response`]) into wrenches
//! sized at run time (`bdtree_wrench_*`: force, torque and the caller's `q` array) —
//! penalty forces of a proxy pair (`bdtree_respond_*`) or of an exact contact
//! (`bdtree_respond_contact_*`), and any force at a node (`bdtree_apply_at_node_*`) or on a
//! triangle (`bdtree_apply_at_triangle_*`).

use bdtree_core::world::response::{
    apply_at_node_mut, apply_at_triangle, respond_contact, respond_mut, Penalty,
};
use bdtree_core::{Body, ContactPoint, ProxyPair, TriangleContact, WrenchMut};

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::contacts::{bdtree_contact_f32, bdtree_contact_f64};
use crate::ffi::{self, Precision};
use crate::proxies::{bdtree_proxy_pair_f32, bdtree_proxy_pair_f64};
use crate::status::{bdtree_status, status, Result};

/// A wrench in f32 in the caller's storage: what forces do to one body. `force` and `torque`
/// are added to (zero them for a new step); `q` points to `q_len` floats, the generalized
/// force on the body's reduced coordinates, of which the first `modes` (the image's mode
/// count, `bdtree_image_info`) are added to — `q_len` below the body's modes is refused
/// (`BDTREE_STATUS_WRONG_MODE_COUNT`, nothing added). `q` may be NULL when `q_len` is 0.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct bdtree_wrench_f32 {
    /// Total force (the bodies' frame: world axes).
    pub force: [f32; 3],
    /// Total torque about the body's translation (world axes).
    pub torque: [f32; 3],
    /// The generalized force on the reduced coordinates (force × mesh units per unit of `q`).
    pub q: *mut f32,
    /// Entries at `q`.
    pub q_len: usize,
}

/// A wrench in f64 in the caller's storage (see `bdtree_wrench_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct bdtree_wrench_f64 {
    /// Total force.
    pub force: [f64; 3],
    /// Total torque about the body's translation.
    pub torque: [f64; 3],
    /// The generalized force on the reduced coordinates.
    pub q: *mut f64,
    /// Entries at `q`.
    pub q_len: usize,
}

/// A penalty contact in f32: where and how hard (`bdtree_respond_f32`,
/// `bdtree_respond_contact_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_penalty_f32 {
    /// Unit normal, from the first body to the second.
    pub normal: [f32; 3],
    /// Penetration depth (0 when the call gave no force).
    pub depth: f32,
    /// The point the force acts at (the bodies' frame).
    pub point: [f32; 3],
    /// The force on the second body (`stiffness · depth · normal`); the first gets its negative.
    pub force: [f32; 3],
}

/// A penalty contact in f64 (see `bdtree_penalty_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_penalty_f64 {
    /// Unit normal, from the first body to the second.
    pub normal: [f64; 3],
    /// Penetration depth (0 when the call gave no force).
    pub depth: f64,
    /// The point the force acts at.
    pub point: [f64; 3],
    /// The force on the second body.
    pub force: [f64; 3],
}

/// The C types of one precision.
pub trait Forces: Precision {
    /// `bdtree_wrench_*`.
    type Wrench;
    /// `bdtree_penalty_*`.
    type Penalty: From<Penalty<Self>>;
    /// `bdtree_proxy_pair_*`.
    type Proxy: Copy;
    /// `bdtree_contact_*`.
    type Contact: Copy;
    /// The parts of a wrench: force, torque, `q` and its length.
    fn parts(w: &mut Self::Wrench) -> (&mut [Self; 3], &mut [Self; 3], *mut Self, usize);
    /// The kernel's proxy pair.
    fn proxy(p: &Self::Proxy) -> ProxyPair<Self>;
    /// The kernel's contact.
    fn contact(c: &Self::Contact) -> ContactPoint<Self>;
}

macro_rules! forces {
    ($s:ty, $wrench:ty, $penalty:ident, $proxy:ty, $contact:ty) => {
        impl From<Penalty<$s>> for $penalty {
            fn from(p: Penalty<$s>) -> Self {
                Self {
                    normal: p.normal,
                    depth: p.depth,
                    point: p.point,
                    force: p.force,
                }
            }
        }

        impl Forces for $s {
            type Wrench = $wrench;
            type Penalty = $penalty;
            type Proxy = $proxy;
            type Contact = $contact;
            fn parts(w: &mut $wrench) -> (&mut [$s; 3], &mut [$s; 3], *mut $s, usize) {
                (&mut w.force, &mut w.torque, w.q, w.q_len)
            }
            fn proxy(p: &$proxy) -> ProxyPair<$s> {
                ProxyPair {
                    a: p.a,
                    b: p.b,
                    sphere_a: p.sphere_a,
                    sphere_b: p.sphere_b,
                    depth: p.depth,
                }
            }
            fn contact(c: &$contact) -> ContactPoint<$s> {
                ContactPoint {
                    a: c.a,
                    b: c.b,
                    contact: TriangleContact {
                        point: c.point,
                        normal: c.normal,
                        depth: c.depth,
                    },
                }
            }
        }
    };
}

forces!(
    f32,
    bdtree_wrench_f32,
    bdtree_penalty_f32,
    bdtree_proxy_pair_f32,
    bdtree_contact_f32
);

forces!(
    f64,
    bdtree_wrench_f64,
    bdtree_penalty_f64,
    bdtree_proxy_pair_f64,
    bdtree_contact_f64
);

/// A caller's wrench as the kernel's view, its `q` checked to hold the body's modes.
///
/// # Safety
///
/// `wrench` NULL or a wrench whose `q` is writable for `q_len` scalars, accessed through
/// nothing else for `'a`.
unsafe fn wrench<'a, S: Forces>(
    wrench: *mut S::Wrench,
    body: &Body<'_, '_, S>,
) -> Result<WrenchMut<'a, S>> {
    // SAFETY: forwarded (one element).
    let w = unsafe { ffi::slice_mut(wrench, 1)? }
        .first_mut()
        .ok_or(bdtree_status::NullPointer)?;
    let (force, torque, q, q_len) = S::parts(w);
    // SAFETY: forwarded.
    let q = unsafe { ffi::slice_mut(q, q_len)? };
    if q.len() < body.tree().modes() {
        return Err(bdtree_status::WrongModeCount);
    }
    Ok(WrenchMut { force, torque, q })
}

/// Two distinct wrenches whose `q` arrays do not overlap.
///
/// # Safety
///
/// Each non-NULL, its `q` writable for its `q_len` scalars.
unsafe fn two_wrenches<'a, S: Forces>(
    wa: *mut S::Wrench,
    wb: *mut S::Wrench,
    a: &Body<'_, '_, S>,
    b: &Body<'_, '_, S>,
) -> Result<(WrenchMut<'a, S>, WrenchMut<'a, S>)> {
    if !wa.is_null() && core::ptr::eq(wa, wb) {
        return Err(bdtree_status::BadArgument);
    }
    // SAFETY: forwarded; distinct objects (their `q` arrays checked apart below before use).
    let (x, y) = unsafe { (wrench::<S>(wa, a)?, wrench::<S>(wb, b)?) };
    let span = |q: &[S]| {
        let start = q.as_ptr() as usize;
        start..start + core::mem::size_of_val(q)
    };
    let (sx, sy) = (span(x.q), span(y.q));
    if !x.q.is_empty() && !y.q.is_empty() && sx.start < sy.end && sy.start < sx.end {
        return Err(bdtree_status::BadArgument);
    }
    Ok((x, y))
}

fn stiffness_ok<S: Forces>(k: S) -> Result<()> {
    if k.is_finite() && k >= S::ZERO {
        Ok(())
    } else {
        Err(bdtree_status::BadArgument)
    }
}

/// The penalty response of a proxy pair.
///
/// # Safety
///
/// `pair` NULL or readable; bodies as [`crate::triangles::collide()`]; wrenches non-NULL, each `q` writable for its `q_len` scalars;
/// `penalty` NULL or writable.
pub unsafe fn respond<S: Forces>(
    pair: *const S::Proxy,
    stiffness: S,
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    wrench_a: *mut S::Wrench,
    wrench_b: *mut S::Wrench,
    penalty: *mut S::Penalty,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let pair = S::proxy(
            ffi::slice(pair, 1)?
                .first()
                .ok_or(bdtree_status::NullPointer)?,
        );
        stiffness_ok(stiffness)?;
        let (a, b) = two_bodies(a, b)?;
        let (a, b) = (&*a, &*b);
        a.tree()
            .row(pair.a as usize, 0)
            .ok_or(bdtree_status::BadArgument)?;
        b.tree()
            .row(pair.b as usize, 0)
            .ok_or(bdtree_status::BadArgument)?;
        let (wa, wb) = two_wrenches::<S>(wrench_a, wrench_b, a, b)?;
        let found = respond_mut(a, b, &pair, stiffness, wa, wb);
        ffi::put(penalty, found.map(S::Penalty::from).unwrap_or_else(none))
    };
    status(run())
}

/// The penalty response of an exact contact.
///
/// # Safety
///
/// As [`respond`], with `contact` for `pair`.
pub unsafe fn respond_to_contact<S: Forces>(
    contact: *const S::Contact,
    stiffness: S,
    a: *mut BodySlot<S>,
    b: *mut BodySlot<S>,
    wrench_a: *mut S::Wrench,
    wrench_b: *mut S::Wrench,
    penalty: *mut S::Penalty,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let contact = S::contact(
            ffi::slice(contact, 1)?
                .first()
                .ok_or(bdtree_status::NullPointer)?,
        );
        stiffness_ok(stiffness)?;
        let (a, b) = two_bodies(a, b)?;
        let (a, b) = (&*a, &*b);
        a.model()
            .triangles()
            .get(contact.a as usize)
            .ok_or(bdtree_status::BadArgument)?;
        b.model()
            .triangles()
            .get(contact.b as usize)
            .ok_or(bdtree_status::BadArgument)?;
        let (wa, wb) = two_wrenches::<S>(wrench_a, wrench_b, a, b)?;
        let found = respond_contact(a, b, &contact, stiffness, wa, wb);
        ffi::put(penalty, found.map(S::Penalty::from).unwrap_or_else(none))
    };
    status(run())
}

/// The penalty of a call that gave no force: zeros.
fn none<P: From<Penalty<S>>, S: Forces>() -> P {
    P::from(Penalty {
        normal: [S::ZERO; 3],
        depth: S::ZERO,
        point: [S::ZERO; 3],
        force: [S::ZERO; 3],
    })
}

/// Where a force acts: at a node (through its `Ū`) or on a triangle (its nearest point).
#[derive(Clone, Copy)]
pub(crate) enum At {
    /// A node index.
    Node(u32),
    /// A triangle index.
    Triangle(u32),
}

/// A force at a point, applied at a node or on a triangle.
///
/// # Safety
///
/// `body` NULL or a body object; `point`, `force` NULL or readable for 3 scalars; `wrench` as
/// [`wrench`].
pub(crate) unsafe fn apply<S: Forces>(
    body: *mut BodySlot<S>,
    at: At,
    point: *const S,
    force: *const S,
    wrench_out: *mut S::Wrench,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let body = &*ffi::object_mut(body, S::BODY)?;
        let point: [S; 3] = ffi::slice(point, 3)?
            .try_into()
            .map_err(|_| bdtree_status::NullPointer)?;
        let force: [S; 3] = ffi::slice(force, 3)?
            .try_into()
            .map_err(|_| bdtree_status::NullPointer)?;
        if !point.iter().chain(&force).all(|x| x.is_finite()) {
            return Err(bdtree_status::NonFinite);
        }
        let w = wrench::<S>(wrench_out, body)?;
        match at {
            At::Node(n) => apply_at_node_mut(body, n as usize, point, force, w),
            At::Triangle(t) => apply_at_triangle(body, t as usize, point, force, w),
        }
        .ok_or(bdtree_status::BadArgument)
    };
    status(run())
}

/// The exported functions of generalized forces in f32 (`exports_f64` below is generated from
/// them, word for word in the other precision).
pub mod exports_f32 {
    use super::*;

    /// The penalty response of an overlapping pair of contact proxies (as
    /// `bdtree_collide_proxies_f32` gives it, spheres in the bodies' frame): force
    /// `stiffness · depth` along the unit normal from a's sphere centre to b's, at the middle
    /// of the overlap, pushing `b` (and `a` the other way). Adds to each body's wrench the
    /// force, its torque about the body's translation and the generalized force `Ūᵀ Rᵀ f`
    /// through the proxy node's `Ū` (kernel `respond_mut`; `3M + 15` multiply-adds per body).
    /// Writes the contact to `penalty` (NULL: not wanted); spheres that do not overlap (or are
    /// concentric) give no force: `BDTREE_STATUS_OK`, wrenches unchanged, a penalty of zeros.
    /// A node index the tree does not have, a stiffness negative or not finite, or the same
    /// wrench (or overlapping `q` arrays) for both bodies: `BDTREE_STATUS_BAD_ARGUMENT`, nothing
    /// added.
    ///
    /// # Safety
    ///
    /// `pair` NULL or readable; `a`, `b` NULL or distinct initialised bodies (their state the
    /// one the pair was found at); `wrench_a`, `wrench_b` NULL or wrenches whose `q` is writable
    /// for `q_len` floats; `penalty` NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_respond_f32(
        pair: *const bdtree_proxy_pair_f32,
        stiffness: f32,
        a: *mut bdtree_body_f32,
        b: *mut bdtree_body_f32,
        wrench_a: *mut bdtree_wrench_f32,
        wrench_b: *mut bdtree_wrench_f32,
        penalty: *mut bdtree_penalty_f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            respond::<f32>(
                pair,
                stiffness,
                a.cast(),
                b.cast(),
                wrench_a,
                wrench_b,
                penalty,
            )
        }
    }

    /// The penalty response of an exact contact (as `bdtree_collide_contacts_f32` gives it):
    /// force `stiffness · depth · normal` on `b` at the contact point, applied on its triangle
    /// `contact.b`, and its negative on `a` on triangle `contact.a`. Adds to each wrench the
    /// force, its torque and the generalized force of that point of the deformed triangle,
    /// `Σ λ_i U_iᵀ Rᵀ f` (barycentric weights `λ` of the triangle's point nearest to the
    /// contact point; kernel `respond_contact`: three vertex deformations and `9M`
    /// multiply-adds per body). Writes the contact to `penalty` (NULL: not wanted); a depth
    /// not above 0 gives no force (`BDTREE_STATUS_OK`, wrenches unchanged, a penalty of zeros).
    /// Bad indices, stiffness or wrenches as `bdtree_respond_f32`.
    ///
    /// # Safety
    ///
    /// As `bdtree_respond_f32`, with `contact` for `pair`.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_respond_contact_f32(
        contact: *const bdtree_contact_f32,
        stiffness: f32,
        a: *mut bdtree_body_f32,
        b: *mut bdtree_body_f32,
        wrench_a: *mut bdtree_wrench_f32,
        wrench_b: *mut bdtree_wrench_f32,
        penalty: *mut bdtree_penalty_f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            respond_to_contact::<f32>(
                contact,
                stiffness,
                a.cast(),
                b.cast(),
                wrench_a,
                wrench_b,
                penalty,
            )
        }
    }

    /// Adds force `force` at `point` (both 3 floats, the body's frame), applied at `node` of
    /// `body`, to `wrench`: the force, its torque about the body's translation and the
    /// generalized force `Ūᵀ Rᵀ f` through the node's `Ū` (`3M + 15` multiply-adds) — for
    /// responses of the caller's own (a floor pushing up under a proxy). A node the tree does
    /// not have: `BDTREE_STATUS_BAD_ARGUMENT`; a NaN or infinity: `BDTREE_STATUS_NON_FINITE`;
    /// nothing added either way.
    ///
    /// # Safety
    ///
    /// `body` NULL or an initialised body; `point`, `force` NULL or readable for 3 floats;
    /// `wrench` NULL or a wrench whose `q` is writable for `q_len` floats.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_apply_at_node_f32(
        body: *mut bdtree_body_f32,
        node: u32,
        point: *const f32,
        force: *const f32,
        wrench: *mut bdtree_wrench_f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { apply::<f32>(body.cast(), At::Node(node), point, force, wrench) }
    }

    /// Adds force `force` at `point` (the body's frame) on `triangle` of `body` to `wrench`:
    /// the force, its torque and the generalized force of the deformed triangle's point
    /// nearest to `point`, `Σ λ_i U_iᵀ Rᵀ f` (three vertex deformations and `9M`
    /// multiply-adds). A triangle the model does not have: `BDTREE_STATUS_BAD_ARGUMENT`; a NaN
    /// or infinity: `BDTREE_STATUS_NON_FINITE`; nothing added either way.
    ///
    /// # Safety
    ///
    /// As `bdtree_apply_at_node_f32`.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_apply_at_triangle_f32(
        body: *mut bdtree_body_f32,
        triangle: u32,
        point: *const f32,
        force: *const f32,
        wrench: *mut bdtree_wrench_f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { apply::<f32>(body.cast(), At::Triangle(triangle), point, force, wrench) }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/response_f64.rs"));

//! The contact Jacobian (`bdtree_contact_jacobian_*`): the derivative of an exact contact's
//! depth with respect to each body's reduced coordinates, from the kernel's penetration
//! gradient ([`bdtree_core::contact_jacobian`]), into rows the caller owns.

use bdtree_core::geometry::penetration::{Penetration, PenetrationAxis};
use bdtree_core::{contact_jacobian, JacobianError};

use crate::body::{bdtree_body_f32, bdtree_body_f64, BodySlot};
use crate::contacts::{bdtree_contact_f32, bdtree_contact_f64};
use crate::ffi::{self, Precision};
use crate::status::{bdtree_status, status, Result};

/// The penetration a contact Jacobian differentiates, in f32: the least penetration of the
/// contact's two triangles at the bodies' current states and the features that give it (two
/// states with the same features have depths on one smooth function of `q`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_penetration_f32 {
    /// Unit normal of least penetration, from the first body's triangle to the second's.
    pub normal: [f32; 3],
    /// The overlap along `normal` (negative when the triangles are apart along it).
    pub depth: f32,
    /// The winning axis: 0 none (the triangles have no penetration axis: rows 0), 1 the first
    /// triangle's normal, 2 the second's, 3 edge `edge_a` of the first × edge `edge_b` of the
    /// second, 4 the first's normal × its edge `edge_a`, 5 the second's normal × its edge
    /// `edge_b` (edge `i` runs from the triangle's vertex `i` to vertex `i + 1` mod 3).
    pub axis: u8,
    /// The first triangle's edge of the axis (0 when the axis has none).
    pub edge_a: u8,
    /// The second triangle's edge of the axis (0 when the axis has none).
    pub edge_b: u8,
    /// 1 when the normal is the axis reversed, else 0.
    pub reversed: u8,
    /// The first triangle's vertices at its extreme along the axis (bit `k` for vertex `k`).
    pub vertices_a: u8,
    /// The second triangle's, likewise.
    pub vertices_b: u8,
}

/// The penetration a contact Jacobian differentiates, in f64 (see `bdtree_penetration_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_penetration_f64 {
    /// Unit normal of least penetration, from the first body's triangle to the second's.
    pub normal: [f64; 3],
    /// The overlap along `normal`.
    pub depth: f64,
    /// The winning axis (see `bdtree_penetration_f32`).
    pub axis: u8,
    /// The first triangle's edge of the axis.
    pub edge_a: u8,
    /// The second triangle's edge of the axis.
    pub edge_b: u8,
    /// 1 when the normal is the axis reversed.
    pub reversed: u8,
    /// The first triangle's extreme vertices.
    pub vertices_a: u8,
    /// The second triangle's.
    pub vertices_b: u8,
}

/// The C types of one precision.
pub trait Rows: Precision {
    /// `bdtree_contact_*`.
    type Contact: Copy;
    /// `bdtree_penetration_*`.
    type Penetration: From<Option<Penetration<Self>>>;
    /// The triangles `(a, b)` of a contact.
    fn triangles(c: &Self::Contact) -> (u32, u32);
}

/// The C encoding of an axis: `(axis, edge_a, edge_b)`.
fn axis_code(axis: PenetrationAxis) -> (u8, u8, u8) {
    match axis {
        PenetrationAxis::FaceA => (1, 0, 0),
        PenetrationAxis::FaceB => (2, 0, 0),
        PenetrationAxis::EdgeEdge(i, j) => (3, i, j),
        PenetrationAxis::InPlaneA(i) => (4, i, 0),
        PenetrationAxis::InPlaneB(j) => (5, 0, j),
    }
}

macro_rules! rows {
    ($s:ty, $contact:ty, $penetration:ident) => {
        impl From<Option<Penetration<$s>>> for $penetration {
            fn from(p: Option<Penetration<$s>>) -> Self {
                let Some(p) = p else {
                    return Self::default();
                };
                let (axis, edge_a, edge_b) = axis_code(p.features.axis);
                Self {
                    normal: p.normal,
                    depth: p.depth,
                    axis,
                    edge_a,
                    edge_b,
                    reversed: u8::from(p.features.reversed),
                    vertices_a: p.features.vertices_a,
                    vertices_b: p.features.vertices_b,
                }
            }
        }

        impl Rows for $s {
            type Contact = $contact;
            type Penetration = $penetration;
            fn triangles(c: &$contact) -> (u32, u32) {
                (c.a, c.b)
            }
        }
    };
}

rows!(f32, bdtree_contact_f32, bdtree_penetration_f32);
rows!(f64, bdtree_contact_f64, bdtree_penetration_f64);

/// Whether two non-empty slices share memory.
fn overlapping<T>(x: &[T], y: &[T]) -> bool {
    let span = |s: &[T]| {
        let start = s.as_ptr() as usize;
        (start, start + core::mem::size_of_val(s))
    };
    let ((x0, x1), (y0, y1)) = (span(x), span(y));
    !x.is_empty() && !y.is_empty() && x0 < y1 && y0 < x1
}

/// A contact's Jacobian rows.
///
/// # Safety
///
/// `contact` NULL or readable; `a`, `b` NULL or body objects (the same one allowed); `row_a`,
/// `row_b` NULL or writable for `len_a`, `len_b` scalars; `penetration` NULL or writable.
#[allow(clippy::too_many_arguments)]
pub unsafe fn jacobian<S: Rows>(
    contact: *const S::Contact,
    a: *const BodySlot<S>,
    b: *const BodySlot<S>,
    row_a: *mut S,
    len_a: usize,
    row_b: *mut S,
    len_b: usize,
    penetration: *mut S::Penetration,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || -> Result<()> {
        // SAFETY: forwarded (one element; read-only objects, which may be the same one).
        let (contact, a, b) = unsafe {
            (
                *ffi::slice(contact, 1)?
                    .first()
                    .ok_or(bdtree_status::NullPointer)?,
                ffi::object(a, S::BODY)?,
                ffi::object(b, S::BODY)?,
            )
        };
        // SAFETY: forwarded; checked apart below before either is written.
        let (row_a, row_b) =
            unsafe { (ffi::slice_mut(row_a, len_a)?, ffi::slice_mut(row_b, len_b)?) };
        if overlapping(row_a, row_b) {
            return Err(bdtree_status::BadArgument);
        }
        let (ta, tb) = S::triangles(&contact);
        let found = contact_jacobian(a, b, ta as usize, tb as usize, row_a, row_b).map_err(
            |e| match e {
                JacobianError::BadTriangle => bdtree_status::BadArgument,
                JacobianError::RowTooShort => bdtree_status::WrongModeCount,
            },
        )?;
        // SAFETY: forwarded.
        unsafe { ffi::put(penetration, S::Penetration::from(found)) }
    };
    status(run())
}

/// The exported contact Jacobian in f32 (`exports_f64` below is generated from it, word for
/// word in the other precision).
pub mod exports_f32 {
    use super::*;

    /// The contact Jacobian of an exact contact (as `bdtree_collide_contacts_f32` gives it;
    /// its triangles `contact.a` of `a` and `contact.b` of `b` are read, its point and normal
    /// are not) at the bodies' current states: `row_a[j] = ∂depth/∂q_a[j]` for the first
    /// `modes` entries of `row_a` (a's mode count, `bdtree_image_info`), likewise `row_b`, with
    /// `depth` the triangles' least penetration and its normal turning with the features that
    /// define it (kernel `contact_jacobian`, from `penetration_gradient`): moving `q_a` by `δ`
    /// changes the depth by `row_a · δ` to first order. Written to `penetration` (NULL: not
    /// wanted): the normal, depth and features the rows differentiate. It is the derivative
    /// where the depth is positive and the features stay the same around the state (compare
    /// the features of nearby states); at a switch, the one-sided derivative of the features
    /// reported. Two triangles with no penetration axis (both of zero area): rows 0,
    /// `penetration->axis` 0, `BDTREE_STATUS_OK`. For a contact of a body with itself pass the
    /// body as both `a` and `b`: its derivative is `row_a + row_b`. In the bodies' precision,
    /// at the states as set (on a device: relative to the pair's floating origin); about
    /// `6 (3M + 9) + 250 + 9 (M_a + M_b)` multiply-adds. A row shorter than its body's modes:
    /// `BDTREE_STATUS_WRONG_MODE_COUNT`; a triangle index a body does not have, or rows that
    /// overlap: `BDTREE_STATUS_BAD_ARGUMENT` — nothing written then.
    ///
    /// # Safety
    ///
    /// `contact` NULL or readable; `a`, `b` NULL or initialised bodies (they may be the same);
    /// `row_a`, `row_b` NULL or writable for `len_a`, `len_b` floats (NULL allowed with a
    /// length of 0); `penetration` NULL or writable.
    #[no_mangle]
    #[allow(clippy::too_many_arguments)]
    pub unsafe extern "C" fn bdtree_contact_jacobian_f32(
        contact: *const bdtree_contact_f32,
        a: *const bdtree_body_f32,
        b: *const bdtree_body_f32,
        row_a: *mut f32,
        len_a: usize,
        row_b: *mut f32,
        len_b: usize,
        penetration: *mut bdtree_penetration_f32,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            jacobian::<f32>(
                contact,
                a.cast(),
                b.cast(),
                row_a,
                len_a,
                row_b,
                len_b,
                penetration,
            )
        }
    }
}
// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/jacobian_f64.rs"));

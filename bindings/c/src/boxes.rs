//! Box bounds (the box variant of the BD-Tree, `bdtree_core::query::boxes`): a tree's box table, made
//! on a host by `bdtree boxes` (computed in f64, which a device cannot do) and validated once
//! against its image (`bdtree_box_table_init_*`), and the triangle-pair query that prunes
//! node pairs with oriented boxes instead of spheres (`bdtree_collide_boxes_*`).

use core::mem::size_of;

use bdtree_core::query::boxes::{collide_boxes, BoxTable, BoxTest};
use bdtree_core::{crc32, Body, Image, Scalar};

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::ffi::{self, holds, mark, Precision, Slot};
use crate::image::{bdtree_image_f32, bdtree_image_f64, ImageSlot};
use crate::query::{
    bdtree_node_pair, bdtree_stats, bdtree_triangle_pair, clear_outputs, finish, stack, CBuffer,
};
use crate::status::{bdtree_status, status, Result};

/// Bytes of a box table file's header (`bdtree_box_table_init_*`): the rows start there.
pub const BDTREE_BOX_TABLE_HEADER_BYTES: usize = 32;

/// The first 8 bytes of a box table file: `"BDTBOXES"`.
const MAGIC: [u8; 8] = *b"BDTBOXES";

/// The box table file format this library reads.
const VERSION: u32 = 1;

/// `axes` of `bdtree_collide_boxes_*`: the separating-axis test over all 15 axes (3 + 3 face
/// normals, 9 edge cross products): exact for boxes, up to a rounding slack.
pub const BDTREE_BOX_AXES_15: u32 = 15;

/// `axes` of `bdtree_collide_boxes_*`: the 6 face normals only ("SAT lite"): cheaper per
/// test, prunes less (it may keep boxes only an edge-edge axis separates), never the reverse.
pub const BDTREE_BOX_AXES_6: u32 = 6;

/// 64-bit words of a `bdtree_box_table_f32`/`bdtree_box_table_f64` on a 64-bit target.
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_BOX_TABLE_WORDS: usize = 8;

/// 64-bit words of a `bdtree_box_table_f32`/`bdtree_box_table_f64` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_BOX_TABLE_WORDS: usize = 6;

/// A tree's box table in f32, validated against its image (`bdtree_box_table_init_f32`). It
/// borrows the table bytes: they must stay valid and unchanged while it is used. Opaque; may
/// be copied.
#[repr(C)]
pub struct bdtree_box_table_f32 {
    _opaque: [u64; BDTREE_BOX_TABLE_WORDS],
}

/// A tree's box table in f64 (`bdtree_box_table_init_f64`).
#[repr(C)]
pub struct bdtree_box_table_f64 {
    _opaque: [u64; BDTREE_BOX_TABLE_WORDS],
}

/// A validated table and the image it belongs to (the address of the image's triangles, which
/// a body made from that image holds too).
pub struct Held<S: Scalar> {
    table: BoxTable<'static, S>,
    triangles: *const [u32; 3],
    nodes: usize,
    modes: usize,
}

holds!(bdtree_box_table_f32, Held<f32>);
holds!(bdtree_box_table_f64, Held<f64>);

/// What a C box table object holds.
pub type TableSlot<S> = Slot<Held<S>>;

/// A precision's box table mark.
pub trait BoxPrecision: Precision {
    /// Mark of an initialised box table object.
    const BOX_TABLE: u64;
}

impl BoxPrecision for f32 {
    const BOX_TABLE: u64 = mark::BOX_TABLE_F32;
}

impl BoxPrecision for f64 {
    const BOX_TABLE: u64 = mark::BOX_TABLE_F64;
}

impl<S: Scalar> Held<S> {
    /// Whether `body` was made from the image this table was validated against.
    fn belongs_to(&self, body: &Body<'_, '_, S>) -> bool {
        core::ptr::eq(body.model().triangles().as_ptr(), self.triangles)
            && body.tree().node_count() == self.nodes
            && body.tree().modes() == self.modes
    }
}

/// Little-endian word `i` of the header (bytes `8 + 4 i ..`).
fn word(bytes: &[u8], i: usize) -> Option<u32> {
    let at = 8 + 4 * i;
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Checks a box table file against `image`; its rows.
fn rows<'a, S: Scalar>(bytes: &'a [u8], image: &Image<'_, S>) -> Result<&'a [[S; 4]]> {
    let short = bdtree_status::BoxTableTooShort;
    if image.tree.is_bounded() {
        return Err(bdtree_status::Truncated);
    }
    if bytes.get(..8).ok_or(short)? != MAGIC {
        return Err(bdtree_status::BoxTableBadMagic);
    }
    let header = |i| word(bytes, i).ok_or(short);
    if header(0)? != VERSION {
        return Err(bdtree_status::BoxTableUnsupportedVersion);
    }
    if header(1)? != S::BYTES {
        return Err(bdtree_status::BoxTableScalarMismatch);
    }
    let (nodes, modes) = (image.tree.node_count(), image.tree.modes());
    let [n, m, checksum, crc] = [header(2)?, header(3)?, header(4)?, header(5)?];
    if n as usize != nodes || m as usize != modes || checksum != image.header.checksum {
        return Err(bdtree_status::BoxTableWrongTree);
    }
    let count = nodes
        .checked_mul(modes + 1)
        .ok_or(bdtree_status::BoxTableWrongTree)?;
    let expected = count
        .checked_mul(size_of::<[S; 4]>())
        .and_then(|b| b.checked_add(BDTREE_BOX_TABLE_HEADER_BYTES))
        .ok_or(bdtree_status::BoxTableWrongTree)?;
    if bytes.len() < expected {
        return Err(short);
    }
    if bytes.len() > expected {
        return Err(bdtree_status::BoxTableLengthMismatch);
    }
    let body = bytes.get(BDTREE_BOX_TABLE_HEADER_BYTES..).ok_or(short)?;
    if crc32(body) != crc {
        return Err(bdtree_status::BoxTableChecksumMismatch);
    }
    let start = body.as_ptr().cast::<[S; 4]>();
    if !start.is_aligned() {
        return Err(bdtree_status::Misaligned);
    }
    // SAFETY: `count` rows of `[S; 4]` are exactly `body`'s bytes (length checked above),
    // aligned (checked), and every bit pattern is a scalar (validated below); they live as
    // long as `bytes`.
    let rows = unsafe { core::slice::from_raw_parts(start, count) };
    Ok(rows)
}

/// Validates a box table file against an image (see `bdtree_box_table_init_f32`).
///
/// # Safety
///
/// `bytes` valid for `len` bytes for as long as the table is used; `image` NULL or an image
/// object; `table` NULL or writable for the object.
pub unsafe fn box_table_init<S: BoxPrecision>(
    bytes: *const u8,
    len: usize,
    image: *const ImageSlot<S>,
    table: *mut TableSlot<S>,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { ffi::forget(table) };
    // SAFETY: forwarded.
    let run = || unsafe {
        ffi::check(bytes)?;
        ffi::check(table)?;
        let image = ffi::object(image, S::IMAGE)?;
        if !bytes.cast::<[S; 4]>().is_aligned() {
            return Err(bdtree_status::Misaligned);
        }
        let rows = rows::<S>(ffi::slice(bytes, len)?, image)?;
        let checked =
            BoxTable::new(rows, &image.tree).map_err(|_| bdtree_status::BoxTableBadValue)?;
        let held = Held {
            table: checked,
            triangles: image.model.triangles().as_ptr(),
            nodes: image.tree.node_count(),
            modes: image.tree.modes(),
        };
        ffi::init(table, S::BOX_TABLE, held)
    };
    status(run())
}

/// Every intersecting triangle pair of two bodies, node pairs pruned by their boxes (see
/// `bdtree_collide_boxes_f32`).
///
/// # Safety
///
/// As [`crate::triangles::collide`], with `table_a`, `table_b` box table objects.
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_with_boxes<S: BoxPrecision>(
    a: *mut BodySlot<S>,
    table_a: *const TableSlot<S>,
    b: *mut BodySlot<S>,
    table_b: *const TableSlot<S>,
    axes: u32,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut bdtree_triangle_pair,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let (a, b) = two_bodies(a, b)?;
        let ta = ffi::object(table_a, S::BOX_TABLE)?;
        let tb = ffi::object(table_b, S::BOX_TABLE)?;
        let test = match axes {
            BDTREE_BOX_AXES_15 => BoxTest::Exact,
            BDTREE_BOX_AXES_6 => BoxTest::FaceAxes,
            _ => return Err(bdtree_status::BadArgument),
        };
        if !ta.belongs_to(a) || !tb.belongs_to(b) {
            return Err(bdtree_status::BoxTableWrongTree);
        }
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let outcome = collide_boxes(a, b, &ta.table, &tb.table, test, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
}

/// The exported functions of box bounds in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// Validates a tree's box table against its image, once, and views it in place (zero-copy).
    /// The table is made on a host (`bdtree boxes TREE.bdt -o TABLE`, computed in double
    /// precision from the image's own model and rounded up) and loaded beside the image.
    ///
    /// Format (`bdtree_std::build::box_file`): a 32-byte header of little-endian 32-bit words —
    /// bytes 0-7 the magic `"BDTBOXES"`, 8-11 the format version (1), 12-15 the scalar's bytes
    /// (4 or 8, the image's), 16-19 the nodes N and 20-23 the modes M (the image's), 24-27 the
    /// image's checksum (the CRC-32 in the image header: the tree the table belongs to), 28-31
    /// the CRC-32 of bytes 32 to the end — then N (M + 1) rows of 4 little-endian scalars: per
    /// node `[H_x, H_y, H_z, 0]`, the box half-extents about the node's sphere center in the
    /// body's axes, then per mode `[dH_jx, dH_jy, dH_jz, 0]`, their growth per unit `|q_j|`.
    /// Its size is `BDTREE_BOX_TABLE_HEADER_BYTES + 4 N (M + 1) s` bytes, `s` the scalar's
    /// bytes (4 or 8).
    ///
    /// Checks, in order, each with its status: a bounded-depth image (`BDTREE_STATUS_TRUNCATED`:
    /// no mesh to bound); the magic (`…_BOX_TABLE_BAD_MAGIC`), the version (`…_UNSUPPORTED_VERSION`),
    /// the scalar (`…_SCALAR_MISMATCH`); nodes, modes and image checksum against `image`
    /// (`…_WRONG_TREE`); the length (`…_TOO_SHORT` for a header or table cut short,
    /// `…_LENGTH_MISMATCH` for bytes beyond it); the CRC (`…_CHECKSUM_MISMATCH`); every value
    /// finite, non-negative, the fourth lanes 0, and each within its sphere's matching bound
    /// `H <= R`, `dH_j <= dR_j` (`…_BAD_VALUE`). `O(size)`. On success `table` holds the view;
    /// on failure it is marked unusable.
    ///
    /// # Safety
    ///
    /// `bytes` must point to `len` readable bytes, aligned to 4 (16 is always enough), that stay
    /// valid and unchanged while the table is used. `image` must be NULL or point to a
    /// `bdtree_image_f32`; `table` NULL or writable memory for a `bdtree_box_table_f32`.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_box_table_init_f32(
        bytes: *const u8,
        len: usize,
        image: *const bdtree_image_f32,
        table: *mut bdtree_box_table_f32,
    ) -> bdtree_status {
        // SAFETY: the caller's contract above is the one this file's work requires.
        unsafe { box_table_init::<f32>(bytes, len, image.cast(), table.cast()) }
    }

    /// `bdtree_collide_f32` with box bounds: the same intersecting triangle pairs, node pairs
    /// pruned by oriented boxes (each centred on its node's BD-Tree center `c + U q`, aligned
    /// with the body's axes, half-extents `H + sum_j dH_j |q_j|`) instead of spheres. Boxes
    /// prune better on flat or elongated nodes (sheets, limbs), spheres on round ones; a box
    /// test costs more than a sphere test. Conservative as `bdtree_collide_f32`: the boxes hold
    /// their node's deformed geometry with its rounding, so every intersecting pair is
    /// reported, and the leaf test is the same (refine an f32 answer with `bdtree_refine_f32`).
    ///
    /// `table_a` and `table_b` are the box tables of the images `a` and `b` were made from
    /// (`bdtree_box_table_init_f32` with that image; `BDTREE_STATUS_BOX_TABLE_WRONG_TREE`
    /// otherwise). `axes` is `BDTREE_BOX_AXES_15` (the exact separating-axis test) or
    /// `BDTREE_BOX_AXES_6` (face axes only); anything else is `BDTREE_STATUS_BAD_ARGUMENT`.
    /// Stack, output buffer, `count`, `stats` and the other statuses as `bdtree_collide_f32`
    /// (`bdtree_stack_capacity(depth_a, depth_b)` entries).
    ///
    /// # Safety
    ///
    /// As `bdtree_collide_f32`; `table_a` and `table_b` must be NULL or point to
    /// `bdtree_box_table_f32` objects whose bytes are still valid.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_boxes_f32(
        a: *mut bdtree_body_f32,
        table_a: *const bdtree_box_table_f32,
        b: *mut bdtree_body_f32,
        table_b: *const bdtree_box_table_f32,
        axes: u32,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        pairs: *mut bdtree_triangle_pair,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_with_boxes::<f32>(
                a.cast(),
                table_a.cast(),
                b.cast(),
                table_b.cast(),
                axes,
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
include!(concat!(env!("OUT_DIR"), "/boxes_f64.rs"));

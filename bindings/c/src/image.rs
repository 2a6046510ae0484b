//! Tree images: validated once and viewed in place (`bdtree_image_parse_*`), explained when
//! refused (`bdtree_image_check_*`), described (`bdtree_image_info_*`).

use core::ffi::c_char;
use core::fmt::Write as _;

use bdtree_core::Image;

use crate::ffi::{self, holds, Precision, Slot};
use crate::status::{bdtree_status, status};

/// 64-bit words of a `bdtree_image_f32`/`bdtree_image_f64` on a 64-bit target (the header
/// gives 32-bit targets, `UINTPTR_MAX == 0xFFFFFFFF`, their own smaller sizes).
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_IMAGE_WORDS: usize = 68;

/// 64-bit words of a `bdtree_image_f32`/`bdtree_image_f64` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_IMAGE_WORDS: usize = 36;

/// A validated tree image of f32 scalars, viewed in place (`bdtree_image_parse_f32`). It
/// borrows the image bytes: they must stay valid and unchanged while the view or any body made
/// from it is used. Opaque; may be copied.
#[repr(C)]
pub struct bdtree_image_f32 {
    _opaque: [u64; BDTREE_IMAGE_WORDS],
}

/// A validated tree image of f64 scalars (`bdtree_image_parse_f64`).
#[repr(C)]
pub struct bdtree_image_f64 {
    _opaque: [u64; BDTREE_IMAGE_WORDS],
}

holds!(bdtree_image_f32, Image<'static, f32>);
holds!(bdtree_image_f64, Image<'static, f64>);

/// What an image holds (`bdtree_image_info_*`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct bdtree_image_info {
    /// Tree nodes: the sphere cache has one entry per node.
    pub nodes: u32,
    /// Triangles of the model the tree was built on.
    pub triangles: u32,
    /// Vertices of the stored mesh (0 for a bounded-depth image).
    pub vertices: u32,
    /// Modes `M`: `q` has `M` entries.
    pub modes: u32,
    /// Depth of the deepest node (the root has depth 0): sizes the query stacks.
    pub depth: u32,
    /// Scalar size in bytes (4 or 8).
    pub scalar_bytes: u32,
    /// Image length in bytes.
    pub bytes: u32,
    /// Nested bounds (built `--nested`): proxy queries work.
    pub nested: bool,
    /// Bounded depth (no mesh): only proxy queries work.
    pub bounded: bool,
    /// The image carries the self-collision culling data (`bdtree build --self-cull`):
    /// `bdtree_collide_self_*` culls with it and needs `nodes × BDTREE_CONE_SLOT_BYTES` bytes
    /// of cone storage.
    pub self_cull: bool,
    /// The image carries fitted spheres (a medial tree, or `bdtree build --fitted`).
    pub fitted: bool,
}

/// What a C image object holds.
pub type ImageSlot<S> = Slot<Image<'static, S>>;

/// Parses and validates an image in place (see `bdtree_image_parse_f32`).
///
/// # Safety
///
/// `bytes` valid for `len` bytes for as long as the image or a body made from it is used;
/// `image` NULL or writable for the object.
pub unsafe fn image_parse<S: Precision>(
    bytes: *const u8,
    len: usize,
    image: *mut ImageSlot<S>,
) -> bdtree_status {
    // SAFETY: forwarded.
    unsafe { ffi::forget(image) };
    // SAFETY: forwarded.
    let run = || unsafe {
        ffi::check(bytes)?;
        let bytes = ffi::slice(bytes, len)?;
        ffi::check(image)?;
        let parsed = Image::<'static, S>::parse(bytes)?;
        ffi::init(image, S::IMAGE, parsed)
    };
    status(run())
}

/// Parses an image and, when it is refused, writes the kernel's message (see
/// `bdtree_image_check_f32`).
///
/// # Safety
///
/// `bytes` valid for `len` bytes; `message` NULL or writable for `capacity` bytes.
pub unsafe fn image_check<S: Precision>(
    bytes: *const u8,
    len: usize,
    message: *mut c_char,
    capacity: usize,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let text = ffi::slice_mut(message.cast::<u8>(), capacity)?;
        let mut w = Text { buf: text, len: 0 };
        let bytes = ffi::slice(bytes, len)?;
        match Image::<'_, S>::parse(bytes) {
            Ok(_) => {
                let _ = w.write_str("ok");
                w.finish();
                Ok(())
            }
            Err(e) => {
                let _ = write!(w, "{e}");
                w.finish();
                Err(e.into())
            }
        }
    };
    status(run())
}

/// A C string buffer: text truncated to `capacity − 1` bytes, then a NUL.
struct Text<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl Text<'_> {
    fn finish(&mut self) {
        let end = self.len.min(self.buf.len().saturating_sub(1));
        if let Some(b) = self.buf.get_mut(end) {
            *b = 0;
        }
    }
}

impl core::fmt::Write for Text<'_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if self.len.saturating_add(1) >= self.buf.len() {
                break;
            }
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

/// What an image holds.
///
/// # Safety
///
/// `image` NULL or an image object; `info` NULL or writable.
pub unsafe fn image_info<S: Precision>(
    image: *const ImageSlot<S>,
    info: *mut bdtree_image_info,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        let out = ffi::out(info)?;
        let image = ffi::object(image, S::IMAGE)?;
        let (tree, header) = (&image.tree, &image.header);
        out.write(bdtree_image_info {
            nodes: header.nodes,
            triangles: header.triangles,
            vertices: header.vertices,
            modes: header.modes,
            depth: tree.depth(),
            scalar_bytes: header.scalar_bytes,
            bytes: header.total_len,
            nested: tree.is_nested(),
            bounded: tree.is_bounded(),
            self_cull: tree.self_data().is_some(),
            fitted: tree.has_fitted(),
        });
        Ok(())
    };
    status(run())
}

/// The exported functions of tree images in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// Validates a tree image of f32 scalars and views it in place (zero-copy): header, length,
    /// checksum, every link, index and value (`O(size)`, once). On success `image` holds the view;
    /// on failure it is marked unusable and the status names the problem
    /// (`BDTREE_STATUS_IMAGE_…`; `bdtree_image_check_f32` gives the kernel's full message).
    ///
    /// # Safety
    ///
    /// `bytes` must point to `len` readable bytes, aligned to 4 (16 is always enough), that stay
    /// valid and unchanged while the image view or any body made from it is used (flash, a
    /// `static` array, or a heap block the caller frees afterwards). `image` must be NULL or
    /// point to writable memory for a `bdtree_image_f32`.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_image_parse_f32(
        bytes: *const u8,
        len: usize,
        image: *mut bdtree_image_f32,
    ) -> bdtree_status {
        // SAFETY: the caller's contract above is the one this file's work requires.
        unsafe { image_parse::<f32>(bytes, len, image.cast()) }
    }

    /// Validates a tree image of f32 scalars and writes the kernel's message into `message`:
    /// `"ok"`, or the problem (e.g. `"tree image checksum mismatch (stored 0x…, computed 0x…):
    /// the image is corrupt"`), truncated to `capacity − 1` bytes and NUL-terminated. Returns the
    /// status `bdtree_image_parse_f32` would.
    ///
    /// # Safety
    ///
    /// `bytes` must point to `len` readable bytes aligned to 4; `message` must point to
    /// `capacity` writable bytes (NULL when `capacity` is 0).
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_image_check_f32(
        bytes: *const u8,
        len: usize,
        message: *mut c_char,
        capacity: usize,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { image_check::<f32>(bytes, len, message, capacity) }
    }

    /// Writes what a parsed image holds (nodes, triangles, vertices, modes, depth, …) to `info`.
    ///
    /// # Safety
    ///
    /// `image` must be NULL or point to a `bdtree_image_f32` (parsed, or at least zeroed);
    /// `info` must be NULL or writable.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_image_info_f32(
        image: *const bdtree_image_f32,
        info: *mut bdtree_image_info,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe { image_info::<f32>(image.cast(), info) }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/image_f64.rs"));

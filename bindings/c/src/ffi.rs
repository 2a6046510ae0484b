//! Where C's pointers become Rust references: every pointer is checked for NULL and alignment,
//! every length for overflow, every object for the mark its initialiser wrote, before a
//! reference is made. Also what every object shares: its slot, its mark, and the precisions.

use core::mem::size_of;

use bdtree_core::Scalar;

use crate::status::{bdtree_status, Result};

/// What an opaque C object holds: a mark naming its kind and precision (written last by its
/// initialiser) and the Rust value.
#[repr(C)]
pub struct Slot<T> {
    mark: u64,
    value: T,
}

/// Marks of initialised objects, one per kind and precision ("bdtr" and a code), so that an
/// uninitialised (zeroed) object or an object of another kind is refused.
pub(crate) mod mark {
    /// `bdtree_image_f32`.
    pub(crate) const IMAGE_F32: u64 = 0x6264_7472_0001_0004;
    /// `bdtree_image_f64`.
    pub(crate) const IMAGE_F64: u64 = 0x6264_7472_0001_0008;
    /// `bdtree_body_f32`.
    pub(crate) const BODY_F32: u64 = 0x6264_7472_0002_0004;
    /// `bdtree_body_f64`.
    pub(crate) const BODY_F64: u64 = 0x6264_7472_0002_0008;
    /// `bdtree_traversal_f32`.
    pub(crate) const TRAVERSAL_F32: u64 = 0x6264_7472_0003_0004;
    /// `bdtree_traversal_f64`.
    pub(crate) const TRAVERSAL_F64: u64 = 0x6264_7472_0003_0008;
    /// `bdtree_primitive_f32`.
    pub(crate) const PRIMITIVE_F32: u64 = 0x6264_7472_0004_0004;
    /// `bdtree_primitive_f64`.
    pub(crate) const PRIMITIVE_F64: u64 = 0x6264_7472_0004_0008;
    /// `bdtree_box_table_f32`.
    pub(crate) const BOX_TABLE_F32: u64 = 0x6264_7472_00b0_0004;
    /// `bdtree_box_table_f64`.
    pub(crate) const BOX_TABLE_F64: u64 = 0x6264_7472_00b0_0008;
    /// `bdtree_swept_front_f32`.
    pub(crate) const SWEPT_FRONT_F32: u64 = 0x6264_7472_0005_0004;
    /// `bdtree_swept_front_f64`.
    pub(crate) const SWEPT_FRONT_F64: u64 = 0x6264_7472_0005_0008;
}

/// A scalar the C API is offered in, with its objects' marks.
pub trait Precision: Scalar {
    /// Mark of an initialised image object.
    const IMAGE: u64;
    /// Mark of an initialised body object.
    const BODY: u64;
    /// Mark of an initialised traversal object.
    const TRAVERSAL: u64;
    /// Mark of an initialised primitive object.
    const PRIMITIVE: u64;
}

impl Precision for f32 {
    const IMAGE: u64 = mark::IMAGE_F32;
    const BODY: u64 = mark::BODY_F32;
    const TRAVERSAL: u64 = mark::TRAVERSAL_F32;
    const PRIMITIVE: u64 = mark::PRIMITIVE_F32;
}

impl Precision for f64 {
    const IMAGE: u64 = mark::IMAGE_F64;
    const BODY: u64 = mark::BODY_F64;
    const TRAVERSAL: u64 = mark::TRAVERSAL_F64;
    const PRIMITIVE: u64 = mark::PRIMITIVE_F64;
}

/// Checks at compile time, for the target being built, that an opaque C object holds its Rust
/// value with the alignment the value needs.
macro_rules! holds {
    ($c:ty, $rust:ty) => {
        const _: () = {
            use core::mem::{align_of, size_of};
            assert!(size_of::<Slot<$rust>>() <= size_of::<$c>());
            assert!(align_of::<Slot<$rust>>() <= align_of::<$c>());
        };
    };
}
pub(crate) use holds;

/// Checks that `ptr` is non-NULL and aligned for `T`.
pub fn check<T>(ptr: *const T) -> Result<()> {
    if ptr.is_null() {
        Err(bdtree_status::NullPointer)
    } else if !ptr.is_aligned() {
        Err(bdtree_status::Misaligned)
    } else {
        Ok(())
    }
}

/// Whether `len` elements of `T` fit the address space (`len · size_of::<T>() ≤ isize::MAX`).
fn fits<T>(len: usize) -> Result<()> {
    match len.checked_mul(size_of::<T>()) {
        Some(bytes) if bytes <= isize::MAX as usize => Ok(()),
        _ => Err(bdtree_status::BadArgument),
    }
}

/// `len` elements at `ptr`, read-only. A zero length accepts any pointer, NULL included.
///
/// # Safety
///
/// When `len > 0`, `ptr` must point to `len` initialised elements that stay valid and are not
/// written to for `'a`.
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> Result<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    check(ptr)?;
    fits::<T>(len)?;
    // SAFETY: non-NULL, aligned, the byte length fits `isize`; the caller vouches for validity
    // and for no writes while the slice lives.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// `len` elements at `ptr`, writable. A zero length accepts any pointer, NULL included.
///
/// # Safety
///
/// When `len > 0`, `ptr` must point to `len` initialised elements that stay valid and are
/// accessed through nothing else for `'a`.
pub unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize) -> Result<&'a mut [T]> {
    if len == 0 {
        return Ok(&mut []);
    }
    check(ptr)?;
    fits::<T>(len)?;
    // SAFETY: as in `slice`, with exclusive access vouched for by the caller.
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// `len` elements at `ptr`, zeroed, writable: caller memory of unknown contents (a C array on
/// the stack) made a valid slice. A zero length accepts any pointer, NULL included.
///
/// # Safety
///
/// When `len > 0`, `ptr` must point to `len` writable elements that are accessed through
/// nothing else for `'a`; `T` must be valid for the all-zero bit pattern.
pub unsafe fn zeroed_mut<'a, T>(ptr: *mut T, len: usize) -> Result<&'a mut [T]> {
    if len == 0 {
        return Ok(&mut []);
    }
    check(ptr)?;
    fits::<T>(len)?;
    // SAFETY: non-NULL, aligned, the byte length fits `isize`, writable and exclusive by the
    // caller's contract; zero bytes are a valid `T`, so the slice is initialised.
    unsafe {
        core::ptr::write_bytes(ptr, 0, len);
        Ok(core::slice::from_raw_parts_mut(ptr, len))
    }
}

/// A caller-owned out-parameter.
///
/// # Safety
///
/// `ptr` must be NULL or point to writable memory for a `T` that nothing else accesses for
/// `'a`.
pub unsafe fn out<'a, T>(ptr: *mut T) -> Result<&'a mut core::mem::MaybeUninit<T>> {
    check(ptr)?;
    // SAFETY: non-NULL and aligned; `MaybeUninit` makes no claim about the contents.
    Ok(unsafe { &mut *ptr.cast::<core::mem::MaybeUninit<T>>() })
}

/// Writes `value` to an optional out-parameter (NULL: not wanted).
///
/// # Safety
///
/// `ptr` is NULL or valid for writing a `T`.
pub unsafe fn put<T>(ptr: *mut T, value: T) -> Result<()> {
    if ptr.is_null() {
        return Ok(());
    }
    // SAFETY: forwarded.
    unsafe { out(ptr) }?.write(value);
    Ok(())
}

/// The value of an initialised object (its mark checked), writable.
///
/// # Safety
///
/// `ptr` must be NULL or point to a C object of the type `Slot<T>` is stored in (initialised,
/// or at least zeroed, as a `static` is), accessed through nothing else for `'a`.
pub unsafe fn object_mut<'a, T>(ptr: *mut Slot<T>, expected: u64) -> Result<&'a mut T> {
    check(ptr)?;
    // SAFETY: non-NULL and aligned; the caller vouches that the memory is a C object of ours,
    // whose first word is the mark.
    let mark = unsafe { core::ptr::addr_of!((*ptr).mark).read() };
    if mark != expected {
        return Err(bdtree_status::NotInitialized);
    }
    // SAFETY: the mark is written only after a valid value (`init`), so the value is one.
    Ok(unsafe { &mut (*ptr).value })
}

/// The value of an initialised object, read-only.
///
/// # Safety
///
/// As [`object_mut`], with no writes through other pointers for `'a`.
pub unsafe fn object<'a, T>(ptr: *const Slot<T>, expected: u64) -> Result<&'a T> {
    check(ptr)?;
    // SAFETY: as in `object_mut`.
    let mark = unsafe { core::ptr::addr_of!((*ptr).mark).read() };
    if mark != expected {
        return Err(bdtree_status::NotInitialized);
    }
    // SAFETY: as in `object_mut`.
    Ok(unsafe { &(*ptr).value })
}

/// Writes a value and its mark into a C object (replacing whatever it held, without dropping
/// it: our values own nothing).
///
/// # Safety
///
/// `ptr` must be NULL or point to writable memory for a `Slot<T>` that nothing else accesses.
pub unsafe fn init<T>(ptr: *mut Slot<T>, mark: u64, value: T) -> Result<()> {
    check(ptr)?;
    // SAFETY: non-NULL, aligned, writable by the caller's contract.
    unsafe { ptr.write(Slot { mark, value }) };
    Ok(())
}

/// Clears an object's mark, so that a failed re-initialisation leaves it unusable rather than
/// holding a value over storage the caller may now reuse.
///
/// # Safety
///
/// As [`init`].
pub unsafe fn forget<T>(ptr: *mut Slot<T>) {
    if check(ptr).is_ok() {
        // SAFETY: non-NULL, aligned, writable by the caller's contract.
        unsafe { core::ptr::addr_of_mut!((*ptr).mark).write(0) };
    }
}

/// `len` bytes at `ptr`, zeroed, viewed as `count` elements of `T` from byte `offset`.
///
/// # Safety
///
/// `ptr..ptr + len` must be writable memory that nothing else accesses for `'a`; `T` must be
/// valid for the all-zero bit pattern (the kernel's cache, pending and scalar types are plain
/// floats and integers). The caller checks `offset + count · size_of::<T>() ≤ len` and the
/// alignment of `ptr + offset` (both are checked again here).
pub unsafe fn zeroed_part<'a, T>(
    ptr: *mut u8,
    len: usize,
    offset: usize,
    count: usize,
) -> Result<&'a mut [T]> {
    let bytes = count
        .checked_mul(size_of::<T>())
        .and_then(|b| b.checked_add(offset))
        .ok_or(bdtree_status::BadArgument)?;
    if bytes > len {
        return Err(bdtree_status::StorageTooSmall);
    }
    if count == 0 {
        return Ok(&mut []);
    }
    // SAFETY: `offset ≤ len`, inside the caller's block.
    let start = unsafe { ptr.add(offset) }.cast::<T>();
    check(start)?;
    // SAFETY: the range lies inside the caller's writable block; zero bytes are a valid `T`.
    unsafe {
        core::ptr::write_bytes(start, 0, count);
        Ok(core::slice::from_raw_parts_mut(start, count))
    }
}

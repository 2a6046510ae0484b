//! How a call ended: `bdtree_status`, its sentences, and the kernel's errors and outcomes as
//! statuses.

use core::ffi::{c_char, CStr};

use bdtree_core::{BodyError, ImageError, PoseError, PrimitiveError, QueryStatus, RunStatus};

/// How a call ended. `BDTREE_STATUS_OK` (0) is success; `BDTREE_STATUS_INTERRUPTED` is the
/// normal end of a budgeted traversal run with work left. Codes 1–99 mirror the kernel's
/// `QueryStatus`/`RunStatus`, 100–199 are bad arguments, 200–299 are image errors, 300–399
/// box table errors (`bdtree_box_table_init_*`).
/// `bdtree_status_name` gives a sentence for each.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum bdtree_status {
    /// Success: a query delivered every pair (or its complete answer), an image is valid, a
    /// body is ready, a traversal has nothing left pending.
    Ok = 0,
    /// A traversal's budget ran out: the pairs delivered so far and the pending pairs form a
    /// conservative cover. Call `bdtree_traversal_run_*` again in the same step to resume.
    Interrupted = 1,
    /// The output buffer is full: the pairs written are valid and more exist. Treat the bodies
    /// as colliding (or query again with a larger buffer). A traversal keeps the refused pair
    /// pending: a later run with room retries it.
    OutputFull = 2,
    /// The stack is smaller than the query needs (`bdtree_stack_capacity` and siblings):
    /// nothing was done. Treat the bodies as possibly colliding.
    StackTooSmall = 3,
    /// A traversal's pending list is full: its cover is conservative, but it cannot progress.
    /// Treat the pending pairs as colliding, or give it more storage.
    PendingFull = 4,
    /// A proxy query on a tree built without nesting (`bdtree build --nested`): nothing was
    /// done.
    NotNested = 5,
    /// A triangle query (or traversal) on a bounded-depth image, which stores no triangles:
    /// nothing was done. Ask a proxy query instead.
    Truncated = 6,
    /// A node or triangle index did not resolve (a body's tree and model disagree, or a pair
    /// given to `bdtree_refine_*` names a triangle its body does not have): the answer is
    /// incomplete; treat the bodies as possibly colliding.
    Inconsistent = 7,
    /// A body's state changed (`bdtree_body_set_state_*`) since `bdtree_traversal_start_*`:
    /// nothing was done. Start again.
    StateChanged = 8,
    /// A required pointer is NULL.
    NullPointer = 100,
    /// A pointer is not aligned for its type (storage: `BDTREE_STORAGE_ALIGN` bytes).
    Misaligned = 101,
    /// The storage given is smaller than `bdtree_body_storage_size_*` says (or a traversal's
    /// storage holds no pending entry, or a world query's order, roots or pair filter, or a
    /// pair filter's words, hold fewer entries than its body count needs).
    StorageTooSmall = 102,
    /// An object was used before its `…_init`/`…_parse` succeeded (or the wrong kind of object
    /// was passed).
    NotInitialized = 103,
    /// The same body was passed as both bodies of a pair query (use `bdtree_collide_self_*`),
    /// or twice (or two overlapping objects) in a world query's body array.
    SameBody = 104,
    /// `q` has a length other than the body's mode count.
    WrongModeCount = 105,
    /// A NaN or infinity in `q` (the rotation, the translation and the origin each have their
    /// own status: `BDTREE_STATUS_NON_FINITE_ROTATION`, `…_TRANSLATION`, `…_ORIGIN`).
    NonFinite = 106,
    /// The rotation quaternion's norm is further than 10⁻⁶ from 1 (`| ‖q‖ − 1 | > 10⁻⁶`: the
    /// kernel's `QUATERNION_TOLERANCE`, the same on every surface).
    NotUnitQuaternion = 107,
    /// The image's tree and model disagree.
    ModelMismatch = 108,
    /// An argument is out of range (an unknown order, a node index, a count above capacity,
    /// a length whose byte size overflows).
    BadArgument = 109,
    /// The state puts the body's coordinates beyond what its scalar computes with
    /// (`|t| + the deformed extent` above 2³⁰ in f32, 2²⁵⁰ in f64): refused, the body keeps
    /// its previous state. Move the origin closer (`bdtree_body_set_state_from_f64_*`).
    StateOutOfRange = 110,
    /// A NaN or infinity in the rotation quaternion.
    NonFiniteRotation = 111,
    /// A NaN or infinity in the translation (of a state, of a box primitive's center, or one
    /// given to `bdtree_floating_origin`).
    NonFiniteTranslation = 112,
    /// A NaN or infinity in the floating origin (`bdtree_body_set_state_from_f64_*`).
    NonFiniteOrigin = 113,
    /// A NaN or infinity in a primitive (`bdtree_primitive_*`): its center, ends, normal,
    /// offset, radius or half extents.
    PrimitiveNonFinite = 114,
    /// A plane primitive's normal has zero length.
    PrimitiveZeroNormal = 115,
    /// A primitive's radius or half extent is negative.
    PrimitiveNegativeRadius = 116,
    /// The image is truncated: shorter than its header, or than its header's counts say
    /// (`bdtree_image_check_*` gives both lengths).
    ImageTooShort = 200,
    /// Not a bdtree image (bad magic).
    ImageBadMagic = 201,
    /// A format version this library does not read.
    ImageUnsupportedVersion = 202,
    /// The image stores the other scalar (an f64 image given to an `_f32` function or the
    /// reverse).
    ImageScalarMismatch = 203,
    /// Inconsistent node, triangle or vertex counts.
    ImageBadCounts = 204,
    /// The sizes in the header overflow.
    ImageSizeOverflow = 205,
    /// The length given is longer than the header's counts say, or the header's total length
    /// disagrees with its counts (a shorter length is `BDTREE_STATUS_IMAGE_TOO_SHORT`).
    ImageLengthMismatch = 206,
    /// A reserved header word or padding byte is not zero.
    ImageReservedNotZero = 207,
    /// The checksum does not match: the image is corrupt.
    ImageChecksumMismatch = 208,
    /// The image bytes do not start at an address aligned for the scalar (4 or 8 bytes; 16
    /// is always enough).
    ImageMisaligned = 209,
    /// A NaN or infinity in a section.
    ImageNonFinite = 210,
    /// A radius, growth or bound that must be non-negative is negative.
    ImageNegative = 211,
    /// A node's children, triangle or depth are inconsistent.
    ImageBadLink = 212,
    /// A triangle refers to a vertex that does not exist.
    ImageBadFace = 213,
    /// A node exceeds the stored magnitude bounds.
    ImageBadStats = 214,
    /// Images are little-endian and so must the target be.
    ImageBigEndianTarget = 215,
    /// Unknown header flags.
    ImageUnknownFlags = 216,
    /// The image claims nested bounds but a child is not inside its parent.
    ImageNotNested = 217,
    /// An unknown row or model encoding.
    ImageUnknownEncoding = 218,
    /// Another image error (of a newer kernel), or a section a query reads where it uses it
    /// found malformed there (a self query's `normals` or `spheres`).
    ImageInvalid = 299,
    /// The box table is truncated: shorter than its header, or than the image's nodes and
    /// modes say.
    BoxTableTooShort = 300,
    /// Not a box table (bad magic: a box table starts with `"BDTBOXES"`).
    BoxTableBadMagic = 301,
    /// A box table format version this library does not read.
    BoxTableUnsupportedVersion = 302,
    /// The box table stores the other scalar (an f64 table given to an `_f32` function or the
    /// reverse).
    BoxTableScalarMismatch = 303,
    /// The box table belongs to another tree: its nodes, modes or image checksum differ from
    /// the image's (`bdtree_box_table_init_*`), or a body was not made from the image its table
    /// was validated against (`bdtree_collide_boxes_*`).
    BoxTableWrongTree = 304,
    /// The box table is longer than the image's nodes and modes say.
    BoxTableLengthMismatch = 305,
    /// The box table's checksum does not match: the table is corrupt.
    BoxTableChecksumMismatch = 306,
    /// A box table value is not finite, negative, a fourth lane is not zero, or a half-extent
    /// or growth exceeds its sphere's radius or growth (`H <= R`, `dH_j <= dR_j`).
    BoxTableBadValue = 307,
}

/// Sentences for the statuses, in `bdtree_status` order (see [`status_name`]).
const STATUS_NAMES: &[(bdtree_status, &CStr)] = &[
    (bdtree_status::Ok, c"ok"),
    (
        bdtree_status::Interrupted,
        c"interrupted: the budget ran out; run again to resume",
    ),
    (
        bdtree_status::OutputFull,
        c"output buffer full: more pairs exist; treat the bodies as colliding",
    ),
    (
        bdtree_status::StackTooSmall,
        c"stack too small for these trees (see bdtree_stack_capacity)",
    ),
    (
        bdtree_status::PendingFull,
        c"pending list full: treat the pending pairs as colliding",
    ),
    (
        bdtree_status::NotNested,
        c"proxy query on a tree built without nesting",
    ),
    (
        bdtree_status::Truncated,
        c"triangle query on a bounded-depth image (no triangles stored)",
    ),
    (
        bdtree_status::Inconsistent,
        c"a node or triangle index did not resolve",
    ),
    (
        bdtree_status::StateChanged,
        c"a body's state changed since the traversal started",
    ),
    (bdtree_status::NullPointer, c"a required pointer is NULL"),
    (
        bdtree_status::Misaligned,
        c"a pointer is not aligned for its type",
    ),
    (
        bdtree_status::StorageTooSmall,
        c"storage smaller than the object needs",
    ),
    (
        bdtree_status::NotInitialized,
        c"object not initialised (or of another kind or precision)",
    ),
    (
        bdtree_status::SameBody,
        c"the same body was given twice (use bdtree_collide_self)",
    ),
    (
        bdtree_status::WrongModeCount,
        c"q has the wrong length for the body's modes",
    ),
    (bdtree_status::NonFinite, c"a NaN or infinity in q"),
    (
        bdtree_status::NotUnitQuaternion,
        c"the rotation quaternion is not of unit length",
    ),
    (
        bdtree_status::ModelMismatch,
        c"the image's tree and model disagree",
    ),
    (bdtree_status::BadArgument, c"an argument is out of range"),
    (
        bdtree_status::StateOutOfRange,
        c"the state puts the body's coordinates beyond its precision's range",
    ),
    (
        bdtree_status::NonFiniteRotation,
        c"a NaN or infinity in the rotation",
    ),
    (
        bdtree_status::NonFiniteTranslation,
        c"a NaN or infinity in the translation",
    ),
    (
        bdtree_status::NonFiniteOrigin,
        c"a NaN or infinity in the origin",
    ),
    (
        bdtree_status::PrimitiveNonFinite,
        c"a NaN or infinity in the primitive",
    ),
    (
        bdtree_status::PrimitiveZeroNormal,
        c"the plane's normal has zero length",
    ),
    (
        bdtree_status::PrimitiveNegativeRadius,
        c"the primitive's radius or half extent is negative",
    ),
    (bdtree_status::ImageTooShort, c"tree image truncated"),
    (
        bdtree_status::ImageBadMagic,
        c"not a bdtree image (bad magic)",
    ),
    (
        bdtree_status::ImageUnsupportedVersion,
        c"tree image version not supported",
    ),
    (
        bdtree_status::ImageScalarMismatch,
        c"tree image stores the other scalar (f32/f64)",
    ),
    (
        bdtree_status::ImageBadCounts,
        c"tree image has inconsistent node/triangle/vertex counts",
    ),
    (
        bdtree_status::ImageSizeOverflow,
        c"tree image sizes overflow",
    ),
    (
        bdtree_status::ImageLengthMismatch,
        c"tree image length disagrees with its header",
    ),
    (
        bdtree_status::ImageReservedNotZero,
        c"tree image has non-zero reserved bytes",
    ),
    (
        bdtree_status::ImageChecksumMismatch,
        c"tree image checksum mismatch: the image is corrupt",
    ),
    (
        bdtree_status::ImageMisaligned,
        c"tree image bytes are not aligned for the scalar",
    ),
    (
        bdtree_status::ImageNonFinite,
        c"tree image holds a non-finite value",
    ),
    (
        bdtree_status::ImageNegative,
        c"tree image holds a negative radius or bound",
    ),
    (
        bdtree_status::ImageBadLink,
        c"tree image node has invalid links",
    ),
    (
        bdtree_status::ImageBadFace,
        c"tree image triangle refers to a missing vertex",
    ),
    (
        bdtree_status::ImageBadStats,
        c"tree image node exceeds the stored magnitude bounds",
    ),
    (
        bdtree_status::ImageBigEndianTarget,
        c"tree images are little-endian only",
    ),
    (
        bdtree_status::ImageUnknownFlags,
        c"tree image has unknown header flags",
    ),
    (
        bdtree_status::ImageNotNested,
        c"tree image claims nested bounds but is not nested",
    ),
    (
        bdtree_status::ImageUnknownEncoding,
        c"tree image encoding unknown",
    ),
    (bdtree_status::ImageInvalid, c"tree image invalid"),
    (bdtree_status::BoxTableTooShort, c"box table truncated"),
    (
        bdtree_status::BoxTableBadMagic,
        c"not a box table (bad magic)",
    ),
    (
        bdtree_status::BoxTableUnsupportedVersion,
        c"box table version not supported",
    ),
    (
        bdtree_status::BoxTableScalarMismatch,
        c"box table stores the other scalar (f32/f64)",
    ),
    (
        bdtree_status::BoxTableWrongTree,
        c"box table of another tree (nodes, modes or image checksum differ)",
    ),
    (
        bdtree_status::BoxTableLengthMismatch,
        c"box table longer than its tree needs",
    ),
    (
        bdtree_status::BoxTableChecksumMismatch,
        c"box table checksum mismatch: the table is corrupt",
    ),
    (
        bdtree_status::BoxTableBadValue,
        c"box table holds an invalid bound",
    ),
];

/// The sentence for a status code (`"unknown status"` for a code that is none).
pub fn status_name(code: i32) -> &'static CStr {
    STATUS_NAMES
        .iter()
        .find(|(s, _)| *s as i32 == code)
        .map_or(c"unknown status", |(_, name)| name)
}

/// A sentence describing a status code (a static, NUL-terminated string; `"unknown status"`
/// for a code that is none).
#[no_mangle]
pub extern "C" fn bdtree_status_name(status: i32) -> *const c_char {
    status_name(status).as_ptr()
}

pub(crate) type Result<T> = core::result::Result<T, bdtree_status>;

/// The status of a result.
pub(crate) fn status(result: Result<()>) -> bdtree_status {
    match result {
        Ok(()) => bdtree_status::Ok,
        Err(s) => s,
    }
}

impl From<QueryStatus> for bdtree_status {
    fn from(status: QueryStatus) -> Self {
        match status {
            QueryStatus::Complete => Self::Ok,
            QueryStatus::OutputFull { .. } | QueryStatus::ProxyOutputFull { .. } => {
                Self::OutputFull
            }
            QueryStatus::StackTooSmall { .. } => Self::StackTooSmall,
            QueryStatus::NotNested => Self::NotNested,
            QueryStatus::Truncated => Self::Truncated,
            QueryStatus::TooManyBodies { .. } => Self::BadArgument,
            QueryStatus::BadSection { .. } => Self::ImageInvalid,
            _ => Self::Inconsistent,
        }
    }
}

impl From<RunStatus> for bdtree_status {
    fn from(status: RunStatus) -> Self {
        match status {
            RunStatus::Done => Self::Ok,
            RunStatus::Interrupted => Self::Interrupted,
            RunStatus::PendingFull => Self::PendingFull,
            RunStatus::OutputFull { .. } => Self::OutputFull,
            RunStatus::StateChanged => Self::StateChanged,
            RunStatus::Truncated => Self::Truncated,
            _ => Self::Inconsistent,
        }
    }
}

impl From<ImageError> for bdtree_status {
    fn from(error: ImageError) -> Self {
        match error {
            ImageError::TooShort { .. } => Self::ImageTooShort,
            ImageError::BadMagic => Self::ImageBadMagic,
            ImageError::UnsupportedVersion { .. } => Self::ImageUnsupportedVersion,
            ImageError::ScalarMismatch { .. } => Self::ImageScalarMismatch,
            ImageError::BadCounts => Self::ImageBadCounts,
            ImageError::SizeOverflow => Self::ImageSizeOverflow,
            // Fewer bytes than the header's counts need: the image was cut short (a partial
            // download or flash write), which C callers check for by this status.
            ImageError::LengthMismatch { expected, actual } if actual < expected => {
                Self::ImageTooShort
            }
            ImageError::LengthMismatch { .. } => Self::ImageLengthMismatch,
            ImageError::ReservedNotZero => Self::ImageReservedNotZero,
            ImageError::ChecksumMismatch { .. } => Self::ImageChecksumMismatch,
            ImageError::Misaligned { .. } => Self::ImageMisaligned,
            ImageError::NonFinite { .. } => Self::ImageNonFinite,
            ImageError::Negative { .. } => Self::ImageNegative,
            ImageError::BadLink { .. } => Self::ImageBadLink,
            ImageError::BadFace { .. } => Self::ImageBadFace,
            ImageError::BadStats { .. } => Self::ImageBadStats,
            ImageError::BigEndianTarget => Self::ImageBigEndianTarget,
            ImageError::UnknownFlags { .. } => Self::ImageUnknownFlags,
            ImageError::NotNested { .. } => Self::ImageNotNested,
            ImageError::UnknownEncoding { .. } => Self::ImageUnknownEncoding,
            _ => Self::ImageInvalid,
        }
    }
}

impl From<BodyError> for bdtree_status {
    fn from(error: BodyError) -> Self {
        match error {
            BodyError::WrongModeCount { .. } => Self::WrongModeCount,
            BodyError::NonFiniteCoordinates => Self::NonFinite,
            BodyError::ModelMismatch => Self::ModelMismatch,
            BodyError::Pose(error) => error.into(),
            BodyError::OutOfRange => Self::StateOutOfRange,
            _ => Self::StorageTooSmall,
        }
    }
}

impl From<PrimitiveError> for bdtree_status {
    fn from(error: PrimitiveError) -> Self {
        match error {
            PrimitiveError::ZeroNormal => Self::PrimitiveZeroNormal,
            PrimitiveError::NegativeRadius => Self::PrimitiveNegativeRadius,
            _ => Self::PrimitiveNonFinite,
        }
    }
}

impl From<PoseError> for bdtree_status {
    fn from(error: PoseError) -> Self {
        match error {
            PoseError::NotUnit => Self::NotUnitQuaternion,
            _ => Self::NonFinite,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_its_own_sentence() {
        for (i, (s, name)) in STATUS_NAMES.iter().enumerate() {
            assert_eq!(status_name(*s as i32), *name);
            for (t, other) in &STATUS_NAMES[i + 1..] {
                assert_ne!(*s as i32, *t as i32);
                assert_ne!(name, other);
            }
        }
        assert_eq!(status_name(12345), c"unknown status");
    }

    /// A truncated image is `IMAGE_TOO_SHORT` as the header documents, whichever check of the
    /// kernel finds it; a longer one is `IMAGE_LENGTH_MISMATCH`.
    #[test]
    fn a_truncated_image_is_too_short() {
        let status = |e: ImageError| bdtree_status::from(e);
        assert_eq!(
            status(ImageError::TooShort { len: 8 }),
            bdtree_status::ImageTooShort
        );
        let mismatch = |expected, actual| ImageError::LengthMismatch { expected, actual };
        assert_eq!(status(mismatch(1000, 999)), bdtree_status::ImageTooShort);
        assert_eq!(status(mismatch(1000, 64)), bdtree_status::ImageTooShort);
        assert_eq!(
            status(mismatch(1000, 1016)),
            bdtree_status::ImageLengthMismatch
        );
        assert_eq!(
            status(mismatch(1000, 1000)),
            bdtree_status::ImageLengthMismatch
        );
    }
}

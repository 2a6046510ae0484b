//! The C types: statuses, constants, plain structs, and the opaque objects the caller stores.

use core::ffi::CStr;

use bdtree_core::body::{CacheEntry, VertexEntry};
use bdtree_core::interrupt::Pending;
use bdtree_core::separation::Nearest;
use bdtree_core::{
    Body, BodyError, Image, ImageError, PoseError, ProxyPair, QueryStats, QueryStatus, RunStatus,
    SweptPair, Traversal, TrianglePair,
};

use crate::raw::Slot;

/// How a call ended. `BDTREE_STATUS_OK` (0) is success; `BDTREE_STATUS_INTERRUPTED` is the
/// normal end of a budgeted traversal run with work left. Codes 1–99 mirror the kernel's
/// `QueryStatus`/`RunStatus`, 100–199 are bad arguments, 200–299 are image errors.
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
    /// A node or triangle index did not resolve (a body's tree and model disagree): the answer
    /// is incomplete; treat the bodies as possibly colliding.
    Inconsistent = 7,
    /// A body's state changed (`bdtree_body_set_state_*`) since `bdtree_traversal_start_*`:
    /// nothing was done. Start again.
    StateChanged = 8,
    /// A required pointer is NULL.
    NullPointer = 100,
    /// A pointer is not aligned for its type (storage: `BDTREE_STORAGE_ALIGN` bytes).
    Misaligned = 101,
    /// The storage given is smaller than `bdtree_body_storage_size_*` says (or a traversal's
    /// storage holds no pending entry).
    StorageTooSmall = 102,
    /// An object was used before its `…_init`/`…_parse` succeeded (or the wrong kind of object
    /// was passed).
    NotInitialized = 103,
    /// The same body was passed as both bodies of a pair query (use `bdtree_collide_self_*`).
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
    /// A NaN or infinity in the translation.
    NonFiniteTranslation = 112,
    /// A NaN or infinity in the floating origin (`bdtree_body_set_state_from_f64_*`).
    NonFiniteOrigin = 113,
    /// The image is shorter than its header or than its header says.
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
    /// The header's total length disagrees with its counts or with the length given.
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
    /// Another image error (of a newer kernel).
    ImageInvalid = 299,
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
];

/// The sentence for a status code (`"unknown status"` for a code that is none).
pub fn status_name(code: i32) -> &'static CStr {
    STATUS_NAMES
        .iter()
        .find(|(s, _)| *s as i32 == code)
        .map_or(c"unknown status", |(_, name)| name)
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

impl From<PoseError> for bdtree_status {
    fn from(error: PoseError) -> Self {
        match error {
            PoseError::NotUnit => Self::NotUnitQuaternion,
            _ => Self::NonFinite,
        }
    }
}

/// The library's version (this header's): major, minor, patch, as `bdtree-c`'s crate version.
pub const BDTREE_VERSION_MAJOR: u32 = 0;
/// Minor version (see `BDTREE_VERSION_MAJOR`).
pub const BDTREE_VERSION_MINOR: u32 = 1;
/// Patch version (see `BDTREE_VERSION_MAJOR`).
pub const BDTREE_VERSION_PATCH: u32 = 0;

/// Alignment, in bytes, of the storage given to `bdtree_body_init_*` and
/// `bdtree_traversal_init_*` (and enough for tree images of either scalar).
pub const BDTREE_STORAGE_ALIGN: usize = 8;
/// `options` bit of `bdtree_body_storage_size_*`/`bdtree_body_init_*`: add a cache of deformed
/// world vertices (one entry per model vertex): each vertex a leaf test reaches is deformed
/// once per step instead of once per test — worth it when leaf tests share triangles, as they
/// do in any contact patch.
pub const BDTREE_BODY_VERTEX_CACHE: u32 = 1;
/// Bytes of one sphere-cache entry in f32 (`[x, y, z, r]` and a step mark).
pub const BDTREE_CACHE_ENTRY_BYTES_F32: usize = 20;
/// Bytes of one sphere-cache entry in f64.
pub const BDTREE_CACHE_ENTRY_BYTES_F64: usize = 40;
/// Bytes of one vertex-cache entry in f32 (`[x, y, z]` and a step mark).
pub const BDTREE_VERTEX_ENTRY_BYTES_F32: usize = 16;
/// Bytes of one vertex-cache entry in f64.
pub const BDTREE_VERTEX_ENTRY_BYTES_F64: usize = 32;
/// Bytes of one pending pair of a traversal in f32.
pub const BDTREE_PENDING_ENTRY_BYTES_F32: usize = 12;
/// Bytes of one pending pair of a traversal in f64.
pub const BDTREE_PENDING_ENTRY_BYTES_F64: usize = 16;
/// Scalars of mode storage per mode: `q_j` and the update's weights `[q_j, q_j, q_j, |q_j|]`.
pub const BDTREE_SCALARS_PER_MODE: usize = 5;

/// Traversal order (`bdtree_traversal_init_*`): first in, first out — an interrupted query has
/// refined all pairs to about the same level (the interruptible-collision paper's order).
pub const BDTREE_ORDER_BREADTH_FIRST: u32 = 0;
/// Traversal order: the pair with the largest sphere penetration first.
pub const BDTREE_ORDER_DEEPEST_FIRST: u32 = 1;
/// Traversal order: the pair with the largest `r_a + r_b` first (shrinks the cover fastest).
pub const BDTREE_ORDER_LARGEST_FIRST: u32 = 2;

// The sizes the header states are the kernel's, on every target this library builds for.
const _: () = {
    use core::mem::{align_of, size_of};
    // `bdtree_refine_*` hands the caller's pairs to the kernel in place.
    assert!(size_of::<bdtree_triangle_pair>() == size_of::<bdtree_core::TrianglePair>());
    assert!(align_of::<bdtree_triangle_pair>() == align_of::<bdtree_core::TrianglePair>());
    assert!(size_of::<CacheEntry<f32>>() == BDTREE_CACHE_ENTRY_BYTES_F32);
    assert!(size_of::<CacheEntry<f64>>() == BDTREE_CACHE_ENTRY_BYTES_F64);
    assert!(size_of::<VertexEntry<f32>>() == BDTREE_VERTEX_ENTRY_BYTES_F32);
    assert!(size_of::<VertexEntry<f64>>() == BDTREE_VERTEX_ENTRY_BYTES_F64);
    assert!(size_of::<Pending<f32>>() == BDTREE_PENDING_ENTRY_BYTES_F32);
    assert!(size_of::<Pending<f64>>() == BDTREE_PENDING_ENTRY_BYTES_F64);
    assert!(align_of::<CacheEntry<f64>>() <= BDTREE_STORAGE_ALIGN);
    assert!(align_of::<VertexEntry<f64>>() <= BDTREE_STORAGE_ALIGN);
    assert!(align_of::<Pending<f64>>() <= BDTREE_STORAGE_ALIGN);
    assert!(bdtree_core::mode_storage(1) == BDTREE_SCALARS_PER_MODE);
};

/// A pair of triangles, one of each body (indices in each mesh's face order; for a
/// self-collision, two triangles of one body with `a < b`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct bdtree_triangle_pair {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
}

impl From<TrianglePair> for bdtree_triangle_pair {
    fn from(p: TrianglePair) -> Self {
        Self { a: p.a, b: p.b }
    }
}

/// One stack entry of a depth-first query: a pair of nodes (scratch space; its contents are
/// meaningless to the caller).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct bdtree_node_pair {
    /// Node of the first body.
    pub a: u32,
    /// Node of the second body.
    pub b: u32,
}

const _: () = {
    use core::mem::{align_of, size_of};
    assert!(size_of::<bdtree_node_pair>() == size_of::<[u32; 2]>());
    assert!(align_of::<bdtree_node_pair>() == align_of::<[u32; 2]>());
};

/// Work counters of a query (optional output: pass NULL when not wanted).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct bdtree_stats {
    /// Node pairs visited.
    pub nodes_visited: u32,
    /// Spheres updated (first visit of a node in this step).
    pub sphere_updates: u32,
    /// Sphere overlap tests (and distance bounds).
    pub overlap_tests: u32,
    /// Exact triangle tests.
    pub triangle_tests: u32,
    /// Items delivered.
    pub pairs: u32,
}

impl From<QueryStats> for bdtree_stats {
    fn from(s: QueryStats) -> Self {
        Self {
            nodes_visited: s.nodes_visited,
            sphere_updates: s.sphere_updates,
            overlap_tests: s.overlap_tests,
            triangle_tests: s.triangle_tests,
            pairs: s.pairs,
        }
    }
}

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
}

/// An overlapping pair of contact proxies in f32 (`bdtree_collide_proxies_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_proxy_pair_f32 {
    /// The first body's proxy node.
    pub a: u32,
    /// The second body's proxy node.
    pub b: u32,
    /// The first proxy's world sphere `[x, y, z, r]` (units of the mesh).
    pub sphere_a: [f32; 4],
    /// The second proxy's world sphere.
    pub sphere_b: [f32; 4],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖`; the contact normal is along `c_b − c_a`.
    pub depth: f32,
}

/// An overlapping pair of contact proxies in f64.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_proxy_pair_f64 {
    /// The first body's proxy node.
    pub a: u32,
    /// The second body's proxy node.
    pub b: u32,
    /// The first proxy's world sphere `[x, y, z, r]`.
    pub sphere_a: [f64; 4],
    /// The second proxy's world sphere.
    pub sphere_b: [f64; 4],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖`.
    pub depth: f64,
}

/// A triangle pair that may touch during a motion, in f32 (`bdtree_collide_swept_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_swept_pair_f32 {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// A conservative earliest time of the motion, in [0, 1]: the pair cannot touch before it.
    pub time: f32,
}

/// A triangle pair that may touch during a motion, in f64.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_swept_pair_f64 {
    /// Triangle of the first body.
    pub a: u32,
    /// Triangle of the second body.
    pub b: u32,
    /// A conservative earliest time of the motion, in [0, 1].
    pub time: f64,
}

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

macro_rules! proxy_from {
    ($c:ident, $s:ty) => {
        impl From<ProxyPair<$s>> for $c {
            fn from(p: ProxyPair<$s>) -> Self {
                Self {
                    a: p.a,
                    b: p.b,
                    sphere_a: p.sphere_a,
                    sphere_b: p.sphere_b,
                    depth: p.depth,
                }
            }
        }
    };
}
proxy_from!(bdtree_proxy_pair_f32, f32);
proxy_from!(bdtree_proxy_pair_f64, f64);

macro_rules! swept_from {
    ($c:ident, $s:ty) => {
        impl From<SweptPair<$s>> for $c {
            fn from(p: SweptPair<$s>) -> Self {
                Self {
                    a: p.a,
                    b: p.b,
                    time: p.time,
                }
            }
        }
    };
}
swept_from!(bdtree_swept_pair_f32, f32);
swept_from!(bdtree_swept_pair_f64, f64);

/// 64-bit words of a `bdtree_image_f32`/`bdtree_image_f64` on a 64-bit target (the header
/// gives 32-bit targets, `UINTPTR_MAX == 0xFFFFFFFF`, their own smaller sizes).
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_IMAGE_WORDS: usize = 48;
/// 64-bit words of a `bdtree_image_f32`/`bdtree_image_f64` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_IMAGE_WORDS: usize = 26;
/// 64-bit words of a `bdtree_body_f32` on a 64-bit target.
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_BODY_WORDS_F32: usize = 80;
/// 64-bit words of a `bdtree_body_f32` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_BODY_WORDS_F32: usize = 42;
/// 64-bit words of a `bdtree_body_f64` on a 64-bit target.
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_BODY_WORDS_F64: usize = 96;
/// 64-bit words of a `bdtree_body_f64` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_BODY_WORDS_F64: usize = 54;
/// 64-bit words of a `bdtree_traversal_f32`/`bdtree_traversal_f64` on a 64-bit target.
#[cfg(not(target_pointer_width = "32"))]
pub const BDTREE_TRAVERSAL_WORDS: usize = 12;
/// 64-bit words of a `bdtree_traversal_f32`/`bdtree_traversal_f64` on a 32-bit target.
#[cfg(target_pointer_width = "32")]
pub const BDTREE_TRAVERSAL_WORDS: usize = 8;

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

/// A body in f32 (`bdtree_body_init_f32`): pose, `q` and the lazy sphere cache in the caller's
/// storage. It borrows the image bytes and its storage until it is no longer used (there is
/// nothing to free). Opaque; do not copy (two copies would share one cache).
#[repr(C)]
pub struct bdtree_body_f32 {
    _opaque: [u64; BDTREE_BODY_WORDS_F32],
}

/// A body in f64 (`bdtree_body_init_f64`).
#[repr(C)]
pub struct bdtree_body_f64 {
    _opaque: [u64; BDTREE_BODY_WORDS_F64],
}

/// An interruptible, resumable query between two f32 bodies (`bdtree_traversal_init_f32`): its
/// pending list lives in the caller's storage. Opaque; do not copy.
#[repr(C)]
pub struct bdtree_traversal_f32 {
    _opaque: [u64; BDTREE_TRAVERSAL_WORDS],
}

/// An interruptible, resumable query between two f64 bodies (`bdtree_traversal_init_f64`).
#[repr(C)]
pub struct bdtree_traversal_f64 {
    _opaque: [u64; BDTREE_TRAVERSAL_WORDS],
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
holds!(bdtree_image_f32, Image<'static, f32>);
holds!(bdtree_image_f64, Image<'static, f64>);
holds!(bdtree_body_f32, Body<'static, 'static, f32>);
holds!(bdtree_body_f64, Body<'static, 'static, f64>);
holds!(bdtree_traversal_f32, Traversal<'static, f32>);
holds!(bdtree_traversal_f64, Traversal<'static, f64>);

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
}

//! [`ImageError`]: why a tree image was refused, each reason naming its place.

use core::fmt;

use super::VERSION;

/// Why a tree image was refused. Loading never panics and never yields a view that could index
/// out of bounds later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ImageError {
    /// Shorter than the header or than the header says.
    TooShort {
        /// Bytes available.
        len: usize,
    },
    /// Does not start with `b"BDTr"`.
    BadMagic,
    /// A format version this kernel does not read.
    UnsupportedVersion {
        /// The version in the header.
        found: u32,
    },
    /// The image stores a different scalar than the one asked for.
    ScalarMismatch {
        /// Scalar size in the image, bytes.
        found: u32,
        /// Scalar size asked for, bytes.
        expected: u32,
    },
    /// Zero nodes, triangles or vertices, or a node count that is not `2t − 1`.
    BadCounts,
    /// The sizes in the header overflow.
    SizeOverflow,
    /// The header's total length disagrees with its counts or with the bytes given.
    LengthMismatch {
        /// Length implied by the header.
        expected: usize,
        /// Bytes given.
        actual: usize,
    },
    /// A reserved header word or padding byte is not zero.
    ReservedNotZero,
    /// The checksum does not match: the image is corrupt.
    ChecksumMismatch {
        /// Checksum in the header.
        stored: u32,
        /// Checksum of the bytes.
        computed: u32,
    },
    /// The bytes do not start at an address aligned for the scalar type.
    Misaligned {
        /// Required alignment in bytes.
        required: usize,
    },
    /// A NaN or infinity in a section.
    NonFinite {
        /// Section name.
        section: &'static str,
        /// Index of the scalar within the section.
        index: usize,
    },
    /// A radius, growth or bound that must be non-negative is negative.
    Negative {
        /// Section name.
        section: &'static str,
        /// Index of the scalar within the section.
        index: usize,
    },
    /// A node's children, triangle or depth are inconsistent or out of range.
    BadLink {
        /// The node.
        node: usize,
    },
    /// A triangle refers to a vertex that does not exist.
    BadFace {
        /// The triangle.
        triangle: usize,
    },
    /// A node exceeds the magnitude bounds in the stats section.
    BadStats {
        /// The node.
        node: usize,
    },
    /// This kernel reads little-endian images on little-endian targets only.
    BigEndianTarget,
    /// The header sets flags this kernel does not know.
    UnknownFlags {
        /// The flags word.
        flags: u32,
    },
    /// The image claims to be nested ([`super::FLAG_NESTED`]) but this child's bounds are not
    /// contained in its parent's.
    NotNested {
        /// The child node.
        node: usize,
    },
    /// The header names a row encoding this kernel does not know, or one its version or
    /// scalar cannot carry.
    UnknownEncoding {
        /// The encoding word.
        code: u32,
    },
    /// The header names optional sections that contradict each other or the image (see
    /// [`super::Optional::from_header`]).
    BadOptional {
        /// The flags word.
        flags: u32,
    },
    /// An entry of an optional section is out of range or disagrees with the tree (see
    /// [`super::optional`]).
    BadSection {
        /// Section name.
        section: &'static str,
        /// Index of the entry (the node, or the value within the section).
        index: usize,
    },
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TooShort { len } => write!(f, "tree image truncated ({len} bytes)"),
            Self::BadMagic => write!(f, "not a bdtree image (bad magic)"),
            Self::UnsupportedVersion { found } => write!(
                f,
                "tree image version {found} is not supported: this kernel reads version {VERSION} \
                 (nodes in sibling pairs, optional fitted and self-collision sections); rebuild \
                 the image with this bdtree (`bdtree build`)"
            ),
            Self::ScalarMismatch { found, expected } => write!(
                f,
                "tree image stores {}-byte scalars but {}-byte scalars were asked for",
                found, expected
            ),
            Self::BadCounts => write!(f, "tree image has inconsistent node/triangle/vertex counts"),
            Self::SizeOverflow => write!(f, "tree image sizes overflow"),
            Self::LengthMismatch { expected, actual } => {
                write!(f, "tree image should be {expected} bytes long but is {actual}")
            }
            Self::ReservedNotZero => write!(f, "tree image has non-zero reserved bytes"),
            Self::ChecksumMismatch { stored, computed } => write!(
                f,
                "tree image checksum mismatch (stored {stored:#010x}, computed {computed:#010x}): the image is corrupt"
            ),
            Self::Misaligned { required } => {
                write!(f, "tree image bytes must start at a {required}-byte aligned address")
            }
            Self::NonFinite { section, index } => {
                write!(f, "tree image section {section}: value {index} is not finite")
            }
            Self::Negative { section, index } => {
                write!(f, "tree image section {section}: value {index} must not be negative")
            }
            Self::BadLink { node } => write!(f, "tree image node {node} has invalid links"),
            Self::BadFace { triangle } => {
                write!(f, "tree image triangle {triangle} refers to a missing vertex")
            }
            Self::BadStats { node } => {
                write!(f, "tree image node {node} exceeds the stored magnitude bounds")
            }
            Self::BigEndianTarget => write!(f, "tree images are little-endian only"),
            Self::UnknownFlags { flags } => {
                write!(f, "tree image has unknown header flags {flags:#010x}")
            }
            Self::NotNested { node } => write!(
                f,
                "tree image claims nested bounds but node {node} is not inside its parent"
            ),
            Self::UnknownEncoding { code } => write!(
                f,
                "tree image row encoding {code} is unknown or not allowed here (0 = scalars, 1 = q16, 2 = q8 with f32)"
            ),
            Self::BadOptional { flags } => write!(
                f,
                "tree image flags {flags:#010x} name optional sections that do not fit the image \
                 (self-collision data needs a mesh; certificates need the self-collision data)"
            ),
            Self::BadSection { section, index } => {
                write!(f, "tree image section {section}: entry {index} is out of range or disagrees with the tree")
            }
        }
    }
}

impl core::error::Error for ImageError {}

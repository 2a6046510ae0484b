//! [`BuildError`]: why a build (or an addition to an image) failed.

/// Why a build failed.
#[derive(Debug, Clone, PartialEq)]
pub enum BuildError {
    /// The mesh has no triangles, an out-of-range index or a non-finite coordinate.
    BadMesh(String),
    /// The basis does not fit the mesh.
    BadBasis(String),
    /// The image would exceed the format's 4 GiB limit.
    TooLarge,
    /// A medial tree was asked for a mesh that is not closed (an open surface has no inside).
    NotClosed(String),
    /// An image cannot take what was asked of it (self-collision data for an image without a
    /// mesh, or an image that does not load).
    BadImage(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadMesh(m) => write!(f, "cannot build a tree: {m}"),
            Self::BadBasis(m) => write!(f, "cannot build a tree: {m}"),
            Self::TooLarge => write!(f, "cannot build a tree: the image would exceed 4 GiB"),
            Self::NotClosed(m) => write!(f, "cannot build a medial tree: {m}"),
            Self::BadImage(m) => write!(f, "cannot add to the image: {m}"),
        }
    }
}

impl std::error::Error for BuildError {}

//! Why a body could not be set up, or refused a state.

use crate::geometry::pose::PoseError;

/// Why a body could not be set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum BodyError {
    /// The vertex cache has fewer entries than the model has vertices.
    VertexCacheTooSmall {
        /// Entries needed (the vertex count).
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// The box cache given to [`Body::with_box_cache`](crate::Body::with_box_cache) has fewer
    /// entries than the tree has nodes.
    BoxCacheTooSmall {
        /// Entries needed (the node count).
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// The track cache given to [`Body::with_track_cache`](crate::Body::with_track_cache) has
    /// fewer entries than the tree has nodes.
    TrackCacheTooSmall {
        /// Entries needed (the node count).
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// The cache has fewer entries than the tree has nodes.
    CacheTooSmall {
        /// Entries needed (the node count).
        needed: usize,
        /// Entries given.
        given: usize,
    },
    /// The mode storage given to [`Body::new`](crate::Body::new) (or the reference storage given to
    /// [`Body::with_coherence`](crate::Body::with_coherence)) has fewer scalars than
    /// [`mode_storage(M)`](crate::mode_storage) (`5M`) for the tree's `M` modes.
    ModeStorageTooSmall {
        /// Scalars needed: [`mode_storage(M)`](crate::mode_storage), `M` the tree's mode count.
        needed: usize,
        /// Scalars given.
        given: usize,
    },
    /// The tree and the model disagree (triangle count or modes).
    ModelMismatch,
    /// `q` has the wrong length.
    WrongModeCount {
        /// Modes of the body.
        expected: usize,
        /// Length of `q`.
        actual: usize,
    },
    /// `q` holds a NaN or an infinity (or, given in f64, a value beyond the scalar's range).
    NonFiniteCoordinates,
    /// The state's pose is refused (see [`PoseError`]).
    Pose(PoseError),
    /// The state moves the body's coordinates beyond what the scalar can compute with: its
    /// magnitude `X₀ + Σ_j A_j |q_j| + ‖t‖∞` exceeds [`crate::Scalar::STATE_LIMIT`] (2³⁰ in
    /// f32, 2²⁵⁰ in f64), where the products the leaf tests form could overflow.
    OutOfRange,
    /// The storage given to [`Body::with_regions`](crate::Body::with_regions) is smaller than
    /// [`Body::region_words`](crate::Body::region_words).
    RegionStorageTooSmall {
        /// Words needed (`nodes × ⌈M / 64⌉ + M`, see
        /// [`Body::region_words`](crate::Body::region_words)).
        needed: usize,
        /// Words given.
        given: usize,
    },
    /// The reference cache of [`Body::with_coherence`](crate::Body::with_coherence) has fewer
    /// entries than the tree has
    /// nodes.
    ReferenceCacheTooSmall {
        /// Entries needed (the node count).
        needed: usize,
        /// Entries given.
        given: usize,
    },
}

impl core::fmt::Display for BodyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::CacheTooSmall { needed, given } => {
                write!(
                    f,
                    "sphere cache has {given} entries but the tree has {needed} nodes"
                )
            }
            Self::VertexCacheTooSmall { needed, given } => {
                write!(
                    f,
                    "vertex cache has {given} entries but the model has {needed} vertices"
                )
            }
            Self::ModeStorageTooSmall { needed, given } => {
                // `needed` is `mode_storage(M)`: the tree's mode count is named, not the slots.
                let modes = needed / crate::body::mode_storage(1);
                write!(
                    f,
                    "mode storage has {given} scalars but the tree has {modes} modes, which need \
                     {needed} (mode_storage({modes}) = 5 per mode)"
                )
            }
            Self::ModelMismatch => write!(f, "tree and model disagree"),
            Self::WrongModeCount { expected, actual } => {
                write!(
                    f,
                    "q has {actual} entries but the body has {expected} modes"
                )
            }
            Self::NonFiniteCoordinates => write!(f, "q has a non-finite entry"),
            Self::Pose(error) => error.fmt(f),
            Self::OutOfRange => write!(
                f,
                "the state puts the body's coordinates beyond the precision's range \
                 (|t| + the deformed extent above 2^30 in f32, 2^250 in f64)"
            ),
            Self::RegionStorageTooSmall { needed, given } => {
                write!(
                    f,
                    "region storage has {given} words but the tree needs {needed}"
                )
            }
            Self::BoxCacheTooSmall { needed, given } => {
                write!(
                    f,
                    "box cache has {given} entries but the tree has {needed} nodes"
                )
            }
            Self::TrackCacheTooSmall { needed, given } => {
                write!(
                    f,
                    "track cache has {given} entries but the tree has {needed} nodes"
                )
            }
            Self::ReferenceCacheTooSmall { needed, given } => {
                write!(
                    f,
                    "reference cache has {given} entries but the tree has {needed} nodes"
                )
            }
        }
    }
}

impl core::error::Error for BodyError {}

impl From<PoseError> for BodyError {
    fn from(error: PoseError) -> Self {
        Self::Pose(error)
    }
}

//! The cache of swept node bounds: one [`TrackEntry`] per node, in the caller's storage, lent
//! by the body that ends a motion ([`crate::Body::with_track_cache`]) to each swept query,
//! which fills it lazily (the computation is [`crate::query::swept`]'s).

use crate::scalar::Scalar;

/// A node's bound over a swept query's motion ([`crate::query::swept`]'s track): its world sphere centers at the two ticks and
/// the radius around the point moving between them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct Track<S> {
    /// The center at τ = 0.
    pub(crate) c0: [S; 3],
    /// The radius `ρ`, rounding included.
    pub(crate) radius: S,
    /// The center at τ = 1.
    pub(crate) c1: [S; 3],
    /// How far the center strays from its chord (rounding included): 0 without rotation.
    pub(crate) arc: S,
}

/// One slot of a body's track cache (see [`crate::Body::with_track_cache`]): a node's track
/// over the motion of the swept query that computed it, valid for that query only (its mark).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct TrackEntry<S: Scalar> {
    pub(crate) track: Track<S>,
    pub(crate) epoch: u32,
}

impl<S: Scalar> TrackEntry<S> {
    /// An unused slot (the `Default`), usable in `const` and `static` initialisers.
    pub const EMPTY: Self = Self {
        track: Track {
            c0: [S::ZERO; 3],
            radius: S::ZERO,
            c1: [S::ZERO; 3],
            arc: S::ZERO,
        },
        epoch: 0,
    };
}

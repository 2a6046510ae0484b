//! [`Section`]: the fourteen sections of an image by name, for writers and readers.

use super::SECTIONS;
#[cfg(doc)]
use super::{ImageError, Layout};

/// The fourteen sections of an image (the last six optional), in layout order: `Section::Records.index()` is its slot in
/// [`Layout::offsets`] and [`Layout::lengths`]. Writers and readers name sections with it
/// instead of bare indices ([`Layout::range`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Section {
    /// `M + 1` magnitude bounds `X₀`, `A_j`.
    Stats = 0,
    /// Per node `M + 1` rows `[c, R]`, `[Ū_j, ΔR_j]` (scalars or codes).
    Records = 1,
    /// Per node the spread `D`.
    Spread = 2,
    /// Per node `[left, right, triangle, depth]`.
    Links = 3,
    /// Per vertex the rest position.
    Positions = 4,
    /// The basis `U`, `3v × M`.
    Basis = 5,
    /// Per triangle three vertex indices.
    Faces = 6,
    /// Scales of quantized rows and of a 16-bit model.
    Scales = 7,
    /// Per node the fitted sphere `[c, r]`, then per node its rest reach `e` (optional).
    Fitted = 8,
    /// Per node the vertex signature (optional, with the self-collision data).
    Signatures = 9,
    /// The boundary loops' offsets and vertex indices (optional, with the self-collision data).
    Contours = 10,
    /// Per node the subspace certificate's `3M` weights (optional).
    Certificates = 11,
    /// Per node a row number, then the normal bounds' rows (optional).
    Normals = 12,
    /// Per node a row number, then the affine spheres' rows (optional).
    Spheres = 13,
}

impl Section {
    /// Every section, in layout order.
    pub const ALL: [Section; SECTIONS] = [
        Section::Stats,
        Section::Records,
        Section::Spread,
        Section::Links,
        Section::Positions,
        Section::Basis,
        Section::Faces,
        Section::Scales,
        Section::Fitted,
        Section::Signatures,
        Section::Contours,
        Section::Certificates,
        Section::Normals,
        Section::Spheres,
    ];

    /// The section's index in layout order (0 = stats … 7 = scales, 8 = fitted, 9 = signatures,
    /// 10 = contours, 11 = certificates, 12 = normals, 13 = spheres).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The section's name in the format table (and in [`ImageError`] messages).
    pub const fn name(self) -> &'static str {
        match self {
            Section::Stats => "stats",
            Section::Records => "records",
            Section::Spread => "spread",
            Section::Links => "links",
            Section::Positions => "positions",
            Section::Basis => "basis",
            Section::Faces => "faces",
            Section::Scales => "scales",
            Section::Fitted => "fitted",
            Section::Signatures => "signatures",
            Section::Contours => "contours",
            Section::Certificates => "certificates",
            Section::Normals => "normals",
            Section::Spheres => "spheres",
        }
    }
}

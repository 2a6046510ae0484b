//! The optional sections of a version-5 image: which ones an image carries ([`Optional`], from
//! the header's flags and its contour word), their sizes, and their validation.
//!
//! | flag | sections | per node | read by |
//! |---|---|---|---|
//! | [`FLAG_FITTED`] | `fitted` | 5 scalars: `[c, r]` and the rest reach `e` | [`crate::Body::fitted_sphere`], [`crate::fitted_pair`] |
//! | [`FLAG_SELF`] | `signatures`, `contours`, and with [`FLAG_CERTIFICATES`] `certificates` | 8 bytes, 4 bytes plus the loops' vertex indices, `12M` bytes | [`crate::collide_self_image`] |
//! | [`FLAG_NORMALS`] (with [`FLAG_SELF`]) | `normals`, `spheres` | 4 + 4 bytes, plus their rows (nodes over many and a few triangles) | [`crate::collide_self_image`] |
//!
//! Without them an image is as small as a version-4 one (the sections have length 0). Every
//! size is computed with checked arithmetic from the header; every entry is checked when the
//! image is loaded (`check_self`): offsets in order and in range, loops of 3 to
//! [`MAX_CONTOUR`] vertices (or none), vertex indices below the vertex count, signatures equal
//! to the ones the tree's faces imply, certificate weights non-negative (infinity: no
//! certificate) — a corrupt or truncated optional section is an [`ImageError`], never a panic.
//! The `normals` and `spheres` sections are sized here (their row counts from the header) and
//! checked entry by entry where [`crate::collide_self_image`], their one reader, reads them
//! (`SelfNormals`, `SelfSpheres`: a bad entry ends the query with
//! [`crate::QueryStatus::BadSection`], never a read out of bounds), so that a firmware that
//! runs no self query carries no code for them.

use super::self_tables::{
    normal_row_width, sphere_row_width, vertex_bit, SelfData, CERTIFICATE_VECTORS, MAX_CONTOUR,
};
use super::tree::{TreeView, NONE};
use super::{ImageError, FLAG_BOUNDED};
use crate::scalar::Scalar;

/// Header flag: the image carries the `fitted` section (a fitted sphere and its rest reach per
/// node; [`crate::bounds::fitted`]).
pub const FLAG_FITTED: u32 = 4;
/// Header flag: the image carries the self-collision culling data — per node a vertex
/// signature and the boundary loop of its patch (`signatures`, `contours`) — so
/// [`crate::collide_self_image`] culls from the image alone. The header word at byte 52 is the
/// contour table's number of vertex indices.
pub const FLAG_SELF: u32 = 8;
/// Header flag (with [`FLAG_SELF`] only): the image also carries the subspace certificates
/// (`certificates`, `3M` f32 weights per node; [`super::self_tables::SelfCertificates`]).
pub const FLAG_CERTIFICATES: u32 = 16;
/// Header flag (with [`FLAG_SELF`] only): the image also carries the per-node normal bounds
/// and affine spheres (`normals`, `spheres`: per node a row number, then the rows;
/// [`super::self_tables::SelfNormals`], [`super::self_tables::SelfSpheres`]). The header words
/// at bytes 56 and 60 are their row counts (zero without this flag: a version-5 image written
/// before it is read unchanged).
pub const FLAG_NORMALS: u32 = 32;

/// Which optional sections an image carries, and the one size the counts do not imply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Optional {
    /// The `fitted` section.
    pub fitted: bool,
    /// The self-collision sections, with the contour table's number of vertex indices.
    pub self_cull: Option<SelfSizes>,
}

/// The sizes of the self-collision sections beyond the node count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SelfSizes {
    /// Vertex indices in the contour table (all loops together).
    pub contour_vertices: usize,
    /// Whether the certificates section is present (`3M` f32 per node).
    pub certificates: bool,
    /// With [`FLAG_NORMALS`]: the rows of the `normals` and `spheres` sections.
    pub rows: Option<[usize; 2]>,
}

impl Optional {
    /// None of them: a plain image.
    pub const NONE: Optional = Optional {
        fitted: false,
        self_cull: None,
    };

    /// The header flags naming these sections.
    pub fn flags(&self) -> u32 {
        let mut flags = if self.fitted { FLAG_FITTED } else { 0 };
        if let Some(s) = self.self_cull {
            flags |= FLAG_SELF | if s.certificates { FLAG_CERTIFICATES } else { 0 };
            if s.rows.is_some() {
                flags |= FLAG_NORMALS;
            }
        }
        flags
    }

    /// The header's row-count words (bytes 56 and 60; zero without [`FLAG_NORMALS`]).
    pub fn row_words(&self) -> [u32; 2] {
        self.self_cull
            .and_then(|s| s.rows)
            .map_or([0, 0], |r| r.map(|x| u32::try_from(x).unwrap_or(u32::MAX)))
    }

    /// The header's contour word (0 without self data).
    pub fn contour_word(&self) -> u32 {
        self.self_cull
            .map_or(0, |s| u32::try_from(s.contour_vertices).unwrap_or(u32::MAX))
    }

    /// The sections named by the header's `flags`, contour `word` and row-count words `rows`;
    /// `None` when the flags contradict each other or the image (self data in a bounded image,
    /// certificates or normals without self data, a contour word without self data, row
    /// counts without [`FLAG_NORMALS`]).
    #[inline]
    pub fn from_header(flags: u32, word: u32, rows: [u32; 2]) -> Option<Self> {
        let self_cull = flags & FLAG_SELF != 0;
        let certificates = flags & FLAG_CERTIFICATES != 0;
        let normals = flags & FLAG_NORMALS != 0;
        let contradicts = if self_cull {
            flags & FLAG_BOUNDED != 0 || (!normals && rows != [0, 0])
        } else {
            certificates || normals || word != 0 || rows != [0, 0]
        };
        if contradicts {
            return None;
        }
        Some(Self {
            fitted: flags & FLAG_FITTED != 0,
            self_cull: self_cull.then_some(SelfSizes {
                contour_vertices: word as usize,
                certificates,
                rows: normals.then_some(rows.map(|r| r as usize)),
            }),
        })
    }

    /// Byte lengths of the `fitted`, `signatures`, `contours`, `certificates`, `normals` and
    /// `spheres` sections for `nodes` nodes, `modes` modes and `scalar_bytes`; `None` on
    /// overflow.
    pub(super) fn lengths(
        &self,
        scalar_bytes: usize,
        modes: usize,
        nodes: usize,
    ) -> Option<[usize; 6]> {
        let fitted = if self.fitted {
            nodes.checked_mul(5)?.checked_mul(scalar_bytes)?
        } else {
            0
        };
        let Some(s) = self.self_cull else {
            return Some([fitted, 0, 0, 0, 0, 0]);
        };
        let contours = nodes
            .checked_add(1)?
            .checked_add(s.contour_vertices)?
            .checked_mul(4)?;
        let certificates = if s.certificates {
            nodes
                .checked_mul(modes)?
                .checked_mul(CERTIFICATE_VECTORS)?
                .checked_mul(4)?
        } else {
            0
        };
        let table =
            |rows: usize, width: usize| rows.checked_mul(width)?.checked_add(nodes)?.checked_mul(4);
        let [normals, spheres] = match s.rows {
            Some([n, p]) => [
                table(n, normal_row_width(modes))?,
                table(p, sphere_row_width(modes))?,
            ],
            None => [0, 0],
        };
        Some([
            fitted,
            nodes.checked_mul(8)?,
            contours,
            certificates,
            normals,
            spheres,
        ])
    }
}

/// Checks the self-collision sections against the tree and the mesh: `starts` has `n + 1`
/// entries from 0 to the vertex count of the table, in order, each loop empty or of 3 to
/// [`MAX_CONTOUR`] vertices below `vertices`; every signature is the one the faces below the
/// node imply; every certificate weight is non-negative or infinite (no certificate). `O(n·M +
/// table)`.
pub(super) fn check_self<S: Scalar>(
    tree: &TreeView<'_, S>,
    faces: &[[u32; 3]],
    vertices: u32,
    data: &SelfData<'_>,
) -> Result<(), ImageError> {
    let n = tree.node_count();
    let contours = data.contours;
    let bad = |section: &'static str, index: usize| ImageError::BadSection { section, index };
    if contours.starts.len() != n.checked_add(1).ok_or(ImageError::SizeOverflow)?
        || contours.starts.first() != Some(&0)
        || contours.starts.last().map(|&s| s as usize) != Some(contours.vertices.len())
    {
        return Err(bad("contours", 0));
    }
    for (k, w) in contours.starts.windows(2).enumerate() {
        let len = w[1].checked_sub(w[0]).ok_or(bad("contours", k))? as usize;
        if len != 0 && !(3..=MAX_CONTOUR).contains(&len) {
            return Err(bad("contours", k));
        }
    }
    let offset = n + 1;
    if let Some(i) = contours.vertices.iter().position(|&v| v >= vertices) {
        return Err(bad("contours", offset + i));
    }
    if data.signatures.len() != n {
        return Err(bad("signatures", 0));
    }
    for k in 0..n {
        let [left, right, triangle, _] = tree.links(k).ok_or(ImageError::BadCounts)?;
        let expected = if triangle != NONE {
            let [a, b, c] = *faces.get(triangle as usize).ok_or(bad("signatures", k))?;
            vertex_bit(a) | vertex_bit(b) | vertex_bit(c)
        } else {
            let half = |c: u32| data.signatures.get(c as usize).copied();
            let (Some(l), Some(r)) = (half(left), half(right)) else {
                return Err(bad("signatures", k));
            };
            join(l) | join(r)
        };
        if data.signatures.get(k).map(|&s| join(s)) != Some(expected) {
            return Err(bad("signatures", k));
        }
    }
    let weights = data.certificates.weights;
    if !weights.is_empty() {
        let width = tree
            .modes()
            .checked_mul(CERTIFICATE_VECTORS)
            .and_then(|w| w.checked_mul(n));
        if width != Some(weights.len()) || tree.modes() == 0 {
            return Err(bad("certificates", 0));
        }
        if let Some(i) = weights.iter().position(|w| w.is_nan() || *w < 0.0) {
            return Err(bad("certificates", i));
        }
    }
    Ok(())
}

/// A signature's two halves as one 64-bit word.
fn join(s: [u32; 2]) -> u64 {
    u64::from(s[0]) | (u64::from(s[1]) << 32)
}

/// A 64-bit signature as its two halves (bits 0–31, 32–63).
pub fn split(s: u64) -> [u32; 2] {
    [s as u32, (s >> 32) as u32]
}

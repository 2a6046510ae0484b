//! The tree image: the bytes a builder writes and the kernel reads in place.
//!
//! # Format, version 5
//!
//! Little-endian. A 64-byte header, then twelve sections, each starting at a multiple of 16 bytes
//! from the start of the image (gaps are zero). `S` is the scalar (f32 or f64), `M` the number
//! of modes, `n` nodes, `t` triangles, `v` vertices, `L` the depth. Version 4 lays the nodes out
//! in **sibling pairs**: the root is node 0 and the two children of every internal node are
//! adjacent, the left one at an odd index (`right = left + 1`), so an expansion reads both
//! children's rows, links and cached spheres as one block (see [`crate::walk`]). Version 5 adds
//! **optional sections**, named by header flags, of length 0 when absent ([`optional`]): the
//! **fitted** spheres (per node a second sphere placed to fit the body and its rest reach; see
//! [`crate::bounds::fitted`]) and the **self-collision culling data** (vertex signatures,
//! boundary loops and subspace certificates, so that [`crate::collide_self_image`] culls from
//! the image alone). Versions 2 to 4 (version 4 without the optional sections' flags and
//! word, 2 and 3 with nodes in pre-order) are refused with [`ImageError::UnsupportedVersion`]:
//! rebuild such an image (`bdtree build`).
//!
//! | offset | header field | |
//! |---|---|---|
//! | 0 | magic `b"BDTr"` | |
//! | 4 | version `u32` = 5 | |
//! | 8 | scalar size in bytes `u32` (4 or 8; 4 for quantized images) | |
//! | 12 | modes `M` | |
//! | 16 | nodes `n` | |
//! | 20 | triangles `t` (of the model the tree was built on) | |
//! | 24 | vertices `v` (0 in a bounded image) | |
//! | 28 | depth `L` (of the deepest node; the root has depth 0) | |
//! | 32 | total length of the image in bytes | |
//! | 36 | CRC-32 of the whole image with this field read as zero | |
//! | 40 | flags `u32`: bit 0 [`FLAG_NESTED`], bit 1 [`FLAG_BOUNDED`], bit 2 [`FLAG_FITTED`], bit 3 [`FLAG_SELF`], bit 4 [`FLAG_CERTIFICATES`], bit 5 [`FLAG_NORMALS`]; other bits zero | |
//! | 44 | encoding of the node rows: 0 scalars, 1 `q16`, 2 `q8` ([`Encoding`]) | |
//! | 48 | encoding of the model: 0 scalars, 1 16-bit ([`MODEL_Q16`]) | |
//! | 52 | contour table length `c` (vertex indices; 0 without [`FLAG_SELF`]) | |
//! | 56 | normal bound rows `r` (0 without [`FLAG_NORMALS`]) | |
//! | 60 | affine sphere rows `s` (0 without [`FLAG_NORMALS`]) | |
//!
//! | section | contents |
//! |---|---|
//! | stats | `M + 1` scalars: `X₀ ≥ max_k(‖c_k‖∞ + R_k)`, then `A_j ≥ max_k(‖Ū_kj‖∞ + ΔR_kj)` — the magnitudes the run-time rounding-error bound is computed from |
//! | records | scalars: per node `M + 1` rows of 4 scalars: `[c_x, c_y, c_z, R]`, then per mode j `[Ū_xj, Ū_yj, Ū_zj, ΔR_j]`. Quantized: per node `[c_x, c_y, c_z, R]` as f32, then per mode `[Ū_xj, Ū_yj, Ū_zj]` as signed and `ΔR_j` as unsigned codes (`i16`/`u16` or `i8`/`u8`) |
//! | spread | per node `D ≥ max_i ‖U_i‖₂` (one scalar; the builder stores the Frobenius norm) |
//! | links | per node `[left, right, triangle, depth]` as `u32`; a leaf has `left = right = u32::MAX` and its triangle; an internal node has `triangle = u32::MAX`, `left` odd and `right = left + 1`; in a bounded image a **cut** node (at depth `L`, its subtree not stored) has all three `u32::MAX` |
//! | positions | per vertex the rest position `[x, y, z]` (scalars, or `i16` codes for a 16-bit model; empty in a bounded image) |
//! | basis | `U` as `3v × M` row-major: the rows of vertex i are x, y, z, each `M` scalars (or `i16` codes; empty in a bounded image) |
//! | faces | per triangle three vertex indices `u32` (empty in a bounded image) |
//! | scales | f32: for quantized rows, per level `0..=L` and mode j `[s_U, s_R]`; then, for a 16-bit model, `[o_x, o_y, o_z, s_p]`, `s_j` per mode, `e_p`, `e_j` per mode |
//! | fitted | with [`FLAG_FITTED`]: scalars: per node the fitted sphere `[c_x, c_y, c_z, r]` (rest frame), then per node its rest reach `e` (radius and reach non-negative; see [`crate::bounds::fitted`]) |
//! | signatures | with [`FLAG_SELF`]: per node the vertex signature as two `u32` (bits 0–31, 32–63; [`crate::query::self_collision::vertex_signatures`]) |
//! | contours | with [`FLAG_SELF`]: `n + 1` offsets `u32`, then the `c` vertex indices `u32` of the nodes' boundary loops ([`crate::query::self_collision::SelfContours`]) |
//! | certificates | with [`FLAG_CERTIFICATES`]: per node `3M` f32 weights `g`, `γ`, `w` ([`crate::query::self_collision::SelfCertificates`]) |
//! | normals | with [`FLAG_NORMALS`]: per node its row number `u32` (`u32::MAX`: none), then `r` rows of f32 normal bounds ([`crate::query::self_collision::SelfNormals`]) |
//! | spheres | with [`FLAG_NORMALS`]: per node its row number `u32`, then `s` rows of f32 affine spheres ([`crate::query::self_collision::SelfSpheres`]) |
//!
//! A 16-bit model stores `p = k s_p + o` and `U_ij = k s_j` (computed in f32, one multiply and
//! one add: the builder knows the values bit for bit and builds the tree's bounds around them).
//! `e_p` and `e_j` bound, per coordinate, how far the stored positions and basis entries are
//! from the model the image was made from; the kernel adds `2(e_p + Σ_j e_j |q_j|)` to its
//! rounding bound `δ` ([`crate::Body::error`]), so queries on the stored model never miss a
//! contact of the original one.
//!
//! A quantized value is `code × scale` of the node's level and mode, computed in f32 (one
//! correctly rounded product, the same bits on every IEEE 754 target): **these values are the
//! tree**. The builder folds every quantization error outward — `ΔR_j` is stored rounded up to
//! cover `‖Ū_j − Ū'_j‖₂` as well, nesting is re-established on the quantized values — so
//! containment, the magnitude bounds and nesting hold for the values as read, and everything
//! said about the scalar image holds for them unchanged.
//!
//! A **bounded** image ([`FLAG_BOUNDED`]) stores the nodes of depth `≤ L` of a tree and no mesh:
//! enough for proxy queries ([`crate::query::proxies`]) down to depth `L`, nothing below. Triangle queries
//! on it end with [`crate::QueryStatus::Truncated`].
//!
//! A node's row layout puts `Ū_j` and `ΔR_j` side by side so that the exact update is `M`
//! four-lane multiply-adds: `[c', R'] = [c, R] + Σ_j [Ū_j, ΔR_j] ⊙ [q_j, q_j, q_j, |q_j|]`.

use crate::image::model::Model;
use crate::image::tree::{Encoding, Rows, TreeView};
use crate::scalar::{norm_inf, Scalar};

mod error;
pub mod model;
pub mod optional;
mod section;
pub mod self_tables;
pub mod tree;

pub use error::ImageError;
pub use optional::{Optional, SelfSizes, FLAG_CERTIFICATES, FLAG_FITTED, FLAG_NORMALS, FLAG_SELF};
pub use section::Section;
pub use self_tables::SelfData;

/// The four bytes every tree image starts with.
pub const MAGIC: [u8; 4] = *b"BDTr";
/// The format version this kernel reads and `bdtree-std` writes (earlier versions are refused:
/// version 4 has no optional sections, earlier ones lay their nodes out in pre-order).
pub const VERSION: u32 = 5;
/// Size of the fixed header in bytes.
pub const HEADER_LEN: usize = 64;
/// Alignment, in bytes, of every section relative to the start of the image. The image itself
/// must start at an address aligned to the scalar size (use [`AlignedImage`] for
/// `include_bytes!`).
pub const SECTION_ALIGN: usize = 16;
/// The "no child / no triangle" marker in the links section.
use crate::image::tree::NONE;
/// Byte offset of the checksum field in the header.
pub const CHECKSUM_OFFSET: usize = 36;
/// Header flag: every node's bounds contain its children's for every `q` (see the format).
pub const FLAG_NESTED: u32 = 1;
/// Header flag: only the top levels of the tree, no mesh (see the format).
pub const FLAG_BOUNDED: u32 = 2;
/// The flags this kernel understands.
pub const KNOWN_FLAGS: u32 =
    FLAG_NESTED | FLAG_BOUNDED | FLAG_FITTED | FLAG_SELF | FLAG_CERTIFICATES | FLAG_NORMALS;
/// Number of sections (the last six optional: length 0 when the header does not name them).
pub const SECTIONS: usize = 14;
/// Model encoding word: positions and basis as 16-bit codes.
pub const MODEL_Q16: u32 = 1;

/// The checksum of an image: CRC-32 of all its bytes, with the checksum field read as zero.
pub fn checksum(bytes: &[u8]) -> u32 {
    let head = bytes.get(..CHECKSUM_OFFSET).unwrap_or(bytes);
    let tail = bytes.get(CHECKSUM_OFFSET + 4..).unwrap_or(&[]);
    crate::crc::crc32_extend(
        crate::crc::crc32_extend(crate::crc::crc32_extend(!0, head), &[0; 4]),
        tail,
    ) ^ !0
}

/// Byte ranges of the sections of an image with the given counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Layout {
    /// Scalar size in bytes.
    pub scalar_bytes: usize,
    /// Modes `M`.
    pub modes: usize,
    /// Node count.
    pub nodes: usize,
    /// Triangle count.
    pub triangles: usize,
    /// Vertex count.
    pub vertices: usize,
    /// Row encoding.
    pub encoding: Encoding,
    /// Whether the image is bounded (no faces section).
    pub bounded: bool,
    /// Whether positions and basis are 16-bit codes.
    pub model_q16: bool,
    /// The optional sections present.
    pub optional: Optional,
    /// Start of each section, in the order stats, records, spread, links, positions, basis,
    /// faces, scales, fitted, signatures, contours, certificates, normals, spheres.
    pub offsets: [usize; SECTIONS],
    /// Length of each section in bytes.
    pub lengths: [usize; SECTIONS],
    /// Total image length in bytes.
    pub total: usize,
}

/// Names of the sections, in layout order ([`Section::name`]).
pub const SECTION_NAMES: [&str; SECTIONS] = [
    "stats",
    "records",
    "spread",
    "links",
    "positions",
    "basis",
    "faces",
    "scales",
    "fitted",
    "signatures",
    "contours",
    "certificates",
    "normals",
    "spheres",
];

impl Layout {
    /// The layout of a complete image with scalar rows, or `None` when a size overflows `u32`.
    pub fn new(
        scalar_bytes: usize,
        modes: usize,
        nodes: usize,
        triangles: usize,
        vertices: usize,
    ) -> Option<Self> {
        Self::with_format(
            Encoding::Float,
            false,
            false,
            scalar_bytes,
            modes,
            nodes,
            triangles,
            vertices,
            0,
        )
    }

    /// The layout of any image: `depth` sizes the scales of quantized rows; a bounded one has
    /// no faces; `model_q16` stores positions and basis as 16-bit codes.
    #[allow(clippy::too_many_arguments)]
    pub fn with_format(
        encoding: Encoding,
        bounded: bool,
        model_q16: bool,
        scalar_bytes: usize,
        modes: usize,
        nodes: usize,
        triangles: usize,
        vertices: usize,
        depth: usize,
    ) -> Option<Self> {
        let mut layout = Self::lengths_of(
            encoding,
            bounded,
            model_q16,
            scalar_bytes,
            modes,
            nodes,
            triangles,
            vertices,
            depth,
        )?;
        (layout.offsets, layout.total) = place(&layout.lengths)?;
        Some(layout)
    }

    /// [`Layout::with_format`]'s section lengths, the sections not yet placed (offsets and
    /// total zero): [`Header::layout`] places them once, with its optional sections.
    #[allow(clippy::too_many_arguments)]
    fn lengths_of(
        encoding: Encoding,
        bounded: bool,
        model_q16: bool,
        scalar_bytes: usize,
        modes: usize,
        nodes: usize,
        triangles: usize,
        vertices: usize,
        depth: usize,
    ) -> Option<Self> {
        let rows = modes.checked_add(1)?;
        let row_scales = match encoding {
            Encoding::Float => 0,
            _ => depth.checked_add(1)?.checked_mul(modes)?.checked_mul(8)?,
        };
        let model_scales = if model_q16 {
            modes.checked_mul(2)?.checked_add(5)?.checked_mul(4)?
        } else {
            0
        };
        let scales = row_scales.checked_add(model_scales)?;
        let model_bytes = if model_q16 { 2 } else { scalar_bytes };
        let lengths = [
            rows.checked_mul(scalar_bytes)?,
            nodes.checked_mul(encoding.record_bytes(scalar_bytes, modes)?)?,
            nodes.checked_mul(scalar_bytes)?,
            nodes.checked_mul(16)?,
            vertices.checked_mul(3)?.checked_mul(model_bytes)?,
            vertices
                .checked_mul(3)?
                .checked_mul(modes)?
                .checked_mul(model_bytes)?,
            if bounded {
                0
            } else {
                triangles.checked_mul(12)?
            },
            scales,
            0,
            0,
            0,
            0,
            0,
            0,
        ];
        Some(Self {
            scalar_bytes,
            modes,
            nodes,
            triangles,
            vertices,
            encoding,
            bounded,
            model_q16,
            optional: Optional::NONE,
            offsets: [0; SECTIONS],
            lengths,
            total: 0,
        })
    }

    /// This layout with the optional sections `optional` (their lengths from the counts and
    /// the contour table's length); `None` on overflow.
    pub fn with_optional(mut self, optional: Optional) -> Option<Self> {
        let extra = optional.lengths(self.scalar_bytes, self.modes, self.nodes)?;
        let slots = self.lengths.get_mut(Section::Fitted.index()..)?;
        if slots.len() != extra.len() {
            return None;
        }
        slots.copy_from_slice(&extra);
        (self.offsets, self.total) = place(&self.lengths)?;
        self.optional = optional;
        Some(self)
    }

    /// Byte range of section `i` (0 = stats … 6 = faces, 7 = scales, 8 = fitted; see
    /// [`Section`]).
    pub fn section(&self, i: usize) -> core::ops::Range<usize> {
        let start = self.offsets.get(i).copied().unwrap_or(0);
        start..start + self.lengths.get(i).copied().unwrap_or(0)
    }

    /// Byte range of a section.
    pub fn range(&self, section: Section) -> core::ops::Range<usize> {
        self.section(section.index())
    }

    /// Length of a section in bytes.
    pub fn len_of(&self, section: Section) -> usize {
        self.lengths.get(section.index()).copied().unwrap_or(0)
    }
}

/// Offsets of sections of these lengths, each at the next multiple of [`SECTION_ALIGN`] after
/// the header and the section before it, and the total length; `None` past `u32::MAX`.
fn place(lengths: &[usize; SECTIONS]) -> Option<([usize; SECTIONS], usize)> {
    let mut offsets = [0usize; SECTIONS];
    let mut at = HEADER_LEN;
    for (offset, &len) in offsets.iter_mut().zip(lengths) {
        *offset = at;
        at = at
            .checked_add(len)?
            .checked_next_multiple_of(SECTION_ALIGN)?;
    }
    (at <= u32::MAX as usize).then_some((offsets, at))
}

/// The fixed-size header at the start of every image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// Scalar size in bytes (4 or 8).
    pub scalar_bytes: u32,
    /// Modes `M`.
    pub modes: u32,
    /// Node count.
    pub nodes: u32,
    /// Triangle count.
    pub triangles: u32,
    /// Vertex count.
    pub vertices: u32,
    /// Depth of the deepest node (the root has depth 0).
    pub depth: u32,
    /// Total length in bytes.
    pub total_len: u32,
    /// CRC-32 of the whole image with this field read as zero.
    pub checksum: u32,
    /// Flags ([`FLAG_NESTED`], [`FLAG_BOUNDED`]).
    pub flags: u32,
    /// Row encoding code: see [`Encoding::from_code`].
    pub encoding: u32,
    /// Model encoding: 0 scalars, [`MODEL_Q16`].
    pub model_encoding: u32,
    /// Vertex indices in the contour table (0 without [`FLAG_SELF`]).
    pub contour_vertices: u32,
    /// Rows of the normal bounds and of the affine spheres (0 without [`FLAG_NORMALS`]).
    pub rows: [u32; 2],
}

impl Header {
    /// Reads the header fields (no validation beyond the length and the magic).
    pub fn read(bytes: &[u8]) -> Result<Self, ImageError> {
        let head = bytes
            .get(..HEADER_LEN)
            .ok_or(ImageError::TooShort { len: bytes.len() })?;
        if head.get(..4) != Some(&MAGIC[..]) {
            return Err(ImageError::BadMagic);
        }
        let word = |i: usize| -> u32 {
            let mut w = [0u8; 4];
            if let Some(src) = head.get(i * 4..i * 4 + 4) {
                w.copy_from_slice(src);
            }
            u32::from_le_bytes(w)
        };
        Ok(Self {
            version: word(1),
            scalar_bytes: word(2),
            modes: word(3),
            nodes: word(4),
            triangles: word(5),
            vertices: word(6),
            depth: word(7),
            total_len: word(8),
            checksum: word(9),
            flags: word(10),
            encoding: word(11),
            model_encoding: word(12),
            contour_vertices: word(13),
            rows: [word(14), word(15)],
        })
    }

    /// The header as bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        let words = [
            u32::from_le_bytes(MAGIC),
            self.version,
            self.scalar_bytes,
            self.modes,
            self.nodes,
            self.triangles,
            self.vertices,
            self.depth,
            self.total_len,
            self.checksum,
            self.flags,
            self.encoding,
            self.model_encoding,
            self.contour_vertices,
            self.rows[0],
            self.rows[1],
        ];
        for (chunk, w) in out.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The section layout these counts and optional sections imply (`None` on overflow, an
    /// unknown encoding or contradicting optional sections).
    pub fn layout(&self) -> Option<Layout> {
        if self.model_encoding > MODEL_Q16 {
            return None;
        }
        let optional = Optional::from_header(self.flags, self.contour_vertices, self.rows)?;
        Layout::lengths_of(
            Encoding::from_code(self.encoding)?,
            self.flags & FLAG_BOUNDED != 0,
            self.model_encoding == MODEL_Q16,
            self.scalar_bytes as usize,
            self.modes as usize,
            self.nodes as usize,
            self.triangles as usize,
            self.vertices as usize,
            self.depth as usize,
        )?
        .with_optional(optional)
    }
}

/// A validated tree image: the tree and the model it bounds, both borrowed from the bytes.
#[derive(Debug, Clone, Copy)]
pub struct Image<'a, S: Scalar> {
    /// The header.
    pub header: Header,
    /// The BD-Tree.
    pub tree: TreeView<'a, S>,
    /// The rest mesh and basis.
    pub model: Model<'a, S>,
}

/// Image bytes with an alignment that suits every scalar: wrap `include_bytes!` in it.
///
/// ```ignore
/// static IMAGE: &bdtree_core::AlignedImage<[u8]> =
///     &bdtree_core::AlignedImage(*include_bytes!("arm.bdt"));
/// let image = bdtree_core::Image::<f32>::parse(&IMAGE.0)?;
/// ```
#[repr(C, align(16))]
pub struct AlignedImage<B: ?Sized>(pub B);

fn cast<T: bytemuck::Pod>(
    bytes: &[u8],
    range: core::ops::Range<usize>,
) -> Result<&[T], ImageError> {
    let part = bytes.get(range).ok_or(ImageError::SizeOverflow)?;
    bytemuck::try_cast_slice(part).map_err(|_| ImageError::Misaligned {
        required: core::mem::align_of::<T>(),
    })
}

fn check_finite<S: Scalar>(
    values: &[S],
    section: &'static str,
    non_negative: bool,
) -> Result<(), ImageError> {
    for (index, &x) in values.iter().enumerate() {
        if !x.is_finite() {
            return Err(ImageError::NonFinite { section, index });
        }
        if non_negative && x < S::ZERO {
            return Err(ImageError::Negative { section, index });
        }
    }
    Ok(())
}

impl<'a, S: Scalar> Image<'a, S> {
    /// Validates `bytes` and views them as a tree and a model without copying.
    ///
    /// Checks, in order: header (version, encoding, scalar, counts), length, flags and reserved
    /// bytes, checksum, alignment, every node's links and depth, every leaf's triangle, every
    /// value finite (radii, growths, scales and bounds non-negative; quantized rows as read),
    /// every node against the magnitude bounds, every triangle's vertices, and, for a nested
    /// image, every child inside its parent (see [`check_nested`]). Cost: one pass over the
    /// bytes (`O(n·M + v·M)`).
    pub fn parse(bytes: &'a [u8]) -> Result<Self, ImageError> {
        if cfg!(target_endian = "big") {
            return Err(ImageError::BigEndianTarget);
        }
        let header = Header::read(bytes)?;
        if header.version != VERSION {
            return Err(ImageError::UnsupportedVersion {
                found: header.version,
            });
        }
        let encoding = Encoding::from_code(header.encoding)
            .filter(|e| *e == Encoding::Float || header.scalar_bytes == 4)
            .ok_or(ImageError::UnknownEncoding {
                code: header.encoding,
            })?;
        if header.scalar_bytes != S::BYTES {
            return Err(ImageError::ScalarMismatch {
                found: header.scalar_bytes,
                expected: S::BYTES,
            });
        }
        if header.flags & !KNOWN_FLAGS != 0 {
            return Err(ImageError::UnknownFlags {
                flags: header.flags,
            });
        }
        let optional = Optional::from_header(header.flags, header.contour_vertices, header.rows)
            .ok_or(ImageError::BadOptional {
                flags: header.flags,
            })?;
        let bounded = header.flags & FLAG_BOUNDED != 0;
        // A 16-bit model: f32, and a mesh to store.
        let model_q16 = header.model_encoding == MODEL_Q16;
        if header.model_encoding > MODEL_Q16
            || (header.model_encoding != 0 && (header.scalar_bytes != 4 || bounded))
        {
            return Err(ImageError::UnknownEncoding {
                code: header.model_encoding,
            });
        }
        let (n, t) = (header.nodes as usize, header.triangles as usize);
        let full = t.checked_mul(2).and_then(|x| x.checked_sub(1));
        let counts_ok = if bounded {
            header.vertices == 0 && t > 0 && n > 0 && full.is_some_and(|f| n <= f)
        } else {
            header.vertices > 0 && t > 0 && Some(n) == full
        };
        if !counts_ok || header.depth as usize >= n.max(1) {
            return Err(ImageError::BadCounts);
        }
        let layout = header.layout().ok_or(ImageError::SizeOverflow)?;
        if layout.total != header.total_len as usize || layout.total != bytes.len() {
            return Err(ImageError::LengthMismatch {
                expected: layout.total,
                actual: bytes.len(),
            });
        }
        let computed = checksum(bytes);
        if computed != header.checksum {
            return Err(ImageError::ChecksumMismatch {
                stored: header.checksum,
                computed,
            });
        }
        // Padding between sections must be zero too, so every byte of a valid image is meaningful.
        let mut end = HEADER_LEN;
        for section in Section::ALL {
            let r = layout.range(section);
            if bytes
                .get(end..r.start)
                .is_none_or(|gap| gap.iter().any(|&b| b != 0))
            {
                return Err(ImageError::ReservedNotZero);
            }
            end = r.end;
        }
        if bytes
            .get(end..)
            .is_none_or(|gap| gap.iter().any(|&b| b != 0))
        {
            return Err(ImageError::ReservedNotZero);
        }

        let stats: &[S] = cast(bytes, layout.range(Section::Stats))?;
        let spread: &[S] = cast(bytes, layout.range(Section::Spread))?;
        let links: &[[u32; 4]] = cast(bytes, layout.range(Section::Links))?;
        let faces: &[[u32; 3]] = cast(bytes, layout.range(Section::Faces))?;
        let all_scales: &[f32] = cast(bytes, layout.range(Section::Scales))?;
        let fitted_all: &[S] = cast(bytes, layout.range(Section::Fitted))?;
        let (fitted_spheres, reaches) =
            fitted_all.split_at(fitted_all.len().min(n.saturating_mul(4)));
        let fitted: &[[S; 4]] =
            bytemuck::try_cast_slice(fitted_spheres).map_err(|_| ImageError::SizeOverflow)?;
        check_finite(fitted_all, "fitted", false)?;
        if let Some(k) = fitted.iter().position(|f| f[3] < S::ZERO) {
            return Err(ImageError::Negative {
                section: "fitted",
                index: 4 * k + 3,
            });
        }
        check_finite(reaches, "fitted", true)?;

        check_finite(stats, "stats", true)?;
        check_finite(spread, "spread", true)?;
        // The row scales, then the model's: offsets may be negative, scales and errors not.
        let model_count = if model_q16 { 5 + 2 * layout.modes } else { 0 };
        let row_count = all_scales.len().saturating_sub(model_count);
        let (row_scales, model_scales) = all_scales.split_at(row_count);
        check_finite(row_scales, "scales", true)?;
        for (k, &x) in model_scales.iter().enumerate() {
            let index = row_count + k;
            if !x.is_finite() {
                return Err(ImageError::NonFinite {
                    section: "scales",
                    index,
                });
            }
            if k >= 3 && x < 0.0 {
                return Err(ImageError::Negative {
                    section: "scales",
                    index,
                });
            }
        }
        let scales: &[[f32; 2]] =
            bytemuck::try_cast_slice(row_scales).map_err(|_| ImageError::SizeOverflow)?;
        let (positions, basis): (&[[S; 3]], &[S]) = if model_q16 {
            (&[], &[])
        } else {
            (
                cast(bytes, layout.range(Section::Positions))?,
                cast(bytes, layout.range(Section::Basis))?,
            )
        };
        check_finite(
            bytemuck::cast_slice::<[S; 3], S>(positions),
            "positions",
            false,
        )?;
        check_finite(basis, "basis", false)?;

        let depth_limit = header.depth;
        let depth_of = |i: u32| links.get(i as usize).map(|l| l[3]);
        for (k, link) in links.iter().enumerate() {
            let [left, right, triangle, depth] = *link;
            let bad = ImageError::BadLink { node: k };
            if depth > depth_limit || (k == 0 && depth != 0) {
                return Err(bad);
            }
            if triangle != NONE {
                if left != NONE || right != NONE || triangle as usize >= t {
                    return Err(bad);
                }
            } else if left == NONE && right == NONE {
                // A cut node: only in a bounded image, only at its deepest level.
                if !bounded || depth != depth_limit {
                    return Err(bad);
                }
            } else {
                // Sibling pairs: the left child at an odd index, the right one after it.
                let child_ok =
                    |c: u32| c as usize > k && c != NONE && depth_of(c) == Some(depth + 1);
                if !(child_ok(left) && child_ok(right)) || left % 2 != 1 || right != left + 1 {
                    return Err(bad);
                }
            }
        }
        // The header depth sizes traversal stacks: it must be the true depth.
        if links.iter().map(|l| l[3]).max() != Some(header.depth) {
            return Err(ImageError::BadCounts);
        }
        let vertex_count = header.vertices;
        for (triangle, face) in faces.iter().enumerate() {
            if face.iter().any(|&v| v >= vertex_count) {
                return Err(ImageError::BadFace { triangle });
            }
        }

        let nested = header.flags & FLAG_NESTED != 0;
        let m = layout.modes;
        let rows = match encoding {
            Encoding::Float => Rows::Float(cast(bytes, layout.range(Section::Records))?),
            _ => Rows::Quantized {
                bytes: bytes
                    .get(layout.range(Section::Records))
                    .ok_or(ImageError::SizeOverflow)?,
                stride: encoding
                    .record_bytes(4, m)
                    .ok_or(ImageError::SizeOverflow)?,
                encoding,
                scales,
            },
        };
        let tree = TreeView::new(
            m,
            rows,
            spread,
            links,
            stats,
            header.depth,
            nested,
            t,
            bounded,
        )
        .ok_or(ImageError::BadCounts)?;
        let tree = if optional.fitted {
            tree.with_fitted(fitted, reaches)
                .ok_or(ImageError::BadSection {
                    section: "fitted",
                    index: 0,
                })?
        } else {
            tree
        };
        let tree = match optional.self_cull {
            Some(_) => {
                let data = self_data(bytes, &layout)?;
                optional::check_self(&tree, faces, header.vertices, &data)?;
                tree.with_self_data(data)
            }
            None => tree,
        };
        check_rows(&tree)?;
        if nested {
            check_nested(&tree)?;
        }
        let model = if bounded {
            Model::empty(m)
        } else if model_q16 {
            Model::quantized(
                cast(bytes, layout.range(Section::Positions))?,
                cast(bytes, layout.range(Section::Basis))?,
                model_scales,
                faces,
                m,
            )
            .ok_or(ImageError::BadCounts)?
        } else {
            Model::new(positions, basis, faces, m).map_err(|_| ImageError::BadCounts)?
        };
        Ok(Self {
            header,
            tree,
            model,
        })
    }
}

/// The self-collision sections viewed in place (checked by [`optional::check_self`]).
fn self_data<'a>(bytes: &'a [u8], layout: &Layout) -> Result<SelfData<'a>, ImageError> {
    let signatures: &[[u32; 2]] = cast(bytes, layout.range(Section::Signatures))?;
    let table: &[u32] = cast(bytes, layout.range(Section::Contours))?;
    let (starts, vertices) = table
        .split_at_checked(
            layout
                .nodes
                .checked_add(1)
                .ok_or(ImageError::SizeOverflow)?,
        )
        .ok_or(ImageError::BadSection {
            section: "contours",
            index: 0,
        })?;
    let weights: &[f32] = cast(bytes, layout.range(Section::Certificates))?;
    Ok(SelfData {
        signatures,
        contours: self_tables::SelfContours { starts, vertices },
        certificates: self_tables::SelfCertificates { weights },
        normals_section: cast(bytes, layout.range(Section::Normals))?,
        spheres_section: cast(bytes, layout.range(Section::Spheres))?,
    })
}

/// Every row of every node finite, radii and growths non-negative, and within the magnitude
/// bounds of the stats section: `X₀ ≥ ‖c‖∞ + R`, `A_j ≥ ‖Ū_j‖∞ + ΔR_j`.
fn check_rows<S: Scalar>(tree: &TreeView<'_, S>) -> Result<(), ImageError> {
    let m = tree.modes();
    let stats = tree.stats();
    for k in 0..tree.node_count() {
        for r in 0..=m {
            let index = (k * (m + 1) + r) * 4;
            let row = tree.row(k, r).ok_or(ImageError::BadCounts)?;
            if let Some(lane) = row.iter().position(|x| !x.is_finite()) {
                return Err(ImageError::NonFinite {
                    section: "records",
                    index: index + lane,
                });
            }
            if row[3] < S::ZERO {
                return Err(ImageError::Negative {
                    section: "records",
                    index: index + 3,
                });
            }
            let bound = stats.get(r).copied().unwrap_or(S::ZERO);
            if norm_inf([row[0], row[1], row[2]]) + row[3] > bound {
                return Err(ImageError::BadStats { node: k });
            }
        }
    }
    Ok(())
}

/// Verifies the nesting a [`FLAG_NESTED`] image claims, in the image's own arithmetic: for
/// every child `c` of every internal node `p`, `D_p ≥ D_c` exactly, and
///
/// ```text
/// ‖c_c − c_p‖ + R_c ≤ R_p + τ₀        τ₀ = 8u·X₀
/// ‖Ū_cj − Ū_pj‖ + ΔR_cj ≤ ΔR_pj + τ_j  τ_j = 8u·A_j
/// ```
///
/// (squared, no square root). The builder nests exactly on the stored values; the tolerances
/// absorb this check's own rounding, which stays below `12u` of the same magnitudes. A child
/// that passes is therefore inside its parent up to `20u·X₀` and `20u·A_j` per mode, per
/// level: at most `δ/4` per level of the run-time rounding bound `δ` ([`crate::bounds::sphere`]),
/// which [`crate::query::proxies`] adds to its margin.
pub fn check_nested<S: Scalar>(tree: &TreeView<'_, S>) -> Result<(), ImageError> {
    let m = tree.modes();
    let eight_u = S::from_u32(8) * S::UNIT_ROUNDOFF;
    let stats = tree.stats();
    for p in 0..tree.node_count() {
        let Some(crate::image::tree::NodeKind::Internal { left, right }) = tree.kind(p) else {
            continue;
        };
        let spread_p = tree.spread(p).ok_or(ImageError::BadCounts)?;
        for c in [left as usize, right as usize] {
            let bad = ImageError::NotNested { node: c };
            if tree.spread(c).is_none_or(|d| d > spread_p) {
                return Err(bad);
            }
            for r in 0..=m {
                let (Some(a), Some(b)) = (tree.row(p, r), tree.row(c, r)) else {
                    return Err(bad);
                };
                let tol = eight_u * stats.get(r).copied().unwrap_or(S::ZERO);
                let room = a[3] + tol - b[3];
                let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
                let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                if room < S::ZERO || d2 > room * room {
                    return Err(bad);
                }
            }
        }
    }
    Ok(())
}

//! The one image writer: the builder ([`super::tree`]) and compaction ([`super::compact`]) both
//! write their images through it.
//!
//! It owns what every image shares: the section layout ([`Layout`]), the magnitude bounds of
//! the stats section ([`MagnitudeBounds`]), writing each section by its name in the format's own
//! table ([`Section`]), and the header with its checksum ([`ImageWriter::finish`]). What an
//! image holds — scalar or quantized rows, a full or bounded tree, f32 or 16-bit model — is
//! the caller's; how it is laid out and sealed is decided here once.

use bdtree_core::image::{
    checksum, Header, Layout, Section, CHECKSUM_OFFSET, FLAG_BOUNDED, FLAG_NESTED, HEADER_LEN,
    MODEL_Q16, VERSION,
};

use crate::io::ImageBuf;

/// The stats section: `X₀ ≥ max_k(‖c_k‖∞ + R_k)` and `A_j ≥ max_k(‖Ū_kj‖∞ + ΔR_kj)` over the
/// rows as stored, each times a `margin` (the loader re-checks them in the image's own
/// arithmetic) and rounded up to the image's scalar by `round_up`.
pub(crate) struct MagnitudeBounds<R: Fn(f64) -> f64> {
    values: Vec<f64>,
    margin: f64,
    round_up: R,
}

impl<R: Fn(f64) -> f64> MagnitudeBounds<R> {
    /// Bounds of `modes + 1` rows, all zero so far.
    pub(crate) fn new(modes: usize, margin: f64, round_up: R) -> Self {
        Self {
            values: vec![0.0; modes + 1],
            margin,
            round_up,
        }
    }

    /// Takes row `r` of one node (0: `[c, R]`, `j + 1`: `[Ū_j, ΔR_j]`), as stored, into the
    /// bound of that row.
    pub(crate) fn add(&mut self, r: usize, row: [f64; 4]) {
        let size = row[0].abs().max(row[1].abs()).max(row[2].abs());
        if let Some(v) = self.values.get_mut(r) {
            *v = v.max((self.round_up)((size + row[3]) * self.margin));
        }
    }

    /// The bounds, in row order.
    pub(crate) fn values(&self) -> &[f64] {
        &self.values
    }
}

/// An image being written: zeroed bytes of the right length, filled section by section.
pub(crate) struct ImageWriter {
    layout: Layout,
    bytes: Vec<u8>,
}

impl ImageWriter {
    /// Zeroed bytes for `layout` (the header and every gap stay zero until [`Self::finish`]).
    pub(crate) fn new(layout: Layout) -> Self {
        Self {
            bytes: vec![0u8; layout.total],
            layout,
        }
    }

    /// A cursor at the start of `section`.
    pub(crate) fn section(&mut self, section: Section) -> SectionWriter<'_> {
        let range = self.layout.range(section);
        SectionWriter {
            out: &mut self.bytes[range],
            at: 0,
        }
    }

    /// The bytes written so far, for a caller that starts from an image's own sections
    /// ([`super::with_self_data`]): `prefix` is copied over the start (its header is rewritten
    /// by [`Self::finish`]). Panics if `prefix` is longer than the layout (a caller's bug).
    pub(crate) fn with_prefix(layout: Layout, prefix: &[u8]) -> Self {
        let mut writer = Self::new(layout);
        writer.bytes[..prefix.len()].copy_from_slice(prefix);
        writer
    }

    /// Fills the header from the layout (counts, encodings, the bounded flag, the optional
    /// sections' flags, contour word and row counts, and the version [`VERSION`]), the tree's depth
    /// and whether it is nested, then the checksum.
    pub(crate) fn finish(mut self, depth: u32, nested: bool) -> ImageBuf {
        let l = &self.layout;
        let header = Header {
            version: VERSION,
            scalar_bytes: l.scalar_bytes as u32,
            modes: l.modes as u32,
            nodes: l.nodes as u32,
            triangles: l.triangles as u32,
            vertices: l.vertices as u32,
            depth,
            total_len: l.total as u32,
            checksum: 0,
            flags: if nested { FLAG_NESTED } else { 0 }
                | if l.bounded { FLAG_BOUNDED } else { 0 }
                | l.optional.flags(),
            encoding: l.encoding.code(),
            model_encoding: if l.model_q16 { MODEL_Q16 } else { 0 },
            contour_vertices: l.optional.contour_word(),
            rows: l.optional.row_words(),
        };
        self.bytes[..HEADER_LEN].copy_from_slice(&header.to_bytes());
        let crc = checksum(&self.bytes);
        self.bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 4].copy_from_slice(&crc.to_le_bytes());
        ImageBuf::from_bytes(&self.bytes)
    }
}

/// Appends little-endian values to one section.
pub(crate) struct SectionWriter<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl SectionWriter<'_> {
    /// Appends raw bytes. Writing past the section is a bug of the caller's counts (the layout
    /// was computed from them), and panics.
    pub(crate) fn put(&mut self, data: &[u8]) {
        self.out[self.at..self.at + data.len()].copy_from_slice(data);
        self.at += data.len();
    }

    /// Appends an `f64` value as a scalar of `scalar_bytes` (4: rounded to the nearest f32,
    /// exact for values already rounded to f32; 8: as is).
    pub(crate) fn scalar(&mut self, scalar_bytes: usize, x: f64) {
        if scalar_bytes == 4 {
            self.put(&(x as f32).to_le_bytes());
        } else {
            self.put(&x.to_le_bytes());
        }
    }

    /// Appends a `u32`.
    pub(crate) fn word(&mut self, w: u32) {
        self.put(&w.to_le_bytes());
    }

    /// Bytes written so far.
    pub(crate) fn written(&self) -> usize {
        self.at
    }
}

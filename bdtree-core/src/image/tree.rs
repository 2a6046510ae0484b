//! A read-only view of a BD-Tree: per node the rest sphere, the mode matrix `Ū`, the radius
//! growth `ΔR`, the spread `D`, the children and the leaf's triangle.
//!
//! The node rows are stored as scalars ([`Encoding::Float`]) or quantized
//! ([`Encoding::Q16`], [`Encoding::Q8`]; see [`crate::image`]); [`TreeView::row`] and the
//! sphere update read every encoding in place.

use super::self_tables::SelfData;
use crate::bounds::sphere::{update, update_sparse};
use crate::scalar::Scalar;

/// The "no child / no triangle" marker in a node's links (see [`crate::image`]).
pub const NONE: u32 = u32::MAX;

/// How a tree image stores the mode rows `[Ū_j, ΔR_j]` of its nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Encoding {
    /// Scalars (f32 or f64), `M + 1` rows of four per node.
    Float,
    /// `[c, R]` in f32, then per mode `Ū_j` as three `i16` and `ΔR_j` as a `u16`, each times
    /// the scale of the node's level and the mode.
    Q16,
    /// As [`Encoding::Q16`] with `i8` and `u8` codes.
    Q8,
}

impl Encoding {
    /// The header code: 0, 1, 2.
    pub const fn code(self) -> u32 {
        match self {
            Self::Float => 0,
            Self::Q16 => 1,
            Self::Q8 => 2,
        }
    }

    /// The encoding of a header code.
    pub const fn from_code(code: u32) -> Option<Self> {
        match code {
            0 => Some(Self::Float),
            1 => Some(Self::Q16),
            2 => Some(Self::Q8),
            _ => None,
        }
    }

    /// Bytes per code (0 for scalars).
    pub const fn code_bytes(self) -> usize {
        match self {
            Self::Float => 0,
            Self::Q16 => 2,
            Self::Q8 => 1,
        }
    }

    /// The largest `Ū` code magnitude (`i16::MAX`, `i8::MAX`; 0 for scalars).
    pub const fn max_signed(self) -> i32 {
        match self {
            Self::Float => 0,
            Self::Q16 => i16::MAX as i32,
            Self::Q8 => i8::MAX as i32,
        }
    }

    /// The largest `ΔR` code (`u16::MAX`, `u8::MAX`; 0 for scalars).
    pub const fn max_unsigned(self) -> u32 {
        match self {
            Self::Float => 0,
            Self::Q16 => u16::MAX as u32,
            Self::Q8 => u8::MAX as u32,
        }
    }

    /// Bytes of one node's record: `16 (M + 1)` or `8 (M + 1)` for scalars, `16 + 4M·b` for
    /// `b`-byte codes. `None` on overflow.
    pub const fn record_bytes(self, scalar_bytes: usize, modes: usize) -> Option<usize> {
        let Some(rows) = modes.checked_add(1) else {
            return None;
        };
        match self {
            Self::Float => match rows.checked_mul(4) {
                Some(n) => n.checked_mul(scalar_bytes),
                None => None,
            },
            Self::Q16 | Self::Q8 => match modes.checked_mul(4 * self.code_bytes()) {
                Some(n) => n.checked_add(16),
                None => None,
            },
        }
    }

    /// Name for messages and tables: `"f32"`/`"f64"` is the scalar's; `"q16"`, `"q8"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Float => "float",
            Self::Q16 => "q16",
            Self::Q8 => "q8",
        }
    }
}

/// The node rows of a tree, as the image stores them.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rows<'a, S: Scalar> {
    Float(&'a [[S; 4]]),
    Quantized {
        /// The records section: per node 16 bytes of f32 `[c, R]`, then the codes.
        bytes: &'a [u8],
        /// Bytes per node.
        stride: usize,
        encoding: Encoding,
        /// Per level and mode `[scale of Ū, scale of ΔR]`.
        scales: &'a [[f32; 2]],
    },
}

#[inline(always)]
fn f32_at(bytes: &[u8], at: usize) -> Option<f32> {
    let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(f32::from_le_bytes(b))
}

/// A node's place in the tree: its children or its triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum NodeKind {
    /// An internal node with two children (indices greater than its own).
    Internal {
        /// Left child.
        left: u32,
        /// Right child.
        right: u32,
    },
    /// A leaf holding one triangle (an index into the model's triangles).
    Leaf {
        /// The triangle.
        triangle: u32,
    },
    /// A node of a bounded-depth image whose subtree was not stored (see
    /// [`TreeView::is_bounded`]): a proxy, never a place to descend.
    Cut,
}

/// A validated BD-Tree borrowed from a tree image (see [`crate::Image::parse`]).
///
/// Node 0 is the root; children have larger indices than their parent; every index stored in
/// the tree was checked when the image was loaded, so accessors return `None` only for indices
/// the caller made up.
#[derive(Debug, Clone, Copy)]
pub struct TreeView<'a, S: Scalar> {
    modes: usize,
    rows: Rows<'a, S>,
    spread: &'a [S],
    links: &'a [[u32; 4]],
    stats: &'a [S],
    depth: u32,
    nested: bool,
    triangles: usize,
    bounded: bool,
    /// Per node the fitted sphere `[c, r]` and its rest reach `e` (empty: no fitted section).
    fitted: (&'a [[S; 4]], &'a [S]),
    /// The self-collision culling data (`None`: not in the image).
    self_data: Option<SelfData<'a>>,
}

impl<'a, S: Scalar> TreeView<'a, S> {
    /// Assembles a view from validated sections; `None` if their lengths disagree.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        modes: usize,
        rows: Rows<'a, S>,
        spread: &'a [S],
        links: &'a [[u32; 4]],
        stats: &'a [S],
        depth: u32,
        nested: bool,
        triangles: usize,
        bounded: bool,
    ) -> Option<Self> {
        let n = links.len();
        let rows_ok = match rows {
            Rows::Float(r) => r.len() == n.checked_mul(modes.checked_add(1)?)?,
            Rows::Quantized {
                bytes,
                stride,
                encoding,
                scales,
            } => {
                let levels = (depth as usize).checked_add(1)?;
                encoding != Encoding::Float
                    && S::BYTES == 4
                    && Some(stride) == encoding.record_bytes(4, modes)
                    && bytes.len() == n.checked_mul(stride)?
                    && scales.len() == levels.checked_mul(modes)?
            }
        };
        let ok = rows_ok && n > 0 && spread.len() == n && stats.len() == modes + 1;
        ok.then_some(Self {
            modes,
            rows,
            spread,
            links,
            stats,
            depth,
            nested,
            triangles,
            bounded,
            fitted: (&[], &[]),
            self_data: None,
        })
    }

    /// This view with the fitted section: one sphere and one reach per node (`None`
    /// otherwise).
    pub(crate) fn with_fitted(mut self, spheres: &'a [[S; 4]], reaches: &'a [S]) -> Option<Self> {
        let n = self.links.len();
        (spheres.len() == n && reaches.len() == n).then(|| {
            self.fitted = (spheres, reaches);
            self
        })
    }

    /// This view with the self-collision data (checked by the caller).
    pub(crate) fn with_self_data(mut self, data: SelfData<'a>) -> Self {
        self.self_data = Some(data);
        self
    }

    /// The image's self-collision culling data ([`crate::image::FLAG_SELF`]), `None` when the
    /// image does not carry it.
    #[inline]
    pub fn self_data(&self) -> Option<&SelfData<'a>> {
        self.self_data.as_ref()
    }

    /// Whether the image carries fitted spheres ([`crate::image::FLAG_FITTED`]).
    #[inline]
    pub fn has_fitted(&self) -> bool {
        !self.fitted.0.is_empty()
    }

    /// The node's fitted sphere `[c_x, c_y, c_z, r]` (rest frame) and its rest reach `e` (see
    /// [`crate::bounds::fitted`]). `None` for a bad index or an image without fitted spheres.
    #[inline]
    pub fn fitted(&self, node: usize) -> Option<([S; 4], S)> {
        Some((*self.fitted.0.get(node)?, *self.fitted.1.get(node)?))
    }

    /// How the node rows are stored.
    #[inline]
    pub fn encoding(&self) -> Encoding {
        match self.rows {
            Rows::Float(_) => Encoding::Float,
            Rows::Quantized { encoding, .. } => encoding,
        }
    }

    /// Whether the image stores only the top levels of the tree (a bounded-depth image): the
    /// nodes at the deepest stored level may be [`NodeKind::Cut`], and there is no mesh. Such
    /// a tree answers proxy queries ([`crate::query::proxies`]) down to its depth; triangle queries end
    /// with [`crate::QueryStatus::Truncated`].
    #[inline]
    pub fn is_bounded(&self) -> bool {
        self.bounded
    }

    /// Whether every node's bounds contain its children's for every `q` (a nested image,
    /// verified when loaded): the condition for [`crate::query::proxies`] queries.
    #[inline]
    pub fn is_nested(&self) -> bool {
        self.nested
    }

    /// Number of modes `M`.
    #[inline]
    pub fn modes(&self) -> usize {
        self.modes
    }

    /// Number of nodes (`2t − 1` for `t` triangles).
    #[inline]
    pub fn node_count(&self) -> usize {
        self.links.len()
    }

    /// Number of triangles of the model the tree was built on (one leaf each in a complete
    /// tree).
    #[inline]
    pub fn triangle_count(&self) -> usize {
        self.triangles
    }

    /// Depth of the deepest node; the root has depth 0.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The node's rows as stored scalars: `[c_x, c_y, c_z, R]`, then per mode
    /// `[Ū_x, Ū_y, Ū_z, ΔR]`. `None` for a quantized image (read [`TreeView::row`] instead).
    #[inline]
    pub fn record(&self, node: usize) -> Option<&'a [[S; 4]]> {
        let Rows::Float(rows) = self.rows else {
            return None;
        };
        // `node < n` and `n (M + 1)` rows exist (checked when the view was made), so the
        // products below cannot overflow: one comparison instead of checked arithmetic.
        if node >= self.links.len() {
            return None;
        }
        let stride = self.modes + 1;
        let start = node * stride;
        rows.get(start..start + stride)
    }

    /// Row `r` of a node in any encoding: `r = 0` is `[c_x, c_y, c_z, R]`, `r = j + 1` is
    /// `[Ū_x, Ū_y, Ū_z, ΔR]` of mode `j`. A quantized row is `code × scale` computed in `S`
    /// (one rounding; these values are the tree the bounds hold for).
    #[inline]
    pub fn row(&self, node: usize, r: usize) -> Option<[S; 4]> {
        match self.rows {
            Rows::Float(_) => self.record(node)?.get(r).copied(),
            Rows::Quantized { .. } => {
                let q = self.quantized(node)?;
                match r.checked_sub(1) {
                    None => q.head(),
                    Some(j) => q.mode(j),
                }
            }
        }
    }

    /// A quantized node's record bytes and its level's scales, located once.
    #[inline]
    fn quantized(&self, node: usize) -> Option<QuantNode<'a>> {
        let Rows::Quantized {
            bytes,
            stride,
            encoding,
            scales,
        } = self.rows
        else {
            return None;
        };
        let base = node.checked_mul(stride)?;
        let level = self.links.get(node)?[3] as usize;
        let first = level.checked_mul(self.modes)?;
        Some(QuantNode {
            record: bytes.get(base..base.checked_add(stride)?)?,
            scales: scales.get(first..first.checked_add(self.modes)?)?,
            encoding,
        })
    }

    /// Rest center and wrapped radius.
    #[inline]
    pub fn rest_sphere(&self, node: usize) -> Option<[S; 4]> {
        self.row(node, 0)
    }

    /// The exact update of a node for [`crate::bounds::sphere::mode_weights`] `weights`, in any
    /// encoding (see [`crate::bounds::sphere::update`]). `None` for a bad index.
    #[inline]
    pub fn update(&self, node: usize, weights: &[[S; 4]]) -> Option<[S; 4]> {
        match self.rows {
            Rows::Float(_) => Some(update(self.record(node)?, weights)),
            Rows::Quantized { .. } => self.update_quantized(node, weights, None),
        }
    }

    /// [`TreeView::update`] over the modes of `support` only (see
    /// [`crate::bounds::sphere::update_sparse`]).
    #[inline]
    pub fn update_sparse(
        &self,
        node: usize,
        weights: &[[S; 4]],
        support: &[u64],
    ) -> Option<[S; 4]> {
        match self.rows {
            Rows::Float(_) => Some(update_sparse(self.record(node)?, weights, support)),
            Rows::Quantized { .. } => self.update_quantized(node, weights, Some(support)),
        }
    }

    /// The quantized update: rows dequantized one at a time (no buffer), the same sum as the
    /// scalar update in another order (the error bound holds for any order).
    #[inline(never)]
    fn update_quantized(
        &self,
        node: usize,
        weights: &[[S; 4]],
        support: Option<&[u64]>,
    ) -> Option<[S; 4]> {
        let q = self.quantized(node)?;
        let mut acc = q.head::<S>()?;
        for (j, w) in weights.iter().enumerate().take(self.modes) {
            if let Some(words) = support {
                let bit = words
                    .get(j / 64)
                    .is_some_and(|w| w & (1u64 << (j % 64)) != 0);
                if !bit {
                    continue;
                }
            }
            let row = q.mode::<S>(j)?;
            let w = [w[0], w[0], w[0], w[3]];
            for l in 0..4 {
                acc[l] = acc[l] + row[l] * w[l];
            }
        }
        Some(acc)
    }

    /// The spread `D ≥ max_i ‖U_i‖₂` of the node: the radius growth per unit of `‖δq‖₂` around
    /// a kept center (see [`crate::bounds::coherence`]).
    #[inline]
    pub fn spread(&self, node: usize) -> Option<S> {
        self.spread.get(node).copied()
    }

    /// Children or triangle.
    #[inline]
    pub fn kind(&self, node: usize) -> Option<NodeKind> {
        let [left, right, triangle, _] = *self.links.get(node)?;
        Some(if triangle != NONE {
            NodeKind::Leaf { triangle }
        } else if left == NONE {
            NodeKind::Cut
        } else {
            NodeKind::Internal { left, right }
        })
    }

    /// The raw links `[left, right, triangle, depth]` of a node.
    #[inline]
    pub(crate) fn links(&self, node: usize) -> Option<[u32; 4]> {
        self.links.get(node).copied()
    }

    /// Every node's links, indexed by node.
    #[inline]
    pub(crate) fn links_all(&self) -> &'a [[u32; 4]] {
        self.links
    }

    /// Depth of a node (the root has depth 0).
    #[inline]
    pub fn node_depth(&self, node: usize) -> Option<u32> {
        self.links.get(node).map(|l| l[3])
    }

    /// `X₀ ≥ max(‖c‖∞ + R)` over all nodes.
    #[inline]
    pub(crate) fn magnitude(&self) -> S {
        self.stats.first().copied().unwrap_or(S::ZERO)
    }

    /// The stats section: `X₀`, then the `A_j`.
    #[inline]
    pub(crate) fn stats(&self) -> &'a [S] {
        self.stats
    }

    /// `A_j ≥ max(‖Ū_j‖∞ + ΔR_j)` over all nodes, one per mode.
    #[inline]
    pub(crate) fn mode_magnitudes(&self) -> &'a [S] {
        self.stats.get(1..).unwrap_or(&[])
    }
}

/// One node of a quantized tree: its record (f32 head, then the codes) and the scales of its
/// level, one `[s_U, s_R]` per mode.
#[derive(Clone, Copy)]
struct QuantNode<'a> {
    record: &'a [u8],
    scales: &'a [[f32; 2]],
    encoding: Encoding,
}

impl QuantNode<'_> {
    /// `[c_x, c_y, c_z, R]`.
    #[inline(always)]
    fn head<S: Scalar>(&self) -> Option<[S; 4]> {
        let f = |k: usize| f32_at(self.record, 4 * k).map(S::from_f32);
        Some([f(0)?, f(1)?, f(2)?, f(3)?])
    }

    /// `[Ū_x, Ū_y, Ū_z, ΔR]` of mode `j`: each code times its scale, in `S`.
    #[inline(always)]
    fn mode<S: Scalar>(&self, j: usize) -> Option<[S; 4]> {
        let [su, sr] = *self.scales.get(j)?;
        let codes = dequantize_codes(self.record, self.encoding, j)?;
        let (su, sr) = (S::from_f32(su), S::from_f32(sr));
        Some([
            S::from_i32(codes[0]) * su,
            S::from_i32(codes[1]) * su,
            S::from_i32(codes[2]) * su,
            S::from_i32(codes[3]) * sr,
        ])
    }
}

/// The four codes `[ux, uy, uz, r]` of mode `j` in a quantized node record.
#[inline(always)]
fn dequantize_codes(record: &[u8], encoding: Encoding, j: usize) -> Option<[i32; 4]> {
    match encoding {
        Encoding::Q16 => {
            let at = j.checked_mul(8)?.checked_add(16)?;
            let b: [u8; 8] = record.get(at..at.checked_add(8)?)?.try_into().ok()?;
            let i = |k: usize| i32::from(i16::from_le_bytes([b[2 * k], b[2 * k + 1]]));
            Some([
                i(0),
                i(1),
                i(2),
                i32::from(u16::from_le_bytes([b[6], b[7]])),
            ])
        }
        Encoding::Q8 => {
            let at = j.checked_mul(4)?.checked_add(16)?;
            let b: [u8; 4] = record.get(at..at.checked_add(4)?)?.try_into().ok()?;
            Some([
                i32::from(b[0] as i8),
                i32::from(b[1] as i8),
                i32::from(b[2] as i8),
                i32::from(b[3]),
            ])
        }
        Encoding::Float => None,
    }
}

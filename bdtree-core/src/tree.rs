//! A read-only view of a BD-Tree: per node the rest sphere, the mode matrix `Ū`, the radius
//! growth `ΔR`, the spread `D`, the children and the leaf's triangle.

use crate::image::NONE;
use crate::scalar::Scalar;

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
}

/// A validated BD-Tree borrowed from a tree image (see [`crate::Image::parse`]).
///
/// Node 0 is the root; children have larger indices than their parent; every index stored in
/// the tree was checked when the image was loaded, so accessors return `None` only for indices
/// the caller made up.
#[derive(Debug, Clone, Copy)]
pub struct TreeView<'a, S: Scalar> {
    modes: usize,
    rows: &'a [[S; 4]],
    spread: &'a [S],
    links: &'a [[u32; 4]],
    stats: &'a [S],
    depth: u32,
    nested: bool,
}

impl<'a, S: Scalar> TreeView<'a, S> {
    /// Assembles a view from validated sections; `None` if their lengths disagree.
    pub(crate) fn from_parts(
        modes: usize,
        rows: &'a [[S; 4]],
        spread: &'a [S],
        links: &'a [[u32; 4]],
        stats: &'a [S],
        depth: u32,
        nested: bool,
    ) -> Option<Self> {
        let n = links.len();
        let ok = n > 0
            && rows.len() == n.checked_mul(modes + 1)?
            && spread.len() == n
            && stats.len() == modes + 1;
        ok.then_some(Self {
            modes,
            rows,
            spread,
            links,
            stats,
            depth,
            nested,
        })
    }

    /// Whether every node's bounds contain its children's for every `q` (a nested image,
    /// verified when loaded): the condition for [`crate::proxy`] queries.
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

    /// Number of leaves, one per triangle.
    #[inline]
    pub fn triangle_count(&self) -> usize {
        self.links.len().div_ceil(2)
    }

    /// Depth of the deepest node; the root has depth 0.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The node's rows: `[c_x, c_y, c_z, R]`, then per mode `[Ū_x, Ū_y, Ū_z, ΔR]`.
    #[inline]
    pub fn record(&self, node: usize) -> Option<&'a [[S; 4]]> {
        let stride = self.modes + 1;
        let start = node.checked_mul(stride)?;
        self.rows.get(start..start.checked_add(stride)?)
    }

    /// Rest center and wrapped radius.
    #[inline]
    pub fn rest_sphere(&self, node: usize) -> Option<[S; 4]> {
        self.record(node).and_then(|r| r.first().copied())
    }

    /// The spread `D ≥ max_i ‖U_i‖₂` of the node: the radius growth per unit of `‖δq‖₂` around
    /// a kept center (see [`crate::coherence`]).
    #[inline]
    pub fn spread(&self, node: usize) -> Option<S> {
        self.spread.get(node).copied()
    }

    /// Children or triangle.
    #[inline]
    pub fn kind(&self, node: usize) -> Option<NodeKind> {
        let [left, right, triangle, _] = *self.links.get(node)?;
        Some(if triangle == NONE {
            NodeKind::Internal { left, right }
        } else {
            NodeKind::Leaf { triangle }
        })
    }

    /// The raw links `[left, right, triangle, depth]` of a node.
    #[inline]
    pub(crate) fn links(&self, node: usize) -> Option<[u32; 4]> {
        self.links.get(node).copied()
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

//! The self-collision tables an image may carry (its optional sections, [`super::optional`])
//! and a caller may hand the kernel: per node the boundary loop of its patch
//! ([`SelfContours`]) and the subspace certificate ([`SelfCertificates`]), and the vertex
//! signature's hash. Data only: the tests that read them are the queries'
//! (`crate::query::self_collision`).

/// The longest contour the kernel tests (vertices of one loop). The loop is cut into runs of
/// 16 edges, each with its projected bounding box (a stack array of `MAX_CONTOUR / RUN`
/// boxes: 1 KiB in f32, 2 KiB in f64); only edges of runs whose boxes come close are tested
/// against each other, so a smooth loop of `B` vertices costs `O(B²/RUN² + B·RUN)`. Nodes with
/// longer contours are never culled. 1,024 lets a square sheet of ~65,000 quads (or a ribbon
/// 500 triangles long) be culled whole at its root.
pub const MAX_CONTOUR: usize = 1024;

/// Per node, the boundary loop of its patch of triangles as vertex indices (the host's
/// `bdtree_std::build::self_contours` writes them once per tree): node `k`'s loop is
/// `vertices[starts[k]..starts[k + 1]]`, each consecutive pair (and the last with the first)
/// one boundary edge. An empty loop marks a node that cannot be culled (its patch is not one
/// oriented surface with one boundary loop, or the loop is longer than [`MAX_CONTOUR`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct SelfContours<'a> {
    /// `nodes + 1` offsets into `vertices`, non-decreasing (empty: no contours).
    pub starts: &'a [u32],
    /// The loops' vertex indices, node after node.
    pub vertices: &'a [u32],
}

impl<'a> SelfContours<'a> {
    /// No contours: no node is culled.
    pub const NONE: SelfContours<'static> = SelfContours {
        starts: &[],
        vertices: &[],
    };

    /// Node `node`'s loop, `None` when there is none to test.
    pub(crate) fn loop_of(&self, node: usize) -> Option<&'a [u32]> {
        let (start, end) = (
            *self.starts.get(node)?,
            *self.starts.get(node.checked_add(1)?)?,
        );
        let contour = self.vertices.get(start as usize..end as usize)?;
        (contour.len() >= 3 && contour.len() <= MAX_CONTOUR).then_some(contour)
    }
}

/// Weight vectors per node in a [`SelfCertificates`] table: `g`, `γ`, `w`, `M` weights each.
pub const CERTIFICATE_VECTORS: usize = 3;

/// Per-node subspace certificates, written once per tree by the host
/// (`bdtree_std::build::self_certificates`): node `k`'s `3M` weights (`g`, then `γ`, then `w`;
/// the condition is [`SelfCertificates::hold`]'s) at `[3Mk, 3M(k + 1))`. A node without a certificate has infinite
/// weights, which never hold. Empty: off.
#[derive(Debug, Clone, Copy, Default)]
pub struct SelfCertificates<'a> {
    /// `nodes × 3 × M` weights, node after node.
    pub weights: &'a [f32],
}

impl SelfCertificates<'_> {
    /// No certificates: no unit is culled by them.
    pub const NONE: SelfCertificates<'static> = SelfCertificates { weights: &[] };

    /// Whether the table fits a tree of `nodes` nodes and `modes` modes (empty fits any).
    pub(crate) fn fits(&self, nodes: usize, modes: usize) -> bool {
        self.weights.is_empty()
            || width(modes).and_then(|w| w.checked_mul(nodes)) == Some(self.weights.len())
    }

    /// Node `node`'s three weight vectors (`g`, `γ`, `w`) for `modes` modes.
    pub(crate) fn vectors(&self, node: usize, modes: usize) -> Option<[&[f32]; 3]> {
        let width = width(modes)?;
        let start = node.checked_mul(width)?;
        let weights = self.weights.get(start..start.checked_add(width)?)?;
        let (g, rest) = weights.split_at_checked(modes)?;
        let (gamma, w) = rest.split_at_checked(modes)?;
        Some([g, gamma, w])
    }
}

/// Weights per node for `modes` modes.
fn width(modes: usize) -> Option<usize> {
    modes.checked_mul(CERTIFICATE_VECTORS)
}

/// The self-collision culling data of an image ([`super::FLAG_SELF`]): what [`crate::SelfAids`] needs
/// beside the cones, borrowed from the image.
#[derive(Debug, Clone, Copy, Default)]
pub struct SelfData<'a> {
    /// Per node the vertex signature as two 32-bit halves (bits 0–31, 32–63).
    pub signatures: &'a [[u32; 2]],
    /// Per node the boundary loop of its patch.
    pub contours: SelfContours<'a>,
    /// Per node the subspace certificate (empty without [`super::FLAG_CERTIFICATES`]).
    pub certificates: SelfCertificates<'a>,
}

/// The bit of vertex `v` in a node signature (Fibonacci hashing: neighbouring indices land on
/// distant bits).
pub(crate) fn vertex_bit(v: u32) -> u64 {
    1 << (v.wrapping_mul(0x9E37_79B9) >> 26)
}

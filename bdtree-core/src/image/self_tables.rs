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
    /// The `normals` section as it is stored (empty without [`super::FLAG_NORMALS`]): per node
    /// a row number, then the rows ([`SelfData::normals`] views it). Its size is checked when
    /// the image is loaded, its entries where they are read (see [`SelfNormals`]).
    pub normals_section: &'a [u32],
    /// The `spheres` section as it is stored (empty without [`super::FLAG_NORMALS`]), as
    /// `normals_section` ([`SelfData::spheres`] views it).
    pub spheres_section: &'a [u32],
}

impl<'a> SelfData<'a> {
    /// Per node with many triangles the bounds on its deformed normals (empty without
    /// [`super::FLAG_NORMALS`]). `O(1)`: the section split after its per-node row numbers.
    pub fn normals(&self) -> SelfNormals<'a> {
        let (index, rows) = split_section(self.normals_section, self.signatures.len());
        SelfNormals { index, rows }
    }

    /// Per node with a few triangles its affine sphere (empty without
    /// [`super::FLAG_NORMALS`]). `O(1)`, as [`SelfData::normals`].
    pub fn spheres(&self) -> SelfSpheres<'a> {
        let (index, rows) = split_section(self.spheres_section, self.signatures.len());
        SelfSpheres { index, rows }
    }
}

/// An indexed section (`nodes` row numbers, then the rows) split in place; a section shorter
/// than its row numbers is kept whole as the index (a view that does not fit its tree, refused
/// by the query's entry check).
fn split_section(words: &[u32], nodes: usize) -> (&[u32], &[f32]) {
    match words.split_at_checked(nodes) {
        Some((index, rows)) => (index, bytemuck::try_cast_slice(rows).unwrap_or(&[])),
        None => (words, &[]),
    }
}

/// The bit of vertex `v` in a node signature (Fibonacci hashing: neighbouring indices land on
/// distant bits).
pub(crate) fn vertex_bit(v: u32) -> u64 {
    1 << (v.wrapping_mul(0x9E37_79B9) >> 26)
}

/// Modes up to which a [`SelfNormals`] row carries the quadratic terms of the normal exactly
/// (their centres and spreads per pair of modes, `3M(M + 1)` scalars); above it the quadratic
/// term is bounded through the edges' reach per mode alone (looser where two modes turn the
/// patch together, as a rotation does).
pub const NORMAL_QUADRATIC_MODES: usize = 8;

/// Per-node normal bounds ([`SelfNormals`]): scalars a row holds for `modes` modes (`10M + 8`:
/// the rest normal's centre and spread (3 + 3), per mode the linear term's centre and spread
/// and the edges' reach (3 + 3 + 3), the edges' length terms `M + 1`, and `1/s`; then, up to
/// [`NORMAL_QUADRATIC_MODES`] modes, the quadratic terms' centres and spreads per pair of
/// modes `j ≤ k`, `3M(M + 1)`).
pub const fn normal_row_width(modes: usize) -> usize {
    10 * modes + 8 + normal_quadratic_width(modes)
}

/// Scalars of a [`SelfSpheres`] row: the node's rest half-extents `h` about its stored centre
/// along the body axes (3), per mode the fitted linear map `Gⱼ` (9, row-major), then per mode
/// the largest residual `ρⱼ` (1): `10M + 3`.
pub const fn sphere_row_width(modes: usize) -> usize {
    10 * modes + 3
}

/// The quadratic block of a [`SelfNormals`] row (0 above [`NORMAL_QUADRATIC_MODES`]).
pub const fn normal_quadratic_width(modes: usize) -> usize {
    if modes <= NORMAL_QUADRATIC_MODES {
        3 * modes * (modes + 1)
    } else {
        0
    }
}

/// Per-node bounds on the deformed normals of a patch as functions of `q`, written once per
/// tree by the host (`bdtree_std::build::self_normals`) for the nodes over many triangles, so
/// that a node's normal cone costs `O(M)` instead of a deformed triangle per triangle below it
/// (the bound and its proof: `crate::query::self_collision`'s `normals` module). `index` holds
/// per node its row's number, or [`NO_ROW`]; row `i` is `rows[i·W..(i + 1)·W]`, `W` =
/// [`normal_row_width`]`(M)`. Empty: off (every cone from the deformed triangles).
#[derive(Debug, Clone, Copy, Default)]
pub struct SelfNormals<'a> {
    /// Per node its row's number, or [`NO_ROW`] (empty: no rows).
    pub index: &'a [u32],
    /// The rows, one after another.
    pub rows: &'a [f32],
}

/// Per-node affine spheres, written once per tree by the host
/// (`bdtree_std::build::self_spheres`) for the nodes over a few triangles: a node's
/// deformation fitted per mode by a linear map of its rest positions, so that a node turned
/// far but little bent (a fold's flap) is bounded in `O(M)` by a sphere of about its rest size
/// where its BD-Tree sphere (`R + Σⱼ ΔRⱼ |qⱼ|`) is many times it, and a self walk need not
/// refit its subtree (`crate::Body::affine_sphere`). Laid out as [`SelfNormals`], rows of
/// [`sphere_row_width`]`(M)`. Empty: off.
#[derive(Debug, Clone, Copy, Default)]
pub struct SelfSpheres<'a> {
    /// Per node its row's number, or [`NO_ROW`] (empty: no rows).
    pub index: &'a [u32],
    /// The rows, one after another.
    pub rows: &'a [f32],
}

/// In [`SelfNormals::index`] and [`SelfSpheres::index`]: the node has no row.
pub const NO_ROW: u32 = u32::MAX;

/// A node's entry in [`SelfNormals`] or [`SelfSpheres`] that cannot be read: a row number no
/// node of its place can have (past the rows, above the node's own number, or leaving too few
/// rows for the nodes after it), or a row with a non-finite value or a negative spread,
/// extent or residual. The query that reads it ends with
/// [`crate::QueryStatus::BadSection`] (the section and the first bad place:
/// [`SelfNormals::check`], [`SelfSpheres::check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadRow;

/// The positions of a row of `width` scalars whose values may be negative (the others are
/// spreads, extents or residuals): up to three ranges `[start, end)`.
type Signed = [(usize, usize); 3];

/// The signed positions of a [`SelfNormals`] row for `modes` modes: the rest normal's centre,
/// the linear terms' centres and the quadratic terms' centres.
fn normal_signed(modes: usize) -> Signed {
    let quadratic = 10 * modes + 8;
    [
        (0, 3),
        (6, 6 + 3 * modes),
        (quadratic, quadratic + normal_quadratic_width(modes) / 2),
    ]
}

/// The signed positions of a [`SelfSpheres`] row for `modes` modes: the linear maps.
fn sphere_signed(modes: usize) -> Signed {
    [(3, 3 + 9 * modes), (0, 0), (0, 0)]
}

/// The first value of `row` that is not finite, or negative outside the `signed` ranges.
fn first_invalid(row: &[f32], signed: &Signed) -> Option<usize> {
    row.iter().enumerate().position(|(i, &x)| {
        !x.is_finite() || (x < 0.0 && !signed.iter().any(|&(a, b)| a <= i && i < b))
    })
}

/// Bits of the largest finite f32 (the finite values of either sign are those at or below it
/// with the sign bit cleared).
const MAX_FINITE: u32 = 0x7f7f_ffff;
/// Bits of the f32 `-0.0` (not below 0).
const NEGATIVE_ZERO: u32 = 0x8000_0000;

/// Whether `row` has no value [`first_invalid`] would find, in one pass without a branch per
/// value (see [`bad_values`]), the ranges walked in place of a search per value. The
/// reader's check, run on every row it reads; `signed` holds sorted ranges (empty ones are
/// skipped), else the check falls back to [`first_invalid`].
#[inline(never)]
fn row_valid(row: &[f32], signed: &Signed) -> bool {
    let mut bad = 0u32;
    let mut from = 0usize;
    for &(a, b) in signed {
        if a >= b {
            continue;
        }
        let (Some(before), Some(within)) = (row.get(from..a), row.get(a..b)) else {
            return first_invalid(row, signed).is_none();
        };
        bad |= bad_values(before, true) | bad_values(within, false);
        from = b;
    }
    bad |= bad_values(row.get(from..).unwrap_or(&[]), true);
    bad == 0
}

/// Not 0 when a value of `values` is not finite or, `strict`, below 0 (`-0.0` is not): the
/// values' bits compared and the answers or-ed, a few integer operations a value (which a
/// host compiler runs in vector lanes), one loop for both kinds of value (flash).
#[inline(never)]
fn bad_values(values: &[f32], strict: bool) -> u32 {
    // Without `strict`, the sign bit cleared: only the non-finite remain above the largest
    // finite value (and none is `-0.0`).
    let keep = if strict { u32::MAX } else { !NEGATIVE_ZERO };
    values.iter().fold(0u32, |bad, x| {
        let bits = x.to_bits() & keep;
        bad | (u32::from(bits > MAX_FINITE) & u32::from(bits != NEGATIVE_ZERO))
    })
}

/// Row `node` of an indexed table of rows of `width` scalars (`None`: the node has none),
/// checked as it is read ([`BadRow`]): its number possible for its place and its values
/// valid (`signed` gives the ranges free of sign, asked only for a row). `O(width)`, as the
/// row's use.
#[inline]
fn indexed<'a>(
    index: &[u32],
    rows: &'a [f32],
    node: u32,
    width: usize,
    signed: impl FnOnce() -> Signed,
) -> Result<Option<&'a [f32]>, BadRow> {
    let Some(&i) = index.get(node as usize) else {
        return Ok(None);
    };
    if i == NO_ROW {
        return Ok(None);
    }
    // Rows are numbered in node order: at most `node` before this one, and one after it for
    // every later node at most.
    let later = index.len().saturating_sub(node as usize);
    let start = (i as usize).checked_mul(width).ok_or(BadRow)?;
    let row = rows
        .get(start..start.checked_add(width).ok_or(BadRow)?)
        .ok_or(BadRow)?;
    let left = (rows.len() / width.max(1)).saturating_sub(i as usize);
    if i > node || left > later || !row_valid(row, &signed()) {
        return Err(BadRow);
    }
    Ok(Some(row))
}

/// Whether an indexed table fits `nodes` nodes and rows of `width` (empty fits any).
fn indexed_fits(index: &[u32], rows: &[f32], nodes: usize, width: usize) -> bool {
    (index.is_empty() && rows.is_empty())
        || (index.len() == nodes && width != 0 && rows.len() % width == 0)
}

/// The whole check of an indexed table (`index` then `rows`, rows of `width` scalars, the
/// `signed` positions free of sign): empty, or one entry per node, each [`NO_ROW`] or the next
/// row in node order, every row used, every value finite and the others at or above 0. `Err`
/// names the first bad place (a node's entry, or `nodes` plus a value's position in the rows).
/// `O(nodes + rows)`: run by a self query after a read refused a row ([`BadRow`]), to name it.
fn check_indexed(
    index: &[u32],
    rows: &[f32],
    nodes: usize,
    width: usize,
    signed: &Signed,
) -> Result<(), usize> {
    if index.is_empty() && rows.is_empty() {
        return Ok(());
    }
    if index.len() != nodes || width == 0 || rows.len() % width != 0 {
        return Err(0);
    }
    let mut next = 0usize;
    for (k, &i) in index.iter().enumerate() {
        if i == NO_ROW {
            continue;
        }
        if i as usize != next {
            return Err(k);
        }
        next += 1;
    }
    if next.checked_mul(width) != Some(rows.len()) {
        return Err(0);
    }
    for (r, row) in rows.chunks(width).enumerate() {
        if let Some(at) = first_invalid(row, signed) {
            return Err(nodes + r * width + at);
        }
    }
    Ok(())
}

impl<'a> SelfNormals<'a> {
    /// No bounds: every cone from the deformed triangles.
    pub const NONE: SelfNormals<'static> = SelfNormals {
        index: &[],
        rows: &[],
    };

    /// Whether the table fits a tree of `nodes` nodes and `modes` modes (empty fits any).
    pub(crate) fn fits(&self, nodes: usize, modes: usize) -> bool {
        indexed_fits(self.index, self.rows, nodes, normal_row_width(modes))
    }

    /// Node `node`'s row for `modes` modes, when it has one; [`BadRow`] when its entry cannot
    /// be read.
    #[inline]
    pub(crate) fn row(&self, node: u32, modes: usize) -> Result<Option<&'a [f32]>, BadRow> {
        indexed(self.index, self.rows, node, normal_row_width(modes), || {
            normal_signed(modes)
        })
    }

    /// The whole table checked for a tree of `nodes` nodes and `modes` modes (see
    /// [`BadRow`]): `Err` names the first bad place (a node's entry, or `nodes` plus the
    /// position of a value in the rows). `O(nodes + rows)`.
    pub fn check(&self, nodes: usize, modes: usize) -> Result<(), usize> {
        check_indexed(
            self.index,
            self.rows,
            nodes,
            normal_row_width(modes),
            &normal_signed(modes),
        )
    }
}

impl<'a> SelfSpheres<'a> {
    /// No affine spheres.
    pub const NONE: SelfSpheres<'static> = SelfSpheres {
        index: &[],
        rows: &[],
    };

    /// Whether the table fits a tree of `nodes` nodes and `modes` modes (empty fits any).
    pub(crate) fn fits(&self, nodes: usize, modes: usize) -> bool {
        indexed_fits(self.index, self.rows, nodes, sphere_row_width(modes))
    }

    /// Node `node`'s row for `modes` modes, when it has one; [`BadRow`] when its entry cannot
    /// be read.
    #[inline]
    pub(crate) fn row(&self, node: u32, modes: usize) -> Result<Option<&'a [f32]>, BadRow> {
        indexed(self.index, self.rows, node, sphere_row_width(modes), || {
            sphere_signed(modes)
        })
    }

    /// Whether node `node` has a row (its entry not [`NO_ROW`]; read, not checked: the read
    /// of the row checks it). One load.
    #[inline(always)]
    pub(crate) fn has_row(&self, node: usize) -> bool {
        self.index.get(node).is_some_and(|&i| i != NO_ROW)
    }

    /// The whole table checked, as [`SelfNormals::check`].
    pub fn check(&self, nodes: usize, modes: usize) -> Result<(), usize> {
        check_indexed(
            self.index,
            self.rows,
            nodes,
            sphere_row_width(modes),
            &sphere_signed(modes),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader's branch-free check and the whole check's search agree on every row made of
    /// the values where a sign or finiteness test could slip (zeros of both signs, the
    /// smallest and largest finite values, infinities, NaNs of both signs, a negative value),
    /// placed in and out of the signed ranges of both tables' layouts.
    #[test]
    fn row_valid_agrees_with_first_invalid() {
        let values = [
            0.0f32,
            -0.0,
            1.5,
            -1.5,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(NEGATIVE_ZERO | 1),
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
        ];
        for modes in [0usize, 1, 2, 7] {
            for (width, signed) in [
                (normal_row_width(modes), normal_signed(modes)),
                (sphere_row_width(modes), sphere_signed(modes)),
            ] {
                let base = [0.25f32; 256];
                let base = &base[..width];
                assert!(row_valid(base, &signed));
                for at in 0..width {
                    for &x in &values {
                        let mut row = [0.25f32; 256];
                        let row = &mut row[..width];
                        row[at] = x;
                        assert_eq!(
                            row_valid(row, &signed),
                            first_invalid(row, &signed).is_none(),
                            "M = {modes}, width {width}, value {x:?} at {at}"
                        );
                    }
                }
            }
        }
    }
}

//! Box bounds for a built tree (the box variant of the BD-Tree, see [`bdtree_core::query::boxes`]).

use bdtree_core::{Image, Model, NodeKind, Scalar, TreeView};

/// The box table of an image: per node `M + 1` rows `[H_x, H_y, H_z, 0]`,
/// `[ΔH_jx, ΔH_jy, ΔH_jz, 0]` with `H_k = max_i |p_ik − c_k|` and `ΔH_jk = max_i |U_ijk − Ū_jk|`
/// over the node's vertices, computed in f64 from the image's own model and centers, rounded up
/// to the scalar and capped by the sphere's `R` and `ΔR_j` (which bound them already, so the
/// cap only undoes the rounding). Validate with [`bdtree_core::query::boxes::BoxTable::new`].
///
/// Empty for a bounded-depth image (no mesh to bound; box queries refuse such trees anyway).
pub fn box_table<S: Scalar>(image: &Image<'_, S>) -> Vec<[S; 4]> {
    box_rows(&image.tree, &image.model)
}

/// [`box_table`] of an image's tree and model (as a kernel body holds them).
pub fn box_rows<S: Scalar>(tree: &TreeView<'_, S>, model: &Model<'_, S>) -> Vec<[S; 4]> {
    if tree.is_bounded() {
        return Vec::new();
    }
    let m = tree.modes();
    let n = tree.node_count();
    // Any storage (a 16-bit model's stored values are what the boxes must bound).
    let positions: Vec<[S; 3]> = (0..model.vertex_count())
        .map(|i| model.position(i).unwrap_or([S::ZERO; 3]))
        .collect();
    let u = |v: usize, k: usize, j: usize| model.basis_entry(v, k, j).map_or(0.0, S::to_f64);
    // Vertex sets bottom-up (children have larger indices).
    let mut sets: Vec<Vec<u32>> = vec![Vec::new(); n];
    for k in (0..n).rev() {
        let mut set = match tree.kind(k) {
            Some(NodeKind::Leaf { triangle }) => model.triangles()[triangle as usize].to_vec(),
            Some(NodeKind::Internal { left, right }) => {
                let mut s = sets[left as usize].clone();
                s.extend_from_slice(&sets[right as usize]);
                s
            }
            Some(NodeKind::Cut) | None => Vec::new(),
        };
        set.sort_unstable();
        set.dedup();
        sets[k] = set;
    }
    let up = |x: f64, cap: S| {
        let y = S::from_f64(x * (1.0 + 1e-12));
        let y = if y.to_f64() < x {
            S::from_f64(x * (1.0 + 4.0 * S::UNIT_ROUNDOFF.to_f64()))
        } else {
            y
        };
        y.min(cap)
    };
    let mut rows = Vec::with_capacity(n * (m + 1));
    for (k, set) in sets.iter().enumerate() {
        // Rows in any encoding (the boxes of a quantized complete image bound its stored rows).
        let record: Vec<[S; 4]> = (0..=m).filter_map(|r| tree.row(k, r)).collect();
        if record.len() != m + 1 {
            break;
        }
        let c = [0, 1, 2].map(|a| record[0][a].to_f64());
        let mut h = [0.0f64; 3];
        for &v in set {
            let p = positions[v as usize];
            for a in 0..3 {
                h[a] = h[a].max((p[a].to_f64() - c[a]).abs());
            }
        }
        rows.push([
            up(h[0], record[0][3]),
            up(h[1], record[0][3]),
            up(h[2], record[0][3]),
            S::ZERO,
        ]);
        for j in 0..m {
            let ubar = [0, 1, 2].map(|a| record[j + 1][a].to_f64());
            let mut g = [0.0f64; 3];
            for &v in set {
                for a in 0..3 {
                    g[a] = g[a].max((u(v as usize, a, j) - ubar[a]).abs());
                }
            }
            let cap = record[j + 1][3];
            rows.push([up(g[0], cap), up(g[1], cap), up(g[2], cap), S::ZERO]);
        }
    }
    rows
}

/// The first 8 bytes of a box table file ([`box_file`]).
pub const BOX_FILE_MAGIC: [u8; 8] = *b"BDTBOXES";

/// The box table file format's version ([`box_file`]).
pub const BOX_FILE_VERSION: u32 = 1;

/// Bytes of a box table file's header ([`box_file`]).
pub const BOX_FILE_HEADER_BYTES: usize = 32;

/// The box table of an image as a file a device loads (`bdtree boxes`; the C API's
/// `bdtree_box_table_init_*` validates it against the image): a 32-byte header of
/// little-endian words, then the rows of [`box_table`].
///
/// | bytes | what |
/// |---|---|
/// | 0–7 | magic `BDTBOXES` |
/// | 8–11 | format version (1) |
/// | 12–15 | scalar bytes (4 or 8, the image's) |
/// | 16–19 | nodes `N` (the image's) |
/// | 20–23 | modes `M` (the image's) |
/// | 24–27 | the image's checksum (the CRC-32 in its header): the tree the table belongs to |
/// | 28–31 | CRC-32 of bytes 32 to the end (the rows) |
/// | 32– | `N (M + 1)` rows of 4 little-endian scalars: per node `[H_x, H_y, H_z, 0]`, then per mode `[ΔH_jx, ΔH_jy, ΔH_jz, 0]` |
///
/// `32 + 16 N (M + 1)` bytes in f32, `32 + 32 N (M + 1)` in f64. `None` for a bounded-depth
/// image (no mesh to bound: box queries refuse such trees).
pub fn box_file<S: Scalar>(image: &Image<'_, S>) -> Option<Vec<u8>> {
    if image.tree.is_bounded() {
        return None;
    }
    let rows = box_table(image);
    let mut body = Vec::with_capacity(rows.len() * 4 * S::BYTES as usize);
    for row in &rows {
        for v in row {
            match S::BYTES {
                4 => body.extend_from_slice(&(v.to_f64() as f32).to_le_bytes()),
                _ => body.extend_from_slice(&v.to_f64().to_le_bytes()),
            }
        }
    }
    let words = [
        BOX_FILE_VERSION,
        S::BYTES,
        image.tree.node_count() as u32,
        image.tree.modes() as u32,
        image.header.checksum,
        bdtree_core::crc32(&body),
    ];
    let mut file = Vec::with_capacity(BOX_FILE_HEADER_BYTES + body.len());
    file.extend_from_slice(&BOX_FILE_MAGIC);
    for w in words {
        file.extend_from_slice(&w.to_le_bytes());
    }
    file.extend_from_slice(&body);
    Some(file)
}

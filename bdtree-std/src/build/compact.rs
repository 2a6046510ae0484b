//! Compact tree images for flash: quantized rows (`q16`, `q8`) and bounded-depth images, made
//! from a complete f32 image without giving up containment.
//!
//! # Quantization
//!
//! A node keeps its rest sphere `[c, R]` in f32. Each mode row `[Ū_j, ΔR_j]` becomes integer
//! codes times two scales of the node's level and the mode (`s_U`, `s_R`, f32): the value the
//! kernel reads is the f32 product `code × scale`, so the builder knows it bit for bit. Then:
//!
//! * `Ū'_j = k s_U` with `k = round(Ū_j / s_U)`, `s_U = max_level |Ū_j|∞ / K` (`K` = 127 or
//!   32767): every code fits.
//! * `ΔR'_j = m s_R ≥ ΔR_j + ‖Ū_j − Ū'_j‖₂`: the center error is folded into the growth, so for
//!   every vertex of the node `‖p_i + U_i q − (c + Ū' q)‖ ≤ R + Σ_j ΔR'_j |q_j|` still holds —
//!   containment is exact for the quantized values, for every `q`.
//! * Nested sources stay nested: levels are quantized from the deepest up, and a parent's
//!   `ΔR'_j` also covers `‖Ū'_cj − Ū'_pj‖₂ + ΔR'_cj` of each child (the rest spheres and the
//!   spread are unchanged, so their nesting is the source's).
//! * The magnitude bounds `X₀`, `A_j` are recomputed from the stored values.
//!
//! Every requirement is computed in f64 from the exact f32 values with a relative slack of
//! `10⁻¹²`, and each stored `ΔR'` is checked against it after rounding; the kernel's loader
//! re-verifies magnitudes and nesting in its own arithmetic.
//!
//! # 16-bit model
//!
//! `model_q16` (complete images) stores positions as `k s_p + o` and basis entries as `k s_j`
//! with `i16` codes (f32 arithmetic, known bit for bit). Every node's `R` grows by `√3 e_p` and
//! every `ΔR_j` by `√3 e_j`, where `e_p`, `e_j` are the largest per-coordinate errors of the
//! codes: the spheres then contain the stored vertices (`‖x' − x‖ ≤ √3 (e_p + Σ e_j |q_j|)`),
//! and nesting is kept (every node grows by the same amounts). The image records `e_p`, `e_j`;
//! the kernel adds `2(e_p + Σ e_j |q_j|)` to its rounding bound, so spheres and triangle tests on
//! the stored model also cover the model the image was made from.
//!
//! # Bounded depth
//!
//! `depth = Some(L)` keeps the nodes of depth `≤ L` (in their order) and no mesh; internal
//! nodes at depth `L` become **cut** nodes. Such an image answers proxy queries
//! ([`bdtree_core::collide_proxies`]) at any proxy depth `≤ L` exactly as the complete image
//! would with the same rows, and nothing else.

use bdtree_core::image::tree::NONE;
use bdtree_core::image::{Layout, Optional, Section};
use bdtree_core::{Encoding, Image, NodeKind};

use super::error::BuildError;
use super::writer::{ImageWriter, MagnitudeBounds};
use crate::io::ImageBuf;

/// The sections of the tree itself: its bytes without the model and the self-collision data.
pub const TREE_SECTIONS: [Section; 6] = [
    Section::Stats,
    Section::Records,
    Section::Spread,
    Section::Links,
    Section::Scales,
    Section::Fitted,
];

/// What [`compact`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct CompactReport {
    /// Row encoding.
    pub encoding: Encoding,
    /// Whether the image is bounded (top levels only, no mesh).
    pub bounded: bool,
    /// Depth of the stored tree.
    pub depth: u32,
    /// Nodes stored.
    pub nodes: usize,
    /// Modes.
    pub modes: usize,
    /// Image size in bytes.
    pub bytes: usize,
    /// Bytes of the tree sections (stats, records, spread, links, scales) per node.
    pub tree_bytes_per_node: f64,
    /// Mean over the stored nodes of `‖ΔR‖₂` in the source image.
    pub mean_growth_source: f64,
    /// Mean over the stored nodes of `‖ΔR'‖₂` as stored.
    pub mean_growth: f64,
    /// For a 16-bit model: the largest per-coordinate position error `e_p` and basis error
    /// `max_j e_j`.
    pub model_errors: Option<(f64, f64)>,
}

/// A model quantized to 16 bits (see the module docs).
struct QuantModel {
    positions: Vec<[i16; 3]>,
    basis: Vec<i16>,
    /// `[o_x, o_y, o_z, s_p]`, `s_j`, `e_p`, `e_j`.
    scales: Vec<f32>,
    e_p: f64,
    e_j: Vec<f64>,
}

fn quantize_model(model: &bdtree_core::Model<'_, f32>) -> QuantModel {
    let m = model.modes();
    let v = model.vertex_count();
    let p: Vec<[f64; 3]> = (0..v)
        .map(|i| model.position(i).unwrap_or([0.0; 3]).map(f64::from))
        .collect();
    let mut frame = [0f32; 4];
    let mut half = 0f64;
    for a in 0..3 {
        let (lo, hi) = p
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), x| (l.min(x[a]), h.max(x[a])));
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (0.0, 0.0) };
        frame[a] = ((lo + hi) / 2.0) as f32;
        half = half
            .max(hi - f64::from(frame[a]))
            .max(f64::from(frame[a]) - lo);
    }
    let k_max = f64::from(i16::MAX);
    frame[3] = f32_up(half / (k_max - 1.0));
    let code = |x: f64, s: f32| -> i16 {
        if s > 0.0 {
            (x / f64::from(s)).round().clamp(-k_max, k_max) as i16
        } else {
            0
        }
    };
    let mut e_p = 0f64;
    let positions: Vec<[i16; 3]> = p
        .iter()
        .map(|x| {
            [0, 1, 2].map(|a| {
                let k = code(x[a] - f64::from(frame[a]), frame[3]);
                let stored = f64::from(f32::from(k) * frame[3] + frame[a]);
                e_p = e_p.max((stored - x[a]).abs());
                k
            })
        })
        .collect();
    let entry = |i: usize, a: usize, j: usize| f64::from(model.basis_entry(i, a, j).unwrap_or(0.0));
    let mut mode_scales = vec![0f32; m];
    for (j, s) in mode_scales.iter_mut().enumerate() {
        let amax = (0..v)
            .flat_map(|i| (0..3).map(move |a| (i, a)))
            .map(|(i, a)| entry(i, a, j).abs())
            .fold(0f64, f64::max);
        *s = f32_up(amax / k_max);
    }
    let mut e_j = vec![0f64; m];
    let mut basis = Vec::with_capacity(3 * v * m);
    for i in 0..v {
        for a in 0..3 {
            for j in 0..m {
                let u = entry(i, a, j);
                let k = code(u, mode_scales[j]);
                let stored = f64::from(f32::from(k) * mode_scales[j]);
                e_j[j] = e_j[j].max((stored - u).abs());
                basis.push(k);
            }
        }
    }
    // Recorded rounded up, with slack for the f64 arithmetic above.
    let e_p = f64::from(f32_up(e_p * SLACK));
    let e_j: Vec<f64> = e_j.iter().map(|&e| f64::from(f32_up(e * SLACK))).collect();
    let mut scales = frame.to_vec();
    scales.extend_from_slice(&mode_scales);
    scales.push(e_p as f32);
    scales.extend(e_j.iter().map(|&e| e as f32));
    QuantModel {
        positions,
        basis,
        scales,
        e_p,
        e_j,
    }
}

/// Rounds a non-negative f64 up to an f32.
fn f32_up(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) < x {
        y.next_up()
    } else {
        y
    }
}

/// The value the kernel reads for a code and a scale.
fn value(code: i32, scale: f32) -> f64 {
    f64::from(code as f32 * scale)
}

fn norm(d: [f64; 3]) -> f64 {
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

const SLACK: f64 = 1.0 + 1e-12;

/// One stored node during compaction (f64 copies of exact f32 values).
struct Kept {
    source: usize,
    depth: u32,
    head: [f32; 4],
    spread: f32,
    links: [u32; 4],
    /// Per mode `Ū'` codes and the growth code.
    codes: Vec<[i32; 4]>,
    /// Per mode the stored `[Ū', ΔR']` values (f64 of the f32 the kernel reads).
    rows: Vec<[f64; 4]>,
    /// The fitted sphere and its rest reach, copied: quantized growths are never below the
    /// source's and a 16-bit model's distance is in the body's rounding bound, so the reach
    /// `e + ΔR'ᵀ|q|` still holds (`bdtree_core::bounds::fitted`).
    fitted: ([f32; 4], f32),
}

/// Makes a compact image from a complete f32 image: `encoding` for the rows, `depth` to keep
/// only the top `L` levels (bounded; `None` or `L ≥` the tree's depth keeps them all, with the
/// mesh), `model_q16` to store a complete image's mesh and basis in 16 bits. See the module
/// docs for what is guaranteed.
pub fn compact(
    source: &Image<'_, f32>,
    encoding: Encoding,
    depth: Option<u32>,
    model_q16: bool,
) -> Result<(ImageBuf, CompactReport), BuildError> {
    let tree = &source.tree;
    if tree.is_bounded() || tree.encoding() != Encoding::Float || source.model.is_quantized() {
        return Err(BuildError::BadMesh(
            "compaction needs a complete f32 image with scalar rows as its source".into(),
        ));
    }
    let m = tree.modes();
    let bounded = depth.is_some_and(|l| l < tree.depth());
    let limit = if bounded {
        depth.unwrap_or(0)
    } else {
        tree.depth()
    };
    let nested = tree.is_nested();

    // Which nodes stay, and their new indices (the source order, filtered: children still
    // follow their parents).
    let mut index = vec![NONE; tree.node_count()];
    let mut kept: Vec<Kept> = Vec::new();
    for (k, slot) in index.iter_mut().enumerate() {
        let d = tree.node_depth(k).unwrap_or(u32::MAX);
        if d > limit {
            continue;
        }
        *slot = kept.len() as u32;
        let record = tree.record(k).ok_or(BuildError::TooLarge)?;
        let head = record[0];
        kept.push(Kept {
            source: k,
            depth: d,
            head,
            spread: tree.spread(k).unwrap_or(0.0),
            fitted: tree.fitted(k).unwrap_or(([0.0; 4], 0.0)),
            links: [NONE, NONE, NONE, d],
            codes: vec![[0; 4]; m],
            rows: record[1..]
                .iter()
                .map(|r| r.map(f64::from))
                .collect::<Vec<_>>(),
        });
    }
    for node in &mut kept {
        node.links = match tree.kind(node.source) {
            Some(NodeKind::Leaf { triangle }) => [NONE, NONE, triangle, node.depth],
            Some(NodeKind::Internal { left, right }) if node.depth < limit => [
                index[left as usize],
                index[right as usize],
                NONE,
                node.depth,
            ],
            _ => [NONE, NONE, NONE, node.depth],
        };
    }
    // A 16-bit model: every sphere grows by the codes' error (module docs).
    let quant_model = (model_q16 && !bounded).then(|| quantize_model(&source.model));
    if let Some(q) = &quant_model {
        let grow = |x: f64, e: f64| f64::from(f32_up((x + 3f64.sqrt() * e) * SLACK));
        for node in &mut kept {
            node.head[3] = grow(f64::from(node.head[3]), q.e_p) as f32;
            for (row, &e) in node.rows.iter_mut().zip(&q.e_j) {
                row[3] = grow(row[3], e);
            }
        }
    }
    let mean_growth_source = kept
        .iter()
        .map(|n| n.rows.iter().map(|r| r[3] * r[3]).sum::<f64>().sqrt())
        .sum::<f64>()
        / kept.len() as f64;

    let levels = limit as usize + 1;
    let mut scales = vec![[0f32; 2]; levels * m];
    if encoding != Encoding::Float {
        quantize(&mut kept, &mut scales, encoding, m, levels, nested)?;
    }

    // Magnitude bounds from the stored values (the loader checks them in f32: keep a margin).
    let mut stats = MagnitudeBounds::new(m, 1.0 + 1e-5, |x| f64::from(f32_up(x)));
    for node in &kept {
        stats.add(0, node.head.map(f64::from));
        for (j, row) in node.rows.iter().enumerate() {
            stats.add(j + 1, *row);
        }
    }

    let model = &source.model;
    let (vertices, t) = (model.vertex_count(), tree.triangle_count());
    let layout = Layout::with_format(
        encoding,
        bounded,
        quant_model.is_some(),
        4,
        m,
        kept.len(),
        t,
        if bounded { 0 } else { vertices },
        limit as usize,
    )
    .and_then(|l| {
        l.with_optional(Optional {
            fitted: tree.has_fitted(),
            self_cull: None,
        })
    })
    .ok_or(BuildError::TooLarge)?;
    let mut image = ImageWriter::new(layout);
    let mut w = image.section(Section::Stats);
    for &x in stats.values() {
        w.put(&(x as f32).to_le_bytes());
    }
    let mut w = image.section(Section::Records);
    for node in &kept {
        for x in node.head {
            w.put(&x.to_le_bytes());
        }
        for (codes, row) in node.codes.iter().zip(&node.rows) {
            match encoding {
                Encoding::Float => {
                    for x in row {
                        w.put(&(*x as f32).to_le_bytes());
                    }
                }
                Encoding::Q16 => {
                    for &c in &codes[..3] {
                        w.put(&(c as i16).to_le_bytes());
                    }
                    w.put(&(codes[3] as u16).to_le_bytes());
                }
                Encoding::Q8 => {
                    for &c in &codes[..3] {
                        w.put(&(c as i8).to_le_bytes());
                    }
                    w.put(&(codes[3] as u8).to_le_bytes());
                }
            }
        }
    }
    let mut w = image.section(Section::Spread);
    for node in &kept {
        w.put(&node.spread.to_le_bytes());
    }
    let mut w = image.section(Section::Links);
    for node in &kept {
        for x in node.links {
            w.word(x);
        }
    }
    if let Some(q) = &quant_model {
        let mut w = image.section(Section::Positions);
        for x in q.positions.iter().flatten() {
            w.put(&x.to_le_bytes());
        }
        let mut w = image.section(Section::Basis);
        for x in &q.basis {
            w.put(&x.to_le_bytes());
        }
    } else if !bounded {
        let mut w = image.section(Section::Positions);
        for x in model.positions().iter().flatten() {
            w.put(&x.to_le_bytes());
        }
        let mut w = image.section(Section::Basis);
        for x in model.basis() {
            w.put(&x.to_le_bytes());
        }
    }
    if !bounded {
        let mut w = image.section(Section::Faces);
        for &x in model.triangles().iter().flatten() {
            w.word(x);
        }
    }
    let mut w = image.section(Section::Scales);
    if encoding != Encoding::Float {
        for s in scales.iter().flatten() {
            w.put(&s.to_le_bytes());
        }
    }
    if let Some(q) = &quant_model {
        for s in &q.scales {
            w.put(&s.to_le_bytes());
        }
    }
    if tree.has_fitted() {
        let mut w = image.section(Section::Fitted);
        for node in &kept {
            for x in node.fitted.0 {
                w.put(&x.to_le_bytes());
            }
        }
        for node in &kept {
            w.put(&node.fitted.1.to_le_bytes());
        }
    }
    let mut buf = image.finish(limit, nested);
    // The self-collision data follows the image when it keeps its mesh (made again from the
    // compact image: a 16-bit model has no certificates).
    if let (Some(data), false) = (tree.self_data(), bounded) {
        let certificates = !data.certificates.weights.is_empty();
        buf = super::self_data::with_self_data(&buf, certificates)?;
    }

    let tree_bytes: usize = TREE_SECTIONS.iter().map(|&s| layout.len_of(s)).sum();
    let mean_growth = kept
        .iter()
        .map(|n| n.rows.iter().map(|r| r[3] * r[3]).sum::<f64>().sqrt())
        .sum::<f64>()
        / kept.len() as f64;
    let report = CompactReport {
        encoding,
        bounded,
        depth: limit,
        nodes: kept.len(),
        modes: m,
        bytes: buf.as_bytes().len(),
        tree_bytes_per_node: tree_bytes as f64 / kept.len() as f64,
        mean_growth_source,
        mean_growth,
        model_errors: quant_model
            .as_ref()
            .map(|q| (q.e_p, q.e_j.iter().copied().fold(0.0, f64::max))),
    };
    Ok((buf, report))
}

/// Quantizes the mode rows of `kept` in place (codes and stored values) and fills `scales`
/// (per level and mode `[s_U, s_R]`): see the module docs.
fn quantize(
    kept: &mut [Kept],
    scales: &mut [[f32; 2]],
    encoding: Encoding,
    m: usize,
    levels: usize,
    nested: bool,
) -> Result<(), BuildError> {
    let k_max = encoding.max_signed();
    let m_max = encoding.max_unsigned();
    // Centers first: every level's `s_U`, then every `Ū'`.
    let mut amax = vec![0f64; levels * m];
    for node in kept.iter() {
        for (j, row) in node.rows.iter().enumerate() {
            let a = &mut amax[node.depth as usize * m + j];
            *a = a.max(row[0].abs()).max(row[1].abs()).max(row[2].abs());
        }
    }
    for (s, &a) in scales.iter_mut().zip(&amax) {
        s[0] = f32_up(a / f64::from(k_max));
    }
    // Per node and mode: the growth the node needs for its own vertices.
    let mut need = vec![0f64; kept.len() * m];
    for (i, node) in kept.iter_mut().enumerate() {
        for j in 0..m {
            let su = scales[node.depth as usize * m + j][0];
            let row = node.rows[j];
            let mut codes = [0i32; 4];
            let mut stored = [0f64; 4];
            for l in 0..3 {
                let k = if su > 0.0 {
                    (row[l] / f64::from(su)).round() as i32
                } else {
                    0
                };
                codes[l] = k.clamp(-k_max, k_max);
                stored[l] = value(codes[l], su);
            }
            let err = norm([row[0] - stored[0], row[1] - stored[1], row[2] - stored[2]]);
            need[i * m + j] = (row[3] + err) * SLACK;
            node.codes[j] = codes;
            node.rows[j] = stored;
        }
    }
    // Growths, deepest level first, so that a parent covers its children as stored.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); kept.len()];
    if nested {
        for (i, node) in kept.iter().enumerate() {
            if node.links[2] == NONE && node.links[0] != NONE {
                children[i] = vec![node.links[0] as usize, node.links[1] as usize];
            }
        }
    }
    for level in (0..levels).rev() {
        let members: Vec<usize> = (0..kept.len())
            .filter(|&i| kept[i].depth as usize == level)
            .collect();
        for &i in &members {
            for &c in &children[i] {
                for j in 0..m {
                    let (p, ch) = (kept[i].rows[j], kept[c].rows[j]);
                    let d = norm([ch[0] - p[0], ch[1] - p[1], ch[2] - p[2]]);
                    let n = &mut need[i * m + j];
                    *n = n.max((d + ch[3]) * SLACK);
                }
            }
        }
        for j in 0..m {
            let rmax = members
                .iter()
                .map(|&i| need[i * m + j])
                .fold(0f64, f64::max);
            let mut sr = f32_up(rmax / f64::from(m_max));
            // Codes ⌈need / s⌉, checked after the f32 product; widen the scale if one overflows.
            'widen: for _ in 0..64 {
                for &i in &members {
                    let n = need[i * m + j];
                    let mut code = if sr > 0.0 {
                        (n / f64::from(sr)).ceil() as i64
                    } else {
                        0
                    };
                    while value(code as i32, sr) < n && code <= i64::from(m_max) {
                        code += 1;
                    }
                    if code > i64::from(m_max) {
                        sr = f32_up(f64::from(sr) * (1.0 + 1e-6));
                        continue 'widen;
                    }
                    kept[i].codes[j][3] = code as i32;
                    kept[i].rows[j][3] = value(code as i32, sr);
                }
                scales[level * m + j][1] = sr;
                break;
            }
            if members
                .iter()
                .any(|&i| kept[i].rows[j][3] < need[i * m + j])
            {
                return Err(BuildError::TooLarge);
            }
        }
    }
    Ok(())
}

//! Compact images (quantized rows, bounded depth): containment of every stored vertex for any
//! `q` in every format, nesting kept, no contact missed against the f64 brute force (triangle
//! queries on complete images, proxy queries on bounded ones), clear errors for corrupt or
//! unsupported images, and no panic on resealed random corruptions.

use bdtree_core::image::{FLAG_BOUNDED, VERSION};
use bdtree_core::{
    collide, collide_proxies, proxy_stack_capacity, stack_capacity, Encoding, Image, ImageError,
    NodeKind, Pose, ProxyPair, QueryStatus, TrianglePair,
};
use bdtree_std::build::{build, compact, BuildOptions, Precision};
use bdtree_std::io;
use bdtree_std::io::{Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{smooth_basis, torus};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use super::corrupt::{parse_err, patched, reseal};
use crate::support::{
    config, dist, meshes, node_vertices, pairs_into, proxy_of_triangle, rough_basis, stored_model,
    Rng,
};

const FORMATS: [Encoding; 3] = [Encoding::Float, Encoding::Q16, Encoding::Q8];

fn f32_image(mesh: &Mesh, basis: Option<&Basis>, nested: bool) -> ImageBuf {
    let options = BuildOptions {
        precision: Precision::F32,
        nested,
        ..BuildOptions::default()
    };
    build(mesh, basis, options, &mut |_| {}).expect("build").0
}

/// The source node of every node of a compact image made with `depth` (the source order
/// filtered by depth, as `compact` keeps it).
fn source_nodes(source: &Image<'_, f32>, depth: Option<u32>) -> Vec<usize> {
    let limit = depth.unwrap_or(u32::MAX);
    (0..source.tree.node_count())
        .filter(|&k| source.tree.node_depth(k).expect("node") <= limit)
        .collect()
}

/// The f64 sphere of a node for `q` from the rows as the kernel reads them.
fn sphere(image: &Image<'_, f32>, node: usize, q: &[f64]) -> [f64; 4] {
    let tree = &image.tree;
    let mut s = tree.row(node, 0).expect("row").map(f64::from);
    for (j, &qj) in q.iter().enumerate() {
        let row = tree.row(node, j + 1).expect("row").map(f64::from);
        for l in 0..3 {
            s[l] += row[l] * qj;
        }
        s[3] += row[3] * qj.abs();
    }
    s
}

/// Every stored vertex of every node inside the node's sphere for random `q`, in f64 on the
/// values the kernel reads; and, for a nested source, every child inside its parent.
fn check_containment(source_buf: &ImageBuf, rng: &mut Rng) -> Result<(), TestCaseError> {
    let source = source_buf.parse::<f32>().expect("source");
    let sets = node_vertices(&source);
    let m = source.tree.modes();
    let depth = source.tree.depth();
    let cases = [
        (None, false),
        (None, true),
        (Some(depth / 2), false),
        (Some(depth.saturating_sub(1)), false),
    ];
    for encoding in FORMATS {
        for (limit, model_q16) in cases {
            let (buf, report) = compact(&source, encoding, limit, model_q16).expect("compact");
            let image = buf.parse::<f32>().map_err(|e| {
                TestCaseError::fail(format!("{encoding:?} depth {limit:?} m16 {model_q16}: {e}"))
            })?;
            // The vertices the spheres must contain: the stored ones (16-bit or the source's).
            let (mesh, basis) = if image.tree.is_bounded() {
                stored_model(&source)
            } else {
                stored_model(&image)
            };
            prop_assert_eq!(
                image.model.is_quantized(),
                model_q16 && !image.tree.is_bounded()
            );
            prop_assert_eq!(image.tree.encoding(), encoding);
            let bounded = limit.is_some_and(|l| l < depth);
            prop_assert_eq!(image.tree.is_bounded(), bounded);
            prop_assert_eq!(image.tree.is_nested(), source.tree.is_nested());
            prop_assert_eq!(report.nodes, image.tree.node_count());
            let map = source_nodes(&source, limit.filter(|_| bounded));
            prop_assert_eq!(map.len(), image.tree.node_count());
            for _ in 0..6 {
                let q: Vec<f64> = (0..m).map(|_| rng.uniform(-3.0, 3.0)).collect();
                let world = oracle::deform(&mesh.vertices, Some(&basis), &q, &io::Pose::IDENTITY);
                for (k, &src) in map.iter().enumerate() {
                    let s = sphere(&image, k, &q);
                    for &v in &sets[src] {
                        let reach = dist([s[0], s[1], s[2]], world[v as usize]);
                        prop_assert!(
                            reach <= s[3] * (1.0 + 1e-9) + 1e-9,
                            "{:?} depth {:?}: vertex {} of node {} at {} outside radius {}",
                            encoding,
                            limit,
                            v,
                            k,
                            reach,
                            s[3]
                        );
                    }
                    if image.tree.is_nested() {
                        if let Some(NodeKind::Internal { left, right }) = image.tree.kind(k) {
                            for c in [left as usize, right as usize] {
                                let sc = sphere(&image, c, &q);
                                let reach = dist([s[0], s[1], s[2]], [sc[0], sc[1], sc[2]]) + sc[3];
                                prop_assert!(
                                    reach <= s[3] * (1.0 + 1e-9) + 1e-9,
                                    "{:?}: child {} reaches {} beyond parent {} radius {}",
                                    encoding,
                                    c,
                                    reach,
                                    k,
                                    s[3]
                                );
                            }
                        }
                    }
                }
            }
            // Quantization only adds growth: never less than the f32 rows'.
            for (k, &src) in map.iter().enumerate() {
                for r in 1..=m {
                    let (a, b) = (
                        image.tree.row(k, r).unwrap(),
                        source.tree.row(src, r).unwrap(),
                    );
                    prop_assert!(a[3] >= b[3] || encoding == Encoding::Float && a == b);
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(16, 0xBD7_0801))]

    #[test]
    fn every_format_contains_every_vertex_for_any_q(
        index in 0usize..5,
        modes in 0usize..=8,
        rough in any::<bool>(),
        nested in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = &meshes()[index];
        let basis = if rough {
            rough_basis(mesh.vertices.len(), modes, 0.05, &mut rng)
        } else {
            smooth_basis(&mesh.vertices, modes, 0.15)
        };
        check_containment(&f32_image(mesh, Some(&basis), nested), &mut rng)?;
    }
}

fn pose(p: &io::Pose) -> Pose<f32> {
    Pose::from_quaternion(
        p.rotation.map(|x| x as f32),
        p.translation.map(|x| x as f32),
    )
    .expect("pose")
}

proptest! {
    #![proptest_config(config(16, 0xBD7_0802))]

    /// Quantized complete images: `collide` finds every contact of the f64 brute force on the
    /// source meshes. Bounded images: every contact lies under a reported proxy pair, and a
    /// triangle query is refused with `Truncated`.
    #[test]
    fn compact_images_never_miss_a_contact(
        ia in 0usize..5,
        ib in 0usize..5,
        modes in 1usize..=6,
        format in 0usize..3,
        proxy_depth in 1u32..5,
        model_q16 in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let all = meshes();
        let (mesh_a, mesh_b) = (&all[ia], &all[ib]);
        let basis_a = smooth_basis(&mesh_a.vertices, modes, 0.15);
        let basis_b = rough_basis(mesh_b.vertices.len(), modes, 0.03, &mut rng);
        let (buf_a, buf_b) = (f32_image(mesh_a, Some(&basis_a), true), f32_image(mesh_b, Some(&basis_b), true));
        let (src_a, src_b) = (buf_a.parse::<f32>().unwrap(), buf_b.parse::<f32>().unwrap());
        let encoding = FORMATS[format];
        let (qa, qb): (Vec<f64>, Vec<f64>) = (
            (0..modes).map(|_| rng.uniform(-1.5, 1.5)).collect(),
            (0..modes).map(|_| rng.uniform(-1.5, 1.5)).collect(),
        );
        let pa = io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-0.2, 0.2)) };
        let pb = io::Pose { rotation: rng.rotation(), translation: [0, 1, 2].map(|_| rng.uniform(-0.6, 0.6)) };
        let world_a = oracle::deform(&mesh_a.vertices, Some(&basis_a), &qa, &pa);
        let world_b = oracle::deform(&mesh_b.vertices, Some(&basis_b), &qb, &pb);
        let contacts = oracle::brute_force_pairs(&world_a, &mesh_a.triangles, &world_b, &mesh_b.triangles);
        let q32 = |q: &[f64]| q.iter().map(|&x| x as f32).collect::<Vec<f32>>();

        // Complete, quantized: the triangle query against the full f32 image of b.
        let (cbuf, _) = compact(&src_a, encoding, None, model_q16).expect("compact");
        let ca = cbuf.parse::<f32>().expect("compact parses");
        let mut cache_a = BodyStorage::new(ca.tree.node_count());
        let mut cache_b = BodyStorage::new(src_b.tree.node_count());
        let mut a = cache_a.body(&ca).expect("a");
        let mut b = cache_b.body(&src_b).expect("b");
        a.set_state(pose(&pa), &q32(&qa)).unwrap();
        b.set_state(pose(&pb), &q32(&qb)).unwrap();
        let mut stack = vec![[0u32; 2]; stack_capacity(ca.tree.depth(), src_b.tree.depth())];
        let mut found: Vec<(u32, u32)> = Vec::new();
        let outcome = collide(&mut a, &mut b, &mut stack, &mut pairs_into(&mut found));
        prop_assert_eq!(outcome.status, QueryStatus::Complete);
        found.sort_unstable();
        for c in &contacts {
            prop_assert!(found.binary_search(c).is_ok(), "{:?}: contact {:?} missed", encoding, c);
        }

        // Bounded at `proxy_depth`: proxy queries only.
        let (bbuf, _) = compact(&src_a, encoding, Some(proxy_depth), false).expect("compact");
        let ba = bbuf.parse::<f32>().expect("bounded parses");
        let bounded = ba.tree.is_bounded();
        let mut cache_a = BodyStorage::new(ba.tree.node_count());
        let mut cache_b = BodyStorage::new(src_b.tree.node_count());
        let mut a = cache_a.body(&ba).expect("bounded body");
        let mut b = cache_b.body(&src_b).expect("b");
        a.set_state(pose(&pa), &q32(&qa)).unwrap();
        b.set_state(pose(&pb), &q32(&qb)).unwrap();
        let lb = proxy_depth + 1;
        let mut stack = vec![[0u32; 2]; proxy_stack_capacity(ba.tree.depth(), proxy_depth, src_b.tree.depth(), lb)];
        let mut pairs: Vec<(usize, u32)> = Vec::new();
        let map = source_nodes(&src_a, Some(proxy_depth));
        let outcome = collide_proxies(&mut a, &mut b, proxy_depth, lb, &mut stack, &mut |p: ProxyPair<f32>| {
            pairs.push((map[p.a as usize], p.b));
            true
        });
        prop_assert_eq!(outcome.status, QueryStatus::Complete);
        pairs.sort_unstable();
        let owner_a = proxy_of_triangle(&src_a.tree, proxy_depth);
        let owner_b = proxy_of_triangle(&src_b.tree, lb);
        for &(x, y) in &contacts {
            let pair = (owner_a[x as usize] as usize, owner_b[y as usize]);
            prop_assert!(pairs.binary_search(&pair).is_ok(), "{:?} bounded: contact ({}, {}) not under a proxy pair", encoding, x, y);
        }
        if bounded {
            let mut stack = vec![[0u32; 2]; 64];
            let outcome = collide(&mut a, &mut b, &mut stack, &mut |_p: TrianglePair| true);
            prop_assert_eq!(outcome.status, QueryStatus::Truncated);
            prop_assert!(a.world_triangle(0).is_none());
        }
    }
}

/// Re-seals an edited image with a valid checksum.
fn small_source() -> ImageBuf {
    let mesh = torus(0.5, 0.15, 18, 8);
    let basis = smooth_basis(&mesh.vertices, 4, 0.15);
    f32_image(&mesh, Some(&basis), true)
}

#[test]
fn corrupt_or_unsupported_compact_images_get_clear_errors() {
    let source_buf = small_source();
    let source = source_buf.parse::<f32>().unwrap();
    let (q8, _) = compact(&source, Encoding::Q8, Some(3), false).unwrap();
    let bytes = q8.as_bytes().to_vec();
    let header = q8.header().unwrap();
    assert_eq!(header.version, VERSION);
    assert_eq!(header.flags & FLAG_BOUNDED, FLAG_BOUNDED);
    let layout = header.layout().unwrap();
    let patch = |at: usize, value: &[u8]| parse_err(&patched(&bytes, at, value));
    // An unknown encoding, and a quantized image read as f64.
    assert_eq!(
        patch(44, &7u32.to_le_bytes()),
        Some(ImageError::UnknownEncoding { code: 7 })
    );
    assert!(matches!(
        q8.parse::<f64>(),
        Err(ImageError::ScalarMismatch { .. })
    ));
    // An earlier version, whatever it carries, is refused by its number.
    assert_eq!(
        patch(4, &3u32.to_le_bytes()),
        Some(ImageError::UnsupportedVersion { found: 3 })
    );
    // A NaN scale.
    let scales = layout.section(7).start;
    assert_eq!(
        patch(scales, &f32::NAN.to_le_bytes()),
        Some(ImageError::NonFinite {
            section: "scales",
            index: 0
        })
    );
    // A huge ΔR code on the root breaks the magnitude bounds (or the nesting below it).
    // A huge ΔR scale at the deepest level: the rows as read exceed the magnitude bounds.
    let m = source.tree.modes();
    let s_r = layout.section(7).start + ((3 * m) * 2 + 1) * 4;
    assert!(matches!(
        patch(s_r, &1.0e6f32.to_le_bytes()),
        Some(ImageError::BadStats { .. })
    ));
    // Without the bounded flag a cut node is a bad link.
    let flags = header.flags & !FLAG_BOUNDED;
    assert!(matches!(
        patch(40, &flags.to_le_bytes()),
        Some(
            ImageError::BadCounts | ImageError::LengthMismatch { .. } | ImageError::BadLink { .. }
        )
    ));
    // A cut node above the deepest level.
    let links = layout.section(3).start;
    assert_eq!(
        patch(links, &[0xff; 8]),
        Some(ImageError::BadLink { node: 0 })
    );
}

#[test]
fn resealed_random_corruptions_of_compact_images_never_panic() {
    let source_buf = small_source();
    let source = source_buf.parse::<f32>().unwrap();
    let mut rng = Rng::new(0xBD7_0803);
    let mut refused = 0;
    let mut tried = 0;
    for encoding in FORMATS {
        for depth in [None, Some(2)] {
            let (buf, _) = compact(&source, encoding, depth, false).unwrap();
            let bytes = buf.as_bytes().to_vec();
            for _ in 0..150 {
                let mut b = bytes.clone();
                for _ in 0..1 + rng.below(4) {
                    let at = rng.below(b.len());
                    b[at] = rng.next_u64() as u8;
                }
                reseal(&mut b);
                tried += 1;
                let buf = ImageBuf::from_bytes(&b);
                let Ok(image) = buf.parse::<f32>() else {
                    refused += 1;
                    continue;
                };
                // Whatever parses is usable without panics.
                let mut cache = BodyStorage::new(image.tree.node_count());
                let mut cache2 = BodyStorage::new(image.tree.node_count());
                let (Ok(mut a), Ok(mut b2)) = (cache.body(&image), cache2.body(&image)) else {
                    continue;
                };
                let q = vec![0.5f32; image.tree.modes()];
                // A corrupted magnitude bound may put this state out of range: refused, fine.
                if a.set_state(Pose::identity(), &q).is_err() {
                    continue;
                }
                for k in 0..=image.tree.node_count() {
                    let _ = a.sphere(k);
                }
                let d = image.tree.depth();
                let mut stack = vec![[0u32; 2]; proxy_stack_capacity(d, d, d, d)];
                let _ = collide_proxies(
                    &mut a,
                    &mut b2,
                    d,
                    d,
                    &mut stack,
                    &mut |_p: ProxyPair<f32>| true,
                );
                let mut stack = vec![[0u32; 2]; stack_capacity(d, d)];
                let _ = collide(&mut a, &mut b2, &mut stack, &mut |_p: TrianglePair| true);
            }
        }
    }
    assert!(
        refused > tried / 3,
        "only {refused} of {tried} corruptions refused"
    );
}

#[test]
fn scalar_complete_images_stay_byte_identical() {
    let source_buf = small_source();
    let source = source_buf.parse::<f32>().unwrap();
    let (same, _) = compact(&source, Encoding::Float, None, false).unwrap();
    assert_eq!(same.as_bytes(), source_buf.as_bytes());
    let (q16, report) = compact(&source, Encoding::Q16, None, false).unwrap();
    let image = q16.parse::<f32>().unwrap();
    assert_eq!(image.header.version, VERSION);
    assert!(
        image.tree.record(0).is_none(),
        "quantized rows are not scalar slices"
    );
    assert_eq!(
        image.model.triangles().len(),
        source.model.triangles().len()
    );
    assert!(report.bytes < source_buf.as_bytes().len());
    // The rest spheres are kept exactly.
    for k in 0..image.tree.node_count() {
        assert_eq!(image.tree.rest_sphere(k), source.tree.rest_sphere(k));
    }
}

#[test]
fn a_16_bit_model_widens_the_rounding_bound_by_its_recorded_error_and_is_validated() {
    let source_buf = small_source();
    let source = source_buf.parse::<f32>().unwrap();
    let (buf, report) = compact(&source, Encoding::Q8, None, true).unwrap();
    let image = buf.parse::<f32>().unwrap();
    assert!(image.model.is_quantized());
    assert!(image.model.positions().is_empty() && image.model.basis().is_empty());
    assert_eq!(image.model.vertex_count(), source.model.vertex_count());
    let (e_p, e_u) = report.model_errors.expect("errors");
    assert!(
        e_p > 0.0 && e_u > 0.0 && e_p < 1e-4 && e_u < 1e-4,
        "{e_p} {e_u}"
    );
    // The stored model is within the recorded error of the source, vertex by vertex.
    for i in 0..image.model.vertex_count() {
        let (a, b) = (
            image.model.position(i).unwrap(),
            source.model.position(i).unwrap(),
        );
        for k in 0..3 {
            assert!(f64::from((a[k] - b[k]).abs()) <= e_p);
        }
    }
    // δ grows by at least 2 (e_p + Σ e_j |q_j|).
    let q = vec![0.7f32; image.tree.modes()];
    let mut c1 = BodyStorage::new(image.tree.node_count());
    let mut c2 = BodyStorage::new(source.tree.node_count());
    let mut a = c1.body(&image).unwrap();
    let mut b = c2.body(&source).unwrap();
    a.set_state(Pose::identity(), &q).unwrap();
    b.set_state(Pose::identity(), &q).unwrap();
    let storage = image.model.storage_error(q.iter().copied());
    assert!(storage >= e_p as f32);
    assert!(a.error() >= 2.0 * storage, "{} vs {}", a.error(), storage);
    assert!(b.error() < a.error());

    // Validation: an unknown model encoding, a negative recorded error, a model on f64 or v2.
    let bytes = buf.as_bytes().to_vec();
    let header = buf.header().unwrap();
    assert_eq!(header.model_encoding, 1);
    let layout = header.layout().unwrap();
    let patch = |at: usize, value: &[u8]| parse_err(&patched(&bytes, at, value));
    assert_eq!(
        patch(48, &9u32.to_le_bytes()),
        Some(ImageError::UnknownEncoding { code: 9 })
    );
    let m = image.tree.modes();
    let scales = layout.section(7);
    let e_p_at = scales.end - 4 * (m + 1);
    assert!(matches!(
        patch(e_p_at, &(-1.0f32).to_le_bytes()),
        Some(ImageError::Negative {
            section: "scales",
            ..
        })
    ));
    assert!(matches!(
        patch(scales.start, &f32::INFINITY.to_le_bytes()),
        Some(ImageError::NonFinite {
            section: "scales",
            ..
        })
    ));
}

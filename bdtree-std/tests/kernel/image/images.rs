//! Tree images: round trip, and corrupt images refused without panics — including corruptions
//! with a recomputed checksum, which reach the structural validation behind it.

use bdtree_core::image::{HEADER_LEN, VERSION};
use bdtree_core::{collide, stack_capacity, Image, ImageError, NodeKind, Pose, TrianglePair};
use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::ImageBuf;
use bdtree_std::shapes::procedural::{icosphere, smooth_basis};
use bdtree_std::BodyStorage;

use super::corrupt::{parse_err, patched, reseal};
use crate::support::Rng;

fn small_image(precision: Precision) -> ImageBuf {
    let mesh = icosphere(0.5, 1);
    let basis = smooth_basis(&mesh.vertices, 3, 0.05);
    let options = BuildOptions {
        precision,
        ..BuildOptions::default()
    };
    build(&mesh, Some(&basis), options, &mut |_| {})
        .expect("build")
        .0
}

/// Whatever parses must also be safe to query.
fn exercise(bytes: &[u8]) {
    let buf = ImageBuf::from_bytes(bytes);
    let Ok(image) = buf.parse::<f32>() else {
        return;
    };
    let mut cache_a = BodyStorage::new(image.tree.node_count());
    let mut cache_b = BodyStorage::new(image.tree.node_count());
    let (Ok(mut a), Ok(mut b)) = (cache_a.body(&image), cache_b.body(&image)) else {
        return;
    };
    let q = vec![0.5f32; image.tree.modes()];
    let _ = a.set_state(Pose::identity(), &q);
    let _ = b.set_state(
        Pose::from_quaternion([1.0, 0.0, 0.0, 0.0], [0.3, 0.0, 0.0]).unwrap(),
        &q,
    );
    let mut stack = vec![[0u32; 2]; stack_capacity(image.tree.depth(), image.tree.depth())];
    let _ = collide(&mut a, &mut b, &mut stack, &mut |_: TrianglePair| true);
}

#[test]
fn a_built_image_parses_and_reports_its_counts() {
    for precision in [Precision::F32, Precision::F64] {
        let buf = small_image(precision);
        let header = buf.header().expect("header");
        assert_eq!(header.triangles, 80);
        assert_eq!(header.nodes, 159);
        assert_eq!(header.modes, 3);
        assert_eq!(header.scalar_bytes, precision.bytes());
    }
    let f32_image = small_image(Precision::F32);
    assert_eq!(
        f32_image.parse::<f64>().err(),
        Some(ImageError::ScalarMismatch {
            found: 4,
            expected: 8
        })
    );
    let image: Image<'_, f32> = f32_image.parse().expect("parse");
    assert_eq!(image.model.triangles().len(), 80);
}

#[test]
fn every_truncation_and_single_byte_flip_is_refused() {
    let bytes = small_image(Precision::F32).as_bytes().to_vec();
    for len in 0..bytes.len() {
        assert!(
            ImageBuf::from_bytes(&bytes[..len]).parse::<f32>().is_err(),
            "truncated to {len}"
        );
    }
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 1 << (i % 8);
        assert!(
            ImageBuf::from_bytes(&b).parse::<f32>().is_err(),
            "flip at byte {i}"
        );
    }
}

#[test]
fn a_misaligned_image_is_an_error_not_a_panic() {
    let bytes = small_image(Precision::F32).as_bytes().to_vec();
    let mut shifted = vec![0u8; bytes.len() + 1];
    shifted[1..].copy_from_slice(&bytes);
    let buf = ImageBuf::from_bytes(&shifted);
    assert!(matches!(
        Image::<f32>::parse(&buf.as_bytes()[1..]),
        Err(ImageError::Misaligned { .. })
    ));
}

#[test]
fn resealed_corruptions_never_panic_and_structural_ones_are_caught() {
    let bytes = small_image(Precision::F32).as_bytes().to_vec();
    let mut rng = Rng::new(0x1AA6E);
    let mut refused = 0;
    for round in 0..4_000 {
        let mut b = bytes.clone();
        for _ in 0..1 + round % 4 {
            let i = HEADER_LEN + rng.below(b.len() - HEADER_LEN);
            b[i] = match rng.below(4) {
                0 => 0xFF,
                1 => 0x00,
                2 => b[i] ^ (1 << rng.below(8)),
                _ => rng.next_u64() as u8,
            };
        }
        reseal(&mut b);
        if ImageBuf::from_bytes(&b).parse::<f32>().is_err() {
            refused += 1;
        }
        exercise(&b);
    }
    assert!(
        refused > 200,
        "structural validation refused only {refused} resealed corruptions"
    );
}

#[test]
fn targeted_structural_corruptions_get_their_own_errors() {
    let buf = small_image(Precision::F32);
    let bytes = buf.as_bytes().to_vec();
    let layout = buf.header().unwrap().layout().unwrap();
    let links = layout.section(3).start;
    let records = layout.section(1).start;
    let patch = |at: usize, value: [u8; 4]| parse_err(&patched(&bytes, at, &value));
    // The root's left child pointing at the root itself.
    assert_eq!(
        patch(links, 0u32.to_le_bytes()),
        Some(ImageError::BadLink { node: 0 })
    );
    // The last node is a leaf; its triangle out of range.
    let last_leaf = links + 16 * (layout.nodes - 1) + 8;
    assert_eq!(
        patch(last_leaf, 9999u32.to_le_bytes()),
        Some(ImageError::BadLink {
            node: layout.nodes - 1
        })
    );
    // The root radius NaN, then negative.
    assert_eq!(
        patch(records + 12, f32::NAN.to_le_bytes()),
        Some(ImageError::NonFinite {
            section: "records",
            index: 3
        })
    );
    assert_eq!(
        patch(records + 12, (-1.0f32).to_le_bytes()),
        Some(ImageError::Negative {
            section: "records",
            index: 3
        })
    );
    // A face with a vertex index out of range.
    let faces = layout.section(6).start;
    assert_eq!(
        patch(faces + 4, u32::MAX.to_le_bytes()),
        Some(ImageError::BadFace { triangle: 0 })
    );
}

#[test]
fn images_of_earlier_versions_and_children_out_of_pairs_are_refused() {
    let buf = small_image(Precision::F32);
    let image = buf.parse::<f32>().expect("parses");
    assert_eq!(image.header.version, VERSION);
    // Every internal node's children are a sibling pair: the left one odd, the right after it.
    for k in 0..image.tree.node_count() {
        if let Some(NodeKind::Internal { left, right }) = image.tree.kind(k) {
            assert!(
                left % 2 == 1 && right == left + 1,
                "node {k}: {left}, {right}"
            );
        }
    }
    let bytes = buf.as_bytes().to_vec();
    let layout = buf.header().unwrap().layout().unwrap();
    let links = layout.section(3).start;
    let patch = |at: usize, value: [u8; 4]| parse_err(&patched(&bytes, at, &value));
    // An image written by an earlier bdtree (versions 2 and 3: nodes in pre-order; 4: no fitted
    // spheres).
    for old in [2u32, 3, 4] {
        let error = patch(4, old.to_le_bytes()).expect("refused");
        assert_eq!(error, ImageError::UnsupportedVersion { found: old });
        let message = error.to_string();
        assert!(
            message.contains(&format!("version {old}")) && message.contains("bdtree build"),
            "{message}"
        );
    }
    // The root's children swapped: still its children, but no longer a sibling pair in order.
    let mut b = bytes.clone();
    b[links..links + 4].copy_from_slice(&2u32.to_le_bytes());
    b[links + 4..links + 8].copy_from_slice(&1u32.to_le_bytes());
    reseal(&mut b);
    assert_eq!(
        ImageBuf::from_bytes(&b).parse::<f32>().err(),
        Some(ImageError::BadLink { node: 0 })
    );
}

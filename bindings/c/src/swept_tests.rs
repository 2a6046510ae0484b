//! `bdtree_collide_swept_f32`/`_f64` against the CLI's swept runner (`run_swept`, itself checked
//! against dense sampling of the motion): the plate fixture built by `bdtree-std`, every motion
//! through the C functions only — placed at `bdtree_floating_origin` of the four translations,
//! as the header tells a C client —, pairs and the bits of every earliest time equal.

use std::path::Path;
use std::vec;
use std::vec::Vec;

use bdtree_cli::run::{frame_origin, prepare, run_swept};
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::io::Scene;

use crate::c_names::*;

/// Bytes copied into 8-byte aligned storage (what an image and a body's storage need).
pub(crate) fn aligned(bytes: &[u8]) -> Vec<u64> {
    let mut words = vec![0u64; bytes.len().div_ceil(8)];
    for (k, b) in bytes.iter().enumerate() {
        words[k / 8] |= u64::from(*b) << (8 * (k % 8));
    }
    words
}

macro_rules! swept_through_c {
    ($name:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $pair:ty, $parse:ident,
     $size:ident, $init:ident, $set:ident, $swept:ident) => {
        #[test]
        fn $name() {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/swept");
            let scene = Scene::load(&root.join("plate.json")).expect("fixture scene");
            let options = BuildOptions {
                precision: $precision,
                ..BuildOptions::default()
            };
            let prepared = prepare(&scene, options).expect("build");
            let (answers, _) = run_swept::<$s>(&scene, &prepared).expect("swept");
            assert_eq!(scene.bodies.len(), 2);
            let words: Vec<Vec<u64>> = prepared
                .images
                .iter()
                .map(|im| aligned(im.as_bytes()))
                .collect();
            // SAFETY: zeroed opaque objects are what the C API expects before parse/init; every
            // pointer below is valid for the length given, and the bodies are distinct.
            unsafe {
                let mut images: [$image; 2] = core::mem::zeroed();
                for (image, (w, im)) in images.iter_mut().zip(words.iter().zip(&prepared.images)) {
                    let s = $parse(w.as_ptr().cast(), im.as_bytes().len(), image);
                    assert_eq!(s, bdtree_status::Ok);
                }
                // Bodies 0, 1: object a before and now; 2, 3: object b. With vertex caches, as
                // the host's bodies have them: the swept leaf reads the end positions from the
                // cache, and without one (deformed on demand) the earliest times may differ in
                // the last advancement step (same pairs; on this scene by at most 8.4e-5 of the
                // motion in f32, 9.9e-6 in f64).
                let mut bodies: [$body; 4] = core::mem::zeroed();
                let mut storage: Vec<Vec<u64>> = Vec::new();
                for (k, body) in bodies.iter_mut().enumerate() {
                    let image = &images[k / 2];
                    let need = $size(image, BDTREE_BODY_VERTEX_CACHE);
                    storage.push(vec![0u64; need.div_ceil(8)]);
                    let buffer = storage.last_mut().expect("pushed");
                    let s = $init(
                        body,
                        image,
                        buffer.as_mut_ptr().cast(),
                        need,
                        BDTREE_BODY_VERTEX_CACHE,
                    );
                    assert_eq!(s, bdtree_status::Ok);
                }
                let mut stack = vec![bdtree_node_pair::default(); 4096];
                let mut pairs = vec![<$pair>::default(); 1 << 16];
                let mut total = 0;
                for answer in &answers {
                    let f = answer.frame;
                    // The swept pair's floating origin as a C client computes it: of both
                    // bodies' translations at both ends of the motion (the runner's, on a
                    // two-body scene).
                    let origin = {
                        let four: Vec<f64> = [f - 1, f]
                            .iter()
                            .flat_map(|&g| scene.frames[g].iter().map(|(p, _)| p.translation))
                            .flatten()
                            .collect();
                        let mut origin = [f64::NAN; 3];
                        let s = bdtree_floating_origin(four.as_ptr(), 4, origin.as_mut_ptr());
                        assert_eq!(s, bdtree_status::Ok);
                        assert_eq!(origin, frame_origin(&scene, [f - 1, f]));
                        origin
                    };
                    for (object, body) in [(0usize, 0usize), (0, 1), (1, 2), (1, 3)] {
                        let frame = if body % 2 == 0 { f - 1 } else { f };
                        let (pose, q) = &scene.frames[frame][object];
                        let s = $set(
                            &mut bodies[body],
                            pose.rotation.as_ptr(),
                            pose.translation.as_ptr(),
                            origin.as_ptr(),
                            q.as_ptr(),
                            q.len(),
                        );
                        assert_eq!(s, bdtree_status::Ok);
                    }
                    let [a0, a1, b0, b1] = &mut bodies;
                    let mut count = 0usize;
                    let mut stats = bdtree_stats::default();
                    let s = $swept(
                        a0,
                        a1,
                        b0,
                        b1,
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        &mut stats,
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    let mut got: Vec<(u32, u32, u64)> = pairs[..count]
                        .iter()
                        .map(|p| (p.a, p.b, f64::from(p.time).to_bits()))
                        .collect();
                    got.sort_unstable();
                    let mut want: Vec<(u32, u32, u64)> = answer
                        .items
                        .iter()
                        .map(|c| (c.pair.2, c.pair.3, c.time.to_bits()))
                        .collect();
                    want.sort_unstable();
                    assert_eq!(got, want, "motion into frame {f}");
                    total += count;
                    // The same body twice is refused, and a full buffer says so.
                    let mut one = [<$pair>::default(); 1];
                    let (a0, a1, b0, b1) = (
                        &mut bodies[0] as *mut $body,
                        &mut bodies[1] as *mut $body,
                        &mut bodies[2] as *mut $body,
                        &mut bodies[3] as *mut $body,
                    );
                    let s = $swept(
                        a0,
                        a0,
                        b0,
                        b1,
                        stack.as_mut_ptr(),
                        stack.len(),
                        one.as_mut_ptr(),
                        1,
                        &mut count,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::SameBody);
                    if !want.is_empty() {
                        let s = $swept(
                            a0,
                            a1,
                            b0,
                            b1,
                            stack.as_mut_ptr(),
                            stack.len(),
                            one.as_mut_ptr(),
                            1,
                            &mut count,
                            core::ptr::null_mut(),
                        );
                        assert!(
                            (want.len() == 1 && s == bdtree_status::Ok)
                                || (s == bdtree_status::OutputFull && count == 1)
                        );
                    }
                }
                assert!(total > 0, "no swept pair: the comparison would be vacuous");
            }
        }
    };
}

swept_through_c!(
    swept_f32_equals_the_runner,
    f32,
    Precision::F32,
    bdtree_image_f32,
    bdtree_body_f32,
    bdtree_swept_pair_f32,
    bdtree_image_parse_f32,
    bdtree_body_storage_size_f32,
    bdtree_body_init_f32,
    bdtree_body_set_state_from_f64_f32,
    bdtree_collide_swept_f32
);
swept_through_c!(
    swept_f64_equals_the_runner,
    f64,
    Precision::F64,
    bdtree_image_f64,
    bdtree_body_f64,
    bdtree_swept_pair_f64,
    bdtree_image_parse_f64,
    bdtree_body_storage_size_f64,
    bdtree_body_init_f64,
    bdtree_body_set_state_from_f64_f64,
    bdtree_collide_swept_f64
);

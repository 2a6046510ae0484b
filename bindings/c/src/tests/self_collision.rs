//! `bdtree_collide_self_*` through the C functions only, against the f64 brute force on the
//! explicitly deformed source mesh, on the meshes that break self-collision's shortcuts (the
//! kernel and host tests' families: rest shapes that cross and touch themselves, duplicated
//! vertices, soups, non-manifold edges, collapsed vertices; no modes and an all-zero basis;
//! unit-size at the origin and millimetre parts modelled 1 m away and posed far, each body set
//! from f64 at its own translation as the header tells a C client to), and on the C-shaped
//! strip whose f64 source crosses itself by less than its f32 storage rounding — each image
//! built without and with its self-collision culling data (`self_cull`: the query then culls
//! in the caller's cone storage, which is checked for size).

use std::string::String;
use std::vec;
use std::vec::Vec;

use bdtree_std::build::{build, BuildOptions, Precision};
use bdtree_std::io::{Basis, Mesh, Pose};
use bdtree_std::oracle;
use bdtree_std::rng::Rng;

use super::swept::aligned;
use crate::c_names::*;

#[path = "../../../../bdtree-std/tests/support/families.rs"]
#[allow(dead_code)]
mod families;

use families::{c_strip, family_basis, family_mesh, placed, BasisKind, Family, FAMILIES};

/// One case: its name, whether it must touch itself (all but the soup, which crosses itself by
/// chance), the source mesh and basis, the pose and `q` to set.
#[derive(Clone)]
struct Case {
    name: String,
    touches: bool,
    mesh: Mesh,
    basis: Option<Basis>,
    pose: Pose,
    q: Vec<f64>,
}

/// The cases: every family without modes and with an all-zero basis at two placements, and the
/// C strip at three.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for family in FAMILIES {
        for kind in [BasisKind::None, BasisKind::Zero] {
            for (scale, offset, far) in [(1.0, 0.0, 0.0), (1e-3, 1.0, 0.3)] {
                let mut rng = Rng::new(0xC58 + family as u64);
                let mesh = family_mesh(family, &mut rng);
                let basis = family_basis(kind, &mesh, 2, 0.0, &mut rng);
                let (mesh, basis) = placed(mesh, basis, scale, [offset, -offset, 0.5 * offset]);
                let q = vec![0.0; basis.as_ref().map_or(0, |b| b.modes)];
                let pose = Pose {
                    rotation: rng.rotation(),
                    translation: [far, 0.5 * far, -far],
                };
                let name = std::format!("{family:?} {kind:?} at scale {scale}");
                cases.push(Case {
                    name,
                    touches: family != Family::Soup,
                    mesh,
                    basis,
                    pose,
                    q,
                });
            }
        }
    }
    for (scale, offset) in [
        (1.0, [0.0; 3]),
        (1e-3, [0.0; 3]),
        (1.0, [1000.0, -600.0, 250.0]),
    ] {
        let (mesh, basis) = c_strip(scale, offset).expect("a strip");
        for q in [0.0, 0.1] {
            let name = std::format!("C strip at scale {scale}, {offset:?}, q = {q}");
            cases.push(Case {
                name,
                touches: true,
                mesh: mesh.clone(),
                basis: Some(basis.clone()),
                pose: Pose::IDENTITY,
                q: vec![q],
            });
        }
    }
    cases
}

macro_rules! self_through_c {
    ($name:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $collide:ident) => {
        #[test]
        fn $name() {
            let mut found = 0;
            for (case, self_cull) in cases()
                .into_iter()
                .flat_map(|c| [(c.clone(), false), (c, true)])
            {
                let Case {
                    name,
                    touches,
                    mesh,
                    basis,
                    pose,
                    q,
                } = case;
                let options = BuildOptions {
                    precision: $precision,
                    self_cull,
                    ..BuildOptions::default()
                };
                let name = std::format!("{name}, self_cull {self_cull}");
                let image_buf = build(&mesh, basis.as_ref(), options, &mut |_| {})
                    .expect("build")
                    .0;
                let bytes = image_buf.as_bytes();
                let words = aligned(bytes);
                let world = oracle::deform(&mesh.vertices, basis.as_ref(), &q, &pose);
                let truth = oracle::brute_force_self_pairs(&world, &mesh.triangles);
                assert!(
                    !touches || !truth.is_empty(),
                    "{name}: touches or crosses itself"
                );
                // SAFETY: zeroed opaque objects are what the C API expects before parse and
                // init; every pointer is valid for the length given.
                let reported = unsafe {
                    let mut image: $image = core::mem::zeroed();
                    let s = $parse(words.as_ptr().cast(), bytes.len(), &mut image);
                    assert_eq!(s, bdtree_status::Ok, "{name}");
                    let mut info: bdtree_image_info = core::mem::zeroed();
                    assert_eq!($info(&image, &mut info), bdtree_status::Ok);
                    let mut body: $body = core::mem::zeroed();
                    let need = $size(&image, 0);
                    let mut storage = vec![0u64; need.div_ceil(8)];
                    let s = $init(&mut body, &image, storage.as_mut_ptr().cast(), need, 0);
                    assert_eq!(s, bdtree_status::Ok, "{name}");
                    // At the body's own translation, as the header says.
                    let s = $set(
                        &mut body,
                        pose.rotation.as_ptr(),
                        pose.translation.as_ptr(),
                        pose.translation.as_ptr(),
                        q.as_ptr(),
                        q.len(),
                    );
                    assert_eq!(s, bdtree_status::Ok, "{name}");
                    let mut stack =
                        vec![bdtree_node_pair::default(); bdtree_self_stack_capacity(info.depth)];
                    let mut pairs = vec![bdtree_triangle_pair::default(); 1 << 16];
                    let mut count = 0usize;
                    assert_eq!(info.self_cull, self_cull, "{name}");
                    let cone_bytes = if info.self_cull {
                        info.nodes as usize * BDTREE_CONE_SLOT_BYTES
                    } else {
                        0
                    };
                    let mut cones = vec![0u32; cone_bytes.div_ceil(4)];
                    if info.self_cull {
                        // Short cone storage and none at all are refused, not overrun.
                        let short = $collide(
                            &mut body,
                            cones.as_mut_ptr().cast(),
                            cone_bytes - 1,
                            stack.as_mut_ptr(),
                            stack.len(),
                            pairs.as_mut_ptr(),
                            pairs.len(),
                            &mut count,
                            core::ptr::null_mut(),
                        );
                        assert_eq!(short, bdtree_status::StorageTooSmall, "{name}");
                        let none = $collide(
                            &mut body,
                            core::ptr::null_mut(),
                            0,
                            stack.as_mut_ptr(),
                            stack.len(),
                            pairs.as_mut_ptr(),
                            pairs.len(),
                            &mut count,
                            core::ptr::null_mut(),
                        );
                        assert_eq!(none, bdtree_status::NullPointer, "{name}");
                    }
                    let s = $collide(
                        &mut body,
                        if cone_bytes == 0 {
                            core::ptr::null_mut()
                        } else {
                            cones.as_mut_ptr().cast()
                        },
                        cone_bytes,
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::Ok, "{name}");
                    let mut reported: Vec<(u32, u32)> =
                        pairs[..count].iter().map(|p| (p.a, p.b)).collect();
                    reported.sort_unstable();
                    reported
                };
                for t in &truth {
                    assert!(
                        reported.binary_search(t).is_ok(),
                        "{name}: missed {t:?} of {}",
                        truth.len()
                    );
                }
                found += truth.len();
            }
            assert!(found > 0);
        }
    };
}

with_body_names!(self_through_c, f32, self_pairs_f32_miss_nothing_on_shapes_that_break_the_shortcuts;
    bdtree_collide_self_f32);

with_body_names!(self_through_c, f64, self_pairs_f64_miss_nothing_on_shapes_that_break_the_shortcuts;
    bdtree_collide_self_f64);

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
     $size:ident, $init:ident, $set:ident, $scene:ident, $collide:ident) => {
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
                let image = build(&mesh, basis.as_ref(), options, &mut |_| {})
                    .expect("build")
                    .0;
                let world = oracle::deform(&mesh.vertices, basis.as_ref(), &q, &pose);
                let truth = oracle::brute_force_self_pairs(&world, &mesh.triangles);
                assert!(
                    !touches || !truth.is_empty(),
                    "{name}: touches or crosses itself"
                );
                let mut w = $scene::world_of(core::slice::from_ref(&image), 0, 1);
                // At the body's own translation, as the header says.
                $scene::set_state(&mut w, 0, &pose, &q, pose.translation);
                let info = w.infos[0];
                let body: *mut $body = &mut *w.bodies[0];
                let entries = bdtree_self_stack_capacity(info.depth);
                let mut stack = vec![bdtree_node_pair::default(); entries];
                let mut pairs = vec![bdtree_triangle_pair::default(); 1 << 16];
                let mut count = 0usize;
                // The query with cone storage `cones` of `len` bytes.
                // SAFETY: a body of the world; `cones` NULL or valid for `len` bytes; the
                // stack and pairs hold the lengths given.
                let mut collide = |cones: *mut core::ffi::c_void, len: usize| unsafe {
                    $collide(
                        body,
                        cones,
                        len,
                        stack.as_mut_ptr(),
                        stack.len(),
                        pairs.as_mut_ptr(),
                        pairs.len(),
                        &mut count,
                        core::ptr::null_mut(),
                    )
                };
                assert_eq!(info.self_cull, self_cull, "{name}");
                let cone_bytes = if info.self_cull {
                    info.nodes as usize * BDTREE_CONE_SLOT_BYTES
                } else {
                    0
                };
                let mut cones = vec![0u32; cone_bytes.div_ceil(4)];
                if info.self_cull {
                    // Short cone storage and none at all are refused, not overrun.
                    let short = collide(cones.as_mut_ptr().cast(), cone_bytes - 1);
                    assert_eq!(short, bdtree_status::StorageTooSmall, "{name}");
                    let none = collide(core::ptr::null_mut(), 0);
                    assert_eq!(none, bdtree_status::NullPointer, "{name}");
                }
                let given = if cone_bytes == 0 {
                    core::ptr::null_mut()
                } else {
                    cones.as_mut_ptr().cast()
                };
                assert_eq!(collide(given, cone_bytes), bdtree_status::Ok, "{name}");
                let mut reported: Vec<(u32, u32)> =
                    pairs[..count].iter().map(|p| (p.a, p.b)).collect();
                reported.sort_unstable();
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

with_body_names!(scene_module, f32, in_f32;);
with_body_names!(scene_module, f64, in_f64;);

with_body_names!(self_through_c, f32, self_pairs_f32_miss_nothing_on_shapes_that_break_the_shortcuts;
    in_f32, bdtree_collide_self_f32);

with_body_names!(self_through_c, f64, self_pairs_f64_miss_nothing_on_shapes_that_break_the_shortcuts;
    in_f64, bdtree_collide_self_f64);

//! The contact Jacobian through the C functions only (`bdtree_contact_jacobian_*`): every
//! contact `bdtree_collide_contacts_*` gives, its rows against the Rust host's
//! (`host::contact_jacobians`, f64 on the stored model) and against central finite differences
//! of the depth the same C function reports at `q ± h eⱼ` (each body's state set through C at
//! the pair's floating origin); near the origin, 3 km from it and in millimetres, f32 and f64;
//! and every bad argument with its status, nothing written.

use std::vec;
use std::vec::Vec;

use bdtree_core::stack_capacity;
use bdtree_std::build::Precision;
use bdtree_std::host::{self, Tree};

use super::response::{case, host_bodies, Case, CASES};
use crate::c_names::*;

macro_rules! jacobian_through_c {
    ($module:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $contact:ident, $penetration:ident, $contacts:ident,
     $jacobian:ident, $host_tolerance:expr, $step:expr, $fd_tolerance:expr) => {
        mod $module {
            use super::*;

            type S = $s;

            scene_bodies!($image, $body, $parse, $info, $size, $init, $set);

            /// Sets body `k` of a pair to the case's state with `q` given.
            fn set(p: &mut World, c: &Case, k: usize, origin: [f64; 3], q: &[f64]) {
                let pose = bdtree_std::io::Pose {
                    rotation: c.rotation[k],
                    translation: c.translation[k],
                };
                set_state(p, k, &pose, q, origin);
            }

            /// The C objects of a case's two bodies, at its state.
            fn pair(trees: [&Tree; 2], c: &Case, origin: [f64; 3]) -> World {
                let mut p = world_of(trees.map(|t| t.image()), 0, 1);
                for k in 0..2 {
                    set(&mut p, c, k, origin, &c.q[k]);
                }
                p
            }

            /// The contacts of the pair through C.
            fn contacts(p: &mut World) -> Vec<$contact> {
                let (head, tail) = p.bodies.split_at_mut(1);
                let (a, b) = (&mut *head[0], &mut *tail[0]);
                let mut stack = vec![bdtree_node_pair::default(); stack_capacity(p.depth, p.depth)];
                let mut out = vec![<$contact>::default(); 1 << 14];
                let mut m = 0usize;
                // SAFETY: distinct bodies; every buffer valid for the length given.
                let s = unsafe {
                    $contacts(
                        a,
                        b,
                        stack.as_mut_ptr(),
                        stack.len(),
                        out.as_mut_ptr(),
                        out.len(),
                        &mut m,
                        core::ptr::null_mut(),
                    )
                };
                assert_eq!(s, bdtree_status::Ok);
                out.truncate(m);
                out
            }

            /// One contact's rows and penetration through C.
            fn rows(
                p: &World,
                contact: &$contact,
                modes: [usize; 2],
            ) -> ([Vec<f64>; 2], $penetration) {
                let (mut ra, mut rb) = (vec![0.0 as S; modes[0]], vec![0.0 as S; modes[1]]);
                let mut penetration = <$penetration>::default();
                // SAFETY: bodies of the pair; rows of the lengths given; one penetration.
                let s = unsafe {
                    $jacobian(
                        contact,
                        &*p.bodies[0],
                        &*p.bodies[1],
                        ra.as_mut_ptr(),
                        ra.len(),
                        rb.as_mut_ptr(),
                        rb.len(),
                        &mut penetration,
                    )
                };
                assert_eq!(s, bdtree_status::Ok);
                let wide = |r: &[S]| r.iter().map(|&x| f64::from(x)).collect();
                ([wide(&ra), wide(&rb)], penetration)
            }

            /// The C encoding of the host's features (`bdtree_penetration_*`).
            fn same_features(
                p: &$penetration,
                f: &bdtree_core::geometry::penetration::PenetrationFeatures,
            ) -> bool {
                use bdtree_core::geometry::penetration::PenetrationAxis as A;
                let (axis, i, j) = match f.axis {
                    A::FaceA => (1, 0, 0),
                    A::FaceB => (2, 0, 0),
                    A::EdgeEdge(i, j) => (3, i, j),
                    A::InPlaneA(i) => (4, i, 0),
                    A::InPlaneB(j) => (5, 0, j),
                };
                features(p) == [axis, i, j, u8::from(f.reversed), f.vertices_a, f.vertices_b]
            }

            fn features(p: &$penetration) -> [u8; 6] {
                [
                    p.axis,
                    p.edge_a,
                    p.edge_b,
                    p.reversed,
                    p.vertices_a,
                    p.vertices_b,
                ]
            }

            #[test]
            fn rows_equal_the_host_and_central_differences_of_the_depth() {
                let (mut compared, mut differenced) = (0usize, 0usize);
                for (size, centre, turn) in CASES {
                    let c = case(size, centre, turn);
                    let (ta, tb, mut ha, mut hb) = host_bodies(&c, $precision);
                    let origin = bdtree_core::floating_origin(&c.translation);
                    let mut p = pair([&ta, &tb], &c, origin);
                    let modes = [c.q[0].len(), c.q[1].len()];
                    let found = contacts(&mut p);
                    assert!(!found.is_empty(), "no contact: the test would be vacuous");
                    // The host's rows of the same triangle pairs.
                    let listed: Vec<host::Contact> = found
                        .iter()
                        .map(|x| host::Contact {
                            triangles: [x.a, x.b],
                            point: [0.0; 3],
                            normal: [0.0; 3],
                            depth: 0.0,
                        })
                        .collect();
                    let expected =
                        host::contact_jacobians(&mut ha, &mut hb, &listed).expect("host rows");
                    // Row entries are depth per unit of q: the basis' scale, 0.1 size.
                    let scale = 0.1 * size;
                    for (contact, host_rows) in found.iter().zip(&expected) {
                        let ([ra, rb], penetration) = rows(&p, contact, modes);
                        let Some(f) = host_rows.features else {
                            continue;
                        };
                        if !same_features(&penetration, &f) || penetration.depth <= 0.0 {
                            // A tie the two precisions break differently: another function.
                            continue;
                        }
                        for (mine, theirs) in [(&ra, &host_rows.a), (&rb, &host_rows.b)] {
                            for (x, y) in mine.iter().zip(theirs) {
                                assert!(
                                    (x - y).abs() <= $host_tolerance * scale,
                                    "size {size}: contact {contact:?}: {x} against the host's {y}"
                                );
                            }
                        }
                        compared += 1;
                        // Central differences of the depth, each mode of each body moved
                        // through C, where the features stay the same on both sides.
                        for k in 0..2 {
                            let row = if k == 0 { &ra } else { &rb };
                            for j in 0..modes[k] {
                                let h = $step;
                                let mut depths = [0.0f64; 2];
                                let mut same = true;
                                for (side, sign) in [1.0, -1.0].into_iter().enumerate() {
                                    let mut q = c.q[k].clone();
                                    q[j] += sign * h;
                                    set(&mut p, &c, k, origin, &q);
                                    let (_, moved) = rows(&p, contact, modes);
                                    same &= features(&moved) == features(&penetration);
                                    depths[side] = f64::from(moved.depth);
                                }
                                set(&mut p, &c, k, origin, &c.q[k]);
                                if !same {
                                    continue;
                                }
                                let fd = (depths[0] - depths[1]) / (2.0 * h);
                                assert!(
                                    (fd - row[j]).abs() <= $fd_tolerance * scale,
                                    "size {size}: contact {contact:?}, body {k}, mode {j}: row \
                                     {} against central difference {fd}",
                                    row[j]
                                );
                                differenced += 1;
                            }
                        }
                    }
                }
                assert!(
                    compared >= 8 && differenced >= 30,
                    "too few contacts compared ({compared}) or differenced ({differenced})"
                );
            }

            #[test]
            fn bad_arguments_have_their_status_and_write_nothing() {
                let c = case(1.0, [10.0, 0.0, 0.0], 0.5);
                let (ta, tb, _, _) = host_bodies(&c, $precision);
                let origin = bdtree_core::floating_origin(&c.translation);
                let mut p = pair([&ta, &tb], &c, origin);
                let contact = contacts(&mut p)[0];
                let (a, b) = (&*p.bodies[0], &*p.bodies[1]);
                let mut ra = vec![7.0 as S; 3];
                let mut rb = vec![7.0 as S; 2];
                let mut short = vec![7.0 as S; 1];
                let mut penetration = <$penetration>::default();
                penetration.depth = 7.0;
                let far = $contact {
                    a: 1 << 30,
                    ..contact
                };
                let null_contact: *const $contact = core::ptr::null();
                let null_body: *const $body = core::ptr::null();
                // SAFETY: every pointer valid for its length, or NULL, as each case says.
                unsafe {
                    let (pa, pb, ps) = (ra.as_mut_ptr(), rb.as_mut_ptr(), short.as_mut_ptr());
                    for (s, want) in [
                        (
                            $jacobian(&contact, a, b, ps, 1, pb, 2, &mut penetration),
                            bdtree_status::WrongModeCount,
                        ),
                        (
                            $jacobian(&far, a, b, pa, 3, pb, 2, &mut penetration),
                            bdtree_status::BadArgument,
                        ),
                        (
                            // Overlapping rows.
                            $jacobian(&contact, a, b, pa, 3, pa.add(1), 2, &mut penetration),
                            bdtree_status::BadArgument,
                        ),
                        (
                            $jacobian(null_contact, a, b, pa, 3, pb, 2, &mut penetration),
                            bdtree_status::NullPointer,
                        ),
                        (
                            $jacobian(&contact, null_body, b, pa, 3, pb, 2, &mut penetration),
                            bdtree_status::NullPointer,
                        ),
                        (
                            $jacobian(
                                &contact,
                                a,
                                b,
                                core::ptr::null_mut(),
                                3,
                                pb,
                                2,
                                &mut penetration,
                            ),
                            bdtree_status::NullPointer,
                        ),
                    ] {
                        assert_eq!(s, want);
                    }
                    assert!(ra.iter().chain(&rb).chain(&short).all(|&x| x == 7.0));
                    assert_eq!(penetration.depth, 7.0);
                    // A contact of a body with itself: the body as both sides.
                    let s = $jacobian(&contact, a, a, pa, 3, ps, 1, core::ptr::null_mut());
                    assert_eq!(s, bdtree_status::WrongModeCount);
                    let mut rc = vec![0.0 as S; 3];
                    let s = $jacobian(
                        &$contact { b: 3, ..contact },
                        a,
                        a,
                        pa,
                        3,
                        rc.as_mut_ptr(),
                        3,
                        &mut penetration,
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    // Good arguments write the rows.
                    let s = $jacobian(&contact, a, b, pa, 3, pb, 2, &mut penetration);
                    assert_eq!(s, bdtree_status::Ok);
                    assert!(penetration.axis != 0 && ra.iter().any(|&x| x != 7.0));
                }
            }
        }
    };
}

with_body_names!(jacobian_through_c, f32, f32_jacobian;
    bdtree_contact_f32, bdtree_penetration_f32, bdtree_collide_contacts_f32,
    bdtree_contact_jacobian_f32, 1e-3, 1e-3, 2e-2);

with_body_names!(jacobian_through_c, f64, f64_jacobian;
    bdtree_contact_f64, bdtree_penetration_f64, bdtree_collide_contacts_f64,
    bdtree_contact_jacobian_f64, 1e-9, 1e-6, 1e-5);

//! Generalized forces through the C functions only (`bdtree_respond_*`,
//! `bdtree_respond_contact_*`, `bdtree_apply_at_*`), against the Rust host's answers on the same
//! trees and states (`host::proxy_forces`, `host::contact_forces`, `host::force_at_node`) and
//! against the f64 formulas on the explicitly deformed mesh (`Σ λ_i U_iᵀ Rᵀ f` at a contact's
//! point; force and torque sums): near the origin, 3 km from it and in millimetres, f32 and
//! f64, each pair placed at `bdtree_floating_origin` as the header tells a C client to; and every
//! bad argument with its status, nothing added.

use std::vec;
use std::vec::Vec;

use bdtree_core::{proxy_stack_capacity, stack_capacity, Pose};
use bdtree_std::build::{BuildOptions, Precision};
use bdtree_std::host::{self, Body as HostBody, Tree};
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::shapes::procedural::{icosphere, smooth_basis, torus};
use bdtree_std::vec3::{cross, dot, sub};

use crate::c_names::*;

const DEPTH: u32 = 3;
const STIFFNESS: f64 = 300.0;

/// Two bodies (a deforming ball, a deforming torus) of `size`, overlapping, around `centre`:
/// meshes, bases, states.
pub(super) struct Case {
    pub(super) meshes: [Mesh; 2],
    pub(super) bases: [Basis; 2],
    pub(super) rotation: [[f64; 4]; 2],
    pub(super) translation: [[f64; 3]; 2],
    pub(super) q: [Vec<f64>; 2],
    pub(super) size: f64,
}

/// The cases of the force and Jacobian tests: `(size, centre, turn)` of [`case`] — unit-size
/// and millimetre bodies, at the origin and far from it.
pub(super) const CASES: [(f64, [f64; 3], f64); 4] = [
    (1.0, [0.0; 3], 0.3),
    (1.0, [3000.0, -1200.0, 800.0], 1.1),
    (1e-3, [0.0, 0.0, 0.0], 2.0),
    (1e-3, [250.0, 40.0, -90.0], 0.7),
];

pub(super) fn case(size: f64, centre: [f64; 3], turn: f64) -> Case {
    let scale = |m: Mesh| Mesh {
        vertices: m.vertices.iter().map(|v| v.map(|x| x * size)).collect(),
        triangles: m.triangles,
    };
    let meshes = [scale(icosphere(0.5, 2)), scale(torus(0.45, 0.15, 16, 8))];
    let bases = [
        smooth_basis(&meshes[0].vertices, 3, 0.1 * size),
        smooth_basis(&meshes[1].vertices, 2, 0.1 * size),
    ];
    let (c, s) = ((turn / 2.0).cos(), (turn / 2.0).sin());
    let n = (1.0f64 + 0.09 + 0.04).sqrt();
    Case {
        meshes,
        bases,
        rotation: [[c, s / n, 0.3 * s / n, 0.2 * s / n], [s, 0.0, c, 0.0]],
        translation: [
            centre,
            [centre[0] + 0.55 * size, centre[1] + 0.1 * size, centre[2]],
        ],
        q: [vec![0.4, -0.3, 0.2], vec![-0.5, 0.25]],
        size,
    }
}

/// The host's bodies of a case, in `precision`, nested.
pub(super) fn host_bodies(c: &Case, precision: Precision) -> (Tree, Tree, HostBody, HostBody) {
    let options = BuildOptions {
        precision,
        nested: true,
        ..BuildOptions::default()
    };
    let (ta, _) = Tree::build(&c.meshes[0], Some(&c.bases[0]), options).expect("a");
    let (tb, _) = Tree::build(&c.meshes[1], Some(&c.bases[1]), options).expect("b");
    let mut a = HostBody::new(&ta).expect("a");
    let mut b = HostBody::new(&tb).expect("b");
    a.set_state(c.rotation[0], c.translation[0], &c.q[0])
        .expect("a");
    b.set_state(c.rotation[1], c.translation[1], &c.q[1])
        .expect("b");
    (ta, tb, a, b)
}

/// Barycentric weights of the point of triangle `t` nearest to `p` (Ericson's regions).
fn nearest_weights(p: [f64; 3], t: &[[f64; 3]; 3]) -> [f64; 3] {
    let [a, b, c] = *t;
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return [1.0, 0.0, 0.0];
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return [0.0, 1.0, 0.0];
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return [1.0 - v, v, 0.0];
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return [0.0, 0.0, 1.0];
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return [1.0 - w, 0.0, w];
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return [0.0, 1.0 - w, w];
    }
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    [1.0 - v - w, v, w]
}

/// The f64 wrench of forces `(triangle, point, force)` on body `k` of a case, points relative
/// to `origin`: force and torque sums, and `q_j = Σ λ_i U_ijᵀ Rᵀ f` on the explicitly deformed
/// triangle.
fn formula(
    c: &Case,
    k: usize,
    origin: [f64; 3],
    forces: &[(u32, [f64; 3], [f64; 3])],
) -> host::Wrench {
    let pose =
        Pose::<f64>::from_quaternion(c.rotation[k], sub(c.translation[k], origin)).expect("pose");
    let (mesh, basis) = (&c.meshes[k], &c.bases[k]);
    let modes = basis.modes;
    let u = |v: usize, axis: usize, j: usize| basis.data[(3 * v + axis) * modes + j];
    let deformed = |v: usize| {
        let p = mesh.vertices[v];
        let x: [f64; 3] = core::array::from_fn(|a| {
            p[a] + (0..modes).map(|j| u(v, a, j) * c.q[k][j]).sum::<f64>()
        });
        pose.apply(x)
    };
    let t = sub(c.translation[k], origin);
    let mut w = host::Wrench::zero(modes);
    for &(tri, p, f) in forces {
        let face = mesh.triangles[tri as usize];
        let corners = face.map(|v| deformed(v as usize));
        let lambda = nearest_weights(p, &corners);
        let r = pose.rotation;
        let local: [f64; 3] =
            core::array::from_fn(|c| r[0][c] * f[0] + r[1][c] * f[1] + r[2][c] * f[2]);
        for j in 0..modes {
            w.q[j] += face
                .iter()
                .zip(lambda)
                .map(|(&v, l)| {
                    let v = v as usize;
                    l * (u(v, 0, j) * local[0] + u(v, 1, j) * local[1] + u(v, 2, j) * local[2])
                })
                .sum::<f64>();
        }
        let torque = cross(sub(p, t), f);
        for a in 0..3 {
            w.force[a] += f[a];
            w.torque[a] += torque[a];
        }
    }
    w
}

/// `|x − y| ≤ tolerance · scale` entry by entry.
fn close(what: &str, x: &host::Wrench, y: &host::Wrench, tolerance: f64, scale: f64) {
    let pairs = x
        .force
        .iter()
        .zip(&y.force)
        .chain(x.torque.iter().zip(&y.torque))
        .chain(x.q.iter().zip(&y.q));
    for (i, (a, b)) in pairs.enumerate() {
        assert!(
            (a - b).abs() <= tolerance * scale,
            "{what}: entry {i}: {a} against {b} (tolerance {})",
            tolerance * scale
        );
    }
    assert_eq!(x.q.len(), y.q.len(), "{what}");
}

macro_rules! forces_through_c {
    ($module:ident, $s:ty, $precision:expr, $image:ty, $body:ty, $parse:ident, $info:ident,
     $size:ident, $init:ident, $set:ident, $wrench:ident, $penalty:ident, $proxy:ident,
     $contact:ident, $proxies:ident, $contacts:ident, $respond:ident, $respond_contact:ident,
     $at_node:ident, $at_triangle:ident, $tolerance:expr) => {
        mod $module {
            use super::*;

            type S = $s;

            scene_bodies!($image, $body, $parse, $info, $size, $init, $set);

            /// The C objects of a case's two bodies, at its state.
            fn pair(trees: [&Tree; 2], c: &Case, origin: [f64; 3]) -> World {
                let mut p = world_of(trees.map(|t| t.image()), 0, 1);
                for k in 0..2 {
                    let pose = bdtree_std::io::Pose {
                        rotation: c.rotation[k],
                        translation: c.translation[k],
                    };
                    set_state(&mut p, k, &pose, &c.q[k], origin);
                }
                p
            }

            /// The modes of body `k`.
            fn modes(p: &World, k: usize) -> usize {
                p.infos[k].modes as usize
            }

            /// A zero wrench over `q` (kept by the caller).
            fn wrench(q: &mut [S]) -> $wrench {
                $wrench {
                    force: [0.0; 3],
                    torque: [0.0; 3],
                    q: q.as_mut_ptr(),
                    q_len: q.len(),
                }
            }

            fn wide(w: &$wrench, q: &[S]) -> host::Wrench {
                host::Wrench {
                    force: w.force.map(f64::from),
                    torque: w.torque.map(f64::from),
                    q: q.iter().map(|&x| f64::from(x)).collect(),
                }
            }

            /// Proxy pairs and contacts through C, each responded to through C: the two
            /// wrenches of each, and the contacts with their forces on b.
            #[allow(clippy::type_complexity)]
            fn through_c(
                p: &mut World,
            ) -> (
                [host::Wrench; 2],
                [host::Wrench; 2],
                Vec<($contact, [f64; 3])>,
            ) {
                let k = STIFFNESS as S;
                let [ma, mb] = [0, 1].map(|k| modes(p, k));
                let (head, tail) = p.bodies.split_at_mut(1);
                let (a, b) = (&mut *head[0], &mut *tail[0]);
                let mut stack = vec![
                    bdtree_node_pair::default();
                    proxy_stack_capacity(p.depth, DEPTH, p.depth, DEPTH)
                        .max(stack_capacity(p.depth, p.depth))
                ];
                let mut proxies = vec![<$proxy>::default(); 1 << 14];
                let mut contacts = vec![<$contact>::default(); 1 << 14];
                let (mut n, mut m) = (0usize, 0usize);
                let (mut qa, mut qb) = (vec![0.0 as S; ma], vec![0.0 as S; mb]);
                let (mut ca, mut cb) = (vec![0.0 as S; ma], vec![0.0 as S; mb]);
                let (mut wa, mut wb) = (wrench(&mut qa), wrench(&mut qb));
                let (mut xa, mut xb) = (wrench(&mut ca), wrench(&mut cb));
                let mut pushed = Vec::new();
                // SAFETY: distinct bodies; every buffer valid for the length given.
                unsafe {
                    let s = $proxies(
                        a,
                        DEPTH,
                        b,
                        DEPTH,
                        stack.as_mut_ptr(),
                        stack.len(),
                        proxies.as_mut_ptr(),
                        proxies.len(),
                        &mut n,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    for pair in &proxies[..n] {
                        let mut penalty = <$penalty>::default();
                        let s = $respond(pair, k, a, b, &mut wa, &mut wb, &mut penalty);
                        assert_eq!(s, bdtree_status::Ok);
                    }
                    let s = $contacts(
                        a,
                        b,
                        stack.as_mut_ptr(),
                        stack.len(),
                        contacts.as_mut_ptr(),
                        contacts.len(),
                        &mut m,
                        core::ptr::null_mut(),
                    );
                    assert_eq!(s, bdtree_status::Ok);
                    for contact in &contacts[..m] {
                        let mut penalty = <$penalty>::default();
                        let s = $respond_contact(contact, k, a, b, &mut xa, &mut xb, &mut penalty);
                        assert_eq!(s, bdtree_status::Ok);
                        if penalty.depth > 0.0 {
                            pushed.push((*contact, penalty.force.map(f64::from)));
                        } else {
                            assert_eq!(penalty.force, [0.0; 3]);
                        }
                    }
                }
                assert!(
                    n > 0 && m > 0,
                    "no proxy pair or contact: the test would be vacuous"
                );
                (
                    [wide(&wa, &qa), wide(&wb, &qb)],
                    [wide(&xa, &ca), wide(&xb, &cb)],
                    pushed,
                )
            }

            #[test]
            fn forces_through_c_equal_the_host_and_the_f64_formulas() {
                for (size, centre, turn) in CASES {
                    let c = case(size, centre, turn);
                    let (ta, tb, mut ha, mut hb) = host_bodies(&c, $precision);
                    let origin = bdtree_core::floating_origin(&c.translation);
                    assert_eq!(origin, host::placing::pair_origin(&ha, &hb));
                    let mut p = pair([&ta, &tb], &c, origin);
                    let (proxy, contact, pushed) = through_c(&mut p);
                    // Proxies: the host's wrenches (the same kernel response at the same
                    // origin, accumulated in the same order).
                    let (_, host_proxy) =
                        host::proxy_forces(&mut ha, DEPTH, &mut hb, DEPTH, STIFFNESS)
                            .expect("host proxies");
                    let scale = STIFFNESS * c.size * (1.0 + pushed.len() as f64);
                    for k in 0..2 {
                        close("proxy wrench", &proxy[k], &host_proxy[k], $tolerance, scale);
                    }
                    // Contacts: the f64 formulas on the C contacts, and in f64 the host's.
                    let on_b: Vec<(u32, [f64; 3], [f64; 3])> = pushed
                        .iter()
                        .map(|(x, f)| (x.b, x.point.map(f64::from), *f))
                        .collect();
                    let on_a: Vec<(u32, [f64; 3], [f64; 3])> = pushed
                        .iter()
                        .map(|(x, f)| (x.a, x.point.map(f64::from), f.map(|v| -v)))
                        .collect();
                    close(
                        "contact wrench a",
                        &contact[0],
                        &formula(&c, 0, origin, &on_a),
                        $tolerance,
                        scale,
                    );
                    close(
                        "contact wrench b",
                        &contact[1],
                        &formula(&c, 1, origin, &on_b),
                        $tolerance,
                        scale,
                    );
                    if $precision == Precision::F64 {
                        let (_, host_contact) =
                            host::contact_forces(&mut ha, &mut hb, STIFFNESS).expect("host");
                        for k in 0..2 {
                            close("contact wrench", &contact[k], &host_contact[k], 1e-9, scale);
                        }
                    }
                    // A force at a node and on a triangle: the host's, and the formula's.
                    let point = [0.01 * c.size, -0.02 * c.size, 0.03 * c.size];
                    let world: [f64; 3] = core::array::from_fn(|k| point[k] + origin[k]);
                    let force = [1.5, -0.5, 2.0];
                    let mut q = vec![0.0 as S; modes(&p, 0)];
                    let mut w = wrench(&mut q);
                    let (pf, ff) = (point.map(|x| x as S), force.map(|x| x as S));
                    let body = &mut *p.bodies[0];
                    // SAFETY: a body of the pair; 3 scalars each; a wrench over `q`.
                    let s = unsafe { $at_node(body, 5, pf.as_ptr(), ff.as_ptr(), &mut w) };
                    assert_eq!(s, bdtree_status::Ok);
                    let host_node = host::force_at_node(&mut ha, 5, world, force)
                        .expect("host")
                        .expect("node 5");
                    close(
                        "at node",
                        &wide(&w, &q),
                        &host_node,
                        $tolerance,
                        10.0 * c.size,
                    );
                    let mut q = vec![0.0 as S; modes(&p, 0)];
                    let mut w = wrench(&mut q);
                    // SAFETY: as above.
                    let s = unsafe {
                        $at_triangle(&mut *p.bodies[0], 7, pf.as_ptr(), ff.as_ptr(), &mut w)
                    };
                    assert_eq!(s, bdtree_status::Ok);
                    let expected = formula(&c, 0, origin, &[(7, point, force)]);
                    close(
                        "at triangle",
                        &wide(&w, &q),
                        &expected,
                        $tolerance,
                        10.0 * c.size,
                    );
                }
            }

            #[test]
            fn bad_arguments_have_their_status_and_add_nothing() {
                let c = case(1.0, [10.0, 0.0, 0.0], 0.5);
                let (ta, tb, _, _) = host_bodies(&c, $precision);
                let origin = bdtree_core::floating_origin(&c.translation);
                let mut p = pair([&ta, &tb], &c, origin);
                let (head, tail) = p.bodies.split_at_mut(1);
                let (a, b) = (&mut *head[0], &mut *tail[0]);
                let pair = $proxy {
                    a: 1,
                    b: 2,
                    sphere_a: [0.0, 0.0, 0.0, 1.0],
                    sphere_b: [0.5, 0.0, 0.0, 1.0],
                    depth: 1.5,
                };
                let (mut qa, mut qb) = (vec![0.0 as S; 3], vec![0.0 as S; 2]);
                let mut short = vec![0.0 as S; 1];
                let (mut wa, mut wb) = (wrench(&mut qa), wrench(&mut qb));
                let mut ws = wrench(&mut short);
                let k = STIFFNESS as S;
                let null_pair: *const $proxy = core::ptr::null();
                let far = $proxy { a: 1 << 30, ..pair };
                let apart = $proxy {
                    sphere_b: [5.0, 0.0, 0.0, 1.0],
                    ..pair
                };
                // SAFETY: every pointer valid or NULL, as each case says.
                unsafe {
                    for (s, want) in [
                        (
                            $respond(&pair, k, a, b, &mut ws, &mut wb, core::ptr::null_mut()),
                            bdtree_status::WrongModeCount,
                        ),
                        (
                            $respond(&far, k, a, b, &mut wa, &mut wb, core::ptr::null_mut()),
                            bdtree_status::BadArgument,
                        ),
                        (
                            $respond(&pair, -k, a, b, &mut wa, &mut wb, core::ptr::null_mut()),
                            bdtree_status::BadArgument,
                        ),
                        (
                            $respond(&pair, S::NAN, a, b, &mut wa, &mut wb, core::ptr::null_mut()),
                            bdtree_status::BadArgument,
                        ),
                        (
                            $respond(
                                &pair,
                                k,
                                a,
                                b,
                                core::ptr::addr_of_mut!(wa),
                                core::ptr::addr_of_mut!(wa),
                                core::ptr::null_mut(),
                            ),
                            bdtree_status::BadArgument,
                        ),
                        (
                            $respond(null_pair, k, a, b, &mut wa, &mut wb, core::ptr::null_mut()),
                            bdtree_status::NullPointer,
                        ),
                        (
                            $respond(
                                &pair,
                                k,
                                a,
                                b,
                                &mut wa,
                                core::ptr::null_mut(),
                                core::ptr::null_mut(),
                            ),
                            bdtree_status::NullPointer,
                        ),
                        (
                            $at_node(
                                a,
                                1 << 30,
                                [0.0 as S; 3].as_ptr(),
                                [1.0 as S; 3].as_ptr(),
                                &mut wa,
                            ),
                            bdtree_status::BadArgument,
                        ),
                        (
                            $at_triangle(
                                a,
                                1 << 30,
                                [0.0 as S; 3].as_ptr(),
                                [1.0 as S; 3].as_ptr(),
                                &mut wa,
                            ),
                            bdtree_status::BadArgument,
                        ),
                        (
                            $at_node(a, 0, [S::NAN; 3].as_ptr(), [1.0 as S; 3].as_ptr(), &mut wa),
                            bdtree_status::NonFinite,
                        ),
                        (
                            $at_node(
                                a,
                                0,
                                [0.0 as S; 3].as_ptr(),
                                [1.0 as S; 3].as_ptr(),
                                &mut ws,
                            ),
                            bdtree_status::WrongModeCount,
                        ),
                    ] {
                        assert_eq!(s, want);
                    }
                    let bad = $contact {
                        a: 1 << 30,
                        b: 0,
                        point: [0.0; 3],
                        normal: [1.0, 0.0, 0.0],
                        depth: 0.1,
                    };
                    let s =
                        $respond_contact(&bad, k, a, b, &mut wa, &mut wb, core::ptr::null_mut());
                    assert_eq!(s, bdtree_status::BadArgument);
                    // Nothing was added by any refused call.
                    assert_eq!(
                        (wa.force, wa.torque, wb.force, wb.torque),
                        ([0.0; 3], [0.0; 3], [0.0; 3], [0.0; 3])
                    );
                    assert!(qa.iter().chain(&qb).chain(&short).all(|&x| x == 0.0));
                    // Spheres apart: no force, a penalty of zeros, status ok.
                    let mut penalty = <$penalty>::default();
                    penalty.depth = 7.0;
                    let s = $respond(&apart, k, a, b, &mut wa, &mut wb, &mut penalty);
                    assert_eq!(s, bdtree_status::Ok);
                    assert_eq!(penalty, <$penalty>::default());
                    // Overlapping: force k d along the centre line on b.
                    let s = $respond(&pair, k, a, b, &mut wa, &mut wb, &mut penalty);
                    assert_eq!(s, bdtree_status::Ok);
                    assert_eq!(penalty.depth, 1.5);
                    assert_eq!(penalty.normal, [1.0, 0.0, 0.0]);
                    assert_eq!(wb.force, [k * 1.5, 0.0, 0.0]);
                    assert_eq!(wa.force, [-k * 1.5, 0.0, 0.0]);
                }
            }
        }
    };
}

with_body_names!(forces_through_c, f32, f32_forces;
    bdtree_wrench_f32, bdtree_penalty_f32, bdtree_proxy_pair_f32, bdtree_contact_f32,
    bdtree_collide_proxies_f32, bdtree_collide_contacts_f32, bdtree_respond_f32,
    bdtree_respond_contact_f32, bdtree_apply_at_node_f32, bdtree_apply_at_triangle_f32, 2e-5);

with_body_names!(forces_through_c, f64, f64_forces;
    bdtree_wrench_f64, bdtree_penalty_f64, bdtree_proxy_pair_f64, bdtree_contact_f64,
    bdtree_collide_proxies_f64, bdtree_collide_contacts_f64, bdtree_respond_f64,
    bdtree_respond_contact_f64, bdtree_apply_at_node_f64, bdtree_apply_at_triangle_f64, 1e-10);

//! Zero-area triangles (issue 23) in whole meshes: pair and self queries on meshes with
//! zero-area triangles (a soup of collapsed faces, a UV sphere with pole rings, a welded and
//! crumpled grid, a torus with point triangles, bodies 100 units across) against the brute
//! force, and the distance query on them. The leaf test on single pairs: [`super::degenerate`].

use crate::support::{collide_all, config, image_in, nearest, pairs_into, set_state_f64, Rng};
use bdtree_core::{collide_self, self_stack_capacity, stack_capacity, Body, QueryStatus, Scalar};
use bdtree_std::build::quality::counts;
use bdtree_std::io;
use bdtree_std::io::{Basis, Mesh};
use bdtree_std::shapes::degenerate::{collapsed_soup, pole_sphere};
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis, torus};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use super::degenerate::{exact, largest, leaf_bound, scaled, shape, unit, Tri};

struct Placed<'m> {
    mesh: &'m Mesh,
    basis: Basis,
    q: Vec<f64>,
    pose: io::Pose,
}

fn image_of<S: Scalar>(p: &Placed<'_>) -> bdtree_std::io::ImageBuf {
    image_in::<S>(p.mesh, Some(&p.basis))
}

fn set<S: Scalar>(body: &mut Body<'_, '_, S>, p: &Placed<'_>) {
    set_state_f64(body, &p.pose, &p.q);
}

/// Checks the extras of a query: every reported pair the brute force does not find is within
/// the leaf test's bound of the kernel's rounding (and, in f64, within 10⁻⁹ of `extent`).
fn check_extras<S: Scalar>(
    found: &[(u32, u32)],
    truth: &[(u32, u32)],
    tri_a: &dyn Fn(u32) -> Tri,
    tri_b: &dyn Fn(u32) -> Tri,
    error: f64,
    extent: f64,
    what: &str,
) -> Result<usize, TestCaseError> {
    let u = S::UNIT_ROUNDOFF.to_f64();
    let mut extras = 0;
    for &(i, j) in found.iter().filter(|p| truth.binary_search(p).is_err()) {
        extras += 1;
        let (a, b) = (tri_a(i), tri_b(j));
        let w = largest(&a, &b);
        // The computed vertices are within `error` of these: `√3 error` more.
        let mut bound = leaf_bound(w, error, u) + 3f64.sqrt() * error;
        if S::BYTES == 8 {
            bound = bound.min(1e-9 * extent);
        }
        let (ok, d) = exact::within(&a, &b, bound);
        prop_assert!(
            ok,
            "{}: {what}: extra ({i}, {j}) {d:e} apart, bound {bound:e}",
            S::NAME
        );
    }
    Ok(extras)
}

/// A pair query: nothing missed, extras within the bound. Returns (true pairs, extras).
fn pair_query<S: Scalar>(
    a: &Placed<'_>,
    b: &Placed<'_>,
    extent: f64,
) -> Result<(usize, usize), TestCaseError> {
    let (ia, ib) = (image_of::<S>(a), image_of::<S>(b));
    let (ia, ib) = (ia.parse::<S>().expect("a"), ib.parse::<S>().expect("b"));
    let mut ca = BodyStorage::new(ia.tree.node_count());
    let mut cb = BodyStorage::new(ib.tree.node_count());
    let mut body_a = ca.body(&ia).expect("a");
    let mut body_b = cb.body(&ib).expect("b");
    set(&mut body_a, a);
    set(&mut body_b, b);
    let (outcome, found) =
        collide_all(&mut body_a, &mut body_b, [ia.tree.depth(), ib.tree.depth()]);
    let mut found: Vec<(u32, u32)> = found.iter().map(|p| (p.a, p.b)).collect();
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    found.sort_unstable();
    let wa = oracle::deform(&a.mesh.vertices, Some(&a.basis), &a.q, &a.pose);
    let wb = oracle::deform(&b.mesh.vertices, Some(&b.basis), &b.q, &b.pose);
    let truth = oracle::brute_force_pairs(&wa, &a.mesh.triangles, &wb, &b.mesh.triangles);
    for t in &truth {
        prop_assert!(found.binary_search(t).is_ok(), "{}: missed {t:?}", S::NAME);
    }
    let tri_a = |t: u32| a.mesh.triangles[t as usize].map(|v| wa[v as usize]);
    let tri_b = |t: u32| b.mesh.triangles[t as usize].map(|v| wb[v as usize]);
    let error = (body_a.error() + body_b.error()).to_f64();
    let extras = check_extras::<S>(&found, &truth, &tri_a, &tri_b, error, extent, "pair")?;

    // The distance query on the same bodies (exact distance from the f64 brute force).
    let mut stack = vec![[0u32; 2]; stack_capacity(ia.tree.depth(), ib.tree.depth())];
    let outcome = nearest(&mut body_a, &mut body_b, &mut stack);
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    let n = outcome.nearest.expect("answer");
    let (truth_d, _, _) =
        oracle::brute_force_distance(&wa, &a.mesh.triangles, &wb, &b.mesh.triangles).expect("d");
    let tolerance = 10.0 * error + 64.0 * S::UNIT_ROUNDOFF.to_f64() * extent;
    prop_assert!(
        (n.distance.to_f64() - truth_d).abs() <= tolerance,
        "{}: distance {} against {truth_d}",
        S::NAME,
        n.distance.to_f64()
    );
    Ok((truth.len(), extras))
}

/// A self query: nothing missed, extras within the bound. Returns (true pairs, extras).
fn self_query<S: Scalar>(a: &Placed<'_>, extent: f64) -> Result<(usize, usize), TestCaseError> {
    let image = image_of::<S>(a);
    let image = image.parse::<S>().expect("image");
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).expect("body");
    set(&mut body, a);
    let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
    let mut found = Vec::new();
    let outcome = collide_self(&mut body, &mut stack, &mut pairs_into(&mut found));
    prop_assert_eq!(outcome.status, QueryStatus::Complete);
    found.sort_unstable();
    let world = oracle::deform(&a.mesh.vertices, Some(&a.basis), &a.q, &a.pose);
    let truth = oracle::brute_force_self_pairs(&world, &a.mesh.triangles);
    for t in &truth {
        prop_assert!(
            found.binary_search(t).is_ok(),
            "{}: missed self {t:?}",
            S::NAME
        );
    }
    let tri = |t: u32| a.mesh.triangles[t as usize].map(|v| world[v as usize]);
    let error = body.error().to_f64();
    let extras = check_extras::<S>(&found, &truth, &tri, &tri, error, extent, "self")?;
    Ok((truth.len(), extras))
}

/// A torus with a point triangle (`f i i i`) at every fifth vertex.
fn torus_with_points(major: f64, minor: f64) -> Mesh {
    let mut mesh = torus(major, minor, 24, 10);
    let n = mesh.vertices.len() as u32;
    mesh.triangles.extend((0..n).step_by(5).map(|i| [i, i, i]));
    mesh
}

/// A sheet whose every fourth column and third row are welded onto the previous one (zero
/// width: their triangles are segments and points), to be crumpled by a rough basis.
fn welded_grid(size: f64, n: u32) -> Mesh {
    let mut mesh = sheet(size, size, n, n);
    let row = n as usize + 1;
    for (k, v) in mesh.vertices.clone().iter().enumerate() {
        let (i, j) = (k % row, k / row);
        let mut p = *v;
        if i % 4 == 3 {
            p[0] = mesh.vertices[k - 1][0];
        }
        if j % 3 == 2 {
            p[1] = mesh.vertices[k - row][1];
        }
        mesh.vertices[k] = p;
    }
    mesh
}

fn pose(rng: &mut Rng, reach: f64) -> io::Pose {
    io::Pose {
        rotation: rng.rotation(),
        translation: [0, 1, 2].map(|_| rng.uniform(-reach, reach)),
    }
}

fn placed<'m>(
    mesh: &'m Mesh,
    modes: usize,
    amplitude: f64,
    rng: &mut Rng,
    reach: f64,
) -> Placed<'m> {
    Placed {
        mesh,
        basis: smooth_basis(&mesh.vertices, modes, amplitude),
        q: (0..modes).map(|_| rng.uniform(-1.5, 1.5)).collect(),
        pose: pose(rng, reach),
    }
}

#[test]
fn test_meshes_hold_zero_area_triangles() {
    let soup = collapsed_soup(300, 0.5, 0.1, 1);
    assert!(counts(&soup).zero_area() >= 150);
    let sphere = pole_sphere(50.0, 10, 16);
    assert_eq!(counts(&sphere).segments, 32);
    assert_eq!(counts(&torus_with_points(40.0, 12.0)).points, 48);
    let grid = counts(&welded_grid(1.0, 12));
    assert!(grid.zero_area() >= 40, "{grid:?}");
}

proptest! {
    #![proptest_config(config(8, 0xBD7_2302))]

    /// A soup of point, segment, sliver and ordinary triangles in a unit cube: self queries
    /// (every pair of its triangles) and against an icosphere, in f64 and f32.
    #[test]
    fn soup_of_collapsed_faces_equals_brute_force(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let soup = collapsed_soup(360, 0.5, 0.12, seed);
        let ball = icosphere(0.3, 2);
        let s = placed(&soup, 3, 0.01, &mut rng, 0.1);
        let b = placed(&ball, 3, 0.02, &mut rng, 0.4);
        for _ in 0..2 {
            self_query::<f64>(&s, 1.0)?;
            self_query::<f32>(&s, 1.0)?;
            pair_query::<f64>(&s, &b, 1.0)?;
            pair_query::<f32>(&s, &b, 1.0)?;
        }
    }

    /// Bodies 100 units across: a UV sphere with pole rings (segment triangles) against a
    /// torus with point triangles, both deforming, and the torus's self query.
    #[test]
    fn pole_sphere_against_torus_with_points_equals_brute_force(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let sphere = pole_sphere(50.0, 10, 16);
        let ring = torus_with_points(40.0, 12.0);
        let s = placed(&sphere, 4, 2.0, &mut rng, 5.0);
        let mut t = placed(&ring, 4, 2.0, &mut rng, 5.0);
        t.pose.translation[0] += 60.0;
        pair_query::<f64>(&s, &t, 150.0)?;
        pair_query::<f32>(&s, &t, 150.0)?;
        self_query::<f64>(&t, 100.0)?;
        self_query::<f32>(&t, 100.0)?;
    }

    /// A welded grid (segment and point triangles on its seams) crumpled by a strong basis:
    /// self queries, and against a pole sphere pushed through it.
    #[test]
    fn welded_crumpled_grid_equals_brute_force(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let grid = welded_grid(1.0, 12);
        let sphere = pole_sphere(0.3, 8, 12);
        let g = placed(&grid, 6, 0.4, &mut rng, 0.05);
        let s = placed(&sphere, 2, 0.02, &mut rng, 0.2);
        self_query::<f64>(&g, 1.0)?;
        self_query::<f32>(&g, 1.0)?;
        pair_query::<f64>(&g, &s, 1.0)?;
        pair_query::<f32>(&g, &s, 1.0)?;
    }
}

/// The exact distance agrees with the f64 oracle's on ordinary pairs, and both are zero
/// exactly when the triangles meet.
#[test]
fn exact_distance_agrees_with_the_f64_oracle() {
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let a = shape(0, [0.0; 3], 1.0, &mut rng);
        let b = shape(
            0,
            scaled(unit(&mut rng), rng.uniform(0.0, 1.0)),
            1.0,
            &mut rng,
        );
        let (_, d) = exact::within(&a, &b, 0.0);
        let (f, _, _) = oracle::triangle_distance(&a, &b);
        assert!((d - f).abs() <= 1e-12, "{d} against {f}");
        assert_eq!(d == 0.0, oracle::triangles_intersect(&a, &b));
    }
}

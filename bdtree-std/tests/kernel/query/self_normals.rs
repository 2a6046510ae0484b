//! The per-node normal bounds (`self_normals`, `SelfNormals::cone`): every cone bit a row
//! proves in `O(M)` is a direction every true deformed normal below the node faces — checked
//! against the f64 normals of the explicitly deformed source mesh, in f32 and f64, on random
//! states small and large, rotated, far from the origin and in millimetres — and the bound
//! proves what it should where the patch is a gently bent or rigidly turned sheet.

use bdtree_core::query::self_collision::{normal_cones, SelfNormals, DIRECTIONS};
use bdtree_core::{Body, Pose, Scalar};
use bdtree_std::build::{self_normals, NodeRows};
use bdtree_std::io::{self, Basis, Mesh};
use bdtree_std::shapes::procedural::{blob, sheet, smooth_basis, torus};
use bdtree_std::vec3::{cross, sub};
use bdtree_std::{oracle, BodyStorage};
use proptest::prelude::*;

use crate::support::families::{family_basis, family_mesh, placed, BasisKind, FAMILIES};
use crate::support::{config, image_in, kernel_pose, node_triangles, rough_basis, Rng};

/// Checks every row's bits against the f64 normals of `mesh` deformed by `basis` at the
/// body's own `q` and turned by the body's own rotation matrix (the state the kernel bounds);
/// returns the number of bits proven.
fn proven_bits_hold<S: Scalar>(
    body: &Body<'_, '_, S>,
    normals: SelfNormals<'_>,
    mesh: &Mesh,
    basis: Option<&Basis>,
    sets: &[Vec<u32>],
) -> Result<u32, TestCaseError> {
    let q: Vec<f64> = body.q().iter().map(|x| x.to_f64()).collect();
    let local = oracle::deform(&mesh.vertices, basis, &q, &io::Pose::IDENTITY);
    let r = body.pose().rotation.map(|row| row.map(S::to_f64));
    let world: Vec<[f64; 3]> = local
        .iter()
        .map(|p| [0, 1, 2].map(|i| r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2]))
        .collect();
    let mut proven = 0;
    for (k, set) in sets.iter().enumerate() {
        let bits = normals.cone(body, k).expect("the host's rows read");
        for (d, dir) in DIRECTIONS.iter().enumerate() {
            if bits & (1 << d) == 0 {
                continue;
            }
            proven += 1;
            for &t in set {
                let [a, b, c] = mesh.triangles[t as usize].map(|v| world[v as usize]);
                let n = cross(sub(b, a), sub(c, a));
                let dot: f64 = (0..3).map(|i| n[i] * f64::from(dir[i])).sum();
                prop_assert!(
                    dot > 0.0,
                    "{}: node {} bit {}: triangle {} faces away ({})",
                    S::NAME,
                    k,
                    d,
                    t,
                    dot
                );
            }
        }
    }
    Ok(proven)
}

/// The properties' meshes: a sheet, a blob, a torus, then the self families (`shape ≥ 3`).
fn drawn_mesh(shape: usize, seed: u64, rng: &mut Rng) -> Mesh {
    match shape {
        0 => sheet(1.5, 1.0, 10, 6),
        1 => blob(0.5, 2, 5, seed),
        2 => torus(0.6, 0.2, 12, 6),
        s => family_mesh(FAMILIES[(s - 3) % FAMILIES.len()], rng),
    }
}

/// One mesh, basis and state in scalar `S`: the rows' bits hold; returns the bits proven.
fn case<S: Scalar>(
    mesh: &Mesh,
    basis: Option<&Basis>,
    q: &[f64],
    pose: &io::Pose,
) -> Result<u32, TestCaseError> {
    let buf = image_in::<S>(mesh, basis);
    let image = buf.parse::<S>().expect("image");
    let table = self_normals(&image.tree, &image.model, 2);
    let m = basis.map_or(0, |b| b.modes);
    if m == 0 {
        prop_assert!(table.is_empty(), "a rigid body has no rows");
    }
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).expect("body");
    let qs: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    body.set_state(kernel_pose::<S>(pose), &qs).expect("state");
    proven_bits_hold(&body, table.normals(), mesh, basis, &node_triangles(&image))
}

proptest! {
    #![proptest_config(config(64, 0xBD7_0761))]

    /// Sheets, blobs, tori and the self-collision families (crossing, touching, seams, soups,
    /// non-manifold, degenerate) with smooth, rough, clamped, zero or no bases, at states
    /// from tiny to far beyond the basis' scale, rotated, modelled far away or in
    /// millimetres: no bit a row proves is contradicted by a true normal, in f32 and in f64.
    #[test]
    fn normal_bounds_hold_for_the_true_normals(
        shape in 0usize..10,
        kind in 0usize..5,
        modes in 1usize..=4,
        amplitude in prop_oneof![Just(0.0), Just(0.05), Just(1.0), Just(20.0)],
        scale in prop_oneof![Just(1.0), Just(1e-3)],
        modelled in prop_oneof![Just(0.0), Just(1000.0)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = drawn_mesh(shape, seed, &mut rng);
        let basis = match kind {
            0 => family_basis(BasisKind::None, &mesh, modes, 0.3, &mut rng),
            1 => Some(rough_basis(mesh.vertices.len(), modes, 0.3, &mut rng)),
            2 => family_basis(BasisKind::Clamped, &mesh, modes, 0.3, &mut rng),
            3 => family_basis(BasisKind::Zero, &mesh, modes, 0.3, &mut rng),
            _ => Some(smooth_basis(&mesh.vertices, modes, 0.3)),
        };
        let offset = [0, 1, 2].map(|_| modelled * scale * rng.uniform(-1.0, 1.0));
        let (mesh, basis) = placed(mesh, basis, scale, offset);
        let m = basis.as_ref().map_or(0, |b| b.modes);
        let q: Vec<f64> = (0..m).map(|_| amplitude * rng.uniform(-1.0, 1.0)).collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| 300.0 * scale * rng.uniform(-1.0, 1.0)),
        };
        case::<f32>(&mesh, basis.as_ref(), &q, &pose)?;
        case::<f64>(&mesh, basis.as_ref(), &q, &pose)?;
    }
}

/// A flat sheet turned rigidly by half a turn through two modes (the ribbon's fold, `q₀ = cos
/// θ − 1`, `q₁ = sin θ`) and rippled: its root's row proves a cone at every angle, rotated,
/// far away and in millimetres, in f32 and f64, and each bit holds.
#[test]
fn a_rigidly_turned_rippled_sheet_is_proven_whole() {
    let (mesh, basis) = turned_sheet(true);
    let mut rng = Rng::new(0xBD7_0761);
    for step in 0..=12 {
        let theta = std::f64::consts::PI * f64::from(step) / 12.0;
        let q = [theta.cos() - 1.0, theta.sin(), 1.0];
        // Modelled at the origin or 1,000 units away, posed at the origin or 300 units away;
        // the millimetre sheet (of 0.1 mm triangles) posed 30 cm away: further, f32's rounding
        // of its vertices is the size of its triangles and nothing can be proven (the
        // triangles' own cones neither).
        for (scale, modelled, posed) in [
            (1.0, 0.0, 0.0),
            (1.0, 0.0, 300.0),
            (1e-3, 0.0, 0.3),
            (1.0, 1000.0, 0.0),
        ] {
            let (mesh, basis) = placed(mesh.clone(), Some(basis.clone()), scale, [modelled; 3]);
            let pose = io::Pose {
                rotation: rng.rotation(),
                translation: [posed; 3],
            };
            for proven in [
                root_bits::<f32>(&mesh, basis.as_ref(), &q, &pose),
                root_bits::<f64>(&mesh, basis.as_ref(), &q, &pose),
            ] {
                assert_ne!(
                    proven, 0,
                    "θ = {theta:.3}, scale {scale}: no cone at the root"
                );
            }
        }
    }
}

/// A 2 × 1 sheet of 256 triangles turned about its edge `x = -1` by modes 0 and 1 (`q₀ = cos θ
/// − 1`, `q₁ = sin θ`), and with `ripple` a third mode rippling it along `z`.
fn turned_sheet(ripple: bool) -> (Mesh, Basis) {
    let mesh = sheet(2.0, 1.0, 16, 8);
    let modes = 2 + usize::from(ripple);
    let mut data = vec![0.0; 3 * mesh.vertices.len() * modes];
    for (i, p) in mesh.vertices.iter().enumerate() {
        let s = p[0] + 1.0;
        data[3 * i * modes] = s;
        data[(3 * i + 2) * modes + 1] = s;
        if ripple {
            data[(3 * i + 2) * modes + 2] = 0.05 * (2.0 * std::f64::consts::PI * s / 0.5).sin();
        }
    }
    let basis = Basis {
        vertices: mesh.vertices.len(),
        modes,
        data,
    };
    (mesh, basis)
}

/// The same sheet turned without the ripple, a rigid turn through two modes: every node with a
/// row takes its affine sphere (within a quarter of its rest radius, which the lazy refit
/// takes in place of the node's subtree) at every angle, rotated and far away, in f32 and
/// f64, and each contains its node's vertices.
#[test]
fn a_rigidly_turned_sheet_takes_its_affine_spheres() {
    let (mesh, basis) = turned_sheet(false);
    let mut rng = Rng::new(0xBD7_0763);
    let angles = (0..=6).map(|k| std::f64::consts::PI * f64::from(k) / 6.0);
    for (theta, posed) in angles.flat_map(|t| [(t, 0.0), (t, 300.0)]) {
        let q = [theta.cos() - 1.0, theta.sin()];
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [posed; 3],
        };
        for (taken, rows) in [
            contained::<f32>(&mesh, Some(&basis), &q, &pose).expect("contained"),
            contained::<f64>(&mesh, Some(&basis), &q, &pose).expect("contained"),
        ] {
            assert!(rows > 0);
            assert_eq!(taken, rows, "θ = {theta:.3}, posed at {posed}");
        }
    }
}

/// [`case`]'s check, and the root's proven bits.
fn root_bits<S: Scalar>(mesh: &Mesh, basis: Option<&Basis>, q: &[f64], pose: &io::Pose) -> u16 {
    let buf = image_in::<S>(mesh, basis);
    let image = buf.parse::<S>().expect("image");
    let table = self_normals(&image.tree, &image.model, 2);
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).expect("body");
    let qs: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    body.set_state(kernel_pose::<S>(pose), &qs).expect("state");
    proven_bits_hold(&body, table.normals(), mesh, basis, &node_triangles(&image))
        .expect("bits hold");
    table
        .normals()
        .cone(&body, 0)
        .expect("the host's rows read")
}

/// A degenerate triangle (zero area) takes every node above it out of the table, a rigid
/// body has no table, and a node's proven bits are at most what its triangles' exact cones
/// allow on a gently bent sheet (each bit the bound proves, the cones prove too, here where
/// neither is near its margin).
#[test]
fn degenerate_triangles_and_rigid_bodies_get_no_rows() {
    let mut mesh = sheet(1.0, 1.0, 6, 6);
    let basis = smooth_basis(&mesh.vertices, 3, 0.1);
    let [a, b, _] = mesh.triangles[10];
    mesh.vertices[b as usize] = mesh.vertices[a as usize];
    let buf = image_in::<f32>(&mesh, Some(&basis));
    let image = buf.parse::<f32>().expect("image");
    let table: NodeRows = self_normals(&image.tree, &image.model, 2);
    let sets = node_triangles(&image);
    for (k, set) in sets.iter().enumerate() {
        let has = table.has_row(k);
        let degenerate = set.contains(&10);
        if set.len() >= 2 {
            assert_eq!(has, !degenerate, "node {k}");
        }
    }
    assert!(!table.is_empty());
    let rigid = image_in::<f32>(&mesh, None);
    let rigid = rigid.parse::<f32>().expect("image");
    assert!(self_normals(&rigid.tree, &rigid.model, 2).is_empty());

    let mesh = sheet(1.0, 1.0, 8, 8);
    let basis = smooth_basis(&mesh.vertices, 3, 0.1);
    let buf = image_in::<f32>(&mesh, Some(&basis));
    let image = buf.parse::<f32>().expect("image");
    let table = self_normals(&image.tree, &image.model, 2);
    let n = image.tree.node_count();
    let mut cache = BodyStorage::new(n);
    let mut body = cache.body(&image).expect("body");
    body.set_state(Pose::identity(), &[0.3f32, -0.2, 0.1])
        .expect("state");
    let mut cones = vec![0u16; n];
    normal_cones(&mut body, &mut cones).expect("cones");
    let mut proven = 0;
    for (k, &cone) in cones.iter().enumerate() {
        let bits = table
            .normals()
            .cone(&body, k)
            .expect("the host's rows read");
        assert_eq!(bits & !cone, 0, "node {k}: {bits:b} beyond {:b}", cone);
        proven += u32::from(bits != 0);
    }
    assert!(
        proven * 2 > table.len() as u32,
        "{proven} of {}",
        table.len()
    );
}

proptest! {
    #![proptest_config(config(48, 0xBD7_0762))]

    /// Affine spheres contain their nodes: for sheets, blobs, tori and the families with every
    /// kind of basis, states from zero to 20× the basis' scale, rotated and far away, every
    /// vertex of the f64 source deformed explicitly lies in the sphere `Body::affine_sphere`
    /// gives (whenever it gives one), in f32 and f64.
    #[test]
    fn affine_spheres_contain_their_nodes(
        shape in 0usize..10,
        kind in 0usize..5,
        modes in 1usize..=4,
        amplitude in prop_oneof![Just(0.0), Just(0.05), Just(1.0), Just(20.0)],
        far in prop_oneof![Just(0.0), Just(300.0)],
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mesh = drawn_mesh(shape, seed, &mut rng);
        let basis = match kind {
            0 => Some(rough_basis(mesh.vertices.len(), modes, 0.3, &mut rng)),
            1 => family_basis(BasisKind::Clamped, &mesh, modes, 0.3, &mut rng),
            2 => family_basis(BasisKind::Zero, &mesh, modes, 0.3, &mut rng),
            _ => Some(smooth_basis(&mesh.vertices, modes, 0.3)),
        };
        let q: Vec<f64> = (0..modes).map(|_| amplitude * rng.uniform(-1.0, 1.0)).collect();
        let pose = io::Pose {
            rotation: rng.rotation(),
            translation: [0, 1, 2].map(|_| far * rng.uniform(-1.0, 1.0)),
        };
        contained::<f32>(&mesh, basis.as_ref(), &q, &pose)?;
        contained::<f64>(&mesh, basis.as_ref(), &q, &pose)?;
    }
}

/// [`affine_spheres_contain_their_nodes`] in scalar `S`: the spheres given and the rows.
fn contained<S: Scalar>(
    mesh: &Mesh,
    basis: Option<&Basis>,
    q: &[f64],
    pose: &io::Pose,
) -> Result<(usize, usize), TestCaseError> {
    use bdtree_std::build::self_spheres;
    let buf = image_in::<S>(mesh, basis);
    let image = buf.parse::<S>().expect("image");
    let table = self_spheres(&image.tree, &image.model, 2);
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).expect("body");
    let qs: Vec<S> = q.iter().map(|&x| S::from_f64(x)).collect();
    body.set_state(kernel_pose::<S>(pose), &qs).expect("state");
    let q_stored: Vec<f64> = qs.iter().map(|x| x.to_f64()).collect();
    let world = oracle::deform(&mesh.vertices, basis, &q_stored, pose);
    let mut checked = 0;
    for (k, set) in node_triangles(&image).iter().enumerate() {
        let Some(sphere) = body
            .affine_sphere(k, &table.spheres())
            .expect("the host's rows read")
        else {
            continue;
        };
        checked += 1;
        let [x, y, z, r] = sphere.map(S::to_f64);
        for &t in set {
            for v in mesh.triangles[t as usize] {
                let p = world[v as usize];
                let d = ((p[0] - x).powi(2) + (p[1] - y).powi(2) + (p[2] - z).powi(2)).sqrt();
                prop_assert!(
                    d <= r,
                    "{}: node {} vertex {} at {} > {}",
                    S::NAME,
                    k,
                    v,
                    d,
                    r
                );
            }
        }
    }
    Ok((checked, table.len()))
}

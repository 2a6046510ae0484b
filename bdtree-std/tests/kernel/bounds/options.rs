//! The builder's bound options beyond the paper (`ModeCenter`, `Grouping`): containment of
//! every deformed vertex in its node's updated sphere with every option, traversal answers equal
//! to brute force on fixture scenes, and the minimal-ball `ΔR_j` never above the mean-centered
//! one.

use bdtree_std::io;
use bdtree_std::{oracle, BodyStorage};

use bdtree_core::{NodeKind, Scalar};
use bdtree_std::build::{build, BuildOptions, Grouping, ModeCenter, Precision};
use bdtree_std::export::Contact;
use bdtree_std::io::{Basis, ImageBuf, Mesh, Scene};
use bdtree_std::runner::{brute_force_frame, compare, prepare, run};
use bdtree_std::shapes::procedural::{bar, blob, icosphere, sheet, smooth_basis, torus};

use crate::support::{
    dist, expected, fixtures, node_vertices, rough_basis, set_state_f64, sphere_f64, stored_model,
    Rng,
};

const CENTERS: [ModeCenter; 2] = [ModeCenter::Mean, ModeCenter::MinimalBall];
const GROUPINGS: [Grouping; 2] = [Grouping::Rest, Grouping::Motion];

fn options(precision: Precision, mode_center: ModeCenter, grouping: Grouping) -> BuildOptions {
    BuildOptions {
        precision,
        mode_center,
        grouping,
        ..BuildOptions::default()
    }
}

fn meshes() -> Vec<(&'static str, Mesh)> {
    vec![
        ("icosphere", icosphere(0.5, 2)),
        ("torus", torus(0.5, 0.15, 18, 8)),
        ("sheet", sheet(1.5, 1.0, 9, 6)),
        ("bar", bar(2.0, 0.08, 14)),
        ("blob", blob(0.5, 2, 5, 11)),
    ]
}

fn image(mesh: &Mesh, basis: Option<&Basis>, options: BuildOptions) -> ImageBuf {
    build(mesh, basis, options, &mut |_| {}).expect("build").0
}

/// Every node's updated world sphere contains every deformed world vertex below it (f64, from
/// the source data and from the stored model).
fn check_containment<S: Scalar>(
    mesh: &Mesh,
    basis: &Basis,
    options: BuildOptions,
    q: &[f64],
    pose: &io::Pose,
) {
    let buf = image(mesh, Some(basis), options);
    let image = buf.parse::<S>().expect("the loader accepts the image");
    let mut cache = BodyStorage::new(image.tree.node_count());
    let mut body = cache.body(&image).expect("body");
    set_state_f64(&mut body, pose, q);
    let source = oracle::deform(&mesh.vertices, Some(basis), q, pose);
    let (stored_mesh, stored_basis) = stored_model(&image);
    let stored = oracle::deform(&stored_mesh.vertices, Some(&stored_basis), q, pose);
    for (k, set) in node_vertices(&image).iter().enumerate() {
        let (c, r) = sphere_f64(&mut body, k);
        for &v in set {
            for (what, world) in [("source", &source), ("stored", &stored)] {
                let d = dist(world[v as usize], c);
                assert!(
                    d <= r,
                    "{} {options:?}: node {k} vertex {v} ({what}) at {d} outside radius {r}",
                    S::NAME
                );
            }
        }
    }
}

#[test]
fn every_option_contains_every_deformed_vertex() {
    let mut rng = Rng::new(0xB0_0D5);
    for (name, mesh) in meshes() {
        for (modes, rough) in [(1, false), (6, false), (4, true), (10, true)] {
            let basis = if rough {
                rough_basis(mesh.vertices.len(), modes, 0.3, &mut rng)
            } else {
                smooth_basis(&mesh.vertices, modes, 0.2)
            };
            for center in CENTERS {
                for grouping in GROUPINGS {
                    for q_scale in [0.1, 1.0, 20.0] {
                        let q: Vec<f64> =
                            (0..modes).map(|_| rng.uniform(-q_scale, q_scale)).collect();
                        let pose = io::Pose {
                            rotation: rng.rotation(),
                            translation: [0, 1, 2].map(|_| rng.uniform(-5.0, 5.0)),
                        };
                        let o = |p| options(p, center, grouping);
                        eprintln!("{name}, {modes} modes (rough {rough}), {center:?}/{grouping:?}");
                        check_containment::<f32>(&mesh, &basis, o(Precision::F32), &q, &pose);
                        check_containment::<f64>(&mesh, &basis, o(Precision::F64), &q, &pose);
                    }
                }
            }
        }
    }
}

/// Per node: its kind and its record (rest sphere, then `[Ū_j, ΔR_j]` per mode), widened.
fn records(buf: &ImageBuf, precision: Precision) -> Vec<(NodeKind, Vec<[f64; 4]>)> {
    fn read<S: Scalar>(buf: &ImageBuf) -> Vec<(NodeKind, Vec<[f64; 4]>)> {
        let image = buf.parse::<S>().expect("parse");
        (0..image.tree.node_count())
            .map(|k| {
                let record = image.tree.record(k).expect("record");
                let kind = image.tree.kind(k).expect("kind");
                (kind, record.iter().map(|r| r.map(S::to_f64)).collect())
            })
            .collect()
    }
    match precision {
        Precision::F32 => read::<f32>(buf),
        Precision::F64 => read::<f64>(buf),
    }
}

#[test]
fn minimal_ball_growth_never_exceeds_the_mean_centered_growth() {
    let mut rng = Rng::new(0xBA11);
    let (mut strictly_smaller, mut compared) = (0usize, 0usize);
    for (name, mesh) in meshes() {
        for rough in [false, true] {
            let modes = 7;
            let basis = if rough {
                rough_basis(mesh.vertices.len(), modes, 0.5, &mut rng)
            } else {
                smooth_basis(&mesh.vertices, modes, 0.2)
            };
            for grouping in GROUPINGS {
                for precision in [Precision::F64, Precision::F32] {
                    let build_with = |center| {
                        let buf = image(&mesh, Some(&basis), options(precision, center, grouping));
                        records(&buf, precision)
                    };
                    let mean = build_with(ModeCenter::Mean);
                    let ball = build_with(ModeCenter::MinimalBall);
                    // Relative slack: the outward rounding of ΔR (1e-12 then one ulp) and the
                    // rounding of the ball's center to the image's scalar.
                    let slack = match precision {
                        Precision::F64 => 1e-9,
                        Precision::F32 => 1e-6,
                    };
                    assert_eq!(mean.len(), ball.len());
                    for (k, ((kind_m, m), (kind_b, b))) in mean.iter().zip(&ball).enumerate() {
                        assert_eq!(kind_m, kind_b, "the mode center leaves the tree's shape");
                        assert_eq!(m[0], b[0], "the mode center leaves the rest sphere");
                        for j in 1..m.len() {
                            let (gm, gb) = (m[j][3], b[j][3]);
                            let scale = m[j][..3].iter().fold(gm, |s, x| s.max(x.abs()));
                            assert!(
                                gb <= gm + slack * scale,
                                "{name} (rough {rough}) {grouping:?} {precision:?}: node {k} \
                                 mode {}: ball ΔR {gb} > mean ΔR {gm}",
                                j - 1
                            );
                            compared += 1;
                            strictly_smaller += usize::from(gb < gm);
                        }
                    }
                }
            }
        }
    }
    // Not merely no worse: strictly tighter at most nodes and modes.
    assert!(
        strictly_smaller * 2 > compared,
        "{strictly_smaller} of {compared}"
    );
}

#[test]
fn motion_grouping_builds_valid_trees_for_rigid_and_rough_bodies() {
    let mut rng = Rng::new(0x6E0);
    for (name, mesh) in meshes() {
        let t = mesh.triangles.len();
        let rough = rough_basis(mesh.vertices.len(), 5, 1.0, &mut rng);
        for basis in [None, Some(&rough)] {
            for precision in [Precision::F32, Precision::F64] {
                let o = options(precision, ModeCenter::MinimalBall, Grouping::Motion);
                let buf = image(&mesh, basis, o);
                let (rest, _) = build(
                    &mesh,
                    basis,
                    options(precision, ModeCenter::MinimalBall, Grouping::Rest),
                    &mut |_| {},
                )
                .expect("build");
                let header = buf.header().expect("header");
                assert_eq!(header.nodes as usize, 2 * t - 1, "{name}");
                // Median splits either way: the same depth as the rest grouping.
                assert_eq!(header.depth, rest.header().expect("header").depth, "{name}");
                let ok = match precision {
                    Precision::F32 => buf.parse::<f32>().map(|_| ()),
                    Precision::F64 => buf.parse::<f64>().map(|_| ()),
                };
                assert_eq!(ok, Ok(()), "{name} {precision:?}");
                if basis.is_none() {
                    assert_eq!(buf, rest, "{name}: a rigid body has nothing to group by");
                }
            }
        }
    }
}

#[test]
fn every_option_answers_fixture_scenes_like_brute_force() {
    for name in ["thin", "rigid", "demo"] {
        let scene = Scene::load(&fixtures().join(format!("scenes/{name}.json"))).expect("scene");
        let mut truth = expected(&scene, name);
        // The thin scene is small: also recompute brute force here, not only the stored answer.
        if name == "thin" {
            let fresh: Vec<Vec<Contact>> = (0..scene.frames.len())
                .map(|f| brute_force_frame(&scene, f))
                .collect();
            assert_eq!(fresh, truth, "{name}: stored expected answers are current");
            truth = fresh;
        }
        for center in CENTERS {
            for grouping in GROUPINGS {
                for precision in [Precision::F32, Precision::F64] {
                    let prepared =
                        prepare(&scene, options(precision, center, grouping)).expect("build");
                    let (frames, _) = match precision {
                        Precision::F32 => run::<f32>(&scene, &prepared, 1),
                        Precision::F64 => run::<f64>(&scene, &prepared, 1),
                    }
                    .expect("run");
                    for (f, (got, want)) in frames.iter().zip(&truth).enumerate() {
                        let what =
                            format!("{name} frame {f} {center:?}/{grouping:?} {precision:?}");
                        assert!(got.complete, "{what}");
                        let c = compare(&scene, f, &got.pairs, want);
                        assert!(c.missed.is_empty(), "{what}: missed {:?}", c.missed);
                        match precision {
                            Precision::F64 => {
                                assert!(c.extra.is_empty(), "{what}: extra {:?}", c.extra)
                            }
                            Precision::F32 => {
                                for (pair, gap) in &c.extra {
                                    assert!(*gap <= 1e-4, "{what}: extra {pair:?} {gap} apart");
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

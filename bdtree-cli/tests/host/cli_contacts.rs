//! `bdtree collide --swept`, `collide --contacts` and `distance --within D` against the f64
//! brute force on explicitly deformed meshes, in f32 and f64: the swept pairs against dense
//! sampling of the interpolated motion (written here, independently of the library's), the
//! contacts against the brute-force pairs and penetration depths, the near pairs against every
//! triangle pair's exact distance.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use bdtree_std::io::Scene;
use bdtree_std::oracle;

use crate::binary::{bdtree, fails_with, fixtures};
use crate::support::motion::{state_at, Ends};
use crate::support::triangles::{penetration_depth, point_distance};

pub(crate) type Key = (String, String, u64, u64);
type Tri = [[f64; 3]; 3];

/// Samples of each motion.
const SAMPLES: usize = 200;

pub(crate) fn key(p: &serde_json::Value) -> Key {
    (
        p[0].as_str().expect("name").to_string(),
        p[1].as_str().expect("name").to_string(),
        p[2].as_u64().expect("triangle"),
        p[3].as_u64().expect("triangle"),
    )
}

/// Runs `bdtree ARGS`, which must succeed, and parses one JSON object per line.
pub(crate) fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = bdtree(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// Every body's triangles in frame `f`, deformed explicitly (f64).
fn world_triangles(scene: &Scene, f: usize) -> Vec<Vec<Tri>> {
    bdtree_std::runner::deformed_triangles(scene, &scene.frames[f])
}

/// Every pair some of `SAMPLES + 1` times of the motion from frame `f − 1` to `f` finds, with
/// the first such time.
fn sampled(scene: &Scene, f: usize) -> BTreeMap<Key, f64> {
    sampled_with(scene, f, SAMPLES)
}

/// [`sampled`] at `samples + 1` times.
pub(crate) fn sampled_with(scene: &Scene, f: usize, samples: usize) -> BTreeMap<Key, f64> {
    let samples = samples.max(1);
    let ends: Vec<Ends> = (0..scene.bodies.len())
        .map(|b| [f - 1, f].map(|g| (scene.frames[g][b].1.clone(), scene.frames[g][b].0)))
        .collect();
    let mut first = BTreeMap::new();
    for s in 0..=samples {
        let tau = s as f64 / samples as f64;
        let world: Vec<Vec<[f64; 3]>> = scene
            .bodies
            .iter()
            .zip(&ends)
            .map(|(body, e)| {
                let (q, pose) = state_at(e, tau);
                oracle::deform(&body.mesh.vertices, body.basis.as_ref(), &q, &pose)
            })
            .collect();
        for i in 0..world.len() {
            for j in i + 1..world.len() {
                let (bi, bj) = (&scene.bodies[i], &scene.bodies[j]);
                for (ta, tb) in oracle::brute_force_pairs(
                    &world[i],
                    &bi.mesh.triangles,
                    &world[j],
                    &bj.mesh.triangles,
                ) {
                    let k = (bi.name.clone(), bj.name.clone(), ta.into(), tb.into());
                    first.entry(k).or_insert(tau);
                }
            }
        }
    }
    first
}

fn tunnel() -> std::path::PathBuf {
    fixtures().join("swept/tunnel.json")
}

#[test]
fn the_tunnel_scene_has_no_contact_at_any_frame() {
    // Frame by frame, the brute force and the kernel find nothing: the contacts happen
    // between the ticks only.
    let scene = Scene::load(&tunnel()).expect("tunnel scene");
    for f in 0..scene.frames.len() {
        assert!(
            bdtree_std::runner::brute_force_frame(&scene, f).is_empty(),
            "frame {f}"
        );
    }
    for precision in ["f32", "f64"] {
        let path = tunnel();
        let lines = json_lines(&[
            "collide",
            path.to_str().unwrap(),
            "--json",
            "--precision",
            precision,
        ]);
        assert_eq!(lines.len(), scene.frames.len());
        for v in &lines {
            assert!(v["pairs"].as_array().unwrap().is_empty(), "{v}");
        }
    }
}

/// Every pair dense sampling finds is reported, no later than the first sample that finds it,
/// and the reported pairs are at most 1.5× the sampled ones over each motion (plus a few);
/// `crossing` names body pairs some motion must see pass through each other.
fn swept_matches_sampling(name: &str, crossing: &[(&str, &str)]) {
    let path = fixtures().join(format!("swept/{name}.json"));
    let scene = Scene::load(&path).expect("swept scene");
    let truth: Vec<BTreeMap<Key, f64>> = (1..scene.frames.len())
        .map(|f| sampled(&scene, f))
        .collect();
    // Non-vacuity: the named bodies pass through each other in some motion.
    let bodies: BTreeSet<(String, String)> = truth
        .iter()
        .flat_map(|t| t.keys().map(|k| (k.0.clone(), k.1.clone())))
        .collect();
    for (a, b) in crossing {
        assert!(
            bodies.contains(&(a.to_string(), b.to_string())),
            "{name}: {bodies:?}"
        );
    }
    for precision in ["f32", "f64"] {
        let lines = json_lines(&[
            "collide",
            path.to_str().unwrap(),
            "--swept",
            "--json",
            "--precision",
            precision,
        ]);
        assert_eq!(lines.len(), scene.frames.len() - 1, "one line per motion");
        for (v, want) in lines.iter().zip(&truth) {
            let f = v["frame"].as_u64().expect("frame") as usize;
            assert_eq!(v["swept"], true);
            let pairs: Vec<Key> = v["pairs"].as_array().unwrap().iter().map(key).collect();
            let times: Vec<f64> = v["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_f64().unwrap())
                .collect();
            assert_eq!(pairs.len(), times.len());
            let mut sorted = pairs.clone();
            sorted.sort();
            assert_eq!(pairs, sorted, "pairs are sorted");
            assert!(v["stats"]["overlap_tests"].is_number());
            let reported: BTreeMap<&Key, f64> = pairs.iter().zip(times).collect();
            for (k, &tau) in want {
                let time = reported.get(k).copied();
                assert!(
                    time.is_some(),
                    "{precision} frame {f}: {k:?} (τ = {tau}) missed"
                );
                assert!(
                    time <= Some(tau),
                    "{precision} frame {f}: {k:?} at {time:?} > {tau}"
                );
            }
            println!(
                "{name} {precision}, motion {} → {f}: sampled {}, swept {}",
                f - 1,
                want.len(),
                pairs.len()
            );
            assert!(
                2 * pairs.len() <= 3 * want.len() + 16,
                "{precision} frame {f}: {} reported for {} sampled",
                pairs.len(),
                want.len()
            );
        }
        // The command's own check against sampling agrees.
        let checked = json_lines(&[
            "collide",
            path.to_str().unwrap(),
            "--swept",
            "--json",
            "--check",
            "--samples",
            "50",
            "--precision",
            precision,
        ]);
        assert!(checked.iter().all(|v| v["check"]["missed"] == 0));
    }
}

#[test]
fn collide_swept_reports_every_pair_dense_sampling_finds() {
    swept_matches_sampling("tunnel", &[("sheet", "ball"), ("sheet", "blade")]);
}

#[test]
fn swept_ball_through_a_plate_matches_sampling() {
    swept_matches_sampling("plate", &[("plate", "ball")]);
}

#[test]
fn swept_flapping_sheet_matches_sampling() {
    swept_matches_sampling("flap", &[("sheet", "ball"), ("sheet", "bar")]);
}

#[test]
fn collide_contacts_lie_on_both_triangles_with_brute_force_depths() {
    let path = fixtures().join("scenes/demo.json");
    let scene = Scene::load(&path).expect("demo scene");
    let index: BTreeMap<&str, usize> = scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    for (precision, tol) in [("f32", 1e-4), ("f64", 1e-9)] {
        let lines = json_lines(&[
            "collide",
            path.to_str().unwrap(),
            "--contacts",
            "--json",
            "--precision",
            precision,
        ]);
        assert_eq!(lines.len(), scene.frames.len());
        let mut checked = 0;
        for v in &lines {
            let f = v["frame"].as_u64().unwrap() as usize;
            let world = world_triangles(&scene, f);
            let pairs: Vec<Key> = v["pairs"].as_array().unwrap().iter().map(key).collect();
            let contacts = v["contacts"].as_array().unwrap();
            assert_eq!(pairs.len(), contacts.len());
            let truth: BTreeSet<(usize, usize, u32, u32)> =
                bdtree_std::runner::brute_force_frame(&scene, f)
                    .into_iter()
                    .collect();
            let reported: BTreeSet<(usize, usize, u32, u32)> = pairs
                .iter()
                .map(|k| {
                    (
                        index[k.0.as_str()],
                        index[k.1.as_str()],
                        k.2 as u32,
                        k.3 as u32,
                    )
                })
                .collect();
            assert!(
                truth.is_subset(&reported),
                "{precision} frame {f}: a pair missed"
            );
            for (k, c) in pairs.iter().zip(contacts) {
                assert_eq!(key(&c["pair"]), *k);
                let (a, b) = (index[k.0.as_str()], index[k.1.as_str()]);
                let (ta, tb) = (&world[a][k.2 as usize], &world[b][k.3 as usize]);
                let num = |x: &serde_json::Value| x.as_f64().unwrap();
                let p: [f64; 3] = [0, 1, 2].map(|i| num(&c["point"][i]));
                let n: [f64; 3] = [0, 1, 2].map(|i| num(&c["normal"][i]));
                let depth = num(&c["depth"]);
                assert!((n.iter().map(|x| x * x).sum::<f64>() - 1.0).abs() < 1e-5);
                assert!(point_distance(p, ta) <= tol, "{k:?}: point off a");
                assert!(point_distance(p, tb) <= tol, "{k:?}: point off b");
                if oracle::triangles_intersect(ta, tb) {
                    let want = penetration_depth(ta, tb);
                    assert!(
                        (depth - want).abs() <= tol,
                        "{k:?}: depth {depth} vs {want}"
                    );
                    checked += 1;
                } else {
                    assert!(depth <= tol, "{k:?}: a pair apart has depth {depth}");
                }
            }
        }
        assert!(checked > 20, "{precision}: only {checked} contacts checked");
    }
}

#[test]
fn distance_within_reports_every_pair_closer_than_d() {
    // At `d` = 0 and 0.01 the crossing pairs matter: their feature-pair distance is far from 0
    // and an f32 refinement that filtered on it alone dropped them (14 of thin's 276 pairs).
    for (name, d) in [
        ("touching", 0.01),
        ("thin", 0.02),
        ("thin", 0.01),
        ("thin", 0.0),
        ("rigid", 0.0),
    ] {
        let path = fixtures().join(format!("scenes/{name}.json"));
        let scene = Scene::load(&path).expect("scene");
        // `tol`: how far a reported distance and witness may be from the exact ones; `extra`:
        // how much farther than `d` a reported pair may be — the documented `2T` of
        // `bdtree_core::within` (`T = 4δ + 64u(w + δ)`, δ the two bodies' rounding bounds; in
        // f32 the thin scene's pairs reach 1.4e-4 beyond `d`).
        for (precision, tol, extra) in [("f32", 1e-4, 2.5e-4), ("f64", 1e-9, 1e-9)] {
            let ds = d.to_string();
            let lines = json_lines(&[
                "distance",
                path.to_str().unwrap(),
                "--within",
                &ds,
                "--json",
                "--precision",
                precision,
            ]);
            assert_eq!(lines.len(), scene.frames.len());
            let mut near = 0;
            for v in &lines {
                let f = v["frame"].as_u64().unwrap() as usize;
                let world = world_triangles(&scene, f);
                let mut reported = BTreeMap::new();
                for c in v["near"].as_array().unwrap() {
                    let k = key(&c["pair"]);
                    let num = |x: &serde_json::Value| x.as_f64().unwrap();
                    let pa: [f64; 3] = [0, 1, 2].map(|i| num(&c["point_a"][i]));
                    let pb: [f64; 3] = [0, 1, 2].map(|i| num(&c["point_b"][i]));
                    let dist = num(&c["distance"]);
                    let (a, b) = (
                        scene.bodies.iter().position(|x| x.name == k.0).unwrap(),
                        scene.bodies.iter().position(|x| x.name == k.1).unwrap(),
                    );
                    let (ta, tb) = (&world[a][k.2 as usize], &world[b][k.3 as usize]);
                    let truth = oracle::triangle_distance(ta, tb).0;
                    assert!(
                        truth <= d + extra,
                        "{name} {precision}: {k:?} at {truth} > {d} + {extra}"
                    );
                    assert!((dist - truth).abs() <= tol, "{k:?}: {dist} vs {truth}");
                    assert!(point_distance(pa, ta) <= tol && point_distance(pb, tb) <= tol);
                    let gap = (0..3).map(|i| (pa[i] - pb[i]).powi(2)).sum::<f64>().sqrt();
                    assert!((gap - dist).abs() <= tol, "{k:?}: witnesses {gap} apart");
                    reported.insert(k, dist);
                }
                // Every pair within d by brute force is reported.
                for i in 0..world.len() {
                    for j in i + 1..world.len() {
                        for (x, ta) in world[i].iter().enumerate() {
                            for (y, tb) in world[j].iter().enumerate() {
                                if oracle::triangle_distance(ta, tb).0 <= d {
                                    let (ni, nj) = (&scene.bodies[i].name, &scene.bodies[j].name);
                                    let k = (ni.clone(), nj.clone(), x as u64, y as u64);
                                    assert!(reported.contains_key(&k), "{name}: {k:?} missed");
                                    near += 1;
                                }
                            }
                        }
                    }
                }
            }
            assert!(near > 10, "{name} {precision}: only {near} near pairs");
        }
    }
}

#[test]
fn the_new_options_refuse_bad_input() {
    let path = fixtures().join("scenes/touching.json");
    let p = path.to_str().unwrap();
    fails_with(&["distance", p, "--within", "-1"], &["--within", "≥ 0"]);
    fails_with(&["distance", p, "--within", "NaN"], &["--within"]);
    // --swept cannot be combined with the depth query.
    let out = bdtree(&["collide", p, "--swept", "--depth", "3"]);
    assert!(!out.status.success());
    // One frame: no motion, nothing printed, no error.
    let dir = crate::support::Scratch::new("swept");
    let text = std::fs::read_to_string(&path).expect("scene");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["frames"].as_array_mut().unwrap().truncate(1);
    for b in v["bodies"].as_array_mut().unwrap() {
        let mesh = b["mesh"].as_str().unwrap().to_string();
        let abs = Path::new(&path).parent().unwrap().join(mesh);
        b["mesh"] = serde_json::json!(abs.to_str().unwrap());
    }
    let one = dir.join("one.json");
    std::fs::write(&one, v.to_string()).expect("write");
    let lines = json_lines(&["collide", one.to_str().unwrap(), "--swept", "--json"]);
    assert!(lines.is_empty());
}

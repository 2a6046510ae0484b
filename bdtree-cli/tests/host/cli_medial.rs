//! Medial trees through the command line: exact answers against the f64 brute force on the
//! far, millimetre and touching scenes (every closed body with `"tree": "medial"` in its scene
//! file, f32 and f64), `--tree medial` on `collide` and `interrupt`, open meshes refused naming
//! them, and the fit table of `inspect`.

use bdtree_std::build::medial::check_closed;
use bdtree_std::io::Scene;

use crate::binary::{bdtree, collide_checked, fails_with, fixtures, json_lines};
use crate::support::scenes::{far_scene, millimetre_scene, touching_scene, write_scene};
use crate::support::Scratch;

/// Asks for a medial tree on every closed body of `scene`; returns how many.
fn medial_where_closed(scene: &mut Scene) -> usize {
    let mut count = 0;
    for body in &mut scene.bodies {
        if check_closed(&body.mesh).is_ok() {
            body.tree = Some("medial".into());
            count += 1;
        }
    }
    count
}

#[test]
fn medial_trees_through_the_cli_miss_nothing() {
    let dir = Scratch::new("medial-cli");
    let mut scenes: Vec<(String, Scene)> = (0..4)
        .map(|k| (format!("far{k}"), far_scene(0x59c0 + k, 6)))
        .collect();
    scenes.push(("touching".into(), touching_scene(0x59c1, 6)));
    scenes.push(("millimetre".into(), millimetre_scene()));
    let (mut medial, mut frames) = (0, 0);
    for (name, mut scene) in scenes {
        medial += medial_where_closed(&mut scene);
        let path = write_scene(&dir, &scene, &name);
        for precision in ["f32", "f64"] {
            collide_checked(&path, Some(precision), &name);
            frames += scene.frames.len();
        }
    }
    // Not vacuous: closed bodies were built medial (rigid and deformable, by the pools).
    assert!(medial >= 8, "only {medial} medial bodies");
    eprintln!("{frames} scene-precision frames with {medial} medial bodies, none missed a pair");
}

#[test]
fn collide_and_interrupt_take_tree_medial() {
    // `rigid`: a closed blob and a closed torus.
    let scene = fixtures().join("scenes/rigid.json");
    let scene = scene.to_str().unwrap();
    let expected =
        std::fs::read_to_string(fixtures().join("expected/rigid.jsonl")).expect("expected");
    for precision in ["f32", "f64"] {
        let lines = json_lines(&[
            "collide",
            scene,
            "--tree",
            "medial",
            "--precision",
            precision,
            "--check",
            "--json",
        ]);
        assert_eq!(lines.len(), expected.lines().count());
        let mut found = 0;
        for (v, want) in lines.iter().zip(expected.lines()) {
            let w: serde_json::Value = serde_json::from_str(want).expect("expected line");
            assert_eq!(v["check"]["missed"], 0, "{v}");
            let pairs = v["pairs"].as_array().expect("pairs");
            for p in w["pairs"].as_array().expect("pairs") {
                assert!(pairs.contains(p), "frame {}: missing {p}", v["frame"]);
                found += 1;
            }
        }
        assert!(found > 0, "the fixture has contacts");
    }
    // The interrupted query: exits 0 only when every contact lies in its cover; the last budget
    // finishes every query with every contact confirmed.
    let rows = json_lines(&[
        "interrupt",
        scene,
        "--tree",
        "medial",
        "--order",
        "deepest",
        "--json",
    ]);
    let last = rows.last().expect("rows");
    assert_eq!(last["finished"], last["queries"], "{last}");
    assert_eq!(last["uncovered"], 0, "{last}");
    assert_eq!(last["true_confirmed"], last["true_contacts"], "{last}");
}

#[test]
fn open_meshes_are_refused_for_medial_trees_naming_them() {
    let dir = Scratch::new("medial-open");
    let sheet = fixtures().join("meshes/thin-sheet.obj");
    let out = dir.join("sheet.bdt");
    fails_with(
        &[
            "build",
            sheet.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--tree",
            "medial",
        ],
        &["thin-sheet.obj", "not closed", "median split"],
    );
    assert!(!out.exists(), "nothing written");
    // `demo`'s cloth is open: the scene runner names the body and its mesh.
    let demo = fixtures().join("scenes/demo.json");
    for command in ["collide", "interrupt"] {
        fails_with(
            &[command, demo.to_str().unwrap(), "--tree", "medial"],
            &[
                "demo.json",
                "body \"cloth\"",
                "demo-cloth.obj",
                "not closed",
            ],
        );
    }
    // A bad value in the scene file is named with its place.
    let text = std::fs::read_to_string(fixtures().join("scenes/rigid.json")).expect("scene");
    let text = text
        .replacen("\"mesh\"", "\"tree\": \"medal\", \"mesh\"", 1)
        .replace(
            "../meshes/",
            &format!("{}/", fixtures().join("meshes").display()),
        );
    let path = dir.join("bad-tree.json");
    std::fs::write(&path, text).expect("write");
    fails_with(
        &["collide", path.to_str().unwrap()],
        &["bad-tree.json", "bodies[0].tree", "unknown tree \"medal\""],
    );
}

#[test]
fn inspect_prints_the_fit_table_of_a_closed_mesh() {
    let dir = Scratch::new("medial-inspect");
    let mut depth_rows = Vec::new();
    for tree in ["median", "medial"] {
        let image = dir.join(format!("blob-{tree}.bdt"));
        let out = bdtree(&[
            "build",
            fixtures().join("meshes/rigid-blob.obj").to_str().unwrap(),
            "-o",
            image.to_str().unwrap(),
            "--tree",
            tree,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = bdtree(&["inspect", image.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&text.stdout).into_owned();
        assert!(text.contains("fit to the body"), "{text}");
        let v = &json_lines(&["inspect", image.to_str().unwrap(), "--json"])[0];
        let rows = v["fit"]["rows"].as_array().expect("fit rows");
        let depth = v["depth"].as_u64().expect("depth");
        assert_eq!(rows.len() as u64, depth.min(10) + 1, "{v}");
        for (level, row) in rows.iter().enumerate() {
            assert_eq!(row["level"], level as u64);
            let outside = row["outside"].as_f64().expect("outside");
            let (mean, max) = (
                row["mean_error"].as_f64().expect("mean"),
                row["max_error"].as_f64().expect("max"),
            );
            // Wrapped spheres reach outside the body; the mean error is at most the largest.
            assert!(outside > 0.0 && mean > 0.0 && mean <= max, "{row}");
        }
        // One sphere at the root, then the level's nodes.
        assert_eq!(rows[0]["spheres"], 1);
        assert_eq!(rows[3]["spheres"], 8);
        depth_rows.push(rows.len());
        // Without the table.
        let v = &json_lines(&["inspect", image.to_str().unwrap(), "--json", "--no-fit"])[0];
        assert!(v.get("fit").is_none(), "{v}");
    }
    assert_eq!(depth_rows[0], depth_rows[1], "same shape, same levels");
    // An open mesh has no inside.
    let image = dir.join("sheet.bdt");
    let out = bdtree(&[
        "build",
        fixtures().join("meshes/thin-sheet.obj").to_str().unwrap(),
        "-o",
        image.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = bdtree(&["inspect", image.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("open mesh: no inside"));
    let v = &json_lines(&["inspect", image.to_str().unwrap(), "--json"])[0];
    assert_eq!(v["fit"]["note"], "open mesh: no inside");
}

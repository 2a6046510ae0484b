//! The `bdtree` command line: outputs, and clear errors (never a panic) on bad input.

use std::path::Path;

use crate::binary::{bdtree, collide_checked, fails_with, fixtures, succeeds, CHECK_SUMMARY};
use crate::support::Scratch;

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("cli-{name}"))
}

#[test]
fn collide_json_prints_one_sorted_object_per_frame() {
    let scene = fixtures().join("scenes/thin.json");
    let text = succeeds(&[
        "collide",
        scene.to_str().unwrap(),
        "--json",
        "--repeat",
        "2",
    ]);
    let expected =
        std::fs::read_to_string(fixtures().join("expected/thin.jsonl")).expect("expected");
    assert_eq!(text.lines().count(), expected.lines().count());
    for (line, want) in text.lines().zip(expected.lines()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object per line");
        let w: serde_json::Value = serde_json::from_str(want).expect("expected line");
        assert_eq!(v["frame"], w["frame"]);
        let pairs = v["pairs"].as_array().expect("pairs");
        let key = |p: &serde_json::Value| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_str().unwrap().to_string(),
                p[2].as_u64(),
                p[3].as_u64(),
            )
        };
        let keys: Vec<_> = pairs.iter().map(key).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "pairs are sorted");
        // Every brute-force pair is reported (f32 may add near-touching extras).
        for p in w["pairs"].as_array().unwrap() {
            assert!(keys.contains(&key(p)), "frame {}: missing {p}", v["frame"]);
        }
        for field in [
            "nodes_visited",
            "sphere_updates",
            "overlap_tests",
            "triangle_tests",
            "query_ms",
        ] {
            assert!(v["stats"][field].is_number(), "stats.{field} in {line}");
        }
    }
}

#[test]
fn collide_depth_reports_proxy_pairs_covering_every_contact() {
    for scene in ["demo", "touching"] {
        let path = fixtures().join(format!("scenes/{scene}.json"));
        let stdout = succeeds(&["collide", path.to_str().unwrap(), "--depth", "5", "--check"]);
        assert!(
            stdout.contains("proxy pairs at depth 5") && stdout.contains(", 0 not under"),
            "{scene}: {stdout}"
        );
    }
    let path = fixtures().join("scenes/rigid.json");
    let out = bdtree(&[
        "collide",
        path.to_str().unwrap(),
        "--depth",
        "3",
        "--json",
        "--check",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mut frames = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json line");
        assert_eq!(v["proxy_depth"], 3);
        assert_eq!(v["check"]["uncovered"], 0);
        let proxies = v["proxies"].as_array().expect("proxies");
        assert_eq!(v["stats"]["proxies"].as_u64(), Some(proxies.len() as u64));
        for p in proxies {
            let (a, b) = (
                p["sphere_a"].as_array().unwrap(),
                p["sphere_b"].as_array().unwrap(),
            );
            let f = |x: &serde_json::Value| x.as_f64().unwrap();
            let d = ((f(&a[0]) - f(&b[0])).powi(2)
                + (f(&a[1]) - f(&b[1])).powi(2)
                + (f(&a[2]) - f(&b[2])).powi(2))
            .sqrt();
            let depth = f(&p["depth"]);
            assert!((depth - (f(&a[3]) + f(&b[3]) - d)).abs() < 1e-5, "{p}");
            assert!(
                depth > -1e-5,
                "overlapping proxies have a non-negative depth: {p}"
            );
        }
        frames += 1;
    }
    assert_eq!(frames, 8);
}

#[test]
fn interrupt_table_covers_every_contact_and_refines_with_the_budget() {
    let path = fixtures().join("scenes/rigid.json");
    let out = bdtree(&[
        "interrupt",
        path.to_str().unwrap(),
        "--json",
        "--budgets",
        "4,64,1024,1000000",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(rows.len(), 12, "three orders × four budgets");
    for order in rows.chunks(4) {
        let mut cover = u64::MAX;
        for row in order {
            assert_eq!(row["uncovered"], 0, "{row}");
            let c = row["cover_pairs"].as_u64().unwrap();
            assert!(c <= cover, "the cover never grows with the budget: {row}");
            cover = c;
        }
        let last = &order[3];
        assert_eq!(last["finished"], last["queries"], "{last}");
        assert_eq!(last["confirmed_fraction"], 1.0, "{last}");
        assert!(last["true_contacts"].as_u64().unwrap() > 0);
        assert_eq!(order[0]["confirmed_fraction"], 0.0, "4 tests reach no leaf");
    }
}

#[test]
fn collide_self_reports_a_folding_sheet_against_itself() {
    use bdtree_std::io::write_obj;
    use bdtree_std::io::{write_npy, Basis};
    let dir = scratch("self");
    let mesh = bdtree_std::shapes::procedural::sheet(2.0, 1.0, 16, 8);
    let mut basis = Basis::zeros(mesh.vertices.len(), 1);
    for (i, v) in mesh.vertices.iter().enumerate() {
        if v[0] > 0.0 {
            basis.data[3 * i] = -2.0 * v[0];
            basis.data[3 * i + 2] = 0.6 * v[0] * v[1];
        }
    }
    let mut obj = Vec::new();
    write_obj(&mesh, &mut obj).unwrap();
    std::fs::write(dir.join("curtain.obj"), obj).unwrap();
    let mut npy = Vec::new();
    write_npy(&basis, &mut npy).unwrap();
    std::fs::write(dir.join("curtain.npy"), npy).unwrap();
    let frame = |q: f64| {
        format!(
            r#"{{"bodies": [{{"rotation": [1, 0, 0, 0], "translation": [0, 0, 0], "q": [{q}]}}]}}"#
        )
    };
    let scene = format!(
        r#"{{"bodies": [{{"name": "curtain", "mesh": "curtain.obj", "modes": "curtain.npy"}}],
            "frames": [{}, {}, {}]}}"#,
        frame(0.0),
        frame(1.0),
        frame(1.2)
    );
    let path = dir.join("fold.json");
    std::fs::write(&path, scene).unwrap();
    let out = bdtree(&[
        "collide",
        path.to_str().unwrap(),
        "--self",
        "--check",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut self_pairs = 0;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        assert_eq!(v["check"]["missed"], 0, "{line}");
        for p in v["pairs"].as_array().unwrap() {
            assert_eq!(p[0], "curtain");
            assert_eq!(p[1], "curtain");
            assert!(p[2].as_u64() < p[3].as_u64(), "{p}");
            self_pairs += 1;
        }
    }
    assert!(self_pairs > 0, "the folded curtain crosses itself");
    // Without --self a single body has nothing to collide with.
    let out = bdtree(&["collide", path.to_str().unwrap(), "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().all(|l| l.contains(r#""pairs":[]"#)), "{text}");
}

#[test]
fn distance_prints_witnesses_checked_against_brute_force() {
    // `touching` has frames in contact and frames apart (4 frames × 3 body pairs).
    let path = fixtures().join("scenes/touching.json");
    let out = bdtree(&["distance", path.to_str().unwrap(), "--json", "--check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 12, "one line per frame and body pair");
    let mut apart = 0;
    for v in &lines {
        let d = v["distance"].as_f64().unwrap();
        let truth = v["check"]["brute_force"].as_f64().unwrap();
        assert!((d - truth).abs() < 1e-4, "{v}");
        if d > 0.0 {
            apart += 1;
            let (a, b) = (
                v["point_a"].as_array().unwrap(),
                v["point_b"].as_array().unwrap(),
            );
            let gap: f64 = (0..3)
                .map(|k| (b[k].as_f64().unwrap() - a[k].as_f64().unwrap()).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!((gap - d).abs() < 1e-4, "{v}");
        }
    }
    assert!(apart > 0, "some frames of `touching` have the bodies apart");
}

#[test]
fn build_then_inspect() {
    let dir = scratch("build");
    let image = dir.join("ball.bdt");
    let stdout = succeeds(&[
        "build",
        fixtures().join("meshes/demo-ball.obj").to_str().unwrap(),
        "--modes",
        fixtures().join("modes/demo-ball.npy").to_str().unwrap(),
        "-o",
        image.to_str().unwrap(),
    ]);
    assert!(stdout.contains("2559 nodes"), "{stdout}");
    let out = bdtree(&["inspect", image.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["triangles"], 1280);
    assert_eq!(v["modes"], 5);
    // A swept front's share of this tree (4 entries per node), in entries of 12 bytes (f32).
    assert_eq!(v["swept_front_share"], 4 * 2559);
    assert_eq!(v["swept_front_entry_bytes"], 12);
    let levels = v["levels"].as_array().expect("levels");
    assert_eq!(levels[0]["relative_growth"], 1.0);
    assert_eq!(v["nested"], false);
    for l in levels {
        // A box inside the sphere's bounding cube: volume ratio in (0, 6/π].
        let ratio = l["box_to_sphere_volume"].as_f64().expect("box table");
        assert!(
            ratio > 0.0 && ratio <= 6.0 / std::f64::consts::PI + 1e-9,
            "{l}"
        );
        assert!(
            l["mean_box_growth"].as_f64().unwrap()
                <= l["mean_growth"].as_f64().unwrap() * 3f64.sqrt() + 1e-9,
            "{l}"
        );
    }
    let deepest = levels.last().unwrap()["relative_growth"].as_f64().unwrap();
    assert!(
        deepest < 0.5,
        "leaves grow much less than the root: {deepest}"
    );

    inspect_rust_prints_the_images_sizes_as_constants(&image);

    // A corrupted image is refused with the file name and the reason.
    let mut bytes = std::fs::read(&image).unwrap();
    let last = bytes.len() - 1;
    bytes[last / 2] ^= 0x40;
    let bad = dir.join("corrupt.bdt");
    std::fs::write(&bad, &bytes).unwrap();
    fails_with(
        &["inspect", bad.to_str().unwrap()],
        &["corrupt.bdt", "checksum"],
    );
    std::fs::write(&bad, &bytes[..100]).unwrap();
    fails_with(
        &["inspect", bad.to_str().unwrap()],
        &["corrupt.bdt", "should be"],
    );
}

#[test]
fn bad_inputs_name_the_file_and_the_problem() {
    let dir = scratch("bad");
    let write = |name: &str, text: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let tri = write("tri.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    let missing = dir.join("nope.obj");
    fails_with(
        &["build", missing.to_str().unwrap(), "-o", "x.bdt"],
        &["nope.obj"],
    );
    let bad_obj = write("bad.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 nan\nf 1 2 3\n");
    fails_with(&["build", &bad_obj, "-o", "x.bdt"], &["bad.obj", "line 3"]);
    let out_of_range = write("range.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n");
    fails_with(
        &["build", &out_of_range, "-o", "x.bdt"],
        &["range.obj", "line 4"],
    );
    let garbage_stl = write(
        "g.stl",
        b"solid x\nfacet normal 0 0 1\n outer loop\n vertex 0 0\n",
    );
    fails_with(&["build", &garbage_stl, "-o", "x.bdt"], &["g.stl"]);
    // A basis whose rows do not match the mesh: both numbers in the message.
    let basis = bdtree_std::io::Basis::zeros(4, 2);
    let mut npy = Vec::new();
    bdtree_std::io::write_npy(&basis, &mut npy).unwrap();
    let npy_path = write("four.npy", &npy);
    fails_with(
        &["build", &tri, "--modes", &npy_path, "-o", "x.bdt"],
        &["four.npy", "12", "3 vertices"],
    );

    // Scenes.
    let scene = |name: &str, rotation: &str, q: &str| {
        let text = format!(
            r#"{{"bodies": [{{"name": "a", "mesh": "tri.obj"}}, {{"name": "b", "mesh": "tri.obj"}}],
                "frames": [{{"bodies": [{{"rotation": {rotation}, "translation": [0, 0, 0]{q}}},
                                        {{"rotation": [1, 0, 0, 0], "translation": [0, 0, 0]}}]}}]}}"#
        );
        write(name, text.as_bytes())
    };
    let ok = scene("ok.json", "[1, 0, 0, 0]", "");
    let out = bdtree(&["collide", &ok]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let not_unit = scene("tilt.json", "[1, 0.1, 0, 0]", "");
    fails_with(
        &["collide", &not_unit],
        &["tilt.json", "frames[0].bodies[0].rotation"],
    );
    let q_on_rigid = scene("rigidq.json", "[1, 0, 0, 0]", r#", "q": [0.5]"#);
    fails_with(&["collide", &q_on_rigid], &["rigidq.json", "q"]);
    let truncated = write(
        "trunc.json",
        br#"{"bodies": [{"name": "a", "mesh": "tri.obj"}"#,
    );
    fails_with(&["collide", &truncated], &["trunc.json", "line 1"]);
    fails_with(
        &["collide", dir.join("absent.json").to_str().unwrap()],
        &["absent.json"],
    );
}

#[test]
fn build_compact_and_inspect_make_and_measure_compact_images() {
    let dir = scratch("compact");
    let mesh = fixtures().join("meshes/demo-ball.obj");
    let modes = fixtures().join("modes/demo-ball.npy");
    let (mesh, modes) = (mesh.to_str().unwrap(), modes.to_str().unwrap());
    let full = dir.join("full.bdt");
    let small = dir.join("small.bdt");
    let again = dir.join("again.bdt");
    succeeds(&[
        "build",
        mesh,
        "--modes",
        modes,
        "--nested",
        "-o",
        full.to_str().unwrap(),
    ]);
    let text = succeeds(&[
        "build",
        mesh,
        "--modes",
        modes,
        "--format",
        "q8",
        "--depth",
        "5",
        "-o",
        small.to_str().unwrap(),
    ]);
    assert!(text.contains("q8 rows, bounded"), "{text}");
    // `compact` of the nested f32 image gives the same bytes as building directly.
    succeeds(&[
        "compact",
        full.to_str().unwrap(),
        "--format",
        "q8",
        "--depth",
        "5",
        "-o",
        again.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&small).unwrap();
    assert_eq!(bytes, std::fs::read(&again).unwrap());
    assert!(bytes.len() * 10 < std::fs::metadata(&full).unwrap().len() as usize);

    let out = succeeds(&[
        "inspect",
        small.to_str().unwrap(),
        "--json",
        "--reference",
        full.to_str().unwrap(),
        "--queries",
        "20",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["inspection"]["encoding"], "q8");
    assert_eq!(v["inspection"]["bounded"], true);
    assert_eq!(v["inspection"]["depth"], 5);
    let c = &v["comparison"];
    assert_eq!(c["queries"], 20);
    let (tests, reference) = (
        c["overlap_tests"].as_f64().unwrap(),
        c["reference_overlap_tests"].as_f64().unwrap(),
    );
    assert!(reference > 0.0 && tests >= reference * 0.99, "{c}");
    assert!(c["mean_growth"].as_f64().unwrap() >= c["reference_mean_growth"].as_f64().unwrap());

    // Clear errors: quantized f64, a bounded image from a plain tree, a missing reference.
    fails_with(
        &[
            "build",
            mesh,
            "--format",
            "q16",
            "--precision",
            "f64",
            "-o",
            "x.bdt",
        ],
        &["demo-ball.obj", "drop --precision f64"],
    );
    let plain = dir.join("plain.bdt");
    succeeds(&[
        "build",
        mesh,
        "--modes",
        modes,
        "-o",
        plain.to_str().unwrap(),
    ]);
    fails_with(
        &[
            "compact",
            plain.to_str().unwrap(),
            "--depth",
            "3",
            "-o",
            again.to_str().unwrap(),
        ],
        &["plain.bdt", "nested"],
    );
    fails_with(
        &[
            "inspect",
            small.to_str().unwrap(),
            "--reference",
            dir.join("missing.bdt").to_str().unwrap(),
        ],
        &["missing.bdt"],
    );
}

/// No mode limit on the host: a random 200-mode basis (local bases easily have hundreds) goes
/// through `bdtree build` and `bdtree collide`, whose exact answer `--check` compares with the
/// f64 brute force on the explicitly deformed meshes, frame by frame.
#[test]
fn a_200_mode_basis_goes_through_build_and_collide() {
    use bdtree_std::io::{write_npy, write_obj, BodyFrame, BodySpec, FrameSpec, SceneFile};
    use bdtree_std::shapes::procedural::icosphere;

    use crate::support::{rough_basis, Rng};

    const MODES: usize = 200;
    let dir = scratch("modes200");
    let mesh = icosphere(0.5, 2);
    let mut rng = Rng::new(0x200);
    // Entries in ±0.004: with q in ±0.5 a vertex moves by a few hundredths of the radius.
    let basis = rough_basis(mesh.vertices.len(), MODES, 0.004, &mut rng);
    let mut obj = Vec::new();
    write_obj(&mesh, &mut obj).unwrap();
    std::fs::write(dir.join("ball.obj"), obj).unwrap();
    let mut npy = Vec::new();
    write_npy(&basis, &mut npy).unwrap();
    std::fs::write(dir.join("ball.npy"), npy).unwrap();

    let image = dir.join("ball.bdt");
    let stdout = succeeds(&[
        "build",
        dir.join("ball.obj").to_str().unwrap(),
        "--modes",
        dir.join("ball.npy").to_str().unwrap(),
        "-o",
        image.to_str().unwrap(),
    ]);
    assert!(stdout.contains("200 modes"), "{stdout}");
    let inspected = bdtree(&["inspect", image.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&inspected.stdout).expect("json");
    assert_eq!(v["modes"], 200, "{v}");

    // Two overlapping balls, deformed differently in every frame.
    let body = |name: &str| BodySpec::mesh(name, "ball.obj", Some("ball.npy".into()));
    let frames = (0..4)
        .map(|f| FrameSpec {
            bodies: [0.0, 0.75 + 0.05 * f as f64]
                .iter()
                .map(|&x| BodyFrame {
                    rotation: rng.rotation(),
                    translation: [x, 0.02 * f as f64, 0.0],
                    q: (0..MODES).map(|_| rng.uniform(-0.5, 0.5)).collect(),
                })
                .collect(),
        })
        .collect();
    let scene = SceneFile {
        bodies: vec![body("a"), body("b")],
        frames,
    };
    let path = dir.join("balls.json");
    scene.write(&path).expect("write scene");
    let summary = collide_checked(&path, None, "the balls");
    let pairs: usize = summary
        .trim_start_matches(CHECK_SUMMARY)
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("pair count");
    assert!(pairs > 0, "the balls intersect: {summary}");
}

/// `bdtree inspect --rust`: one `pub const NAME: TYPE = VALUE;` per size, each preceded by its
/// doc line, the values those of the parsed image, the storage constants through the kernel's
/// `const fn` helpers (which `bdtree_core` exports under those names); a bad `--name` refused.
fn inspect_rust_prints_the_images_sizes_as_constants(image: &Path) {
    use bdtree_core::{mode_storage, query_stack_capacity};
    let path = image.to_str().unwrap();
    let text = succeeds(&["inspect", path, "--rust"]);
    let bytes = std::fs::read(image).unwrap();
    let buf = bdtree_std::io::ImageBuf::from_bytes(&bytes);
    let parsed = buf.parse::<f32>().expect("image");
    let tree = &parsed.tree;
    let mut constants = std::collections::BTreeMap::new();
    let mut previous = "";
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("pub const ") {
            assert!(previous.starts_with("/// "), "undocumented: {line}");
            let (name, rest) = rest.split_once(": ").expect(line);
            let (ty, value) = rest.split_once(" = ").expect(line);
            let value = value.strip_suffix(';').expect(line);
            assert!(
                name.starts_with("BALL_")
                    && name.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "{line}"
            );
            assert!(ty == "usize" || ty == "u32", "{line}");
            constants.insert(name.to_string(), value.to_string());
        } else {
            assert!(
                line.starts_with("//"),
                "neither a constant nor a comment: {line}"
            );
        }
        previous = line;
    }
    let number = |name: &str| -> usize {
        constants[name]
            .parse()
            .unwrap_or_else(|_| panic!("{name}: {constants:?}"))
    };
    assert_eq!(number("BALL_NODES"), tree.node_count());
    assert_eq!(number("BALL_DEPTH"), tree.depth() as usize);
    assert_eq!(number("BALL_MODES"), tree.modes());
    assert_eq!(number("BALL_MODES"), 5);
    assert_eq!(number("BALL_VERTICES"), parsed.model.vertex_count());
    assert_eq!(number("BALL_TRIANGLES"), parsed.model.triangles().len());
    assert_eq!(number("BALL_IMAGE_BYTES"), bytes.len());
    assert_eq!(
        constants["BALL_MODE_STORAGE"],
        "bdtree_core::mode_storage(BALL_MODES)"
    );
    assert_eq!(
        constants["BALL_STACK"],
        "bdtree_core::query_stack_capacity(BALL_DEPTH, BALL_DEPTH)"
    );
    // What those expressions are, for this image.
    assert!(mode_storage(5) >= 5 && query_stack_capacity(tree.depth(), tree.depth()) > 0);
    assert_eq!(constants.len(), 8, "{constants:?}");

    let named = bdtree(&["inspect", path, "--rust", "--name", "TOOL_2"]);
    assert!(String::from_utf8_lossy(&named.stdout).contains("pub const TOOL_2_NODES: usize"));
    fails_with(
        &["inspect", path, "--rust", "--name", "tool"],
        &["--name \"tool\"", "try \"TOOL\""],
    );
}

/// Writes `mesh` (and `basis`) beside a scene of one body posed in `frames` (rotation,
/// translation, q), returns the scene's path.
fn self_scene(
    dir: &Path,
    name: &str,
    mesh: &bdtree_std::io::Mesh,
    basis: Option<&bdtree_std::io::Basis>,
    frames: &[([f64; 4], [f64; 3], Vec<f64>)],
) -> std::path::PathBuf {
    use bdtree_std::io::{write_npy, write_obj};
    let mut obj = Vec::new();
    write_obj(mesh, &mut obj).unwrap();
    std::fs::write(dir.join(format!("{name}.obj")), obj).unwrap();
    let modes = match basis {
        Some(basis) => {
            let mut npy = Vec::new();
            write_npy(basis, &mut npy).unwrap();
            std::fs::write(dir.join(format!("{name}.npy")), npy).unwrap();
            format!(r#", "modes": "{name}.npy""#)
        }
        None => String::new(),
    };
    let frames: Vec<String> = frames
        .iter()
        .map(|(r, t, q)| {
            let q: Vec<String> = q.iter().map(|x| format!("{x:?}")).collect();
            format!(
                r#"{{"bodies": [{{"rotation": {r:?}, "translation": {t:?}, "q": [{}]}}]}}"#,
                q.join(", ")
            )
        })
        .collect();
    let scene = format!(
        r#"{{"bodies": [{{"name": "{name}", "mesh": "{name}.obj"{modes}}}], "frames": [{}]}}"#,
        frames.join(", ")
    );
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, scene).unwrap();
    path
}

/// `bdtree collide --self --check` in f32 and f64: 0 missed on every frame; returns the
/// self pairs reported over all frames of the f32 run.
fn self_check(scene: &Path) -> usize {
    let mut reported = 0;
    for precision in ["f32", "f64"] {
        let out = bdtree(&[
            "collide",
            scene.to_str().unwrap(),
            "--self",
            "--check",
            "--json",
            "--precision",
            precision,
        ]);
        assert!(
            out.status.success(),
            "{}: {}",
            scene.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            assert_eq!(
                v["check"]["missed"],
                0,
                "{} {precision}: {line}",
                scene.display()
            );
            if precision == "f32" {
                reported += v["pairs"].as_array().map_or(0, Vec::len);
            }
        }
    }
    reported
}

#[test]
fn collide_self_misses_nothing_on_shapes_that_break_the_shortcuts() {
    use crate::support::families::{
        c_strip, family_basis, family_mesh, placed, BasisKind, FAMILIES,
    };
    use crate::support::Rng;
    let dir = scratch("self-families");
    let mut rng = Rng::new(0x58);
    let turn = [0.9238795325112867, 0.0, 0.3826834323650898, 0.0];
    for (k, family) in FAMILIES.into_iter().enumerate() {
        // Rigid (no modes), at the origin; then with a clamped basis, in millimetres, modelled
        // and posed far away, turned.
        let mesh = family_mesh(family, &mut rng);
        let name = format!("rigid{k}");
        let frames = [
            ([1.0, 0.0, 0.0, 0.0], [0.0; 3], vec![]),
            (turn, [300.0, -40.0, 7.0], vec![]),
        ];
        let scene = self_scene(&dir, &name, &mesh, None, &frames);
        let reported = self_check(&scene);
        if family != crate::support::families::Family::Soup {
            assert!(
                reported > 0,
                "{family:?}: touches or crosses itself at rest"
            );
        }
        let basis = family_basis(BasisKind::Clamped, &mesh, 2, 0.01, &mut rng);
        let (mesh, basis) = placed(mesh, basis, 1e-3, [1.0, -0.5, 0.25]);
        let frames = [
            ([1.0, 0.0, 0.0, 0.0], [0.0; 3], vec![0.0, 0.0]),
            (turn, [0.3, 0.04, -0.007], vec![0.2, -0.1]),
        ];
        let scene = self_scene(&dir, &format!("clamped{k}"), &mesh, basis.as_ref(), &frames);
        self_check(&scene);
    }
    // The C-shaped strip whose f64 source crosses itself by less than its f32 rounding: near
    // the origin, in millimetres and 1,000 units away.
    for (k, (scale, offset)) in [
        (1.0, [0.0; 3]),
        (1e-3, [0.0; 3]),
        (1.0, [1000.0, -600.0, 250.0]),
    ]
    .into_iter()
    .enumerate()
    {
        let (mesh, basis) = c_strip(scale, offset).expect("a strip");
        let frames = [
            ([1.0, 0.0, 0.0, 0.0], [0.0; 3], vec![0.0]),
            (turn, [5.0, 0.0, 0.0], vec![0.1]),
        ];
        let scene = self_scene(&dir, &format!("strip{k}"), &mesh, Some(&basis), &frames);
        assert!(self_check(&scene) > 0, "the strip crosses itself");
    }
}

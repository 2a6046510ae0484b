//! Scene files: round trips, and every refusal naming the file and the JSON place.

use super::*;
use core::sync::atomic::{AtomicUsize, Ordering};

use crate::io::npy::write_npy;
use crate::io::obj::write_obj;

/// A fresh folder under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("bdtree-scene-{}-{name}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, contents: &[u8]) -> PathBuf {
        let p = self.join(name);
        std::fs::write(&p, contents).expect("write temp file");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tetrahedron() -> Mesh {
    Mesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ],
        triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
    }
}

fn obj_bytes(mesh: &Mesh) -> Vec<u8> {
    let mut out = Vec::new();
    write_obj(mesh, &mut out).expect("write obj");
    out
}

fn npy_bytes(basis: &Basis) -> Vec<u8> {
    let mut out = Vec::new();
    write_npy(basis, &mut out).expect("write npy");
    out
}

fn two_mode_basis(vertices: usize) -> Basis {
    let mut b = Basis::zeros(vertices, 2);
    for (i, x) in b.data.iter_mut().enumerate() {
        *x = 0.01 * i as f64;
    }
    b
}

/// A folder with `a.obj` + `a.modes.npy` (2 modes) and `b.obj` (rigid).
fn fixture(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    dir.write("a.obj", &obj_bytes(&tetrahedron()));
    dir.write("a.modes.npy", &npy_bytes(&two_mode_basis(4)));
    dir.write("b.obj", &obj_bytes(&tetrahedron()));
    dir
}

fn good_scene() -> SceneFile {
    let half = core::f64::consts::FRAC_1_SQRT_2;
    SceneFile {
        bodies: vec![
            BodySpec::mesh("a", "a.obj", Some("a.modes.npy".into())),
            BodySpec::mesh("b", "b.obj", None),
        ],
        frames: vec![
            FrameSpec {
                bodies: vec![
                    BodyFrame {
                        rotation: [1.0, 0.0, 0.0, 0.0],
                        translation: [0.0; 3],
                        q: vec![0.0, 0.0],
                    },
                    BodyFrame {
                        rotation: [1.0, 0.0, 0.0, 0.0],
                        translation: [2.0, 0.0, 0.0],
                        q: vec![],
                    },
                ],
            },
            FrameSpec {
                bodies: vec![
                    BodyFrame {
                        rotation: [half, 0.0, 0.0, half],
                        translation: [0.1, 0.2, 0.3],
                        q: vec![0.5, -0.25],
                    },
                    BodyFrame {
                        rotation: [0.5, 0.5, 0.5, 0.5],
                        translation: [1.0, 1e-17, -3.5],
                        q: vec![],
                    },
                ],
            },
        ],
    }
}

/// Writes `text` as `scene.json` in `dir` and loads it, expecting an error.
fn load_error(dir: &TempDir, text: &str) -> String {
    let path = dir.write("scene.json", text.as_bytes());
    match Scene::load(&path) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_contains(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "message {message:?} lacks {part:?}");
    }
}

fn scene_json(scene: &SceneFile) -> String {
    serde_json::to_string_pretty(scene).expect("serialize")
}

#[test]
fn good_scene_round_trips() {
    let dir = fixture("roundtrip");
    let file = good_scene();
    let path = dir.join("scene.json");
    file.write(&path).expect("write scene");
    let text = std::fs::read_to_string(&path).expect("read back");
    assert_eq!(SceneFile::parse(&text, &path).expect("parse"), file);
    // The derived deserializer reads the same files.
    assert_eq!(
        serde_json::from_str::<SceneFile>(&text).expect("serde"),
        file
    );

    let scene = Scene::load(&path).expect("load");
    assert_eq!(scene.path, path);
    assert_eq!(scene.bodies.len(), 2);
    assert_eq!(scene.bodies[0].name, "a");
    assert_eq!(scene.bodies[0].mesh_path, dir.join("a.obj"));
    assert_eq!(scene.bodies[0].mesh, tetrahedron());
    assert_eq!(scene.bodies[0].basis, Some(two_mode_basis(4)));
    assert_eq!(scene.bodies[1].basis, None);
    assert_eq!(scene.frames.len(), 2);
    for (f, frame) in file.frames.iter().enumerate() {
        for (b, state) in frame.bodies.iter().enumerate() {
            let (pose, q) = &scene.frames[f][b];
            assert_eq!(pose.rotation, state.rotation);
            assert_eq!(pose.translation, state.translation);
            assert_eq!(q, &state.q);
        }
    }
    let world = scene.world_vertices(0, 1).expect("in range");
    assert_eq!(world[1], [3.0, 0.0, 0.0]);
    assert!(scene.world_vertices(2, 0).is_none());
    assert!(scene.world_vertices(0, 2).is_none());
}

/// A state is read as written: each number the double nearest its decimal text (the JSON
/// reader's fast path is one unit in the last place off for some literals, and a query answers
/// for the state it was given).
#[test]
fn numbers_are_read_to_the_nearest_double() {
    // Literals the fast path reads one ulp off.
    let literals = [
        "0.10990018830244343",
        "0.36633396110814476",
        "0.10623419160001553",
    ];
    let text = format!(
        r#"{{"bodies": [{{"name": "b", "mesh": "b.obj"}}],
            "frames": [{{"bodies": [{{"rotation": [1, 0, 0, 0],
                                     "translation": [{}, {}, {}]}}]}}]}}"#,
        literals[0], literals[1], literals[2]
    );
    let file = SceneFile::parse(&text, Path::new("scene.json")).expect("parse");
    let got = file.frames[0].bodies[0].translation;
    for (g, l) in got.iter().zip(literals) {
        let want: f64 = l.parse().expect("literal");
        assert_eq!(g.to_bits(), want.to_bits(), "{l}");
    }
}

#[test]
fn optional_fields_may_be_absent_or_null() {
    let dir = fixture("optional");
    let text = r#"{"bodies": [{"name": "b", "mesh": "b.obj", "modes": null}],
                   "frames": [{"bodies": [{"rotation": [1, 0, 0, 0], "translation": [0, 0, 0]}]},
                              {"bodies": [{"rotation": [0, 1, 0, 0], "translation": [1, 2, 3], "q": []}]}]}"#;
    let path = dir.write("scene.json", text.as_bytes());
    let scene = Scene::load(&path).expect("load");
    assert_eq!(scene.frames[1][0].0.rotation, [0.0, 1.0, 0.0, 0.0]);
    assert!(scene.frames.iter().all(|f| f[0].1.is_empty()));
}

#[test]
fn syntax_error_has_line_and_column() {
    let dir = fixture("syntax");
    let message = load_error(&dir, "{\n  \"bodies\": [\n    {\"name\": \"a\",, }\n");
    assert_contains(&message, &["scene.json", "line 3, column"]);
    let nan = scene_json(&good_scene()).replacen("0.1", "NaN", 1);
    assert_contains(&load_error(&dir, &nan), &["scene.json", "line", "column"]);
}

#[test]
fn missing_field_is_named() {
    let dir = fixture("missing");
    let mut v: Value = serde_json::from_str(&scene_json(&good_scene())).expect("json");
    v["bodies"][1]
        .as_object_mut()
        .expect("object")
        .remove("mesh");
    assert_contains(
        &load_error(&dir, &v.to_string()),
        &["scene.json", "bodies[1]", "missing field \"mesh\""],
    );
    let mut v: Value = serde_json::from_str(&scene_json(&good_scene())).expect("json");
    v["frames"][1]["bodies"][0]
        .as_object_mut()
        .expect("object")
        .remove("translation");
    assert_contains(
        &load_error(&dir, &v.to_string()),
        &["frames[1].bodies[0]", "missing field \"translation\""],
    );
    assert_contains(
        &load_error(&dir, r#"{"bodies": []}"#),
        &["scene.json", "missing field \"frames\""],
    );
}

#[test]
fn wrong_types_and_unknown_fields_are_named() {
    let dir = fixture("types");
    let mut v: Value = serde_json::from_str(&scene_json(&good_scene())).expect("json");
    v["frames"][0]["bodies"][1]["rotation"] = Value::from("identity");
    assert_contains(
        &load_error(&dir, &v.to_string()),
        &[
            "frames[0].bodies[1].rotation",
            "expected an array, found a string",
        ],
    );
    let mut v: Value = serde_json::from_str(&scene_json(&good_scene())).expect("json");
    v["frames"][0]["bodies"][0]["translation"] = serde_json::json!([1, 2]);
    assert_contains(
        &load_error(&dir, &v.to_string()),
        &[
            "frames[0].bodies[0].translation",
            "expected 3 numbers",
            "found 2",
        ],
    );
    let mut v: Value = serde_json::from_str(&scene_json(&good_scene())).expect("json");
    v["frames"][1]["bodies"][0]["q"] = serde_json::json!([1, "x"]);
    assert_contains(
        &load_error(&dir, &v.to_string()),
        &["frames[1].bodies[0].q[1]", "expected a number"],
    );
    let mut v: Value = serde_json::from_str(&scene_json(&good_scene())).expect("json");
    v["frames"][1]["bodies"][0]["translaton"] = serde_json::json!([0, 0, 0]);
    assert_contains(
        &load_error(&dir, &v.to_string()),
        &["frames[1].bodies[0]", "unknown field \"translaton\""],
    );
}

#[test]
fn empty_body_list_is_refused() {
    let dir = fixture("empty");
    assert_contains(
        &load_error(&dir, r#"{"bodies": [], "frames": []}"#),
        &["scene.json", "bodies", "no bodies"],
    );
}

#[test]
fn duplicate_and_empty_names_are_refused() {
    let dir = fixture("names");
    let mut scene = good_scene();
    scene.bodies[1].name = "a".into();
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &["scene.json", "bodies[1].name", "duplicate body name \"a\""],
    );
    scene.bodies[1].name = String::new();
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &["scene.json", "bodies[1].name", "empty"],
    );
}

#[test]
fn frame_body_count_must_match() {
    let dir = fixture("count");
    let mut scene = good_scene();
    scene.frames[1].bodies.pop();
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "frames[1].bodies",
            "the frame has 1 body but the scene has 2 bodies",
        ],
    );
}

#[test]
fn non_finite_numbers_are_refused() {
    let dir = fixture("finite");
    // JSON cannot spell infinity; an overflowing literal is a syntax error.
    let text = scene_json(&good_scene()).replacen("-3.5", "-1e999", 1);
    assert_contains(
        &load_error(&dir, &text),
        &["scene.json", "line", "out of range"],
    );
    // A SceneFile built in code is checked before it is written.
    let mut scene = good_scene();
    scene.frames[1].bodies[0].q[1] = f64::NAN;
    let path = dir.join("scene.json");
    let message = scene.validate(&path).expect_err("NaN refused").to_string();
    assert_contains(
        &message,
        &[
            "scene.json",
            "frames[1].bodies[0].q[1]",
            "NaN is not a finite number",
        ],
    );
    let err = scene.write(&path).expect_err("write refuses NaN");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
}

#[test]
fn non_unit_quaternion_reports_its_norm() {
    let dir = fixture("quaternion");
    let mut scene = good_scene();
    scene.frames[1].bodies[1].rotation = [1.0, 1.0, 0.0, 0.0];
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "frames[1].bodies[1].rotation",
            "norm 1.414213562373095",
            "unit quaternion",
        ],
    );
    // Within the tolerance is accepted as is, not normalised.
    scene.frames[1].bodies[1].rotation = [1.0 + 5e-7, 0.0, 0.0, 0.0];
    let path = dir.write("scene.json", scene_json(&scene).as_bytes());
    let loaded = Scene::load(&path).expect("within tolerance");
    assert_eq!(loaded.frames[1][1].0.rotation[0], 1.0 + 5e-7);
}

#[test]
fn q_length_must_match_the_mode_count() {
    let dir = fixture("qlen");
    let mut scene = good_scene();
    scene.frames[1].bodies[0].q.push(1.0);
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "frames[1].bodies[0].q",
            "body \"a\" has 2 modes but q has 3 entries",
        ],
    );
    let mut scene = good_scene();
    scene.frames[0].bodies[1].q.push(1.0);
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "frames[0].bodies[1].q",
            "body \"b\" is rigid",
            "1 entry",
        ],
    );
}

#[test]
fn missing_mesh_and_basis_files_are_named() {
    let dir = fixture("missingfiles");
    let mut scene = good_scene();
    scene.bodies[1] = BodySpec::mesh("b", "nowhere.obj", None);
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "bodies[1].mesh",
            "body \"b\"",
            "nowhere.obj",
            "cannot read",
        ],
    );
    let mut scene = good_scene();
    scene.bodies[0] = BodySpec::mesh("a", "a.obj", Some("nowhere.npy".into()));
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "bodies[0].modes",
            "body \"a\"",
            "nowhere.npy",
            "cannot read",
        ],
    );
}

#[test]
fn malformed_mesh_and_basis_files_are_named() {
    let dir = fixture("malformed");
    dir.write("bad.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
    dir.write("bad.npy", b"not a numpy file at all");
    let mut scene = good_scene();
    scene.bodies[1] = BodySpec::mesh("b", "bad.obj", None);
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "bodies[1].mesh",
            "body \"b\"",
            "bad.obj",
            "line 4",
        ],
    );
    let mut scene = good_scene();
    scene.bodies[0] = BodySpec::mesh("a", "a.obj", Some("bad.npy".into()));
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "bodies[0].modes",
            "body \"a\"",
            "bad.npy",
            "magic",
        ],
    );
}

#[test]
fn basis_vertex_count_must_match_the_mesh() {
    let dir = fixture("vertexcount");
    dir.write("short.npy", &npy_bytes(&two_mode_basis(3)));
    let mut scene = good_scene();
    scene.bodies[0] = BodySpec::mesh("a", "a.obj", Some("short.npy".into()));
    assert_contains(
        &load_error(&dir, &scene_json(&scene)),
        &[
            "scene.json",
            "bodies[0].modes",
            "body \"a\"",
            "short.npy",
            "3 vertices",
            "4 vertices",
        ],
    );
}

#[test]
fn missing_scene_file_is_named() {
    let dir = TempDir::new("nofile");
    let message = Scene::load(&dir.join("absent.json"))
        .expect_err("no file")
        .to_string();
    assert_contains(&message, &["absent.json", "cannot read"]);
}

/// `good_scene` with four primitive bodies after the meshes: a floor, a tool, a link, a table.
fn primitive_scene() -> SceneFile {
    let mut file = good_scene();
    file.bodies.extend([
        BodySpec::primitive(
            "floor",
            PrimitiveShape::Plane {
                normal: [0.0, 0.0, 1.0],
                offset: 0.0,
            },
        ),
        BodySpec::primitive("tool", PrimitiveShape::Sphere(0.02)),
        BodySpec::primitive(
            "link",
            PrimitiveShape::Capsule {
                radius: 0.05,
                half_length: 0.2,
            },
        ),
        BodySpec::primitive(
            "table",
            PrimitiveShape::Box {
                half_extents: [0.5, 0.3, 0.02],
            },
        ),
    ]);
    for (f, frame) in file.frames.iter_mut().enumerate() {
        for k in 0..4 {
            frame.bodies.push(BodyFrame {
                rotation: [1.0, 0.0, 0.0, 0.0],
                translation: [f as f64, k as f64, 0.5],
                q: vec![],
            });
        }
    }
    file
}

#[test]
fn primitive_bodies_are_read_as_written() {
    let dir = fixture("primitives");
    let file = primitive_scene();
    let path = dir.join("scene.json");
    file.write(&path).expect("write scene");
    let text = std::fs::read_to_string(&path).expect("read back");
    // Written exactly in the documented form.
    assert!(text.contains("\"sphere\": 0.02"), "{text}");
    assert!(text.contains("\"half_length\": 0.2"), "{text}");
    assert_eq!(SceneFile::parse(&text, &path).expect("parse"), file);
    assert_eq!(
        serde_json::from_str::<SceneFile>(&text).expect("serde"),
        file
    );
    let scene = Scene::load(&path).expect("load");
    assert_eq!(scene.bodies.len(), 2);
    assert_eq!(scene.frames[1].len(), 2, "frames hold the mesh bodies");
    assert_eq!(scene.primitives.len(), 4);
    let names: Vec<&str> = (0..6).map(|i| scene.name(i)).collect();
    assert_eq!(names, ["a", "b", "floor", "tool", "link", "table"]);
    let tool = &scene.primitives[1];
    assert_eq!(tool.place, 3);
    assert_eq!(tool.shape, PrimitiveShape::Sphere(0.02));
    assert_eq!(tool.poses[1].translation, [1.0, 1.0, 0.5]);
    assert_contains(
        &scene
            .without_primitives("`bdtree distance`")
            .expect_err("refused")
            .to_string(),
        &[
            "scene.json",
            "bodies[2]",
            "\"floor\" is a plane primitive",
            "`bdtree distance`",
        ],
    );
    // Primitives may come first: the mesh bodies' frames still line up.
    let mut first = file.clone();
    first.bodies.rotate_right(4);
    for frame in &mut first.frames {
        frame.bodies.rotate_right(4);
    }
    first.write(&path).expect("write scene");
    let scene = Scene::load(&path).expect("load");
    assert_eq!(scene.bodies[0].name, "a");
    assert_eq!(scene.frames[0][0].1, vec![0.0, 0.0]);
    assert_eq!(scene.primitives[0].place, 0);
}

/// Replaces body `b`'s entry of the primitive scene's text with `body`.
fn with_body(b: usize, body: &str) -> String {
    let mut value: Value = serde_json::to_value(primitive_scene()).expect("json");
    value["bodies"][b] = serde_json::from_str(body).expect("body json");
    value.to_string()
}

#[test]
fn bad_primitives_are_refused_with_their_place() {
    let dir = fixture("bad-primitives");
    let cases: &[(usize, &str, &[&str])] = &[
        (
            3,
            r#"{"name": "tool", "sphere": -0.5}"#,
            &["bodies[3].sphere", "\"tool\"", "radius -0.5 is negative"],
        ),
        (
            3,
            r#"{"name": "tool", "sphere": [0.5]}"#,
            &["bodies[3].sphere", "expected the sphere's radius"],
        ),
        (
            2,
            r#"{"name": "floor", "plane": {"normal": [0, 0, 0], "offset": 1}}"#,
            &["bodies[2].plane.normal", "\"floor\"", "normal is zero"],
        ),
        (
            2,
            r#"{"name": "floor", "plane": {"normal": [0, 1], "offset": 1}}"#,
            &["bodies[2].plane.normal", "expected 3 numbers"],
        ),
        (
            2,
            r#"{"name": "floor", "plane": {"normal": [0, 0, 1]}}"#,
            &["bodies[2].plane", "missing field \"offset\""],
        ),
        (
            2,
            r#"{"name": "floor", "mesh": "b.obj", "plane": {"normal": [0, 0, 1], "offset": 0}}"#,
            &["bodies[2]", "\"floor\" has both mesh and plane"],
        ),
        (
            2,
            r#"{"name": "floor", "sphere": 1, "box": {"half_extents": [1, 1, 1]}}"#,
            &["bodies[2]", "both sphere and box"],
        ),
        (
            2,
            r#"{"name": "floor"}"#,
            &[
                "bodies[2]",
                "missing field \"mesh\" (or a primitive: plane, sphere, capsule, box)",
            ],
        ),
        (
            2,
            r#"{"name": "floor", "cylinder": 1}"#,
            &["bodies[2]", "unknown field \"cylinder\""],
        ),
        (
            4,
            r#"{"name": "link", "capsule": {"radius": 0.1, "length": 0.2}}"#,
            &["bodies[4].capsule", "unknown field \"length\""],
        ),
        (
            4,
            r#"{"name": "link", "capsule": {"radius": 0.1, "half_length": -0.2}}"#,
            &[
                "bodies[4].capsule.half_length",
                "half length -0.2 is negative",
            ],
        ),
        (
            4,
            r#"{"name": "link", "capsule": {"radius": 0.1, "half_length": 0.2}, "modes": "a.modes.npy"}"#,
            &[
                "bodies[4].modes",
                "\"link\" is a capsule primitive: it has no modes",
            ],
        ),
        (
            5,
            r#"{"name": "table", "box": {"half_extents": [1, -2, 1]}}"#,
            &[
                "bodies[5].box.half_extents[1]",
                "half extent -2 is negative",
            ],
        ),
        (
            5,
            r#"{"name": "table", "box": 0.5}"#,
            &["bodies[5].box", "expected an object, found a number"],
        ),
    ];
    for (b, body, parts) in cases {
        let message = load_error(&dir, &with_body(*b, body));
        assert_contains(&message, &[&["scene.json"][..], parts].concat());
    }
    // A primitive is rigid: q in a frame is refused.
    let mut file = primitive_scene();
    file.frames[1].bodies[4].q = vec![0.1];
    assert_contains(
        &load_error(&dir, &scene_json(&file)),
        &[
            "scene.json",
            "frames[1].bodies[4].q",
            "\"link\" is rigid (a capsule primitive)",
        ],
    );
    // Non-finite sizes cannot be written in JSON, but a program can build them.
    let mut file = primitive_scene();
    file.bodies[5] = BodySpec::primitive(
        "table",
        PrimitiveShape::Box {
            half_extents: [1.0, f64::NAN, 1.0],
        },
    );
    let message = file
        .validate(Path::new("made.json"))
        .expect_err("refused")
        .to_string();
    assert_contains(
        &message,
        &[
            "made.json",
            "bodies[5].box.half_extents[1]",
            "not a finite number",
        ],
    );
}

#[test]
fn a_body_tree_is_read_and_a_bad_one_refused_with_its_place() {
    let dir = fixture("tree");
    let mut scene = good_scene();
    if let BodyShape::Mesh { tree, .. } = &mut scene.bodies[1].shape {
        *tree = Some("medial".into());
    }
    let text = scene_json(&scene);
    assert!(text.contains("\"tree\": \"medial\""), "{text}");
    let path = dir.write("scene.json", text.as_bytes());
    let loaded = Scene::load(&path).expect("load");
    assert_eq!(loaded.bodies[0].tree, None);
    assert_eq!(loaded.bodies[1].tree.as_deref(), Some("medial"));
    assert_eq!(SceneFile::parse(&text, &path).expect("parse"), scene);

    let cases: &[(&str, &[&str])] = &[
        (
            "\"tree\": \"medal\"",
            &[
                "scene.json",
                "bodies[1].tree",
                "\"b\"",
                "unknown tree \"medal\"",
                "\"median\" or \"medial\"",
            ],
        ),
        (
            "\"tree\": 1",
            &["bodies[1].tree", "expected a string, found a number"],
        ),
    ];
    for (field, parts) in cases {
        let text = text.replace("\"tree\": \"medial\"", field);
        assert_contains(&load_error(&dir, &text), parts);
    }
    let text = with_body(3, r#"{"name": "tool", "sphere": 0.5, "tree": "medial"}"#);
    assert_contains(
        &load_error(&dir, &text),
        &[
            "bodies[3].tree",
            "\"tool\" is a sphere primitive: it has no tree",
        ],
    );
}

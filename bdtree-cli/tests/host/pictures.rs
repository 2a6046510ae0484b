//! Pictures (`bdtree_cli::view::render`, `bdtree render`) and exports (`bdtree_std::export`,
//! `bdtree export`): real files that decode, show what they claim, and clear errors.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::support::Scratch;

use bdtree_cli::view::render::{
    self, snapshot, tightness_series, ContactOptions, SnapshotBody, SphereOptions, View,
};
use bdtree_std::build::{build, BuildOptions, TreeKind};
use bdtree_std::export::write_frame;
use bdtree_std::io::{load_mesh, load_npy, ImageBuf, Scene};
use bdtree_std::runner::frame::{frame_geometry, GeometryOptions};
use bdtree_std::runner::inspect::inspect;

use crate::binary::{bdtree, fails_with, fixtures};

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("pictures-{name}"))
}

/// The demo ball's tree image (f32, as `bdtree build` makes it) in `dir`.
fn ball_image(dir: &Path) -> PathBuf {
    let m = load_mesh(&fixtures().join("meshes/demo-ball.obj")).expect("mesh");
    let b = load_npy(&fixtures().join("modes/demo-ball.npy")).expect("basis");
    let (image, _) = build(&m, Some(&b), BuildOptions::default(), &mut |_| {}).expect("build");
    let path = dir.join("ball.bdt");
    std::fs::write(&path, image.as_bytes()).expect("write image");
    path
}

/// Decodes a PNG: (width, height, number of distinct RGB colours).
fn decode_png(path: &Path) -> (u32, u32, usize) {
    let file = std::fs::File::open(path).expect("open png");
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("png data");
    let channels = info.color_type.samples();
    assert!(
        channels >= 3,
        "colour PNG expected, got {:?}",
        info.color_type
    );
    let colors: HashSet<[u8; 3]> = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, colors.len())
}

#[test]
fn spheres_png_has_the_requested_size_and_is_not_blank() {
    let dir = scratch("spheres-png");
    let image = ball_image(&dir);
    let out = dir.join("spheres.png");
    let options = SphereOptions {
        level: 3,
        size: (640, 480),
        ..SphereOptions::default()
    };
    let summary = render::spheres(&image, &options, &out).expect("render");
    let (w, h, colors) = decode_png(&out);
    assert_eq!((w, h), (640, 480));
    assert!(colors > 20, "only {colors} colours: blank picture?");
    // The default q moves the mesh, and every sphere grows (or keeps its radius).
    assert!(summary.q.iter().all(|&x| x > 0.0));
    assert!(
        summary.growth.iter().all(|&g| g >= 1.0),
        "{:?}",
        summary.growth
    );
    assert!(summary.growth.iter().any(|&g| g > 1.0));
}

#[test]
fn spheres_svg_has_one_circle_per_sphere_of_the_level() {
    let dir = scratch("spheres-svg");
    let image = ball_image(&dir);
    let buf = ImageBuf::read(&image).expect("read");
    let parsed = buf.parse::<f32>().expect("parse");
    for level in [0, 2, 5] {
        let out = dir.join(format!("level{level}.svg"));
        let options = SphereOptions {
            level,
            q: Some(vec![0.01, -0.02, 0.03, 0.0, 0.01]),
            view: View::Z,
            ..SphereOptions::default()
        };
        let summary = render::spheres(&image, &options, &out).expect("render");
        let cut = bdtree_std::host::level_cut(&parsed.tree, level);
        let at_level = (0..parsed.tree.node_count())
            .filter(|&k| parsed.tree.node_depth(k) == Some(level))
            .count();
        // The demo ball's tree is complete down to level 5: the cut is the level.
        assert_eq!(cut.len(), at_level);
        assert_eq!(summary.nodes, cut);
        let svg = std::fs::read_to_string(&out).expect("svg");
        assert_eq!(svg.matches("<circle").count(), cut.len(), "level {level}");
        assert!(svg.contains(&format!("spheres at level {level}")));
        assert!(svg.contains("0.0100, -0.0200, 0.0300"), "q in the caption");
    }
}

#[test]
fn two_trees_side_by_side_have_both_levels_circles() {
    let dir = scratch("spheres-beside");
    let chair = bdtree_std::shapes::chair_mesh();
    let mut paths = Vec::new();
    for tree in [TreeKind::Median, TreeKind::Medial] {
        let options = BuildOptions {
            tree,
            ..BuildOptions::default()
        };
        let (image, _) = build(&chair, None, options, &mut |_| {}).expect("build");
        let path = dir.join(format!("chair-{}.bdt", tree.name()));
        std::fs::write(&path, image.as_bytes()).expect("write image");
        paths.push(path);
    }
    let out = dir.join("beside.svg");
    let options = SphereOptions {
        level: 4,
        ..SphereOptions::default()
    };
    let summaries =
        render::spheres_beside(&[&paths[0], &paths[1]], &options, &out).expect("render");
    assert_eq!(summaries.len(), 2);
    assert_eq!(summaries[0].nodes.len(), 16);
    assert_eq!(summaries[1].nodes.len(), 16);
    let svg = std::fs::read_to_string(&out).expect("svg");
    assert_eq!(svg.matches("<circle").count(), 32);
    assert!(svg.contains("chair-median.bdt | chair-medial.bdt"));
    // Through the command line, as a PNG.
    let png = dir.join("beside.png");
    let out = bdtree(&[
        "render",
        "spheres",
        paths[0].to_str().unwrap(),
        "--beside",
        paths[1].to_str().unwrap(),
        "--level",
        "3",
        "-o",
        png.to_str().unwrap(),
        "--size",
        "800x400",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("8 spheres of") && stdout.contains("chair-medial.bdt"),
        "{stdout}"
    );
    assert_eq!(decode_png(&png).0, 800);
}

#[test]
fn tightness_curve_has_one_point_per_level() {
    let dir = scratch("tightness");
    let image = ball_image(&dir);
    let buf = ImageBuf::read(&image).expect("read");
    let inspection = inspect(&buf.parse::<f32>().expect("parse"));
    let levels = inspection.levels.len();
    let [radius, growth] = tightness_series(&inspection);
    assert_eq!(radius.len(), levels);
    assert_eq!(growth.len(), levels);
    assert_eq!(radius[0], (0.0, 1.0));
    let svg = dir.join("tightness.svg");
    render::tightness_of(&image, (800, 600), &svg).expect("svg");
    let text = std::fs::read_to_string(&svg).expect("read svg");
    assert_eq!(
        text.matches("<circle").count(),
        2 * levels,
        "one marker per level and curve"
    );
    let png = dir.join("tightness.png");
    render::tightness_of(&image, (800, 600), &png).expect("png");
    let (w, h, colors) = decode_png(&png);
    assert_eq!((w, h), (800, 600));
    assert!(colors > 10);
}

#[test]
fn contacts_picture_highlights_the_contact_triangles() {
    let dir = scratch("contacts");
    let scene = fixtures().join("scenes/demo.json");
    let out = dir.join("contacts.png");
    let options = ContactOptions {
        frame: 8,
        proxies: Some(8),
        size: (500, 400),
        ..ContactOptions::default()
    };
    let summary = render::contacts(&scene, &options, &out).expect("render");
    let expected = std::fs::read_to_string(fixtures().join("expected/demo.jsonl")).expect("jsonl");
    let line: serde_json::Value =
        serde_json::from_str(expected.lines().nth(8).expect("frame 8")).expect("json");
    let truth = line["pairs"].as_array().expect("pairs").len();
    // The f64 kernel finds every brute-force pair (and at most a few near-touching extras).
    assert!(
        summary.pairs >= truth && summary.pairs <= truth + 8,
        "{} vs {truth}",
        summary.pairs
    );
    assert!(summary.highlighted > 0 && summary.proxies > 0);
    let (w, h, colors) = decode_png(&out);
    assert_eq!((w, h), (500, 400));
    assert!(colors > 20);
}

#[test]
fn snapshot_draws_many_bodies() {
    let dir = scratch("snapshot");
    let ball = bdtree_std::shapes::procedural::icosphere(0.1, 1);
    let bodies: Vec<SnapshotBody> = (0..60)
        .map(|i| {
            let t = [
                0.25 * (i % 10) as f64,
                0.25 * (i / 10) as f64,
                0.1 + 0.05 * (i % 3) as f64,
            ];
            SnapshotBody {
                vertices: ball
                    .vertices
                    .iter()
                    .map(|v| [v[0] + t[0], v[1] + t[1], v[2] + t[2]])
                    .collect(),
                triangles: ball.triangles.clone(),
                highlighted: if i % 7 == 0 { vec![0, 1, 2, 3] } else { vec![] },
                secondary: vec![],
            }
        })
        .collect();
    let png = dir.join("snap.png");
    snapshot(
        &bodies,
        &[[0.0, 0.0, 0.0], [0.5, 0.5, 0.0]],
        "60 balls",
        &png,
    )
    .expect("png");
    let (w, h, colors) = decode_png(&png);
    assert_eq!((w, h), (1000, 800));
    assert!(colors > 20);
    let svg = dir.join("snap.svg");
    snapshot(&bodies, &[], "60 balls", &svg).expect("svg");
    let text = std::fs::read_to_string(&svg).expect("svg");
    assert!(text.contains("60 balls") && text.contains("60 bodies"));
    let err = snapshot(&bodies, &[], "x", &dir.join("snap.gif")).expect_err("gif");
    assert!(err.to_string().contains("snap.gif"), "{err}");
}

#[test]
fn export_round_trips_through_the_mesh_loader() {
    let dir = scratch("export");
    let scene = Scene::load(&fixtures().join("scenes/demo.json")).expect("scene");
    let options = GeometryOptions {
        spheres: Some(3),
        ..GeometryOptions::default()
    };
    let geometry = frame_geometry(&scene, 8, &options).expect("geometry");
    let body_vertices: usize = scene.bodies.iter().map(|b| b.mesh.vertices.len()).sum();
    let body_triangles: usize = scene.bodies.iter().map(|b| b.mesh.triangles.len()).sum();
    let spheres: usize = geometry.bodies.iter().map(|b| b.spheres.len()).sum();
    assert_eq!(spheres, 3 * 8, "three complete trees, 8 nodes at level 3");
    let ico =
        bdtree_std::shapes::procedural::icosphere(1.0, bdtree_std::export::SPHERE_SUBDIVISIONS);
    for (name, points) in [
        ("frame.ply", true),
        ("frame.obj", true),
        ("plain.ply", false),
    ] {
        let path = dir.join(name);
        let summary = write_frame(&geometry, points, "test", &path).expect("write");
        let back = load_mesh(&path).expect("read back");
        let n_points = if points { geometry.pairs.len() } else { 0 };
        assert_eq!(
            back.vertices.len(),
            body_vertices + spheres * ico.vertices.len() + n_points,
            "{name}"
        );
        assert_eq!(
            back.triangles.len(),
            body_triangles + spheres * ico.triangles.len(),
            "{name}"
        );
        assert_eq!(summary.vertices, back.vertices.len());
        assert_eq!(summary.triangles, back.triangles.len());
        // The bodies' vertices are the deformed ones, in order.
        let world = scene.world_vertices(8, 0).expect("world");
        for (a, b) in world.iter().zip(&back.vertices) {
            assert_eq!(a, b, "{name}: coordinates are written exactly");
        }
    }
    // Contact points lie on (or next to) both triangles of their pair.
    for (&(i, j, ta, tb), p) in geometry.pairs.iter().zip(&geometry.contact_points) {
        for (b, t) in [(i, ta), (j, tb)] {
            let body = &geometry.bodies[b];
            let tri = body.triangles[t as usize].map(|v| body.vertices[v as usize]);
            let d = bdtree_std::oracle::triangle_distance(&[*p, *p, *p], &tri).0;
            assert!(
                d < 1e-9,
                "contact point {p:?} is {d} from triangle {t} of body {b}"
            );
        }
    }
}

#[test]
fn cli_render_and_export_write_files_and_name_the_file_in_errors() {
    let dir = scratch("cli");
    let image = ball_image(&dir);
    let image = image.to_str().expect("utf-8");
    let scene = fixtures().join("scenes/demo.json");
    let scene = scene.to_str().expect("utf-8");
    let png = dir.join("s.png");
    let out = bdtree(&[
        "render",
        "spheres",
        image,
        "--level",
        "2",
        "--q",
        "0.01,0.02,0.03,0.04,-0.05",
        "--view",
        "x",
        "-o",
        png.to_str().unwrap(),
        "--size",
        "320x240",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(decode_png(&png).0, 320);
    let svg = dir.join("t.svg");
    let out = bdtree(&["render", "tightness", image, "-o", svg.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ply = dir.join("f.ply");
    let out = bdtree(&[
        "export",
        scene,
        "--frame",
        "3",
        "-o",
        ply.to_str().unwrap(),
        "--spheres",
        "2",
        "--contacts",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(load_mesh(&ply).is_ok());

    let bad = dir.join("s.jpg");
    let bad = bad.to_str().unwrap();
    fails_with(
        &["render", "spheres", image, "--level", "2", "-o", bad],
        &["s.jpg", ".png or .svg"],
    );
    fails_with(
        &["render", "tightness", "missing.bdt", "-o", "x.png"],
        &["missing.bdt", "cannot read"],
    );
    fails_with(
        &["render", "spheres", image, "--level", "40", "-o", "x.png"],
        &["ball.bdt", "level 40 does not exist"],
    );
    fails_with(
        &[
            "render", "spheres", image, "--level", "1", "--q", "1,2", "-o", "x.png",
        ],
        &["ball.bdt", "5 modes but q has 2 entries"],
    );
    fails_with(
        &["render", "contacts", scene, "--frame", "99", "-o", "x.png"],
        &["demo.json", "frame 99 does not exist"],
    );
    fails_with(
        &["render", "contacts", "missing.json", "-o", "x.svg"],
        &["missing.json"],
    );
    fails_with(
        &["export", scene, "-o", "x.stl"],
        &["x.stl", ".ply or .obj"],
    );
    fails_with(
        &["export", "missing.json", "-o", "x.ply"],
        &["missing.json", "cannot read"],
    );
    let nowhere = dir.join("no/such/dir/x.png");
    fails_with(
        &[
            "render",
            "tightness",
            image,
            "-o",
            nowhere.to_str().unwrap(),
        ],
        &["x.png", "cannot write"],
    );
}

/// `bdtree demo` (small): prints its summary, checks the exact query against brute force and
/// draws the busiest step.
#[test]
fn the_chairs_demo_prints_a_summary_and_draws_it() {
    let dir = scratch("demo");
    let out = dir.join("demo.png");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_bdtree"))
        .args(["demo", "--chairs", "6", "--steps", "150", "-o"])
        .arg(&out)
        .output()
        .expect("run bdtree");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for expected in [
        "6 bodies, 150 steps",
        "collision time per step",
        "ratio",
        "0 missed (f64 brute force)",
        "picture:",
    ] {
        assert!(stdout.contains(expected), "no {expected:?} in\n{stdout}");
    }
    let (w, h, colours) = decode_png(&out);
    assert_eq!((w, h), (1000, 800));
    assert!(colours > 8, "{colours} colours");
    // Without the `rerun` feature, asking for a recording is a clear error naming the file.
    #[cfg(not(feature = "rerun"))]
    {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_bdtree"))
            .args([
                "demo", "--chairs", "2", "--steps", "2", "--rerun", "x.rrd", "-o",
            ])
            .arg(&out)
            .output()
            .expect("run bdtree");
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("x.rrd") && stderr.contains("rerun"),
            "{stderr}"
        );
    }
}

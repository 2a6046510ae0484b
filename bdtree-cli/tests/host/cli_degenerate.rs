//! Zero-area triangles (issue 23) through the command line (the kernel's side:
//! `bdtree-std/tests/kernel/geometry/`).

use bdtree_std::build::quality::counts;
use bdtree_std::shapes::degenerate::pole_sphere;

use crate::binary::{bdtree, succeeds};

/// `bdtree build` and `bdtree inspect` say how many zero-area triangles a mesh holds; an
/// OBJ with `f 1 1 1` and a collinear face loads and builds.
#[test]
fn build_and_inspect_count_zero_area_triangles() {
    let dir = crate::support::Scratch::new("degenerate");
    let obj = dir.join("poles.obj");
    let mut mesh = pole_sphere(1.0, 6, 8);
    // Two collapsed faces more: a point triangle (`f 1 1 1`) and a duplicated vertex.
    mesh.triangles.push([0, 0, 0]);
    mesh.triangles.push([20, 20, 21]);
    let want = counts(&mesh);
    assert_eq!((want.points, want.segments), (1, 17));
    let mut text = Vec::new();
    bdtree_std::io::write_obj(&mesh, &mut text).expect("obj");
    std::fs::write(&obj, text).expect("write");
    let image = dir.join("poles.bdt");
    let stdout = succeeds(&[
        "build",
        obj.to_str().unwrap(),
        "-o",
        image.to_str().unwrap(),
    ]);
    assert!(
        stdout.contains("18 zero-area triangles (1 points, 17 segments)"),
        "{stdout}"
    );
    let out = bdtree(&["inspect", image.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("18 zero-area triangles (1 points, 17 segments)"),
        "{stdout}"
    );
    let out = bdtree(&["inspect", image.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["degenerate"]["points"], 1);
    assert_eq!(v["degenerate"]["segments"], 17);
    assert_eq!(v["degenerate"]["slivers"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

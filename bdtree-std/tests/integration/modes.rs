//! `bdtree modes`: the modal basis and frequencies on the command line, and clear errors.

use std::path::{Path, PathBuf};

use bdtree_std::io::{load_mesh, load_npy};

use crate::cli::{bdtree, fails_with};

fn mesh(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/meshes")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bdtree-modes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn modes_json_has_positive_increasing_frequencies_and_a_3n_by_k_basis() {
    let dir = scratch("json");
    let out_path = dir.join("modes.npy");
    let ball = mesh("touching-ball.obj");
    let out = bdtree(&[
        "modes",
        ball.to_str().expect("utf-8 path"),
        "-k",
        "6",
        "--resolution",
        "10",
        "-o",
        out_path.to_str().expect("utf-8 path"),
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let value: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("stdout is one JSON object");
    let frequencies: Vec<f64> = value["frequencies_hz"]
        .as_array()
        .expect("frequencies_hz array")
        .iter()
        .map(|f| f.as_f64().expect("number"))
        .collect();
    assert_eq!(frequencies.len(), 6);
    assert!(frequencies[0] > 0.0, "{frequencies:?}");
    assert!(
        frequencies.windows(2).all(|w| w[0] <= w[1]),
        "{frequencies:?}"
    );
    let basis = load_npy(&out_path).expect("the basis reads back");
    let vertices = load_mesh(&ball).expect("fixture").vertices.len();
    assert_eq!((basis.vertices, basis.modes), (vertices, 6));
    // Each mode is scaled to a largest vertex displacement of exactly 1.
    for j in 0..6 {
        let largest = (0..vertices)
            .map(|v| {
                (0..3)
                    .map(|a| basis.get(v, a, j).powi(2))
                    .sum::<f64>()
                    .sqrt()
            })
            .fold(0.0, f64::max);
        assert!((largest - 1.0).abs() < 1e-12, "mode {j}: {largest}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn modes_text_output_lists_every_frequency() {
    let dir = scratch("text");
    let out_path = dir.join("bar.npy");
    let bar = mesh("thin-bar.obj");
    let out = bdtree(&[
        "modes",
        bar.to_str().expect("utf-8 path"),
        "-k",
        "4",
        "--resolution",
        "40",
        "--poisson",
        "0.3",
        "-o",
        out_path.to_str().expect("utf-8 path"),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("frequency (Hz)"), "{stdout}");
    let table = stdout.split("frequency (Hz)").nth(1).unwrap_or("");
    let rows: Vec<f64> = table
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
        .collect();
    assert_eq!(rows.len(), 4, "{stdout}");
    assert!(
        rows[0] > 0.0 && rows.windows(2).all(|w| w[0] <= w[1]),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn modes_bad_input_fails_with_a_clear_message() {
    let dir = scratch("bad");
    let out = dir.join("m.npy");
    let out = out.to_str().expect("utf-8 path");
    let bar = mesh("thin-bar.obj");
    let bar = bar.to_str().expect("utf-8 path");
    let missing = dir.join("missing.obj");
    let missing = missing.to_str().expect("utf-8 path");
    fails_with(
        &["modes", missing, "-o", out],
        &["missing.obj", "cannot read"],
    );
    fails_with(&["modes", bar, "-k", "0", "-o", out], &["-k", "at least 1"]);
    fails_with(
        &["modes", bar, "--poisson", "0.5", "-o", out],
        &["--poisson", "0.5"],
    );
    fails_with(
        &["modes", bar, "--resolution", "0", "-o", out],
        &["--resolution"],
    );
    let sheet = mesh("thin-sheet.obj");
    fails_with(
        &["modes", sheet.to_str().expect("utf-8 path"), "-o", out],
        &["thin-sheet.obj", "not closed"],
    );
    fails_with(
        &[
            "modes",
            bar,
            "-o",
            dir.join("no/such/dir/m.npy").to_str().expect("utf-8"),
        ],
        &["m.npy", "cannot write"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

//! `bdtree modes`: the modal basis and frequencies on the command line, and clear errors.

use std::path::{Path, PathBuf};

use crate::support::Scratch;

use bdtree_std::io::{load_mesh, load_npy};

use crate::binary::{bdtree, fails_with, succeeds};

fn mesh(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/meshes")
        .join(name)
}

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("modes-{name}"))
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
    let stdout = succeeds(&[
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

/// Writes `mesh` as OBJ into `dir`.
fn write_mesh(dir: &Path, name: &str, mesh: &bdtree_std::io::Mesh) -> PathBuf {
    let path = dir.join(name);
    let mut file = std::fs::File::create(&path).expect("create mesh");
    bdtree_std::io::write_obj(mesh, &mut file).expect("write mesh");
    path
}

/// The 1 m bar of 5 cm square section written to `dir` as `beam.obj`, and a basis file to
/// write beside it: their paths.
fn beam_and_output(dir: &Path) -> (String, String) {
    let mesh = bdtree_std::shapes::procedural::bar(1.0, 0.05, 4);
    let beam = write_mesh(dir, "beam.obj", &mesh);
    let path = |p: PathBuf| p.to_str().expect("utf-8").to_string();
    (path(beam), path(dir.join("m.npy")))
}

/// Runs `bdtree modes … --json` and returns the JSON object.
fn modes_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["modes"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = bdtree(&all);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

fn numbers(value: &serde_json::Value) -> Vec<f64> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|f| f.as_f64().expect("number"))
        .collect()
}

#[test]
fn modes_chooses_the_lattice_and_says_so() {
    let dir = scratch("auto");
    let (beam, out_path) = beam_and_output(&dir);
    let (beam, out_path) = (beam.as_str(), out_path.as_str());
    let v = modes_json(&[beam, "-k", "4", "--poisson", "0.3", "-o", out_path]);
    // 6 cells across the 5 cm section, 80 along the 1 m beam.
    assert_eq!(v["resolution"], 80);
    assert_eq!(v["resolution_chosen_by"], "thickness");
    assert!((v["thinnest_wall"]["thickness"].as_f64().unwrap_or(0.0) - 0.05).abs() < 1e-9);
    assert_eq!(v["cells"], serde_json::json!([80, 6, 6]));
    let spacing = numbers(&v["spacing"]);
    assert!(
        (spacing[0] - 0.0125).abs() < 1e-12 && (spacing[1] - 0.05 / 6.0).abs() < 1e-12,
        "{spacing:?}"
    );
    assert_eq!(v["solid_cells"], 2880);
    assert_eq!(v["dofs"], 3 * 81 * 49);
    let (lattice, mesh) = (
        v["lattice_volume"].as_f64().unwrap_or(0.0),
        v["mesh_volume"].as_f64().unwrap_or(1.0),
    );
    assert!((lattice / mesh - 1.0).abs() < 1e-9, "{lattice} vs {mesh}");
    assert!(v["seconds"].as_f64().is_some_and(|s| s > 0.0));
    assert_eq!(numbers(&v["rigid_eigenvalues"]).len(), 6);
    // The table says the same in words.
    let out = bdtree(&["modes", beam, "-k", "4", "--poisson", "0.3", "-o", out_path]);
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "resolution 80",
        "chosen to put 6.0 cells across the thinnest wall (5.00 cm thick)",
        "cells of 1.25 cm × 8.33 mm × 8.33 mm, grid 80×6×6",
        "2880 solid cells",
        "11907 degrees of freedom",
        "ratio 1.0000",
        "the 6 rigid-body modes are removed",
    ] {
        assert!(text.contains(needle), "{needle:?} not in {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn modes_clamped_by_a_half_space_or_a_vertex_list_agree() {
    let dir = scratch("fixed");
    let (beam, out_path) = beam_and_output(&dir);
    // The bar's vertices 0–3 are its −x end.
    let list = dir.join("end.txt");
    std::fs::write(&list, "# the -x end\n0\n1\n2\n3\n").expect("write list");
    let list = list.to_str().expect("utf-8");
    let run = |more: &[&str]| {
        let base = [
            beam.as_str(),
            "-k",
            "2",
            "--poisson",
            "0.3",
            "-o",
            out_path.as_str(),
        ];
        modes_json(&[&base[..], more].concat())
    };
    let free = run(&[]);
    let by_spec = run(&["--fixed", "x<-0.499"]);
    let by_list = run(&["--fixed-vertices", list]);
    for v in [&by_spec, &by_list] {
        assert_eq!(v["held_vertices"], 4);
        assert_eq!(v["held_nodes"], 49);
        assert!(numbers(&v["rigid_eigenvalues"]).is_empty());
    }
    let (spec, listed) = (
        numbers(&by_spec["frequencies_hz"]),
        numbers(&by_list["frequencies_hz"]),
    );
    assert_eq!(spec, listed);
    // A cantilever's first bending is (1.875 / 4.730)² ≈ 0.157 of the free beam's.
    let ratio = spec[0] / numbers(&free["frequencies_hz"])[0];
    assert!((ratio - 0.157).abs() < 0.005, "{ratio}");
    let basis = load_npy(Path::new(&out_path)).expect("basis");
    assert_eq!(basis.get(0, 1, 0), 0.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn modes_bad_supports_and_thin_walls_fail_with_a_clear_message_and_no_frequencies() {
    let dir = scratch("thin");
    let (beam, out_path) = beam_and_output(&dir);
    let (beam_s, out_s) = (beam.as_str(), out_path.as_str());
    let bad = bdtree(&["modes", beam_s, "-o", out_s, "--fixed", "q<1"]);
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && stderr.contains("--fixed") && stderr.contains("x, y or z"));
    fails_with(
        &["modes", beam_s, "-o", out_s, "--fixed", "x<-2"],
        &[
            "beam.obj",
            "--fixed 'x<-2' holds no mesh vertex",
            "from -0.5 to 0.5",
        ],
    );
    let list = dir.join("list.txt");
    std::fs::write(&list, "0\nfour\n").expect("write list");
    let list_s = list.to_str().expect("utf-8");
    fails_with(
        &["modes", beam_s, "-o", out_s, "--fixed-vertices", list_s],
        &["list.txt: line 2", "'four'"],
    );
    std::fs::write(&list, "0\n20\n").expect("write list");
    fails_with(
        &["modes", beam_s, "-o", out_s, "--fixed-vertices", list_s],
        &["list.txt: line 2: vertex 20 is out of range (the mesh has 20 vertices)"],
    );
    // A 2 mm wall on a 1 m plate: refused, with its thickness and what resolving it costs.
    let mut plate = bdtree_std::shapes::procedural::bar(1.0, 1.0, 1);
    for v in &mut plate.vertices {
        v[2] *= 0.002;
    }
    let plate = write_mesh(&dir, "plate.obj", &plate);
    let out = bdtree(&["modes", plate.to_str().expect("utf-8"), "-o", out_s]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for needle in [
        "plate.obj",
        "wall too thin",
        "2.00 mm thick",
        "Putting 6 cells across it needs cells of 2.67 mm × 2.67 mm × 0.33 mm",
        "at least 843,750 cells",
        "4.22 times the budget of 200,000 cells",
        "--max-cells to at least 843,750",
        "no frequencies",
    ] {
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!Path::new(&out_path).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn modes_of_a_millimetre_mesh_with_units_mm_are_the_metre_ones_issue_39() {
    let dir = scratch("units");
    // A rectangular section (5 cm × 3 cm): no two modes share a frequency, so each mode is
    // one shape (a pair's modes would be any rotation within the pair, their peaks too).
    let mut metres = bdtree_std::shapes::procedural::bar(1.0, 0.05, 4);
    for v in &mut metres.vertices {
        v[2] *= 0.6;
    }
    let millimetres = crate::support::scaled(metres.clone(), 1000.0);
    let m_path = write_mesh(&dir, "beam-m.obj", &metres);
    let mm_path = write_mesh(&dir, "beam-mm.obj", &millimetres);
    let out = dir.join("u.npy");
    let (m_path, mm_path, out) = (
        m_path.to_str().expect("utf-8"),
        mm_path.to_str().expect("utf-8"),
        out.to_str().expect("utf-8"),
    );
    let common = ["-k", "3", "--resolution", "20", "-o", out];
    let m = modes_json(&[&[m_path][..], &common].concat());
    let mm = modes_json(&[&[mm_path, "--units", "mm"][..], &common].concat());
    let wrong = modes_json(&[&[mm_path][..], &common].concat());
    let (f_m, f_mm, f_wrong) = (
        numbers(&m["frequencies_hz"]),
        numbers(&mm["frequencies_hz"]),
        numbers(&wrong["frequencies_hz"]),
    );
    for j in 0..3 {
        assert!((f_mm[j] / f_m[j] - 1.0).abs() < 1e-6, "{f_mm:?} vs {f_m:?}");
        // Taken as metres, the millimetre mesh is 1000 times larger: f / 1000.
        assert!((f_wrong[j] * 1000.0 / f_m[j] - 1.0).abs() < 1e-6);
    }
    let (mass_m, mass_mm) = (numbers(&m["modal_masses"]), numbers(&mm["modal_masses"]));
    let (k_m, k_mm) = (
        numbers(&m["modal_stiffnesses"]),
        numbers(&mm["modal_stiffnesses"]),
    );
    for j in 0..3 {
        assert!((mass_mm[j] * 1000.0 / mass_m[j] - 1.0).abs() < 1e-6);
        assert!((k_mm[j] * 1000.0 / k_m[j] - 1.0).abs() < 1e-6);
        let omega2 = (2.0 * std::f64::consts::PI * f_m[j]).powi(2);
        assert!((k_m[j] / (mass_m[j] * omega2) - 1.0).abs() < 1e-9);
    }
    assert_eq!(mm["units"], "mm");
    assert_eq!(mm["normalization"], "peak");
    // Mass-normalised: unit masses, stiffnesses ω².
    let unit = modes_json(
        &[
            &[mm_path, "--units", "mm", "--normalize", "mass"][..],
            &common,
        ]
        .concat(),
    );
    for (j, (m, k)) in numbers(&unit["modal_masses"])
        .into_iter()
        .zip(numbers(&unit["modal_stiffnesses"]))
        .enumerate()
    {
        let omega2 = (2.0 * std::f64::consts::PI * f_m[j]).powi(2);
        assert!(
            (m - 1.0).abs() < 1e-12 && (k / omega2 - 1.0).abs() < 1e-6,
            "{m} {k}"
        );
    }
    // The table speaks millimetres, the lattice line too (issue 50: it said "5.00 cm"); a
    // bad unit is named.
    let text = bdtree(&[&["modes", mm_path, "--units", "mm"][..], &common].concat());
    let table = String::from_utf8_lossy(&text.stdout);
    assert!(
        table.contains("cells of 50.00 mm") && table.contains("mm³") && !table.contains(" cm"),
        "{table}"
    );
    // Without --units the 1000-unit rubber bar is warned about, naming the option; the metre
    // bar and a unit given explicitly are not.
    let stderr = |args: &[&str]| {
        let out = bdtree(&[&["modes"][..], args, &common].concat());
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let warned = stderr(&[mm_path]);
    assert!(
        warned.contains("warning: ") && warned.contains("pass --units mm"),
        "{warned}"
    );
    for quiet in [stderr(&[m_path]), stderr(&[mm_path, "--units", "m"])] {
        assert!(!quiet.contains("--units"), "{quiet}");
    }
    // A flag clap refuses is a usage error, status 2; a failure on the input, status 1 (as
    // the command-line reference says).
    let bad = bdtree(&["modes", mm_path, "--units", "furlong", "-o", out]);
    let message = String::from_utf8_lossy(&bad.stderr);
    assert!(
        bad.status.code() == Some(2) && message.contains("'furlong' is not a length unit"),
        "{:?} {message}",
        bad.status
    );
    let missing = dir.join("no-such-mesh.obj");
    let failed = bdtree(&["modes", missing.to_str().expect("utf-8"), "-o", out]);
    assert_eq!(failed.status.code(), Some(1), "{failed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! Unit tests of the modal analysis on small lattices; the physics checks against theory are
//! in the integration tests (`tests/integration/modal_physics.rs`).

use super::*;
use crate::procedural::{bar, icosphere};
use faer::Side;
use std::f64::consts::PI;

/// Free–free beam of length 1 m and a 0.05 m square section, `across` cells through the
/// thickness.
fn beam(across: usize, poisson: f64, modes: usize) -> (Modes, Solution) {
    let options = ModalOptions {
        modes,
        young: 1e6,
        poisson,
        density: 1000.0,
        resolution: Some(20 * across),
        ..ModalOptions::default()
    };
    analyse(&bar(1.0, 0.05, 4), &options, &mut |_| {}).expect("beam modes")
}

/// Euler–Bernoulli free–free first bending frequency of that beam.
fn euler_bernoulli_f1() -> f64 {
    let (l, a, e, rho) = (1.0f64, 0.05f64, 1e6, 1000.0);
    let i = a.powi(4) / 12.0;
    4.730_040_745f64.powi(2) / (2.0 * PI * l * l) * (e * i / (rho * a * a)).sqrt()
}

/// Fraction of a lattice mode's kinetic energy (`uᵀ M u`) in axis `axis`.
fn axis_fraction(s: &Solution, j: usize, axis: usize) -> f64 {
    let u = s.vectors.subcols(j, 1).to_owned();
    let mu = s.sys.m.mul(&u);
    let (mut part, mut all) = (0.0, 0.0);
    for i in 0..u.nrows() {
        all += u[(i, 0)] * mu[(i, 0)];
        if i % 3 == axis {
            part += u[(i, 0)] * mu[(i, 0)];
        }
    }
    part / all
}

#[test]
fn beam_bending_is_free_of_shear_locking() {
    // With the incompatible modes, two cells across the beam bend as well as three: the
    // first bending frequency agrees to 0.2 % and lies ≈ 0.8 % below Euler–Bernoulli (the
    // 3-D beam's shear and rotary inertia, as Timoshenko's theory says for this ν = 0 beam).
    let exact = euler_bernoulli_f1();
    let mut f = Vec::new();
    for across in [2, 3] {
        let (modes, _) = beam(across, 0.0, 2);
        // Square section: the two first bending modes are degenerate.
        let pair =
            (modes.frequencies_hz[1] - modes.frequencies_hz[0]).abs() / modes.frequencies_hz[0];
        assert!(pair < 1e-6, "bending pair split by {pair}");
        f.push(modes.frequencies_hz[0]);
    }
    assert!((f[0] / f[1] - 1.0).abs() < 2e-3, "{f:?}");
    for x in &f {
        let error = x / exact - 1.0;
        assert!(error > -0.012 && error < -0.004, "{error:+.4} ({f:?})");
    }
}

#[test]
fn bar_axial_mode_matches_the_exact_rod_frequency() {
    // With ν = 0 the rod mode u = cos(πx/L) is an exact 3-D mode: f = √(E/ρ) / 2L.
    let exact = (1e6f64 / 1000.0).sqrt() / 2.0;
    let (modes, s) = beam(2, 0.0, 10);
    let j = (0..10)
        .max_by(|&a, &b| axis_fraction(&s, a, 0).total_cmp(&axis_fraction(&s, b, 0)))
        .unwrap_or(0);
    assert!(axis_fraction(&s, j, 0) > 0.99);
    let error = (modes.frequencies_hz[j] - exact) / exact;
    assert!(
        error.abs() < 2e-3,
        "axial {} Hz vs {exact} Hz",
        modes.frequencies_hz[j]
    );
}

#[test]
fn free_body_has_six_rigid_modes_and_m_orthonormal_modes() {
    let options = ModalOptions {
        modes: 8,
        resolution: Some(8),
        ..ModalOptions::default()
    };
    let mesh = icosphere(0.1, 2);
    let (modes, s) = analyse(&mesh, &options, &mut |_| {}).expect("modes");
    assert_eq!(modes.rigid_eigenvalues.len(), 6);
    let first = modes.eigenvalues[0];
    for r in &modes.rigid_eigenvalues {
        assert!(r.abs() < 1e-8 * first, "rigid {r} vs {first}");
    }
    assert!(modes.eigenvalues.windows(2).all(|w| w[0] <= w[1]));
    assert!(modes.max_residual < 1e-4, "residual {}", modes.max_residual);
    let gram = s.vectors.transpose() * s.sys.m.mul(&s.vectors);
    for i in 0..8 {
        for j in 0..8 {
            let want = if i == j { 1.0 } else { 0.0 };
            assert!(
                (gram[(i, j)] - want).abs() < 1e-8,
                "({i},{j}) {}",
                gram[(i, j)]
            );
        }
    }
    assert_eq!(modes.basis.vertices, mesh.vertices.len());
    assert_eq!(modes.basis.modes, 8);
    assert_eq!(modes.basis.data.len(), 3 * mesh.vertices.len() * 8);
}

/// Lowest root of the free sphere's l = 2 torsional frequency equation
/// `x j₂'(x) = j₂(x)`, i.e. `j₂(x) = x j₃(x)` (Lamb 1882): `ω = x c_s / a`.
fn sphere_torsion_root() -> f64 {
    let j2 = |x: f64| (3.0 / x.powi(3) - 1.0 / x) * x.sin() - 3.0 * x.cos() / (x * x);
    let j3 = |x: f64| {
        (15.0 / x.powi(4) - 6.0 / (x * x)) * x.sin() - (15.0 / x.powi(3) - 1.0 / x) * x.cos()
    };
    let g = |x: f64| j2(x) - x * j3(x);
    let (mut lo, mut hi) = (2.0, 3.0);
    assert!(g(lo) * g(hi) < 0.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if g(lo) * g(mid) <= 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Fraction of a lattice mode's (row-sum lumped) kinetic energy that is radial about the
/// lattice centroid: 0 for a torsional mode of a sphere.
fn radial_fraction(s: &Solution, j: usize) -> f64 {
    let nodes = s.sys.positions.len();
    let mut centroid = [0.0; 3];
    for p in &s.sys.positions {
        for a in 0..3 {
            centroid[a] += p[a] / nodes as f64;
        }
    }
    let ones = Mat::<f64>::from_fn(3 * nodes, 1, |_, _| 1.0);
    let lumped = s.sys.m.mul(&ones);
    let (mut radial, mut all) = (0.0, 0.0);
    for (node, p) in s.sys.positions.iter().enumerate() {
        let d: [f64; 3] = core::array::from_fn(|a| p[a] - centroid[a]);
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt().max(1e-300);
        let u: [f64; 3] = core::array::from_fn(|a| s.vectors[(3 * node + a, j)]);
        let m = lumped[(3 * node, 0)];
        let ur = (u[0] * d[0] + u[1] * d[1] + u[2] * d[2]) / len;
        radial += m * ur * ur;
        all += m * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    }
    radial / all
}

/// The five l = 2 torsional modes of a free sphere (radius 0.1 m, ν = 0.3) on a lattice of
/// `resolution` cells across: their mean frequency and the exact one.
fn sphere_torsion(resolution: usize) -> (f64, f64, Modes) {
    let (radius, young, poisson, density) = (0.1, 1e6, 0.3, 1000.0);
    let options = ModalOptions {
        modes: 10,
        young,
        poisson,
        density,
        resolution: Some(resolution),
        ..ModalOptions::default()
    };
    let (modes, s) = analyse(&icosphere(radius, 3), &options, &mut |_| {}).expect("sphere modes");
    let mut by_radial: Vec<(f64, usize)> = (0..10).map(|j| (radial_fraction(&s, j), j)).collect();
    by_radial.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(
        by_radial[4].0 < 0.05 && by_radial[5].0 > 0.2,
        "{by_radial:?}"
    );
    let mean = by_radial[..5]
        .iter()
        .map(|&(_, j)| modes.frequencies_hz[j])
        .sum::<f64>()
        / 5.0;
    let shear_speed = (young / (2.0 * (1.0 + poisson)) / density).sqrt();
    let exact = sphere_torsion_root() * shear_speed / (2.0 * PI * radius);
    (mean, exact, modes)
}

#[test]
fn sphere_torsion_modes_match_lamb() {
    let x = sphere_torsion_root();
    assert!((x - 2.5011).abs() < 1e-3, "root {x}");
    let (mean, exact, modes) = sphere_torsion(12);
    let error = (mean - exact) / exact;
    assert!(error.abs() < 0.05, "{mean} Hz vs {exact} Hz ({error:+.4})");
    assert!(
        (modes.volume_ratio - 1.0).abs() < 0.1,
        "{}",
        modes.volume_ratio
    );
    assert!(modes.max_embedding_gap < modes.lattice.spacing);
}

#[test]
fn cells_are_full_empty_or_cut_as_the_winding_number_says() {
    use crate::procedural::{blob, torus};
    use lattice::{voxelise, winding_number, Fill};
    for (name, mesh) in [
        ("torus", torus(0.3, 0.1, 24, 12)),
        ("blob", blob(0.2, 2, 5, 7)),
        ("bar", bar(1.0, 0.05, 4)),
    ] {
        let grid = voxelise(&mesh, 12, [None; 3]);
        let mut full = 0;
        for c in 0..grid.fill.len() {
            let ijk = grid.cell_ijk(c);
            let centre = winding_number(&mesh, grid.centre(ijk));
            assert!(
                (centre - 1.0).abs() < 1e-6 || centre.abs() < 1e-6,
                "{name}: w = {centre}"
            );
            match grid.fill[c] {
                Fill::Full => {
                    full += 1;
                    assert!(centre > 0.5, "{name} {ijk:?}: full but outside");
                }
                // An empty cell's centre may be inside when its samples all fell outside
                // (a sliver of the body through the centre only); the volume check covers it.
                Fill::Empty => {}
                Fill::Cut(i) => {
                    let f = grid.cuts[i as usize].fraction;
                    assert!(f > 0.0 && f < 1.0, "{name} {ijk:?}: {f}");
                }
            }
        }
        assert!(full > 0 || name == "bar", "{name}");
        // The lattice holds the mesh's volume up to the sub-sampling.
        let ratio = grid.volume() / lattice::mesh_volume(&mesh);
        assert!((ratio - 1.0).abs() < 0.01, "{name}: volume ratio {ratio}");
    }
}

#[test]
fn cells_touching_only_along_an_edge_are_dropped() {
    // Two unit cubes that share one edge: kept together they would hinge freely.
    let mut mesh = bar(1.0, 1.0, 1);
    let mut other = bar(1.0, 1.0, 1);
    crate::procedural::translate(&mut other, [1.0, 1.0, 0.0]);
    let offset = mesh.vertices.len() as u32;
    mesh.vertices.extend(other.vertices);
    mesh.triangles
        .extend(other.triangles.iter().map(|t| t.map(|v| v + offset)));
    let options = ModalOptions {
        modes: 3,
        resolution: Some(4),
        poisson: 0.3,
        ..ModalOptions::default()
    };
    let (modes, _) = analyse(&mesh, &options, &mut |_| {}).expect("modes");
    assert_eq!(modes.lattice.solid_cells, 8);
    assert_eq!(modes.lattice.dropped_cells, 8);
    assert_eq!(modes.rigid_eigenvalues.len(), 6);
    assert!(modes.max_embedding_gap > 0.0);
}

#[test]
fn frequencies_scale_with_size_and_wave_speed() {
    // f ∝ √(E/ρ) / L, independent of where the body is.
    let options = ModalOptions {
        modes: 4,
        resolution: Some(6),
        ..ModalOptions::default()
    };
    let mesh = icosphere(0.1, 2);
    let (base, _) = analyse(&mesh, &options, &mut |_| {}).expect("modes");
    let mut moved = icosphere(0.2, 2);
    crate::procedural::translate(&mut moved, [3.0, -1.0, 0.5]);
    let stiffer = ModalOptions {
        young: 4.0 * options.young,
        ..options.clone()
    };
    let (other, _) = analyse(&moved, &stiffer, &mut |_| {}).expect("modes");
    // Twice the size halves f, four times E doubles it.
    for (a, b) in base.frequencies_hz.iter().zip(&other.frequencies_hz) {
        assert!((a - b).abs() < 1e-8 * a, "{a} vs {b}");
    }
}

#[test]
fn bad_options_and_open_meshes_are_refused() {
    let mesh = icosphere(0.1, 1);
    let o = ModalOptions::default();
    for (bad, needle) in [
        (
            ModalOptions {
                modes: 0,
                ..o.clone()
            },
            "-k",
        ),
        (
            ModalOptions {
                young: -1.0,
                ..o.clone()
            },
            "--young",
        ),
        (
            ModalOptions {
                poisson: 0.5,
                ..o.clone()
            },
            "--poisson",
        ),
        (
            ModalOptions {
                density: f64::NAN,
                ..o.clone()
            },
            "--density",
        ),
        (
            ModalOptions {
                resolution: Some(0),
                ..o.clone()
            },
            "--resolution",
        ),
    ] {
        let e = compute_modes(&mesh, &bad, &mut |_| {})
            .err()
            .map(|e| e.to_string());
        assert!(e.as_deref().is_some_and(|e| e.contains(needle)), "{e:?}");
    }
    let mut open = mesh.clone();
    open.triangles.pop();
    let e = compute_modes(&open, &o, &mut |_| {}).err();
    assert_eq!(e, Some(ModesError::NotClosed { open_edges: 3 }));
    let few = ModalOptions {
        modes: 100,
        resolution: Some(1),
        ..o.clone()
    };
    let e = compute_modes(&mesh, &few, &mut |_| {}).err();
    assert_eq!(
        e,
        Some(ModesError::TooFewDofs {
            dofs: 24,
            needed: 106
        })
    );
}

/// Free–free cube of side 1 by the Rayleigh–Ritz method on polynomials `x^i y^j z^k`,
/// `i + j + k ≤ degree`, per displacement component (Visscher et al. 1991, the basis of
/// resonant ultrasound spectroscopy): an independent, spectrally converging reference.
/// Returns the non-rigid frequencies in units of `c_s / L` (`f·L/c_s`), ascending.
fn cube_ritz(degree: usize, poisson: f64) -> Vec<f64> {
    let (young, density) = (1.0, 1.0);
    let lambda = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
    let mu = young / (2.0 * (1.0 + poisson));
    let mut powers = Vec::new();
    for i in 0..=degree {
        for j in 0..=degree - i {
            for k in 0..=degree - i - j {
                powers.push([i, j, k]);
            }
        }
    }
    // ∫ x^n over [−½, ½].
    let integral = |n: i64| {
        if n < 0 || n % 2 == 1 {
            0.0
        } else {
            2.0 * 0.5f64.powi(n as i32 + 1) / (n as f64 + 1.0)
        }
    };
    let volume_integral = |e: [i64; 3]| e.iter().map(|&n| integral(n)).product::<f64>();
    // ∫ ∂_a φ_p ∂_b φ_q.
    let grad_integral = |p: [usize; 3], a: usize, q: [usize; 3], b: usize| {
        let (cp, cq) = (p[a] as f64, q[b] as f64);
        if cp == 0.0 || cq == 0.0 {
            return 0.0;
        }
        let mut e: [i64; 3] = core::array::from_fn(|x| (p[x] + q[x]) as i64);
        e[a] -= 1;
        e[b] -= 1;
        cp * cq * volume_integral(e)
    };
    let nb = powers.len();
    let n = 3 * nb;
    let mut k = Mat::<f64>::zeros(n, n);
    let mut m = Mat::<f64>::zeros(n, n);
    for (pi, &p) in powers.iter().enumerate() {
        for (qi, &q) in powers.iter().enumerate() {
            let mass = density * volume_integral(core::array::from_fn(|x| (p[x] + q[x]) as i64));
            let dot: f64 = (0..3).map(|j| grad_integral(p, j, q, j)).sum();
            for a in 0..3 {
                m[(3 * pi + a, 3 * qi + a)] = mass;
                for b in 0..3 {
                    let mut v = lambda * grad_integral(p, a, q, b) + mu * grad_integral(p, b, q, a);
                    if a == b {
                        v += mu * dot;
                    }
                    k[(3 * pi + a, 3 * qi + b)] = v;
                }
            }
        }
    }
    // Whiten M (monomials are badly conditioned; drop its null-ish directions), then K.
    let evd = m.self_adjoint_eigen(Side::Lower).expect("mass eigen");
    let s = evd.S().column_vector();
    let largest = (0..n).map(|j| s[j]).fold(0.0, f64::max);
    let keep: Vec<usize> = (0..n).filter(|&j| s[j] > 1e-13 * largest).collect();
    let t = Mat::<f64>::from_fn(n, keep.len(), |i, j| {
        evd.U()[(i, keep[j])] / s[keep[j]].sqrt()
    });
    let c = t.transpose() * &k * &t;
    let theta = c
        .self_adjoint_eigenvalues(Side::Lower)
        .expect("stiffness eigen");
    let shear_speed = (mu / density).sqrt();
    let scale = theta.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
    theta
        .iter()
        .filter(|&&l| l > 1e-9 * scale)
        .map(|&l| l.sqrt() / (2.0 * PI) / shear_speed)
        .collect()
}

#[test]
fn cube_lattice_converges_to_the_polynomial_ritz_reference() {
    let reference = cube_ritz(8, 0.3);
    // The reference reproduces the cube's exact Lamé mode, f·L/c_s = 1/√2 for any ν
    // (modes 9 and 10 here).
    let lame = 0.5f64.sqrt();
    assert!(
        reference.iter().any(|f| (f - lame).abs() < 1e-5 * lame),
        "{reference:?}"
    );
    let shear_speed = (1e6 / (2.0 * 1.3) / 1000.0f64).sqrt();
    let mut previous = f64::INFINITY;
    for resolution in [4, 8] {
        let options = ModalOptions {
            modes: 6,
            young: 1e6,
            poisson: 0.3,
            density: 1000.0,
            resolution: Some(resolution),
            ..ModalOptions::default()
        };
        let (modes, _) = analyse(&bar(1.0, 1.0, 1), &options, &mut |_| {}).expect("cube");
        let mut worst: f64 = 0.0;
        for (f, r) in modes.frequencies_hz.iter().zip(&reference) {
            let error = f / shear_speed / r - 1.0;
            // Conforming elements with consistent mass bound frequencies from above.
            assert!(error > -1e-6, "{resolution}: {f} vs {r}");
            worst = worst.max(error);
        }
        assert!(worst < previous, "{resolution}: {worst} after {previous}");
        previous = worst;
    }
    assert!(previous < 0.04, "{previous}");
}

/// The refinement study printed in the report:
/// `cargo test -p bdtree-std --release --lib modes::tests::refinement_study -- --ignored --nocapture`.
#[test]
#[ignore]
fn refinement_study() {
    let exact = euler_bernoulli_f1();
    let axial = (1e6f64 / 1000.0).sqrt() / 2.0;
    println!("Euler–Bernoulli f1 = {exact:.5} Hz, rod axial = {axial:.5} Hz");
    for across in [2, 3, 4, 6, 8] {
        let t = std::time::Instant::now();
        let (modes, s) = beam(across, 0.0, 10);
        let j = (0..10)
            .max_by(|&a, &b| axis_fraction(&s, a, 0).total_cmp(&axis_fraction(&s, b, 0)))
            .unwrap_or(0);
        println!(
            "{across} cells across ({} dofs, {} it, {:.2} s): f1 = {:.5} Hz ({:+.2} %), axial = {:.5} Hz ({:+.3} %)",
            modes.lattice.dofs,
            modes.iterations,
            t.elapsed().as_secs_f64(),
            modes.frequencies_hz[0],
            100.0 * (modes.frequencies_hz[0] / exact - 1.0),
            modes.frequencies_hz[j],
            100.0 * (modes.frequencies_hz[j] / axial - 1.0),
        );
    }
    for resolution in [8, 12, 16, 24, 32] {
        let t = std::time::Instant::now();
        let (mean, exact, modes) = sphere_torsion(resolution);
        println!(
            "sphere, {resolution} cells across ({} dofs, {:.2} s): l=2 torsion {mean:.4} Hz vs Lamb {exact:.4} Hz ({:+.2} %), volume ratio {:.4}",
            modes.lattice.dofs,
            t.elapsed().as_secs_f64(),
            100.0 * (mean / exact - 1.0),
            modes.volume_ratio
        );
    }
    // Free unit cube, ν = 0.3: the lattice fits the cube exactly (no staircase), so this is
    // the pure finite-element convergence; printed as f·L/c_s with c_s = √(G/ρ).
    let shear_speed = (1e6 / (2.0 * 1.3) / 1000.0f64).sqrt();
    for resolution in [2, 4, 8, 12, 16] {
        let options = ModalOptions {
            modes: 10,
            young: 1e6,
            poisson: 0.3,
            density: 1000.0,
            resolution: Some(resolution),
            ..ModalOptions::default()
        };
        let (modes, _) = analyse(&bar(1.0, 1.0, 1), &options, &mut |_| {}).expect("cube");
        let scaled: Vec<String> = modes
            .frequencies_hz
            .iter()
            .map(|f| format!("{:.5}", f / shear_speed))
            .collect();
        println!(
            "cube, {resolution} cells across: f·L/c_s = {}",
            scaled.join(" ")
        );
    }
    for degree in [6, 8, 10, 12] {
        let scaled: Vec<String> = cube_ritz(degree, 0.3)
            .iter()
            .take(10)
            .map(|f| format!("{f:.5}"))
            .collect();
        println!("cube, Ritz degree {degree}: f·L/c_s = {}", scaled.join(" "));
    }
}

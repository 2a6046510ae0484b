//! Unit tests of the modal analysis on small lattices; the physics checks against theory are
//! in the integration tests (`tests/modal/modal_physics.rs`).

use super::*;
use crate::shapes::procedural::{bar, icosphere};
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

#[test]
fn cells_are_full_empty_or_cut_as_the_winding_number_says() {
    use crate::shapes::procedural::{blob, torus};
    use lattice::{voxelise, winding_number, Fill};
    for (name, mesh) in [
        ("torus", torus(0.3, 0.1, 24, 12)),
        ("blob", blob(0.2, 2, 5, 7)),
        ("bar", bar(1.0, 0.05, 4)),
    ] {
        let (lo, hi) = lattice::bounds(&mesh);
        let longest = (0..3).map(|a| hi[a] - lo[a]).fold(0.0, f64::max);
        let grid = voxelise(&mesh, [longest / 12.0; 3], [None; 3]);
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
    crate::shapes::procedural::translate(&mut other, [1.0, 1.0, 0.0]);
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
    crate::shapes::procedural::translate(&mut moved, [3.0, -1.0, 0.5]);
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

#[test]
fn a_clamped_end_holds_exactly_its_node_plane() {
    let options = ModalOptions {
        modes: 4,
        poisson: 0.3,
        fixed: vec![Fixed::parse("x<-0.499").expect("spec")],
        ..ModalOptions::default()
    };
    let (modes, s) = analyse(&bar(1.0, 0.05, 4), &options, &mut |_| {}).expect("cantilever");
    // 6 cells across (the section): the end face's 7 × 7 nodes, and no rigid-body modes.
    assert_eq!(modes.lattice.resolution, 80);
    assert_eq!(modes.lattice.held_nodes, 49);
    assert_eq!(modes.held_vertices, 4);
    assert!(modes.rigid_eigenvalues.is_empty());
    let lowest = modes.eigenvalues[0];
    assert!(lowest > 0.0);
    // No held node has a dof; the free ones are all at x > −0.5.
    assert!(s.sys.positions.iter().all(|p| p[0] > -0.5 + 1e-9));
    // The held end does not move.
    for v in 0..4 {
        for a in 0..3 {
            assert_eq!(modes.basis.get(v, a, 0), 0.0);
        }
    }
}

#[test]
fn a_body_held_at_one_node_can_still_turn_and_is_refused() {
    // Vertex 0 of the bar is a corner, on a lattice node: holding it holds that node only.
    let options = ModalOptions {
        modes: 2,
        poisson: 0.3,
        fixed: vec![Fixed::parse_vertices("0\n", "one.txt").expect("list")],
        ..ModalOptions::default()
    };
    let e = compute_modes(&bar(1.0, 0.05, 4), &options, &mut |_| {}).err();
    assert_eq!(
        e,
        Some(ModesError::NotHeld {
            found: 3,
            held_nodes: 1
        })
    );
    let text = e.map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains("do not hold") && text.contains('3'), "{text}");
}

#[test]
fn fixed_specs_that_hold_nothing_or_name_missing_vertices_are_refused() {
    let mesh = bar(1.0, 0.05, 4);
    for (fixed, needle) in [
        (Fixed::parse("x<-0.6"), "holds no mesh vertex"),
        (
            Fixed::parse_vertices("3\n25\n", "list.txt"),
            "list.txt: line 2: vertex 25",
        ),
    ] {
        let options = ModalOptions {
            fixed: vec![fixed.expect("spec")],
            ..ModalOptions::default()
        };
        let e = compute_modes(&mesh, &options, &mut |_| {})
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains(needle), "{e}");
    }
}

#[test]
fn a_wall_too_thin_for_the_budget_is_refused_with_its_thickness_and_cost() {
    // A 1 m square plate 2 mm thick: 6 cells across it and 375 along its sides, 843,750
    // cells by its volume alone (and exactly that many: its faces lie on node planes).
    let mut plate = bar(1.0, 1.0, 1);
    for v in &mut plate.vertices {
        v[2] *= 0.002;
    }
    let e = compute_modes(&plate, &ModalOptions::default(), &mut |_| {}).err();
    let Some(ModesError::TooManyCells {
        wall: Some(wall),
        cells,
        max_cells,
        estimated: true,
        spacing,
        ..
    }) = &e
    else {
        panic!("{e:?}");
    };
    assert!((wall.thickness - 0.002).abs() < 1e-9, "{wall:?}");
    assert_eq!((*cells, *max_cells), (843_750, DEFAULT_MAX_CELLS));
    assert!((spacing[2] - 0.002 / 6.0).abs() < 1e-12 && (spacing[0] - 1.0 / 375.0).abs() < 1e-12);
    let text = e.map(|e| e.to_string()).unwrap_or_default();
    for needle in [
        "2.00 mm thick",
        "Putting 6 cells across it needs cells of 2.67 mm × 2.67 mm × 0.33 mm",
        "at least 843,750 cells",
        "4.22 times the budget of 200,000 cells",
        "--max-cells to at least 843,750",
        "no frequencies",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    // With a resolution given, the user takes the coarse lattice and gets frequencies.
    let given = ModalOptions {
        modes: 2,
        resolution: Some(10),
        ..ModalOptions::default()
    };
    let modes = compute_modes(&plate, &given, &mut |_| {}).expect("coarse modes");
    assert!(modes.lattice.cells_across.is_some_and(|a| a < 1.0));
}

#[test]
fn refusals_print_the_ratio_with_the_decimals_it_needs() {
    // Regression: 222,399 cells against 200,000 were "1 times the budget", 2.4× "2 times".
    let refusal = |cells: usize| {
        ModesError::TooManyCells {
            wall: None,
            resolution: 200,
            spacing: [1e-3; 3],
            cells,
            dofs: Some(3 * cells),
            estimated: false,
            max_cells: 200_000,
            units: LengthUnit::Metre,
        }
        .to_string()
    };
    for (cells, ratio) in [
        (222_399, "1.11 times"),
        (480_000, "2.40 times"),
        (200_001, "1.00001 times"),
        (11_000_000, "55.0 times"),
        (30_000_000, "150 times"),
    ] {
        let text = refusal(cells);
        assert!(text.contains(ratio), "{ratio}: {text}");
        assert!(text.contains("cells of 1.00 mm"), "{text}");
    }
}

/// A closed tube along x: `segments` flat sides around, outward winding (the inner wall
/// facing the bore).
fn tube(outer: f64, inner: f64, length: f64, segments: u32) -> Mesh {
    let n = segments as usize;
    let mut vertices = Vec::with_capacity(4 * n);
    for r in [outer, inner] {
        for x in [-0.5 * length, 0.5 * length] {
            for j in 0..n {
                let a = 2.0 * PI * j as f64 / n as f64;
                vertices.push([x, r * a.cos(), r * a.sin()]);
            }
        }
    }
    // Vertex of ring (wall 0 outer / 1 inner, end 0 / 1), position j around.
    let v = |wall: usize, end: usize, j: usize| ((2 * wall + end) * n + j % n) as u32;
    let mut triangles = Vec::with_capacity(8 * n);
    for j in 0..n {
        let (o, i) = (
            [v(0, 0, j), v(0, 1, j), v(0, 1, j + 1), v(0, 0, j + 1)],
            [v(1, 0, j), v(1, 1, j), v(1, 1, j + 1), v(1, 0, j + 1)],
        );
        triangles.extend([[o[0], o[3], o[2]], [o[0], o[2], o[1]]]);
        triangles.extend([[i[0], i[1], i[2]], [i[0], i[2], i[3]]]);
        // The −x end faces −x, the +x end faces +x.
        triangles.extend([[o[0], i[3], o[3]], [o[0], i[0], i[3]]]);
        triangles.extend([[o[1], o[2], i[2]], [o[1], i[2], i[1]]]);
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// A box of `size` centred at the origin.
fn cuboid(size: [f64; 3]) -> Mesh {
    let mut mesh = bar(1.0, 1.0, 1);
    for v in &mut mesh.vertices {
        for a in 0..3 {
            v[a] *= size[a];
        }
    }
    mesh
}

/// The automatic lattice of `mesh` (as [`analyse`] builds it) with a cell budget.
fn lattice_of(mesh: &Mesh, max_cells: usize) -> Result<Built, ModesError> {
    let (rotation, _) = frame::choose(mesh);
    let turned = frame::turned(mesh, &rotation);
    let o = ModalOptions {
        max_cells,
        ..ModalOptions::default()
    };
    build_lattice(mesh, &turned, &rotation, &o, &mut |_| {})
}

#[test]
fn the_cells_a_refusal_counts_are_the_cells_that_would_be_built() {
    // A hollow box: a closed outer box and an inner one wound inward.
    let mut hollow = cuboid([0.2, 0.12, 0.1]);
    let inner = cuboid([0.18, 0.1, 0.08]);
    let offset = hollow.vertices.len() as u32;
    hollow.vertices.extend(inner.vertices);
    hollow.triangles.extend(
        inner
            .triangles
            .iter()
            .map(|t| [t[0], t[2], t[1]].map(|v| v + offset)),
    );
    for (name, mesh, aligned) in [
        ("plate", cuboid([0.3, 0.3, 0.006]), true),
        ("box", cuboid([0.3, 0.15, 0.09]), true),
        ("hollow box", hollow, true),
        ("tube", tube(0.03, 0.026, 0.1, 48), false),
    ] {
        let built = lattice_of(&mesh, usize::MAX).expect("lattice");
        let (grid, cells) = (&built.grid, built.grid.solid_cells());
        // The pre-filling bound (the body's volume over a cell's) never exceeds the count,
        // and is the count when the faces lie on node planes.
        let at_least = lattice::mesh_volume(&mesh) / grid.cell_volume();
        assert!(
            at_least <= cells as f64 * (1.0 + 1e-9),
            "{name}: {at_least} vs {cells}"
        );
        if aligned {
            assert!(
                (at_least - cells as f64).abs() < 1e-6 * at_least,
                "{name}: {at_least} vs {cells}"
            );
        }
        // One cell under the budget: refused with that count (by the bound before filling
        // when it is exact, else counted with the degrees of freedom); at the budget: built.
        match lattice_of(&mesh, cells - 1).err() {
            Some(ModesError::TooManyCells {
                cells: refused,
                dofs,
                estimated,
                ..
            }) => {
                assert_eq!(refused, cells, "{name}");
                assert_eq!(estimated, aligned, "{name}");
                if !estimated {
                    assert_eq!(dofs, Some(3 * grid.nodes()), "{name}");
                }
            }
            other => panic!("{name}: {other:?}"),
        }
        let fits = lattice_of(&mesh, cells).expect("a lattice at the budget");
        assert_eq!(fits.grid.solid_cells(), cells, "{name}");
    }
}

#[test]
fn thin_walls_get_thin_cells_across_them_only() {
    let longest_over = |mesh: &Mesh, r: f64| {
        let (lo, hi) = lattice::bounds(mesh);
        (0..3).map(|a| hi[a] - lo[a]).fold(0.0, f64::max) / r
    };
    let spacing = |mesh: &Mesh| lattice_of(mesh, usize::MAX).expect("lattice").grid.h;
    let close = |a: [f64; 3], b: [f64; 3]| (0..3).all(|i| (a[i] - b[i]).abs() < 1e-9 * b[i]);
    // A plate: 6 cells through it (its section), 80 along its sides.
    let plate = cuboid([0.3, 0.3, 0.006]);
    let h = spacing(&plate);
    assert!(close(h, [0.3 / 80.0, 0.3 / 80.0, 0.001]), "{h:?}");
    // A tube along x: 4 cells across its 4 mm wall in y and z, 80 along it.
    let t = tube(0.03, 0.026, 0.5, 64);
    let h = spacing(&t);
    assert!(close(h, [0.5 / 80.0, 0.001, 0.001]), "{h:?}");
    // A 20:1 square beam: 6 across its section, 80 along.
    let beam = bar(1.0, 0.05, 4);
    let h = spacing(&beam);
    assert!(close(h, [1.0 / 80.0, 0.05 / 6.0, 0.05 / 6.0]), "{h:?}");
    // Thick every way: the cubes of the minimum resolution.
    let ball = icosphere(0.3, 3);
    let h = spacing(&ball);
    assert!(close(h, [longest_over(&ball, 20.0); 3]), "{h:?}");
}

#[test]
fn a_grid_too_large_to_fill_is_an_error_not_an_allocation_failure() {
    let options = ModalOptions {
        resolution: Some(4096),
        ..ModalOptions::default()
    };
    let e = compute_modes(&bar(1.0, 1.0, 1), &options, &mut |_| {}).err();
    assert_eq!(
        e,
        Some(ModesError::GridTooLarge {
            cells: [4096, 4096, 4096]
        })
    );
    let text = e.map(|e| e.to_string()).unwrap_or_default();
    assert!(
        text.contains("4096×4096×4096") && text.contains("--resolution"),
        "{text}"
    );
}

#[test]
fn overlapping_parts_are_counted_not_bounded_by_their_summed_volume() {
    // Two plates overlapping over half their area: their summed volume would say 1.5 times
    // the cells the union needs, so a budget the union fits must not be refused on it.
    let mut mesh = cuboid([0.3, 0.3, 0.006]);
    let mut other = cuboid([0.3, 0.3, 0.006]);
    crate::shapes::procedural::translate(&mut other, [0.15, 0.0, 0.0]);
    let offset = mesh.vertices.len() as u32;
    mesh.vertices.extend(other.vertices);
    mesh.triangles
        .extend(other.triangles.iter().map(|t| t.map(|v| v + offset)));
    let union = lattice_of(&mesh, usize::MAX).expect("lattice");
    let cells = union.grid.solid_cells();
    let summed = lattice::mesh_volume(&mesh) / union.grid.cell_volume();
    assert!(summed > 1.2 * cells as f64, "{summed} vs {cells}");
    let fits = lattice_of(&mesh, cells).expect("the union fits its own count");
    assert_eq!(fits.grid.solid_cells(), cells);
}

/// `mesh` with every coordinate multiplied by `s`.
fn scaled(mesh: &Mesh, s: f64) -> Mesh {
    Mesh {
        vertices: mesh.vertices.iter().map(|p| p.map(|x| x * s)).collect(),
        triangles: mesh.triangles.clone(),
    }
}

#[test]
fn a_millimetre_mesh_with_its_unit_is_the_metre_mesh_issue_39() {
    let options = ModalOptions {
        modes: 4,
        resolution: Some(6),
        ..ModalOptions::default()
    };
    // A box of three different sides: no two modes share a frequency, so each mode is one
    // shape (a pair's modes could come out as any rotation within the pair).
    let mut metres = bar(0.2, 0.05, 2);
    for v in &mut metres.vertices {
        v[2] *= 0.6;
    }
    let millimetres = scaled(&metres, 1000.0);
    let (m, _) = analyse(&metres, &options, &mut |_| {}).expect("modes");
    let mm_options = ModalOptions {
        units: LengthUnit::Millimetre,
        ..options.clone()
    };
    let (mm, _) = analyse(&millimetres, &mm_options, &mut |_| {}).expect("modes");
    // Without the unit, the millimetre mesh is a body 1000 times larger: f / 1000.
    let (wrong, _) = analyse(&millimetres, &options, &mut |_| {}).expect("modes");
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-8 * a.abs().max(b.abs());
    for j in 0..4 {
        let f = m.frequencies_hz[j];
        assert!(
            close(mm.frequencies_hz[j], f),
            "{j}: {} vs {f}",
            mm.frequencies_hz[j]
        );
        assert!(close(wrong.frequencies_hz[j] * 1000.0, f), "{j}");
        assert!(close(mm.eigenvalues[j], m.eigenvalues[j]));
        // The same body: the same energies for the same peak displacement, in joules; per
        // mesh unit of q the masses and stiffnesses are 1000 times smaller (m = L UᵀMU).
        assert!(close(mm.modal_masses[j] * 1000.0, m.modal_masses[j]), "{j}");
        assert!(
            close(mm.modal_stiffnesses[j] * 1000.0, m.modal_stiffnesses[j]),
            "{j}"
        );
        let omega2 = (2.0 * PI * f).powi(2);
        assert!(close(m.modal_stiffnesses[j], m.modal_masses[j] * omega2));
    }
    assert_eq!(mm.basis.modes, m.basis.modes);
    for (a, b) in mm.basis.data.iter().zip(&m.basis.data) {
        assert!((a - b).abs() < 1e-7, "{a} vs {b}");
    }
    // Geometry comes back in the mesh's unit.
    assert!(close(mm.lattice.spacing[0], 1000.0 * m.lattice.spacing[0]));
    assert!(close(mm.mesh_volume, 1e9 * m.mesh_volume));
    assert_eq!(mm.units, LengthUnit::Millimetre);
}

#[test]
fn mass_normalised_modes_have_unit_modal_mass_issue_39() {
    let options = ModalOptions {
        modes: 3,
        resolution: Some(6),
        ..ModalOptions::default()
    };
    let mesh = icosphere(0.1, 2);
    for units in [LengthUnit::Metre, LengthUnit::Millimetre] {
        let o = ModalOptions {
            units,
            ..options.clone()
        };
        let (peak, _) = analyse(&mesh, &o, &mut |_| {}).expect("modes");
        let mass = ModalOptions {
            normalization: Normalization::Mass,
            ..o
        };
        let (unit, _) = analyse(&mesh, &mass, &mut |_| {}).expect("modes");
        let k = peak.basis.modes;
        for j in 0..k {
            assert!((unit.modal_masses[j] - 1.0).abs() < 1e-12);
            let s = (unit.modal_stiffnesses[j] - unit.eigenvalues[j]).abs();
            assert!(s <= 1e-12 * unit.eigenvalues[j]);
            // The mass-normalised column is the peak one over √m.
            let root = peak.modal_masses[j].sqrt();
            for v in 0..peak.basis.vertices {
                for a in 0..3 {
                    let (p, u) = (peak.basis.get(v, a, j), unit.basis.get(v, a, j));
                    assert!((u * root - p).abs() < 1e-9, "{units:?} mode {j}");
                }
            }
        }
    }
}

#[test]
fn messages_give_lengths_in_the_mesh_unit_issue_39() {
    // A 16 mm × 16 mm × 4 mm plate in millimetres, on a coarse given lattice.
    let mut plate = bar(16.0, 16.0, 1);
    for v in &mut plate.vertices {
        v[2] *= 0.25;
    }
    let options = ModalOptions {
        modes: 2,
        resolution: Some(8),
        units: LengthUnit::Millimetre,
        ..ModalOptions::default()
    };
    let modes = compute_modes(&plate, &options, &mut |_| {}).expect("modes");
    let warnings = report::warnings(&modes).join("\n");
    assert!(warnings.contains("thinnest wall (4.000 mm)"), "{warnings}");
    let table = report::table(&modes, std::path::Path::new("plate.npy"), 0.0);
    assert!(table.contains("cells of 2.000 mm"), "{table}");
    assert!(table.contains("mm³"), "{table}");
    // Without the unit the same numbers are metres: "2.000 m" cells for a 16 mm part.
    let metres = ModalOptions {
        units: LengthUnit::Metre,
        ..options
    };
    let wrong = compute_modes(&plate, &metres, &mut |_| {}).expect("modes");
    let table = report::table(&wrong, std::path::Path::new("plate.npy"), 0.0);
    assert!(table.contains("cells of 2.000 m"), "{table}");
    // An option error names the option and the value, by the front end's names.
    let bad = ModalOptions {
        young: -1.0,
        ..ModalOptions::default()
    };
    let e = bad.validate().expect_err("negative E");
    assert_eq!(
        e.to_string(),
        "--young must be a positive number of pascals, not -1"
    );
    let python = |o: ModalOption| match o {
        ModalOption::Young => "young",
        _ => "other",
    };
    assert_eq!(
        e.describe(&python),
        "young must be a positive number of pascals, not -1"
    );
}

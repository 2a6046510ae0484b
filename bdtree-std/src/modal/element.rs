//! The hexahedral element: stiffness and mass of one lattice cell, or of the part of a cell
//! inside the mesh.
//!
//! Displacements inside a cell are trilinear in its 8 corner nodes (3 dofs each) plus Wilson's
//! incompatible "bubble" modes `b_a = ξ_a (1 − ξ_a)`, one per axis and component (9 internal
//! dofs, condensed out statically). The bubbles let a single cell bend without the spurious
//! shear strain of a plain trilinear cell ("shear locking", which made bending frequencies of
//! slender parts several per cent high unless many cells spanned the thickness). As in
//! Taylor, Beresford and Wilson's correction, each bubble's gradient has its mean over the
//! integration region subtracted, so a constant strain is reproduced exactly (the patch
//! test) in cut cells too.
//!
//! Every integrand — products of trilinear and bubble gradients, or of two trilinear shape
//! functions — is a polynomial of degree at most 2 in each local coordinate. Integrals over any
//! region of the cell are therefore exact with a 3 × 3 × 3 point rule whose weights are the
//! region's integrals of the 27 quadratic Lagrange polynomials on those points (moment
//! fitting). For a full cell these weights are the Gauss–Legendre ones; for a cell the mesh
//! surface cuts they come from sub-samples of the cell (see `lattice`), and the element then
//! integrates exactly what the samples say is inside.

use faer::{Mat, Side};

/// The 3-point Gauss–Legendre rule on `[0, 1]`: points.
pub(super) const GAUSS_POINTS: [f64; 3] = [
    0.5 - 0.387_298_334_620_741_7, // ½ − ½√(3/5)
    0.5,
    0.5 + 0.387_298_334_620_741_7,
];

/// Its weights.
pub(super) const GAUSS_WEIGHTS: [f64; 3] = [5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0];

/// The quadratic Lagrange polynomial of Gauss point `q` at `x` (1 at point `q`, 0 at the
/// other two).
pub(super) fn lagrange(q: usize, x: f64) -> f64 {
    let mut v = 1.0;
    for (p, &xp) in GAUSS_POINTS.iter().enumerate() {
        if p != q {
            v *= (x - xp) / (GAUSS_POINTS[q] - xp);
        }
    }
    v
}

/// The weights of a full cell: tensor products of the Gauss weights.
pub(super) fn full_weights() -> [f64; 27] {
    core::array::from_fn(|i| {
        GAUSS_WEIGHTS[i % 3] * GAUSS_WEIGHTS[(i / 3) % 3] * GAUSS_WEIGHTS[i / 9]
    })
}

/// The 8 local nodes of a cell, node `l` at offset `(l & 1, l >> 1 & 1, l >> 2 & 1)`.
pub(super) fn corner(l: usize) -> [usize; 3] {
    [l & 1, (l >> 1) & 1, (l >> 2) & 1]
}

/// Trilinear shape function values at local coordinates `xi`.
pub(super) fn shape(xi: [f64; 3]) -> [f64; 8] {
    core::array::from_fn(|l| {
        let c = corner(l);
        (0..3)
            .map(|a| if c[a] == 1 { xi[a] } else { 1.0 - xi[a] })
            .product()
    })
}

/// Trilinear shape function gradients at `xi`.
fn shape_gradients(xi: [f64; 3]) -> [[f64; 3]; 8] {
    core::array::from_fn(|l| {
        let c = corner(l);
        let f = |a: usize| if c[a] == 1 { xi[a] } else { 1.0 - xi[a] };
        let df = |a: usize| if c[a] == 1 { 1.0 } else { -1.0 };
        [
            df(0) * f(1) * f(2),
            f(0) * df(1) * f(2),
            f(0) * f(1) * df(2),
        ]
    })
}

/// Stiffness (24 × 24, dof `3l + a`) and mass (8 × 8 per unit density, the same for each
/// axis) of one cell, a box of sides `size` (its local coordinates `ξ_a` run over `[0, 1]`
/// along side `a`).
#[derive(Debug, Clone)]
pub(super) struct Element {
    pub stiffness: [[f64; 24]; 24],
    pub mass: [[f64; 8]; 8],
}

/// Lamé constants `(λ, μ)` of Young's modulus and Poisson's ratio.
fn lame(young: f64, poisson: f64) -> (f64, f64) {
    let lambda = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
    let mu = young / (2.0 * (1.0 + poisson));
    (lambda, mu)
}

/// The element of the region of a box cell of sides `size` whose moment-fitted weights (in
/// the cell's local coordinates) are `weights` (see the module documentation), with
/// incompatible modes if `bubbles`. The box need not be a cube: every gradient is taken along
/// a side, so a long thin cell bends as exactly as a cube.
pub(super) fn element(
    weights: &[f64; 27],
    size: [f64; 3],
    young: f64,
    poisson: f64,
    bubbles: bool,
) -> Element {
    let (lambda, mu) = lame(young, poisson);
    let volume = size[0] * size[1] * size[2];
    let total: f64 = weights.iter().sum();
    // The region's centroid (first moments are integrated exactly by the rule).
    let mut centroid = [0.0; 3];
    for (i, &w) in weights.iter().enumerate() {
        let q = [i % 3, (i / 3) % 3, i / 9];
        for a in 0..3 {
            centroid[a] += w * GAUSS_POINTS[q[a]];
        }
    }
    for c in &mut centroid {
        *c = if total != 0.0 { *c / total } else { 0.5 };
    }
    // Functions 0..8 are the trilinear ones, 8..11 the bubbles; dof 3A + a.
    const F: usize = 11;
    let mut k = [[0.0; 3 * F]; 3 * F];
    let mut mass = [[0.0; 8]; 8];
    for (i, &w) in weights.iter().enumerate() {
        if w == 0.0 {
            continue;
        }
        let xi = [i % 3, (i / 3) % 3, i / 9].map(|q| GAUSS_POINTS[q]);
        let w = w * volume;
        // Gradients in physical units: ∂/∂x_a = (1 / size_a) ∂/∂ξ_a.
        let mut g = [[0.0; 3]; F];
        for (gl, tl) in g.iter_mut().zip(shape_gradients(xi)) {
            *gl = core::array::from_fn(|a| tl[a] / size[a]);
        }
        for a in 0..3 {
            // ∂_a (ξ_a (1 − ξ_a)) = 1 − 2ξ_a, minus its mean 1 − 2c_a over the region.
            g[8 + a][a] = 2.0 * (centroid[a] - xi[a]) / size[a];
        }
        for (p, gp) in g.iter().enumerate() {
            for (q, gq) in g.iter().enumerate().skip(p) {
                // K_pq[a][b] = λ ∂_a φ_p ∂_b φ_q + μ (∂_b φ_p ∂_a φ_q + δ_ab ∇φ_p·∇φ_q).
                let dot = gp[0] * gq[0] + gp[1] * gq[1] + gp[2] * gq[2];
                for a in 0..3 {
                    for b in 0..3 {
                        let mut v = lambda * gp[a] * gq[b] + mu * gp[b] * gq[a];
                        if a == b {
                            v += mu * dot;
                        }
                        k[3 * p + a][3 * q + b] += w * v;
                    }
                }
            }
        }
        let n = shape(xi);
        for l in 0..8 {
            for m in 0..8 {
                mass[l][m] += w * n[l] * n[m];
            }
        }
    }
    for r in 0..3 * F {
        for c in 0..r {
            k[r][c] = k[c][r];
        }
    }
    let mut stiffness = [[0.0; 24]; 24];
    for r in 0..24 {
        stiffness[r].copy_from_slice(&k[r][..24]);
    }
    if bubbles {
        condense(&k, &mut stiffness);
    }
    Element { stiffness, mass }
}

/// `K_uu − K_ub K_bb⁺ K_bu`: the nodal stiffness with the bubble dofs at their
/// energy-minimising values. `K_bb`'s pseudo-inverse drops directions a sliver of a cut cell
/// does not strain (relative eigenvalue below 10⁻¹⁰); the result stays symmetric and positive
/// semi-definite (a Schur complement).
fn condense(k: &[[f64; 33]; 33], stiffness: &mut [[f64; 24]; 24]) {
    let kbb = Mat::<f64>::from_fn(9, 9, |i, j| k[24 + i][24 + j]);
    let Ok(evd) = kbb.self_adjoint_eigen(Side::Lower) else {
        // Without the bubbles the cell is merely stiffer; never expected for a finite matrix.
        return;
    };
    let s = evd.S().column_vector();
    let u = evd.U();
    let largest = (0..9).map(|j| s[j]).fold(0.0, f64::max);
    // C = K_ub U, then K_uu − C diag(1/s) Cᵀ.
    for j in 0..9 {
        if s[j].is_nan() || s[j] <= 1e-10 * largest {
            continue;
        }
        let c: [f64; 24] = core::array::from_fn(|r| (0..9).map(|i| k[r][24 + i] * u[(i, j)]).sum());
        for r in 0..24 {
            let cr = c[r] / s[j];
            for (col, cc) in c.iter().enumerate() {
                stiffness[r][col] -= cr * cc;
            }
        }
    }
    for r in 0..24 {
        for c in 0..r {
            let mean = 0.5 * (stiffness[r][c] + stiffness[c][r]);
            stiffness[r][c] = mean;
            stiffness[c][r] = mean;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strain energy `½ uᵀ K u` of nodal displacements `u(corner)`.
    fn energy(e: &Element, u: impl Fn([f64; 3]) -> [f64; 3]) -> f64 {
        let d: Vec<f64> = (0..8)
            .flat_map(|l| u(corner(l).map(|c| c as f64)))
            .collect();
        let mut total = 0.0;
        for r in 0..24 {
            for c in 0..24 {
                total += d[r] * e.stiffness[r][c] * d[c];
            }
        }
        0.5 * total
    }

    /// Weights of the region `ξ_0 ≤ cut` by fine midpoint sampling (as the lattice does).
    fn slab_weights(cut: f64) -> [f64; 27] {
        let s = 64;
        let mut w = [0.0; 27];
        for i in 0..s {
            let x = (i as f64 + 0.5) / s as f64;
            if x > cut {
                continue;
            }
            for j in 0..s {
                let y = (j as f64 + 0.5) / s as f64;
                for k in 0..s {
                    let z = (k as f64 + 0.5) / s as f64;
                    for (q, wq) in w.iter_mut().enumerate() {
                        let p = [q % 3, (q / 3) % 3, q / 9];
                        *wq += lagrange(p[0], x) * lagrange(p[1], y) * lagrange(p[2], z)
                            / (s * s * s) as f64;
                    }
                }
            }
        }
        w
    }

    #[test]
    fn lagrange_weights_of_a_full_cell_are_gauss_weights() {
        // ∫₀¹ L_q = w_q, and the rule integrates x⁴ exactly on [0, 1].
        let w = full_weights();
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        let fourth: f64 = (0..3)
            .map(|q| GAUSS_WEIGHTS[q] * GAUSS_POINTS[q].powi(4))
            .sum();
        assert!((fourth - 0.2).abs() < 1e-15);
        for q in 0..3 {
            for p in 0..3 {
                let want = if p == q { 1.0 } else { 0.0 };
                assert!((lagrange(q, GAUSS_POINTS[p]) - want).abs() < 1e-14);
            }
        }
    }

    #[test]
    fn rigid_motions_cost_nothing_and_mass_is_the_volume() {
        for weights in [full_weights(), slab_weights(0.3)] {
            let e = element(&weights, [1.0; 3], 1.0, 0.3, true);
            let volume: f64 = weights.iter().sum();
            let total: f64 = e.mass.iter().flatten().sum();
            assert!((total - volume).abs() < 1e-12, "{total} vs {volume}");
            for motion in [
                |_p: [f64; 3]| [1.0, -2.0, 0.5],
                |p: [f64; 3]| [-p[1], p[0], 0.0],
                |p: [f64; 3]| [0.0, p[2], -p[1]],
            ] {
                let u = energy(&e, motion);
                assert!(u.abs() < 1e-12, "{u}");
            }
        }
    }

    #[test]
    fn constant_strain_energy_is_exact_in_full_and_cut_cells() {
        // The patch test: u = E p with a constant strain; energy ½ ε:σ times the volume.
        let (young, poisson) = (2.0, 0.3);
        let (lambda, mu) = lame(young, poisson);
        let grad = [
            [0.01, 0.02, -0.03],
            [0.0, -0.02, 0.015],
            [0.025, 0.005, 0.01],
        ];
        let eps: [[f64; 3]; 3] =
            core::array::from_fn(|a| core::array::from_fn(|b| 0.5 * (grad[a][b] + grad[b][a])));
        let trace = eps[0][0] + eps[1][1] + eps[2][2];
        let density: f64 =
            0.5 * lambda * trace * trace + mu * eps.iter().flatten().map(|e| e * e).sum::<f64>();
        for cut in [1.0, 0.37] {
            let weights = if cut == 1.0 {
                full_weights()
            } else {
                slab_weights(cut)
            };
            let volume: f64 = weights.iter().sum();
            let e = element(&weights, [1.0; 3], young, poisson, true);
            let u = energy(&e, |p| {
                core::array::from_fn(|a| (0..3).map(|b| grad[a][b] * p[b]).sum())
            });
            assert!(
                (u - density * volume).abs() < 1e-12 * density.max(1.0),
                "cut {cut}: {u} vs {}",
                density * volume
            );
        }
    }

    #[test]
    fn pure_bending_of_one_cell_is_exact_with_bubbles_and_locks_without() {
        // The 3-D pure bending field u = κ (x z, −ν y z, −(x² + ν (z² − y²)) / 2) about the
        // cell centre: energy ½ E κ² ∫ z² dV = E κ² / 24 for the unit cube.
        let (young, poisson, kappa) = (1.0, 0.3, 0.01);
        let exact = young * kappa * kappa / 24.0;
        let field = |p: [f64; 3]| {
            let [x, y, z] = p.map(|c| c - 0.5);
            [
                kappa * x * z,
                -poisson * kappa * y * z,
                -0.5 * kappa * (x * x + poisson * (z * z - y * y)),
            ]
        };
        let with = energy(
            &element(&full_weights(), [1.0; 3], young, poisson, true),
            field,
        );
        let without = energy(
            &element(&full_weights(), [1.0; 3], young, poisson, false),
            field,
        );
        assert!((with - exact).abs() < 1e-12 * exact, "{with} vs {exact}");
        // A plain trilinear cube of aspect 1 stores about 1.5–2× the bending energy.
        assert!(without > 1.3 * exact, "{without} vs {exact}");
    }

    #[test]
    fn pure_bending_of_a_long_flat_cell_is_exact() {
        // A cell 8 long, 8 wide and 1 thick (a plate's cell) bent along either long side:
        // energy ½ E κ² ∫ z² dV = E κ² · 64 / 24.
        let (young, poisson, kappa) = (1.0, 0.3, 0.01);
        let size = [8.0, 8.0, 1.0];
        let exact = young * kappa * kappa * 64.0 / 24.0;
        let e = element(&full_weights(), size, young, poisson, true);
        for along in [0, 1] {
            let across = 1 - along;
            // The displacement at local coordinates ξ, about the centre in physical units.
            let field = |xi: [f64; 3]| {
                let p: [f64; 3] = core::array::from_fn(|a| (xi[a] - 0.5) * size[a]);
                let mut u = [0.0; 3];
                u[along] = kappa * p[along] * p[2];
                u[across] = -poisson * kappa * p[across] * p[2];
                u[2] = -0.5
                    * kappa
                    * (p[along].powi(2) + poisson * (p[2].powi(2) - p[across].powi(2)));
                u
            };
            let got = energy(&e, field);
            assert!(
                (got - exact).abs() < 1e-10 * exact,
                "{along}: {got} vs {exact}"
            );
        }
    }
}

//! Reference solutions the modal analysis is checked against, from theory nobody here wrote,
//! each checked against published figures: Euler–Bernoulli and Timoshenko beams, Kirchhoff's
//! thin plate (Leissa 1969), the free cube by the Rayleigh–Ritz method of Visscher et al.
//! (1991) with its exact Lamé mode, and Lamb's (1882) torsional modes of a free sphere.

use faer::{Mat, Side};
use std::f64::consts::PI;

/// Euler–Bernoulli `β_n L` of a free–free beam, n = 1…4 (Blevins, *Formulas for natural
/// frequency and mode shape*, table 8-1).
pub const FREE_FREE: [f64; 4] = [4.730_04, 7.853_20, 10.995_6, 14.137_2];
/// The same for a cantilever (clamped–free).
pub const CANTILEVER: [f64; 4] = [1.875_10, 4.694_09, 7.854_76, 10.995_5];

/// How a beam's ends are held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ends {
    FreeFree,
    ClampedFree,
}

/// A uniform beam of rectangular section: `depth` along the bending direction, `width`
/// across it.
#[derive(Debug, Clone, Copy)]
pub struct Beam {
    pub length: f64,
    pub depth: f64,
    pub width: f64,
    pub young: f64,
    pub poisson: f64,
    pub density: f64,
}

/// What beam theory needs of a uniform beam.
#[derive(Debug, Clone, Copy)]
struct Section {
    length: f64,
    area: f64,
    second_moment: f64,
    /// Timoshenko's shear coefficient `κ`.
    shear_coefficient: f64,
    young: f64,
    poisson: f64,
    density: f64,
}

impl Section {
    /// Euler–Bernoulli bending frequencies in hertz: `f = (β_n L)² / (2π L²) √(E I / ρ A)`.
    fn euler_bernoulli(&self, ends: Ends) -> [f64; 4] {
        let beta = match ends {
            Ends::FreeFree => FREE_FREE,
            Ends::ClampedFree => CANTILEVER,
        };
        let s = (self.young * self.second_moment / (self.density * self.area)).sqrt();
        beta.map(|b| b * b / (2.0 * PI * self.length * self.length) * s)
    }

    /// Timoshenko beam frequencies in hertz (shear deformation and rotary inertia), the four
    /// lowest: the roots of the end conditions' determinant after shooting the four
    /// first-order equations `w' = φ + V/κGA, φ' = M/EI, M' = −V − ρIω²φ, V' = −ρAω²w` along
    /// the beam (RK4, 2000 steps).
    fn timoshenko(&self, ends: Ends) -> [f64; 4] {
        let (a, i) = (self.area, self.second_moment);
        let g = self.young / (2.0 * (1.0 + self.poisson));
        let (kga, ei, rho) = (self.shear_coefficient * g * a, self.young * i, self.density);
        let determinant = |f: f64| {
            let w2 = (2.0 * PI * f).powi(2);
            let rhs = |y: [f64; 4]| {
                [
                    y[1] + y[3] / kga,
                    y[2] / ei,
                    -y[3] - rho * i * w2 * y[1],
                    -rho * a * w2 * y[0],
                ]
            };
            let starts = match ends {
                Ends::FreeFree => [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]],
                Ends::ClampedFree => [[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
            };
            let steps = 2000;
            let h = self.length / steps as f64;
            let ends = starts.map(|mut y| {
                for _ in 0..steps {
                    let add = |y: [f64; 4], k: [f64; 4], s: f64| -> [f64; 4] {
                        core::array::from_fn(|j| y[j] + s * k[j])
                    };
                    let k1 = rhs(y);
                    let k2 = rhs(add(y, k1, h / 2.0));
                    let k3 = rhs(add(y, k2, h / 2.0));
                    let k4 = rhs(add(y, k3, h));
                    y = core::array::from_fn(|j| {
                        y[j] + h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j])
                    });
                }
                y
            });
            // Free far end: M = V = 0.
            ends[0][2] * ends[1][3] - ends[0][3] * ends[1][2]
        };
        // Each root lies a little below its Euler–Bernoulli value: scan upwards from well
        // below the first in 0.2 % steps, bisect each sign change.
        let eb = self.euler_bernoulli(ends);
        let mut roots = [0.0; 4];
        let mut found = 0;
        let mut f = 0.3 * eb[0];
        let mut value = determinant(f);
        while found < 4 {
            let next = f * 1.002;
            let next_value = determinant(next);
            if value.signum() != next_value.signum() {
                let (mut lo, mut hi, mut vlo) = (f, next, value);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    let vm = determinant(mid);
                    if vm.signum() == vlo.signum() {
                        lo = mid;
                        vlo = vm;
                    } else {
                        hi = mid;
                    }
                }
                roots[found] = 0.5 * (lo + hi);
                found += 1;
            }
            f = next;
            value = next_value;
        }
        roots
    }
}

impl Beam {
    fn section(&self) -> Section {
        Section {
            length: self.length,
            area: self.depth * self.width,
            second_moment: self.width * self.depth.powi(3) / 12.0,
            // Cowper's coefficient for a rectangle.
            shear_coefficient: 10.0 * (1.0 + self.poisson) / (12.0 + 11.0 * self.poisson),
            young: self.young,
            poisson: self.poisson,
            density: self.density,
        }
    }

    /// Euler–Bernoulli bending frequencies in hertz.
    pub fn euler_bernoulli(&self, ends: Ends) -> [f64; 4] {
        self.section().euler_bernoulli(ends)
    }

    /// Timoshenko beam frequencies in hertz, with Cowper's shear coefficient
    /// `κ = 10 (1 + ν) / (12 + 11ν)` for a rectangle.
    pub fn timoshenko(&self, ends: Ends) -> [f64; 4] {
        self.section().timoshenko(ends)
    }

    /// Saint-Venant torsion of a square section of side `a` (depth = width): `J = 0.140 577 a⁴`
    /// (Timoshenko & Goodier, *Theory of Elasticity*, §109: `k₁ = 0.141` for `b/a = 1`, from
    /// the series `J = a⁴ (1/3 − 64/(π⁵) Σ_odd tanh(nπ/2)/n⁵)`), polar moment `a⁴/6`:
    /// frequencies `f_n = n c_t / 2L` free–free and `(2n − 1) c_t / 4L` clamped–free, with
    /// `c_t = √(G J / ρ I_p)`.
    pub fn square_torsion(&self, ends: Ends, n: usize) -> f64 {
        let a = self.depth;
        let series: f64 = (0..50)
            .map(|k| {
                let m = (2 * k + 1) as f64;
                (m * PI / 2.0).tanh() / m.powi(5)
            })
            .sum();
        let j = a.powi(4) * (1.0 / 3.0 - 64.0 / PI.powi(5) * series);
        let polar = a.powi(4) / 6.0;
        let shear = self.young / (2.0 * (1.0 + self.poisson));
        let speed = (shear * j / (self.density * polar)).sqrt();
        match ends {
            Ends::FreeFree => n as f64 * speed / (2.0 * self.length),
            Ends::ClampedFree => (2 * n - 1) as f64 * speed / (4.0 * self.length),
        }
    }
}

/// The beam of the issue: 1 m × 5 cm × 5 cm, E = 1 MPa, ν = 0.3, ρ = 1000 kg/m³.
pub fn issue_beam() -> Beam {
    Beam {
        length: 1.0,
        depth: 0.05,
        width: 0.05,
        young: 1e6,
        poisson: 0.3,
        density: 1000.0,
    }
}

/// Legendre polynomial `P_n(x)` and its first two derivatives.
fn legendre(n: usize, x: f64) -> [f64; 3] {
    // Values of P_0..P_n, derivatives from the recurrence (1 − x²) P_n' = n (P_{n−1} − x P_n)
    // would divide by zero at ±1; use P_n' = Σ and P_n'' by differentiating the recurrence.
    let mut p = vec![[0.0; 3]; n + 1];
    p[0] = [1.0, 0.0, 0.0];
    if n >= 1 {
        p[1] = [x, 1.0, 0.0];
    }
    for k in 1..n {
        let kf = k as f64;
        // (k+1) P_{k+1} = (2k+1) x P_k − k P_{k−1}, differentiated twice.
        let [a0, a1, a2] = p[k];
        let [b0, b1, b2] = p[k - 1];
        p[k + 1] = [
            ((2.0 * kf + 1.0) * x * a0 - kf * b0) / (kf + 1.0),
            ((2.0 * kf + 1.0) * (a0 + x * a1) - kf * b1) / (kf + 1.0),
            ((2.0 * kf + 1.0) * (2.0 * a1 + x * a2) - kf * b2) / (kf + 1.0),
        ];
    }
    p[n]
}

/// Gauss–Legendre points and weights on [−1, 1] (Newton on the Legendre polynomial).
fn gauss(n: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|i| {
            let mut x = (PI * (i as f64 + 0.75) / (n as f64 + 0.5)).cos();
            for _ in 0..100 {
                let [p, dp, _] = legendre(n, x);
                x -= p / dp;
            }
            let [_, dp, _] = legendre(n, x);
            (x, 2.0 / ((1.0 - x * x) * dp * dp))
        })
        .collect()
}

/// The square roots of the first `count` eigenvalues of `K x = λ M x` above the rigid ones
/// (those below 10⁻⁹ of the largest).
fn elastic_roots(k: &Mat<f64>, m: &Mat<f64>, count: usize) -> Vec<f64> {
    let values = generalized(k, m);
    let scale = values.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
    values
        .iter()
        .filter(|&&l| l > 1e-9 * scale)
        .take(count)
        .map(|l| l.sqrt())
        .collect()
}

/// Generalized symmetric eigenvalues of `(K, M)`, ascending, after whitening `M` (directions
/// with `M` eigenvalues below 10⁻¹³ of the largest are dropped).
fn generalized(k: &Mat<f64>, m: &Mat<f64>) -> Vec<f64> {
    let n = k.nrows();
    let evd = m.self_adjoint_eigen(Side::Lower).expect("mass eigen");
    let s = evd.S().column_vector();
    let largest = (0..n).map(|j| s[j]).fold(0.0, f64::max);
    let keep: Vec<usize> = (0..n).filter(|&j| s[j] > 1e-13 * largest).collect();
    let t = Mat::<f64>::from_fn(n, keep.len(), |i, j| {
        evd.U()[(i, keep[j])] / s[keep[j]].sqrt()
    });
    let c = t.transpose() * k * &t;
    c.self_adjoint_eigenvalues(Side::Lower)
        .expect("stiffness eigen")
}

/// Kirchhoff plate theory for the free square plate: the frequency parameters
/// `λ = ω a² √(ρh / D)` of its lowest `count` flexural modes, by Rayleigh–Ritz on products of
/// Legendre polynomials up to `degree` in each direction (rigid motions dropped).
pub fn kirchhoff_free_square(poisson: f64, degree: usize, count: usize) -> Vec<f64> {
    kirchhoff_square(poisson, degree, count, false)
}

/// The same for the square plate clamped along its edge at `x = −a/2` and free on the other
/// three (a cantilever plate): the Legendre products are multiplied by `(1 + ξ)²`, which
/// vanishes with its slope on the clamped edge.
pub fn kirchhoff_cantilever_square(poisson: f64, degree: usize, count: usize) -> Vec<f64> {
    kirchhoff_square(poisson, degree, count, true)
}

fn kirchhoff_square(poisson: f64, degree: usize, count: usize, clamped: bool) -> Vec<f64> {
    // P_i(ξ), times (1 + ξ)² if clamped, with its first two derivatives.
    let along = |i: usize, xi: f64| -> [f64; 3] {
        let p = legendre(i, xi);
        if !clamped {
            return p;
        }
        let (f, f1, f2) = ((1.0 + xi).powi(2), 2.0 * (1.0 + xi), 2.0);
        [
            f * p[0],
            f1 * p[0] + f * p[1],
            f2 * p[0] + 2.0 * f1 * p[1] + f * p[2],
        ]
    };
    let quadrature = gauss(degree + 4);
    let terms: Vec<(usize, usize)> = (0..=degree)
        .flat_map(|i| (0..=degree).map(move |j| (i, j)))
        .collect();
    let n = terms.len();
    let (mut k, mut m) = (Mat::<f64>::zeros(n, n), Mat::<f64>::zeros(n, n));
    // On [−½, ½]²: x = ξ/2, d/dx = 2 d/dξ.
    for &(xi, wx) in &quadrature {
        for &(eta, wy) in &quadrature {
            let w = wx * wy / 4.0;
            let v: Vec<[f64; 6]> = terms
                .iter()
                .map(|&(i, j)| {
                    let (px, py) = (along(i, xi), legendre(j, eta));
                    [
                        px[0] * py[0],
                        4.0 * px[2] * py[0],
                        4.0 * px[0] * py[2],
                        4.0 * px[1] * py[1],
                        0.0,
                        0.0,
                    ]
                })
                .collect();
            for p in 0..n {
                for q in p..n {
                    let (a, b) = (v[p], v[q]);
                    let stiff = a[1] * b[1]
                        + a[2] * b[2]
                        + poisson * (a[1] * b[2] + a[2] * b[1])
                        + 2.0 * (1.0 - poisson) * a[3] * b[3];
                    k[(p, q)] += w * stiff;
                    m[(p, q)] += w * a[0] * b[0];
                }
            }
        }
    }
    for p in 0..n {
        for q in 0..p {
            k[(p, q)] = k[(q, p)];
            m[(p, q)] = m[(q, p)];
        }
    }
    elastic_roots(&k, &m, count)
}

/// Free cube of side 1 by the Rayleigh–Ritz method on Legendre products `P_i P_j P_k`,
/// `i + j + k ≤ degree`, per displacement component (Visscher et al. 1991, the basis of
/// resonant ultrasound spectroscopy): the non-rigid frequencies in units of `c_s / L`
/// (`f L / c_s`), ascending.
pub fn cube_ritz(degree: usize, poisson: f64) -> Vec<f64> {
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
    let nb = powers.len();
    let n = 3 * nb;
    let quadrature = gauss(degree + 2);
    // ∫ φ_p φ_q and ∫ ∂_a φ_p ∂_b φ_q on [−½, ½]³, by the product rule on each axis: the
    // one-dimensional factors ∫ P_i^(di) P_j^(dj), tabulated once.
    let d = degree + 1;
    let mut table = vec![0.0; d * d * 4];
    for i in 0..d {
        for j in 0..d {
            for (di, dj) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                table[((i * d + j) * 2 + di) * 2 + dj] = quadrature
                    .iter()
                    .map(|&(x, w)| {
                        let (p, q) = (legendre(i, x), legendre(j, x));
                        // d/dx = 2 d/dξ on [−½, ½].
                        w / 2.0 * p[di] * q[dj] * 2f64.powi((di + dj) as i32)
                    })
                    .sum();
            }
        }
    }
    let one_d = |i: usize, j: usize, di: usize, dj: usize| table[((i * d + j) * 2 + di) * 2 + dj];
    let integral = |p: [usize; 3], q: [usize; 3], dp: [usize; 3], dq: [usize; 3]| -> f64 {
        (0..3).map(|x| one_d(p[x], q[x], dp[x], dq[x])).product()
    };
    let unit = |a: usize| core::array::from_fn::<usize, 3, _>(|x| usize::from(x == a));
    let mut k = Mat::<f64>::zeros(n, n);
    let mut m = Mat::<f64>::zeros(n, n);
    for (pi, &p) in powers.iter().enumerate() {
        for (qi, &q) in powers.iter().enumerate() {
            let mass = density * integral(p, q, [0; 3], [0; 3]);
            let grad = |a: usize, b: usize| integral(p, q, unit(a), unit(b));
            let dot: f64 = (0..3).map(|j| grad(j, j)).sum();
            for a in 0..3 {
                m[(3 * pi + a, 3 * qi + a)] = mass;
                for b in 0..3 {
                    let mut v = lambda * grad(a, b) + mu * grad(b, a);
                    if a == b {
                        v += mu * dot;
                    }
                    k[(3 * pi + a, 3 * qi + b)] = v;
                }
            }
        }
    }
    let theta = generalized(&k, &m);
    let shear_speed = (mu / density).sqrt();
    let scale = theta.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
    theta
        .iter()
        .filter(|&&l| l > 1e-9 * scale)
        .map(|&l| l.sqrt() / (2.0 * PI) / shear_speed)
        .collect()
}

/// Lowest root of the free sphere's l = 2 torsional frequency equation
/// `x j₂'(x) = j₂(x)`, i.e. `j₂(x) = x j₃(x)` (Lamb 1882): `ω = x c_s / a`.
pub fn sphere_torsion_root() -> f64 {
    let j2 = |x: f64| (3.0 / x.powi(3) - 1.0 / x) * x.sin() - 3.0 * x.cos() / (x * x);
    let j3 = |x: f64| {
        (15.0 / x.powi(4) - 6.0 / (x * x)) * x.sin() - (15.0 / x.powi(3) - 1.0 / x) * x.cos()
    };
    let g = |x: f64| j2(x) - x * j3(x);
    let (mut lo, mut hi) = (2.0, 3.0);
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

#[test]
fn timoshenko_tends_to_euler_bernoulli_for_slender_beams_and_lies_below() {
    // A 1000:1 beam: Timoshenko's corrections vanish (relative ≈ (β r)²).
    let slender = Beam {
        depth: 0.001,
        width: 0.001,
        ..issue_beam()
    };
    for ends in [Ends::FreeFree, Ends::ClampedFree] {
        let (t, e) = (slender.timoshenko(ends), slender.euler_bernoulli(ends));
        for n in 0..4 {
            assert!(
                (t[n] / e[n] - 1.0).abs() < 2e-4,
                "{ends:?} {n}: {t:?} vs {e:?}"
            );
        }
        // The issue's 20:1 beam: 1 %–7 % below, more for higher modes.
        let (t, e) = (
            issue_beam().timoshenko(ends),
            issue_beam().euler_bernoulli(ends),
        );
        for n in 0..4 {
            assert!(t[n] < e[n], "{ends:?} {n}");
        }
        assert!(t[3] / e[3] < 0.96 && t[0] / e[0] > 0.985, "{t:?} vs {e:?}");
    }
}

#[test]
fn kirchhoff_plate_ritz_reproduces_leissa() {
    // Leissa, *Vibration of Plates* (NASA SP-160, 1969), free square plate, ν = 0.3:
    // λ = 13.468, 19.596, 24.270, 34.801 (twice).
    let published = [13.468, 19.596, 24.270, 34.801, 34.801];
    let ours = kirchhoff_free_square(0.3, 14, 5);
    for (o, p) in ours.iter().zip(published) {
        assert!((o / p - 1.0).abs() < 2e-3, "{ours:?} vs {published:?}");
    }
}

#[test]
fn kirchhoff_cantilever_plate_ritz_reproduces_leissa() {
    // Leissa, *Vibration of Plates* (NASA SP-160, 1969), table 4.60, square plate clamped on
    // one edge (C-F-F-F), ν = 0.3: λ = 3.4917, 8.5246, 21.429, 27.331, 31.111, 54.443. His
    // Ritz series was short, and a Ritz value is an upper bound: the converged one is up to
    // 0.7 % lower (3.4711, 8.5066, 21.285, 27.199, 30.956, 54.186 here, unchanged to 10⁻⁴ from
    // degree 12 to 14).
    let published = [3.4917, 8.5246, 21.429, 27.331, 31.111, 54.443];
    let ours = kirchhoff_cantilever_square(0.3, 14, 6);
    let coarser = kirchhoff_cantilever_square(0.3, 12, 6);
    for ((o, c), p) in ours.iter().zip(&coarser).zip(published) {
        assert!(o < &p && o / p > 0.992, "{ours:?} vs {published:?}");
        assert!((o / c - 1.0).abs() < 1e-4, "{ours:?} vs {coarser:?}");
    }
}

#[test]
fn square_torsion_constant_is_saint_venants() {
    // J / a⁴ = 0.1406 (Timoshenko & Goodier §109), so f₁ = √(G · 0.1406 · 6 / ρ) / 2L.
    let beam = issue_beam();
    let shear = beam.young / (2.0 * (1.0 + beam.poisson));
    let expected = (shear * 0.1406 * 6.0 / beam.density).sqrt() / (2.0 * beam.length);
    let f = beam.square_torsion(Ends::FreeFree, 1);
    assert!((f / expected - 1.0).abs() < 1e-3, "{f} vs {expected}");
    assert!((beam.square_torsion(Ends::ClampedFree, 1) - 0.5 * f).abs() < 1e-12);
}

#[test]
fn cube_ritz_reproduces_the_exact_lame_mode() {
    // The cube's Lamé mode, f L / c_s = 1/√2 for any ν (Lamé 1852; Demarest 1971).
    let reference = cube_ritz(8, 0.3);
    let lame = 0.5f64.sqrt();
    assert!(
        reference.iter().any(|f| (f - lame).abs() < 1e-6 * lame),
        "{reference:?}"
    );
}

#[test]
fn lamb_torsion_root() {
    let x = sphere_torsion_root();
    assert!((x - 2.5011).abs() < 1e-3, "root {x}");
}

/// A hollow circular tube along its axis, free at both ends.
#[derive(Debug, Clone, Copy)]
pub struct Tube {
    pub outer: f64,
    pub inner: f64,
    pub length: f64,
    pub young: f64,
    pub poisson: f64,
    pub density: f64,
}

impl Tube {
    /// Saint-Venant torsion of a free–free circular tube (its section does not warp, `J` is
    /// the polar moment): `f_n = n c_s / 2L` with `c_s = √(G/ρ)`.
    pub fn torsion(&self, n: usize) -> f64 {
        let shear = self.young / (2.0 * (1.0 + self.poisson));
        n as f64 * (shear / self.density).sqrt() / (2.0 * self.length)
    }

    /// Three-dimensional linear elasticity of the tube, exact around it: displacements
    /// `u_r = U(r, z) cos nθ`, `u_θ = V(r, z) sin nθ`, `u_z = W(r, z) cos nθ` with `U, V, W` on
    /// 9-node quadratic elements over the wall's `(r, z)` section (`radial × axial` of them,
    /// 4 × 4 Gauss points), free ends: the lowest `count` nonzero frequencies in hertz of
    /// circumferential wave number `n ≥ 1` (each is a pair of the 3-D body, `cos` and `sin`).
    /// `n = 1` are the bending modes (beam theory's, with shear, rotary inertia and the
    /// section's own deformation), `n = 2` the ovalling modes (Flügge's and Donnell's shells,
    /// without the thin-shell approximations).
    pub fn harmonic(&self, n: usize, radial: usize, axial: usize, count: usize) -> Vec<f64> {
        let (nr, nz) = (2 * radial + 1, 2 * axial + 1);
        let dofs = 3 * nr * nz;
        let lambda =
            self.young * self.poisson / ((1.0 + self.poisson) * (1.0 - 2.0 * self.poisson));
        let mu = self.young / (2.0 * (1.0 + self.poisson));
        let nf = n as f64;
        let quadrature = gauss(4);
        // Quadratic Lagrange polynomials on nodes −1, 0, 1 and their derivatives.
        let lagrange = |i: usize, x: f64| -> [f64; 2] {
            match i {
                0 => [0.5 * x * (x - 1.0), x - 0.5],
                1 => [1.0 - x * x, -2.0 * x],
                _ => [0.5 * x * (x + 1.0), x + 0.5],
            }
        };
        let (mut k, mut m) = (Mat::<f64>::zeros(dofs, dofs), Mat::<f64>::zeros(dofs, dofs));
        let (dr, dz) = (
            (self.outer - self.inner) / radial as f64,
            self.length / axial as f64,
        );
        for er in 0..radial {
            for ez in 0..axial {
                let nodes: Vec<usize> = (0..9)
                    .map(|l| (2 * er + l % 3) + nr * (2 * ez + l / 3))
                    .collect();
                for &(xi, wx) in &quadrature {
                    for &(eta, wy) in &quadrature {
                        let r = self.inner + dr * (er as f64 + 0.5 * (xi + 1.0));
                        let w = wx * wy * 0.25 * dr * dz * r;
                        // Shape values and (r, z) derivatives of the 9 nodes.
                        let shape: Vec<[f64; 3]> = (0..9)
                            .map(|l| {
                                let (a, b) = (lagrange(l % 3, xi), lagrange(l / 3, eta));
                                [a[0] * b[0], 2.0 / dr * a[1] * b[0], 2.0 / dz * a[0] * b[1]]
                            })
                            .collect();
                        // Strain rows (ε_r, ε_θ, ε_z, γ_rθ, γ_θz, γ_rz) per (node, U/V/W).
                        let strain = |l: usize, c: usize| -> [f64; 6] {
                            let [s, sr, sz] = shape[l];
                            match c {
                                0 => [sr, s / r, 0.0, -nf * s / r, 0.0, sz],
                                1 => [0.0, nf * s / r, 0.0, sr - s / r, sz, 0.0],
                                _ => [0.0, 0.0, sz, 0.0, -nf * s / r, sr],
                            }
                        };
                        for p in 0..27 {
                            let bp = strain(p / 3, p % 3);
                            let sp = [
                                (lambda + 2.0 * mu) * bp[0] + lambda * (bp[1] + bp[2]),
                                (lambda + 2.0 * mu) * bp[1] + lambda * (bp[0] + bp[2]),
                                (lambda + 2.0 * mu) * bp[2] + lambda * (bp[0] + bp[1]),
                                mu * bp[3],
                                mu * bp[4],
                                mu * bp[5],
                            ];
                            let row = 3 * nodes[p / 3] + p % 3;
                            for q in 0..27 {
                                let bq = strain(q / 3, q % 3);
                                let col = 3 * nodes[q / 3] + q % 3;
                                let e: f64 = (0..6).map(|i| sp[i] * bq[i]).sum();
                                k[(row, col)] += w * e;
                                if p % 3 == q % 3 {
                                    m[(row, col)] +=
                                        w * self.density * shape[p / 3][0] * shape[q / 3][0];
                                }
                            }
                        }
                    }
                }
            }
        }
        elastic_roots(&k, &m, count)
            .into_iter()
            .map(|root| root / (2.0 * PI))
            .collect()
    }
}

/// The tube of the thin-walled checks: outer radius 3 cm, wall 4 mm, 0.5 m long, E = 1 MPa,
/// ν = 0.3, ρ = 1000 kg/m³.
pub fn thin_tube() -> Tube {
    Tube {
        outer: 0.03,
        inner: 0.026,
        length: 0.5,
        young: 1e6,
        poisson: 0.3,
        density: 1000.0,
    }
}

#[test]
fn tube_reference_converges_and_agrees_with_ring_and_beam_theory() {
    let tube = thin_tube();
    let (coarse, fine) = (
        [tube.harmonic(1, 1, 25, 1), tube.harmonic(2, 1, 25, 1)],
        [tube.harmonic(1, 2, 50, 2), tube.harmonic(2, 2, 50, 1)],
    );
    // Halving the elements moves nothing by more than 0.3 % (a 4 × 100 run, too slow for
    // the tests, gives 8.296278 and 20.599642 Hz, within 0.02 % of the 2 × 50 one).
    for n in 0..2 {
        assert!(
            (coarse[n][0] / fine[n][0] - 1.0).abs() < 3e-3,
            "{coarse:?} {fine:?}"
        );
    }
    // Bending (n = 1) against Timoshenko's beam with Cowper's coefficient for a hollow
    // circle: the two lowest within 1 % (the section's own deformation is all they differ by).
    let m2 = (tube.inner / tube.outer).powi(2);
    let nu = tube.poisson;
    let section = Section {
        length: tube.length,
        area: PI * (tube.outer.powi(2) - tube.inner.powi(2)),
        second_moment: PI / 4.0 * (tube.outer.powi(4) - tube.inner.powi(4)),
        shear_coefficient: 6.0 * (1.0 + nu) * (1.0 + m2).powi(2)
            / ((7.0 + 6.0 * nu) * (1.0 + m2).powi(2) + (20.0 + 12.0 * nu) * m2),
        young: tube.young,
        poisson: nu,
        density: tube.density,
    };
    let beam = section.timoshenko(Ends::FreeFree);
    for n in 0..2 {
        assert!(
            (fine[0][n] / beam[n] - 1.0).abs() < 0.01,
            "{fine:?} vs {beam:?}"
        );
    }
    // Ovalling (n = 2) against the thin ring (Love; Flügge's and Donnell's shells for a
    // mode uniform along the tube): ω² = E h² n²(n² − 1)² / (12 ρ R⁴ (n² + 1)) with E for a
    // free ring (plane stress) and E / (1 − ν²) for a long tube (plane strain). A tube
    // 0.5 m long with free ends lies between them.
    let (h, r) = (tube.outer - tube.inner, 0.5 * (tube.outer + tube.inner));
    let ring = |young: f64| {
        (young * h * h * 4.0 * 9.0 / (12.0 * tube.density * r.powi(4) * 5.0)).sqrt() / (2.0 * PI)
    };
    let (stress, strain) = (ring(tube.young), ring(tube.young / (1.0 - nu * nu)));
    assert!(
        fine[1][0] > stress && fine[1][0] < strain,
        "{} not in {stress}…{strain}",
        fine[1][0]
    );
}

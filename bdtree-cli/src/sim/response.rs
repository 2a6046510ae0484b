//! How the chairs' contacts push, within what an explicit step can resolve: the penalty
//! contacts ([`Push`]), their friction ([`friction`]), the stiffness limit of the step
//! ([`StepLimit`]) and the strain limit of the modes ([`strain_limited`]).
//!
//! **Why a limit.** The simulation steps explicitly (semi-implicit Euler, step `h`). A body
//! held by springs of stiffness `k_c` and dampers `c_c` at points `r_c` from its center of mass
//! is stable only while `h ω < 2` for the fastest motion the springs allow. In a heap a chair
//! meets hundreds of proxy contacts at depth 10 (a pair of chairs pressed together overlaps in
//! tens of proxy pairs, each a spring of [`super::chairs::ChairOptions::stiffness`]), and its
//! rotation, with a smallest moment of inertia of 0.43 kg·m² and contacts half a metre out,
//! passes the limit near 60–90 contacts: a pile of 1,000 chairs turned one chair's oscillation into
//! 1,679 contacts and 3 × 10⁵ N in two steps and went to NaN at step 582.
//!
//! The limit: for a contact of stiffness `k` and damping `c` at a point `r` from the center of
//! mass, `g = 1/m + |r|²/I_min` bounds the inverse mass the contact's direction sees
//! (`nᵀ(1/m) n + (r × n)ᵀ I⁻¹ (r × n)`, for every unit normal and any orientation). The largest
//! eigenvalue of `M⁻¹ K` (and of `M⁻¹ C`) over the chair's rigid motion is at most the trace
//! `Σ_c k_c g_c` (each contact adds a rank-one term). A chair whose contacts give
//! `h² Σ_c g_c k_c > 1` has their stiffness scaled by the factor that brings the sum to 1, and
//! one whose friction gives `h Σ_c g_c c_c > 0.4` has its viscous bound scaled likewise:
//! `h² λ_k ≤ 1` and `h λ_c ≤ 0.4`. The damped explicit step of `ẍ = −a x − b ẋ` is stable
//! while `h² a + 2 h b < 4`; a contact between two chairs takes the smaller of their two
//! factors (so the forces stay equal and opposite), and if the pair's relative motion sees
//! twice one chair's sums, `2 (1 + 2 · 0.4) = 3.6 < 4`. (A chain of chairs can couple more
//! than a pair: the budgets leave this margin, they do not prove it for every heap; the
//! 1,000-chair pile that went to NaN stays finite with them.) The two budgets are apart so
//! that friction, a regularised Coulomb law, gives way before the normal stiffness that keeps
//! the chairs apart. The factors are 1 for a chair resting on its feet or under a few others:
//! the heap's static loads are carried at full stiffness, and only a chair in tens of contacts
//! at once is softened (to a total stiffness of about `1 / (g h²)`, 4 × 10⁵ N/m, which stops a
//! chair falling at the terminal speed within 3 cm).
//!
//! The modes are left out of the sum: their coordinates are held within the strain limit by an
//! inelastic stop ([`strain_limited`]), so a contact cannot drive them past it.

use bdtree_std::host::Wrench;

/// The largest `h λ_c` of a chair's friction (see the module's docs).
pub const DAMPING_BUDGET: f64 = 0.4;

/// Friction's viscous bound per contact, N·s/m (see [`friction`]).
pub const VISCOUS: f64 = 100.0;

/// A penalty contact's normal force: from the first chair (`None`: the ground) to the
/// second, at `point`, `force` newtons along `normal`.
#[derive(Debug, Clone, Copy)]
pub struct Push {
    /// The chairs (`None`: the ground).
    pub chairs: [Option<usize>; 2],
    /// Where it acts, world, m.
    pub point: [f64; 3],
    /// Unit normal, from the first to the second.
    pub normal: [f64; 3],
    /// Normal force, N (after [`Push::scale`]).
    pub force: f64,
    /// Stiffness of the contact before the step's limit, N/m.
    pub stiffness: f64,
    /// The step's limit on this contact's stiffness ([`StepLimit::pair`]): its stiffness is
    /// multiplied by it.
    pub scale: f64,
    /// The step's limit on friction's viscous bound at this contact: [`VISCOUS`] is
    /// multiplied by it.
    pub damping: f64,
}

/// The rigid motion's inverse mass bounds of a chair and the step: see the module's docs.
#[derive(Debug, Clone, Copy)]
pub struct StepLimit {
    /// `1 / m`, 1/kg.
    pub inverse_mass: f64,
    /// `1 / I_min`, the smallest principal moment of inertia's inverse, 1/(kg·m²).
    pub inverse_inertia: f64,
    /// The step, s.
    pub dt: f64,
    /// Each contact's damping, N·s/m (friction's viscous bound, 0 without friction).
    pub damping: f64,
}

impl StepLimit {
    /// The limit of a body of mass `mass` and inertia tensor `inertia` (about its center of
    /// mass, symmetric positive definite) stepped by `dt`, with `damping` per contact.
    pub fn new(mass: f64, inertia: &[[f64; 3]; 3], dt: f64, damping: f64) -> Self {
        Self {
            inverse_mass: 1.0 / mass,
            inverse_inertia: 1.0 / smallest_eigenvalue(inertia),
            dt,
            damping,
        }
    }

    /// Every chair's factors (each at most 1) for the contacts `pushes` with the chairs'
    /// centers of mass at `centers`: of the contacts' stiffness (`h² λ_k ≤ 1`) and of their damping
    /// (`h λ_c ≤` [`DAMPING_BUDGET`]).
    pub fn scales(&self, centers: &[[f64; 3]], pushes: &[Push]) -> (Vec<f64>, Vec<f64>) {
        let mut stiff = vec![0.0f64; centers.len()];
        let mut damp = vec![0.0f64; centers.len()];
        let h = self.dt;
        for push in pushes {
            for c in push.chairs.iter().flatten() {
                let x = centers[*c];
                let r2: f64 = (0..3).map(|k| (push.point[k] - x[k]).powi(2)).sum();
                let g = self.inverse_mass + r2 * self.inverse_inertia;
                stiff[*c] += g * h * h * push.stiffness;
                damp[*c] += g * h * self.damping / DAMPING_BUDGET;
            }
        }
        // A NaN sum (a broken state) gives a NaN factor: the simulation stops at it.
        let factor = |s: f64| {
            if s > 1.0 {
                1.0 / s
            } else if s.is_nan() {
                s
            } else {
                1.0
            }
        };
        (
            stiff.into_iter().map(factor).collect(),
            damp.into_iter().map(factor).collect(),
        )
    }

    /// The factor of a contact between `chairs` (`None`: the ground): the smaller one.
    pub fn pair(scales: &[f64], chairs: [Option<usize>; 2]) -> f64 {
        chairs
            .iter()
            .flatten()
            .map(|&c| scales[c])
            .fold(1.0, f64::min)
    }
}

/// The smallest eigenvalue of a symmetric 3×3 matrix (the trigonometric closed form).
pub fn smallest_eigenvalue(a: &[[f64; 3]; 3]) -> f64 {
    let p1 = a[0][1].powi(2) + a[0][2].powi(2) + a[1][2].powi(2);
    let q = (a[0][0] + a[1][1] + a[2][2]) / 3.0;
    let p2 = (0..3).map(|i| (a[i][i] - q).powi(2)).sum::<f64>() + 2.0 * p1;
    let p = (p2 / 6.0).sqrt();
    if p == 0.0 {
        return q;
    }
    let b: [[f64; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| (a[i][j] - if i == j { q } else { 0.0 }) / p)
    });
    let det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1])
        - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0])
        + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
    let phi = (det / 2.0).clamp(-1.0, 1.0).acos() / 3.0;
    q + 2.0 * p * (phi + 2.0 * std::f64::consts::FRAC_PI_3).cos()
}

/// One modal coordinate's step against its strain limit `±limit`: the new `(q, q̇)` from
/// `q`, `q̇` and the acceleration `acc`. At the limit the stop is inelastic: the velocity
/// pushing past it is removed (a clamp of `q` alone kept it, and a coordinate held at the
/// limit by a contact gathered a velocity of 20 units/s, 0.04 per step against a range of
/// 0.02, jumping from one limit to the other in a step when the contact let go).
pub fn strain_limited(q: f64, qd: f64, acc: f64, dt: f64, limit: f64) -> (f64, f64) {
    let qd = qd + dt * acc;
    let q = q + dt * qd;
    if q > limit {
        (limit, qd.min(0.0))
    } else if q < -limit {
        (-limit, qd.max(0.0))
    } else {
        (q, qd)
    }
}

/// Friction of the pushes (Coulomb, coefficient `mu`, regularised as a viscous force below
/// the slip): each opposes the tangential velocity `v_t` of the second side relative to the
/// first at the contact point, with `min(mu · force, VISCOUS · damping · |v_t|)`, on the
/// chairs' translation and rotation. The viscous bound and the push's step limit keep the
/// explicit step stable with many contacts per chair (an unbounded viscous part launched
/// chairs out of a heap of 125). `centers` are the chairs' centers of mass, `v` and `w` their
/// linear and angular velocities.
pub fn friction(
    pushes: &[Push],
    centers: &[[f64; 3]],
    v: &[[f64; 3]],
    w: &[[f64; 3]],
    mu: f64,
    wrenches: &mut [Wrench],
) {
    let velocity = |c: Option<usize>, p: [f64; 3]| -> [f64; 3] {
        let Some(c) = c else {
            return [0.0; 3];
        };
        let r: [f64; 3] = std::array::from_fn(|k| p[k] - centers[c][k]);
        let om = w[c];
        let cross = [
            om[1] * r[2] - om[2] * r[1],
            om[2] * r[0] - om[0] * r[2],
            om[0] * r[1] - om[1] * r[0],
        ];
        std::array::from_fn(|k| v[c][k] + cross[k])
    };
    for push in pushes {
        let [a, b] = push.chairs;
        let (va, vb) = (velocity(a, push.point), velocity(b, push.point));
        let rel: [f64; 3] = std::array::from_fn(|k| vb[k] - va[k]);
        let n = push.normal;
        let along = rel[0] * n[0] + rel[1] * n[1] + rel[2] * n[2];
        let t: [f64; 3] = std::array::from_fn(|k| rel[k] - along * n[k]);
        let speed = (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]).sqrt();
        if !(speed > 0.0 && push.force > 0.0) {
            continue;
        }
        let magnitude = (mu * push.force).min(VISCOUS * push.damping * speed);
        // On the second side, against its sliding; the first gets the opposite.
        let f: [f64; 3] = std::array::from_fn(|k| -magnitude * t[k] / speed);
        for (c, sign) in [(b, 1.0), (a, -1.0)] {
            let Some(c) = c else { continue };
            let r: [f64; 3] = std::array::from_fn(|k| push.point[k] - centers[c][k]);
            let g = f.map(|x| sign * x);
            let wrench = &mut wrenches[c];
            for (sum, g) in wrench.force.iter_mut().zip(g) {
                *sum += g;
            }
            wrench.torque[0] += r[1] * g[2] - r[2] * g[1];
            wrench.torque[1] += r[2] * g[0] - r[0] * g[2];
            wrench.torque[2] += r[0] * g[1] - r[1] * g[0];
        }
    }
}

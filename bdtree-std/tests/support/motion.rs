//! A body's motion between two ticks as the swept queries interpolate it, written
//! independently of the kernel: `q` and the translation linear in τ, the rotation a slerp.

use bdtree_std::io;

/// One body's two states: (q, pose) at τ = 0 and τ = 1.
pub type Ends = [(Vec<f64>, io::Pose); 2];

/// The slerp on the shorter arc, written independently of the kernel.
fn slerp(a: [f64; 4], b: [f64; 4], tau: f64) -> [f64; 4] {
    let norm = |q: [f64; 4]| {
        let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        q.map(|x| x / n)
    };
    let (a, mut b) = (norm(a), norm(b));
    let mut d: f64 = (0..4).map(|k| a[k] * b[k]).sum();
    if d < 0.0 {
        b = b.map(|x| -x);
        d = -d;
    }
    let omega = d.min(1.0).acos();
    if omega < 1e-12 {
        return norm([0, 1, 2, 3].map(|k| a[k] + tau * (b[k] - a[k])));
    }
    let (wa, wb) = (((1.0 - tau) * omega).sin(), (tau * omega).sin());
    norm([0, 1, 2, 3].map(|k| wa * a[k] + wb * b[k]))
}

/// The state at τ.
pub fn state_at(ends: &Ends, tau: f64) -> (Vec<f64>, io::Pose) {
    let ([q0, q1], [p0, p1]) = ([&ends[0].0, &ends[1].0], [&ends[0].1, &ends[1].1]);
    let q = q0.iter().zip(q1).map(|(a, b)| a + tau * (b - a)).collect();
    let translation =
        [0, 1, 2].map(|k| p0.translation[k] + tau * (p1.translation[k] - p0.translation[k]));
    let rotation = slerp(p0.rotation, p1.rotation, tau);
    (
        q,
        io::Pose {
            rotation,
            translation,
        },
    )
}

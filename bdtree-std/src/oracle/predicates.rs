//! Exact orientation predicates: a filtered f64 evaluation, then floating-point expansions
//! when the filter cannot decide.

use crate::vec3::sub;

/// Relative error bound of the filtered determinants: comfortably above Shewchuk's
/// `(7 + 56ε)ε` for orient3d and `(3 + 16ε)ε` for orient2d (ε = 2⁻⁵³).
const FILTER_BOUND: f64 = 1e-15;

/// Sign of `((b − a) × (c − a)) · (d − a)`: +1 when `d` is on the side the right-handed normal of
/// `(a, b, c)` points to, −1 on the other side, 0 when the four points are coplanar. Exact.
pub(super) fn orient3d(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> i32 {
    let u = sub(b, a);
    let v = sub(c, a);
    let w = sub(d, a);
    let m0 = u[1] * v[2] - u[2] * v[1];
    let m1 = u[2] * v[0] - u[0] * v[2];
    let m2 = u[0] * v[1] - u[1] * v[0];
    let det = w[0] * m0 + w[1] * m1 + w[2] * m2;
    let permanent = w[0].abs() * ((u[1] * v[2]).abs() + (u[2] * v[1]).abs())
        + w[1].abs() * ((u[2] * v[0]).abs() + (u[0] * v[2]).abs())
        + w[2].abs() * ((u[0] * v[1]).abs() + (u[1] * v[0]).abs());
    let bound = FILTER_BOUND * permanent;
    if det > bound {
        return 1;
    }
    if -det > bound {
        return -1;
    }
    exact::orient3d(a, b, c, d)
}

/// Sign of `(b − a) × (c − a)` in the plane: +1 counter-clockwise, −1 clockwise, 0 collinear.
/// Exact.
pub(super) fn orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> i32 {
    let l = (b[0] - a[0]) * (c[1] - a[1]);
    let r = (b[1] - a[1]) * (c[0] - a[0]);
    let det = l - r;
    let bound = FILTER_BOUND * (l.abs() + r.abs());
    if det > bound {
        return 1;
    }
    if -det > bound {
        return -1;
    }
    exact::orient2d(a, b, c)
}

/// Exact signs of determinants with floating-point expansions (Shewchuk, "Adaptive Precision
/// Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997): a value is held as a
/// sum of non-overlapping f64 components in increasing magnitude, and its sign is the sign of
/// the largest one. Exact as long as no product overflows or underflows.
pub(super) mod exact {
    type Expansion = Vec<f64>;

    fn two_sum(a: f64, b: f64) -> (f64, f64) {
        let s = a + b;
        let bv = s - a;
        let av = s - bv;
        (s, (a - av) + (b - bv))
    }

    fn two_product(a: f64, b: f64) -> (f64, f64) {
        let p = a * b;
        (p, a.mul_add(b, -p))
    }

    /// `a − b` exactly, as an expansion.
    fn diff(a: f64, b: f64) -> Expansion {
        let (s, e) = two_sum(a, -b);
        compress([e, s].to_vec())
    }

    fn compress(e: Expansion) -> Expansion {
        e.into_iter().filter(|&x| x != 0.0).collect()
    }

    /// Shewchuk's Grow-Expansion: `e + b`.
    fn grow(e: &[f64], b: f64) -> Expansion {
        let mut out = Vec::with_capacity(e.len() + 1);
        let mut q = b;
        for &x in e {
            let (s, h) = two_sum(q, x);
            if h != 0.0 {
                out.push(h);
            }
            q = s;
        }
        if q != 0.0 {
            out.push(q);
        }
        out
    }

    fn add(e: &[f64], f: &[f64]) -> Expansion {
        let mut out = e.to_vec();
        for &x in f {
            out = grow(&out, x);
        }
        out
    }

    fn negate(e: &[f64]) -> Expansion {
        e.iter().map(|x| -x).collect()
    }

    /// Shewchuk's Scale-Expansion: `e · b`.
    fn scale(e: &[f64], b: f64) -> Expansion {
        let mut out = Vec::with_capacity(2 * e.len());
        let mut iter = e.iter();
        let Some(&first) = iter.next() else {
            return out;
        };
        let (mut q, h) = two_product(first, b);
        if h != 0.0 {
            out.push(h);
        }
        for &x in iter {
            let (t_hi, t_lo) = two_product(x, b);
            let (s, h) = two_sum(q, t_lo);
            if h != 0.0 {
                out.push(h);
            }
            let (s2, h2) = two_sum(t_hi, s);
            if h2 != 0.0 {
                out.push(h2);
            }
            q = s2;
        }
        if q != 0.0 {
            out.push(q);
        }
        out
    }

    fn mul(e: &[f64], f: &[f64]) -> Expansion {
        let mut out = Vec::new();
        for &x in f {
            out = add(&out, &scale(e, x));
        }
        out
    }

    fn sign(e: &[f64]) -> i32 {
        match e.iter().rev().find(|&&x| x != 0.0) {
            Some(&x) if x > 0.0 => 1,
            Some(_) => -1,
            None => 0,
        }
    }

    pub(crate) fn orient3d(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> i32 {
        let u: Vec<Expansion> = (0..3).map(|k| diff(b[k], a[k])).collect();
        let v: Vec<Expansion> = (0..3).map(|k| diff(c[k], a[k])).collect();
        let w: Vec<Expansion> = (0..3).map(|k| diff(d[k], a[k])).collect();
        let minor = |i: usize, j: usize| add(&mul(&u[i], &v[j]), &negate(&mul(&u[j], &v[i])));
        let m0 = minor(1, 2);
        let m1 = minor(2, 0);
        let m2 = minor(0, 1);
        let det = add(&add(&mul(&w[0], &m0), &mul(&w[1], &m1)), &mul(&w[2], &m2));
        sign(&det)
    }

    pub(crate) fn orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> i32 {
        let l = mul(&diff(b[0], a[0]), &diff(c[1], a[1]));
        let r = mul(&diff(b[1], a[1]), &diff(c[0], a[0]));
        sign(&add(&l, &negate(&r)))
    }
}

//! The witness point of an intersecting pair against its documented bound (issue 50): random
//! intersecting f64 pairs — general, nearly parallel (an edge at a tiny angle to the other's
//! plane), nearly coplanar, coplanar, slivers (two edges 10⁻¹⁵–10⁻¹ rad apart), 0–1000 from
//! the origin — and the point of [`triangle_contact`] and of the distance query's separation,
//! measured against both triangles in double-double (the f64 point–triangle routine itself
//! is off by up to `u L / sin² φ` on a sliver, and would read 6·10¹³ T here).

extern crate std;

use super::closest::closest_on_triangle;
use super::triangle_pair::{contact_tolerance, triangle_contact, triangle_separation};

type V = [f64; 3];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn dir(&mut self) -> V {
        loop {
            let v = [
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            ];
            let n = dot(v, v);
            if n > 0.05 && n <= 1.0 {
                return scale(v, 1.0 / n.sqrt());
            }
        }
    }
}

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn scale(a: V, s: f64) -> V {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn unit(a: V) -> V {
    scale(a, 1.0 / dot(a, a).sqrt())
}

/// The distance of `p` to triangle `t`, measured in coordinates translated to `t[0]` (the
/// differences of nearby f64 coordinates are exact, Sterbenz), so the rounding is a few `u`
/// of the triangle's size, not of its distance from the origin. Never below the true
/// distance by more than that (the point found lies on the triangle).
fn measured_distance(p: V, t: &[V; 3]) -> f64 {
    let o = t[0];
    let tt = [[0.0; 3], sub(t[1], o), sub(t[2], o)];
    let q = sub(p, o);
    let c = closest_on_triangle(q, &tt);
    let d = sub(q, c);
    dot(d, d).sqrt()
}

/// Double-double: `hi + lo` unevaluated (Dekker, Knuth; products by fused multiply-add).
#[derive(Clone, Copy)]
struct Dd(f64, f64);
impl Dd {
    fn two_sum(a: f64, b: f64) -> Dd {
        let s = a + b;
        let bb = s - a;
        Dd(s, (a - (s - bb)) + (b - bb))
    }
    fn add(self, o: Dd) -> Dd {
        let s = Dd::two_sum(self.0, o.0);
        let t = Dd::two_sum(self.1, o.1);
        let s = Dd::two_sum(s.0, s.1 + t.0);
        Dd::two_sum(s.0, s.1 + t.1)
    }
    fn neg(self) -> Dd {
        Dd(-self.0, -self.1)
    }
    fn sub(self, o: Dd) -> Dd {
        self.add(o.neg())
    }
    fn mul(self, o: Dd) -> Dd {
        let p = self.0 * o.0;
        let e = self.0.mul_add(o.0, -p);
        Dd::two_sum(p, e + (self.0 * o.1 + self.1 * o.0))
    }
}
type W = [Dd; 3];
fn w_sub(a: V, b: V) -> W {
    [0, 1, 2].map(|k| Dd(a[k], 0.0).sub(Dd(b[k], 0.0)))
}
fn w_cross(a: W, b: W) -> W {
    [
        a[1].mul(b[2]).sub(a[2].mul(b[1])),
        a[2].mul(b[0]).sub(a[0].mul(b[2])),
        a[0].mul(b[1]).sub(a[1].mul(b[0])),
    ]
}
fn w_dot(a: W, b: W) -> Dd {
    a[0].mul(b[0]).add(a[1].mul(b[1])).add(a[2].mul(b[2]))
}

/// The distance of `p` to triangle `t` to a few `u` of the triangle's size whatever its
/// shape: in double-double, the normal `n`, which side of each edge `p`'s projection lies
/// (`((v_j − p) × (v_k − p)) · n`), and `p`'s height over the plane; outside, the nearest edge
/// (a point–segment distance, well-conditioned, in f64 translated to the edge).
fn exact_distance(p: V, t: &[V; 3]) -> f64 {
    let n = w_cross(w_sub(t[1], t[0]), w_sub(t[2], t[0]));
    let nn = w_dot(n, n).0;
    let edge = |x: V, y: V| {
        let (c, _) = super::closest::closest_on_segment(sub(p, x), [0.0; 3], sub(y, x));
        let d = sub(sub(p, x), c);
        dot(d, d).sqrt()
    };
    let edges = edge(t[0], t[1]).min(edge(t[1], t[2])).min(edge(t[2], t[0]));
    if nn.is_nan() || nn <= 0.0 {
        return edges;
    }
    let side = |j: usize, k: usize| w_dot(w_cross(w_sub(t[j], p), w_sub(t[k], p)), n).0;
    let (s0, s1, s2) = (side(1, 2), side(2, 0), side(0, 1));
    let inside = (s0 >= 0.0 && s1 >= 0.0 && s2 >= 0.0) || (s0 <= 0.0 && s1 <= 0.0 && s2 <= 0.0);
    if inside {
        (w_dot(w_sub(p, t[0]), n).0 / nn.sqrt()).abs()
    } else {
        edges
    }
}

/// The sine of a triangle's smallest angle.
fn min_sine(t: &[V; 3]) -> f64 {
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let n = dot(n, n).sqrt();
    let l = |x: V, y: V| dot(sub(x, y), sub(x, y)).sqrt();
    let (e0, e1, e2) = (l(t[1], t[2]), l(t[2], t[0]), l(t[0], t[1]));
    (n / (e1 * e2)).min(n / (e0 * e2)).min(n / (e0 * e1))
}

/// A triangle through `c` spanned by the unit directions `e1`, `e2`, with `c` at random
/// barycentric coordinates (each at least 0.1), sides 0.5–2.
fn through(rng: &mut Rng, c: V, e1: V, e2: V) -> [V; 3] {
    let (l1, l2) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
    let s = rng.range(0.1, 0.8);
    let t = rng.range(0.1, 0.9 - s);
    // c = v0 + s (v1 − v0) + t (v2 − v0), with v1 − v0 = l1 e1 and v2 − v0 = l2 e2.
    let v0 = sub(c, add(scale(e1, s * l1), scale(e2, t * l2)));
    [v0, add(v0, scale(e1, l1)), add(v0, scale(e2, l2))]
}

/// A direction at angle `theta` from the plane with normal `n` (unit), otherwise random.
fn at_angle(rng: &mut Rng, n: V, theta: f64) -> V {
    let in_plane = unit(cross(n, rng.dir()));
    add(scale(in_plane, theta.cos()), scale(n, theta.sin()))
}

/// A random unit direction at least 0.5 rad from `d` and from `−d` (no slivers).
fn well_apart(rng: &mut Rng, d: V) -> V {
    loop {
        let e = rng.dir();
        if dot(e, d).abs() < 0.877 {
            return e;
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    General,
    EdgeNearlyParallel,
    NearlyCoplanar,
    Coplanar,
    Sliver,
}

fn pair(rng: &mut Rng, kind: Kind, offset: f64) -> ([V; 3], [V; 3], V) {
    let c = scale(rng.dir(), offset);
    let a1 = rng.dir();
    let a2 = well_apart(rng, a1);
    let a = through(rng, c, a1, a2);
    let n = unit(cross(a1, a2));
    let theta = 10f64.powf(rng.range(-15.0, -1.0)) * if rng.unit() < 0.5 { -1.0 } else { 1.0 };
    let (b1, b2) = match kind {
        Kind::General => {
            let b1 = rng.dir();
            (b1, well_apart(rng, b1))
        }
        Kind::EdgeNearlyParallel => {
            let b1 = at_angle(rng, n, theta);
            (b1, well_apart(rng, b1))
        }
        Kind::Sliver => {
            // Edges `theta` apart, the sliver in a random plane or nearly in the other's.
            let b1 = if rng.unit() < 0.5 {
                rng.dir()
            } else {
                at_angle(rng, n, theta)
            };
            let across = unit(cross(b1, rng.dir()));
            (
                b1,
                unit(add(scale(b1, theta.cos()), scale(across, theta.sin()))),
            )
        }
        Kind::NearlyCoplanar | Kind::Coplanar => {
            // Two in-plane directions 0.5–2.6 rad apart (no slivers), then tilted out of the
            // plane by `theta` about the second.
            let d1 = at_angle(rng, n, 0.0);
            let d2 = cross(n, d1);
            let phi = rng.range(0.5, 2.6);
            let b1 = add(scale(d1, phi.cos()), scale(d2, phi.sin()));
            let b2 = d1;
            if kind == Kind::Coplanar {
                (b1, b2)
            } else {
                let b1 = unit(add(scale(b1, theta.cos()), scale(n, theta.sin())));
                (b1, b2)
            }
        }
    };
    let b = through(rng, c, b1, b2);
    if rng.unit() < 0.5 {
        (a, b, c)
    } else {
        (b, a, c)
    }
}

/// The largest `distance / T` seen, with its pair.
#[derive(Clone, Copy, Default)]
struct Worst {
    ratio: f64,
    offset: f64,
    sine: f64,
    a: [V; 3],
    b: [V; 3],
}

impl Worst {
    fn see(&mut self, ratio: f64, offset: f64, sine: f64, a: [V; 3], b: [V; 3]) {
        if ratio > self.ratio {
            *self = Worst {
                ratio,
                offset,
                sine,
                a,
                b,
            };
        }
    }
}

/// The point of [`triangle_contact`] lies within `T` of both triangles, on every kind of
/// pair; the distance query's point of an intersecting pair ([`triangle_separation`]) too
/// while both triangles' smallest angles have a sine of at least 0.02, and within
/// `T / sin²φ` (`φ` the smallest angle of the two) on slivers. Sliver pairs whose common
/// point is within a small fraction of `T` of both can get no contact (module docs of
/// [`super::triangle_pair`]); every other pair the leaf test keeps gets one. 100,000 pairs,
/// 20,000 of each kind, centred 0–1000 from the origin, `error = 0`.
#[test]
fn witness_points_lie_within_the_contact_tolerance_of_both_triangles() {
    const KINDS: [Kind; 5] = [
        Kind::General,
        Kind::EdgeNearlyParallel,
        Kind::NearlyCoplanar,
        Kind::Coplanar,
        Kind::Sliver,
    ];
    let mut rng = Rng(50);
    // [contact, separation][kind]
    let mut worst = [[Worst::default(); 5]; 2];
    let mut sliver_fit = 0.0f64;
    // [contact, separation], over the pairs whose smallest sine is at least 0.02
    let mut well_shaped = [0.0f64; 2];
    let (mut contacts, mut separations) = (0u32, 0u32);
    let mut dropped = [0u32; 5];
    let (mut dropped_gap, mut dropped_sine) = (0.0f64, 0.0f64);
    let mut f64_measured = 0.0f64;
    for i in 0..100_000u32 {
        let kind = KINDS[(i % 5) as usize];
        let offset = [0.0, 1.0, 10.0, 100.0, 1000.0][(i / 5 % 5) as usize] * rng.range(0.5, 1.0);
        let (a, b, c) = pair(&mut rng, kind, offset);
        let error = 0.0;
        let t = contact_tolerance(&a, &b, error);
        let sine = min_sine(&a).min(min_sine(&b));
        let mut check = |p: V, path: usize| {
            let ratio = exact_distance(p, &a).max(exact_distance(p, &b)) / t;
            let f = measured_distance(p, &a).max(measured_distance(p, &b));
            f64_measured = f64_measured.max(f / t);
            worst[path][kind as usize].see(ratio, offset, sine, a, b);
            sliver_fit = sliver_fit.max(ratio * sine * sine);
            if sine >= 0.02 {
                well_shaped[path] = well_shaped[path].max(ratio);
            }
        };
        if let Some(contact) = triangle_contact(&a, &b, error) {
            contacts += 1;
            check(contact.point, 0);
        } else if super::triangle::triangles_may_intersect(&a, &b, error) {
            dropped[kind as usize] += 1;
            let gap = exact_distance(c, &a).max(exact_distance(c, &b)) / t;
            dropped_gap = dropped_gap.max(gap);
            dropped_sine = dropped_sine.max(sine);
        }
        let s = triangle_separation(&a, &b, error);
        if s.intersecting {
            separations += 1;
            check(s.point_a, 1);
        }
    }
    for (path, name) in ["contact", "separation"].iter().enumerate() {
        for (k, w) in worst[path].iter().enumerate() {
            std::println!(
                "{name} {:?}: worst distance / T = {:.4} (offset {:.1}, smallest sine {:.2e})",
                KINDS[k],
                w.ratio,
                w.offset,
                w.sine
            );
        }
    }
    let w = worst[1][4];
    std::println!(
        "{contacts} contacts, {separations} intersecting separations of 100000 pairs; \
         distance / T ≤ {well_shaped:.4?} at smallest sine ≥ 0.02; distance·sin²φ / T ≤ {sliver_fit:.2e}; no contact for {dropped:?} pairs (smallest \
         sine ≤ {dropped_sine:.2e}, a common point within {dropped_gap:.3} T of both); \
         measured with the f64 point–triangle routine the worst would read {f64_measured:.3e} T\n\
         worst sliver separation: a = {:?}\nb = {:?}",
        w.a,
        w.b
    );
    for (k, kind) in KINDS.iter().enumerate() {
        // Every pair the exact test accepts has a contact (slivers included: issue 50).
        assert_eq!(dropped[k], 0, "{kind:?} pairs without a contact");
        if *kind != Kind::Sliver {
            for (path, name) in ["contact", "separation"].iter().enumerate() {
                assert!(
                    worst[path][k].ratio <= 1.0,
                    "{name} {kind:?}: {}",
                    worst[path][k].ratio
                );
            }
        }
    }
    assert!(
        well_shaped[0] <= 1.0 && well_shaped[1] <= 1.0,
        "{well_shaped:?}"
    );
    // Slivers: both points within T / sin²φ.
    assert!(sliver_fit <= 1.0, "distance · sin²φ / T = {sliver_fit}");
    let _ = (dropped_gap, dropped_sine);
}

//! Zero-area triangles (issue 23): the leaf test against an oracle that shares no code with
//! `bdtree_core::geometry::triangle` — exact intersection from `oracle::triangles_intersect` (expansion
//! arithmetic) and, for every pair the kernel reports that does not intersect, the exact
//! squared distance in rational arithmetic ([`exact`]).
//!
//! * Random pairs of point, segment, sliver (area down to 10⁻¹⁸ of the box), needle and
//!   ordinary triangles in independent, touching, touching-within-one-ulp, near-miss,
//!   coincident, collinear and coplanar configurations, in f64 and f32: nothing missed, and
//!   every extra within the leaf test's documented bound `√3 τ + 64 u w` (f64: also within
//!   10⁻⁹ of `w`). A proptest runs a few thousand pairs; `degenerate_pairs_million`
//!   (`#[ignore]`, `--release`) runs 10⁶ per precision and prints the figures.
//! * Pair and self queries on meshes with zero-area triangles: `degenerate_meshes.rs`.

use bdtree_core::geometry::triangle::triangles_may_intersect;
use bdtree_core::Scalar;
use bdtree_std::oracle;
use proptest::prelude::*;

use crate::support::{config, Rng};

pub(super) type Tri = [[f64; 3]; 3];

/// Exact squared distances between triangles in rational arithmetic (num-rational's
/// `BigRational`): every f64 is a rational, and the nearest points of two triangles are
/// rational functions of the coordinates. Independent of the kernel and of the f64 oracle.
pub mod exact {
    use num_rational::BigRational;
    use num_traits::{One, ToPrimitive, Zero};

    type Q = BigRational;
    type P = [Q; 3];

    pub fn q(x: f64) -> Q {
        Q::from_float(x).expect("finite coordinate")
    }

    fn point(v: [f64; 3]) -> P {
        v.map(q)
    }

    fn sub(a: &P, b: &P) -> P {
        [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
    }

    fn dot(a: &P, b: &P) -> Q {
        &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
    }

    fn clamp01(t: Q) -> Q {
        if t < Q::zero() {
            Q::zero()
        } else if t > Q::one() {
            Q::one()
        } else {
            t
        }
    }

    /// `|p − s|²` for the nearest point `s` of the closed segment `a b`.
    fn point_segment2(p: &P, a: &P, b: &P) -> Q {
        let (e, w) = (sub(b, a), sub(p, a));
        let ee = dot(&e, &e);
        if ee.is_zero() {
            return dot(&w, &w);
        }
        let t = clamp01(dot(&w, &e) / ee);
        let r = [&w[0] - &t * &e[0], &w[1] - &t * &e[1], &w[2] - &t * &e[2]];
        dot(&r, &r)
    }

    /// The projection on the plane when it falls inside (exact barycentrics), else the edges.
    fn point_triangle2(p: &P, t: &[P; 3]) -> Q {
        let (e0, e1, w) = (sub(&t[1], &t[0]), sub(&t[2], &t[0]), sub(p, &t[0]));
        let (a, b, c) = (dot(&e0, &e0), dot(&e0, &e1), dot(&e1, &e1));
        let (d, e) = (dot(&e0, &w), dot(&e1, &w));
        let det = &a * &c - &b * &b;
        if det > Q::zero() {
            let s = (&c * &d - &b * &e) / &det;
            let u = (&a * &e - &b * &d) / &det;
            if s >= Q::zero() && u >= Q::zero() && &s + &u <= Q::one() {
                let r = [
                    &w[0] - &s * &e0[0] - &u * &e1[0],
                    &w[1] - &s * &e0[1] - &u * &e1[1],
                    &w[2] - &s * &e0[2] - &u * &e1[2],
                ];
                return dot(&r, &r);
            }
        }
        [(0, 1), (1, 2), (2, 0)]
            .iter()
            .map(|&(i, j)| point_segment2(p, &t[i], &t[j]))
            .min()
            .expect("three edges")
    }

    /// The interior critical point when the lines are not parallel and it lies in both
    /// segments (then it is the minimum of the convex quadratic), else the four
    /// endpoint–segment distances (the minimum over the square is on its boundary).
    fn segment_segment2(p: &P, r: &P, s: &P, t: &P) -> Q {
        let (d1, d2, w) = (sub(r, p), sub(t, s), sub(p, s));
        let (a, b, c) = (dot(&d1, &d1), dot(&d1, &d2), dot(&d2, &d2));
        let (d, e) = (dot(&d1, &w), dot(&d2, &w));
        let det = &a * &c - &b * &b;
        if det > Q::zero() {
            let sc = (&b * &e - &c * &d) / &det;
            let tc = (&a * &e - &b * &d) / &det;
            let unit = |x: &Q| *x >= Q::zero() && *x <= Q::one();
            if unit(&sc) && unit(&tc) {
                let g = [
                    &w[0] + &sc * &d1[0] - &tc * &d2[0],
                    &w[1] + &sc * &d1[1] - &tc * &d2[1],
                    &w[2] + &sc * &d1[2] - &tc * &d2[2],
                ];
                return dot(&g, &g);
            }
        }
        [
            point_segment2(p, s, t),
            point_segment2(r, s, t),
            point_segment2(s, p, r),
            point_segment2(t, p, r),
        ]
        .into_iter()
        .min()
        .expect("four ends")
    }

    /// The exact squared distance between two closed triangles (any shape): 0 when they meet
    /// (decided by the exact `oracle::triangles_intersect`), else the least of the 6
    /// vertex–triangle and 9 edge–edge squared distances.
    pub fn distance2(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> Q {
        if bdtree_std::oracle::triangles_intersect(a, b) {
            return Q::zero();
        }
        let (pa, pb) = (a.map(point), b.map(point));
        let mut best: Option<Q> = None;
        let mut keep = |d: Q| {
            if best.as_ref().is_none_or(|b| d < *b) {
                best = Some(d);
            }
        };
        for p in &pa {
            keep(point_triangle2(p, &pb));
        }
        for p in &pb {
            keep(point_triangle2(p, &pa));
        }
        for (i, j) in [(0, 1), (1, 2), (2, 0)] {
            for (k, l) in [(0, 1), (1, 2), (2, 0)] {
                keep(segment_segment2(&pa[i], &pa[j], &pb[k], &pb[l]));
            }
        }
        best.expect("fifteen pairs")
    }

    /// Whether the exact distance is at most `bound`.
    pub fn within(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3], bound: f64) -> (bool, f64) {
        let d2 = distance2(a, b);
        let ok = d2 <= q(bound) * q(bound);
        (ok, d2.to_f64().unwrap_or(f64::INFINITY).sqrt())
    }
}

// ---------------------------------------------------------------------------------------
// The documented bound.

/// The constant `c` of the leaf test's bound `√3 τ + c u w` (`bdtree_core::geometry::triangle`).
const SPREAD: f64 = 64.0;

/// The leaf test's documented bound for triangles with largest coordinate `w`, vertex error
/// `error`, unit roundoff `u`.
pub(super) fn leaf_bound(w: f64, error: f64, u: f64) -> f64 {
    let tau = (2.0 * error + 8.0 * u * (w + error)) * (1.0 + 8.0 * u);
    3f64.sqrt() * tau + SPREAD * u * w
}

pub(super) fn largest(a: &Tri, b: &Tri) -> f64 {
    a.iter()
        .chain(b)
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()))
}

// ---------------------------------------------------------------------------------------
// Random pairs.

/// Triangle classes of the generator.
const SHAPES: [&str; 8] = [
    "ordinary",
    "point",
    "segment (duplicated vertex)",
    "segment (rounded midpoint)",
    "segment (exact, on a lattice)",
    "sliver (cap)",
    "needle",
    "thin (height 1e-3)",
];

/// Pair configurations of the generator.
const CONFIGS: [&str; 8] = [
    "independent",
    "touching",
    "touching, nudged by one ulp",
    "near miss",
    "coincident features",
    "collinear",
    "coplanar",
    "far from the origin",
];

pub(super) fn unit(rng: &mut Rng) -> [f64; 3] {
    loop {
        let v = [0, 1, 2].map(|_| rng.uniform(-1.0, 1.0));
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        if n > 0.1 && n <= 1.0 {
            return v.map(|x| x / n);
        }
    }
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn lerp(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    [0, 1, 2].map(|k| a[k] + t * (b[k] - a[k]))
}

pub(super) fn scaled(v: [f64; 3], s: f64) -> [f64; 3] {
    v.map(|x| x * s)
}

/// A random vertex order.
fn shuffled(t: Tri, rng: &mut Rng) -> Tri {
    const ORDERS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [0, 2, 1],
        [2, 1, 0],
        [1, 0, 2],
    ];
    ORDERS[rng.below(6)].map(|i| t[i])
}

/// A triangle of class `kind` about `size` across near `center`.
pub(super) fn shape(kind: usize, center: [f64; 3], size: f64, rng: &mut Rng) -> Tri {
    let near = |rng: &mut Rng| add(center, scaled(unit(rng), size * rng.uniform(0.1, 0.5)));
    let (a, b) = (near(rng), near(rng));
    let t = match kind {
        0 => [a, b, near(rng)],
        1 => [a, a, a],
        2 => [a, a, b],
        3 => [a, lerp(a, b, 0.5), b],
        4 => {
            // On a lattice of 2⁻¹²: p, p + d, p + 3d exactly collinear.
            let grid = |x: f64| (x * 4096.0).round() / 4096.0;
            let p = a.map(grid);
            let d = scaled(unit(rng), size * 0.3).map(grid);
            [p, add(p, d), add(p, scaled(d, 3.0))]
        }
        5 => {
            // A cap: the third vertex off the middle of ab by 10⁻³…10⁻¹⁸ of |ab|.
            let l = (0..3).map(|k| (b[k] - a[k]).powi(2)).sum::<f64>().sqrt();
            let h = l * 10f64.powf(-rng.uniform(3.0, 18.0));
            [
                a,
                b,
                add(lerp(a, b, rng.uniform(0.2, 0.8)), scaled(unit(rng), h)),
            ]
        }
        6 => {
            // A needle: the short edge 10⁻³…10⁻¹⁵ of the long ones.
            let l = (0..3).map(|k| (b[k] - a[k]).powi(2)).sum::<f64>().sqrt();
            let h = l * 10f64.powf(-rng.uniform(3.0, 15.0));
            [a, b, add(a, scaled(unit(rng), h))]
        }
        _ => {
            let l = (0..3).map(|k| (b[k] - a[k]).powi(2)).sum::<f64>().sqrt();
            [
                a,
                b,
                add(
                    lerp(a, b, rng.uniform(0.0, 1.0)),
                    scaled(unit(rng), 1e-3 * l),
                ),
            ]
        }
    };
    shuffled(t, rng)
}

/// A random point of `t`: a vertex, a point of an edge, or of the face.
fn point_on(t: &Tri, rng: &mut Rng) -> [f64; 3] {
    match rng.below(3) {
        0 => t[rng.below(3)],
        1 => {
            let i = rng.below(3);
            lerp(t[i], t[(i + 1) % 3], rng.uniform(0.0, 1.0))
        }
        _ => {
            let (s, r) = (rng.uniform(0.0, 1.0), rng.uniform(0.0, 1.0));
            let (s, r) = if s + r > 1.0 {
                (1.0 - s, 1.0 - r)
            } else {
                (s, r)
            };
            [0, 1, 2].map(|k| t[0][k] + s * (t[1][k] - t[0][k]) + r * (t[2][k] - t[0][k]))
        }
    }
}

fn translated(t: Tri, d: [f64; 3]) -> Tri {
    t.map(|v| add(v, d))
}

/// A pair of configuration `config` with shapes `ka`, `kb`.
fn pair(config: usize, ka: usize, kb: usize, rng: &mut Rng) -> (Tri, Tri) {
    let size = 10f64.powf(rng.uniform(-2.0, 0.0));
    let center = [0, 1, 2].map(|_| rng.uniform(-0.5, 0.5));
    let a = shape(ka, center, size, rng);
    let touching = |rng: &mut Rng| {
        let b = shape(kb, [0.0; 3], size, rng);
        let (x, y) = (point_on(&a, rng), point_on(&b, rng));
        translated(b, [0, 1, 2].map(|k| x[k] - y[k]))
    };
    match config {
        0 => {
            let d = scaled(unit(rng), size * rng.uniform(0.0, 1.5));
            (a, shape(kb, add(center, d), size, rng))
        }
        1 | 2 => (a, touching(rng)),
        3 => {
            let b = touching(rng);
            let d = scaled(unit(rng), size * 10f64.powf(-rng.uniform(1.0, 15.0)));
            (a, translated(b, d))
        }
        4 => {
            // B built on A's features: a vertex, an edge, a shared vertex.
            let i = rng.below(3);
            let (p, q) = (a[i], a[(i + 1) % 3]);
            let b = match rng.below(4) {
                0 => [p, p, p],
                1 => [p, q, q],
                2 => [p, lerp(p, q, 0.5), q],
                _ => [
                    p,
                    add(p, scaled(unit(rng), size)),
                    add(p, scaled(unit(rng), size)),
                ],
            };
            (a, shuffled(b, rng))
        }
        5 => {
            // Two segments (or slivers around them) on one lattice line or on parallel lines.
            let grid = |x: f64| (x * 4096.0).round() / 4096.0;
            let p = center.map(grid);
            let d = scaled(unit(rng), size * 0.25).map(grid);
            let at = |k: f64| add(p, scaled(d, k));
            let (i, j) = (rng.below(5) as f64 - 2.0, rng.below(5) as f64 - 2.0);
            let seg_a = [at(i), at(i + 1.0), at(i + 2.0)];
            let offset = match rng.below(3) {
                0 => [0.0; 3],
                1 => scaled(unit(rng), size * 1e-3).map(grid),
                _ => scaled(unit(rng), size * 10f64.powf(-rng.uniform(1.0, 15.0))),
            };
            let seg_b = translated([at(j), at(j + 0.5), at(j + 1.0)], offset);
            (shuffled(seg_a, rng), shuffled(seg_b, rng))
        }
        6 => {
            // Both in the plane z = const (exactly), axes permuted.
            let z = (center[2] * 4096.0).round() / 4096.0;
            let flat = |t: Tri| t.map(|v| [v[0], v[1], z]);
            let perm = [[0, 1, 2], [1, 2, 0], [2, 0, 1]][rng.below(3)];
            let permute = |t: Tri| t.map(|v| perm.map(|k| v[k]));
            let b = if rng.below(2) == 0 {
                touching(rng)
            } else {
                shape(kb, add(center, scaled(unit(rng), size)), size, rng)
            };
            (permute(flat(a)), permute(flat(b)))
        }
        _ => {
            // Touching or near, 100 units from the origin (the offset rounds both).
            let b = touching(rng);
            let b = if rng.below(2) == 0 {
                b
            } else {
                translated(
                    b,
                    scaled(unit(rng), size * 10f64.powf(-rng.uniform(1.0, 12.0))),
                )
            };
            let o = scaled(unit(rng), 100.0);
            (translated(a, o), translated(b, o))
        }
    }
}

/// `x` moved by one ulp (of its own type) up, down, or not at all, per coordinate.
fn nudged<S: Scalar>(t: [[S; 3]; 3], rng: &mut Rng) -> [[S; 3]; 3] {
    t.map(|v| {
        v.map(|x| {
            let step = rng.below(3);
            if S::BYTES == 4 {
                let f = x.to_f64() as f32;
                S::from_f64(f64::from(match step {
                    0 => f.next_up(),
                    1 => f.next_down(),
                    _ => f,
                }))
            } else {
                let f = x.to_f64();
                S::from_f64(match step {
                    0 => f.next_up(),
                    1 => f.next_down(),
                    _ => f,
                })
            }
        })
    })
}

/// What the checks found.
#[derive(Debug, Default)]
struct Tally {
    pairs: usize,
    intersecting: usize,
    missed: Vec<String>,
    /// Reported, not intersecting.
    extras: usize,
    /// Extras beyond the bound (the failures).
    far: Vec<String>,
    /// Largest extra distance over `u w`.
    worst_ulps: f64,
    /// Largest extra distance over `w`.
    worst_relative: f64,
    /// Per shape class: pairs with that class on either side.
    per_shape: [usize; 8],
}

impl Tally {
    fn failures(&self) -> Vec<String> {
        self.missed.iter().chain(&self.far).cloned().collect()
    }
}

/// Checks the kernel on one pair in precision `S` (the pair is rounded to `S`; the oracle
/// decides on the rounded values, widened exactly).
/// `error` is the leaf test's vertex error `δ`: it widens the bound an extra may lie within.
fn check_pair<S: Scalar>(
    a: Tri,
    b: Tri,
    nudge: bool,
    error: f64,
    rng: &mut Rng,
    tally: &mut Tally,
    label: &str,
) {
    let a_s = a.map(|v| v.map(S::from_f64));
    let mut b_s = b.map(|v| v.map(S::from_f64));
    if nudge {
        b_s = nudged(b_s, rng);
    }
    let (a64, b64) = (
        a_s.map(|v| v.map(|x| x.to_f64())),
        b_s.map(|v| v.map(|x| x.to_f64())),
    );
    if a64.iter().chain(&b64).flatten().any(|x| !x.is_finite()) {
        return;
    }
    let reported = triangles_may_intersect(&a_s, &b_s, S::from_f64(error));
    let truth = oracle::triangles_intersect(&a64, &b64);
    tally.pairs += 1;
    tally.intersecting += usize::from(truth);
    if truth && !reported {
        tally
            .missed
            .push(format!("{}: missed {label}: {a64:?} {b64:?}", S::NAME));
        return;
    }
    if reported && !truth {
        tally.extras += 1;
        let w = largest(&a64, &b64);
        let u = S::UNIT_ROUNDOFF.to_f64();
        let mut bound = leaf_bound(w, error, u);
        if S::BYTES == 8 && error == 0.0 {
            bound = bound.min(1e-9 * w.max(f64::MIN_POSITIVE));
        }
        let (ok, d) = exact::within(&a64, &b64, bound);
        if w > 0.0 {
            tally.worst_ulps = tally.worst_ulps.max(d / (u * w));
            tally.worst_relative = tally.worst_relative.max(d / w);
        }
        if !ok {
            tally.far.push(format!(
                "{}: {label} reported {d:e} apart (bound {bound:e}, w {w}): {a64:?} {b64:?}",
                S::NAME
            ));
        }
    }
}

/// One random pair from `seed`, checked in f64 and f32.
fn run_seed(seed: u64, t64: &mut Tally, t32: &mut Tally) {
    run_seed_with(seed, false, t64, t32);
}

/// One random pair from `seed`, checked in f64 and f32; `with_error`: with a vertex error
/// `δ` of 10⁻⁶ … 10⁻² of the pair's largest coordinate (the bound's `τ` is then `δ`'s, and
/// the certificate's margin outside a triangle is as wide as the bound lets it be).
fn run_seed_with(seed: u64, with_error: bool, t64: &mut Tally, t32: &mut Tally) {
    let mut rng = Rng::new(seed);
    let config = rng.below(CONFIGS.len());
    let (ka, kb) = (rng.below(SHAPES.len()), rng.below(SHAPES.len()));
    let (a, b) = pair(config, ka, kb, &mut rng);
    let (a, b) = if rng.below(2) == 0 { (a, b) } else { (b, a) };
    let label = format!(
        "seed {seed:#x} ({}; {} / {})",
        CONFIGS[config], SHAPES[ka], SHAPES[kb]
    );
    let nudge = config == 2;
    for t in [&mut *t64, &mut *t32] {
        t.per_shape[ka] += 1;
        if kb != ka {
            t.per_shape[kb] += 1;
        }
    }
    let error = if with_error {
        largest(&a, &b) * 10f64.powf(-rng.uniform(2.0, 6.0))
    } else {
        0.0
    };
    check_pair::<f64>(a, b, nudge, error, &mut rng, t64, &label);
    check_pair::<f32>(a, b, nudge, error, &mut rng, t32, &label);
}

fn report(name: &str, t: &Tally) -> String {
    format!(
        "{name}: {} pairs, {} intersecting, {} missed, {} extras (reported, disjoint), {} beyond the bound; \
         worst extra {:.1} u·w ({:.2e} of w)",
        t.pairs,
        t.intersecting,
        t.missed.len(),
        t.extras,
        t.far.len(),
        t.worst_ulps,
        t.worst_relative
    )
}

proptest! {
    #![proptest_config(config(48, 0xBD7_2301))]

    /// 48 × 128 random pairs per precision: nothing missed, every extra within the bound.
    #[test]
    fn random_degenerate_pairs_against_the_exact_oracle(seed in any::<u64>()) {
        let (mut t64, mut t32) = (Tally::default(), Tally::default());
        for k in 0..128u64 {
            run_seed(seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)), &mut t64, &mut t32);
        }
        let failures: Vec<String> = t64.failures().into_iter().chain(t32.failures()).collect();
        prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

proptest! {
    #![proptest_config(config(16, 0xBD7_2302))]

    /// 16 × 64 random pairs per precision with a vertex error: nothing missed, every extra
    /// within `√3 τ + 64 u w` of the error's `τ` (certificates with a margin prove `τ`).
    #[test]
    fn random_pairs_with_an_error_against_the_exact_oracle(seed in any::<u64>()) {
        let (mut t64, mut t32) = (Tally::default(), Tally::default());
        for k in 0..64u64 {
            run_seed_with(seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)), true, &mut t64, &mut t32);
        }
        let failures: Vec<String> = t64.failures().into_iter().chain(t32.failures()).collect();
        prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

/// 10⁶ random pairs per precision (run with
/// `cargo test --release -p bdtree-std --test kernel degenerate_pairs_million -- --ignored --nocapture`).
#[test]
#[ignore = "10⁶ pairs: run in release with --ignored"]
fn degenerate_pairs_million() {
    let (mut t64, mut t32) = (Tally::default(), Tally::default());
    let env = |name: &str, default: u64| -> u64 {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    // Pair i is drawn from seed i alone, so a run splits into shards run side by side:
    // `BDTREE_DEGENERATE_FIRST=500000` takes the pairs from there to the count.
    let count = env("BDTREE_DEGENERATE_PAIRS", 1_000_000);
    let first = env("BDTREE_DEGENERATE_FIRST", 0);
    for seed in first..count {
        run_seed(
            seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x23,
            &mut t64,
            &mut t32,
        );
        // Progress, so that a run stopped early still says what it found.
        if (seed + 1) % 50_000 == 0 && seed + 1 < count {
            println!("after {} pairs:", seed + 1);
            println!("  {}", report("f64", &t64));
            println!("  {}", report("f32", &t32));
        }
    }
    println!("{}", report("f64", &t64));
    println!("{}", report("f32", &t32));
    for (k, name) in SHAPES.iter().enumerate() {
        println!("  pairs with a {name} triangle: {}", t64.per_shape[k]);
    }
    let failures: Vec<String> = t64.failures().into_iter().chain(t32.failures()).collect();
    assert!(
        failures.is_empty(),
        "{} failures, first: {}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// ---------------------------------------------------------------------------------------
// Regressions.

/// The issue's example: a point triangle against a segment triangle whose boxes overlap,
/// 0.0876 apart, reported intersecting in f64.
#[test]
fn point_against_segment_issue_23() {
    let p = [0.3894, 0.1422, 0.4740];
    let (s0, s1) = ([0.2375, 0.1491, 0.4292], [0.4038, 0.1320, 0.6275]);
    let point = [p, p, p];
    let segment = [s0, lerp(s0, s1, 0.5), s1];
    let (_, d) = exact::within(&point, &segment, 0.0);
    assert!((d - 0.0876).abs() < 1e-4, "{d}");
    assert!(!triangles_may_intersect(&point, &segment, 0.0));
    assert!(!triangles_may_intersect(&segment, &point, 0.0));
    let (p32, s32) = (
        point.map(|v| v.map(|x| x as f32)),
        segment.map(|v| v.map(|x| x as f32)),
    );
    assert!(!triangles_may_intersect(&p32, &s32, 0.0));
}

/// Two parallel segment triangles side by side: every filter axis is zero or along them.
#[test]
fn parallel_segments_side_by_side_issue_23() {
    let a = [[0.0, 0.0, 0.0], [0.5, 0.5, 0.5], [1.0, 1.0, 1.0]];
    let b = a.map(|v| [v[0] + 0.25, v[1], v[2] - 0.25]);
    assert!(!triangles_may_intersect(&a, &b, 0.0));
    assert!(triangles_may_intersect(&a, &a, 0.0));
}

/// A segment triangle in the plane of an ordinary triangle, beside its vertex: the axis
/// between them (perpendicular to the segment, in the plane) is none of the filter's.
#[test]
fn coplanar_segment_beside_a_vertex_issue_23() {
    let t = [[0.0, -1.0, 0.0], [-1.0, 1.0, 0.0], [-1.0, -1.0, 0.5]];
    // The triangle's plane; a segment in it, 0.1 beyond the vertex (0, −1, 0) along x.
    let n = {
        let (e, f) = (
            [t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]],
            [t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]],
        );
        [
            e[1] * f[2] - e[2] * f[1],
            e[2] * f[0] - e[0] * f[2],
            e[0] * f[1] - e[1] * f[0],
        ]
    };
    assert!(n[0].abs() > 0.0);
    let s = [[0.1, -3.0, 0.0], [0.1, -1.0, 0.0], [0.1, 1.0, 0.0]];
    // Tilt the segment into the plane: z such that n · (p − t0) = 0.
    let s = s.map(|p| [p[0], p[1], -(n[0] * p[0] + n[1] * (p[1] + 1.0)) / n[2]]);
    let (_, d) = exact::within(&t, &s, 0.0);
    assert!(d > 0.05, "{d}");
    assert!(!triangles_may_intersect(&t, &s, 0.0));
}

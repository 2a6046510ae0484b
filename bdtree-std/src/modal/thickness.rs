//! How thick the body is, and where it is thinnest.
//!
//! From a point of each triangle (at fixed irrational barycentric coordinates, so the ray
//! rarely meets an edge) a ray is cast into the body along the inward normal; every crossing
//! of the surface along the whole ray is found (a uniform grid of triangle bins, walked cell by
//! cell) and counted with its orientation, which gives the winding number at the start. The
//! triangle's thickness is the distance along the ray to where the winding number first drops
//! to zero: where the ray leaves the solid. Meshes made of overlapping closed parts are
//! therefore measured as their union, and triangles inside another part (winding number above
//! 1 at the start) are skipped. The estimate is exact for a slab or a box and gives the
//! diameter of a ball.
//!
//! The body's design thickness is the thinnest part that matters: the smallest triangle
//! thickness `t` such that the triangles at most `t` thick cover at least `AREA_FACTOR · t²`
//! of surface — a wall, fin or rod whose faces span a few thicknesses, not a sliver of a
//! single triangle at a junction.

use super::units::{area, length, LengthUnit};
use crate::io::Mesh;
use crate::vec3::{cross, dot, sub};

/// Area, in squared thicknesses, that a thin part must cover to count.
pub(super) const AREA_FACTOR: f64 = 10.0;

/// A part of the body and how thick it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wall {
    /// Thickness in mesh units (along the inward surface normal).
    pub thickness: f64,
    /// Lower corner of the bounding box of the part (its thin faces and, across the
    /// thickness, the faces opposite).
    pub lo: [f64; 3],
    /// Upper corner.
    pub hi: [f64; 3],
    /// Surface area of the part's faces at most this thick.
    pub area: f64,
}

impl Wall {
    /// The wall as text, its lengths in `unit` (the mesh's): thickness, where it is (the box,
    /// in mesh coordinates) and the area of its thin faces.
    pub fn describe(&self, unit: LengthUnit) -> String {
        format!(
            "{} thick (within x {:.4}…{:.4}, y {:.4}…{:.4}, z {:.4}…{:.4} {}; {} of its faces that thin)",
            length(self.thickness, unit),
            self.lo[0],
            self.hi[0],
            self.lo[1],
            self.hi[1],
            self.lo[2],
            self.hi[2],
            unit.symbol(),
            area(self.area, unit)
        )
    }
}

impl std::fmt::Display for Wall {
    /// [`Wall::describe`] in metres.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(LengthUnit::Metre))
    }
}

type Triangle = [[f64; 3]; 3];

/// Triangles binned in a uniform grid for ray casting.
struct Bins {
    lo: [f64; 3],
    cell: f64,
    n: [usize; 3],
    /// Triangles of bin `b` are `items[start[b]..start[b + 1]]`.
    start: Vec<usize>,
    items: Vec<u32>,
}

impl Bins {
    fn new(triangles: &[Triangle], lo: [f64; 3], hi: [f64; 3]) -> Bins {
        let extent: [f64; 3] = core::array::from_fn(|a| hi[a] - lo[a]);
        let diagonal = dot(extent, extent).sqrt().max(f64::MIN_POSITIVE);
        // About two bins per triangle over the box (volume-wise), at most 256 a side.
        let volume: f64 = extent.iter().map(|e| e.max(1e-3 * diagonal)).product();
        let cell = (volume / (2.0 * triangles.len().max(1) as f64))
            .cbrt()
            .max(diagonal / 256.0);
        let n: [usize; 3] =
            core::array::from_fn(|a| ((extent[a] / cell).ceil() as usize).clamp(1, 256));
        let bin = |p: f64, a: usize| (((p - lo[a]) / cell).floor().max(0.0) as usize).min(n[a] - 1);
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n[0] * n[1] * n[2]];
        for (t, p) in triangles.iter().enumerate() {
            let tlo: [usize; 3] =
                core::array::from_fn(|a| bin(p[0][a].min(p[1][a]).min(p[2][a]), a));
            let thi: [usize; 3] =
                core::array::from_fn(|a| bin(p[0][a].max(p[1][a]).max(p[2][a]), a));
            let normal = cross(sub(p[1], p[0]), sub(p[2], p[0]));
            let reach: f64 = normal.iter().map(|c| c.abs()).sum::<f64>() * 0.5 * cell * 1.001;
            for k in tlo[2]..=thi[2] {
                for j in tlo[1]..=thi[1] {
                    for i in tlo[0]..=thi[0] {
                        let centre = [
                            lo[0] + (i as f64 + 0.5) * cell,
                            lo[1] + (j as f64 + 0.5) * cell,
                            lo[2] + (k as f64 + 0.5) * cell,
                        ];
                        if dot(normal, sub(centre, p[0])).abs() <= reach {
                            lists[i + n[0] * (j + n[1] * k)].push(t as u32);
                        }
                    }
                }
            }
        }
        let mut start = Vec::with_capacity(lists.len() + 1);
        let mut items = Vec::new();
        start.push(0);
        for list in lists {
            items.extend(list);
            start.push(items.len());
        }
        Bins {
            lo,
            cell,
            n,
            start,
            items,
        }
    }

    /// Every triangle in a bin the ray `o + t d` (`t ≥ 0`) passes through, into `out`
    /// (sorted, without repeats).
    fn along(&self, o: [f64; 3], d: [f64; 3], out: &mut Vec<u32>) {
        out.clear();
        let hi: [f64; 3] = core::array::from_fn(|a| self.lo[a] + self.n[a] as f64 * self.cell);
        // Clip the ray to the grid's box.
        let (mut t0, mut t1) = (0.0f64, f64::INFINITY);
        for a in 0..3 {
            if d[a] == 0.0 {
                if o[a] < self.lo[a] || o[a] > hi[a] {
                    return;
                }
                continue;
            }
            let (ta, tb) = ((self.lo[a] - o[a]) / d[a], (hi[a] - o[a]) / d[a]);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
        if t0 > t1 {
            return;
        }
        let p: [f64; 3] = core::array::from_fn(|a| o[a] + t0 * d[a]);
        let mut cell: [usize; 3] = core::array::from_fn(|a| {
            (((p[a] - self.lo[a]) / self.cell).floor().max(0.0) as usize).min(self.n[a] - 1)
        });
        let step: [isize; 3] = core::array::from_fn(|a| if d[a] > 0.0 { 1 } else { -1 });
        let mut next: [f64; 3] = core::array::from_fn(|a| {
            if d[a] == 0.0 {
                return f64::INFINITY;
            }
            let boundary =
                self.lo[a] + (cell[a] as f64 + f64::from(u8::from(d[a] > 0.0))) * self.cell;
            (boundary - o[a]) / d[a]
        });
        let delta: [f64; 3] = core::array::from_fn(|a| {
            if d[a] == 0.0 {
                f64::INFINITY
            } else {
                self.cell / d[a].abs()
            }
        });
        loop {
            let b = cell[0] + self.n[0] * (cell[1] + self.n[1] * cell[2]);
            out.extend_from_slice(&self.items[self.start[b]..self.start[b + 1]]);
            let a = (0..3)
                .min_by(|&x, &y| next[x].total_cmp(&next[y]))
                .unwrap_or(0);
            if next[a] > t1 {
                break;
            }
            let moved = cell[a] as isize + step[a];
            if moved < 0 || moved >= self.n[a] as isize {
                break;
            }
            cell[a] = moved as usize;
            next[a] += delta[a];
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// Where the ray `o + t d` meets triangle `p`: `(t, d·n)` with `n` its (outward, unnormalised)
/// normal, or `None` (Möller–Trumbore, both sides).
fn hit(o: [f64; 3], d: [f64; 3], p: &Triangle) -> Option<(f64, f64)> {
    let (e1, e2) = (sub(p[1], p[0]), sub(p[2], p[0]));
    let q = cross(d, e2);
    let det = dot(e1, q);
    if det == 0.0 {
        return None;
    }
    let s = sub(o, p[0]);
    let u = dot(s, q) / det;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let r = cross(s, e1);
    let v = dot(d, r) / det;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    Some((dot(e2, r) / det, dot(d, cross(e1, e2))))
}

/// Each triangle's thickness (`NaN` where there is no estimate: a degenerate triangle, a
/// triangle inside another closed part, or a ray whose crossings do not add up).
/// Also says whether some triangle lies inside another closed part of the mesh (the parts
/// overlap, so the mesh's signed volume counts their common volume twice).
pub(super) fn measure(mesh: &Mesh) -> (Vec<f64>, bool) {
    let mut overlapping = false;
    let triangles: Vec<Triangle> = mesh
        .triangles
        .iter()
        .map(|t| t.map(|v| mesh.vertices[v as usize]))
        .collect();
    let (lo, hi) = super::lattice::bounds(mesh);
    let bins = Bins::new(&triangles, lo, hi);
    let diagonal = dot(sub(hi, lo), sub(hi, lo)).sqrt();
    let floor = 1e-9 * diagonal;
    let mut candidates = Vec::new();
    let mut hits: Vec<(f64, i32)> = Vec::new();
    let thickness = triangles
        .iter()
        .enumerate()
        .map(|(t, p)| {
            let normal = cross(sub(p[1], p[0]), sub(p[2], p[0]));
            let norm = dot(normal, normal).sqrt();
            if norm == 0.0 || !norm.is_finite() {
                return f64::NAN;
            }
            let (b0, b1) = (0.287_140_5, 0.331_906_7);
            let o: [f64; 3] = core::array::from_fn(|a| {
                p[0][a] + b0 * (p[1][a] - p[0][a]) + b1 * (p[2][a] - p[0][a])
            });
            let tilt = [0.314_159_3e-6, -0.271_828_2e-6, 0.141_421_4e-6];
            let d: [f64; 3] = core::array::from_fn(|a| -normal[a] / norm + tilt[a]);
            let length = dot(d, d).sqrt();
            let d = d.map(|c| c / length);
            bins.along(o, d, &mut candidates);
            hits.clear();
            for &c in &candidates {
                if c as usize == t {
                    continue;
                }
                if let Some((s, facing)) = hit(o, d, &triangles[c as usize]) {
                    if s > floor && facing != 0.0 {
                        // Leaving the solid (+1) or entering it (−1).
                        hits.push((s, if facing > 0.0 { 1 } else { -1 }));
                    }
                }
            }
            // Winding number just inside the start: exits minus entries out to infinity.
            let winding: i32 = hits.iter().map(|h| h.1).sum();
            if winding != 1 {
                overlapping |= winding > 1;
                return f64::NAN;
            }
            hits.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            let mut w = winding;
            for &(s, sign) in &hits {
                w -= sign;
                if w == 0 {
                    return s;
                }
            }
            f64::NAN
        })
        .collect();
    (thickness, overlapping)
}

/// Triangle areas.
fn areas(mesh: &Mesh) -> Vec<f64> {
    mesh.triangles
        .iter()
        .map(|t| {
            let p = t.map(|v| mesh.vertices[v as usize]);
            let n = cross(sub(p[1], p[0]), sub(p[2], p[0]));
            0.5 * dot(n, n).sqrt()
        })
        .collect()
}

/// The body's design thickness (see the module documentation) and the connected faces at
/// most that thick (by up to 10 %) around the triangle that set it; `None` when no triangle
/// has an estimate.
pub(super) fn thinnest(mesh: &Mesh, thickness: &[f64]) -> Option<Wall> {
    let area = areas(mesh);
    let t = design(&area, thickness)?;
    let design = thickness[t];
    parts(mesh, thickness, &area, 1.1 * design)
        .into_iter()
        .find(|(members, _)| members.contains(&t))
        .map(|(_, mut wall)| {
            wall.thickness = design;
            wall
        })
}

/// The triangle whose thickness is the design thickness of triangles of `area` and
/// `thickness` (`NaN` or infinite: none): the smallest `t` such that the triangles at most `t`
/// thick cover [`AREA_FACTOR`]` · t²`, or, when none does (a body of a handful of huge
/// triangles), the thickest measured triangle, which bounds it.
fn design(area: &[f64], thickness: &[f64]) -> Option<usize> {
    let mut order: Vec<usize> = (0..thickness.len())
        .filter(|&t| thickness[t].is_finite())
        .collect();
    order.sort_unstable_by(|&a, &b| thickness[a].total_cmp(&thickness[b]));
    let mut covered = 0.0;
    for &t in &order {
        covered += area[t];
        if covered >= AREA_FACTOR * thickness[t] * thickness[t] {
            return Some(t);
        }
    }
    order.last().copied()
}

/// The body's design thickness along each lattice axis (rows of `frame`, in mesh
/// coordinates): the rule of [`thinnest`] applied to each triangle's thickness measured along
/// that axis, `t / |n_a|` for its unit normal `n` (exact for a flat wall at any angle; walls
/// nearly parallel to the axis, `|n_a|` below 10⁻³, do not count). `None` along an axis no
/// measured triangle faces.
pub(super) fn along_axes(
    mesh: &Mesh,
    thickness: &[f64],
    frame: &[[f64; 3]; 3],
) -> [Option<f64>; 3] {
    let area = areas(mesh);
    let normals: Vec<[f64; 3]> = mesh
        .triangles
        .iter()
        .map(|t| {
            let p = t.map(|v| mesh.vertices[v as usize]);
            let n = cross(sub(p[1], p[0]), sub(p[2], p[0]));
            let length = dot(n, n).sqrt();
            n.map(|c| c / length)
        })
        .collect();
    core::array::from_fn(|a| {
        let along: Vec<f64> = thickness
            .iter()
            .zip(&normals)
            .map(|(&t, n)| {
                let cosine = dot(frame[a], *n).abs();
                if cosine >= 1e-3 {
                    t / cosine
                } else {
                    f64::NAN
                }
            })
            .collect();
        design(&area, &along).map(|t| along[t])
    })
}

/// Connected groups (sharing a vertex) of triangles at most `limit` thick, each with its
/// bounding box, area and smallest thickness.
fn parts(mesh: &Mesh, thickness: &[f64], area: &[f64], limit: f64) -> Vec<(Vec<usize>, Wall)> {
    let thin: Vec<usize> = (0..thickness.len())
        .filter(|&t| thickness[t] <= limit)
        .collect();
    // Union–find over vertices of thin triangles.
    let mut parent: Vec<usize> = (0..mesh.vertices.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &t in &thin {
        let [a, b, c] = mesh.triangles[t].map(|v| v as usize);
        for (x, y) in [(a, b), (b, c)] {
            let (rx, ry) = (root(&mut parent, x), root(&mut parent, y));
            parent[rx] = ry;
        }
    }
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for &t in &thin {
        let r = root(&mut parent, mesh.triangles[t][0] as usize);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, members)) => members.push(t),
            None => groups.push((r, vec![t])),
        }
    }
    groups
        .into_iter()
        .map(|(_, members)| {
            let mut wall = Wall {
                thickness: f64::INFINITY,
                lo: [f64::INFINITY; 3],
                hi: [f64::NEG_INFINITY; 3],
                area: 0.0,
            };
            for &t in &members {
                wall.thickness = wall.thickness.min(thickness[t]);
                wall.area += area[t];
                // The triangle and its image on the far side of the wall.
                let p = mesh.triangles[t].map(|v| mesh.vertices[v as usize]);
                let n = cross(sub(p[1], p[0]), sub(p[2], p[0]));
                let scale = thickness[t] / dot(n, n).sqrt();
                for q in p {
                    let far: [f64; 3] = core::array::from_fn(|a| q[a] - scale * n[a]);
                    for r in [q, far] {
                        for a in 0..3 {
                            wall.lo[a] = wall.lo[a].min(r[a]);
                            wall.hi[a] = wall.hi[a].max(r[a]);
                        }
                    }
                }
            }
            (members, wall)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::procedural::{bar, icosphere, torus, translate};

    #[test]
    fn a_bar_is_as_thick_as_its_section_and_a_ball_as_its_diameter() {
        let beam = bar(1.0, 0.05, 4);
        let t = measure(&beam).0;
        let wall = thinnest(&beam, &t).expect("a thickness");
        // The rays are tilted by about 10⁻⁷ rad off the normal.
        assert!((wall.thickness - 0.05).abs() < 1e-12, "{wall:?}");
        // The side faces: the whole length.
        assert!(wall.hi[0] - wall.lo[0] > 0.99, "{wall:?}");
        let ball = icosphere(0.2, 3);
        let wall = thinnest(&ball, &measure(&ball).0).expect("a thickness");
        assert!((wall.thickness - 0.4).abs() < 0.01, "{wall:?}");
        let ring = torus(0.3, 0.05, 48, 16);
        let wall = thinnest(&ring, &measure(&ring).0).expect("a thickness");
        assert!((wall.thickness - 0.1).abs() < 0.005, "{wall:?}");
    }

    #[test]
    fn overlapping_parts_are_measured_as_their_union() {
        // Two bars overlapping along half their length: the union is one bar 1.5 long; a
        // face inside the other bar has no thickness of its own.
        let mut mesh = bar(1.0, 0.1, 2);
        let mut other = bar(1.0, 0.1, 2);
        translate(&mut other, [0.5, 0.0, 0.0]);
        let offset = mesh.vertices.len() as u32;
        mesh.vertices.extend(other.vertices);
        mesh.triangles
            .extend(other.triangles.iter().map(|t| t.map(|v| v + offset)));
        let t = measure(&mesh).0;
        // The caps: bar 0's +x cap (triangles 8 + 2, 3 of the first bar's list) is inside bar 1.
        let first_caps = [t[16], t[17], t[18], t[19]];
        assert!(
            first_caps[2].is_nan() && first_caps[3].is_nan(),
            "{first_caps:?}"
        );
        assert!((first_caps[0] - 1.5).abs() < 1e-5, "{first_caps:?}");
        let wall = thinnest(&mesh, &t).expect("a thickness");
        assert!((wall.thickness - 0.1).abs() < 1e-6, "{wall:?}");
    }
}

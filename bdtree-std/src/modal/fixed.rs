//! Held (clamped) parts of the surface: which mesh vertices, and where the lattice lines up
//! with them.

use super::frame::{apply, Rotation};
use super::options::ModesError;
use crate::io::Mesh;
use std::path::Path;

/// A part of the surface held fixed: its displacement is zero in every mode (a clamp, a bolt,
/// a plug). With anything held the body has no rigid-body modes.
#[derive(Debug, Clone, PartialEq)]
pub enum Fixed {
    /// Every mesh vertex whose coordinate along `axis` (0 = x, 1 = y, 2 = z) is below
    /// (`below`) or above `value` — `--fixed 'x<-0.499'`.
    HalfSpace {
        /// 0, 1 or 2 for x, y, z.
        axis: usize,
        /// `<` (true) or `>` (false).
        below: bool,
        /// The bound, in mesh units.
        value: f64,
    },
    /// These mesh vertices (0-based) — `--fixed-vertices FILE`.
    Vertices {
        /// Where the list came from (a file name), for messages.
        source: String,
        /// `(line, vertex)`: each index with the line it was read from (1-based).
        indices: Vec<(usize, usize)>,
    },
}

const AXES: [&str; 3] = ["x", "y", "z"];

impl Fixed {
    /// Parses a half-space spec: an axis `x`, `y` or `z`, then `<` or `>`, then a number in
    /// mesh units (`x<-0.499`, `z > 0.2`). The error says what is expected.
    pub fn parse(spec: &str) -> Result<Fixed, String> {
        let bad = || {
            format!(
                "--fixed '{spec}': expected an axis x, y or z, then < or >, then a number in \
                 mesh units (for example 'x<-0.499')"
            )
        };
        let s = spec.trim();
        let mut chars = s.chars();
        let axis = match chars.next().map(|c| c.to_ascii_lowercase()) {
            Some('x') => 0,
            Some('y') => 1,
            Some('z') => 2,
            _ => return Err(bad()),
        };
        let rest = chars.as_str().trim_start();
        let (below, rest) = if let Some(r) = rest.strip_prefix('<') {
            (true, r)
        } else if let Some(r) = rest.strip_prefix('>') {
            (false, r)
        } else {
            return Err(bad());
        };
        let rest = rest.strip_prefix('=').unwrap_or(rest).trim();
        let value: f64 = rest.parse().map_err(|_| bad())?;
        if !value.is_finite() {
            return Err(bad());
        }
        Ok(Fixed::HalfSpace { axis, below, value })
    }

    /// Reads a vertex list: one 0-based vertex index a line; blank lines and lines starting
    /// with `#` are skipped. Errors name the file and the line.
    pub fn read_vertices(path: &Path) -> Result<Fixed, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Fixed::parse_vertices(&text, &path.display().to_string())
    }

    /// [`Fixed::read_vertices`] on text already read; `source` names it in errors.
    pub fn parse_vertices(text: &str, source: &str) -> Result<Fixed, String> {
        let mut indices = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let entry = line.trim();
            if entry.is_empty() || entry.starts_with('#') {
                continue;
            }
            let index: usize = entry.parse().map_err(|_| {
                format!(
                    "{source}: line {}: '{entry}' is not a vertex index (a 0-based \
                     non-negative integer, one a line)",
                    number + 1
                )
            })?;
            indices.push((number + 1, index));
        }
        if indices.is_empty() {
            return Err(format!("{source}: no vertex index in the file"));
        }
        Ok(Fixed::Vertices {
            source: source.to_owned(),
            indices,
        })
    }
}

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fixed::HalfSpace { axis, below, value } => write!(
                f,
                "{}{}{value}",
                AXES[*axis],
                if *below { '<' } else { '>' }
            ),
            Fixed::Vertices { source, indices } => {
                write!(f, "{} vertices of {source}", indices.len())
            }
        }
    }
}

/// Which mesh vertices are held. A spec that holds no vertex, or an index out of range, is an
/// error naming it.
pub(super) fn held_vertices(mesh: &Mesh, fixed: &[Fixed]) -> Result<Vec<bool>, ModesError> {
    let mut held = vec![false; mesh.vertices.len()];
    for spec in fixed {
        match spec {
            Fixed::HalfSpace { axis, below, value } => {
                let mut any = false;
                for (v, p) in mesh.vertices.iter().enumerate() {
                    let inside = if *below {
                        p[*axis] < *value
                    } else {
                        p[*axis] > *value
                    };
                    if inside {
                        held[v] = true;
                        any = true;
                    }
                }
                if !any {
                    let (lo, hi) = mesh
                        .vertices
                        .iter()
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                            (lo.min(p[*axis]), hi.max(p[*axis]))
                        });
                    return Err(ModesError::InvalidOptions(format!(
                        "--fixed '{spec}' holds no mesh vertex: the mesh's {} runs from {lo} \
                         to {hi}",
                        AXES[*axis]
                    )));
                }
            }
            Fixed::Vertices { source, indices } => {
                for &(line, v) in indices {
                    let Some(h) = held.get_mut(v) else {
                        return Err(ModesError::InvalidOptions(format!(
                            "{source}: line {line}: vertex {v} is out of range (the mesh has \
                             {} vertices)",
                            mesh.vertices.len()
                        )));
                    };
                    *h = true;
                }
            }
        }
    }
    Ok(held)
}

/// Node planes to line the lattice up with, in lattice coordinates (`frame` turns mesh
/// coordinates into lattice ones, see `frame`): for the first half-space spec whose axis is
/// a lattice axis, the coordinate of the innermost vertex it holds (the largest for `<`, the
/// smallest for `>`); for a vertex list lying in one plane perpendicular to a lattice axis
/// (a clamped flat end), that plane. A flat held end then lies on a node plane and holds
/// exactly that plane.
pub(super) fn alignment(mesh: &Mesh, fixed: &[Fixed], frame: &Rotation) -> [Option<f64>; 3] {
    let mut align = [None; 3];
    let (lo, hi) = super::lattice::bounds(mesh);
    let diagonal = (0..3).map(|a| (hi[a] - lo[a]).powi(2)).sum::<f64>().sqrt();
    for spec in fixed {
        match spec {
            Fixed::HalfSpace { axis, below, value } => {
                let Some(a) = (0..3).find(|&a| frame[a][*axis].abs() > 1.0 - 1e-9) else {
                    continue;
                };
                if align[a].is_some() {
                    continue;
                }
                let held = mesh.vertices.iter().filter(|p| {
                    if *below {
                        p[*axis] < *value
                    } else {
                        p[*axis] > *value
                    }
                });
                let innermost = if *below {
                    held.max_by(|p, q| p[*axis].total_cmp(&q[*axis]))
                } else {
                    held.min_by(|p, q| p[*axis].total_cmp(&q[*axis]))
                };
                align[a] = innermost.map(|&p| apply(frame, p)[a]);
            }
            Fixed::Vertices { indices, .. } => {
                let points: Vec<[f64; 3]> = indices
                    .iter()
                    .filter_map(|&(_, v)| mesh.vertices.get(v))
                    .map(|&p| apply(frame, p))
                    .collect();
                let Some(first) = points.first() else {
                    continue;
                };
                for a in 0..3 {
                    if align[a].is_none()
                        && points
                            .iter()
                            .all(|p| (p[a] - first[a]).abs() <= 1e-9 * diagonal)
                    {
                        align[a] = Some(first[a]);
                        break;
                    }
                }
            }
        }
    }
    align
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_space_specs_parse_and_print_back() {
        for (spec, axis, below, value) in [
            ("x<-0.499", 0, true, -0.499),
            ("Y > 2", 1, false, 2.0),
            (" z<=1e-3 ", 2, true, 1e-3),
        ] {
            let parsed = Fixed::parse(spec);
            assert_eq!(
                parsed,
                Ok(Fixed::HalfSpace { axis, below, value }),
                "{spec}"
            );
        }
        assert_eq!(
            Fixed::parse("x<-0.499").map(|f| f.to_string()),
            Ok("x<-0.499".to_owned())
        );
        for bad in ["", "w<1", "x=1", "x<", "x<abc", "x<inf", "x<1 2"] {
            let e = Fixed::parse(bad).err().unwrap_or_default();
            assert!(
                e.contains("--fixed") && e.contains("x, y or z"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn vertex_lists_name_the_file_and_line_of_a_bad_entry() {
        let ok = Fixed::parse_vertices("# clamp\n3\n\n 7 \n", "f.txt");
        assert_eq!(
            ok,
            Ok(Fixed::Vertices {
                source: "f.txt".into(),
                indices: vec![(2, 3), (4, 7)]
            })
        );
        let e = Fixed::parse_vertices("1\n2\n-3\n", "f.txt").err();
        assert!(
            e.as_deref()
                .is_some_and(|e| e.contains("f.txt: line 3") && e.contains("'-3'")),
            "{e:?}"
        );
        let e = Fixed::parse_vertices("# nothing\n", "f.txt").err();
        assert!(e.as_deref().is_some_and(|e| e.contains("f.txt")), "{e:?}");
    }
}

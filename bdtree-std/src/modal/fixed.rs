//! Held (clamped) parts of the surface: which mesh vertices, and where the lattice lines up
//! with them.

use super::frame::{apply, Rotation};
use super::options::ModesError;
use super::spec::{Fixed, AXES};
use crate::io::Mesh;

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

//! OBJ files.
//!
//! * `v x y z` defines a vertex. Values after `z` (the optional `w`, or per-vertex colours) must
//!   be numbers and are ignored.
//! * `f` lists at least three vertex references of the forms `a`, `a/b`, `a//c` or `a/b/c`; only
//!   the vertex index `a` is used. Positive indices count from 1 and are checked against the
//!   final number of vertices, so a face may name a vertex defined further down the file.
//!   Negative indices count back from the last vertex read so far (`-1` is the latest).
//! * A face with `n > 3` vertices `v0 v1 … v(n-1)` is fan-triangulated into the `n − 2`
//!   consecutive triangles `(v0, v1, v2), (v0, v2, v3), …`; the mesh's triangle order is the face
//!   order after this triangulation.
//! * Comments (`#` to the end of the line), blank lines, `\r\n` line ends and the statements that
//!   do not describe the triangle mesh (`vt`, `vn`, `vp`, `o`, `g`, `s`, `usemtl`, `mtllib`, `l`,
//!   `p` and the free-form geometry and rendering statements of the OBJ specification) are
//!   ignored. Any other statement is an error, so a file that is not OBJ at all is refused
//!   instead of read as an empty mesh.

use std::path::Path;

use super::mesh::Mesh;
use super::text::{fan, parse_f64, parse_i64, show};
use crate::error::LoadError;

/// OBJ statements that do not describe the triangle mesh and are skipped.
const OBJ_IGNORED: &[&[u8]] = &[
    b"vt",
    b"vn",
    b"vp",
    b"o",
    b"g",
    b"s",
    b"mg",
    b"usemtl",
    b"mtllib",
    b"l",
    b"p",
    b"cstype",
    b"deg",
    b"bmat",
    b"step",
    b"curv",
    b"curv2",
    b"surf",
    b"parm",
    b"trim",
    b"hole",
    b"scrv",
    b"sp",
    b"end",
    b"con",
    b"bevel",
    b"c_interp",
    b"d_interp",
    b"lod",
    b"maplib",
    b"usemap",
    b"shadow_obj",
    b"trace_obj",
    b"ctech",
    b"stech",
    b"call",
    b"csh",
];

/// Parses the text of an OBJ file (see the [module documentation](self) for what is read).
///
/// `path` only names the file in errors. Errors give the 1-based line.
pub fn parse_obj(text: &[u8], path: &Path) -> Result<Mesh, LoadError> {
    let mut vertices: Vec<[f64; 3]> = Vec::new();
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    // Positive indices that named a vertex not defined yet: (line, 1-based index), checked
    // against the final vertex count.
    let mut forward: Vec<(usize, u64)> = Vec::new();
    let mut poly: Vec<u32> = Vec::new();

    for (i, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let content = raw.split(|&b| b == b'#').next().unwrap_or_default();
        let mut toks = content
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty());
        let Some(keyword) = toks.next() else { continue };
        match keyword {
            b"v" => {
                let mut xyz = [0.0_f64; 3];
                for (axis, slot) in xyz.iter_mut().enumerate() {
                    let name = ["x", "y", "z"].get(axis).copied().unwrap_or("?");
                    let tok = toks.next().ok_or_else(|| {
                        LoadError::line(
                            path,
                            line,
                            format!("vertex has no {name} coordinate (expected 'v x y z')"),
                        )
                    })?;
                    let value = parse_f64(tok).ok_or_else(|| {
                        LoadError::line(
                            path,
                            line,
                            format!("bad number '{}' for the {name} coordinate", show(tok)),
                        )
                    })?;
                    if !value.is_finite() {
                        return Err(LoadError::line(
                            path,
                            line,
                            format!("the {name} coordinate '{}' is not finite", show(tok)),
                        ));
                    }
                    *slot = value;
                }
                if let Some(tok) = toks.find(|t| parse_f64(t).is_none()) {
                    return Err(LoadError::line(
                        path,
                        line,
                        format!("bad number '{}' after the vertex coordinates", show(tok)),
                    ));
                }
                vertices.push(xyz);
            }
            b"f" => {
                poly.clear();
                for tok in toks {
                    let index_text = tok.split(|&b| b == b'/').next().unwrap_or_default();
                    let k = parse_i64(index_text).ok_or_else(|| {
                        LoadError::line(path, line, format!("bad face vertex '{}'", show(tok)))
                    })?;
                    let (index, later) = obj_index(k, vertices.len())
                        .map_err(|msg| LoadError::line(path, line, msg))?;
                    if later {
                        forward.push((line, k.unsigned_abs()));
                    }
                    poly.push(index);
                }
                if poly.len() < 3 {
                    return Err(LoadError::line(
                        path,
                        line,
                        format!("face has {} vertices; at least 3 are needed", poly.len()),
                    ));
                }
                fan(&poly, &mut triangles);
            }
            other if OBJ_IGNORED.contains(&other) => {}
            other => {
                return Err(LoadError::line(
                    path,
                    line,
                    format!("unknown OBJ statement '{}'", show(other)),
                ));
            }
        }
    }

    let n = vertices.len();
    if let Some(&(line, k)) = forward
        .iter()
        .find(|&&(_, k)| usize::try_from(k).map_or(true, |k| k > n))
    {
        return Err(LoadError::line(
            path,
            line,
            format!("face index {k} is out of range (the file has {n} vertices)"),
        ));
    }
    if triangles.is_empty() {
        return Err(LoadError::new(
            path,
            format!("the file has no faces ({n} vertices, but a mesh needs at least one triangle)"),
        ));
    }
    let mesh = Mesh {
        vertices,
        triangles,
    };
    mesh.validate(path)?;
    Ok(mesh)
}

/// Resolves the OBJ face index `k` when `defined` vertices have been read: the 0-based index,
/// and whether it names a vertex not defined yet (to be checked at the end of the file).
fn obj_index(k: i64, defined: usize) -> Result<(u32, bool), String> {
    let limit = u32::MAX;
    if k > 0 {
        let zero_based = k - 1;
        let index = u32::try_from(zero_based)
            .map_err(|_| format!("face index {k} is out of range (at most {limit} vertices)"))?;
        let later = usize::try_from(zero_based).map_or(true, |z| z >= defined);
        Ok((index, later))
    } else if k < 0 {
        let back = usize::try_from(k.unsigned_abs()).unwrap_or(usize::MAX);
        let resolved = defined.checked_sub(back).ok_or_else(|| {
            format!(
                "relative face index {k} is out of range \
                 (only {defined} vertices are defined before this line)"
            )
        })?;
        let index = u32::try_from(resolved)
            .map_err(|_| format!("face index {k} is out of range (at most {limit} vertices)"))?;
        Ok((index, false))
    } else {
        Err("face index 0 is invalid (OBJ indices start at 1, or count back from -1)".to_string())
    }
}

/// Writes `mesh` as OBJ: one `v x y z` line per vertex, then one `f a b c` line per triangle
/// with 1-based indices.
///
/// Coordinates use Rust's `Display` for `f64`, the shortest text that reads back to the same
/// value, so [`parse_obj`] of the output gives back exactly `mesh`. Writes many small pieces:
/// wrap files in a `BufWriter`.
pub fn write_obj(mesh: &Mesh, w: &mut impl std::io::Write) -> std::io::Result<()> {
    for [x, y, z] in &mesh.vertices {
        writeln!(w, "v {x} {y} {z}")?;
    }
    for tri in &mesh.triangles {
        let [a, b, c] = tri.map(|i| u64::from(i) + 1);
        writeln!(w, "f {a} {b} {c}")?;
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use crate::error::testing::assert_err;

    /// `[0,0,0] [1,0,0] [0,1,0]` as OBJ vertex lines.
    pub(crate) const TRI: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

    #[test]
    fn obj_quads_negative_indices_and_ignored_statements() {
        let text = "# a quad and a triangle\r\n\
                    mtllib a.mtl\n\
                    o thing\n\
                    v 0 0 0\n\
                    v 1 0 0 1.0\r\n\
                    v 1 1 0 0.5 0.25 0.125\n\
                    v 0 1 0 # comment after a vertex\n\
                    vt 0 0\n\
                    vn 0 0 1\n\
                    g group\n\
                    s off\n\
                    usemtl m\n\
                    \n\
                    f 1/1/1 2/1/1 3//1 4\r\n\
                    v 0.5 0.5 -2.5e-1\n\
                    f -5 -4 -1\n";
        let mesh = parse_obj(text.as_bytes(), Path::new("a.obj")).unwrap();
        assert_eq!(
            mesh.vertices,
            vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.5, 0.5, -0.25]
            ]
        );
        assert_eq!(mesh.triangles, vec![[0, 1, 2], [0, 2, 3], [0, 1, 4]]);
    }

    #[test]
    fn obj_pentagon_fans_into_three_triangles() {
        let text = "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\n";
        let mesh = parse_obj(text.as_bytes(), Path::new("p.obj")).unwrap();
        assert_eq!(mesh.triangles, vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
    }

    #[test]
    fn obj_face_may_name_later_vertices() {
        let text = format!("f 1 2 3\n{TRI}");
        let mesh = parse_obj(text.as_bytes(), Path::new("late.obj")).unwrap();
        assert_eq!(mesh.vertices.len(), 3);
        assert_eq!(mesh.triangles, vec![[0, 1, 2]]);
    }

    #[test]
    fn obj_write_then_parse_is_exact() {
        let mesh = Mesh {
            vertices: vec![
                [0.1, -0.0, core::f64::consts::PI],
                [1e-300, 1e300, f64::MAX],
                [f64::MIN_POSITIVE, 5e-324, -123_456.789_012_345_67],
                [1.0 / 3.0, 2.0_f64.sqrt(), -1.0],
            ],
            triangles: vec![[0, 1, 2], [3, 2, 1], [0, 0, 3]],
        };
        let mut out = Vec::new();
        write_obj(&mesh, &mut out).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.contains("\nf 1 2 3\n"), "{text}");
        let back = parse_obj(&out, Path::new("rt.obj")).unwrap();
        assert_eq!(back, mesh);
        let bits = |m: &Mesh| -> Vec<[u64; 3]> {
            m.vertices.iter().map(|v| v.map(f64::to_bits)).collect()
        };
        assert_eq!(
            bits(&back),
            bits(&mesh),
            "signs of zeros and every bit must survive"
        );
    }

    #[test]
    fn obj_malformed_inputs_name_file_line_and_problem() {
        let cases: &[(String, &str, &str)] = &[
            (
                "v 0 0 0\nv 1 x 0\n".into(),
                "line 2",
                "bad number 'x' for the y coordinate",
            ),
            (
                "v 0 0 nan\n".into(),
                "line 1",
                "the z coordinate 'nan' is not finite",
            ),
            ("v 0 inf 0\n".into(), "line 1", "not finite"),
            ("v 1 2\n".into(), "line 1", "vertex has no z coordinate"),
            (
                "v 1 2 3 abc\n".into(),
                "line 1",
                "bad number 'abc' after the vertex coordinates",
            ),
            (
                format!("{TRI}f 0 1 2\n"),
                "line 4",
                "face index 0 is invalid",
            ),
            (
                format!("{TRI}f 1 2 4\n"),
                "line 4",
                "face index 4 is out of range (the file has 3 vertices)",
            ),
            (
                format!("{TRI}f 1 2 99999999999\n"),
                "line 4",
                "face index 99999999999 is out of range",
            ),
            (
                format!("{TRI}f -1 -2 -4\n"),
                "line 4",
                "relative face index -4 is out of range",
            ),
            (
                format!("{TRI}f 1 2\n"),
                "line 4",
                "face has 2 vertices; at least 3 are needed",
            ),
            (format!("{TRI}f\n"), "line 4", "face has 0 vertices"),
            (format!("{TRI}f 1 2 x\n"), "line 4", "bad face vertex 'x'"),
            (format!("{TRI}f 1 2 /3\n"), "line 4", "bad face vertex '/3'"),
            (
                format!("{TRI}bogus 1 2\n"),
                "line 4",
                "unknown OBJ statement 'bogus'",
            ),
        ];
        for (text, line, phrase) in cases {
            assert_err(
                parse_obj(text.as_bytes(), Path::new("bad.obj")),
                "bad.obj",
                &[line, phrase],
            );
        }
    }

    #[test]
    fn obj_without_faces_is_an_error() {
        assert_err(
            parse_obj(b"", Path::new("empty.obj")),
            "empty.obj",
            &["no faces", "0 vertices"],
        );
        assert_err(
            parse_obj(TRI.as_bytes(), Path::new("pts.obj")),
            "pts.obj",
            &["no faces", "3 vertices"],
        );
        assert_err(
            parse_obj(b"# only a comment\n\n", Path::new("c.obj")),
            "c.obj",
            &["no faces"],
        );
    }

    #[test]
    fn obj_binary_garbage_is_refused() {
        assert_err(
            parse_obj(&[0xff, 0xfe, 0x00, 0x41], Path::new("bin.obj")),
            "bin.obj",
            &["line 1", "unknown OBJ statement"],
        );
    }
}

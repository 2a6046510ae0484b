//! STL files.
//!
//! Binary STL (an 80-byte header, a little-endian `u32` facet count, then 50 bytes per facet) and
//! ASCII STL (`solid … facet normal … outer loop vertex x y z ×3 endloop endfacet … endsolid`,
//! keywords in any case, several `solid` blocks allowed) are both read. A file is binary when
//! its size is exactly `84 + 50 · count`, even if its header starts with `solid` (as many
//! exporters write); otherwise it must start with `solid` and is read as ASCII.
//!
//! STL stores every facet corner separately, so corners are merged into shared vertices: two
//! corners are the same vertex if and only if their coordinates are bitwise equal as read (the
//! `f32` values of a binary file, widened exactly to `f64`; the parsed `f64` values of an ASCII
//! file). `0.0` and `-0.0` are therefore different vertices. Vertices are numbered in order of
//! first appearance and triangles follow facet order. A facet whose corners coincide after
//! merging is kept as it is: it is still a triangle of the file, degenerate or not.

use std::collections::HashMap;
use std::path::Path;

use super::mesh::Mesh;
use super::text::{parse_f64, show, Tokens};
use crate::error::LoadError;

/// Size of a binary STL header plus facet count.
const STL_HEADER: usize = 84;
/// Size of one binary STL facet: normal, three corners, attribute word.
const STL_FACET: usize = 50;

/// Parses an STL file, binary or ASCII (see the [module documentation](self) for how the two
/// are told apart and how corners become shared vertices).
///
/// `path` only names the file in errors. ASCII errors give the 1-based line, binary errors the
/// byte offset of the facet.
pub fn parse_stl(bytes: &[u8], path: &Path) -> Result<Mesh, LoadError> {
    let len = bytes.len();
    // The facet count a binary file declares, and the file size it implies.
    let declared = bytes
        .get(80..STL_HEADER)
        .and_then(|c| <[u8; 4]>::try_from(c).ok())
        .map(u32::from_le_bytes)
        .map(|n| (n, STL_HEADER as u64 + STL_FACET as u64 * u64::from(n)));
    if let Some((count, expected)) = declared {
        if Ok(expected) == u64::try_from(len) {
            return parse_stl_binary(bytes, count, path);
        }
    }
    if starts_with_solid(bytes) {
        return parse_stl_ascii(bytes, path).map_err(|mut e| {
            if let Some((count, expected)) = declared {
                e.message += &format!(
                    " (read as ASCII STL because the file starts with 'solid'; as binary STL \
                     its {count} facets would need {expected} bytes, but it has {len})"
                );
            }
            e
        });
    }
    match declared {
        Some((count, expected)) => Err(LoadError::at(
            path,
            "byte 80",
            format!(
                "binary STL declares {count} facets, which need 84 + 50·{count} = {expected} \
                 bytes, but the file has {len} bytes"
            ),
        )),
        None => Err(LoadError::new(
            path,
            format!(
                "not an STL file: it does not start with 'solid' and its {len} bytes are too \
                 few for a binary STL (84-byte header)"
            ),
        )),
    }
}

/// Whether the text starts (after whitespace) with `solid`, in any case.
fn starts_with_solid(bytes: &[u8]) -> bool {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    bytes
        .get(start..)
        .and_then(|rest| rest.get(..5))
        .is_some_and(|w| w.eq_ignore_ascii_case(b"solid"))
}

/// Shared vertices of an STL file: corners merged by the bit pattern of their coordinates.
struct Merger<K> {
    index: HashMap<K, u32>,
    vertices: Vec<[f64; 3]>,
}

impl<K: core::hash::Hash + Eq> Merger<K> {
    fn with_capacity(n: usize) -> Self {
        Self {
            index: HashMap::with_capacity(n),
            vertices: Vec::with_capacity(n),
        }
    }

    /// The index of the vertex with key `key`, adding `position` if it is new; `None` once
    /// more vertices than `u32` can index are needed.
    fn vertex(&mut self, key: K, position: [f64; 3]) -> Option<u32> {
        if let Some(&i) = self.index.get(&key) {
            return Some(i);
        }
        let i = u32::try_from(self.vertices.len()).ok()?;
        self.index.insert(key, i);
        self.vertices.push(position);
        Some(i)
    }
}

fn parse_stl_binary(bytes: &[u8], count: u32, path: &Path) -> Result<Mesh, LoadError> {
    if count == 0 {
        return Err(LoadError::at(
            path,
            "byte 80",
            "the binary STL has no facets",
        ));
    }
    let body = bytes.get(STL_HEADER..).unwrap_or_default();
    let facets = body.chunks_exact(STL_FACET);
    let mut merger = Merger::<[u32; 3]>::with_capacity(facets.len().saturating_mul(3) / 2);
    let mut triangles = Vec::with_capacity(facets.len());
    for (k, facet) in facets.enumerate() {
        let offset = STL_HEADER + k * STL_FACET;
        let mut tri = [0_u32; 3];
        for (c, slot) in tri.iter_mut().enumerate() {
            let mut bits = [0_u32; 3];
            for (axis, b) in bits.iter_mut().enumerate() {
                let at = 12 + 12 * c + 4 * axis;
                let raw = facet
                    .get(at..at + 4)
                    .and_then(|r| <[u8; 4]>::try_from(r).ok());
                *b = raw.map_or(0, u32::from_le_bytes);
            }
            let position = bits.map(|b| f64::from(f32::from_bits(b)));
            if !position.iter().all(|v| v.is_finite()) {
                return Err(LoadError::at(
                    path,
                    format!("byte {}", offset + 12 + 12 * c),
                    format!(
                        "facet {k}, corner {c}: coordinate is not finite ({}, {}, {})",
                        position[0], position[1], position[2]
                    ),
                ));
            }
            *slot = merger.vertex(bits, position).ok_or_else(|| {
                LoadError::at(path, format!("byte {offset}"), "too many distinct vertices")
            })?;
        }
        triangles.push(tri);
    }
    let mesh = Mesh {
        vertices: merger.vertices,
        triangles,
    };
    mesh.validate(path)?;
    Ok(mesh)
}

fn parse_stl_ascii(bytes: &[u8], path: &Path) -> Result<Mesh, LoadError> {
    let mut toks = Tokens::new(bytes, 0, 1);
    let mut merger = Merger::<[u64; 3]>::with_capacity(0);
    let mut triangles: Vec<[u32; 3]> = Vec::new();

    // The `solid` line (its name is the rest of the line).
    let _ = toks.next_token();
    toks.skip_line();
    loop {
        let Some((tok, line)) = toks.next_token() else {
            return Err(LoadError::line(
                path,
                toks.line,
                "the file ends before 'endsolid'",
            ));
        };
        if tok.eq_ignore_ascii_case(b"endsolid") {
            toks.skip_line();
            match toks.next_token() {
                None => break,
                Some((tok, _)) if tok.eq_ignore_ascii_case(b"solid") => toks.skip_line(),
                Some((tok, line)) => {
                    return Err(LoadError::line(
                        path,
                        line,
                        format!(
                            "expected 'solid' or the end of the file after 'endsolid', found '{}'",
                            show(tok)
                        ),
                    ))
                }
            }
        } else if tok.eq_ignore_ascii_case(b"facet") {
            expect_keyword(&mut toks, b"normal", path)?;
            for axis in ["x", "y", "z"] {
                stl_number(&mut toks, path, &format!("normal {axis}"))?;
            }
            expect_keyword(&mut toks, b"outer", path)?;
            expect_keyword(&mut toks, b"loop", path)?;
            let mut tri = [0_u32; 3];
            for slot in &mut tri {
                let line = expect_keyword(&mut toks, b"vertex", path)?;
                let mut position = [0.0_f64; 3];
                for (p, axis) in position.iter_mut().zip(["x", "y", "z"]) {
                    *p = stl_number(&mut toks, path, &format!("vertex {axis}"))?;
                    if !p.is_finite() {
                        return Err(LoadError::line(
                            path,
                            line,
                            format!("vertex {axis} coordinate is not finite ({p})"),
                        ));
                    }
                }
                *slot = merger
                    .vertex(position.map(f64::to_bits), position)
                    .ok_or_else(|| LoadError::line(path, line, "too many distinct vertices"))?;
            }
            match toks.next_token() {
                Some((t, _)) if t.eq_ignore_ascii_case(b"endloop") => {}
                Some((t, line)) if t.eq_ignore_ascii_case(b"vertex") => {
                    return Err(LoadError::line(
                        path,
                        line,
                        "facet has more than 3 vertices; STL facets must be triangles",
                    ))
                }
                Some((t, line)) => {
                    return Err(LoadError::line(
                        path,
                        line,
                        format!("expected 'endloop', found '{}'", show(t)),
                    ))
                }
                None => {
                    return Err(LoadError::line(
                        path,
                        toks.line,
                        "the file ends inside a facet (expected 'endloop')",
                    ))
                }
            }
            expect_keyword(&mut toks, b"endfacet", path)?;
            triangles.push(tri);
        } else {
            return Err(LoadError::line(
                path,
                line,
                format!("expected 'facet' or 'endsolid', found '{}'", show(tok)),
            ));
        }
    }
    if triangles.is_empty() {
        return Err(LoadError::new(path, "the ASCII STL has no facets"));
    }
    let mesh = Mesh {
        vertices: merger.vertices,
        triangles,
    };
    mesh.validate(path)?;
    Ok(mesh)
}

/// Reads the keyword `word` (in any case); returns its line.
fn expect_keyword(toks: &mut Tokens<'_>, word: &[u8], path: &Path) -> Result<usize, LoadError> {
    let want = String::from_utf8_lossy(word);
    match toks.next_token() {
        Some((t, line)) if t.eq_ignore_ascii_case(word) => Ok(line),
        Some((t, line)) => Err(LoadError::line(
            path,
            line,
            format!("expected '{want}', found '{}'", show(t)),
        )),
        None => Err(LoadError::line(
            path,
            toks.line,
            format!("the file ends inside a facet (expected '{want}')"),
        )),
    }
}

/// Reads a number; `what` names it in errors.
fn stl_number(toks: &mut Tokens<'_>, path: &Path, what: &str) -> Result<f64, LoadError> {
    match toks.next_token() {
        Some((t, line)) => parse_f64(t).ok_or_else(|| {
            LoadError::line(
                path,
                line,
                format!("bad number '{}' for the {what}", show(t)),
            )
        }),
        None => Err(LoadError::line(
            path,
            toks.line,
            format!("the file ends inside a facet (expected the {what})"),
        )),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use crate::error::testing::assert_err;

    pub(crate) const STL_ASCII: &str = "solid cube part\n\
        facet normal 0 0 1\n  outer loop\n    vertex 0 0 0\n    vertex 1 0 0\n    vertex 1 1 0\n  endloop\nendfacet\n\
        facet normal 0 0 1\n  outer loop\n    vertex 0 0 0\n    vertex 1 1 0\n    vertex 0 1 0\n  endloop\nendfacet\n\
        FACET NORMAL 0 0 0\n  OUTER LOOP\n    VERTEX 0 1 0\n    VERTEX 0 1.0 0e0\n    VERTEX 0 0 0\n  ENDLOOP\nENDFACET\n\
        endsolid cube part\n";

    #[test]
    fn stl_ascii_merges_equal_corners_and_keeps_degenerate_facets() {
        let mesh = parse_stl(STL_ASCII.as_bytes(), Path::new("a.stl")).unwrap();
        assert_eq!(
            mesh.vertices,
            vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0]
            ]
        );
        assert_eq!(mesh.triangles, vec![[0, 1, 2], [0, 2, 3], [3, 3, 0]]);
    }

    #[test]
    fn stl_ascii_negative_zero_is_a_different_vertex_and_solids_may_repeat() {
        let text = "solid a\nfacet normal 0 0 0\nouter loop\nvertex 0 0 0\nvertex -0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid a\n\
                    solid b\nfacet normal 0 0 0\nouter loop\nvertex 1 0 0\nvertex 0 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n";
        let mesh = parse_stl(text.as_bytes(), Path::new("z.stl")).unwrap();
        assert_eq!(mesh.vertices.len(), 4);
        assert_eq!(mesh.vertices[1][0].to_bits(), (-0.0_f64).to_bits());
        assert_eq!(mesh.triangles, vec![[0, 1, 2], [2, 0, 3]]);
    }

    /// A binary STL of two facets sharing an edge; `header` starts the 80-byte header.
    pub(crate) fn stl_binary(header: &[u8], corner: Option<(usize, usize, f32)>) -> Vec<u8> {
        let mut out = header.to_vec();
        out.resize(80, b' ');
        out.extend_from_slice(&2_u32.to_le_bytes());
        let facets = [
            [[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 1.0, 0.0]],
            [[0.1, 0.0, 0.0], [0.1, 1.0, 0.0], [0.0, 1.0, 0.0]],
        ];
        for (k, facet) in facets.iter().enumerate() {
            out.extend_from_slice(&[0; 12]);
            for (c, v) in facet.iter().enumerate() {
                for (axis, &x) in v.iter().enumerate() {
                    let x: f32 = match corner {
                        Some((kk, cc, value)) if kk == k && cc == c && axis == 0 => value,
                        _ => x,
                    };
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
            out.extend_from_slice(&[0xab, 0xcd]);
        }
        out
    }

    #[test]
    fn stl_binary_merges_and_widens_f32_exactly() {
        for header in [b"binary".as_slice(), b"solid but binary".as_slice()] {
            let bytes = stl_binary(header, None);
            assert_eq!(bytes.len(), 184);
            let mesh = parse_stl(&bytes, Path::new("b.stl")).unwrap();
            let tenth = f64::from(0.1_f32);
            assert_eq!(
                mesh.vertices,
                vec![
                    [0.0, 0.0, 0.0],
                    [tenth, 0.0, 0.0],
                    [0.0, 1.0, 0.0],
                    [tenth, 1.0, 0.0]
                ]
            );
            assert_eq!(mesh.triangles, vec![[0, 1, 2], [1, 3, 2]]);
        }
    }

    #[test]
    fn stl_binary_errors() {
        let good = stl_binary(b"binary", None);
        let cut = good.get(..174).unwrap();
        assert_err(
            parse_stl(cut, Path::new("cut.stl")),
            "cut.stl",
            &[
                "byte 80",
                "declares 2 facets",
                "84 + 50·2 = 184 bytes",
                "has 174 bytes",
            ],
        );
        let cut_solid = stl_binary(b"solid x", None);
        assert_err(
            parse_stl(cut_solid.get(..174).unwrap(), Path::new("cs.stl")),
            "cs.stl",
            &[
                "read as ASCII STL because the file starts with 'solid'",
                "would need 184 bytes",
            ],
        );
        let nan = stl_binary(b"binary", Some((1, 2, f32::NAN)));
        assert_err(
            parse_stl(&nan, Path::new("nan.stl")),
            "nan.stl",
            &["byte 170", "facet 1, corner 2: coordinate is not finite"],
        );
        let mut empty = vec![b'x'; 80];
        empty.extend_from_slice(&0_u32.to_le_bytes());
        assert_err(
            parse_stl(&empty, Path::new("none.stl")),
            "none.stl",
            &["byte 80", "no facets"],
        );
        assert_err(
            parse_stl(b"abc", Path::new("tiny.stl")),
            "tiny.stl",
            &["not an STL file", "3 bytes"],
        );
        assert_err(
            parse_stl(b"", Path::new("zero.stl")),
            "zero.stl",
            &["not an STL file"],
        );
    }

    #[test]
    fn stl_ascii_errors() {
        let facet = "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n";
        let cases: Vec<(String, &str, &str)> = vec![
            (
                format!("solid x\n{facet}"),
                "line 9",
                "ends before 'endsolid'",
            ),
            (
                "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n".into(),
                "line 5",
                "ends inside a facet (expected 'vertex')",
            ),
            (
                format!(
                    "solid x\n{}endsolid\n",
                    facet.replace("vertex 1 0 0", "vertex 1 abc 0")
                ),
                "line 5",
                "bad number 'abc' for the vertex y",
            ),
            (
                format!(
                    "solid x\n{}endsolid\n",
                    facet.replace("vertex 1 0 0", "vertex 1 0 NaN")
                ),
                "line 5",
                "vertex z coordinate is not finite",
            ),
            (
                format!(
                    "solid x\n{}endsolid\n",
                    facet.replace("normal 0 0 1", "normal 0 q 1")
                ),
                "line 2",
                "bad number 'q' for the normal y",
            ),
            (
                format!(
                    "solid x\n{}endsolid\n",
                    facet.replace("endloop", "vertex 2 2 2\nendloop")
                ),
                "line 7",
                "more than 3 vertices",
            ),
            (
                format!(
                    "solid x\n{}endsolid\n",
                    facet.replace("outer loop", "outer ring")
                ),
                "line 3",
                "expected 'loop', found 'ring'",
            ),
            (
                format!("solid x\n{facet}vertex 1 2 3\nendsolid\n"),
                "line 9",
                "expected 'facet' or 'endsolid', found 'vertex'",
            ),
            (
                format!("solid x\n{facet}endsolid x\nrubbish\n"),
                "line 10",
                "expected 'solid' or the end of the file after 'endsolid'",
            ),
            ("solid empty\nendsolid empty\n".into(), "", "no facets"),
        ];
        for (text, line, phrase) in &cases {
            assert_err(
                parse_stl(text.as_bytes(), Path::new("bad.stl")),
                "bad.stl",
                &[line, phrase],
            );
        }
    }
}

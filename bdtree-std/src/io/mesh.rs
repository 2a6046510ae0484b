//! Triangle meshes read from OBJ, PLY and STL files.
//!
//! A [`Mesh`] keeps its vertices in the order that defines them in the file, because a
//! displacement basis (see [`crate::basis`]) indexes vertices by that order: row `3i + k` of the
//! basis moves coordinate `k` of vertex `i`. Nothing is ever merged, reordered or dropped, except
//! in STL files, which have no shared vertices to begin with (see below).
//!
//! Every loader returns either a mesh that passes [`Mesh::validate`] (at least one triangle,
//! every index in range, every coordinate finite) or a [`LoadError`] naming the file, the place
//! (a line for text, a byte offset for binary data) and the problem. No input makes a loader
//! panic, and declared counts never cause an allocation larger than the file justifies.
//!
//! # OBJ
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
//!
//! # PLY
//!
//! Formats `ascii 1.0`, `binary_little_endian 1.0` and `binary_big_endian 1.0`. The `vertex`
//! element needs scalar properties `x`, `y`, `z` of any PLY scalar type (`char`, `uchar`,
//! `short`, `ushort`, `int`, `uint`, `float`, `double` or their `int8` … `float64` aliases); the
//! `face` element needs a list property `vertex_indices` or `vertex_index` with integer count and
//! index types. Polygons are fan-triangulated as for OBJ. Every other property and element
//! (normals, colours, edges, materials, list properties included) is read and skipped, and
//! `comment` and `obj_info` header lines are ignored. Elements may come in any order; face
//! indices are checked against the vertex count declared in the header. Nothing but whitespace
//! may follow the last element. Entries are numbered from 0 in error messages.
//!
//! # STL
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

use crate::error::LoadError;

/// A triangle mesh in f64, vertices in file order (bases index them), triangles in face order.
///
/// For OBJ and PLY, polygons are fan-triangulated, so triangle indices are in face order after
/// fan triangulation; for STL, vertices are shared corners in order of first appearance (see the
/// [module documentation](self)).
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// Vertex positions, in the order the file defines them.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles as indices into [`Mesh::vertices`], in the order the file defines them.
    pub triangles: Vec<[u32; 3]>,
}

impl Mesh {
    /// Checks: at least one triangle, every index < vertices.len(), every coordinate finite.
    ///
    /// `path` is only used to name the file in the error, which numbers vertices and triangles
    /// from 0. Cost: one pass over the vertices and the triangles.
    pub fn validate(&self, path: &Path) -> Result<(), LoadError> {
        if self.triangles.is_empty() {
            return Err(LoadError::new(path, "the mesh has no triangles"));
        }
        let n = self.vertices.len();
        if u32::try_from(n).is_err() {
            return Err(LoadError::new(
                path,
                format!(
                    "the mesh has {n} vertices; at most {} can be indexed",
                    u32::MAX
                ),
            ));
        }
        for (i, v) in self.vertices.iter().enumerate() {
            if !v.iter().all(|c| c.is_finite()) {
                return Err(LoadError::at(
                    path,
                    format!("vertex {i}"),
                    format!("coordinate is not finite ({}, {}, {})", v[0], v[1], v[2]),
                ));
            }
        }
        for (t, tri) in self.triangles.iter().enumerate() {
            for &ix in tri {
                if usize::try_from(ix).map_or(true, |ix| ix >= n) {
                    return Err(LoadError::at(
                        path,
                        format!("triangle {t}"),
                        format!("vertex index {ix} is out of range (the mesh has {n} vertices)"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Reads a mesh file, choosing the format by the extension `.obj`, `.ply` or `.stl` (in any
/// case).
pub fn load_mesh(path: &Path) -> Result<Mesh, LoadError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let parse: fn(&[u8], &Path) -> Result<Mesh, LoadError> =
        match ext.as_deref() {
            Some("obj") => parse_obj,
            Some("ply") => parse_ply,
            Some("stl") => parse_stl,
            Some(other) => {
                return Err(LoadError::new(
                    path,
                    format!(
                    "unknown mesh format '.{other}': supported extensions are .obj, .ply and .stl"
                ),
                ))
            }
            None => return Err(LoadError::new(
                path,
                "the file name has no extension: supported mesh extensions are .obj, .ply and .stl",
            )),
        };
    let bytes = std::fs::read(path).map_err(|e| LoadError::io(path, &e))?;
    parse(&bytes, path)
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

// ---------------------------------------------------------------------------------------------
// Shared text helpers
// ---------------------------------------------------------------------------------------------

/// A token as it may appear in a message: lossy UTF-8, escaped, at most 40 characters.
fn show(tok: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(tok);
    let mut out: String = text
        .chars()
        .take(MAX)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

/// Parses a decimal floating-point number (not checked for finiteness).
fn parse_f64(tok: &[u8]) -> Option<f64> {
    core::str::from_utf8(tok).ok()?.parse::<f64>().ok()
}

/// Parses a decimal integer with an optional sign.
fn parse_i64(tok: &[u8]) -> Option<i64> {
    core::str::from_utf8(tok).ok()?.parse::<i64>().ok()
}

/// Whitespace-separated tokens of a text, each with the 1-based line it is on.
struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Tokens<'a> {
    /// Tokens of `bytes[start..]`, whose first byte is on line `line`.
    fn new(bytes: &'a [u8], start: usize, line: usize) -> Self {
        Self {
            bytes,
            pos: start,
            line,
        }
    }

    /// The next token and its line, or `None` at the end of the text.
    fn next_token(&mut self) -> Option<(&'a [u8], usize)> {
        while let Some(&b) = self.bytes.get(self.pos) {
            if !b.is_ascii_whitespace() {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        let start = self.pos;
        while let Some(&b) = self.bytes.get(self.pos) {
            if b.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
        let tok = self.bytes.get(start..self.pos)?;
        if tok.is_empty() {
            None
        } else {
            Some((tok, self.line))
        }
    }

    /// Skips the rest of the current line, including its line end.
    fn skip_line(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            self.pos += 1;
            if b == b'\n' {
                self.line += 1;
                break;
            }
        }
    }
}

/// How many entries to reserve room for: the declared `count`, but no more than the
/// `remaining` bytes could hold at `min_bytes` bytes per entry.
fn prealloc(count: u64, remaining: usize, min_bytes: usize) -> usize {
    usize::try_from(count)
        .unwrap_or(usize::MAX)
        .min(remaining / min_bytes.max(1))
}

/// Appends the fan triangulation of `poly` (at least 3 vertices) to `out`.
fn fan(poly: &[u32], out: &mut Vec<[u32; 3]>) {
    if let Some((&first, rest)) = poly.split_first() {
        for pair in rest.windows(2) {
            if let [b, c] = *pair {
                out.push([first, b, c]);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// OBJ
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// PLY
// ---------------------------------------------------------------------------------------------

/// A PLY scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn from_name(name: &[u8]) -> Option<Self> {
        Some(match name {
            b"char" | b"int8" => Self::I8,
            b"uchar" | b"uint8" => Self::U8,
            b"short" | b"int16" => Self::I16,
            b"ushort" | b"uint16" => Self::U16,
            b"int" | b"int32" => Self::I32,
            b"uint" | b"uint32" => Self::U32,
            b"float" | b"float32" => Self::F32,
            b"double" | b"float64" => Self::F64,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::I8 => "char",
            Self::U8 => "uchar",
            Self::I16 => "short",
            Self::U16 => "ushort",
            Self::I32 => "int",
            Self::U32 => "uint",
            Self::F32 => "float",
            Self::F64 => "double",
        }
    }

    fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 => 2,
            Self::I32 | Self::U32 | Self::F32 => 4,
            Self::F64 => 8,
        }
    }

    fn is_integer(self) -> bool {
        !matches!(self, Self::F32 | Self::F64)
    }

    /// The values an integer type holds (floats: the whole `i64` range, unused).
    fn range(self) -> (i64, i64) {
        match self {
            Self::I8 => (i8::MIN.into(), i8::MAX.into()),
            Self::U8 => (0, u8::MAX.into()),
            Self::I16 => (i16::MIN.into(), i16::MAX.into()),
            Self::U16 => (0, u16::MAX.into()),
            Self::I32 => (i32::MIN.into(), i32::MAX.into()),
            Self::U32 => (0, u32::MAX.into()),
            Self::F32 | Self::F64 => (i64::MIN, i64::MAX),
        }
    }

    /// Decodes `raw` (exactly `self.size()` bytes) as a number; every PLY scalar converts to
    /// `f64` exactly.
    fn decode(self, raw: &[u8], big: bool) -> Option<f64> {
        Some(match self {
            Self::I8 => f64::from(i8::from_le_bytes(bytes_le(raw, big)?)),
            Self::U8 => f64::from(u8::from_le_bytes(bytes_le(raw, big)?)),
            Self::I16 => f64::from(i16::from_le_bytes(bytes_le(raw, big)?)),
            Self::U16 => f64::from(u16::from_le_bytes(bytes_le(raw, big)?)),
            Self::I32 => f64::from(i32::from_le_bytes(bytes_le(raw, big)?)),
            Self::U32 => f64::from(u32::from_le_bytes(bytes_le(raw, big)?)),
            Self::F32 => f64::from(f32::from_le_bytes(bytes_le(raw, big)?)),
            Self::F64 => f64::from_le_bytes(bytes_le(raw, big)?),
        })
    }

    /// Decodes `raw` as an integer (`None` for float types or a wrong length).
    fn decode_int(self, raw: &[u8], big: bool) -> Option<i64> {
        Some(match self {
            Self::I8 => i8::from_le_bytes(bytes_le(raw, big)?).into(),
            Self::U8 => u8::from_le_bytes(bytes_le(raw, big)?).into(),
            Self::I16 => i16::from_le_bytes(bytes_le(raw, big)?).into(),
            Self::U16 => u16::from_le_bytes(bytes_le(raw, big)?).into(),
            Self::I32 => i32::from_le_bytes(bytes_le(raw, big)?).into(),
            Self::U32 => u32::from_le_bytes(bytes_le(raw, big)?).into(),
            Self::F32 | Self::F64 => return None,
        })
    }
}

/// `raw` as an array in little-endian order (reversed if it is stored big-endian).
fn bytes_le<const N: usize>(raw: &[u8], big: bool) -> Option<[u8; N]> {
    let mut a: [u8; N] = raw.try_into().ok()?;
    if big {
        a.reverse();
    }
    Some(a)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PropKind {
    Scalar(Scalar),
    List { count: Scalar, item: Scalar },
}

#[derive(Debug)]
struct Property {
    name: Vec<u8>,
    kind: PropKind,
}

#[derive(Debug)]
struct Element {
    name: Vec<u8>,
    count: u64,
    props: Vec<Property>,
    /// Header line declaring the element.
    line: usize,
}

impl Element {
    /// The fewest bytes one entry can take (binary), or a lower bound on its text length.
    fn min_bytes(&self, ascii: bool) -> usize {
        if ascii {
            return self.props.len().saturating_mul(2).max(1);
        }
        self.props
            .iter()
            .map(|p| match p.kind {
                PropKind::Scalar(s) => s.size(),
                PropKind::List { count, .. } => count.size(),
            })
            .sum::<usize>()
            .max(1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlyFormat {
    Ascii,
    LittleEndian,
    BigEndian,
}

struct PlyHeader {
    format: PlyFormat,
    elements: Vec<Element>,
    /// Byte offset of the first data byte.
    data_start: usize,
    /// Line number the data starts on (for ASCII).
    data_line: usize,
}

fn parse_ply_header(bytes: &[u8], path: &Path) -> Result<PlyHeader, LoadError> {
    let mut pos = 0;
    let mut line = 0;
    let mut format = None;
    let mut elements: Vec<Element> = Vec::new();
    loop {
        line += 1;
        let Some(rest) = bytes.get(pos..).filter(|r| !r.is_empty()) else {
            return Err(LoadError::line(
                path,
                line,
                "the file ends inside the header (no 'end_header' line)",
            ));
        };
        let Some(len) = rest.iter().position(|&b| b == b'\n') else {
            return Err(LoadError::line(
                path,
                line,
                "the header has no 'end_header' line (is the file truncated?)",
            ));
        };
        let text = rest.get(..len).unwrap_or_default();
        pos += len + 1;
        let mut toks = text
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty());
        let keyword = toks.next();
        if line == 1 {
            if keyword != Some(b"ply".as_slice()) || toks.next().is_some() {
                return Err(LoadError::line(
                    path,
                    1,
                    "not a PLY file: the first line must be 'ply'",
                ));
            }
            continue;
        }
        let words: Vec<&[u8]> = toks.collect();
        match keyword {
            Some(b"end_header") => break,
            Some(b"comment" | b"obj_info") | None => {}
            Some(b"format") => {
                if format.is_some() {
                    return Err(LoadError::line(path, line, "a second 'format' line"));
                }
                let f = match words.first().copied() {
                    Some(b"ascii") => PlyFormat::Ascii,
                    Some(b"binary_little_endian") => PlyFormat::LittleEndian,
                    Some(b"binary_big_endian") => PlyFormat::BigEndian,
                    other => {
                        return Err(LoadError::line(
                            path,
                            line,
                            format!(
                                "unknown PLY format '{}' (expected ascii, \
                                 binary_little_endian or binary_big_endian)",
                                show(other.unwrap_or_default())
                            ),
                        ))
                    }
                };
                if words.get(1..) != Some([b"1.0".as_slice()].as_slice()) {
                    return Err(LoadError::line(
                        path,
                        line,
                        "unsupported format line: expected 'format <type> 1.0'",
                    ));
                }
                format = Some(f);
            }
            Some(b"element") => {
                let [name, count] = words.as_slice() else {
                    return Err(LoadError::line(
                        path,
                        line,
                        "bad element line: expected 'element <name> <count>'",
                    ));
                };
                let count = core::str::from_utf8(count)
                    .ok()
                    .and_then(|c| c.parse::<u64>().ok())
                    .ok_or_else(|| {
                        LoadError::line(path, line, format!("bad element count '{}'", show(count)))
                    })?;
                if elements.iter().any(|e| e.name == *name) {
                    return Err(LoadError::line(
                        path,
                        line,
                        format!("element '{}' is declared twice", show(name)),
                    ));
                }
                elements.push(Element {
                    name: name.to_vec(),
                    count,
                    props: Vec::new(),
                    line,
                });
            }
            Some(b"property") => {
                let Some(element) = elements.last_mut() else {
                    return Err(LoadError::line(path, line, "a property before any element"));
                };
                let scalar = |tok: &[u8]| {
                    Scalar::from_name(tok).ok_or_else(|| {
                        LoadError::line(
                            path,
                            line,
                            format!("unknown property type '{}'", show(tok)),
                        )
                    })
                };
                let (kind, name) = match words.as_slice() {
                    [b"list", count, item, name] => {
                        let (count, item) = (scalar(count)?, scalar(item)?);
                        if !count.is_integer() {
                            return Err(LoadError::line(
                                path,
                                line,
                                format!(
                                    "the length type of a list must be an integer type, not '{}'",
                                    count.name()
                                ),
                            ));
                        }
                        (PropKind::List { count, item }, name)
                    }
                    [ty, name] => (PropKind::Scalar(scalar(ty)?), name),
                    _ => {
                        return Err(LoadError::line(
                            path,
                            line,
                            "bad property line: expected 'property <type> <name>' \
                             or 'property list <type> <type> <name>'",
                        ))
                    }
                };
                if element.props.iter().any(|p| p.name == **name) {
                    return Err(LoadError::line(
                        path,
                        line,
                        format!(
                            "property '{}' is declared twice in element '{}'",
                            show(name),
                            show(&element.name)
                        ),
                    ));
                }
                element.props.push(Property {
                    name: name.to_vec(),
                    kind,
                });
            }
            Some(other) => {
                return Err(LoadError::line(
                    path,
                    line,
                    format!("unknown header line '{}'", show(other)),
                ));
            }
        }
    }
    let Some(format) = format else {
        return Err(LoadError::new(path, "the PLY header has no 'format' line"));
    };
    Ok(PlyHeader {
        format,
        elements,
        data_start: pos,
        data_line: line + 1,
    })
}

/// Reads the values of a PLY body one at a time.
trait PlyReader {
    /// Reads one value of type `ty` as a number.
    fn real(&mut self, ty: Scalar) -> Result<f64, String>;
    /// Reads one value of the integer type `ty`.
    fn integer(&mut self, ty: Scalar) -> Result<i64, String>;
    /// Where the last value read starts: `"byte N"` or `"line N"`.
    fn location(&self) -> String;
    /// Bytes not read yet.
    fn remaining(&self) -> usize;
    /// Checks that nothing but whitespace follows the last value.
    fn finish(&mut self) -> Result<(), String>;
}

struct BinaryReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    start: usize,
    big: bool,
}

impl<'a> BinaryReader<'a> {
    fn take(&mut self, ty: Scalar) -> Result<&'a [u8], String> {
        self.start = self.pos;
        let raw = self
            .pos
            .checked_add(ty.size())
            .and_then(|end| self.bytes.get(self.pos..end));
        match raw {
            Some(raw) => {
                self.pos += ty.size();
                Ok(raw)
            }
            None => Err(format!(
                "the file ends in the middle of the data ({} bytes left, a {} needs {})",
                self.remaining(),
                ty.name(),
                ty.size()
            )),
        }
    }
}

impl PlyReader for BinaryReader<'_> {
    fn real(&mut self, ty: Scalar) -> Result<f64, String> {
        let raw = self.take(ty)?;
        ty.decode(raw, self.big)
            .ok_or_else(|| "internal: bad scalar size".to_string())
    }

    fn integer(&mut self, ty: Scalar) -> Result<i64, String> {
        let raw = self.take(ty)?;
        ty.decode_int(raw, self.big)
            .ok_or_else(|| format!("expected an integer type, found '{}'", ty.name()))
    }

    fn location(&self) -> String {
        format!("byte {}", self.start)
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    fn finish(&mut self) -> Result<(), String> {
        self.start = self.pos;
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        if rest.iter().all(u8::is_ascii_whitespace) {
            Ok(())
        } else {
            Err(format!(
                "{} unexpected bytes after the last element",
                rest.len()
            ))
        }
    }
}

struct AsciiReader<'a> {
    tokens: Tokens<'a>,
    last_line: usize,
}

impl<'a> AsciiReader<'a> {
    fn token(&mut self) -> Result<&'a [u8], String> {
        match self.tokens.next_token() {
            Some((tok, line)) => {
                self.last_line = line;
                Ok(tok)
            }
            None => {
                self.last_line = self.tokens.line;
                Err("the file ends in the middle of the data".to_string())
            }
        }
    }
}

impl PlyReader for AsciiReader<'_> {
    fn real(&mut self, ty: Scalar) -> Result<f64, String> {
        if ty.is_integer() {
            // Integers of PLY types have at most 32 bits: exact in f64.
            return self.integer(ty).map(|v| v as f64);
        }
        let tok = self.token()?;
        parse_f64(tok)
            .ok_or_else(|| format!("bad number '{}' (a {} was expected)", show(tok), ty.name()))
    }

    fn integer(&mut self, ty: Scalar) -> Result<i64, String> {
        let tok = self.token()?;
        let (lo, hi) = ty.range();
        match parse_i64(tok) {
            Some(v) if ty.is_integer() && (lo..=hi).contains(&v) => Ok(v),
            _ => Err(format!(
                "bad number '{}' (a {} was expected)",
                show(tok),
                ty.name()
            )),
        }
    }

    fn location(&self) -> String {
        format!("line {}", self.last_line)
    }

    fn remaining(&self) -> usize {
        self.tokens.bytes.len().saturating_sub(self.tokens.pos)
    }

    fn finish(&mut self) -> Result<(), String> {
        match self.tokens.next_token() {
            None => Ok(()),
            Some((tok, line)) => {
                self.last_line = line;
                Err(format!(
                    "unexpected data '{}' after the last element",
                    show(tok)
                ))
            }
        }
    }
}

/// Parses a PLY file (see the [module documentation](self) for what is read).
///
/// `path` only names the file in errors. Header and ASCII-data errors give the 1-based line;
/// binary-data errors the byte offset of the offending value.
pub fn parse_ply(bytes: &[u8], path: &Path) -> Result<Mesh, LoadError> {
    let header = parse_ply_header(bytes, path)?;
    let mesh = match header.format {
        PlyFormat::Ascii => {
            let tokens = Tokens::new(bytes, header.data_start, header.data_line);
            let mut reader = AsciiReader {
                tokens,
                last_line: header.data_line,
            };
            read_ply_body(&mut reader, &header, path)?
        }
        PlyFormat::LittleEndian | PlyFormat::BigEndian => {
            let mut reader = BinaryReader {
                bytes,
                pos: header.data_start,
                start: header.data_start,
                big: header.format == PlyFormat::BigEndian,
            };
            read_ply_body(&mut reader, &header, path)?
        }
    };
    mesh.validate(path)?;
    Ok(mesh)
}

/// What an entry's property feeds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Skip,
    Axis(usize),
    FaceIndices,
}

fn read_ply_body<R: PlyReader>(
    r: &mut R,
    header: &PlyHeader,
    path: &Path,
) -> Result<Mesh, LoadError> {
    let elements = &header.elements;
    let vertex_element = elements
        .iter()
        .position(|e| e.name == b"vertex")
        .ok_or_else(|| LoadError::new(path, "the PLY header declares no 'vertex' element"))?;
    let face_element = elements
        .iter()
        .position(|e| e.name == b"face")
        .ok_or_else(|| {
            LoadError::new(
                path,
                "the PLY header declares no 'face' element \
             (point clouds and triangle strips are not supported)",
            )
        })?;

    // Roles of the properties of every element.
    let mut roles: Vec<Vec<Role>> = elements
        .iter()
        .map(|e| vec![Role::Skip; e.props.len()])
        .collect();
    let vertex = elements
        .get(vertex_element)
        .ok_or_else(|| LoadError::new(path, "internal"))?;
    for (axis, name) in ["x", "y", "z"].iter().enumerate() {
        let found = vertex.props.iter().position(|p| p.name == name.as_bytes());
        let Some(pi) = found else {
            return Err(LoadError::line(
                path,
                vertex.line,
                format!("element 'vertex' has no property '{name}'"),
            ));
        };
        if matches!(
            vertex.props.get(pi).map(|p| p.kind),
            Some(PropKind::List { .. })
        ) {
            return Err(LoadError::line(
                path,
                vertex.line,
                format!("property '{name}' of element 'vertex' is a list, not a number"),
            ));
        }
        if let Some(role) = roles.get_mut(vertex_element).and_then(|r| r.get_mut(pi)) {
            *role = Role::Axis(axis);
        }
    }
    let nverts = vertex.count;
    if nverts > u64::from(u32::MAX) {
        return Err(LoadError::line(
            path,
            vertex.line,
            format!(
                "{nverts} vertices declared; at most {} can be indexed",
                u32::MAX
            ),
        ));
    }
    let face = elements
        .get(face_element)
        .ok_or_else(|| LoadError::new(path, "internal"))?;
    let found = face
        .props
        .iter()
        .position(|p| p.name == b"vertex_indices" || p.name == b"vertex_index");
    let Some(pi) = found else {
        return Err(LoadError::line(
            path,
            face.line,
            "element 'face' has no property 'vertex_indices' or 'vertex_index'",
        ));
    };
    match face.props.get(pi).map(|p| p.kind) {
        Some(PropKind::List { item, .. }) if item.is_integer() => {}
        Some(PropKind::List { item, .. }) => {
            return Err(LoadError::line(
                path,
                face.line,
                format!(
                    "face vertex indices must have an integer type, not '{}'",
                    item.name()
                ),
            ))
        }
        _ => {
            return Err(LoadError::line(
                path,
                face.line,
                "the face vertex indices must be a list property",
            ))
        }
    }
    if let Some(role) = roles.get_mut(face_element).and_then(|r| r.get_mut(pi)) {
        *role = Role::FaceIndices;
    }

    let ascii = header.format == PlyFormat::Ascii;
    let mut vertices = Vec::with_capacity(prealloc(nverts, r.remaining(), vertex.min_bytes(ascii)));
    let mut triangles =
        Vec::with_capacity(prealloc(face.count, r.remaining(), face.min_bytes(ascii)));
    let mut poly: Vec<u32> = Vec::new();

    for ((ei, element), roles) in elements.iter().enumerate().zip(&roles) {
        if element.props.is_empty() {
            continue; // entries without properties take no room
        }
        let what = |entry: u64| match element.name.as_slice() {
            b"vertex" => format!("vertex {entry}"),
            b"face" => format!("face {entry}"),
            name => format!("element '{}' entry {entry}", show(name)),
        };
        let fail = |r: &R, entry: u64, msg: String| {
            LoadError::at(path, r.location(), format!("{}: {msg}", what(entry)))
        };
        for entry in 0..element.count {
            let mut xyz = [0.0_f64; 3];
            for (prop, &role) in element.props.iter().zip(roles) {
                match prop.kind {
                    PropKind::Scalar(ty) => {
                        let v = r.real(ty).map_err(|m| fail(r, entry, m))?;
                        if let Role::Axis(axis) = role {
                            if !v.is_finite() {
                                return Err(fail(
                                    r,
                                    entry,
                                    format!("coordinate {} is not finite ({v})", show(&prop.name)),
                                ));
                            }
                            if let Some(slot) = xyz.get_mut(axis) {
                                *slot = v;
                            }
                        }
                    }
                    PropKind::List { count, item } => {
                        let n = r.integer(count).map_err(|m| fail(r, entry, m))?;
                        if n < 0 {
                            return Err(fail(r, entry, format!("negative list length {n}")));
                        }
                        if role == Role::FaceIndices {
                            read_polygon(r, n, item, nverts, &mut poly)
                                .map_err(|m| fail(r, entry, m))?;
                            fan(&poly, &mut triangles);
                        } else {
                            for _ in 0..n {
                                r.real(item).map_err(|m| fail(r, entry, m))?;
                            }
                        }
                    }
                }
            }
            if ei == vertex_element {
                vertices.push(xyz);
            }
        }
    }
    r.finish()
        .map_err(|m| LoadError::at(path, r.location(), m))?;
    if triangles.is_empty() {
        return Err(LoadError::new(
            path,
            "the file has no faces (a mesh needs at least one triangle)",
        ));
    }
    Ok(Mesh {
        vertices,
        triangles,
    })
}

/// Reads the `n` vertex indices of a face, of type `item`, into `poly`, checking each against
/// the `nverts` vertices the header declares.
fn read_polygon<R: PlyReader>(
    r: &mut R,
    n: i64,
    item: Scalar,
    nverts: u64,
    poly: &mut Vec<u32>,
) -> Result<(), String> {
    if n < 3 {
        return Err(format!("face has {n} vertices; at least 3 are needed"));
    }
    poly.clear();
    for _ in 0..n {
        let ix = r.integer(item)?;
        let checked = u64::try_from(ix).ok().filter(|&i| i < nverts);
        let Some(ix) = checked.and_then(|i| u32::try_from(i).ok()) else {
            return Err(format!(
                "vertex index {ix} is out of range (the file declares {nverts} vertices)"
            ));
        };
        poly.push(ix);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// STL
// ---------------------------------------------------------------------------------------------

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
mod tests {
    use super::*;

    use crate::error::testing::{assert_err, err_text, XorShift};

    /// `[0,0,0] [1,0,0] [0,1,0]` as OBJ vertex lines.
    const TRI: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

    // ---------------------------------------------------------------------------- OBJ

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

    // ---------------------------------------------------------------------------- PLY

    const PLY_HEADER: &str = "ply\n\
        format FORMAT 1.0\n\
        comment made by hand\n\
        obj_info nothing to see\n\
        element vertex 5\n\
        property float x\n\
        property float y\n\
        property double z\n\
        property uchar red\n\
        property list uchar int extra\n\
        element face 2\n\
        property uchar flags\n\
        property list uchar int vertex_indices\n\
        element edge 1\n\
        property int vertex1\n\
        property int vertex2\n\
        property list ushort float weights\n\
        end_header\n";

    const PLY_ASCII_BODY: &str = "0 0 0 255 0\n\
        1 0 0 1 2 7 8\n\
        1 1 0 3 1 9\n\
        0 1 0 4 0\n\
        0.5 0.5 2.25 5 0\n\
        0 4 0 1 2 3\n\
        7 3 0 1 4\n\
        0 1 2 1.5 2.5\n";

    fn expected_ply_mesh() -> Mesh {
        Mesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.5, 0.5, 2.25],
            ],
            triangles: vec![[0, 1, 2], [0, 2, 3], [0, 1, 4]],
        }
    }

    fn ply_ascii() -> Vec<u8> {
        format!("{}{PLY_ASCII_BODY}", PLY_HEADER.replace("FORMAT", "ascii")).into_bytes()
    }

    /// Binary values in a chosen byte order.
    struct Bin {
        out: Vec<u8>,
        big: bool,
    }

    impl Bin {
        fn new(header: &str, big: bool) -> Self {
            Self {
                out: header.as_bytes().to_vec(),
                big,
            }
        }
        fn put<const N: usize>(&mut self, mut le: [u8; N]) -> &mut Self {
            if self.big {
                le.reverse();
            }
            self.out.extend_from_slice(&le);
            self
        }
        fn u8(&mut self, v: u8) -> &mut Self {
            self.put(v.to_le_bytes())
        }
        fn i16(&mut self, v: i16) -> &mut Self {
            self.put(v.to_le_bytes())
        }
        fn u16(&mut self, v: u16) -> &mut Self {
            self.put(v.to_le_bytes())
        }
        fn i32(&mut self, v: i32) -> &mut Self {
            self.put(v.to_le_bytes())
        }
        fn u32(&mut self, v: u32) -> &mut Self {
            self.put(v.to_le_bytes())
        }
        fn f32(&mut self, v: f32) -> &mut Self {
            self.put(v.to_le_bytes())
        }
        fn f64(&mut self, v: f64) -> &mut Self {
            self.put(v.to_le_bytes())
        }
    }

    /// The ASCII test file in binary, with `nan_x1` putting NaN in vertex 1's x.
    fn ply_binary(big: bool, nan_x1: bool) -> Vec<u8> {
        let format = if big {
            "binary_big_endian"
        } else {
            "binary_little_endian"
        };
        let mut b = Bin::new(&PLY_HEADER.replace("FORMAT", format), big);
        b.f32(0.0).f32(0.0).f64(0.0).u8(255).u8(0);
        b.f32(if nan_x1 { f32::NAN } else { 1.0 })
            .f32(0.0)
            .f64(0.0)
            .u8(1)
            .u8(2)
            .i32(7)
            .i32(8);
        b.f32(1.0).f32(1.0).f64(0.0).u8(3).u8(1).i32(9);
        b.f32(0.0).f32(1.0).f64(0.0).u8(4).u8(0);
        b.f32(0.5).f32(0.5).f64(2.25).u8(5).u8(0);
        b.u8(0).u8(4).i32(0).i32(1).i32(2).i32(3);
        b.u8(7).u8(3).i32(0).i32(1).i32(4);
        b.i32(0).i32(1).u16(2).f32(1.5).f32(2.5);
        b.out.clone()
    }

    #[test]
    fn ply_ascii_with_extra_properties_and_elements() {
        let mesh = parse_ply(&ply_ascii(), Path::new("a.ply")).unwrap();
        assert_eq!(mesh, expected_ply_mesh());
    }

    #[test]
    fn ply_binary_little_and_big_endian() {
        for big in [false, true] {
            let mesh = parse_ply(&ply_binary(big, false), Path::new("b.ply")).unwrap();
            assert_eq!(mesh, expected_ply_mesh(), "big endian: {big}");
        }
    }

    #[test]
    fn ply_integer_coordinates_aliases_and_faces_before_vertices() {
        let header = "ply\r\nformat binary_big_endian 1.0\r\n\
            element face 1\r\nproperty list uint8 uint32 vertex_index\r\n\
            element vertex 3\r\nproperty int16 x\r\nproperty int32 y\r\nproperty uint z\r\n\
            end_header\r\n";
        let mut b = Bin::new(header, true);
        b.u8(3).u32(2).u32(1).u32(0);
        b.i16(-3).i32(70_000).u32(4_000_000_000);
        b.i16(1).i32(0).u32(0);
        b.i16(0).i32(-1).u32(1);
        let mesh = parse_ply(&b.out, Path::new("ints.ply")).unwrap();
        assert_eq!(
            mesh.vertices,
            vec![[-3.0, 70_000.0, 4e9], [1.0, 0.0, 0.0], [0.0, -1.0, 1.0]]
        );
        assert_eq!(mesh.triangles, vec![[2, 1, 0]]);
    }

    #[test]
    fn ply_binary_nan_names_the_byte_offset() {
        let bytes = ply_binary(false, true);
        let data_start = PLY_HEADER.replace("FORMAT", "binary_little_endian").len();
        let vertex0 = 4 + 4 + 8 + 1 + 1;
        let at = format!("byte {}", data_start + vertex0);
        assert_err(
            parse_ply(&bytes, Path::new("nan.ply")),
            "nan.ply",
            &[&at, "vertex 1", "coordinate x is not finite"],
        );
    }

    #[test]
    fn ply_truncated_or_padded_binary() {
        let good = ply_binary(false, false);
        for cut in [1, 3, 10, 40] {
            let bytes = good.get(..good.len() - cut).unwrap();
            assert_err(
                parse_ply(bytes, Path::new("cut.ply")),
                "cut.ply",
                &["byte ", "ends in the middle of the data"],
            );
        }
        let mut padded = good.clone();
        padded.extend_from_slice(b"\n");
        assert_eq!(
            parse_ply(&padded, Path::new("nl.ply")).unwrap(),
            expected_ply_mesh()
        );
        padded.extend_from_slice(&[1, 2, 3]);
        assert_err(
            parse_ply(&padded, Path::new("tail.ply")),
            "tail.ply",
            &["4 unexpected bytes after the last element"],
        );
    }

    #[test]
    fn ply_malformed_headers_and_ascii_bodies() {
        let ok_header = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
        let verts = "0 0 0\n1 0 0\n0 1 0\n";
        assert!(parse_ply(
            format!("{ok_header}{verts}3 0 1 2\n").as_bytes(),
            Path::new("ok.ply")
        )
        .is_ok());
        let cases: Vec<(String, &str, &str)> = vec![
            ("plx\nformat ascii 1.0\n".into(), "line 1", "not a PLY file"),
            (
                "ply\nformat ascii 1.0\nelement vertex 1\n".into(),
                "line 4",
                "no 'end_header'",
            ),
            (
                "ply\nformat ascii 1.0\nelement vertex 1".into(),
                "line 3",
                "no 'end_header'",
            ),
            (
                ok_header.replace("ascii 1.0", "ascii 2.0"),
                "line 2",
                "unsupported format line",
            ),
            (
                ok_header.replace("ascii", "binary_middle_endian"),
                "line 2",
                "unknown PLY format 'binary_middle_endian'",
            ),
            (
                ok_header.replace("format ascii 1.0\n", ""),
                "",
                "no 'format' line",
            ),
            (
                ok_header.replace("property float y\n", ""),
                "line 3",
                "element 'vertex' has no property 'y'",
            ),
            (
                ok_header.replace("property float x", "property flot x"),
                "line 4",
                "unknown property type 'flot'",
            ),
            (
                ok_header.replace("vertex 3", "vertex -3"),
                "line 3",
                "bad element count '-3'",
            ),
            (
                ok_header.replace("list uchar int", "list float int"),
                "line 8",
                "length type of a list must be an integer",
            ),
            (
                ok_header.replace("list uchar int", "list uchar float"),
                "line 7",
                "must have an integer type",
            ),
            (
                ok_header.replace("vertex_indices", "corners"),
                "line 7",
                "no property 'vertex_indices' or 'vertex_index'",
            ),
            (
                ok_header.replace(
                    "element face 1\nproperty list uchar int vertex_indices\n",
                    "",
                ),
                "",
                "no 'face' element",
            ),
            (
                ok_header.replace("element vertex", "foo bar\nelement vertex"),
                "line 3",
                "unknown header line 'foo'",
            ),
            (
                "ply\nformat ascii 1.0\nproperty float x\nend_header\n".into(),
                "line 3",
                "a property before any element",
            ),
            (
                format!(
                    "{}{verts}3 0 1 2\n",
                    ok_header.replace("property float z", "property float z\nproperty float z")
                ),
                "line 7",
                "declared twice",
            ),
            (
                format!("{ok_header}0 0 0\n1 x 0\n0 1 0\n3 0 1 2\n"),
                "line 11",
                "vertex 1: bad number 'x'",
            ),
            (
                format!("{ok_header}0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n"),
                "line 11",
                "vertex 1: coordinate y is not finite",
            ),
            (
                format!("{ok_header}{verts}3 0 1 3\n"),
                "line 13",
                "face 0: vertex index 3 is out of range (the file declares 3 vertices)",
            ),
            (
                format!("{ok_header}{verts}3 0 1 -1\n"),
                "line 13",
                "vertex index -1 is out of range",
            ),
            (
                format!("{ok_header}{verts}2 0 1\n"),
                "line 13",
                "face 0: face has 2 vertices",
            ),
            (
                format!("{ok_header}{verts}256 0 1\n"),
                "line 13",
                "bad number '256' (a uchar was expected)",
            ),
            (
                format!("{ok_header}{verts}3 0 1\n"),
                "line 14",
                "ends in the middle of the data",
            ),
            (
                format!("{ok_header}0 0 0\n1 0"),
                "line 11",
                "ends in the middle of the data",
            ),
            (
                format!("{ok_header}{verts}3 0 1 2\n9\n"),
                "line 14",
                "unexpected data '9' after the last element",
            ),
            (
                format!("{}{verts}", ok_header.replace("face 1", "face 0")),
                "",
                "no faces",
            ),
        ];
        for (text, line, phrase) in &cases {
            assert_err(
                parse_ply(text.as_bytes(), Path::new("bad.ply")),
                "bad.ply",
                &[line, phrase],
            );
        }
    }

    #[test]
    fn ply_binary_negative_list_length() {
        let header = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list char int vertex_indices\nend_header\n";
        let mut b = Bin::new(header, false);
        for v in [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
            b.f32(v[0]).f32(v[1]).f32(v[2]);
        }
        b.u8(0xfd).i32(0).i32(1).i32(2);
        let at = format!("byte {}", header.len() + 36);
        assert_err(
            parse_ply(&b.out, Path::new("neg.ply")),
            "neg.ply",
            &[&at, "face 0: negative list length -3"],
        );
    }

    #[test]
    fn ply_huge_declared_counts_do_not_allocate() {
        // Declared counts far beyond the file: must fail fast, not reserve terabytes.
        for format in ["ascii", "binary_little_endian"] {
            let text = format!(
                "ply\nformat {format} 1.0\nelement vertex 1000000000000\nproperty double x\nproperty double y\nproperty double z\nelement face 4000000000000000000\nproperty list uint uint vertex_indices\nend_header\n0 0 0\n"
            );
            assert!(parse_ply(text.as_bytes(), Path::new("huge.ply")).is_err());
            let text = text.replace("vertex 1000000000000", "vertex 3");
            assert_err(
                parse_ply(text.as_bytes(), Path::new("huge.ply")),
                "huge.ply",
                &["ends in the middle of the data"],
            );
        }
    }

    // ---------------------------------------------------------------------------- STL

    const STL_ASCII: &str = "solid cube part\n\
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
    fn stl_binary(header: &[u8], corner: Option<(usize, usize, f32)>) -> Vec<u8> {
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

    // ---------------------------------------------------------------------------- all

    #[test]
    fn validate_reports_each_problem() {
        let path = Path::new("v.obj");
        let empty = Mesh {
            vertices: vec![[0.0; 3]; 3],
            triangles: vec![],
        };
        assert_err(empty.validate(path), "v.obj", &["no triangles"]);
        let range = Mesh {
            vertices: vec![[0.0; 3]; 3],
            triangles: vec![[0, 1, 2], [0, 3, 1]],
        };
        assert_err(
            range.validate(path),
            "v.obj",
            &[
                "triangle 1",
                "vertex index 3 is out of range (the mesh has 3 vertices)",
            ],
        );
        let nan = Mesh {
            vertices: vec![[0.0; 3], [0.0, f64::NAN, 0.0], [0.0; 3]],
            triangles: vec![[0, 1, 2]],
        };
        assert_err(nan.validate(path), "v.obj", &["vertex 1", "not finite"]);
        let good = Mesh {
            vertices: vec![[0.0; 3]; 3],
            triangles: vec![[0, 1, 2]],
        };
        assert_eq!(good.validate(path), Ok(()));
    }

    #[test]
    fn load_mesh_dispatches_on_extension() {
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let cases: [(&str, Vec<u8>); 3] = [
            ("OBJ", format!("{TRI}f 1 2 3\n").into_bytes()),
            ("Ply", ply_ascii()),
            ("stl", stl_binary(b"solid", None)),
        ];
        for (ext, bytes) in cases {
            let path = dir.join(format!("bdtree-mesh-test-{id}.{ext}"));
            std::fs::write(&path, &bytes).unwrap();
            let loaded = load_mesh(&path);
            std::fs::remove_file(&path).unwrap();
            let mesh = loaded.unwrap();
            assert!(!mesh.triangles.is_empty(), "{ext}");
        }
        assert_err(
            load_mesh(Path::new("model.off")),
            "model.off",
            &["unknown mesh format '.off'", ".obj, .ply and .stl"],
        );
        assert_err(load_mesh(Path::new("model")), "model", &["no extension"]);
        let missing = dir.join(format!("bdtree-mesh-test-{id}-missing.obj"));
        let text = err_text(load_mesh(&missing));
        assert!(
            text.contains("missing.obj") && text.contains("cannot read"),
            "{text}"
        );
    }

    /// A random byte string or a mutation (flips, cuts, insertions, splices) of a seed.
    fn garbage(rng: &mut XorShift, seeds: &[Vec<u8>], alphabet: &[u8]) -> Vec<u8> {
        let pick = |rng: &mut XorShift| -> u8 {
            if rng.below(2) == 0 {
                alphabet[rng.below(alphabet.len())]
            } else {
                u8::try_from(rng.below(256)).unwrap()
            }
        };
        if rng.below(5) == 0 {
            let len = rng.below(300);
            return (0..len).map(|_| pick(rng)).collect();
        }
        let mut bytes = seeds[rng.below(seeds.len())].clone();
        for _ in 0..=rng.below(4) {
            match rng.below(4) {
                0 if !bytes.is_empty() => {
                    let i = rng.below(bytes.len());
                    bytes[i] = pick(rng);
                }
                1 => bytes.truncate(rng.below(bytes.len() + 1)),
                2 => {
                    let i = rng.below(bytes.len() + 1);
                    let n = rng.below(8);
                    let ins: Vec<u8> = (0..n).map(|_| pick(rng)).collect();
                    bytes.splice(i..i, ins);
                }
                _ if !bytes.is_empty() => {
                    let a = rng.below(bytes.len());
                    let b = a + rng.below(bytes.len() - a);
                    let chunk = bytes[a..b].to_vec();
                    let at = rng.below(bytes.len() + 1);
                    bytes.splice(at..at, chunk);
                }
                _ => {}
            }
        }
        bytes
    }

    #[test]
    fn garbage_never_panics_and_ok_means_valid() {
        type Parser = fn(&[u8], &Path) -> Result<Mesh, LoadError>;
        type Case = (Parser, Vec<Vec<u8>>, &'static [u8]);
        let obj = format!("{TRI}v 1 1 1\nf 1 2 3 4\nf -1 -2 -3\nvt 0 0\n").into_bytes();
        let parsers: [Case; 3] = [
            (parse_obj, vec![obj], b"vf /-0123456789.e# \n"),
            (
                parse_ply,
                vec![
                    ply_ascii(),
                    ply_binary(false, false),
                    ply_binary(true, false),
                ],
                b"0123456789 -\n.ply",
            ),
            (
                parse_stl,
                vec![
                    STL_ASCII.as_bytes().to_vec(),
                    stl_binary(b"solid", None),
                    stl_binary(b"x", None),
                ],
                b"0123456789 .\nsolidfacetvertex",
            ),
        ];
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let path = Path::new("garbage.bin");
        let mut outcomes = [0_usize; 2];
        for (parse, seeds, alphabet) in &parsers {
            for _ in 0..3000 {
                let bytes = garbage(&mut rng, seeds, alphabet);
                match parse(&bytes, path) {
                    Ok(mesh) => {
                        assert_eq!(mesh.validate(path), Ok(()));
                        outcomes[0] += 1;
                    }
                    Err(e) => {
                        assert!(e.to_string().starts_with("garbage.bin: "), "{e}");
                        outcomes[1] += 1;
                    }
                }
            }
        }
        assert!(
            outcomes[0] > 0 && outcomes[1] > 0,
            "both outcomes should occur: {outcomes:?}"
        );
    }
}

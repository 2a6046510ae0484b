//! PLY files.
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

use std::path::Path;

use super::mesh::Mesh;
use super::text::{fan, parse_f64, parse_i64, prealloc, show, Tokens};
use crate::error::LoadError;

mod header;

use header::{parse_ply_header, PlyFormat, PlyHeader, PropKind, Scalar};

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use crate::error::testing::assert_err;

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

    pub(crate) fn ply_ascii() -> Vec<u8> {
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
    pub(crate) fn ply_binary(big: bool, nan_x1: bool) -> Vec<u8> {
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
}

//! Displacement bases `U` read from NumPy `.npy` files.
//!
//! A reduced deformable body moves its vertex `i` to `x_i = p_i + U_i q`, where `U_i` is the
//! 3 × M block of the basis that belongs to vertex `i` and `q` holds the M modal coordinates.
//! [`Basis`] stores `U` as a 3N × M row-major `f64` matrix whose rows are `x0, y0, z0, x1, …`.
//!
//! # Accepted `.npy` files
//!
//! Everything NumPy's `np.save` writes for such an array:
//!
//! * format versions 1.0, 2.0 and 3.0 (a `u16` header length for 1.0, `u32` for 2.0 and 3.0;
//!   Latin-1 header text for 1.0 and 2.0, UTF-8 for 3.0);
//! * a header that is a Python dict literal with exactly the keys `descr`, `fortran_order` and
//!   `shape`, in any order, single- or double-quoted, with any spacing and optional trailing
//!   commas (Python 2's `10L` integers are accepted too);
//! * dtype `'<f8'`, `'>f8'`, `'<f4'` or `'>f4'` (`'='` counts as little-endian); `float32`
//!   values are widened to `f64` exactly;
//! * shape `(3N, M)` — row `3i + k` is axis `k` of vertex `i`, column `j` is mode `j` —, or
//!   `(N, 3, M)` — element `(i, k, j)` —, or `(3N,)`, read as a single mode (M = 1);
//! * C order, or Fortran order, where the element with multi-index `(a, b, c)` of shape
//!   `(A, B, C)` is stored at position `a + b·A + c·A·B` (and `(a, b)` of `(A, B)` at `a + b·A`).
//!
//! The header need not be padded to any alignment. Everything else is refused with a
//! [`LoadError`]: other dtypes (integers, complex, structured), a first dimension that is not a
//! multiple of 3, a middle dimension other than 3, fewer or more data bytes than the shape
//! needs, NaN or infinite entries (the error names the row and column), a bad magic string or a
//! truncated header. A basis with zero modes (shape `(3N, 0)`) is accepted; one with zero
//! vertices is not.

use std::path::Path;

use super::basis::Basis;
use crate::error::LoadError;

mod header;

use header::parse_header;

/// The magic string every `.npy` file starts with.
const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// NumPy aligns the start of the data to this many bytes.
const ARRAY_ALIGN: usize = 64;

/// NumPy leaves room for this many digits in the growth axis of the shape.
const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// Reads a basis from a `.npy` file (see the [module documentation](self) for what is
/// accepted).
pub fn load_npy(path: &Path) -> Result<Basis, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError::io(path, &e))?;
    parse_npy(&bytes, path)
}

/// Writes `basis` as NumPy does with `np.save`: format 1.0, dtype `'<f8'`, C order, shape
/// `(3N, M)`, header padded with spaces (after NumPy's growth room) so that the data starts at
/// a multiple of 64 bytes.
pub fn write_npy(basis: &Basis, w: &mut impl std::io::Write) -> std::io::Result<()> {
    let rows = basis
        .vertices
        .checked_mul(3)
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "basis too large"))?;
    let first = rows.to_string();
    let mut header = format!(
        "{{'descr': '<f8', 'fortran_order': False, 'shape': ({first}, {}), }}",
        basis.modes
    );
    header.extend(core::iter::repeat_n(
        ' ',
        GROWTH_AXIS_MAX_DIGITS.saturating_sub(first.len()),
    ));
    let prefix = MAGIC.len() + 2 + 2;
    let unpadded = prefix + header.len() + 1;
    let pad = ARRAY_ALIGN - unpadded % ARRAY_ALIGN;
    header.extend(core::iter::repeat_n(' ', pad));
    header.push('\n');
    let header_len = u16::try_from(header.len()).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "npy header too long for format 1.0",
        )
    })?;
    w.write_all(MAGIC)?;
    w.write_all(&[1, 0])?;
    w.write_all(&header_len.to_le_bytes())?;
    w.write_all(header.as_bytes())?;
    let mut buf = Vec::with_capacity(basis.data.len().min(1 << 16) * 8);
    for chunk in basis.data.chunks(1 << 16) {
        buf.clear();
        for v in chunk {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

/// Parses the bytes of a `.npy` file (see the [module documentation](self) for what is
/// accepted).
///
/// `path` only names the file in errors. Header errors give the byte offset in the file; data
/// errors the row and column of the entry.
pub fn parse_npy(bytes: &[u8], path: &Path) -> Result<Basis, LoadError> {
    if bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
        return Err(LoadError::at(
            path,
            "byte 0",
            "not a NumPy .npy file (bad magic string; expected \\x93NUMPY)",
        ));
    }
    let (Some(&major), Some(&minor)) = (bytes.get(6), bytes.get(7)) else {
        return Err(LoadError::at(
            path,
            "byte 6",
            "truncated header: the file ends in the version",
        ));
    };
    let len_size = match (major, minor) {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        _ => {
            return Err(LoadError::at(
                path,
                "byte 6",
                format!(
                    "unsupported .npy format version {major}.{minor} (1.0, 2.0 and 3.0 are read)"
                ),
            ))
        }
    };
    let len_bytes = bytes.get(8..8 + len_size).ok_or_else(|| {
        LoadError::at(
            path,
            "byte 8",
            "truncated header: the file ends in the header length",
        )
    })?;
    let header_len = len_bytes
        .iter()
        .rev()
        .fold(0_usize, |acc, &b| (acc << 8) | usize::from(b));
    let header_start = 8 + len_size;
    let data_start = header_start
        .checked_add(header_len)
        .filter(|&end| end <= bytes.len())
        .ok_or_else(|| {
            LoadError::at(
                path,
                format!("byte {header_start}"),
                format!(
                    "truncated header: it declares {header_len} bytes but only {} follow",
                    bytes.len().saturating_sub(header_start)
                ),
            )
        })?;
    let raw_header = bytes.get(header_start..data_start).unwrap_or_default();
    if major == 3 {
        if let Err(e) = core::str::from_utf8(raw_header) {
            return Err(LoadError::at(
                path,
                format!("byte {}", header_start + e.valid_up_to()),
                "the version 3.0 header is not valid UTF-8",
            ));
        }
    }
    // Versions 1.0 and 2.0 are Latin-1; the parser works on bytes, so offsets are the file's.
    let header = parse_header(raw_header, major != 3)
        .map_err(|(at, msg)| LoadError::at(path, format!("byte {}", header_start + at), msg))?;

    let little = match header.descr.as_str() {
        "<f8" | "=f8" | "<f4" | "=f4" => true,
        ">f8" | ">f4" => false,
        other => {
            return Err(LoadError::new(
                path,
                format!(
                    "dtype '{other}' is not supported: the basis must be float64 or float32 \
                     ('<f8', '>f8', '<f4' or '>f4')"
                ),
            ))
        }
    };
    let wide = header.descr.ends_with('8');
    let item = if wide { 8 } else { 4 };

    let shape_text = format_shape(&header.shape);
    // (rows = 3N, modes = M, vertices = N) and how element (row, col) is found.
    let (vertices, modes, layout) = match *header.shape.as_slice() {
        [rows] => (vertices_of(rows, &shape_text, path)?, 1, Layout::Flat),
        [rows, modes] => (vertices_of(rows, &shape_text, path)?, modes, Layout::Rows),
        [n, three, modes] => {
            if three != 3 {
                return Err(LoadError::new(
                    path,
                    format!(
                        "shape {shape_text}: a 3-D basis must have shape (N, 3, M), \
                         but the middle dimension is {three}"
                    ),
                ));
            }
            (n, modes, Layout::Blocks)
        }
        _ => {
            return Err(LoadError::new(
                path,
                format!("shape {shape_text} is not a basis: expected (3N, M), (N, 3, M) or (3N,)"),
            ))
        }
    };
    if vertices == 0 {
        return Err(LoadError::new(
            path,
            format!("shape {shape_text}: the basis has no vertices"),
        ));
    }
    let too_big = || LoadError::new(path, format!("shape {shape_text} is too large"));
    let rows = vertices.checked_mul(3).ok_or_else(too_big)?;
    let count = rows.checked_mul(modes).ok_or_else(too_big)?;
    let needed = count.checked_mul(item).ok_or_else(too_big)?;
    let data = bytes.get(data_start..).unwrap_or_default();
    if data.len() < needed {
        return Err(LoadError::at(
            path,
            format!("byte {data_start}"),
            format!(
                "too few data bytes: shape {shape_text} of '{}' needs {needed} bytes, \
                 but the file has {} after the header",
                header.descr,
                data.len()
            ),
        ));
    }
    if data.len() > needed {
        return Err(LoadError::at(
            path,
            format!("byte {}", data_start + needed),
            format!(
                "{} unexpected bytes after the data \
                 (shape {shape_text} of '{}' needs {needed} bytes)",
                data.len() - needed,
                header.descr
            ),
        ));
    }

    let stored = decode(data, wide, little);
    let data = if header.fortran_order {
        let mut out = Vec::with_capacity(count);
        for row in 0..rows {
            for col in 0..modes {
                let at = match layout {
                    // (row, col) of (rows, modes): row + col·rows.
                    Layout::Flat | Layout::Rows => row + col * rows,
                    // (i, k, col) of (N, 3, M): i + k·N + col·N·3.
                    Layout::Blocks => row / 3 + (row % 3) * vertices + col * rows,
                };
                out.push(stored.get(at).copied().unwrap_or(f64::NAN));
            }
        }
        out
    } else {
        // C order of (3N, M) and of (N, 3, M) alike is the row-major layout of `Basis`.
        stored
    };
    if let Some(at) = data.iter().position(|v| !v.is_finite()) {
        let (row, col) = (
            at.checked_div(modes).unwrap_or(0),
            at.checked_rem(modes).unwrap_or(0),
        );
        let axis = ["x", "y", "z"].get(row % 3).copied().unwrap_or("?");
        let v = data.get(at).copied().unwrap_or(f64::NAN);
        return Err(LoadError::at(
            path,
            format!("row {row}, column {col}"),
            format!(
                "entry is {v} (vertex {}, {axis}, mode {col}); every entry must be finite",
                row / 3
            ),
        ));
    }
    Ok(Basis {
        vertices,
        modes,
        data,
    })
}

/// The numbers of `data` in storage order: `f64` if `wide`, else `f32` widened exactly.
fn decode(data: &[u8], wide: bool, little: bool) -> Vec<f64> {
    if wide {
        data.chunks_exact(8)
            .filter_map(|c| <[u8; 8]>::try_from(c).ok())
            .map(|a| {
                if little {
                    f64::from_le_bytes(a)
                } else {
                    f64::from_be_bytes(a)
                }
            })
            .collect()
    } else {
        data.chunks_exact(4)
            .filter_map(|c| <[u8; 4]>::try_from(c).ok())
            .map(|a| {
                if little {
                    f32::from_le_bytes(a)
                } else {
                    f32::from_be_bytes(a)
                }
            })
            .map(f64::from)
            .collect()
    }
}

/// How the shape maps onto rows `3i + k` and columns.
#[derive(Clone, Copy)]
enum Layout {
    /// `(3N,)`, one column.
    Flat,
    /// `(3N, M)`.
    Rows,
    /// `(N, 3, M)`.
    Blocks,
}

/// N for a first dimension of 3N.
fn vertices_of(rows: usize, shape: &str, path: &Path) -> Result<usize, LoadError> {
    if rows % 3 != 0 {
        return Err(LoadError::new(
            path,
            format!(
                "shape {shape}: the first dimension {rows} is not a multiple of 3 \
                 (it must be 3 × the vertex count)"
            ),
        ));
    }
    Ok(rows / 3)
}

/// A shape as Python writes it: `(3600, 10)`, `(3600,)`.
fn format_shape(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(usize::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    use crate::error::testing::{assert_err, err_text};
    use crate::rng::Rng;

    /// An `.npy` file of format `major.0` with the given header text and data bytes.
    fn npy(major: u8, header: &str, data: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[major, 0]);
        let len = header.len();
        if major == 1 {
            out.extend_from_slice(&u16::try_from(len).unwrap().to_le_bytes());
        } else {
            out.extend_from_slice(&u32::try_from(len).unwrap().to_le_bytes());
        }
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    fn le_f8(values: &[f64]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// A distinct value for every (vertex, axis, mode), exact in f32.
    fn value(vertex: usize, axis: usize, mode: usize) -> f64 {
        f64::from(u32::try_from(100 * vertex + 10 * axis + mode).unwrap()) + 0.5
    }

    /// Checks that `basis` holds `value(i, k, j)` everywhere.
    fn assert_values(basis: &Basis, vertices: usize, modes: usize) {
        assert_eq!(
            (basis.vertices, basis.modes, basis.data.len()),
            (vertices, modes, 3 * vertices * modes)
        );
        for i in 0..vertices {
            for k in 0..3 {
                for j in 0..modes {
                    assert_eq!(
                        basis.get(i, k, j),
                        value(i, k, j),
                        "vertex {i}, axis {k}, mode {j}"
                    );
                }
            }
        }
    }

    fn sample(vertices: usize, modes: usize) -> Basis {
        let mut b = Basis::zeros(vertices, modes);
        for i in 0..vertices {
            for k in 0..3 {
                for j in 0..modes {
                    b.data[(3 * i + k) * modes + j] = value(i, k, j);
                }
            }
        }
        b
    }
    #[test]
    fn write_npy_matches_numpy_and_reads_back_exactly() {
        let mut basis = sample(2, 3);
        basis.data[0] = -0.0;
        basis.data[1] = 0.1;
        basis.data[2] = f64::MIN_POSITIVE / 3.0; // subnormal
        let mut bytes = Vec::new();
        write_npy(&basis, &mut bytes).unwrap();
        // NumPy's np.save of a (6, 3) float64 C array: 118-byte header, data at byte 128.
        let header = format!(
            "{{'descr': '<f8', 'fortran_order': False, 'shape': (6, 3), }}{}\n",
            " ".repeat(20 + 38)
        );
        let mut expected = npy(1, &header, &le_f8(&basis.data));
        assert_eq!(expected.get(8..10), Some(118_u16.to_le_bytes().as_slice()));
        assert_eq!(bytes, expected);
        let back = parse_npy(&bytes, Path::new("rt.npy")).unwrap();
        assert_eq!(back, basis);
        assert_eq!(back.data[0].to_bits(), (-0.0_f64).to_bits());
        // A larger basis: the data still starts on a 64-byte boundary.
        let big = sample(1234, 17);
        bytes.clear();
        write_npy(&big, &mut bytes).unwrap();
        let data_len = 8 * big.data.len();
        assert_eq!((bytes.len() - data_len) % 64, 0);
        assert_eq!(parse_npy(&bytes, Path::new("big.npy")).unwrap(), big);
        expected.clear();
    }

    #[test]
    fn big_endian_f32_fortran_blocks() {
        // Shape (N, 3, M) in Fortran order: (i, k, j) is stored at i + k·N + j·N·3.
        let (n, m) = (4, 3);
        let mut data = Vec::new();
        for j in 0..m {
            for k in 0..3 {
                for i in 0..n {
                    #[allow(clippy::cast_possible_truncation)] // exact: the values are small halves
                    let v = value(i, k, j) as f32;
                    data.extend_from_slice(&v.to_be_bytes());
                }
            }
        }
        let bytes = npy(
            1,
            "{'descr': '>f4', 'fortran_order': True, 'shape': (4, 3, 3), }\n",
            &data,
        );
        assert_values(&parse_npy(&bytes, Path::new("f.npy")).unwrap(), n, m);
    }

    #[test]
    fn fortran_rows_and_c_blocks() {
        let (n, m) = (3, 2);
        // (3N, M) Fortran: (r, j) at r + j·3N.
        let mut fortran = Vec::new();
        for j in 0..m {
            for r in 0..3 * n {
                fortran.push(value(r / 3, r % 3, j));
            }
        }
        let bytes = npy(
            1,
            "{'descr': '<f8', 'fortran_order': True, 'shape': (9, 2), }\n",
            &le_f8(&fortran),
        );
        assert_values(&parse_npy(&bytes, Path::new("fr.npy")).unwrap(), n, m);
        // (N, 3, M) C order: the same bytes as (3N, M) C order.
        let c = sample(n, m).data;
        let bytes = npy(
            1,
            "{'descr': '=f8', 'fortran_order': False, 'shape': (3, 3, 2)}\n",
            &le_f8(&c),
        );
        assert_values(&parse_npy(&bytes, Path::new("cb.npy")).unwrap(), n, m);
    }

    #[test]
    fn version_2_and_3_headers_in_any_spelling() {
        let (n, m) = (2, 2);
        let data = le_f8(&sample(n, m).data);
        let headers = [
            (
                2,
                "{\"shape\": (6, 2), \"fortran_order\": False, \"descr\": \"<f8\"}\n",
            ),
            (
                2,
                "  {'fortran_order':False,'descr':'<f8','shape':(6L,2L),}          \n",
            ),
            (
                3,
                "{'descr': '<f8', 'fortran_order': False, 'shape': (6, 2,), }\n",
            ),
            (
                1,
                "{'descr':\t'<f8',\n 'fortran_order': False,\n 'shape': ( 6 , 2 ) }",
            ),
        ];
        for (major, header) in headers {
            let basis = parse_npy(&npy(major, header, &data), Path::new("v.npy")).unwrap();
            assert_values(&basis, n, m);
        }
    }

    #[test]
    fn one_dimensional_shape_is_one_mode_and_f32_widens_exactly() {
        let values = [0.1_f32, -2.5, 1e-40, 3.0, f32::MAX, -0.0];
        let data: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let basis = parse_npy(
            &npy(
                1,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }\n",
                &data,
            ),
            Path::new("1d.npy"),
        )
        .unwrap();
        assert_eq!((basis.vertices, basis.modes), (2, 1));
        assert_eq!(basis.data, values.map(f64::from).to_vec());
        assert_eq!(basis.get(0, 0, 0), f64::from(0.1_f32));
    }

    #[test]
    fn zero_modes_are_accepted() {
        let basis = parse_npy(
            &npy(
                1,
                "{'descr': '<f8', 'fortran_order': False, 'shape': (6, 0), }\n",
                &[],
            ),
            Path::new("z.npy"),
        )
        .unwrap();
        assert_eq!((basis.vertices, basis.modes, basis.data.len()), (2, 0, 0));
    }

    #[test]
    fn malformed_files_name_file_place_and_problem() {
        let header = |descr: &str, shape: &str| {
            format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}\n")
        };
        let six = le_f8(&[1.0; 6]);
        let mut nan = vec![1.0; 12];
        nan[4 * 2 + 1] = f64::NAN; // row 4, column 1
        let mut inf = [1.0; 6];
        inf[5] = f64::NEG_INFINITY;
        let be_inf: Vec<u8> = inf.iter().flat_map(|v| v.to_be_bytes()).collect();
        let mut bad_magic = npy(1, &header("<f8", "(6,)"), &six);
        bad_magic[5] = b'X';
        let good = npy(1, &header("<f8", "(6,)"), &six);
        let mut bad_utf8 = npy(3, &header("<f8", "(6,)"), &six);
        bad_utf8[12] = 0xff;
        let cases: Vec<(Vec<u8>, &[&str])> = vec![
            (bad_magic, &["byte 0", "bad magic string"]),
            (b"\x93NUMPY\x01".to_vec(), &["byte 6", "truncated header"]),
            (b"\x93NUMPY\x01\x00\x10".to_vec(), &["byte 8", "truncated header"]),
            (good.get(..40).unwrap().to_vec(), &["byte 10", "truncated header: it declares"]),
            (npy(4, &header("<f8", "(6,)"), &six), &["byte 6", "unsupported .npy format version 4.0"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (6,", &six), &["truncated header"]),
            (npy(1, &header("<i4", "(6,)"), &six), &["dtype '<i4' is not supported"]),
            (npy(1, &header("<c16", "(6,)"), &six), &["dtype '<c16' is not supported"]),
            (npy(1, &header("|u1", "(6,)"), &six), &["dtype '|u1' is not supported"]),
            (npy(1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (6,), }\n", &six), &["byte 20", "structured"]),
            (npy(1, &header("<f8", "(7, 2)"), &six), &["first dimension 7 is not a multiple of 3"]),
            (npy(1, &header("<f8", "(2, 4, 1)"), &six), &["shape (2, 4, 1)", "middle dimension is 4"]),
            (npy(1, &header("<f8", "(3, 1, 2, 1)"), &six), &["shape (3, 1, 2, 1) is not a basis"]),
            (npy(1, &header("<f8", "()"), &six), &["shape () is not a basis"]),
            (npy(1, &header("<f8", "(6)"), &six), &["'shape' must be a tuple"]),
            (npy(1, &header("<f8", "(0, 2)"), &[]), &["no vertices"]),
            (npy(1, &header("<f8", "(6, 2)"), &six), &["too few data bytes", "needs 96 bytes", "has 48"]),
            (npy(1, &header("<f8", "(6,)"), &le_f8(&[1.0; 7])), &["8 unexpected bytes after the data", "needs 48 bytes"]),
            (npy(1, &header("<f8", "(6, 2)"), &le_f8(&nan)), &["row 4, column 1", "entry is NaN (vertex 1, y, mode 1)"]),
            (npy(1, &header(">f8", "(6,)"), &be_inf), &["row 5, column 0", "entry is -inf (vertex 1, z, mode 0)"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': False}\n", &six), &["has no 'shape' key"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'foo': 1}\n", &six), &["unexpected key 'foo'"]),
            (npy(1, "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (6,)}\n", &six), &["key 'descr' appears twice"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': 'no', 'shape': (6,)}\n", &six), &["'fortran_order' must be True or False"]),
            (npy(1, "{'descr': '<f8, 'fortran_order': False, 'shape': (6,)}\n", &six), &["byte 27", "expected ',' or '}' in the header dict"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': Flase, 'shape': (6,)}\n", &six), &["unexpected name 'Flase'"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (6, -2)}\n", &six), &["negative numbers"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (6,)} x\n", &six), &["unexpected text after the header dict"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,)}\n", &six), &["integer too large"]),
            (npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (9999999999999999, 9999999999999999)}\n", &six), &["is too large"]),
            (npy(1, "['descr']\n", &six), &["byte 10", "must be a Python dict"]),
            (npy(1, "{'descr' '<f8'}\n", &six), &["byte 19", "expected ':' after a dict key"]),
            (bad_utf8, &["byte 12", "not valid UTF-8"]),
        ];
        for (bytes, phrases) in &cases {
            assert_err(parse_npy(bytes, Path::new("bad.npy")), "bad.npy", phrases);
        }
    }

    #[test]
    fn load_npy_reads_files_and_reports_missing_ones() {
        let dir = std::env::temp_dir();
        let path = dir.join(format!("bdtree-basis-test-{}.npy", std::process::id()));
        let basis = sample(5, 2);
        let mut bytes = Vec::new();
        write_npy(&basis, &mut bytes).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let loaded = load_npy(&path);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(loaded.unwrap(), basis);
        let text = err_text(load_npy(&dir.join("bdtree-basis-test-missing.npy")));
        assert!(
            text.contains("bdtree-basis-test-missing.npy") && text.contains("cannot read"),
            "{text}"
        );
    }

    #[test]
    fn garbage_never_panics_and_ok_means_consistent() {
        let mut seeds = Vec::new();
        let mut bytes = Vec::new();
        write_npy(&sample(2, 3), &mut bytes).unwrap();
        seeds.push(bytes);
        let f4: Vec<u8> = (0..12_u8)
            .flat_map(|i| f32::from(i).to_be_bytes())
            .collect();
        seeds.push(npy(
            2,
            "{\"descr\": \">f4\", \"fortran_order\": True, \"shape\": (2, 3, 2L), }\n",
            &f4,
        ));
        seeds.push(npy(
            3,
            "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }\n",
            &le_f8(&[1.0, 2.0, 3.0]),
        ));
        let alphabet = b"{}()[],:'\" 0123456789<>=f48TrueFalse\n";
        let mut rng = Rng::from_state(0x2545_F491_4F6C_DD1D);
        let path = Path::new("garbage.npy");
        let mut outcomes = [0_usize; 2];
        for _ in 0..4000 {
            let mut bytes = if rng.below(6) == 0 {
                let len = rng.below(120);
                (0..len)
                    .map(|_| u8::try_from(rng.below(256)).unwrap())
                    .collect()
            } else {
                seeds[rng.below(seeds.len())].clone()
            };
            for _ in 0..=rng.below(3) {
                match rng.below(4) {
                    0 if !bytes.is_empty() => {
                        let i = rng.below(bytes.len());
                        bytes[i] = if rng.below(2) == 0 {
                            alphabet[rng.below(alphabet.len())]
                        } else {
                            u8::try_from(rng.below(256)).unwrap()
                        };
                    }
                    1 => bytes.truncate(rng.below(bytes.len() + 1)),
                    2 => {
                        let i = rng.below(bytes.len() + 1);
                        bytes.insert(i, alphabet[rng.below(alphabet.len())]);
                    }
                    _ if !bytes.is_empty() => {
                        bytes.remove(rng.below(bytes.len()));
                    }
                    _ => {}
                }
            }
            match parse_npy(&bytes, path) {
                Ok(b) => {
                    assert_eq!(b.data.len(), 3 * b.vertices * b.modes);
                    assert!(b.data.iter().all(|v| v.is_finite()));
                    outcomes[0] += 1;
                }
                Err(e) => {
                    assert!(e.to_string().starts_with("garbage.npy: "), "{e}");
                    outcomes[1] += 1;
                }
            }
        }
        assert!(
            outcomes[0] > 0 && outcomes[1] > 0,
            "both outcomes should occur: {outcomes:?}"
        );
    }
}

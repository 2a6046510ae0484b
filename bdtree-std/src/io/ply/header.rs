//! The PLY header: format, elements and their properties.

use std::path::Path;

use super::super::text::show;
use crate::error::LoadError;

/// A PLY scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
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
    pub(crate) fn from_name(name: &[u8]) -> Option<Self> {
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

    pub(crate) fn name(self) -> &'static str {
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

    pub(crate) fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 => 2,
            Self::I32 | Self::U32 | Self::F32 => 4,
            Self::F64 => 8,
        }
    }

    pub(crate) fn is_integer(self) -> bool {
        !matches!(self, Self::F32 | Self::F64)
    }

    /// The values an integer type holds (floats: the whole `i64` range, unused).
    pub(crate) fn range(self) -> (i64, i64) {
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
    pub(crate) fn decode(self, raw: &[u8], big: bool) -> Option<f64> {
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
    pub(crate) fn decode_int(self, raw: &[u8], big: bool) -> Option<i64> {
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
pub(crate) enum PropKind {
    Scalar(Scalar),
    List { count: Scalar, item: Scalar },
}

#[derive(Debug)]
pub(crate) struct Property {
    pub(crate) name: Vec<u8>,
    pub(crate) kind: PropKind,
}

#[derive(Debug)]
pub(crate) struct Element {
    pub(crate) name: Vec<u8>,
    pub(crate) count: u64,
    pub(crate) props: Vec<Property>,
    /// Header line declaring the element.
    pub(crate) line: usize,
}

impl Element {
    /// The fewest bytes one entry can take (binary), or a lower bound on its text length.
    pub(crate) fn min_bytes(&self, ascii: bool) -> usize {
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
pub(crate) enum PlyFormat {
    Ascii,
    LittleEndian,
    BigEndian,
}

pub(crate) struct PlyHeader {
    pub(crate) format: PlyFormat,
    pub(crate) elements: Vec<Element>,
    /// Byte offset of the first data byte.
    pub(crate) data_start: usize,
    /// Line number the data starts on (for ASCII).
    pub(crate) data_line: usize,
}

pub(crate) fn parse_ply_header(bytes: &[u8], path: &Path) -> Result<PlyHeader, LoadError> {
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

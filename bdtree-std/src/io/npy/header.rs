//! The header of an `.npy` file: a Python dict literal with `descr`, `fortran_order` and
//! `shape`.

/// The three entries of an `.npy` header.
pub(crate) struct Header {
    pub(crate) descr: String,
    pub(crate) fortran_order: bool,
    pub(crate) shape: Vec<usize>,
}

/// A Python literal as it can appear in an `.npy` header.
enum PyValue {
    Str(String),
    Bool(bool),
    Int(usize),
    Tuple(Vec<usize>),
    None,
}

/// Parses the header dict (Latin-1 text if `latin1`, else UTF-8); errors carry the byte offset
/// in `text`.
pub(crate) fn parse_header(text: &[u8], latin1: bool) -> Result<Header, (usize, String)> {
    let mut p = Parser {
        s: text,
        pos: 0,
        latin1,
    };
    p.skip_ws();
    p.expect(b'{', "the header must be a Python dict starting with '{'")?;
    let mut descr = None;
    let mut fortran = None;
    let mut shape = None;
    loop {
        p.skip_ws();
        if p.eat(b'}') {
            break;
        }
        let key_at = p.pos;
        let key = match p.value()? {
            PyValue::Str(s) => s,
            _ => return Err((key_at, "dict keys must be strings".to_string())),
        };
        p.skip_ws();
        p.expect(b':', "expected ':' after a dict key")?;
        p.skip_ws();
        let value_at = p.pos;
        let value = p.value()?;
        let slot_taken = match key.as_str() {
            "descr" => match value {
                PyValue::Str(s) => descr.replace(s).is_some(),
                _ => return Err((
                    value_at,
                    "'descr' must be a string such as '<f8' (structured dtypes are not supported)"
                        .to_string(),
                )),
            },
            "fortran_order" => match value {
                PyValue::Bool(b) => fortran.replace(b).is_some(),
                _ => {
                    return Err((
                        value_at,
                        "'fortran_order' must be True or False".to_string(),
                    ))
                }
            },
            "shape" => match value {
                PyValue::Tuple(t) => shape.replace(t).is_some(),
                _ => return Err((value_at, "'shape' must be a tuple of integers".to_string())),
            },
            other => return Err((key_at, format!("unexpected key '{other}' in the header"))),
        };
        if slot_taken {
            return Err((key_at, format!("key '{key}' appears twice")));
        }
        p.skip_ws();
        if p.eat(b',') {
            continue;
        }
        p.skip_ws();
        p.expect(b'}', "expected ',' or '}' in the header dict")?;
        break;
    }
    p.skip_ws();
    if p.pos < p.s.len() {
        return Err((p.pos, "unexpected text after the header dict".to_string()));
    }
    let missing = |k: &str| (p.pos, format!("the header has no '{k}' key"));
    Ok(Header {
        descr: descr.ok_or_else(|| missing("descr"))?,
        fortran_order: fortran.ok_or_else(|| missing("fortran_order"))?,
        shape: shape.ok_or_else(|| missing("shape"))?,
    })
}

/// A cursor over header text.
struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    /// Strings are Latin-1 (format 1.0 and 2.0) rather than UTF-8 (3.0).
    latin1: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8, msg: &str) -> Result<(), (usize, String)> {
        if self.eat(b) {
            Ok(())
        } else if self.peek().is_none() {
            Err((self.pos, format!("truncated header: {msg}")))
        } else {
            Err((self.pos, msg.to_string()))
        }
    }

    fn value(&mut self) -> Result<PyValue, (usize, String)> {
        let start = self.pos;
        match self.peek() {
            Some(q @ (b'\'' | b'"')) => {
                self.pos += 1;
                let mut out = Vec::new();
                loop {
                    match self.peek() {
                        None => {
                            return Err((
                                start,
                                "truncated header: unterminated string".to_string(),
                            ))
                        }
                        Some(b) if b == q => {
                            self.pos += 1;
                            break;
                        }
                        Some(b'\\') => {
                            self.pos += 1;
                            let Some(b) = self.peek() else { continue };
                            out.push(b);
                            self.pos += 1;
                        }
                        Some(b) => {
                            out.push(b);
                            self.pos += 1;
                        }
                    }
                }
                let s = if self.latin1 {
                    out.iter().map(|&b| char::from(b)).collect()
                } else {
                    String::from_utf8_lossy(&out).into_owned()
                };
                Ok(PyValue::Str(s))
            }
            Some(b'(') => {
                self.pos += 1;
                let mut items = Vec::new();
                let mut comma = false;
                loop {
                    self.skip_ws();
                    if self.eat(b')') {
                        break;
                    }
                    let item_at = self.pos;
                    match self.value()? {
                        PyValue::Int(n) => items.push(n),
                        _ => {
                            return Err((
                                item_at,
                                "shape entries must be non-negative integers".to_string(),
                            ))
                        }
                    }
                    self.skip_ws();
                    if self.eat(b',') {
                        comma = true;
                        continue;
                    }
                    self.expect(b')', "expected ',' or ')' in a tuple")?;
                    break;
                }
                // `(5)` is the integer 5 in Python, not a tuple.
                match items.as_slice() {
                    [n] if !comma => Ok(PyValue::Int(*n)),
                    _ => Ok(PyValue::Tuple(items)),
                }
            }
            Some(b'0'..=b'9') => {
                let mut n: usize = 0;
                while let Some(d @ b'0'..=b'9') = self.peek() {
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(usize::from(d - b'0')))
                        .ok_or_else(|| (start, "integer too large".to_string()))?;
                    self.pos += 1;
                }
                self.eat(b'L'); // Python 2 long integers
                Ok(PyValue::Int(n))
            }
            Some(b) if b.is_ascii_alphabetic() => {
                while self
                    .peek()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    self.pos += 1;
                }
                match self.s.get(start..self.pos).unwrap_or_default() {
                    b"True" => Ok(PyValue::Bool(true)),
                    b"False" => Ok(PyValue::Bool(false)),
                    b"None" => Ok(PyValue::None),
                    word => Err((
                        start,
                        format!(
                            "unexpected name '{}' in the header",
                            String::from_utf8_lossy(word)
                        ),
                    )),
                }
            }
            Some(b'-') => Err((start, "negative numbers are not valid here".to_string())),
            Some(b'[' | b'{') => Err((
                start,
                "lists and nested dicts are not supported (structured dtypes cannot be a basis)"
                    .to_string(),
            )),
            Some(b) => Err((
                start,
                format!(
                    "unexpected character '{}' in the header",
                    char::from(b).escape_debug()
                ),
            )),
            None => Err((start, "truncated header: expected a value".to_string())),
        }
    }
}

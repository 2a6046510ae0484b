//! Text helpers shared by the mesh readers ([`super::obj`], [`super::ply`], [`super::stl`]).

/// A token as it may appear in a message: lossy UTF-8, escaped, at most 40 characters.
pub(super) fn show(tok: &[u8]) -> String {
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
pub(super) fn parse_f64(tok: &[u8]) -> Option<f64> {
    core::str::from_utf8(tok).ok()?.parse::<f64>().ok()
}

/// Parses a decimal integer with an optional sign.
pub(super) fn parse_i64(tok: &[u8]) -> Option<i64> {
    core::str::from_utf8(tok).ok()?.parse::<i64>().ok()
}

/// Whitespace-separated tokens of a text, each with the 1-based line it is on.
pub(super) struct Tokens<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    pub(super) line: usize,
}

impl<'a> Tokens<'a> {
    /// Tokens of `bytes[start..]`, whose first byte is on line `line`.
    pub(super) fn new(bytes: &'a [u8], start: usize, line: usize) -> Self {
        Self {
            bytes,
            pos: start,
            line,
        }
    }

    /// The next token and its line, or `None` at the end of the text.
    pub(super) fn next_token(&mut self) -> Option<(&'a [u8], usize)> {
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
    pub(super) fn skip_line(&mut self) {
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
pub(super) fn prealloc(count: u64, remaining: usize, min_bytes: usize) -> usize {
    usize::try_from(count)
        .unwrap_or(usize::MAX)
        .min(remaining / min_bytes.max(1))
}

/// Appends the fan triangulation of `poly` (at least 3 vertices) to `out`.
pub(super) fn fan(poly: &[u32], out: &mut Vec<[u32; 3]>) {
    if let Some((&first, rest)) = poly.split_first() {
        for pair in rest.windows(2) {
            if let [b, c] = *pair {
                out.push([first, b, c]);
            }
        }
    }
}

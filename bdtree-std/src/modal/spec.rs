//! What `--fixed` and `--fixed-vertices` hold: a half-space of mesh vertices or listed ones.

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

pub(super) const AXES: [&str; 3] = ["x", "y", "z"];

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

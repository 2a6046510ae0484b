//! A pile's state in a text file: every chair's placement (centre, orientation, modal
//! coordinates), one chair a line, so that one step's collision part can be run again (and
//! counted under callgrind) without simulating up to it. Lines starting with `#` are comments.
//! Numbers are written as Rust prints an `f64` (the shortest that reads back to the same
//! value), so a state read back is the state written, bit for bit.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::chairs::{Placement, MODES};

/// Why a state file could not be read or written.
#[derive(Debug)]
pub enum StateError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The problem.
        error: std::io::Error,
    },
    /// A line is not a placement.
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The file holds no chair.
    Empty {
        /// The file.
        path: PathBuf,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, error } => write!(f, "{}: {error}", path.display()),
            Self::Line {
                path,
                line,
                problem,
            } => write!(f, "{}:{line}: {problem}", path.display()),
            Self::Empty { path } => write!(f, "{}: no chair in the file", path.display()),
        }
    }
}

impl std::error::Error for StateError {}

/// Numbers per line: centre (3), orientation (4), modal coordinates.
const NUMBERS: usize = 7 + MODES;

/// Writes `placements` to `path`, after the comment line `# {comment}`.
pub fn write_state(path: &Path, comment: &str, placements: &[Placement]) -> Result<(), StateError> {
    let io = |error| StateError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
    writeln!(
        out,
        "# {comment}\n# per chair: x y z, rotation w x y z, q[{MODES}]"
    )
    .map_err(io)?;
    for p in placements {
        let numbers: Vec<String> =
            p.x.iter()
                .chain(&p.rotation)
                .chain(&p.q)
                .map(|v| format!("{v:?}"))
                .collect();
        writeln!(out, "{}", numbers.join(" ")).map_err(io)?;
    }
    out.flush().map_err(io)
}

/// Reads the placements [`write_state`] wrote; every number must be finite.
pub fn read_state(path: &Path) -> Result<Vec<Placement>, StateError> {
    let text = std::fs::read_to_string(path).map_err(|error| StateError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |problem: String| StateError::Line {
            path: path.to_path_buf(),
            line: n + 1,
            problem,
        };
        let v: Vec<f64> = line
            .split_whitespace()
            .map(|w| {
                w.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| bad(format!("`{w}` is not a finite number")))
            })
            .collect::<Result<_, _>>()?;
        if v.len() != NUMBERS {
            return Err(bad(format!(
                "{} numbers where a chair has {NUMBERS}",
                v.len()
            )));
        }
        out.push(Placement {
            x: [v[0], v[1], v[2]],
            rotation: [v[3], v[4], v[5], v[6]],
            q: std::array::from_fn(|j| v[7 + j]),
        });
    }
    if out.is_empty() {
        return Err(StateError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(out)
}

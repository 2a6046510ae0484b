//! One error type for everything that reads user files.
//!
//! A [`LoadError`] names the file, the place in it (a line, a byte offset, a JSON path — whatever
//! locates the problem best) and the problem, so a message alone is enough to fix the input:
//!
//! ```text
//! meshes/arm.obj: line 12: face index 97 is out of range (the file has 96 vertices)
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem with an input file: which file, where in it, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file the problem is in (as the user named it).
    pub path: PathBuf,
    /// Where in the file, when it can be said: `"line 12"`, `"byte 80"`, `"frames[3].q"`.
    pub location: Option<String>,
    /// What is wrong, in words.
    pub message: String,
}

impl LoadError {
    /// A problem with the file as a whole.
    pub fn new(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self {
            path: path.as_ref().to_path_buf(),
            location: None,
            message: message.into(),
        }
    }

    /// A problem at a place in the file.
    pub fn at(
        path: impl AsRef<Path>,
        location: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            path: path.as_ref().to_path_buf(),
            location: Some(location.into()),
            message: message.into(),
        }
    }

    /// A problem on a 1-based line of a text file.
    pub fn line(path: impl AsRef<Path>, line: usize, message: impl Into<String>) -> Self {
        Self::at(path, format!("line {line}"), message)
    }

    /// The file could not be read at all.
    pub fn io(path: impl AsRef<Path>, err: &std::io::Error) -> Self {
        Self::new(path, format!("cannot read: {err}"))
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(location) = &self.location {
            write!(f, ": {location}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

/// Assertions on error messages shared by the loaders' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::LoadError;

    /// The Display of `result`'s error; fails the test if it is `Ok`.
    pub fn err_text<T: core::fmt::Debug>(result: Result<T, LoadError>) -> String {
        match result {
            Ok(value) => panic!("expected an error, got {value:?}"),
            Err(e) => e.to_string(),
        }
    }

    /// Asserts that the error of `result` starts with `file` and mentions every phrase.
    pub fn assert_err<T: core::fmt::Debug>(
        result: Result<T, LoadError>,
        file: &str,
        phrases: &[&str],
    ) {
        let text = err_text(result);
        assert!(
            text.starts_with(file),
            "error {text:?} does not start with the file name {file:?}"
        );
        for phrase in phrases {
            assert!(
                text.contains(phrase),
                "error {text:?} does not contain {phrase:?}"
            );
        }
    }
}

//! The error of pictures and exports.

use std::path::{Path, PathBuf};

use bdtree_std::error::LoadError;
use bdtree_std::export::ExportError;
use bdtree_std::runner::RunError;

/// Why a picture or an export could not be made: the file concerned and the problem.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RenderError {
    /// A problem with a file: the output (its format, writing it) or an input that cannot be
    /// used (a level or `q` that does not fit the image).
    File {
        /// The file the problem is about.
        path: PathBuf,
        /// What is wrong, in words.
        message: String,
    },
    /// An input file could not be read.
    Load(LoadError),
    /// Running the scene failed.
    Run(RunError),
}

impl RenderError {
    /// A problem with `path`.
    pub fn new(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self::File {
            path: path.as_ref().to_path_buf(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::File { path, message } => write!(f, "{}: {message}", path.display()),
            Self::Load(e) => e.fmt(f),
            Self::Run(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RenderError {}

impl From<ExportError> for RenderError {
    fn from(e: ExportError) -> Self {
        Self::File {
            path: e.path,
            message: e.message,
        }
    }
}

impl From<LoadError> for RenderError {
    fn from(e: LoadError) -> Self {
        Self::Load(e)
    }
}

impl From<RunError> for RenderError {
    fn from(e: RunError) -> Self {
        Self::Run(e)
    }
}

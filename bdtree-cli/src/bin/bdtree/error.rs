//! Why a command failed: typed, each naming the file (or the check) and the problem.

use std::fmt;
use std::path::PathBuf;

use bdtree_cli::sim::demo::DemoError;
use bdtree_cli::view::RenderError;
use bdtree_core::ImageError;
use bdtree_std::build::BuildError;
use bdtree_std::modal::ModesError;
use bdtree_std::runner::RunError;
use bdtree_std::LoadError;

/// A failed command. `main` prints it after `error: ` and exits with 1.
#[derive(Debug)]
pub enum CliError {
    /// An input file could not be read.
    Load(LoadError),
    /// A tree could not be built or compacted from `path`.
    Build { path: PathBuf, error: BuildError },
    /// The image `path` (or built from it) is refused.
    Image { path: PathBuf, error: ImageError },
    /// An output could not be written.
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Running a scene failed.
    Run(RunError),
    /// A picture or an export failed.
    Render(RenderError),
    /// The demo failed.
    Demo(DemoError),
    /// Modal analysis options out of range.
    ModalOptions(ModesError),
    /// The modal analysis of `path` failed.
    Modes { path: PathBuf, error: ModesError },
    /// A Rerun recording failed.
    #[cfg(feature = "rerun")]
    Rerun(bdtree_cli::view::rerun::RerunError),
    /// A Rerun recording was asked of a build without the `rerun` feature.
    #[cfg(not(feature = "rerun"))]
    NoRerun { path: PathBuf },
    /// `--format`, `--model` or `--depth` with `--precision f64`.
    CompactF64 { path: PathBuf },
    /// A compact image asked of an image that is not f32.
    NotF32 { path: PathBuf, scalar_bytes: u32 },
    /// A box table asked of a bounded-depth image (`boxes`).
    BoundedBoxes { path: PathBuf },
    /// A bounded image asked of an image that is not nested.
    NotNested { path: PathBuf },
    /// A tightness comparison of images that are not both nested.
    NotBothNested { image: PathBuf, reference: PathBuf },
    /// A tightness comparison of images of different trees.
    NotSameTree { image: PathBuf, reference: PathBuf },
    /// Brute-force contacts the kernel missed (`collide --check`): a bug.
    Missed { count: usize },
    /// Brute-force contacts under no reported proxy pair (`collide --depth --check`): a bug.
    Uncovered { count: usize },
    /// True contacts outside an interrupted query's cover (`interrupt`): a bug.
    OutsideCover { count: usize },
    /// Distances off the brute force by more than the tolerance (`distance --check`).
    Distances { worst: f64 },
    /// `distance --within D` with a negative or non-finite D.
    BadWithin { value: f64 },
    /// `distance --closer-than D` with a negative or non-finite D.
    BadCloserThan { value: f64 },
    /// `inspect --rust --name NAME` with a NAME that is not a constant prefix; `suggested` is.
    BadConstantName { name: String, suggested: String },
    /// Standard output could not be written (a closed pipe ends the command quietly instead:
    /// see `main`).
    Stdout(std::io::Error),
}

impl From<std::io::Error> for CliError {
    fn from(error: std::io::Error) -> Self {
        Self::Stdout(error)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Load(e) => e.fmt(f),
            Self::Build { path, error } => write!(f, "{}: {error}", path.display()),
            Self::Image { path, error } => write!(f, "{}: {error}", path.display()),
            Self::Write { path, error } => write!(f, "{}: cannot write: {error}", path.display()),
            Self::Stdout(error) => write!(f, "cannot write to standard output: {error}"),
            Self::Run(e) => e.fmt(f),
            Self::Render(e) => e.fmt(f),
            Self::Demo(e) => e.fmt(f),
            Self::ModalOptions(e) => e.fmt(f),
            Self::Modes { path, error } => write!(f, "{}: {error}", path.display()),
            #[cfg(feature = "rerun")]
            Self::Rerun(e) => e.fmt(f),
            #[cfg(not(feature = "rerun"))]
            Self::NoRerun { path } => write!(
                f,
                "{}: this bdtree was built without Rerun support; rebuild with `cargo run --release --features bdtree-std/rerun --bin bdtree -- demo --rerun …`",
                path.display()
            ),
            Self::CompactF64 { path } => write!(
                f,
                "{}: --format q16/q8, --model q16 and --depth make f32 images; drop --precision f64",
                path.display()
            ),
            Self::NotF32 { path, scalar_bytes } => write!(
                f,
                "{}: compact images are made from f32 images; this one stores {scalar_bytes}-byte scalars",
                path.display()
            ),
            Self::BoundedBoxes { path } => write!(
                f,
                "{}: a bounded-depth image stores no mesh, so it has no box table (box \
                 bounds prune triangle queries); give the complete image",
                path.display()
            ),
            Self::NotNested { path } => write!(
                f,
                "{}: a bounded image answers proxy queries only, which need a nested tree; rebuild \
                 with `bdtree build --nested` (or `--depth`, which nests)",
                path.display()
            ),
            Self::NotBothNested { image, reference } => write!(
                f,
                "{} / {}: the tightness cost is measured with proxy queries, which need \
                 nested trees on both sides",
                image.display(),
                reference.display()
            ),
            Self::NotSameTree { image, reference } => write!(
                f,
                "{} and {}: not the same tree (modes, triangles or root center differ)",
                image.display(),
                reference.display()
            ),
            Self::Missed { count } => {
                write!(f, "{count} contact(s) found by brute force were missed")
            }
            Self::Uncovered { count } => write!(
                f,
                "{count} contact(s) found by brute force lie under no reported proxy pair"
            ),
            Self::OutsideCover { count } => write!(
                f,
                "{count} true contact(s) fell outside an interrupted query's cover"
            ),
            Self::Distances { worst } => write!(
                f,
                "distances differ from brute force by up to {worst:.2e}"
            ),
            Self::BadWithin { value } => write!(
                f,
                "--within {value}: the distance must be a finite number ≥ 0"
            ),
            Self::BadCloserThan { value } => write!(
                f,
                "--closer-than {value}: the distance must be a finite number ≥ 0"
            ),
            Self::BadConstantName { name, suggested } => write!(
                f,
                "--name {name:?}: a constant prefix is ASCII capitals, digits and `_`, not \
                 starting with a digit (try {suggested:?})"
            ),
        }
    }
}

impl std::error::Error for CliError {}

impl From<LoadError> for CliError {
    fn from(e: LoadError) -> Self {
        Self::Load(e)
    }
}

impl From<RunError> for CliError {
    fn from(e: RunError) -> Self {
        Self::Run(e)
    }
}

impl From<bdtree_std::export::ExportError> for CliError {
    fn from(e: bdtree_std::export::ExportError) -> Self {
        Self::Render(e.into())
    }
}

impl From<RenderError> for CliError {
    fn from(e: RenderError) -> Self {
        Self::Render(e)
    }
}

impl From<DemoError> for CliError {
    fn from(e: DemoError) -> Self {
        Self::Demo(e)
    }
}

/// `std::fs::write`, naming the file on failure.
pub fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    std::fs::write(path, bytes).map_err(|error| CliError::Write {
        path: path.to_path_buf(),
        error,
    })
}

//! Arguments several subcommands share, the tolerances of their checks, and the progress bars.

use std::path::Path;

use bdtree_core::{Encoding, Header, Order};
use bdtree_std::build::{BuildOptions, Grouping, ModeCenter, Precision, TreeKind};
use bdtree_std::io::{ImageBuf, Scene};
use bdtree_std::runner::{prepare, PreparedScene, RunError};

use crate::error::CliError;

/// Tolerance of a distance's comparison with the brute force (`distance --check`, `--within`,
/// `--closer-than`): the kernel's documented error is a few δ (~1e-4 of the coordinates in
/// f32); 1e-3 of the scene's extent keeps well clear of it.
pub const DISTANCE_TOLERANCE: f64 = 1e-3;

/// Reads the tree image at `path` with its header (an unreadable file or a bad header named
/// with the file).
pub fn read_image(path: &Path) -> Result<(ImageBuf, Header), CliError> {
    let buf = ImageBuf::read(path)?;
    let header = buf.header().map_err(|error| CliError::Image {
        path: path.to_path_buf(),
        error,
    })?;
    Ok((buf, header))
}

/// `--size WIDTHxHEIGHT`.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not a size WIDTHxHEIGHT (e.g. 1000x800, each 64 to 8192)");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(64..=8192).contains(&w) || !(64..=8192).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

/// `--order` of `bdtree interrupt`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum OrderArg {
    /// First in, first out (the paper's breadth-first order).
    Breadth,
    /// Deepest sphere penetration first.
    Deepest,
    /// Largest pair (sum of radii) first.
    Largest,
}

impl From<OrderArg> for Order {
    fn from(o: OrderArg) -> Order {
        match o {
            OrderArg::Breadth => Order::BreadthFirst,
            OrderArg::Deepest => Order::DeepestFirst,
            OrderArg::Largest => Order::LargestFirst,
        }
    }
}

/// Storage format of an image's node rows.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Scalars, as `--precision` says.
    F32,
    /// `[c, R]` in f32, `Ū` and `ΔR` as 16-bit codes with per-level scales (f32 images only).
    Q16,
    /// As q16 with 8-bit codes.
    Q8,
}

impl From<FormatArg> for Encoding {
    fn from(f: FormatArg) -> Encoding {
        match f {
            FormatArg::F32 => Encoding::Float,
            FormatArg::Q16 => Encoding::Q16,
            FormatArg::Q8 => Encoding::Q8,
        }
    }
}

/// Compact images for flash: quantized rows and bounded depth.
#[derive(clap::Args, Clone, Copy)]
pub struct CompactArgs {
    /// Row storage: quantization folds every error outward into the radius growth, so no
    /// contact is missed (see `bdtree_std::build::compact`).
    #[arg(long, value_enum, default_value_t = FormatArg::F32)]
    pub format: FormatArg,
    /// Keep only the top L levels and no mesh (proxy queries only, at proxy depth ≤ L).
    /// Implies `--nested`.
    #[arg(long, value_name = "L")]
    pub depth: Option<u32>,
    /// Storage of a complete image's mesh and basis: f32, or 16-bit codes whose error grows
    /// the spheres and the kernel's rounding bound (no contact of the f32 model is missed).
    #[arg(long, value_enum, default_value_t = ModelArg::F32)]
    pub model: ModelArg,
}

/// Storage of the mesh and basis.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelArg {
    /// 4-byte floats.
    F32,
    /// 16-bit codes with per-axis / per-mode scales (f32 images only).
    Q16,
}

impl CompactArgs {
    pub fn is_plain(&self) -> bool {
        self.format == FormatArg::F32 && self.depth.is_none() && self.model == ModelArg::F32
    }
}

/// Builder options beyond the paper: how `Ū_j` is centered and how triangles are grouped.
#[derive(clap::Args, Clone, Copy)]
pub struct BoundsArgs {
    /// Which partition the trees are built on: the median split, or the medial-axis partition
    /// (closed meshes only; same image format). A scene body's `"tree"` overrides it.
    #[arg(long, value_enum, default_value_t = TreeKind::default())]
    pub tree: TreeKind,
    /// Per-mode center displacement `Ū_j`: the mean of the vertices' `U_ij`, or the center of
    /// their minimal enclosing ball (smallest `ΔR_j`).
    #[arg(long, value_enum, default_value_t = ModeCenter::default())]
    pub mode_center: ModeCenter,
    /// Split triangles by rest position only, or by rest position and scaled displacements.
    #[arg(long, value_enum, default_value_t = Grouping::default())]
    pub grouping: Grouping,
    /// With `--grouping motion`: weight of the displacements against the rest positions.
    #[arg(long, default_value_t = 1.0)]
    pub motion_weight: f64,
    /// Nest every node's bounds inside its parent's for every q (needed by proxy queries,
    /// `collide --depth`, which turns it on; looser upper levels for full queries).
    #[arg(long)]
    pub nested: bool,
}

impl BoundsArgs {
    pub fn options(self, precision: Precision) -> BuildOptions {
        BuildOptions {
            tree: self.tree,
            precision,
            mode_center: self.mode_center,
            grouping: self.grouping,
            motion_weight: self.motion_weight,
            nested: self.nested,
            ..BuildOptions::default()
        }
    }
}

/// A progress bar over `len` items, with a message and a template naming the unit.
pub fn progress_bar(len: usize, template: &str, message: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_message(message.to_string());
    bar
}

/// Progress as plain lines on stderr, every tenth of the work (for logs, where the progress bar
/// does not draw): `add(n)` after `n` units of `total`; silent unless `on`.
pub struct ProgressLines {
    on: bool,
    done: usize,
    total: usize,
    tenths: usize,
    started: std::time::Instant,
}

impl ProgressLines {
    pub fn new(on: bool, total: usize) -> ProgressLines {
        ProgressLines {
            on,
            done: 0,
            total: total.max(1),
            tenths: 0,
            started: std::time::Instant::now(),
        }
    }

    pub fn add(&mut self, n: usize) {
        self.done += n;
        let tenths = (self.done * 10 / self.total).min(10);
        if self.on && tenths > self.tenths {
            self.tenths = tenths;
            eprintln!(
                "building: {} % ({:.1} s)",
                tenths * 10,
                self.started.elapsed().as_secs_f64()
            );
        }
    }
}

/// Loads a scene and builds its trees. `meshes_only` names a command that takes no primitive
/// bodies: a scene with one is refused before anything is built.
pub fn load_and_prepare(
    path: &Path,
    options: BuildOptions,
    meshes_only: Option<&str>,
) -> Result<(Scene, PreparedScene), CliError> {
    let scene = Scene::load(path)?;
    if let Some(command) = meshes_only {
        scene.without_primitives(command)?;
    }
    let prepared = prepare(&scene, options).map_err(|error| RunError::Build {
        scene: path.to_path_buf(),
        error,
    })?;
    Ok((scene, prepared))
}

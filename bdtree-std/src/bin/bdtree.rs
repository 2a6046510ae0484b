//! `bdtree`: build, inspect and query BD-Trees from the command line.

use bdtree_std::BodyStorage;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bdtree_core::{Encoding, Order, Scalar};
use bdtree_std::budget::budget_table;
use bdtree_std::builder::{
    build, BuildOptions, Grouping, ImageBuf, ModeCenter, Precision, SphereFit,
};
use bdtree_std::collide::{
    brute_force_distance_frame, brute_force_frame, brute_force_frame_with, compare, distances,
    prepare, run_with, uncovered_contacts, FrameResult,
};
use bdtree_std::compact::{compact, CompactReport};
use bdtree_std::inspect::{compare as compare_images, inspect, Inspection};
use bdtree_std::modal::{self, Fixed, ModalOptions};
use bdtree_std::render::View;
use bdtree_std::scene::Scene;
use bdtree_std::{basis, mesh};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "bdtree",
    version,
    about = "BD-Tree collision detection for reduced deformable models"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build a tree image from a mesh (OBJ, PLY, STL) and a basis (.npy, 3N × M or N × 3 × M).
    Build {
        /// The rest mesh.
        mesh: PathBuf,
        /// The displacement basis; omit for a rigid body.
        #[arg(long)]
        modes: Option<PathBuf>,
        /// Where to write the image.
        #[arg(short, long)]
        output: PathBuf,
        /// Scalar of the image.
        #[arg(long, value_enum, default_value_t = Precision::F32)]
        precision: Precision,
        /// Rest sphere fit.
        #[arg(long, value_enum, default_value_t = SphereFit::Welzl)]
        sphere: SphereFit,
        #[command(flatten)]
        bounds: BoundsArgs,
        #[command(flatten)]
        compact: CompactArgs,
    },
    /// Make a compact image (quantized rows, bounded depth) from a complete f32 image.
    Compact {
        /// The complete f32 image.
        image: PathBuf,
        /// Where to write the compact image.
        #[arg(short, long)]
        output: PathBuf,
        #[command(flatten)]
        compact: CompactArgs,
    },
    /// Print statistics of a tree image: sizes and the per-level tightness table.
    Inspect {
        /// The image.
        image: PathBuf,
        /// One JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// The complete f32 image a compact one was made from: report the tightness cost
        /// (radius growth, overlap tests per proxy query) against it.
        #[arg(long)]
        reference: Option<PathBuf>,
        /// Proxy queries run on each image for `--reference`.
        #[arg(long, default_value_t = 200)]
        queries: usize,
    },
    /// Find every intersecting triangle pair between distinct bodies, frame by frame.
    Collide {
        /// The scene (JSON).
        scene: PathBuf,
        /// One JSON object per frame, one per line.
        #[arg(long)]
        json: bool,
        /// Arithmetic of the kernel.
        #[arg(long, value_enum, default_value_t = Precision::F32)]
        precision: Precision,
        /// Run the frames this many times and report the mean time per frame.
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// Also compute the f64 brute-force answer and compare (slow on large meshes). With
        /// `--depth`: check that every brute-force contact lies under a reported proxy pair.
        #[arg(long)]
        check: bool,
        /// Bounded-depth query: report the overlapping contact proxies (nodes at this depth,
        /// or shallower leaves; the root has depth 0) with their world spheres and
        /// penetration depths instead of triangle pairs. Builds the trees nested.
        #[arg(long, value_name = "L")]
        depth: Option<u32>,
        /// Also report each body's self-collisions (non-adjacent triangle pairs of one body),
        /// as `["a", "a", ti, tj]` with ti < tj.
        #[arg(long = "self")]
        self_pairs: bool,
        #[command(flatten)]
        bounds: BoundsArgs,
    },
    /// Interrupted queries (the interruptible-collision paper's Table 1): per test budget, the
    /// pending and confirmed list sizes, the fraction of the true contacts (f64 brute force)
    /// already confirmed, and the size of the conservative cover.
    Interrupt {
        /// The scene (JSON).
        scene: PathBuf,
        /// Test budgets per query (sphere overlap tests + triangle tests), comma-separated.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "8,32,128,512,2048,8192,32768"
        )]
        budgets: Vec<u32>,
        /// Which pending pair is refined next; all three when omitted.
        #[arg(long, value_enum)]
        order: Option<OrderArg>,
        /// Pending-list capacity (entries).
        #[arg(long, default_value_t = 1 << 16)]
        capacity: usize,
        /// Arithmetic of the kernel.
        #[arg(long, value_enum, default_value_t = Precision::F32)]
        precision: Precision,
        /// One JSON object per order and budget, one per line.
        #[arg(long)]
        json: bool,
    },
    /// The minimum distance between every pair of bodies per frame, with witness points,
    /// triangles and the normal from the first body to the second.
    Distance {
        /// The scene (JSON).
        scene: PathBuf,
        /// One JSON object per frame and body pair, one per line.
        #[arg(long)]
        json: bool,
        /// Arithmetic of the kernel.
        #[arg(long, value_enum, default_value_t = Precision::F32)]
        precision: Precision,
        /// Also compute the distance by brute force (f64) and compare.
        #[arg(long)]
        check: bool,
    },
    /// The main job: flexing chairs dropped on the ground (the BD-Tree paper's experiment,
    /// small), from the bundled chair mesh; prints a summary (collision cost per step against
    /// the same placements rigid, contacts, an exact check against brute force) and writes a
    /// picture. `--scene` runs the bundled three-body scene against brute force instead.
    Demo {
        /// Chairs.
        #[arg(long, default_value_t = 100)]
        chairs: usize,
        /// Steps of 2 ms.
        #[arg(long, default_value_t = 1000)]
        steps: usize,
        /// Where to write the picture of the busiest step (.png or .svg).
        #[arg(short, long, default_value = "bdtree-demo.png")]
        output: PathBuf,
        /// Run `fixtures/scenes/demo.json` against the brute-force oracle instead.
        #[arg(long)]
        scene: bool,
        /// Also log the simulation to this Rerun recording (.rrd; needs a build with
        /// `--features rerun`).
        #[arg(long)]
        rerun: Option<PathBuf>,
        /// Log every this many steps to the Rerun recording.
        #[arg(long, default_value_t = 25)]
        rerun_every: usize,
    },
    /// Compute the lowest elastic vibration modes of a closed mesh (linear elasticity on an
    /// embedded hexahedral lattice with cut cells, SI units), free or held fixed where it is
    /// clamped, and write them as a basis (.npy, 3N × k), each mode scaled to a largest vertex
    /// displacement of 1.
    ///
    /// The lattice is chosen from the body: a ray from every triangle into the body measures
    /// its thickness, and the cells are sized to put 4 across the thinnest part (at least 20
    /// along the longest side). A wall too thin for --max-cells is an error that names it and
    /// the cost, not a wrong answer. --resolution overrides the choice.
    Modes {
        /// The closed rest mesh (OBJ, PLY, STL), in metres.
        mesh: PathBuf,
        /// How many elastic modes (the 6 rigid-body modes of a free body are removed).
        #[arg(short = 'k', long = "count", default_value_t = 10)]
        k: usize,
        /// Where to write the basis.
        #[arg(short, long)]
        output: PathBuf,
        /// Young's modulus in pascals.
        #[arg(long, default_value_t = 1e6)]
        young: f64,
        /// Poisson's ratio, in (−1, 0.5).
        #[arg(long, default_value_t = 0.45, allow_negative_numbers = true)]
        poisson: f64,
        /// Density in kg/m³.
        #[arg(long, default_value_t = 1000.0)]
        density: f64,
        /// Lattice cells along the longest side of the bounding box, instead of the automatic
        /// choice (the cell budget then does not apply).
        #[arg(long)]
        resolution: Option<usize>,
        /// Most lattice cells the automatic choice may use.
        #[arg(long, default_value_t = bdtree_std::modal::DEFAULT_MAX_CELLS)]
        max_cells: usize,
        /// Hold every mesh vertex in a half-space fixed: an axis x|y|z, < or >, a value in mesh
        /// units, e.g. 'x<-0.499'. Repeatable. The lattice is shifted so a node plane passes
        /// through the innermost held vertex; the held surface holds the lattice nodes it
        /// moves with.
        #[arg(long, value_parser = Fixed::parse, allow_hyphen_values = true)]
        fixed: Vec<Fixed>,
        /// Hold these mesh vertices fixed: a file of 0-based vertex indices, one a line.
        #[arg(long)]
        fixed_vertices: Vec<PathBuf>,
        /// Print one JSON object on stdout (frequencies, the lattice chosen, cells, dofs,
        /// volumes, time) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw a picture, PNG or SVG by the output's extension: a tree's spheres at a level, its
    /// tightness curve, or a scene frame's contacts.
    Render {
        #[command(subcommand)]
        what: RenderCommand,
    },
    /// Export a scene frame for MeshLab or Blender (PLY or OBJ by the output's extension): the
    /// deformed meshes, each body in its colour with the triangles in contact in red, and
    /// optionally the spheres at a tree level (icospheres coloured by radius growth) and the
    /// contact points (yellow points).
    Export {
        /// The scene (JSON).
        scene: PathBuf,
        /// The frame (0-based).
        #[arg(long, default_value_t = 0)]
        frame: usize,
        /// Where to write: .ply or .obj.
        #[arg(short, long)]
        output: PathBuf,
        /// Add every body's deformed spheres at this tree level (root = 0).
        #[arg(long, value_name = "LEVEL")]
        spheres: Option<u32>,
        /// Add one point of each intersecting triangle pair's intersection.
        #[arg(long)]
        contacts: bool,
        /// Count each body's self-contacts too.
        #[arg(long = "self")]
        self_pairs: bool,
    },
}

/// What `bdtree render` draws.
#[derive(Subcommand)]
enum RenderCommand {
    /// A body's deformed mesh and its deformed spheres at one tree level, coloured by radius
    /// growth r(q) / r_rest (the BD-Tree paper's Figs. 4 and 6). Without --q, every mode is set
    /// to one amplitude chosen so the largest vertex displacement is 10 % of the root's radius.
    Spheres {
        /// The tree image (.bdt, from `bdtree build`).
        image: PathBuf,
        /// The tree level (root = 0): the nodes at this depth and the leaves above it.
        #[arg(long)]
        level: u32,
        /// Reduced coordinates, one per mode, comma-separated.
        #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
        q: Option<Vec<f64>>,
        /// View: from +x, from −y (front), from +z (top), or ¾ from (1, −1, 1).
        #[arg(long, value_enum, default_value_t = View::Iso)]
        view: View,
        /// Where to write: .png or .svg.
        #[arg(short, long)]
        output: PathBuf,
        /// Picture size in pixels, WIDTHxHEIGHT.
        #[arg(long, default_value = "1000x800", value_parser = parse_size)]
        size: (u32, u32),
    },
    /// The per-level tightness curve: mean rest radius and mean ‖ΔR‖₂ per level, relative to
    /// the root's (what `bdtree inspect` tabulates).
    Tightness {
        /// The tree image (.bdt).
        image: PathBuf,
        /// Where to write: .png or .svg.
        #[arg(short, long)]
        output: PathBuf,
        /// Picture size in pixels, WIDTHxHEIGHT.
        #[arg(long, default_value = "900x600", value_parser = parse_size)]
        size: (u32, u32),
    },
    /// A scene frame: every body's deformed mesh in its colour, the triangles in contact in red
    /// (drawn on top), optionally the overlapping contact proxies' spheres.
    Contacts {
        /// The scene (JSON).
        scene: PathBuf,
        /// The frame (0-based).
        #[arg(long, default_value_t = 0)]
        frame: usize,
        /// Also outline the spheres of the overlapping proxy pairs at this depth (builds the
        /// trees nested).
        #[arg(long, value_name = "L")]
        proxies: Option<u32>,
        /// Also find each body's self-contacts.
        #[arg(long = "self")]
        self_pairs: bool,
        /// View: from +x, from −y (front), from +z (top), or ¾ from (1, −1, 1).
        #[arg(long, value_enum, default_value_t = View::Iso)]
        view: View,
        /// Where to write: .png or .svg.
        #[arg(short, long)]
        output: PathBuf,
        /// Picture size in pixels, WIDTHxHEIGHT.
        #[arg(long, default_value = "1000x800", value_parser = parse_size)]
        size: (u32, u32),
    },
}

/// `--size WIDTHxHEIGHT`.
fn parse_size(text: &str) -> Result<(u32, u32), String> {
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
enum OrderArg {
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
enum FormatArg {
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
struct CompactArgs {
    /// Row storage: quantization folds every error outward into the radius growth, so no
    /// contact is missed (see `bdtree_std::compact`).
    #[arg(long, value_enum, default_value_t = FormatArg::F32)]
    format: FormatArg,
    /// Keep only the top L levels and no mesh (proxy queries only, at proxy depth ≤ L).
    /// Implies `--nested`.
    #[arg(long, value_name = "L")]
    depth: Option<u32>,
    /// Storage of a complete image's mesh and basis: f32, or 16-bit codes whose error grows
    /// the spheres and the kernel's rounding bound (no contact of the f32 model is missed).
    #[arg(long, value_enum, default_value_t = ModelArg::F32)]
    model: ModelArg,
}

/// Storage of the mesh and basis.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ModelArg {
    /// 4-byte floats.
    F32,
    /// 16-bit codes with per-axis / per-mode scales (f32 images only).
    Q16,
}

impl CompactArgs {
    fn is_plain(&self) -> bool {
        self.format == FormatArg::F32 && self.depth.is_none() && self.model == ModelArg::F32
    }
}

/// Builder options beyond the paper: how `Ū_j` is centered and how triangles are grouped.
#[derive(clap::Args, Clone, Copy)]
struct BoundsArgs {
    /// Per-mode center displacement `Ū_j`: the mean of the vertices' `U_ij`, or the center of
    /// their minimal enclosing ball (smallest `ΔR_j`).
    #[arg(long, value_enum, default_value_t = ModeCenter::default())]
    mode_center: ModeCenter,
    /// Split triangles by rest position only, or by rest position and scaled displacements.
    #[arg(long, value_enum, default_value_t = Grouping::default())]
    grouping: Grouping,
    /// With `--grouping motion`: weight of the displacements against the rest positions.
    #[arg(long, default_value_t = 1.0)]
    motion_weight: f64,
    /// Nest every node's bounds inside its parent's for every q (needed by proxy queries,
    /// `collide --depth`, which turns it on; looser upper levels for full queries).
    #[arg(long)]
    nested: bool,
}

impl BoundsArgs {
    fn options(self, precision: Precision) -> BuildOptions {
        BuildOptions {
            precision,
            mode_center: self.mode_center,
            grouping: self.grouping,
            motion_weight: self.motion_weight,
            nested: self.nested,
            ..BuildOptions::default()
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build {
            mesh,
            modes,
            output,
            precision,
            sphere,
            bounds,
            compact,
        } => cmd_build(
            &mesh,
            modes.as_deref(),
            &output,
            BuildOptions {
                sphere,
                nested: bounds.nested || compact.depth.is_some(),
                ..bounds.options(precision)
            },
            compact,
        ),
        Command::Compact {
            image,
            output,
            compact,
        } => cmd_compact(&image, &output, compact),
        Command::Inspect {
            image,
            json,
            reference,
            queries,
        } => cmd_inspect(&image, json, reference.as_deref(), queries),
        Command::Collide {
            scene,
            json,
            precision,
            repeat,
            check,
            depth: Some(depth),
            bounds,
            ..
        } => cmd_proxies(
            &scene,
            json,
            bounds.options(precision),
            repeat,
            check,
            depth,
        ),
        Command::Collide {
            scene,
            json,
            precision,
            repeat,
            check,
            depth: None,
            self_pairs,
            bounds,
        } => cmd_collide(
            &scene,
            json,
            bounds.options(precision),
            repeat,
            check,
            self_pairs,
        )
        .map(|_| ()),
        Command::Interrupt {
            scene,
            budgets,
            order,
            capacity,
            precision,
            json,
        } => cmd_interrupt(&scene, &budgets, order, capacity, precision, json),
        Command::Distance {
            scene,
            json,
            precision,
            check,
        } => cmd_distance(&scene, json, precision, check),
        Command::Demo {
            chairs,
            steps,
            output,
            scene,
            rerun,
            rerun_every,
        } => {
            if scene {
                cmd_demo_scene()
            } else {
                cmd_demo(chairs, steps, &output, rerun.as_deref(), rerun_every)
            }
        }
        Command::Modes {
            mesh,
            k,
            output,
            young,
            poisson,
            density,
            resolution,
            max_cells,
            fixed,
            fixed_vertices,
            json,
        } => modal::report::run(&modal::report::Request {
            mesh,
            output,
            options: ModalOptions {
                modes: k,
                young,
                poisson,
                density,
                resolution,
                max_cells,
                fixed,
            },
            fixed_vertices,
            json,
        }),
        Command::Render { what } => cmd_render(what),
        Command::Export {
            scene,
            frame,
            output,
            spheres,
            contacts,
            self_pairs,
        } => cmd_export(&scene, frame, &output, spheres, contacts, self_pairs),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn progress_bar(len: usize, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} leaves ({elapsed})")
    {
        bar.set_style(style);
    }
    bar.set_message(what.to_string());
    bar
}

fn cmd_build(
    mesh_path: &Path,
    modes: Option<&Path>,
    output: &Path,
    options: BuildOptions,
    compact_args: CompactArgs,
) -> Result<(), String> {
    if !compact_args.is_plain() && options.precision != Precision::F32 {
        return Err(format!(
            "{}: --format q16/q8, --model q16 and --depth make f32 images; drop --precision f64",
            mesh_path.display()
        ));
    }
    let mesh = mesh::load_mesh(mesh_path).map_err(|e| e.to_string())?;
    let basis = match modes {
        Some(path) => {
            let b = basis::load_npy(path).map_err(|e| e.to_string())?;
            b.check_vertex_count(mesh.vertices.len(), path)
                .map_err(|e| e.to_string())?;
            Some(b)
        }
        None => None,
    };
    let bar = progress_bar(mesh.triangles.len(), "building");
    let (image, report) = build(&mesh, basis.as_ref(), options, &mut |n| bar.inc(n as u64))
        .map_err(|e| format!("{}: {e}", mesh_path.display()))?;
    bar.finish_and_clear();
    if !compact_args.is_plain() {
        let full = image.parse::<f32>().map_err(|e| e.to_string())?;
        let report = compact_and_write(&full, compact_args, mesh_path, output)?;
        println!(
            "  {} triangles, {} vertices, {} modes; complete f32 tree: {} nodes, depth {}, {} bytes",
            mesh.triangles.len(),
            mesh.vertices.len(),
            report.modes,
            full.tree.node_count(),
            full.tree.depth(),
            image.as_bytes().len()
        );
        print_compact(&report);
        return Ok(());
    }
    std::fs::write(output, image.as_bytes())
        .map_err(|e| format!("{}: cannot write: {e}", output.display()))?;
    println!("wrote {}", output.display());
    println!(
        "  {} triangles, {} vertices, {} modes, {:?}",
        mesh.triangles.len(),
        mesh.vertices.len(),
        report.modes,
        options.precision
    );
    println!(
        "  {} nodes, depth {}, {} bytes ({:.1} bytes/node incl. model)",
        report.nodes,
        report.depth,
        report.bytes,
        report.bytes as f64 / report.nodes as f64
    );
    let tighter = if report.mean_radius_welzl <= report.mean_radius_box {
        "Welzl"
    } else {
        "box-center"
    };
    println!(
        "  mean rest radius: Welzl {:.6}, box-center {:.6} → {tighter} is tighter ({:.1} %; Welzl smaller at {} of {} nodes)",
        report.mean_radius_welzl,
        report.mean_radius_box,
        100.0 * (1.0 - report.mean_radius_welzl.min(report.mean_radius_box) / report.mean_radius_welzl.max(report.mean_radius_box)),
        report.welzl_smaller,
        report.nodes
    );
    if report.modes > 0 {
        println!(
            "  mean radius growth ‖ΔR‖₂ over nodes: {:.6} (mode centers {:?}, grouping {:?})",
            report.mean_growth, options.mode_center, options.grouping
        );
    }
    Ok(())
}

fn print_compact(report: &CompactReport) {
    println!(
        "  {} rows{}: {} nodes, depth {}, {} bytes ({:.1} tree bytes/node{})",
        report.encoding.name(),
        if report.bounded {
            ", bounded (top levels, no mesh: proxy queries only)"
        } else {
            ""
        },
        report.nodes,
        report.depth,
        report.bytes,
        report.tree_bytes_per_node,
        if report.bounded {
            ""
        } else {
            ", plus the mesh"
        },
    );
    if let Some((e_p, e_u)) = report.model_errors {
        println!(
            "  16-bit mesh and basis: largest code error {e_p:.3e} (positions), {e_u:.3e} (basis), folded into R and ΔR"
        );
    }
    if report.modes > 0 {
        println!(
            "  mean radius growth ‖ΔR‖₂ over the stored nodes: {:.6} (f32 source {:.6}, ×{:.3})",
            report.mean_growth,
            report.mean_growth_source,
            report.mean_growth / report.mean_growth_source.max(1e-300)
        );
    }
}

fn cmd_compact(input: &Path, output: &Path, args: CompactArgs) -> Result<(), String> {
    let buf = ImageBuf::read(input).map_err(|e| e.to_string())?;
    let header = buf
        .header()
        .map_err(|e| format!("{}: {e}", input.display()))?;
    if header.scalar_bytes != 4 {
        return Err(format!(
            "{}: compact images are made from f32 images; this one stores {}-byte scalars",
            input.display(),
            header.scalar_bytes
        ));
    }
    let full = buf.parse_named::<f32>(input).map_err(|e| e.to_string())?;
    if args.depth.is_some() && !full.tree.is_nested() {
        return Err(format!(
            "{}: a bounded image answers proxy queries only, which need a nested tree; rebuild \
             with `bdtree build --nested` (or `--depth`, which nests)",
            input.display()
        ));
    }
    let report = compact_and_write(&full, args, input, output)?;
    print_compact(&report);
    Ok(())
}

/// Compacts `full` (read from or built for `source`) as `args` say and writes it to `output`.
fn compact_and_write(
    full: &bdtree_core::Image<'_, f32>,
    args: CompactArgs,
    source: &Path,
    output: &Path,
) -> Result<CompactReport, String> {
    let (small, report) = compact(
        full,
        args.format.into(),
        args.depth,
        args.model == ModelArg::Q16,
    )
    .map_err(|e| format!("{}: {e}", source.display()))?;
    std::fs::write(output, small.as_bytes())
        .map_err(|e| format!("{}: cannot write: {e}", output.display()))?;
    println!("wrote {}", output.display());
    Ok(report)
}

fn cmd_inspect(
    path: &Path,
    json: bool,
    reference: Option<&Path>,
    queries: usize,
) -> Result<(), String> {
    let buf = ImageBuf::read(path).map_err(|e| e.to_string())?;
    let header = buf
        .header()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let inspection = match header.scalar_bytes {
        8 => inspect(&buf.parse_named::<f64>(path).map_err(|e| e.to_string())?),
        _ => inspect(&buf.parse_named::<f32>(path).map_err(|e| e.to_string())?),
    };
    let comparison = match reference {
        Some(r) => {
            let rbuf = ImageBuf::read(r).map_err(|e| e.to_string())?;
            let reference_image = rbuf.parse_named::<f32>(r).map_err(|e| e.to_string())?;
            let image = buf.parse_named::<f32>(path).map_err(|e| e.to_string())?;
            if !image.tree.is_nested() || !reference_image.tree.is_nested() {
                return Err(format!(
                    "{} / {}: the tightness cost is measured with proxy queries, which need \
                     nested trees on both sides",
                    path.display(),
                    r.display()
                ));
            }
            Some(
                compare_images(&image, &reference_image, queries).ok_or_else(|| {
                    format!(
                        "{} and {}: not the same tree (modes, triangles or root center differ)",
                        path.display(),
                        r.display()
                    )
                })?,
            )
        }
        None => None,
    };
    if json {
        match &comparison {
            Some(c) => println!(
                "{{\"inspection\":{},\"comparison\":{}}}",
                inspection.to_json(),
                serde_json::to_string(c).unwrap_or_default()
            ),
            None => println!("{}", inspection.to_json()),
        }
    } else {
        print_inspection(path, &inspection);
        if let (Some(c), Some(r)) = (&comparison, reference) {
            println!(
                "  against {} ({} queries, proxy depth {}):",
                r.display(),
                c.queries,
                c.proxy_depth
            );
            println!(
                "    size ×{:.4}; mean ‖ΔR‖₂ (levels ≤ {}) {:.6} vs {:.6} (×{:.3})",
                c.bytes_ratio,
                c.proxy_depth,
                c.mean_growth,
                c.reference_mean_growth,
                c.mean_growth / c.reference_mean_growth.max(1e-300)
            );
            println!(
                "    overlap tests per query {:.1} vs {:.1} (×{:.3}); proxy pairs per query {:.1} vs {:.1}",
                c.overlap_tests,
                c.reference_overlap_tests,
                c.test_ratio(),
                c.proxy_pairs,
                c.reference_proxy_pairs
            );
        }
    }
    Ok(())
}

fn print_inspection(path: &Path, i: &Inspection) {
    println!(
        "{}: bdtree image v{}, {}, {} rows{}{}",
        path.display(),
        i.version,
        i.scalar,
        i.encoding,
        if i.model_16_bit {
            ", 16-bit mesh and basis"
        } else {
            ""
        },
        if i.bounded {
            ", bounded (top levels, no mesh: proxy queries only)"
        } else {
            ""
        }
    );
    println!(
        "  {} triangles, {} vertices, {} modes",
        i.triangles, i.vertices, i.modes
    );
    println!(
        "  {} nodes, depth {}{}",
        i.nodes,
        i.depth,
        if i.nested {
            ", nested (proxy queries allowed)"
        } else {
            ""
        }
    );
    println!(
        "  {} bytes: tree {} ({:.1} bytes/node), model {}; mean ‖ΔR‖₂ {:.6}",
        i.bytes, i.tree_bytes, i.tree_bytes_per_node, i.model_bytes, i.mean_growth
    );
    println!(
        "  tightness (per level; ‖ΔR‖ = Euclidean norm over modes, normalised to the root's):"
    );
    println!(
        "  {:>5} {:>8} {:>14} {:>14} {:>12}",
        "level", "nodes", "mean radius", "mean ‖ΔR‖", "‖ΔR‖/root"
    );
    for l in &i.levels {
        println!(
            "  {:>5} {:>8} {:>14.6} {:>14.6} {:>12.4}",
            l.level, l.nodes, l.mean_radius, l.mean_growth, l.relative_growth
        );
    }
    if i.encoding != "float" || i.bounded {
        // Box bounds are computed from scalar rows and the mesh.
        return;
    }
    println!(
        "  box bounds (per level; largest half-extent H, ‖ΔH‖ = Frobenius over modes and axes, \
         rest box volume / rest sphere volume):"
    );
    println!(
        "  {:>5} {:>8} {:>14} {:>14} {:>12}",
        "level", "nodes", "mean max H", "mean ‖ΔH‖", "box/sphere"
    );
    for l in &i.levels {
        println!(
            "  {:>5} {:>8} {:>14.6} {:>14.6} {:>12.3}",
            l.level, l.nodes, l.mean_half_extent, l.mean_box_growth, l.box_to_sphere_volume
        );
    }
}

fn cmd_collide(
    path: &Path,
    json: bool,
    options: BuildOptions,
    repeat: usize,
    check: bool,
    self_pairs: bool,
) -> Result<usize, String> {
    let scene = Scene::load(path).map_err(|e| e.to_string())?;
    let precision = options.precision;
    let prepared = prepare(&scene, options).map_err(|e| format!("{}: {e}", path.display()))?;
    let (frames, ms) = match precision {
        Precision::F32 => run_with::<f32>(&scene, &prepared, repeat, None, self_pairs),
        Precision::F64 => run_with::<f64>(&scene, &prepared, repeat, None, self_pairs),
    }
    .map_err(|e| e.to_string())?;
    let mut problems = 0;
    let (mut extra, mut max_gap, mut oracle_pairs) = (0usize, 0.0f64, 0usize);
    let mut out = std::io::stdout().lock();
    for (f, frame) in frames.iter().enumerate() {
        let comparison = check.then(|| {
            let truth = brute_force_frame_with(&scene, f, self_pairs);
            oracle_pairs += truth.len();
            compare(&scene, f, &frame.pairs, &truth)
        });
        if let Some(c) = &comparison {
            problems += c.missed.len();
            extra += c.extra.len();
            max_gap = c.extra.iter().map(|e| e.1).fold(max_gap, f64::max);
        }
        let line = if json {
            frame_json(&scene, f, frame, ms, comparison.as_ref())
        } else {
            frame_text(&scene, f, frame, comparison.as_ref())
        };
        let _ = writeln!(out, "{line}");
    }
    if !json {
        let total: usize = frames.iter().map(|f| f.pairs.len()).sum();
        let _ = writeln!(
            out,
            "{} frames, {} bodies, {} contacts in all; {:.4} ms per frame ({} precision, mean of {} run(s))",
            frames.len(),
            scene.bodies.len(),
            total,
            ms,
            match precision {
                Precision::F32 => f32::NAME,
                Precision::F64 => f64::NAME,
            },
            repeat.max(1)
        );
    }
    if check && !json {
        let _ = writeln!(
            out,
            "brute force (f64, every triangle pair): {oracle_pairs} pairs, {problems} missed; \
             {extra} extra near-touching pair(s) within the rounding inflation (largest gap {max_gap:.1e})"
        );
    }
    if problems > 0 {
        return Err(format!(
            "{problems} contact(s) found by brute force were missed"
        ));
    }
    Ok(frames.len())
}

fn frame_json(
    scene: &Scene,
    f: usize,
    frame: &FrameResult,
    ms: f64,
    check: Option<&bdtree_std::collide::Comparison>,
) -> String {
    let name = |b: usize| scene.bodies[b].name.clone();
    let pairs: Vec<serde_json::Value> = frame
        .pairs
        .iter()
        .map(|&(a, b, ta, tb)| serde_json::json!([name(a), name(b), ta, tb]))
        .collect();
    let s = frame.stats;
    let mut value = serde_json::json!({
        "frame": f,
        "pairs": pairs,
        "stats": {
            "pairs": frame.pairs.len(),
            "nodes_visited": s.nodes_visited,
            "sphere_updates": s.sphere_updates,
            "overlap_tests": s.overlap_tests,
            "triangle_tests": s.triangle_tests,
            "complete": frame.complete,
            "query_ms": ms,
        }
    });
    if let Some(c) = check {
        value["check"] = serde_json::json!({ "missed": c.missed.len(), "extra": c.extra.len() });
    }
    value.to_string()
}

fn frame_text(
    scene: &Scene,
    f: usize,
    frame: &FrameResult,
    check: Option<&bdtree_std::collide::Comparison>,
) -> String {
    let s = frame.stats;
    let mut by_bodies: std::collections::BTreeMap<(usize, usize), usize> = Default::default();
    for &(a, b, _, _) in &frame.pairs {
        *by_bodies.entry((a, b)).or_default() += 1;
    }
    let summary: Vec<String> = by_bodies
        .iter()
        .map(|(&(a, b), n)| format!("{}–{}: {n}", scene.bodies[a].name, scene.bodies[b].name))
        .collect();
    let mut line = format!(
        "frame {f:>3}: {:>5} pairs [{}]  visited {} node pairs, {} sphere updates, {} triangle tests",
        frame.pairs.len(),
        summary.join(", "),
        s.nodes_visited,
        s.sphere_updates,
        s.triangle_tests
    );
    if let Some(c) = check {
        line += &format!(
            "  | brute force: {} missed, {} extra",
            c.missed.len(),
            c.extra.len()
        );
    }
    line
}

/// `bdtree collide --depth L`: proxy pairs per frame.
fn cmd_proxies(
    path: &Path,
    json: bool,
    options: BuildOptions,
    repeat: usize,
    check: bool,
    depth: u32,
) -> Result<(), String> {
    let scene = Scene::load(path).map_err(|e| e.to_string())?;
    let options = BuildOptions {
        nested: true,
        ..options
    };
    let prepared = prepare(&scene, options).map_err(|e| format!("{}: {e}", path.display()))?;
    let (frames, ms) = match options.precision {
        Precision::F32 => run_with::<f32>(&scene, &prepared, repeat, Some(depth), false),
        Precision::F64 => run_with::<f64>(&scene, &prepared, repeat, Some(depth), false),
    }
    .map_err(|e| e.to_string())?;
    let name = |b: usize| scene.bodies[b].name.clone();
    let (mut contacts, mut uncovered) = (0usize, 0usize);
    let mut out = std::io::stdout().lock();
    for (f, frame) in frames.iter().enumerate() {
        let missed = if check {
            let truth = brute_force_frame(&scene, f);
            contacts += truth.len();
            let missed = uncovered_contacts(&prepared, depth, &frame.proxies, &truth)
                .map_err(|e| e.to_string())?;
            uncovered += missed.len();
            Some(missed.len())
        } else {
            None
        };
        let s = frame.stats;
        let line = if json {
            let proxies: Vec<serde_json::Value> = frame
                .proxies
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "bodies": [name(p.bodies.0), name(p.bodies.1)],
                        "nodes": [p.nodes.0, p.nodes.1],
                        "sphere_a": p.spheres[0],
                        "sphere_b": p.spheres[1],
                        "depth": p.depth,
                    })
                })
                .collect();
            let mut value = serde_json::json!({
                "frame": f,
                "proxy_depth": depth,
                "proxies": proxies,
                "stats": {
                    "proxies": frame.proxies.len(),
                    "nodes_visited": s.nodes_visited,
                    "sphere_updates": s.sphere_updates,
                    "overlap_tests": s.overlap_tests,
                    "complete": frame.complete,
                    "query_ms": ms,
                }
            });
            if let Some(m) = missed {
                value["check"] = serde_json::json!({ "uncovered": m });
            }
            value.to_string()
        } else {
            let deepest = frame
                .proxies
                .iter()
                .map(|p| p.depth)
                .fold(f64::NAN, f64::max);
            let mut line = format!(
                "frame {f:>3}: {:>5} proxy pairs (deepest penetration {:.4}), visited {} node pairs, {} sphere updates",
                frame.proxies.len(),
                deepest,
                s.nodes_visited,
                s.sphere_updates
            );
            if let Some(m) = missed {
                line += &format!("  | brute-force contacts not under a proxy pair: {m}");
            }
            line
        };
        let _ = writeln!(out, "{line}");
    }
    if !json {
        let total: usize = frames.iter().map(|f| f.proxies.len()).sum();
        let _ = writeln!(
            out,
            "{} frames, {} bodies, {total} proxy pairs at depth {depth} in all; {ms:.4} ms per frame (mean of {} run(s))",
            frames.len(),
            scene.bodies.len(),
            repeat.max(1)
        );
        if check {
            let _ = writeln!(
                out,
                "brute force (f64): {contacts} contacts, {uncovered} not under a reported proxy pair"
            );
        }
    }
    if uncovered > 0 {
        return Err(format!(
            "{uncovered} contact(s) found by brute force lie under no reported proxy pair"
        ));
    }
    Ok(())
}

fn cmd_interrupt(
    path: &Path,
    budgets: &[u32],
    order: Option<OrderArg>,
    capacity: usize,
    precision: Precision,
    json: bool,
) -> Result<(), String> {
    let scene = Scene::load(path).map_err(|e| e.to_string())?;
    let options = BuildOptions {
        precision,
        ..BuildOptions::default()
    };
    let prepared = prepare(&scene, options).map_err(|e| format!("{}: {e}", path.display()))?;
    let orders = match order {
        Some(o) => vec![o],
        None => vec![OrderArg::Breadth, OrderArg::Deepest, OrderArg::Largest],
    };
    let mut out = std::io::stdout().lock();
    let mut uncovered = 0;
    for o in orders {
        let rows = match precision {
            Precision::F32 => budget_table::<f32>(&scene, &prepared, budgets, o.into(), capacity),
            Precision::F64 => budget_table::<f64>(&scene, &prepared, budgets, o.into(), capacity),
        }
        .map_err(|e| e.to_string())?;
        if !json {
            let _ = writeln!(
                out,
                "{}: order {o:?}, {} queries per budget (frames × body pairs)",
                path.display(),
                rows.first().map_or(0, |r| r.queries)
            );
            let _ = writeln!(
                out,
                "  {:>7} {:>9} {:>12} {:>11} {:>14} {:>11} {:>13}",
                "budget",
                "finished",
                "pending avg",
                "pending max",
                "confirmed avg",
                "true found",
                "cover pairs"
            );
        }
        for r in &rows {
            uncovered += r.uncovered;
            let line = if json {
                serde_json::json!({
                    "order": format!("{o:?}").to_lowercase(),
                    "budget": r.budget,
                    "queries": r.queries,
                    "finished": r.finished,
                    "mean_pending": r.mean_pending,
                    "max_pending": r.max_pending,
                    "mean_confirmed": r.mean_confirmed,
                    "true_contacts": r.true_contacts,
                    "true_confirmed": r.true_confirmed,
                    "confirmed_fraction": r.confirmed_fraction(),
                    "cover_pairs": r.cover_pairs,
                    "uncovered": r.uncovered,
                })
                .to_string()
            } else {
                format!(
                    "  {:>7} {:>5}/{:<3} {:>12.1} {:>11} {:>14.1} {:>10.1}% {:>13}",
                    r.budget,
                    r.finished,
                    r.queries,
                    r.mean_pending,
                    r.max_pending,
                    r.mean_confirmed,
                    100.0 * r.confirmed_fraction(),
                    r.cover_pairs
                )
            };
            let _ = writeln!(out, "{line}");
        }
    }
    if uncovered > 0 {
        return Err(format!(
            "{uncovered} true contact(s) fell outside an interrupted query's cover"
        ));
    }
    Ok(())
}

fn cmd_distance(path: &Path, json: bool, precision: Precision, check: bool) -> Result<(), String> {
    let scene = Scene::load(path).map_err(|e| e.to_string())?;
    let options = BuildOptions {
        precision,
        ..BuildOptions::default()
    };
    let prepared = prepare(&scene, options).map_err(|e| format!("{}: {e}", path.display()))?;
    let frames = match precision {
        Precision::F32 => distances::<f32>(&scene, &prepared),
        Precision::F64 => distances::<f64>(&scene, &prepared),
    }
    .map_err(|e| e.to_string())?;
    // Tolerance of the comparison: the kernel's documented error is a few δ (~1e-4 of the
    // coordinates in f32); 1e-3 of the scene's extent keeps well clear of it.
    let mut worst = 0.0f64;
    let mut out = std::io::stdout().lock();
    for (f, row) in frames.iter().enumerate() {
        for d in row {
            let (a, b) = d.bodies;
            let truth = check
                .then(|| brute_force_distance_frame(&scene, f, a, b))
                .flatten();
            if let Some(t) = truth {
                worst = worst.max((t - d.distance).abs());
            }
            let line = if json {
                let mut v = serde_json::json!({
                    "frame": f,
                    "bodies": [scene.bodies[a].name, scene.bodies[b].name],
                    "distance": d.distance,
                    "intersecting": d.intersecting,
                    "point_a": d.points[0],
                    "point_b": d.points[1],
                    "normal": d.normal,
                    "triangles": [d.triangles.0, d.triangles.1],
                });
                if let Some(t) = truth {
                    v["check"] = serde_json::json!({ "brute_force": t });
                }
                v.to_string()
            } else {
                format!(
                    "frame {f:>3}: {}–{}: {} {:.6} (triangles {}, {}){}",
                    scene.bodies[a].name,
                    scene.bodies[b].name,
                    if d.intersecting {
                        "intersecting,"
                    } else {
                        "distance"
                    },
                    d.distance,
                    d.triangles.0,
                    d.triangles.1,
                    truth.map_or(String::new(), |t| format!("  | brute force {t:.6}"))
                )
            };
            let _ = writeln!(out, "{line}");
        }
    }
    if check {
        if !json {
            let _ = writeln!(out, "largest difference from brute force: {worst:.2e}");
        }
        if worst > 1e-3 {
            return Err(format!(
                "distances differ from brute force by up to {worst:.2e}"
            ));
        }
    }
    Ok(())
}

fn cmd_demo(
    count: usize,
    steps: usize,
    picture: &Path,
    rerun: Option<&Path>,
    rerun_every: usize,
) -> Result<(), String> {
    use bdtree_std::chairs::{prepare_chair, replay, simulate, world_vertices, ChairOptions};
    if count < 2 || steps == 0 {
        return Err("demo: needs at least 2 chairs and 1 step".into());
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mesh_path = fixtures.join("meshes/chair.obj");
    println!(
        "bdtree demo: {count} flexing chairs dropped on the ground (the BD-Tree paper's experiment, small)"
    );
    let started = std::time::Instant::now();
    let mesh = mesh::load_mesh(&mesh_path).map_err(|e| e.to_string())?;
    let chair = prepare_chair(mesh).map_err(|e| format!("{}: {e}", mesh_path.display()))?;
    println!(
        "  chair: {} ({} triangles, {:.1} kg), {} vibration modes {:.1}–{:.1} Hz, tree depth {}, image {} KB (modal analysis and build {:.1} s)",
        mesh_path.display(),
        chair.mesh.triangles.len(),
        chair.mass,
        chair.omega.len(),
        chair.frequencies_hz.first().copied().unwrap_or(0.0),
        chair.frequencies_hz.last().copied().unwrap_or(0.0),
        chair.depth,
        chair.image.as_bytes().len() / 1024,
        started.elapsed().as_secs_f64()
    );
    let options = ChairOptions {
        count,
        steps,
        ..ChairOptions::default()
    };
    let bar = indicatif::ProgressBar::new(steps as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "  simulating {bar:40} {pos}/{len} steps ({elapsed})",
    ) {
        bar.set_style(style);
    }
    let started = std::time::Instant::now();
    let trajectory = simulate(&chair, &options, &mut |_| bar.inc(1))?;
    bar.finish_and_clear();
    let wall = started.elapsed().as_secs_f64();
    let deformable = replay(&chair, &options, &trajectory, false)?;
    let rigid = replay(&chair, &options, &trajectory, true)?;
    let simulated = steps as f64 * options.dt;
    println!(
        "  {count} bodies, {steps} steps of {} ms: {simulated:.2} s simulated in {wall:.2} s (sweep-and-prune, proxy queries at depth {}, penalty contacts, rigid and modal dynamics)",
        options.dt * 1e3,
        options.proxy_depth
    );
    println!(
        "  collision time per step: {:.3} ms deformable, {:.3} ms for the same placements rigid (q = 0): ratio {:.2} mean, {:.2} median (paper: 2; target ≤ 1.5)",
        deformable.mean_seconds * 1e3,
        rigid.mean_seconds * 1e3,
        deformable.mean_seconds / rigid.mean_seconds.max(1e-12),
        deformable.median_seconds / rigid.median_seconds.max(1e-12)
    );
    println!(
        "  contacts per step: {:.1} colliding chair pairs ({:.0} collision events per simulated second), {:.1} chair–chair and {:.1} ground proxy contacts",
        deformable.colliding_pairs,
        deformable.colliding_pairs / options.dt,
        deformable.contacts,
        deformable.ground_contacts
    );
    // The exact query on the busiest step's closest chair pairs, against the f64 brute force.
    let busiest = (0..steps)
        .max_by_key(|&s| trajectory.reports[s].contacts)
        .unwrap_or(0);
    let at = &trajectory.steps[busiest];
    let worlds: Vec<Vec<[f64; 3]>> = at.iter().map(|p| world_vertices(&chair, p)).collect();
    let check = exact_check(&chair, at, &worlds)?;
    println!(
        "  exact triangle query at the busiest step ({busiest}, {} proxy contacts) on its {} closest chair pairs: {} intersecting triangle pairs, {} extra within rounding, 0 missed (f64 brute force)",
        trajectory.reports[busiest].contacts, check.pairs, check.truth, check.extra
    );
    if let Some(path) = rerun {
        log_rerun(&chair, &trajectory, rerun_every, path)?;
        println!(
            "  Rerun recording: {} (open with `rerun {}`)",
            path.display(),
            path.display()
        );
    }
    let last = trajectory.steps.last().ok_or("demo: no step")?;
    let heights: Vec<f64> = last.iter().map(|p| p.x[2]).collect();
    println!(
        "  resting: centers of mass from {:.2} m to {:.2} m above the ground",
        heights.iter().copied().fold(f64::INFINITY, f64::min),
        heights.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    );
    demo_picture(
        &chair,
        &worlds,
        &check.contact_triangles,
        &trajectory.contacts[busiest],
        picture,
        busiest,
        options.dt,
    )?;
    println!("  picture: {}", picture.display());
    Ok(())
}

#[cfg(feature = "rerun")]
fn log_rerun(
    chair: &bdtree_std::chairs::Chair,
    trajectory: &bdtree_std::chairs::Trajectory,
    every: usize,
    path: &Path,
) -> Result<(), String> {
    bdtree_std::rerun_log::log_chairs(chair, trajectory, every, path)
}

#[cfg(not(feature = "rerun"))]
fn log_rerun(
    _: &bdtree_std::chairs::Chair,
    _: &bdtree_std::chairs::Trajectory,
    _: usize,
    path: &Path,
) -> Result<(), String> {
    Err(format!(
        "{}: this bdtree was built without Rerun support; rebuild with `cargo run --release --features bdtree-std/rerun --bin bdtree -- demo --rerun …`",
        path.display()
    ))
}

/// What [`exact_check`] found.
struct ExactCheck {
    pairs: usize,
    truth: usize,
    extra: usize,
    /// Per chair, the triangles in contact.
    contact_triangles: Vec<Vec<u32>>,
}

/// Runs the exact f32 query on up to 8 chair pairs whose root spheres overlap most in `last`
/// and compares each with the f64 brute force on the explicitly deformed meshes; a missed
/// pair is an error.
fn exact_check(
    chair: &bdtree_std::chairs::Chair,
    last: &[bdtree_std::chairs::Placement],
    worlds: &[Vec<[f64; 3]>],
) -> Result<ExactCheck, String> {
    use bdtree_core::{collide, stack_capacity, Pose};
    let image = chair.image.parse::<f32>().map_err(|e| e.to_string())?;
    let nodes = image.tree.node_count();
    let rest = image.tree.rest_sphere(0).ok_or("demo: empty tree")?;
    let reach = 2.0 * f64::from(rest[3]);
    let mut close: Vec<(f64, usize, usize)> = Vec::new();
    for i in 0..last.len() {
        for j in i + 1..last.len() {
            let d = (0..3)
                .map(|k| (last[i].x[k] - last[j].x[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            if d < reach {
                close.push((d, i, j));
            }
        }
    }
    close.sort_by(|a, b| a.0.total_cmp(&b.0));
    close.truncate(8);
    let mut out = ExactCheck {
        pairs: close.len(),
        truth: 0,
        extra: 0,
        contact_triangles: vec![Vec::new(); last.len()],
    };
    let mut stack = vec![[0u32; 2]; stack_capacity(image.tree.depth(), image.tree.depth())];
    for &(_, i, j) in &close {
        let (mut ca, mut cb) = (BodyStorage::new(nodes), BodyStorage::new(nodes));
        let mut a = ca.body(&image).map_err(|e| e.to_string())?;
        let mut b = cb.body(&image).map_err(|e| e.to_string())?;
        for (body, p) in [(&mut a, &last[i]), (&mut b, &last[j])] {
            let pose = Pose::from_quaternion(p.rotation.map(|v| v as f32), p.x.map(|v| v as f32))
                .map_err(|e| format!("{e:?}"))?;
            body.set_state(pose, &p.q.map(|v| v as f32))
                .map_err(|e| e.to_string())?;
        }
        let mut found = Vec::new();
        let outcome = collide(
            &mut a,
            &mut b,
            &mut stack,
            &mut |p: bdtree_core::TrianglePair| {
                found.push((p.a, p.b));
                true
            },
        );
        if !outcome.status.is_complete() {
            return Err(format!(
                "demo: exact query on chairs {i}, {j}: {:?}",
                outcome.status
            ));
        }
        found.sort_unstable();
        let truth = bdtree_std::oracle::brute_force_pairs(
            &worlds[i],
            &chair.mesh.triangles,
            &worlds[j],
            &chair.mesh.triangles,
        );
        if let Some(t) = truth.iter().find(|t| found.binary_search(t).is_err()) {
            return Err(format!(
                "demo: chairs {i}, {j}: the exact query missed triangle pair {t:?}"
            ));
        }
        out.truth += truth.len();
        out.extra += found.len() - truth.len().min(found.len());
        out.contact_triangles[i].extend(found.iter().map(|p| p.0));
        out.contact_triangles[j].extend(found.iter().map(|p| p.1));
    }
    Ok(out)
}

/// The demo's picture: every chair at the busiest step, the triangles the exact check found in
/// contact highlighted, and the step's penalty contact points.
fn demo_picture(
    chair: &bdtree_std::chairs::Chair,
    worlds: &[Vec<[f64; 3]>],
    highlighted: &[Vec<u32>],
    contacts: &bdtree_std::chairs::StepContacts,
    path: &Path,
    step: usize,
    dt: f64,
) -> Result<(), String> {
    use bdtree_std::render::{snapshot_with, SnapshotBody, SnapshotOptions};
    let bodies: Vec<SnapshotBody> = worlds
        .iter()
        .zip(highlighted)
        .map(|(vertices, high)| SnapshotBody {
            vertices: vertices.clone(),
            triangles: chair.mesh.triangles.clone(),
            highlighted: high.clone(),
            ..SnapshotBody::default()
        })
        .collect();
    let points: Vec<[f64; 3]> = contacts.chairs.iter().map(|p| p.map(f64::from)).collect();
    let caption = format!(
        "bdtree demo: {} flexing chairs at step {step} (t = {:.2} s), the busiest step",
        worlds.len(),
        step as f64 * dt
    );
    let options = SnapshotOptions {
        ground: Some(0.0),
        lines: vec![format!(
            "penalty contact points of the step's {} chair–chair proxy contacts; {} triangles of the exact check's intersecting pairs",
            points.len(),
            highlighted.iter().map(Vec::len).sum::<usize>()
        )],
        ..SnapshotOptions::default()
    };
    snapshot_with(&bodies, &points, &caption, &options, path).map_err(|e| e.to_string())
}

fn cmd_demo_scene() -> Result<(), String> {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scenes/demo.json");
    println!("bdtree demo: {}", scene.display());
    let options = BuildOptions {
        precision: Precision::F32,
        ..BuildOptions::default()
    };
    let frames = cmd_collide(&scene, false, options, 20, true, false)?;
    println!("all {frames} frames agree with the f64 brute-force oracle (no missed contacts)");
    Ok(())
}

fn cmd_render(what: RenderCommand) -> Result<(), String> {
    use bdtree_std::render;
    match what {
        RenderCommand::Spheres {
            image,
            level,
            q,
            view,
            output,
            size,
        } => {
            let options = render::SphereOptions {
                level,
                q,
                view,
                size,
            };
            let summary = render::spheres(&image, &options, &output).map_err(|e| e.to_string())?;
            println!(
                "wrote {}: {} spheres at level {level}",
                output.display(),
                summary.nodes.len()
            );
        }
        RenderCommand::Tightness {
            image,
            output,
            size,
        } => {
            render::tightness_of(&image, size, &output).map_err(|e| e.to_string())?;
            println!("wrote {}", output.display());
        }
        RenderCommand::Contacts {
            scene,
            frame,
            proxies,
            self_pairs,
            view,
            output,
            size,
        } => {
            let options = render::ContactOptions {
                frame,
                proxies,
                self_pairs,
                view,
                size,
            };
            let summary = render::contacts(&scene, &options, &output).map_err(|e| e.to_string())?;
            println!(
                "wrote {}: frame {frame}, {} intersecting pairs, {} triangles highlighted{}",
                output.display(),
                summary.pairs,
                summary.highlighted,
                proxies.map_or(String::new(), |l| format!(
                    ", {} proxy pairs at depth {l}",
                    summary.proxies
                ))
            );
        }
    }
    Ok(())
}

fn cmd_export(
    path: &Path,
    frame: usize,
    output: &Path,
    spheres: Option<u32>,
    contacts: bool,
    self_pairs: bool,
) -> Result<(), String> {
    use bdtree_std::export;
    export::MeshFormat::of(output).map_err(|e| e.to_string())?;
    let scene = Scene::load(path).map_err(|e| e.to_string())?;
    let options = export::GeometryOptions {
        proxies: None,
        self_pairs,
        spheres,
    };
    let geometry = export::frame_geometry(&scene, frame, &options).map_err(|e| e.to_string())?;
    let comment = format!(
        "bdtree export of {} frame {frame}: {} bodies, {} intersecting triangle pairs",
        path.display(),
        geometry.bodies.len(),
        geometry.pairs.len()
    );
    let summary =
        export::write_frame(&geometry, contacts, &comment, output).map_err(|e| e.to_string())?;
    println!(
        "wrote {}: {} vertices, {} triangles ({} bodies, {} spheres), {} contact points; {} intersecting pairs",
        output.display(),
        summary.vertices,
        summary.triangles,
        geometry.bodies.len(),
        summary.spheres,
        summary.points,
        geometry.pairs.len()
    );
    Ok(())
}

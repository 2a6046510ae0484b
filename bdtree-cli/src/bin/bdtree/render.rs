//! `bdtree render`: pictures (PNG or SVG) of a tree's spheres, its tightness curve, or a scene
//! frame's contacts.

use std::io::Write;
use std::path::PathBuf;

use bdtree_cli::view::render::{self, View};

use crate::error::CliError;
use crate::options::parse_size;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

/// The view, file and size of a picture of bodies (`render spheres`, `render contacts`).
#[derive(clap::Args)]
struct Picture {
    /// View: from +x, from −y (front), from +z (top), or ¾ from (1, −1, 1).
    #[arg(long, value_enum, default_value_t = View::Iso)]
    view: View,
    /// Where to write: .png or .svg.
    #[arg(short, long)]
    output: PathBuf,
    /// Picture size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1000x800", value_parser = parse_size)]
    size: (u32, u32),
}

/// What `bdtree render` draws.
#[derive(clap::Subcommand)]
enum What {
    /// A body's deformed mesh and its deformed spheres at one tree level, coloured by radius
    /// growth r(q) / r_rest (the BD-Tree paper's Figs. 4 and 6). Without --q, every mode is set
    /// to one amplitude chosen so the largest vertex displacement is 10 % of the root's radius.
    Spheres {
        /// The tree image (.bdt, from `bdtree build`).
        image: PathBuf,
        /// The tree level (root = 0): the nodes at this depth and the leaves above it.
        #[arg(long)]
        level: u32,
        /// Another tree image drawn to the right of the first at the same level, with one
        /// colour scale (two trees of one mesh: `bdtree build --tree median` and `--tree
        /// medial`); repeat for more.
        #[arg(long, value_name = "IMAGE")]
        beside: Vec<PathBuf>,
        /// Reduced coordinates, one per mode, comma-separated.
        #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
        q: Option<Vec<f64>>,
        #[command(flatten)]
        picture: Picture,
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
        #[command(flatten)]
        picture: Picture,
    },
}

pub fn exec(args: Args) -> Result<(), CliError> {
    match args.what {
        What::Spheres {
            image,
            level,
            beside,
            q,
            picture: Picture { view, output, size },
        } => {
            let options = render::SphereOptions {
                level,
                q,
                view,
                size,
            };
            let images: Vec<&std::path::Path> = std::iter::once(image.as_path())
                .chain(beside.iter().map(PathBuf::as_path))
                .collect();
            let summaries = render::spheres_beside(&images, &options, &output)?;
            let counts: Vec<String> = images
                .iter()
                .zip(&summaries)
                .map(|(i, s)| format!("{} spheres of {}", s.nodes.len(), i.display()))
                .collect();
            writeln!(
                std::io::stdout(),
                "wrote {}: {} at level {level}",
                output.display(),
                counts.join(", ")
            )?;
        }
        What::Tightness {
            image,
            output,
            size,
        } => {
            render::tightness_of(&image, size, &output)?;
            writeln!(std::io::stdout(), "wrote {}", output.display())?;
        }
        What::Contacts {
            scene,
            frame,
            proxies,
            self_pairs,
            picture: Picture { view, output, size },
        } => {
            let options = render::ContactOptions {
                frame,
                proxies,
                self_pairs,
                view,
                size,
            };
            let summary = render::contacts(&scene, &options, &output)?;
            writeln!(
                std::io::stdout(),
                "wrote {}: frame {frame}, {} intersecting pairs, {} triangles highlighted{}",
                output.display(),
                summary.pairs,
                summary.highlighted,
                proxies.map_or(String::new(), |l| format!(
                    ", {} proxy pairs at depth {l}",
                    summary.proxies
                ))
            )?;
        }
    }
    Ok(())
}

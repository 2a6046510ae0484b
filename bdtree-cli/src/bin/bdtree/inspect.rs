//! `bdtree inspect`: sizes and the per-level tightness table of an image; with `--reference`,
//! the tightness cost of a compact image against the complete one.

use std::io::Write;
use std::path::PathBuf;

use bdtree_cli::report;
use bdtree_std::io::ImageBuf;
use bdtree_std::runner::inspect::{compare, fit_table, inspect};

use crate::error::CliError;
use crate::options::read_image;

#[derive(clap::Args)]
pub struct Args {
    /// The image.
    image: PathBuf,
    /// One JSON object instead of a table.
    #[arg(long, conflicts_with = "rust")]
    json: bool,
    /// Rust constants instead of a table: the image's nodes, depth, modes, vertices,
    /// triangles, bytes, and its mode storage and stack through `bdtree_core`'s `const fn`
    /// helpers, to size a controller's static storage (`bdtree inspect --rust arm.bdt >
    /// src/arm_sizes.rs`).
    #[arg(long, conflicts_with = "reference")]
    rust: bool,
    /// The constants' prefix for `--rust` (default: the file's stem in capitals, `ARM` for
    /// `arm.bdt`).
    #[arg(long, requires = "rust")]
    name: Option<String>,
    /// The complete f32 image a compact one was made from: report the tightness cost
    /// (radius growth, overlap tests per proxy query) against it.
    #[arg(long)]
    reference: Option<PathBuf>,
    /// Leave out the per-level fit table (Bradshaw's error and the volume outside the body,
    /// sampled: about a second for levels 0 to 10 of a closed mesh).
    #[arg(long)]
    no_fit: bool,
    /// Proxy queries run on each image for `--reference`.
    #[arg(long, default_value_t = 200)]
    queries: usize,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let path = &args.image;
    let (buf, header) = read_image(path)?;
    let mut inspection = match header.scalar_bytes {
        8 => inspect(&buf.parse_named::<f64>(path)?),
        _ => inspect(&buf.parse_named::<f32>(path)?),
    };
    if !args.rust && !args.no_fit {
        inspection.fit = Some(match header.scalar_bytes {
            8 => fit_table(&buf.parse_named::<f64>(path)?),
            _ => fit_table(&buf.parse_named::<f32>(path)?),
        });
    }
    let comparison = match &args.reference {
        Some(r) => {
            let rbuf = ImageBuf::read(r)?;
            let reference_image = rbuf.parse_named::<f32>(r)?;
            let image = buf.parse_named::<f32>(path)?;
            if !image.tree.is_nested() || !reference_image.tree.is_nested() {
                return Err(CliError::NotBothNested {
                    image: path.clone(),
                    reference: r.clone(),
                });
            }
            let c = compare(&buf, &rbuf, args.queries).ok_or_else(|| CliError::NotSameTree {
                image: path.clone(),
                reference: r.clone(),
            })?;
            Some((c, r))
        }
        None => None,
    };
    if args.rust {
        let prefix = match &args.name {
            Some(name) => {
                let prefix = report::constant_prefix(name);
                if prefix != *name {
                    return Err(CliError::BadConstantName {
                        name: name.clone(),
                        suggested: prefix,
                    });
                }
                prefix
            }
            None => report::constant_prefix(
                &path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            ),
        };
        let file = path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        write!(
            std::io::stdout(),
            "{}",
            report::rust_constants(&inspection, &prefix, &file)
        )?;
        return Ok(());
    }
    if args.json {
        match &comparison {
            Some((c, _)) => writeln!(
                std::io::stdout(),
                "{{\"inspection\":{},\"comparison\":{}}}",
                report::inspection_json(&inspection),
                serde_json::to_string(c).unwrap_or_default()
            )?,
            None => writeln!(
                std::io::stdout(),
                "{}",
                report::inspection_json(&inspection)
            )?,
        }
    } else {
        writeln!(
            std::io::stdout(),
            "{}",
            report::inspection_text(path, &inspection)
        )?;
        if let Some(fit) = &inspection.fit {
            writeln!(std::io::stdout(), "{}", report::fit_text(fit))?;
        }
        if let Some((c, r)) = &comparison {
            writeln!(std::io::stdout(), "{}", report::comparison_text(r, c))?;
        }
    }
    Ok(())
}

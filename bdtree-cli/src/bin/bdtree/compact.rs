//! `bdtree compact`: a compact image (quantized rows, 16-bit model, bounded depth) from a
//! complete f32 image.

use std::io::Write;
use std::path::{Path, PathBuf};

use bdtree_cli::report;
use bdtree_core::Image;
use bdtree_std::build::{compact, CompactReport};

use crate::error::{write, CliError};
use crate::options::{read_image, CompactArgs, ModelArg};

#[derive(clap::Args)]
pub struct Args {
    /// The complete f32 image.
    image: PathBuf,
    /// Where to write the compact image.
    #[arg(short, long)]
    output: PathBuf,
    #[command(flatten)]
    compact: CompactArgs,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let input = &args.image;
    let (buf, header) = read_image(input)?;
    if header.scalar_bytes != 4 {
        return Err(CliError::NotF32 {
            path: input.clone(),
            scalar_bytes: header.scalar_bytes,
        });
    }
    let full = buf.parse_named::<f32>(input)?;
    if args.compact.depth.is_some() && !full.tree.is_nested() {
        return Err(CliError::NotNested {
            path: input.clone(),
        });
    }
    let report = compact_and_write(&full, args.compact, input, &args.output)?;
    writeln!(std::io::stdout(), "{}", report::compact_summary(&report))?;
    Ok(())
}

/// Compacts `full` (read from or built for `source`) as `args` say and writes it to `output`.
pub fn compact_and_write(
    full: &Image<'_, f32>,
    args: CompactArgs,
    source: &Path,
    output: &Path,
) -> Result<CompactReport, CliError> {
    let (small, report) = compact(
        full,
        args.format.into(),
        args.depth,
        args.model == ModelArg::Q16,
    )
    .map_err(|error| CliError::Build {
        path: source.to_path_buf(),
        error,
    })?;
    write(output, small.as_bytes())?;
    writeln!(std::io::stdout(), "wrote {}", output.display())?;
    Ok(report)
}

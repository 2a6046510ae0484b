//! `bdtree boxes`: a tree image's box table (the bounds of `collide --bounds boxes15|boxes6`)
//! as a file for a device, whose C API validates it against the image
//! (`bdtree_box_table_init_*`): the table is computed in f64 here, which a device cannot do.

use std::io::Write;
use std::path::PathBuf;

use bdtree_std::build::box_file;

use crate::error::{write, CliError};
use crate::options::read_image;

#[derive(clap::Args)]
pub struct Args {
    /// The tree image (f32 or f64, complete or compact; not bounded-depth).
    image: PathBuf,
    /// Where to write the box table (format: `bdtree_std::build::box_file`, the C header's
    /// `bdtree_box_table_init_f32`).
    #[arg(short, long)]
    output: PathBuf,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let path = &args.image;
    let (buf, header) = read_image(path)?;
    let file = match header.scalar_bytes {
        8 => box_file(&buf.parse_named::<f64>(path)?),
        _ => box_file(&buf.parse_named::<f32>(path)?),
    }
    .ok_or_else(|| CliError::BoundedBoxes { path: path.clone() })?;
    write(&args.output, &file)?;
    writeln!(
        std::io::stdout(),
        "wrote {} ({} bytes: the box table of {} nodes, {} modes, {}-byte scalars)",
        args.output.display(),
        file.len(),
        header.nodes,
        header.modes,
        header.scalar_bytes
    )?;
    Ok(())
}

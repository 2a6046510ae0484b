//! `bdtree modes`: the lowest vibration modes of a closed mesh, written as a basis.

use std::io::Write;
use std::path::PathBuf;

use bdtree_std::io::{load_mesh, write_npy};
use bdtree_std::modes::{compute_modes, ModalOptions, Progress};

use crate::error::CliError;
use crate::options::progress_bar;

#[derive(clap::Args)]
pub struct Args {
    /// The closed rest mesh (OBJ, PLY, STL), in metres.
    mesh: PathBuf,
    /// How many non-rigid modes (the 6 rigid-body modes are removed).
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
    /// Lattice cells along the longest side of the bounding box.
    #[arg(long, default_value_t = 16)]
    resolution: usize,
    /// Print `{"frequencies_hz": [...], ...}` on stdout instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn exec(args: Args) -> Result<(), CliError> {
    let options = &ModalOptions {
        modes: args.k,
        young: args.young,
        poisson: args.poisson,
        density: args.density,
        resolution: args.resolution,
    };
    let (mesh_path, output, json) = (&args.mesh, &args.output, args.json);
    options.validate().map_err(CliError::ModalOptions)?;
    let mesh = load_mesh(mesh_path)?;
    let started = std::time::Instant::now();
    let bar = progress_bar(
        options.modes + 6,
        "{msg} {bar:40} {pos}/{len} converged ({elapsed})",
        "modes: voxelising",
    );
    let result = compute_modes(&mesh, options, &mut |p| match p {
        Progress::Lattice { cells, dofs } => {
            bar.set_message(format!("modes: factoring ({cells} cells, {dofs} dofs)"));
        }
        Progress::Factored => bar.set_message("modes: iterating"),
        Progress::Iteration {
            iteration,
            converged,
            ..
        } => {
            bar.set_position(converged as u64);
            bar.set_message(format!("modes: iteration {iteration}"));
        }
    });
    bar.finish_and_clear();
    let modes = result.map_err(|error| CliError::Modes {
        path: mesh_path.clone(),
        error,
    })?;
    let cannot_write = |error| CliError::Write {
        path: output.clone(),
        error,
    };
    let file = std::fs::File::create(output).map_err(cannot_write)?;
    let mut writer = std::io::BufWriter::new(file);
    write_npy(&modes.basis, &mut writer)
        .and_then(|()| writer.flush())
        .map_err(cannot_write)?;
    let seconds = started.elapsed().as_secs_f64();
    let l = &modes.lattice;
    if (modes.volume_ratio - 1.0).abs() > 0.2 {
        eprintln!(
            "warning: {}: the lattice holds {:.0} % of the mesh volume; thin parts are not \
             resolved, so the frequencies are unreliable: raise --resolution",
            mesh_path.display(),
            100.0 * modes.volume_ratio
        );
    }
    if json {
        let value = serde_json::json!({
            "frequencies_hz": modes.frequencies_hz,
            "eigenvalues": modes.eigenvalues,
            "rigid_eigenvalues": modes.rigid_eigenvalues,
            "vertices": modes.basis.vertices,
            "cells": l.cells,
            "spacing": l.spacing,
            "solid_cells": l.solid_cells,
            "dofs": l.dofs,
            "iterations": modes.iterations,
            "max_residual": modes.max_residual,
            "max_embedding_gap": modes.max_embedding_gap,
            "volume_ratio": modes.volume_ratio,
            "seconds": seconds,
        });
        println!("{value}");
        return Ok(());
    }
    println!(
        "wrote {} ({} × {})",
        output.display(),
        3 * modes.basis.vertices,
        modes.basis.modes
    );
    println!(
        "  lattice {}×{}×{} cells of {:.4} m: {} solid ({} dropped, {} settled by winding number), {} dofs",
        l.cells[0], l.cells[1], l.cells[2], l.spacing, l.solid_cells, l.dropped_cells, l.undecided_cells, l.dofs
    );
    println!(
        "  lattice/mesh volume {:.3}, largest embedding gap {:.2e} m",
        modes.volume_ratio, modes.max_embedding_gap
    );
    println!(
        "  {} iterations, largest residual {:.1e}, {:.2} s",
        modes.iterations, modes.max_residual, seconds
    );
    println!("  {:>4} {:>14}", "mode", "frequency (Hz)");
    for (j, f) in modes.frequencies_hz.iter().enumerate() {
        println!("  {j:>4} {f:>14.6}");
    }
    Ok(())
}

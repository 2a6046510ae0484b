//! What `bdtree modes` reports: what was computed, on what lattice, as a table or as JSON, and
//! the warnings a result that may mislead needs.

use super::options::{Chosen, Modes, CELLS_ACROSS, MIN_RESOLUTION};
use super::units::{LengthUnit, Normalization};
use std::path::Path;

/// What the user should know about a result that may mislead.
pub fn warnings(modes: &Modes) -> Vec<String> {
    let l = &modes.lattice;
    let mut out = Vec::new();
    if let (Chosen::Given, Some(w), Some(across)) = (l.chosen, l.thinnest, l.cells_across) {
        if across < CELLS_ACROSS - 1e-9 {
            out.push(format!(
                "at resolution {} the thinnest wall ({}) has {across:.1} cells across it: it \
                 comes out too stiff in bending, so its frequencies are high; without \
                 --resolution the lattice puts {CELLS_ACROSS} across it",
                l.resolution,
                super::units::length(w.thickness, modes.units)
            ));
        }
    }
    if l.dropped_cells > 0 {
        out.push(format!(
            "{} cells not face-connected to the main body were dropped (separate parts, or \
             parts joined only along an edge or at a corner); their vertices follow the \
             nearest kept cell, up to {} away",
            l.dropped_cells,
            super::units::length(modes.max_embedding_gap, modes.units)
        ));
    }
    if (modes.volume_ratio - 1.0).abs() > 0.05 {
        out.push(format!(
            "the lattice holds {:.1} % of the mesh volume, so the frequencies are unreliable",
            100.0 * modes.volume_ratio
        ));
    }
    out
}

/// How the resolution was chosen, in words.
fn chosen_text(modes: &Modes) -> String {
    let l = &modes.lattice;
    let wall = l
        .thinnest
        .map(|w| super::units::length(w.thickness, modes.units))
        .unwrap_or_else(|| "unmeasured".into());
    let across = l.cells_across.map_or(String::new(), |a| format!("{a:.1}"));
    match l.chosen {
        Chosen::Given => format!("given; {across} cells across the thinnest wall ({wall})"),
        Chosen::Thickness => {
            format!("chosen to put {across} cells across the thinnest wall ({wall} thick)")
        }
        Chosen::Minimum => format!(
            "the minimum of {}, which puts {across} cells across the thinnest wall ({wall})",
            MIN_RESOLUTION
        ),
    }
}

/// The report as a JSON object.
pub fn json(modes: &Modes, seconds: f64) -> serde_json::Value {
    let l = &modes.lattice;
    let chosen = match l.chosen {
        Chosen::Given => "given",
        Chosen::Thickness => "thickness",
        Chosen::Minimum => "minimum",
    };
    let wall = l.thinnest.map(|w| {
        serde_json::json!({
            "thickness": w.thickness,
            "lo": w.lo,
            "hi": w.hi,
            "area": w.area,
        })
    });
    serde_json::json!({
        "frequencies_hz": modes.frequencies_hz,
        "eigenvalues": modes.eigenvalues,
        "modal_masses": modes.modal_masses,
        "modal_stiffnesses": modes.modal_stiffnesses,
        "units": modes.units.symbol(),
        "unit_metres": modes.units.metres(),
        "normalization": modes.normalization.name(),
        "rigid_eigenvalues": modes.rigid_eigenvalues,
        "vertices": modes.basis.vertices,
        "held_vertices": modes.held_vertices,
        "resolution": l.resolution,
        "resolution_chosen_by": chosen,
        "thinnest_wall": wall,
        "cells_across": l.cells_across,
        "cells": l.cells,
        "spacing": l.spacing,
        "solid_cells": l.solid_cells,
        "cut_cells": l.cut_cells,
        "dropped_cells": l.dropped_cells,
        "held_nodes": l.held_nodes,
        "dofs": l.dofs,
        "factor_entries": l.factor_entries,
        "lattice_volume": l.volume,
        "mesh_volume": modes.mesh_volume,
        "volume_ratio": modes.volume_ratio,
        "iterations": modes.iterations,
        "max_residual": modes.max_residual,
        "max_embedding_gap": modes.max_embedding_gap,
        "seconds": seconds,
    })
}

/// The report as text: the output, the lattice and how it was chosen, volumes, supports, the
/// solve, and the frequency table.
pub fn table(modes: &Modes, output: &Path, seconds: f64) -> String {
    let l = &modes.lattice;
    let mut s = String::new();
    s += &format!(
        "wrote {} ({} × {})\n",
        output.display(),
        3 * modes.basis.vertices,
        modes.basis.modes
    );
    s += &format!(
        "  lattice: resolution {} along the longest side ({}): cells of {}, grid {}×{}×{}\n",
        l.resolution,
        chosen_text(modes),
        super::options::sides(l.spacing, modes.units),
        l.cells[0],
        l.cells[1],
        l.cells[2]
    );
    s += &format!(
        "  {} solid cells ({} cut by the surface, {} dropped, {} settled by winding number), \
         {} degrees of freedom\n",
        l.solid_cells, l.cut_cells, l.dropped_cells, l.undecided_cells, l.dofs
    );
    let unit = modes.units.symbol();
    s += &format!(
        "  volume: lattice {:.6e} {unit}³, mesh {:.6e} {unit}³ (ratio {:.4}); largest embedding \
         gap {:.2e} {unit}\n",
        l.volume, modes.mesh_volume, modes.volume_ratio, modes.max_embedding_gap
    );
    if modes.held_vertices > 0 {
        s += &format!(
            "  held: {} mesh vertices, {} lattice nodes (no rigid-body modes)\n",
            modes.held_vertices, l.held_nodes
        );
    } else {
        s += "  free: the 6 rigid-body modes are removed\n";
    }
    s += &format!(
        "  {} iterations, largest residual {:.1e}, {:.2} s\n",
        modes.iterations, modes.max_residual, seconds
    );
    let (mass, stiffness) = match (modes.units, modes.normalization) {
        (_, Normalization::Mass) => ("1".to_string(), "s⁻²".to_string()),
        (LengthUnit::Metre, _) => ("kg".to_string(), "N/m".to_string()),
        (u, _) => (format!("N·s²/{u}"), format!("N/{u}")),
    };
    s += &format!(
        "  modes scaled to {} (q in {unit}); modal mass m and stiffness k = m ω² for \
         m q̈ + k q = Uᵀ F (F in N)\n",
        match modes.normalization {
            Normalization::Peak => "a peak displacement of 1",
            Normalization::Mass => "unit modal mass",
        }
    );
    s += &format!(
        "  {:>4} {:>14} {:>16} {:>16}\n",
        "mode",
        "frequency (Hz)",
        format!("mass ({mass})"),
        format!("stiffness ({stiffness})")
    );
    for (j, f) in modes.frequencies_hz.iter().enumerate() {
        let m = modes.modal_masses.get(j).copied().unwrap_or(f64::NAN);
        let k = modes.modal_stiffnesses.get(j).copied().unwrap_or(f64::NAN);
        s += &format!("  {j:>4} {f:>14.6} {m:>16.6e} {k:>16.6e}\n");
    }
    s
}

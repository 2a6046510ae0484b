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

/// Longest side of a mesh's bounding box (in its unit) above which a metal or rubber body
/// given in metres is suspicious: 10 units.
pub const SUSPICIOUS_EXTENT: f64 = 10.0;

/// The warning for a mesh analysed in metres that is probably in another unit (issue 50: a
/// 100-unit millimetre part read as metres gave 0.0212 Hz and 4.8·10¹⁰ kg, silently): its
/// bounding box's longest side `extent` (in mesh units) is over [`SUSPICIOUS_EXTENT`] and its
/// material is rubber-like (Young's modulus 10⁵–10⁸ Pa, density 800–2,000 kg/m³, the defaults
/// among them) or metal-like (4·10¹⁰–10¹² Pa, 1,500–23,000 kg/m³). `None` otherwise. The caller
/// asks only when no unit was given.
pub fn unit_warning(extent: f64, young: f64, density: f64) -> Option<String> {
    let rubber = (1e5..=1e8).contains(&young) && (800.0..=2000.0).contains(&density);
    let metal = (4e10..=1e12).contains(&young) && (1500.0..=23000.0).contains(&density);
    // A NaN extent (no vertices) is not over the limit.
    if extent.is_nan() || extent <= SUSPICIOUS_EXTENT || !(rubber || metal) {
        return None;
    }
    let material = if rubber { "rubber" } else { "metal" };
    Some(format!(
        "the mesh is {extent:.4} long, read as metres (no --units): a {material} body \
         {extent:.1} m long? If its coordinates are millimetres (most CAD exports), pass \
         --units mm (or cm, um, in); the frequencies and masses below assume metres"
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_millimetre_part_read_as_metres_is_warned_about_issue_50() {
        // The defaults (1 MPa, 1000 kg/m³: rubber) on a 100-unit part.
        let w = unit_warning(100.0, 1e6, 1000.0).expect("a warning");
        assert!(w.contains("--units mm") && w.contains("rubber"), "{w}");
        // Steel, 250 units long.
        let w = unit_warning(250.0, 2.1e11, 7850.0).expect("a warning");
        assert!(w.contains("metal"), "{w}");
        // A 2 m rubber part, a 10 m one (not over), a 50 m concrete body: no warning.
        assert_eq!(unit_warning(2.0, 1e6, 1000.0), None);
        assert_eq!(unit_warning(10.0, 1e6, 1000.0), None);
        assert_eq!(unit_warning(50.0, 3e10, 2400.0), None);
    }
}

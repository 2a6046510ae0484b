//! The lines `bdtree` prints: build and compaction summaries, one line (text or JSON) per
//! scene frame, interrupted-query tables, inspections (text, JSON, Rust constants). The answers
//! they print are the scene runner's (`bdtree_std::runner`); this room only formats them, so
//! the binary's files stay glue.
//!
//! Multi-line texts end without a newline (print them with `println!`).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use bdtree_core::Order;

use bdtree_std::build::{BuildOptions, BuildReport, CompactReport};
use bdtree_std::host::Wrench;
use bdtree_std::io::Scene;
use bdtree_std::runner::inspect::{self, Inspection};
use bdtree_std::runner::{
    BudgetRow, Comparison, ContactData, FrameAnswer, FrameResult, NearContact, PairCloser,
    PairDistance, SweptContact,
};

/// The summary of a build: counts, sizes, the two sphere fits, the mean radius growth.
pub fn build_summary(
    report: &BuildReport,
    triangles: usize,
    vertices: usize,
    options: &BuildOptions,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  {triangles} triangles, {vertices} vertices, {} modes, {:?}",
        report.modes, options.precision
    );
    let _ = writeln!(
        out,
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
    let (small, large) = (
        report.mean_radius_welzl.min(report.mean_radius_box),
        report.mean_radius_welzl.max(report.mean_radius_box),
    );
    let _ = write!(
        out,
        "  mean rest radius: Welzl {:.6}, box-center {:.6} → {tighter} is tighter ({:.1} %; Welzl smaller at {} of {} nodes)",
        report.mean_radius_welzl,
        report.mean_radius_box,
        100.0 * (1.0 - small / large),
        report.welzl_smaller,
        report.nodes
    );
    if report.modes > 0 {
        let _ = write!(
            out,
            "\n  mean radius growth ‖ΔR‖₂ over nodes: {:.6} (mode centers {:?}, grouping {:?})",
            report.mean_growth, options.mode_center, options.grouping
        );
    }
    out
}

/// The summary of a compaction: rows, size, the 16-bit model's errors, the growth cost.
pub fn compact_summary(report: &CompactReport) -> String {
    let mut out = format!(
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
        let _ = write!(
            out,
            "\n  16-bit mesh and basis: largest code error {e_p:.3e} (positions), {e_u:.3e} (basis), folded into R and ΔR"
        );
    }
    if report.modes > 0 {
        let _ = write!(
            out,
            "\n  mean radius growth ‖ΔR‖₂ over the stored nodes: {:.6} (f32 source {:.6}, ×{:.3})",
            report.mean_growth,
            report.mean_growth_source,
            report.mean_growth / report.mean_growth_source.max(1e-300)
        );
    }
    out
}

/// One frame of `bdtree collide --json`: the pairs (body names, triangles) and the counters.
pub fn collide_frame_json(
    scene: &Scene,
    f: usize,
    frame: &FrameResult,
    ms: f64,
    check: Option<&Comparison>,
) -> String {
    collide_frame_value(scene, f, frame, ms, check).to_string()
}

/// One frame of `bdtree collide --swept --json`: the object of [`collide_frame_json`] for the
/// motion from frame `f − 1` to frame `f`, with `"swept": true` and `"times"`, each pair's
/// conservative earliest time of impact in `[0, 1]` (in the order of `"pairs"`).
pub fn swept_frame_json(
    scene: &Scene,
    answer: &FrameAnswer<SweptContact>,
    ms: f64,
    check: Option<&Comparison>,
) -> String {
    let mut value = collide_frame_value(scene, answer.frame, &answer.result, ms, check);
    value["swept"] = serde_json::json!(true);
    value["times"] = answer.items.iter().map(|c| c.time).collect();
    value.to_string()
}

/// One frame of `bdtree collide --contacts --json`: the object of [`collide_frame_json`] with
/// `"contacts"`, per pair (in the order of `"pairs"`) the pair, a point of the intersection,
/// the unit normal from the first body's triangle to the second's and the penetration depth;
/// with `wrenches` (`--stiffness`), `"wrenches"`: per mesh body its name, `"force"`,
/// `"torque"` (about its translation) and `"q"` (the generalized force on its coordinates).
pub fn contacts_frame_json(
    scene: &Scene,
    answer: &FrameAnswer<ContactData>,
    wrenches: Option<&[Wrench]>,
    ms: f64,
    check: Option<&Comparison>,
) -> String {
    let name = |b: usize| scene.name(b).to_string();
    let mut value = collide_frame_value(scene, answer.frame, &answer.result, ms, check);
    value["contacts"] = answer
        .items
        .iter()
        .map(|c| {
            let (a, b, ta, tb) = c.pair;
            serde_json::json!({
                "pair": [name(a), name(b), ta, tb],
                "point": c.point,
                "normal": c.normal,
                "depth": c.depth,
            })
        })
        .collect();
    if let Some(wrenches) = wrenches {
        value["wrenches"] = wrenches
            .iter()
            .enumerate()
            .map(|(b, w)| {
                serde_json::json!({
                    "body": name(b),
                    "force": w.force,
                    "torque": w.torque,
                    "q": w.q,
                })
            })
            .collect();
    }
    value.to_string()
}

/// One frame of `bdtree distance --within D` (text or JSON): every triangle pair closer than
/// `D` with its distance and witness points; with `worst`, the largest difference of a
/// reported distance from the brute force and the pairs the brute force finds but not the
/// kernel.
pub fn within_frame_line(
    scene: &Scene,
    answer: &FrameAnswer<NearContact>,
    distance: f64,
    check: Option<(f64, usize)>,
    json: bool,
) -> String {
    let name = |b: usize| scene.name(b).to_string();
    if json {
        let near: Vec<serde_json::Value> = answer
            .items
            .iter()
            .map(|c| {
                let (a, b, ta, tb) = c.pair;
                serde_json::json!({
                    "pair": [name(a), name(b), ta, tb],
                    "distance": c.distance,
                    "point_a": c.points[0],
                    "point_b": c.points[1],
                })
            })
            .collect();
        let mut v = serde_json::json!({
            "frame": answer.frame,
            "within": distance,
            "near": near,
            "stats": { "pairs": answer.items.len(), "complete": answer.result.complete },
        });
        if let Some((worst, missed)) = check {
            v["check"] = serde_json::json!({ "largest_difference": worst, "missed": missed });
        }
        return v.to_string();
    }
    let nearest = answer
        .items
        .iter()
        .map(|c| c.distance)
        .fold(f64::INFINITY, f64::min);
    let mut line = format!(
        "frame {:>3}: {:>5} triangle pairs within {distance} (nearest {nearest:.6})",
        answer.frame,
        answer.items.len()
    );
    if let Some((worst, missed)) = check {
        let _ = write!(
            line,
            "  | brute force: {missed} missed, largest difference {worst:.2e}"
        );
    }
    line
}

fn collide_frame_value(
    scene: &Scene,
    f: usize,
    frame: &FrameResult,
    ms: f64,
    check: Option<&Comparison>,
) -> serde_json::Value {
    let name = |b: usize| scene.name(b).to_string();
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
    value
}

/// One frame of `bdtree collide`: pairs per body pair and the counters.
pub fn collide_frame_text(
    scene: &Scene,
    f: usize,
    frame: &FrameResult,
    check: Option<&Comparison>,
) -> String {
    let s = frame.stats;
    let mut by_bodies: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for &(a, b, _, _) in &frame.pairs {
        *by_bodies.entry((a, b)).or_default() += 1;
    }
    let summary: Vec<String> = by_bodies
        .iter()
        .map(|(&(a, b), n)| format!("{}–{}: {n}", scene.name(a), scene.name(b)))
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
        let _ = write!(
            line,
            "  | brute force: {} missed, {} extra",
            c.missed.len(),
            c.extra.len()
        );
    }
    line
}

/// One frame of `bdtree collide --depth L --json`: the proxy pairs with their spheres.
pub fn proxy_frame_json(
    scene: &Scene,
    f: usize,
    depth: u32,
    frame: &FrameResult,
    ms: f64,
    uncovered: Option<usize>,
) -> String {
    let name = |b: usize| scene.name(b).to_string();
    let s = frame.stats;
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
    let primitive_proxies: Vec<serde_json::Value> = frame
        .primitive_proxies
        .iter()
        .map(|p| {
            serde_json::json!({
                "bodies": [name(p.bodies.0), name(p.bodies.1)],
                "node": p.node,
                "sphere": p.sphere,
                "depth": p.depth,
            })
        })
        .collect();
    let mut value = serde_json::json!({
        "frame": f,
        "proxy_depth": depth,
        "proxies": proxies,
        "primitive_proxies": primitive_proxies,
        "stats": {
            "proxies": frame.proxies.len(),
            "primitive_proxies": frame.primitive_proxies.len(),
            "nodes_visited": s.nodes_visited,
            "sphere_updates": s.sphere_updates,
            "overlap_tests": s.overlap_tests,
            "complete": frame.complete,
            "query_ms": ms,
        }
    });
    if let Some(m) = uncovered {
        value["check"] = serde_json::json!({ "uncovered": m });
    }
    value.to_string()
}

/// One frame of `bdtree collide --depth L`: proxy pairs, deepest penetration, counters.
pub fn proxy_frame_text(f: usize, frame: &FrameResult, uncovered: Option<usize>) -> String {
    let s = frame.stats;
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
    if !frame.primitive_proxies.is_empty() {
        let _ = write!(
            line,
            ", {} proxies reaching into primitives",
            frame.primitive_proxies.len()
        );
    }
    if let Some(m) = uncovered {
        let _ = write!(line, "  | brute-force contacts not under a proxy pair: {m}");
    }
    line
}

/// One body pair of one frame of `bdtree distance` (text or JSON), with the brute-force
/// distance when checked.
pub fn distance_line(
    scene: &Scene,
    f: usize,
    d: &PairDistance,
    truth: Option<f64>,
    json: bool,
) -> String {
    let (a, b) = d.bodies;
    if json {
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
        return v.to_string();
    }
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
}

/// The name of a pending-pair order in `bdtree interrupt` output.
pub fn order_name(order: Order) -> &'static str {
    match order {
        Order::BreadthFirst => "Breadth",
        Order::DeepestFirst => "Deepest",
        Order::LargestFirst => "Largest",
    }
}

/// The two header lines of one order's `bdtree interrupt` table.
pub fn budget_header(path: &Path, order: Order, rows: &[BudgetRow]) -> String {
    format!(
        "{}: order {}, {} queries per budget (frames × body pairs)\n  {:>7} {:>9} {:>12} {:>11} {:>14} {:>11} {:>13}",
        path.display(),
        order_name(order),
        rows.first().map_or(0, |r| r.queries),
        "budget",
        "finished",
        "pending avg",
        "pending max",
        "confirmed avg",
        "true found",
        "cover pairs"
    )
}

/// One budget of `bdtree interrupt` (text or JSON).
pub fn budget_line(order: Order, r: &BudgetRow, json: bool) -> String {
    if json {
        return serde_json::json!({
            "order": order_name(order).to_lowercase(),
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
        .to_string();
    }
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
}

/// `bdtree inspect`'s table: format, counts, sizes, per-level tightness and box bounds.
pub fn inspection_text(path: &Path, i: &Inspection) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
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
    let _ = writeln!(
        out,
        "  {} triangles, {} vertices, {} modes",
        i.triangles, i.vertices, i.modes
    );
    if let Some(line) = i.degenerate.summary() {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(
        out,
        "  {} nodes, depth {}{}",
        i.nodes,
        i.depth,
        if i.nested {
            ", nested (proxy queries allowed)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "  {} bytes: tree {} ({:.1} bytes/node), model {}; mean ‖ΔR‖₂ {:.6}",
        i.bytes, i.tree_bytes, i.tree_bytes_per_node, i.model_bytes, i.mean_growth
    );
    let _ = writeln!(
        out,
        "  swept front: share {} entries ({} × nodes); a pair's storage 2 × (both shares) \
         entries of {} bytes (a guide from contact in small patches, fronts of 0.8–3.9 × both \
         trees' nodes; large contact areas reached 35 ×; too small only walks from the root)",
        i.swept_front_share,
        inspect::SWEPT_FRONT_PER_NODE,
        i.swept_front_entry_bytes
    );
    let _ = writeln!(
        out,
        "  tightness (per level; ‖ΔR‖ = Euclidean norm over modes, normalised to the root's):"
    );
    let _ = write!(
        out,
        "  {:>5} {:>8} {:>14} {:>14} {:>12}",
        "level", "nodes", "mean radius", "mean ‖ΔR‖", "‖ΔR‖/root"
    );
    for l in &i.levels {
        let _ = write!(
            out,
            "\n  {:>5} {:>8} {:>14.6} {:>14.6} {:>12.4}",
            l.level, l.nodes, l.mean_radius, l.mean_growth, l.relative_growth
        );
    }
    if i.encoding != "float" || i.bounded {
        // Box bounds are computed from scalar rows and the mesh.
        return out;
    }
    let _ = write!(
        out,
        "\n  box bounds (per level; largest half-extent H, ‖ΔH‖ = Frobenius over modes and axes, \
         rest box volume / rest sphere volume):"
    );
    let _ = write!(
        out,
        "\n  {:>5} {:>8} {:>14} {:>14} {:>12}",
        "level", "nodes", "mean max H", "mean ‖ΔH‖", "box/sphere"
    );
    for l in &i.levels {
        let _ = write!(
            out,
            "\n  {:>5} {:>8} {:>14.6} {:>14.6} {:>12.3}",
            l.level, l.nodes, l.mean_half_extent, l.mean_box_growth, l.box_to_sphere_volume
        );
    }
    out
}

/// The per-level fit table of `bdtree inspect` ([`inspect::FitTable`]).
pub fn fit_text(f: &inspect::FitTable) -> String {
    let mut out = String::from(
        "  fit to the body (per level, sampled: Bradshaw's error = largest distance from a \
         sphere's outside part to the surface, / bbox diagonal; outside = Σ sphere volume \
         outside the body / body volume):",
    );
    if let Some(note) = &f.note {
        let _ = write!(out, " {note}");
        return out;
    }
    let _ = write!(
        out,
        "\n  {:>5} {:>8} {:>12} {:>12} {:>10}",
        "level", "spheres", "mean error", "max error", "outside"
    );
    for r in &f.rows {
        let _ = write!(
            out,
            "\n  {:>5} {:>8} {:>12.5} {:>12.5} {:>10.4}",
            r.level, r.spheres, r.mean_error, r.max_error, r.outside
        );
    }
    out
}

/// The tightness cost of a compact image against its reference (`bdtree inspect --reference`).
pub fn comparison_text(reference: &Path, c: &inspect::Comparison) -> String {
    format!(
        "  against {} ({} queries, proxy depth {}):\n    size ×{:.4}; mean ‖ΔR‖₂ (levels ≤ {}) {:.6} vs {:.6} (×{:.3})\n    overlap tests per query {:.1} vs {:.1} (×{:.3}); proxy pairs per query {:.1} vs {:.1}",
        reference.display(),
        c.queries,
        c.proxy_depth,
        c.bytes_ratio,
        c.proxy_depth,
        c.mean_growth,
        c.reference_mean_growth,
        c.mean_growth / c.reference_mean_growth.max(1e-300),
        c.overlap_tests,
        c.reference_overlap_tests,
        c.test_ratio(),
        c.proxy_pairs,
        c.reference_proxy_pairs
    )
}

/// What `bdtree inspect --json` prints: the inspection as one JSON object.
pub fn inspection_json(i: &Inspection) -> String {
    serde_json::to_string(i).unwrap_or_default()
}

/// The sizes of an inspected image as Rust constants for a controller's storage (`bdtree inspect
/// --rust`), each named `{prefix}_…` (`prefix` made of ASCII capitals, digits and `_`,
/// [`constant_prefix`]); `file` is named in the heading comment. The depth's and modes'
/// constants feed `bdtree_core`'s `const fn` capacity helpers, which the last two
/// constants call.
pub fn rust_constants(i: &Inspection, prefix: &str, file: &str) -> String {
    let kind = match (i.bounded, i.nested) {
        (true, _) => "bounded depth (proxy queries only)",
        (false, true) => "complete, nested",
        (false, false) => "complete",
    };
    let mut out = format!(
        "// Sizes of the tree image `{file}` (`bdtree inspect --rust`): {scalar}, {encoding} \
         rows, {kind}.\n\
         // Give the image's `Body` a sphere cache of `{p}_NODES` `CacheEntry<{scalar}>` and \
         `{p}_MODE_STORAGE` scalars of mode storage.\n",
        scalar = i.scalar,
        encoding = i.encoding,
        p = prefix,
    );
    let mut line = |doc: &str, name: &str, ty: &str, value: String| {
        out.push_str(&format!(
            "/// {doc}\npub const {prefix}_{name}: {ty} = {value};\n"
        ));
    };
    line(
        "Nodes: the sphere cache's entries.",
        "NODES",
        "usize",
        i.nodes.to_string(),
    );
    line(
        "Depth of the deepest node (stack sizes).",
        "DEPTH",
        "u32",
        i.depth.to_string(),
    );
    line(
        "Modes: the length of `q`.",
        "MODES",
        "usize",
        i.modes.to_string(),
    );
    line(
        "Vertices: the optional vertex cache's entries (0 for a bounded-depth image).",
        "VERTICES",
        "usize",
        i.vertices.to_string(),
    );
    line(
        "Triangles (indices reported by the queries are below it).",
        "TRIANGLES",
        "usize",
        i.triangles.to_string(),
    );
    line(
        "Bytes of the image (flash).",
        "IMAGE_BYTES",
        "usize",
        i.bytes.to_string(),
    );
    line(
        "Scalars of mode storage (`q` and the update's weights).",
        "MODE_STORAGE",
        "usize",
        format!("bdtree_core::mode_storage({prefix}_MODES)"),
    );
    line(
        "Stack entries for every query of this tree against one no deeper, and its own \
         self-collision.",
        "STACK",
        "usize",
        format!("bdtree_core::query_stack_capacity({prefix}_DEPTH, {prefix}_DEPTH)"),
    );
    out
}

/// A constant prefix from a file name: its stem in ASCII capitals, every other character `_`,
/// `_` first if it would start with a digit (`arm-v2.bdt` → `ARM_V2`; `2dof.bdt` → `_2DOF`).
pub fn constant_prefix(stem: &str) -> String {
    let mut p: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if p.is_empty() || p.starts_with(|c: char| c.is_ascii_digit()) {
        p.insert(0, '_');
    }
    p
}

/// One body pair of one frame of `bdtree distance --closer-than D` (text or JSON), with the
/// brute-force distance when checked.
pub fn closer_line(
    scene: &Scene,
    f: usize,
    p: &PairCloser,
    distance: f64,
    truth: Option<f64>,
    json: bool,
) -> String {
    let (a, b) = p.bodies;
    let (na, nb) = (&scene.bodies[a].name, &scene.bodies[b].name);
    if json {
        let mut v = serde_json::json!({
            "frame": f,
            "bodies": [na, nb],
            "closer_than": distance,
            "closer": p.witness.is_some(),
        });
        if let Some(w) = p.witness {
            v["witness"] = serde_json::json!({
                "triangles": w.triangles,
                "distance": w.distance,
            });
        }
        if let Some(t) = truth {
            v["check"] = serde_json::json!({ "brute_force": t });
        }
        return v.to_string();
    }
    let mut line = match p.witness {
        Some(w) => format!(
            "frame {f:>3}: {na}–{nb}: closer than {distance} (triangles {}, {} at {:.6})",
            w.triangles[0], w.triangles[1], w.distance
        ),
        None => format!("frame {f:>3}: {na}–{nb}: not closer than {distance}"),
    };
    if let Some(t) = truth {
        let _ = write!(line, "  | brute force {t:.6}");
    }
    line
}

//! A body's deformed mesh and its deformed spheres at one tree level, coloured by radius
//! growth (the BD-Tree paper's Figs. 4 and 6).

use std::path::Path;

use bdtree_core::{Image, Scalar};

use super::picture::{fmt_list, Circ, ColorBar, Picture};
use super::picture::{Format, View};
use crate::view::error::RenderError;
use bdtree_std::export::growth_color;
use bdtree_std::host::{level_cut, Body, Tree};
use bdtree_std::io::ImageBuf;
use bdtree_std::vec3::{dot, sub};

/// Options of [`spheres`].
#[derive(Debug, Clone, PartialEq)]
pub struct SphereOptions {
    /// The tree level (depth; the root is 0). Drawn are the nodes at this depth and the leaves
    /// above it: the cut of the tree at this level, which covers the whole mesh.
    pub level: u32,
    /// The reduced coordinates; `None` for the default [`default_q`].
    pub q: Option<Vec<f64>>,
    /// The direction of view.
    pub view: View,
    /// Picture size in pixels.
    pub size: (u32, u32),
}

impl Default for SphereOptions {
    fn default() -> Self {
        Self {
            level: 3,
            q: None,
            view: View::Iso,
            size: (1000, 800),
        }
    }
}

/// The fraction of the root's rest radius that the largest vertex displacement reaches under
/// the default `q` (see [`default_q`]).
pub const DEFAULT_DISPLACEMENT: f64 = 0.1;

/// What [`spheres`] drew, for captions and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct SphereSummary {
    /// The `q` used.
    pub q: Vec<f64>,
    /// The nodes drawn (the cut at the level), in tree order.
    pub nodes: Vec<u32>,
    /// `r(q) / r_rest` of each drawn node, in the order of `nodes`.
    pub growth: Vec<f64>,
}

/// The default `q` of an image: every mode at the same amplitude `a`, with `a` chosen so that
/// the largest vertex displacement `max_i ‖U_i q‖` is [`DEFAULT_DISPLACEMENT`] (10 %) of the
/// root's rest radius. Empty for a rigid image.
pub fn default_q<S: Scalar>(image: &Image<'_, S>) -> Vec<f64> {
    let m = image.tree.modes();
    if m == 0 {
        return Vec::new();
    }
    let ones = vec![S::ONE; m];
    let mut largest = 0.0f64;
    for i in 0..image.model.vertex_count() {
        if let (Some(x), Some(p)) = (image.model.deformed(i, &ones), image.model.position(i)) {
            let d = sub(x.map(S::to_f64), p.map(S::to_f64));
            largest = largest.max(dot(d, d).sqrt());
        }
    }
    let root = image.tree.rest_sphere(0).map_or(1.0, |s| s[3].to_f64());
    let a = if largest > 0.0 {
        DEFAULT_DISPLACEMENT * root / largest
    } else {
        0.0
    };
    vec![a; m]
}

/// One tree's part of a picture: its deformed triangles and spheres at the level.
struct Part {
    name: String,
    triangles: Vec<[[f64; 3]; 3]>,
    /// World sphere and `r(q) / r_rest`.
    spheres: Vec<([f64; 4], f64)>,
    nodes: Vec<u32>,
    q: Vec<f64>,
    default: bool,
    modes: usize,
}

fn gather<S: Scalar>(
    image: &Image<'_, S>,
    tree_image: &ImageBuf,
    name: &str,
    options: &SphereOptions,
    path: &Path,
) -> Result<Part, RenderError> {
    let tree = &image.tree;
    let m = tree.modes();
    let (q, default) = match &options.q {
        Some(q) => (q.clone(), false),
        None => (default_q(image), true),
    };
    if q.len() != m {
        return Err(RenderError::new(
            path,
            format!(
                "the image has {m} mode{} but q has {} entr{}",
                if m == 1 { "" } else { "s" },
                q.len(),
                if q.len() == 1 { "y" } else { "ies" }
            ),
        ));
    }
    if let Some(bad) = q.iter().find(|x| !x.is_finite()) {
        return Err(RenderError::new(
            path,
            format!("q holds a non-finite value ({bad})"),
        ));
    }
    if options.level > tree.depth() {
        return Err(RenderError::new(
            path,
            format!(
                "level {} does not exist (the tree's depth is {})",
                options.level,
                tree.depth()
            ),
        ));
    }
    // The image's own spheres (no vertex cache: a leaf's is not its triangle's) at the state
    // rounded to the image's scalar at the identity pose, as the kernel computes them.
    let body_error = |e: bdtree_std::host::HostError| RenderError::new(path, e.to_string());
    let host_tree = Tree::new(tree_image.clone()).map_err(body_error)?;
    let mut body = Body::without_vertex_cache(&host_tree).map_err(body_error)?;
    body.set_state([1.0, 0.0, 0.0, 0.0], [0.0; 3], &q)
        .map_err(body_error)?;
    Ok(Part {
        name: name.to_string(),
        triangles: body.device_triangles().map_err(body_error)?,
        spheres: body
            .device_level_spheres(options.level)
            .map_err(body_error)?,
        nodes: level_cut(tree, options.level),
        q,
        default,
        modes: m,
    })
}

/// The picture of one or more trees' parts, side by side from left to right (each moved
/// sideways by 1.15 times the first part's width), with one colour scale.
fn sphere_picture(parts: &[Part], options: &SphereOptions) -> Picture {
    let view = options.view;
    let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
    let title = format!(
        "{}: spheres at level {} under q, coloured by r(q) / r_rest",
        names.join(" | "),
        options.level
    );
    let mut pic = Picture::new(options.size, title);
    let right = view.axes()[0];
    let width = parts.first().map_or(0.0, |p| {
        let xs = p.triangles.iter().flatten().map(|&v| view.project(v).0[0]);
        let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
        if hi > lo {
            hi - lo
        } else {
            0.0
        }
    });
    let shift = |i: usize, p: [f64; 3]| {
        let d = 1.15 * width * i as f64;
        [
            p[0] + d * right[0],
            p[1] + d * right[1],
            p[2] + d * right[2],
        ]
    };
    for (i, part) in parts.iter().enumerate() {
        for tri in &part.triangles {
            pic.triangle(view, tri.map(|v| shift(i, v)), (236, 236, 240), 0.72, false);
        }
    }
    let mut sorted: Vec<f64> = parts
        .iter()
        .flat_map(|p| p.spheres.iter().map(|s| s.1))
        .collect();
    sorted.sort_by(f64::total_cmp);
    let (lo, hi) = (
        sorted.first().copied().unwrap_or(1.0),
        sorted.last().copied().unwrap_or(1.0),
    );
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(1.0);
    let (bar_lo, bar_hi) = if hi - lo > 1e-9 {
        (lo, hi)
    } else {
        (lo - 0.001, hi + 0.001)
    };
    // Back spheres (center behind the median depth) faded and first; then largest first, so
    // small ones stay visible on top.
    let mut circles: Vec<Circ> = Vec::new();
    let mut faded_count = 0;
    for (i, part) in parts.iter().enumerate() {
        let mut depths: Vec<f64> = part
            .spheres
            .iter()
            .map(|(s, _)| view.project([s[0], s[1], s[2]]).1)
            .collect();
        depths.sort_by(f64::total_cmp);
        let middle = depths.get(depths.len() / 2).copied().unwrap_or(0.0);
        faded_count += depths.iter().filter(|&&d| d < middle).count();
        circles.extend(part.spheres.iter().map(|(s, g)| {
            let (center, depth) = view.project(shift(i, [s[0], s[1], s[2]]));
            Circ {
                center,
                radius: s[3],
                color: growth_color((g - bar_lo) / (bar_hi - bar_lo)),
                faded: depth < middle,
                width: 2,
            }
        }));
    }
    circles.sort_by(|a, b| b.faded.cmp(&a.faded).then(b.radius.total_cmp(&a.radius)));
    pic.circles = circles;
    let first = &parts[0];
    let (q, m) = (&first.q, first.modes);
    let q_text = if first.default {
        format!(
            "q = {} (default: every mode at one amplitude, largest vertex displacement {:.0} % of the root radius)",
            if m == 0 {
                "[] (rigid)".to_string()
            } else {
                format!("{:.4} × (1, …, 1)", q[0])
            },
            100.0 * DEFAULT_DISPLACEMENT
        )
    } else {
        format!("q = {}", fmt_list(q, 6))
    };
    let counts: Vec<String> = parts.iter().map(|p| p.nodes.len().to_string()).collect();
    let count = counts.join(" | ");
    pic.lines.push(format!(
        "{count} sphere{} (nodes at depth {} and shallower leaves; the {faded_count} behind the middle faded), {} modes, view {}",
        if count == "1" { "" } else { "s" },
        options.level,
        m,
        view.name()
    ));
    pic.lines.push(q_text);
    pic.lines.push(format!(
        "radius growth r(q) / r_rest: min {lo:.4}, median {median:.4}, max {hi:.4}"
    ));
    pic.colorbar = Some(ColorBar {
        min: bar_lo,
        max: bar_hi,
        label: "r(q) / r_rest".to_string(),
    });
    pic
}

fn read_part(image: &Path, options: &SphereOptions) -> Result<Part, RenderError> {
    let buf = ImageBuf::read(image)?;
    let header = buf
        .header()
        .map_err(|e| RenderError::new(image, e.to_string()))?;
    let name = image.file_name().map_or_else(
        || image.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    if header.scalar_bytes == 8 {
        let parsed = buf.parse_named::<f64>(image)?;
        gather(&parsed, &buf, &name, options, image)
    } else {
        let parsed = buf.parse_named::<f32>(image)?;
        gather(&parsed, &buf, &name, options, image)
    }
}

/// Draws the tree image `image` (a `.bdt` file): its deformed mesh (light grey) and its
/// deformed spheres at `options.level`, coloured by `r(q) / r_rest`, into `output` (`.png` or
/// `.svg`). Returns what was drawn.
pub fn spheres(
    image: &Path,
    options: &SphereOptions,
    output: &Path,
) -> Result<SphereSummary, RenderError> {
    spheres_beside(&[image], options, output).map(|mut s| s.remove(0))
}

/// Draws several tree images side by side, left to right, at one level with one colour scale
/// (two trees of one mesh, say the median and the medial tree): [`spheres`] of each, moved
/// sideways. Every image must have as many modes as `options.q` (or any, without it). Returns
/// what was drawn of each.
pub fn spheres_beside(
    images: &[&Path],
    options: &SphereOptions,
    output: &Path,
) -> Result<Vec<SphereSummary>, RenderError> {
    Format::of(output)?;
    let parts = images
        .iter()
        .map(|image| read_part(image, options))
        .collect::<Result<Vec<_>, _>>()?;
    if parts.is_empty() {
        return Err(RenderError::new(output, "no tree image to draw"));
    }
    sphere_picture(&parts, options).save(output)?;
    Ok(parts
        .into_iter()
        .map(|p| SphereSummary {
            growth: p.spheres.iter().map(|s| s.1).collect(),
            q: p.q,
            nodes: p.nodes,
        })
        .collect())
}

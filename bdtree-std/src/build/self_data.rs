//! [`with_self_data`]: an image with its self-collision culling data (the optional sections of
//! [`bdtree_core::image::FLAG_SELF`]), so the kernel culls from the image alone.

use bdtree_core::image::{Optional, Section, SelfSizes};
use bdtree_core::query::self_collision::vertex_signatures;
use bdtree_core::{mode_storage, Body, CacheEntry, Image, Scalar};

use super::certificates::self_certificates;
use super::contours::self_contours;
use super::error::BuildError;
use super::normals::{self_normals, self_spheres, NORMAL_MIN_TRIANGLES, SPHERE_MIN_TRIANGLES};
use super::writer::ImageWriter;
use crate::io::ImageBuf;

/// `image` with its self-collision culling data: per node the vertex signature
/// ([`vertex_signatures`]), the boundary loop of its patch ([`self_contours`]) and, with
/// `certificates` and when the model allows them, the tables in `q`: the subspace certificate
/// ([`self_certificates`]: none for a rigid body or a 16-bit model), and for the nodes over
/// many or a few triangles the normal bounds and affine spheres ([`self_normals`],
/// [`self_spheres`]: none for a rigid body, a 16-bit model or quantized rows) — the tables the
/// host makes for [`crate::host::self_pairs`], made once and stored. Data the image already carries is
/// replaced; every other section (the fitted spheres too) is kept byte for byte. A bounded
/// image (no mesh) is refused. Costs `8 + 4` bytes per node, 4 per loop vertex, and `12M` per
/// node with certificates (a 90-mode body: 1,080 bytes a node, which a device image may not
/// afford; without them the cones and contours still cull), and with them `8` bytes a node
/// for the two tables' indices plus their rows (about `4(10M + 3)` bytes per 8 triangles and
/// `4(10M + 8 + 3M(M + 1))` per 64).
pub fn with_self_data(image: &ImageBuf, certificates: bool) -> Result<ImageBuf, BuildError> {
    let bad = |e: String| BuildError::BadImage(e);
    let header = image.header().map_err(|e| bad(e.to_string()))?;
    match header.scalar_bytes {
        4 => add::<f32>(image, certificates),
        8 => add::<f64>(image, certificates),
        other => Err(bad(format!("unknown scalar size {other}"))),
    }
}

fn add<S: Scalar>(image: &ImageBuf, certificates: bool) -> Result<ImageBuf, BuildError> {
    let bad = |e: String| BuildError::BadImage(e);
    let view: Image<'_, S> = image.parse().map_err(|e| bad(e.to_string()))?;
    let (tree, model) = (&view.tree, &view.model);
    if tree.is_bounded() {
        return Err(bad(
            "self-collision data needs the mesh, and a bounded image has none".into(),
        ));
    }
    let n = tree.node_count();
    let mut cache = vec![CacheEntry::EMPTY; n];
    let mut modes = vec![S::ZERO; mode_storage(tree.modes())];
    let body = Body::new(&view, &mut cache, &mut modes).map_err(|e| bad(e.to_string()))?;
    let mut signatures = vec![[0u32; 2]; n];
    vertex_signatures(&body, &mut signatures)
        .ok_or_else(|| bad("the tree's links do not fit its faces".into()))?;
    let contours = self_contours(tree, model.triangles());
    let (certificates, normals, spheres) = if certificates {
        (
            self_certificates(tree, model, &contours),
            self_normals(tree, model, NORMAL_MIN_TRIANGLES),
            self_spheres(tree, model, SPHERE_MIN_TRIANGLES),
        )
    } else {
        Default::default()
    };
    let rows = (!normals.is_empty() || !spheres.is_empty()).then(|| [normals.len(), spheres.len()]);

    let header = view.header;
    let base = header.layout().ok_or(BuildError::TooLarge)?;
    let kept = base
        .with_optional(Optional {
            fitted: base.optional.fitted,
            self_cull: None,
        })
        .ok_or(BuildError::TooLarge)?;
    let layout = kept
        .with_optional(Optional {
            fitted: base.optional.fitted,
            self_cull: Some(SelfSizes {
                contour_vertices: contours.vertices.len(),
                certificates: !certificates.is_empty(),
                rows,
            }),
        })
        .ok_or(BuildError::TooLarge)?;
    let mut out = ImageWriter::with_prefix(layout, &image.as_bytes()[..kept.total]);
    let mut w = out.section(Section::Signatures);
    for s in &signatures {
        w.word(s[0]);
        w.word(s[1]);
    }
    let mut w = out.section(Section::Contours);
    for &x in contours.starts.iter().chain(&contours.vertices) {
        w.word(x);
    }
    let mut w = out.section(Section::Certificates);
    for x in &certificates {
        w.put(&x.to_le_bytes());
    }
    for (section, table) in [(Section::Normals, &normals), (Section::Spheres, &spheres)] {
        if rows.is_none() {
            break;
        }
        let mut w = out.section(section);
        // An empty table is stored as every node without a row.
        let index = if table.index.is_empty() {
            vec![bdtree_core::query::self_collision::NO_ROW; n]
        } else {
            table.index.clone()
        };
        for &i in &index {
            w.word(i);
        }
        for x in &table.rows {
            w.put(&x.to_le_bytes());
        }
    }
    let nested = header.flags & bdtree_core::image::FLAG_NESTED != 0;
    Ok(out.finish(header.depth, nested))
}

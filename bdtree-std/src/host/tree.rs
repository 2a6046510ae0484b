//! [`Tree`]: a validated tree image, owned and shared (cloning is an `Arc` clone) by every
//! [`super::Body`] over it.

use std::path::Path;
use std::sync::Arc;

use bdtree_core::image::tree::{NodeKind, TreeView};
use bdtree_core::{Header, Image, Scalar};

use super::error::HostError;
use super::owned::{static_view, TreeData};
use crate::build::{build, BuildOptions, BuildReport, Precision};
use crate::io::{Basis, ImageBuf, Mesh};

/// A validated BD-Tree image — the file `bdtree build` writes and the C API reads — in the
/// precision it was built in (f32 or f64, read from its header). Cheap to clone: clones share
/// the bytes.
///
/// ```
/// # use bdtree_std::host::Tree;
/// # use bdtree_std::build::{BuildOptions, Precision};
/// let mesh = bdtree_std::shapes::procedural::icosphere(1.0, 1);
/// let (tree, _report) = Tree::build(&mesh, None, BuildOptions::default())?;
/// assert_eq!(tree.precision(), Precision::F32);
/// # Ok::<(), bdtree_std::host::HostError>(())
/// ```
#[derive(Clone)]
pub struct Tree {
    pub(crate) data: Arc<TreeData>,
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let h = &self.data.header;
        f.debug_struct("Tree")
            .field("precision", &self.data.precision)
            .field("nodes", &h.nodes)
            .field("triangles", &h.triangles)
            .field("modes", &h.modes)
            .field("bytes", &h.total_len)
            .finish()
    }
}

fn read<S: Scalar>(view: &Image<'_, S>) -> (bool, f64, u32) {
    let radius = view.tree.rest_sphere(0).map_or(0.0, |s| s[3].to_f64());
    (view.tree.is_nested(), radius, view.tree.depth())
}

fn leaf_of_triangles<S: Scalar>(tree: &TreeView<'_, S>) -> Vec<u32> {
    let mut leaves = vec![0u32; tree.triangle_count()];
    for k in 0..tree.node_count() {
        if let Some(NodeKind::Leaf { triangle }) = tree.kind(k) {
            if let Some(slot) = leaves.get_mut(triangle as usize) {
                *slot = k as u32;
            }
        }
    }
    leaves
}

impl Tree {
    /// Validates an image (header, checksum, every link and value) in its own precision.
    pub fn new(image: ImageBuf) -> Result<Tree, HostError> {
        let bad = |message: String| HostError::Image { message };
        let header = image.header().map_err(|e| bad(e.to_string()))?;
        // SAFETY: the views borrow `image`'s heap buffer, which moves into the `TreeData`
        // beside them (a move of the `ImageBuf` does not move its buffer) and stays there,
        // unchanged, for as long as they do.
        let (precision, view32, view64, (nested, radius, depth)) = match header.scalar_bytes {
            4 => {
                let view = unsafe { static_view::<f32>(&image) }.map_err(bad)?;
                (Precision::F32, Some(view), None, read(&view))
            }
            _ => {
                let view = unsafe { static_view::<f64>(&image) }.map_err(bad)?;
                (Precision::F64, None, Some(view), read(&view))
            }
        };
        Ok(Tree {
            data: Arc::new(TreeData {
                view32,
                view64,
                image,
                header,
                precision,
                nested,
                radius,
                depth,
                boxes: std::sync::OnceLock::new(),
                self_aids: std::sync::OnceLock::new(),
            }),
        })
    }

    /// Reads and validates a tree image file; errors name the file.
    pub fn read(path: &Path) -> Result<Tree, HostError> {
        let image = ImageBuf::read(path).map_err(|e| HostError::Image {
            message: e.to_string(),
        })?;
        Tree::new(image).map_err(|e| HostError::Image {
            message: format!("{}: {e}", path.display()),
        })
    }

    /// Builds the tree of a mesh and its displacement basis (`None`: rigid) with the builder
    /// ([`crate::build::build`]), in `options.precision`.
    pub fn build(
        mesh: &Mesh,
        basis: Option<&Basis>,
        options: BuildOptions,
    ) -> Result<(Tree, BuildReport), HostError> {
        let (image, report) =
            build(mesh, basis, options, &mut |_| {}).map_err(|e| HostError::Build {
                message: e.to_string(),
            })?;
        Ok((Tree::new(image)?, report))
    }

    /// The image.
    pub fn image(&self) -> &ImageBuf {
        &self.data.image
    }

    /// Its header (node, triangle, vertex and mode counts, depth, sizes).
    pub fn header(&self) -> &Header {
        &self.data.header
    }

    /// The precision its values are stored and computed in.
    pub fn precision(&self) -> Precision {
        self.data.precision
    }

    /// Whether the tree is nested (needed by proxy queries).
    pub fn nested(&self) -> bool {
        self.data.nested
    }

    /// Modes `M` (the length of a body's `q`).
    pub fn modes(&self) -> usize {
        self.data.header.modes as usize
    }

    /// Tree depth (the root has depth 0).
    pub fn depth(&self) -> u32 {
        self.data.depth
    }

    /// The root's rest radius: the body's size in the rules of [`super::Body::set_state`].
    pub fn radius(&self) -> f64 {
        self.data.radius
    }

    /// The mesh's triangles (vertex indices), in the order queries number them.
    pub fn triangles(&self) -> &[[u32; 3]] {
        match (&self.data.view32, &self.data.view64) {
            (Some(view), _) => view.model.triangles(),
            (_, Some(view)) => view.model.triangles(),
            _ => &[],
        }
    }

    /// The leaf node of every triangle, in the mesh's order (where a triangle's force is applied,
    /// [`super::World::force_at_node`]; 0 for a triangle no leaf holds: a compact image's
    /// triangles under a cut). Cost: one pass over the nodes.
    pub fn leaves(&self) -> Vec<u32> {
        match (&self.data.view32, &self.data.view64) {
            (Some(view), _) => leaf_of_triangles(&view.tree),
            (_, Some(view)) => leaf_of_triangles(&view.tree),
            _ => Vec::new(),
        }
    }

    /// Whether two trees hold the same image (the same object, or equal bytes).
    pub fn same(&self, other: &Tree) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
            || (self.data.header == other.data.header
                && self.data.image.as_bytes() == other.data.image.as_bytes())
    }
}

//! [`self_pairs`]: every intersecting pair of non-adjacent triangles of one body — the kernel's
//! [`bdtree_core::collide_self_lazy`] ([`bdtree_core::query::self_collision`]) with the tree's
//! aids (vertex signatures, contours, certificates): the image's own when it carries them
//! ([`bdtree_core::collide_self_image`], the device's path; `bdtree build --self-cull`),
//! otherwise computed once and kept with the tree.

use bdtree_core::query::self_collision::{
    collide_self_image, collide_self_lazy, vertex_signatures, ConeSlot, SelfAids, SelfCertificates,
    SelfCones, UnitCounts,
};
use bdtree_core::{refine_self, self_stack_capacity, Body as KernelBody, Scalar, TrianglePair};

use crate::build::{
    self_certificates, self_contours, self_normals, self_spheres, NORMAL_MIN_TRIANGLES,
    SPHERE_MIN_TRIANGLES,
};
use crate::host::answer::Answer;
use crate::host::body::{Body, OnOne};
use crate::host::error::HostError;
use crate::host::owned::SelfTreeAids;
use crate::host::placing::self_origin;
use crate::host::stack::{complete, Stack};
use crate::host::tree::Tree;

struct SelfPairs<'t> {
    tree: &'t Tree,
}

impl OnOne for SelfPairs<'_> {
    type Out = Result<Answer<[u32; 2]>, HostError>;
    fn run<S: Scalar>(self, body: &mut KernelBody<'_, '_, S>) -> Self::Out {
        let n = body.tree().node_count();
        let mut found = Vec::new();
        let mut stack = Stack::take(self_stack_capacity(body.tree().depth()));
        // The cones and spheres are made where the walk goes (a body certified whole needs
        // none: the query ends at the root).
        let mut slots = vec![ConeSlot::EMPTY; n];
        let mut cones = SelfCones::new(&mut slots);
        let mut sink = |p: TrianglePair| {
            found.push(p);
            true
        };
        let outcome = if body.tree().self_data().is_some() {
            // One source of truth: the data the image carries, read as a device reads it.
            collide_self_image(
                body,
                &mut cones,
                &mut UnitCounts::default(),
                &mut stack,
                &mut sink,
            )
        } else {
            self.with_tree_aids(body, &mut cones, &mut stack, &mut sink)
        };
        complete("collide_self", &outcome)?;
        let kept = refine_self(body, &mut found);
        let mut items: Vec<[u32; 2]> = found.iter().take(kept).map(|p| [p.a, p.b]).collect();
        items.sort_unstable();
        Ok(Answer {
            items,
            stats: outcome.stats,
        })
    }
}

impl SelfPairs<'_> {
    /// The culled query with the aids made once per tree and kept with it (an image without
    /// its own).
    fn with_tree_aids<S: Scalar>(
        &self,
        body: &mut KernelBody<'_, '_, S>,
        cones: &mut SelfCones<'_>,
        stack: &mut [[u32; 2]],
        sink: &mut impl FnMut(TrianglePair) -> bool,
    ) -> bdtree_core::QueryOutcome {
        let n = body.tree().node_count();
        let tree_aids = self.tree.data.self_aids.get_or_init(|| {
            let mut signatures = vec![[0u32; 2]; n];
            if vertex_signatures(body, &mut signatures).is_none() {
                signatures.clear();
            }
            let contours = self_contours(body.tree(), body.model().triangles());
            SelfTreeAids {
                signatures,
                certificates: self_certificates(body.tree(), body.model(), &contours),
                normals: self_normals(body.tree(), body.model(), NORMAL_MIN_TRIANGLES),
                spheres: self_spheres(body.tree(), body.model(), SPHERE_MIN_TRIANGLES),
                contours,
            }
        });
        let certificates = SelfCertificates {
            weights: &tree_aids.certificates,
        };
        let aids = SelfAids {
            signatures: &tree_aids.signatures,
            cones: &[],
            contours: tree_aids.contours.view(),
            certificates,
            normals: tree_aids.normals.normals(),
            spheres: tree_aids.spheres.spheres(),
        };
        collide_self_lazy(body, aids, cones, &mut UnitCounts::default(), stack, sink)
    }
}

/// Every intersecting pair of non-adjacent triangles of one body (`a < b` in each, sorted), at
/// the body's own origin (its translation): the precision of its self pairs is its own,
/// wherever it sits. Refined in f64 in f32, as [`super::pairs`].
pub fn self_pairs(body: &mut Body) -> Result<Answer<[u32; 2]>, HostError> {
    body.place(self_origin(body))?;
    let tree = body.tree().clone();
    body.on_one(SelfPairs { tree: &tree })
}

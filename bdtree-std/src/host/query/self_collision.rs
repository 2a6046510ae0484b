//! [`self_pairs`]: every intersecting pair of non-adjacent triangles of one body — the kernel's
//! [`bdtree_core::collide_self_lazy`] ([`bdtree_core::query::self_collision`]) with the tree's
//! aids (vertex signatures, contours, certificates) computed once and kept with the tree.

use bdtree_core::query::self_collision::{
    collide_self_lazy, vertex_signatures, ConeSlot, SelfAids, SelfCertificates, SelfCones,
    UnitCounts,
};
use bdtree_core::{refine_self, self_stack_capacity, Body as KernelBody, Scalar, TrianglePair};

use crate::build::{self_certificates, self_contours};
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
        let tree_aids = self.tree.data.self_aids.get_or_init(|| {
            let mut signatures = vec![0u64; n];
            if vertex_signatures(body, &mut signatures).is_none() {
                signatures.clear();
            }
            let contours = self_contours(body.tree(), body.model().triangles());
            SelfTreeAids {
                signatures,
                certificates: self_certificates(body.tree(), body.model(), &contours),
                contours,
            }
        });
        let certificates = SelfCertificates {
            weights: &tree_aids.certificates,
        };
        // The cones and spheres are made where the walk goes (a body certified whole needs
        // none: the query ends at the root).
        let mut slots = vec![ConeSlot::EMPTY; n];
        let mut cones = SelfCones::new(&mut slots);
        let aids = SelfAids {
            signatures: &tree_aids.signatures,
            cones: &[],
            contours: tree_aids.contours.view(),
            certificates,
        };
        let mut found = Vec::new();
        let mut stack = Stack::take(self_stack_capacity(body.tree().depth()));
        let outcome = collide_self_lazy(
            body,
            aids,
            &mut cones,
            &mut UnitCounts::default(),
            &mut stack,
            &mut |p: TrianglePair| {
                found.push(p);
                true
            },
        );
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

/// Every intersecting pair of non-adjacent triangles of one body (`a < b` in each, sorted), at
/// the body's own origin (its translation): the precision of its self pairs is its own,
/// wherever it sits. Refined in f64 in f32, as [`super::pairs`].
pub fn self_pairs(body: &mut Body) -> Result<Answer<[u32; 2]>, HostError> {
    body.place(self_origin(body))?;
    let tree = body.tree().clone();
    body.on_one(SelfPairs { tree: &tree })
}

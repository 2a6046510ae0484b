//! Interrupted queries on a scene, measured the way Mendoza & O'Sullivan's Table 1 does: for
//! each budget, the sizes of the pending (pair) list and the confirmed (collision) list, and
//! how much of the true answer the interrupted query has already confirmed at leaf level.
//!
//! Every frame's every body pair is queried afresh with [`Traversal`] and a [`TestBudget`] of
//! `budget` tests, in the chosen [`Order`]; the truth is the f64 brute-force oracle on the
//! explicitly deformed meshes. Besides the paper's columns this reports the **cover size** —
//! the triangle pairs the interrupted answer must treat as possibly colliding (confirmed pairs
//! plus, per pending node pair, leaves × leaves) — which is the "false contact area" a contact
//! response would act on, and checks that the cover holds every true contact.

use bdtree_core::{
    Body, BodyError, Image, NodeKind, Order, Pending, RunStatus, Scalar, TestBudget, Traversal,
    TreeView, TrianglePair, VertexEntry,
};

use super::check::brute_force_frame;
use super::scene::{frame_origin, parse_images, PreparedScene, RunError};
use bdtree_std::io::Scene;
use bdtree_std::BodyStorage;

/// Sphere and vertex caches for every body of a scene: the table runs the kernel's traversal
/// on a whole frame's bodies at one floating origin (the frame's, [`frame_origin`]), the one
/// place the application still sets up kernel bodies for a scene (the host's
/// [`bdtree_std::host::Interruptible`] places each pair at its own origin and refines).
struct Caches<S: Scalar> {
    spheres: Vec<BodyStorage<S>>,
    vertices: Vec<Vec<VertexEntry<S>>>,
}

impl<S: Scalar> Caches<S> {
    fn new(images: &[Image<'_, S>]) -> Self {
        Self {
            spheres: images
                .iter()
                .map(|im| BodyStorage::new(im.tree.node_count()))
                .collect(),
            vertices: images
                .iter()
                .map(|im| vec![VertexEntry::default(); im.model.vertex_count()])
                .collect(),
        }
    }

    /// A body per image, with a vertex cache.
    fn bodies<'t, 'c>(
        &'c mut self,
        scene: &Scene,
        images: &[Image<'t, S>],
    ) -> Result<Vec<Body<'t, 'c, S>>, RunError> {
        let mut bodies = Vec::new();
        for (((image, cache), vertices), spec) in images
            .iter()
            .zip(self.spheres.iter_mut())
            .zip(self.vertices.iter_mut())
            .zip(&scene.bodies)
        {
            let body = cache
                .body(image)
                .and_then(|b| b.with_vertex_cache(vertices))
                .map_err(|error| RunError::Body {
                    body: spec.name.clone(),
                    error,
                })?;
            bodies.push(body);
        }
        Ok(bodies)
    }
}

/// Sets every body's pose and `q` from frame `f`: the state goes to the kernel in f64 relative
/// to the floating origin `origin`, and the answer is conservative against the scene's own
/// state ([`Body::set_state_f64`]).
fn set_frame<S: Scalar>(
    scene: &Scene,
    f: usize,
    origin: [f64; 3],
    bodies: &mut [Body<'_, '_, S>],
) -> Result<(), RunError> {
    let frame = scene.frames.get(f).ok_or(RunError::NoFrame { frame: f })?;
    for (b, (body, (pose, qf))) in bodies.iter_mut().zip(frame).enumerate() {
        let name = || scene.bodies[b].name.clone();
        body.set_state_f64(pose.rotation, pose.translation, qf, origin)
            .map_err(|error| match error {
                BodyError::Pose(error) => RunError::Pose {
                    frame: f,
                    body: name(),
                    error,
                },
                error => RunError::State {
                    frame: f,
                    body: name(),
                    error,
                },
            })?;
    }
    Ok(())
}

/// One budget's figures, summed or averaged over every frame and body pair.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BudgetRow {
    /// Tests allowed per query.
    pub budget: u32,
    /// Queries run (frames × body pairs).
    pub queries: usize,
    /// Queries that finished within the budget.
    pub finished: usize,
    /// Mean pending-list length when the query stopped.
    pub mean_pending: f64,
    /// Largest pending-list length when a query stopped.
    pub max_pending: usize,
    /// Mean confirmed (collision-list) length.
    pub mean_confirmed: f64,
    /// True contacts (oracle), summed.
    pub true_contacts: usize,
    /// True contacts already confirmed at leaf level, summed.
    pub true_confirmed: usize,
    /// Triangle pairs in the cover (confirmed + leaves under pending pairs), summed.
    pub cover_pairs: u64,
    /// True contacts outside the cover, summed (must be 0).
    pub uncovered: usize,
}

impl BudgetRow {
    /// Fraction of the true contacts confirmed (1 when there are none).
    pub fn confirmed_fraction(&self) -> f64 {
        if self.true_contacts == 0 {
            1.0
        } else {
            self.true_confirmed as f64 / self.true_contacts as f64
        }
    }
}

/// Per tree: parent of every node, leaf of every triangle, leaves under every node.
struct Structure {
    parent: Vec<u32>,
    leaf: Vec<u32>,
    leaves: Vec<u64>,
}

fn structure<S: Scalar>(tree: &TreeView<'_, S>) -> Structure {
    let n = tree.node_count();
    let mut parent = vec![0u32; n];
    let mut leaf = vec![0u32; tree.triangle_count()];
    let mut leaves = vec![0u64; n];
    for k in (0..n).rev() {
        match tree.kind(k) {
            Some(NodeKind::Internal { left, right }) => {
                parent[left as usize] = k as u32;
                parent[right as usize] = k as u32;
                leaves[k] = leaves[left as usize] + leaves[right as usize];
            }
            Some(NodeKind::Leaf { triangle }) => {
                leaf[triangle as usize] = k as u32;
                leaves[k] = 1;
            }
            Some(NodeKind::Cut) | None => {}
        }
    }
    Structure {
        parent,
        leaf,
        leaves,
    }
}

impl Structure {
    fn is_under(&self, mut node: u32, ancestor: u32) -> bool {
        loop {
            if node == ancestor {
                return true;
            }
            if node == 0 {
                return false;
            }
            node = self.parent[node as usize];
        }
    }
}

/// Runs every budget on every frame and body pair of a prepared scene, in scalar `S`, with a
/// pending list of `capacity` entries.
pub fn budget_table<S: Scalar>(
    scene: &Scene,
    prepared: &PreparedScene,
    budgets: &[u32],
    order: Order,
    capacity: usize,
) -> Result<Vec<BudgetRow>, RunError> {
    let images = parse_images::<S>(scene, prepared)?;
    let structures: Vec<Structure> = images.iter().map(|im| structure(&im.tree)).collect();
    let mut caches = Caches::new(&images);
    let mut bodies = caches.bodies(scene, &images)?;
    let mut storage = vec![Pending::<S>::EMPTY; capacity.max(1)];
    let mut rows: Vec<BudgetRow> = budgets
        .iter()
        .map(|&budget| BudgetRow {
            budget,
            ..BudgetRow::default()
        })
        .collect();
    for f in 0..scene.frames.len() {
        set_frame(scene, f, frame_origin(scene, [f]), &mut bodies)?;
        let truth = brute_force_frame(scene, f);
        for i in 0..bodies.len() {
            let (head, tail) = bodies.split_at_mut(i + 1);
            let a = &mut head[i];
            for (k, b) in tail.iter_mut().enumerate() {
                let j = i + 1 + k;
                let pair_truth: Vec<(u32, u32)> = truth
                    .iter()
                    .filter(|c| c.0 == i && c.1 == j)
                    .map(|c| (c.2, c.3))
                    .collect();
                for row in rows.iter_mut() {
                    let mut t = Traversal::new(&mut storage, order);
                    let mut confirmed: Vec<(u32, u32)> = Vec::new();
                    let mut status = t.start(a, b);
                    if status == RunStatus::Interrupted {
                        status = t
                            .run(
                                a,
                                b,
                                &mut TestBudget::new(row.budget),
                                &mut |p: TrianglePair| {
                                    confirmed.push((p.a, p.b));
                                    true
                                },
                            )
                            .status;
                    }
                    if matches!(status, RunStatus::Inconsistent | RunStatus::StateChanged) {
                        return Err(RunError::Interrupted { frame: f, status });
                    }
                    confirmed.sort_unstable();
                    let pending: Vec<(u32, u32)> = t.pending().collect();
                    let (sa, sb) = (&structures[i], &structures[j]);
                    row.queries += 1;
                    row.finished += usize::from(status == RunStatus::Done);
                    row.mean_pending += pending.len() as f64;
                    row.max_pending = row.max_pending.max(pending.len());
                    row.mean_confirmed += confirmed.len() as f64;
                    row.cover_pairs += confirmed.len() as u64
                        + pending
                            .iter()
                            .map(|&(x, y)| sa.leaves[x as usize] * sb.leaves[y as usize])
                            .sum::<u64>();
                    row.true_contacts += pair_truth.len();
                    for &(x, y) in &pair_truth {
                        if confirmed.binary_search(&(x, y)).is_ok() {
                            row.true_confirmed += 1;
                        } else if !pending.iter().any(|&(u, v)| {
                            sa.is_under(sa.leaf[x as usize], u)
                                && sb.is_under(sb.leaf[y as usize], v)
                        }) {
                            row.uncovered += 1;
                        }
                    }
                }
            }
        }
    }
    for row in &mut rows {
        let n = row.queries.max(1) as f64;
        row.mean_pending /= n;
        row.mean_confirmed /= n;
    }
    Ok(rows)
}

//! Interrupted queries on a scene, measured the way Mendoza & O'Sullivan's Table 1 does: for
//! each budget, the sizes of the pending (pair) list and the confirmed (collision) list, and
//! how much of the true answer the interrupted query has already confirmed at leaf level.
//!
//! Every frame's every body pair is queried afresh with the host's interruptible query and a
//! budget of `budget` tests ([`Budget::Tests`]), in the chosen [`Order`], every body of the
//! frame at the frame's floating origin ([`frame_origin`]) and the kernel's pairs unrefined
//! ([`Interruptible::start_unrefined_at`]); the truth is the f64 brute-force oracle on the
//! explicitly deformed meshes. Besides the paper's columns this reports the **cover size** —
//! the triangle pairs the interrupted answer must treat as possibly colliding (confirmed pairs
//! plus, per pending node pair, leaves × leaves) — which is the "false contact area" a contact
//! response would act on, and checks that the cover holds every true contact.

use bdtree_core::{NodeKind, Order, RunStatus, Scalar, TreeView};

use super::check::brute_force_frame;
use super::scene::{
    frame_error, frame_origin, parse_images, set_world_frame, world, PreparedScene, RunError,
};
use crate::host::{Budget, Interruptible, Progress};
use crate::io::Scene;

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
    let mut world = world::<S>(scene, prepared)?;
    let capacity = capacity.max(1);
    let mut rows: Vec<BudgetRow> = budgets
        .iter()
        .map(|&budget| BudgetRow {
            budget,
            ..BudgetRow::default()
        })
        .collect();
    for f in 0..scene.frames.len() {
        set_world_frame(&mut world, scene, f)?;
        // The whole frame at one floating origin, the kernel's pairs unrefined.
        let origin = frame_origin(scene, [f]);
        let truth = brute_force_frame(scene, f);
        let bodies = world.bodies_mut();
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
                    let mut query =
                        Interruptible::start_unrefined_at(a, b, order, capacity, origin)
                            .map_err(frame_error(f))?;
                    let (status, confirmed, pending) = match query
                        .run(a, b, Budget::Tests(row.budget))
                        .map_err(frame_error(f))?
                    {
                        Progress::Done(answer) => (RunStatus::Done, answer.items, Vec::new()),
                        Progress::Interrupted(cover) => {
                            (cover.status, cover.confirmed, cover.pending)
                        }
                    };
                    let confirmed: Vec<(u32, u32)> =
                        confirmed.iter().map(|&[x, y]| (x, y)).collect();
                    let (sa, sb) = (&structures[i], &structures[j]);
                    row.queries += 1;
                    row.finished += usize::from(status == RunStatus::Done);
                    row.mean_pending += pending.len() as f64;
                    row.max_pending = row.max_pending.max(pending.len());
                    row.mean_confirmed += confirmed.len() as f64;
                    row.cover_pairs += confirmed.len() as u64
                        + pending
                            .iter()
                            .map(|&[x, y]| sa.leaves[x as usize] * sb.leaves[y as usize])
                            .sum::<u64>();
                    row.true_contacts += pair_truth.len();
                    for &(x, y) in &pair_truth {
                        if confirmed.binary_search(&(x, y)).is_ok() {
                            row.true_confirmed += 1;
                        } else if !pending.iter().any(|&[u, v]| {
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

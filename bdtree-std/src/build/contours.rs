//! Boundary loops of a tree's nodes for sound self-collision culling ([`self_contours`]).

use std::collections::{HashMap, HashSet};

use bdtree_core::query::self_collision::{SelfContours, MAX_CONTOUR};
use bdtree_core::{NodeKind, Scalar, TreeView};

/// Per node, the boundary loop of its patch (see [`SelfContours`]): what
/// [`bdtree_core::collide_self_with`] needs, beside the normal cones, to cull a node against
/// itself. Made once per tree, `O(n log n)`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContourTable {
    /// `nodes + 1` offsets into `vertices`.
    pub starts: Vec<u32>,
    /// The loops' vertex indices, node after node.
    pub vertices: Vec<u32>,
}

impl ContourTable {
    /// The kernel's view of the table.
    pub fn view(&self) -> SelfContours<'_> {
        SelfContours {
            starts: &self.starts,
            vertices: &self.vertices,
        }
    }

    /// Nodes with a loop (those the kernel may cull).
    pub fn loops(&self) -> usize {
        self.starts.windows(2).filter(|w| w[1] > w[0]).count()
    }
}

/// The boundary loop of every node whose patch (the triangles below it) is an oriented
/// surface with one boundary loop: every edge used by at most two of its triangles, in
/// opposite directions when by two; the edges used once forming one cycle through distinct
/// vertices; Euler characteristic `V − E + F = 1` (a disk: no pinched vertex, no handle).
/// Other nodes, and loops longer than [`MAX_CONTOUR`], get an empty loop and are never culled.
/// `triangles` are the model's, as the tree indexes them.
pub fn self_contours<S: Scalar>(tree: &TreeView<'_, S>, triangles: &[[u32; 3]]) -> ContourTable {
    let n = tree.node_count();
    let mut loops: Vec<Vec<u32>> = vec![Vec::new(); n];
    each_patch(tree, |k, list| {
        loops[k] = patch_loop(list, triangles).unwrap_or_default();
    });
    let mut table = ContourTable {
        starts: Vec::with_capacity(n + 1),
        vertices: Vec::new(),
    };
    table.starts.push(0);
    for contour in loops {
        table.vertices.extend_from_slice(&contour);
        table.starts.push(table.vertices.len() as u32);
    }
    table
}

/// Calls `f(node, triangles below it)` for every node, children (larger indices) before their
/// parents; a node's list is handed on to its parent afterwards, so the lists alive at once
/// hold each triangle once.
pub(super) fn each_patch<S: Scalar>(tree: &TreeView<'_, S>, mut f: impl FnMut(usize, &[u32])) {
    let n = tree.node_count();
    let mut below: Vec<Vec<u32>> = vec![Vec::new(); n];
    for k in (0..n).rev() {
        let list = match tree.kind(k) {
            Some(NodeKind::Leaf { triangle }) => vec![triangle],
            Some(NodeKind::Internal { left, right }) => {
                let mut list = std::mem::take(&mut below[left as usize]);
                list.extend_from_slice(&below[right as usize]);
                // The children's lists are needed no more once their parent has them.
                below[right as usize] = Vec::new();
                list
            }
            _ => Vec::new(),
        };
        f(k, &list);
        below[k] = list;
    }
}

/// The boundary loop of a patch of triangles, when the patch qualifies (see
/// [`self_contours`]).
fn patch_loop(patch: &[u32], triangles: &[[u32; 3]]) -> Option<Vec<u32>> {
    if patch.len() < 2 {
        return None;
    }
    // Directed edges and their uses.
    let mut uses: HashMap<(u32, u32), u32> = HashMap::new();
    let mut vertices = HashSet::new();
    for &t in patch {
        let [a, b, c] = *triangles.get(t as usize)?;
        if a == b || b == c || c == a {
            return None;
        }
        for (p, q) in [(a, b), (b, c), (c, a)] {
            *uses.entry((p, q)).or_default() += 1;
        }
        vertices.extend([a, b, c]);
    }
    let mut boundary: HashMap<u32, u32> = HashMap::new();
    let mut interior = 0usize;
    for (&(p, q), &count) in &uses {
        if count > 1 {
            return None;
        }
        if uses.contains_key(&(q, p)) {
            interior += 1;
            continue;
        }
        // One outgoing boundary edge per vertex, or the loop pinches.
        if boundary.insert(p, q).is_some() {
            return None;
        }
    }
    let edges = interior / 2 + boundary.len();
    let euler = vertices.len() as i64 - edges as i64 + patch.len() as i64;
    if euler != 1 || boundary.len() > MAX_CONTOUR || boundary.len() < 3 {
        return None;
    }
    // One cycle through every boundary edge.
    let &start = boundary.keys().min()?;
    let mut contour = vec![start];
    let mut at = *boundary.get(&start)?;
    while at != start {
        if contour.len() >= boundary.len() {
            return None;
        }
        contour.push(at);
        at = *boundary.get(&at)?;
    }
    (contour.len() == boundary.len()).then_some(contour)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strip_has_its_outline_and_bad_patches_none() {
        // Two triangles sharing edge (1, 2): a square 0-1-3-2.
        let tris = [[0, 1, 2], [2, 1, 3]];
        let contour = patch_loop(&[0, 1], &tris).expect("a disk");
        assert_eq!(contour, vec![0, 1, 3, 2]);
        // Inconsistent winding: the shared edge used twice in one direction.
        assert_eq!(patch_loop(&[0, 1], &[[0, 1, 2], [1, 2, 3]]), None);
        // Two triangles touching at one vertex (a bow tie): a pinched loop.
        assert_eq!(patch_loop(&[0, 1], &[[0, 1, 2], [0, 3, 4]]), None);
        // Two separate triangles: two loops.
        assert_eq!(patch_loop(&[0, 1], &[[0, 1, 2], [3, 4, 5]]), None);
        // A closed tetrahedron: no boundary.
        let tet = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]];
        assert_eq!(patch_loop(&[0, 1, 2, 3], &tet), None);
        // An annulus (a ring of 8 triangles between two squares): two loops.
        let ring = [
            [0, 1, 5],
            [0, 5, 4],
            [1, 2, 6],
            [1, 6, 5],
            [2, 3, 7],
            [2, 7, 6],
            [3, 0, 4],
            [3, 4, 7],
        ];
        assert_eq!(patch_loop(&(0..8).collect::<Vec<_>>(), &ring), None);
    }
}

//! The queries: each a policy over the one pair walk ([`crate::walk`]) — its bound, its test,
//! its leaf step and its container — in a file (or folder) of its own.
//!
//! **One argument order.** Every query takes the bodies first, then the query's parameters,
//! then the caller's stack, then the sink, and returns a [`crate::QueryOutcome`]:
//!
//! ```text
//! query(a, b, parameters…, stack, sink) -> QueryOutcome
//! ```
//!
//! A swept query's bodies are its four states (`a_from, a_to, b_from, b_to`); a one-body query
//! (self-collision, a body against a primitive) takes the body, then the other side (the
//! primitive) as its first parameter. Per-body parameters come in body order (`depth_a,
//! depth_b`; `boxes_a, boxes_b`). [`refinement`]'s functions and [`crate::world::response`]'s
//! are not walks: no stack, and their answer is what they return.
//!
//! | module | queries |
//! |---|---|
//! | [`triangles`] | [`crate::collide`]: every intersecting triangle pair |
//! | [`contacts`] | [`crate::collide_contacts`] (point, normal, depth), [`crate::within`] |
//! | [`proxies`] | [`crate::collide_proxies`]: overlapping node pairs at a proxy depth |
//! | [`boxes`] | [`crate::query::boxes::collide_boxes`]: triangle pairs under box bounds |
//! | [`separation`] | [`crate::nearest`], [`crate::closer_than`] |
//! | [`primitives`] | [`crate::collide_primitive`], [`crate::collide_primitive_proxies`] |
//! | [`self_collision`] | [`crate::collide_self`], [`crate::collide_self_with`] |
//! | [`swept`] | [`crate::collide_swept`], [`crate::collide_swept_front`] |
//! | [`traversal`] | [`crate::Traversal`]: the triangle query, resumable under a budget |
//! | [`refinement`] | [`crate::refine`], [`crate::refine_self`]: exact checks of reported pairs |

pub mod boxes;
pub mod contacts;
pub mod primitives;
pub mod proxies;
pub mod refinement;
pub mod self_collision;
pub mod separation;
pub mod swept;
pub mod traversal;
pub mod triangles;

/// Stack entries that serve **every** query between trees of these depths (or no deeper): the
/// pair walks ([`crate::walk::stack_capacity`]: `collide`, contacts, swept, distance, proxies at any depth,
/// primitives, a world of such trees) and each body's self-collision
/// ([`crate::self_stack_capacity`], the larger). A `const fn`: one static stack for a
/// controller's queries (`bdtree inspect --rust` prints the depth to give it).
pub const fn query_stack_capacity(depth_a: u32, depth_b: u32) -> usize {
    let pair = crate::walk::stack_capacity(depth_a, depth_b);
    let deeper = if depth_a > depth_b { depth_a } else { depth_b };
    let own = self_collision::self_stack_capacity(deeper);
    if pair > own {
        pair
    } else {
        own
    }
}

//! The exported functions common to both precisions.

use core::ffi::c_char;

use crate::api;
use crate::types::{bdtree_status, status_name, BDTREE_VERSION};

/// The library's version, `MAJOR · 1,000,000 + MINOR · 1,000 + PATCH` (0.1.0 is 1000). Check
/// it against the header's at start-up — `if (bdtree_version() != BDTREE_VERSION)` refuse to
/// run —: the object sizes, constants and statuses of a header are those of one version of the
/// library, and a library of another version may lay its objects out differently.
#[no_mangle]
pub extern "C" fn bdtree_version() -> u32 {
    BDTREE_VERSION
}

/// The floating origin of a query over bodies at `count` world translations
/// (`translations[3k..3k+3]` is the k-th): the centre of their axis-aligned box,
/// `0.5 · min + 0.5 · max` per axis in double (the world origin for `count` 0). This is the one
/// placing rule of every surface of bdtree (the kernel's `floating_origin`); a client that
/// follows it gets the answers of the command-line tool and the host library:
///
/// * a body pair (`bdtree_collide_*`, `…_contacts_*`, `bdtree_within_*`, `bdtree_distance_*`,
///   `…_proxies_*`, a traversal): the origin of the two bodies' translations;
/// * a swept pair (`bdtree_collide_swept_*`): of the four translations, both bodies at both
///   ends of the motion;
/// * a body's self pairs (`bdtree_collide_self_*`): of its own translation;
/// * a body against a primitive (`bdtree_collide_primitive_*`): of the body's own
///   translation, the primitive's coordinates given less the same origin (subtracted in double).
///
/// Then set each body of the query with `bdtree_body_set_state_from_f64_*` relative to that
/// origin, and add the origin back (in double) to the points, witnesses and spheres the query
/// gives. A pair's f32 precision then depends on the two bodies' sizes and their distance from
/// each other only, not on where other bodies or the robot cell sit. A body in several pairs
/// takes its state again for each (`O(M)`; its sphere cache starts over).
///
/// Returns `BDTREE_STATUS_NON_FINITE_TRANSLATION` (origin 0) for a NaN or infinite translation.
///
/// # Safety
///
/// `translations` must point to `3 · count` readable doubles (NULL when `count` is 0);
/// `origin` to 3 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn bdtree_floating_origin(
    translations: *const f64,
    count: usize,
    origin: *mut f64,
) -> bdtree_status {
    // SAFETY: the caller's contract above is the one `api` requires.
    unsafe { api::floating_origin(translations, count, origin) }
}

/// A sentence describing a status code (a static, NUL-terminated string; `"unknown status"`
/// for a code that is none).
#[no_mangle]
pub extern "C" fn bdtree_status_name(status: i32) -> *const c_char {
    status_name(status).as_ptr()
}

/// Stack entries (`bdtree_node_pair`) a triangle or distance query between trees of depths
/// `depth_a` and `depth_b` needs: `depth_a + depth_b + min(depth_a, depth_b) + 3`.
#[no_mangle]
pub extern "C" fn bdtree_stack_capacity(depth_a: u32, depth_b: u32) -> usize {
    api::stack_entries(depth_a, depth_b)
}

/// Stack entries a primitive query (`bdtree_collide_primitive_*`,
/// `bdtree_collide_primitive_proxies_*`) on a tree of depth `depth` needs.
#[no_mangle]
pub extern "C" fn bdtree_primitive_stack_capacity(depth: u32) -> usize {
    api::primitive_stack_entries(depth)
}

/// Stack entries a self-collision query on a tree of depth `depth` needs.
#[no_mangle]
pub extern "C" fn bdtree_self_stack_capacity(depth: u32) -> usize {
    api::self_stack_entries(depth)
}

/// Stack entries a proxy query needs, for trees of depths `tree_depth_a`, `tree_depth_b`
/// queried at proxy depths `proxy_depth_a`, `proxy_depth_b`.
#[no_mangle]
pub extern "C" fn bdtree_proxy_stack_capacity(
    tree_depth_a: u32,
    proxy_depth_a: u32,
    tree_depth_b: u32,
    proxy_depth_b: u32,
) -> usize {
    api::proxy_stack_entries(tree_depth_a, proxy_depth_a, tree_depth_b, proxy_depth_b)
}

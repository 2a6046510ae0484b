//! The exported functions common to both precisions.

use core::ffi::c_char;

use crate::api;
use crate::types::status_name;

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

//! Contact proxies: the overlapping node spheres of two nested trees at given depths
//! (`bdtree_collide_proxies_*`), for contact response.

use bdtree_core::ProxyPair;

use crate::body::{bdtree_body_f32, bdtree_body_f64, two_bodies, BodySlot};
use crate::ffi::{self, Precision};
use crate::query::{bdtree_node_pair, bdtree_stats, clear_outputs, finish, stack, CBuffer};
use crate::status::{bdtree_status, status};

/// An overlapping pair of contact proxies in f32 (`bdtree_collide_proxies_f32`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_proxy_pair_f32 {
    /// The first body's proxy node.
    pub a: u32,
    /// The second body's proxy node.
    pub b: u32,
    /// The first proxy's world sphere `[x, y, z, r]` (units of the mesh).
    pub sphere_a: [f32; 4],
    /// The second proxy's world sphere.
    pub sphere_b: [f32; 4],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖`; the contact normal is along `c_b − c_a`.
    pub depth: f32,
}

/// An overlapping pair of contact proxies in f64.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct bdtree_proxy_pair_f64 {
    /// The first body's proxy node.
    pub a: u32,
    /// The second body's proxy node.
    pub b: u32,
    /// The first proxy's world sphere `[x, y, z, r]`.
    pub sphere_a: [f64; 4],
    /// The second proxy's world sphere.
    pub sphere_b: [f64; 4],
    /// Penetration depth `r_a + r_b − ‖c_b − c_a‖`.
    pub depth: f64,
}

macro_rules! proxy_from {
    ($c:ident, $s:ty) => {
        impl From<ProxyPair<$s>> for $c {
            fn from(p: ProxyPair<$s>) -> Self {
                Self {
                    a: p.a,
                    b: p.b,
                    sphere_a: p.sphere_a,
                    sphere_b: p.sphere_b,
                    depth: p.depth,
                }
            }
        }
    };
}

proxy_from!(bdtree_proxy_pair_f32, f32);

proxy_from!(bdtree_proxy_pair_f64, f64);

/// The overlapping contact proxies at depths `depth_a`, `depth_b` (nested trees).
///
/// # Safety
///
/// As [`crate::triangles::collide()`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn collide_proxies<S: Precision, P: From<ProxyPair<S>>>(
    a: *mut BodySlot<S>,
    depth_a: u32,
    b: *mut BodySlot<S>,
    depth_b: u32,
    stack_ptr: *mut bdtree_node_pair,
    stack_len: usize,
    pairs: *mut P,
    capacity: usize,
    count: *mut usize,
    stats: *mut bdtree_stats,
) -> bdtree_status {
    // SAFETY: forwarded.
    let run = || unsafe {
        clear_outputs(count, stats)?;
        let (a, b) = two_bodies(a, b)?;
        let stack = stack(stack_ptr, stack_len)?;
        let mut sink = CBuffer::new(ffi::slice_mut(pairs, capacity)?);
        let outcome = bdtree_core::collide_proxies(a, b, depth_a, depth_b, stack, &mut sink);
        finish(outcome, sink.len, count, stats)
    };
    status(run())
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
    bdtree_core::proxy_stack_capacity(tree_depth_a, proxy_depth_a, tree_depth_b, proxy_depth_b)
}

/// The exported functions of contact proxies in f32 (`exports_f64` below is generated from them,
/// word for word in the other precision).
#[allow(clippy::too_many_arguments)] // C functions take buffers as pointer and length pairs.
pub mod exports_f32 {
    use super::*;

    /// The bounded-depth query for contact response: every pair of contact proxies (nodes at depth
    /// `depth_a` of `a` and `depth_b` of `b`, or leaves above them) whose world spheres overlap,
    /// with both spheres and the penetration depth. The trees must be nested (`bdtree build
    /// --nested`; otherwise `BDTREE_STATUS_NOT_NESTED`); every intersecting triangle pair lies
    /// under a reported proxy pair. `stack` needs `bdtree_proxy_stack_capacity(…)` entries.
    ///
    /// # Safety
    ///
    /// As `bdtree_collide_f32`.
    #[no_mangle]
    pub unsafe extern "C" fn bdtree_collide_proxies_f32(
        a: *mut bdtree_body_f32,
        depth_a: u32,
        b: *mut bdtree_body_f32,
        depth_b: u32,
        stack: *mut bdtree_node_pair,
        stack_len: usize,
        pairs: *mut bdtree_proxy_pair_f32,
        capacity: usize,
        count: *mut usize,
        stats: *mut bdtree_stats,
    ) -> bdtree_status {
        // SAFETY: as above.
        unsafe {
            collide_proxies::<f32, _>(
                a.cast(),
                depth_a,
                b.cast(),
                depth_b,
                stack,
                stack_len,
                pairs,
                capacity,
                count,
                stats,
            )
        }
    }
}

// `exports_f64`: the functions of `exports_f32` in f64, word for word, written by `build.rs`
// (`twin.rs`).
include!(concat!(env!("OUT_DIR"), "/proxies_f64.rs"));

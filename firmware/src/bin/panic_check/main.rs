//! The link-time proof of panic freedom over bdtree-core's public API.
//!
//! Every public query and state operation is called from an entry point below, in f32 and in
//! f64, with every order and budget, on inputs the optimiser cannot see (`black_box`: the
//! image bytes, poses, coordinates, capacities, options). The panic handler calls a symbol that
//! exists nowhere, so the firmware links only if no panic path survives optimisation — in any
//! of the entry points. `cargo xtask panic-check` builds it for `thumbv6m-none-eabi` and
//! `thumbv7em-none-eabihf` at opt-level 3 and `s`, then runs it (on an M0 and an M4F image),
//! and it prints how many entry points it linked and ran.
//!
//! **Adding an API**: write `pub(super) fn name<S: Scalar>()` that calls it, in the file of its
//! kind (`state.rs`: images, bodies, sphere kernels; `queries.rs`: pair queries; `world.rs`:
//! many-body queries and response; take bodies from [`two`] or [`one`] of `inputs.rs`, inputs
//! through `black_box`) and add `name` to the [`entries!`] list — each name
//! is linked in f32 and f64. An entry point whose panic path is known and not yet fixed goes
//! into the `known` list instead: it is linked only with the `known-panics` feature, where
//! `cargo xtask panic-check` expects the link to fail (and says so when it stops failing).
#![no_std]
#![no_main]

use bdtree_core::bounds::coherence::{coherent_radius, drift_norm};
use bdtree_core::bounds::sphere::{
    error_bound, mode_weights, spheres_overlap, update, update_sparse,
};
use bdtree_core::geometry::penetration::{least_penetration, penetration_gradient};
use bdtree_core::image::{check_nested, checksum};
use bdtree_core::query::boxes::{boxes_overlap, collide_boxes, world_box, BoxTable, BoxTest};
use bdtree_core::query::self_collision::{
    collide_self_image, collide_self_lazy, normal_cones, tree_parents, vertex_signatures, ConeSlot,
    SelfCertificates, SelfCones, SelfContours, UnitCounts,
};
use bdtree_core::query::separation::{closer_than, nearest, separation_lower_bound};
use bdtree_core::world::response::{
    apply_at_node, apply_at_node_mut, apply_at_triangle, contact_jacobian, penalty, respond,
    respond_contact, respond_mut, Wrench, WrenchMut,
};
use bdtree_core::{
    collide, collide_proxies, collide_proxies_apart, collide_self, collide_self_with,
    collide_world, crc32, fitted_pair, proxy_stack_capacity, self_stack_capacity, stack_capacity,
    AllPairs, Anchor, BitMatrix, BitMatrixView, Body, CacheEntry, ContactBuffer, Deadline, Header,
    Image, Order, Pending, Pose, ProxyBuffer, ProxyPair, ReferenceEntry, Scalar, SelfAids,
    SelfList, SweepAndPrune, TestBudget, Traversal, TrianglePair, UniformGrid, VertexEntry,
    WorldPair,
};
use bdtree_core::{
    collide_contacts, collide_primitive, collide_primitive_proxies, collide_swept,
    collide_swept_front, collide_world_primitives, query_stack_capacity, refine, refine_error,
    refine_self, within, ContactPoint, FrontEntry, NearPair, Primitive, PrimitiveProxy, SweptFront,
    SweptPair, WorldContact,
};
use bdtree_firmware::rt;
use core::hint::black_box;

mod inputs;
mod queries;
mod state;
mod world;

use inputs::*;
use queries::*;
use state::*;
use world::*;

/// Capacities of the storage the entry points give their bodies (the M = 10 test body has 159
/// nodes and 42 vertices; the capacities are opaque to the optimiser anyway).
const NODES: usize = 160;
const VERTICES: usize = 48;
const MODES: usize = 10;
const STACK: usize = 64;

/// The list of entry points: `entries!([linked…], [known at opt-level s…], [known…])`.
macro_rules! entries {
    ([$($name:ident),* $(,)?], [$($known_s:ident),* $(,)?], [$($known:ident),* $(,)?]) => {
        const ENTRIES: &[fn()] = &[$($name::<f32>, $name::<f64>,)*];
        /// Linked except in the opt-level `s` proof (feature `opt-s`), unless `known-panics`.
        #[cfg(any(not(feature = "opt-s"), feature = "known-panics"))]
        const LEVEL_KNOWN: &[fn()] = &[$($known_s::<f32>, $known_s::<f64>,)*];
        #[cfg(all(feature = "opt-s", not(feature = "known-panics")))]
        const LEVEL_KNOWN: &[fn()] = &[];
        #[cfg(feature = "known-panics")]
        #[allow(unused_macros)]
        const KNOWN: &[fn()] = &[$($known::<f32>, $known::<f64>,)*];
        #[cfg(not(feature = "known-panics"))]
        const KNOWN: &[fn()] = &[];
    };
}

entries!(
    [
        parse,
        image_header,
        body_state,
        vertex_cache,
        coherence,
        regions,
        tree_view,
        model,
        model_deformed,
        triangle_query,
        triangle_query_buffer,
        proxy_query,
        self_query,
        self_query_with,
        self_list,
        self_culled,
        self_lazy,
        traversal_test_budget,
        traversal_deadline,
        traversal_pending,
        separation,
        broad_phase,
        world,
        kernel,
        capacities,
        boxes,
        boxes_overlap_direct,
        response,
        contact_query,
        within_query,
        primitive_query,
        world_primitives,
        swept_query,
        swept_front,
        refine_pairs,
    ],
    // Known panic paths at opt-level `s` only: none at present (the bounds checks of
    // `obb::boxes_overlap`, `response::penalty` and `apply_at_node` are gone).
    [],
    // Known panic paths at every opt-level: none at present.
    []
);

#[no_mangle]
fn firmware_main() -> ! {
    let mut n = 0u32;
    for entry in ENTRIES.iter().chain(LEVEL_KNOWN).chain(KNOWN) {
        // The pointer is opaque too: no entry can be specialised away.
        black_box(*entry)();
        n += 1;
    }
    rt::write(b"BDTREE panic-check entries=");
    write_u32(n);
    rt::write(b"\n");
    rt::exit(true)
}

/// Decimal digits without `core::fmt` (whose own checks are not the kernel's business).
fn write_u32(mut n: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
        start -= 1;
        if n == 0 {
            break;
        }
    }
    rt::write(digits.get(start..).unwrap_or(&[]));
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    extern "C" {
        /// Defined nowhere: linking fails if any panic path survives optimisation.
        fn bdtree_firmware_error_a_panic_path_is_reachable() -> !;
    }
    // SAFETY: never runs — the firmware links only when this function is unreachable.
    unsafe { bdtree_firmware_error_a_panic_path_is_reachable() }
}

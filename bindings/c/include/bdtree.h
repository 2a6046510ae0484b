/*
 * bdtree.h — the C API of bdtree: exact collision detection between reduced deformable models
 * (BD-Trees), allocation-free and panic-free, for hosts and bare-metal controllers.
 *
 * Link with libbdtree.a as `cargo xtask c --install PREFIX [--target …]` installs it (with
 * pkg-config and CMake files; only the bdtree_* functions are global symbols, its own runtime
 * is local); on hosts also -lpthread -ldl -lm; on bare-metal targets the client's libc gives
 * memcpy, memset and memcmp (newlib: -lc).
 *
 * Conventions
 *   Units: whatever the mesh uses (metres for SI users); U q is a displacement in those units.
 *   World vertex: R (p + U q) + t, R the rotation of the unit quaternion (w, x, y, z), scalar
 *   first, within 1e-6 of unit norm (refused, not normalised, otherwise). Triangle indices:
 *   the mesh's face order, 0-based. Node 0 is the root. Every function comes in f32 and f64
 *   (…_f32 reads images built with `bdtree build --precision f32`, …_f64 those built in f64).
 *   Frame: the coordinates a query takes (primitives) or gives (spheres, points, witnesses)
 *   are in the frame the bodies' states were given in: the world, or the world less the
 *   floating origin given to bdtree_body_set_state_from_f64_* (bdtree_floating_origin places
 *   each pair).
 *
 * Ownership: the caller owns every byte. Nothing is allocated or freed here.
 *   - Image bytes (flash, a static array, a heap block): read in place; they must outlive the
 *     image view and every body made from it, unchanged. So must a box table's bytes (the
 *     file `bdtree boxes` writes) outlive its bdtree_box_table_* view.
 *   - Objects (bdtree_image_*, bdtree_body_*, bdtree_traversal_*, bdtree_primitive_*,
 *     bdtree_box_table_*, bdtree_swept_front_*):
 *     fixed-size, 8-byte aligned structs the caller declares (static, stack, heap);
 *     …_parse/…_init/bdtree_primitive_… fill them. Bodies, traversals and swept fronts must not
 *     be copied.
 *   - A body's storage (bdtree_body_storage_size_* bytes, or BDTREE_BODY_STORAGE_F32(…) for
 *     static arrays), a traversal's pending list, query stacks and output buffers: caller
 *     memory given by pointer and length, used only during the call (stacks, outputs) or for
 *     the object's life (body storage, pending list; a swept front's entries, given again to
 *     each of its calls).
 *   - Nothing is global: distinct bodies may be used from distinct threads; one body (or a
 *     query on it) from one thread at a time.
 *
 * Errors: every function returns a bdtree_status (or a size of 0 for a bad object); a full
 * output buffer is BDTREE_STATUS_OUTPUT_FULL with the buffer full of valid pairs, never a
 * silent drop; pointers and lengths are checked (NULL, alignment, overflow); nothing panics.
 *
 * Guarantee: never a missed contact. Every bound is conservative in floating point; a pair
 * that misses by less than the documented rounding inflation may be reported too.
 *
 * Version: check `bdtree_version() == BDTREE_VERSION` at start-up (the object sizes and
 * constants below are those of one version of the library).
 *
 * Cost on a Cortex-M4F: instructions and stack of every f32 call `cargo xtask c` makes when
 * it replays the five fixture scenes (fixtures/scenes: 2-3 bodies of 68-1,280 triangles and
 * 0-90 modes; odd bodies with a vertex cache) on QEMU's mps2-an386 board (Cortex-M4F) under
 * `-icount shift=0`: instructions counted with SysTick as `cargo xtask qemu` counts the
 * firmware's, stack as the bytes a call wrote below its caller (found by painting, +-32 B);
 * library built by `cargo xtask c` (profile c-release), example by arm-none-eabi-gcc -O2.
 * Mean and largest per call, with the scene of the largest; refine per pair given; box rows
 * over the bodies whose box table is at most 128 KiB (the fold scene's and the demo's larger
 * ones are left out of the M4F's 4 MiB flash: compare them with bdtree_collide_f32 on the
 * same scenes only). The last
 * rows collide bodies 0 and 1 of each scene without and with vertex caches (states from
 * doubles). `cargo xtask c` measures them again and fails when one moves by more than 25 %
 * (`cargo xtask c --overwrite` rewrites them).
 *
 *   call                                             mean      largest (scene)    stack B
 *   bdtree_image_parse_f32 (per image)            3,031,092   15,145,240 (fold)      1,780
 *   bdtree_body_init_f32                             35,270       87,920 (demo)      1,500
 *   bdtree_body_set_state_f32                         1,392        3,320 (fold)        296
 *   bdtree_body_set_state_from_f64_f32               16,649       60,920 (fold)        796
 *   bdtree_collide_f32                            2,876,803    8,118,080 (demo)      1,064
 *   bdtree_collide_self_f32                         719,928    1,594,200 (fold)      3,888
 *   bdtree_box_table_init_f32 (per table)           601,740    1,817,720 (demo)        184
 *   bdtree_collide_boxes_f32 (15 axes)            2,783,683   18,196,880 (rigid)     1,928
 *   bdtree_refine_f32 (per pair given)               24,382       96,620 (fold)      5,304
 *   bdtree_collide_proxies_f32 (depth 4)             60,238       90,400 (fold)        464
 *   bdtree_distance_f32                           3,066,136   17,861,360 (demo)      1,896
 *   bdtree_collide_contacts_f32                   3,277,821    9,178,480 (demo)      1,576
 *   bdtree_within_f32 (d = 0.005)                 6,557,970   17,725,920 (demo)      1,736
 *   bdtree_collide_primitive_f32                    654,008    2,701,160 (demo)      1,832
 *   bdtree_collide_primitive_proxies_f32 (d. 4)       7,159        9,760 (thin)        336
 *   bdtree_traversal_run_f32 (64 tests)              10,819      117,920 (demo)      1,192
 *   bdtree_collide_world_f32 (all bodies)         7,425,049   19,803,080 (fold)      2,096
 *   bdtree_collide_f32, no vertex cache           8,882,786   71,402,400 (fold)        968
 *   bdtree_collide_f32, vertex caches             2,460,720    5,781,360 (fold)      1,056
 *   work per call without / with vertex caches: 9,870 / 7,177 node pairs, 1,300 / 1,277 sphere updates,
 *   24,987 / 21,496 sphere tests, 240 / 238 triangle tests (`bdtree_stats`).
 *   instructions without / with vertex caches, per scene: demo 1.9, fold 10.8, rigid 1.9, thin 2.1, touching 1.5
 */

#ifndef BDTREE_H
#define BDTREE_H

/* Generated from bindings/c/src by cbindgen (`cargo xtask c --overwrite`); do not edit. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
/* 32-bit targets (Cortex-M, Cortex-R) get objects sized for their 4-byte pointers. */
#if UINTPTR_MAX == 0xFFFFFFFFu
#define BDTREE_PTR32 1
#endif


// The library's version (this header's): major, minor, patch, as `bdtree-c`'s crate version.
#define BDTREE_VERSION_MAJOR 0

// Minor version (see `BDTREE_VERSION_MAJOR`).
#define BDTREE_VERSION_MINOR 1

// Patch version (see `BDTREE_VERSION_MAJOR`).
#define BDTREE_VERSION_PATCH 0

// The header's version as one number, `MAJOR · 1,000,000 + MINOR · 1,000 + PATCH`: what
// `bdtree_version()` returns when the library linked is the one this header was made with.
// Check `bdtree_version() == BDTREE_VERSION` once at start-up: the object sizes, constants
// and statuses of this header are those of one version of the library.
#define BDTREE_VERSION (((BDTREE_VERSION_MAJOR * 1000000) + (BDTREE_VERSION_MINOR * 1000)) + BDTREE_VERSION_PATCH)

#if !defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_image_f32`/`bdtree_image_f64` on a 64-bit target (the header
// gives 32-bit targets, `UINTPTR_MAX == 0xFFFFFFFF`, their own smaller sizes).
#define BDTREE_IMAGE_WORDS 68
#endif

#if defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_image_f32`/`bdtree_image_f64` on a 32-bit target.
#define BDTREE_IMAGE_WORDS 36
#endif

// Alignment, in bytes, of the storage given to `bdtree_body_init_*` and
// `bdtree_traversal_init_*` (and enough for tree images of either scalar).
#define BDTREE_STORAGE_ALIGN 8

// `options` bit of `bdtree_body_storage_size_*`/`bdtree_body_init_*`: add a cache of deformed
// world vertices, one entry per model vertex (`vertices` of `bdtree_image_info`):
// `BDTREE_VERTEX_ENTRY_BYTES_F32` (16) bytes per vertex in f32, `…_F64` (32) in f64, in the
// body's storage (`BDTREE_BODY_STORAGE_F32(nodes, modes, vertices)`). Each vertex a leaf test
// reaches is then deformed once per step instead of once per test, and each leaf is bounded
// by the sphere of its deformed triangle rather than its BD-Tree sphere (whose radius carries
// `Σ |q_j| ΔR_j`), so fewer node pairs pass. On the Cortex-M4F this cuts `bdtree_collide_f32`
// by 1.2× (touching, rigid bodies) to 11.7× (fold, 90 modes) on the fixture scenes, 1.9× on
// demo (the cost table at the top of this header), and it changes the work counters
// (`bdtree_stats`: fewer node pairs visited and sphere tests, 27 % and 14 % fewer over those
// scenes): compare counters only between bodies made with the same options. Answers do not
// change (the same pairs, contacts and distances). Use it unless RAM is shorter than time.
#define BDTREE_BODY_VERTEX_CACHE 1

// `options` bit of `bdtree_body_storage_size_*`/`bdtree_body_init_*`: add a cache of node
// boxes for the culled self-collision query (`bdtree_collide_self_*` on an image with its
// self-collision data; not the self pairs of `bdtree_collide_world_*`), one entry per node (`nodes` of `bdtree_image_info`):
// `BDTREE_BOX_ENTRY_BYTES_F32` (32) bytes per node in f32, `…_F64` (56) in f64, after the
// other parts of the body's storage (`BDTREE_BODY_STORAGE_F32(nodes, modes, vertices) +
// BDTREE_BODY_BOX_STORAGE_F32(nodes)`). Each leaf's box of its deformed triangle, and each
// node's up to four levels above the leaves, is made once per step where the self walk first
// reads it, and tested instead of the children's spheres: fewer node pairs on a body that
// folds onto itself. Answers do not change; the work counters of self queries do. Pays with
// `BDTREE_BODY_VERTEX_CACHE` beside it (without it each leaf's box deforms its triangle
// again); pair queries do not read it. An f64 body on a bare-metal target does not read it
// either (the boxes' code is left out of f64 builds there, for the flash).
#define BDTREE_BODY_BOX_CACHE 2

// Bytes of one sphere-cache entry in f32 (`[x, y, z, r]` and a step mark).
#define BDTREE_CACHE_ENTRY_BYTES_F32 20

// Bytes of one sphere-cache entry in f64.
#define BDTREE_CACHE_ENTRY_BYTES_F64 40

// Bytes of one vertex-cache entry in f32 (`[x, y, z]` and a step mark).
#define BDTREE_VERTEX_ENTRY_BYTES_F32 16

// Bytes of one vertex-cache entry in f64.
#define BDTREE_VERTEX_ENTRY_BYTES_F64 32

// Bytes of one box-cache entry in f32 (a box `lo`, `hi`, a step mark and whether it holds).
#define BDTREE_BOX_ENTRY_BYTES_F32 32

// Bytes of one box-cache entry in f64.
#define BDTREE_BOX_ENTRY_BYTES_F64 56

// Scalars of mode storage per mode: `q_j` and the update's weights `[q_j, q_j, q_j, |q_j|]`.
#define BDTREE_SCALARS_PER_MODE 5

#if !defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_body_f32` on a 64-bit target.
#define BDTREE_BODY_WORDS_F32 88
#endif

#if defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_body_f32` on a 32-bit target.
#define BDTREE_BODY_WORDS_F32 52
#endif

#if !defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_body_f64` on a 64-bit target.
#define BDTREE_BODY_WORDS_F64 104
#endif

#if defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_body_f64` on a 32-bit target.
#define BDTREE_BODY_WORDS_F64 62
#endif

// Bytes of a box table file's header (`bdtree_box_table_init_*`): the rows start there.
#define BDTREE_BOX_TABLE_HEADER_BYTES 32

// `axes` of `bdtree_collide_boxes_*`: the separating-axis test over all 15 axes (3 + 3 face
// normals, 9 edge cross products): exact for boxes, up to a rounding slack.
#define BDTREE_BOX_AXES_15 15

// `axes` of `bdtree_collide_boxes_*`: the 6 face normals only ("SAT lite"): cheaper per
// test, prunes less (it may keep boxes only an edge-edge axis separates), never the reverse.
#define BDTREE_BOX_AXES_6 6

#if !defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_box_table_f32`/`bdtree_box_table_f64` on a 64-bit target.
#define BDTREE_BOX_TABLE_WORDS 8
#endif

#if defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_box_table_f32`/`bdtree_box_table_f64` on a 32-bit target.
#define BDTREE_BOX_TABLE_WORDS 6
#endif

// Bytes of one swept front entry in f32 (`bdtree_swept_front_entry_f32`).
#define BDTREE_SWEPT_FRONT_ENTRY_BYTES_F32 12

// Bytes of one swept front entry in f64 (`bdtree_swept_front_entry_f64`).
#define BDTREE_SWEPT_FRONT_ENTRY_BYTES_F64 16

#if !defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_swept_front_f32`/`bdtree_swept_front_f64` on a 64-bit target.
#define BDTREE_SWEPT_FRONT_WORDS 16
#endif

#if defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_swept_front_f32`/`bdtree_swept_front_f64` on a 32-bit target.
#define BDTREE_SWEPT_FRONT_WORDS 12
#endif

// Swept front entries per node of each tree of a pair (`bdtree_swept_front_entries`; the share
// `bdtree inspect` prints per tree).
#define BDTREE_SWEPT_FRONT_PER_NODE 4

// Bytes of one pending pair of a traversal in f32.
#define BDTREE_PENDING_ENTRY_BYTES_F32 12

// Bytes of one pending pair of a traversal in f64.
#define BDTREE_PENDING_ENTRY_BYTES_F64 16

// Traversal order (`bdtree_traversal_init_*`): first in, first out — an interrupted query has
// refined all pairs to about the same level (the interruptible-collision paper's order).
#define BDTREE_ORDER_BREADTH_FIRST 0

// Traversal order: the pair with the largest sphere penetration first.
#define BDTREE_ORDER_DEEPEST_FIRST 1

// Traversal order: the pair with the largest `r_a + r_b` first (shrinks the cover fastest).
#define BDTREE_ORDER_LARGEST_FIRST 2

#if !defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_traversal_f32`/`bdtree_traversal_f64` on a 64-bit target.
#define BDTREE_TRAVERSAL_WORDS 12
#endif

#if defined(BDTREE_PTR32)
// 64-bit words of a `bdtree_traversal_f32`/`bdtree_traversal_f64` on a 32-bit target.
#define BDTREE_TRAVERSAL_WORDS 8
#endif

// Bytes of cone storage per node a self-collision query on an image with its culling data
// needs (`bdtree_collide_self_*`): one slot of a mark and a 14-bit cone.
#define BDTREE_CONE_SLOT_BYTES 8

// 64-bit words of a `bdtree_primitive_f32` (on every target).
#define BDTREE_PRIMITIVE_WORDS_F32 12

// 64-bit words of a `bdtree_primitive_f64` (on every target).
#define BDTREE_PRIMITIVE_WORDS_F64 20

// How a call ended. `BDTREE_STATUS_OK` (0) is success; `BDTREE_STATUS_INTERRUPTED` is the
// normal end of a budgeted traversal run with work left. Codes 1–99 mirror the kernel's
// `QueryStatus`/`RunStatus`, 100–199 are bad arguments, 200–299 are image errors, 300–399
// box table errors (`bdtree_box_table_init_*`).
// `bdtree_status_name` gives a sentence for each.
enum bdtree_status
#if defined(__cplusplus) || __STDC_VERSION__ >= 202311L
  : int32_t
#endif // defined(__cplusplus) || __STDC_VERSION__ >= 202311L
 {
  // Success: a query delivered every pair (or its complete answer), an image is valid, a
  // body is ready, a traversal has nothing left pending.
  BDTREE_STATUS_OK = 0,
  // A traversal's budget ran out: the pairs delivered so far and the pending pairs form a
  // conservative cover. Call `bdtree_traversal_run_*` again in the same step to resume.
  BDTREE_STATUS_INTERRUPTED = 1,
  // The output buffer is full: the pairs written are valid and more exist. Treat the bodies
  // as colliding (or query again with a larger buffer). A traversal keeps the refused pair
  // pending: a later run with room retries it.
  BDTREE_STATUS_OUTPUT_FULL = 2,
  // The stack is smaller than the query needs (`bdtree_stack_capacity` and siblings):
  // nothing was done. Treat the bodies as possibly colliding.
  BDTREE_STATUS_STACK_TOO_SMALL = 3,
  // A traversal's pending list is full: its cover is conservative, but it cannot progress.
  // Treat the pending pairs as colliding, or give it more storage.
  BDTREE_STATUS_PENDING_FULL = 4,
  // A proxy query on a tree built without nesting (`bdtree build --nested`): nothing was
  // done.
  BDTREE_STATUS_NOT_NESTED = 5,
  // A triangle query (or traversal) on a bounded-depth image, which stores no triangles:
  // nothing was done. Ask a proxy query instead.
  BDTREE_STATUS_TRUNCATED = 6,
  // A node or triangle index did not resolve (a body's tree and model disagree, or a pair
  // given to `bdtree_refine_*` names a triangle its body does not have): the answer is
  // incomplete; treat the bodies as possibly colliding.
  BDTREE_STATUS_INCONSISTENT = 7,
  // A body's state changed (`bdtree_body_set_state_*`) since `bdtree_traversal_start_*`:
  // nothing was done. Start again.
  BDTREE_STATUS_STATE_CHANGED = 8,
  // A required pointer is NULL.
  BDTREE_STATUS_NULL_POINTER = 100,
  // A pointer is not aligned for its type (storage: `BDTREE_STORAGE_ALIGN` bytes).
  BDTREE_STATUS_MISALIGNED = 101,
  // The storage given is smaller than `bdtree_body_storage_size_*` says (or a traversal's
  // storage holds no pending entry, or a world query's order, roots or pair filter, or a
  // pair filter's words, hold fewer entries than its body count needs).
  BDTREE_STATUS_STORAGE_TOO_SMALL = 102,
  // An object was used before its `…_init`/`…_parse` succeeded (or the wrong kind of object
  // was passed).
  BDTREE_STATUS_NOT_INITIALIZED = 103,
  // The same body was passed as both bodies of a pair query (use `bdtree_collide_self_*`),
  // or twice (or two overlapping objects) in a world query's body array.
  BDTREE_STATUS_SAME_BODY = 104,
  // `q` has a length other than the body's mode count.
  BDTREE_STATUS_WRONG_MODE_COUNT = 105,
  // A NaN or infinity in `q` (the rotation, the translation and the origin each have their
  // own status: `BDTREE_STATUS_NON_FINITE_ROTATION`, `…_TRANSLATION`, `…_ORIGIN`).
  BDTREE_STATUS_NON_FINITE = 106,
  // The rotation quaternion's norm is further than 10⁻⁶ from 1 (`| ‖q‖ − 1 | > 10⁻⁶`: the
  // kernel's `QUATERNION_TOLERANCE`, the same on every surface).
  BDTREE_STATUS_NOT_UNIT_QUATERNION = 107,
  // The image's tree and model disagree.
  BDTREE_STATUS_MODEL_MISMATCH = 108,
  // An argument is out of range (an unknown order, a node index, a count above capacity,
  // a length whose byte size overflows).
  BDTREE_STATUS_BAD_ARGUMENT = 109,
  // The state puts the body's coordinates beyond what its scalar computes with
  // (`|t| + the deformed extent` above 2³⁰ in f32, 2²⁵⁰ in f64): refused, the body keeps
  // its previous state. Move the origin closer (`bdtree_body_set_state_from_f64_*`).
  BDTREE_STATUS_STATE_OUT_OF_RANGE = 110,
  // A NaN or infinity in the rotation quaternion.
  BDTREE_STATUS_NON_FINITE_ROTATION = 111,
  // A NaN or infinity in the translation (of a state, of a box primitive's center, or one
  // given to `bdtree_floating_origin`).
  BDTREE_STATUS_NON_FINITE_TRANSLATION = 112,
  // A NaN or infinity in the floating origin (`bdtree_body_set_state_from_f64_*`).
  BDTREE_STATUS_NON_FINITE_ORIGIN = 113,
  // A NaN or infinity in a primitive (`bdtree_primitive_*`): its center, ends, normal,
  // offset, radius or half extents.
  BDTREE_STATUS_PRIMITIVE_NON_FINITE = 114,
  // A plane primitive's normal has zero length.
  BDTREE_STATUS_PRIMITIVE_ZERO_NORMAL = 115,
  // A primitive's radius or half extent is negative.
  BDTREE_STATUS_PRIMITIVE_NEGATIVE_RADIUS = 116,
  // The image is truncated: shorter than its header, or than its header's counts say
  // (`bdtree_image_check_*` gives both lengths).
  BDTREE_STATUS_IMAGE_TOO_SHORT = 200,
  // Not a bdtree image (bad magic).
  BDTREE_STATUS_IMAGE_BAD_MAGIC = 201,
  // A format version this library does not read.
  BDTREE_STATUS_IMAGE_UNSUPPORTED_VERSION = 202,
  // The image stores the other scalar (an f64 image given to an `_f32` function or the
  // reverse).
  BDTREE_STATUS_IMAGE_SCALAR_MISMATCH = 203,
  // Inconsistent node, triangle or vertex counts.
  BDTREE_STATUS_IMAGE_BAD_COUNTS = 204,
  // The sizes in the header overflow.
  BDTREE_STATUS_IMAGE_SIZE_OVERFLOW = 205,
  // The length given is longer than the header's counts say, or the header's total length
  // disagrees with its counts (a shorter length is `BDTREE_STATUS_IMAGE_TOO_SHORT`).
  BDTREE_STATUS_IMAGE_LENGTH_MISMATCH = 206,
  // A reserved header word or padding byte is not zero.
  BDTREE_STATUS_IMAGE_RESERVED_NOT_ZERO = 207,
  // The checksum does not match: the image is corrupt.
  BDTREE_STATUS_IMAGE_CHECKSUM_MISMATCH = 208,
  // The image bytes do not start at an address aligned for the scalar (4 or 8 bytes; 16
  // is always enough).
  BDTREE_STATUS_IMAGE_MISALIGNED = 209,
  // A NaN or infinity in a section.
  BDTREE_STATUS_IMAGE_NON_FINITE = 210,
  // A radius, growth or bound that must be non-negative is negative.
  BDTREE_STATUS_IMAGE_NEGATIVE = 211,
  // A node's children, triangle or depth are inconsistent.
  BDTREE_STATUS_IMAGE_BAD_LINK = 212,
  // A triangle refers to a vertex that does not exist.
  BDTREE_STATUS_IMAGE_BAD_FACE = 213,
  // A node exceeds the stored magnitude bounds.
  BDTREE_STATUS_IMAGE_BAD_STATS = 214,
  // Images are little-endian and so must the target be.
  BDTREE_STATUS_IMAGE_BIG_ENDIAN_TARGET = 215,
  // Unknown header flags.
  BDTREE_STATUS_IMAGE_UNKNOWN_FLAGS = 216,
  // The image claims nested bounds but a child is not inside its parent.
  BDTREE_STATUS_IMAGE_NOT_NESTED = 217,
  // An unknown row or model encoding.
  BDTREE_STATUS_IMAGE_UNKNOWN_ENCODING = 218,
  // Another image error (of a newer kernel), or a section a query reads where it uses it
  // found malformed there (a self query's `normals` or `spheres`).
  BDTREE_STATUS_IMAGE_INVALID = 299,
  // The box table is truncated: shorter than its header, or than the image's nodes and
  // modes say.
  BDTREE_STATUS_BOX_TABLE_TOO_SHORT = 300,
  // Not a box table (bad magic: a box table starts with `"BDTBOXES"`).
  BDTREE_STATUS_BOX_TABLE_BAD_MAGIC = 301,
  // A box table format version this library does not read.
  BDTREE_STATUS_BOX_TABLE_UNSUPPORTED_VERSION = 302,
  // The box table stores the other scalar (an f64 table given to an `_f32` function or the
  // reverse).
  BDTREE_STATUS_BOX_TABLE_SCALAR_MISMATCH = 303,
  // The box table belongs to another tree: its nodes, modes or image checksum differ from
  // the image's (`bdtree_box_table_init_*`), or a body was not made from the image its table
  // was validated against (`bdtree_collide_boxes_*`).
  BDTREE_STATUS_BOX_TABLE_WRONG_TREE = 304,
  // The box table is longer than the image's nodes and modes say.
  BDTREE_STATUS_BOX_TABLE_LENGTH_MISMATCH = 305,
  // The box table's checksum does not match: the table is corrupt.
  BDTREE_STATUS_BOX_TABLE_CHECKSUM_MISMATCH = 306,
  // A box table value is not finite, negative, a fourth lane is not zero, or a half-extent
  // or growth exceeds its sphere's radius or growth (`H <= R`, `dH_j <= dR_j`).
  BDTREE_STATUS_BOX_TABLE_BAD_VALUE = 307,
};
#ifndef __cplusplus
#if __STDC_VERSION__ >= 202311L
typedef enum bdtree_status bdtree_status;
#else
typedef int32_t bdtree_status;
#endif // __STDC_VERSION__ >= 202311L
#endif // __cplusplus

// A validated tree image of f32 scalars, viewed in place (`bdtree_image_parse_f32`). It
// borrows the image bytes: they must stay valid and unchanged while the view or any body made
// from it is used. Opaque; may be copied.
typedef struct bdtree_image_f32 {
  uint64_t _opaque[BDTREE_IMAGE_WORDS];
} bdtree_image_f32;

// What an image holds (`bdtree_image_info_*`).
typedef struct bdtree_image_info {
  // Tree nodes: the sphere cache has one entry per node.
  uint32_t nodes;
  // Triangles of the model the tree was built on.
  uint32_t triangles;
  // Vertices of the stored mesh (0 for a bounded-depth image).
  uint32_t vertices;
  // Modes `M`: `q` has `M` entries.
  uint32_t modes;
  // Depth of the deepest node (the root has depth 0): sizes the query stacks.
  uint32_t depth;
  // Scalar size in bytes (4 or 8).
  uint32_t scalar_bytes;
  // Image length in bytes.
  uint32_t bytes;
  // Nested bounds (built `--nested`): proxy queries work.
  bool nested;
  // Bounded depth (no mesh): only proxy queries work.
  bool bounded;
  // The image carries the self-collision culling data (`bdtree build --self-cull`):
  // `bdtree_collide_self_*` culls with it and needs `nodes × BDTREE_CONE_SLOT_BYTES` bytes
  // of cone storage.
  bool self_cull;
  // The image carries fitted spheres (a medial tree, or `bdtree build --fitted`).
  bool fitted;
} bdtree_image_info;

// A validated tree image of f64 scalars (`bdtree_image_parse_f64`).
typedef struct bdtree_image_f64 {
  uint64_t _opaque[BDTREE_IMAGE_WORDS];
} bdtree_image_f64;

// A body in f32 (`bdtree_body_init_f32`): pose, `q` and the lazy sphere cache in the caller's
// storage. It borrows the image bytes and its storage until it is no longer used (there is
// nothing to free). Opaque; do not copy (two copies would share one cache).
typedef struct bdtree_body_f32 {
  uint64_t _opaque[BDTREE_BODY_WORDS_F32];
} bdtree_body_f32;

// A body in f64 (`bdtree_body_init_f64`).
typedef struct bdtree_body_f64 {
  uint64_t _opaque[BDTREE_BODY_WORDS_F64];
} bdtree_body_f64;

// A tree's box table in f32, validated against its image (`bdtree_box_table_init_f32`). It
// borrows the table bytes: they must stay valid and unchanged while it is used. Opaque; may
// be copied.
typedef struct bdtree_box_table_f32 {
  uint64_t _opaque[BDTREE_BOX_TABLE_WORDS];
} bdtree_box_table_f32;

// One stack entry of a depth-first query: a pair of nodes (scratch space; its contents are
// meaningless to the caller).
typedef struct bdtree_node_pair {
  // Node of the first body.
  uint32_t a;
  // Node of the second body.
  uint32_t b;
} bdtree_node_pair;

// A pair of triangles, one of each body (indices in each mesh's face order; for a
// self-collision, two triangles of one body with `a < b`).
typedef struct bdtree_triangle_pair {
  // Triangle of the first body.
  uint32_t a;
  // Triangle of the second body.
  uint32_t b;
} bdtree_triangle_pair;

// Work counters of a query (optional output: pass NULL when not wanted).
typedef struct bdtree_stats {
  // Node pairs visited.
  uint32_t nodes_visited;
  // Spheres updated (first visit of a node in this step).
  uint32_t sphere_updates;
  // Sphere overlap tests (and distance bounds).
  uint32_t overlap_tests;
  // Exact triangle tests.
  uint32_t triangle_tests;
  // Items delivered.
  uint32_t pairs;
} bdtree_stats;

// A tree's box table in f64 (`bdtree_box_table_init_f64`).
typedef struct bdtree_box_table_f64 {
  uint64_t _opaque[BDTREE_BOX_TABLE_WORDS];
} bdtree_box_table_f64;

// A triangle pair that intersects, with its contact, in f32 (`bdtree_collide_contacts_f32`;
// `bdtree_collide_primitive_f32` gives `(triangle, 0)` pairs).
typedef struct bdtree_contact_f32 {
  // Triangle of the first body.
  uint32_t a;
  // Triangle of the second body (0 against a primitive).
  uint32_t b;
  // A point of the intersection (in the bodies' frame, see the header's conventions;
  // within the rounding tolerance of both triangles).
  float point[3];
  // Unit normal of least penetration, from the first body's triangle to the second's (to
  // the primitive).
  float normal[3];
  // Penetration depth along `normal`: moving the second triangle (the primitive) by
  // `depth · normal` separates the pair; within rounding of 0 for touching triangles.
  float depth;
} bdtree_contact_f32;

// A triangle pair at most a query's distance apart, with its witness points, in f32
// (`bdtree_within_f32`).
typedef struct bdtree_near_pair_f32 {
  // Triangle of the first body.
  uint32_t a;
  // Triangle of the second body.
  uint32_t b;
  // Their distance (0, up to rounding, when they intersect).
  float distance;
  // The witness on the first triangle.
  float point_a[3];
  // The witness on the second triangle.
  float point_b[3];
} bdtree_near_pair_f32;

// A triangle pair that intersects, with its contact, in f64.
typedef struct bdtree_contact_f64 {
  // Triangle of the first body.
  uint32_t a;
  // Triangle of the second body (0 against a primitive).
  uint32_t b;
  // A point of the intersection.
  double point[3];
  // Unit normal of least penetration, from the first body's triangle to the second's.
  double normal[3];
  // Penetration depth along `normal`.
  double depth;
} bdtree_contact_f64;

// A triangle pair at most a query's distance apart, in f64 (`bdtree_within_f64`).
typedef struct bdtree_near_pair_f64 {
  // Triangle of the first body.
  uint32_t a;
  // Triangle of the second body.
  uint32_t b;
  // Their distance (0, up to rounding, when they intersect).
  double distance;
  // The witness on the first triangle.
  double point_a[3];
  // The witness on the second triangle.
  double point_b[3];
} bdtree_near_pair_f64;

// An overlapping pair of contact proxies in f32 (`bdtree_collide_proxies_f32`).
typedef struct bdtree_proxy_pair_f32 {
  // The first body's proxy node.
  uint32_t a;
  // The second body's proxy node.
  uint32_t b;
  // The first proxy's world sphere `[x, y, z, r]` (units of the mesh).
  float sphere_a[4];
  // The second proxy's world sphere.
  float sphere_b[4];
  // Penetration depth `r_a + r_b − ‖c_b − c_a‖`; the contact normal is along `c_b − c_a`.
  float depth;
} bdtree_proxy_pair_f32;

// An overlapping pair of contact proxies in f64.
typedef struct bdtree_proxy_pair_f64 {
  // The first body's proxy node.
  uint32_t a;
  // The second body's proxy node.
  uint32_t b;
  // The first proxy's world sphere `[x, y, z, r]`.
  double sphere_a[4];
  // The second proxy's world sphere.
  double sphere_b[4];
  // Penetration depth `r_a + r_b − ‖c_b − c_a‖`.
  double depth;
} bdtree_proxy_pair_f64;

// A wrench in f32 in the caller's storage: what forces do to one body. `force` and `torque`
// are added to (zero them for a new step); `q` points to `q_len` floats, the generalized
// force on the body's reduced coordinates, of which the first `modes` (the image's mode
// count, `bdtree_image_info`) are added to — `q_len` below the body's modes is refused
// (`BDTREE_STATUS_WRONG_MODE_COUNT`, nothing added). `q` may be NULL when `q_len` is 0.
typedef struct bdtree_wrench_f32 {
  // Total force (the bodies' frame: world axes).
  float force[3];
  // Total torque about the body's translation (world axes).
  float torque[3];
  // The generalized force on the reduced coordinates (force × mesh units per unit of `q`).
  float *q;
  // Entries at `q`.
  size_t q_len;
} bdtree_wrench_f32;

// A penalty contact in f32: where and how hard (`bdtree_respond_f32`,
// `bdtree_respond_contact_f32`).
typedef struct bdtree_penalty_f32 {
  // Unit normal, from the first body to the second.
  float normal[3];
  // Penetration depth (0 when the call gave no force).
  float depth;
  // The point the force acts at (the bodies' frame).
  float point[3];
  // The force on the second body (`stiffness · depth · normal`); the first gets its negative.
  float force[3];
} bdtree_penalty_f32;

// A wrench in f64 in the caller's storage (see `bdtree_wrench_f32`).
typedef struct bdtree_wrench_f64 {
  // Total force.
  double force[3];
  // Total torque about the body's translation.
  double torque[3];
  // The generalized force on the reduced coordinates.
  double *q;
  // Entries at `q`.
  size_t q_len;
} bdtree_wrench_f64;

// A penalty contact in f64 (see `bdtree_penalty_f32`).
typedef struct bdtree_penalty_f64 {
  // Unit normal, from the first body to the second.
  double normal[3];
  // Penetration depth (0 when the call gave no force).
  double depth;
  // The point the force acts at.
  double point[3];
  // The force on the second body.
  double force[3];
} bdtree_penalty_f64;

// The nearest points of two bodies in f32 (`bdtree_distance_f32`).
typedef struct bdtree_nearest_f32 {
  // Minimum distance (0 when the bodies intersect), units of the mesh.
  float distance;
  // Witness point on the first body (world).
  float point_a[3];
  // Witness point on the second body (world).
  float point_b[3];
  // Unit normal from the first body to the second (zero when intersecting).
  float normal[3];
  // Triangle of the first body.
  uint32_t triangle_a;
  // Triangle of the second body.
  uint32_t triangle_b;
  // The two triangles intersect.
  bool intersecting;
} bdtree_nearest_f32;

// The nearest points of two bodies in f64.
typedef struct bdtree_nearest_f64 {
  // Minimum distance (0 when the bodies intersect).
  double distance;
  // Witness point on the first body (world).
  double point_a[3];
  // Witness point on the second body (world).
  double point_b[3];
  // Unit normal from the first body to the second (zero when intersecting).
  double normal[3];
  // Triangle of the first body.
  uint32_t triangle_a;
  // Triangle of the second body.
  uint32_t triangle_b;
  // The two triangles intersect.
  bool intersecting;
} bdtree_nearest_f64;

// A triangle pair that may touch during a motion, in f32 (`bdtree_collide_swept_f32`).
typedef struct bdtree_swept_pair_f32 {
  // Triangle of the first body.
  uint32_t a;
  // Triangle of the second body.
  uint32_t b;
  // A conservative earliest time of the motion, in [0, 1]: the pair cannot touch before it.
  float time;
} bdtree_swept_pair_f32;

// The swept front of one body pair in f32 (`bdtree_swept_front_init_f32`,
// `bdtree_collide_swept_front_f32`): what the front keeps between ticks besides its entries,
// which live in the caller's storage. Opaque; a zeroed object is refused
// (`BDTREE_STATUS_NOT_INITIALIZED`) until initialised; do not copy it.
typedef struct bdtree_swept_front_f32 {
  uint64_t _opaque[BDTREE_SWEPT_FRONT_WORDS];
} bdtree_swept_front_f32;

// What a swept front's last query did (`bdtree_swept_front_info_f32`/`_f64`).
typedef struct bdtree_swept_front_info {
  // Entries in the front after the last query (0 after one that failed or did not fit).
  size_t entries;
  // Entries the front can hold: half the entries of the storage the last query was given
  // (0 before the first).
  size_t capacity;
  // Entries the last query skipped on their margins: no work for their pairs.
  size_t certified;
  // Entries the last query walked again (their margins ran out).
  size_t retested;
  // Whether the last query's front did not fit its storage: the answer is complete, but the
  // next query walks from the root. Give it more storage.
  bool overflowed;
} bdtree_swept_front_info;

// One entry of a swept front's storage in f32 (`bdtree_collide_swept_front_f32`): a node pair
// and its margin, written and read by the front only (their contents are meaningless to the
// caller; do not write to them between calls).
typedef struct bdtree_swept_front_entry_f32 {
  // Node of the first body.
  uint32_t a;
  // Node of the second body.
  uint32_t b;
  // The margin left.
  float margin;
} bdtree_swept_front_entry_f32;

// A triangle pair that may touch during a motion, in f64.
typedef struct bdtree_swept_pair_f64 {
  // Triangle of the first body.
  uint32_t a;
  // Triangle of the second body.
  uint32_t b;
  // A conservative earliest time of the motion, in [0, 1].
  double time;
} bdtree_swept_pair_f64;

// The swept front of one body pair in f64 (`bdtree_swept_front_init_f64`).
typedef struct bdtree_swept_front_f64 {
  uint64_t _opaque[BDTREE_SWEPT_FRONT_WORDS];
} bdtree_swept_front_f64;

// One entry of a swept front's storage in f64.
typedef struct bdtree_swept_front_entry_f64 {
  // Node of the first body.
  uint32_t a;
  // Node of the second body.
  uint32_t b;
  // The margin left.
  double margin;
} bdtree_swept_front_entry_f64;

// An interruptible, resumable query between two f32 bodies (`bdtree_traversal_init_f32`): its
// pending list lives in the caller's storage. Opaque; do not copy.
typedef struct bdtree_traversal_f32 {
  uint64_t _opaque[BDTREE_TRAVERSAL_WORDS];
} bdtree_traversal_f32;

// An interruptible, resumable query between two f64 bodies (`bdtree_traversal_init_f64`).
typedef struct bdtree_traversal_f64 {
  uint64_t _opaque[BDTREE_TRAVERSAL_WORDS];
} bdtree_traversal_f64;

// An intersecting triangle pair of a world: two bodies (indices into the `bodies` array given
// to `bdtree_collide_world_*`, `a < b`, or `a == b` for a self-collision) and their triangles
// (each mesh's face order; for a self-collision `triangle_a < triangle_b`).
typedef struct bdtree_world_pair {
  // The first body.
  uint32_t a;
  // The second body.
  uint32_t b;
  // Triangle of body `a`.
  uint32_t triangle_a;
  // Triangle of body `b`.
  uint32_t triangle_b;
} bdtree_world_pair;

// Work counters of a world query (optional output: pass NULL when not wanted).
typedef struct bdtree_world_stats {
  // Root-sphere tests of the broad phase (allowed body pairs whose x extents overlap).
  uint32_t broad_tests;
  // Body pairs whose root spheres overlap: the pair queries run.
  uint32_t candidate_pairs;
  // The work counters of every pair and self query, summed.
  struct bdtree_stats queries;
} bdtree_world_stats;

// The penetration a contact Jacobian differentiates, in f32: the least penetration of the
// contact's two triangles at the bodies' current states and the features that give it (two
// states with the same features have depths on one smooth function of `q`).
typedef struct bdtree_penetration_f32 {
  // Unit normal of least penetration, from the first body's triangle to the second's.
  float normal[3];
  // The overlap along `normal` (negative when the triangles are apart along it).
  float depth;
  // The winning axis: 0 none (the triangles have no penetration axis: rows 0), 1 the first
  // triangle's normal, 2 the second's, 3 edge `edge_a` of the first × edge `edge_b` of the
  // second, 4 the first's normal × its edge `edge_a`, 5 the second's normal × its edge
  // `edge_b` (edge `i` runs from the triangle's vertex `i` to vertex `i + 1` mod 3).
  uint8_t axis;
  // The first triangle's edge of the axis (0 when the axis has none).
  uint8_t edge_a;
  // The second triangle's edge of the axis (0 when the axis has none).
  uint8_t edge_b;
  // 1 when the normal is the axis reversed, else 0.
  uint8_t reversed;
  // The first triangle's vertices at its extreme along the axis (bit `k` for vertex `k`).
  uint8_t vertices_a;
  // The second triangle's, likewise.
  uint8_t vertices_b;
} bdtree_penetration_f32;

// The penetration a contact Jacobian differentiates, in f64 (see `bdtree_penetration_f32`).
typedef struct bdtree_penetration_f64 {
  // Unit normal of least penetration, from the first body's triangle to the second's.
  double normal[3];
  // The overlap along `normal`.
  double depth;
  // The winning axis (see `bdtree_penetration_f32`).
  uint8_t axis;
  // The first triangle's edge of the axis.
  uint8_t edge_a;
  // The second triangle's edge of the axis.
  uint8_t edge_b;
  // 1 when the normal is the axis reversed.
  uint8_t reversed;
  // The first triangle's extreme vertices.
  uint8_t vertices_a;
  // The second triangle's.
  uint8_t vertices_b;
} bdtree_penetration_f64;

// A rigid primitive in f32 — a half-space, a ball, a capsule or an oriented box
// (`bdtree_primitive_plane_f32` and siblings), checked when made. Plain data: it borrows
// nothing, may be copied, and needs no clean-up.
typedef struct bdtree_primitive_f32 {
  uint64_t _opaque[BDTREE_PRIMITIVE_WORDS_F32];
} bdtree_primitive_f32;

// A contact proxy of a body whose sphere may touch a primitive, in f32
// (`bdtree_collide_primitive_proxies_f32`).
typedef struct bdtree_primitive_proxy_f32 {
  // The proxy node.
  uint32_t node;
  // Its world sphere `[x, y, z, r]`.
  float sphere[4];
  // How deep the sphere reaches into the primitive: its radius less its center's signed
  // distance to the primitive's surface (positive when it reaches in; within the tolerance
  // of 0, possibly negative, when it only may).
  float depth;
} bdtree_primitive_proxy_f32;

// A rigid primitive in f64 (`bdtree_primitive_plane_f64` and siblings).
typedef struct bdtree_primitive_f64 {
  uint64_t _opaque[BDTREE_PRIMITIVE_WORDS_F64];
} bdtree_primitive_f64;

// A contact proxy of a body whose sphere may touch a primitive, in f64.
typedef struct bdtree_primitive_proxy_f64 {
  // The proxy node.
  uint32_t node;
  // Its world sphere `[x, y, z, r]`.
  double sphere[4];
  // How deep the sphere reaches into the primitive.
  double depth;
} bdtree_primitive_proxy_f64;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// A sentence describing a status code (a static, NUL-terminated string; `"unknown status"`
// for a code that is none).
const char *bdtree_status_name(int32_t status);

// The library's version, `MAJOR · 1,000,000 + MINOR · 1,000 + PATCH` (0.1.0 is 1000). Check
// it against the header's at start-up — `if (bdtree_version() != BDTREE_VERSION)` refuse to
// run —: the object sizes, constants and statuses of a header are those of one version of the
// library, and a library of another version may lay its objects out differently.
uint32_t bdtree_version(void);

// Validates a tree image of f32 scalars and views it in place (zero-copy): header, length,
// checksum, every link, index and value (`O(size)`, once). On success `image` holds the view;
// on failure it is marked unusable and the status names the problem
// (`BDTREE_STATUS_IMAGE_…`; `bdtree_image_check_f32` gives the kernel's full message).
//
// # Safety
//
// `bytes` must point to `len` readable bytes, aligned to 4 (16 is always enough), that stay
// valid and unchanged while the image view or any body made from it is used (flash, a
// `static` array, or a heap block the caller frees afterwards). `image` must be NULL or
// point to writable memory for a `bdtree_image_f32`.
bdtree_status bdtree_image_parse_f32(const uint8_t *bytes,
                                     size_t len,
                                     struct bdtree_image_f32 *image);

// Validates a tree image of f32 scalars and writes the kernel's message into `message`:
// `"ok"`, or the problem (e.g. `"tree image checksum mismatch (stored 0x…, computed 0x…):
// the image is corrupt"`), truncated to `capacity − 1` bytes and NUL-terminated. Returns the
// status `bdtree_image_parse_f32` would.
//
// # Safety
//
// `bytes` must point to `len` readable bytes aligned to 4; `message` must point to
// `capacity` writable bytes (NULL when `capacity` is 0).
bdtree_status bdtree_image_check_f32(const uint8_t *bytes,
                                     size_t len,
                                     char *message,
                                     size_t capacity);

// Writes what a parsed image holds (nodes, triangles, vertices, modes, depth, …) to `info`.
//
// # Safety
//
// `image` must be NULL or point to a `bdtree_image_f32` (parsed, or at least zeroed);
// `info` must be NULL or writable.
bdtree_status bdtree_image_info_f32(const struct bdtree_image_f32 *image,
                                    struct bdtree_image_info *info);

// Validates a tree image of f64 scalars and views it in place (zero-copy): header, length,
// checksum, every link, index and value (`O(size)`, once). On success `image` holds the view;
// on failure it is marked unusable and the status names the problem
// (`BDTREE_STATUS_IMAGE_…`; `bdtree_image_check_f64` gives the kernel's full message).
//
// # Safety
//
// `bytes` must point to `len` readable bytes, aligned to 8 (16 is always enough), that stay
// valid and unchanged while the image view or any body made from it is used (flash, a
// `static` array, or a heap block the caller frees afterwards). `image` must be NULL or
// point to writable memory for a `bdtree_image_f64`.
bdtree_status bdtree_image_parse_f64(const uint8_t *bytes,
                                     size_t len,
                                     struct bdtree_image_f64 *image);

// Validates a tree image of f64 scalars and writes the kernel's message into `message`:
// `"ok"`, or the problem (e.g. `"tree image checksum mismatch (stored 0x…, computed 0x…):
// the image is corrupt"`), truncated to `capacity − 1` bytes and NUL-terminated. Returns the
// status `bdtree_image_parse_f64` would.
//
// # Safety
//
// `bytes` must point to `len` readable bytes aligned to 8; `message` must point to
// `capacity` writable bytes (NULL when `capacity` is 0).
bdtree_status bdtree_image_check_f64(const uint8_t *bytes,
                                     size_t len,
                                     char *message,
                                     size_t capacity);

// Writes what a parsed image holds (nodes, triangles, vertices, modes, depth, …) to `info`.
//
// # Safety
//
// `image` must be NULL or point to a `bdtree_image_f64` (parsed, or at least zeroed);
// `info` must be NULL or writable.
bdtree_status bdtree_image_info_f64(const struct bdtree_image_f64 *image,
                                    struct bdtree_image_info *info);

// The floating origin of a query over bodies at `count` world translations
// (`translations[3k..3k+3]` is the k-th): the centre of their axis-aligned box,
// `0.5 · min + 0.5 · max` per axis in double (the world origin for `count` 0). This is the one
// placing rule of every surface of bdtree (the kernel's `floating_origin`); a client that
// follows it gets the answers of the Rust kernel placed the same way, bit for bit, and of the
// command-line tool (its runners place a two-body scene's pairs so: a test holds it):
//
// * a body pair (`bdtree_collide_*`, `…_contacts_*`, `bdtree_within_*`, `bdtree_distance_*`,
//   `…_proxies_*`, a traversal): the origin of the two bodies' translations;
// * a swept pair (`bdtree_collide_swept_*`): of the four translations, both bodies at both
//   ends of the motion;
// * a body's self pairs (`bdtree_collide_self_*`): of its own translation;
// * a world (`bdtree_collide_world_*`): of every body's translation, one origin for all (each
//   pair's precision is then that of the whole world's extent);
// * a body against a primitive (`bdtree_collide_primitive_*`): of the body's own
//   translation, the primitive's coordinates given less the same origin (subtracted in double).
//
// Then set each body of the query with `bdtree_body_set_state_from_f64_*` relative to that
// origin, and add the origin back (in double) to the points, witnesses and spheres the query
// gives. A pair's f32 precision then depends on the two bodies' sizes and their distance from
// each other only, not on where other bodies or the robot cell sit. A body in several pairs
// takes its state again for each (`O(M)`; its sphere cache starts over).
//
// Returns `BDTREE_STATUS_NON_FINITE_TRANSLATION` (origin 0) for a NaN or infinite translation.
//
// # Safety
//
// `translations` must point to `3 · count` readable doubles (NULL when `count` is 0);
// `origin` to 3 writable doubles.
bdtree_status bdtree_floating_origin(const double *translations, size_t count, double *origin);

// Bytes of storage a body over `image` needs: the sphere cache (`nodes ×
// BDTREE_CACHE_ENTRY_BYTES_F32`), the mode storage (`5M` floats) and, with
// `BDTREE_BODY_VERTEX_CACHE` in `options`, the vertex cache (`vertices ×
// BDTREE_VERTEX_ENTRY_BYTES_F32`) and, with `BDTREE_BODY_BOX_CACHE`, the box cache
// (`nodes × BDTREE_BOX_ENTRY_BYTES_F32`), each rounded up to 8 bytes — the same number as
// the header's `BDTREE_BODY_STORAGE_F32(nodes, modes, vertices)` (plus
// `BDTREE_BODY_BOX_STORAGE_F32(nodes)` with the box cache) for static storage. Returns 0
// for an unusable image or unknown options.
//
// # Safety
//
// `image` must be NULL or point to a `bdtree_image_f32` (parsed, or at least zeroed).
size_t bdtree_body_storage_size_f32(const struct bdtree_image_f32 *image, uint32_t options);

// Makes a body over a parsed image at the identity pose and `q = 0`, in the caller's object
// `body` and the caller's `storage` (at least `bdtree_body_storage_size_f32(image, options)`
// bytes, aligned to `BDTREE_STORAGE_ALIGN`; it is zeroed here). The image view itself may be
// discarded afterwards; its bytes may not. On failure `body` is marked unusable.
//
// # Safety
//
// `body` must be NULL or point to writable memory for a `bdtree_body_f32`; `image` NULL or a
// `bdtree_image_f32`; `storage` NULL or `len` writable bytes that nothing else uses while the
// body is used.
bdtree_status bdtree_body_init_f32(struct bdtree_body_f32 *body,
                                   const struct bdtree_image_f32 *image,
                                   void *storage,
                                   size_t len,
                                   uint32_t options);

// Starts a new step: sets the body's pose — a unit quaternion `rotation = (w, x, y, z)`
// (scalar first; refused, not normalised, when `| ‖q‖ − 1 | > 10⁻⁶`) and `translation =
// (x, y, z)`, so that a world vertex is `R (p + U q) + t` — and its reduced coordinates `q`
// (`q_len` must equal the image's mode count; NULL with 0 for a rigid body). `O(M)`; every
// cached sphere becomes stale in `O(1)`. The values are taken as exact: answers are
// conservative against them (a caller holding doubles should use
// `bdtree_body_set_state_from_f64_f32`). A refused state (any status but `Ok`) changes
// nothing: the body keeps its previous state.
//
// # Safety
//
// `body` must be NULL or point to a `bdtree_body_f32`; `rotation` NULL or 4 readable floats;
// `translation` NULL or 3; `q` `q_len` readable floats (NULL when `q_len` is 0).
bdtree_status bdtree_body_set_state_f32(struct bdtree_body_f32 *body,
                                        const float *rotation,
                                        const float *translation,
                                        const float *q,
                                        size_t q_len);

// Starts a new step from a state held in doubles: as `bdtree_body_set_state_f32`, with
// `translation − origin` computed in double before anything is rounded (a **floating origin**:
// give both bodies of a query the same `origin`, the one `bdtree_floating_origin` computes
// from their translations, and the query's precision depends on how far the bodies are apart,
// not on where the robot cell sits; every world coordinate the queries then give for this
// body — spheres, contact points, witnesses — is relative to `origin`). The rounding of the state to the body's scalar is bounded and widens
// every test of the step, so answers are conservative against the state as given. `O(M)` in
// double (soft float on most Cortex-M cores). A refused state changes nothing.
//
// # Safety
//
// `body` must be NULL or point to a `bdtree_body_f32`; `rotation` NULL or 4 readable
// doubles; `translation` and `origin` NULL or 3; `q` `q_len` readable doubles (NULL when
// `q_len` is 0).
bdtree_status bdtree_body_set_state_from_f64_f32(struct bdtree_body_f32 *body,
                                                 const double *rotation,
                                                 const double *translation,
                                                 const double *origin,
                                                 const double *q,
                                                 size_t q_len);

// Writes node `node`'s world sphere `[x, y, z, r]` for the body's step to `sphere` (node 0 is
// the root: a bounding sphere of the deformed body, for a broad phase). Computed on first use
// in the step (`4M + 9` multiply-adds), then read from the cache.
//
// # Safety
//
// `body` must be NULL or point to a `bdtree_body_f32`; `sphere` NULL or 4 writable floats.
bdtree_status bdtree_body_sphere_f32(struct bdtree_body_f32 *body, uint32_t node, float *sphere);

// Bytes of storage a body over `image` needs: the sphere cache (`nodes ×
// BDTREE_CACHE_ENTRY_BYTES_F64`), the mode storage (`5M` doubles) and, with
// `BDTREE_BODY_VERTEX_CACHE` in `options`, the vertex cache (`vertices ×
// BDTREE_VERTEX_ENTRY_BYTES_F64`) and, with `BDTREE_BODY_BOX_CACHE`, the box cache
// (`nodes × BDTREE_BOX_ENTRY_BYTES_F64`), each rounded up to 8 bytes — the same number as
// the header's `BDTREE_BODY_STORAGE_F64(nodes, modes, vertices)` (plus
// `BDTREE_BODY_BOX_STORAGE_F64(nodes)` with the box cache) for static storage. Returns 0
// for an unusable image or unknown options.
//
// # Safety
//
// `image` must be NULL or point to a `bdtree_image_f64` (parsed, or at least zeroed).
size_t bdtree_body_storage_size_f64(const struct bdtree_image_f64 *image, uint32_t options);

// Makes a body over a parsed image at the identity pose and `q = 0`, in the caller's object
// `body` and the caller's `storage` (at least `bdtree_body_storage_size_f64(image, options)`
// bytes, aligned to `BDTREE_STORAGE_ALIGN`; it is zeroed here). The image view itself may be
// discarded afterwards; its bytes may not. On failure `body` is marked unusable.
//
// # Safety
//
// `body` must be NULL or point to writable memory for a `bdtree_body_f64`; `image` NULL or a
// `bdtree_image_f64`; `storage` NULL or `len` writable bytes that nothing else uses while the
// body is used.
bdtree_status bdtree_body_init_f64(struct bdtree_body_f64 *body,
                                   const struct bdtree_image_f64 *image,
                                   void *storage,
                                   size_t len,
                                   uint32_t options);

// Starts a new step: sets the body's pose — a unit quaternion `rotation = (w, x, y, z)`
// (scalar first; refused, not normalised, when `| ‖q‖ − 1 | > 10⁻⁶`) and `translation =
// (x, y, z)`, so that a world vertex is `R (p + U q) + t` — and its reduced coordinates `q`
// (`q_len` must equal the image's mode count; NULL with 0 for a rigid body). `O(M)`; every
// cached sphere becomes stale in `O(1)`. The values are taken as exact: answers are
// conservative against them (a caller holding doubles should use
// `bdtree_body_set_state_from_f64_f64`). A refused state (any status but `Ok`) changes
// nothing: the body keeps its previous state.
//
// # Safety
//
// `body` must be NULL or point to a `bdtree_body_f64`; `rotation` NULL or 4 readable doubles;
// `translation` NULL or 3; `q` `q_len` readable doubles (NULL when `q_len` is 0).
bdtree_status bdtree_body_set_state_f64(struct bdtree_body_f64 *body,
                                        const double *rotation,
                                        const double *translation,
                                        const double *q,
                                        size_t q_len);

// Starts a new step from a state held in doubles: as `bdtree_body_set_state_f64`, with
// `translation − origin` computed in double before anything is rounded (a **floating origin**:
// give both bodies of a query the same `origin`, the one `bdtree_floating_origin` computes
// from their translations, and the query's precision depends on how far the bodies are apart,
// not on where the robot cell sits; every world coordinate the queries then give for this
// body — spheres, contact points, witnesses — is relative to `origin`). The rounding of the state to the body's scalar is bounded and widens
// every test of the step, so answers are conservative against the state as given. `O(M)` in
// double (soft float on most Cortex-M cores). A refused state changes nothing.
//
// # Safety
//
// `body` must be NULL or point to a `bdtree_body_f64`; `rotation` NULL or 4 readable
// doubles; `translation` and `origin` NULL or 3; `q` `q_len` readable doubles (NULL when
// `q_len` is 0).
bdtree_status bdtree_body_set_state_from_f64_f64(struct bdtree_body_f64 *body,
                                                 const double *rotation,
                                                 const double *translation,
                                                 const double *origin,
                                                 const double *q,
                                                 size_t q_len);

// Writes node `node`'s world sphere `[x, y, z, r]` for the body's step to `sphere` (node 0 is
// the root: a bounding sphere of the deformed body, for a broad phase). Computed on first use
// in the step (`4M + 9` multiply-adds), then read from the cache.
//
// # Safety
//
// `body` must be NULL or point to a `bdtree_body_f64`; `sphere` NULL or 4 writable doubles.
bdtree_status bdtree_body_sphere_f64(struct bdtree_body_f64 *body, uint32_t node, double *sphere);

// Stack entries (`bdtree_node_pair`) a triangle or distance query between trees of depths
// `depth_a` and `depth_b` needs: `depth_a + depth_b + min(depth_a, depth_b) + 3`.
size_t bdtree_stack_capacity(uint32_t depth_a, uint32_t depth_b);

// Validates a tree's box table against its image, once, and views it in place (zero-copy).
// The table is made on a host (`bdtree boxes TREE.bdt -o TABLE`, computed in double
// precision from the image's own model and rounded up) and loaded beside the image.
//
// Format (`bdtree_std::build::box_file`): a 32-byte header of little-endian 32-bit words —
// bytes 0-7 the magic `"BDTBOXES"`, 8-11 the format version (1), 12-15 the scalar's bytes
// (4 or 8, the image's), 16-19 the nodes N and 20-23 the modes M (the image's), 24-27 the
// image's checksum (the CRC-32 in the image header: the tree the table belongs to), 28-31
// the CRC-32 of bytes 32 to the end — then N (M + 1) rows of 4 little-endian scalars: per
// node `[H_x, H_y, H_z, 0]`, the box half-extents about the node's sphere center in the
// body's axes, then per mode `[dH_jx, dH_jy, dH_jz, 0]`, their growth per unit `|q_j|`.
// Its size is `BDTREE_BOX_TABLE_HEADER_BYTES + 4 N (M + 1) s` bytes, `s` the scalar's
// bytes (4 or 8).
//
// Checks, in order, each with its status: a bounded-depth image (`BDTREE_STATUS_TRUNCATED`:
// no mesh to bound); the magic (`…_BOX_TABLE_BAD_MAGIC`), the version (`…_UNSUPPORTED_VERSION`),
// the scalar (`…_SCALAR_MISMATCH`); nodes, modes and image checksum against `image`
// (`…_WRONG_TREE`); the length (`…_TOO_SHORT` for a header or table cut short,
// `…_LENGTH_MISMATCH` for bytes beyond it); the CRC (`…_CHECKSUM_MISMATCH`); every value
// finite, non-negative, the fourth lanes 0, and each within its sphere's matching bound
// `H <= R`, `dH_j <= dR_j` (`…_BAD_VALUE`). `O(size)`. On success `table` holds the view;
// on failure it is marked unusable.
//
// # Safety
//
// `bytes` must point to `len` readable bytes, aligned to 4 (16 is always enough), that stay
// valid and unchanged while the table is used. `image` must be NULL or point to a
// `bdtree_image_f32`; `table` NULL or writable memory for a `bdtree_box_table_f32`.
bdtree_status bdtree_box_table_init_f32(const uint8_t *bytes,
                                        size_t len,
                                        const struct bdtree_image_f32 *image,
                                        struct bdtree_box_table_f32 *table);

// `bdtree_collide_f32` with box bounds: the same intersecting triangle pairs, node pairs
// pruned by oriented boxes (each centred on its node's BD-Tree center `c + U q`, aligned
// with the body's axes, half-extents `H + sum_j dH_j |q_j|`) instead of spheres. Boxes
// prune better on flat or elongated nodes (sheets, limbs), spheres on round ones; a box
// test costs more than a sphere test. Conservative as `bdtree_collide_f32`: the boxes hold
// their node's deformed geometry with its rounding, so every intersecting pair is
// reported, and the leaf test is the same (refine an f32 answer with `bdtree_refine_f32`).
//
// `table_a` and `table_b` are the box tables of the images `a` and `b` were made from
// (`bdtree_box_table_init_f32` with that image; `BDTREE_STATUS_BOX_TABLE_WRONG_TREE`
// otherwise). `axes` is `BDTREE_BOX_AXES_15` (the exact separating-axis test) or
// `BDTREE_BOX_AXES_6` (face axes only); anything else is `BDTREE_STATUS_BAD_ARGUMENT`.
// Stack, output buffer, `count`, `stats` and the other statuses as `bdtree_collide_f32`
// (`bdtree_stack_capacity(depth_a, depth_b)` entries).
//
// # Safety
//
// As `bdtree_collide_f32`; `table_a` and `table_b` must be NULL or point to
// `bdtree_box_table_f32` objects whose bytes are still valid.
bdtree_status bdtree_collide_boxes_f32(struct bdtree_body_f32 *a,
                                       const struct bdtree_box_table_f32 *table_a,
                                       struct bdtree_body_f32 *b,
                                       const struct bdtree_box_table_f32 *table_b,
                                       uint32_t axes,
                                       struct bdtree_node_pair *stack,
                                       size_t stack_len,
                                       struct bdtree_triangle_pair *pairs,
                                       size_t capacity,
                                       size_t *count,
                                       struct bdtree_stats *stats);

// Validates a tree's box table against its image, once, and views it in place (zero-copy).
// The table is made on a host (`bdtree boxes TREE.bdt -o TABLE`, computed in double
// precision from the image's own model and rounded up) and loaded beside the image.
//
// Format (`bdtree_std::build::box_file`): a 32-byte header of little-endian 32-bit words —
// bytes 0-7 the magic `"BDTBOXES"`, 8-11 the format version (1), 12-15 the scalar's bytes
// (4 or 8, the image's), 16-19 the nodes N and 20-23 the modes M (the image's), 24-27 the
// image's checksum (the CRC-32 in the image header: the tree the table belongs to), 28-31
// the CRC-32 of bytes 32 to the end — then N (M + 1) rows of 4 little-endian scalars: per
// node `[H_x, H_y, H_z, 0]`, the box half-extents about the node's sphere center in the
// body's axes, then per mode `[dH_jx, dH_jy, dH_jz, 0]`, their growth per unit `|q_j|`.
// Its size is `BDTREE_BOX_TABLE_HEADER_BYTES + 4 N (M + 1) s` bytes, `s` the scalar's
// bytes (4 or 8).
//
// Checks, in order, each with its status: a bounded-depth image (`BDTREE_STATUS_TRUNCATED`:
// no mesh to bound); the magic (`…_BOX_TABLE_BAD_MAGIC`), the version (`…_UNSUPPORTED_VERSION`),
// the scalar (`…_SCALAR_MISMATCH`); nodes, modes and image checksum against `image`
// (`…_WRONG_TREE`); the length (`…_TOO_SHORT` for a header or table cut short,
// `…_LENGTH_MISMATCH` for bytes beyond it); the CRC (`…_CHECKSUM_MISMATCH`); every value
// finite, non-negative, the fourth lanes 0, and each within its sphere's matching bound
// `H <= R`, `dH_j <= dR_j` (`…_BAD_VALUE`). `O(size)`. On success `table` holds the view;
// on failure it is marked unusable.
//
// # Safety
//
// `bytes` must point to `len` readable bytes, aligned to 8 (16 is always enough), that stay
// valid and unchanged while the table is used. `image` must be NULL or point to a
// `bdtree_image_f64`; `table` NULL or writable memory for a `bdtree_box_table_f64`.
bdtree_status bdtree_box_table_init_f64(const uint8_t *bytes,
                                        size_t len,
                                        const struct bdtree_image_f64 *image,
                                        struct bdtree_box_table_f64 *table);

// `bdtree_collide_f64` with box bounds: the same intersecting triangle pairs, node pairs
// pruned by oriented boxes (each centred on its node's BD-Tree center `c + U q`, aligned
// with the body's axes, half-extents `H + sum_j dH_j |q_j|`) instead of spheres. Boxes
// prune better on flat or elongated nodes (sheets, limbs), spheres on round ones; a box
// test costs more than a sphere test. Conservative as `bdtree_collide_f64`: the boxes hold
// their node's deformed geometry with its rounding, so every intersecting pair is
// reported, and the leaf test is the same (refine an f64 answer with `bdtree_refine_f64`).
//
// `table_a` and `table_b` are the box tables of the images `a` and `b` were made from
// (`bdtree_box_table_init_f64` with that image; `BDTREE_STATUS_BOX_TABLE_WRONG_TREE`
// otherwise). `axes` is `BDTREE_BOX_AXES_15` (the exact separating-axis test) or
// `BDTREE_BOX_AXES_6` (face axes only); anything else is `BDTREE_STATUS_BAD_ARGUMENT`.
// Stack, output buffer, `count`, `stats` and the other statuses as `bdtree_collide_f64`
// (`bdtree_stack_capacity(depth_a, depth_b)` entries).
//
// # Safety
//
// As `bdtree_collide_f64`; `table_a` and `table_b` must be NULL or point to
// `bdtree_box_table_f64` objects whose bytes are still valid.
bdtree_status bdtree_collide_boxes_f64(struct bdtree_body_f64 *a,
                                       const struct bdtree_box_table_f64 *table_a,
                                       struct bdtree_body_f64 *b,
                                       const struct bdtree_box_table_f64 *table_b,
                                       uint32_t axes,
                                       struct bdtree_node_pair *stack,
                                       size_t stack_len,
                                       struct bdtree_triangle_pair *pairs,
                                       size_t capacity,
                                       size_t *count,
                                       struct bdtree_stats *stats);

// Finds every intersecting triangle pair of two bodies, as `bdtree_collide_f32` does (the same
// walk, spheres and exact test), and writes each with its contact to `contacts`: a point of
// the intersection (within the rounding tolerance of both triangles), the unit normal of least
// penetration from `a`'s triangle to `b`'s, and the depth along it (moving `b`'s triangle by
// `depth · normal` separates the pair). `*count` of them, in traversal order; `stack` needs
// `bdtree_stack_capacity(depth_a, depth_b)` entries. Statuses as `bdtree_collide_f32`.
//
// # Safety
//
// As `bdtree_collide_f32`, with `contacts` pointing to `capacity` writable entries.
bdtree_status bdtree_collide_contacts_f32(struct bdtree_body_f32 *a,
                                          struct bdtree_body_f32 *b,
                                          struct bdtree_node_pair *stack,
                                          size_t stack_len,
                                          struct bdtree_contact_f32 *contacts,
                                          size_t capacity,
                                          size_t *count,
                                          struct bdtree_stats *stats);

// Finds every triangle pair of two bodies at most `distance` apart (intersecting pairs at
// distance 0 included) and writes each with its distance and witness points to `pairs`
// (`*count` of them, in traversal order). Conservative: never misses a pair within `distance`;
// may add pairs up to twice the rounding tolerance farther. `distance` must be finite and
// ≥ 0 (else `BDTREE_STATUS_BAD_ARGUMENT`); `stack` needs `bdtree_stack_capacity(depth_a,
// depth_b)` entries. Statuses otherwise as `bdtree_collide_f32`.
//
// # Safety
//
// As `bdtree_collide_f32`, with `pairs` pointing to `capacity` writable entries.
bdtree_status bdtree_within_f32(struct bdtree_body_f32 *a,
                                struct bdtree_body_f32 *b,
                                float distance,
                                struct bdtree_node_pair *stack,
                                size_t stack_len,
                                struct bdtree_near_pair_f32 *pairs,
                                size_t capacity,
                                size_t *count,
                                struct bdtree_stats *stats);

// Finds every intersecting triangle pair of two bodies, as `bdtree_collide_f64` does (the same
// walk, spheres and exact test), and writes each with its contact to `contacts`: a point of
// the intersection (within the rounding tolerance of both triangles), the unit normal of least
// penetration from `a`'s triangle to `b`'s, and the depth along it (moving `b`'s triangle by
// `depth · normal` separates the pair). `*count` of them, in traversal order; `stack` needs
// `bdtree_stack_capacity(depth_a, depth_b)` entries. Statuses as `bdtree_collide_f64`.
//
// # Safety
//
// As `bdtree_collide_f64`, with `contacts` pointing to `capacity` writable entries.
bdtree_status bdtree_collide_contacts_f64(struct bdtree_body_f64 *a,
                                          struct bdtree_body_f64 *b,
                                          struct bdtree_node_pair *stack,
                                          size_t stack_len,
                                          struct bdtree_contact_f64 *contacts,
                                          size_t capacity,
                                          size_t *count,
                                          struct bdtree_stats *stats);

// Finds every triangle pair of two bodies at most `distance` apart (intersecting pairs at
// distance 0 included) and writes each with its distance and witness points to `pairs`
// (`*count` of them, in traversal order). Conservative: never misses a pair within `distance`;
// may add pairs up to twice the rounding tolerance farther. `distance` must be finite and
// ≥ 0 (else `BDTREE_STATUS_BAD_ARGUMENT`); `stack` needs `bdtree_stack_capacity(depth_a,
// depth_b)` entries. Statuses otherwise as `bdtree_collide_f64`.
//
// # Safety
//
// As `bdtree_collide_f64`, with `pairs` pointing to `capacity` writable entries.
bdtree_status bdtree_within_f64(struct bdtree_body_f64 *a,
                                struct bdtree_body_f64 *b,
                                double distance,
                                struct bdtree_node_pair *stack,
                                size_t stack_len,
                                struct bdtree_near_pair_f64 *pairs,
                                size_t capacity,
                                size_t *count,
                                struct bdtree_stats *stats);

// Stack entries a proxy query needs, for trees of depths `tree_depth_a`, `tree_depth_b`
// queried at proxy depths `proxy_depth_a`, `proxy_depth_b`.
size_t bdtree_proxy_stack_capacity(uint32_t tree_depth_a,
                                   uint32_t proxy_depth_a,
                                   uint32_t tree_depth_b,
                                   uint32_t proxy_depth_b);

// The bounded-depth query for contact response: every pair of contact proxies (nodes at depth
// `depth_a` of `a` and `depth_b` of `b`, or leaves above them) whose world spheres overlap,
// with both spheres and the penetration depth. The trees must be nested (`bdtree build
// --nested`; otherwise `BDTREE_STATUS_NOT_NESTED`); every intersecting triangle pair lies
// under a reported proxy pair. `stack` needs `bdtree_proxy_stack_capacity(…)` entries.
//
// # Safety
//
// As `bdtree_collide_f32`.
bdtree_status bdtree_collide_proxies_f32(struct bdtree_body_f32 *a,
                                         uint32_t depth_a,
                                         struct bdtree_body_f32 *b,
                                         uint32_t depth_b,
                                         struct bdtree_node_pair *stack,
                                         size_t stack_len,
                                         struct bdtree_proxy_pair_f32 *pairs,
                                         size_t capacity,
                                         size_t *count,
                                         struct bdtree_stats *stats);

// The bounded-depth query for contact response: every pair of contact proxies (nodes at depth
// `depth_a` of `a` and `depth_b` of `b`, or leaves above them) whose world spheres overlap,
// with both spheres and the penetration depth. The trees must be nested (`bdtree build
// --nested`; otherwise `BDTREE_STATUS_NOT_NESTED`); every intersecting triangle pair lies
// under a reported proxy pair. `stack` needs `bdtree_proxy_stack_capacity(…)` entries.
//
// # Safety
//
// As `bdtree_collide_f64`.
bdtree_status bdtree_collide_proxies_f64(struct bdtree_body_f64 *a,
                                         uint32_t depth_a,
                                         struct bdtree_body_f64 *b,
                                         uint32_t depth_b,
                                         struct bdtree_node_pair *stack,
                                         size_t stack_len,
                                         struct bdtree_proxy_pair_f64 *pairs,
                                         size_t capacity,
                                         size_t *count,
                                         struct bdtree_stats *stats);

// The penalty response of an overlapping pair of contact proxies (as
// `bdtree_collide_proxies_f32` gives it, spheres in the bodies' frame): force
// `stiffness · depth` along the unit normal from a's sphere centre to b's, at the middle
// of the overlap, pushing `b` (and `a` the other way). Adds to each body's wrench the
// force, its torque about the body's translation and the generalized force `Ūᵀ Rᵀ f`
// through the proxy node's `Ū` (kernel `respond_mut`; `3M + 15` multiply-adds per body).
// Writes the contact to `penalty` (NULL: not wanted); spheres that do not overlap (or are
// concentric) give no force: `BDTREE_STATUS_OK`, wrenches unchanged, a penalty of zeros.
// A node index the tree does not have, a stiffness negative or not finite, or the same
// wrench (or overlapping `q` arrays) for both bodies: `BDTREE_STATUS_BAD_ARGUMENT`, nothing
// added.
//
// # Safety
//
// `pair` NULL or readable; `a`, `b` NULL or distinct initialised bodies (their state the
// one the pair was found at); `wrench_a`, `wrench_b` NULL or wrenches whose `q` is writable
// for `q_len` floats; `penalty` NULL or writable.
bdtree_status bdtree_respond_f32(const struct bdtree_proxy_pair_f32 *pair,
                                 float stiffness,
                                 struct bdtree_body_f32 *a,
                                 struct bdtree_body_f32 *b,
                                 struct bdtree_wrench_f32 *wrench_a,
                                 struct bdtree_wrench_f32 *wrench_b,
                                 struct bdtree_penalty_f32 *penalty);

// The penalty response of an exact contact (as `bdtree_collide_contacts_f32` gives it):
// force `stiffness · depth · normal` on `b` at the contact point, applied on its triangle
// `contact.b`, and its negative on `a` on triangle `contact.a`. Adds to each wrench the
// force, its torque and the generalized force of that point of the deformed triangle,
// `Σ λ_i U_iᵀ Rᵀ f` (barycentric weights `λ` of the triangle's point nearest to the
// contact point; kernel `respond_contact`: three vertex deformations and `9M`
// multiply-adds per body). Writes the contact to `penalty` (NULL: not wanted); a depth
// not above 0 gives no force (`BDTREE_STATUS_OK`, wrenches unchanged, a penalty of zeros).
// Bad indices, stiffness or wrenches as `bdtree_respond_f32`.
//
// # Safety
//
// As `bdtree_respond_f32`, with `contact` for `pair`.
bdtree_status bdtree_respond_contact_f32(const struct bdtree_contact_f32 *contact,
                                         float stiffness,
                                         struct bdtree_body_f32 *a,
                                         struct bdtree_body_f32 *b,
                                         struct bdtree_wrench_f32 *wrench_a,
                                         struct bdtree_wrench_f32 *wrench_b,
                                         struct bdtree_penalty_f32 *penalty);

// Adds force `force` at `point` (both 3 floats, the body's frame), applied at `node` of
// `body`, to `wrench`: the force, its torque about the body's translation and the
// generalized force `Ūᵀ Rᵀ f` through the node's `Ū` (`3M + 15` multiply-adds) — for
// responses of the caller's own (a floor pushing up under a proxy). A node the tree does
// not have: `BDTREE_STATUS_BAD_ARGUMENT`; a NaN or infinity: `BDTREE_STATUS_NON_FINITE`;
// nothing added either way.
//
// # Safety
//
// `body` NULL or an initialised body; `point`, `force` NULL or readable for 3 floats;
// `wrench` NULL or a wrench whose `q` is writable for `q_len` floats.
bdtree_status bdtree_apply_at_node_f32(struct bdtree_body_f32 *body,
                                       uint32_t node,
                                       const float *point,
                                       const float *force,
                                       struct bdtree_wrench_f32 *wrench);

// Adds force `force` at `point` (the body's frame) on `triangle` of `body` to `wrench`:
// the force, its torque and the generalized force of the deformed triangle's point
// nearest to `point`, `Σ λ_i U_iᵀ Rᵀ f` (three vertex deformations and `9M`
// multiply-adds). A triangle the model does not have: `BDTREE_STATUS_BAD_ARGUMENT`; a NaN
// or infinity: `BDTREE_STATUS_NON_FINITE`; nothing added either way.
//
// # Safety
//
// As `bdtree_apply_at_node_f32`.
bdtree_status bdtree_apply_at_triangle_f32(struct bdtree_body_f32 *body,
                                           uint32_t triangle,
                                           const float *point,
                                           const float *force,
                                           struct bdtree_wrench_f32 *wrench);

// The penalty response of an overlapping pair of contact proxies (as
// `bdtree_collide_proxies_f64` gives it, spheres in the bodies' frame): force
// `stiffness · depth` along the unit normal from a's sphere centre to b's, at the middle
// of the overlap, pushing `b` (and `a` the other way). Adds to each body's wrench the
// force, its torque about the body's translation and the generalized force `Ūᵀ Rᵀ f`
// through the proxy node's `Ū` (kernel `respond_mut`; `3M + 15` multiply-adds per body).
// Writes the contact to `penalty` (NULL: not wanted); spheres that do not overlap (or are
// concentric) give no force: `BDTREE_STATUS_OK`, wrenches unchanged, a penalty of zeros.
// A node index the tree does not have, a stiffness negative or not finite, or the same
// wrench (or overlapping `q` arrays) for both bodies: `BDTREE_STATUS_BAD_ARGUMENT`, nothing
// added.
//
// # Safety
//
// `pair` NULL or readable; `a`, `b` NULL or distinct initialised bodies (their state the
// one the pair was found at); `wrench_a`, `wrench_b` NULL or wrenches whose `q` is writable
// for `q_len` doubles; `penalty` NULL or writable.
bdtree_status bdtree_respond_f64(const struct bdtree_proxy_pair_f64 *pair,
                                 double stiffness,
                                 struct bdtree_body_f64 *a,
                                 struct bdtree_body_f64 *b,
                                 struct bdtree_wrench_f64 *wrench_a,
                                 struct bdtree_wrench_f64 *wrench_b,
                                 struct bdtree_penalty_f64 *penalty);

// The penalty response of an exact contact (as `bdtree_collide_contacts_f64` gives it):
// force `stiffness · depth · normal` on `b` at the contact point, applied on its triangle
// `contact.b`, and its negative on `a` on triangle `contact.a`. Adds to each wrench the
// force, its torque and the generalized force of that point of the deformed triangle,
// `Σ λ_i U_iᵀ Rᵀ f` (barycentric weights `λ` of the triangle's point nearest to the
// contact point; kernel `respond_contact`: three vertex deformations and `9M`
// multiply-adds per body). Writes the contact to `penalty` (NULL: not wanted); a depth
// not above 0 gives no force (`BDTREE_STATUS_OK`, wrenches unchanged, a penalty of zeros).
// Bad indices, stiffness or wrenches as `bdtree_respond_f64`.
//
// # Safety
//
// As `bdtree_respond_f64`, with `contact` for `pair`.
bdtree_status bdtree_respond_contact_f64(const struct bdtree_contact_f64 *contact,
                                         double stiffness,
                                         struct bdtree_body_f64 *a,
                                         struct bdtree_body_f64 *b,
                                         struct bdtree_wrench_f64 *wrench_a,
                                         struct bdtree_wrench_f64 *wrench_b,
                                         struct bdtree_penalty_f64 *penalty);

// Adds force `force` at `point` (both 3 doubles, the body's frame), applied at `node` of
// `body`, to `wrench`: the force, its torque about the body's translation and the
// generalized force `Ūᵀ Rᵀ f` through the node's `Ū` (`3M + 15` multiply-adds) — for
// responses of the caller's own (a floor pushing up under a proxy). A node the tree does
// not have: `BDTREE_STATUS_BAD_ARGUMENT`; a NaN or infinity: `BDTREE_STATUS_NON_FINITE`;
// nothing added either way.
//
// # Safety
//
// `body` NULL or an initialised body; `point`, `force` NULL or readable for 3 doubles;
// `wrench` NULL or a wrench whose `q` is writable for `q_len` doubles.
bdtree_status bdtree_apply_at_node_f64(struct bdtree_body_f64 *body,
                                       uint32_t node,
                                       const double *point,
                                       const double *force,
                                       struct bdtree_wrench_f64 *wrench);

// Adds force `force` at `point` (the body's frame) on `triangle` of `body` to `wrench`:
// the force, its torque and the generalized force of the deformed triangle's point
// nearest to `point`, `Σ λ_i U_iᵀ Rᵀ f` (three vertex deformations and `9M`
// multiply-adds). A triangle the model does not have: `BDTREE_STATUS_BAD_ARGUMENT`; a NaN
// or infinity: `BDTREE_STATUS_NON_FINITE`; nothing added either way.
//
// # Safety
//
// As `bdtree_apply_at_node_f64`.
bdtree_status bdtree_apply_at_triangle_f64(struct bdtree_body_f64 *body,
                                           uint32_t triangle,
                                           const double *point,
                                           const double *force,
                                           struct bdtree_wrench_f64 *wrench);

// The exact minimum distance between two deformed bodies (0 when they intersect) with its
// witness points, triangles and the unit normal from `a` to `b`, written to `nearest`.
// `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries.
//
// # Safety
//
// `a` and `b` must be distinct `bdtree_body_f32` objects; `stack` `stack_len` writable
// entries; `nearest` writable; `stats` NULL or writable.
bdtree_status bdtree_distance_f32(struct bdtree_body_f32 *a,
                                  struct bdtree_body_f32 *b,
                                  struct bdtree_node_pair *stack,
                                  size_t stack_len,
                                  struct bdtree_nearest_f32 *nearest,
                                  struct bdtree_stats *stats);

// Whether bodies `a` and `b` come within `distance` of each other (touching counts at 0),
// written to `closer`. Never `false` for bodies within `distance` at their states (the
// kernel's per-coordinate rounding bound δ of each body included, the rounding of a
// state given in doubles too); `true` may
// come for bodies up to `4 (δ_a + δ_b)` (times `2√3` in distance) farther — on a device
// there is no f64 stage to settle it; the host layer (`bdtree_std::host::closer_than`)
// settles it in f64. Nearest-first, pruned at `distance` from the roots, stopping at the
// first leaf pair within it: far cheaper than `bdtree_distance_f32` when the answer is
// "no" far from the limit or "yes" well inside it. Place the pair at its own floating
// origin (`bdtree_floating_origin` of the two translations) when the states are in
// doubles. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries; a negative or
// non-finite `distance` is `BDTREE_STATUS_BAD_ARGUMENT`.
//
// # Safety
//
// `a` and `b` must be distinct `bdtree_body_f32` objects; `stack` `stack_len` writable
// entries; `closer` writable; `stats` NULL or writable.
bdtree_status bdtree_closer_than_f32(struct bdtree_body_f32 *a,
                                     struct bdtree_body_f32 *b,
                                     float distance,
                                     struct bdtree_node_pair *stack,
                                     size_t stack_len,
                                     bool *closer,
                                     struct bdtree_stats *stats);

// The exact minimum distance between two deformed bodies (0 when they intersect) with its
// witness points, triangles and the unit normal from `a` to `b`, written to `nearest`.
// `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries.
//
// # Safety
//
// `a` and `b` must be distinct `bdtree_body_f64` objects; `stack` `stack_len` writable
// entries; `nearest` writable; `stats` NULL or writable.
bdtree_status bdtree_distance_f64(struct bdtree_body_f64 *a,
                                  struct bdtree_body_f64 *b,
                                  struct bdtree_node_pair *stack,
                                  size_t stack_len,
                                  struct bdtree_nearest_f64 *nearest,
                                  struct bdtree_stats *stats);

// Whether bodies `a` and `b` come within `distance` of each other (touching counts at 0),
// written to `closer`. Never `false` for bodies within `distance` at their states (the
// kernel's per-coordinate rounding bound δ of each body included, the rounding of a
// state given in doubles too); `true` may
// come for bodies up to `4 (δ_a + δ_b)` (times `2√3` in distance) farther — on a device
// there is no f64 stage to settle it; the host layer (`bdtree_std::host::closer_than`)
// settles it in f64. Nearest-first, pruned at `distance` from the roots, stopping at the
// first leaf pair within it: far cheaper than `bdtree_distance_f64` when the answer is
// "no" far from the limit or "yes" well inside it. Place the pair at its own floating
// origin (`bdtree_floating_origin` of the two translations) when the states are in
// doubles. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries; a negative or
// non-finite `distance` is `BDTREE_STATUS_BAD_ARGUMENT`.
//
// # Safety
//
// `a` and `b` must be distinct `bdtree_body_f64` objects; `stack` `stack_len` writable
// entries; `closer` writable; `stats` NULL or writable.
bdtree_status bdtree_closer_than_f64(struct bdtree_body_f64 *a,
                                     struct bdtree_body_f64 *b,
                                     double distance,
                                     struct bdtree_node_pair *stack,
                                     size_t stack_len,
                                     bool *closer,
                                     struct bdtree_stats *stats);

// Entries of swept front storage (`bdtree_collide_swept_front_*`) to give a pair of trees of
// `nodes_a` and `nodes_b` nodes (`bdtree_image_info`), as a guide:
// `2 · BDTREE_SWEPT_FRONT_PER_NODE · (nodes_a + nodes_b)` — two halves, each holding a front of
// 4 entries per node of the two trees (`BDTREE_SWEPT_FRONT_ENTRIES(nodes_a, nodes_b)` for static
// arrays; saturating). Measured, not proven: the largest front a pair reached on contact in
// small patches (a pad resting and sliding on a plate at 60 Hz to 1 kHz; a ball through a
// sheet or a plate, a sheet flapping through a ball and a bar; boxes touching a floor) was 0.8
// to 3.9 entries per node of the two trees; contact spread over large areas needs more (a cloth
// on a ball and a ring, a sheet on a bar, a curtain and a cloth, a blob and a
// torus: 5 to 35). A front keeps the finest partition it reached, so size for the
// widest contact the pair will see. Too little storage costs time, never an answer: the front
// overflows (`bdtree_swept_front_info_*`) and the next query walks from the root.
size_t bdtree_swept_front_entries(uint32_t nodes_a, uint32_t nodes_b);

// Finds every triangle pair of two moving bodies that may touch at **some** time of the motion
// between two steps (a swept query: a fast body cannot pass through another between ticks
// unseen) and writes them to `pairs` with a conservative earliest time each (`*count` of them,
// in traversal order). Each object is given as two bodies over one image: its state at the
// previous step (`a_from`, `b_from`) and at this one (`a_to`, `b_to`); between them `q` and the
// translation move linearly and the rotation by slerp on the shorter arc. Set the four states
// relative to one origin (`bdtree_body_set_state_from_f64_f32`), the `bdtree_floating_origin`
// of the four translations, as the command-line tool does. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries. Never misses a pair
// that touches at some time; a reported pair comes within the rounding bounds of touching at
// its time, or is where a capped conservative advancement stopped. With vertex caches the
// leaf reads both ends' vertices from them; bodies without one report the same pairs with
// earliest times that may differ in the last advancement step (the command-line tool's
// bodies have vertex caches). Statuses as
// `bdtree_collide_f32`; the same body twice is `BDTREE_STATUS_SAME_BODY`, bodies of one object
// over different images `BDTREE_STATUS_INCONSISTENT`. Costs several static queries (README,
// "Swept queries").
//
// # Safety
//
// The four bodies must be distinct `bdtree_body_f32` objects; `stack` must point to
// `stack_len` writable entries, `pairs` to `capacity` writable entries; `count` must be
// writable; `stats` NULL or writable. None of these may overlap.
bdtree_status bdtree_collide_swept_f32(struct bdtree_body_f32 *a_from,
                                       struct bdtree_body_f32 *a_to,
                                       struct bdtree_body_f32 *b_from,
                                       struct bdtree_body_f32 *b_to,
                                       struct bdtree_node_pair *stack,
                                       size_t stack_len,
                                       struct bdtree_swept_pair_f32 *pairs,
                                       size_t capacity,
                                       size_t *count,
                                       struct bdtree_stats *stats);

// Makes `front` an empty swept front for one body pair (`bdtree_collide_swept_front_f32`):
// its first query walks from the root. Call it again to start afresh (as after a jump in
// state the caller knows of; a jump it does not say is detected too). The object holds no
// pointer: the front's entries are the storage given to each query.
//
// # Safety
//
// `front` must be NULL or writable for a `bdtree_swept_front_f32`.
bdtree_status bdtree_swept_front_init_f32(struct bdtree_swept_front_f32 *front);

// What the front's last query did (`bdtree_swept_front_info`): entries in the front and
// room for them, entries certified (skipped on their margins) and retested, whether the
// front overflowed its storage.
//
// # Safety
//
// `front` must be NULL or a `bdtree_swept_front_f32` object; `info` NULL or writable.
bdtree_status bdtree_swept_front_info_f32(const struct bdtree_swept_front_f32 *front,
                                          struct bdtree_swept_front_info *info);

// `bdtree_collide_swept_f32`'s query tick after tick for one body pair, with a front of
// certificates carried from one call to the next in `front` and its storage `entries`: the
// node pairs where the last walk stopped, each with a lower bound of its distance at the
// end of the motion, lose each body's motion budget per tick and are skipped while it
// stays positive, so in slow or resting contact at control rates only the pairs near
// contact are walked again. **Answer**: every triangle pair that touches at some time of the
// motion, with a conservative earliest time, as `bdtree_collide_swept_f32` (the same leaf
// test: a pair both report has the same time; either may report a few pairs that do not
// touch which the other does not). **Contract**: the front belongs to one body pair, `a`
// then `b`; each call's `a_from` and `b_from` states must be the last call's `a_to` and
// `b_to` states, bit for bit — keep two bodies per object and swap their roles each tick,
// setting only the new `to` state, at a floating origin kept while the front is (a new
// origin is a new state). A call whose `from` states differ (found by a fingerprint of the
// states), whose trees differ, after a query that did not complete or after the front
// overflowed walks from the root, as the first call after `bdtree_swept_front_init_f32`
// does. **Storage**: `entries` holds `entries_len` entries, used as two halves of
// `entries_len / 2` (the front and its successor); give the same storage (address and
// length) at every call and do not write to it in between. Other storage is zeroed and
// starts an empty front (so it may be grown). A front larger than half the storage is
// dropped: the answer is complete and the status OK, `bdtree_swept_front_info_f32` says
// `overflowed`, and the next call walks from the root — too little storage costs time,
// never an answer. How much: `bdtree_swept_front_entries(nodes_a, nodes_b)`, a guide measured
// on contact in small patches (`bdtree inspect` prints each tree's share).
// `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries. Statuses as
// `bdtree_collide_swept_f32` (a full output buffer is `BDTREE_STATUS_OUTPUT_FULL`; the next
// call then walks from the root); a front not initialised is
// `BDTREE_STATUS_NOT_INITIALIZED`.
//
// # Safety
//
// As `bdtree_collide_swept_f32`; `front` must be a `bdtree_swept_front_f32` object and
// `entries` point to `entries_len` writable entries (NULL allowed when 0) that nothing
// else writes to while the front is used. None of these may overlap.
bdtree_status bdtree_collide_swept_front_f32(struct bdtree_body_f32 *a_from,
                                             struct bdtree_body_f32 *a_to,
                                             struct bdtree_body_f32 *b_from,
                                             struct bdtree_body_f32 *b_to,
                                             struct bdtree_swept_front_f32 *front,
                                             struct bdtree_swept_front_entry_f32 *entries,
                                             size_t entries_len,
                                             struct bdtree_node_pair *stack,
                                             size_t stack_len,
                                             struct bdtree_swept_pair_f32 *pairs,
                                             size_t capacity,
                                             size_t *count,
                                             struct bdtree_stats *stats);

// Finds every triangle pair of two moving bodies that may touch at **some** time of the motion
// between two steps (a swept query: a fast body cannot pass through another between ticks
// unseen) and writes them to `pairs` with a conservative earliest time each (`*count` of them,
// in traversal order). Each object is given as two bodies over one image: its state at the
// previous step (`a_from`, `b_from`) and at this one (`a_to`, `b_to`); between them `q` and the
// translation move linearly and the rotation by slerp on the shorter arc. Set the four states
// relative to one origin (`bdtree_body_set_state_from_f64_f64`), the `bdtree_floating_origin`
// of the four translations, as the command-line tool does. `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries. Never misses a pair
// that touches at some time; a reported pair comes within the rounding bounds of touching at
// its time, or is where a capped conservative advancement stopped. With vertex caches the
// leaf reads both ends' vertices from them; bodies without one report the same pairs with
// earliest times that may differ in the last advancement step (the command-line tool's
// bodies have vertex caches). Statuses as
// `bdtree_collide_f64`; the same body twice is `BDTREE_STATUS_SAME_BODY`, bodies of one object
// over different images `BDTREE_STATUS_INCONSISTENT`. Costs several static queries (README,
// "Swept queries").
//
// # Safety
//
// The four bodies must be distinct `bdtree_body_f64` objects; `stack` must point to
// `stack_len` writable entries, `pairs` to `capacity` writable entries; `count` must be
// writable; `stats` NULL or writable. None of these may overlap.
bdtree_status bdtree_collide_swept_f64(struct bdtree_body_f64 *a_from,
                                       struct bdtree_body_f64 *a_to,
                                       struct bdtree_body_f64 *b_from,
                                       struct bdtree_body_f64 *b_to,
                                       struct bdtree_node_pair *stack,
                                       size_t stack_len,
                                       struct bdtree_swept_pair_f64 *pairs,
                                       size_t capacity,
                                       size_t *count,
                                       struct bdtree_stats *stats);

// Makes `front` an empty swept front for one body pair (`bdtree_collide_swept_front_f64`):
// its first query walks from the root. Call it again to start afresh (as after a jump in
// state the caller knows of; a jump it does not say is detected too). The object holds no
// pointer: the front's entries are the storage given to each query.
//
// # Safety
//
// `front` must be NULL or writable for a `bdtree_swept_front_f64`.
bdtree_status bdtree_swept_front_init_f64(struct bdtree_swept_front_f64 *front);

// What the front's last query did (`bdtree_swept_front_info`): entries in the front and
// room for them, entries certified (skipped on their margins) and retested, whether the
// front overflowed its storage.
//
// # Safety
//
// `front` must be NULL or a `bdtree_swept_front_f64` object; `info` NULL or writable.
bdtree_status bdtree_swept_front_info_f64(const struct bdtree_swept_front_f64 *front,
                                          struct bdtree_swept_front_info *info);

// `bdtree_collide_swept_f64`'s query tick after tick for one body pair, with a front of
// certificates carried from one call to the next in `front` and its storage `entries`: the
// node pairs where the last walk stopped, each with a lower bound of its distance at the
// end of the motion, lose each body's motion budget per tick and are skipped while it
// stays positive, so in slow or resting contact at control rates only the pairs near
// contact are walked again. **Answer**: every triangle pair that touches at some time of the
// motion, with a conservative earliest time, as `bdtree_collide_swept_f64` (the same leaf
// test: a pair both report has the same time; either may report a few pairs that do not
// touch which the other does not). **Contract**: the front belongs to one body pair, `a`
// then `b`; each call's `a_from` and `b_from` states must be the last call's `a_to` and
// `b_to` states, bit for bit — keep two bodies per object and swap their roles each tick,
// setting only the new `to` state, at a floating origin kept while the front is (a new
// origin is a new state). A call whose `from` states differ (found by a fingerprint of the
// states), whose trees differ, after a query that did not complete or after the front
// overflowed walks from the root, as the first call after `bdtree_swept_front_init_f64`
// does. **Storage**: `entries` holds `entries_len` entries, used as two halves of
// `entries_len / 2` (the front and its successor); give the same storage (address and
// length) at every call and do not write to it in between. Other storage is zeroed and
// starts an empty front (so it may be grown). A front larger than half the storage is
// dropped: the answer is complete and the status OK, `bdtree_swept_front_info_f64` says
// `overflowed`, and the next call walks from the root — too little storage costs time,
// never an answer. How much: `bdtree_swept_front_entries(nodes_a, nodes_b)`, a guide measured
// on contact in small patches (`bdtree inspect` prints each tree's share).
// `stack` needs `bdtree_stack_capacity(depth_a, depth_b)` entries. Statuses as
// `bdtree_collide_swept_f64` (a full output buffer is `BDTREE_STATUS_OUTPUT_FULL`; the next
// call then walks from the root); a front not initialised is
// `BDTREE_STATUS_NOT_INITIALIZED`.
//
// # Safety
//
// As `bdtree_collide_swept_f64`; `front` must be a `bdtree_swept_front_f64` object and
// `entries` point to `entries_len` writable entries (NULL allowed when 0) that nothing
// else writes to while the front is used. None of these may overlap.
bdtree_status bdtree_collide_swept_front_f64(struct bdtree_body_f64 *a_from,
                                             struct bdtree_body_f64 *a_to,
                                             struct bdtree_body_f64 *b_from,
                                             struct bdtree_body_f64 *b_to,
                                             struct bdtree_swept_front_f64 *front,
                                             struct bdtree_swept_front_entry_f64 *entries,
                                             size_t entries_len,
                                             struct bdtree_node_pair *stack,
                                             size_t stack_len,
                                             struct bdtree_swept_pair_f64 *pairs,
                                             size_t capacity,
                                             size_t *count,
                                             struct bdtree_stats *stats);

// Makes an interruptible query in the caller's object, with its pending list in `storage`
// (`len / BDTREE_PENDING_ENTRY_BYTES_F32` entries, aligned to `BDTREE_STORAGE_ALIGN`; a
// full list is reported, never overrun) and an order (`BDTREE_ORDER_…`).
//
// # Safety
//
// `traversal` must be NULL or point to writable memory for a `bdtree_traversal_f32`;
// `storage` NULL or `len` writable bytes that nothing else uses while the traversal is used.
bdtree_status bdtree_traversal_init_f32(struct bdtree_traversal_f32 *traversal,
                                        void *storage,
                                        size_t len,
                                        uint32_t order);

// Begins a query for the bodies' current step (one sphere test, not charged to any budget):
// `BDTREE_STATUS_OK` when the roots do not even overlap (nothing to do),
// `BDTREE_STATUS_INTERRUPTED` when work is pending.
//
// # Safety
//
// `traversal` must point to a `bdtree_traversal_f32`; `a` and `b` to distinct
// `bdtree_body_f32` objects.
bdtree_status bdtree_traversal_start_f32(struct bdtree_traversal_f32 *traversal,
                                         struct bdtree_body_f32 *a,
                                         struct bdtree_body_f32 *b);

// Refines pending pairs until `tests` sphere and triangle tests are spent, appending the
// confirmed triangle pairs at `pairs[*count]` (in: pairs already in the buffer; out: pairs
// now in it). `BDTREE_STATUS_OK`: done, the buffer holds exactly what `bdtree_collide_f32`
// finds. `BDTREE_STATUS_INTERRUPTED`: the budget ran out; the pairs so far and the pending
// pairs cover every contact; call again in the same step to resume.
// `BDTREE_STATUS_OUTPUT_FULL`: make room and call again (the refused pair stays pending).
//
// # Safety
//
// `traversal` must point to a `bdtree_traversal_f32` started on `a` and `b` (distinct
// `bdtree_body_f32` objects); `pairs` to `capacity` writable entries; `count` readable and
// writable with `*count ≤ capacity`; `stats` NULL or writable.
bdtree_status bdtree_traversal_run_f32(struct bdtree_traversal_f32 *traversal,
                                       struct bdtree_body_f32 *a,
                                       struct bdtree_body_f32 *b,
                                       uint32_t tests,
                                       struct bdtree_triangle_pair *pairs,
                                       size_t capacity,
                                       size_t *count,
                                       struct bdtree_stats *stats);

// As `bdtree_traversal_run_f32`, with a clock budget: a step starts only while
// `now(context) < deadline` (`now`: any monotonic tick counter — a cycle counter, SysTick,
// microseconds; it is read before every step, so a run overruns the deadline by at most one
// step, a few dozen to a few hundred instructions).
//
// # Safety
//
// As `bdtree_traversal_run_f32`; `now` must be safe to call with `context` (NULL `now` is
// refused).
bdtree_status bdtree_traversal_run_until_f32(struct bdtree_traversal_f32 *traversal,
                                             struct bdtree_body_f32 *a,
                                             struct bdtree_body_f32 *b,
                                             uint64_t (*now)(void *context),
                                             void *context,
                                             uint64_t deadline,
                                             struct bdtree_triangle_pair *pairs,
                                             size_t capacity,
                                             size_t *count,
                                             struct bdtree_stats *stats);

// Pairs still pending in a traversal (the unrefined part of its cover); 0 for NULL or an
// unusable object.
//
// # Safety
//
// `traversal` must be NULL or point to a `bdtree_traversal_f32`.
size_t bdtree_traversal_pending_f32(struct bdtree_traversal_f32 *traversal);

// Makes an interruptible query in the caller's object, with its pending list in `storage`
// (`len / BDTREE_PENDING_ENTRY_BYTES_F64` entries, aligned to `BDTREE_STORAGE_ALIGN`; a
// full list is reported, never overrun) and an order (`BDTREE_ORDER_…`).
//
// # Safety
//
// `traversal` must be NULL or point to writable memory for a `bdtree_traversal_f64`;
// `storage` NULL or `len` writable bytes that nothing else uses while the traversal is used.
bdtree_status bdtree_traversal_init_f64(struct bdtree_traversal_f64 *traversal,
                                        void *storage,
                                        size_t len,
                                        uint32_t order);

// Begins a query for the bodies' current step (one sphere test, not charged to any budget):
// `BDTREE_STATUS_OK` when the roots do not even overlap (nothing to do),
// `BDTREE_STATUS_INTERRUPTED` when work is pending.
//
// # Safety
//
// `traversal` must point to a `bdtree_traversal_f64`; `a` and `b` to distinct
// `bdtree_body_f64` objects.
bdtree_status bdtree_traversal_start_f64(struct bdtree_traversal_f64 *traversal,
                                         struct bdtree_body_f64 *a,
                                         struct bdtree_body_f64 *b);

// Refines pending pairs until `tests` sphere and triangle tests are spent, appending the
// confirmed triangle pairs at `pairs[*count]` (in: pairs already in the buffer; out: pairs
// now in it). `BDTREE_STATUS_OK`: done, the buffer holds exactly what `bdtree_collide_f64`
// finds. `BDTREE_STATUS_INTERRUPTED`: the budget ran out; the pairs so far and the pending
// pairs cover every contact; call again in the same step to resume.
// `BDTREE_STATUS_OUTPUT_FULL`: make room and call again (the refused pair stays pending).
//
// # Safety
//
// `traversal` must point to a `bdtree_traversal_f64` started on `a` and `b` (distinct
// `bdtree_body_f64` objects); `pairs` to `capacity` writable entries; `count` readable and
// writable with `*count ≤ capacity`; `stats` NULL or writable.
bdtree_status bdtree_traversal_run_f64(struct bdtree_traversal_f64 *traversal,
                                       struct bdtree_body_f64 *a,
                                       struct bdtree_body_f64 *b,
                                       uint32_t tests,
                                       struct bdtree_triangle_pair *pairs,
                                       size_t capacity,
                                       size_t *count,
                                       struct bdtree_stats *stats);

// As `bdtree_traversal_run_f64`, with a clock budget: a step starts only while
// `now(context) < deadline` (`now`: any monotonic tick counter — a cycle counter, SysTick,
// microseconds; it is read before every step, so a run overruns the deadline by at most one
// step, a few dozen to a few hundred instructions).
//
// # Safety
//
// As `bdtree_traversal_run_f64`; `now` must be safe to call with `context` (NULL `now` is
// refused).
bdtree_status bdtree_traversal_run_until_f64(struct bdtree_traversal_f64 *traversal,
                                             struct bdtree_body_f64 *a,
                                             struct bdtree_body_f64 *b,
                                             uint64_t (*now)(void *context),
                                             void *context,
                                             uint64_t deadline,
                                             struct bdtree_triangle_pair *pairs,
                                             size_t capacity,
                                             size_t *count,
                                             struct bdtree_stats *stats);

// Pairs still pending in a traversal (the unrefined part of its cover); 0 for NULL or an
// unusable object.
//
// # Safety
//
// `traversal` must be NULL or point to a `bdtree_traversal_f64`.
size_t bdtree_traversal_pending_f64(struct bdtree_traversal_f64 *traversal);

// Stack entries a self-collision query on a tree of depth `depth` needs.
size_t bdtree_self_stack_capacity(uint32_t depth);

// Finds every intersecting triangle pair of two bodies in their current step and writes them
// to `pairs` (in traversal order; `*count` of them). `stack` is scratch space of `stack_len`
// entries, at least `bdtree_stack_capacity(depth_a, depth_b)`. When the buffer fills, the
// query stops with `BDTREE_STATUS_OUTPUT_FULL` and `*count == capacity`: the pairs written are
// valid and more exist. `stats` (NULL when not wanted) receives the work counters.
//
// Conservative: every intersecting pair (touching counts) is reported; a pair that misses by
// less than the documented rounding inflation may be reported too.
//
// # Safety
//
// `a` and `b` must be distinct `bdtree_body_f32` objects; `stack` must point to `stack_len`
// writable entries, `pairs` to `capacity` writable entries; `count` must be writable;
// `stats` NULL or writable. None of these may overlap.
bdtree_status bdtree_collide_f32(struct bdtree_body_f32 *a,
                                 struct bdtree_body_f32 *b,
                                 struct bdtree_node_pair *stack,
                                 size_t stack_len,
                                 struct bdtree_triangle_pair *pairs,
                                 size_t capacity,
                                 size_t *count,
                                 struct bdtree_stats *stats);

// Finds every intersecting pair of non-adjacent triangles of one body (`a < b` in each pair).
// `stack` needs `bdtree_self_stack_capacity(depth)` entries. When the body's image carries
// the self-collision culling data (`bdtree build --self-cull`; `bdtree_image_info`'s
// `self_cull`), the query culls with it — a patch proven free by its certificate, or by its
// normal cone and contour, costs no sphere and no triangle test — and `cones` must hold
// `nodes × BDTREE_CONE_SLOT_BYTES` bytes (4-byte aligned; scratch, cleared by each call);
// without the data `cones` may be NULL and `cones_len` 0 (the plain walk). The same pairs
// either way. Statuses as `bdtree_collide_f32`, and `BDTREE_STATUS_STORAGE_TOO_SMALL` for
// short cone storage.
//
// # Safety
//
// As `bdtree_collide_f32`, with one body; `cones` NULL or writable for `cones_len` bytes.
bdtree_status bdtree_collide_self_f32(struct bdtree_body_f32 *body,
                                      void *cones,
                                      size_t cones_len,
                                      struct bdtree_node_pair *stack,
                                      size_t stack_len,
                                      struct bdtree_triangle_pair *pairs,
                                      size_t capacity,
                                      size_t *count,
                                      struct bdtree_stats *stats);

// The exact second stage of a query: re-tests each of the `count` pairs a query reported
// (`bdtree_collide_f32`, `bdtree_collide_self_f32` — pass the same body twice —, a traversal)
// in double precision on the bodies' stored model and current state, widened only by the
// model's storage rounding, and keeps, in their order at the front of `pairs`, those that may
// intersect; `*kept` of them. Still conservative: every intersecting pair of the model is
// kept. On single-precision bodies it drops the pairs the query's own rounding let in (15 % of
// the true pairs on the query bench's scene, none left after); about 0.2 µs per pair on a
// desktop; on a Cortex-M4F (soft double) 24,000 instructions per pair on average over the
// fixture scenes, from 13,000 (rigid bodies) to 37,000 (90 modes) per scene and up to 97,000
// in one call (the cost table at the top of this header), and 5.3 KB of stack (two memos of
// 64 f64 vertices). On double-precision bodies,
// whose query is exact already, it keeps every pair. Call it in the same step as the query
// (the bodies' state unchanged). Every pair must name a triangle of `a` (`.a`) and one of `b`
// (`.b`): when one does not, nothing is re-tested and the call returns
// `BDTREE_STATUS_INCONSISTENT` with `pairs` as given and `*kept` 0 (treat them all as
// possibly intersecting); bodies of a bounded-depth image give `BDTREE_STATUS_TRUNCATED`.
//
// # Safety
//
// `a` and `b` must be `bdtree_body_f32` objects (may be the same one); `pairs` must point to
// `count` readable and writable entries; `kept` must be writable.
bdtree_status bdtree_refine_f32(const struct bdtree_body_f32 *a,
                                const struct bdtree_body_f32 *b,
                                struct bdtree_triangle_pair *pairs,
                                size_t count,
                                size_t *kept);

// Finds every intersecting triangle pair of two bodies in their current step and writes them
// to `pairs` (in traversal order; `*count` of them). `stack` is scratch space of `stack_len`
// entries, at least `bdtree_stack_capacity(depth_a, depth_b)`. When the buffer fills, the
// query stops with `BDTREE_STATUS_OUTPUT_FULL` and `*count == capacity`: the pairs written are
// valid and more exist. `stats` (NULL when not wanted) receives the work counters.
//
// Conservative: every intersecting pair (touching counts) is reported; a pair that misses by
// less than the documented rounding inflation may be reported too.
//
// # Safety
//
// `a` and `b` must be distinct `bdtree_body_f64` objects; `stack` must point to `stack_len`
// writable entries, `pairs` to `capacity` writable entries; `count` must be writable;
// `stats` NULL or writable. None of these may overlap.
bdtree_status bdtree_collide_f64(struct bdtree_body_f64 *a,
                                 struct bdtree_body_f64 *b,
                                 struct bdtree_node_pair *stack,
                                 size_t stack_len,
                                 struct bdtree_triangle_pair *pairs,
                                 size_t capacity,
                                 size_t *count,
                                 struct bdtree_stats *stats);

// Finds every intersecting pair of non-adjacent triangles of one body (`a < b` in each pair).
// `stack` needs `bdtree_self_stack_capacity(depth)` entries. When the body's image carries
// the self-collision culling data (`bdtree build --self-cull`; `bdtree_image_info`'s
// `self_cull`), the query culls with it — a patch proven free by its certificate, or by its
// normal cone and contour, costs no sphere and no triangle test — and `cones` must hold
// `nodes × BDTREE_CONE_SLOT_BYTES` bytes (4-byte aligned; scratch, cleared by each call);
// without the data `cones` may be NULL and `cones_len` 0 (the plain walk). The same pairs
// either way. Statuses as `bdtree_collide_f64`, and `BDTREE_STATUS_STORAGE_TOO_SMALL` for
// short cone storage.
//
// # Safety
//
// As `bdtree_collide_f64`, with one body; `cones` NULL or writable for `cones_len` bytes.
bdtree_status bdtree_collide_self_f64(struct bdtree_body_f64 *body,
                                      void *cones,
                                      size_t cones_len,
                                      struct bdtree_node_pair *stack,
                                      size_t stack_len,
                                      struct bdtree_triangle_pair *pairs,
                                      size_t capacity,
                                      size_t *count,
                                      struct bdtree_stats *stats);

// The exact second stage of a query: re-tests each of the `count` pairs a query reported
// (`bdtree_collide_f64`, `bdtree_collide_self_f64` — pass the same body twice —, a traversal)
// in double precision on the bodies' stored model and current state, widened only by the
// model's storage rounding, and keeps, in their order at the front of `pairs`, those that may
// intersect; `*kept` of them. Still conservative: every intersecting pair of the model is
// kept. On single-precision bodies it drops the pairs the query's own rounding let in (15 % of
// the true pairs on the query bench's scene, none left after); about 0.2 µs per pair on a
// desktop; on a Cortex-M4F (soft double) 24,000 instructions per pair on average over the
// fixture scenes, from 13,000 (rigid bodies) to 37,000 (90 modes) per scene and up to 97,000
// in one call (the cost table at the top of this header), and 5.3 KB of stack (two memos of
// 64 f64 vertices). On double-precision bodies,
// whose query is exact already, it keeps every pair. Call it in the same step as the query
// (the bodies' state unchanged). Every pair must name a triangle of `a` (`.a`) and one of `b`
// (`.b`): when one does not, nothing is re-tested and the call returns
// `BDTREE_STATUS_INCONSISTENT` with `pairs` as given and `*kept` 0 (treat them all as
// possibly intersecting); bodies of a bounded-depth image give `BDTREE_STATUS_TRUNCATED`.
//
// # Safety
//
// `a` and `b` must be `bdtree_body_f64` objects (may be the same one); `pairs` must point to
// `count` readable and writable entries; `kept` must be writable.
bdtree_status bdtree_refine_f64(const struct bdtree_body_f64 *a,
                                const struct bdtree_body_f64 *b,
                                struct bdtree_triangle_pair *pairs,
                                size_t count,
                                size_t *kept);

// `uint32_t` words of a pair filter of `count` bodies: `ceil(count (count + 1) / 2 / 32)`, one
// bit per unordered pair and per body's self-collision (the header's
// `BDTREE_PAIR_FILTER_WORDS(count)` is the same number as a constant expression); `SIZE_MAX`
// when that bit count does not fit a `size_t`.
size_t bdtree_pair_filter_words(size_t count);

// Writes a pair filter of `count` bodies to `words` (`len` of them, at least
// `bdtree_pair_filter_words(count)`): every pair of distinct bodies allowed, every body's
// self-collision off. Pair `(i, j)`, `i <= j < count` (`i == j`: body `i`'s self-collision),
// is bit `k % 32` of `words[k / 32]` with `k = j (j + 1) / 2 + i`; a set bit allows it (so a
// table may also be computed offline and kept in flash). Words beyond the bits are zeroed.
//
// Returns `BDTREE_STATUS_STORAGE_TOO_SMALL` when `len` is too short, `…_BAD_ARGUMENT` when
// the bit count of `count` overflows.
//
// # Safety
//
// `words` must point to `len` writable words.
bdtree_status bdtree_pair_filter_init(uint32_t *words, size_t len, size_t count);

// Allows (`allowed` true) or forbids pair `(i, j)` in a pair filter of `count` bodies (either
// order; `i == j` turns body `i`'s self-collision on or off), leaving every other bit as it
// is: adjacent links of an arm, a tool and the part it holds. Returns
// `BDTREE_STATUS_BAD_ARGUMENT` when `i` or `j` is not below `count`,
// `…_STORAGE_TOO_SMALL` when `len` is below `bdtree_pair_filter_words(count)`.
//
// # Safety
//
// `words` must point to `len` readable and writable words.
bdtree_status bdtree_pair_filter_set(uint32_t *words,
                                     size_t len,
                                     size_t count,
                                     size_t i,
                                     size_t j,
                                     bool allowed);

// Whether a pair filter of `count` bodies allows pair `(i, j)` (either order; `i == j`: body
// `i`'s self-collision); false for an index not below `count`, NULL `words` or `len` below
// `bdtree_pair_filter_words(count)`.
//
// # Safety
//
// `words` must be NULL or point to `len` readable words.
bool bdtree_pair_filter_allows(const uint32_t *words, size_t len, size_t count, size_t i, size_t j);

// Finds every intersecting triangle pair of a world of `count` bodies in their current step:
// between every two bodies the filter allows, and within each body whose self-collision it
// allows, and writes them to `pairs` (`*pair_count` of them) as `bdtree_world_pair`s naming
// the bodies by their index in `bodies`. The answer is the union of `bdtree_collide_f32` on
// each allowed body pair and `bdtree_collide_self_f32` on each allowed body, the same pairs
// bit for bit, in the order: body pairs in broad-phase order (each pair's triangles in
// traversal order), then self-collisions by body index.
//
// How: each body's root sphere (node 0, `bdtree_body_sphere_f32`) is written to `roots[4k..4k+4]`
// as `[x, y, z, r]`; a sweep-and-prune over them (sorted by the lower end of their x extent,
// insertion sort from body order, in `order`) tests every allowed pair whose x extents
// overlap (`broad_tests`) and runs the triangle query on each pair whose spheres overlap
// (`candidate_pairs`): a pair it skips has no intersecting triangles. Then the allowed
// self-collisions.
//
// **One frame.** All bodies must have their state of this step in one frame: set each with
// `bdtree_body_set_state_f32` in world coordinates, or — for a world far from the origin —
// each with `bdtree_body_set_state_from_f64_f32` and the same `origin`,
// `bdtree_floating_origin` of all `count` translations (then the precision of every pair is
// that of the whole world's extent: a small part next to a large body far away gets wider
// bounds; for a pair's own precision, query that pair with `bdtree_collide_f32` at the
// pair's own floating origin instead).
//
// Storage, all the caller's and used only during the call:
//
// * `bodies`: `count` pointers to initialised, distinct bodies (one body twice, or two
//   overlapping objects, is `BDTREE_STATUS_SAME_BODY`: checked with `count²/2` address
//   comparisons; a NULL entry is `…_NULL_POINTER`, an uninitialised one `…_NOT_INITIALIZED`);
// * `order`: `order_len ≥ count` words of scratch for the sweep;
// * `roots`: `4 · roots_len` floats, `roots_len ≥ count`: each body's root sphere;
// * `filter`: NULL for every pair of distinct bodies and no self-collision, or `filter_len
//   ≥ bdtree_pair_filter_words(count)` words written by `bdtree_pair_filter_init` and
//   `bdtree_pair_filter_set` (or a `const` table of the same layout);
// * `stack`: `stack_len` entries, at least `bdtree_stack_capacity(d, d)` for the deepest
//   tree's depth `d`, and `bdtree_self_stack_capacity(d)` when a self-collision is allowed;
// * `pairs`: `capacity` entries.
//
// `order_len` or `roots_len` below `count`, or `filter_len` below what `count` bodies need,
// is `BDTREE_STATUS_STORAGE_TOO_SMALL` (nothing done). When `pairs` fills, the query stops
// with `BDTREE_STATUS_OUTPUT_FULL` and `*pair_count == capacity`: the pairs written are
// valid and more exist. A narrow query that cannot finish (`…_STACK_TOO_SMALL`,
// `…_TRUNCATED` for a bounded-depth image) ends the world query with its status: treat the
// world as possibly colliding. `stats` (NULL when not wanted) receives the broad phase's
// counters and the queries' summed work.
//
// Conservative as `bdtree_collide_f32`: every intersecting pair (touching counts) is
// reported. Refine an f32 answer per body pair with `bdtree_refine_f32`.
//
// # Safety
//
// `bodies` must point to `count` readable pointers (NULL when `count` is 0), each NULL or a
// `bdtree_body_f32` that nothing else accesses during the call; `order` to `order_len`
// writable words; `roots` to `4 · roots_len` writable floats; `filter` NULL or `filter_len`
// readable words; `stack` to `stack_len` writable entries; `pairs` to `capacity` writable
// entries; `pair_count` writable; `stats` NULL or writable. None of these may overlap.
bdtree_status bdtree_collide_world_f32(struct bdtree_body_f32 *const *bodies,
                                       size_t count,
                                       uint32_t *order,
                                       size_t order_len,
                                       float *roots,
                                       size_t roots_len,
                                       const uint32_t *filter,
                                       size_t filter_len,
                                       struct bdtree_node_pair *stack,
                                       size_t stack_len,
                                       struct bdtree_world_pair *pairs,
                                       size_t capacity,
                                       size_t *pair_count,
                                       struct bdtree_world_stats *stats);

// Finds every intersecting triangle pair of a world of `count` bodies in their current step:
// between every two bodies the filter allows, and within each body whose self-collision it
// allows, and writes them to `pairs` (`*pair_count` of them) as `bdtree_world_pair`s naming
// the bodies by their index in `bodies`. The answer is the union of `bdtree_collide_f64` on
// each allowed body pair and `bdtree_collide_self_f64` on each allowed body, the same pairs
// bit for bit, in the order: body pairs in broad-phase order (each pair's triangles in
// traversal order), then self-collisions by body index.
//
// How: each body's root sphere (node 0, `bdtree_body_sphere_f64`) is written to `roots[4k..4k+4]`
// as `[x, y, z, r]`; a sweep-and-prune over them (sorted by the lower end of their x extent,
// insertion sort from body order, in `order`) tests every allowed pair whose x extents
// overlap (`broad_tests`) and runs the triangle query on each pair whose spheres overlap
// (`candidate_pairs`): a pair it skips has no intersecting triangles. Then the allowed
// self-collisions.
//
// **One frame.** All bodies must have their state of this step in one frame: set each with
// `bdtree_body_set_state_f64` in world coordinates, or — for a world far from the origin —
// each with `bdtree_body_set_state_from_f64_f64` and the same `origin`,
// `bdtree_floating_origin` of all `count` translations (then the precision of every pair is
// that of the whole world's extent: a small part next to a large body far away gets wider
// bounds; for a pair's own precision, query that pair with `bdtree_collide_f64` at the
// pair's own floating origin instead).
//
// Storage, all the caller's and used only during the call:
//
// * `bodies`: `count` pointers to initialised, distinct bodies (one body twice, or two
//   overlapping objects, is `BDTREE_STATUS_SAME_BODY`: checked with `count²/2` address
//   comparisons; a NULL entry is `…_NULL_POINTER`, an uninitialised one `…_NOT_INITIALIZED`);
// * `order`: `order_len ≥ count` words of scratch for the sweep;
// * `roots`: `4 · roots_len` doubles, `roots_len ≥ count`: each body's root sphere;
// * `filter`: NULL for every pair of distinct bodies and no self-collision, or `filter_len
//   ≥ bdtree_pair_filter_words(count)` words written by `bdtree_pair_filter_init` and
//   `bdtree_pair_filter_set` (or a `const` table of the same layout);
// * `stack`: `stack_len` entries, at least `bdtree_stack_capacity(d, d)` for the deepest
//   tree's depth `d`, and `bdtree_self_stack_capacity(d)` when a self-collision is allowed;
// * `pairs`: `capacity` entries.
//
// `order_len` or `roots_len` below `count`, or `filter_len` below what `count` bodies need,
// is `BDTREE_STATUS_STORAGE_TOO_SMALL` (nothing done). When `pairs` fills, the query stops
// with `BDTREE_STATUS_OUTPUT_FULL` and `*pair_count == capacity`: the pairs written are
// valid and more exist. A narrow query that cannot finish (`…_STACK_TOO_SMALL`,
// `…_TRUNCATED` for a bounded-depth image) ends the world query with its status: treat the
// world as possibly colliding. `stats` (NULL when not wanted) receives the broad phase's
// counters and the queries' summed work.
//
// Conservative as `bdtree_collide_f64`: every intersecting pair (touching counts) is
// reported. Refine an f64 answer per body pair with `bdtree_refine_f64`.
//
// # Safety
//
// `bodies` must point to `count` readable pointers (NULL when `count` is 0), each NULL or a
// `bdtree_body_f64` that nothing else accesses during the call; `order` to `order_len`
// writable words; `roots` to `4 · roots_len` writable doubles; `filter` NULL or `filter_len`
// readable words; `stack` to `stack_len` writable entries; `pairs` to `capacity` writable
// entries; `pair_count` writable; `stats` NULL or writable. None of these may overlap.
bdtree_status bdtree_collide_world_f64(struct bdtree_body_f64 *const *bodies,
                                       size_t count,
                                       uint32_t *order,
                                       size_t order_len,
                                       double *roots,
                                       size_t roots_len,
                                       const uint32_t *filter,
                                       size_t filter_len,
                                       struct bdtree_node_pair *stack,
                                       size_t stack_len,
                                       struct bdtree_world_pair *pairs,
                                       size_t capacity,
                                       size_t *pair_count,
                                       struct bdtree_world_stats *stats);

// The contact Jacobian of an exact contact (as `bdtree_collide_contacts_f32` gives it;
// its triangles `contact.a` of `a` and `contact.b` of `b` are read, its point and normal
// are not) at the bodies' current states: `row_a[j] = ∂depth/∂q_a[j]` for the first
// `modes` entries of `row_a` (a's mode count, `bdtree_image_info`), likewise `row_b`, with
// `depth` the triangles' least penetration and its normal turning with the features that
// define it (kernel `contact_jacobian`, from `penetration_gradient`): moving `q_a` by `δ`
// changes the depth by `row_a · δ` to first order. Written to `penetration` (NULL: not
// wanted): the normal, depth and features the rows differentiate. It is the derivative
// where the depth is positive and the features stay the same around the state (compare
// the features of nearby states); at a switch, the one-sided derivative of the features
// reported. Two triangles with no penetration axis (both of zero area): rows 0,
// `penetration->axis` 0, `BDTREE_STATUS_OK`. For a contact of a body with itself pass the
// body as both `a` and `b`: its derivative is `row_a + row_b`. In the bodies' precision,
// at the states as set (on a device: relative to the pair's floating origin); about
// `6 (3M + 9) + 250 + 9 (M_a + M_b)` multiply-adds. A row shorter than its body's modes:
// `BDTREE_STATUS_WRONG_MODE_COUNT`; a triangle index a body does not have, or rows that
// overlap: `BDTREE_STATUS_BAD_ARGUMENT` — nothing written then.
//
// # Safety
//
// `contact` NULL or readable; `a`, `b` NULL or initialised bodies (they may be the same);
// `row_a`, `row_b` NULL or writable for `len_a`, `len_b` floats (NULL allowed with a
// length of 0); `penetration` NULL or writable.
bdtree_status bdtree_contact_jacobian_f32(const struct bdtree_contact_f32 *contact,
                                          const struct bdtree_body_f32 *a,
                                          const struct bdtree_body_f32 *b,
                                          float *row_a,
                                          size_t len_a,
                                          float *row_b,
                                          size_t len_b,
                                          struct bdtree_penetration_f32 *penetration);

// The contact Jacobian of an exact contact (as `bdtree_collide_contacts_f64` gives it;
// its triangles `contact.a` of `a` and `contact.b` of `b` are read, its point and normal
// are not) at the bodies' current states: `row_a[j] = ∂depth/∂q_a[j]` for the first
// `modes` entries of `row_a` (a's mode count, `bdtree_image_info`), likewise `row_b`, with
// `depth` the triangles' least penetration and its normal turning with the features that
// define it (kernel `contact_jacobian`, from `penetration_gradient`): moving `q_a` by `δ`
// changes the depth by `row_a · δ` to first order. Written to `penetration` (NULL: not
// wanted): the normal, depth and features the rows differentiate. It is the derivative
// where the depth is positive and the features stay the same around the state (compare
// the features of nearby states); at a switch, the one-sided derivative of the features
// reported. Two triangles with no penetration axis (both of zero area): rows 0,
// `penetration->axis` 0, `BDTREE_STATUS_OK`. For a contact of a body with itself pass the
// body as both `a` and `b`: its derivative is `row_a + row_b`. In the bodies' precision,
// at the states as set (on a device: relative to the pair's floating origin); about
// `6 (3M + 9) + 250 + 9 (M_a + M_b)` multiply-adds. A row shorter than its body's modes:
// `BDTREE_STATUS_WRONG_MODE_COUNT`; a triangle index a body does not have, or rows that
// overlap: `BDTREE_STATUS_BAD_ARGUMENT` — nothing written then.
//
// # Safety
//
// `contact` NULL or readable; `a`, `b` NULL or initialised bodies (they may be the same);
// `row_a`, `row_b` NULL or writable for `len_a`, `len_b` doubles (NULL allowed with a
// length of 0); `penetration` NULL or writable.
bdtree_status bdtree_contact_jacobian_f64(const struct bdtree_contact_f64 *contact,
                                          const struct bdtree_body_f64 *a,
                                          const struct bdtree_body_f64 *b,
                                          double *row_a,
                                          size_t len_a,
                                          double *row_b,
                                          size_t len_b,
                                          struct bdtree_penetration_f64 *penetration);

// Stack entries a primitive query (`bdtree_collide_primitive_*`,
// `bdtree_collide_primitive_proxies_*`) on a tree of depth `depth` needs.
size_t bdtree_primitive_stack_capacity(uint32_t depth);

// Makes the solid half-space `n · x ≤ offset` below a plane (`n = normal / |normal|`, the
// normal pointing out of the solid: a floor is `{0, 0, 1}`, 0) in the caller's object, in the
// bodies' frame (see the header's conventions). Refused with
// `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_ZERO_NORMAL` (the object then unusable).
//
// # Safety
//
// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f32`; `normal`
// NULL or 3 readable floats.
bdtree_status bdtree_primitive_plane_f32(struct bdtree_primitive_f32 *primitive,
                                         const float *normal,
                                         float offset);

// Makes a solid ball of `radius` (≥ 0) around `center`. Refused with
// `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_NEGATIVE_RADIUS`.
//
// # Safety
//
// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f32`; `center`
// NULL or 3 readable floats.
bdtree_status bdtree_primitive_sphere_f32(struct bdtree_primitive_f32 *primitive,
                                          const float *center,
                                          float radius);

// Makes a solid capsule: the points within `radius` (≥ 0) of the segment from `a` to `b`.
// Refused with `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_NEGATIVE_RADIUS`.
//
// # Safety
//
// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f32`; `a` and
// `b` NULL or 3 readable floats each.
bdtree_status bdtree_primitive_capsule_f32(struct bdtree_primitive_f32 *primitive,
                                           const float *a,
                                           const float *b,
                                           float radius);

// Makes a solid oriented box of `half_extents` (each ≥ 0) centred at `center`, its axes the
// columns of the rotation of the unit quaternion `rotation = (w, x, y, z)` (as a body's pose;
// refused when `| ‖q‖ − 1 | > 10⁻⁶`). Statuses: `BDTREE_STATUS_NON_FINITE_ROTATION`,
// `…_NON_FINITE_TRANSLATION` (the center), `…_NOT_UNIT_QUATERNION`,
// `…_PRIMITIVE_NON_FINITE`, `…_PRIMITIVE_NEGATIVE_RADIUS`.
//
// # Safety
//
// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f32`;
// `rotation` NULL or 4 readable floats; `center` and `half_extents` NULL or 3.
bdtree_status bdtree_primitive_box_f32(struct bdtree_primitive_f32 *primitive,
                                       const float *rotation,
                                       const float *center,
                                       const float *half_extents);

// Finds every triangle of `body` that touches `primitive` and writes each as a contact
// `(triangle, 0)` to `contacts`: a point of the triangle inside the primitive, the unit normal
// from the triangle to the primitive, and the depth (how far the primitive must move along
// the normal for the triangle to stop touching it). Exact against the deformed triangles,
// conservative against the node spheres: never misses a touching triangle; may report
// triangles up to twice the rounding tolerance away. `stack` needs
// `bdtree_primitive_stack_capacity(depth)` entries. Statuses as `bdtree_collide_f32`.
//
// # Safety
//
// `body` must point to a `bdtree_body_f32`, `primitive` to a `bdtree_primitive_f32` made by
// `bdtree_primitive_…_f32`; `stack` to `stack_len` writable entries, `contacts` to
// `capacity`; `count` writable; `stats` NULL or writable. None of these may overlap.
bdtree_status bdtree_collide_primitive_f32(struct bdtree_body_f32 *body,
                                           const struct bdtree_primitive_f32 *primitive,
                                           struct bdtree_node_pair *stack,
                                           size_t stack_len,
                                           struct bdtree_contact_f32 *contacts,
                                           size_t capacity,
                                           size_t *count,
                                           struct bdtree_stats *stats);

// The bounded-depth form of `bdtree_collide_primitive_f32`, for contact response: every
// contact proxy of `body` (a node at depth `proxy_depth`, or a leaf above it) whose world
// sphere may touch `primitive`, with its sphere and how deep the sphere reaches in. Every
// touching triangle lies under a reported proxy; works on complete and bounded-depth images
// (no nesting needed). `stack` needs `bdtree_primitive_stack_capacity(depth)` entries.
//
// # Safety
//
// As `bdtree_collide_primitive_f32`, with `proxies` pointing to `capacity` writable entries.
bdtree_status bdtree_collide_primitive_proxies_f32(struct bdtree_body_f32 *body,
                                                   uint32_t proxy_depth,
                                                   const struct bdtree_primitive_f32 *primitive,
                                                   struct bdtree_node_pair *stack,
                                                   size_t stack_len,
                                                   struct bdtree_primitive_proxy_f32 *proxies,
                                                   size_t capacity,
                                                   size_t *count,
                                                   struct bdtree_stats *stats);

// Makes the solid half-space `n · x ≤ offset` below a plane (`n = normal / |normal|`, the
// normal pointing out of the solid: a floor is `{0, 0, 1}`, 0) in the caller's object, in the
// bodies' frame (see the header's conventions). Refused with
// `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_ZERO_NORMAL` (the object then unusable).
//
// # Safety
//
// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f64`; `normal`
// NULL or 3 readable doubles.
bdtree_status bdtree_primitive_plane_f64(struct bdtree_primitive_f64 *primitive,
                                         const double *normal,
                                         double offset);

// Makes a solid ball of `radius` (≥ 0) around `center`. Refused with
// `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_NEGATIVE_RADIUS`.
//
// # Safety
//
// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f64`; `center`
// NULL or 3 readable doubles.
bdtree_status bdtree_primitive_sphere_f64(struct bdtree_primitive_f64 *primitive,
                                          const double *center,
                                          double radius);

// Makes a solid capsule: the points within `radius` (≥ 0) of the segment from `a` to `b`.
// Refused with `BDTREE_STATUS_PRIMITIVE_NON_FINITE` or `…_NEGATIVE_RADIUS`.
//
// # Safety
//
// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f64`; `a` and
// `b` NULL or 3 readable doubles each.
bdtree_status bdtree_primitive_capsule_f64(struct bdtree_primitive_f64 *primitive,
                                           const double *a,
                                           const double *b,
                                           double radius);

// Makes a solid oriented box of `half_extents` (each ≥ 0) centred at `center`, its axes the
// columns of the rotation of the unit quaternion `rotation = (w, x, y, z)` (as a body's pose;
// refused when `| ‖q‖ − 1 | > 10⁻⁶`). Statuses: `BDTREE_STATUS_NON_FINITE_ROTATION`,
// `…_NON_FINITE_TRANSLATION` (the center), `…_NOT_UNIT_QUATERNION`,
// `…_PRIMITIVE_NON_FINITE`, `…_PRIMITIVE_NEGATIVE_RADIUS`.
//
// # Safety
//
// `primitive` must be NULL or point to writable memory for a `bdtree_primitive_f64`;
// `rotation` NULL or 4 readable doubles; `center` and `half_extents` NULL or 3.
bdtree_status bdtree_primitive_box_f64(struct bdtree_primitive_f64 *primitive,
                                       const double *rotation,
                                       const double *center,
                                       const double *half_extents);

// Finds every triangle of `body` that touches `primitive` and writes each as a contact
// `(triangle, 0)` to `contacts`: a point of the triangle inside the primitive, the unit normal
// from the triangle to the primitive, and the depth (how far the primitive must move along
// the normal for the triangle to stop touching it). Exact against the deformed triangles,
// conservative against the node spheres: never misses a touching triangle; may report
// triangles up to twice the rounding tolerance away. `stack` needs
// `bdtree_primitive_stack_capacity(depth)` entries. Statuses as `bdtree_collide_f64`.
//
// # Safety
//
// `body` must point to a `bdtree_body_f64`, `primitive` to a `bdtree_primitive_f64` made by
// `bdtree_primitive_…_f64`; `stack` to `stack_len` writable entries, `contacts` to
// `capacity`; `count` writable; `stats` NULL or writable. None of these may overlap.
bdtree_status bdtree_collide_primitive_f64(struct bdtree_body_f64 *body,
                                           const struct bdtree_primitive_f64 *primitive,
                                           struct bdtree_node_pair *stack,
                                           size_t stack_len,
                                           struct bdtree_contact_f64 *contacts,
                                           size_t capacity,
                                           size_t *count,
                                           struct bdtree_stats *stats);

// The bounded-depth form of `bdtree_collide_primitive_f64`, for contact response: every
// contact proxy of `body` (a node at depth `proxy_depth`, or a leaf above it) whose world
// sphere may touch `primitive`, with its sphere and how deep the sphere reaches in. Every
// touching triangle lies under a reported proxy; works on complete and bounded-depth images
// (no nesting needed). `stack` needs `bdtree_primitive_stack_capacity(depth)` entries.
//
// # Safety
//
// As `bdtree_collide_primitive_f64`, with `proxies` pointing to `capacity` writable entries.
bdtree_status bdtree_collide_primitive_proxies_f64(struct bdtree_body_f64 *body,
                                                   uint32_t proxy_depth,
                                                   const struct bdtree_primitive_f64 *primitive,
                                                   struct bdtree_node_pair *stack,
                                                   size_t stack_len,
                                                   struct bdtree_primitive_proxy_f64 *proxies,
                                                   size_t capacity,
                                                   size_t *count,
                                                   struct bdtree_stats *stats);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* BDTREE_H */

/* Bytes of storage a body needs, as a constant expression for static arrays (the same number
 * as bdtree_body_storage_size_*): nodes, modes M and — with BDTREE_BODY_VERTEX_CACHE, else 0 —
 * vertices of the image (bdtree_image_info). */
#define BDTREE_ROUND8(x) ((((size_t)(x)) + 7u) & ~(size_t)7u)
#define BDTREE_BODY_STORAGE_F32(nodes, modes, vertices) \
    (BDTREE_ROUND8((size_t)(nodes) * BDTREE_CACHE_ENTRY_BYTES_F32) + \
     BDTREE_ROUND8((size_t)(modes) * BDTREE_SCALARS_PER_MODE * 4u) + \
     BDTREE_ROUND8((size_t)(vertices) * BDTREE_VERTEX_ENTRY_BYTES_F32))
#define BDTREE_BODY_STORAGE_F64(nodes, modes, vertices) \
    (BDTREE_ROUND8((size_t)(nodes) * BDTREE_CACHE_ENTRY_BYTES_F64) + \
     BDTREE_ROUND8((size_t)(modes) * BDTREE_SCALARS_PER_MODE * 8u) + \
     BDTREE_ROUND8((size_t)(vertices) * BDTREE_VERTEX_ENTRY_BYTES_F64))

/* Bytes of a body's box cache (BDTREE_BODY_BOX_CACHE) for a tree of `nodes` nodes, added to
 * BDTREE_BODY_STORAGE_F32/_F64 when the option is given. */
#define BDTREE_BODY_BOX_STORAGE_F32(nodes) \
    BDTREE_ROUND8((size_t)(nodes) * BDTREE_BOX_ENTRY_BYTES_F32)
#define BDTREE_BODY_BOX_STORAGE_F64(nodes) \
    BDTREE_ROUND8((size_t)(nodes) * BDTREE_BOX_ENTRY_BYTES_F64)

/* Entries of swept front storage for a pair of trees of nodes_a and nodes_b nodes, as a
 * constant expression for static arrays (the same number as bdtree_swept_front_entries, without
 * its saturation): a guide measured on contact in small patches, see there. */
#define BDTREE_SWEPT_FRONT_ENTRIES(nodes_a, nodes_b) \
    (2u * BDTREE_SWEPT_FRONT_PER_NODE * ((size_t)(nodes_a) + (size_t)(nodes_b)))

/* uint32_t words of a pair filter of n bodies (the same number as bdtree_pair_filter_words),
 * as a constant expression for static arrays. */
#define BDTREE_PAIR_FILTER_WORDS(n) \
    (((size_t)(n) * ((size_t)(n) + 1u) / 2u + 31u) / 32u)

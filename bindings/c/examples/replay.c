/* The fixture replay (see replay.h). Pack format: xtask/src/c.rs. */
#include "replay.h"

#include <string.h>

#include "bdtree.h"

/* Pending-list entries of the interruptible traversal, and the tests each run may spend. */
#define PENDING_ENTRIES 32768u
#define RUN_TESTS 64u
/* The options of a scene's body i: the vertex cache on every other body, the box cache on
 * all. */
#define CACHES(i) (((i) % 2u ? BDTREE_BODY_VERTEX_CACHE : 0u) | BDTREE_BODY_BOX_CACHE)

/* ---- output ---------------------------------------------------------------------------- */

typedef struct {
    char text[400];
    size_t len;
} line;

static void put_str(line *l, const char *s)
{
    while (*s != '\0' && l->len + 1 < sizeof l->text) {
        l->text[l->len++] = *s++;
    }
    l->text[l->len] = '\0';
}

static void put_u(line *l, unsigned long x)
{
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + (int)(x % 10u));
        x /= 10u;
    } while (x != 0u && n < sizeof digits);
    while (n > 0u && l->len + 1 < sizeof l->text) {
        l->text[l->len++] = digits[--n];
    }
    l->text[l->len] = '\0';
}

/* ---- reading the pack -------------------------------------------------------------------- */

typedef struct {
    const uint8_t *base;
    size_t len;
    size_t at;
    int bad;
} reader;

static uint32_t read_u32(reader *r)
{
    const uint8_t *p;
    if (r->bad || r->len - r->at < 4u || r->at > r->len) {
        r->bad = 1;
        return 0;
    }
    p = r->base + r->at;
    r->at += 4u;
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static const uint8_t *read_bytes(reader *r, size_t n)
{
    const uint8_t *p;
    if (r->bad || r->at > r->len || r->len - r->at < n) {
        r->bad = 1;
        return r->base;
    }
    p = r->base + r->at;
    r->at += n;
    return p;
}

static void read_pad(reader *r, size_t to)
{
    size_t rest = r->at % to;
    if (rest != 0u) {
        (void)read_bytes(r, to - rest);
    }
}

static float read_f32(reader *r)
{
    uint32_t bits = read_u32(r);
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static double read_f64(reader *r)
{
    uint64_t lo = read_u32(r);
    uint64_t hi = read_u32(r);
    uint64_t bits = lo | (hi << 32);
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* ---- working memory ---------------------------------------------------------------------- */

typedef struct {
    uint8_t *base;
    size_t len;
    size_t used;
    int exhausted;
} arena;

static void *take(arena *a, size_t bytes)
{
    size_t start = (a->used + 15u) & ~(size_t)15u;
    if (start > a->len || a->len - start < bytes) {
        a->exhausted = 1;
        return NULL;
    }
    a->used = start + bytes;
    return a->base + start;
}

/* ---- sorting (heapsort: no recursion, no allocation) ------------------------------------- */

typedef int (*compare)(const void *, const void *);

static void swap_bytes(uint8_t *x, uint8_t *y, size_t size)
{
    size_t k;
    for (k = 0; k < size; k++) {
        uint8_t t = x[k];
        x[k] = y[k];
        y[k] = t;
    }
}

static void sift(uint8_t *base, size_t root, size_t n, size_t size, compare cmp)
{
    for (;;) {
        size_t child = 2u * root + 1u;
        if (child >= n) {
            return;
        }
        if (child + 1u < n && cmp(base + child * size, base + (child + 1u) * size) < 0) {
            child++;
        }
        if (cmp(base + root * size, base + child * size) >= 0) {
            return;
        }
        swap_bytes(base + root * size, base + child * size, size);
        root = child;
    }
}

static void sort(void *items, size_t n, size_t size, compare cmp)
{
    uint8_t *base = (uint8_t *)items;
    size_t k;
    for (k = n / 2u; k > 0u; k--) {
        sift(base, k - 1u, n, size, cmp);
    }
    for (k = n; k > 1u; k--) {
        swap_bytes(base, base + (k - 1u) * size, size);
        sift(base, 0, k - 1u, size, cmp);
    }
}

/* A contact: body a, body b, triangle (or node) of a, of b. */
typedef struct {
    uint32_t k[4];
} quad;

static int quad_compare(const void *x, const void *y)
{
    const quad *p = (const quad *)x;
    const quad *q = (const quad *)y;
    int i;
    for (i = 0; i < 4; i++) {
        if (p->k[i] != q->k[i]) {
            return p->k[i] < q->k[i] ? -1 : 1;
        }
    }
    return 0;
}

/* Whether the sorted `pairs` hold `key`. */
static int contains(const quad *pairs, size_t n, const quad *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        int c = quad_compare(&pairs[mid], key);
        if (c == 0) {
            return 1;
        }
        if (c < 0) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return 0;
}

/* Reads `n` quads from the pack and compares them with the sorted `got`. */
static int same_quads(reader *r, uint32_t n, const quad *got, size_t got_n)
{
    uint32_t i;
    int same = (size_t)n == got_n;
    for (i = 0; i < n; i++) {
        quad want;
        int k;
        for (k = 0; k < 4; k++) {
            want.k[k] = read_u32(r);
        }
        if (same && quad_compare(&want, &got[i]) != 0) {
            same = 0;
        }
    }
    return same && !r->bad;
}

static int pair_compare(const void *x, const void *y)
{
    const bdtree_triangle_pair *p = (const bdtree_triangle_pair *)x;
    const bdtree_triangle_pair *q = (const bdtree_triangle_pair *)y;
    if (p->a != q->a) {
        return p->a < q->a ? -1 : 1;
    }
    if (p->b != q->b) {
        return p->b < q->b ? -1 : 1;
    }
    return 0;
}

/* Whether two NUL-terminated strings are equal (no libc on the bare-metal target). */
static int same_text(const char *x, const char *y)
{
    while (*x != '\0' && *x == *y) {
        x++;
        y++;
    }
    return *x == *y;
}

/* ---- totals and costs -------------------------------------------------------------------- */

/* The calls a meter measures. */
enum {
    COST_PARSE,
    COST_INIT,
    COST_SET_STATE,
    COST_SET_STATE_FROM_F64,
    COST_COLLIDE,
    COST_COLLIDE_SELF,
    COST_REFINE,
    COST_PROXIES,
    COST_DISTANCE,
    COST_CONTACTS,
    COST_WITHIN,
    COST_PRIMITIVE,
    COST_PRIMITIVE_PROXIES,
    COST_TRAVERSAL_RUN,
    COST_BOX_TABLE_INIT,
    COST_COLLIDE_BOXES,
    COST_WORLD,
    COST_COLLIDE_PLAIN,
    COST_COLLIDE_CACHED,
    COST_COUNT
};

/* The function each cost measures; the last two are bdtree_collide between bodies 0 and 1 of
 * a scene, both without a vertex cache, then both with one (same states). */
static const char *const cost_names[COST_COUNT] = {
    "bdtree_image_parse",    "bdtree_body_init",          "bdtree_body_set_state",
    "bdtree_body_set_state_from_f64", "bdtree_collide",   "bdtree_collide_self",
    "bdtree_refine",         "bdtree_collide_proxies",    "bdtree_distance",
    "bdtree_collide_contacts", "bdtree_within",           "bdtree_collide_primitive",
    "bdtree_collide_primitive_proxies", "bdtree_traversal_run", "bdtree_box_table_init",
    "bdtree_collide_boxes",  "bdtree_collide_world", "bdtree_collide[plain]",
    "bdtree_collide[cached]",
};

typedef struct {
    unsigned long calls, items;
    uint64_t total, max, max_per_item;
    size_t stack;
    char max_scene[24];
    bdtree_stats work; /* summed work counters (the collide experiment) */
} cost;

typedef struct {
    unsigned long frames, matched, pairs, oracle, extra, refined, proxies, runs, checks,
        failed_checks, contacts, near, primitive_contacts;
    replay_print print;
    const replay_meter *meter;
    uint64_t meter_at;
    int scalar_bytes;
    cost costs[COST_COUNT];
} totals;

/* Starts measuring a call (nothing without a meter): paints the stack, reads the counter. */
static void meter_start(totals *t)
{
    if (t->meter != NULL) {
        t->meter->paint_stack();
        t->meter_at = t->meter->instructions();
    }
}

/* Ends measuring call `id` of scene `scene` that handled `items` items (pairs refined, …);
 * returns `s`. */
static bdtree_status meter_stop(totals *t, int id, const char *scene, bdtree_status s,
                                size_t items)
{
    uint64_t now, n;
    size_t stack;
    cost *c = &t->costs[id];
    if (t->meter == NULL) {
        return s;
    }
    now = t->meter->instructions();
    stack = t->meter->stack_used();
    n = now - t->meter_at;
    c->calls++;
    c->items += (unsigned long)items;
    c->total += n;
    if (items > 0u && n / items > c->max_per_item) {
        c->max_per_item = n / items;
    }
    if (n > c->max) {
        size_t k = 0;
        c->max = n;
        while (scene[k] != '\0' && k + 1u < sizeof c->max_scene) {
            c->max_scene[k] = scene[k];
            k++;
        }
        c->max_scene[k] = '\0';
    }
    if (stack > c->stack) {
        c->stack = stack;
    }
    return s;
}

/* Adds a call's work counters to cost `id` (the collide experiment). */
static void meter_work(totals *t, int id, const bdtree_stats *w)
{
    bdtree_stats *sum = &t->costs[id].work;
    sum->nodes_visited += w->nodes_visited;
    sum->sphere_updates += w->sphere_updates;
    sum->overlap_tests += w->overlap_tests;
    sum->triangle_tests += w->triangle_tests;
    sum->pairs += w->pairs;
}

static void check(totals *t, int ok, const char *what)
{
    t->checks++;
    if (!ok) {
        line l = {{0}, 0};
        t->failed_checks++;
        put_str(&l, "check failed: ");
        put_str(&l, what);
        put_str(&l, "\n");
        t->print(l.text);
    }
}

static void mismatch(totals *t, const char *scene, unsigned long frame, const char *what)
{
    line l = {{0}, 0};
    put_str(&l, "mismatch: ");
    put_str(&l, scene);
    put_str(&l, " frame ");
    put_u(&l, frame);
    put_str(&l, ": ");
    put_str(&l, what);
    put_str(&l, "\n");
    t->print(l.text);
}

/* ---- one scene, in each precision (replay_scene.inc, instantiated twice) ----------------- */

typedef struct {
    char name[64];
    uint32_t scalar_bytes, bodies, frames, flags, proxy_depth, max_pairs, max_proxies,
        max_contacts, max_near, max_primitive;
    double near_distance; /* the scene's scalar, widened exactly */
} scene_header;

/* ---- hashes of contacts (the pack's FNV-1a of each item, summed) -------------------------- */

#define FNV_START 0xcbf29ce484222325ull

static uint64_t fnv_u32(uint64_t h, uint32_t x)
{
    int k;
    for (k = 0; k < 4; k++) {
        h ^= (uint64_t)((x >> (8 * k)) & 0xFFu);
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t fnv_f32(uint64_t h, const float *x, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++) {
        uint32_t bits;
        memcpy(&bits, &x[k], sizeof bits);
        h = fnv_u32(h, bits);
    }
    return h;
}

static uint64_t fnv_f64(uint64_t h, const double *x, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++) {
        uint64_t bits;
        memcpy(&bits, &x[k], sizeof bits);
        h = fnv_u32(fnv_u32(h, (uint32_t)bits), (uint32_t)(bits >> 32));
    }
    return h;
}

/* Reads a count and a hash from the pack and compares them with `count`, `sum`. */
static int same_hash(reader *r, size_t count, uint64_t sum)
{
    uint32_t want_count = read_u32(r);
    uint64_t lo = read_u32(r);
    uint64_t hi = read_u32(r);
    return !r->bad && (size_t)want_count == count && (lo | (hi << 32)) == sum;
}

#define SCALAR float
#define P(name) name##_f32
#define READ_SCALAR read_f32
#define HASH_SCALARS fnv_f32
#define BODY_STORAGE BDTREE_BODY_STORAGE_F32
#define BOX_STORAGE BDTREE_BODY_BOX_STORAGE_F32
#include "replay_scene.inc"
#undef SCALAR
#undef P
#undef READ_SCALAR
#undef HASH_SCALARS
#undef BODY_STORAGE
#undef BOX_STORAGE

#define SCALAR double
#define P(name) name##_f64
#define READ_SCALAR read_f64
#define HASH_SCALARS fnv_f64
#define BODY_STORAGE BDTREE_BODY_STORAGE_F64
#define BOX_STORAGE BDTREE_BODY_BOX_STORAGE_F64
#include "replay_scene.inc"

/* Prints the costs a meter measured: per function, calls, mean and max instructions (the
 * scene of the max), the deepest stack, and items (pairs refined: instructions per item). */
static void print_costs(const totals *t, const char *platform)
{
    int id;
    for (id = 0; id < COST_COUNT; id++) {
        const cost *c = &t->costs[id];
        line l = {{0}, 0};
        if (c->calls == 0u) {
            continue;
        }
        put_str(&l, "c api ");
        put_str(&l, platform);
        put_str(&l, " cost: ");
        put_str(&l, cost_names[id]);
        put_str(&l, t->scalar_bytes == 8 ? "_f64" : "_f32");
        put_str(&l, " calls=");
        put_u(&l, c->calls);
        put_str(&l, " mean=");
        put_u(&l, (unsigned long)(c->total / c->calls));
        put_str(&l, " max=");
        put_u(&l, (unsigned long)c->max);
        put_str(&l, " max_scene=");
        put_str(&l, c->max_scene);
        put_str(&l, " stack=");
        put_u(&l, (unsigned long)c->stack);
        put_str(&l, " items=");
        put_u(&l, c->items);
        put_str(&l, " per_item=");
        put_u(&l, c->items > 0u ? (unsigned long)(c->total / c->items) : 0ul);
        put_str(&l, " max_per_item=");
        put_u(&l, (unsigned long)c->max_per_item);
        put_str(&l, " nodes=");
        put_u(&l, c->work.nodes_visited);
        put_str(&l, " updates=");
        put_u(&l, c->work.sphere_updates);
        put_str(&l, " overlaps=");
        put_u(&l, c->work.overlap_tests);
        put_str(&l, " triangles=");
        put_u(&l, c->work.triangle_tests);
        put_str(&l, "\n");
        t->print(l.text);
    }
}

int replay_pack(const uint8_t *pack, size_t len, uint8_t *memory, size_t memory_len,
                const char *platform, replay_print print, const replay_meter *meter)
{
    reader r;
    totals t;
    uint32_t scenes, s;
    int checked = 0;
    line l = {{0}, 0};

    memset(&t, 0, sizeof t);
    t.print = print;
    t.meter = meter;
    r.base = pack;
    r.len = len;
    r.at = 0;
    r.bad = 0;
    if (memcmp(read_bytes(&r, 4), "BDCP", 4) != 0 || read_u32(&r) != 3u) {
        print("not a version-3 fixture pack\n");
        return 1;
    }
    /* The library linked is the one the header describes. */
    check(&t, bdtree_version() == BDTREE_VERSION, "bdtree_version() == BDTREE_VERSION");
    scenes = read_u32(&r);
    for (s = 0; s < scenes && !r.bad; s++) {
        scene_header h;
        uint32_t name_len = read_u32(&r);
        const uint8_t *name = read_bytes(&r, name_len);
        arena a;
        size_t copy = name_len < sizeof h.name - 1u ? name_len : sizeof h.name - 1u;
        memcpy(h.name, name, copy);
        h.name[copy] = '\0';
        read_pad(&r, 4);
        h.scalar_bytes = read_u32(&r);
        h.bodies = read_u32(&r);
        h.frames = read_u32(&r);
        h.flags = read_u32(&r);
        h.proxy_depth = read_u32(&r);
        h.max_pairs = read_u32(&r);
        h.max_proxies = read_u32(&r);
        h.max_contacts = read_u32(&r);
        h.max_near = read_u32(&r);
        h.max_primitive = read_u32(&r);
        read_pad(&r, 8);
        h.near_distance = h.scalar_bytes == 4u ? (double)read_f32(&r) : read_f64(&r);
        read_pad(&r, 4);
        a.base = memory;
        a.len = memory_len;
        a.used = 0;
        a.exhausted = 0;
        /* The API's error paths are checked on the first scene of each precision. */
        t.scalar_bytes = (int)h.scalar_bytes;
        if (h.scalar_bytes == 4u) {
            replay_scene_f32(&r, &h, &a, &t, !(checked & 1));
            checked |= 1;
        } else {
            replay_scene_f64(&r, &h, &a, &t, !(checked & 2));
            checked |= 2;
        }
        if (a.exhausted) {
            print("the arena is too small for this scene\n");
            return 1;
        }
    }
    if (r.bad) {
        print("the pack is truncated\n");
        return 1;
    }
    put_str(&l, "c api ");
    put_str(&l, platform);
    put_str(&l, ": ");
    put_u(&l, t.checks - t.failed_checks);
    put_str(&l, " of ");
    put_u(&l, t.checks);
    put_str(&l, " API checks pass; ");
    put_u(&l, t.pairs);
    put_str(&l, " pairs (");
    put_u(&l, t.oracle);
    put_str(&l, " brute-force pairs, all found; ");
    put_u(&l, t.extra);
    put_str(&l, " near misses within rounding; ");
    put_u(&l, t.refined);
    put_str(&l, " after refine), ");
    put_u(&l, t.proxies);
    put_str(&l, " proxy pairs, ");
    put_u(&l, t.contacts);
    put_str(&l, " contacts, ");
    put_u(&l, t.near);
    put_str(&l, " near pairs, ");
    put_u(&l, t.primitive_contacts);
    put_str(&l, " primitive contacts, ");
    put_u(&l, t.runs);
    put_str(&l, " budgeted traversal runs\n");
    print(l.text);
    l.len = 0;
    put_str(&l, "c api ");
    put_str(&l, platform);
    put_str(&l, ": ");
    if (t.matched != t.frames) {
        put_u(&l, t.frames - t.matched);
        put_str(&l, " of ");
        put_u(&l, t.frames);
        put_str(&l, " frames DIFFER\n");
        print(l.text);
        return 1;
    }
    if (meter != NULL) {
        print_costs(&t, platform);
    }
    put_u(&l, t.matched);
    put_str(&l, " frames match\n");
    print(l.text);
    return t.failed_checks == 0u ? 0 : 1;
}

"""bdtree against an independent oracle: NumPy brute force on explicitly deformed meshes
(every triangle pair tested with segment–triangle intersections in float64), on random scenes
with fixed seeds."""

import numpy as np
import pytest

import bdtree


def sphere_mesh(rings=8, segments=12):
    """A closed UV sphere of radius 1: (V, F)."""
    V = [[0.0, 0.0, 1.0]]
    for i in range(1, rings):
        th = np.pi * i / rings
        for j in range(segments):
            ph = 2 * np.pi * j / segments
            V.append([np.sin(th) * np.cos(ph), np.sin(th) * np.sin(ph), np.cos(th)])
    V.append([0.0, 0.0, -1.0])
    V = np.array(V)
    F = []
    for j in range(segments):
        F.append([0, 1 + j, 1 + (j + 1) % segments])
    for i in range(rings - 2):
        a, b = 1 + i * segments, 1 + (i + 1) * segments
        for j in range(segments):
            k = (j + 1) % segments
            F.append([a + j, b + j, b + k])
            F.append([a + j, b + k, a + k])
    last, base = len(V) - 1, 1 + (rings - 2) * segments
    for j in range(segments):
        F.append([base + j, last, base + (j + 1) % segments])
    return V, np.array(F, dtype=np.int64)


def smooth_basis(V, modes, rng):
    """A smooth random displacement basis (3N, M): low-order polynomials of the rest position."""
    feats = np.stack([np.ones(len(V)), V[:, 0], V[:, 1], V[:, 2],
                      V[:, 0] * V[:, 1], V[:, 2] ** 2], axis=1)
    U = np.zeros((len(V), 3, modes))
    for m in range(modes):
        U[:, :, m] = feats @ rng.normal(size=(feats.shape[1], 3)) * 0.3
    return U.reshape(len(V) * 3, modes)


def quat_to_matrix(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def world(V, U, rotation, translation, q):
    P = V + (U @ q).reshape(-1, 3) if U is not None else V
    return P @ quat_to_matrix(np.asarray(rotation)).T + translation


def segments_hit_triangles(P0, P1, A, B, C):
    """Whether segment k (P0[k], P1[k]) meets triangle k (A[k], B[k], C[k]), touching counts."""
    d = P1 - P0
    e1, e2 = B - A, C - A
    n = np.cross(e1, e2)
    s0 = np.einsum("ij,ij->i", P0 - A, n)
    s1 = np.einsum("ij,ij->i", P1 - A, n)
    crosses = (s0 * s1 <= 0) & (s0 != s1)
    denom = np.where(s0 != s1, s0 - s1, 1.0)
    t = s0 / denom
    X = P0 + t[:, None] * d
    # Barycentric test of X in the triangle.
    v = X - A
    d00 = np.einsum("ij,ij->i", e1, e1)
    d01 = np.einsum("ij,ij->i", e1, e2)
    d11 = np.einsum("ij,ij->i", e2, e2)
    d20 = np.einsum("ij,ij->i", v, e1)
    d21 = np.einsum("ij,ij->i", v, e2)
    den = d00 * d11 - d01 * d01
    den = np.where(den == 0, 1.0, den)
    b1 = (d11 * d20 - d01 * d21) / den
    b2 = (d00 * d21 - d01 * d20) / den
    return crosses & (b1 >= 0) & (b2 >= 0) & (b1 + b2 <= 1)


def brute_force(PA, FA, PB, FB):
    """Every intersecting triangle pair (non-coplanar configurations), sorted."""
    ia, ib = np.meshgrid(np.arange(len(FA)), np.arange(len(FB)), indexing="ij")
    ia, ib = ia.ravel(), ib.ravel()
    TA, TB = PA[FA[ia]], PB[FB[ib]]
    hit = np.zeros(len(ia), dtype=bool)
    for k in range(3):
        p0, p1 = TA[:, k], TA[:, (k + 1) % 3]
        hit |= segments_hit_triangles(p0, p1, TB[:, 0], TB[:, 1], TB[:, 2])
        p0, p1 = TB[:, k], TB[:, (k + 1) % 3]
        hit |= segments_hit_triangles(p0, p1, TA[:, 0], TA[:, 1], TA[:, 2])
    return sorted(zip(ia[hit].tolist(), ib[hit].tolist()))


def random_quaternion(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


@pytest.mark.parametrize("precision", ["f64", "f32"])
@pytest.mark.parametrize("seed", range(6))
def test_never_misses_a_brute_force_contact(seed, precision):
    rng = np.random.default_rng(1000 + seed)
    V, F = sphere_mesh()
    UA, UB = smooth_basis(V, 3, rng), smooth_basis(V, 2, rng)
    a = bdtree.Body(bdtree.Tree.build(V, F, modes=UA, precision=precision))
    b = bdtree.Body(bdtree.Tree.build(V, F, modes=UB, precision=precision))
    found = extra = 0
    for frame in range(8):
        ra, rb = random_quaternion(rng), random_quaternion(rng)
        ta = np.zeros(3)
        tb = rng.normal(size=3)
        tb *= rng.uniform(0.8, 2.2) / np.linalg.norm(tb)
        qa, qb = rng.normal(size=3) * 0.4, rng.normal(size=2) * 0.4
        a.set_state(rotation=ra, translation=ta, q=qa)
        b.set_state(rotation=rb, translation=tb, q=qb)
        got = [tuple(p) for p in bdtree.collide(a, b).tolist()]
        truth = brute_force(world(V, UA, ra, ta, qa), F, world(V, UB, rb, tb, qb), F)
        missing = sorted(set(truth) - set(got))
        assert not missing, f"seed {seed} frame {frame}: missed {missing[:5]}"
        found += len(truth)
        extra += len(set(got) - set(truth))
        # The distance agrees about contact; apart, it is the witnesses' distance.
        d = bdtree.distance(a, b)
        if truth:
            assert d.distance == 0.0 and d.intersecting
        else:
            gap = np.linalg.norm(np.subtract(d.point_b, d.point_a))
            assert abs(gap - d.distance) <= 1e-4 * max(1.0, gap)
    assert found > 0, "no frame had a contact: the test would be vacuous"
    # Extra pairs are near misses within the rounding inflation: few.
    assert extra <= max(4, found // 10)


def test_collide_frames_equals_frame_by_frame():
    rng = np.random.default_rng(7)
    V, F = sphere_mesh()
    U = smooth_basis(V, 2, rng)
    a = bdtree.Body(bdtree.Tree.build(V, F, modes=U))
    b = bdtree.Body(bdtree.Tree.build(V, F))
    frames = 10
    rot_a = np.array([random_quaternion(rng) for _ in range(frames)])
    rot_b = np.array([random_quaternion(rng) for _ in range(frames)])
    tr_a = np.zeros((frames, 3))
    tr_b = rng.normal(size=(frames, 3)) * 0.8
    q_a = rng.normal(size=(frames, 2)) * 0.3
    batched = bdtree.collide_frames(a, b, rot_a, tr_a, rot_b, tr_b, q_a=q_a)
    assert len(batched) == frames
    for f in range(frames):
        a.set_state(rot_a[f], tr_a[f], q_a[f])
        b.set_state(rot_b[f], tr_b[f])
        assert np.array_equal(batched[f], bdtree.collide(a, b))
    assert sum(len(p) for p in batched) > 0


def test_self_collision_and_proxies():
    rng = np.random.default_rng(3)
    V, F = sphere_mesh()
    U = smooth_basis(V, 2, rng)
    tree = bdtree.Tree.build(V, F, modes=U, nested=True)
    assert tree.info()["nested"]
    a, b = bdtree.Body(tree), bdtree.Body(tree)
    a.set_state(q=[0.1, -0.2])
    b.set_state(translation=(1.2, 0.3, 0.0), q=[0.0, 0.2])
    pairs = bdtree.collide(a, b)
    assert len(pairs) > 0
    P = bdtree.collide_proxies(a, 3, b, 3)
    assert P["nodes"].shape[1] == 2 and len(P["nodes"]) > 0
    assert P["sphere_a"].shape == (len(P["nodes"]), 4)
    # Every proxy pair overlaps: its penetration depth is r_a + r_b − ‖c_b − c_a‖ ≥ 0.
    gap = np.linalg.norm(P["sphere_b"][:, :3] - P["sphere_a"][:, :3], axis=1)
    assert np.allclose(P["depth"], P["sphere_a"][:, 3] + P["sphere_b"][:, 3] - gap, atol=1e-9)
    assert (P["depth"] >= -1e-9).all()
    # A smooth convex sphere does not hit itself.
    assert len(bdtree.collide_self(a)) == 0
    # The root sphere bounds every deformed vertex.
    x, y, z, r = a.sphere(0)
    P = world(V, U, [1, 0, 0, 0], np.zeros(3), np.array([0.1, -0.2]))
    assert (np.linalg.norm(P - [x, y, z], axis=1) <= r + 1e-9).all()


def brute_force_self(P, F):
    """Every intersecting pair (i, j), i < j, of triangles sharing no vertex, sorted."""
    i, j = np.triu_indices(len(F), k=1)
    shares = (F[i][:, :, None] == F[j][:, None, :]).any(axis=(1, 2))
    i, j = i[~shares], j[~shares]
    TA, TB = P[F[i]], P[F[j]]
    hit = np.zeros(len(i), dtype=bool)
    for k in range(3):
        hit |= segments_hit_triangles(TA[:, k], TA[:, (k + 1) % 3], TB[:, 0], TB[:, 1], TB[:, 2])
        hit |= segments_hit_triangles(TB[:, k], TB[:, (k + 1) % 3], TA[:, 0], TA[:, 1], TA[:, 2])
    return sorted(zip(i[hit].tolist(), j[hit].tolist()))


@pytest.mark.parametrize("precision", ["f64", "f32"])
@pytest.mark.parametrize("seed", range(4))
def test_self_collision_never_misses_a_brute_force_contact(seed, precision):
    """Large random q fold a sphere through itself: collide_self against the brute force."""
    rng = np.random.default_rng(2000 + seed)
    V, F = sphere_mesh()
    U = smooth_basis(V, 3, rng)
    body = bdtree.Body(bdtree.Tree.build(V, F, modes=U, precision=precision))
    found = extra = 0
    for frame in range(6):
        rotation, translation = random_quaternion(rng), rng.normal(size=3)
        q = rng.normal(size=3) * 3.0
        body.set_state(rotation=rotation, translation=translation, q=q)
        got = [tuple(p) for p in bdtree.collide_self(body).tolist()]
        assert all(i < j for i, j in got)
        truth = brute_force_self(world(V, U, rotation, translation, q), F)
        missing = sorted(set(truth) - set(got))
        assert not missing, f"seed {seed} frame {frame}: missed {missing[:5]}"
        found += len(truth)
        extra += len(set(got) - set(truth))
    assert found > 0, "no frame folded the sphere through itself: the test would be vacuous"
    assert extra <= max(4, found // 10)


def test_collide_frames_releases_the_gil():
    """While collide_frames runs in one thread, Python code keeps running in another: the
    longest pause of a Python loop during the call is a small part of the call."""
    import threading
    import time

    rng = np.random.default_rng(11)
    V, F = sphere_mesh(16, 24)
    U = smooth_basis(V, 2, rng)
    a = bdtree.Body(bdtree.Tree.build(V, F, modes=U))
    b = bdtree.Body(bdtree.Tree.build(V, F, modes=U))
    frames = 400
    rot = np.tile([1.0, 0.0, 0.0, 0.0], (frames, 1))
    tr_b = np.c_[np.linspace(2.2, 1.2, frames), np.zeros(frames), np.zeros(frames)]
    q = rng.normal(size=(frames, 2)) * 0.1
    # Long enough to measure: repeat the frames until a call takes at least 0.3 s.
    while True:
        start = time.perf_counter()
        bdtree.collide_frames(a, b, rot, np.zeros((frames, 3)), rot, tr_b, q_a=q, q_b=q)
        if time.perf_counter() - start >= 0.3:
            break
        rot, tr_b, q = np.r_[rot, rot], np.r_[tr_b, tr_b], np.r_[q, q]
        frames *= 2
    span = {}

    def run():
        span["start"] = time.perf_counter()
        span["result"] = bdtree.collide_frames(
            a, b, rot, np.zeros((frames, 3)), rot, tr_b, q_a=q, q_b=q)
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=run)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    during = [t for t in ticks if span["start"] <= t <= span["end"]]
    assert len(span["result"]) == frames
    assert len(during) > 10, "the Python loop did not run during the call"
    pauses = np.diff([span["start"]] + during + [span["end"]])
    assert pauses.max() < 0.5 * (span["end"] - span["start"])

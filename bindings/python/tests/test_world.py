"""`bdtree.World` and `collide_primitive_proxies` against NumPy brute force in float64 on the
explicitly deformed meshes: a world mixing unit bodies, millimetre bodies and a large body 250
units away, near the origin and 3–10 km from it, f32 and f64 — every body pair's answer holds
every pair the brute force finds, equals the two-body function's, and its extras, witnesses and
distances are within the pair's own bound; exactly touching sheets under rotation far away;
primitives; forces; and bad arguments named."""

import numpy as np
import pytest

import bdtree
from cases import every_kind_and_precision, scenes
from geometry import (all_pair_distances, far_states, point_triangle_distance,
                      sheet_bodies, touching_sheets)
from test_oracle import (brute_force, brute_force_self, random_quaternion, smooth_basis,
                         sphere_mesh, world)

U32 = 2.0 ** -24
# The bound of bdtree_std::host::placing for f32 (test_mixed.py): an extra pair or a witness of
# bodies a and b is closer than 256 u32 (x_a + x_b + |t_a - t_b|); f64 within 1e-12 of it.
BOUND = {"f32": 256.0 * U32, "f64": 256.0 * 2.0 ** -53}
KINDS = ["near", "far"]


class Scene:
    """Five bodies: two deforming unit balls touching or near each other, two millimetre balls
    touching or near each other beside them, a 200-unit ball whose surface is 250 units away;
    all around a centre at the origin ("near") or 3–10 km from it ("far"). Each body is a
    `bdtree.Body` (for the two-body functions) and in the world (moved by World.set_state)."""

    def __init__(self, rng, kind, precision, nested=False):
        V, F = sphere_mesh(6, 10)
        self.F = F
        far = {"near": 0.0, "far": 10 ** rng.uniform(3.5, 4.0)}[kind]
        d = rng.normal(size=3)
        centre = d / np.linalg.norm(d) * far
        sizes = [1.0, 1.0, 1e-3, 1e-3, 200.0]
        self.sizes = sizes
        self.V = [V * s for s in sizes]
        self.U = [smooth_basis(V, m, rng) * s for s, m in zip(sizes, (3, 2, 2, 1, 0))]
        self.U[4] = None
        self.trees = [bdtree.Tree.build(v, F, modes=u, precision=precision, nested=nested)
                      for v, u in zip(self.V, self.U)]
        self.bodies = [bdtree.Body(t) for t in self.trees]
        self.world = bdtree.World(self.bodies)
        t0 = centre + rng.uniform(-0.3, 0.3, 3)
        d = rng.normal(size=3)
        t1 = t0 + d / np.linalg.norm(d) * rng.uniform(1.0, 1.9)
        t2 = t0 + np.array([0.0, 0.0, 2.5])
        d = rng.normal(size=3)
        t3 = t2 + d / np.linalg.norm(d) * rng.uniform(1.0, 1.9) * 1e-3
        d = rng.normal(size=3)
        t4 = t0 + d / np.linalg.norm(d) * (250.0 + 200.0)
        self.t = [t0, t1, t2, t3, t4]
        self.r = [random_quaternion(rng) for _ in sizes]
        self.q = [None if u is None else rng.normal(size=u.shape[1]) * 0.3 for u in self.U]
        self.P = []
        for i, body in enumerate(self.bodies):
            body.set_state(rotation=self.r[i], translation=self.t[i], q=self.q[i])
            self.world.set_state(i, rotation=self.r[i], translation=self.t[i], q=self.q[i])
            self.P.append(world(self.V[i], self.U[i], self.r[i], self.t[i],
                                np.zeros(0) if self.q[i] is None else self.q[i]))

    def pairs(self):
        n = len(self.bodies)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    def bound(self, precision, i, j):
        """The pair's own bound: its sizes and distance, not where the world sits; plus the
        NumPy oracle's own rounding, which works in world coordinates (~1e-16 |t|)."""
        gap = np.linalg.norm(self.t[i] - self.t[j])
        oracle = 1e-14 * max(np.abs(self.t[i]).max(), np.abs(self.t[j]).max())
        return BOUND[precision] * (self.sizes[i] + self.sizes[j] + gap) + oracle


def rows_of(answer, i, j):
    """The rows of a world answer for bodies [i, j]."""
    return (answer["bodies"][:, 0] == i) & (answer["bodies"][:, 1] == j)


def tuples(a):
    return [tuple(p) for p in np.asarray(a).tolist()]


@every_kind_and_precision(KINDS)
def test_world_pairs_and_self_pairs_against_brute_force(precision, kind):
    found = 0
    for rng, s in scenes(Scene, KINDS, 3900, kind, precision, 3):
        got = s.world.collide(self_pairs=True)
        assert (np.diff(got["bodies"][:, 0]) >= 0).all()
        for i, j in s.pairs():
            mine = tuples(got["pairs"][rows_of(got, i, j)])
            assert mine == sorted(mine)
            assert mine == tuples(bdtree.collide(s.bodies[i], s.bodies[j]))
            truth = brute_force(s.P[i], s.F, s.P[j], s.F)
            assert not set(truth) - set(mine), f"bodies {i}, {j}: missed"
            found += len(truth)
            extra = sorted(set(mine) - set(truth))
            if extra:
                ia, ib = np.array(extra).T
                D = all_pair_distances(s.P[i], s.F, s.P[j], s.F)[ia, ib]
                assert D.max() <= s.bound(precision, i, j), (i, j, D.max())
        for i in range(len(s.bodies)):
            mine = tuples(got["pairs"][rows_of(got, i, i)])
            assert mine == tuples(bdtree.collide_self(s.bodies[i]))
            assert not set(brute_force_self(s.P[i], s.F)) - set(mine)
        # Nothing but body pairs and self pairs.
        assert len(got["pairs"]) == sum(rows_of(got, i, j).sum() for i, j in s.pairs()) + sum(
            rows_of(got, i, i).sum() for i in range(len(s.bodies)))
        assert (s.world.collide()["bodies"][:, 0] != s.world.collide()["bodies"][:, 1]).all()
    assert found > 0


@every_kind_and_precision(KINDS)
def test_world_contacts_within_and_distances_against_brute_force(precision, kind):
    contacts = 0
    for rng, s in scenes(Scene, KINDS, 3920, kind, precision, 3):
        C = s.world.contacts()
        W = s.world.within(0.05e-3)
        N = s.world.distances()
        assert len(N["distances"]) == len(s.pairs())
        for i, j in s.pairs():
            tol = s.bound(precision, i, j)
            c = rows_of(C, i, j)
            assert tuples(C["pairs"][c]) == tuples(bdtree.collide(s.bodies[i], s.bodies[j]))
            TA, TB = s.P[i][s.F[C["pairs"][c, 0]]], s.P[j][s.F[C["pairs"][c, 1]]]
            assert (point_triangle_distance(C["points"][c], TA) <= tol).all()
            assert (point_triangle_distance(C["points"][c], TB) <= tol).all()
            assert (C["depths"][c] >= 0).all()
            assert np.allclose(np.linalg.norm(C["normals"][c], axis=1), 1.0)
            contacts += c.sum()
            D = all_pair_distances(s.P[i], s.F, s.P[j], s.F)
            w = rows_of(W, i, j)
            mine = set(tuples(W["pairs"][w]))
            truth = set(zip(*np.nonzero(D <= 0.05e-3)))
            assert not truth - mine, f"bodies {i}, {j}: within missed"
            ia, ib = W["pairs"][w].T
            assert (np.abs(W["distances"][w] - D[ia, ib]) <= tol).all()
            n = rows_of(N, i, j)
            assert n.sum() == 1
            assert abs(N["distances"][n][0] - D.min()) <= tol, (i, j)
            gap = np.linalg.norm(N["points_b"][n][0] - N["points_a"][n][0])
            assert abs(gap - N["distances"][n][0]) <= tol
            two = bdtree.distance(s.bodies[i], s.bodies[j])
            assert two.distance == N["distances"][n][0]
            assert bool(N["intersecting"][n][0]) == (D.min() == 0.0) or D.min() <= tol
    assert contacts > 0


@every_kind_and_precision(KINDS)
def test_world_proxies_and_forces_equal_the_pair_functions(precision, kind):
    k = 300.0
    pushed = 0
    for rng, s in scenes(Scene, KINDS, 3940, kind, precision, 2, nested=True):
        P = s.world.proxies(3)
        R = s.world.proxy_forces(3, k)
        F = s.world.contact_forces(k)
        n = len(s.bodies)
        assert R["force"].shape == (n, 3) and len(R["q"]) == n
        force = np.zeros((n, 3))
        for i, j in s.pairs():
            p = rows_of(P, i, j)
            two = bdtree.collide_proxies(s.bodies[i], 3, s.bodies[j], 3)
            assert np.array_equal(P["nodes"][p], two["nodes"])
            assert np.array_equal(P["depth"][p], two["depth"])
            # Every true pair lies in an overlapping proxy pair's spheres.
            for a, b in brute_force(s.P[i], s.F, s.P[j], s.F):
                inside = ((np.linalg.norm(s.P[i][s.F[a]][:, None, :] - P["sphere_a"][p][None, :, :3],
                                          axis=2) <= P["sphere_a"][p][None, :, 3] * (1 + 1e-6)).all(0)
                          & (np.linalg.norm(s.P[j][s.F[b]][:, None, :]
                                            - P["sphere_b"][p][None, :, :3], axis=2)
                             <= P["sphere_b"][p][None, :, 3] * (1 + 1e-6)).all(0))
                assert inside.any(), (i, j, a, b)
            r = rows_of(R, i, j)
            pen = bdtree.penalty_forces(s.bodies[i], 3, s.bodies[j], 3, k)
            assert np.array_equal(R["forces"][r], pen["forces"])
            force[i] += pen["force_a"]
            force[j] += pen["force_b"]
            pushed += r.sum()
        assert np.allclose(R["force"], force, rtol=1e-12, atol=1e-9 * k)
        # Newton's third law over the world; contact forces likewise.
        assert np.abs(R["force"].sum(axis=0)).max() <= 1e-9 * k * max(1, len(R["forces"]))
        assert np.abs(F["force"].sum(axis=0)).max() <= 1e-9 * k * max(1, len(F["depths"]))
        for i in range(n):
            modes = 0 if s.U[i] is None else s.U[i].shape[1]
            assert R["q"][i].shape == (modes,) and F["q"][i].shape == (modes,)
        # The contact forces push along each contact's normal: b gets k d n.
        total = np.zeros((n, 3))
        for (i, j), d, nrm in zip(F["bodies"], F["depths"], F["normals"]):
            total[j] += k * d * nrm
            total[i] -= k * d * nrm
        assert np.allclose(F["force"], total, atol=1e-6 * k)
    assert pushed > 0


def plane_through(rng, centre, size):
    """A plane cutting into a ball of `size` at `centre`: (Primitive, normal, offset)."""
    n = rng.normal(size=3)
    n /= np.linalg.norm(n)
    offset = n @ centre - 0.4 * size
    return bdtree.Primitive.plane(n, offset), n, offset


@every_kind_and_precision(KINDS)
def test_primitive_proxies_cover_every_touching_triangle(precision, kind):
    """Every triangle touching the primitive lies inside a reported proxy sphere (it lies under
    that proxy), in Python and through the world; the world's primitive answers equal the
    one-body functions'."""
    touching = 0
    for rng, s in scenes(Scene, KINDS, 3960, kind, precision, 3, nested=True):
        planes = [plane_through(rng, s.t[i], s.sizes[i]) for i in (0, 2)]
        ball = bdtree.Primitive.sphere(s.t[3] + [0.0, 0.0, 0.4e-3], 0.3e-3)
        prims = [p for p, _, _ in planes] + [ball]
        w = bdtree.World(s.bodies, primitives=prims)
        n = len(s.bodies)
        assert w.primitive_count == 3 and w.body_count == n
        PP = w.primitive_proxies(2)
        PC = w.primitive_contacts()
        for i in range(n):
            tests = [lambda T, n_=nv, o=off: (T @ n_).min(axis=1) <= o for _, nv, off in planes]
            c, r = s.t[3] + [0.0, 0.0, 0.4e-3], 0.3e-3
            tests.append(lambda T, c=c, r=r: point_triangle_distance(
                np.broadcast_to(c, (len(T), 3)), T) <= r)
            for p, (prim, test) in enumerate(zip(prims, tests)):
                T = s.P[i][s.F]
                truth = np.nonzero(test(T))[0]
                mine = bdtree.collide_primitive_proxies(s.bodies[i], 2, prim)
                rows = rows_of(PP, i, n + p)
                assert np.array_equal(PP["nodes"][rows], mine["nodes"])
                assert np.array_equal(PP["spheres"][rows], mine["spheres"])
                assert (np.diff(mine["nodes"]) > 0).all()
                for t in truth:
                    dist = np.linalg.norm(T[t][:, None, :] - mine["spheres"][None, :, :3], axis=2)
                    inside = (dist <= mine["spheres"][None, :, 3] * (1 + 1e-6)).all(axis=0)
                    assert inside.any(), f"body {i}, primitive {p}: triangle {t} under no proxy"
                touching += len(truth)
                contacts = bdtree.collide_primitive(s.bodies[i], prim)
                crow = rows_of(PC, i, n + p)
                assert np.array_equal(PC["pairs"][crow, 0], contacts["triangles"])
                assert not set(truth) - set(contacts["triangles"].tolist())
    assert touching > 0


def test_exactly_touching_sheets_in_a_world_far_away():
    """Coplanar sheets sharing part of their area, rotated, 1 to 10^5 from the origin: every
    pair whose rest triangles share a point is reported by the world (the segment oracle does
    not see coplanar contact; shared points are the truth here)."""
    n, h = 8, 2.0 ** -6

    A, B, overlap = touching_sheets(n, h, (3, 2))
    rng = np.random.default_rng(393)
    for precision in ("f32", "f64"):
        a, b = sheet_bodies((A, B), precision)
        w = bdtree.World([a, b])
        for r, t in far_states(rng, 6, 5):
            w.set_state(0, rotation=r, translation=t)
            w.set_state(1, rotation=r, translation=t)
            got = set(tuples(w.collide()["pairs"]))
            assert overlap and not overlap - got, f"{precision}, |t| = {np.linalg.norm(t):.3g}"
            assert (w.distances()["distances"] == 0.0).all()


def test_world_copies_its_bodies():
    V, F = sphere_mesh()
    tree = bdtree.Tree.build(V, F)
    a, b = bdtree.Body(tree), bdtree.Body(tree)
    b.set_state(translation=(1.5, 0, 0))
    w = bdtree.World([a, b])
    assert len(w.collide()["pairs"]) > 0
    b.set_state(translation=(5, 0, 0))  # the world's copy stays where it was
    assert len(w.collide()["pairs"]) > 0
    w.set_state(1, translation=(5, 0, 0))
    assert len(w.collide()["pairs"]) == 0
    assert bdtree.World([]).collide()["pairs"].shape == (0, 2)


@pytest.mark.parametrize("call, message", [
    (lambda a, b, t: bdtree.World([a, "x"]), "bodies[1] = 'x'"),
    (lambda a, b, t: bdtree.World(3), "bodies = 3"),
    (lambda a, b, t: bdtree.World([a, b], primitives=[1]), "primitives[0] = 1"),
    (lambda a, b, t: bdtree.World([a, bdtree.Body(t)]), "bodies: the bodies' trees have"),
    (lambda a, b, t: bdtree.World([a, b]).set_state(2), "index = 2"),
    (lambda a, b, t: bdtree.World([a, b]).set_state(-1), "index = -1"),
    (lambda a, b, t: bdtree.World([a, b]).set_state(0, q=[np.nan]), "q[0] = NaN"),
    (lambda a, b, t: bdtree.World([a, b]).set_state(0, rotation=(2, 0, 0, 0)), "rotation ="),
    (lambda a, b, t: bdtree.World([a, b]).set_primitive(0, None), "no primitives"),
    (lambda a, b, t: bdtree.World([a, b]).within(-1.0), "distance = -1.0"),
    (lambda a, b, t: bdtree.World([a, b]).proxies(-1), "depth = -1"),
    (lambda a, b, t: bdtree.World([a, b]).proxy_forces(2, -3.0), "stiffness = -3.0"),
    (lambda a, b, t: bdtree.World([a, b]).contact_forces("k"), "stiffness = 'k'"),
    (lambda a, b, t: bdtree.World([a, b]).collide(self_pairs=2), "self_pairs = 2"),
    (lambda a, b, t: bdtree.World([a, b]).proxies(2), "nested=True"),
    (lambda a, b, t: bdtree.collide_primitive_proxies(a, -2, None), "depth = -2"),
    (lambda a, b, t: bdtree.collide_primitive_proxies(a, 2, None), "primitive = None"),
    (lambda a, b, t: bdtree.collide_primitive_proxies(
        a, 2, bdtree.Primitive.sphere((0, 0, 0), 1)), "nested=True"),
])
def test_world_bad_arguments_name_the_parameter_and_value(call, message):
    V, F = sphere_mesh()
    tree = bdtree.Tree.build(V, F, precision="f32")
    a, b = bdtree.Body(tree), bdtree.Body(tree)
    other = bdtree.Tree.build(V, F, precision="f64")
    with pytest.raises(bdtree.Error, match=None) as e:
        call(a, b, other)
    assert message in str(e.value), str(e.value)

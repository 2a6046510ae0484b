"""Every query beyond `collide` against NumPy brute force in float64 on the explicitly deformed
meshes (`geometry.py`, `test_oracle.py`): contacts (points on both triangles, depths that
separate the pair and no less; the Jacobians in test_jacobian.py), within, distance, proxies,
penalty forces, primitives, self pairs and export — near the origin, far from it, millimetre
parts and exactly touching sheets, f32 and f64."""

import subprocess

import numpy as np
import pytest

import bdtree
from cases import every_kind_and_precision, scenes
from conftest import FIXTURES, cli_path
from geometry import (all_pair_distances, far_states, point_triangle_distance,
                      sheet_bodies, touching_sheets, triangle_box_overlap,
                      triangle_distances)
from test_oracle import (brute_force, brute_force_self, quat_to_matrix, random_quaternion,
                         segments_hit_triangles, smooth_basis, sphere_mesh, world)

KINDS = ["near", "far", "mm"]


def tolerance(precision, size):
    """How far a point may be from its triangle: the f32 storage rounding of the model
    (≈ 1e-7 of its size) with room, or f64's."""
    return (2e-6 if precision == "f32" else 1e-10) * size


class Scene:
    """Two deforming spheres of `size`, b touching or near a, placed by `kind`."""

    def __init__(self, rng, kind, precision, nested=False, basis_b=None):
        self.size = size = 1e-3 if kind == "mm" else 1.0
        V, F = sphere_mesh(6, 10)
        self.V, self.F = V * size, F
        self.UA = smooth_basis(self.V, 3, rng) * size
        self.UB = (smooth_basis(self.V, 2, rng) if basis_b is None else basis_b(self.V)) * size
        self.a = bdtree.Body(bdtree.Tree.build(self.V, F, modes=self.UA, precision=precision,
                                               nested=nested))
        self.b = bdtree.Body(bdtree.Tree.build(self.V, F, modes=self.UB, precision=precision,
                                               nested=nested))
        far = {"near": 0.0, "far": 10 ** rng.uniform(3.5, 4.0), "mm": 250.0}[kind]
        d = rng.normal(size=3)
        centre = d / np.linalg.norm(d) * far
        self.ra, self.rb = random_quaternion(rng), random_quaternion(rng)
        self.ta = centre + rng.uniform(-0.3, 0.3, 3) * size
        d = rng.normal(size=3)
        self.tb = self.ta + d / np.linalg.norm(d) * rng.uniform(1.0, 1.9) * size
        self.qa = rng.normal(size=3) * 0.3
        self.qb = rng.normal(size=self.UB.shape[1]) * 0.3
        self.a.set_state(rotation=self.ra, translation=self.ta, q=self.qa)
        self.b.set_state(rotation=self.rb, translation=self.tb, q=self.qb)
        self.PA = world(self.V, self.UA, self.ra, self.ta, self.qa)
        self.PB = world(self.V, self.UB, self.rb, self.tb, self.qb)

    def pull_b(self, factor):
        """Moves b along the line from a's translation to its own, `factor` times as far from
        a: its state and world vertices follow."""
        self.tb = self.ta + (self.tb - self.ta) * factor
        self.b.set_state(rotation=self.rb, translation=self.tb, q=self.qb)
        self.PB = world(self.V, self.UB, self.rb, self.tb, self.qb)


@every_kind_and_precision(KINDS)
def test_contacts_against_brute_force(precision, kind):
    found = deep = 0
    for rng, s in scenes(Scene, KINDS, 39, kind, precision, 6):
        C = bdtree.contacts(s.a, s.b)
        pairs = [tuple(p) for p in C["pairs"].tolist()]
        # The pairs of collide, each once, none of the brute force's missed.
        assert np.array_equal(C["pairs"], bdtree.collide(s.a, s.b))
        truth = brute_force(s.PA, s.F, s.PB, s.F)
        assert not set(truth) - set(pairs), f"missed {sorted(set(truth) - set(pairs))[:4]}"
        found += len(truth)
        tol = tolerance(precision, s.size)
        TA, TB = s.PA[s.F[C["pairs"][:, 0]]], s.PB[s.F[C["pairs"][:, 1]]]
        assert (point_triangle_distance(C["points"], TA) <= tol).all()
        assert (point_triangle_distance(C["points"], TB) <= tol).all()
        assert np.allclose(np.linalg.norm(C["normals"], axis=1), 1.0)
        assert (C["depths"] >= 0).all()
        # Moving b's triangle by the depth along the normal separates the pair, and by less
        # does not (where the depth is well above the rounding).
        n, d = C["normals"], C["depths"]
        sure = d > 1e-3 * s.size
        for scale, hits in ((1.0 + 1e-3, False), (1.0 - 1e-3, True)):
            moved = TB[sure] + (scale * d[sure])[:, None, None] * n[sure][:, None, :]
            got = np.zeros(sure.sum(), dtype=bool)
            for k in range(3):
                got |= segments_hit_triangles(TA[sure][:, k], TA[sure][:, (k + 1) % 3],
                                              moved[:, 0], moved[:, 1], moved[:, 2])
                got |= segments_hit_triangles(moved[:, k], moved[:, (k + 1) % 3],
                                              TA[sure][:, 0], TA[sure][:, 1], TA[sure][:, 2])
            assert (got == hits).all(), (scale, np.flatnonzero(got != hits))
        deep += sure.sum()
        # Pairs the brute force does not see touch within rounding: depth ~ 0.
        extra = np.array([p not in set(truth) for p in pairs], dtype=bool)
        assert (d[extra] <= 100 * tol).all()
    assert found > 0 and deep > 0, "no contact: the test would be vacuous"


def test_jacobian_sign_a_translation_mode_deepens_the_contact():
    # Two unit boxes overlapping near x = 1; each has one mode moving it along +x. a's row is
    # the normal's x (a moving along the normal deepens the contact), b's its negative; and
    # the depth of a pair whose normal stays put changes by J δ when q moves by δ.
    V, F = box_mesh()
    U = np.tile(np.array([[1.0], [0.0], [0.0]]), (len(V), 1))
    a = bdtree.Body(bdtree.Tree.build(V, F, modes=U))
    b = bdtree.Body(bdtree.Tree.build(V, F, modes=U))
    b.set_state(translation=(1.9, 0.31, 0.23), q=[0.0])
    a.set_state(q=[0.0])
    C0 = bdtree.contacts(a, b)
    assert len(C0["depths"]) > 0
    assert np.allclose(C0["jacobian_a"][:, 0], C0["normals"][:, 0], atol=1e-12)
    assert np.allclose(C0["jacobian_b"][:, 0], -C0["normals"][:, 0], atol=1e-12)
    assert (C0["normals"][:, 0] > 0.99).any()
    for which, body in (("a", a), ("b", b)):
        delta = 0.01
        t = (0.0, 0.0, 0.0) if which == "a" else (1.9, 0.31, 0.23)
        body.set_state(translation=t, q=[delta])
        C1 = bdtree.contacts(a, b)
        before = {tuple(p): k for k, p in enumerate(C0["pairs"].tolist())}
        checked = 0
        for k, p in enumerate(C1["pairs"].tolist()):
            k0 = before.get(tuple(p))
            if k0 is None or C0["normals"][k0] @ C1["normals"][k] < 1 - 1e-12:
                continue
            if min(C0["depths"][k0], C1["depths"][k]) <= 0:
                continue
            predicted = C0["depths"][k0] + C0[f"jacobian_{which}"][k0, 0] * delta
            assert abs(C1["depths"][k] - predicted) <= 1e-9, (which, p)
            checked += 1
        assert checked > 0
        body.set_state(translation=t, q=[0.0])


def box_mesh(n=2, half=1.0):
    V, F = [], []
    for axis in range(3):
        for side in (-1.0, 1.0):
            base = len(V)
            u, v = (axis + 1) % 3, (axis + 2) % 3
            for i in range(n + 1):
                for j in range(n + 1):
                    p = [0.0] * 3
                    p[axis], p[u], p[v] = side * half, half * (-1 + 2 * i / n), half * (-1 + 2 * j / n)
                    V.append(p)
            for i in range(n):
                for j in range(n):
                    a, b = base + i * (n + 1) + j, base + (i + 1) * (n + 1) + j
                    quad = [[a, b, b + 1], [a, b + 1, a + 1]]
                    F += quad if side > 0 else [t[::-1] for t in quad]
    return np.array(V), np.array(F)


@every_kind_and_precision(KINDS)
def test_within_and_distance_against_brute_force(precision, kind):
    near = 0
    for step, (rng, s) in enumerate(scenes(Scene, KINDS, 139, kind, precision, 5)):
        # Pull b out a little so that some scenes have a gap.
        if step % 2:
            s.pull_b(1.4)
        tol = tolerance(precision, s.size)
        D = 0.05 * s.size
        truth = all_pair_distances(s.PA, s.F, s.PB, s.F)
        W = bdtree.within(s.a, s.b, D)
        got = {tuple(p) for p in W["pairs"].tolist()}
        want = {tuple(p) for p in np.argwhere(truth <= D).tolist()}
        assert not want - got, f"missed {sorted(want - got)[:4]}"
        true_d = truth[W["pairs"][:, 0], W["pairs"][:, 1]]
        assert (true_d <= D + 100 * tol).all()
        assert np.abs(W["distances"] - true_d).max(initial=0) <= 100 * tol
        TA, TB = s.PA[s.F[W["pairs"][:, 0]]], s.PB[s.F[W["pairs"][:, 1]]]
        assert (point_triangle_distance(W["points_a"], TA) <= tol).all()
        assert (point_triangle_distance(W["points_b"], TB) <= tol).all()
        near += len(want)
        d = bdtree.distance(s.a, s.b)
        assert abs(d.distance - truth.min()) <= 100 * tol, (d.distance, truth.min())
        assert d.intersecting == (d.distance == 0.0)
        ta, tb = d.triangles
        assert point_triangle_distance([d.point_a], s.PA[s.F[[ta]]])[0] <= tol
        assert point_triangle_distance([d.point_b], s.PB[s.F[[tb]]])[0] <= tol
    assert near > 0


def test_small_bodies_beside_a_large_far_one_issue_39():
    """Two 1 mm bodies 0.36 mm apart at the origin and a 1000-unit body 250 units away: each
    pair has its own origin, so f32 answers the small pair as tightly as if the large body
    were not there."""
    V, F = sphere_mesh(6, 10)
    small = [V * 5e-4, V * 5e-4]
    big = V * 500.0
    answers = {}
    for precision in ("f32", "f64"):
        s1, s2 = (bdtree.Body(bdtree.Tree.build(P, F, precision=precision)) for P in small)
        large = bdtree.Body(bdtree.Tree.build(big, F, precision=precision))
        s1.set_state(translation=(0.0, 0.0, 0.0))
        s2.set_state(translation=(1.36e-3, 0.0, 0.0))
        large.set_state(translation=(-126.0 - 500.0, 201.0, 111.0))
        bdtree.collide(s1, large)
        bdtree.collide(s2, large)
        answers[precision] = bdtree.distance(s1, s2)
        assert len(bdtree.collide(s1, s2)) == 0
    d32, d64 = answers["f32"].distance, answers["f64"].distance
    truth = all_pair_distances(small[0], F, small[1] + [1.36e-3, 0, 0], F).min()
    assert abs(d64 - truth) <= 1e-12
    assert abs(d32 - d64) <= 1e-6 * d64, (d32, d64)
    assert not answers["f32"].intersecting


@every_kind_and_precision(KINDS)
def test_every_contact_lies_under_a_proxy_pair(precision, kind):
    found = 0
    for rng, s in scenes(Scene, KINDS, 239, kind, precision, 4, nested=True):
        P = bdtree.collide_proxies(s.a, 3, s.b, 3)
        assert (P["depth"] >= -1e-9 * s.size).all()
        truth = brute_force(s.PA, s.F, s.PB, s.F)
        found += len(truth)
        slack = tolerance(precision, s.size) + 1e-12 * np.abs(s.ta).max()
        for ta, tb in truth:
            ins_a = (np.linalg.norm(s.PA[s.F[ta]][None] - P["sphere_a"][:, None, :3], axis=2)
                     <= P["sphere_a"][:, 3:4] + slack).all(axis=1)
            ins_b = (np.linalg.norm(s.PB[s.F[tb]][None] - P["sphere_b"][:, None, :3], axis=2)
                     <= P["sphere_b"][:, 3:4] + slack).all(axis=1)
            assert (ins_a & ins_b).any(), f"contact {(ta, tb)} under no proxy pair"
    assert found > 0


@every_kind_and_precision(KINDS)
def test_penalty_forces_against_the_proxies(precision, kind):
    """Forces k·depth along the centre line on each overlapping proxy pair; per body their sum,
    torques about its translation and, for modes that translate the whole body, q = ±Rᵀ Σ f."""
    translate = lambda V: np.tile(np.eye(3), (len(V), 1))  # U_v = I: 3 translation modes
    k = 250.0
    forces = 0
    for rng, s in scenes(Scene, KINDS, 339, kind, precision, 4, nested=True, basis_b=translate):
        # The spheres come back in world coordinates: their centre line, recomputed here, has
        # the rounding of |t| in it.
        rel = (1e-5 if precision == "f32" else 1e-10) + 1e-14 * np.abs(s.ta).max() / s.size
        P = bdtree.collide_proxies(s.a, 3, s.b, 3)
        R = bdtree.penalty_forces(s.a, 3, s.b, 3, k)
        ca, cb = P["sphere_a"][:, :3], P["sphere_b"][:, :3]
        gap = np.linalg.norm(cb - ca, axis=1)
        live = (P["depth"] > 0) & (gap > 0)
        assert np.array_equal(R["nodes"], P["nodes"][live])
        n = (cb - ca)[live] / gap[live, None]
        f = k * P["depth"][live, None] * n
        scale = k * s.size
        assert np.abs(R["forces"] - f).max(initial=0) <= rel * scale
        points = ca[live] + (P["sphere_a"][live, 3] - P["depth"][live] / 2)[:, None] * n
        assert np.abs(R["points"] - points).max(initial=0) <= rel * s.size + 1e-12 * np.abs(s.ta).max()
        total = f.sum(axis=0)
        assert np.allclose(R["force_b"], total, atol=rel * scale * max(1, live.sum()))
        assert np.allclose(R["force_a"], -total, atol=rel * scale * max(1, live.sum()))
        torque_b = np.cross(points - s.tb, f).sum(axis=0)
        assert np.allclose(R["torque_b"], torque_b, atol=rel * scale * s.size * max(1, live.sum()))
        Rb = quat_to_matrix(s.rb)
        # U_v = size · I: the generalized force is size · Rᵀ Σ f.
        assert np.allclose(R["q_b"], s.size * Rb.T @ total,
                           atol=rel * scale * s.size * max(1, live.sum()))
        assert R["q_a"].shape == (3,)
        forces += live.sum()
    assert forces > 0


def primitives_near(rng, s):
    """A plane, a sphere, a capsule and a box cutting into body a: (primitive, what NumPy
    tests: whether a triangle touches it, and a point's signed distance into it)."""
    c, size = s.ta, s.size
    n = rng.normal(size=3)
    n /= np.linalg.norm(n)
    out = []
    offset = float(n @ c) - 0.4 * size
    out.append((bdtree.Primitive.plane(n * 3.0, offset),
                lambda T: (T @ n).min(axis=1) <= offset,
                lambda X: X @ n - offset))
    centre, radius = c + rng.normal(size=3) * 0.5 * size, 0.5 * size
    out.append((bdtree.Primitive.sphere(centre, radius),
                lambda T: point_triangle_distance(np.tile(centre, (len(T), 1)), T) <= radius,
                lambda X: np.linalg.norm(X - centre, axis=1) - radius))
    a, b, rc = c - 0.4 * size * n, c + 1.5 * size * n, 0.3 * size

    def capsule_gap(X):
        t = np.clip(((X - a) @ (b - a)) / ((b - a) @ (b - a)), 0, 1)
        return np.linalg.norm(X - (a + t[:, None] * (b - a)), axis=1) - rc

    def capsule_hits(T):
        seg = np.stack([np.tile(a, (len(T), 1)), np.tile(b, (len(T), 1)),
                        np.tile(b, (len(T), 1))], axis=1)
        return triangle_distances(T, seg) <= rc

    out.append((bdtree.Primitive.capsule(a, b, rc), capsule_hits, capsule_gap))
    q = random_quaternion(rng)
    bc, axes, half = c + 0.8 * size * n, quat_to_matrix(q), np.array([0.4, 0.3, 0.6]) * size
    out.append((bdtree.Primitive.box(bc, q, half),
                lambda T: triangle_box_overlap(T, bc, axes, half),
                lambda X: (np.abs((X - bc) @ axes) - half).max(axis=1)))
    return out


@every_kind_and_precision(KINDS)
def test_primitives_against_brute_force(precision, kind):
    touched = 0
    for rng, s in scenes(Scene, KINDS, 439, kind, precision, 3):
        tol = tolerance(precision, s.size) + 1e-15 * np.abs(s.ta).max()
        for prim, hits, signed in primitives_near(rng, s):
            got = bdtree.collide_primitive(s.a, prim)
            truth = hits(s.PA[s.F])
            missed = set(np.flatnonzero(truth).tolist()) - set(got["triangles"].tolist())
            assert not missed, f"{prim.kind}: missed {sorted(missed)[:4]}"
            assert (got["depths"] >= 0).all()
            assert np.allclose(np.linalg.norm(got["normals"], axis=1), 1.0)
            T = s.PA[s.F[got["triangles"]]]
            assert (point_triangle_distance(got["points"], T) <= 100 * tol).all(), prim.kind
            assert (signed(got["points"]) <= 100 * tol).all(), prim.kind
            touched += int(truth.sum())
    assert touched > 0


@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_self_pairs_far_and_in_millimetres(precision):
    rng = np.random.default_rng(539 + (precision == "f32"))
    V, F = sphere_mesh()
    found = 0
    for size, far in ((1e-3, 250.0), (1.0, 3e3)):
        U = smooth_basis(V * size, 3, rng) * size
        body = bdtree.Body(bdtree.Tree.build(V * size, F, modes=U, precision=precision))
        for _ in range(4):
            r, t = random_quaternion(rng), rng.normal(size=3) / np.sqrt(3) * far
            q = rng.normal(size=3) * 3.0
            body.set_state(rotation=r, translation=t, q=q)
            got = {tuple(p) for p in bdtree.collide_self(body).tolist()}
            truth = brute_force_self(world(V * size, U, r, t, q), F)
            assert not set(truth) - got
            found += len(truth)
    assert found > 0


def test_touching_sheets_contacts_and_within_far_under_rotation():
    """Coplanar sheets sharing part of their area, far from the origin under a rotation: every
    pair whose rest triangles share a point touches — contacts reports it with depth 0 and a
    point on both, within reports it at distance 0."""
    n, h = 6, 2.0 ** -6

    (VA, FA), B, overlap = touching_sheets(n, h, (2, 3))
    rng = np.random.default_rng(639)
    for precision in ("f32", "f64"):
        a, b = sheet_bodies(((VA, FA), B), precision)
        for r, t in far_states(rng, 4, 4):
            a.set_state(rotation=r, translation=t)
            b.set_state(rotation=r, translation=t)
            C = bdtree.contacts(a, b)
            got = {tuple(p) for p in C["pairs"].tolist()}
            assert not overlap - got
            assert (C["depths"] <= 1e-5 * h).all()
            PA = world(VA, None, r, t, None)
            tol = 1e-6 * h + 1e-15 * np.abs(t).max()
            assert (point_triangle_distance(C["points"], PA[FA[C["pairs"][:, 0]]]) <= tol).all()
            W = bdtree.within(a, b, 0.0)
            assert not overlap - {tuple(p) for p in W["pairs"].tolist()}


def test_export_writes_what_the_cli_writes(tmp_path):
    import json
    scene_path = FIXTURES / "scenes" / "demo.json"
    spec = json.loads(scene_path.read_text())
    bodies = []
    for b, state in zip(spec["bodies"], spec["frames"][0]["bodies"]):
        V, F = bdtree.load_mesh(scene_path.parent / b["mesh"])
        U = bdtree.load_basis(scene_path.parent / b["modes"], len(V)) if "modes" in b else None
        body = bdtree.Body(bdtree.Tree.build(V, F, modes=U))
        body.set_state(rotation=state["rotation"], translation=state["translation"],
                       q=state.get("q") or None)
        bodies.append(body)
    for ext in ("ply", "obj"):
        mine, theirs = tmp_path / f"py.{ext}", tmp_path / f"cli.{ext}"
        summary = bdtree.export(mine, bodies, contacts=True, spheres=2)
        subprocess.run([str(cli_path()), "export", str(scene_path), "-o", str(theirs),
                        "--contacts", "--spheres", "2"], check=True, capture_output=True)
        Vm, Fm = bdtree.load_mesh(mine)
        Vc, Fc = bdtree.load_mesh(theirs)
        assert np.array_equal(Fm, Fc) and np.allclose(Vm, Vc, atol=1e-9)
        assert summary["vertices"] == len(Vm) and summary["triangles"] == len(Fm)
        assert summary["pairs"] > 0 and summary["points"] == summary["pairs"]
        # Face colours too (PLY): the same contact triangles in red.
        if ext == "ply":
            body = lambda p: [l for l in p.read_text().splitlines() if l and l[0].isdigit()]
            assert body(mine)[-len(Fm):] == body(theirs)[-len(Fc):]

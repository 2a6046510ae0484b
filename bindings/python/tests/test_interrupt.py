"""`bdtree.Interruptible` against NumPy brute force in float64 on the explicitly deformed meshes:
a completed run equals `collide`, an interrupted and resumed one too (every order), every
interrupted run's cover holds every true pair (confirmed, or both triangles inside the spheres
of a pending node pair), a full pending list ends in an explicit cover — near the origin, far
from it, millimetre parts, exactly touching sheets under rotation far away, f32 and f64."""

import numpy as np
import pytest

import bdtree
from cases import every_kind_and_precision, scenes
from geometry import far_states, sheet_bodies, touching_sheets
from test_oracle import brute_force
from test_queries import KINDS, Scene

ORDERS = ["breadth", "deepest", "largest"]


def spheres(body):
    """Every node's world sphere (n, 4), at the body's current state."""
    n = body.tree.info()["nodes"]
    return np.array([body.sphere(k) for k in range(n)])


def covered(truth, run, P, F, PB, FB, SA, SB):
    """Whether every true pair is confirmed or has its triangles in a pending pair's spheres."""
    confirmed = {tuple(p) for p in run["pairs"].tolist()}
    pending = run["pending"]
    for ta, tb in truth:
        if (ta, tb) in confirmed:
            continue
        A, B = P[F[ta]], PB[FB[tb]]
        sa, sb = SA[pending[:, 0]], SB[pending[:, 1]]
        # Rounding room: the spheres come back in world coordinates.
        room = 1e-6 * (sa[:, 3] + sb[:, 3]) + 1e-12 * np.abs(A).max()
        in_a = (np.linalg.norm(A[None, :, :] - sa[:, None, :3], axis=2)
                <= sa[:, 3:4] + room[:, None]).all(axis=1)
        in_b = (np.linalg.norm(B[None, :, :] - sb[:, None, :3], axis=2)
                <= sb[:, 3:4] + room[:, None]).all(axis=1)
        if not (in_a & in_b).any():
            return False
    return True


def until_done(query, tests, check):
    interrupted = 0
    while True:
        run = query.run(tests=tests)
        if run["done"]:
            assert run["status"] == "done" and run["pending"].shape == (0, 2)
            return run["pairs"], interrupted
        assert run["status"] == "interrupted"
        assert check(run), "a true pair is outside the cover"
        interrupted += 1
        assert interrupted < 100_000


@every_kind_and_precision(KINDS)
def test_interrupted_runs_equal_collide_and_cover_the_brute_force(precision, kind):
    found = 0
    for rng, s in scenes(Scene, KINDS, 3990, kind, precision, 3):
        expected = bdtree.collide(s.a, s.b)
        truth = brute_force(s.PA, s.F, s.PB, s.F)
        assert not set(truth) - {tuple(p) for p in expected.tolist()}
        found += len(truth)
        SA, SB = spheres(s.a), spheres(s.b)
        check = lambda run: covered(truth, run, s.PA, s.F, s.PB, s.F, SA, SB)
        once = bdtree.Interruptible(s.a, s.b).run()
        assert once["done"] and np.array_equal(once["pairs"], expected)
        for order in ORDERS:
            q = bdtree.Interruptible(s.a, s.b, order=order, capacity=1 << 16)
            pairs, interrupted = until_done(q, 30, check)
            assert interrupted > 2, order
            assert np.array_equal(pairs, expected), order
        full = bdtree.Interruptible(s.a, s.b, capacity=3).run()
        if not full["done"]:
            assert full["status"] == "pending_full" and len(full["pending"]) <= 3
            assert check(full)
        timed = bdtree.Interruptible(s.a, s.b, order="deepest")
        while not (run := timed.run(seconds=2e-5))["done"]:
            assert check(run)
        assert np.array_equal(run["pairs"], expected)
    assert found > 0


def test_exactly_touching_sheets_far_away():
    n, h = 8, 2.0 ** -6

    A, B, overlap = touching_sheets(n, h, (3, 2))
    rng = np.random.default_rng(394)
    for precision in ("f32", "f64"):
        a, b = sheet_bodies((A, B), precision)
        for r, t in far_states(rng, 4, 5):
            a.set_state(rotation=r, translation=t)
            b.set_state(rotation=r, translation=t)
            q = bdtree.Interruptible(a, b, order="largest")
            pairs, interrupted = until_done(q, 20, lambda run: True)
            assert interrupted > 0
            assert np.array_equal(pairs, bdtree.collide(a, b))
            assert not overlap - {tuple(p) for p in pairs.tolist()}, f"{precision} |t| {t}"


@pytest.mark.parametrize("call, message", [
    (lambda a, b: bdtree.Interruptible(a, b, order="x"), "order = 'x'"),
    (lambda a, b: bdtree.Interruptible(a, b, capacity=0), "capacity = 0"),
    (lambda a, b: bdtree.Interruptible(a, a), "a and b are the same body"),
    (lambda a, b: bdtree.Interruptible(a, 3), "b = 3"),
    (lambda a, b: bdtree.Interruptible(a, b).run(tests=-1), "tests = -1"),
    (lambda a, b: bdtree.Interruptible(a, b).run(seconds=-1.0), "seconds = -1.0"),
    (lambda a, b: bdtree.Interruptible(a, b).run(tests=1, seconds=1.0), "tests and seconds"),
])
def test_bad_arguments_name_the_parameter_and_value(call, message):
    from test_oracle import sphere_mesh
    V, F = sphere_mesh()
    tree = bdtree.Tree.build(V, F)
    a, b = bdtree.Body(tree), bdtree.Body(tree)
    b.set_state(translation=(1.5, 0, 0))
    with pytest.raises(bdtree.Error) as e:
        call(a, b)
    assert message in str(e.value), str(e.value)


def test_a_changed_state_ends_the_query():
    from test_oracle import sphere_mesh
    V, F = sphere_mesh()
    tree = bdtree.Tree.build(V, F)
    a, b = bdtree.Body(tree), bdtree.Body(tree)
    b.set_state(translation=(1.5, 0, 0))
    q = bdtree.Interruptible(a, b)
    assert not q.run(tests=5)["done"]
    b.set_state(translation=(1.4, 0, 0))
    with pytest.raises(bdtree.Error, match="start a new one"):
        q.run(tests=5)

"""`closer_than` and `collide(bounds=...)` against NumPy brute force in float64 on the
explicitly deformed meshes: near the origin, 10^3.5–10^4 away, millimetre parts 250 away,
exactly touching sheets under rotation far away, f32 and f64."""

import numpy as np
import pytest

import bdtree
from cases import every_kind_and_precision, scenes
from geometry import all_pair_distances, far_states, sheet_bodies, touching_sheets
from test_oracle import brute_force, world
from test_queries import KINDS, Scene, tolerance


@every_kind_and_precision(KINDS)
def test_closer_than_against_brute_force(precision, kind):
    answers = set()
    for step, (rng, s) in enumerate(scenes(Scene, KINDS, 239, kind, precision, 5)):
        if step % 2:
            s.pull_b(1.4)
        tol = tolerance(precision, s.size)
        D = all_pair_distances(s.PA, s.F, s.PB, s.F).min()
        for d in (0.0, D, D * (1 - 1e-3), D * (1 + 1e-3), D + 0.1 * s.size, 0.5 * D):
            closer = bdtree.closer_than(s.a, s.b, d)
            assert isinstance(closer, bool)
            # The NumPy distance is computed in world coordinates: its own rounding (~u of
            # the coordinates, 10^4 away) decides ties, so "yes" is required past it.
            oracle = 64 * np.finfo(float).eps * (np.abs(s.PA).max() + np.abs(s.PB).max())
            if D + oracle <= d:
                assert closer, (step, d, D)
            if closer:
                assert D <= d + 100 * tol, (step, d, D)
            answers.add(closer)
    assert answers == {True, False}


@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_closer_than_touching_sheets_under_rotation_far_away(precision):
    # Two coplanar sheets sharing part of their area, one pose: touching exactly (d = 0 is
    # "closer"); b lifted along the rotated normal by 2 h: closer than 2 h, not than h.
    n, h = 8, 2.0 ** -6
    (VA, FA), (VB, FB), _ = touching_sheets(n, h, (3, 2))
    rng = np.random.default_rng(12)
    a, b = sheet_bodies(((VA, FA), (VB, FB)), precision)
    for r, t in far_states(rng, 6, 4):
        a.set_state(rotation=r, translation=t)
        b.set_state(rotation=r, translation=t)
        assert bdtree.closer_than(a, b, 0.0)
        normal = world(np.array([[0.0, 0.0, 1.0]]), None, r, np.zeros(3), None)[0]
        b.set_state(rotation=r, translation=t + 2 * h * normal)
        PA = world(VA, None, r, t, None)
        PB = world(VB, None, r, t + 2 * h * normal, None)
        D = all_pair_distances(PA, FA, PB, FB).min()
        assert abs(D - 2 * h) <= 1e-9 * (1 + np.linalg.norm(t))
        assert bdtree.closer_than(a, b, 2.5 * h)
        assert not bdtree.closer_than(a, b, h)
        assert not bdtree.closer_than(a, b, 0.0)


@every_kind_and_precision(KINDS)
def test_collide_with_box_bounds_equals_spheres_and_brute_force(precision, kind):
    found = 0
    for rng, s in scenes(Scene, KINDS, 339, kind, precision, 5):
        spheres = bdtree.collide(s.a, s.b)
        assert (bdtree.collide(s.a, s.b, bounds="spheres") == spheres).all()
        for bounds in ("boxes15", "boxes6"):
            boxes = bdtree.collide(s.a, s.b, bounds=bounds)
            assert boxes.shape == spheres.shape and (boxes == spheres).all(), bounds
        truth = {tuple(p) for p in brute_force(s.PA, s.F, s.PB, s.F)}
        got = {tuple(p) for p in spheres.tolist()}
        assert not truth - got, f"missed {sorted(truth - got)[:4]}"
        found += len(truth)
    assert found > 0


def test_bad_arguments_name_their_parameter():
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
    F = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])
    a = bdtree.Body(bdtree.Tree.build(V, F))
    b = bdtree.Body(bdtree.Tree.build(V, F))
    for bad in (-1.0, float("nan"), float("inf"), "near", True):
        with pytest.raises(bdtree.Error, match=r"^distance = "):
            bdtree.closer_than(a, b, bad)
    for bad in ("boxes", 15, "Spheres"):
        with pytest.raises(bdtree.Error, match=r"^bounds = "):
            bdtree.collide(a, b, bounds=bad)
    with pytest.raises(bdtree.Error, match="b"):
        bdtree.closer_than(a, "not a body", 1.0)

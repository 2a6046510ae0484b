"""States given in float64, far from the origin and exactly touching: f32 trees answer every
pair the NumPy brute force finds at the state as given (the floating origin and the state's
rounding in the bound), and states beyond the precision's range are refused with the values
named. `BDTREE_FAR_SCENES` sets the random scenes per precision (default 24; the full run:
1000)."""

import os

import numpy as np
import pytest

import bdtree
from geometry import far_states, sheet_bodies, touching_sheets
from test_oracle import brute_force, random_quaternion, smooth_basis, sphere_mesh, world

SCENES = int(os.environ.get("BDTREE_FAR_SCENES", "24"))


@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_far_from_origin_misses_nothing(precision):
    rng = np.random.default_rng(28)
    V, F = sphere_mesh()
    found = 0
    for scene in range(SCENES):
        size = [1.0, 1e-3, 50.0][scene % 3]
        Vs = V * size
        UA, UB = smooth_basis(Vs, 3, rng) * size, smooth_basis(Vs, 2, rng) * size
        a = bdtree.Body(bdtree.Tree.build(Vs, F, modes=UA, precision=precision))
        b = bdtree.Body(bdtree.Tree.build(Vs, F, modes=UB, precision=precision))
        far = size * 10 ** rng.uniform(0, 5)
        centre = rng.normal(size=3)
        centre *= far / np.linalg.norm(centre)
        ra, rb = random_quaternion(rng), random_quaternion(rng)
        ta = centre + rng.uniform(-0.3, 0.3, size=3) * size
        d = rng.normal(size=3)
        tb = ta + d / np.linalg.norm(d) * rng.uniform(1.0, 2.0) * size
        qa, qb = rng.normal(size=3) * 0.2, rng.normal(size=2) * 0.2
        a.set_state(rotation=ra, translation=ta, q=qa)
        b.set_state(rotation=rb, translation=tb, q=qb)
        got = {tuple(p) for p in bdtree.collide(a, b).tolist()}
        truth = brute_force(world(Vs, UA, ra, ta, qa), F, world(Vs, UB, rb, tb, qb), F)
        missing = sorted(set(truth) - got)
        assert not missing, f"scene {scene} (size {size}, |t| {far:.3g}): missed {missing[:5]}"
        found += len(truth)
        # Points come back in world coordinates.
        if truth:
            x, y, z, r = a.sphere(0)
            assert np.linalg.norm(np.subtract((x, y, z), ta)) < 2.0 * size + r
    assert found > 0, "no scene had a contact: the test would be vacuous"


def test_collide_frames_far_from_origin_equals_frame_by_frame():
    rng = np.random.default_rng(5)
    V, F = sphere_mesh()
    a = bdtree.Body(bdtree.Tree.build(V, F, precision="f32"))
    b = bdtree.Body(bdtree.Tree.build(V, F, precision="f32"))
    frames = 6
    ra = np.stack([random_quaternion(rng) for _ in range(frames)])
    rb = np.stack([random_quaternion(rng) for _ in range(frames)])
    ta = np.tile([4552.0, -6579.0, 1955.0], (frames, 1)) + rng.uniform(-0.2, 0.2, (frames, 3))
    tb = ta + rng.uniform(1.2, 1.8, (frames, 1)) * np.array([[1.0, 0.0, 0.0]])
    got = bdtree.collide_frames(a, b, ra, ta, rb, tb)
    for f in range(frames):
        truth = brute_force(world(V, None, ra[f], ta[f], None), F,
                            world(V, None, rb[f], tb[f], None), F)
        assert not set(truth) - {tuple(p) for p in got[f].tolist()}, f"frame {f}"


def test_touching_faces_under_rotation_far_away():
    # Two coplanar sheets sharing part of their area, one pose, far from the origin.
    n, h = 8, 2.0 ** -6
    # Coplanar and coincident: every pair whose rest triangles share a point touches.
    # (The segment-based oracle of test_oracle does not see coplanar contact.)
    A, B, overlap = touching_sheets(n, h, (3, 2))
    rng = np.random.default_rng(11)
    a, b = sheet_bodies((A, B), "f32")
    for r, t in far_states(rng, max(6, SCENES), 5):
        a.set_state(rotation=r, translation=t)
        b.set_state(rotation=r, translation=t)
        got = {tuple(p) for p in bdtree.collide(a, b).tolist()}
        assert overlap and not overlap - got, f"|t| = {np.linalg.norm(t):.3g}"


def test_set_state_omitted_q_means_zero():
    V, F = sphere_mesh()
    rng = np.random.default_rng(3)
    body = bdtree.Body(bdtree.Tree.build(V, F, modes=smooth_basis(V, 5, rng)))
    body.set_state(translation=(0, 0, 0))
    body.set_state()
    x, y, z, r = body.sphere(0)
    assert abs(x) < 1.5 and r > 0.9


def test_state_out_of_range_is_refused_with_the_values():
    V, F = sphere_mesh()
    rng = np.random.default_rng(4)
    a = bdtree.Body(bdtree.Tree.build(V, F, modes=smooth_basis(V, 2, rng), precision="f32"))
    b = bdtree.Body(bdtree.Tree.build(V, F, precision="f32"))
    a.set_state(q=(0.1, 0.1))
    with pytest.raises(bdtree.Error, match="out of range.*1e25"):
        a.set_state(q=(1e25, 0.0))
    # The refused state changed nothing: the previous one still answers.
    b.set_state(translation=(1.5, 0, 0))
    d = bdtree.distance(a, b)
    assert d.distance >= 0.0

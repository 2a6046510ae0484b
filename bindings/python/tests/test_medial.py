"""Medial trees (``tree="medial"``): the same exact answers as the NumPy brute force, unit-size
and millimetre bodies near the origin and far from it, f32 and f64; open meshes refused."""

import numpy as np
import pytest

import bdtree
from test_oracle import brute_force, random_quaternion, smooth_basis, sphere_mesh, world


def capsule_mesh(length=3.0, radius=0.25):
    """A slender closed body (a sphere stretched along x): the medial split's thin case."""
    V, F = sphere_mesh(10, 14)
    V = V * [length / 2, radius, radius]
    return V, F


@pytest.mark.parametrize("precision", ["f64", "f32"])
@pytest.mark.parametrize("scale,offset", [(1.0, 0.0), (1e-3, 1e3)])
@pytest.mark.parametrize("seed", range(3))
def test_medial_tree_never_misses_a_brute_force_contact(seed, scale, offset, precision):
    rng = np.random.default_rng(5900 + seed)
    VA, FA = capsule_mesh()
    VB, FB = sphere_mesh()
    VA, VB = VA * scale, VB * scale
    UA, UB = smooth_basis(VA, 3, rng) * scale, None
    medial = bdtree.Tree.build(VA, FA, modes=UA, precision=precision, tree="medial")
    median = bdtree.Tree.build(VA, FA, modes=UA, precision=precision)
    assert medial.to_bytes() != median.to_bytes(), "the medial tree is the median tree"
    a = bdtree.Body(medial)
    b = bdtree.Body(bdtree.Tree.build(VB, FB, precision=precision, tree="medial"))
    found = 0
    for frame in range(8):
        ra, rb = random_quaternion(rng), random_quaternion(rng)
        ta = np.full(3, offset)
        tb = rng.normal(size=3)
        tb = ta + tb * rng.uniform(0.5, 1.6) * scale / np.linalg.norm(tb)
        qa = rng.normal(size=3) * 0.4
        a.set_state(rotation=ra, translation=ta, q=qa)
        b.set_state(rotation=rb, translation=tb)
        got = {tuple(p) for p in bdtree.collide(a, b).tolist()}
        truth = brute_force(world(VA, UA, ra, ta, qa), FA, world(VB, None, rb, tb, None), FB)
        missing = sorted(set(truth) - got)
        assert not missing, f"seed {seed} frame {frame}: missed {missing[:5]}"
        found += len(truth)
    assert found > 0, "no frame had a contact: the test would be vacuous"


def test_an_open_mesh_is_refused_for_a_medial_tree():
    V, F = sphere_mesh()
    F = F[1:]  # a hole at the pole
    with pytest.raises(bdtree.Error, match="not closed.*median split"):
        bdtree.Tree.build(V, F, tree="medial")
    # The median split builds it.
    assert bdtree.Tree.build(V, F, tree="median").info()["triangles"] == len(F)


def test_a_bad_tree_value_names_the_parameter():
    V, F = sphere_mesh()
    with pytest.raises(bdtree.Error, match="tree.*\"median\" or \"medial\""):
        bdtree.Tree.build(V, F, tree="medal")

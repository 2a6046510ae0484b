"""bdtree.collide on trees built from NumPy arrays equals the CLI's answers on every fixture
frame, in f64 and f32 (the CLI builds its trees from the same files with the same defaults)."""

import json

import numpy as np
import pytest

import bdtree
from conftest import FIXTURES, SCENES, cli_collide


def load_scene(path):
    spec = json.loads(path.read_text())
    bodies = []
    for b in spec["bodies"]:
        V, F = bdtree.load_mesh(path.parent / b["mesh"])
        U = bdtree.load_basis(path.parent / b["modes"], len(V)) if "modes" in b else None
        bodies.append((b["name"], V, F, U))
    return spec, bodies


def self_scene(path):
    """Whether the scene's expected answers include self-collisions (as `--self`)."""
    text = (FIXTURES / "expected" / (path.stem + ".jsonl")).read_text()
    return '"self":true' in text


@pytest.mark.parametrize("precision", ["f64", "f32"])
@pytest.mark.parametrize("scene", SCENES, ids=lambda p: p.stem)
def test_collide_equals_cli_on_every_frame(scene, precision, cli):
    spec, specs = load_scene(scene)
    with_self = self_scene(scene)
    names = [s[0] for s in specs]
    bodies = [bdtree.Body(bdtree.Tree.build(V, F, modes=U, precision=precision))
              for _, V, F, U in specs]
    expected = cli_collide(scene, precision, with_self)
    assert len(expected) == len(spec["frames"]) > 0
    total = 0
    for f, (frame, want) in enumerate(zip(spec["frames"], expected)):
        for body, state in zip(bodies, frame["bodies"]):
            body.set_state(rotation=state["rotation"], translation=state["translation"],
                           q=state.get("q") or None)
        got = []
        for i, a in enumerate(bodies):
            if with_self:
                got += [(names[i], names[i], int(p), int(q)) for p, q in bdtree.collide_self(a)]
            for j in range(i + 1, len(bodies)):
                pairs = bdtree.collide(a, bodies[j])
                assert pairs.dtype == np.int64 and pairs.ndim == 2 and pairs.shape[1] == 2
                assert [tuple(r) for r in pairs] == sorted(tuple(r) for r in pairs)
                got += [(names[i], names[j], int(p), int(q)) for p, q in pairs]
        want_pairs = sorted(tuple(p) for p in want["pairs"])
        assert sorted(got) == want_pairs, f"{scene.stem} frame {f} ({precision})"
        total += len(got)
    # The fixtures are scenes with contacts: the comparison is not vacuous.
    assert total > 0


@pytest.mark.parametrize("scene", SCENES, ids=lambda p: p.stem)
def test_any_layout_and_dtype_builds_the_same_tree(scene):
    _, specs = load_scene(scene)
    _, V, F, U = specs[0]
    reference = bdtree.Tree.build(V, F, modes=U)
    n = len(V)
    modes = None if U is None else np.asfortranarray(U.reshape(n, 3, -1))
    again = bdtree.Tree.build(np.asfortranarray(V), F.astype(np.int32), modes=modes)
    assert again.to_bytes() == reference.to_bytes()
    # float32 input is widened: the tree of the rounded coordinates, as many nodes.
    small = bdtree.Tree.build(V.astype(np.float32), F, modes=U)
    assert small.info()["nodes"] == reference.info()["nodes"]
    assert small.info()["modes"] == reference.info()["modes"]

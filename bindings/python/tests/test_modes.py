"""bdtree.modes equals `bdtree modes` (the CLI) on a fixture mesh: the same frequencies and
the same span of displacements (mode shapes are defined up to sign, and up to rotation inside
a repeated frequency)."""

import json
import subprocess

import numpy as np
import pytest

import bdtree
from conftest import FIXTURES


def test_modes_equal_the_cli(tmp_path, cli):
    mesh = FIXTURES / "meshes" / "rigid-blob.obj"
    out = tmp_path / "blob.npy"
    args = [str(cli), "modes", str(mesh), "-k", "4", "--resolution", "10", "-o", str(out),
            "--json"]
    report = json.loads(subprocess.run(args, check=True, capture_output=True,
                                       text=True).stdout)
    V, F = bdtree.load_mesh(mesh)
    freqs, U = bdtree.modes(V, F, k=4, young=1e6, poisson=0.45, density=1000.0, resolution=10)
    want = np.asarray(report["frequencies_hz"])
    assert freqs.shape == (4,) and U.shape == (3 * len(V), 4)
    assert np.all(freqs > 0) and np.all(np.diff(freqs) >= 0)
    assert np.allclose(freqs, want, rtol=1e-6), (freqs, want)
    W = bdtree.load_basis(out, len(V))
    # Every Python mode lies in the span of the CLI's.
    coeffs, *_ = np.linalg.lstsq(W, U, rcond=None)
    assert np.linalg.norm(U - W @ coeffs) <= 1e-6 * np.linalg.norm(U)


def test_modes_refuse_bad_options():
    V, F = bdtree.load_mesh(FIXTURES / "meshes" / "rigid-blob.obj")
    with pytest.raises(bdtree.Error, match="oisson"):
        bdtree.modes(V, F, k=2, poisson=0.7)
    with pytest.raises(bdtree.Error):
        bdtree.modes(V, F, k=0)

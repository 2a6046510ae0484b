"""bdtree.modes equals `bdtree modes` (the CLI) on a fixture mesh — frequencies, the span of
the displacements (mode shapes are defined up to sign, and up to rotation inside a repeated
frequency), modal masses and stiffnesses — free and clamped; in millimetres with
units="mm" it gives the metre mesh's frequencies; mass-normalised modes have unit modal mass.
(The modal masses and stiffnesses themselves are checked against Euler–Bernoulli beam theory in
`cargo test -p bdtree-std --test modal modal_mass`.)"""

import json
import subprocess

import numpy as np
import pytest

import bdtree
from conftest import FIXTURES

MESH = FIXTURES / "meshes" / "rigid-blob.obj"


def cli_modes(cli, tmp_path, *extra):
    out = tmp_path / "modes.npy"
    args = [str(cli), "modes", str(MESH), "-k", "4", "--resolution", "10", "-o", str(out),
            "--json", *extra]
    report = json.loads(subprocess.run(args, check=True, capture_output=True,
                                       text=True).stdout)
    return report, bdtree.load_basis(out)


def same_span(U, W):
    """Every column of U lies in the span of W's."""
    coeffs, *_ = np.linalg.lstsq(W, U, rcond=None)
    return np.linalg.norm(U - W @ coeffs) <= 1e-6 * np.linalg.norm(U)


def test_modes_equal_the_cli(tmp_path, cli):
    report, W = cli_modes(cli, tmp_path)
    V, F = bdtree.load_mesh(MESH)
    m = bdtree.modes(V, F, k=4, young=1e6, poisson=0.45, density=1000.0, resolution=10)
    assert isinstance(m, bdtree.Modes)
    freqs, U = m.frequencies_hz, m.basis
    want = np.asarray(report["frequencies_hz"])
    assert freqs.shape == (4,) and U.shape == (3 * len(V), 4)
    assert np.all(freqs > 0) and np.all(np.diff(freqs) >= 0)
    assert np.allclose(freqs, want, rtol=1e-6), (freqs, want)
    assert same_span(U, W)
    # Peak normalisation: each column's largest vertex displacement is 1.
    peaks = np.linalg.norm(U.reshape(len(V), 3, 4), axis=1).max(axis=0)
    assert np.allclose(peaks, 1.0, rtol=1e-12)
    # Masses and stiffnesses as the CLI reports them, k = m ω².
    assert np.allclose(m.masses, report["modal_masses"], rtol=1e-6)
    assert np.allclose(m.stiffnesses, report["modal_stiffnesses"], rtol=1e-6)
    assert np.allclose(m.stiffnesses, m.masses * (2 * np.pi * freqs) ** 2, rtol=1e-9)
    assert (m.units, m.normalization, m.held_vertices) == ("m", "peak", 0)


def test_clamped_modes_equal_the_cli(tmp_path, cli):
    V, F = bdtree.load_mesh(MESH)
    cut = V[:, 0].min() + 0.15 * np.ptp(V[:, 0])
    spec = f"x<{cut:.6f}"
    report, W = cli_modes(cli, tmp_path, "--fixed", spec)
    m = bdtree.modes(V, F, k=4, resolution=10, fixed=[spec])
    assert m.held_vertices == report["held_vertices"] > 0
    assert np.allclose(m.frequencies_hz, report["frequencies_hz"], rtol=1e-6)
    assert same_span(m.basis, W)
    held = V[:, 0] < cut
    assert np.abs(m.basis.reshape(len(V), 3, 4)[held]).max() == 0.0
    # The same vertices as a list hold the body the same way.
    listed = tmp_path / "held.txt"
    listed.write_text("\n".join(str(i) for i in np.flatnonzero(held)))
    report, _ = cli_modes(cli, tmp_path, "--fixed-vertices", str(listed))
    by_index = bdtree.modes(V, F, k=4, resolution=10, fixed_vertices=np.flatnonzero(held))
    assert np.allclose(by_index.frequencies_hz, report["frequencies_hz"], rtol=1e-6)


def test_millimetre_mesh_with_units_mm_issue_39():
    V, F = bdtree.load_mesh(MESH)
    metres = bdtree.modes(V, F, k=3, resolution=10)
    mm = bdtree.modes(V * 1000.0, F, k=3, resolution=10, units="mm")
    wrong = bdtree.modes(V * 1000.0, F, k=3, resolution=10)
    assert np.allclose(mm.frequencies_hz, metres.frequencies_hz, rtol=1e-6)
    # Taken as metres, the millimetre mesh is a body 1000 times larger.
    assert np.allclose(wrong.frequencies_hz * 1000.0, metres.frequencies_hz, rtol=1e-6)
    # Per millimetre of q, a thousandth of the mass and stiffness per metre.
    assert np.allclose(mm.masses * 1000.0, metres.masses, rtol=1e-6)
    assert np.allclose(mm.stiffnesses * 1000.0, metres.stiffnesses, rtol=1e-6)
    assert mm.units == "mm"


def test_mass_normalised_modes_have_unit_modal_mass():
    V, F = bdtree.load_mesh(MESH)
    peak = bdtree.modes(V, F, k=3, resolution=10)
    unit = bdtree.modes(V, F, k=3, resolution=10, normalization="mass")
    omega2 = (2 * np.pi * peak.frequencies_hz) ** 2
    assert np.allclose(unit.masses, 1.0) and np.allclose(unit.stiffnesses, omega2, rtol=1e-9)
    assert unit.normalization == "mass"
    # Each column is the peak one over √m (same sign).
    assert np.allclose(unit.basis * np.sqrt(peak.masses), peak.basis, atol=1e-9)


@pytest.mark.parametrize("kwargs, message", [
    (dict(k=0), r"k = 0: expected a number of modes, an integer ≥ 1"),
    (dict(k=-1), r"k = -1: expected a number of modes, an integer ≥ 1"),
    (dict(k=2.5), r"k = 2.5: expected a number of modes"),
    (dict(k=2**70), r"k = 1180591620717411303424: expected a number of modes"),
    (dict(young=-1), r"young must be a positive number of pascals, not -1"),
    (dict(young="stiff"), r"young = 'stiff': expected a number"),
    (dict(poisson=0.7), r"poisson must be strictly between -1 and 0.5, not 0.7"),
    (dict(density=0), r"density must be a positive number of kg/m³, not 0"),
    (dict(resolution=0), r"resolution = 0: expected lattice cells along the longest side"),
    (dict(max_cells=-5), r"max_cells = -5: expected a cell budget"),
    (dict(units="furlong"), r"units = 'furlong': expected a length unit, one of m, cm, mm"),
    (dict(normalization="unit"), r"normalization = 'unit': expected \"peak\" or \"mass\""),
    (dict(fixed=["q<1"]), r"fixed\[0\] = 'q<1': expected a half-space"),
    (dict(fixed=[3]), r"fixed\[0\] = 3: expected a half-space"),
    (dict(fixed_vertices=[0, 10**6]), r"fixed_vertices\[1\] = 1000000: expected a vertex index"),
])
def test_modes_refuse_bad_arguments_naming_the_parameter_issue_39(kwargs, message):
    V, F = bdtree.load_mesh(MESH)
    with pytest.raises(bdtree.Error, match=message):
        bdtree.modes(V, F, **{"resolution": 6, **kwargs})


def test_modes_errors_name_python_parameters_not_cli_flags():
    V, F = bdtree.load_mesh(MESH)
    # Too few degrees of freedom for the modes asked: the message names k and resolution.
    with pytest.raises(bdtree.Error) as e:
        bdtree.modes(V, F, k=500, resolution=2)
    text = str(e.value)
    assert "resolution" in text and "lower k" in text and "--" not in text and "-k" not in text

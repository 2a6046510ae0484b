"""collide_self on meshes that break self-collision's shortcuts: rest shapes that cross or touch
themselves, duplicated vertices (UV seams and poles, STL-style soups), non-manifold edges,
degenerate triangles; no modes, all-zero and clamped bases; unit-size and millimetre parts,
modelled and posed far from the origin. Against two NumPy oracles on the explicitly deformed
float64 mesh: the segment–triangle brute force (crossings) and the triangle distances (touching:
every non-adjacent pair at distance 0 must be reported)."""

import numpy as np
import pytest

import bdtree
from geometry import all_pair_distances
from test_oracle import brute_force_self, quat_to_matrix, random_quaternion, smooth_basis, world


def grid(nx, ny, width=1.0, height=1.0):
    """A flat sheet in z = 0 centred at the origin: (V, F)."""
    V = np.array([[width * (i / nx - 0.5), height * (j / ny - 0.5), 0.0]
                  for j in range(ny + 1) for i in range(nx + 1)])
    at = lambda i, j: j * (nx + 1) + i
    F = [[at(i, j), at(i + 1, j), at(i + 1, j + 1)] for j in range(ny) for i in range(nx)]
    F += [[at(i, j), at(i + 1, j + 1), at(i, j + 1)] for j in range(ny) for i in range(nx)]
    return V, np.array(F, dtype=np.int64)


def merge(*parts):
    """One mesh of several, no vertex shared."""
    Vs, Fs, base = [], [], 0
    for V, F in parts:
        Vs.append(V)
        Fs.append(F + base)
        base += len(V)
    return np.vstack(Vs), np.vstack(Fs)


def rotate_x(V, angle):
    c, s = np.cos(angle), np.sin(angle)
    return V @ np.array([[1, 0, 0], [0, c, -s], [0, s, c]]).T


def seam_sphere(stacks=6, slices=10):
    """A UV sphere as exporters write it: pole rings of coincident vertices, a duplicated seam."""
    V = []
    for i in range(stacks + 1):
        th = np.pi * i / stacks
        for j in range(slices + 1):
            ph = 2 * np.pi * (j % slices) / slices
            if i in (0, stacks):
                V.append([0.0, 0.0, 0.5 if i == 0 else -0.5])
            else:
                V.append([0.5 * np.sin(th) * np.cos(ph), 0.5 * np.sin(th) * np.sin(ph),
                          0.5 * np.cos(th)])
    at = lambda i, j: i * (slices + 1) + j
    F = []
    for i in range(stacks):
        for j in range(slices):
            F.append([at(i, j), at(i + 1, j), at(i + 1, j + 1)])
            F.append([at(i, j), at(i + 1, j + 1), at(i, j + 1)])
    return np.array(V), np.array(F, dtype=np.int64)


def unweld(V, F):
    """Every triangle with its own three vertices (an STL soup)."""
    return V[F].reshape(-1, 3), np.arange(3 * len(F), dtype=np.int64).reshape(-1, 3)


def book(pages=3, across=3, up=3):
    """Pages sharing their spine (non-manifold edges), crossed by a sheet at mid height."""
    V = [[0.0, 0.0, k / up] for k in range(up + 1)]
    F = []
    for p in range(pages):
        a = 2 * np.pi * p / pages
        cols = [list(range(up + 1))]
        for i in range(1, across + 1):
            r = 0.6 * i / across
            start = len(V)
            V += [[r * np.cos(a), r * np.sin(a), k / up] for k in range(up + 1)]
            cols.append(list(range(start, start + up + 1)))
        for i in range(across):
            for k in range(up):
                F.append([cols[i][k], cols[i + 1][k], cols[i + 1][k + 1]])
                F.append([cols[i][k], cols[i + 1][k + 1], cols[i][k + 1]])
    cross_V, cross_F = grid(5, 3, 1.4, 0.6)
    return merge((np.array(V), np.array(F, dtype=np.int64)),
                 (cross_V + [0.0, 0.0, 0.45], cross_F))


def families():
    """(name, V, F), each touching or crossing itself at rest."""
    sheet = grid(6, 6)
    collapsed_V = sheet[0].copy()
    for i in (8, 16, 23):
        collapsed_V[i] = collapsed_V[i + 1]
    collapsed_V[:, 2] = 0.3 * collapsed_V[:, 0] ** 2
    wall_V, wall_F = grid(3, 2, 0.6, 0.5)
    return [
        ("crossing", *merge(sheet, (rotate_x(grid(5, 4, 1.0, 0.8)[0], 0.9), grid(5, 4)[1]))),
        ("edge to edge", *merge(grid(4, 4), (grid(4, 4)[0] + [1.0, 0.0, 0.0], grid(4, 4)[1]))),
        ("standing", *merge(sheet, (rotate_x(wall_V, np.pi / 2) + [0.05, 0.1, 0.25], wall_F))),
        ("seams", *seam_sphere()),
        ("unwelded", *unweld(*seam_sphere(4, 8))),
        ("non-manifold", *book()),
        ("collapsed", collapsed_V, sheet[1]),
    ]


def touching_truth(P, F, size):
    """Every non-adjacent pair (i, j), i < j, at distance 0 (within float64 rounding)."""
    D = all_pair_distances(P, F, P, F)
    i, j = np.nonzero(np.triu(D <= 1e-13 * size, k=1))
    shares = (F[i][:, :, None] == F[j][:, None, :]).any(axis=(1, 2))
    return set(zip(i[~shares].tolist(), j[~shares].tolist()))


@pytest.mark.parametrize("precision", ["f64", "f32"])
@pytest.mark.parametrize("basis", ["none", "zero", "clamped"])
def test_self_collision_misses_nothing_on_shapes_that_break_the_shortcuts(precision, basis):
    rng = np.random.default_rng(58 + len(basis) + (precision == "f32"))
    for name, V0, F in families():
        for size, modelled, far in ((1.0, 0.0, 0.0), (1e-3, 1.0, 0.3), (1.0, 1000.0, 0.0)):
            offset = rng.uniform(-1, 1, size=3) * modelled
            V = V0 * size + offset
            if basis == "none":
                U = None
            elif basis == "zero":
                U = np.zeros((3 * len(V), 2))
            else:
                U = smooth_basis(V0, 2, rng) * size * 0.05
                U.reshape(len(V), 3, 2)[V0[:, 0] < 0] = 0.0
            tree = bdtree.Tree.build(V, F, modes=U, precision=precision)
            body = bdtree.Body(tree)
            q = np.zeros(0 if U is None else 2)
            if U is not None and basis == "clamped":
                q = rng.uniform(-0.3, 0.3, size=2)
            r, t = random_quaternion(rng), rng.uniform(-1, 1, size=3) * far
            body.set_state(rotation=r, translation=t, q=q)
            got = {tuple(p) for p in bdtree.collide_self(body).tolist()}
            P = world(V, U, r, t, q)
            crossing = set(brute_force_self(P, F))
            touching = touching_truth(P, F, size)
            truth = crossing | touching
            assert truth, f"{name}: touches or crosses itself at rest"
            missed = sorted(truth - got)
            assert not missed, (
                f"{name} {basis} {precision} size {size} at {offset}: missed {missed[:5]} "
                f"of {len(truth)}")
